//! The time of a game review (« Analyser »), single thread:
//! `cargo run -p dames-ai --release --example review [-- NODES [PLIES]]`.
//!
//! Plays a game of Normal against Normal (seeded, 50 ms a move, at most PLIES plies, default 80),
//! then reviews it with NODES nodes a position (default 200 000, the server's default): the time,
//! the nodes and depth reached, and the moves marked.

use std::time::{Duration, Instant};

use dames_ai::draughts::review::{review, ReviewBudget};
use dames_ai::{Level, Limits};
use draughts::{Game, Rules};

fn main() {
    let mut args = std::env::args().skip(1);
    let nodes: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let plies: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(80);
    let mut game = Game::new(Rules::default());
    for ply in 0..plies {
        let limits = Limits {
            time: Duration::from_millis(50),
            seed: ply as u64,
            ..Limits::default()
        };
        let Some(mv) = dames_ai::draughts::choose(&game, Level::Normal, &limits) else {
            break;
        };
        game.play_notation(&mv.notation).unwrap();
    }
    let started = Instant::now();
    let budget = ReviewBudget {
        nodes,
        max_plies: 400,
    };
    let r = review(&game, &budget, &Limits::default(), &mut |_, _| {}).unwrap();
    let elapsed = started.elapsed();
    let searched: u64 = r.positions.iter().map(|p| p.nodes).sum();
    let depth: f64 =
        r.positions.iter().map(|p| f64::from(p.depth)).sum::<f64>() / r.positions.len() as f64;
    let marks = |m: &str| {
        r.moves
            .iter()
            .filter(|j| j.mark.is_some_and(|k| k.symbol() == m))
            .count()
    };
    println!(
        "{} plies, {nodes} nodes a position: {:.2} s ({:.0} ms a position), {searched} nodes, mean depth {depth:.1}; marks ?! {} ? {} ?? {}",
        r.moves.len(),
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1000.0 / r.positions.len() as f64,
        marks("?!"),
        marks("?"),
        marks("??"),
    );
}
