//! `dames tune patterns`: fits the pattern evaluation (`dames_ai::draughts::patterns`: the
//! linear features plus a weight pair per index of each 4×4 window) on the positions of
//! `dames tune gen`, and writes `crates/ai/src/draughts/patterns.bin` (docs/ai.md, "Pattern
//! evaluation").
//!
//! The fit is the linear one's (logistic regression, Adam on the mean squared error of the
//! predicted score) with the windows' indices as more features: the linear weights start from
//! the current `weights.rs` and are held near it, the pattern weights start at 0 and are held
//! near 0 (L2), so that an index seen in few positions stays small. The targets blend each
//! game's result with the search's value recorded by `gen` (`--lambda`). Whole games are held
//! out (every tenth), and the held-out error against the results alone is printed before and
//! after: the number to compare between fits.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use dames_ai::draughts::patterns::{PatternWeights, INDICES, REGIONS, UNIT, WEIGHT_COUNT};
use dames_ai::draughts::{weights, Feature};

use crate::tune::{fit_scale, load_with, Adam, Data};

/// Options of `dames tune patterns`.
#[derive(clap::Args)]
pub struct PatternArgs {
    /// Position files (from `gen`, which records the search's values), repeatable.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Passes of the optimiser over the data.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Step size of the optimiser, in hundredths of a man.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Weight decay of the linear weights towards `weights.rs`.
    #[arg(long, default_value_t = 1e-7)]
    l2: f64,
    /// Weight decay of the pattern weights towards 0.
    #[arg(long, default_value_t = 1e-6)]
    pattern_l2: f64,
    /// Share of the search's value in the target (the rest is the game's result).
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// Threads for the gradient.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Fit the linear weights only (every window weight stays 0): what the windows add is the
    /// difference between this fit and the full one.
    #[arg(long)]
    linear_only: bool,
    /// Write the weights here, e.g. crates/ai/src/draughts/patterns.bin.
    #[arg(long)]
    out: PathBuf,
}

/// Held-out errors: against the targets, against the results alone.
type Errors = (f64, f64);

fn errors(valid: &Data, w: &[f64], scale: f64) -> Errors {
    let all = 0..valid.len();
    (
        valid.loss(w, scale, all.clone()),
        valid.loss_against(w, scale, all, &valid.outcome),
    )
}

/// One full-batch gradient of the training set, split over `threads`; its mean and the loss.
fn gradient(train: &Data, w: &[f64], scale: f64, threads: usize) -> (Vec<f64>, f64) {
    let len = train.len();
    let mut total = vec![0.0; w.len()];
    let mut loss = 0.0;
    for (g, sum) in train.gradient_parts(w, scale, threads) {
        total
            .iter_mut()
            .zip(&g)
            .for_each(|(t, g)| *t += g / len as f64);
        loss += sum / len as f64;
    }
    (total, loss)
}

