//! Search speed and time per move, single thread:
//! `cargo run -p dames-ai --release --example bench [-- MS]`.
//!
//! For each game: nodes per second of the Expert search on positions from seeded playouts, then
//! the average time per move of each level at a full budget of MS milliseconds (default 200),
//! and the largest overshoot of the budget.
//!
//! `… --example bench -- depth D`: the draughts positions searched by Expert to depth `D` (no
//! clock): the nodes, the same for every run of one evaluation, and the time, so that the
//! process's CPU time (`/usr/bin/time`) gives the nodes a CPU second on a busy machine (run it
//! with and without `DAMES_EVAL=patterns` to compare the evaluations).

use std::time::Duration;

use dames_ai::{Budget, Level, Limits, Rng};

fn main() {
    if std::env::args().nth(1).as_deref() == Some("depth") {
        let depth = std::env::args().nth(2).and_then(|a| a.parse().ok());
        return fixed_depth(depth.unwrap_or(9));
    }
    let ms: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let budget = Duration::from_millis(ms);
    cc(budget);
    draughts(budget);
}

/// Positions after 0, 10, … random forward plies of two greedy players.
fn cc_positions() -> Vec<chinese_checkers::Game> {
    use chinese_checkers::{Game, Rules, Seat};
    let mut out = Vec::new();
    for (players, seed) in [(2u8, 1u64), (2, 2), (3, 3)] {
        let mut game = Game::new(
            Rules {
                players,
                ..Rules::default()
            },
            Seat(0),
        )
        .unwrap();
        let mut rng = Rng::new(seed);
        for ply in 0..60 {
            if game.is_over() {
                break;
            }
            if ply % 10 == 0 {
                out.push(game);
            }
            let mv = dames_ai::cc::greedy(&game, rng.next_u64()).unwrap();
            game.play(mv).unwrap();
        }
    }
    out
}

fn draughts_positions() -> Vec<draughts::Game> {
    use draughts::{Game, Rules, Variant};
    let mut out = Vec::new();
    for seed in 0..4u64 {
        let mut game = Game::new(Rules::new(Variant::International));
        let mut rng = Rng::new(seed);
        for ply in 0..40 {
            if game.outcome().is_some() {
                break;
            }
            if ply % 10 == 5 {
                out.push(game.clone());
            }
            let moves = game.legal_moves();
            game.play_notation(&moves[rng.below(moves.len())].notation)
                .unwrap();
        }
    }
    out
}

/// Every draughts position searched by Expert to `depth`: nodes and wall time.
fn fixed_depth(depth: u32) {
    let positions = draughts_positions();
    let started = std::time::Instant::now();
    let mut nodes = 0;
    for game in &positions {
        let budget = Budget {
            nodes: None,
            depth: Some(depth),
        };
        let a = dames_ai::draughts::analyse(
            game,
            Level::Expert,
            &limits(Duration::from_secs(600)),
            &budget,
        )
        .expect("a move");
        nodes += a.nodes;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "draughts, {} positions to depth {depth}: {nodes} nodes in {secs:.2} s ({:.0} knodes/s wall)",
        positions.len(),
        nodes as f64 / secs / 1000.0
    );
}

fn limits(time: Duration) -> Limits {
    Limits {
        time,
        ..Limits::default()
    }
}

fn cc(budget: Duration) {
    let positions = cc_positions();
    report(
        "Chinese checkers",
        budget,
        positions.len(),
        &|i, level, l| {
            dames_ai::cc::analyse(&positions[i], level, l, &Budget::default())
                .map(|a| (a.nodes, a.elapsed, a.depth))
        },
    );
}

fn draughts(budget: Duration) {
    let positions = draughts_positions();
    report(
        "draughts (10×10)",
        budget,
        positions.len(),
        &|i, level, l| {
            dames_ai::draughts::analyse(&positions[i], level, l, &Budget::default())
                .map(|a| (a.nodes, a.elapsed, a.depth))
        },
    );
}

type Search<'a> = dyn Fn(usize, Level, &Limits) -> Option<(u64, Duration, u32)> + 'a;

fn report(name: &str, budget: Duration, n: usize, search: &Search<'_>) {
    println!(
        "{name}: {n} positions, full budget {} ms",
        budget.as_millis()
    );
    for level in Level::ALL.into_iter().rev() {
        let (mut nodes, mut time, mut depth, mut worst) = (0u64, Duration::ZERO, 0u32, 0f64);
        let share = budget / level.plan().share;
        for i in 0..n {
            let (k, t, d) = search(i, level, &limits(budget)).expect("a move");
            nodes += k;
            time += t;
            depth += d;
            worst = worst.max(t.as_secs_f64() / share.as_secs_f64());
        }
        println!(
            "  {:<9} {:>7.1} ms a move (share {:>4} ms, worst {:>5.1} % of it), depth {:>4.1}, {:>6.0} knodes/s",
            level.name(),
            time.as_secs_f64() * 1000.0 / n as f64,
            share.as_millis(),
            worst * 100.0,
            f64::from(depth) / n as f64,
            nodes as f64 / time.as_secs_f64() / 1000.0
        );
    }
}
