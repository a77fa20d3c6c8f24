//! The server on PostgreSQL (`--database`, docs/cluster.md), against the real server the tests
//! are given (`DAMES_TEST_POSTGRES`), each test in a database of its own.

mod common;

use common::{assert_decided, random_draughts_move, Lcg, Server};
use dames_store::ScratchDatabase;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_on_postgresql_is_seen_by_a_second_node_and_ready_follows_the_database() {
    let db = ScratchDatabase::create().unwrap();
    let url = db.url();
    let a = Server::start_with(|c| c.database = Some(url.clone())).await;
    let (ana, bo) = a
        .ana_and_bo(json!({"game": "draughts", "name": "Ana", "settings": {"rules": {"variant": "brazilian"}}}))
        .await;
    ana.start().await;
    let mut rng = Lcg(5);
    let mut moves = 0;
    let room = loop {
        let mut moved = false;
        for p in [&ana, &bo] {
            let room = p.room().await;
            if room["status"] == "finished" {
                break;
            }
            if room["play"]["to_move"] == json!(p.seat) {
                let answer = p.play(random_draughts_move(&room, &mut rng)).await.ok();
                assert_eq!(answer["applied"], true);
                (moves, moved) = (moves + 1, true);
                assert!(moves <= 3000, "the game did not end");
            }
        }
        let room = ana.room().await;
        if room["status"] == "finished" {
            break room;
        }
        assert!(moved, "nobody could move");
    };
    assert_decided(&room);
    // A second node on the same database loads the room as the first committed it.
    let b = Server::start_with(|c| c.database = Some(url.clone())).await;
    let code = ana.code.clone().unwrap();
    let http = reqwest::Client::new();
    let seen: Value = http
        .get(format!("{}/api/rooms/{code}", b.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(seen["status"], "finished");
    assert_eq!(seen["version"], room["version"]);
    assert_eq!(seen["play"]["moves"], room["play"]["moves"]);
    // Ready while the database answers; 503 once it is gone; alive all along.
    let status = |path: &'static str| {
        let (http, base) = (http.clone(), b.base.clone());
        async move {
            http.get(format!("{base}{path}"))
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    assert_eq!(status("/ready").await, 200);
    drop(db);
    assert_eq!(status("/ready").await, 503);
    assert_eq!(status("/health").await, 200);
}
