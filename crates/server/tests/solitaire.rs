//! « Défi solitaire » (docs/protocol.md `POST /api/rooms` with `"solitaire": true`): the
//! crossing puzzle through the API, over real sockets — one seat, started at once, the server
//! listing the legal moves and refusing the others, a whole crossing played to the end, kept on
//! disk across a restart, replayed in the record and the file, played again, given up, and the
//! refused combinations.

mod common;

use common::{Client, Server};
use serde_json::{json, Value};

/// A crossing in 27 moves, the optimum (`dames cc solve --beam 1000`): from and to, in cube
/// coordinates, for seat 0 from camp 0 to camp 3.
pub const CROSSING: [([i64; 3], [i64; 3]); 27] = [
    ([1, 4, -5], [1, 3, -4]),
    ([3, 4, -7], [1, 2, -3]),
    ([4, 2, -6], [0, 2, -2]),
    ([0, 2, -2], [-1, 2, -1]),
    ([4, 4, -8], [-2, 2, 0]),
    ([2, 4, -6], [0, 2, -2]),
    ([2, 3, -5], [-2, 1, 1]),
    ([-2, 1, 1], [-2, 0, 2]),
    ([4, 3, -7], [-2, -1, 3]),
    ([4, 1, -5], [-2, 1, 1]),
    ([1, 3, -4], [-3, -1, 4]),
    ([-3, -1, 4], [-3, -2, 5]),
    ([3, 2, -5], [2, 3, -5]),
    ([3, 3, -6], [-3, -3, 6]),
    ([2, 3, -5], [1, 3, -4]),
    ([1, 3, -4], [-3, -1, 4]),
    ([-3, -2, 5], [-2, -3, 5]),
    ([-1, 2, -1], [-3, -4, 7]),
    ([1, 2, -3], [-1, -4, 5]),
    ([0, 2, -2], [-1, 2, -1]),
    ([-1, 2, -1], [-3, -2, 5]),
    ([-2, 0, 2], [-4, -4, 8]),
    ([-2, 2, 0], [-4, -2, 6]),
    ([-2, 1, 1], [-2, 0, 2]),
    ([-2, 0, 2], [-2, -4, 6]),
    ([-2, -1, 3], [-4, -3, 7]),
    ([-3, -1, 4], [-4, -1, 5]),
];

/// Creates a solitaire room for Ana.
async fn solitaire(server: &Server) -> (Client, Value) {
    let mut ana = server.client();
    let room = ana
        .create(json!({"game": "cc", "name": "Ana", "solitaire": true}))
        .await;
    (ana, room)
}

/// The holes of the pieces, sorted.
fn holes(room: &Value) -> Vec<Value> {
    let mut at: Vec<Value> = room["play"]["board"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            assert_eq!(p["seat"], 0, "{p}");
            p["at"].clone()
        })
        .collect();
    at.sort_by_key(|v| v.to_string());
    at
}

