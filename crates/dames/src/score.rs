//! Match statistics shared by `dames selfplay` and `dames match`: the 95 % Wilson interval of a
//! score and the Elo difference it means, and the sequential probability ratio test ([`Sprt`])
//! that `dames match --sprt` stops on.

/// The 95 % Wilson score interval of a mean score `mean` (draws count half) over `n` games:
/// sound at 0 % and 100 % too.
pub fn wilson(mean: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96_f64;
    let centre = (mean + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (mean * (1.0 - mean) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo difference for an expected score, as text (±∞ at 0 and 1).
pub fn elo(p: f64) -> String {
    if p <= 0.0005 {
        return "−∞".into();
    }
    if p >= 0.9995 {
        return "+∞".into();
    }
    // `+ 0.0` writes an even score as +0, not −0.
    format!("{:+.0}", -400.0 * (1.0 / p - 1.0).log10() + 0.0)
}

/// A generalised sequential probability ratio test (GSPRT) between two Elo differences, as the
/// chess testing frameworks run it (fishtest's `LLR_logistic`, after Michel Van den Bergh): the
/// results are outcomes equally spaced on `[0, 1]` (game pairs: the pentanomial 0, ¼, ½, ¾, 1 of
/// a pair's mean score; single games: the trinomial 0, ½, 1), and the log-likelihood ratio
/// compares the most likely distribution of those outcomes whose mean is the expected score of
/// `elo1` with the one whose mean is that of `elo0` (logistic Elo: `1 / (1 + 10^(−elo/400))`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0: A is `elo0` stronger than B (or less).
    pub elo0: f64,
    /// H1: A is `elo1` stronger than B (or more).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What an [`Sprt`] concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR crossed the upper bound: A is at least `elo1` stronger (within `alpha`).
    H1,
    /// The LLR crossed the lower bound: A is at most `elo0` stronger (within `beta`).
    H0,
}

impl Sprt {
    /// The LLR below which H0 is accepted and above which H1 is: `ln(β / (1 − α))` and
    /// `ln((1 − β) / α)` (±2.94 for α = β = 0.05).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for `counts[i]` results of score
    /// `i / (counts.len() − 1)` (a count of 0 is taken as 0.001, as fishtest does, so that an
    /// outcome not yet seen is not held impossible).
    pub fn llr(&self, counts: &[u64]) -> f64 {
        if counts.iter().sum::<u64>() == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = counts.iter().map(|&c| (c as f64).max(1e-3)).collect();
        llr(
            &counts,
            expected_score(self.elo0),
            expected_score(self.elo1),
        )
    }

    /// The verdict of `llr`, if it crossed a bound.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

/// The expected score of a player `elo` stronger (logistic Elo).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// `N × Σ p̂ᵢ ln(p₁ᵢ / p₀ᵢ)`, where `p̂` is the empirical distribution of `counts` over scores
/// equally spaced on `[0, 1]` and `pₖ` the most likely distribution of mean `sₖ` (both means
/// strictly inside `(0, 1)`, and outcomes seen on both sides of each).
pub fn llr(counts: &[f64], s0: f64, s1: f64) -> f64 {
    let n: f64 = counts.iter().sum();
    let last = (counts.len() - 1) as f64;
    let empirical: Vec<(f64, f64)> = (0..counts.len())
        .map(|i| (i as f64 / last, counts[i] / n))
        .filter(|&(_, p)| p > 0.0)
        .collect();
    let (q0, q1) = (mle(&empirical, s0), mle(&empirical, s1));
    n * empirical
        .iter()
        .zip(q0.iter().zip(&q1))
        .map(|(&(_, p), (a, b))| p * (b / a).ln())
        .sum::<f64>()
}

/// The distribution on the support of `empirical` (score, probability) of mean `s` that is most
/// likely to have produced it: `pᵢ / (1 + x (aᵢ − s))`, with `x` the root of
/// `Σ pᵢ (aᵢ − s) / (1 + x (aᵢ − s)) = 0` (a Lagrange multiplier; the sum decreases in `x`,
/// so bisection finds it between the poles).
fn mle(empirical: &[(f64, f64)], s: f64) -> Vec<f64> {
    let secular = |x: f64| -> f64 {
        empirical
            .iter()
            .map(|&(a, p)| p * (a - s) / (1.0 + x * (a - s)))
            .sum()
    };
    let lowest = empirical.iter().map(|&(a, _)| a - s).fold(0.0, f64::min);
    let highest = empirical.iter().map(|&(a, _)| a - s).fold(0.0, f64::max);
    // Every outcome on one side of `s`: the mean cannot be `s`; the closest is at the pole.
    let (mut lo, mut hi) = (-1.0 / highest.max(1e-12), -1.0 / lowest.min(-1e-12));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if secular(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    empirical
        .iter()
        .map(|&(a, p)| p / (1.0 + x * (a - s)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_and_elo_of_known_scores() {
        let (lo, hi) = wilson(0.5, 40.0);
        assert!(
            (lo - 0.352).abs() < 0.001 && (hi - 0.648).abs() < 0.001,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(1.0, 100.0);
        assert!((lo - 0.963).abs() < 0.001 && hi > 0.999_999, "{lo} {hi}");
        assert_eq!(elo(0.5), "+0");
        assert_eq!(elo(0.75), "+191");
        assert_eq!(elo(0.0), "−∞");
    }

    /// Values computed apart, in Python, by other means than the bisection: the trinomial by
    /// the roots of the quadratic its secular equation becomes, the pentanomial by Newton's
    /// method, wins and losses only by the classical SPRT's `W ln(s₁/s₀) + L ln((1 − s₁)/(1 −
    /// s₀))`.
    #[test]
    fn the_llr_matches_values_computed_by_hand() {
        let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-9, "{a} against {b}");
        let (s0, s20) = (expected_score(0.0), expected_score(20.0));
        // Trinomial: 20 lost, 30 drawn, 50 won.
        close(llr(&[20.0, 30.0, 50.0], s0, s20), 2.241_751_451_220_433);
        // Symmetric results between symmetric hypotheses: no evidence either way.
        close(llr(&[30.0, 40.0, 30.0], 0.45, 0.55), 0.0);
        // Pentanomial pairs (0, ½, 1, 1½, 2 for A).
        close(
            llr(&[3.0, 10.0, 40.0, 15.0, 7.0], s0, s20),
            1.173_657_753_511_603_7,
        );
        let (lo, hi) = (expected_score(-5.0), expected_score(15.0));
        close(
            llr(&[1.0, 8.0, 30.0, 20.0, 6.0], lo, hi),
            2.669_612_976_822_057_3,
        );
        // Wins and losses only: the classical SPRT.
        let s50 = expected_score(50.0);
        close(
            llr(&[5.0, 0.0, 0.0, 0.0, 12.0], s0, s50),
            0.831_945_703_329_868_2,
        );
    }

    #[test]
    fn the_sprt_bounds_and_verdicts() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944_438_979).abs() < 1e-8 && (upper - 2.944_438_979).abs() < 1e-8);
        assert_eq!(sprt.llr(&[0; 5]), 0.0);
        assert_eq!(sprt.verdict(0.0), None);
        assert_eq!(sprt.verdict(3.0), Some(Verdict::H1));
        assert_eq!(sprt.verdict(-3.0), Some(Verdict::H0));
        // Many more pairs won than lost: H1; the reverse: H0. An unseen outcome counts 0.001.
        assert_eq!(
            sprt.verdict(sprt.llr(&[2, 10, 40, 30, 10])),
            Some(Verdict::H1)
        );
        assert_eq!(
            sprt.verdict(sprt.llr(&[10, 30, 40, 10, 2])),
            Some(Verdict::H0)
        );
        assert!(sprt.llr(&[0, 0, 0, 0, 1]) > 0.0 && sprt.llr(&[1, 0, 0, 0, 0]) < 0.0);
        // Equal strength: the LLR drifts towards H0 (its mean is below 0 under elo0 = 0).
        assert!(sprt.llr(&[5, 20, 50, 20, 5]) < 0.0);
    }
}
