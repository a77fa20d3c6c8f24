//! Push endpoints cannot reach this machine or a private network (issue 10 item 1,
//! crate::push::ssrf): a local listener stands where such an endpoint points and must never see
//! a connection, whether the endpoint is refused when subscribing (IP literals in disguise,
//! single-label and trailing-dot names) or only when its name resolves (to loopback). What the
//! server logs about it names the host only: the rest of an endpoint is the subscription's secret.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine;
use common::{random_draughts_move, Client, Lcg, Server};
use serde_json::{json, Value};

/// Everything logged in this test binary, at every level (the test's own HTTP client too).
static LOGS: Mutex<Vec<u8>> = Mutex::new(Vec::new());

struct Capture;

impl std::io::Write for Capture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        LOGS.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Installs the capturing subscriber. Every test of this file calls it first: a thread that logs
/// before the global subscriber exists may keep "no subscriber" for good.
fn capture_logs() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let subscriber = tracing_subscriber::fmt()
            .with_writer(|| Capture)
            .with_max_level(tracing::Level::TRACE)
            // Colours come on when the workspace is built together (the binary's features).
            .with_ansi(false)
            .finish();
        tracing::subscriber::set_global_default(subscriber).unwrap();
    });
}

/// What the server itself logged (its events, at every level).
fn logged() -> String {
    String::from_utf8_lossy(&LOGS.lock().unwrap())
        .lines()
        .filter(|line| line.contains("dames_server"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A listener on 127.0.0.1 that counts the connections it gets.
async fn trap() -> (u16, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
            drop(stream);
        }
    });
    (port, hits)
}

/// A browser's subscription JSON for `endpoint` (a valid P-256 key and auth secret).
fn subscription(endpoint: &str) -> Value {
    let secret = p256::SecretKey::from_slice(&[0x3f; 32]).unwrap();
    let public = secret.public_key();
    let point = p256::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(&public, false);
    json!({"endpoint": endpoint, "expirationTime": null,
           "keys": {"p256dh": B64.encode(point.as_bytes()), "auth": B64.encode([7u8; 16])}})
}

/// Subscriptions stored in the database.
fn stored(server: &Server) -> i64 {
    let db = rusqlite::Connection::open(&server.db).unwrap();
    db.query_row("SELECT COUNT(*) FROM push_subscriptions", [], |r| r.get(0))
        .unwrap()
}

async fn turn_game(server: &Server) -> (Client, Client) {
    let mut ana = server.client();
    ana.create(json!({"game": "draughts", "name": "Ana", "settings": {"rhythm": "turn"}}))
        .await;
    let mut bo = server.client();
    bo.join(ana.code.as_deref().unwrap(), "Bo").await;
    ana.start().await;
    (ana, bo)
}

/// The seat to move plays, so that the other one is told it is their turn.
async fn give_turn_to(to: &Client, other: &Client, rng: &mut Lcg) {
    let room = other.room().await;
    if room["play"]["to_move"].as_u64() == to.seat {
        to.play(random_draughts_move(&to.room().await, rng))
            .await
            .ok();
    }
    other
        .play(random_draughts_move(&other.room().await, rng))
        .await
        .ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endpoints_to_this_machine_or_private_networks_get_no_connection() {
    capture_logs();
    let (port, hits) = trap().await;
    let server = Server::start_with(|c| {
        // A name that resolves to this machine, as a hosts file or a hostile DNS would say.
        c.push.static_hosts = vec![("push.rebound.net".into(), "127.0.0.1".parse().unwrap())];
    })
    .await;
    let (ana, bo) = turn_game(&server).await;
    for endpoint in [
        format!("https://[::ffff:127.0.0.1]:{port}/x"),
        format!("https://[::ffff:7f00:1]:{port}/x"),
        format!("https://[64:ff9b::7f00:1]:{port}/x"),
        format!("https://[2002:7f00:1::1]:{port}/x"),
        format!("https://127.1:{port}/x"),
        format!("https://0x7f000001:{port}/x"),
        format!("https://localhost.:{port}/x"),
        format!("https://localhost:{port}/x"),
        format!("https://ip6-localhost:{port}/x"),
        format!("https://a.localhost:{port}/x"),
        "https://[::ffff:169.254.169.254]/latest/meta-data".to_owned(),
        "https://[::ffff:10.0.0.1]/x".to_owned(),
        "https://[fe80::1]/x".to_owned(),
        "https://100.64.0.1/x".to_owned(),
        "https://[64:ff9b::a9fe:a9fe]/x".to_owned(),
        "https://192.0.2.1/x".to_owned(),
        "https://198.18.0.1/x".to_owned(),
    ] {
        bo.act("push", subscription(&endpoint))
            .await
            .expect_error(400, "invalid_input");
    }
    assert_eq!(stored(&server), 0);

    // A well-formed name is accepted, but it resolves to loopback: the delivery is refused at
    // connection time and the subscription dropped.
    bo.act(
        "push",
        subscription(&format!("https://push.rebound.net:{port}/send/secret")),
    )
    .await
    .ok();
    assert_eq!(stored(&server), 1);
    give_turn_to(&bo, &ana, &mut Lcg(3)).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while stored(&server) > 0 {
        assert!(Instant::now() < deadline, "the refused subscription stays");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(hits.load(Ordering::SeqCst), 0, "a push reached the trap");
    let logs = logged();
    assert!(
        logs.contains("push to push.rebound.net refused"),
        "the refusal is logged with its host: {logs}"
    );
    assert!(
        !logs.contains("/send/secret") && !logs.contains("/latest/meta-data"),
        "an endpoint's path (its secret) was logged: {logs}"
    );
}

#[tokio::test]
async fn the_test_flag_still_allows_a_local_http_push_service() {
    capture_logs();
    let server = Server::start_with(|c| c.push.allow_loopback_http = true).await;
    let (_ana, bo) = turn_game(&server).await;
    bo.act("push", subscription("http://127.0.0.1:9/x"))
        .await
        .ok();
    bo.act("push", subscription("https://[::ffff:10.0.0.1]/x"))
        .await
        .expect_error(400, "invalid_input");
}
