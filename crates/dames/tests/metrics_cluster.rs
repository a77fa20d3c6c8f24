//! The metrics of a cluster (issue 22, « Metrics »): two `dames serve` nodes on one PostgreSQL
//! and one Redis, each with its metrics address, a game whose two seats play on different nodes.
//! Every move is counted once across the deployment (on the node that committed it), each node's
//! changes are published to the other, which receives them and catches its copy up.
#![cfg(feature = "server")]

mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use common::{call, eventually, Node};

const MOVES: usize = 8;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The samples of a scrape of `url` by series (the format itself is checked by the server's
/// tests/metrics.rs).
async fn scrape(http: &reqwest::Client, url: &str) -> HashMap<String, f64> {
    let text = http.get(url).send().await.unwrap().text().await.unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (series, value) = l.rsplit_once(' ')?;
            Some((series.to_owned(), value.parse().ok()?))
        })
        .collect()
}

/// The seat to move at move `i` and its room, as its own node serves it, once that node has
/// caught up with move `i - 1`; `None` before.
async fn mover(
    http: &reqwest::Client,
    base: &[String; 2],
    tokens: &[String; 2],
    code: &str,
    i: usize,
) -> Option<(usize, Value)> {
    for seat in 0..2 {
        let room = call(
            http.get(format!("{}/api/rooms/{code}", base[seat]))
                .bearer_auth(&tokens[seat]),
        )
        .await;
        if moves(&room) == i && room["play"]["to_move"] == seat {
            return Some((seat, room));
        }
    }
    None
}

fn moves(room: &Value) -> usize {
    room["play"]["moves"].as_array().map_or(0, Vec::len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_move_is_counted_once_and_the_fanout_is_counted_on_both_nodes() {
    let db = dames_store::ScratchDatabase::create().unwrap();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let prefix = format!("dames-test:metrics-{}-{nanos:x}:", std::process::id());
    let redis = common::cluster::redis_url();
    let url = db.url();
    let metrics: Vec<String> = (0..2)
        .map(|_| format!("127.0.0.1:{}", free_port()))
        .collect();
    let nodes: Vec<Node> = metrics
        .iter()
        .map(|at| {
            Node::spawn([
                "--database",
                &url,
                "--redis",
                &redis,
                "--redis-prefix",
                &prefix,
                "--no-rate-limits",
                "--log",
                "warn",
                "--metrics-listen",
                at,
            ])
        })
        .collect();
    let scrapes: Vec<String> = metrics
        .iter()
        .map(|m| format!("http://{m}/metrics"))
        .collect();
    let http = reqwest::Client::new();

    // Ana on node 0, Bo on node 1.
    let base = [nodes[0].base().to_owned(), nodes[1].base().to_owned()];
    let created = call(
        http.post(format!("{}/api/rooms", base[0]))
            .json(&json!({"game": "draughts", "name": "Ana"})),
    )
    .await;
    let code = created["code"].as_str().unwrap().to_owned();
    let joined = call(
        http.post(format!("{}/api/rooms/{code}/join", base[1]))
            .json(&json!({"name": "Bo"})),
    )
    .await;
    let tokens = [
        created["token"].as_str().unwrap().to_owned(),
        joined["token"].as_str().unwrap().to_owned(),
    ];
    call(
        http.post(format!("{}/api/rooms/{code}/start", base[0]))
            .bearer_auth(&tokens[0]),
    )
    .await;
    for i in 0..MOVES {
        // Each seat plays on its own node, once that node has caught up with the last move.
        let started = Instant::now();
        let (seat, room) = loop {
            if let Some(found) = mover(&http, &base, &tokens, &code, i).await {
                break found;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "move {i}: no node caught up"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let notation = room["play"]["legal_moves"][0]["notation"].clone();
        call(
            http.post(format!("{}/api/rooms/{code}/move", base[seat]))
                .bearer_auth(&tokens[seat])
                .json(&json!({"id": format!("m{i}"), "move": {"notation": notation}})),
        )
        .await;
    }

    // Node 1 has caught up with node 0's last change: the counters are final.
    eventually(
        Duration::from_secs(10),
        "both nodes at the last move",
        || async {
            let mut at_last = true;
            for seat in 0..2 {
                let room = call(
                    http.get(format!("{}/api/rooms/{code}", base[seat]))
                        .bearer_auth(&tokens[seat]),
                )
                .await;
                at_last &= moves(&room) == MOVES;
            }
            at_last
        },
    )
    .await;
    let [a, b] = [
        scrape(&http, &scrapes[0]).await,
        scrape(&http, &scrapes[1]).await,
    ];
    let both = |series: &str| a[series] + b[series];
    // Every move committed once, by the node of its player: none counted twice.
    assert_eq!(both("dames_moves_committed_total"), MOVES as f64);
    assert!(a["dames_moves_committed_total"] > 0.0 && b["dames_moves_committed_total"] > 0.0);
    for node in [&a, &b] {
        assert_eq!(node["dames_cluster_node"], 1.0);
        // Each node published its changes and received the other's.
        assert!(node["dames_fanout_sent_total"] > 0.0, "{node:?}");
        assert!(node["dames_fanout_received_total"] > 0.0, "{node:?}");
        // And brought its copy up to date from them (applied, or reloaded from the store).
        let caught_up = node["dames_fanout_applied_total"] + node["dames_room_reloads_total"];
        assert!(caught_up > 0.0, "{node:?}");
        assert_eq!(node["dames_redis_errors_total"], 0.0);
        assert_eq!(node["dames_database_errors_total"], 0.0);
    }
}
