//! `crash`: every acknowledged move survives `kill -9`.
//!
//! `dames serve` is started on a temporary database and `games` games of each kind are played
//! flat out by scripted players. At a random moment — after a random number of acknowledged moves
//! plus a few random milliseconds — the server is killed with SIGKILL, then started again on the
//! same database. Then:
//! 1. every game's move list is read back over HTTP: every move ever acknowledged must be there,
//!    at its place (otherwise it is a **loss**);
//! 2. every player reconnects (with `since`) and resends its unacknowledged move, if any, by the
//!    same id; the acknowledgement must say `applied: false` exactly when the move was already
//!    on disk (at most once) — otherwise it is a **violation**;
//! 3. play goes on until the next kill. After the last one the players stop, and the move lists
//!    are checked once more.
//!
//! With `nodes` > 1 (`dames serve` given a shared PostgreSQL database and Redis in
//! `server_args`), the players are spread over the nodes, the two seats of a game on different
//! nodes; at each kill one node is killed (in turn), the players of the others stop, the dead
//! node is started again, and the check reads each game back from its host's node — often a
//! survivor, which must by then have caught up on what the dead node committed but never
//! published (the cluster's bound on a stale room, one second).
//!
//! With `self_test`, while the server is down after the first kill, the last acknowledged move of
//! one game is deleted from the database: the check must report exactly that loss. A run that
//! finds a loss stops there (exit code 3 from `dames loadtest`).

use std::collections::{BTreeMap, HashMap};
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
use crate::db;
use crate::error::{Error, Result};
use crate::player::{drive, Backoff, End, Link, Player, Style, ACK_WAIT};
use crate::rng::Rng;
use crate::server::{raise_fd_limit, ServerProcess, Spread};
use crate::setup::{self, SETUP_CONCURRENCY};
use crate::stats::{tally_text, Recorder};

/// How long a node of a cluster may serve a room older than the store once another node
/// acknowledged a change to it (docs/cluster.md; the server's `live::fanout::STALE_BOUND`).
const STALE_BOUND: Duration = Duration::from_secs(1);

/// How long one phase (between two kills) may last at most.
const PHASE_LIMIT: Duration = Duration::from_secs(60);

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The `dames` binary (run as `dames serve`).
    pub bin: PathBuf,
    /// More options for `dames serve`.
    pub server_args: Vec<String>,
    /// Games of each kind.
    pub games: usize,
    /// The kinds of game.
    pub kinds: Vec<GameKind>,
    /// How many times the server is killed.
    pub kills: usize,
    /// Acknowledged moves between two kills: at least…
    pub min_moves: u64,
    /// …and at most.
    pub max_moves: u64,
    /// Delete a committed move while the server is down; the run must report it (SQLite only).
    pub self_test: bool,
    /// How many nodes (1: one SQLite server).
    pub nodes: usize,
    /// How the players are spread over the nodes.
    pub spread: Spread,
    /// Seed of the kill moments and the players' choices (`None`: from the clock).
    pub seed: Option<u64>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bin: PathBuf::from("dames"),
            server_args: Vec::new(),
            games: 25,
            kinds: vec![GameKind::Cc, GameKind::Draughts],
            kills: 3,
            min_moves: 100,
            max_moves: 400,
            self_test: false,
            nodes: 1,
            spread: Spread::Seats,
            seed: None,
        }
    }
}

/// An acknowledged move missing from the server after a restart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Loss {
    /// The room.
    pub code: String,
    /// Its move number (0 = first).
    pub ply: usize,
    /// The seat that played it.
    pub seat: usize,
    /// The client move id.
    pub id: String,
    /// The move.
    pub mv: String,
    /// What the server has at that place instead, if anything.
    pub found: Option<String>,
}

/// The move deleted by the self-test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Planted {
    /// The room.
    pub code: String,
    /// Its move number.
    pub ply: usize,
    /// The client move id.
    pub id: String,
}

