//! `faults`: the services under the nodes broken for real while games are played, then
//! repaired; every acknowledged move must survive, none may be applied twice, the players must
//! get an answer (an acknowledgement, or a typed error they retry by the same id) rather than a
//! hang, and play must resume by itself once the fault ends.
//!
//! The run starts what it breaks, so that it breaks nothing of anyone else's
//! ([`crate::infra`]):
//! - `redis-restart`: two nodes on a PostgreSQL cluster and a Redis of the run's own; Redis is
//!   killed (`kill -9`: every key and subscription gone) and started again after `down`.
//! - `postgres-restart`: the same two nodes; PostgreSQL is crashed (`pg_ctl stop -m
//!   immediate`) and started again after `down` (it replays its log).
//! - `redis-cut`: the same, but node 0 reaches Redis through a proxy that cuts the link like a
//!   network partition (silence, not a refusal), while PostgreSQL stays reachable.
//! - `disk-full`: one node on SQLite in a small `tmpfs` (root only), filled to the last byte,
//!   then freed after `down`.
//! - `rolling-restart`: three nodes (PostgreSQL, Redis) behind nginx with the deployment's
//!   configuration ([`crate::infra::Nginx`]), every player connected through nginx; the nodes
//!   are stopped cleanly (SIGTERM: they drain, telling their sockets to reconnect) and started
//!   again on the same address one after the other, `down` apart once each is back: a deploy.
//!
//! The players (two per game, the seats of a game on different nodes when there are two, or
//! wherever nginx sends them) play at `pace` throughout. A move answered with a transient error (`internal`, `timeout`,
//! `overloaded`) is sent again by the same id a quarter of a second later; a dropped socket is
//! reopened. When the fault ends the run measures how long until every game still being played
//! has moved again (**time to recover**), plays on for `after`, stops the players, and reads
//! every game back from node 0: an acknowledged move missing or different is a **loss**. Each
//! reconnection is timed, from the socket's loss to the room's state on the new one. A player
//! waits a tenth of a second before it connects again; behind nginx (`rolling-restart`) it waits
//! as the page does (50–300 ms after a node's « restarting » close, then backing off).

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{stream, StreamExt};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::api::{Api, GameKind, GameRecord};
use crate::crash::{losses, write_checks, Loss};
use crate::error::{Error, Result};
use crate::infra::{Nginx, Postgres, Proxy, Redis, SmallDisk};
use crate::player::{drive, Backoff, End, Player, Style, ACK_WAIT};
use crate::rng::Rng;
use crate::server::{raise_fd_limit, ServerProcess, Spread};
use crate::setup::{self, SETUP_CONCURRENCY};
use crate::stats::{tally_text, write_latency, Percentiles, Recorder};

/// Reopened sockets a player may need in one run.
const RECONNECTS: u32 = 300;
/// How long the run waits for the moves it asks for before the fault, and for recovery after.
const WAIT_LIMIT: Duration = Duration::from_secs(30);
/// The size of the `disk-full` file system.
const SMALL_DISK: u64 = 8 * 1024 * 1024;

/// What to break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fault {
    /// Redis killed, then started again (two nodes).
    RedisRestart,
    /// PostgreSQL crashed, then started again (two nodes).
    PostgresRestart,
    /// Node 0 cut off from Redis, not from PostgreSQL (two nodes).
    RedisCut,
    /// The SQLite database's file system full (one node; root).
    DiskFull,
    /// Three nodes behind nginx stopped and started again one after the other (a deploy).
    RollingRestart,
}

impl Fault {
    /// Every fault, in the order of docs/cluster.md's table.
    pub const ALL: [Fault; 5] = [
        Fault::RedisRestart,
        Fault::PostgresRestart,
        Fault::RedisCut,
        Fault::DiskFull,
        Fault::RollingRestart,
    ];

