//! The cluster-wide concerns over real nodes (issue 13, docs/cluster.md): `dames serve` processes
//! on one PostgreSQL and one Redis. A CPU turn is thought by the node holding its lease; when that
//! node is killed (-9), another node takes the turn over and the CPU's move arrives within 5 s,
//! thinking only what is left of the turn's budget.
#![cfg(feature = "server")]

mod common;

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use common::cluster::{redis_url, Cluster, OwnRedis};
use common::Node;

/// `n` nodes logging their node id (`info`), with `extra` options.
fn start(n: usize, extra: &[&str]) -> Cluster {
    let mut args = vec!["--log", "info"];
    args.extend(extra);
    Cluster::start_bare(n, &args)
}

/// The cluster node id node `node` logged at start.
fn node_id(node: &Node) -> String {
    let start = Instant::now();
    loop {
        let lines = node.stderr.lock().unwrap();
        let found = lines.iter().find_map(|l| {
            l.split_once("cluster node ")
                .map(|(_, id)| id.trim().to_owned())
        });
        drop(lines);
        if let Some(id) = found {
            return id;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no node id logged"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
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
    http.get(format!("{}/api/rooms/{code}", node.base()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The `dames_client` cookie (`name=value`) that `node` issues to a new browser.
async fn issued_cookie(http: &reqwest::Client, node: &Node) -> String {
    let first = http.get(format!("{}/", node.base())).send().await.unwrap();
    first
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("dames_client="))
        .and_then(|v| v.split(';').next())
        .unwrap()
        .to_owned()
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

/// Ana's game against an expert CPU thinking `cpu_ms`, created on `node`, where she plays the
/// first move: the CPU's turn begins. Returns the room's code.
async fn cpu_turn(http: &reqwest::Client, node: &Node, cpu_ms: u64) -> String {
    let created: Value = http
        .post(format!("{}/api/rooms", node.base()))
        .json(&json!({
            "game": "draughts",
            "name": "Ana",
            "settings": {"cpu_ms": cpu_ms},
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
        .post(format!("{}/api/rooms/{code}/move", node.base()))
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
    code
}

/// The node of `cluster` holding the lease of room `code`'s CPU turn (the one thinking it).
async fn thinker(cluster: &Cluster, code: &str) -> usize {
    let lease = format!("{}cpu:{code}", cluster.prefix);
    let holder = until(Duration::from_secs(10), "lease taken", || redis_get(&lease)).await;
    let nodes = cluster.nodes();
    nodes.iter().position(|n| node_id(n) == holder).unwrap()
}

/// Room `code` as `node` shows it once the CPU (seat 1) has moved.
async fn cpu_moved(http: &reqwest::Client, node: &Node, code: &str) -> Value {
    until(Duration::from_secs(20), "the CPU's move", || async {
        let room = room(http, node, code).await;
        (room["play"]["to_move"] == 0).then_some(room)
    })
    .await
}

/// Whether a node other than `dead` logged that it took room `code`'s CPU turn over.
fn taken_over(cluster: &Cluster, dead: usize, code: &str) -> bool {
    (0..cluster.nodes().len()).filter(|&i| i != dead).any(|i| {
        let lines = cluster.node(i).stderr.lock().unwrap().clone();
        lines
            .iter()
            .any(|l| l.contains(&format!("room {code}: CPU turn taken over")))
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cpu_turn_whose_node_is_killed_resumes_on_another_node_within_5_s() {
    let mut cluster = start(3, &["--no-rate-limits"]);
    let http = reqwest::Client::new();
    // Ana against a CPU thinking 0.5 s, on the first node.
    let code = cpu_turn(&http, cluster.node(0), 500).await;
    // The CPU thinks on the node holding the lease: that one dies.
    let dead = thinker(&cluster, &code).await;
    cluster.kill9(dead);
    let killed = Instant::now();
    // Read from a node that lives; any of the two may take the turn over.
    let after = cpu_moved(&http, cluster.node((dead + 1) % 3), &code).await;
    let took = killed.elapsed();
    eprintln!("CPU move arrived {took:?} after kill -9 of its node");
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!(after["play"]["moves"].as_array().map(Vec::len), Some(2));
    // Taken over by one of the living nodes, not played before the kill.
    assert!(
        taken_over(&cluster, dead, &code),
        "no living node took the turn over"
    );
    // The turn was played by the living node: its lease is released.
    let lease = format!("{}cpu:{code}", cluster.prefix);
    until(Duration::from_secs(10), "lease released", || async {
        redis_get(&lease).await.is_none().then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_cpu_think_taken_over_counts_the_time_the_dead_node_already_spent() {
    let mut cluster = start(3, &["--no-rate-limits"]);
    let http = reqwest::Client::new();
    // A CPU thinking 6 s: killed 3.5 s into its turn, the node taking over has 2.5 s left, not
    // 6 s again (which would put the move 8 s or more after the kill).
    let code = cpu_turn(&http, cluster.node(0), 6000).await;
    let turn = room(&http, cluster.node(0), &code).await;
    let turn_since = turn["play"]["turn_since"].as_i64().expect("turn_since");
    let dead = thinker(&cluster, &code).await;
    let since_turn = |at: i64| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        now - at
    };
    let wait = 3_500 - since_turn(turn_since);
    tokio::time::sleep(Duration::from_millis(wait.max(0) as u64)).await;
    assert!(
        room(&http, cluster.node(dead), &code).await["play"]["to_move"] == 1,
        "the CPU still thinks"
    );
    cluster.kill9(dead);
    let killed = Instant::now();
    let after = cpu_moved(&http, cluster.node((dead + 1) % 3), &code).await;
    let took = killed.elapsed();
    let turn = since_turn(turn_since);
    eprintln!("CPU move arrived {took:?} after the kill, {turn} ms after its turn began");
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!(after["play"]["moves"].as_array().map(Vec::len), Some(2));
    // Its budget still counted: the move came no sooner than the 6 s of its turn.
    let played_at = after["play"]["turn_since"].as_i64().unwrap();
    assert!(
        played_at - turn_since >= 6_000,
        "{}",
        played_at - turn_since
    );
    assert!(
        taken_over(&cluster, dead, &code),
        "no living node took the turn over"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_room_creation_limit_holds_across_nodes() {
    let cluster = start(3, &[]);
    let nodes = cluster.nodes();
    let http = reqwest::Client::new();
    // The browser's id as one node issued it: every node recognises it (one key for all).
    let issued = issued_cookie(&http, &nodes[0]).await;
    // One browser creating rooms on each node in turn: the single node's burst (30), not thrice.
    let mut created = 0;
    for i in 0..45 {
        let answer = http
            .post(format!("{}/api/rooms", nodes[i % 3].base()))
            .header("cookie", &issued)
            .json(&json!({"game": "draughts", "name": "Ana"}))
            .send()
            .await
            .unwrap();
        match answer.status().as_u16() {
            201 => created += 1,
            429 => {}
            other => panic!("{other}: {}", answer.text().await.unwrap()),
        }
    }
    assert_eq!(created, 30);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cap_on_games_against_cpus_holds_once_across_nodes() {
    let cluster = start(3, &[]);
    let nodes = cluster.nodes();
    let http = reqwest::Client::new();
    let issued = issued_cookie(&http, &nodes[0]).await;
    let vs_cpu = json!({"game": "draughts", "name": "Ana", "cpu": {"level": "facile"}});
    let create = |i: usize| {
        let req = http
            .post(format!("{}/api/rooms", nodes[i % 3].base()))
            .header("cookie", &issued)
            .json(&vs_cpu);
        async move {
            let answer = req.send().await.unwrap();
            (
                answer.status().as_u16(),
                answer.json::<Value>().await.unwrap(),
            )
        }
    };
    // One browser creating games against CPUs on each node in turn: 5 in all (its cap), not
    // 5 per node.
    let mut created = Vec::new();
    for i in 0..9 {
        match create(i).await {
            (201, body) => created.push(body),
            (429, body) => assert_eq!(body["error"]["code"], "too_many_cpu_games", "{body}"),
            (other, body) => panic!("{other}: {body}"),
        }
    }
    assert_eq!(created.len(), 5);
    // A game that ends (resigned through another node) gives its place back to every node.
    let (code, token) = (
        created[0]["room"]["code"].as_str().unwrap(),
        created[0]["token"].as_str().unwrap(),
    );
    let resigned = http
        .post(format!("{}/api/rooms/{code}/resign", nodes[1].base()))
        .bearer_auth(token)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(resigned.status(), 200, "{}", resigned.text().await.unwrap());
    let (status, body) = create(2).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = create(0).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (429, &json!("too_many_cpu_games"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_holds_8_live_streams_across_all_the_nodes_not_8_on_each() {
    let cluster = start(2, &[]);
    let nodes = cluster.nodes();
    let http = reqwest::Client::new();
    let issued = issued_cookie(&http, &nodes[0]).await;
    let open = |node: usize| {
        let req = http
            .get(format!("{}/api/me/events", nodes[node].base()))
            .header("cookie", &issued);
        async move { req.send().await.unwrap() }
    };
    // 8 tabs: 4 on each node.
    let mut tabs = Vec::new();
    for i in 0..8 {
        let tab = open(i % 2).await;
        assert_eq!(tab.status(), 200);
        tabs.push(tab);
    }
    for node in [0, 1] {
        let refused = open(node).await;
        assert_eq!(refused.status(), 429);
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["error"]["code"], "too_many_connections", "{body}");
    }
    // A tab closed on node 0 frees a place on node 1.
    drop(tabs.remove(0));
    let again = until(
        Duration::from_secs(5),
        "a stream after one closed",
        || async {
            let tab = open(1).await;
            (tab.status() == 200).then_some(tab)
        },
    )
    .await;
    drop(again);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_starting_together_serve_the_same_vapid_public_key() {
    let cluster = start(2, &["--no-rate-limits"]);
    let nodes = cluster.nodes();
    let http = reqwest::Client::new();
    // Both ask for the key at once: the first use of the key on an empty database.
    let keys = futures_util::future::join_all(nodes.iter().map(|n| {
        let http = http.clone();
        let url = format!("{}/api/push/key", n.base());
        async move {
            let body: Value = http.get(url).send().await.unwrap().json().await.unwrap();
            body["key"].as_str().unwrap().to_owned()
        }
    }))
    .await;
    assert_eq!(keys[0], keys[1]);
    assert_eq!(
        keys[0].len(),
        87,
        "a P-256 public key in base64url: {}",
        keys[0]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_is_shared_again_when_redis_comes_back_empty() {
    let mut redis = OwnRedis::start();
    let cluster = Cluster::start_on(2, &redis.url(), &["--log", "warn", "--no-rate-limits"]);
    let http = reqwest::Client::new();
    // Ana hosts a 3-player game on node 0; Bo and Cy take their seats through node 1, where Bo's
    // page is open.
    let mut ana = cluster.client(0);
    ana.create(json!({"game": "cc", "name": "Ana", "settings": {"rules": {"players": 3}}}))
        .await;
    let code = ana.code.clone().unwrap();
    let mut bo = cluster.client(1);
    bo.join(&code, "Bo").await;
    let mut cy = cluster.client(1);
    cy.join(&code, "Cy").await;
    let bo_ws = bo.ws(0).await;
    let online = |seats: [bool; 3]| {
        let (http, node, code) = (&http, cluster.node(0), &code);
        async move {
            let room = room(http, node, code).await;
            let now: Vec<bool> = (0..3).map(|s| room["seats"][s]["online"] == true).collect();
            (now == seats).then_some(())
        }
    };
    until(Duration::from_secs(10), "Bo online on node 0", || {
        online([false, true, false])
    })
    .await;

    // Redis dies and comes back with nothing: every presence it held is gone.
    redis.restart_empty();
    // Cy opens her page on node 1: node 0 hears of it and reads the room's presence again. Bo,
    // connected all along, is still online there: node 1 wrote his presence again when it
    // subscribed again.
    let _cy_ws = cy.ws(0).await;
    until(
        Duration::from_secs(15),
        "Bo and Cy online on node 0",
        || online([false, true, true]),
    )
    .await;
    // And stays so past a node's liveness.
    tokio::time::sleep(Duration::from_secs(4)).await;
    until(
        Duration::from_secs(1),
        "Bo and Cy still online on node 0",
        || online([false, true, true]),
    )
    .await;
    // Flips still travel: Bo closes his page.
    drop(bo_ws);
    until(Duration::from_secs(10), "Bo offline on node 0", || {
        online([false, false, true])
    })
    .await;
}