/// `dames tune patterns`.
pub fn fit(args: &PatternArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let (mut train, mut valid) = load_with(&args.data, !args.linear_only)?;
    eprintln!(
        "{} positions to fit, {} held out ({:.0} s)",
        train.len(),
        valid.len(),
        started.elapsed().as_secs_f64()
    );
    let mut start = vec![0.0; 2 * WEIGHT_COUNT];
    for (i, &[mg, eg]) in weights().iter().enumerate() {
        start[2 * i] = f64::from(mg);
        start[2 * i + 1] = f64::from(eg);
    }
    let scale = fit_scale(&train, &start);
    train.blend(args.lambda, scale);
    valid.blend(args.lambda, scale);
    let before = errors(&valid, &start, scale);
    eprintln!(
        "scale {scale:.1}; held out with the linear weights: {:.6} (against the results {:.6})",
        before.0, before.1
    );
    let decay: Vec<f64> = (0..start.len())
        .map(|i| {
            if i < 2 * Feature::COUNT {
                args.l2
            } else {
                args.pattern_l2
            }
        })
        .collect();
    let mut w = start.clone();
    let mut adam = Adam::new(w.len(), 1e-8);
    for epoch in 1..=args.epochs {
        let (mut g, loss) = gradient(&train, &w, scale, args.threads.max(1));
        for i in 0..g.len() {
            g[i] += 2.0 * decay[i] * (w[i] - start[i]);
        }
        adam.step(&mut w, &g, args.rate);
        if epoch % 25 == 0 || epoch == args.epochs {
            let (held, results) = errors(&valid, &w, scale);
            eprintln!(
                "epoch {epoch}: loss {loss:.6}, held out {held:.6} (results {results:.6}), {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    }
    let weights = to_weights(&w);
    let after = errors(&valid, &rounded(&weights), scale);
    eprintln!(
        "rounded: held out {:.6} (results {:.6}), was {:.6} ({:.6})",
        after.0, after.1, before.0, before.1
    );
    let note = format!(
        "dames {}\n{} positions ({} held out, whole games), scale {scale:.1}, lambda {}; \
         held-out mean squared error {:.6} -> {:.6} (against the results alone {:.6} -> {:.6})",
        std::env::args().skip(1).collect::<Vec<_>>().join(" "),
        train.len() + valid.len(),
        valid.len(),
        args.lambda,
        before.0,
        after.0,
        before.1,
        after.1
    );
    let file = PatternWeights::new(note, &weights[..Feature::COUNT], &weights[Feature::COUNT..]);
    let nonzero = file.patterns().iter().filter(|p| **p != [0, 0]).count();
    let bytes = file.to_bytes();
    std::fs::write(&args.out, &bytes).with_context(|| format!("{}", args.out.display()))?;
    eprintln!(
        "{} bytes written, {nonzero} of {} window indices used",
        bytes.len(),
        REGIONS * INDICES
    );
    Ok(())
}

/// The fitted weights as stored: the linear ones in hundredths, the patterns in 1/UNIT.
fn to_weights(w: &[f64]) -> Vec<[i16; 2]> {
    let clamp = |x: f64| x.round().clamp(-32767.0, 32767.0) as i16;
    w.chunks(2)
        .enumerate()
        .map(|(i, c)| {
            let unit = if i < Feature::COUNT {
                1.0
            } else {
                f64::from(UNIT)
            };
            [clamp(c[0] * unit), clamp(c[1] * unit)]
        })
        .collect()
}

/// Stored weights back in the fit's units (hundredths of a man).
fn rounded(weights: &[[i16; 2]]) -> Vec<f64> {
    weights
        .iter()
        .enumerate()
        .flat_map(|(i, &[mg, eg])| {
            let unit = if i < Feature::COUNT {
                1.0
            } else {
                f64::from(UNIT)
            };
            [f64::from(mg) / unit, f64::from(eg) / unit]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::{parse_fen, International, Position};

    #[test]
    fn the_fits_evaluation_is_the_engines() {
        // Random pattern weights: the trainer's value of a position, from the stored weights,
        // is the engine's `evaluate_patterns` (up to rounding).
        let mut rng = dames_ai::Rng::new(5);
        let weights: Vec<[i16; 2]> = (0..WEIGHT_COUNT)
            .map(|i| {
                if i < Feature::COUNT {
                    dames_ai::draughts::weights()[i]
                } else {
                    [rng.below(400) as i16 - 200, rng.below(400) as i16 - 200]
                }
            })
            .collect();
        let file = PatternWeights::new(
            "test".into(),
            &weights[..Feature::COUNT],
            &weights[Feature::COUNT..],
        );
        let w = rounded(&weights);
        for fen in [
            "W:W31,32,33,36,37,41:B1,2,12,13,19",
            "B:W16,27,28,32,33,34,38,K46:B5,7,8,13,19,K41",
        ] {
            let pos: Position<International> = parse_fen(fen).unwrap();
            let mut data = Data::default();
            data.push_with(&pos, 0.5, None, true);
            let engine = dames_ai::draughts::evaluate_patterns(&pos, &file);
            assert!((data.eval(0, &w) - f64::from(engine)).abs() <= 1.0, "{fen}");
        }
    }
}
