//! CPU players over a real server (issue 9): their pool is fair between rooms — a room with a
//! 1 s CPU is answered in about 1 s while other rooms' Expert CPUs think for 30 s on the only
//! worker.

mod common;

use std::time::{Duration, Instant};

use common::{random_draughts_move, Client, Lcg, Server};
use serde_json::{json, Value};

/// A draughts room against an Expert CPU thinking `cpu_ms`, where the human (seat 0, White)
/// moves first.
async fn against_expert(server: &Server, cpu_ms: u64) -> (Client, Value) {
    let mut ana = server.client();
    let room = ana
        .create(json!({
            "game": "draughts",
            "name": "Ana",
            "settings": {"cpu_ms": cpu_ms},
            "cpu": {"level": "expert"},
        }))
        .await;
    assert_eq!(room["play"]["to_move"], 0, "{room}");
    (ana, room)
}

/// Plays a random move, then waits for the CPU's answer: how long it took.
async fn cpu_answer_time(ana: &Client, room: &Value, rng: &mut Lcg) -> Duration {
    ana.play(random_draughts_move(room, rng)).await.ok();
    let asked = Instant::now();
    loop {
        let room = ana.room().await;
        if room["play"]["to_move"] == 0 {
            return asked.elapsed();
        }
        assert!(asked.elapsed() < Duration::from_secs(40), "no CPU answer");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_1_s_cpu_answers_in_time_while_two_30_s_experts_think_on_the_only_worker() {
    let mut server = Server::start_with(|c| c.cpu_workers = 1).await;
    let mut rng = Lcg(9);
    let mut long = Vec::new();
    for _ in 0..2 {
        let (ana, room) = against_expert(&server, 30_000).await;
        ana.play(random_draughts_move(&room, &mut rng)).await.ok();
        long.push(ana);
    }
    // Both long searches hold (or wait for) the one worker now.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (ana, room) = against_expert(&server, 1_000).await;
    let took = cpu_answer_time(&ana, &room, &mut rng).await;
    // The CPU plays at the pace of its budget, never before it; a first-come pool would have
    // made it wait for the two 30 s searches (the margin is for a loaded machine's commits).
    assert!(
        took >= Duration::from_millis(950) && took < Duration::from_millis(4_000),
        "the 1 s CPU answered after {took:?}"
    );
    // And again, the long searches still running.
    let room = ana.room().await;
    let took = cpu_answer_time(&ana, &room, &mut rng).await;
    assert!(took < Duration::from_millis(4_000), "{took:?}");
    for ana in &long {
        assert_eq!(ana.room().await["play"]["to_move"], 1, "still thinking");
    }
    // Shutting down cancels them.
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_with_no_person_left_in_play_stops_at_once_and_stays_stopped() {
    let server = Server::start().await;
    let mut ana = server.client();
    // Ana against two CPUs that would otherwise play each other for hundreds of moves.
    let room = ana
        .create(json!({
            "game": "cc",
            "name": "Ana",
            "settings": {"rules": {"players": 3}, "cpu_ms": 0},
            "cpu": {"level": "facile"},
        }))
        .await;
    assert_eq!(room["status"], "playing");
    let mut ws = ana.ws(room["version"].as_i64().unwrap()).await;
    let view = ana.act("resign", json!({})).await.ok();
    assert_eq!(view["status"], "finished", "{view}");
    let outcome = &view["play"]["outcome"];
    assert_eq!(outcome["reason"], "stopped", "{outcome}");
    assert_eq!(outcome["kind"], "places");
    // Ana took the last place; the two CPUs are ranked by their progress.
    assert_eq!(outcome["places"][0], 3, "{outcome}");
    // Told to the room like any end of game.
    let finished = loop {
        let msg = ws.next().await;
        if msg["type"] == "event" && msg["event"]["kind"] == "finished" {
            break msg;
        }
    };
    assert_eq!(finished["event"]["outcome"], *outcome);
    // No CPU move after the stop, now or later.
    let moves = view["play"]["moves"].as_array().map_or(0, Vec::len);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let later = ana.room().await;
    assert_eq!(later["play"]["moves"].as_array().map_or(0, Vec::len), moves);

    // Stored: the same after a restart, and the game's record says why it ended.
    let server = server.restart(|_| {}).await;
    let mut again = server.client();
    again.token = ana.token.clone();
    again.code = ana.code.clone();
    let room = again.room().await;
    assert_eq!(room["status"], "finished");
    assert_eq!(room["play"]["outcome"], *outcome);
    let code = ana.code.as_deref().unwrap();
    let record = again.get(&format!("/api/rooms/{code}/record")).await.ok();
    let log = record["log"].as_array().unwrap();
    let kinds: Vec<&str> = log.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds.last(), Some(&"stop"), "{kinds:?}");
    assert!(kinds.contains(&"resign"), "{kinds:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_against_cpus_are_capped_per_browser_and_per_address() {
    let server = Server::start_with(|c| {
        c.limits.enabled = true;
        c.limits.cpu_games_per_ip = 7;
    })
    .await;
    let (ana, bo) = (
        "a0000000000000000000000000000001",
        "b0000000000000000000000000000002",
    );
    let vs_cpu = json!({"game": "draughts", "name": "Ana", "cpu": {"level": "facile"}});
    let mut games = Vec::new();
    for _ in 0..5 {
        let mut c = server.browser(ana);
        c.create(vs_cpu.clone()).await;
        games.push(c);
    }
    // A sixth one from the same browser is refused, however it is started.
    let mut sixth = server.browser(ana);
    let refused = sixth.post("/api/rooms", vs_cpu.clone()).await;
    refused.expect_error(429, "too_many_cpu_games");
    sixth
        .create(json!({"game": "draughts", "name": "Ana"}))
        .await;
    sixth.act("seats/1", json!({"cpu": "facile"})).await.ok();
    sixth
        .act("start", json!({}))
        .await
        .expect_error(429, "too_many_cpu_games");
    // Another browser of the same address, up to the address's cap (7).
    for n in 0..3 {
        let answer = server.browser(bo).post("/api/rooms", vs_cpu.clone()).await;
        if n < 2 {
            assert_eq!(answer.status, 201, "{}", answer.body);
        } else {
            answer.expect_error(429, "too_many_cpu_games");
        }
    }
    // Finishing a game frees its place; its rematch takes it again.
    let first = &games[0];
    first.act("resign", json!({})).await.ok();
    sixth.start().await;
    first
        .act("rematch", json!({"ready": true}))
        .await
        .expect_error(429, "too_many_cpu_games");
    let mut ws = first.ws(0).await;
    ws.send(json!({"type": "rematch", "id": "r1", "ready": true}))
        .await;
    let answer = loop {
        let msg = ws.next().await;
        if msg["id"] == "r1" {
            break msg;
        }
    };
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "too_many_cpu_games", "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_caps_on_games_against_cpus_still_count_the_games_being_played_after_a_restart() {
    let caps = |c: &mut dames_server::Config| {
        c.limits.enabled = true;
        c.limits.cpu_games_per_client = 2;
        c.limits.cpu_games_per_ip = 3;
    };
    let server = Server::start_with(caps).await;
    let (ana, bo, cy) = (
        "a0000000000000000000000000000001",
        "b0000000000000000000000000000002",
        "c0000000000000000000000000000003",
    );
    let vs_cpu = json!({"game": "draughts", "name": "Ana", "cpu": {"level": "facile"}});
    let mut first = server.browser(ana);
    first.create(vs_cpu.clone()).await;
    server.browser(ana).create(vs_cpu.clone()).await;
    server.browser(bo).create(vs_cpu.clone()).await;
    // The address has its 3 games, Ana her 2.
    (server.browser(cy).post("/api/rooms", vs_cpu.clone()).await)
        .expect_error(429, "too_many_cpu_games");

    // Restarted on the same database: no fresh allowance for the browser or the address.
    let server = server.restart(caps).await;
    (server.browser(ana).post("/api/rooms", vs_cpu.clone()).await)
        .expect_error(429, "too_many_cpu_games");
    (server.browser(cy).post("/api/rooms", vs_cpu.clone()).await)
        .expect_error(429, "too_many_cpu_games");
    // A game that ends frees its place, as before the restart.
    first.base.clone_from(&server.base);
    first.act("resign", json!({})).await.ok();
    server.browser(cy).create(vs_cpu.clone()).await;
    (server.browser(cy).post("/api/rooms", vs_cpu.clone()).await)
        .expect_error(429, "too_many_cpu_games");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creations_racing_for_the_last_places_against_cpus_never_pass_the_cap() {
    let server = Server::start_with(|c| c.limits.enabled = true).await;
    let ana = "a0000000000000000000000000000001";
    let vs_cpu = json!({"game": "draughts", "name": "Ana", "cpu": {"level": "facile"}});
    // 15 creations at once from one browser (cap 5): checked and counted in one step.
    let answers = futures_util::future::join_all(
        (0..15).map(|_| async { server.browser(ana).post("/api/rooms", vs_cpu.clone()).await }),
    )
    .await;
    let created = answers.iter().filter(|a| a.status == 201).count();
    assert_eq!(
        created,
        5,
        "{:?}",
        answers.iter().map(|a| &a.body).collect::<Vec<_>>()
    );
    for refused in answers.iter().filter(|a| a.status != 201) {
        refused.expect_error(429, "too_many_cpu_games");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stand_in_cpu_counts_as_a_game_against_cpus() {
    let server = Server::start_with(|c| {
        c.limits.enabled = true;
        c.limits.cpu_games_per_client = 1;
    })
    .await;
    let ana = "a0000000000000000000000000000001";
    let mut vs_cpu = server.browser(ana);
    vs_cpu
        .create(json!({"game": "draughts", "name": "Ana", "cpu": {"level": "facile"}}))
        .await;
    // Ana, at her cap, hosts a game whose second seat is taken by a browser that never
    // connects; once that seat is away she may not hand it to a CPU.
    let mut host = server.browser(ana);
    host.create(json!({"game": "draughts", "name": "Ana", "settings": {"away_after": 5}}))
        .await;
    let code = host.code.clone().unwrap();
    server.client().join(&code, "Bo").await;
    let room = host.start().await;
    // Ana (White) moves; Bo, who never opened the room, is away on his turn.
    host.play(random_draughts_move(&room, &mut Lcg(3)))
        .await
        .ok();
    tokio::time::sleep(Duration::from_millis(5_300)).await;
    let stand_in = json!({"seat": 1, "action": "cpu", "level": "expert"});
    host.act("away", stand_in.clone())
        .await
        .expect_error(429, "too_many_cpu_games");
    assert_eq!(host.room().await["seats"][1].get("stand_in"), None);
    // Her game against the CPU over, the place is free.
    vs_cpu.act("resign", json!({})).await.ok();
    host.act("away", stand_in).await.ok();
    assert_eq!(host.room().await["seats"][1]["stand_in"], "expert");
}