/// What a `crash` run found.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// The seed (kill moments, players' choices).
    pub seed: u64,
    /// Games by kind.
    pub games: BTreeMap<GameKind, usize>,
    /// Kills done.
    pub kills: usize,
    /// Acknowledged moves at each kill.
    pub acked_at_kills: Vec<u64>,
    /// Moves acknowledged in the whole run.
    pub moves_acked: u64,
    /// Checks of every game's move list (one per restart, and the final one).
    pub checks: usize,
    /// Moves on disk but never acknowledged, found at restarts (the kill came between commit and
    /// acknowledgement): allowed.
    pub committed_unacked: u64,
    /// Unacknowledged moves resent after a restart and applied then.
    pub resent_applied: u64,
    /// Unacknowledged moves resent after a restart that the server already had (`applied: false`).
    pub resent_known: u64,
    /// Games that ended during the run.
    pub games_finished: u64,
    /// Acknowledged moves missing after a restart.
    pub losses: Vec<Loss>,
    /// Broken "at most once" (a resent move applied twice, or acknowledged as known but absent).
    pub violations: Vec<String>,
    /// Error messages from the server, by code.
    pub errors: BTreeMap<String, u64>,
    /// Players that could not reconnect, lost their socket while the server was up, or were
    /// refused too often.
    pub players_failed: u64,
    /// Why, by reason.
    pub player_failures: BTreeMap<String, u64>,
    /// Self-test: the move deleted from the database.
    pub planted: Option<Planted>,
    /// Whole run, seconds.
    pub elapsed_s: f64,
}

impl Report {
    /// Losses and violations (and players that failed): 0 for a clean run.
    pub fn failures(&self) -> u64 {
        (self.losses.len() + self.violations.len()) as u64 + self.players_failed
    }

    /// Self-test: whether the planted loss, and nothing else, was reported.
    pub fn caught_planted_loss(&self) -> bool {
        match (&self.planted, self.losses.as_slice()) {
            (Some(p), [loss]) => (&loss.code, loss.ply, &loss.id) == (&p.code, p.ply, &p.id),
            _ => false,
        }
    }
}

/// Runs `crash`.
///
/// # Errors
/// The server could not be started or restarted, the games could not be set up or read back,
/// or (self-test) no move could be deleted.
pub async fn run(config: &Config) -> Result<Report> {
    if config.min_moves == 0 || config.max_moves < config.min_moves {
        return Err(Error::Usage("need 1 <= min_moves <= max_moves".into()));
    }
    if config.self_test && config.nodes > 1 {
        return Err(Error::Usage(
            "the self-test deletes from SQLite: one node".into(),
        ));
    }
    let _ = raise_fd_limit();
    let started = Instant::now();
    let seed = config.seed.unwrap_or_else(Rng::clock_seed);
    let mut rng = Rng::new(seed);
    let mut servers = (0..config.nodes.max(1))
        .map(|_| ServerProcess::spawn_fresh(&config.bin, &config.server_args))
        .collect::<Result<Vec<_>>>()?;
    let games = setup::new_games(&Api::new(&servers[0].base)?, &config.kinds, config.games).await?;
    let mut counts = BTreeMap::new();
    for (kind, _) in &games {
        *counts.entry(*kind).or_insert(0) += 1;
    }
    let rec = Arc::new(Recorder::default());
    let style = Style {
        pace: None,
        rematch: false,
        record: true,
    };
    let (links, mut players) = setup::players(games, &rec, style, &mut rng);
    let game_of: HashMap<String, usize> = links
        .iter()
        .enumerate()
        .map(|(k, link)| (link.host.code.clone(), k))
        .collect();
    let mut run = Run {
        report: Report {
            seed,
            games: counts,
            kills: 0,
            acked_at_kills: Vec::new(),
            moves_acked: 0,
            checks: 0,
            committed_unacked: 0,
            resent_applied: 0,
            resent_known: 0,
            games_finished: 0,
            losses: Vec::new(),
            violations: Vec::new(),
            errors: BTreeMap::new(),
            players_failed: 0,
            player_failures: BTreeMap::new(),
            planted: None,
            elapsed_s: 0.0,
        },
        rec: rec.clone(),
        killed_at: None,
    };
    for phase in 0..=config.kills {
        let last = phase == config.kills;
        let goal = rec.acked_total.load(Ordering::Relaxed)
            + rng.between(config.min_moves, config.max_moves);
        let victim = phase % servers.len();
        players = run
            .phase(
                players,
                goal,
                last,
                (&mut servers, config.spread),
                victim,
                &mut rng,
            )
            .await?;
        // Back in set-up order (they come back in the order they ended): each player keeps
        // its node from one phase to the next.
        players.sort_by_key(|p| (game_of[&p.key.code], p.key.seat));
        if last {
            break;
        }
        if config.self_test && phase == 0 {
            run.report.planted = Some(plant(&servers[0].db, &links, &mut rng)?);
        }
        servers[victim].restart()?;
        if servers.len() > 1 {
            // The survivors may serve the rooms the dead node changed last only after the
            // bound they promise (docs/cluster.md).
            let since_kill = run.killed_at.map_or(STALE_BOUND, |at| at.elapsed());
            tokio::time::sleep(STALE_BOUND.saturating_sub(since_kill)).await;
        }
        run.check(
            &apis(&servers, config.spread, links.len())?,
            &links,
            &mut players,
        )
        .await?;
        if !run.report.losses.is_empty() {
            break;
        }
    }
    if run.report.losses.is_empty() {
        run.check(
            &apis(&servers, config.spread, links.len())?,
            &links,
            &mut players,
        )
        .await?;
    }
    for server in &mut servers {
        server.stop()?;
    }
    let report = &mut run.report;
    report.moves_acked = rec.acked_total.load(Ordering::Relaxed);
    report.resent_applied = rec.resent_applied.load(Ordering::Relaxed);
    report.resent_known = rec.resent_known.load(Ordering::Relaxed);
    report.games_finished = rec.games_finished.load(Ordering::Relaxed);
    report.errors = rec.errors.snapshot();
    report.player_failures = rec.drops.snapshot();
    report.violations = rec
        .violations
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    report.elapsed_s = started.elapsed().as_secs_f64();
    if report.moves_acked == 0 {
        return Err(Error::Server(
            "no move was acknowledged: nothing was tested".into(),
        ));
    }
    Ok(run.report)
}

