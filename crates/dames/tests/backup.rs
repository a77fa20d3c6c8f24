//! Backups under load (issue 22, « Backups », docs/operations.md): games are played on a `dames
//! serve` by concurrent players, each acknowledged move recorded with when its answer came; in
//! the middle of it the backup is taken — `dames backup` of an SQLite file, `pg_dump` of a
//! PostgreSQL database, restored with `pg_restore` into an empty one as the documentation says.
//! The backup must hold every move acknowledged before the backup began (and each game's log
//! without a gap), and a server started on it serves those games.
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

fn serve_postgres(url: &str) -> Node {
    Node::spawn(["--database", url, "--no-rate-limits", "--log", "warn"])
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

/// Plays [`GAMES`] games on `base` and, once a quarter of their moves are acknowledged, runs
/// `backup` (a blocking command) while they go on. Returns every acknowledgement and when the
/// backup began.
async fn backup_under_load(
    base: &str,
    backup: impl FnOnce() -> std::process::Output + Send + 'static,
) -> (Vec<Ack>, Instant, String) {
    let http = reqwest::Client::new();
    let acks: Arc<Mutex<Vec<Ack>>> = Arc::default();
    let mut players = Vec::new();
    for _ in 0..GAMES {
        let (code, tokens) = draughts_game(&http, base).await;
        players.push(tokio::spawn(player(
            base.to_owned(),
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
    let out = tokio::task::spawn_blocking(backup).await.unwrap();
    assert!(out.status.success(), "{out:?}");
    let took = began.elapsed();
    let said = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    eprintln!("{said} (the command: {took:?})");
    for p in players {
        p.await.unwrap();
    }
    let acks = acks.lock().unwrap().clone();
    let before = acks.iter().filter(|(_, _, at)| *at < began).count();
    let after = acks.len() - before;
    // The server went on acknowledging moves while and after the backup was taken.
    assert!(after > 0 && before > 0, "{before} before, {after} after");
    eprintln!("moves acknowledged: {before} before the backup began, {after} after");
    (acks, began, said)
}

/// Every move acknowledged before `began` is in `store`, each game's log without a gap.
fn check_backup(store: &dyn RoomStore, acks: &[Ack], began: Instant) {
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
    for (code, id, _) in acks.iter().filter(|(_, _, at)| *at < began) {
        let stored = store.load(code).unwrap().unwrap();
        if !stored.client_ids.contains(id) {
            missing.push(id.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "acknowledged before the backup, missing from it: {missing:?}"
    );
}

/// A server on the restored backup serves the first game as it was then.
async fn check_served(restored: &Node, acks: &[Ack], began: Instant) {
    let http = reqwest::Client::new();
    let (code, _, _) = acks.iter().find(|(_, _, at)| *at < began).unwrap();
    let room = call(http.get(format!("{}/api/rooms/{code}", restored.base()))).await;
    let moves = room["play"]["moves"].as_array().unwrap().len();
    let acked = (acks.iter())
        .filter(|(c, _, at)| c == code && *at < began)
        .count();
    assert!(
        moves >= acked,
        "{moves} moves served, {acked} acknowledged before the backup"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_under_load_holds_every_move_acknowledged_before_it_began() {
    let dir = tempfile::tempdir().unwrap();
    let (db, copy) = (dir.path().join("dames.db"), dir.path().join("backup.db"));
    let node = serve(&db);
    let (from, to) = (db.clone(), copy.clone());
    let (acks, began, said) = backup_under_load(node.base(), move || {
        Command::new(env!("CARGO_BIN_EXE_dames"))
            .args(["backup", "--db"])
            .arg(&from)
            .arg("--to")
            .arg(&to)
            .output()
            .unwrap()
    })
    .await;
    assert!(said.contains(&format!("{GAMES} rooms")), "{said}");
    let store = dames_store::SqliteStore::open(&copy).unwrap();
    check_backup(&store, &acks, began);
    drop(store);
    drop(node);
    // Restored: a server on the backup serves the games as they were then.
    check_served(&serve(&copy), &acks, began).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pg_dump_taken_under_load_and_restored_holds_every_move_acknowledged_before_it_began() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("dames.dump");
    let live = dames_store::ScratchDatabase::create().unwrap();
    let node = serve_postgres(&live.url());
    // As docs/operations.md says: the custom format, while the node keeps writing.
    let (url, file) = (live.url(), dump.clone());
    let (acks, began, _) = backup_under_load(node.base(), move || {
        Command::new("pg_dump")
            .args(["--format=custom", "--file"])
            .arg(&file)
            .arg(&url)
            .output()
            .expect("pg_dump (Debian's postgresql-client) is installed")
    })
    .await;
    drop(node);
    drop(live);
    // Restored into an empty database (the schema and its migrations come with the dump).
    let restored = dames_store::ScratchDatabase::create().unwrap();
    let out = Command::new("pg_restore")
        .args(["--no-owner", "--dbname"])
        .arg(restored.url())
        .arg(&dump)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let url = restored.url();
    let (acks2, began2) = (acks.clone(), began);
    std::thread::spawn(move || {
        let store = dames_store::PostgresStore::open(&url).unwrap();
        check_backup(&store, &acks2, began2);
    })
    .join()
    .unwrap();
    check_served(&serve_postgres(&restored.url()), &acks, began).await;
}
