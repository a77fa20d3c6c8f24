//! What the tests of the `dames` binary share: [`Node`], a `dames serve` process on a random
//! port; [`cluster::Cluster`], several of them on one PostgreSQL and one Redis; and the HTTP and
//! WebSocket clients of the server's own tests ([`client`]), pointed at any node.
#![allow(dead_code)]

pub mod cluster;

#[path = "../../../server/tests/common/mod.rs"]
pub mod client;

use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running `dames serve`: the process, its base URL and every line of its stderr.
pub struct Node {
    pub child: Child,
    pub base: String,
    pub stderr: Arc<Mutex<Vec<String>>>,
    args: Vec<OsString>,
}

impl Node {
    /// Starts `dames serve --addr 127.0.0.1:0` followed by `args`, and waits for the address
    /// it prints ("listening on http://…").
    pub fn spawn<I, S>(args: I) -> Node
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        let mut child = Command::new(env!("CARGO_BIN_EXE_dames"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let lines = stderr.clone();
        let err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                eprintln!("server: {line}");
                lines.lock().unwrap().push(line);
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
        assert!(base.starts_with("http://127.0.0.1:"), "{base}");
        Node {
            child,
            base,
            stderr,
            args,
        }
    }

    /// A new process with the same arguments (on a new port).
    pub fn respawn(&self) -> Node {
        Node::spawn(self.args.clone())
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    /// SIGTERM: the graceful drain.
    pub fn sigterm(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// SIGKILL: the process dies at once, with no drain.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits for the process to exit; panics after `limit`.
    pub async fn exited(&mut self, limit: Duration) -> (ExitStatus, Duration) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status, start.elapsed());
            }
            assert!(
                start.elapsed() < limit,
                "still running {limit:?} after SIGTERM"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The lines of its stderr that report an error.
    pub fn error_lines(&self) -> Vec<String> {
        self.stderr
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains("ERROR"))
            .cloned()
            .collect()
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill9();
    }
}

/// Polls `cond` every 20 ms until it holds; panics with `what` after `limit`.
pub async fn eventually<F, Fut>(limit: Duration, what: &str, mut cond: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    while !cond().await {
        assert!(start.elapsed() < limit, "not within {limit:?}: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Sends `req` and reads its JSON answer, which must be a success. A `conflict` (409: the node's
/// copy of the room was stale and it reloaded it) is sent again, as the page does
/// (docs/cluster.md, "The per-room version check"); one node alone never answers it.
pub async fn call(req: reqwest::RequestBuilder) -> serde_json::Value {
    for _ in 0..5 {
        let res = req.try_clone().unwrap().send().await.unwrap();
        if res.status() != 409 {
            assert!(res.status().is_success(), "{}", res.status());
            return res.json().await.unwrap();
        }
    }
    panic!("conflict 5 times in a row");
}

/// A started draughts game through `base`, Ana against Bo: its code and the two seat tokens.
pub async fn draughts_game(http: &reqwest::Client, base: &str) -> (String, [String; 2]) {
    let created = call(
        http.post(format!("{base}/api/rooms"))
            .json(&serde_json::json!({"game": "draughts", "name": "Ana"})),
    )
    .await;
    let code = created["code"].as_str().unwrap().to_owned();
    let joined = call(
        http.post(format!("{base}/api/rooms/{code}/join"))
            .json(&serde_json::json!({"name": "Bo"})),
    )
    .await;
    let tokens = [
        created["token"].as_str().unwrap().to_owned(),
        joined["token"].as_str().unwrap().to_owned(),
    ];
    call(
        http.post(format!("{base}/api/rooms/{code}/start"))
            .bearer_auth(&tokens[0]),
    )
    .await;
    (code, tokens)
}
