//! `dames cc …`: Chinese checkers tools (perft, legal moves of a position file, the crossing
//! solver).

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
    /// The fewest moves that take ten pieces alone from camp 0 to camp 3 (the « Défi
    /// solitaire »), checked by replaying them in the rules engine.
    #[cfg(feature = "ai")]
    Solve(SolveArgs),
    /// A CPU level crossing alone (the « Défi solitaire »): the moves it needs, against the
    /// optimum of 27.
    #[cfg(feature = "ai")]
    Alone(AloneArgs),
}

/// Arguments of `dames cc alone`.
#[cfg(feature = "ai")]
#[derive(clap::Args)]
pub struct AloneArgs {
    /// facile, normal, difficile or expert.
    #[arg(long, default_value = "expert")]
    level: String,
    /// Full budget per move in milliseconds (the level uses its share).
    #[arg(long, default_value_t = 2000)]
    ms: u64,
    /// Node budget per move for the full budget (reproducible); the time stays a cap.
    #[arg(long)]
    nodes: Option<u64>,
    /// Seeds to play (one crossing each: the root order among equal moves depends on it).
    #[arg(long, default_value_t = 1)]
    seeds: u64,
}

/// Arguments of `dames cc solve`.
#[cfg(feature = "ai")]
#[derive(clap::Args)]
pub struct SolveArgs {
    /// The longest crossing to look for.
    #[arg(long, default_value_t = 40)]
    max_moves: u32,
    /// The shortest crossing to look for (default: the rows bound of the start, so that the
    /// crossing found is the shortest symmetric one; `--min-moves 27` goes straight to the
    /// proven optimum).
    #[arg(long, default_value_t = 0)]
    min_moves: u32,
    /// No move back a row in the first half of the crossing: much faster, not exhaustive.
    #[arg(long)]
    forward_only: bool,
    /// Then look for any crossing (not only symmetric ones) one move shorter, with IDA*: proves
    /// the crossing found optimal, but takes very long.
    #[arg(long)]
    prove: bool,
    /// Give up after this many positions searched.
    #[arg(long)]
    nodes: Option<u64>,
    /// Size of the table of searched positions, as a power of two (17 bytes a position).
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(10..=30))]
    table_bits: u32,
    /// Instead of the symmetric search, a beam search keeping this many positions a move
    /// (ranked by the rows bound), then the pilot method over it (the beam again from each
    /// position of the best line): not exhaustive, but from the start a width of 1000 finds a
    /// 27-move crossing, the optimum.
    #[arg(long)]
    beam: Option<usize>,
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
        #[cfg(feature = "ai")]
        Command::Solve(args) => run_solve(&args),
        #[cfg(feature = "ai")]
        Command::Alone(args) => run_alone(&args),
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

