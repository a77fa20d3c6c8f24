//! `dames draughts …`: draughts tools (perft, legal moves) on the `draughts` rules crate, and
//! the endgame databases of `dames-ai` (`dames draughts egdb build|check|audit|probe`).

use std::time::Instant;

#[cfg(feature = "ai")]
pub mod egdb;

use anyhow::Context;
use draughts::{parse_fen, Board, Brazilian, Canadian, International, Position, Variant};

/// Draughts subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Count the move sequences of a given length (moves with the same start, end and captured
    /// set counted once) and time it.
    Perft {
        /// Board: international (10×10), brazilian (8×8) or canadian (12×12).
        #[arg(long, default_value = "international")]
        variant: Variant,
        /// Start position in FEN (`W:W31-50:B1-20`); the variant's start by default.
        #[arg(long)]
        fen: Option<String>,
        /// Number of plies.
        #[arg(long)]
        depth: u32,
        /// Generate and play every leaf move instead of counting the last ply in bulk.
        #[arg(long)]
        no_bulk: bool,
        /// Also print the count below each legal move.
        #[arg(long)]
        divide: bool,
    },
    /// Print each legal move in PDN notation with every landing square, one a line.
    Moves {
        /// Board: international (10×10), brazilian (8×8) or canadian (12×12).
        #[arg(long, default_value = "international")]
        variant: Variant,
        /// The position in FEN; the variant's start by default.
        #[arg(long)]
        fen: Option<String>,
    },
    /// Endgame databases (10×10, up to 4 pieces): build, check, audit, probe (docs/ai.md).
    #[cfg(feature = "ai")]
    #[command(subcommand)]
    Egdb(egdb::Command),
}

/// Runs a draughts subcommand.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Perft {
            variant,
            fen,
            depth,
            no_bulk,
            divide,
        } => match variant {
            Variant::Brazilian => perft::<Brazilian>(fen.as_deref(), depth, !no_bulk, divide),
            Variant::International => {
                perft::<International>(fen.as_deref(), depth, !no_bulk, divide)
            }
            Variant::Canadian => perft::<Canadian>(fen.as_deref(), depth, !no_bulk, divide),
        },
        Command::Moves { variant, fen } => match variant {
            Variant::Brazilian => moves::<Brazilian>(fen.as_deref()),
            Variant::International => moves::<International>(fen.as_deref()),
            Variant::Canadian => moves::<Canadian>(fen.as_deref()),
        },
        #[cfg(feature = "ai")]
        Command::Egdb(cmd) => egdb::run(cmd),
    }
}

fn position<B: Board>(fen: Option<&str>) -> anyhow::Result<Position<B>> {
    match fen {
        None => Ok(Position::initial()),
        Some(f) => parse_fen(f).with_context(|| format!("bad FEN {f:?}")),
    }
}

fn perft<B: Board>(fen: Option<&str>, depth: u32, bulk: bool, divide: bool) -> anyhow::Result<()> {
    let pos = position::<B>(fen)?;
    if divide {
        for (mv, n) in draughts::divide(&pos, depth) {
            println!("{} {n}", pos.move_notation(mv));
        }
    }
    let cpu_start = cpu_time();
    let start = Instant::now();
    let count = draughts::perft(&pos, depth, bulk);
    let secs = start.elapsed().as_secs_f64();
    let rate = |s: f64| count as f64 / s.max(1e-9) / 1e6;
    println!("perft {depth}: {count}");
    println!(
        "time: {secs:.3} s, {:.1} M leaves/s ({})",
        rate(secs),
        if bulk {
            "last ply counted in bulk"
        } else {
            "every leaf generated and played"
        }
    );
    if let (Some(a), Some(b)) = (cpu_start, cpu_time()) {
        // On a shared machine the wall clock also counts the time other processes ran.
        println!("on CPU: {:.3} s, {:.1} M leaves/s", b - a, rate(b - a));
    }
    Ok(())
}

/// This thread's time on a CPU so far, in seconds (Linux `schedstat`), if available.
pub(crate) fn cpu_time() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn moves<B: Board>(fen: Option<&str>) -> anyhow::Result<()> {
    let pos = position::<B>(fen)?;
    for info in pos.legal_move_infos() {
        println!("{}", info.notation);
    }
    Ok(())
}
