//! The server under test: a running one given by its URL (loopback only), or `dames serve`
//! spawned on a fresh database, killed with `kill -9` and restarted (the crash mode) — and the
//! open-file limit, raised so that thousands of sockets fit.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use reqwest::Url;

use crate::error::{Error, Result};

/// How long a spawned server may take to print its address.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a spawned server may take to stop after SIGTERM before it is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(15);

/// Which server a run talks to.
#[derive(Clone, Debug)]
pub enum Target {
    /// A server already running on this machine (started with `--no-rate-limits`: the runs
    /// create many rooms). `pid` lets the run read its memory and CPU time.
    Running {
        /// `http://127.0.0.1:PORT`.
        base: String,
        /// The server's process id.
        pid: Option<u32>,
    },
    /// `{bin} serve --addr 127.0.0.1:0 --db {temp}/dames.db --no-rate-limits {args…}`, started
    /// by the run and stopped at its end (it inherits the raised open-file limit); `nodes` of
    /// them, which only makes sense when `args` name a shared database (`--database
    /// postgres://…` and `--redis …`: a cluster, docs/cluster.md).
    Spawn {
        /// The `dames` binary.
        bin: PathBuf,
        /// More options for `dames serve` (e.g. `--cpu-workers 2`).
        args: Vec<String>,
        /// How many nodes (at least 1).
        nodes: usize,
        /// How the players are spread over the nodes.
        spread: Spread,
    },
}

/// How the clients of a run are spread over several nodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Spread {
    /// Round-robin by client: the two seats of a game on different nodes (every move crosses
    /// from one node to the other through the fan-out).
    #[default]
    Seats,
    /// Round-robin by game: both seats of a game on one node (as a proxy hashing the room code
    /// would; no fan-out needed).
    Rooms,
}

impl Spread {
    /// The node (of `nodes`) of the `i`-th client, clients `2k` and `2k + 1` being the two
    /// seats of game `k`.
    pub fn node(self, i: usize, nodes: usize) -> usize {
        match self {
            Spread::Seats => i % nodes.max(1),
            Spread::Rooms => (i / 2) % nodes.max(1),
        }
    }
}

impl Target {
    /// A running server at `url`, which must be a loopback `http://` address.
    ///
    /// # Errors
    /// [`Error::NotLoopback`] for any other address, [`Error::Usage`] for a malformed URL.
    pub fn running(url: &str, pid: Option<u32>) -> Result<Target> {
        Ok(Target::Running {
            base: loopback_base(url)?,
            pid,
        })
    }

    /// Starts the server if this target spawns one.
    pub(crate) fn start(&self) -> Result<Live> {
        match self {
            Target::Running { base, pid } => Ok(Live {
                base: base.clone(),
                bases: vec![base.clone()],
                spread: Spread::Seats,
                pids: pid.iter().copied().collect(),
                processes: Vec::new(),
            }),
            Target::Spawn {
                bin,
                args,
                nodes,
                spread,
            } => {
                let processes = (0..(*nodes).max(1))
                    .map(|_| ServerProcess::spawn_fresh(bin, args))
                    .collect::<Result<Vec<_>>>()?;
                Ok(Live {
                    base: processes[0].base.clone(),
                    bases: processes.iter().map(|p| p.base.clone()).collect(),
                    spread: *spread,
                    pids: processes.iter().map(ServerProcess::pid).collect(),
                    processes,
                })
            }
        }
    }
}

/// The server (or the nodes) during a run.
pub(crate) struct Live {
    /// The first node: where the run sets its games up.
    pub base: String,
    /// Every node; the clients are spread over them ([`Live::base_for`]).
    pub bases: Vec<String>,
    pub spread: Spread,
    /// The process ids known (every node's when the run spawned them).
    pub pids: Vec<u32>,
    pub processes: Vec<ServerProcess>,
}

impl Live {
    /// The node of the `i`-th client ([`Spread::node`]).
    pub fn base_for(&self, i: usize) -> String {
        self.bases[self.spread.node(i, self.bases.len())].clone()
    }

    /// The resident memory of every known server process together, in KiB.
    pub fn rss_kib(&self) -> Option<u64> {
        let each: Option<Vec<u64>> = self
            .pids
            .iter()
            .map(|&p| crate::stats::rss_kib(p))
            .collect();
        each.filter(|e| !e.is_empty()).map(|e| e.iter().sum())
    }

