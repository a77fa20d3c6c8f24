//! `dames loadtest …`: the load generator (crates/loadtest) on the command line. By default each
//! run spawns `dames serve --no-rate-limits` (this binary, or `--server-bin`) on a temporary
//! database and stops it at the end; `--url` (loopback only) points it at a running server
//! instead, and `--pid` lets it read that server's memory and CPU time. `--runs N` repeats the
//! run (a fresh server each time when spawned) and adds the median of every figure.
//! docs/performance.md has the commands and the figures.
//!
//! Exit codes: 0, clean runs; 1, a run could not be made (the server did not start, the set-up
//! was refused, bad options); 3, a run found failures (errors, dropped or dead sockets, lost or
//! doubly applied moves). `crash --self-test` must find its planted loss: 3 when it is reported,
//! 4 when it is not.

use std::future::Future;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use dames_loadtest::{
    connections, crash, faults, pair, play, reconnect, GameKind, RunReport, Spread, Target,
};

use crate::serve::parse_duration;

/// The runs.
#[derive(clap::Subcommand)]
pub enum Command {
    /// N WebSockets held T seconds: how many open and stay alive, server memory per socket.
    Connections {
        #[command(flatten)]
        common: Common,
        /// Sockets to open.
        #[arg(long, default_value_t = 1000)]
        sockets: usize,
        /// Rooms they are spread over.
        #[arg(long, default_value_t = 100)]
        rooms: usize,
        /// How long to hold them open.
        #[arg(long, default_value = "10s", value_parser = parse_duration)]
        hold: Duration,
        /// Handshakes in flight at once.
        #[arg(long, default_value_t = 200)]
        concurrency: usize,
    },
    /// G concurrent 2-player games of each kind: committed moves/s, send→ack, send→opponent.
    Play {
        #[command(flatten)]
        common: Common,
        /// Games of each kind.
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// Kinds of game, comma-separated: cc, draughts.
        #[arg(long, default_value = "cc,draughts")]
        kinds: String,
        /// How long to measure.
        #[arg(long, default_value = "20s", value_parser = parse_duration)]
        duration: Duration,
        /// Play this long before measuring.
        #[arg(long, default_value = "2s", value_parser = parse_duration)]
        warmup: Duration,
        /// One move every this long in each game (default: flat out).
        #[arg(long, value_parser = parse_duration)]
        pace: Option<Duration>,
        /// Seed of the players' choices.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Seated players connecting and disconnecting in a loop: connections/s.
    Reconnect {
        #[command(flatten)]
        common: Common,
        /// Started games (two clients each).
        #[arg(long, default_value_t = 50)]
        games: usize,
        /// Kind of game: cc or draughts.
        #[arg(long, default_value = "draughts")]
        kind: String,
        /// How long.
        #[arg(long, default_value = "10s", value_parser = parse_duration)]
        duration: Duration,
    },
    /// N browsers seeking games in random pools over T seconds (some cancelling): time to
    /// pair, double pairings, lost seekers.
    Pair {
        #[command(flatten)]
        common: Common,
        /// Browsers seeking.
        #[arg(long, default_value_t = 1000)]
        seekers: usize,
        /// Over how long they come.
        #[arg(long, default_value = "10s", value_parser = parse_duration)]
        over: Duration,
        /// Of every 100 seekers, how many cancel a moment after seeking.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=100))]
        cancel_percent: u32,
        /// How long to wait after the last seeker for the last matches.
        #[arg(long, default_value = "3s", value_parser = parse_duration)]
        settle: Duration,
        /// Seed of the pools chosen.
        #[arg(long, default_value_t = 20)]
        seed: u64,
    },
    /// Play, kill -9 the server at random moments, restart it, check every acknowledged move.
    Crash {
        #[command(flatten)]
        common: Common,
        /// Games of each kind.
        #[arg(long, default_value_t = 25)]
        games: usize,
        /// Kinds of game, comma-separated: cc, draughts.
        #[arg(long, default_value = "cc,draughts")]
        kinds: String,
        /// How many times to kill the server.
        #[arg(long, default_value_t = 3)]
        kills: usize,
        /// Acknowledged moves between two kills: at least…
        #[arg(long, default_value_t = 100)]
        min_moves: u64,
        /// …and at most.
        #[arg(long, default_value_t = 400)]
        max_moves: u64,
        /// Delete a committed move while the server is down: the run must report the loss.
        #[arg(long)]
        self_test: bool,
        /// Seed of the kill moments and the players' choices.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Play while Redis or PostgreSQL restarts, a node is cut off from Redis, the disk is full,
    /// or three nodes behind nginx restart in turn (services the run starts itself): nothing
    /// lost or doubled, play resumes by itself.
    Faults {
        #[command(flatten)]
        common: Common,
        /// What to break: redis-restart, postgres-restart, redis-cut, disk-full (root),
        /// rolling-restart (nginx), or all.
        #[arg(long, default_value = "all")]
        fault: String,
        /// Games of each kind.
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// Kinds of game, comma-separated: cc, draughts.
        #[arg(long, default_value = "cc,draughts")]
        kinds: String,
        /// One move every this long in each game.
        #[arg(long, default_value = "150ms", value_parser = parse_duration)]
        pace: Duration,
        /// Acknowledged moves before the fault.
        #[arg(long, default_value_t = 100)]
        before: u64,
        /// How long the fault lasts (rolling-restart: the pause between a node back and the next
        /// one stopped).
        #[arg(long, default_value = "3s", value_parser = parse_duration)]
        down: Duration,
        /// How long play goes on after recovery before every game is read back.
        #[arg(long, default_value = "2s", value_parser = parse_duration)]
        after: Duration,
        /// Seed of the players' choices.
        #[arg(long)]
        seed: Option<u64>,
    },
}

/// Which server, how many runs, and how to print.
#[derive(clap::Args)]
pub struct Common {
    /// A running server (loopback only, started with --no-rate-limits). Default: spawn
    /// `dames serve` on a temporary database for each run.
    #[arg(long)]
    url: Option<String>,
    /// The running server's process id, to read its memory and CPU time.
    #[arg(long, requires = "url")]
    pid: Option<u32>,
    /// The binary to spawn as `… serve` (default: this one), e.g. an older build to compare.
    #[arg(long, conflicts_with = "url")]
    server_bin: Option<PathBuf>,
    /// An option for the spawned `dames serve` (repeatable: --server-arg=--cpu-workers=2).
    #[arg(
        long = "server-arg",
        allow_hyphen_values = true,
        conflicts_with = "url"
    )]
    server_args: Vec<String>,
    /// Spawn this many nodes (with --database and --redis: a cluster; the clients are spread
    /// over the nodes round-robin, the two seats of a game on different nodes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=16), conflicts_with = "url")]
    nodes: u64,
    /// A PostgreSQL database for the spawned nodes (`postgres://…`, made with `createdb`),
    /// instead of a temporary SQLite file per run.
    #[arg(long, conflicts_with = "url")]
    database: Option<String>,
    /// With several nodes: the two seats of a game on one node (`rooms`) rather than on two
    /// (`seats`, the default: each move crosses between nodes).
    #[arg(long, default_value = "seats", value_parser = ["seats", "rooms"])]
    spread: String,
    /// The Redis of the spawned nodes (requires --database); each run gets a key prefix of its own.
    #[arg(long, requires = "database")]
    redis: Option<String>,
    /// Run this many times; with more than one, the median of every figure follows.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=25))]
    runs: u32,
    /// Print JSON: the report (one run) or {"runs": [...], "median": ...}.
    #[arg(long)]
    json: bool,
}

