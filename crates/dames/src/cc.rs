//! `dames cc …`: Chinese checkers tools (perft, legal moves of a position file).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use chinese_checkers::{perft, perft_divide, perft_full, Game, RuleSet, Rules, Seat};

/// Chinese checkers subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Count leaf move sequences (moves counted by distinct (from, to)) and time it.
    Perft(PerftArgs),
    /// Print every legal move of the side to move, one JSON object a line.
    Moves {
        /// Position file (JSON, see the chinese-checkers crate documentation).
        #[arg(long)]
        position: PathBuf,
    },
}

/// Arguments of `dames cc perft`.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// Number of players (2–6); ignored with --position.
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// Sets per player (1, 2 or 3 as RULES.md 1.2 allows).
    #[arg(long, default_value_t = 1)]
    sets: u8,
    /// Pieces per set (10 or 15); defaults to 15 with the Japanese rules, 10 otherwise.
    #[arg(long)]
    pieces: Option<u8>,
    /// Rule set.
    #[arg(long, value_enum, default_value_t = RuleSetArg::International)]
    rules: RuleSetArg,
    /// Start from this position file instead of the starting position.
    #[arg(long)]
    position: Option<PathBuf>,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Print the count below each first move.
    #[arg(long)]
    divide: bool,
    /// Play every move of the last ply instead of counting them (slower).
    #[arg(long)]
    no_bulk: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum RuleSetArg {
    International,
    Japanese,
}

/// Runs a `dames cc` subcommand.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Perft(args) => run_perft(&args),
        Command::Moves { position } => run_moves(&load(&position)?),
    }
}

fn load(path: &PathBuf) -> anyhow::Result<Game> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Game::from_position_json(&text).with_context(|| format!("in {}", path.display()))
}

fn start_game(args: &PerftArgs) -> anyhow::Result<Game> {
    if let Some(path) = &args.position {
        return load(path);
    }
    let rule_set = match args.rules {
        RuleSetArg::International => RuleSet::International,
        RuleSetArg::Japanese => RuleSet::Japanese,
    };
    let default_pieces = if rule_set == RuleSet::Japanese {
        15
    } else {
        10
    };
    let rules = Rules {
        players: args.players,
        sets: args.sets,
        pieces: args.pieces.unwrap_or(default_pieces),
        rule_set,
        ..Rules::default()
    };
    Ok(Game::new(rules, Seat(0))?)
}

fn run_perft(args: &PerftArgs) -> anyhow::Result<()> {
    let game = start_game(args)?;
    let started = Instant::now();
    let cpu_started = cpu_time();
    let count = if args.divide {
        let mut total = 0;
        for (mv, n) in perft_divide(&game, args.depth) {
            println!("{mv} {n}");
            total += n;
        }
        total
    } else if args.no_bulk {
        perft_full(&game, args.depth)
    } else {
        perft(&game, args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    let rate = count as f64 / seconds.max(1e-9);
    let bulk = if args.no_bulk {
        "every move played"
    } else {
        "bulk counting"
    };
    println!("perft {} = {count}", args.depth);
    println!(
        "time {seconds:.3} s, {:.1} M leaves/s ({bulk}, one thread)",
        rate / 1e6
    );
    // The kernel's CPU time is only precise for runs of some length.
    if let (Some(a), Some(b), true) = (cpu_started, cpu_time(), seconds >= 0.1) {
        let cpu = (b - a).max(1e-9);
        println!(
            "cpu time {cpu:.3} s, {:.1} M leaves/s of cpu time",
            count as f64 / cpu / 1e6
        );
    }
    Ok(())
}

/// CPU time of this (single-threaded) process so far, from `/proc/self/schedstat` (Linux), so that
/// the rate means something on a loaded machine.
fn cpu_time() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let nanos: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanos / 1e9)
}

/// Prints `{"from":[x,y,z],"to":[x,y,z],"path":[[x,y,z],...]}` per legal move, keys in that order.
fn run_moves(game: &Game) -> anyhow::Result<()> {
    for mv in game.legal_moves_vec() {
        let path = game.path(mv).context("a legal move has a path")?;
        println!(
            r#"{{"from":{},"to":{},"path":{}}}"#,
            serde_json::to_string(&mv.from)?,
            serde_json::to_string(&mv.to)?,
            serde_json::to_string(&path)?
        );
    }
    Ok(())
}
