//! Two `dames serve` nodes (one PostgreSQL database, one Redis prefix) behind nginx run with the
//! configuration of `deploy/nginx/dames.conf`, the one docs/cluster.md shows: only its addresses,
//! port and log path are changed. Through nginx: `/health` and `/ready`, a game over HTTP, a
//! WebSocket upgraded and fed, requests spread over both nodes; then one node is killed
//! (`kill -9`) and every request still gets its answer from the other.
#![cfg(feature = "server")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use common::cluster::Cluster;
use common::{call, draughts_game as game};

const CONF: &str = include_str!("../../../deploy/nginx/dames.conf");
const DOC: &str = include_str!("../../../docs/cluster.md");

/// nginx, stopped with SIGTERM when dropped (a failed test leaves nothing running): its workers
/// would outlive a master killed with SIGKILL.
struct Nginx(Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        let pid = self.0.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let _ = self.0.wait();
    }
}

/// Debian's nginx (`apt-get install nginx`; ./scripts/test installs it when missing).
fn nginx_binary() -> PathBuf {
    ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .expect("nginx is not installed (apt-get install -y nginx)")
}

/// `deploy/nginx/dames.conf` with the test's node addresses, port and access log.
fn site_conf(nodes: [&str; 2], port: u16, log: &Path) -> String {
    let replace = |conf: String, from: &str, to: &str| {
        assert_eq!(conf.matches(from).count(), 1, "{from:?} in dames.conf");
        conf.replace(from, to)
    };
    let conf = replace(
        CONF.to_owned(),
        "server 127.0.0.1:8081 ",
        &format!("server {} ", nodes[0]),
    );
    let conf = replace(
        conf,
        "server 127.0.0.1:8082 ",
        &format!("server {} ", nodes[1]),
    );
    let conf = replace(conf, "listen 80;", &format!("listen 127.0.0.1:{port};"));
    replace(
        conf,
        "/var/log/nginx/dames.access.log",
        log.to_str().unwrap(),
    )
}

/// Starts nginx in `dir` (its pid, logs and temporary files there) in front of `nodes`.
fn nginx(dir: &Path, nodes: [&str; 2]) -> (Nginx, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    std::fs::write(
        dir.join("dames.conf"),
        site_conf(nodes, port, &dir.join("access.log")),
    )
    .unwrap();
    let d = dir.display();
    // `user root` lets the workers read this private directory when the test runs as root;
    // run by anyone else, nginx ignores it (with a warning).
    let main = format!(
        "user root;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log warn;\n\
         events {{ worker_connections 256; }}\n\
         http {{\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n  \
         fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n  \
         access_log off;\n  include {d}/dames.conf;\n}}\n"
    );
    std::fs::write(dir.join("nginx.conf"), main).unwrap();
    let child = Command::new(nginx_binary())
        .arg("-p")
        .arg(dir)
        .arg("-c")
        .arg(dir.join("nginx.conf"))
        .args(["-g", "daemon off;"])
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    (Nginx(child), base)
}

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
        "max_fails=",
    ] {
        assert!(CONF.contains(needed), "{needed}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_behind_nginx_serve_http_and_websockets_and_survive_a_kill() {
    let mut cluster = Cluster::start_bare(2, &["--trusted-proxy", "127.0.0.1", "--log", "warn"]);
    let dir = tempfile::tempdir().unwrap();
    let addr = |i: usize| {
        cluster
            .node(i)
            .base()
            .trim_start_matches("http://")
            .to_owned()
    };
    let (a, b) = (addr(0), addr(1));
    let (_nginx, base) = nginx(dir.path(), [&a, &b]);
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
    let seen = upstreams(&dir.path().join("access.log"));
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
    let after = upstreams(&dir.path().join("access.log"));
    assert!(after.len() > seen.len());
    drop(ws);
}
