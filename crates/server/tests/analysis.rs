//! « Analyser » over real sockets (docs/protocol.md "Analysis"): a finished draughts game asked
//! for, its progress, its result stored with the game (and still there after a restart), its
//! PDN with the comments and marks, one job per game, an unwatched job cancelled, and the
//! errors: unknown room or game, an unfinished game, Chinese checkers, the rate limit.

mod common;

use std::time::{Duration, Instant};

use common::{Client, Server};
use serde_json::{json, Value};

/// White to move: 29-24 keeps the men level, 29-23?? walks into 18x29.
const BLUNDER_START: &str = "W:W29,47:B18,3";

fn small(config: &mut dames_server::Config) {
    config.analysis.nodes = 3_000;
}

/// Ana (White) and Bo play 29-23?? 18x29, then Ana resigns: the room's code.
async fn finished_blunder(server: &Server) -> (Client, Client, String) {
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana", "start": BLUNDER_START}))
        .await;
    ana.start().await;
    ana.play(json!({"notation": "29-23"})).await.ok();
    bo.play(json!({"notation": "18x29"})).await.ok();
    ana.act("resign", json!({})).await.ok();
    assert_eq!(ana.room().await["status"], "finished");
    let code = ana.code.clone().unwrap();
    (ana, bo, code)
}

