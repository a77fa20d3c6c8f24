//! `GET /metrics` (issue 22, « Metrics »), over real sockets: a server with its metrics address,
//! moves played on the WebSocket, then a scrape whose every line must parse as the Prometheus
//! text format and whose counters must have moved by what was played. The public port does not
//! answer it.

mod common;

use std::collections::HashMap;
use std::sync::Arc;

use common::{random_draughts_move, Client, Lcg};
use dames_server::AppState;
use serde_json::json;

/// A server in this process with its metrics address (both on random ports).
struct Node {
    base: String,
    metrics: String,
    _dir: Arc<tempfile::TempDir>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Drop for Node {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Node {
    async fn start(limits: bool) -> Node {
        let dir = Arc::new(tempfile::tempdir().unwrap());
        let mut config = common::config(dir.path().join("dames.db"));
        config.limits.enabled = limits;
        let state = AppState::open(config).await.unwrap();
        let public = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let private = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", public.local_addr().unwrap());
        let metrics = format!("http://{}/metrics", private.local_addr().unwrap());
        let served = state.clone();
        let tasks = vec![
            tokio::spawn(async move {
                dames_server::serve(public, served, std::future::pending())
                    .await
                    .unwrap();
            }),
            tokio::spawn(async move {
                dames_server::serve_metrics(private, state).await.unwrap();
            }),
        ];
        Node {
            base,
            metrics,
            _dir: dir,
            tasks,
        }
    }

    fn client(&self) -> Client {
        Client {
            http: reqwest::Client::new(),
            base: self.base.clone(),
            token: None,
            code: None,
            seat: None,
        }
    }

    /// Scrapes the metrics address: every sample by `name{labels}`, the format checked.
    async fn scrape(&self) -> Samples {
        let res = reqwest::get(&self.metrics).await.unwrap();
        assert_eq!(res.status(), 200);
        let content_type = res.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(
            content_type.starts_with("text/plain; version=0.0.4"),
            "{content_type}"
        );
        Samples::parse(&res.text().await.unwrap())
    }
}

/// The samples of one scrape.
struct Samples(HashMap<String, f64>);

impl Samples {
    /// Parses the text exposition format strictly: every line is `# HELP name text`,
    /// `# TYPE name counter|gauge|histogram`, or `name{labels} value` of a family whose type
    /// came before; histogram buckets never decrease and `+Inf` is the count.
    fn parse(text: &str) -> Samples {
        let mut types: HashMap<String, String> = HashMap::new();
        let mut samples = HashMap::new();
        assert!(text.ends_with('\n'), "the exposition ends with a newline");
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("# ") {
                let mut parts = rest.splitn(3, ' ');
                let (kind, name, tail) = (parts.next(), parts.next(), parts.next());
                let name = name.unwrap_or_else(|| panic!("bad comment {line:?}"));
                assert!(valid_name(name), "{line:?}");
                match (kind, tail) {
                    (Some("HELP"), Some(help)) => assert!(!help.is_empty(), "{line:?}"),
                    (Some("TYPE"), Some(t @ ("counter" | "gauge" | "histogram"))) => {
                        assert!(types.insert(name.into(), t.into()).is_none(), "{line:?}");
                    }
                    _ => panic!("bad comment {line:?}"),
                }
                continue;
            }
            let (series, value) = line
                .rsplit_once(' ')
                .unwrap_or_else(|| panic!("no value in {line:?}"));
            let value: f64 = match value {
                "+Inf" => f64::INFINITY,
                v => v
                    .parse()
                    .unwrap_or_else(|_| panic!("bad value in {line:?}")),
            };
            let name = match series.split_once('{') {
                Some((name, labels)) => {
                    let labels = labels.strip_suffix('}').expect("labels end with }");
                    for label in labels.split(',') {
                        let (key, val) = label.split_once('=').expect("label=value");
                        assert!(valid_name(key), "{line:?}");
                        assert!(
                            val.len() >= 2 && val.starts_with('"') && val.ends_with('"'),
                            "{line:?}"
                        );
                    }
                    name
                }
                None => series,
            };
            assert!(valid_name(name), "{line:?}");
            let family = ["_bucket", "_sum", "_count"]
                .iter()
                .find_map(|s| {
                    name.strip_suffix(s)
                        .filter(|f| types.get(*f).is_some_and(|t| t == "histogram"))
                })
                .unwrap_or(name);
            assert!(types.contains_key(family), "no # TYPE before {line:?}");
            assert!(
                samples.insert(series.to_owned(), value).is_none(),
                "{series} twice"
            );
        }
        let samples = Samples(samples);
        for (family, t) in &types {
            if t == "histogram" {
                samples.check_histogram(family);
            }
        }
        samples
    }

    fn check_histogram(&self, family: &str) {
        let prefix = format!("{family}_bucket{{le=\"");
        let mut buckets: Vec<(f64, f64)> = self
            .0
            .iter()
            .filter_map(|(k, v)| {
                let le = k.strip_prefix(&prefix)?.strip_suffix("\"}")?;
                let le = if le == "+Inf" {
                    f64::INFINITY
                } else {
                    le.parse().unwrap()
                };
                Some((le, *v))
            })
            .collect();
        buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(buckets.len() > 1, "{family} has buckets");
        assert!(
            buckets.windows(2).all(|w| w[0].1 <= w[1].1),
            "{family}: {buckets:?}"
        );
        let last = buckets.last().unwrap();
        assert_eq!(last.0, f64::INFINITY, "{family}");
        assert_eq!(last.1, self.get(&format!("{family}_count")), "{family}");
    }

    #[track_caller]
    fn get(&self, series: &str) -> f64 {
        *self
            .0
            .get(series)
            .unwrap_or_else(|| panic!("no {series} in the scrape"))
    }
}

/// Moves played in the game of `room`.
fn played(room: &serde_json::Value) -> usize {
    room["play"]["moves"].as_array().map_or(0, Vec::len)
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_played_on_the_websocket_move_the_counters_of_a_scrape_that_parses() {
    let node = Node::start(false).await;
    let before = node.scrape().await;
    assert_eq!(before.get("dames_websockets_open"), 0.0);
    assert_eq!(before.get("dames_rooms_in_memory"), 0.0);

    let mut ana = node.client();
    ana.create(json!({"game": "draughts", "name": "Ana"})).await;
    let mut bo = node.client();
    bo.join(ana.code.as_deref().unwrap(), "Bo").await;
    ana.start().await;
    let mut sockets = [ana.ws(0).await, bo.ws(0).await];
    let mut rng = Lcg(22);
    const MOVES: usize = 8;
    for n in 0..MOVES {
        let room = sockets[0].state_where(|r| played(r) == n).await;
        let seat = room["play"]["to_move"].as_u64().unwrap() as usize;
        let ws = &mut sockets[seat];
        let room = match seat {
            0 => room,
            _ => ws.state_where(|r| played(r) == n).await,
        };
        let id = format!("m{n}");
        ws.send(json!({"type": "move", "id": id, "move": random_draughts_move(&room, &mut rng)}))
            .await;
        let (ack, _) = ws.until("ack").await;
        assert_eq!(
            (ack["id"].as_str(), ack["applied"].as_bool()),
            (Some(id.as_str()), Some(true))
        );
    }

    let after = node.scrape().await;
    let moved = |series: &str| after.get(series) - before.get(series);
    // Other tests of this file run in this process too: at least what was played here.
    assert!(moved("dames_moves_committed_total") >= MOVES as f64);
    // Created, joined, started, the moves: each a change committed and timed.
    assert!(moved("dames_changes_committed_total") >= MOVES as f64 + 3.0);
    assert!(moved("dames_commit_seconds_count") >= MOVES as f64 + 3.0);
    assert!(moved("dames_commit_batch_size_count") >= 1.0);
    assert!(moved("dames_commit_batch_seconds_count") >= 1.0);
    assert!(moved("dames_websocket_connects_total") >= 2.0);
    assert!(after.get("dames_commit_batch_seconds_sum") > 0.0);
    // The gauges are this node's own.
    assert_eq!(after.get("dames_websockets_open"), 2.0);
    assert_eq!(after.get("dames_rooms_in_memory"), 1.0);
    assert_eq!(after.get("dames_cpu_queue"), 0.0);
    assert_eq!(after.get("dames_cluster_node"), 0.0);
    for kind in ["create", "act", "websockets-per-ip", "cpu-games"] {
        after.get(&format!("dames_refusals_total{{kind=\"{kind}\"}}"));
    }

    // The sockets closed: the gauge follows.
    drop(sockets);
    let mut open = f64::NAN;
    for _ in 0..100 {
        open = node.scrape().await.get("dames_websockets_open");
        if open == 0.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(open, 0.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_public_port_does_not_serve_metrics() {
    let node = Node::start(false).await;
    let res = node.client().fetch("/metrics").await;
    let status = res.status();
    let body = res.text().await.unwrap();
    assert!(!body.contains("dames_moves_committed_total"), "{status}");
    assert!(
        !status.is_success() || body.contains("<html") || body.contains("<!doctype"),
        "{status}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_counted_by_kind() {
    let node = Node::start(true).await;
    let before = node.scrape().await;
    let create = "dames_refusals_total{kind=\"create\"}";
    // The burst of creations is 30 a browser and address: the 31st and 32nd are refused.
    let client = node.client();
    let mut refused = 0;
    for i in 0..32 {
        let answer = client
            .post(
                "/api/rooms",
                json!({"game": "draughts", "name": format!("P{i}")}),
            )
            .await;
        if answer.status == 429 {
            answer.expect_error(429, "rate_limited");
            refused += 1;
        }
    }
    assert!(refused >= 2, "{refused}");
    let after = node.scrape().await;
    assert!(after.get(create) - before.get(create) >= f64::from(refused));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cpu_turn_is_counted_as_a_wait_of_the_pool_and_its_move_as_committed() {
    let node = Node::start(false).await;
    let before = node.scrape().await;
    let mut ana = node.client();
    let room = ana
        .create(json!({"game": "draughts", "name": "Ana", "cpu": {"level": "normal"}, "settings": {"cpu_ms": 5}}))
        .await;
    assert_eq!(room["seats"][1]["kind"], "cpu");
    let mut rng = Lcg(3);
    let mut ws = ana.ws(0).await;
    // Whoever begins, Ana moves once and the CPU answers once at least.
    let room = ws.state_where(|r| r["play"]["to_move"] == 0).await;
    let id = "a1";
    ws.send(json!({"type": "move", "id": id, "move": random_draughts_move(&room, &mut rng)}))
        .await;
    ws.state_where(|r| played(r) >= 2 && r["play"]["to_move"] == 0)
        .await;
    let after = node.scrape().await;
    let moved = |series: &str| after.get(series) - before.get(series);
    assert!(moved("dames_moves_committed_total") >= 2.0);
    assert!(moved("dames_cpu_wait_seconds_count") >= 1.0);
}
