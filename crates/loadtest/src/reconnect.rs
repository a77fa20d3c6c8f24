//! `reconnect`: players coming and going. Each seat of `games` started games opens its socket
//! (with `since`), waits for the state, closes, and again, for `duration`. Reports completed
//! (re)connections per second, connect → state latency, and how many room versions (stored
//! events) each connection cost the server.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{stream, StreamExt};
use serde::{Deserialize, Serialize};
use tokio::task::JoinSet;
use tokio::time::timeout;

use crate::api::{Api, GameKind, SeatKey};
use crate::error::Result;
use crate::protocol;
use crate::server::{raise_fd_limit, Target};
use crate::setup::{self, SETUP_CONCURRENCY};
use crate::stats::{tally_text, write_latency, Percentiles, Samples, Tally};

const STEP_TIMEOUT: Duration = Duration::from_secs(10);

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The server.
    pub target: Target,
    /// Started 2-player games (two clients each).
    pub games: usize,
    /// The kind of game.
    pub kind: GameKind,
    /// How long the clients come and go.
    pub duration: Duration,
}

/// What a `reconnect` run measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// Clients coming and going at once.
    pub clients: usize,
    /// How long, seconds.
    pub duration_s: f64,
    /// Completed connections (connect, state received, closed).
    pub connections: u64,
    /// `connections / duration_s`.
    pub per_s: f64,
    /// Connect → state.
    pub connect: Option<Percentiles>,
    /// Room versions (stored events) added by the run, per connection.
    pub versions_per_connection: Option<f64>,
    /// Failures by kind.
    pub failures: BTreeMap<String, u64>,
}

impl Report {
    /// Failed connections: 0 for a clean run.
    pub fn failures(&self) -> u64 {
        self.failures.values().sum()
    }
}

/// Runs `reconnect`.
///
/// # Errors
/// The server could not be started or the games could not be set up.
pub async fn run(config: &Config) -> Result<Report> {
    let _ = raise_fd_limit();
    let live = config.target.start()?;
    let api = Api::new(&live.base)?;
    let games = setup::new_games(&api, &[config.kind], config.games).await?;
    let hosts: Vec<SeatKey> = games.iter().map(|(_, seats)| seats[0].clone()).collect();
    let before = versions(&api, &hosts).await?;
    let shared = Arc::new(Shared::default());
    let started = Instant::now();
    let deadline = started + config.duration;
    let mut tasks = JoinSet::new();
    for (i, key) in games.into_iter().flat_map(|(_, seats)| seats).enumerate() {
        tasks.spawn(come_and_go(live.base_for(i), key, deadline, shared.clone()));
    }
    while timeout(2 * STEP_TIMEOUT + config.duration, tasks.join_next())
        .await
        .is_ok_and(|t| t.is_some())
    {}
    tasks.abort_all();
    let duration_s = started.elapsed().as_secs_f64();
    // The last disconnections are written after the sockets closed: let them land.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = versions(&api, &hosts).await?;
    live.finish()?;
    let connections = shared.connections.load(Ordering::Relaxed);
    let connect = shared
        .connect
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .percentiles();
    Ok(Report {
        clients: 2 * hosts.len(),
        duration_s,
        connections,
        per_s: connections as f64 / duration_s.max(1e-9),
        connect,
        versions_per_connection: (connections > 0)
            .then(|| (after - before) as f64 / connections as f64),
        failures: shared.failures.snapshot(),
    })
}

async fn versions(api: &Api, hosts: &[SeatKey]) -> Result<i64> {
    let records: Vec<Result<i64>> = stream::iter(hosts)
        .map(|key| async move { Ok(api.record(key).await?.version) })
        .buffer_unordered(SETUP_CONCURRENCY)
        .collect()
        .await;
    records.into_iter().sum()
}

#[derive(Default)]
struct Shared {
    connections: AtomicU64,
    connect: Mutex<Samples>,
    failures: Tally,
}

/// One client: connect, state, close, until `deadline`.
async fn come_and_go(base: String, key: SeatKey, deadline: Instant, shared: Arc<Shared>) {
    let mut since = 0;
    while Instant::now() < deadline {
        let started = Instant::now();
        match once(&base, &key, since).await {
            Ok(version) => {
                since = version;
                shared.connections.fetch_add(1, Ordering::Relaxed);
                shared
                    .connect
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(started.elapsed());
            }
            Err(failure) => {
                shared.failures.add(&failure);
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

/// One connection; returns the version of its state.
async fn once(base: &str, key: &SeatKey, since: i64) -> Result<i64, String> {
    let mut ws =
        protocol::connect_within(base, &key.code, Some(&key.token), since, STEP_TIMEOUT).await?;
    let state = protocol::state_within(&mut ws, STEP_TIMEOUT).await?.version;
    // A clean close: our Close frame, the server's answer, the end of the stream.
    let closed = timeout(STEP_TIMEOUT, async {
        let _ = ws.close(None).await;
        while let Some(Ok(_)) = ws.next().await {}
    })
    .await;
    closed.map_err(|_| "close: timed out".to_owned())?;
    Ok(state)
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "reconnect: {} clients for {:.1} s: {} connections ({:.0}/s)",
            self.clients, self.duration_s, self.connections, self.per_s
        )?;
        write_latency(f, "connect → state", self.connect.as_ref())?;
        writeln!(
            f,
            "  room versions (stored events) per connection: {}",
            self.versions_per_connection
                .map_or("?".to_owned(), |v| format!("{v:.2}"))
        )?;
        writeln!(f, "  failures: {}", tally_text(&self.failures))
    }
}
