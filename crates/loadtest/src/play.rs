//! `play`: concurrent 2-player games between scripted clients, flat out or at a pace.
//!
//! `games` games of each kind are created, joined and started over HTTP, then each seat's
//! player connects its WebSocket and moves whenever the server offers it legal moves. After the
//! warm-up, for `duration`, the run counts the moves acknowledged (`applied: true`: committed)
//! and measures send→ack and send→opponent-receives. Finished games start again (rematch), so
//! the load stays steady. A dropped socket is counted and reconnected (at most 3 times).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::api::{Api, GameKind};
use crate::error::Result;
use crate::player::{drive, Backoff, End, Style, ACK_WAIT};
use crate::rng::Rng;
use crate::server::{raise_fd_limit, Target};
use crate::setup;
use crate::stats::{self, tally_text, write_latency, Percentiles, Recorder};

/// Reconnections allowed to each player after a dropped socket.
const RECONNECTS: u32 = 3;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The server.
    pub target: Target,
    /// Games of each kind.
    pub games: usize,
    /// The kinds of game.
    pub kinds: Vec<GameKind>,
    /// Play before measuring (connections settle, games get going).
    pub warmup: Duration,
    /// How long to measure.
    pub duration: Duration,
    /// Time between two moves of a game (`None`: flat out).
    pub pace: Option<Duration>,
    /// Seed of the players' choices (`None`: from the clock).
    pub seed: Option<u64>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            target: Target::Running {
                base: "http://127.0.0.1:8080".into(),
                pid: None,
            },
            games: 10,
            kinds: vec![GameKind::Cc, GameKind::Draughts],
            warmup: Duration::from_secs(2),
            duration: Duration::from_secs(20),
            pace: None,
            seed: None,
        }
    }
}

/// What a `play` run measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// The seed of the players' choices.
    pub seed: u64,
    /// Games by kind.
    pub games: BTreeMap<GameKind, usize>,
    /// Time between two moves of a game, in seconds (`None`: flat out).
    pub pace_s: Option<f64>,
    /// Time to create, join and start every room.
    pub setup_s: f64,
    /// The measured window.
    pub duration_s: f64,
    /// Moves acknowledged as applied (committed) during the window.
    pub moves: u64,
    /// `moves / duration_s`.
    pub moves_per_s: f64,
    /// Send → acknowledgement.
    pub ack: Option<Percentiles>,
    /// Send → the opponent receives the move.
    pub opponent: Option<Percentiles>,
    /// Games finished during the window.
    pub games_finished: u64,
    /// Error messages from the server, by code (whole run).
    pub errors: BTreeMap<String, u64>,
    /// Sockets that closed or failed under a player, by reason (whole run).
    pub drops: BTreeMap<String, u64>,
    /// Reconnections after those.
    pub reconnections: u64,
    /// Players that did not end cleanly (gave up after refusals or dropped sockets).
    pub players_failed: u64,
    /// Server CPU time during the window, in % of one core (when its pid is known).
    pub server_cpu_pct: Option<f64>,
    /// Load generator CPU time during the window, in % of one core.
    pub client_cpu_pct: Option<f64>,
    /// Moves committed per second of server CPU time (the cost of a move, inverted).
    pub moves_per_server_cpu_s: Option<f64>,
    /// Server resident memory at the end, KiB.
    pub server_rss_kib: Option<u64>,
}

impl Report {
    /// Errors, dropped sockets and failed players: 0 for a clean run.
    pub fn failures(&self) -> u64 {
        self.errors.values().sum::<u64>() + self.drops.values().sum::<u64>() + self.players_failed
    }
}

/// Runs `play`.
///
/// # Errors
/// The server could not be started or the games could not be set up.
pub async fn run(config: &Config) -> Result<Report> {
    let _ = raise_fd_limit();
    let live = config.target.start()?;
    let api = Api::new(&live.base)?;
    let seed = config.seed.unwrap_or_else(Rng::clock_seed);
    let mut rng = Rng::new(seed);
    let started = Instant::now();
    let games = setup::new_games(&api, &config.kinds, config.games).await?;
    let setup_s = started.elapsed().as_secs_f64();
    let mut counts = BTreeMap::new();
    for (kind, _) in &games {
        *counts.entry(*kind).or_insert(0) += 1;
    }
    let rec = Arc::new(Recorder::default());
    let style = Style {
        pace: config.pace,
        rematch: true,
        record: false,
    };
    let (_links, players) = setup::players(games, &rec, style, &mut rng);
    let (stop, stopped) = watch::channel(false);
    let mut tasks = JoinSet::new();
    for (i, player) in players.into_iter().enumerate() {
        // The two seats of a game (players 2k and 2k + 1) on different nodes when there are
        // several: each move crosses from one node to the other through the fan-out.
        tasks.spawn(drive(
            player,
            live.base_for(i),
            stopped.clone(),
            RECONNECTS,
            Backoff::Fixed,
        ));
    }
    tokio::time::sleep(config.warmup).await;
    let cpu = Cpu::now(&live.pids);
    let window = Instant::now();
    rec.measuring.store(true, Ordering::Relaxed);
    tokio::time::sleep(config.duration).await;
    rec.measuring.store(false, Ordering::Relaxed);
    let duration_s = window.elapsed().as_secs_f64();
    let (server_cpu_pct, client_cpu_pct) = cpu.percent(duration_s);
    let _ = stop.send(true);
    let players_failed = join_players(&mut tasks).await;
    let server_rss_kib = live.rss_kib();
    live.finish()?;
    let moves = rec.moves.load(Ordering::Relaxed);
    let moves_per_server_cpu_s = server_cpu_pct
        .filter(|&pct| pct > 0.0)
        .map(|pct| moves as f64 / (pct / 100.0 * duration_s));
    Ok(Report {
        seed,
        games: counts,
        pace_s: config.pace.map(|p| p.as_secs_f64()),
        setup_s,
        duration_s,
        moves,
        moves_per_s: moves as f64 / duration_s.max(1e-9),
        ack: Recorder::percentiles(&rec.ack),
        opponent: Recorder::percentiles(&rec.opponent),
        games_finished: rec.games_finished.load(Ordering::Relaxed),
        errors: rec.errors.snapshot(),
        drops: rec.drops.snapshot(),
        reconnections: rec.reconnections.load(Ordering::Relaxed),
        players_failed,
        server_cpu_pct,
        client_cpu_pct,
        moves_per_server_cpu_s,
        server_rss_kib,
    })
}