    /// Its name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Fault::RedisRestart => "redis-restart",
            Fault::PostgresRestart => "postgres-restart",
            Fault::RedisCut => "redis-cut",
            Fault::DiskFull => "disk-full",
            Fault::RollingRestart => "rolling-restart",
        }
    }

    /// The fault named `name`.
    ///
    /// # Errors
    /// An unknown name.
    pub fn from_name(name: &str) -> Result<Fault> {
        Fault::ALL
            .into_iter()
            .find(|f| f.as_str() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Fault::ALL.iter().map(|f| f.as_str()).collect();
                Error::Usage(format!(
                    "unknown fault {name:?} (one of {})",
                    names.join(", ")
                ))
            })
    }

    fn nodes(self) -> usize {
        match self {
            Fault::DiskFull => 1,
            Fault::RollingRestart => 3,
            _ => 2,
        }
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The `dames` binary (run as `dames serve`).
    pub bin: PathBuf,
    /// More options for `dames serve`.
    pub server_args: Vec<String>,
    /// What to break.
    pub fault: Fault,
    /// Games of each kind.
    pub games: usize,
    /// The kinds of game.
    pub kinds: Vec<GameKind>,
    /// One move every this long in each game.
    pub pace: Duration,
    /// Acknowledged moves before the fault.
    pub before: u64,
    /// How long the fault lasts (`rolling-restart`: the pause between a node back and the
    /// next one stopped).
    pub down: Duration,
    /// How long play goes on after recovery before the check.
    pub after: Duration,
    /// Seed of the players' choices (`None`: from the clock).
    pub seed: Option<u64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bin: PathBuf::from("dames"),
            server_args: Vec::new(),
            fault: Fault::RedisRestart,
            games: 10,
            kinds: vec![GameKind::Cc, GameKind::Draughts],
            pace: Duration::from_millis(150),
            before: 100,
            down: Duration::from_secs(3),
            after: Duration::from_secs(2),
            seed: None,
        }
    }
}

/// What a run found.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// The fault.
    pub fault: Fault,
    /// Seed of the run.
    pub seed: u64,
    /// Nodes.
    pub nodes: usize,
    /// Games of each kind.
    pub games: BTreeMap<GameKind, usize>,
    /// How long the fault lasted (s); `rolling-restart`: from the first node stopped to the
    /// last one back.
    pub down_s: f64,
    /// Moves acknowledged before the fault, during it, and after it.
    pub moves_before: u64,
    /// See `moves_before`.
    pub moves_during: u64,
    /// See `moves_before`.
    pub moves_after: u64,
    /// Games still being played when the fault ended.
    pub games_live: usize,
    /// Of those, the games that moved again (or finished) within 30 s.
    pub games_recovered: usize,
    /// From the end of the fault until every live game had moved again (ms); `None`: some
    /// never did.
    pub recovery_ms: Option<f64>,
    /// Moves on disk whose acknowledgement was lost (sent again and answered `applied: false`).
    pub resent_known: u64,
    /// Moves sent again and applied then.
    pub resent_applied: u64,
    /// Acknowledged moves the database does not have.
    pub losses: Vec<Loss>,
    /// Moves applied twice (a resent move acknowledged as applied when it already was).
    pub violations: Vec<String>,
    /// Error codes the players received, with counts.
    pub errors: BTreeMap<String, u64>,
    /// Sockets opened again after one was lost.
    pub reconnections: u64,
    /// From a lost socket to the room's state on the next one.
    pub reconnect: Option<Percentiles>,
    /// Players that gave up (refused too often, or no socket for 30 s).
    pub players_failed: u64,
    /// Why, with counts.
    pub player_failures: BTreeMap<String, u64>,
    /// Wall-clock time of the run (s).
    pub elapsed_s: f64,
}

impl Report {
    /// Lost moves, moves applied twice, failed players and games that never recovered.
    pub fn failures(&self) -> u64 {
        self.losses.len() as u64
            + self.violations.len() as u64
            + self.players_failed
            + (self.games_live - self.games_recovered) as u64
    }
}

/// The services of a run, kept alive until its end.
struct Services {
    redis: Option<Redis>,
    postgres: Option<Postgres>,
    proxy: Option<Proxy>,
    disk: Option<SmallDisk>,
    /// In front of the nodes (`rolling-restart`), started once they are.
    nginx: Option<Nginx>,
}