/// Polls the analysis of game 1 of `code` until it is done (60 s at most).
async fn until_done(client: &Client, code: &str) -> Value {
    let started = Instant::now();
    loop {
        let answer = client
            .get(&format!("/api/rooms/{code}/games/1/analysis"))
            .await
            .ok();
        match answer["status"].as_str() {
            Some("done") => return answer["analysis"].clone(),
            Some("running") => {
                assert!(
                    answer["done"].as_u64() <= answer["total"].as_u64(),
                    "{answer}"
                );
            }
            _ => panic!("not running: {answer}"),
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "analysis too slow"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed_once_stored_with_it_and_its_pdn_carries_the_marks() {
    let server = Server::start_with(small).await;
    let (_ana, _bo, code) = finished_blunder(&server).await;
    let path = format!("/api/rooms/{code}/games/1/analysis");
    // Anybody with the code (a spectator here) may ask.
    let watcher = server.client();
    assert_eq!(watcher.get(&path).await.ok(), json!({"status": "none"}));
    let asked = watcher.post(&path, json!({})).await;
    assert_eq!(asked.status.as_u16(), 202, "{}", asked.body);
    assert_eq!(asked.body["status"], "running");
    assert_eq!(asked.body["total"], 3, "three positions: two moves");
    // A second request joins the first (or finds it done).
    let again = server.client().post(&path, json!({})).await;
    assert!(
        [200, 202].contains(&again.status.as_u16()),
        "{}",
        again.body
    );
    let analysis = until_done(&watcher, &code).await;
    assert_eq!(analysis["nodes"], 3_000);
    assert_eq!(analysis["positions"].as_array().unwrap().len(), 3);
    let moves = analysis["moves"].as_array().unwrap();
    assert_eq!(moves[0]["notation"], "29-23");
    assert_eq!(moves[0]["mark"], "??", "{analysis}");
    assert_eq!(moves[1]["mark"], Value::Null, "a forced capture");
    let first = &analysis["positions"][0];
    assert_ne!(first["best"]["notation"], "29-23");
    assert!(first["best"]["path"]
        .as_array()
        .is_some_and(|p| p.len() == 2));
    // After 18x29 Black is a man up: White's score is negative.
    assert!(analysis["positions"][2]["eval"].as_i64().unwrap() < -60);
    // Asked again: the stored one, at once.
    let stored = watcher.post(&path, json!({})).await;
    assert_eq!(stored.status.as_u16(), 200);
    assert_eq!(stored.body["analysis"], analysis);

    // The PDN carries each move's comment and the mark, and reads back to the same game.
    let pdn = watcher
        .fetch(&format!("/api/rooms/{code}/games/1/download"))
        .await
        .text()
        .await
        .unwrap();
    assert!(pdn.contains("[Annotator \"Dames analysis"), "{pdn}");
    assert!(pdn.contains("29-23?? {eval "), "{pdn}");
    assert!(pdn.contains(", best "), "{pdn}");
    let games = draughts::read_pdn(&pdn).unwrap();
    assert_eq!(games[0].moves, ["29-23", "18x29"]);
    let game = draughts::Game::from_pdn(&games[0], draughts::Rules::default()).unwrap();
    assert_eq!(game.ply(), 2);

    // A restart keeps it.
    let server = server.restart(small).await;
    let after = server.client().get(&path).await.ok();
    assert_eq!(after["status"], "done");
    assert_eq!(after["analysis"], analysis);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_nobody_watches_is_cancelled() {
    let server = Server::start_with(|c| {
        c.analysis.nodes = 50_000_000;
        c.analysis.watch = Duration::from_millis(300);
    })
    .await;
    let (ana, _bo, code) = finished_blunder(&server).await;
    let path = format!("/api/rooms/{code}/games/1/analysis");
    assert_eq!(ana.post(&path, json!({})).await.status.as_u16(), 202);
    // Nobody asks for a while: the job stops and nothing is stored.
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    assert_eq!(ana.get(&path).await.ok(), json!({"status": "none"}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_finished_draughts_game_of_a_known_room_may_be_analysed() {
    let server = Server::start_with(small).await;
    let client = server.client();
    client
        .post("/api/rooms/K7M2QX/games/1/analysis", json!({}))
        .await
        .expect_error(404, "unknown_room");
    client
        .get("/api/rooms/K7M2QX/games/1/analysis")
        .await
        .expect_error(404, "unknown_room");
    // A game being played.
    let (ana, _bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana", "start": BLUNDER_START}))
        .await;
    ana.start().await;
    let code = ana.code.clone().unwrap();
    let playing = ana
        .post(&format!("/api/rooms/{code}/games/1/analysis"), json!({}))
        .await;
    playing.expect_error(409, "wrong_state");
    assert_eq!(playing.body["error"]["detail"]["reason"], "not_finished");
    for n in ["2", "0", "x"] {
        ana.post(&format!("/api/rooms/{code}/games/{n}/analysis"), json!({}))
            .await
            .expect_error(404, "unknown_game");
        ana.get(&format!("/api/rooms/{code}/games/{n}/analysis"))
            .await
            .expect_error(404, "unknown_game");
    }
    // Chinese checkers: not supported.
    let (cy, _dee) = server.ana_and_bo(json!({"game": "cc", "name": "Cy"})).await;
    cy.start().await;
    cy.act("resign", json!({})).await.ok();
    let cc = cy.code.clone().unwrap();
    cy.post(&format!("/api/rooms/{cc}/games/1/analysis"), json!({}))
        .await
        .expect_error(422, "not_supported");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn starting_analyses_is_rate_limited_per_address() {
    let server = Server::start_with(|c| {
        small(c);
        c.limits.enabled = true;
        c.limits.analysis = dames_server::config::Rate {
            burst: 1,
            per_minute: 1,
        };
    })
    .await;
    let (_, _, first) = finished_blunder(&server).await;
    let (_, _, second) = finished_blunder(&server).await;
    let client = server.client();
    let asked = client
        .post(&format!("/api/rooms/{first}/games/1/analysis"), json!({}))
        .await;
    assert_eq!(asked.status.as_u16(), 202, "{}", asked.body);
    let refused = client
        .post(&format!("/api/rooms/{second}/games/1/analysis"), json!({}))
        .await;
    refused.expect_error(429, "rate_limited");
    assert!(refused.headers.contains_key("retry-after"));
    // Joining or reading the first costs nothing.
    until_done(&client, &first).await;
    assert_eq!(
        client
            .post(&format!("/api/rooms/{first}/games/1/analysis"), json!({}))
            .await
            .status
            .as_u16(),
        200
    );
}
