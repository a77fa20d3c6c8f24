//! `dames serve` stopped by SIGTERM under load: it drains (the WebSockets are told to reconnect
//! with 1012, requests in progress finish, every change handed to the writer is committed),
//! refuses new connections meanwhile, exits 0 within `--drain-timeout`, logs no error, and every
//! move it acknowledged is in the database when it starts again.
#![cfg(feature = "server")]

use std::ffi::OsString;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

mod common;

use common::{call, draughts_game as game, Node};

fn spawn(db: &Path) -> Node {
    let mut args = vec![OsString::from("--db"), db.into()];
    args.extend(["--log", "info", "--no-rate-limits", "--drain-timeout", "5s"].map(OsString::from));
    Node::spawn(args)
}

/// The notations of the moves stored for `code`.
async fn stored_moves(http: &reqwest::Client, base: &str, code: &str) -> Vec<String> {
    let room = call(http.get(format!("{base}/api/rooms/{code}"))).await;
    room["play"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"]["notation"].as_str().unwrap().to_owned())
        .collect()
}

/// A seated WebSocket: reads until the server closes it; the close code it got.
async fn watch(base: String, code: String, token: String) -> Option<u16> {
    let host = base.trim_start_matches("http://");
    let mut req = format!("ws://{host}/ws/rooms/{code}?since=0")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    while let Some(msg) = ws.next().await {
        match msg {
            Ok(Message::Close(frame)) => return frame.map(|f| u16::from(f.code)),
            Ok(_) => {}
            Err(_) => return None,
        }
    }
    None
}

/// Plays `code` over HTTP, the seat to move moving its first legal move, until a request
/// fails; every acknowledged move goes to `acked`.
async fn play(
    http: reqwest::Client,
    base: String,
    code: String,
    tokens: [String; 2],
    acked: Arc<Mutex<Vec<String>>>,
) {
    for i in 0.. {
        let token = &tokens[i % 2];
        let Ok(res) = http
            .get(format!("{base}/api/rooms/{code}"))
            .bearer_auth(token)
            .send()
            .await
        else {
            return;
        };
        let Ok(room) = res.json::<Value>().await else {
            return;
        };
        let Some(notation) = room["play"]["legal_moves"][0]["notation"].as_str() else {
            return;
        };
        let Ok(res) = http
            .post(format!("{base}/api/rooms/{code}/move"))
            .bearer_auth(token)
            .json(&json!({"id": format!("m{i}"), "move": {"notation": notation}}))
            .send()
            .await
        else {
            return;
        };
        if !res.status().is_success() {
            return;
        }
        let Ok(answer) = res.json::<Value>().await else {
            return;
        };
        if answer["applied"] != true {
            return;
        }
        acked.lock().unwrap().push(notation.to_owned());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_under_load_drains_quietly_and_keeps_every_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("dames.db");
    let http = reqwest::Client::new();
    let mut server = spawn(&db);
    let base = server.base.clone();

    let mut games = Vec::new();
    let mut watchers = Vec::new();
    let mut players = Vec::new();
    for _ in 0..6 {
        let (code, tokens) = game(&http, &base).await;
        for token in &tokens {
            watchers.push(tokio::spawn(watch(
                base.clone(),
                code.clone(),
                token.clone(),
            )));
        }
        let acked = Arc::new(Mutex::new(Vec::new()));
        players.push(tokio::spawn(play(
            http.clone(),
            base.clone(),
            code.clone(),
            tokens,
            acked.clone(),
        )));
        games.push((code, acked));
    }
    // Under way: every game has moves acknowledged.
    let start = Instant::now();
    while games
        .iter()
        .any(|(_, acked)| acked.lock().unwrap().len() < 4)
    {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the games do not move"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    server.sigterm();
    let (status, took) = server.exited(Duration::from_secs(8)).await;
    assert!(status.success(), "{status}");
    assert!(took < Duration::from_secs(5), "the drain took {took:?}");
    for player in players {
        player.await.unwrap();
    }
    for watcher in watchers {
        // 1012 "service restart": the page reconnects with `since` (web/js/api.js).
        assert_eq!(watcher.await.unwrap(), Some(1012));
    }
    assert_eq!(server.error_lines(), Vec::<String>::new());
    let stderr = server.stderr.lock().unwrap().join("\n");
    assert!(stderr.contains("drained"), "{stderr}");

    // Started again on the same database: every acknowledged move is there, in order (a move
    // committed whose answer was lost with the connection may follow them).
    let mut again = spawn(&db);
    let mut total = 0;
    for (code, acked) in &games {
        let acked = acked.lock().unwrap().clone();
        let stored = stored_moves(&http, &again.base, code).await;
        assert!(stored.starts_with(&acked), "{code}: {stored:?} / {acked:?}");
        assert!(
            stored.len() <= acked.len() + 1,
            "{code}: {stored:?} / {acked:?}"
        );
        total += acked.len();
    }
    assert!(total >= 24, "{total} moves acknowledged");
    again.sigterm();
    let (status, _) = again.exited(Duration::from_secs(8)).await;
    assert!(status.success(), "{status}");
    assert_eq!(again.error_lines(), Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_in_progress_finishes_while_new_connections_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = spawn(&dir.path().join("dames.db"));
    let addr = server.base.trim_start_matches("http://").to_owned();
    // A request whose body is still arriving when the signal comes.
    let body = json!({"game": "draughts", "name": "Ana"}).to_string();
    let (head, tail) = body.split_at(10);
    let mut slow = tokio::net::TcpStream::connect(&addr).await.unwrap();
    slow.write_all(
        format!(
            "POST /api/rooms HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{head}",
            body.len()
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;

    server.sigterm();
    // The listener is closed at once: the system refuses new connections (one that was
    // waiting in the listener's backlog as it closed is reset).
    let start = Instant::now();
    loop {
        match tokio::net::TcpStream::connect(&addr).await {
            Err(err) if err.kind() == std::io::ErrorKind::ConnectionRefused => break,
            Err(err) => assert_eq!(err.kind(), std::io::ErrorKind::ConnectionReset, "{err}"),
            Ok(_) => {}
        }
        assert!(start.elapsed() < Duration::from_secs(2), "still accepting");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "exited before the request finished"
    );

    // The request in progress still gets its answer.
    slow.write_all(tail.as_bytes()).await.unwrap();
    let mut answer = String::new();
    slow.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    assert!(answer.contains("\"code\""), "{answer}");

    let (status, _) = server.exited(Duration::from_secs(8)).await;
    assert!(status.success(), "{status}");
    assert_eq!(server.error_lines(), Vec::<String>::new());
}
