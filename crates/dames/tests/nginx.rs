//! Two `dames serve` nodes (one PostgreSQL database, one Redis prefix) behind nginx run with the
//! configuration of `deploy/nginx/dames.conf`, the one docs/cluster.md shows: only its addresses,
//! port and log path are changed. Through nginx: `/health` and `/ready`, a game over HTTP, a
//! WebSocket upgraded and fed, requests spread over both nodes; then one node is killed
//! (`kill -9`) and every request still gets its answer from the other.
#![cfg(feature = "loadtest")]

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use dames_loadtest::infra::{Nginx, NGINX_SITE as CONF};

use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use common::cluster::Cluster;
use common::{call, draughts_game as game};

const DOC: &str = include_str!("../../../docs/cluster.md");

/// Polls `url` until it answers 200 (nginx and the nodes take a moment on a loaded machine).
async fn wait_ok(http: &reqwest::Client, url: &str) {
    let start = Instant::now();
    loop {
        if let Ok(res) = http.get(url).send().await {
            if res.status().is_success() {
                return;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{url} never answered 200"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The seat of `token` plays its first legal move with id `id`; the answer.
async fn play_first(
    http: &reqwest::Client,
    base: &str,
    code: &str,
    token: &str,
    id: &str,
) -> Value {
    let room = call(
        http.get(format!("{base}/api/rooms/{code}"))
            .bearer_auth(token),
    )
    .await;
    let notation = room["play"]["legal_moves"][0]["notation"].as_str().unwrap();
    call(
        http.post(format!("{base}/api/rooms/{code}/move"))
            .bearer_auth(token)
            .json(&json!({"id": id, "move": {"notation": notation}})),
    )
    .await
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A seated WebSocket through nginx, with the browser's `Origin` (the upgrade is checked).
async fn connect(base: &str, code: &str, token: &str) -> Socket {
    let host = base.trim_start_matches("http://");
    let mut req = format!("ws://{host}/ws/rooms/{code}?since=0")
        .into_client_request()
        .unwrap();
    let headers = req.headers_mut();
    headers.insert("authorization", format!("Bearer {token}").parse().unwrap());
    headers.insert("origin", base.parse().unwrap());
    let (ws, res) = tokio_tungstenite::connect_async(req).await.unwrap();
    assert_eq!(res.status(), 101);
    ws
}

/// The next JSON message of `ws` whose `type` is `kind` (within 15 s).
async fn next_of(ws: &mut Socket, kind: &str) -> Value {
    let wait = async {
        while let Some(msg) = ws.next().await {
            if let Message::Text(text) = msg.unwrap() {
                let value: Value = serde_json::from_str(&text).unwrap();
                if value["type"] == kind {
                    return value;
                }
            }
        }
        panic!("closed before a {kind:?}");
    };
    tokio::time::timeout(Duration::from_secs(15), wait)
        .await
        .unwrap_or_else(|_| panic!("no {kind:?} within 15 s"))
}

/// The upstream addresses nginx logged (`upstream=` of the `dames` log format).
fn upstreams(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split(" upstream=").nth(1))
        .map(|rest| rest.split_whitespace().next().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn the_documented_configuration_is_the_tested_one() {
    let documented = DOC.contains(CONF.trim_end());
    assert!(
        documented,
        "docs/cluster.md must show deploy/nginx/dames.conf as it is"
    );
    for needed in [
        "map $http_upgrade $connection_upgrade",
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "proxy_buffering off;",
        "proxy_next_upstream error timeout",
        "max_fails=0;",
    ] {
        assert!(CONF.contains(needed), "{needed}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_behind_nginx_serve_http_and_websockets_and_survive_a_kill() {
    let mut cluster = Cluster::start_bare(2, &["--trusted-proxy", "127.0.0.1", "--log", "warn"]);
    let addr = |i: usize| {
        cluster
            .node(i)
            .base()
            .trim_start_matches("http://")
            .to_owned()
    };
    let (a, b) = (addr(0), addr(1));
    let nginx = Nginx::start(&[&a, &b], 64).unwrap();
    let base = nginx.base();
    let http = reqwest::Client::new();
    wait_ok(&http, &format!("{base}/health")).await;
    wait_ok(&http, &format!("{base}/ready")).await;
    let page = http.get(format!("{base}/")).send().await.unwrap();
    assert!(page.status().is_success());

    // A game over HTTP and a seat's WebSocket, all through nginx.
    let (code, tokens) = game(&http, &base).await;
    let mut ws = connect(&base, &code, &tokens[1]).await;
    assert_eq!(next_of(&mut ws, "state").await["type"], "state");
    let answer = play_first(&http, &base, &code, &tokens[0], "m0").await;
    assert_eq!(answer["applied"], true, "{answer}");
    // Round-robin: both nodes answered some of the requests.
    for _ in 0..4 {
        call(http.get(format!("{base}/api/rooms/{code}"))).await;
    }
    let seen = upstreams(&nginx.access_log());
    for node in [&a, &b] {
        assert!(seen.contains(node), "{node} never answered: {seen:?}");
    }
    drop(ws);

    // One node killed: nginx takes every request to the other (a request sent to the dead
    // node is refused before anything was sent, so even a POST goes on to the next node).
    cluster.kill9(0);
    for i in 0..6 {
        let res = http.get(format!("{base}/ready")).send().await.unwrap();
        assert_eq!(res.status(), 200, "request {i} after the kill");
    }
    let (code, tokens) = game(&http, &base).await;
    for (i, token) in tokens.iter().cycle().take(4).enumerate() {
        let answer = play_first(&http, &base, &code, token, &format!("k{i}")).await;
        assert_eq!(answer["applied"], true, "{answer}");
    }
    let mut ws = connect(&base, &code, &tokens[0]).await;
    assert_eq!(next_of(&mut ws, "state").await["type"], "state");
    let after = upstreams(&nginx.access_log());
    assert!(after.len() > seen.len());
    drop(ws);
}