    /// Stops the servers the run started.
    pub fn finish(mut self) -> Result<()> {
        let mut result = Ok(());
        for mut p in self.processes.drain(..) {
            result = result.and(p.stop());
        }
        result
    }
}

/// `http://host:port` of a loopback URL.
fn loopback_base(url: &str) -> Result<String> {
    let parsed = Url::parse(url).map_err(|e| Error::Usage(format!("not a URL: {url}: {e}")))?;
    if parsed.scheme() != "http" {
        return Err(Error::NotLoopback(url.to_owned()));
    }
    let host = parsed.host_str().unwrap_or_default();
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if !loopback {
        return Err(Error::NotLoopback(url.to_owned()));
    }
    let port = parsed.port_or_known_default().unwrap_or(80);
    Ok(format!("http://{host}:{port}"))
}

/// A `dames serve` process started by the load generator.
pub struct ServerProcess {
    child: Child,
    /// `http://127.0.0.1:PORT` (a new port at each start, unless started [`at`](Self::spawn_at)
    /// an address of its own).
    pub base: String,
    /// What `--addr` it was given (`127.0.0.1:0`: a free port chosen at each start).
    addr: String,
    /// The database file.
    pub db: PathBuf,
    bin: PathBuf,
    args: Vec<String>,
    /// The temporary directory of the database, removed when the process is dropped.
    _dir: Option<tempfile::TempDir>,
}

impl ServerProcess {
    /// Starts `{bin} serve` on a new database in a temporary directory.
    ///
    /// # Errors
    /// The process could not start or did not print its address within 30 s.
    pub fn spawn_fresh(bin: &Path, args: &[String]) -> Result<ServerProcess> {
        ServerProcess::spawn_fresh_at(bin, "127.0.0.1:0", args)
    }

    /// [`spawn_fresh`](Self::spawn_fresh) on `addr`, as [`spawn_at`](Self::spawn_at).
    ///
    /// # Errors
    /// As [`spawn_fresh`](Self::spawn_fresh).
    pub fn spawn_fresh_at(bin: &Path, addr: &str, args: &[String]) -> Result<ServerProcess> {
        let dir = tempfile::Builder::new()
            .prefix("dames-loadtest")
            .tempdir()?;
        let db = dir.path().join("dames.db");
        let mut process = ServerProcess::spawn_at(bin, &db, addr, args)?;
        process._dir = Some(dir);
        Ok(process)
    }

    /// Starts `{bin} serve` on the database file `db` (created if missing).
    ///
    /// # Errors
    /// The process could not start or did not print its address within 30 s.
    pub fn spawn(bin: &Path, db: &Path, args: &[String]) -> Result<ServerProcess> {
        ServerProcess::spawn_at(bin, db, "127.0.0.1:0", args)
    }

