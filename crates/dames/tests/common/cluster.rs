//! Several `dames serve` nodes on one PostgreSQL database (a [`ScratchDatabase`] of their own)
//! and one Redis (a key prefix of their own), as docs/cluster.md deploys them.

use std::time::{SystemTime, UNIX_EPOCH};

use dames_store::ScratchDatabase;

use super::client::Client;
use super::Node;

/// The Redis of the tests (`DAMES_TEST_REDIS`, default the local one).
pub fn redis_url() -> String {
    std::env::var("DAMES_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

/// `n` nodes; dropped, it kills them and drops the database.
pub struct Cluster {
    nodes: Vec<Node>,
    pub prefix: String,
    // Dropped after the nodes (field order): no node holds a connection to it any more.
    pub db: ScratchDatabase,
}

impl Cluster {
    /// Starts `n` nodes on a new database and a new Redis prefix.
    pub fn start(n: usize) -> Cluster {
        Self::start_with(n, &[])
    }

    /// Starts `n` nodes with `extra` arguments for `dames serve` (after the cluster's own: warnings
    /// only, no rate limits, a 3 s drain).
    pub fn start_with(n: usize, extra: &[&str]) -> Cluster {
        let mut args = vec!["--log", "warn", "--no-rate-limits", "--drain-timeout", "3s"];
        args.extend(extra);
        Self::start_bare(n, &args)
    }

    /// Starts `n` nodes with only the database and Redis set, and `extra` (the test chooses the
    /// log level, the rate limits…).
    pub fn start_bare(n: usize, extra: &[&str]) -> Cluster {
        Self::start_on(n, &redis_url(), extra)
    }

    /// Like [`Cluster::start_bare`], on the Redis at `redis`.
    pub fn start_on(n: usize, redis: &str, extra: &[&str]) -> Cluster {
        let db = ScratchDatabase::create().unwrap();
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let prefix = format!("dames-test:{}-{nanos:x}:", std::process::id());
        let url = db.url();
        let mut args = vec![
            "--database",
            &url,
            "--redis",
            redis,
            "--redis-prefix",
            &prefix,
        ];
        args.extend(extra);
        // The first node applies the migrations; the others then find them applied.
        let mut nodes = vec![Node::spawn(&args)];
        for _ in 1..n {
            nodes.push(Node::spawn(&args));
        }
        Cluster { nodes, prefix, db }
    }

    /// Every node.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn node(&self, i: usize) -> &Node {
        &self.nodes[i]
    }

    pub fn node_mut(&mut self, i: usize) -> &mut Node {
        &mut self.nodes[i]
    }

    /// An HTTP client (no seat yet) of node `i`.
    pub fn client(&self, i: usize) -> Client {
        Client {
            http: reqwest::Client::new(),
            base: self.nodes[i].base.clone(),
            token: None,
            code: None,
            seat: None,
        }
    }

    /// Kills node `i` with SIGKILL (no drain).
    pub fn kill9(&mut self, i: usize) {
        self.nodes[i].kill9();
    }

    /// Starts node `i` again (killed or not) with the same arguments, on a new port.
    pub fn restart(&mut self, i: usize) {
        self.nodes[i].kill9();
        let node = self.nodes[i].respawn();
        self.nodes[i] = node;
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for node in &mut self.nodes {
            node.kill9();
        }
    }
}

/// A Redis server of the test's own, on a free port, that keeps nothing on disk: killed and
/// started again, it comes back empty, as a Redis restarted without its data does.
pub struct OwnRedis {
    child: std::process::Child,
    port: u16,
    dir: std::path::PathBuf,
}

impl OwnRedis {
    pub fn start() -> OwnRedis {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let dir = std::env::temp_dir().join(format!("dames-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let child = Self::spawn(port, &dir);
        OwnRedis { child, port, dir }
    }

    fn spawn(port: u16, dir: &std::path::Path) -> std::process::Child {
        let mut child = std::process::Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no", "--loglevel", "warning"])
            .arg("--dir")
            .arg(dir)
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server (scripts/test installs it)");
        if !Self::answers(port) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("redis-server on port {port} did not start");
        }
        child
    }

    /// Whether the Redis on `port` answers PING within 10 s.
    fn answers(port: u16) -> bool {
        use std::io::{Read, Write};
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_secs(10) {
            if let Ok(mut conn) = std::net::TcpStream::connect(("127.0.0.1", port)) {
                let mut answer = [0u8; 7];
                if conn.write_all(b"PING\r\n").is_ok()
                    && conn.read_exact(&mut answer).is_ok()
                    && &answer == b"+PONG\r\n"
                {
                    return true;
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        false
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills it (SIGKILL) and starts it again, empty, on the same port.
    pub fn restart_empty(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.child = Self::spawn(self.port, &self.dir);
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
