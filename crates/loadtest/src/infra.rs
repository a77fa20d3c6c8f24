//! The services a fault run breaks, started by the run itself so that it can break them without
//! touching anyone else's: a Redis server, a PostgreSQL cluster, a TCP proxy that can cut a link
//! like a network partition, a small file system that can be filled, and nginx in front of the
//! nodes with the deployment's own configuration (`deploy/nginx/dames.conf`).
//!
//! Each is started on a free loopback port (or in a temporary directory) and stopped when
//! dropped. PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user
//! (Debian's package creates it), as anyone else they run as that user.

use std::net::{SocketAddr, TcpListener as StdListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::error::{Error, Result};

/// How long a service may take to accept connections after it is started.
const READY_TIMEOUT: Duration = Duration::from_secs(30);

/// A port free on 127.0.0.1 now (the kernel's choice; closed again before it is returned).
pub fn free_port() -> Result<u16> {
    Ok(StdListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Waits until something accepts TCP connections on `port`.
fn wait_listening(port: u16, what: &str) -> Result<()> {
    let deadline = Instant::now() + READY_TIMEOUT;
    while Instant::now() < deadline {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Err(Error::Timeout(format!(
        "{what} did not listen on port {port}"
    )))
}

/// A `redis-server` of the run's own (nothing kept on disk), which can be killed and started
/// again on the same port.
pub struct Redis {
    child: Option<Child>,
    port: u16,
}

impl Redis {
    /// Starts `redis-server` on a free port.
    ///
    /// # Errors
    /// `redis-server` is missing or did not listen within 30 s.
    pub fn start() -> Result<Redis> {
        let mut redis = Redis {
            child: None,
            port: free_port()?,
        };
        redis.restart()?;
        Ok(redis)
    }

    /// `redis://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `kill -9`: every connection drops, every key is gone (nothing is kept on disk).
    ///
    /// # Errors
    /// The process could not be killed.
    pub fn kill9(&mut self) -> Result<()> {
        if let Some(mut child) = self.child.take() {
            child.kill()?;
            child.wait()?;
        }
        Ok(())
    }

    /// Starts it (again) on the same port.
    ///
    /// # Errors
    /// As [`start`](Self::start).
    pub fn restart(&mut self) -> Result<()> {
        self.kill9()?;
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .args(["--port", &self.port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Error::Server(format!("cannot run redis-server: {e}")))?;
        self.child = Some(child);
        wait_listening(self.port, "redis-server")
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.kill9();
    }
}

/// A PostgreSQL cluster of the run's own, in a temporary directory, with one database `dames`.
pub struct Postgres {
    bin: PathBuf,
    dir: tempfile::TempDir,
    port: u16,
    running: bool,
}

impl Postgres {
    /// `initdb`, start, `CREATE DATABASE dames`.
    ///
    /// # Errors
    /// PostgreSQL's programs are missing, or a step failed.
    pub fn start() -> Result<Postgres> {
        let bin = pg_bin()?;
        let dir = tempfile::Builder::new()
            .prefix("dames-faults-pg")
            .tempdir()?;
        let mut pg = Postgres {
            bin,
            dir,
            port: free_port()?,
            running: false,
        };
        if is_root() {
            Command::new("chown")
                .args(["postgres"])
                .arg(pg.dir.path())
                .status()?;
        }
        let data = pg.data();
        pg.run(&format!(
            "{}/initdb -D {} -U postgres --auth=trust -N >/dev/null",
            pg.bin.display(),
            data.display()
        ))?;
        pg.restart()?;
        let out = Command::new("psql")
            .args(["-h", "127.0.0.1", "-U", "postgres", "-p"])
            .arg(pg.port.to_string())
            .args(["-q", "-c", "CREATE DATABASE dames"])
            .output()?;
        if !out.status.success() {
            return Err(Error::Server(format!(
                "CREATE DATABASE: {}",
                String::from_utf8_lossy(&out.stderr)
            )));
        }
        Ok(pg)
    }

    /// `postgres://postgres@127.0.0.1:PORT/dames`.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/dames", self.port)
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// Runs a shell command as the `postgres` user when root.
    fn run(&self, command: &str) -> Result<()> {
        let status = if is_root() {
            Command::new("su")
                .args(["postgres", "-s", "/bin/sh", "-c", command])
                .stdin(Stdio::null())
                .status()?
        } else {
            Command::new("sh")
                .args(["-c", command])
                .stdin(Stdio::null())
                .status()?
        };
        if status.success() {
            Ok(())
        } else {
            Err(Error::Server(format!("`{command}`: {status}")))
        }
    }

    /// `pg_ctl stop -m immediate`: the server process dies without a checkpoint, as in a crash
    /// or a power cut (what it acknowledged is in its write-ahead log), and every connection
    /// drops.
    ///
    /// # Errors
    /// `pg_ctl` failed.
    pub fn crash(&mut self) -> Result<()> {
        if self.running {
            self.running = false;
            self.run(&format!(
                "{}/pg_ctl -D {} -m immediate -w stop >/dev/null",
                self.bin.display(),
                self.data().display()
            ))?;
        }
        Ok(())
    }

    /// Starts it (again) on the same port: after [`crash`](Self::crash), it replays its log.
    ///
    /// # Errors
    /// `pg_ctl` failed.
    pub fn restart(&mut self) -> Result<()> {
        self.crash()?;
        self.run(&format!(
            "{bin}/pg_ctl -D {data} -l {dir}/log -w -o '-c listen_addresses=127.0.0.1 -p {port} -k {dir}' start >/dev/null",
            bin = self.bin.display(),
            data = self.data().display(),
            dir = self.dir.path().display(),
            port = self.port,
        ))?;
        self.running = true;
        Ok(())
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = self.crash();
    }
}

/// Debian's PostgreSQL programs (the newest version installed).
fn pg_bin() -> Result<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|_| {
            Error::Usage("PostgreSQL's programs are missing (/usr/lib/postgresql)".into())
        })?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|bin| bin.join("initdb").exists())
        .collect();
    found.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0)
    });
    found
        .pop()
        .ok_or_else(|| Error::Usage("no initdb under /usr/lib/postgresql/*/bin".into()))
}

