//! The cluster-wide concerns over real nodes (issue 13, docs/cluster.md): `dames serve` processes
//! on one PostgreSQL and one Redis. A CPU turn is thought by the node holding its lease; when that
//! node is killed (-9), another node takes the turn over and the CPU's move arrives within 5 s.
#![cfg(feature = "server")]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A running `dames serve` node: the process, its base URL, its cluster node id.
struct Node {
    child: Child,
    base: String,
    id: String,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The Redis of the tests.
fn redis_url() -> String {
    std::env::var("DAMES_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

/// A key prefix of this test's own.
fn scratch_prefix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("dames-test:ops{}{nanos}:", std::process::id())
}

/// Starts a node on `database` and the tests' Redis under `prefix`, with `extra` options.
fn spawn(database: &str, prefix: &str, extra: &[&str]) -> Node {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dames"))
        .args(["serve", "--addr", "127.0.0.1:0", "--log", "info"])
        .args(["--database", database, "--redis", &redis_url()])
        .args(["--redis-prefix", prefix])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let id = Arc::new(Mutex::new(None::<String>));
    let found = id.clone();
    let err = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            eprintln!("node: {line}");
            if let Some((_, node)) = line.split_once("cluster node ") {
                *found.lock().unwrap() = Some(node.trim().to_owned());
            }
        }
    });
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    // Logged before the address is printed, but read by another thread.
    let start = Instant::now();
    let id = loop {
        if let Some(id) = id.lock().unwrap().clone() {
            break id;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no node id logged"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    Node { child, base, id }
}

/// Polls `check` every 50 ms until it gives a value; panics after `limit`.
async fn until<T, F: std::future::Future<Output = Option<T>>>(
    limit: Duration,
    what: &str,
    mut check: impl FnMut() -> F,
) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn room(http: &reqwest::Client, node: &Node, code: &str) -> Value {
    http.get(format!("{}/api/rooms/{code}", node.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

async fn redis_get(key: &str) -> Option<String> {
    let client = redis::Client::open(redis_url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    redis::cmd("GET")
        .arg(key)
        .query_async(&mut conn)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cpu_turn_whose_node_is_killed_resumes_on_another_node_within_5_s() {
    let pg = dames_server::store::ScratchDatabase::create().unwrap();
    let prefix = scratch_prefix();
    let mut nodes = vec![
        spawn(&pg.url(), &prefix, &["--no-rate-limits"]),
        spawn(&pg.url(), &prefix, &["--no-rate-limits"]),
    ];
    let http = reqwest::Client::new();
    // Ana against a CPU thinking 1 s, on the first node.
    let created: Value = http
        .post(format!("{}/api/rooms", nodes[0].base))
        .json(&json!({
            "game": "draughts",
            "name": "Ana",
            "settings": {"cpu_ms": 1_000},
            "cpu": {"level": "expert"},
        }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let code = created["room"]["code"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let notation = created["room"]["play"]["legal_moves"][0]["notation"].clone();
    let moved = http
        .post(format!("{}/api/rooms/{code}/move", nodes[0].base))
        .bearer_auth(&token)
        .json(&json!({"move": {"notation": notation}}))
        .send()
        .await
        .unwrap();
    assert!(
        moved.status().is_success(),
        "{}",
        moved.text().await.unwrap()
    );
    // The CPU thinks on the node holding the lease: that one dies.
    let lease = format!("{prefix}cpu:{code}");
    let holder = until(Duration::from_secs(10), "lease taken", || redis_get(&lease)).await;
    let dead = nodes.iter().position(|n| n.id == holder).unwrap();
    nodes[dead].child.kill().unwrap();
    let killed = Instant::now();
    nodes[dead].child.wait().unwrap();
    let alive = nodes.remove(1 - dead);
    let after = until(Duration::from_secs(20), "the CPU's move", || async {
        let room = room(&http, &alive, &code).await;
        (room["play"]["to_move"] == 0).then_some(room)
    })
    .await;
    let took = killed.elapsed();
    eprintln!("CPU move arrived {took:?} after kill -9 of its node");
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!(after["play"]["moves"].as_array().map(Vec::len), Some(2));
    // The turn was played by the living node: its lease is released.
    until(Duration::from_secs(10), "lease released", || async {
        redis_get(&lease).await.is_none().then_some(())
    })
    .await;
    drop(alive);
}
