//! `dames serve`: the web site, its API and its WebSocket on one address, with the rooms kept in
//! an SQLite file. Prints `listening on http://{addr}` on stdout once bound (tests read it to
//! find a random port), stops cleanly on Ctrl-C or SIGTERM.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use dames_room::clock::ClockSettings;
use dames_server::net::client_ip::Cidr;
use dames_server::{AppState, Config};
use serde_json::json;

/// Options of `dames serve`.
#[derive(clap::Parser)]
pub struct Args {
    /// Address to listen on (port 0: any free port; the chosen one is printed).
    #[arg(long, default_value = "127.0.0.1:8080", env = "DAMES_ADDR")]
    pub addr: String,
    /// SQLite database file (created if missing), unless `--database` is given.
    #[arg(long, default_value = "dames.db", env = "DAMES_DB")]
    pub db: PathBuf,
    /// A PostgreSQL database instead of the SQLite file: `postgres://user@host:port/db`
    /// (docs/cluster.md).
    #[arg(long, env = "DAMES_DATABASE")]
    pub database: Option<String>,
    /// The Redis shared by the nodes of one deployment, with `--database` (docs/cluster.md):
    /// `redis://host:port`.
    #[arg(long, env = "DAMES_REDIS", requires = "database")]
    pub redis: Option<String>,
    /// The prefix of this deployment's Redis keys and channels.
    #[arg(long, default_value = "dames:", env = "DAMES_REDIS_PREFIX")]
    pub redis_prefix: String,
    /// Public origin of the site, used in room links and QR codes (default: from the Host header).
    #[arg(long, env = "DAMES_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Rooms whose game never started are deleted this long after their last activity.
    #[arg(long, default_value = "7d", value_parser = parse_duration)]
    pub lobby_retention: Duration,
    /// Finished games are deleted this long after they end.
    #[arg(long, default_value = "30d", value_parser = parse_duration)]
    pub finished_retention: Duration,
    /// A game with no move for this long ends as abandoned (no result).
    #[arg(long, default_value = "45d", value_parser = parse_duration)]
    pub idle_limit: Duration,
    /// How often the retention job runs.
    #[arg(long, default_value = "1h", value_parser = parse_duration)]
    pub sweep_every: Duration,
    /// A room nobody uses (no connection, no request, no CPU turn) leaves memory after this
    /// long; the next request loads it again from the database.
    #[arg(long, default_value = "5m", value_parser = parse_duration)]
    pub evict_after: Duration,
    /// Reviews, requests and "finished a game" records are deleted this long after they were written.
    #[arg(long, default_value = "730d", value_parser = parse_duration)]
    pub feedback_retention: Duration,
    /// Contact given to push services with every notification (VAPID `sub`: `mailto:` or an
    /// https URL; default: the public URL).
    #[arg(long, env = "DAMES_PUSH_SUBJECT")]
    pub push_subject: Option<String>,
    /// Push services that notifications may be sent to (each with its subdomains; `known`: the
    /// big browsers' services). Default: any public host (never a private or local address).
    #[arg(long, value_delimiter = ',', env = "DAMES_PUSH_ALLOW_HOSTS")]
    pub push_allow_host: Vec<String>,
    /// Reverse proxies (IP or network, e.g. 127.0.0.1 or 10.0.0.0/8) whose Forwarded and
    /// X-Forwarded-For headers name the client; nobody else's are believed.
    #[arg(long, value_delimiter = ',', num_args = 1.., env = "DAMES_TRUSTED_PROXIES")]
    pub trusted_proxy: Vec<Cidr>,
    /// A request's head must arrive within this time (else 408 and the connection is closed).
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    pub header_timeout: Duration,
    /// A kept-alive connection with no request for this long is closed.
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    pub idle_timeout: Duration,
    /// On SIGTERM or Ctrl-C: the longest the drain may take (requests in progress finish,
    /// WebSockets are closed with 1012 so that clients reconnect, every change handed to the
    /// writer is committed) before the process exits.
    #[arg(long, default_value = "10s", value_parser = parse_duration, env = "DAMES_DRAIN_TIMEOUT")]
    pub drain_timeout: Duration,
    /// Open connections at most, WebSockets included (default: from the open-file limit,
    /// which is raised to its hard maximum at start); more get 503.
    #[arg(long)]
    pub max_connections: Option<usize>,
    /// Open connections from one address (IPv6: one /64) at most; more get 429. Trusted proxies
    /// are not counted.
    #[arg(long, default_value_t = 256)]
    pub max_connections_per_ip: usize,
    /// Open WebSockets from one client address (IPv6: one /64) at most; more get 429.
    #[arg(long, default_value_t = 50)]
    pub max_websockets_per_ip: usize,
    /// Turn off the rate limits (local load tests only).
    #[arg(long)]
    pub no_rate_limits: bool,
    /// CPU searches computing at the same time (the others take turns with them in slices);
    /// default: the cores available but one, at least one.
    #[arg(long)]
    pub cpu_workers: Option<usize>,
    /// The clock of the live draughts pools of « Jouer en ligne » (quick pairing): base and
    /// increment, e.g. `5m+3s`, `3m+2s`, `10m+5s`.
    #[arg(long, default_value = "5m+3s", value_parser = parse_fischer)]
    pub pool_clock_draughts: ClockSettings,
    /// The clock of the live Chinese checkers pools: the time of a move and the reserve, e.g.
    /// `30s/60s`.
    #[arg(long, default_value = "30s/60s", value_parser = parse_per_move)]
    pub pool_clock_cc: ClockSettings,
    /// Nodes the analysis of a finished game (« Analyser ») searches in each position.
    #[arg(long, default_value_t = 200_000, env = "DAMES_ANALYSIS_NODES")]
    pub analysis_nodes: u64,
    /// Serve `GET /metrics` (Prometheus text format, docs/operations.md) on this address, e.g.
    /// `127.0.0.1:9100`: an address of its own, never the public one. Default: no metrics.
    #[arg(long, env = "DAMES_METRICS_LISTEN")]
    pub metrics_listen: Option<String>,
    /// Log level: error, warn, info, debug or trace (logs go to stderr).
    #[arg(long, default_value = "info", env = "DAMES_LOG")]
    pub log: tracing::Level,
}

