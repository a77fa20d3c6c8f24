//! `dames backup` (issue 22, « Backups »): games are played on a `dames serve` over SQLite by
//! concurrent players, each acknowledged move recorded with when its answer came; in the middle
//! of it the backup is taken. The backup must hold every move acknowledged before the backup
//! began (and each game's log without a gap), and a server started on it serves those games.
#![cfg(feature = "server")]

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dames_store::RoomStore;
use serde_json::{json, Value};

use common::{call, draughts_game, Node};

const GAMES: usize = 12;
/// Moves played in each game at most (well before any game could end).
const MOVES: usize = 40;

/// A move acknowledged: its room, its move id, when the answer came.
type Ack = (String, String, Instant);

fn serve(db: &Path) -> Node {
    Node::spawn([
        "--db".as_ref(),
        db.as_os_str(),
        "--no-rate-limits".as_ref(),
        "--log".as_ref(),
        "warn".as_ref(),
    ])
}

/// Plays game `code` (the seats' `tokens`) move after move, recording every acknowledgement.
async fn player(base: String, code: String, tokens: [String; 2], acks: Arc<Mutex<Vec<Ack>>>) {
    let http = reqwest::Client::new();
    for i in 0..MOVES {
        let room = call(
            http.get(format!("{base}/api/rooms/{code}"))
                .bearer_auth(&tokens[0]),
        )
        .await;
        if room["status"] != "playing" {
            return;
        }
        let seat = room["play"]["to_move"].as_u64().unwrap() as usize;
        let room = call(
            http.get(format!("{base}/api/rooms/{code}"))
                .bearer_auth(&tokens[seat]),
        )
        .await;
        let notation = room["play"]["legal_moves"][0]["notation"].clone();
        let id = format!("{code}-{i}");
        let answer: Value = call(
            http.post(format!("{base}/api/rooms/{code}/move"))
                .bearer_auth(&tokens[seat])
                .json(&json!({"id": id, "move": {"notation": notation}})),
        )
        .await;
        assert_eq!(answer["applied"], true, "{answer}");
        acks.lock()
            .unwrap()
            .push((code.clone(), id, Instant::now()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_under_load_holds_every_move_acknowledged_before_it_began() {
    let dir = tempfile::tempdir().unwrap();
    let (db, copy) = (dir.path().join("dames.db"), dir.path().join("backup.db"));
    let node = serve(&db);
    let http = reqwest::Client::new();
    let acks: Arc<Mutex<Vec<Ack>>> = Arc::default();
    let mut players = Vec::new();
    for _ in 0..GAMES {
        let (code, tokens) = draughts_game(&http, node.base()).await;
        players.push(tokio::spawn(player(
            node.base().to_owned(),
            code,
            tokens,
            acks.clone(),
        )));
    }
    // Mid-load: a quarter of the moves acknowledged.
    let start = Instant::now();
    while acks.lock().unwrap().len() < GAMES * MOVES / 4 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the load does not progress"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let began = Instant::now();
    let out = {
        let (db, copy) = (db.clone(), copy.clone());
        tokio::task::spawn_blocking(move || {
            Command::new(env!("CARGO_BIN_EXE_dames"))
                .args(["backup", "--db"])
                .arg(&db)
                .arg("--to")
                .arg(&copy)
                .output()
                .unwrap()
        })
        .await
        .unwrap()
    };
    assert!(out.status.success(), "{out:?}");
    let took = began.elapsed();
    let said = String::from_utf8_lossy(&out.stdout);
    eprintln!("{} (the command: {took:?})", said.trim());
    assert!(said.contains(&format!("{GAMES} rooms")), "{said}");
    for p in players {
        p.await.unwrap();
    }
    let acks = acks.lock().unwrap().clone();
    let before: Vec<&Ack> = acks.iter().filter(|(_, _, at)| *at < began).collect();
    let after = acks.len() - before.len();
    // The server went on acknowledging moves while and after the backup was taken.
    assert!(
        after > 0 && !before.is_empty(),
        "{} before, {after} after",
        before.len()
    );
    eprintln!(
        "moves acknowledged: {} before the backup began, {after} after",
        before.len()
    );

    // Every move acknowledged before the backup began is in it, each game's log without a gap.
    let store = dames_store::SqliteStore::open(&copy).unwrap();
    let mut codes: Vec<&String> = acks.iter().map(|(code, _, _)| code).collect();
    codes.sort();
    codes.dedup();
    assert_eq!(codes.len(), GAMES);
    for code in &codes {
        let stored = store
            .load(code)
            .unwrap()
            .expect("every game is in the backup");
        let seqs: Vec<i64> = stored.actions.iter().map(|a| a.seq).collect();
        assert_eq!(seqs, (0..seqs.len() as i64).collect::<Vec<_>>(), "{code}");
    }
    let mut missing = Vec::new();
    for (code, id, _) in &before {
        let stored = store.load(code).unwrap().unwrap();
        if !stored.client_ids.contains(id) {
            missing.push(id.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "acknowledged before the backup, missing from it: {missing:?}"
    );
    drop(store);
    drop(node);

    // Restored: a server on the backup serves the games as they were then.
    let restored = serve(&copy);
    let (code, _, _) = before[0];
    let room = call(http.get(format!("{}/api/rooms/{code}", restored.base()))).await;
    let moves = room["play"]["moves"].as_array().unwrap().len();
    let acked = before.iter().filter(|(c, _, _)| c == code).count();
    assert!(
        moves >= acked,
        "{moves} moves served, {acked} acknowledged before the backup"
    );
}