impl Common {
    fn target(&self) -> anyhow::Result<Target> {
        Ok(match &self.url {
            Some(url) => Target::running(url, self.pid)?,
            None => Target::Spawn {
                bin: self.server_bin()?,
                args: self.spawn_args(),
                nodes: self.nodes as usize,
                spread: self.spread(),
            },
        })
    }

    fn spread(&self) -> Spread {
        if self.spread == "rooms" {
            Spread::Rooms
        } else {
            Spread::Seats
        }
    }

    /// The options of the spawned `dames serve`: --server-arg, the database and Redis.
    fn spawn_args(&self) -> Vec<String> {
        let mut args = self.server_args.clone();
        if let Some(url) = &self.database {
            args.extend(["--database".to_owned(), url.clone()]);
        }
        if let Some(url) = &self.redis {
            let stamp = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            let prefix = format!("dames-loadtest:{stamp:x}:");
            args.extend([
                "--redis".to_owned(),
                url.clone(),
                "--redis-prefix".to_owned(),
                prefix,
            ]);
        }
        args
    }

    fn server_bin(&self) -> anyhow::Result<PathBuf> {
        match &self.server_bin {
            Some(bin) => Ok(bin.clone()),
            None => Ok(std::env::current_exe()?),
        }
    }

    /// Runs `once` `self.runs` times, printing as it goes; returns the exit code.
    async fn repeat<R, F>(&self, mut once: impl FnMut() -> F) -> anyhow::Result<i32>
    where
        R: RunReport,
        F: Future<Output = dames_loadtest::Result<R>>,
    {
        let mut reports = Vec::new();
        for i in 1..=self.runs {
            let report = once().await?;
            if !self.json {
                if self.runs > 1 {
                    println!("run {i} of {}:", self.runs);
                }
                print!("{report}");
            }
            reports.push(report);
        }
        let median = R::median(&reports);
        if self.json {
            let json = match (&reports[..], &median) {
                ([one], _) => one.to_json(),
                (all, median) => serde_json::json!({
                    "runs": all.iter().map(R::to_json).collect::<Vec<_>>(),
                    "median": median.as_ref().map(R::to_json),
                }),
            };
            println!("{}", serde_json::to_string_pretty(&json)?);
        } else if let Some(median) = median.filter(|_| reports.len() > 1) {
            println!("median of {} runs (each figure on its own):", reports.len());
            print!("{median}");
        }
        let failed = reports.iter().any(|r| r.failures() > 0);
        Ok(if failed { 3 } else { 0 })
    }
}