/// `500ms`, `30s`, `10m`, `1h`, `7d` (a bare number is seconds).
pub(crate) fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("not a duration: {text:?} (e.g. 30s, 7d)"))?;
    let ms = match unit {
        "ms" => 1,
        "" | "s" => 1000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return Err(format!("unknown unit {unit:?}: ms, s, m, h or d")),
    };
    Ok(Duration::from_millis(n.saturating_mul(ms)))
}

/// A Fischer clock, `BASE+INCREMENT` (`5m+3s`), in the range a room's setting accepts.
pub(crate) fn parse_fischer(text: &str) -> Result<ClockSettings, String> {
    let (base, increment) = (text.split_once('+'))
        .ok_or_else(|| format!("not a clock: {text:?} (base+increment, e.g. 5m+3s)"))?;
    checked_clock(json!({
        "kind": "fischer",
        "base_ms": millis(parse_duration(base)?),
        "increment_ms": millis(parse_duration(increment)?),
    }))
}

/// A per-move clock, `MOVE/RESERVE` (`30s/60s`), in the range a room's setting accepts.
pub(crate) fn parse_per_move(text: &str) -> Result<ClockSettings, String> {
    let (per_move, reserve) = (text.split_once('/'))
        .ok_or_else(|| format!("not a clock: {text:?} (move/reserve, e.g. 30s/60s)"))?;
    checked_clock(json!({
        "kind": "per_move",
        "move_ms": millis(parse_duration(per_move)?),
        "reserve_ms": millis(parse_duration(reserve)?),
    }))
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn checked_clock(value: serde_json::Value) -> Result<ClockSettings, String> {
    ClockSettings::parse("clock", &value).map_err(|d| d.message.clone())
}

impl Args {
    fn config(&self) -> Config {
        let mut config = Config::new(&self.db);
        config.database.clone_from(&self.database);
        config.redis.clone_from(&self.redis);
        config.redis_prefix.clone_from(&self.redis_prefix);
        config.public_url.clone_from(&self.public_url);
        config.retention.lobby = self.lobby_retention;
        config.retention.finished = self.finished_retention;
        config.retention.idle = self.idle_limit;
        config.retention.sweep_every = self.sweep_every;
        config.retention.feedback = self.feedback_retention;
        config.commit.evict_after = self.evict_after;
        config.analysis.nodes = self.analysis_nodes.max(1);
        if let Some(subject) = self.push_subject.clone().or_else(|| {
            self.public_url
                .clone()
                .filter(|u| u.starts_with("https://"))
        }) {
            config.push.subject = subject;
        }
        config.push.allowed_hosts.clone_from(&self.push_allow_host);
        config
            .network
            .trusted_proxies
            .clone_from(&self.trusted_proxy);
        config.network.header_timeout = self.header_timeout;
        config.network.idle_timeout = self.idle_timeout;
        config.network.drain_timeout = self.drain_timeout;
        config.network.max_connections = self.max_connections;
        config.network.max_connections_per_ip = self.max_connections_per_ip.max(1);
        config.network.max_websockets_per_ip = self.max_websockets_per_ip.max(1);
        config.limits.enabled = !self.no_rate_limits;
        config.pools.clocks = dames_server::pools::spec::PoolClocks {
            draughts: self.pool_clock_draughts,
            cc: self.pool_clock_cc,
        };
        if let Some(workers) = self.cpu_workers {
            config.cpu_workers = workers.clamp(1, 64);
        }
        config
    }
}

/// Options of `dames migrate`.
#[derive(clap::Parser)]
pub struct MigrateArgs {
    /// SQLite database file, unless `--database` is given.
    #[arg(long, default_value = "dames.db", env = "DAMES_DB")]
    pub db: PathBuf,
    /// A PostgreSQL database: `postgres://user@host:port/db`.
    #[arg(long, env = "DAMES_DATABASE")]
    pub database: Option<String>,
}

/// `dames migrate`: opening a store applies its pending migrations.
pub fn migrate(args: &MigrateArgs) -> anyhow::Result<()> {
    dames_store::open(&args.db, args.database.as_deref())
        .map_err(|e| anyhow::anyhow!("cannot migrate the database: {e}"))?;
    println!("migrations applied");
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_max_level(args.log)
        .with_ansi(ansi)
        .with_writer(std::io::stderr)
        .init();
    // Each connection is a file: take every file the system allows, then cap connections below.
    let files = dames_server::net::limits::raise_open_file_limit();
    let cap = dames_server::net::limits::default_max_connections();
    tracing::info!("open-file limit {files:?}: at most {cap} connections by default");
    if args.max_connections.is_some_and(|m| m > cap) {
        tracing::warn!("--max-connections is above what the open-file limit allows ({cap})");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let result = runtime.block_on(serve(args));
    // The drain is over: what is still running (a push delivery, a CPU search being cancelled)
    // is not waited for long.
    runtime.shutdown_timeout(Duration::from_millis(500));
    result
}

async fn serve(args: Args) -> anyhow::Result<()> {
    // The handlers are in place before the address is printed: a SIGTERM sent as soon as the
    // server answers drains it (a handler installed on the first poll could come too late).
    let shutdown = shutdown_signal()?;
    let state = AppState::open(args.config())
        .await
        .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))?;
    let addr = tokio::net::lookup_host(&args.addr)
        .await?
        .next()
        .ok_or_else(|| anyhow::anyhow!("{} names no address", args.addr))?;
    let listener = dames_server::net::listen::listen(addr)?;
    let addr = listener.local_addr()?;
    if let Some(metrics) = &args.metrics_listen {
        serve_metrics(metrics, addr, state.clone()).await?;
    }
    println!("listening on http://{addr}");
    std::io::stdout().flush()?;
    dames_server::serve(listener, state, shutdown).await?;
    tracing::info!("stopped");
    Ok(())
}

