//! `connections`: `sockets` WebSockets opened (a few hundred handshakes at a time) to `rooms`
//! rooms and held for `hold`, then each must still answer a ping. Reports how many opened, how
//! many were alive at the end, how long opening took, and the server's resident memory before
//! and with the sockets open, per socket. The sockets are spectators of lobby rooms: the memory
//! measured is the connection's, not a game's.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{stream, StreamExt, TryStreamExt};
use serde::{Deserialize, Serialize};
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;
use tokio::time::timeout;

use crate::api::{Api, GameKind};
use crate::error::{Error, Result};
use crate::protocol::{self, Incoming, Ws};
use crate::server::{raise_fd_limit, Target};
use crate::setup::SETUP_CONCURRENCY;
use crate::stats::{self, tally_text, write_latency, Percentiles, Samples, Tally};

const STEP_TIMEOUT: Duration = Duration::from_secs(15);

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The server.
    pub target: Target,
    /// Sockets to open.
    pub sockets: usize,
    /// Rooms they are spread over (round robin).
    pub rooms: usize,
    /// How long to hold them all open.
    pub hold: Duration,
    /// Handshakes in flight at once.
    pub concurrency: usize,
}

/// What a `connections` run measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// Sockets asked for.
    pub sockets: usize,
    /// Rooms.
    pub rooms: usize,
    /// The open-file limit of this process (the spawned server has the same).
    pub fd_limit: Option<u64>,
    /// Sockets that opened and received their room's state.
    pub opened: usize,
    /// Sockets that answered a ping after the hold.
    pub alive: usize,
    /// Failures by kind.
    pub failures: BTreeMap<String, u64>,
    /// Time to open every socket, seconds.
    pub open_s: f64,
    /// Connect → first state, per socket.
    pub connect: Option<Percentiles>,
    /// How long the sockets were held, seconds.
    pub hold_s: f64,
    /// Server resident memory before the sockets, KiB.
    pub server_rss_before_kib: Option<u64>,
    /// Server resident memory with the sockets open (end of the hold), KiB.
    pub server_rss_held_kib: Option<u64>,
    /// `(held - before) / opened`, KiB.
    pub server_kib_per_socket: Option<f64>,
    /// Load generator resident memory with the sockets open, KiB.
    pub client_rss_kib: Option<u64>,
}

impl Report {
    /// Sockets that did not open or did not survive the hold: 0 for a clean run.
    pub fn failures(&self) -> u64 {
        (self.sockets - self.alive.min(self.sockets)) as u64
    }
}

/// Runs `connections`.
///
/// # Errors
/// The server could not be started or the rooms could not be created.
pub async fn run(config: &Config) -> Result<Report> {
    if config.sockets == 0 || config.rooms == 0 {
        return Err(Error::Usage("sockets and rooms must be at least 1".into()));
    }
    let fd_limit = raise_fd_limit().ok();
    let live = config.target.start()?;
    let api = Api::new(&live.base)?;
    let codes: Vec<String> = stream::iter(0..config.rooms)
        .map(|_| async { Ok::<_, Error>(api.create(GameKind::Draughts, "Ana").await?.code) })
        .buffer_unordered(SETUP_CONCURRENCY)
        .try_collect()
        .await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let server_rss_before_kib = live.rss_kib();

    let shared = Arc::new(Shared::default());
    let gate = Arc::new(Semaphore::new(config.concurrency.max(1)));
    let (release, released) = watch::channel(false);
    let opening = Instant::now();
    let mut tasks = JoinSet::new();
    for i in 0..config.sockets {
        let socket = Socket {
            base: live.base_for(i),
            code: codes[i % codes.len()].clone(),
            shared: shared.clone(),
            gate: gate.clone(),
        };
        tasks.spawn(socket.hold(released.clone()));
    }
    // Every socket opened or failed (each step is bounded by STEP_TIMEOUT).
    let waves = (config.sockets / config.concurrency.max(1) + 1) as u32;
    let deadline = opening + 2 * STEP_TIMEOUT * waves;
    while shared.settled.load(Ordering::Relaxed) < config.sockets && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let open_s = opening.elapsed().as_secs_f64();
    let holding = Instant::now();
    tokio::time::sleep(config.hold).await;
    let server_rss_held_kib = live.rss_kib();
    let client_rss_kib = stats::rss_kib(std::process::id());
    let hold_s = holding.elapsed().as_secs_f64();
    let _ = release.send(true);
    let mut alive = 0;
    while let Ok(Some(done)) = timeout(2 * STEP_TIMEOUT, tasks.join_next()).await {
        alive += usize::from(matches!(done, Ok(true)));
    }
    tasks.abort_all();
    live.finish()?;
    let opened = shared.opened.load(Ordering::Relaxed);
    let connect = shared
        .connect
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .percentiles();
    let server_kib_per_socket = match (server_rss_before_kib, server_rss_held_kib) {
        (Some(before), Some(held)) if opened > 0 => {
            Some((held as f64 - before as f64) / opened as f64)
        }
        _ => None,
    };
    Ok(Report {
        sockets: config.sockets,
        rooms: config.rooms,
        fd_limit,
        opened,
        alive,
        failures: shared.failures.snapshot(),
        open_s,
        connect,
        hold_s,
        server_rss_before_kib,
        server_rss_held_kib,
        server_kib_per_socket,
        client_rss_kib,
    })
}