pub fn run(cmd: Command) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let code = runtime.block_on(dispatch(cmd))?;
    if code != 0 {
        std::process::exit(code);
    }
    Ok(())
}

async fn dispatch(cmd: Command) -> anyhow::Result<i32> {
    match cmd {
        Command::Connections {
            common,
            sockets,
            rooms,
            hold,
            concurrency,
        } => {
            let config = connections::Config {
                target: common.target()?,
                sockets,
                rooms,
                hold,
                concurrency,
            };
            common.repeat(|| connections::run(&config)).await
        }
        Command::Play {
            common,
            games,
            kinds,
            duration,
            warmup,
            pace,
            seed,
        } => {
            let config = play::Config {
                target: common.target()?,
                games,
                kinds: dames_loadtest::parse_kinds(&kinds)?,
                warmup,
                duration,
                pace,
                seed,
            };
            common.repeat(|| play::run(&config)).await
        }
        Command::Reconnect {
            common,
            games,
            kind,
            duration,
        } => {
            let config = reconnect::Config {
                target: common.target()?,
                games,
                kind: GameKind::from_name(&kind)?,
                duration,
            };
            common.repeat(|| reconnect::run(&config)).await
        }
        Command::Pair {
            common,
            seekers,
            over,
            cancel_percent,
            settle,
            seed,
        } => {
            let config = pair::Config {
                target: common.target()?,
                seekers,
                over,
                cancel_percent,
                settle,
                seed,
            };
            common.repeat(|| pair::run(&config)).await
        }
        Command::Crash {
            common,
            games,
            kinds,
            kills,
            min_moves,
            max_moves,
            self_test,
            seed,
        } => {
            if common.url.is_some() {
                bail!("crash starts and kills its own server: no --url");
            }
            let config = crash::Config {
                bin: common.server_bin()?,
                server_args: common.spawn_args(),
                games,
                kinds: dames_loadtest::parse_kinds(&kinds)?,
                kills,
                min_moves,
                max_moves,
                self_test,
                nodes: common.nodes as usize,
                spread: common.spread(),
                seed,
            };
            let missed_plant = std::cell::Cell::new(false);
            let code = common
                .repeat(|| async {
                    let report = crash::run(&config).await?;
                    if self_test && !report.caught_planted_loss() {
                        missed_plant.set(true);
                    }
                    Ok(report)
                })
                .await?;
            Ok(if missed_plant.get() { 4 } else { code })
        }
        Command::Faults {
            common,
            fault,
            games,
            kinds,
            pace,
            before,
            down,
            after,
            seed,
        } => {
            if common.url.is_some() || common.database.is_some() || common.nodes != 1 {
                bail!("faults starts its own nodes, PostgreSQL and Redis: no --url, --database or --nodes");
            }
            let which = if fault == "all" {
                faults::Fault::ALL.to_vec()
            } else {
                vec![faults::Fault::from_name(&fault)?]
            };
            let mut code = 0;
            for fault in which {
                let config = faults::Config {
                    bin: common.server_bin()?,
                    server_args: common.server_args.clone(),
                    fault,
                    games,
                    kinds: dames_loadtest::parse_kinds(&kinds)?,
                    pace,
                    before,
                    down,
                    after,
                    seed,
                };
                code = code.max(common.repeat(|| faults::run(&config)).await?);
            }
            Ok(code)
        }
    }
}
