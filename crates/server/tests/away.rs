//! Away players (issue 11 item 1) over real sockets: the seat to move of a live game, without an
//! open connection for `away_after` seconds, is handed to a CPU by another player (HTTP `away`
//! and the WebSocket's `away` message), the CPU plays it, its person takes it back on
//! connecting; in a 2-player game the other claims the win after three times as long. Every
//! refusal is typed: `not_away` (with the time left), `wrong_state`, `not_seated`.

mod common;

use std::time::{Duration, Instant};

use common::{Client, Server};
use serde_json::{json, Value};

/// Ana (White, to move) and Bo in a live draughts game whose `away_after` is 5 s and CPU think
/// time short; Bo's page is open, Ana's is not. Returns them, Bo's socket and when it started.
async fn ana_away() -> (Server, Client, Client, common::Ws, Instant) {
    let server = Server::start().await;
    let settings = json!({"away_after": 5, "cpu_ms": 50});
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana", "settings": settings}))
        .await;
    let mut bo_ws = bo.ws(0).await;
    bo_ws.until("state").await;
    let started = Instant::now();
    let room = ana.start().await;
    assert_eq!(room["play"]["to_move"], 0);
    assert_eq!(room["settings"]["away_after"], 5);
    (server, ana, bo, bo_ws, started)
}

async fn wait_until(started: Instant, secs: u64) {
    let at = started + Duration::from_secs(secs) + Duration::from_millis(200);
    tokio::time::sleep_until(at.into()).await;
}