/// Waits for the stopped players (bounded); returns how many ended badly.
async fn join_players(tasks: &mut JoinSet<(crate::player::Player, End)>) -> u64 {
    let mut failed = 0;
    let deadline = tokio::time::Instant::now() + ACK_WAIT + Duration::from_secs(5);
    loop {
        match tokio::time::timeout_at(deadline, tasks.join_next()).await {
            Ok(Some(Ok((_, End::Stopped | End::Done)))) => {}
            Ok(Some(_)) => failed += 1,
            Ok(None) => return failed,
            Err(_) => {
                failed += tasks.len() as u64;
                tasks.abort_all();
                return failed;
            }
        }
    }
}

/// CPU time of the server and of this process at the start of a window.
pub(crate) struct Cpu {
    server: Option<(Vec<u32>, Duration)>,
    client: Option<Duration>,
}

/// The CPU time of every process of `pids` together (`None` if one cannot be read, or none).
fn cpu_time_of(pids: &[u32]) -> Option<Duration> {
    let each: Option<Vec<Duration>> = pids.iter().map(|&p| stats::cpu_time(p)).collect();
    each.filter(|e| !e.is_empty()).map(|e| e.iter().sum())
}

impl Cpu {
    /// With several nodes, the server's CPU is theirs together.
    pub fn now(server_pids: &[u32]) -> Cpu {
        Cpu {
            server: cpu_time_of(server_pids).map(|t| (server_pids.to_vec(), t)),
            client: stats::cpu_time(std::process::id()),
        }
    }

    /// CPU used since, in % of one core: (server, this process).
    pub fn percent(&self, seconds: f64) -> (Option<f64>, Option<f64>) {
        let pct = |before: Duration, after: Option<Duration>| {
            after.map(|a| 100.0 * a.saturating_sub(before).as_secs_f64() / seconds.max(1e-9))
        };
        (
            self.server
                .as_ref()
                .and_then(|(pids, before)| pct(*before, cpu_time_of(pids))),
            self.client
                .and_then(|before| pct(before, stats::cpu_time(std::process::id()))),
        )
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let games: Vec<String> = self
            .games
            .iter()
            .map(|(k, n)| format!("{n} {}", k.as_str()))
            .collect();
        let pace = self.pace_s.map_or("flat out".to_owned(), |p| {
            format!("one move every {p} s per game")
        });
        writeln!(
            f,
            "play: {} games ({pace}), seed {}",
            games.join(" + "),
            self.seed
        )?;
        writeln!(
            f,
            "  set-up: {:.1} s; measured for {:.1} s",
            self.setup_s, self.duration_s
        )?;
        writeln!(
            f,
            "  committed moves: {} ({:.0} moves/s); games finished: {}",
            self.moves, self.moves_per_s, self.games_finished
        )?;
        write_latency(f, "send → ack", self.ack.as_ref())?;
        write_latency(f, "send → opponent", self.opponent.as_ref())?;
        if let Some(per) = self.moves_per_server_cpu_s {
            writeln!(f, "  cost: {per:.0} moves per server CPU-second")?;
        }
        write_usage(
            f,
            self.server_cpu_pct,
            self.client_cpu_pct,
            self.server_rss_kib,
        )?;
        write_failures(f, &self.errors, &self.drops)?;
        writeln!(
            f,
            "  reconnections: {}; players failed: {}",
            self.reconnections, self.players_failed
        )
    }
}

pub(crate) fn write_usage(
    f: &mut fmt::Formatter<'_>,
    server_cpu: Option<f64>,
    client_cpu: Option<f64>,
    server_rss: Option<u64>,
) -> fmt::Result {
    let pct = |p: Option<f64>| p.map_or("?".to_owned(), |p| format!("{p:.0} %"));
    let rss = server_rss.map_or("?".to_owned(), |k| format!("{:.1} MiB", k as f64 / 1024.0));
    writeln!(
        f,
        "  CPU (of one core): server {}, load generator {}; server memory {rss}",
        pct(server_cpu),
        pct(client_cpu)
    )
}

pub(crate) fn write_failures(
    f: &mut fmt::Formatter<'_>,
    errors: &BTreeMap<String, u64>,
    drops: &BTreeMap<String, u64>,
) -> fmt::Result {
    writeln!(
        f,
        "  errors: {}; dropped sockets: {}",
        tally_text(errors),
        tally_text(drops)
    )
}