struct Run {
    report: Report,
    rec: Arc<Recorder>,
    /// When the last kill happened.
    killed_at: Option<Instant>,
}

impl Run {
    /// Plays until `goal` moves are acknowledged (or every game ended), then kills the server
    /// `victim` (and stops the players of the others) — or, for the last phase, stops the
    /// players. Returns the players.
    async fn phase(
        &mut self,
        players: Vec<Player>,
        goal: u64,
        last: bool,
        (servers, spread): (&mut [ServerProcess], Spread),
        victim: usize,
        rng: &mut Rng,
    ) -> Result<Vec<Player>> {
        // Counts games finished (seat 0 counts) whether or not a window is measured.
        self.rec.measuring.store(true, Ordering::Relaxed);
        let (stop, stopped) = watch::channel(false);
        let mut tasks = JoinSet::new();
        let mut parked = Vec::new();
        for (i, p) in players.into_iter().enumerate() {
            if p.finished && p.outstanding.is_none() {
                parked.push(p);
            } else {
                let base = servers[spread.node(i, servers.len())].base.clone();
                tasks.spawn(drive(p, base, stopped.clone(), 0, Backoff::Fixed));
            }
        }
        let deadline = Instant::now() + PHASE_LIMIT;
        while self.rec.acked_total.load(Ordering::Relaxed) < goal
            && !tasks.is_empty()
            && Instant::now() < deadline
        {
            // Players that ended (game over, or failed) are collected as they go.
            let joined = tokio::time::timeout(Duration::from_millis(2), tasks.join_next()).await;
            if let Ok(Some(joined)) = joined {
                parked.push(self.ended(joined, true)?);
            }
        }
        if last {
            let _ = stop.send(true);
        } else {
            tokio::time::sleep(Duration::from_millis(rng.below(20))).await;
            servers[victim].kill9()?;
            self.killed_at = Some(Instant::now());
            if servers.len() > 1 {
                // The players of the other nodes stop too: everyone is checked, then goes on.
                let _ = stop.send(true);
            }
            self.report.kills += 1;
            self.report
                .acked_at_kills
                .push(self.rec.acked_total.load(Ordering::Relaxed));
        }
        let limit = tokio::time::Instant::now() + ACK_WAIT + Duration::from_secs(10);
        while let Ok(Some(joined)) = tokio::time::timeout_at(limit, tasks.join_next()).await {
            parked.push(self.ended(joined, last)?);
        }
        if !tasks.is_empty() {
            return Err(Error::Timeout(format!(
                "{} players still running after the phase",
                tasks.len()
            )));
        }
        Ok(parked)
    }