fn is_root() -> bool {
    std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false)
}

/// `deploy/nginx/dames.conf`, the configuration docs/cluster.md shows.
pub const NGINX_SITE: &str = include_str!("../../../deploy/nginx/dames.conf");

/// nginx run with [`NGINX_SITE`] in front of some nodes, in a temporary directory of its own
/// (its pid, logs, temporary files and access log there); stopped with SIGTERM when dropped (its
/// workers would outlive a master killed with SIGKILL).
pub struct Nginx {
    child: Child,
    port: u16,
    dir: tempfile::TempDir,
}

impl Nginx {
    /// Starts Debian's nginx on a free port in front of `nodes` (`HOST:PORT` each): the
    /// deployment's site with only its upstream servers, its port and its log path changed, one
    /// worker with room for `connections` clients.
    ///
    /// # Errors
    /// nginx is missing (`apt-get install nginx`), its configuration does not load, or it did
    /// not listen within 30 s.
    pub fn start(nodes: &[&str], connections: usize) -> Result<Nginx> {
        let bin = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]
            .iter()
            .map(PathBuf::from)
            .find(|p| p.exists())
            .ok_or_else(|| Error::Usage("nginx is not installed (apt-get install nginx)".into()))?;
        let dir = tempfile::Builder::new().prefix("dames-nginx").tempdir()?;
        let port = free_port()?;
        let site = nginx_site(nodes, port, &dir.path().join("access.log"))?;
        std::fs::write(dir.path().join("dames.conf"), site)?;
        let d = dir.path().display();
        // Each client costs two (its own and the upstream's), and twice that while sockets
        // lost in a restart are replaced: nginx otherwise closes connections to make room.
        let worker_connections = (4 * connections + 256).max(512);
        // `user root` lets the workers read this private directory when run as root; run by
        // anyone else, nginx ignores it (with a warning).
        let main = format!(
            "user root;\nworker_processes 1;\nworker_rlimit_nofile {files};\npid {d}/nginx.pid;\n\
             error_log {d}/error.log warn;\nevents {{ worker_connections {worker_connections}; }}\n\
             http {{\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n  \
             fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  \
             scgi_temp_path {d}/scgi;\n  access_log off;\n  include {d}/dames.conf;\n}}\n",
            files = worker_connections + 64,
        );
        std::fs::write(dir.path().join("nginx.conf"), main)?;
        let child = Command::new(bin)
            .arg("-p")
            .arg(dir.path())
            .arg("-c")
            .arg(dir.path().join("nginx.conf"))
            .args(["-g", "daemon off;"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| Error::Server(format!("cannot run nginx: {e}")))?;
        let nginx = Nginx { child, port, dir };
        wait_listening(port, "nginx")?;
        Ok(nginx)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Its access log (the `dames` format: `upstream=` names the node that answered).
    pub fn access_log(&self) -> PathBuf {
        self.dir.path().join("access.log")
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let _ = self.child.wait();
    }
}

/// [`NGINX_SITE`] with `nodes` as its upstream servers (each with the site's `max_fails`),
/// listening on `127.0.0.1:port`, logging to `log`.
///
/// # Errors
/// The site no longer has the lines replaced here (it changed: this must follow).
pub fn nginx_site(nodes: &[&str], port: u16, log: &Path) -> Result<String> {
    let replace = |conf: String, from: &str, to: &str| {
        if conf.matches(from).count() == 1 {
            Ok(conf.replace(from, to))
        } else {
            Err(Error::Usage(format!(
                "deploy/nginx/dames.conf has not exactly one {from:?}"
            )))
        }
    };
    let first = "    server 127.0.0.1:8081 max_fails=0;\n";
    let second = "    server 127.0.0.1:8082 max_fails=0;\n";
    let servers: String = nodes
        .iter()
        .map(|node| format!("    server {node} max_fails=0;\n"))
        .collect();
    let conf = replace(NGINX_SITE.to_owned(), first, &servers)?;
    let conf = replace(conf, second, "")?;
    let conf = replace(conf, "listen 80;", &format!("listen 127.0.0.1:{port};"))?;
    let log = log
        .to_str()
        .ok_or_else(|| Error::Usage("the access log's path is not UTF-8".into()))?;
    replace(conf, "/var/log/nginx/dames.access.log", log)
}

/// A TCP proxy on a loopback port in front of `upstream`, which can cut the link as a network
/// partition does: while cut, nothing crosses in either direction, connections already open
/// stay open but silent, and new ones are accepted and then hear nothing. When the link is
/// healed, the connections that lived through the cut are closed (a partition long enough to
/// matter outlives TCP's patience) and new ones are forwarded again.
pub struct Proxy {
    port: u16,
    cut: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// Listens on a free port and forwards to `upstream`.
    ///
    /// # Errors
    /// The port could not be bound.
    pub async fn start(upstream: u16) -> Result<Proxy> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let port = listener.local_addr()?.port();
        let (cut, watch) = watch::channel(false);
        let upstream = SocketAddr::from(([127, 0, 0, 1], upstream));
        let task = tokio::spawn(accept_loop(listener, upstream, watch));
        Ok(Proxy { port, cut, task })
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Cuts the link.
    pub fn cut(&self) {
        let _ = self.cut.send(true);
    }

