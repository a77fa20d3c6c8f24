//! Debian's Prometheus run with `deploy/prometheus/prometheus.yml` (only its targets and
//! intervals changed) against two `dames serve --metrics-listen` nodes: both are scraped (`up`
//! is 1), the moves played on one are seen in its counter, the alert rules load and are
//! evaluated, and a node killed is reported down (its alert pending). `promtool` checks the
//! rules and runs their unit tests (`deploy/prometheus/alerts.test.yml`); every expression of
//! the Grafana dashboard is a valid query over metrics the nodes serve.
#![cfg(feature = "server")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use common::{call, draughts_game, Node};

const CONFIG: &str = include_str!("../../../deploy/prometheus/prometheus.yml");
const DASHBOARD: &str = include_str!("../../../deploy/grafana/dames.json");

fn deploy() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/prometheus")
}

/// Prometheus, killed when dropped (a failed test leaves nothing running).
struct Prometheus(Child);

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `name` from Debian's `prometheus` package: installed with apt-get when missing (as
/// ./scripts/test does); `None` only if it cannot be.
fn binary(name: &str) -> Option<PathBuf> {
    let find = || {
        ["/usr/bin", "/usr/local/bin"]
            .iter()
            .map(|d| Path::new(d).join(name))
            .find(|p| p.exists())
    };
    if find().is_none() {
        let _ = Command::new("apt-get")
            .args(["install", "-y", "--no-install-recommends", "prometheus"])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .status();
    }
    find()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Runs `promtool` with `args` in `dir`; panics with its output if it fails.
fn promtool(promtool: &Path, dir: &Path, args: &[&str]) {
    let out = Command::new(promtool)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "promtool {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `deploy/prometheus/prometheus.yml` scraping `targets` every second.
fn config(targets: &[String]) -> String {
    let replace = |conf: String, from: &str, to: &str| {
        assert_eq!(conf.matches(from).count(), 1, "{from:?} in prometheus.yml");
        conf.replace(from, to)
    };
    let conf = replace(
        CONFIG.to_owned(),
        "scrape_interval: 15s",
        "scrape_interval: 1s",
    );
    let conf = replace(conf, "evaluation_interval: 15s", "evaluation_interval: 1s");
    let conf = replace(conf, "- 127.0.0.1:18081\n", &format!("- {}\n", targets[0]));
    replace(conf, "- 127.0.0.1:18082\n", &format!("- {}\n", targets[1]))
}

/// A node with its metrics on `metrics` (its own database in `dir`).
fn node(dir: &Path, name: &str, metrics: &str) -> Node {
    let db = dir.join(format!("{name}.db"));
    Node::spawn([
        "--db".as_ref(),
        db.as_os_str(),
        "--metrics-listen".as_ref(),
        metrics.as_ref(),
        "--no-rate-limits".as_ref(),
        "--log".as_ref(),
        "warn".as_ref(),
    ])
}

/// The result of the instant query `query`, which must succeed.
async fn query(http: &reqwest::Client, api: &str, query: &str) -> Vec<Value> {
    let res: Value = http
        .get(format!("{api}/api/v1/query"))
        .query(&[("query", query)])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(res["status"], "success", "{query}: {res}");
    res["data"]["result"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// The value of each series of `result` by its `instance`.
fn by_instance(result: &[Value]) -> Vec<(String, f64)> {
    let mut values: Vec<(String, f64)> = result
        .iter()
        .map(|r| {
            let instance = r["metric"]["instance"].as_str().unwrap_or("").to_owned();
            let value = r["value"][1].as_str().unwrap().parse().unwrap();
            (instance, value)
        })
        .collect();
    values.sort_by(|a, b| a.0.cmp(&b.0));
    values
}

/// Polls `check` every 200 ms until it gives a value; panics with `what` after a minute.
async fn until<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let start = Instant::now();
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "not within a minute: {what}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Plays `n` moves of a new draughts game through `base` (Ana and Bo in turn).
async fn play(http: &reqwest::Client, base: &str, n: usize) {
    let (code, tokens) = draughts_game(http, base).await;
    for i in 0..n {
        let room = call(
            http.get(format!("{base}/api/rooms/{code}"))
                .bearer_auth(&tokens[0]),
        )
        .await;
        let seat = room["play"]["to_move"].as_u64().unwrap() as usize;
        let room = call(
            http.get(format!("{base}/api/rooms/{code}"))
                .bearer_auth(&tokens[seat]),
        )
        .await;
        let notation = room["play"]["legal_moves"][0]["notation"].clone();
        call(
            http.post(format!("{base}/api/rooms/{code}/move"))
                .bearer_auth(&tokens[seat])
                .json(&json!({"id": format!("m{i}"), "move": {"notation": notation}})),
        )
        .await;
    }
}

#[test]
fn the_alert_rules_load_and_fire_when_they_should() {
    let Some(tool) = binary("promtool") else {
        eprintln!("SKIPPED: promtool cannot be installed (apt-get install -y prometheus)");
        return;
    };
    promtool(&tool, &deploy(), &["check", "rules", "alerts.yml"]);
    promtool(&tool, &deploy(), &["check", "config", "prometheus.yml"]);
    // When each rule fires and when it must not (synthetic series).
    promtool(&tool, &deploy(), &["test", "rules", "alerts.test.yml"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prometheus_scrapes_two_nodes_and_sees_their_moves_and_a_node_going_down() {
    let Some(prometheus) = binary("prometheus") else {
        eprintln!("SKIPPED: prometheus cannot be installed (apt-get install -y prometheus)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let targets = [
        format!("127.0.0.1:{}", free_port()),
        format!("127.0.0.1:{}", free_port()),
    ];
    let one = node(dir.path(), "one", &targets[0]);
    let mut two = node(dir.path(), "two", &targets[1]);
    let http = reqwest::Client::new();
    const MOVES: usize = 6;
    play(&http, one.base(), MOVES).await;

    std::fs::write(dir.path().join("prometheus.yml"), config(&targets)).unwrap();
    std::fs::copy(deploy().join("alerts.yml"), dir.path().join("alerts.yml")).unwrap();
    let port = free_port();
    let api = format!("http://127.0.0.1:{port}");
    let _prometheus = Prometheus(
        Command::new(prometheus)
            .arg(format!(
                "--config.file={}",
                dir.path().join("prometheus.yml").display()
            ))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.path().join("data").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );

    // Both nodes scraped.
    let mut expected: Vec<String> = targets.to_vec();
    expected.sort();
    until("up == 1 on both nodes", || async {
        let up = match http
            .get(format!("{api}/api/v1/query"))
            .query(&[("query", "up")])
            .send()
            .await
        {
            Ok(res) => res.json::<Value>().await.ok()?,
            Err(_) => return None,
        };
        let up = by_instance(up["data"]["result"].as_array()?);
        let instances: Vec<String> = up.iter().map(|(i, _)| i.clone()).collect();
        (instances == expected && up.iter().all(|(_, v)| *v == 1.0)).then_some(())
    })
    .await;

    // The moves played on the first node, none on the second.
    let moves = query(&http, &api, "dames_moves_committed_total").await;
    let moves = by_instance(&moves);
    let on = |i: usize| {
        moves
            .iter()
            .find(|(t, _)| *t == targets[i])
            .map(|(_, v)| *v)
    };
    assert_eq!(on(0), Some(MOVES as f64), "{moves:?}");
    assert_eq!(on(1), Some(0.0), "{moves:?}");

    // The three rules of alerts.yml, loaded and evaluated without error.
    let rules: Vec<(String, String)> = until("the rules evaluated", || async {
        let res: Value = http
            .get(format!("{api}/api/v1/rules"))
            .send()
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        let rules: Vec<(String, String)> = res["data"]["groups"][0]["rules"]
            .as_array()?
            .iter()
            .map(|r| {
                (
                    r["name"].as_str().unwrap().to_owned(),
                    r["health"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        rules
            .iter()
            .all(|(_, health)| health == "ok")
            .then_some(rules)
    })
    .await;
    let names: Vec<&str> = rules.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["DamesNoMovesCommitted", "DamesCommitSlow", "DamesNodeDown"]
    );

    // Every query of the dashboard is valid, and every metric it reads is served.
    let served: Vec<String> = query(&http, &api, "{__name__=~\"dames_.+\"}")
        .await
        .iter()
        .map(|r| r["metric"]["__name__"].as_str().unwrap().to_owned())
        .collect();
    let dashboard: Value = serde_json::from_str(DASHBOARD).unwrap();
    let mut exprs = 0;
    for panel in dashboard["panels"].as_array().unwrap() {
        for target in panel["targets"].as_array().unwrap() {
            let expr = target["expr"].as_str().unwrap();
            query(&http, &api, expr).await;
            for name in metric_names(expr) {
                assert!(served.contains(&name), "{name} (dashboard) is not served");
            }
            exprs += 1;
        }
    }
    assert!(exprs >= 11, "{exprs}");

    // The second node dies: its scrape fails, and its alert is on its way.
    two.kill9();
    let down = targets[1].clone();
    until("DamesNodeDown pending for the dead node", || async {
        let res: Value = http
            .get(format!("{api}/api/v1/alerts"))
            .send()
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        res["data"]["alerts"]
            .as_array()?
            .iter()
            .any(|a| {
                a["labels"]["alertname"] == "DamesNodeDown"
                    && a["labels"]["instance"] == down.as_str()
            })
            .then_some(())
    })
    .await;
    drop(one);
}

/// The `dames_…` metric names an expression reads (a histogram's by its `_bucket` etc. series).
fn metric_names(expr: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = expr;
    while let Some(at) = rest.find("dames_") {
        let name: String = rest[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        rest = &rest[at + name.len()..];
        names.push(name);
    }
    names
}

#[test]
fn the_metrics_are_never_served_on_the_public_port() {
    let port = free_port();
    // The same port on another loopback address binds: refused all the same.
    for metrics in [format!("127.0.0.1:{port}"), format!("127.0.0.2:{port}")] {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_dames"))
            .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
            .arg("--db")
            .arg(dir.path().join("d.db"))
            .args(["--metrics-listen", &metrics, "--log", "warn"])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{out:?}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("metrics"), "{said}");
    }
}