/// Camp 0 (the start) or camp 3 (the goal): the ten holes with z ≤ −5, or z ≥ 5.
fn in_camp(room: &Value, goal: bool) -> bool {
    let at = holes(room);
    at.len() == 10
        && at.iter().all(|c| {
            let z = c[2].as_i64().unwrap();
            if goal {
                z >= 5
            } else {
                z <= -5
            }
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crossing_is_played_alone_to_the_end_kept_on_disk_and_played_again() {
    let server = Server::start().await;
    let (ana, room) = solitaire(&server).await;
    // One seat, started at once, seat 0 to move with its legal moves.
    assert_eq!(room["solitaire"], true);
    assert_eq!(room["game"], "cc");
    assert_eq!(room["status"], "playing");
    assert_eq!(room["seats"].as_array().unwrap().len(), 1);
    assert_eq!(room["seats"][0]["camps"], json!([0]));
    assert_eq!(room["play"]["to_move"], 0);
    assert!(in_camp(&room, false), "{}", room["play"]["board"]);
    let legal = room["play"]["legal_moves"].as_array().unwrap();
    assert!(!legal.is_empty());
    assert!(legal
        .iter()
        .any(|m| m["from"] == json!(CROSSING[0].0) && m["to"] == json!(CROSSING[0].1)));

    // A move the list does not hold is refused and changes nothing.
    let before = ana.room().await;
    ana.play(json!({"from": [4, 4, -8], "to": [-4, -4, 8]}))
        .await
        .expect_error(422, "illegal_move");
    ana.play(json!({"from": [9, 9, 9], "to": [0, 0, 0]}))
        .await
        .expect_error(422, "illegal_move");
    assert_eq!(ana.room().await, before);

    // The first half, then a restart: every acknowledged move is on disk.
    for (n, (from, to)) in CROSSING.iter().enumerate().take(13) {
        let answer = ana.play(json!({"from": from, "to": to})).await.ok();
        assert_eq!(answer["applied"], true, "move {}", n + 1);
        let rec = &answer["room"]["play"]["moves"][n];
        assert_eq!(rec["seat"], 0);
        // The engine's empty second seat passes every turn: the protocol never shows it.
        assert_eq!(rec["passes"], json!([]), "move {}", n + 1);
        assert_eq!(answer["room"]["play"]["to_move"], 0);
    }
    let halfway = ana.room().await;
    let server = server.restart(|_| {}).await;
    let ana = Client {
        base: server.client().base,
        ..ana
    };
    let reloaded = ana.room().await;
    assert_eq!(reloaded["play"], halfway["play"]);
    assert_eq!(reloaded["solitaire"], true);

    for (n, (from, to)) in CROSSING.iter().enumerate().skip(13) {
        let answer = ana.play(json!({"from": from, "to": to})).await.ok();
        assert_eq!(answer["applied"], true, "move {}", n + 1);
    }
    let room = ana.room().await;
    assert_eq!(room["status"], "finished");
    assert!(in_camp(&room, true), "{}", room["play"]["board"]);
    assert_eq!(
        room["play"]["outcome"],
        json!({"kind": "win", "reason": "finished", "places": [1]})
    );
    let moves = room["play"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), CROSSING.len());
    assert_eq!(moves.last().unwrap()["finished"], json!([0]));
    assert_eq!(room["play"]["to_move"], Value::Null);
    ana.play(json!({"from": [-4, -1, 5], "to": [-3, -1, 4]}))
        .await
        .expect_error(409, "wrong_state");

    // The record replays the crossing from the camp; the file has the moves and the result.
    let code = ana.code.clone().unwrap();
    let record = ana.get(&format!("/api/rooms/{code}/record")).await.ok();
    assert_eq!(record["log"].as_array().unwrap().len(), CROSSING.len());
    assert_eq!(record["seats"].as_array().unwrap().len(), 1);
    assert_eq!(record["outcome"], room["play"]["outcome"]);
    let file = ana
        .fetch(&format!("/api/rooms/{code}/download"))
        .await
        .text()
        .await
        .unwrap();
    assert!(file.contains("[Result \"1\"]"), "{file}");
    assert!(file.contains("[Challenge \"solitaire\"]"), "{file}");

    // « Rejouer »: the next crossing starts at once from camp 0, seat 0 first again.
    let again = ana.act("rematch", json!({"ready": true})).await.ok();
    assert_eq!(again["status"], "playing");
    assert_eq!(again["game_no"], 2);
    assert_eq!(again["play"]["to_move"], 0);
    assert!(again["play"]["moves"].as_array().unwrap().is_empty());
    assert!(in_camp(&again, false));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn giving_up_ends_the_crossing_with_no_result_and_spectators_get_no_moves() {
    let server = Server::start().await;
    let (ana, room) = solitaire(&server).await;
    let code = room["code"].as_str().unwrap();
    // Anybody with the code may watch; only the seat gets legal moves and may play.
    let guest = server.client();
    let seen = guest.get(&format!("/api/rooms/{code}")).await.ok();
    assert_eq!(seen["you"], Value::Null);
    assert!(seen["play"]["legal_moves"].as_array().unwrap().is_empty());
    guest
        .post(&format!("/api/rooms/{code}/join"), json!({"name": "Bo"}))
        .await
        .expect_error(409, "wrong_state");
    // A hint is the CPU's move among the listed ones.
    let hint = ana.act("hint", json!({})).await.ok();
    assert!(room["play"]["legal_moves"]
        .as_array()
        .unwrap()
        .contains(&hint["move"]));
    let (from, to) = CROSSING[0];
    ana.play(json!({"from": from, "to": to})).await.ok();
    let over = ana.act("resign", json!({})).await.ok();
    assert_eq!(over["status"], "finished");
    assert_eq!(
        over["play"]["outcome"],
        json!({"kind": "places", "reason": "resignation", "places": [null]})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_solitaire_refuses_what_it_cannot_be() {
    let server = Server::start().await;
    let ana = server.client();
    let create = |body: Value| {
        let ana = ana.clone();
        async move { ana.post("/api/rooms", body).await }
    };
    let refused = create(json!({"game": "draughts", "name": "Ana", "solitaire": true})).await;
    refused.expect_error(400, "invalid_settings");
    assert_eq!(refused.body["error"]["field"], "solitaire");
    assert_eq!(refused.body["error"]["detail"]["reason"], "not_allowed");
    for (body, field) in [
        (
            json!({"game": "cc", "name": "Ana", "solitaire": true, "cpu": {"level": "expert"}}),
            "cpu",
        ),
        (
            json!({"game": "cc", "name": "Ana", "solitaire": true, "start": "W:W31:B1"}),
            "start",
        ),
        (
            json!({"game": "cc", "name": "Ana", "solitaire": true, "settings": {"rules": {"players": 3}}}),
            "rules",
        ),
        (
            json!({"game": "cc", "name": "Ana", "solitaire": true, "settings": {"rules": {"long_jumps": true}}}),
            "rules",
        ),
        (
            json!({"game": "cc", "name": "Ana", "solitaire": true, "settings": {"random_first": true}}),
            "random_first",
        ),
    ] {
        let answer = create(body.clone()).await;
        answer.expect_error(400, "invalid_settings");
        assert_eq!(answer.body["error"]["field"], field, "{body}");
        assert_eq!(answer.body["error"]["detail"]["reason"], "conflict");
        assert_eq!(answer.body["error"]["detail"]["with"], "solitaire");
    }
    create(json!({"game": "cc", "name": "Ana", "solitaire": "yes"}))
        .await
        .expect_error(400, "bad_json");
    // The other settings are kept.
    let mut bo = server.client();
    let room = bo
        .create(json!({"game": "cc", "name": "Bo", "solitaire": true,
            "settings": {"show_legal_moves": false, "hints": false, "rotate_first": false}}))
        .await;
    assert_eq!(room["settings"]["show_legal_moves"], false);
    assert_eq!(room["settings"]["hints"], false);
    assert_eq!(room["status"], "playing");
    // An ordinary room of Chinese checkers is not a solitaire.
    let mut cy = server.client();
    let plain = cy.create(json!({"game": "cc", "name": "Cy"})).await;
    assert_eq!(plain["solitaire"], false);
    assert_eq!(plain["seats"].as_array().unwrap().len(), 2);
}