/// Binds the metrics address (refused if it is the public one) and serves `GET /metrics` there
/// in a task of its own for as long as the process runs.
async fn serve_metrics(
    at: &str,
    public: std::net::SocketAddr,
    state: AppState,
) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(at)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen for metrics on {at}: {e}"))?;
    let addr = listener.local_addr()?;
    anyhow::ensure!(
        addr.port() != public.port(),
        "--metrics-listen must not be the public address ({public})"
    );
    tracing::info!("metrics on http://{addr}/metrics");
    tokio::spawn(async move {
        if let Err(err) = dames_server::serve_metrics(listener, state).await {
            tracing::error!("the metrics address failed: {err}");
        }
    });
    Ok(())
}

/// Installs the SIGTERM and Ctrl-C handlers now; the future completes at the first of them.
#[cfg(unix)]
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {},
            _ = interrupt.recv() => {},
        }
    })
}

/// Ctrl-C (installed on the first poll: no SIGTERM here).
#[cfg(not(unix))]
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_options_reach_the_configuration() {
        use clap::Parser;
        let args = Args::try_parse_from([
            "serve",
            "--trusted-proxy",
            "127.0.0.1,10.0.0.0/8",
            "--header-timeout",
            "5s",
            "--idle-timeout",
            "1m",
            "--max-connections",
            "900",
            "--max-websockets-per-ip",
            "20",
            "--push-allow-host",
            "known",
        ])
        .unwrap();
        let config = args.config();
        let net = &config.network;
        assert_eq!(net.trusted_proxies.len(), 2);
        assert!(net.trusted_proxies[1].contains("10.9.8.7".parse().unwrap()));
        assert_eq!(net.header_timeout, Duration::from_secs(5));
        assert_eq!(net.idle_timeout, Duration::from_secs(60));
        assert_eq!(net.max_connections, Some(900));
        assert_eq!(net.max_websockets_per_ip, 20);
        assert_eq!(net.max_connections_per_ip, 256);
        assert_eq!(config.push.allowed_hosts, ["known"]);
        assert_eq!(
            config.cpu_workers,
            dames_server::live::scheduler::default_workers()
        );
        let two = Args::try_parse_from(["serve", "--cpu-workers", "2"]).unwrap();
        assert_eq!(two.config().cpu_workers, 2);
        assert!(Args::try_parse_from(["serve", "--trusted-proxy", "10.0.0.0/99"]).is_err());
    }

    #[test]
    fn pool_clocks_parse_and_are_checked_like_a_rooms_setting() {
        assert_eq!(
            parse_fischer("5m+3s"),
            Ok(ClockSettings::Fischer {
                base_ms: 300_000,
                increment_ms: 3_000
            })
        );
        assert_eq!(
            parse_per_move("30s/60s"),
            Ok(ClockSettings::PerMove {
                move_ms: 30_000,
                reserve_ms: 60_000
            })
        );
        assert!(parse_fischer("5m").is_err());
        assert!(parse_fischer("500ms+0").is_err(), "below the 1 s base");
        assert!(parse_fischer("5m+2m").is_err(), "increment over a minute");
        assert!(parse_per_move("30s+60s").is_err());
        let args = <Args as clap::Parser>::parse_from([
            "serve",
            "--pool-clock-draughts",
            "4s+0",
            "--pool-clock-cc",
            "2s/1s",
        ]);
        let clocks = args.config().pools.clocks;
        assert_eq!(
            clocks.draughts,
            ClockSettings::Fischer {
                base_ms: 4_000,
                increment_ms: 0
            }
        );
        assert_eq!(
            clocks.cc,
            ClockSettings::PerMove {
                move_ms: 2_000,
                reserve_ms: 1_000
            }
        );
    }

    #[test]
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("7d"), Ok(Duration::from_secs(7 * 86400)));
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("3"), Ok(Duration::from_secs(3)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert!(parse_duration("7 weeks").is_err());
        assert!(parse_duration("").is_err());
    }
}