/// The next event of `kind` on `ws`.
async fn event(ws: &mut common::Ws, kind: &str) -> Value {
    loop {
        let msg = ws.next().await;
        if msg["type"] == "event" && msg["event"]["kind"] == kind {
            return msg["event"].clone();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cpu_plays_for_the_away_player_until_they_come_back() {
    let (server, ana, bo, mut bo_ws, started) = ana_away().await;
    let code = bo.code.clone().unwrap();

    // Too early: the time left is said.
    let early = bo.act("away", json!({"seat": 0, "action": "cpu"})).await;
    early.expect_error(409, "not_away");
    assert_eq!(early.body["error"]["detail"]["reason"], "too_early");
    let left = early.body["error"]["detail"]["wait_ms"].as_i64().unwrap();
    assert!((1..=5000).contains(&left), "{left}");
    // The same over the WebSocket, answered with the action's id.
    bo_ws
        .send(json!({"type": "away", "id": "a1", "seat": 0, "action": "cpu", "level": "facile"}))
        .await;
    let (err, _) = bo_ws.until("error").await;
    assert_eq!(
        (err["id"].as_str(), err["code"].as_str()),
        (Some("a1"), Some("not_away"))
    );
    // Bo's own seat, a seat whose person is here, a spectator, an unknown level.
    bo.act("away", json!({"seat": 1, "action": "cpu"}))
        .await
        .expect_error(409, "wrong_state");
    let present = ana.act("away", json!({"seat": 1, "action": "cpu"})).await;
    present.expect_error(409, "not_away");
    assert_eq!(present.body["error"]["detail"]["reason"], "present");
    let mut spectator = server.client();
    spectator.code = Some(code.clone());
    spectator
        .act("away", json!({"seat": 0, "action": "cpu"}))
        .await
        .expect_error(403, "not_seated");
    let bad = bo
        .act(
            "away",
            json!({"seat": 0, "action": "cpu", "level": "godlike"}),
        )
        .await;
    bad.expect_error(400, "invalid_settings");
    assert_eq!(bad.body["error"]["field"], "level");
    bo.act("away", json!({"seat": 0, "action": "claim", "extra": 1}))
        .await
        .expect_error(400, "bad_json");

    // After `away_after`: over the WebSocket, acked; everyone hears it; the CPU moves for Ana.
    wait_until(started, 5).await;
    bo_ws
        .send(json!({"type": "away", "id": "a2", "seat": 0, "action": "cpu", "level": "facile"}))
        .await;
    let stand_in = event(&mut bo_ws, "stand_in").await;
    assert_eq!(
        stand_in,
        json!({"kind": "stand_in", "seat": 0, "level": "facile", "by": 1})
    );
    let moved = event(&mut bo_ws, "move").await;
    assert_eq!(moved["seat"], 0, "the CPU played Ana's move");
    let room = bo.room().await;
    assert_eq!(room["seats"][0]["stand_in"], "facile");
    assert_eq!(room["seats"][0]["kind"], "human", "still Ana's seat");
    assert_eq!(room["play"]["to_move"], 1);
    // Asking again: the seat is already played.
    bo.act("away", json!({"seat": 0, "action": "cpu"}))
        .await
        .expect_error(409, "wrong_state");

    // Ana comes back: her connection takes the seat back, everyone is told.
    let mut ana_ws = ana.ws(0).await;
    let back = event(&mut bo_ws, "returned").await;
    assert_eq!(back, json!({"kind": "returned", "seat": 0}));
    let room = ana_ws
        .state_where(|r| r["seats"][0].get("stand_in").is_none())
        .await;
    assert_eq!(room["you"], 0);
    assert_eq!(bo.room().await["seats"][0].get("stand_in"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_other_player_claims_the_win_after_three_times_as_long() {
    let (server, _ana, bo, mut bo_ws, started) = ana_away().await;
    wait_until(started, 5).await;
    let early = bo.act("away", json!({"seat": 0, "action": "claim"})).await;
    early.expect_error(409, "not_away");
    assert!(early.body["error"]["detail"]["wait_ms"].as_i64().unwrap() > 8_000);
    wait_until(started, 15).await;
    let room = bo
        .act("away", json!({"seat": 0, "action": "claim"}))
        .await
        .ok();
    assert_eq!(room["status"], "finished");
    let outcome = &room["play"]["outcome"];
    assert_eq!(
        (&outcome["kind"], &outcome["reason"]),
        (&json!("win"), &json!("abandonment"))
    );
    assert_eq!(outcome["places"], json!([2, 1]));
    let claimed = event(&mut bo_ws, "claimed").await;
    assert_eq!(claimed, json!({"kind": "claimed", "seat": 1, "away": 0}));
    // The game's record says how it ended.
    let record = bo
        .get(&format!(
            "/api/rooms/{}/record",
            bo.code.as_deref().unwrap()
        ))
        .await
        .ok();
    assert_eq!(
        record["log"][0],
        json!({"kind": "forfeit", "seat": 0, "at": record["log"][0]["at"]})
    );
    assert_eq!(record["outcome"]["reason"], "abandonment");
    // Stored as such: the room rebuilt from the database after a restart says the same.
    drop(bo_ws);
    let server = server.restart(|_| {}).await;
    let mut reader = server.client();
    reader.code = bo.code.clone();
    let room = reader.room().await;
    assert_eq!(room["play"]["outcome"]["reason"], "abandonment");
    assert_eq!(room["play"]["outcome"]["places"], json!([2, 1]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turn_by_turn_games_and_three_player_claims_are_refused() {
    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana", "settings": {"rhythm": "turn"}}))
        .await;
    ana.start().await;
    let refused = bo.act("away", json!({"seat": 0, "action": "cpu"})).await;
    refused.expect_error(409, "wrong_state");
    assert_eq!(refused.body["error"]["detail"]["reason"], "turn_rhythm");

    let mut ana = server.client();
    ana.create(json!({"game": "cc", "name": "Ana", "settings": {"rules": {"players": 3}, "away_after": 5}}))
        .await;
    let code = ana.code.clone().unwrap();
    let mut bo = server.client();
    bo.join(&code, "Bo").await;
    ana.act("seats/2", json!({"cpu": "normal"})).await.ok();
    ana.start().await;
    let refused = bo.act("away", json!({"seat": 0, "action": "claim"})).await;
    refused.expect_error(409, "wrong_state");
    assert_eq!(refused.body["error"]["detail"]["reason"], "not_two_players");
    // Out of its range: refused by the table (before the state is looked at).
    let refused = ana.act("settings", json!({"away_after": 1})).await;
    refused.expect_error(400, "invalid_settings");
    assert_eq!(refused.body["error"]["field"], "away_after");
    let mut host = server.client();
    let bad = host
        .post(
            "/api/rooms",
            json!({"game": "cc", "name": "Cy", "settings": {"away_after": 4000}}),
        )
        .await;
    bad.expect_error(400, "invalid_settings");
    assert_eq!(bad.body["error"]["field"], "away_after");
    assert_eq!(
        bad.body["error"]["detail"],
        json!({"reason": "out_of_range", "min": 5, "max": 3600})
    );
    host.create(json!({"game": "cc", "name": "Cy"})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_starts_without_the_player_who_left() {
    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana", "settings": {"cpu_ms": 50}}))
        .await;
    let mut bo_ws = bo.ws(0).await;
    bo_ws.until("state").await;
    ana.start().await;
    ana.act("resign", json!({})).await.ok();
    // Ana's page is closed: Bo does not wait for her.
    bo.act("rematch", json!({"ready": true, "absent_cpu": "godlike"}))
        .await
        .expect_error(400, "invalid_settings");
    bo.act("rematch", json!({"ready": false, "absent_cpu": "normal"}))
        .await
        .expect_error(400, "bad_json");
    let room = bo
        .act("rematch", json!({"ready": true, "absent_cpu": "difficile"}))
        .await
        .ok();
    assert_eq!(
        (&room["status"], &room["game_no"]),
        (&json!("playing"), &json!(2))
    );
    assert_eq!(room["seats"][0]["stand_in"], "difficile");
    assert_eq!(room["seats"][1].get("stand_in"), None);
    let stand_in = event(&mut bo_ws, "stand_in").await;
    assert_eq!(
        stand_in,
        json!({"kind": "stand_in", "seat": 0, "level": "difficile", "by": 1})
    );
    event(&mut bo_ws, "started").await;
    // Seats rotate: Ana's seat (played by the CPU) moves first in game 2… or Bo: either way
    // the game goes on, and Ana takes her seat back on coming back.
    let _ana_ws = ana.ws(0).await;
    event(&mut bo_ws, "returned").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_frees_the_seat_of_the_player_who_left_and_the_room_goes_back_to_the_lobby() {
    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana", "settings": {"cpu_ms": 50}}))
        .await;
    let mut ana_ws = ana.ws(0).await;
    ana_ws.until("state").await;
    ana.start().await;
    ana.act("resign", json!({})).await.ok();
    // Bo never had a page open: gone. Only the host chooses empty seats.
    bo.act("rematch", json!({"ready": true, "absent_empty": true}))
        .await
        .expect_error(409, "wrong_state");
    ana.act(
        "rematch",
        json!({"ready": true, "absent_empty": true, "absent_cpu": "normal"}),
    )
    .await
    .expect_error(400, "bad_json");
    ana.act("rematch", json!({"ready": false, "absent_empty": true}))
        .await
        .expect_error(400, "bad_json");
    let room = ana
        .act("rematch", json!({"ready": true, "absent_empty": true}))
        .await
        .ok();
    assert_eq!(
        (&room["status"], &room["game_no"]),
        (&json!("lobby"), &json!(1))
    );
    assert_eq!(room["seats"][1]["kind"], "empty");
    assert_eq!(
        event(&mut ana_ws, "left").await,
        json!({"kind": "left", "seat": 1})
    );
    assert_eq!(
        event(&mut ana_ws, "reopened").await,
        json!({"kind": "reopened", "by": 0})
    );
    // Bo's token no longer holds a seat; someone new joins with the code and game 2 starts.
    let code = ana.code.clone().unwrap();
    let mut cy = server.client();
    cy.join(&code, "Cy").await;
    let room = ana.start().await;
    assert_eq!(
        (&room["status"], &room["game_no"]),
        (&json!("playing"), &json!(2))
    );
    assert_eq!(room["seats"][1]["name"], "Cy");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_away_clock_is_kept_across_a_restart() {
    // Ana (to move) keeps her page open for most of her turn and leaves just before the server
    // restarts: after it she has been away since she left, not since her turn began.
    let server = Server::start().await;
    let settings = json!({"away_after": 5, "cpu_ms": 50});
    let (ana, mut bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana", "settings": settings}))
        .await;
    let mut ana_ws = ana.ws(0).await;
    ana_ws.until("state").await;
    let started = Instant::now();
    assert_eq!(ana.start().await["play"]["to_move"], 0);
    wait_until(started, 3).await;
    drop(ana_ws);
    let left = Instant::now();
    // The close is counted and its clock stored (in a task of its own), then the restart.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let server = server.restart(|_| {}).await;
    bo.base.clone_from(&server.base);
    // More than `away_after` since her turn began, not since she left: too early.
    wait_until(started, 5).await;
    let early = bo.act("away", json!({"seat": 0, "action": "cpu"})).await;
    early.expect_error(409, "not_away");
    let wait = early.body["error"]["detail"]["wait_ms"].as_i64().unwrap();
    let since_left = i64::try_from(left.elapsed().as_millis()).unwrap();
    assert!(
        (wait - (5_000 - since_left)).abs() < 400,
        "{wait} ms left, {since_left} ms after she left"
    );
    // Five seconds after she left: her seat goes to a CPU.
    tokio::time::sleep_until((left + Duration::from_millis(5_300)).into()).await;
    let room = bo
        .act("away", json!({"seat": 0, "action": "cpu"}))
        .await
        .ok();
    assert_eq!(room["seats"][0]["stand_in"], "normal", "{room}");
}
