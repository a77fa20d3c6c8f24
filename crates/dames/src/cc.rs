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
    /// Build the planner's tables first (`dames_ai::warm_up`, as a server does at start) and
    /// say how long that took; without it the first move of the process finds them unbuilt.
    #[arg(long)]
    warm_up: bool,
}

/// Arguments of `dames cc solve`. By default a beam search and the pilot method over it: an
/// answer in seconds, not proved optimal (`--prove` searches exhaustively for a shorter one).
#[cfg(feature = "ai")]
#[derive(clap::Args)]
pub struct SolveArgs {
    /// The longest crossing to look for.
    #[arg(long, default_value_t = 40)]
    max_moves: u32,
    /// Positions the beam keeps a move (ranked by the rows bound), before the pilot method runs
    /// the beam again from each position of the best line: 1000 finds a 27-move crossing, the
    /// optimum, in seconds; not exhaustive.
    #[arg(long, default_value_t = 1000)]
    beam: usize,
    /// Instead of the beam, the exhaustive search for the shortest crossing that is its own
    /// mirror image (bidirectional; no answer below 27 moves, hours for 27).
    #[arg(long)]
    symmetric: bool,
    /// With --symmetric: the shortest crossing to look for (default: the rows bound of the
    /// start; `--min-moves 27` goes straight to the proven optimum).
    #[arg(long, default_value_t = 0)]
    min_moves: u32,
    /// With --symmetric: no move back a row in the first half of the crossing: much faster,
    /// not exhaustive.
    #[arg(long)]
    forward_only: bool,
    /// Then prove the crossing found optimal: an exhaustive search (IDA*) for any crossing one
    /// move shorter, its progress on the error output. Out of reach from the start (hours to
    /// days); Bell (2009) proved 27 optimal.
    #[arg(long)]
    prove: bool,
    /// Give up the exhaustive searches after this many positions.
    #[arg(long)]
    nodes: Option<u64>,
    /// Size of the exhaustive searches' table of searched positions, as a power of two (17
    /// bytes a position).
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(10..=30))]
    table_bits: u32,
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
    solve(args, &mut std::io::stdout().lock()).map(|_| ())
}

/// `dames cc solve`: finds a crossing (the beam, or the symmetric search), replays it in the
/// rules engine, then tries the proof if asked; writes every step to `out`. The length found.
#[cfg(feature = "ai")]
fn solve(args: &SolveArgs, out: &mut dyn std::io::Write) -> anyhow::Result<usize> {
    use chinese_checkers::Solitaire;
    use dames_ai::cc::solitaire::Solver;

    let started = Instant::now();
    let mut solver = Solver::with_table_bits(args.table_bits);
    if let Some(nodes) = args.nodes {
        solver.set_node_limit(nodes);
    }
    solver.set_forward_only(args.forward_only);
    solver.on_progress(progress_printer());
    let start = Solitaire::start();
    writeln!(
        out,
        "lower bound (rows relaxation): {} moves ({:.1} s to build the tables)",
        solver.lower_bound(start),
        started.elapsed().as_secs_f64()
    )?;
    let crossing = if args.symmetric {
        symmetric_crossing(args, &mut solver, out)?
    } else {
        beam_crossing(args, out)?
    };
    replay(&crossing.moves, out)?;
    if args.prove {
        prove(&mut solver, crossing.moves.len() as u32 - 1, out)?;
    }
    Ok(crossing.moves.len())
}

/// A crossing by the beam then the pilot method, labelled as not proved optimal.
#[cfg(feature = "ai")]
fn beam_crossing(
    args: &SolveArgs,
    out: &mut dyn std::io::Write,
) -> anyhow::Result<dames_ai::cc::solitaire::Crossing> {
    use dames_ai::cc::solitaire::{beam, pilot};

    let (start, width) = (chinese_checkers::Solitaire::start(), args.beam.max(1));
    let searched = Instant::now();
    let first = beam(start, width, args.max_moves)
        .with_context(|| format!("the beam of {width} found no crossing"))?;
    writeln!(
        out,
        "beam search (width {width}): crossing in {} moves ({} positions, {:.1} s)",
        first.moves.len(),
        first.nodes,
        searched.elapsed().as_secs_f64()
    )?;
    let crossing = pilot(start, width, args.max_moves)
        .with_context(|| format!("the beam of {width} found no crossing"))?;
    writeln!(
        out,
        "pilot method (the beam again from each position of the best line): crossing in {} \
         moves ({} positions, {:.1} s)\n\
         not proved optimal by this search (a beam is not exhaustive; --prove searches for a \
         shorter crossing; 27 is the optimum, Bell 2009)",
        crossing.moves.len(),
        crossing.nodes,
        searched.elapsed().as_secs_f64()
    )?;
    Ok(crossing)
}

