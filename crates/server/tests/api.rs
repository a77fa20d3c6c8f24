//! The HTTP API against a real server: rooms, seats, settings, and every error of the protocol.

mod common;

use common::{Answer, Server};
use serde_json::{json, Value};

async fn cc_room(server: &Server, players: u64) -> (common::Client, Value) {
    let mut host = server.client();
    let room = host
        .create(json!({"game": "cc", "name": "Ana", "settings": {"rules": {"players": players}}}))
        .await;
    (host, room)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_join_by_code_and_start() {
    let server = Server::start().await;
    let (host, room) = cc_room(&server, 3).await;
    let code = room["code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 6);
    assert!(code
        .bytes()
        .all(|b| b"23456789ABCDEFGHJKMNPQRSTUVWXYZ".contains(&b)));
    assert_eq!(
        (
            room["status"].as_str(),
            room["you"].as_u64(),
            room["host"].as_bool()
        ),
        (Some("lobby"), Some(0), Some(true))
    );
    assert_eq!(room["seats"].as_array().unwrap().len(), 3);
    // RULES.md 1.2: 3 players sit on camps 0, 2, 4.
    let camps: Vec<&Value> = room["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["camps"])
        .collect();
    assert_eq!(camps, [&json!([0]), &json!([2]), &json!([4])]);
    assert_eq!(room["settings"]["rules"]["players"], 3);
    assert_eq!(room["settings"]["show_legal_moves"], true);

    // Join by the code typed in lower case.
    let mut bo = server.client();
    let seen = bo.join(&code.to_lowercase(), "  Bo  ").await;
    assert_eq!(
        (seen["you"].as_u64(), seen["host"].as_bool()),
        (Some(1), Some(false))
    );
    assert_eq!(seen["seats"][1]["name"], "Bo");
    // Joining again with the seat token gives the same seat and token back.
    let again = bo
        .post(&format!("/api/rooms/{code}/join"), json!({"name": "Bo"}))
        .await
        .ok();
    assert_eq!(
        (again["seat"].as_u64(), again["token"].as_str()),
        (Some(1), bo.token.as_deref())
    );

    // Not enough players yet; the host fills the last seat with a CPU.
    host.act("start", json!({}))
        .await
        .expect_error(409, "not_enough_players");
    let room = host.act("seats/2", json!({"cpu": "difficile"})).await.ok();
    assert_eq!(
        (
            room["seats"][2]["kind"].as_str(),
            room["seats"][2]["level"].as_str()
        ),
        (Some("cpu"), Some("difficile"))
    );
    let room = host.start().await;
    assert_eq!(
        (room["status"].as_str(), room["game_no"].as_u64()),
        (Some("playing"), Some(1))
    );
    assert_eq!(room["play"]["to_move"], 0);
    assert!(!room["play"]["legal_moves"].as_array().unwrap().is_empty());
    assert_eq!(
        room["play"]["board"]["pieces"].as_array().unwrap().len(),
        30
    );
    // Bo is not to move: no legal moves for him; nor for a spectator.
    assert!(bo.room().await["play"]["legal_moves"]
        .as_array()
        .unwrap()
        .is_empty());
    let spectator = server.client();
    let seen = spectator.get(&format!("/api/rooms/{code}")).await.ok();
    assert_eq!(
        (seen["you"].clone(), seen["host"].as_bool()),
        (Value::Null, Some(false))
    );
    assert!(seen["play"]["legal_moves"].as_array().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_settings_seats_leave_and_kick() {
    let server = Server::start().await;
    let (host, _) = cc_room(&server, 2).await;
    let code = host.code.clone().unwrap();
    let mut bo = server.client();
    bo.join(&code, "Bo").await;
    // Bo may not change anything.
    bo.act("settings", json!({"show_legal_moves": false}))
        .await
        .expect_error(403, "not_host");
    bo.act("seats/1", json!({"kick": true}))
        .await
        .expect_error(403, "not_host");
    bo.act("start", json!({}))
        .await
        .expect_error(403, "not_host");
    // Six players: six seats, Bo keeps seat 1, camps follow RULES.md 1.2.
    let room = host
        .act(
            "settings",
            json!({"rules": {"players": 6}, "cpu_ms": 10, "confirm_move": true}),
        )
        .await
        .ok();
    assert_eq!(room["seats"].as_array().unwrap().len(), 6);
    assert_eq!(room["seats"][1]["name"], "Bo");
    assert_eq!(
        (
            room["settings"]["cpu_ms"].as_u64(),
            room["settings"]["confirm_move"].as_bool()
        ),
        (Some(10), Some(true))
    );
    // Back to 2 players with the first player drawn at random.
    let room = host
        .act(
            "settings",
            json!({"rules": {"players": 2}, "random_first": true}),
        )
        .await
        .ok();
    assert_eq!(room["settings"]["rules"]["random_first_player"], true);
    assert_eq!(room["seats"].as_array().unwrap().len(), 2);
    // A CPU may not replace a person; the host kicks Bo, then Bo's token is worth nothing.
    host.act("seats/1", json!({"cpu": "normal"}))
        .await
        .expect_error(409, "seat_taken");
    host.act("seats/0", json!({"cpu": "normal"}))
        .await
        .expect_error(409, "wrong_state");
    host.act("seats/9", json!({"cpu": "normal"}))
        .await
        .expect_error(409, "wrong_state");
    host.act("seats/1", json!({"cpu": "grandmaster"}))
        .await
        .expect_error(400, "invalid_settings");
    host.act("seats/1", json!({"sit": true}))
        .await
        .expect_error(400, "bad_json");
    let room = host.act("seats/1", json!({"kick": true})).await.ok();
    assert_eq!(room["seats"][1]["kind"], "empty");
    bo.act("leave", json!({}))
        .await
        .expect_error(403, "not_seated");
    // Bo comes back, then leaves by himself; the host cannot leave.
    bo.join(&code, "Bo").await;
    let room = bo.act("leave", json!({})).await.ok();
    assert_eq!(
        (room["seats"][1]["kind"].as_str(), room["you"].clone()),
        (Some("empty"), Value::Null)
    );
    host.act("leave", json!({}))
        .await
        .expect_error(409, "wrong_state");
    // CPU on, CPU off.
    assert_eq!(
        host.act("seats/1", json!({"cpu": "facile"})).await.ok()["seats"][1]["kind"],
        "cpu"
    );
    assert_eq!(
        host.act("seats/1", json!({"cpu": null})).await.ok()["seats"][1]["kind"],
        "empty"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_typed_errors() {
    let server = Server::start().await;
    let c = server.client();
    c.post_raw("/api/rooms", "{\"game\":")
        .await
        .expect_error(400, "bad_json");
    c.post_raw("/api/rooms", "[1,2]")
        .await
        .expect_error(400, "bad_json");
    c.post("/api/rooms", json!({"game": "cc", "name": 5}))
        .await
        .expect_error(400, "bad_json");
    c.post(
        "/api/rooms",
        json!({"game": "cc", "name": "Ana", "colour": "red"}),
    )
    .await
    .expect_error(400, "bad_json");
    let big = format!("{{\"game\":\"cc\",\"name\":\"{}\"}}", "x".repeat(20 * 1024));
    c.post_raw("/api/rooms", big)
        .await
        .expect_error(413, "too_large");
    for name in [
        "",
        "   ",
        "abcdefghijklmnopqrstuvwxy",
        "a\u{7}b",
        "line\nbreak",
    ] {
        c.post("/api/rooms", json!({"game": "cc", "name": name}))
            .await
            .expect_error(400, "invalid_name");
    }
    assert_eq!(
        c.post(
            "/api/rooms",
            json!({"game": "cc", "name": "Émilie-Ünal 李"})
        )
        .await
        .status,
        201
    );
    c.post("/api/rooms", json!({"game": "chess", "name": "Ana"}))
        .await
        .expect_error(400, "invalid_settings");
    let a = c
        .post(
            "/api/rooms",
            json!({"game": "cc", "name": "Ana", "settings": {"rules": {"players": 7}}}),
        )
        .await;
    a.expect_error(400, "invalid_settings");
    assert!(
        a.body["error"]["message"].as_str().unwrap().contains('7'),
        "{}",
        a.body
    );
    let swap = json!({"game": "cc", "name": "Ana", "settings": {"rules": {"swap_rule": true}}});
    c.post("/api/rooms", swap)
        .await
        .expect_error(400, "invalid_settings");
    let bad =
        json!({"game": "draughts", "name": "Ana", "settings": {"rules": {"variant": "russian"}}});
    c.post("/api/rooms", bad)
        .await
        .expect_error(400, "invalid_settings");
    let bad = json!({"game": "draughts", "name": "Ana", "settings": {"rules": {"three_vs_king_moves": 12}}});
    c.post("/api/rooms", bad)
        .await
        .expect_error(400, "invalid_settings");
    let bad = json!({"game": "draughts", "name": "Ana", "settings": {"cpu_ms": 99999999}});
    c.post("/api/rooms", bad)
        .await
        .expect_error(400, "invalid_settings");
    let bad = json!({"game": "cc", "name": "Ana", "cpu": {"level": "godlike"}});
    c.post("/api/rooms", bad)
        .await
        .expect_error(400, "invalid_settings");
    c.get("/api/rooms/ZZZZZZ")
        .await
        .expect_error(404, "unknown_room");
    c.get("/api/rooms/not-a-code")
        .await
        .expect_error(404, "unknown_room");
    c.post("/api/rooms/ZZZZZZ/join", json!({"name": "Bo"}))
        .await
        .expect_error(404, "unknown_room");
    for path in ["/api/nothing/here", "/api/", "/api"] {
        c.get(path).await.expect_error(404, "not_found");
    }
    // Path parameters the framework cannot read: still the typed error.
    c.send(c.http.delete(format!("{}/api/feedback/abc", server.base)))
        .await
        .expect_error(400, "invalid_input");
    c.get("/api/rooms/%FF%FE")
        .await
        .expect_error(400, "invalid_input");
    assert_eq!(c.get("/api/health").await.ok(), json!({"ok": true}));
    let mut host = server.client();
    host.create(json!({"game": "cc", "name": "Ana"})).await;
    let path = format!(
        "/api/rooms/{}/events?since=abc",
        host.code.as_deref().unwrap()
    );
    host.get(&path).await.expect_error(400, "bad_json");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_and_turns_are_enforced() {
    let server = Server::start().await;
    let (host, _) = cc_room(&server, 2).await;
    let code = host.code.clone().unwrap();
    let mv = json!({"from": [1, 4, -5], "to": [1, 3, -4]});
    host.play(mv.clone()).await.expect_error(409, "wrong_state");
    let mut bo = server.client();
    bo.join(&code, "Bo").await;
    let third = server.client();
    third
        .post(&format!("/api/rooms/{code}/join"), json!({"name": "Cy"}))
        .await
        .expect_error(409, "room_full");
    third
        .post(
            &format!("/api/rooms/{code}/join"),
            json!({"name": "Cy", "seat": 0}),
        )
        .await
        .expect_error(409, "seat_taken");
    host.start().await;
    host.act("start", json!({}))
        .await
        .expect_error(409, "wrong_state");
    third
        .post(&format!("/api/rooms/{code}/join"), json!({"name": "Cy"}))
        .await
        .expect_error(409, "wrong_state");

    // Bo is not to move; a spectator holds no seat; a token of another room is no seat here.
    bo.play(json!({"from": [-1, -4, 5], "to": [-1, -3, 4]}))
        .await
        .expect_error(409, "not_your_turn");
    let mut spectator = server.client();
    spectator.code = Some(code.clone());
    spectator
        .play(mv.clone())
        .await
        .expect_error(403, "not_seated");
    spectator
        .act("resign", json!({}))
        .await
        .expect_error(403, "not_seated");
    let (mut other, _) = cc_room(&server, 2).await;
    other.code = Some(code.clone());
    other.play(mv.clone()).await.expect_error(403, "not_seated");
    // Cookie and header that disagree.
    let url = format!("{}/api/rooms/{code}/move", server.base);
    let req = host
        .http
        .post(url)
        .header(
            "cookie",
            format!("dames_seat_{code}={}", bo.token.as_deref().unwrap()),
        )
        .json(&json!({"move": mv}));
    host.send(req).await.expect_error(403, "token_mismatch");
    // The cookie alone proves the seat.
    let mut by_cookie = server.client();
    let req = by_cookie
        .http
        .get(format!("{}/api/rooms/{code}", server.base))
        .header(
            "cookie",
            format!("dames_seat_{code}={}", host.token.as_deref().unwrap()),
        );
    assert_eq!(by_cookie.send(req).await.ok()["you"], 0);
    by_cookie.code = Some(code.clone());

    // Illegal moves and malformed ones.
    for bad in [
        json!({"from": [1, 4, -5], "to": [0, 0, 0]}),
        json!({"from": [-1, -4, 5], "to": [-1, -3, 4]}),
        json!({"from": [9, 9, 9], "to": [1, 3, -4]}),
        json!({"from": "a1", "to": [1, 3, -4]}),
        json!({"notation": "32-28"}),
        json!(null),
    ] {
        host.play(bad).await.expect_error(422, "illegal_move");
    }
    host.act("move", json!({"mv": mv}))
        .await
        .expect_error(400, "bad_json");
    host.act("move", json!({"id": "", "move": mv}))
        .await
        .expect_error(400, "bad_json");
    host.act("draw", json!({"action": "offer"}))
        .await
        .expect_error(409, "wrong_state");
    host.act("rematch", json!({"ready": true}))
        .await
        .expect_error(409, "wrong_state");
    host.act("draw", json!({"action": "maybe"}))
        .await
        .expect_error(400, "bad_json");
    let applied = host.play(mv).await.ok();
    assert_eq!(applied["applied"], true);
    assert_eq!(
        applied["room"]["play"]["moves"][0]["move"]["path"],
        json!([[1, 4, -5], [1, 3, -4]])
    );
    assert_eq!(applied["room"]["play"]["to_move"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_id_is_applied_at_most_once() {
    let server = Server::start().await;
    let mut host = server.client();
    host.create(json!({"game": "draughts", "name": "Ana"}))
        .await;
    let mut bo = server.client();
    bo.join(host.code.as_deref().unwrap(), "Bo").await;
    host.start().await;
    let body = json!({"id": "m-1", "move": {"notation": "32-28"}});
    let first = host.act("move", body.clone()).await.ok();
    assert_eq!(first["applied"], true);
    let again = host.act("move", body).await.ok();
    assert_eq!(again["applied"], false);
    assert_eq!(again["room"]["play"]["moves"].as_array().unwrap().len(), 1);
    assert_eq!(again["room"]["version"], first["room"]["version"]);
    // Bo may not reuse an id of this room either (ids are per room): nothing happens.
    let reused = bo
        .act("move", json!({"id": "m-1", "move": {"notation": "19-23"}}))
        .await
        .ok();
    assert_eq!(reused["applied"], false);
    let short = bo
        .act("move", json!({"id": "b-1", "move": {"notation": "19-23"}}))
        .await
        .ok();
    assert_eq!(short["applied"], true);
    assert_eq!(
        short["room"]["play"]["moves"][1]["move"]["notation"],
        "19-23"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_refuse_floods_and_code_guessing() {
    let server = Server::start_with(|c| {
        c.limits.enabled = true;
        c.limits.create = dames_server::Rate {
            burst: 3,
            per_minute: 1,
        };
    })
    .await;
    let mut host = server.client();
    host.create(json!({"game": "cc", "name": "Ana"})).await;
    let code = host.code.clone().unwrap();
    let c = server.client();
    for _ in 0..2 {
        assert_eq!(
            c.post("/api/rooms", json!({"game": "cc", "name": "Ana"}))
                .await
                .status,
            201
        );
    }
    let refused = c
        .post("/api/rooms", json!({"game": "cc", "name": "Ana"}))
        .await;
    refused.expect_error(429, "rate_limited");
    let retry: u64 = refused.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    // Ten unknown codes, then every lookup by code is refused for a while, even a real one.
    let guesser = server.client();
    for i in 0..10 {
        guesser
            .get(&format!(
                "/api/rooms/ZZZZZ{}",
                ["2", "3", "4", "5", "6", "7", "8", "9", "A", "B"][i]
            ))
            .await
            .expect_error(404, "unknown_room");
    }
    guesser
        .get("/api/rooms/ZZZZZC")
        .await
        .expect_error(429, "rate_limited");
    guesser
        .get(&format!("/api/rooms/{code}"))
        .await
        .expect_error(429, "rate_limited");
    guesser
        .post(&format!("/api/rooms/{code}/join"), json!({"name": "Eve"}))
        .await
        .expect_error(429, "rate_limited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn site_pages_assets_and_qr_code() {
    let server = Server::start().await;
    let c = server.client();
    for page in [
        "/",
        "/cpu",
        "/rules",
        "/faq",
        "/data",
        "/games",
        "/r/K7M2QX",
    ] {
        let res = c.fetch(page).await;
        assert_eq!(res.status(), 200, "{page}");
        assert!(
            res.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "{page}"
        );
        assert!(res
            .headers()
            .get("set-cookie")
            .is_some_and(|v| v.to_str().unwrap().contains("dames_client=")));
        assert!(
            res.text().await.unwrap().to_lowercase().contains("<html"),
            "{page}"
        );
    }
    let res = c.fetch("/").await;
    let etag = res.headers()["etag"].clone();
    let again = c
        .http
        .get(format!("{}/", server.base))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(c.fetch("/nope.js").await.status(), 404);
    // Some JavaScript module of the client is served as JavaScript.
    let index = c.fetch("/").await.text().await.unwrap();
    if let Some(start) = index.find("src=\"/js/").or_else(|| index.find("src=\"js/")) {
        let rest = &index[start + 5..];
        let path = rest[..rest.find('"').unwrap()].trim_start_matches('/');
        let res = c.fetch(&format!("/{path}")).await;
        assert_eq!(res.status(), 200, "{path}");
        assert!(
            res.headers()["content-type"]
                .to_str()
                .unwrap()
                .contains("javascript"),
            "{path}"
        );
    }
    let mut host = server.client();
    host.create(json!({"game": "cc", "name": "Ana"})).await;
    let code = host.code.clone().unwrap();
    let res = c.fetch(&format!("/api/rooms/{code}/qr.svg")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/svg+xml");
    let svg = res.text().await.unwrap();
    assert!(svg.contains("<svg") && svg.contains("</svg>"));
    // My rooms, by the browser cookie.
    let cookie = host
        .http
        .get(format!("{}/", server.base))
        .send()
        .await
        .unwrap()
        .headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_rooms_are_listed_by_the_client_cookie() {
    let server = Server::start().await;
    let c = server.client();
    let first = c
        .http
        .post(format!("{}/api/rooms", server.base))
        .json(&json!({"game": "cc", "name": "Ana"}))
        .send()
        .await
        .unwrap();
    let client = first
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .find(|v| v.starts_with("dames_client="))
        .unwrap();
    let client = client.split(';').next().unwrap().to_owned();
    let code = first.json::<Value>().await.unwrap()["code"]
        .as_str()
        .unwrap()
        .to_owned();
    let req = c
        .http
        .get(format!("{}/api/me/rooms", server.base))
        .header("cookie", &client);
    let mine: Answer = c.send(req).await;
    let mine = mine.ok();
    assert_eq!(mine["rooms"].as_array().unwrap().len(), 1, "{mine}");
    let room = &mine["rooms"][0];
    assert_eq!(
        (
            room["code"].as_str(),
            room["seat"].as_u64(),
            room["game"].as_str(),
            room["status"].as_str()
        ),
        (Some(code.as_str()), Some(0), Some("cc"), Some("lobby"))
    );
    assert_eq!(c.get("/api/me/rooms").await.ok()["rooms"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn junk_on_every_route_gets_a_typed_error_never_a_crash() {
    let server = Server::start().await;
    let mut host = server.client();
    host.create(json!({"game": "draughts", "name": "Ana"}))
        .await;
    let mut bo = server.client();
    bo.join(host.code.as_deref().unwrap(), "Bo").await;
    host.start().await;
    let mut cc = server.client();
    cc.create(
        json!({"game": "cc", "name": "Cy", "cpu": {"level": "facile"}, "settings": {"cpu_ms": 0}}),
    )
    .await;
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let junk: Vec<String> = vec![
        "null".into(),
        "[]".into(),
        "\"x\"".into(),
        "1e999".into(),
        deep,
        json!({"move": {"from": [1e300, -1e300, 0], "to": [i64::MAX, i64::MIN, 0]}}).to_string(),
        json!({"move": {"notation": "x".repeat(3000)}}).to_string(),
        json!({"move": {"notation": "99x98x97x96x95x94x93x92x91x90x89x88"}}).to_string(),
        json!({"move": {"notation": "32-28-23"}}).to_string(),
        json!({"id": "z".repeat(100), "move": {}}).to_string(),
        json!({"name": "\u{0}"}).to_string(),
        json!({"rules": {"players": -1}}).to_string(),
        json!({"rules": "international"}).to_string(),
        json!({"cpu": 7, "kick": "yes"}).to_string(),
        json!({"action": null, "ready": "yes"}).to_string(),
        "\u{feff}{}".into(),
    ];
    for client in [&host, &bo, &cc] {
        let code = client.code.clone().unwrap();
        for route in [
            "join", "leave", "settings", "seats/1", "seats/x", "start", "move", "resign", "draw",
            "rematch",
        ] {
            for body in &junk {
                let answer = client
                    .post_raw(&format!("/api/rooms/{code}/{route}"), body.clone())
                    .await;
                assert!(
                    answer.status.is_client_error() || answer.status.is_success(),
                    "{route} {body:.60}: {}",
                    answer.status
                );
                if !answer.status.is_success() {
                    assert!(!answer.code().is_empty(), "{route}: {}", answer.body);
                }
            }
        }
    }
    // Still serving; the only thing the junk could do is what `resign` does with any body.
    assert_eq!(host.get("/api/health").await.ok(), json!({"ok": true}));
    let room = host.room().await;
    assert_eq!(
        (
            room["status"].as_str(),
            room["play"]["outcome"]["reason"].as_str()
        ),
        (Some("finished"), Some("resignation"))
    );
}

#[tokio::test]
async fn health_answers_and_ready_says_whether_the_database_does() {
    let server = Server::start().await;
    let http = reqwest::Client::new();
    for path in ["/health", "/ready"] {
        let answer = http
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200, "{path}");
    }
}

#[tokio::test]
async fn larger_json_answers_are_gzipped_for_clients_that_accept_it() {
    use std::io::Read;
    let server = Server::start().await;
    let (ana, _bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    ana.start().await;
    let path = format!("{}/api/rooms/{}", server.base, ana.code.as_deref().unwrap());
    let token = ana.token.clone().unwrap();
    let get = |encoding: Option<&'static str>| {
        let mut req = ana.http.get(&path).bearer_auth(&token);
        if let Some(e) = encoding {
            req = req.header("accept-encoding", e);
        }
        async move { req.send().await.unwrap() }
    };
    let plain = get(None).await;
    assert!(plain.headers().get("content-encoding").is_none());
    let plain = plain.bytes().await.unwrap();
    assert!(plain.len() >= 1024, "{} bytes", plain.len());
    let zipped = get(Some("br, gzip, deflate")).await;
    assert_eq!(zipped.headers()["content-encoding"], "gzip");
    assert!(zipped.headers()["vary"]
        .to_str()
        .unwrap()
        .contains("accept-encoding"));
    let zipped = zipped.bytes().await.unwrap();
    assert!(
        zipped.len() * 3 < plain.len(),
        "{} of {}",
        zipped.len(),
        plain.len()
    );
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(&zipped[..])
        .read_to_end(&mut unzipped)
        .unwrap();
    assert_eq!(
        serde_json::from_slice::<Value>(&unzipped).unwrap(),
        serde_json::from_slice::<Value>(&plain).unwrap()
    );
    // Refused, or small: as it is.
    let refused = get(Some("gzip;q=0")).await;
    assert!(refused.headers().get("content-encoding").is_none());
    let small = ana
        .http
        .get(format!("{}/health", server.base))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert!(small.headers().get("content-encoding").is_none());
}
