//! `dames loadtest …`: the load generator (crates/loadtest) on the command line. By default each
//! run spawns `dames serve --no-rate-limits` (this binary) on a temporary database and stops it
//! at the end; `--url` (loopback only) points it at a running server instead, `--pid` lets it
//! read that server's memory and CPU time. docs/performance.md has the commands and figures.
//!
//! Exit codes: 0, a clean run; 1, the run could not be made (the server did not start, the
//! set-up was refused, bad options); 3, the run found failures (errors, dropped or dead sockets,
//! lost or doubly applied moves). `crash --self-test` must find its planted loss: 3 when it is
//! reported, 4 when it is not.

use std::path::PathBuf;
use std::time::Duration;

use dames_loadtest::{connections, crash, play, reconnect, GameKind, RunReport, Target};

use crate::serve::parse_duration;

/// The runs.
#[derive(clap::Subcommand)]
pub enum Command {
    /// N WebSockets held T seconds: how many open and stay alive, server memory per socket.
    Connections {
        #[command(flatten)]
        target: TargetArgs,
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
        target: TargetArgs,
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
        target: TargetArgs,
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
    /// Play, kill -9 the server at random moments, restart it, check every acknowledged move.
    Crash {
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
        /// An option for the spawned `dames serve` (repeatable: --server-arg=--cpu-workers=2).
        #[arg(long = "server-arg", allow_hyphen_values = true)]
        server_args: Vec<String>,
        /// Print the report as one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// Which server, and how to print.
#[derive(clap::Args)]
pub struct TargetArgs {
    /// A running server (loopback only, started with --no-rate-limits). Default: spawn
    /// `dames serve` on a temporary database.
    #[arg(long)]
    url: Option<String>,
    /// The running server's process id, to read its memory and CPU time.
    #[arg(long, requires = "url")]
    pid: Option<u32>,
    /// An option for the spawned `dames serve` (repeatable: --server-arg=--cpu-workers=2).
    #[arg(
        long = "server-arg",
        allow_hyphen_values = true,
        conflicts_with = "url"
    )]
    server_args: Vec<String>,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
}

impl TargetArgs {
    fn target(&self) -> anyhow::Result<Target> {
        Ok(match &self.url {
            Some(url) => Target::running(url, self.pid)?,
            None => Target::Spawn {
                bin: this_binary()?,
                args: self.server_args.clone(),
            },
        })
    }
}

fn this_binary() -> anyhow::Result<PathBuf> {
    Ok(std::env::current_exe()?)
}

/// What a run printed and whether it failed.
struct Outcome {
    text: String,
    json: serde_json::Value,
    code: i32,
}

pub fn run(cmd: Command) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let (outcome, json) = runtime.block_on(outcome(cmd))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&outcome.json)?);
    } else {
        print!("{}", outcome.text);
    }
    if outcome.code != 0 {
        std::process::exit(outcome.code);
    }
    Ok(())
}

fn outcome_of(report: &impl RunReport) -> Outcome {
    Outcome {
        text: report.to_string(),
        json: report.to_json(),
        code: if report.failures() > 0 { 3 } else { 0 },
    }
}

async fn outcome(cmd: Command) -> anyhow::Result<(Outcome, bool)> {
    Ok(match cmd {
        Command::Connections {
            target,
            sockets,
            rooms,
            hold,
            concurrency,
        } => {
            let config = connections::Config {
                target: target.target()?,
                sockets,
                rooms,
                hold,
                concurrency,
            };
            let report = connections::run(&config).await?;
            (outcome_of(&report), target.json)
        }
        Command::Play {
            target,
            games,
            kinds,
            duration,
            warmup,
            pace,
            seed,
        } => {
            let config = play::Config {
                target: target.target()?,
                games,
                kinds: dames_loadtest::parse_kinds(&kinds)?,
                warmup,
                duration,
                pace,
                seed,
            };
            let report = play::run(&config).await?;
            (outcome_of(&report), target.json)
        }
        Command::Reconnect {
            target,
            games,
            kind,
            duration,
        } => {
            let config = reconnect::Config {
                target: target.target()?,
                games,
                kind: GameKind::from_name(&kind)?,
                duration,
            };
            let report = reconnect::run(&config).await?;
            (outcome_of(&report), target.json)
        }
        Command::Crash {
            games,
            kinds,
            kills,
            min_moves,
            max_moves,
            self_test,
            seed,
            server_args,
            json,
        } => {
            let config = crash::Config {
                bin: this_binary()?,
                server_args,
                games,
                kinds: dames_loadtest::parse_kinds(&kinds)?,
                kills,
                min_moves,
                max_moves,
                self_test,
                seed,
            };
            let report = crash::run(&config).await?;
            let mut outcome = outcome_of(&report);
            if self_test && !report.caught_planted_loss() {
                outcome.code = 4;
            }
            (outcome, json)
        }
    })
}