    /// A player's end; a closed socket is a failure while the server is up (`server_up`).
    fn ended(
        &mut self,
        joined: Result<(Player, End), tokio::task::JoinError>,
        server_up: bool,
    ) -> Result<Player> {
        let (player, end) = joined.map_err(|e| Error::Server(format!("a player panicked: {e}")))?;
        let failure = match end {
            End::Failed(why) => Some(why),
            End::Closed(why) if server_up => Some(why),
            End::Closed(_) | End::Stopped | End::Done => None,
        };
        if let Some(why) = failure {
            self.report.players_failed += 1;
            self.rec.drops.add(&why);
        }
        Ok(player)
    }

    /// Reads every game back: every acknowledged move must be there. Tells each player with an
    /// unacknowledged move what its acknowledgement must say.
    async fn check(
        &mut self,
        apis: &[Api],
        links: &[Arc<Link>],
        players: &mut [Player],
    ) -> Result<()> {
        self.report.checks += 1;
        let records: HashMap<String, GameRecord> = stream::iter(links.iter().enumerate())
            .map(|(k, link)| async move {
                let record = apis[k].record(&link.host).await?;
                Ok::<_, Error>((link.host.code.clone(), record))
            })
            .buffer_unordered(SETUP_CONCURRENCY)
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .collect::<Result<_>>()?;
        for link in links {
            let record = &records[&link.host.code];
            self.report
                .losses
                .extend(losses(&link.host.code, &link.acked(), record));
        }
        for p in players.iter_mut() {
            let Some(o) = p.outstanding.as_mut() else {
                continue;
            };
            let on_disk = records[&p.key.code]
                .moves
                .get(o.ply)
                .is_some_and(|(seat, mv)| *seat == p.key.seat && mv.same_as(&o.mv));
            self.report.committed_unacked += u64::from(on_disk);
            o.expect_applied = Some(!on_disk);
        }
        Ok(())
    }
}

/// The acknowledged moves of a game (by move number) that `record` does not have.
pub(crate) fn losses(
    code: &str,
    acked: &BTreeMap<usize, crate::player::Played>,
    record: &GameRecord,
) -> Vec<Loss> {
    acked
        .iter()
        .filter_map(|(&ply, played)| {
            let found = record.moves.get(ply);
            let present =
                found.is_some_and(|(seat, mv)| *seat == played.seat && mv.same_as(&played.mv));
            (!present).then(|| Loss {
                code: code.to_owned(),
                ply,
                seat: played.seat,
                id: played.id.clone(),
                mv: played.mv.to_string(),
                found: found.map(|(seat, mv)| format!("seat {seat}: {mv}")),
            })
        })
        .collect()
}

/// For each game (in set-up order), the node it is read back from: the node its host plays on.
/// With `--spread seats` after a kill that is often a survivor, which must have caught up on
/// what the dead node committed but never published (no stale room past [`STALE_BOUND`]).
fn apis(servers: &[ServerProcess], spread: Spread, games: usize) -> Result<Vec<Api>> {
    let nodes = servers
        .iter()
        .map(|s| Api::new(&s.base))
        .collect::<Result<Vec<_>>>()?;
    Ok((0..games)
        .map(|k| nodes[spread.node(2 * k, servers.len())].clone())
        .collect())
}

/// Self-test: deletes the last acknowledged move of a random game whose last action it is.
fn plant(db: &std::path::Path, links: &[Arc<Link>], rng: &mut Rng) -> Result<Planted> {
    let mut order: Vec<&Arc<Link>> = links.iter().collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    for link in order {
        let acked = link.acked();
        let Some((&ply, played)) = acked.iter().next_back() else {
            continue;
        };
        if db::delete_last_move(db, &link.host.code, &played.id)? {
            return Ok(Planted {
                code: link.host.code.clone(),
                ply,
                id: played.id.clone(),
            });
        }
    }
    Err(Error::Server(
        "self-test: no game's last action is an acknowledged move: nothing to delete".into(),
    ))
}