/// The shortest symmetric crossing (exhaustive; the lengths without one go to the progress
/// printer).
#[cfg(feature = "ai")]
fn symmetric_crossing(
    args: &SolveArgs,
    solver: &mut dames_ai::cc::solitaire::Solver,
    out: &mut dyn std::io::Write,
) -> anyhow::Result<dames_ai::cc::solitaire::Crossing> {
    let searched = Instant::now();
    let crossing = solver
        .symmetric(args.min_moves, args.max_moves)
        .map_err(|e| anyhow::anyhow!("no symmetric crossing found: {e:?}"))?;
    writeln!(
        out,
        "symmetric crossing in {} moves ({} positions, {:.1} s)",
        crossing.moves.len(),
        crossing.nodes,
        searched.elapsed().as_secs_f64()
    )?;
    Ok(crossing)
}

/// Prints the exhaustive searches' progress on the error output, with the time since it began.
#[cfg(feature = "ai")]
fn progress_printer() -> impl FnMut(dames_ai::cc::solitaire::Progress) + Send + 'static {
    use dames_ai::cc::solitaire::Progress;

    let clock = Instant::now();
    move |p| {
        let s = clock.elapsed().as_secs_f64();
        match p {
            Progress::Searching { length, nodes } => eprintln!(
                "  searching {length} moves: {nodes} positions, {s:.0} s ({:.2} M/s)",
                nodes as f64 / s.max(1e-9) / 1e6
            ),
            Progress::Exhausted { length, nodes } => {
                eprintln!("  none in {length} moves ({nodes} positions, {s:.1} s)")
            }
        }
    }
}

/// Replays `moves` from the start in the rules engine, printing them: seat 0 must finish.
#[cfg(feature = "ai")]
fn replay(moves: &[chinese_checkers::Move], out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let mut game = chinese_checkers::Solitaire::start().to_game();
    for (n, mv) in (1..).zip(moves) {
        game.play(*mv)
            .with_context(|| format!("move {n} ({mv}) refused by the rules engine"))?;
        writeln!(out, "{n:2}. {} {}", mv.from, mv.to)?;
    }
    anyhow::ensure!(
        game.has_finished(Seat(0)),
        "the rules engine does not see the crossing finished"
    );
    writeln!(
        out,
        "replayed in the rules engine: seat 0 finished in {} turns",
        game.turns(Seat(0))
    )?;
    Ok(())
}

/// The exhaustive search for any crossing of `shorter` moves or fewer from the start.
#[cfg(feature = "ai")]
fn prove(
    solver: &mut dames_ai::cc::solitaire::Solver,
    shorter: u32,
    out: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    let proving = Instant::now();
    writeln!(
        out,
        "proof: searching every crossing of {shorter} moves or fewer (IDA*; progress below)"
    )?;
    match solver.shortest(chinese_checkers::Solitaire::start(), shorter) {
        Ok(c) => writeln!(
            out,
            "a crossing in {} moves exists (not symmetric)",
            c.moves.len()
        )?,
        Err(e) => writeln!(
            out,
            "no crossing in {shorter} moves or fewer: {e:?} ({} positions, {:.1} s)",
            solver.nodes(),
            proving.elapsed().as_secs_f64()
        )?,
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
    if args.warm_up {
        let started = Instant::now();
        dames_ai::warm_up();
        println!("warm-up: {:.1} s", started.elapsed().as_secs_f64());
    }
    let mut lengths = Vec::new();
    for seed in 1..=args.seeds {
        let started = Instant::now();
        let mut game = Solitaire::start().to_game();
        let mut moves = Vec::new();
        let mut nodes = 0;
        let mut first_move = None;
        while !game.is_over() && moves.len() < 200 {
            let limits = Limits {
                time: std::time::Duration::from_millis(args.ms.max(1)),
                seed: seed << 16 | moves.len() as u64,
                ..Limits::default()
            };
            let a = dames_ai::cc::analyse(&game, level, &limits, &budget)
                .context("the level found no move")?;
            nodes += a.nodes;
            first_move.get_or_insert(started.elapsed());
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
            "seed {seed}: across in {} moves ({nodes} nodes, {:.1} s, the first move {:.2} s): {}",
            moves.len(),
            started.elapsed().as_secs_f64(),
            first_move.unwrap_or_default().as_secs_f64(),
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

#[cfg(all(test, feature = "ai"))]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Solve {
        #[command(flatten)]
        args: SolveArgs,
    }

    #[test]
    fn solve_answers_by_default_with_a_crossing_not_claimed_optimal() {
        // The default path (beam, pilot, replay), with a narrow beam to keep the test short.
        let Solve { args } = Solve::parse_from(["solve", "--beam", "100"]);
        assert!(!args.symmetric && !args.prove);
        let mut out = Vec::new();
        let moves = solve(&args, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!((27..=40).contains(&moves), "{moves} moves\n{text}");
        assert!(text.contains("not proved optimal"), "{text}");
        assert!(
            text.contains(&format!("seat 0 finished in {moves} turns")),
            "{text}"
        );
        assert!(!text.contains("proof:"), "{text}");
    }
}