impl Services {
    async fn start(fault: Fault) -> Result<Services> {
        if fault == Fault::DiskFull {
            return Ok(Services {
                redis: None,
                postgres: None,
                proxy: None,
                disk: Some(SmallDisk::mount(SMALL_DISK)?),
                nginx: None,
            });
        }
        let redis = Redis::start()?;
        let proxy = if fault == Fault::RedisCut {
            Some(Proxy::start(redis.port()).await?)
        } else {
            None
        };
        Ok(Services {
            postgres: Some(Postgres::start()?),
            redis: Some(redis),
            proxy,
            disk: None,
            nginx: None,
        })
    }

    /// The `dames serve` options of node `i`.
    fn node_args(&self, i: usize, extra: &[String]) -> Vec<String> {
        let mut args = extra.to_vec();
        if let (Some(pg), Some(redis)) = (&self.postgres, &self.redis) {
            let redis_url = match (&self.proxy, i) {
                (Some(proxy), 0) => format!("redis://127.0.0.1:{}", proxy.port()),
                _ => redis.url(),
            };
            args.extend(["--database".into(), pg.url(), "--redis".into(), redis_url]);
        }
        args
    }

    fn spawn_nodes(&self, config: &Config) -> Result<Vec<ServerProcess>> {
        (0..config.fault.nodes())
            .map(|i| {
                let mut args = self.node_args(i, &config.server_args);
                match &self.disk {
                    Some(disk) => {
                        ServerProcess::spawn(&config.bin, &disk.path().join("dames.db"), &args)
                    }
                    None if config.fault == Fault::RollingRestart => {
                        // Behind nginx, on addresses of their own that a restart keeps.
                        args.extend(["--trusted-proxy".into(), "127.0.0.1".into()]);
                        let addr = format!("127.0.0.1:{}", crate::infra::free_port()?);
                        ServerProcess::spawn_fresh_at(&config.bin, &addr, &args)
                    }
                    None => ServerProcess::spawn_fresh(&config.bin, &args),
                }
            })
            .collect()
    }

    fn break_it(&mut self, fault: Fault) -> Result<()> {
        match fault {
            Fault::RedisRestart => self.redis.as_mut().map_or(Ok(()), Redis::kill9),
            Fault::PostgresRestart => self.postgres.as_mut().map_or(Ok(()), Postgres::crash),
            Fault::RedisCut => {
                if let Some(p) = &self.proxy {
                    p.cut();
                }
                Ok(())
            }
            Fault::DiskFull => self.disk.as_ref().map_or(Ok(()), |d| d.fill().map(drop)),
            Fault::RollingRestart => Ok(()), // nodes, not services: see `roll`
        }
    }

    fn repair(&mut self, fault: Fault) -> Result<()> {
        match fault {
            Fault::RedisRestart => self.redis.as_mut().map_or(Ok(()), Redis::restart),
            Fault::PostgresRestart => self.postgres.as_mut().map_or(Ok(()), Postgres::restart),
            Fault::RedisCut => {
                if let Some(p) = &self.proxy {
                    p.heal();
                }
                Ok(())
            }
            Fault::DiskFull => self.disk.as_ref().map_or(Ok(()), SmallDisk::free),
            Fault::RollingRestart => Ok(()),
        }
    }
}

/// Stops each node cleanly and starts it again on its address, one after the other, `pause`
/// apart once each is back (what a deploy does).
///
/// # Errors
/// A node did not stop cleanly within its drain, or did not start again.
async fn roll(nodes: Vec<ServerProcess>, pause: Duration) -> Result<Vec<ServerProcess>> {
    let mut done = Vec::with_capacity(nodes.len());
    for (i, node) in nodes.into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(pause).await;
        }
        let node = tokio::task::spawn_blocking(move || {
            let mut node = node;
            node.stop()?;
            node.restart()?;
            Ok::<_, Error>(node)
        })
        .await
        .map_err(|e| Error::Server(format!("the restart of node {i} panicked: {e}")))??;
        done.push(node);
    }
    Ok(done)
}

