//! `dames serve` as a process: prints its address, keeps every acknowledged move through a
//! kill -9 and a restart on the same database, stops on SIGTERM.
#![cfg(feature = "server")]

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};

mod common;

/// Starts `dames serve` on a random port; returns the process and its base URL.
fn spawn(db: &Path) -> common::Node {
    common::Node::spawn([
        OsStr::new("--db"),
        db.as_os_str(),
        "--log".as_ref(),
        "warn".as_ref(),
    ])
}

async fn call(req: reqwest::RequestBuilder) -> Value {
    let res = req.send().await.unwrap();
    assert!(res.status().is_success(), "{}", res.status());
    res.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_keeps_every_acknowledged_move_through_a_kill_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("dames.db");
    let http = reqwest::Client::new();
    let mut node = spawn(&db);
    let base = node.base.clone();
    let created = call(
        http.post(format!("{base}/api/rooms"))
            .json(&json!({"game": "draughts", "name": "Ana"})),
    )
    .await;
    let code = created["code"].as_str().unwrap().to_owned();
    let ana = created["token"].as_str().unwrap().to_owned();
    let joined = call(
        http.post(format!("{base}/api/rooms/{code}/join"))
            .json(&json!({"name": "Bo"})),
    )
    .await;
    let bo = joined["token"].as_str().unwrap().to_owned();
    call(
        http.post(format!("{base}/api/rooms/{code}/start"))
            .bearer_auth(&ana),
    )
    .await;
    let mut played = Vec::new();
    for i in 0..8 {
        let token = if i % 2 == 0 { &ana } else { &bo };
        let room = call(
            http.get(format!("{base}/api/rooms/{code}"))
                .bearer_auth(token),
        )
        .await;
        let mv = room["play"]["legal_moves"][0]["notation"].clone();
        let answer = call(
            http.post(format!("{base}/api/rooms/{code}/move"))
                .bearer_auth(token)
                .json(&json!({"move": {"notation": mv}})),
        )
        .await;
        assert_eq!(answer["applied"], true);
        played.push(mv);
    }
    // No warning: the process dies at once, right after the last acknowledgement.
    node.kill9();

    let mut node = spawn(&db);
    let base = node.base.clone();
    let room = call(
        http.get(format!("{base}/api/rooms/{code}"))
            .bearer_auth(&ana),
    )
    .await;
    let notations: Vec<Value> = room["play"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"]["notation"].clone())
        .collect();
    assert_eq!(notations, played);
    assert_eq!(
        (
            room["status"].as_str(),
            room["you"].as_u64(),
            room["play"]["to_move"].as_u64()
        ),
        (Some("playing"), Some(0), Some(0))
    );

    // SIGTERM: a clean stop.
    node.sigterm();
    let (status, _) = node.exited(Duration::from_secs(10)).await;
    assert!(status.success(), "{status}");
}

#[test]
fn migrate_prepares_a_database_apart_from_serving() {
    // SQLite: the file is created with its tables.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.db");
    let out = Command::new(env!("CARGO_BIN_EXE_dames"))
        .args(["migrate", "--db"])
        .arg(&db)
        .env_remove("DAMES_DATABASE")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(db.exists());
    // PostgreSQL: the schema is there, and a second run finds nothing to do.
    let pg = dames_store::ScratchDatabase::create().unwrap();
    for _ in 0..2 {
        let out = Command::new(env!("CARGO_BIN_EXE_dames"))
            .args(["migrate", "--database", &pg.url()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "migrations applied"
        );
    }
    let store = dames_store::PostgresStore::open(&pg.url()).unwrap();
    use dames_store::RoomStore;
    assert!(store.live_codes().unwrap().is_empty());
    drop(store);
    // A database that cannot be reached is an error, not a silent SQLite file.
    let out = Command::new(env!("CARGO_BIN_EXE_dames"))
        .args(["migrate", "--database", "postgres://postgres@127.0.0.1:1/x"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}