#[cfg(feature = "ai")]
fn run_solve(args: &SolveArgs) -> anyhow::Result<()> {
    use chinese_checkers::Solitaire;
    use dames_ai::cc::solitaire::Solver;

    let started = Instant::now();
    let mut solver = Solver::with_table_bits(args.table_bits);
    if let Some(nodes) = args.nodes {
        solver.set_node_limit(nodes);
    }
    solver.set_forward_only(args.forward_only);
    let clock = Instant::now();
    solver.on_progress(move |length, nodes| {
        eprintln!(
            "  none in {length} moves ({nodes} positions, {:.1} s)",
            clock.elapsed().as_secs_f64()
        )
    });
    let start = Solitaire::start();
    println!(
        "lower bound (rows relaxation): {} moves ({:.1} s to build the tables)",
        solver.lower_bound(start),
        started.elapsed().as_secs_f64()
    );
    let searched = Instant::now();
    let crossing = if let Some(width) = args.beam {
        let first = dames_ai::cc::solitaire::beam(start, width, args.max_moves)
            .with_context(|| format!("the beam of {width} found no crossing"))?;
        println!(
            "beam search (width {width}): crossing in {} moves ({} positions, {:.1} s)",
            first.moves.len(),
            first.nodes,
            searched.elapsed().as_secs_f64()
        );
        let crossing = dames_ai::cc::solitaire::pilot(start, width, args.max_moves)
            .with_context(|| format!("the beam of {width} found no crossing"))?;
        println!(
            "pilot method (the beam again from each position of the best line): crossing in {} moves ({} positions, {:.1} s)",
            crossing.moves.len(),
            crossing.nodes,
            searched.elapsed().as_secs_f64()
        );
        crossing
    } else {
        let crossing = solver
            .symmetric(args.min_moves, args.max_moves)
            .map_err(|e| anyhow::anyhow!("no symmetric crossing found: {e:?}"))?;
        println!(
            "symmetric crossing in {} moves ({} positions, {:.1} s)",
            crossing.moves.len(),
            crossing.nodes,
            searched.elapsed().as_secs_f64()
        );
        crossing
    };
    let mut game = start.to_game();
    for (n, mv) in (1..).zip(&crossing.moves) {
        game.play(*mv)
            .with_context(|| format!("move {n} ({mv}) refused by the rules engine"))?;
        println!("{n:2}. {} {}", mv.from, mv.to);
    }
    anyhow::ensure!(
        game.has_finished(chinese_checkers::Seat(0)),
        "the rules engine does not see the crossing finished"
    );
    println!(
        "replayed in the rules engine: seat 0 finished in {} turns",
        game.turns(chinese_checkers::Seat(0))
    );
    if args.prove {
        let shorter = crossing.moves.len() as u32 - 1;
        let proving = Instant::now();
        match solver.shortest(start, shorter) {
            Ok(c) => println!(
                "a crossing in {} moves exists (not symmetric)",
                c.moves.len()
            ),
            Err(e) => println!(
                "no crossing in {shorter} moves or fewer: {e:?} ({} positions, {:.1} s)",
                solver.nodes(),
                proving.elapsed().as_secs_f64()
            ),
        }
    }
    Ok(())
}

#[cfg(feature = "ai")]
fn run_alone(args: &AloneArgs) -> anyhow::Result<()> {
    use chinese_checkers::Solitaire;
    use dames_ai::{Budget, Level, Limits};

    let level =
        Level::from_name(&args.level).with_context(|| format!("unknown level {:?}", args.level))?;
    let budget = Budget {
        nodes: args.nodes,
        depth: None,
    };
    let mut lengths = Vec::new();
    for seed in 1..=args.seeds {
        let started = Instant::now();
        let mut game = Solitaire::start().to_game();
        let mut moves = Vec::new();
        let mut nodes = 0;
        while !game.is_over() && moves.len() < 200 {
            let limits = Limits {
                time: std::time::Duration::from_millis(args.ms.max(1)),
                seed: seed << 16 | moves.len() as u64,
                ..Limits::default()
            };
            let a = dames_ai::cc::analyse(&game, level, &limits, &budget)
                .context("the level found no move")?;
            nodes += a.nodes;
            game.play(a.best)
                .with_context(|| format!("{} refused by the rules engine", a.best))?;
            moves.push(a.best);
        }
        anyhow::ensure!(
            game.has_finished(Seat(0)),
            "seed {seed}: not across after {} moves",
            moves.len()
        );
        let line: Vec<String> = moves
            .iter()
            .map(|m| format!("{} {}", m.from, m.to))
            .collect();
        println!(
            "seed {seed}: across in {} moves ({nodes} nodes, {:.1} s): {}",
            moves.len(),
            started.elapsed().as_secs_f64(),
            line.join(", ")
        );
        lengths.push(moves.len());
    }
    lengths.sort_unstable();
    println!(
        "{} alone: {} crossings, moves min {} median {} max {} (optimum 27)",
        level.name(),
        lengths.len(),
        lengths[0],
        lengths[lengths.len() / 2],
        lengths[lengths.len() - 1]
    );
    Ok(())
}