    /// Starts `{bin} serve` on `addr` (`HOST:PORT`, kept across [`restart`](Self::restart)s:
    /// nodes behind a proxy whose upstreams are fixed) and the database file `db`.
    ///
    /// # Errors
    /// The process could not start or did not print its address within 30 s.
    pub fn spawn_at(bin: &Path, db: &Path, addr: &str, args: &[String]) -> Result<ServerProcess> {
        let mut child = Command::new(bin)
            .args([
                "serve",
                "--addr",
                addr,
                "--no-rate-limits",
                "--log",
                "error",
            ])
            .arg("--db")
            .arg(db)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| Error::Server(format!("cannot run {}: {e}", bin.display())))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Error::Server("no stdout".into()))?;
        match first_line(stdout) {
            Some(line) => match line.trim().strip_prefix("listening on ") {
                Some(base) => Ok(ServerProcess {
                    child,
                    base: base.to_owned(),
                    addr: addr.to_owned(),
                    db: db.to_owned(),
                    bin: bin.to_owned(),
                    args: args.to_vec(),
                    _dir: None,
                }),
                None => {
                    let _ = child.kill();
                    let _ = child.wait();
                    Err(Error::Server(format!("unexpected first line: {line:?}")))
                }
            },
            None => {
                let _ = child.kill();
                let status = child.wait()?;
                Err(Error::Server(format!(
                    "`{} serve` printed no address within {START_TIMEOUT:?} ({status})",
                    bin.display()
                )))
            }
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `kill -9`: the process dies at once, whatever it was doing.
    ///
    /// # Errors
    /// The signal could not be sent.
    pub fn kill9(&mut self) -> Result<()> {
        self.child.kill()?; // SIGKILL on Unix
        self.child.wait()?;
        Ok(())
    }

    /// Starts the same binary again on the same database and `--addr` (after
    /// [`kill9`](Self::kill9) or [`stop`](Self::stop)).
    ///
    /// # Errors
    /// As [`spawn`](Self::spawn).
    pub fn restart(&mut self) -> Result<()> {
        let mut next = ServerProcess::spawn_at(&self.bin, &self.db, &self.addr, &self.args)?;
        std::mem::swap(&mut self.child, &mut next.child);
        self.base = std::mem::take(&mut next.base);
        // `next` now holds the dead child: dropping it is harmless.
        Ok(())
    }

    /// SIGTERM (a clean stop), then `kill -9` after 15 s.
    ///
    /// # Errors
    /// The server did not stop cleanly.
    pub fn stop(&mut self) -> Result<()> {
        if self.child.try_wait()?.is_some() {
            return Ok(());
        }
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + STOP_TIMEOUT;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait()? {
                return if status.success() {
                    Ok(())
                } else {
                    Err(Error::Server(format!("stopped with {status}")))
                };
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.kill9()?;
        Err(Error::Server(format!(
            "still running {STOP_TIMEOUT:?} after SIGTERM: killed"
        )))
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The first line of `stdout` within [`START_TIMEOUT`]; the rest is drained by a thread so that
/// the server never blocks on a full pipe.
fn first_line(stdout: impl Read + Send + 'static) -> Option<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        let _ = reader.read_line(&mut line);
        let _ = tx.send(line);
        let _ = std::io::copy(&mut reader, &mut std::io::sink());
    });
    rx.recv_timeout(START_TIMEOUT)
        .ok()
        .filter(|l| !l.is_empty())
}

/// Raises this process's soft open-file limit to its hard limit (processes it spawns inherit
/// it); returns the new soft limit. Each WebSocket is one file descriptor on each side.
///
/// # Errors
/// The limit could not be read or set.
pub fn raise_fd_limit() -> Result<u64> {
    Ok(rlimit::increase_nofile_limit(u64::MAX)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_or_rooms_are_spread_over_the_nodes() {
        let nodes = |spread: Spread| (0..6).map(|i| spread.node(i, 2)).collect::<Vec<_>>();
        assert_eq!(nodes(Spread::Seats), [0, 1, 0, 1, 0, 1]);
        assert_eq!(nodes(Spread::Rooms), [0, 0, 1, 1, 0, 0]);
        assert_eq!(Spread::Seats.node(5, 1), 0);
    }

    #[test]
    fn only_loopback_http_urls_are_targets() {
        assert_eq!(
            loopback_base("http://127.0.0.1:8080/").unwrap(),
            "http://127.0.0.1:8080"
        );
        assert_eq!(
            loopback_base("http://localhost:9000").unwrap(),
            "http://localhost:9000"
        );
        assert_eq!(loopback_base("http://[::1]:80").unwrap(), "http://[::1]:80");
        assert_eq!(
            loopback_base("http://127.0.0.1").unwrap(),
            "http://127.0.0.1:80"
        );
        for url in [
            "http://192.168.1.2:8080",
            "http://example.org",
            "https://127.0.0.1:8080",
            "http://10.0.0.1",
        ] {
            assert!(
                matches!(loopback_base(url), Err(Error::NotLoopback(_))),
                "{url}"
            );
        }
        assert!(matches!(loopback_base("nonsense"), Err(Error::Usage(_))));
    }

    #[test]
    fn the_open_file_limit_is_raised_to_the_hard_one() {
        let soft = raise_fd_limit().unwrap();
        let (now, hard) = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap();
        assert_eq!((soft, now), (hard.min(soft), soft));
    }

    #[test]
    fn a_binary_that_prints_no_address_is_reported() {
        let err = ServerProcess::spawn(Path::new("/bin/true"), Path::new("/nonexistent"), &[])
            .err()
            .unwrap();
        assert!(err.to_string().contains("printed no address"), "{err}");
        let err = ServerProcess::spawn(Path::new("/no/such/bin"), Path::new("/x"), &[])
            .err()
            .unwrap();
        assert!(err.to_string().contains("cannot run"), "{err}");
    }
}
