//! Whole games through the API and the WebSocket: both games, 2 and 6 players, CPU seats,
//! resignation, draw offers, rematch, reconnection with `since`.

mod common;

use std::time::Duration;

use common::{assert_decided, greedy_cc_move, random_draughts_move, Client, Lcg, Server};
use serde_json::{json, Value};

/// Plays until the game ends, each client moving when the server offers it legal moves.
async fn play_out(
    players: &[Client],
    mut pick: impl FnMut(&Value) -> Value,
    max_moves: usize,
) -> Value {
    let mut moves = 0;
    loop {
        let mut moved = false;
        for p in players {
            let room = p.room().await;
            if room["status"] == "finished" {
                return room;
            }
            if room["play"]["to_move"] == json!(p.seat) {
                assert!(!room["play"]["legal_moves"].as_array().unwrap().is_empty());
                let answer = p.play(pick(&room)).await.ok();
                assert_eq!(answer["applied"], true);
                moves += 1;
                moved = true;
                assert!(
                    moves <= max_moves,
                    "the game did not end in {max_moves} moves"
                );
            }
        }
        assert!(moved, "nobody could move");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_scripts_play_chinese_checkers_to_the_end() {
    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "cc", "name": "Ana"}))
        .await;
    ana.start().await;
    let mut rng = Lcg(7);
    let room = play_out(
        &[ana.clone(), bo.clone()],
        |room| greedy_cc_move(room, &mut rng),
        400,
    )
    .await;
    assert_decided(&room);
    assert_eq!(
        room["play"]["outcome"]["places"].as_array().unwrap().len(),
        2
    );
    assert_eq!(room["play"]["to_move"], Value::Null);
    assert!(room["play"]["legal_moves"].as_array().unwrap().is_empty());
    // The move list is the whole game, and the events say the same.
    let moves = room["play"]["moves"].as_array().unwrap();
    let events = ana
        .get(&format!(
            "/api/rooms/{}/events?since=0",
            ana.code.as_deref().unwrap()
        ))
        .await
        .ok();
    let events = events["events"].as_array().unwrap();
    let move_events: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"]["kind"] == "move")
        .collect();
    assert_eq!(move_events.len(), moves.len());
    assert_eq!(events.last().unwrap()["event"]["kind"], "finished");
    let versions: Vec<i64> = events
        .iter()
        .map(|e| e["version"].as_i64().unwrap())
        .collect();
    assert_eq!(versions, (1..=versions.len() as i64).collect::<Vec<_>>());
    assert_eq!(room["version"], *versions.last().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_scripts_play_draughts_to_the_end_and_rematch() {
    let server = Server::start().await;
    let (ana, bo) = server.ana_and_bo(json!({"game": "draughts", "name": "Ana", "settings": {"rules": {"variant": "brazilian"}}}),).await;
    let room = ana.start().await;
    assert_eq!(room["play"]["board"]["size"], 8);
    assert_eq!(
        (
            room["seats"][0]["color"].as_str(),
            room["seats"][1]["color"].as_str()
        ),
        (Some("white"), Some("black"))
    );
    let mut rng = Lcg(11);
    let room = play_out(
        &[ana.clone(), bo.clone()],
        |room| random_draughts_move(room, &mut rng),
        3000,
    )
    .await;
    assert_decided(&room);
    // Rematch in the same room: Bo starts (he plays White) since « Changer qui commence » is on.
    let room = ana.act("rematch", json!({"ready": true})).await.ok();
    assert_eq!(
        (room["status"].as_str(), room["seats"][0]["ready"].as_bool()),
        (Some("finished"), Some(true))
    );
    let room = bo.act("rematch", json!({"ready": true})).await.ok();
    assert_eq!(
        (room["status"].as_str(), room["game_no"].as_u64()),
        (Some("playing"), Some(2))
    );
    assert_eq!(
        (
            room["seats"][1]["color"].as_str(),
            room["play"]["to_move"].as_u64()
        ),
        (Some("white"), Some(1))
    );
    assert!(room["play"]["moves"].as_array().unwrap().is_empty());
    // Resigning loses.
    let room = ana.act("resign", json!({})).await.ok();
    assert_eq!(room["status"], "finished");
    assert_eq!(
        room["play"]["outcome"],
        json!({"kind": "win", "reason": "resignation", "places": [2, 1]})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offers_in_draughts() {
    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    ana.start().await;
    let room = ana.act("draw", json!({"action": "offer"})).await.ok();
    assert_eq!(room["play"]["draw_offer"], 0);
    ana.act("draw", json!({"action": "accept"}))
        .await
        .expect_error(409, "wrong_state");
    ana.act("draw", json!({"action": "offer"}))
        .await
        .expect_error(409, "wrong_state");
    let room = bo.act("draw", json!({"action": "decline"})).await.ok();
    assert_eq!(room["play"]["draw_offer"], Value::Null);
    bo.act("draw", json!({"action": "offer"})).await.ok();
    let room = ana.act("draw", json!({"action": "accept"})).await.ok();
    assert_eq!(room["status"], "finished");
    assert_eq!(
        room["play"]["outcome"],
        json!({"kind": "draw", "reason": "agreement", "places": [1, 1]})
    );
    // Chinese checkers has no draw offers.
    let mut cc = server.client();
    cc.create(
        json!({"game": "cc", "name": "Ana", "cpu": {"level": "facile"}, "settings": {"cpu_ms": 0}}),
    )
    .await;
    cc.act("draw", json!({"action": "offer"}))
        .await
        .expect_error(409, "wrong_state");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cpu_answers_a_draw_offer_at_once_and_everyone_is_told() {
    let server = Server::start().await;
    let mut ana = server.client();
    ana.create(json!({"game": "draughts", "name": "Ana", "cpu": {"level": "expert"}, "settings": {"cpu_ms": 5}}))
        .await;
    let watcher = server.client();
    let mut ws = ana.ws(0).await;
    ws.until("state").await;
    // The opening is level but full of play: the CPU declines, and the answer stays visible
    // until the next move.
    let room = ana.act("draw", json!({"action": "offer"})).await.ok();
    assert_eq!(
        (&room["play"]["draw_offer"], &room["play"]["draw_declined"]),
        (&Value::Null, &json!(1))
    );
    let seen = watcher
        .get(&format!("/api/rooms/{}", ana.code.as_deref().unwrap()))
        .await
        .ok();
    assert_eq!(seen["play"]["draw_declined"], 1, "a spectator sees it too");
    let mut kinds = Vec::new();
    loop {
        let msg = ws.next().await;
        if msg["type"] == "event" {
            kinds.push(msg["event"]["kind"].clone());
        } else if msg["type"] == "state" && msg["room"]["play"]["draw_declined"] == 1 {
            break;
        }
    }
    assert_eq!(kinds, [json!("draw_offer"), json!("draw_declined")]);
    // Offering again in the same position gets the same answer (judged once).
    let room = ana.act("draw", json!({"action": "offer"})).await.ok();
    assert_eq!(room["play"]["draw_declined"], 1);
    let mut rng = Lcg(3);
    let room = ana.play(random_draughts_move(&room, &mut rng)).await.ok();
    assert_eq!(room["room"]["play"]["draw_declined"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_players_with_cpus_play_chinese_checkers_to_the_end_over_the_websocket() {
    let server = Server::start().await;
    let mut ana = server.client();
    let settings = json!({"rules": {"players": 6, "move_limit": 120}, "cpu_ms": 0});
    let room = ana
        .create(json!({"game": "cc", "name": "Ana", "settings": settings}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    for (seat, level) in [
        (1, "facile"),
        (2, "normal"),
        (3, "difficile"),
        (4, "expert"),
    ] {
        ana.act(&format!("seats/{seat}"), json!({"cpu": level}))
            .await
            .ok();
    }
    let mut bo = server.client();
    bo.join(&code, "Bo").await;
    assert_eq!(bo.seat, Some(5));
    let mut ws_ana = ana.ws(0).await;
    let mut ws_bo = bo.ws(0).await;
    ana.start().await;
    let mut rng = Lcg(3);
    // Ana and Bo answer on the WebSocket whenever a state says it is their turn (once per
    // position: a state with as many moves as the one they answered is stale).
    let mut answered = [usize::MAX, usize::MAX];
    let last = loop {
        let (msg, who) = tokio::select! {
            m = ws_ana.next() => (m, 0),
            m = ws_bo.next() => (m, 1),
        };
        match msg["type"].as_str().unwrap() {
            "state" => {}
            "event" | "ack" | "presence" => continue,
            other => panic!("unexpected {other}: {msg}"),
        }
        let room = &msg["room"];
        if room["status"] == "finished" {
            break room.clone();
        }
        let seat = [0, 5][who];
        let Some(played) = room["play"]["moves"].as_array().map(Vec::len) else {
            continue;
        };
        if room["play"]["to_move"] == seat && answered[who] != played {
            answered[who] = played;
            let ws = if who == 0 { &mut ws_ana } else { &mut ws_bo };
            ws.send(json!({"type": "move", "id": format!("s{seat}-{played}"), "move": greedy_cc_move(room, &mut rng)})).await;
        }
    };
    let outcome = &last["play"]["outcome"];
    assert_eq!(outcome["places"].as_array().unwrap().len(), 6, "{outcome}");
    assert!(outcome["places"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| (1..=6).contains(&p.as_u64().unwrap())));
    let moves = last["play"]["moves"].as_array().unwrap();
    assert!(moves.len() > 60, "{}", moves.len());
    // Every seat played, the CPUs included.
    for seat in 0..6 {
        assert!(
            moves.iter().any(|m| m["seat"] == seat),
            "seat {seat} never moved"
        );
    }
    assert!(
        last["seats"][0]["online"].as_bool().unwrap()
            && last["seats"][5]["online"].as_bool().unwrap()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn against_the_cpu_in_draughts_over_the_websocket() {
    let server = Server::start().await;
    let mut ana = server.client();
    let room = ana.create(json!({"game": "draughts", "name": "Ana", "cpu": {"level": "normal"}, "settings": {"cpu_ms": 5}})).await;
    assert_eq!(
        (room["status"].as_str(), room["seats"][1]["kind"].as_str()),
        (Some("playing"), Some("cpu"))
    );
    let mut ws = ana.ws(0).await;
    let mut rng = Lcg(5);
    let mut n = 0;
    let mut room = ws.state_where(|_| true).await;
    let last = loop {
        if room["status"] == "finished" {
            break room;
        }
        if room["play"]["to_move"] != 0 {
            room = ws.state_where(|_| true).await;
            continue;
        }
        n += 1;
        let id = format!("m{n}");
        ws.send(json!({"type": "move", "id": id, "move": random_draughts_move(&room, &mut rng)}))
            .await;
        let (ack, mut seen) = ws.until("ack").await;
        assert_eq!(
            (ack["id"].as_str(), ack["applied"].as_bool()),
            (Some(id.as_str()), Some(true)),
            "{ack}"
        );
        // The same id again is not applied twice.
        if n == 1 {
            ws.send(json!({"type": "move", "id": "m1", "move": {"notation": "1-2"}}))
                .await;
            let (ack, more) = ws.until("ack").await;
            assert_eq!(ack["applied"], false);
            seen.extend(more);
        }
        // The CPU (5 ms) may answer before our ack arrives: go on from the newest state seen.
        room = match seen.into_iter().rev().find(|m| m["type"] == "state") {
            Some(m) if m["room"]["play"]["moves"] != room["play"]["moves"] => m["room"].clone(),
            _ => ws.state_where(|_| true).await,
        };
        assert!(n < 2000);
    };
    assert!(["win", "draw"].contains(&last["play"]["outcome"]["kind"].as_str().unwrap()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_errors_keep_the_socket_open() {
    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    ana.start().await;
    let mut ws = bo.ws(0).await;
    ws.until("state").await;
    ws.send_text("{not json".into()).await;
    assert_eq!(ws.until("error").await.0["code"], "bad_json");
    ws.send(json!({"type": "fly"})).await;
    assert_eq!(ws.until("error").await.0["code"], "bad_json");
    ws.send_text(format!(
        "{{\"type\":\"ping\",\"pad\":\"{}\"}}",
        "x".repeat(5000)
    ))
    .await;
    assert_eq!(ws.until("error").await.0["code"], "too_large");
    ws.send(json!({"type": "move", "id": "b1", "move": {"notation": "19-23"}}))
        .await;
    let (err, _) = ws.until("error").await;
    assert_eq!(
        (err["code"].as_str(), err["id"].as_str()),
        (Some("not_your_turn"), Some("b1"))
    );
    ws.send(json!({"type": "rematch", "id": "r", "ready": true}))
        .await;
    assert_eq!(ws.until("error").await.0["code"], "wrong_state");
    ws.send(json!({"type": "ping"})).await;
    ws.until("pong").await;
    // A spectator's actions are refused, the socket stays.
    let mut spectator = server.client();
    spectator.code = ana.code.clone();
    let mut ws = spectator.ws(0).await;
    ws.until("state").await;
    ws.send(json!({"type": "resign", "id": "x"})).await;
    assert_eq!(ws.until("error").await.0["code"], "not_seated");
    ws.send(json!({"type": "ping"})).await;
    ws.until("pong").await;
    // An unknown room is refused before the upgrade.
    let url = format!("ws://{}/ws/rooms/ZZZZZZ", server.addr);
    match tokio_tungstenite::connect_async(url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => assert_eq!(res.status(), 404),
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnecting_client_gets_the_events_it_missed_and_a_new_one_the_state_alone() {
    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    ana.start().await;
    // From 0 (nothing seen): the state alone, which is whole.
    let mut ws = bo.ws(0).await;
    let (state, events) = ws.until("state").await;
    assert_eq!(events, Vec::<Value>::new());
    let seen = state["version"].as_i64().unwrap();
    drop(ws);
    // From 1: every event after the first, in order, then the state.
    let mut ws = bo.ws(1).await;
    let (state, events) = ws.until("state").await;
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"]["kind"].as_str().unwrap())
        .collect();
    assert_eq!(&kinds[..2], ["joined", "started"]);
    assert_eq!(state["version"].as_i64().unwrap(), seen);
    assert_eq!(seen, events.last().unwrap()["version"].as_i64().unwrap());
    // Ana sees Bo online.
    let room = ana.room().await;
    assert_eq!(room["seats"][1]["online"], true);
    drop(ws);
    // While Bo is away: a move and a draw offer.
    tokio::time::sleep(Duration::from_millis(200)).await;
    ana.play(json!({"notation": "32-28"})).await.ok();
    ana.act("draw", json!({"action": "offer"})).await.ok();
    assert_eq!(ana.room().await["seats"][1]["online"], false);
    let mut ws = bo.ws(seen).await;
    let (state, events) = ws.until("state").await;
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"]["kind"].as_str().unwrap())
        .collect();
    // Bo's presence is no event (memory only): just the move and the offer.
    assert_eq!(kinds, ["move", "draw_offer"]);
    let versions: Vec<i64> = events
        .iter()
        .map(|e| e["version"].as_i64().unwrap())
        .collect();
    assert_eq!(versions[0], seen + 1);
    assert!(versions.windows(2).all(|w| w[1] == w[0] + 1));
    assert_eq!(
        events
            .iter()
            .find(|e| e["event"]["kind"] == "move")
            .unwrap()["event"]["move"]["notation"],
        "32-28"
    );
    assert_eq!(state["room"]["play"]["draw_offer"], 0);
    assert_eq!(state["room"]["you"], 1);
    // Live from now on: Bo declines by WebSocket, Ana's move arrives as an event then a state.
    ws.send(json!({"type": "draw", "id": "d1", "action": "decline"}))
        .await;
    let (ack, _) = ws.until("ack").await;
    assert_eq!(ack["id"], "d1");
    ws.send(json!({"type": "move", "id": "b1", "move": {"notation": "19-23"}}))
        .await;
    let room = ws
        .state_where(|r| r["play"]["moves"].as_array().unwrap().len() == 2)
        .await;
    assert_eq!(room["play"]["to_move"], 0);
    // A client that is up to date gets only the state.
    let version = ana.room().await["version"].as_i64().unwrap();
    let mut ws2 = ana.ws(version).await;
    let (state, before) = ws2.until("state").await;
    // Nothing before it: presence is no event.
    assert!(before.is_empty(), "{before:?}");
    assert!(state["version"].as_i64().unwrap() >= version);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_with_three_players_lets_the_others_go_on() {
    let server = Server::start().await;
    let mut ana = server.client();
    ana.create(json!({"game": "cc", "name": "Ana", "settings": {"rules": {"players": 3}}}))
        .await;
    let code = ana.code.clone().unwrap();
    let mut bo = server.client();
    bo.join(&code, "Bo").await;
    let mut cy = server.client();
    cy.join(&code, "Cy").await;
    ana.start().await;
    let room = bo.act("resign", json!({})).await.ok();
    assert_eq!(room["status"], "playing");
    // Bo's pieces are gone; his later actions are refused.
    let pieces = room["play"]["board"]["pieces"].as_array().unwrap();
    assert!(pieces.iter().all(|p| p["seat"] != 1));
    bo.act("resign", json!({}))
        .await
        .expect_error(409, "wrong_state");
    // Ana moves, then it is Cy's turn (Bo is skipped).
    let mut rng = Lcg(1);
    let room = ana.room().await;
    let room = ana.play(greedy_cc_move(&room, &mut rng)).await.ok()["room"].clone();
    assert_eq!(room["play"]["to_move"], 2);
    let room = cy.act("resign", json!({})).await.ok();
    assert_eq!(room["status"], "finished");
    assert_eq!(room["play"]["outcome"]["places"], json!([1, 3, 2]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_follows_the_seat_not_a_kicked_persons_socket() {
    let server = Server::start().await;
    let mut ana = server.client();
    ana.create(json!({"game": "draughts", "name": "Ana"})).await;
    let code = ana.code.clone().unwrap();
    let mut bo = server.client();
    bo.join(&code, "Bo").await;
    let mut ws_bo = bo.ws(0).await;
    ws_bo.until("state").await;
    assert_eq!(ana.room().await["seats"][1]["online"], true);
    let room = ana.act("seats/1", json!({"kick": true})).await.ok();
    assert_eq!(
        (
            room["seats"][1]["kind"].as_str(),
            room["seats"][1]["online"].as_bool()
        ),
        (Some("empty"), Some(false))
    );
    // Bo's socket now sees him as a spectator.
    let seen = ws_bo
        .state_where(|r| r["seats"][1]["kind"] == "empty")
        .await;
    assert_eq!(seen["you"], Value::Null);
    let mut cy = server.client();
    cy.join(&code, "Cy").await;
    let mut ws_cy = cy.ws(0).await;
    ws_cy.until("state").await;
    drop(ws_bo);
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Bo leaving does not take Cy offline.
    assert_eq!(ana.room().await["seats"][1]["online"], true);
    drop(ws_cy);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while ana.room().await["seats"][1]["online"] == true {
        assert!(std::time::Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