/// The lines of a report on lost moves and moves applied twice (crash and faults runs).
pub(crate) fn write_checks(
    f: &mut fmt::Formatter<'_>,
    losses: &[Loss],
    violations: &[String],
) -> fmt::Result {
    writeln!(f, "  lost acknowledged moves: {}", losses.len())?;
    for loss in losses {
        writeln!(
            f,
            "    LOST room {} move {} seat {} id {}: {} (server has {})",
            loss.code,
            loss.ply,
            loss.seat,
            loss.id,
            loss.mv,
            loss.found.as_deref().unwrap_or("nothing")
        )?;
    }
    writeln!(f, "  at-most-once violations: {}", violations.len())?;
    for v in violations {
        writeln!(f, "    {v}")?;
    }
    Ok(())
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
            "crash: {} games, seed {}, {:.1} s",
            games.join(" + "),
            self.seed,
            self.elapsed_s
        )?;
        writeln!(
            f,
            "  kill -9 ×{} (at {:?} acknowledged moves); {} moves acknowledged; {} games finished",
            self.kills, self.acked_at_kills, self.moves_acked, self.games_finished
        )?;
        writeln!(
            f,
            "  checks: {}; on disk but unacknowledged at a kill: {}; resent and applied: {}; resent, already there: {}",
            self.checks, self.committed_unacked, self.resent_applied, self.resent_known
        )?;
        if let Some(p) = &self.planted {
            writeln!(
                f,
                "  self-test: deleted room {} move {} (id {}) from the database",
                p.code, p.ply, p.id
            )?;
        }
        write_checks(f, &self.losses, &self.violations)?;
        writeln!(
            f,
            "  errors: {}; players failed: {} ({})",
            tally_text(&self.errors),
            self.players_failed,
            tally_text(&self.player_failures)
        )?;
        if self.planted.is_some() {
            let verdict = if self.caught_planted_loss() {
                "the planted loss was reported"
            } else {
                "FAILED: the planted loss was not reported alone"
            };
            writeln!(f, "  self-test: {verdict}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Played;
    use crate::protocol::LegalMove;

    fn mv(n: &str) -> LegalMove {
        LegalMove {
            notation: Some(n.into()),
            ..LegalMove::default()
        }
    }

    fn played(seat: usize, id: &str, n: &str) -> Played {
        Played {
            seat,
            id: id.into(),
            mv: mv(n),
        }
    }

    #[test]
    fn a_missing_or_different_acknowledged_move_is_a_loss_and_extra_moves_are_not() {
        let acked = BTreeMap::from([
            (0, played(0, "m0-1", "32-28")),
            (1, played(1, "m1-1", "19-23")),
            (2, played(0, "m0-2", "28x19")),
        ]);
        let record = |moves: &[(usize, &str)]| GameRecord {
            moves: moves.iter().map(|&(s, n)| (s, mv(n))).collect(),
            ..GameRecord::default()
        };
        let full = record(&[(0, "32-28"), (1, "19-23"), (0, "28x19"), (1, "14x23")]);
        assert!(losses("K7M2QX", &acked, &full).is_empty());
        let short = record(&[(0, "32-28"), (1, "19-23")]);
        let lost = losses("K7M2QX", &acked, &short);
        assert_eq!(
            lost,
            vec![Loss {
                code: "K7M2QX".into(),
                ply: 2,
                seat: 0,
                id: "m0-2".into(),
                mv: "28x19".into(),
                found: None
            }]
        );
        let changed = record(&[(0, "32-28"), (1, "18-22"), (0, "28x19")]);
        let lost = losses("K7M2QX", &acked, &changed);
        assert_eq!((lost.len(), lost[0].ply), (1, 1));
        assert_eq!(lost[0].found.as_deref(), Some("seat 1: 18-22"));
    }

    #[test]
    fn the_self_test_verdict_needs_the_planted_loss_alone() {
        let loss = |ply| Loss {
            code: "K7M2QX".into(),
            ply,
            seat: 0,
            id: format!("m0-{ply}"),
            mv: "32-28".into(),
            found: None,
        };
        let mut report = Report {
            seed: 1,
            games: BTreeMap::new(),
            kills: 1,
            acked_at_kills: vec![10],
            moves_acked: 10,
            checks: 1,
            committed_unacked: 0,
            resent_applied: 0,
            resent_known: 0,
            games_finished: 0,
            losses: vec![loss(4)],
            violations: Vec::new(),
            errors: BTreeMap::new(),
            players_failed: 0,
            player_failures: BTreeMap::new(),
            planted: Some(Planted {
                code: "K7M2QX".into(),
                ply: 4,
                id: "m0-4".into(),
            }),
            elapsed_s: 1.0,
        };
        assert!(report.caught_planted_loss());
        assert_eq!(report.failures(), 1);
        report.losses.push(loss(6));
        assert!(!report.caught_planted_loss());
        report.losses.clear();
        assert!(!report.caught_planted_loss());
        assert_eq!(report.failures(), 0);
    }
}
