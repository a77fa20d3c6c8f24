//! A server stopped in the middle of games and started again on the same database loses
//! nothing; the retention rules are enforced by the periodic job.

mod common;

use std::time::{Duration, Instant};

use common::{greedy_cc_move, random_draughts_move, Lcg, Server};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_in_the_middle_of_games_loses_no_move() {
    let server = Server::start().await;
    // A draughts game between two people, 12 moves in.
    let (mut ana, mut bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    ana.start().await;
    let mut rng = Lcg(9);
    for i in 0..12 {
        let p = if i % 2 == 0 { &ana } else { &bo };
        let room = p.room().await;
        let mv = random_draughts_move(&room, &mut rng);
        p.act("move", json!({"id": format!("d{i}"), "move": mv}))
            .await
            .ok();
    }
    ana.act("draw", json!({"action": "offer"})).await.ok();
    let before = ana.room().await;
    // A Chinese checkers game of three with a CPU, some moves in, and a room still in the lobby.
    let mut cy = server.client();
    cy.create(
        json!({"game": "cc", "name": "Cy", "settings": {"rules": {"players": 3}, "cpu_ms": 0}}),
    )
    .await;
    let mut di = server.client();
    di.join(cy.code.as_deref().unwrap(), "Di").await;
    cy.act("seats/2", json!({"cpu": "normal"})).await.ok();
    cy.start().await;
    let mut rng2 = Lcg(2);
    for _ in 0..4 {
        for p in [&cy, &di] {
            let room = wait_for_turn(p).await;
            p.play(greedy_cc_move(&room, &mut rng2)).await.ok();
        }
    }
    let cc_before = wait_for_turn(&cy).await;
    let mut lobby = server.client();
    lobby
        .create(json!({"game": "cc", "name": "Eve", "settings": {"rules": {"players": 4}}}))
        .await;

    let server = server.restart(|_| {}).await;
    for p in [&mut ana, &mut bo, &mut cy, &mut di, &mut lobby] {
        p.base = server.base.clone();
    }
    // Everything is back: moves, version, draw offer, seats (tokens still valid).
    let after = ana.room().await;
    assert_eq!(after["play"]["moves"], before["play"]["moves"]);
    assert_eq!(after["play"]["board"], before["play"]["board"]);
    assert_eq!(
        (
            after["version"].clone(),
            after["play"]["draw_offer"].clone()
        ),
        (before["version"].clone(), json!(0))
    );
    assert_eq!(after["play"]["to_move"], before["play"]["to_move"]);
    assert_eq!(
        ana.act("move", json!({"id": "d0", "move": {"notation": "1-2"}}))
            .await
            .ok()["applied"],
        false
    );
    let cc_after = cy.room().await;
    assert_eq!(cc_after["play"]["moves"], cc_before["play"]["moves"]);
    assert_eq!(
        cc_after["play"]["legal_moves"],
        cc_before["play"]["legal_moves"]
    );
    let lobby_room = lobby.room().await;
    assert_eq!(
        (lobby_room["status"].as_str(), lobby_room["you"].as_u64()),
        (Some("lobby"), Some(0))
    );
    assert_eq!(lobby_room["seats"].as_array().unwrap().len(), 4);

    // Both games go on to the end.
    bo.act("draw", json!({"action": "decline"})).await.ok();
    let mut n = 0;
    loop {
        let room = ana.room().await;
        if room["status"] == "finished" {
            break;
        }
        let p = if room["play"]["to_move"] == 0 {
            &ana
        } else {
            &bo
        };
        let room = p.room().await;
        p.play(random_draughts_move(&room, &mut rng)).await.ok();
        n += 1;
        assert!(n < 3000);
    }
    // The CPU of the other game still plays after the restart.
    let moves_before = cc_after["play"]["moves"].as_array().unwrap().len();
    for p in [&cy, &di] {
        let room = wait_for_turn(p).await;
        p.play(greedy_cc_move(&room, &mut rng2)).await.ok();
    }
    let room = wait_for_turn(&cy).await;
    let moves = room["play"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), moves_before + 3);
    assert_eq!(moves.last().unwrap()["seat"], 2);
}

/// Waits until the server offers `p` legal moves.
async fn wait_for_turn(p: &common::Client) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let room = p.room().await;
        if room["play"]["to_move"] == json!(p.seat) {
            return room;
        }
        assert!(Instant::now() < deadline, "never my turn: {room}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cpu_whose_turn_it_was_resumes_after_a_restart() {
    let server = Server::start().await;
    let mut ana = server.client();
    let room = ana.create(json!({"game": "draughts", "name": "Ana", "cpu": {"level": "expert"}, "settings": {"cpu_ms": 1500}})).await;
    let mut rng = Lcg(4);
    ana.play(random_draughts_move(&room, &mut rng)).await.ok();
    // Stopped while the CPU thinks: its move is not lost, it is played after the restart.
    let server = server.restart(|_| {}).await;
    ana.base = server.base.clone();
    let room = ana.room().await;
    assert_eq!(
        (
            room["play"]["moves"].as_array().unwrap().len(),
            room["play"]["to_move"].as_u64()
        ),
        (1, Some(1))
    );
    let room = wait_for_turn(&ana).await;
    assert_eq!(room["play"]["moves"].as_array().unwrap().len(), 2);
    assert_eq!(room["play"]["moves"][1]["seat"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retention_deletes_old_rooms_and_abandons_idle_games() {
    let server = Server::start_with(|c| {
        c.retention.lobby = Duration::from_secs(1);
        c.retention.idle = Duration::from_secs(2);
        c.retention.finished = Duration::from_secs(3);
        c.retention.sweep_every = Duration::from_millis(200);
    })
    .await;
    let mut lobby = server.client();
    lobby.create(json!({"game": "cc", "name": "Ana"})).await;
    let mut idle = server.client();
    idle.create(json!({"game": "draughts", "name": "Bo"})).await;
    let mut other = server.client();
    other.join(idle.code.as_deref().unwrap(), "Cy").await;
    idle.start().await;
    let mut ws = other.ws(0).await;
    let started = Instant::now();
    // The lobby room goes after about 1 s.
    wait_until(|| async {
        lobby
            .get(&format!("/api/rooms/{}", lobby.code.as_deref().unwrap()))
            .await
            .status
            == 404
    })
    .await;
    assert!(started.elapsed() >= Duration::from_millis(900));
    // The idle game ends as abandoned, with no result, after about 2 s, and everyone is told.
    let room = ws.state_where(|r| r["status"] == "finished").await;
    assert_eq!(
        room["play"]["outcome"],
        json!({"kind": "abandoned", "reason": "abandoned", "places": [null, null]})
    );
    assert!(started.elapsed() >= Duration::from_millis(1900));
    // Then it is deleted 3 s later: the socket is told, the code is unknown.
    let (err, _) = ws.until("error").await;
    assert_eq!(err["code"], "unknown_room");
    assert!(started.elapsed() >= Duration::from_millis(4800));
    idle.get(&format!("/api/rooms/{}", idle.code.as_deref().unwrap()))
        .await
        .expect_error(404, "unknown_room");
    idle.get("/api/me/rooms").await.ok();
}

async fn wait_until<F: std::future::Future<Output = bool>>(check: impl Fn() -> F) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !check().await {
        assert!(Instant::now() < deadline, "timed out");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