/// Runs `faults`.
///
/// # Errors
/// A service or a node could not be started, the games could not be set up or read back, or
/// no move was acknowledged before the fault.
pub async fn run(config: &Config) -> Result<Report> {
    let _ = raise_fd_limit();
    let started = Instant::now();
    let seed = config.seed.unwrap_or_else(Rng::clock_seed);
    let mut rng = Rng::new(seed);
    let mut services = Services::start(config.fault).await?;
    let mut nodes = services.spawn_nodes(config)?;
    let mut bases: Vec<String> = nodes.iter().map(|n| n.base.clone()).collect();
    if config.fault == Fault::RollingRestart {
        let addrs: Vec<&str> = bases
            .iter()
            .map(|b| b.trim_start_matches("http://"))
            .collect();
        let nginx = Nginx::start(&addrs, 2 * config.games * config.kinds.len())?;
        // Every player goes through nginx, as browsers do.
        bases = vec![nginx.base()];
        services.nginx = Some(nginx);
    }
    let games = setup::new_games(&Api::new(&bases[0])?, &config.kinds, config.games).await?;
    let mut counts = BTreeMap::new();
    for (kind, _) in &games {
        *counts.entry(*kind).or_insert(0) += 1;
    }
    let rec = Arc::new(Recorder::default());
    rec.measuring.store(true, Ordering::Relaxed);
    let style = Style {
        pace: Some(config.pace),
        rematch: false,
        record: true,
    };
    let (links, players) = setup::players(games, &rec, style, &mut rng);
    let (stop, stopped) = watch::channel(false);
    let mut tasks = JoinSet::new();
    // Behind nginx the players come back as pages do: their pace is part of what a deploy costs.
    let backoff = if config.fault == Fault::RollingRestart {
        Backoff::Page
    } else {
        Backoff::Fixed
    };
    for (i, p) in players.into_iter().enumerate() {
        let base = bases[Spread::Seats.node(i, bases.len())].clone();
        tasks.spawn(drive(p, base, stopped.clone(), RECONNECTS, backoff));
    }
    let acked = || rec.acked_total.load(Ordering::Relaxed);

    // Before: play until `before` moves are acknowledged.
    let deadline = Instant::now() + WAIT_LIMIT;
    while acked() < config.before && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let moves_before = acked();
    if moves_before == 0 {
        return Err(Error::Server(
            "no move acknowledged before the fault".into(),
        ));
    }

    // The fault.
    let broke_at = Instant::now();
    if config.fault == Fault::RollingRestart {
        nodes = roll(nodes, config.down).await?;
    } else {
        services.break_it(config.fault)?;
        tokio::time::sleep(config.down).await;
        services.repair(config.fault)?;
    }
    let healed_at = Instant::now();
    let moves_during = acked() - moves_before;

    // Recovery: every game still being played moves again.
    let at_heal: Vec<(usize, bool)> = links
        .iter()
        .map(|l| (l.acked_len(), l.finished()))
        .collect();
    let live: Vec<usize> = (0..links.len()).filter(|&k| !at_heal[k].1).collect();
    let mut waiting: Vec<usize> = live.clone();
    let deadline = healed_at + WAIT_LIMIT;
    while !waiting.is_empty() && Instant::now() < deadline {
        waiting.retain(|&k| links[k].acked_len() == at_heal[k].0 && !links[k].finished());
        if !waiting.is_empty() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    let recovery_ms = waiting
        .is_empty()
        .then(|| healed_at.elapsed().as_secs_f64() * 1000.0);
    let games_recovered = live.len() - waiting.len();
    tokio::time::sleep(config.after).await;

    // Stop and collect the players.
    let _ = stop.send(true);
    let mut players_failed = 0;
    let limit = tokio::time::Instant::now() + ACK_WAIT + Duration::from_secs(10);
    while let Ok(Some(joined)) = tokio::time::timeout_at(limit, tasks.join_next()).await {
        let (_player, end): (Player, End) =
            joined.map_err(|e| Error::Server(format!("a player panicked: {e}")))?;
        if let End::Failed(why) | End::Closed(why) = end {
            players_failed += 1;
            rec.drops.add(&why);
        }
    }
    if !tasks.is_empty() {
        return Err(Error::Timeout(format!(
            "{} players still running after the run",
            tasks.len()
        )));
    }

    // Read every game back from node 0.
    let api = Api::new(&bases[0])?;
    let records: Vec<GameRecord> = stream::iter(links.iter())
        .map(|link| api.record(&link.host))
        .buffered(SETUP_CONCURRENCY)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<Result<_>>()?;
    let mut found = Vec::new();
    for (link, record) in links.iter().zip(&records) {
        found.extend(losses(&link.host.code, &link.acked(), record));
    }
    for node in &mut nodes {
        node.stop()?;
    }
    drop(services);
    let violations = rec
        .violations
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    Ok(Report {
        fault: config.fault,
        seed,
        nodes: nodes.len(),
        games: counts,
        down_s: healed_at.duration_since(broke_at).as_secs_f64(),
        moves_before,
        moves_during,
        moves_after: acked() - moves_before - moves_during,
        games_live: live.len(),
        games_recovered,
        recovery_ms,
        resent_known: rec.resent_known.load(Ordering::Relaxed),
        resent_applied: rec.resent_applied.load(Ordering::Relaxed),
        losses: found,
        violations,
        errors: rec.errors.snapshot(),
        reconnections: rec.reconnections.load(Ordering::Relaxed),
        reconnect: Recorder::percentiles(&rec.reconnect),
        players_failed,
        player_failures: rec.drops.snapshot(),
        elapsed_s: started.elapsed().as_secs_f64(),
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let games: Vec<String> = self
            .games
            .iter()
            .map(|(k, n)| format!("{n} {}", k.as_str()))
            .collect();
        writeln!(
            f,
            "faults: {} for {:.1} s, {} node(s), {} games, seed {}, {:.1} s",
            self.fault.as_str(),
            self.down_s,
            self.nodes,
            games.join(" + "),
            self.seed,
            self.elapsed_s
        )?;
        writeln!(
            f,
            "  acknowledged moves: {} before, {} during, {} after",
            self.moves_before, self.moves_during, self.moves_after
        )?;
        let recovery = self
            .recovery_ms
            .map_or_else(|| "NEVER".to_owned(), |ms| format!("{ms:.0} ms"));
        writeln!(
            f,
            "  recovery: {} of {} games moved again; time to recover {recovery}",
            self.games_recovered, self.games_live
        )?;
        writeln!(
            f,
            "  resent after an error or a dropped socket: {} already on disk, {} applied then",
            self.resent_known, self.resent_applied
        )?;
        write_checks(f, &self.losses, &self.violations)?;
        write_latency(
            f,
            &format!("{} reconnections, lost socket → state", self.reconnections),
            self.reconnect.as_ref(),
        )?;
        writeln!(
            f,
            "  errors: {}; players failed: {} ({})",
            tally_text(&self.errors),
            self.players_failed,
            tally_text(&self.player_failures)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fault_is_named_and_found_by_its_name() {
        for fault in Fault::ALL {
            assert_eq!(Fault::from_name(fault.as_str()).unwrap(), fault);
            assert_eq!(
                serde_json::to_value(fault).unwrap(),
                serde_json::json!(fault.as_str())
            );
        }
        assert!(Fault::from_name("power-cut").is_err());
    }

    #[test]
    fn a_game_that_never_moved_again_is_a_failure() {
        let report = Report {
            fault: Fault::RedisCut,
            seed: 1,
            nodes: 2,
            games: BTreeMap::new(),
            down_s: 3.0,
            moves_before: 100,
            moves_during: 20,
            moves_after: 80,
            games_live: 10,
            games_recovered: 9,
            recovery_ms: None,
            resent_known: 0,
            resent_applied: 0,
            losses: Vec::new(),
            violations: Vec::new(),
            errors: BTreeMap::new(),
            reconnections: 0,
            reconnect: None,
            players_failed: 0,
            player_failures: BTreeMap::new(),
            elapsed_s: 10.0,
        };
        assert_eq!(report.failures(), 1);
        assert!(report.to_string().contains("time to recover NEVER"));
    }
}