    /// Heals it.
    pub fn heal(&self) {
        let _ = self.cut.send(false);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn accept_loop(listener: TcpListener, upstream: SocketAddr, cut: watch::Receiver<bool>) {
    let cut = Arc::new(cut);
    while let Ok((client, _)) = listener.accept().await {
        let mut cut = (*cut).clone();
        tokio::spawn(async move {
            if *cut.borrow_and_update() {
                // Accepted during the cut: silent until it heals, then closed.
                let _ = cut.wait_for(|c| !*c).await;
                drop(client);
                return;
            }
            let Ok(server) = TcpStream::connect(upstream).await else {
                return;
            };
            let _ = client.set_nodelay(true);
            let _ = server.set_nodelay(true);
            let (mut cr, mut cw) = client.into_split();
            let (mut sr, mut sw) = server.into_split();
            let mut a = [0u8; 16 * 1024];
            let mut b = [0u8; 16 * 1024];
            loop {
                tokio::select! {
                    n = cr.read(&mut a) => match n {
                        Ok(0) | Err(_) => break,
                        Ok(n) => if sw.write_all(&a[..n]).await.is_err() { break },
                    },
                    n = sr.read(&mut b) => match n {
                        Ok(0) | Err(_) => break,
                        Ok(n) => if cw.write_all(&b[..n]).await.is_err() { break },
                    },
                    changed = cut.changed() => {
                        if changed.is_err() {
                            break;
                        }
                        if *cut.borrow_and_update() {
                            // Cut: hold both ends open, forward nothing, close when healed.
                            let _ = cut.wait_for(|c| !*c).await;
                            break;
                        }
                    }
                }
            }
        });
    }
}

/// A small `tmpfs` mounted on a temporary directory (root only), to fill up: the SQLite
/// database lives there. Unmounted when dropped.
pub struct SmallDisk {
    dir: tempfile::TempDir,
    mounted: bool,
}

impl SmallDisk {
    /// Mounts a `tmpfs` of `bytes`.
    ///
    /// # Errors
    /// Not root, or `mount` failed.
    pub fn mount(bytes: u64) -> Result<SmallDisk> {
        if !is_root() {
            return Err(Error::Usage(
                "the disk-full fault mounts a tmpfs: run it as root".into(),
            ));
        }
        let dir = tempfile::Builder::new()
            .prefix("dames-faults-disk")
            .tempdir()?;
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={bytes}"), "tmpfs"])
            .arg(dir.path())
            .status()?;
        if !status.success() {
            return Err(Error::Usage(format!("mount -t tmpfs failed ({status})")));
        }
        Ok(SmallDisk { dir, mounted: true })
    }

    /// The mount point.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fills every free byte with a file `filler`; returns how many bytes it took.
    ///
    /// # Errors
    /// The file could not be created.
    pub fn fill(&self) -> Result<u64> {
        use std::io::Write;
        let mut file = std::fs::File::create(self.filler())?;
        let block = vec![0x55u8; 4096];
        let mut written = 0u64;
        // Whole blocks, then single bytes: the last few bytes of a page count too.
        for chunk in [block.as_slice(), &block[..1]] {
            loop {
                match file.write(chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => written += n as u64,
                }
            }
        }
        let _ = file.sync_all();
        Ok(written)
    }

    /// Removes the filler: the space is free again.
    ///
    /// # Errors
    /// The file could not be removed.
    pub fn free(&self) -> Result<()> {
        std::fs::remove_file(self.filler())?;
        Ok(())
    }

    fn filler(&self) -> PathBuf {
        self.dir.path().join("filler")
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        if self.mounted {
            self.mounted = false;
            let _ = Command::new("umount")
                .arg("-l")
                .arg(self.dir.path())
                .status();
        }
    }
}
