//! `dames tune cc-fit`: fits the Chinese checkers evaluation's weights (straggler, home, lane,
//! tempo; a hole of distance stays worth `PER_HOLE`, the scale) on 2-player games written by
//! `dames selfplay --game cc --record FILE`: logistic regression of each position's result for
//! the side to move on the weighted difference of the two seats' terms ("Texel tuning", as for
//! draughts in `tune.rs`; docs/ai.md).

use std::path::PathBuf;

use anyhow::{bail, Context};
use chinese_checkers::{Cell, Game, Move, Rules, Seat};
use dames_ai::cc::eval::{self, Weights, PER_HOLE};

/// Options of `dames tune cc-fit`.
#[derive(clap::Args)]
pub struct FitArgs {
    /// Game files written by `dames selfplay --game cc --record`, repeatable.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Plies at the start of each game left out (the random opening).
    #[arg(long, default_value_t = 6)]
    skip: usize,
    /// Passes of the optimiser over the data.
    #[arg(long, default_value_t = 2000)]
    epochs: usize,
    /// Step size of the optimiser, in centi-units.
    #[arg(long, default_value_t = 0.05)]
    rate: f64,
}

/// One position: the side to move's terms minus the other seat's (Σd, Σd², home, lanes), and
/// the side to move's result.
struct Sample {
    terms: [f64; 4],
    result: f64,
}

/// The evaluation of a sample (the side to move's view, tempo included) under `w`
/// (`[straggler, home, lane, tempo]`).
fn evaluate(s: &Sample, w: &[f64; 4]) -> f64 {
    let [d, d2, home, lanes] = s.terms;
    -f64::from(PER_HOLE) * d - d2 * w[0] / 100.0 + home * w[1] + lanes * w[2] + w[3]
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn loss(samples: &[Sample], w: &[f64; 4], scale: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (sigmoid(evaluate(s, w) / scale) - s.result).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The samples of one recorded game (`seat0-score from-to …`).
fn game_samples(line: &str, skip: usize, out: &mut Vec<Sample>) -> anyhow::Result<()> {
    let mut words = line.split_whitespace();
    let seat0: f64 = words
        .next()
        .context("empty line")?
        .parse()
        .context("score")?;
    let mut game = Game::new(Rules::default(), Seat(0)).map_err(|e| anyhow::anyhow!("{e:?}"))?;
    for (ply, word) in words.enumerate() {
        if ply >= skip && !game.is_over() {
            let me = game.to_move();
            let other = Seat(1 - me.0);
            let (a, b) = (eval::terms(&game, me), eval::terms(&game, other));
            let terms = std::array::from_fn(|i| f64::from(a[i] - b[i]));
            let result = if me == Seat(0) { seat0 } else { 1.0 - seat0 };
            out.push(Sample { terms, result });
        }
        let (from, to) = word.split_once('-').context("move")?;
        let cell = |text: &str| -> anyhow::Result<Cell> {
            Cell::from_index(text.parse().context("hole index")?).context("hole index")
        };
        game.play(Move::new(cell(from)?, cell(to)?))
            .map_err(|e| anyhow::anyhow!("ply {ply}: {e:?}"))?;
    }
    Ok(())
}

/// The scale that best maps the evaluation to results (golden section).
fn fit_scale(samples: &[Sample], w: &[f64; 4]) -> f64 {
    let (mut lo, mut hi) = (1.0_f64, 2000.0_f64);
    let g = (5.0_f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if loss(samples, w, a) < loss(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

pub fn fit(args: &FitArgs) -> anyhow::Result<()> {
    let (mut train, mut held_out) = (Vec::new(), Vec::new());
    let mut games = 0;
    for path in &args.data {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        for (n, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
            // Every tenth game is held out, whole (its positions are alike).
            let into = if games % 10 == 9 {
                &mut held_out
            } else {
                &mut train
            };
            game_samples(line, args.skip, into)
                .with_context(|| format!("{} line {}", path.display(), n + 1))?;
            games += 1;
        }
    }
    if train.is_empty() || held_out.is_empty() {
        bail!("not enough games ({games})");
    }
    let current = Weights::TUNED;
    let start = [
        f64::from(current.straggler),
        f64::from(current.home),
        f64::from(current.lane),
        f64::from(current.tempo),
    ];
    let scale = fit_scale(&train, &start);
    let before = (loss(&train, &start, scale), loss(&held_out, &start, scale));
    println!(
        "{games} games, {} positions to fit, {} held out; scale {scale:.1}",
        train.len(),
        held_out.len()
    );
    println!(
        "current weights {current}: loss {:.6} (held out {:.6})",
        before.0, before.1
    );
    let mut w = start;
    let mut adam = crate::tune::Adam::new(4, 1e-12);
    let n = train.len() as f64;
    for epoch in 1..=args.epochs {
        let mut g = [0.0; 4];
        for s in &train {
            let p = sigmoid(evaluate(s, &w) / scale);
            // d(loss)/d(eval) for the squared error through the sigmoid.
            let k = 2.0 * (p - s.result) * p * (1.0 - p) / scale;
            let [_, d2, home, lanes] = s.terms;
            g[0] += k * -d2 / 100.0;
            g[1] += k * home;
            g[2] += k * lanes;
            g[3] += k;
        }
        adam.step(&mut w, &g.map(|gi| gi / n), args.rate);
        if epoch % 500 == 0 || epoch == args.epochs {
            println!(
                "epoch {epoch}: loss {:.6} (held out {:.6}), weights {:.2?}",
                loss(&train, &w, scale),
                loss(&held_out, &w, scale),
                w
            );
        }
    }
    let fitted = Weights {
        straggler: w[0].round() as i32,
        home: w[1].round() as i32,
        lane: w[2].round() as i32,
        tempo: w[3].round() as i32,
    };
    let rounded = [
        f64::from(fitted.straggler),
        f64::from(fitted.home),
        f64::from(fitted.lane),
        f64::from(fitted.tempo),
    ];
    println!(
        "fitted weights {fitted}: loss {:.6} (held out {:.6}), was {:.6} ({:.6})",
        loss(&train, &rounded, scale),
        loss(&held_out, &rounded, scale),
        before.0,
        before.1
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_game_gives_one_sample_a_position_after_the_opening() {
        let mut game = Game::new(Rules::default(), Seat(0)).unwrap();
        let mut line = String::from("1");
        for ply in 0..10 {
            let moves = game.legal_moves_vec();
            let mv = moves[ply % moves.len()];
            line.push_str(&format!(" {}-{}", mv.from.index(), mv.to.index()));
            game.play(mv).unwrap();
        }
        let mut samples = Vec::new();
        game_samples(&line, 4, &mut samples).unwrap();
        assert_eq!(samples.len(), 6);
        // Seat 0 won: its positions score 1, seat 1's 0 (seat 0 moves at even plies).
        let results: Vec<f64> = samples.iter().map(|s| s.result).collect();
        assert_eq!(results, [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]);
        assert!(game_samples("1 0-200", 0, &mut samples).is_err());
        assert!(game_samples("1 0-1", 0, &mut samples).is_err());
    }
}