#[derive(Default)]
struct Shared {
    /// Sockets that opened or failed to.
    settled: AtomicUsize,
    opened: AtomicUsize,
    connect: Mutex<Samples>,
    failures: Tally,
}

struct Socket {
    base: String,
    code: String,
    shared: Arc<Shared>,
    gate: Arc<Semaphore>,
}

impl Socket {
    /// Opens, holds until `released`, checks with a ping; `true` if it all went well.
    async fn hold(self, mut released: watch::Receiver<bool>) -> bool {
        let opened = self.open().await;
        self.shared.settled.fetch_add(1, Ordering::Relaxed);
        let mut ws = match opened {
            Ok(ws) => ws,
            Err(failure) => {
                self.shared.failures.add(&failure);
                return false;
            }
        };
        self.shared.opened.fetch_add(1, Ordering::Relaxed);
        // Hold: read (which answers the server's pings) until released.
        loop {
            tokio::select! {
                msg = protocol::next_message(&mut ws) => if let Err(reason) = msg {
                    self.shared.failures.add(&format!("dropped while held: {reason}"));
                    return false;
                },
                _ = released.changed() => break,
            }
        }
        let alive = self.ping(&mut ws).await;
        if !alive {
            self.shared.failures.add("no pong after the hold");
        }
        let _ = timeout(Duration::from_secs(2), ws.close(None)).await;
        alive
    }

    async fn open(&self) -> Result<Ws, String> {
        let _permit = self.gate.acquire().await.map_err(|e| e.to_string())?;
        let started = Instant::now();
        let mut ws =
            protocol::connect_within(&self.base, &self.code, None, 0, STEP_TIMEOUT).await?;
        protocol::state_within(&mut ws, STEP_TIMEOUT).await?;
        let mut samples = self
            .shared
            .connect
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        samples.push(started.elapsed());
        drop(samples);
        Ok(ws)
    }

    async fn ping(&self, ws: &mut Ws) -> bool {
        use futures_util::SinkExt;
        if ws.send(protocol::ping_message()).await.is_err() {
            return false;
        }
        let pong = timeout(STEP_TIMEOUT, async {
            loop {
                match protocol::next_message(ws).await {
                    Ok(Incoming::Pong) => return true,
                    Ok(_) => continue,
                    Err(_) => return false,
                }
            }
        });
        matches!(pong.await, Ok(true))
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kib =
            |k: Option<u64>| k.map_or("?".to_owned(), |k| format!("{:.1} MiB", k as f64 / 1024.0));
        writeln!(
            f,
            "connections: {} sockets over {} rooms (open-file limit {})",
            self.sockets,
            self.rooms,
            self.fd_limit.map_or("?".to_owned(), |l| l.to_string())
        )?;
        writeln!(
            f,
            "  opened: {} in {:.1} s; alive after {:.1} s held: {}",
            self.opened, self.open_s, self.hold_s, self.alive
        )?;
        write_latency(f, "connect → state", self.connect.as_ref())?;
        writeln!(
            f,
            "  server memory: {} before, {} held: {} per socket; load generator {}",
            kib(self.server_rss_before_kib),
            kib(self.server_rss_held_kib),
            self.server_kib_per_socket
                .map_or("?".to_owned(), |k| format!("{k:.1} KiB")),
            kib(self.client_rss_kib)
        )?;
        writeln!(f, "  failures: {}", tally_text(&self.failures))
    }
}
