//! `dames serve`: the web site, its API and its WebSocket on one address, with the rooms kept in
//! an SQLite file. Prints `listening on http://{addr}` on stdout once bound (tests read it to
//! find a random port), stops cleanly on Ctrl-C or SIGTERM.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use dames_server::{AppState, Config};

/// Options of `dames serve`.
#[derive(clap::Parser)]
pub struct Args {
    /// Address to listen on (port 0: any free port; the chosen one is printed).
    #[arg(long, default_value = "127.0.0.1:8080", env = "DAMES_ADDR")]
    pub addr: String,
    /// SQLite database file (created if missing).
    #[arg(long, default_value = "dames.db", env = "DAMES_DB")]
    pub db: PathBuf,
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
    /// Reviews, requests and "finished a game" records are deleted this long after they were written.
    #[arg(long, default_value = "730d", value_parser = parse_duration)]
    pub feedback_retention: Duration,
    /// Contact given to push services with every notification (VAPID `sub`: `mailto:` or an
    /// https URL; default: the public URL).
    #[arg(long, env = "DAMES_PUSH_SUBJECT")]
    pub push_subject: Option<String>,
    /// Turn off the rate limits (local load tests only).
    #[arg(long)]
    pub no_rate_limits: bool,
    /// CPU players thinking at the same time.
    #[arg(long, default_value_t = 1)]
    pub cpu_workers: usize,
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

impl Args {
    fn config(&self) -> Config {
        let mut config = Config::new(&self.db);
        config.public_url.clone_from(&self.public_url);
        config.retention.lobby = self.lobby_retention;
        config.retention.finished = self.finished_retention;
        config.retention.idle = self.idle_limit;
        config.retention.sweep_every = self.sweep_every;
        config.retention.feedback = self.feedback_retention;
        if let Some(subject) = self.push_subject.clone().or_else(|| {
            self.public_url
                .clone()
                .filter(|u| u.starts_with("https://"))
        }) {
            config.push.subject = subject;
        }
        config.limits.enabled = !self.no_rate_limits;
        config.cpu_workers = self.cpu_workers.clamp(1, 8);
        config
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_max_level(args.log)
        .with_ansi(ansi)
        .with_writer(std::io::stderr)
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(args))
}

async fn serve(args: Args) -> anyhow::Result<()> {
    let state = AppState::open(args.config())
        .await
        .map_err(|e| anyhow::anyhow!("cannot open the database {}: {e}", args.db.display()))?;
    let listener = tokio::net::TcpListener::bind(&args.addr).await?;
    let addr = listener.local_addr()?;
    println!("listening on http://{addr}");
    std::io::stdout().flush()?;
    dames_server::serve(listener, state, shutdown_signal()).await?;
    tracing::info!("stopped");
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
