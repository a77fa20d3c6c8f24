//! Match statistics shared by `dames selfplay` and `dames match`: the 95 % Wilson interval of a
//! score and the Elo difference it means.

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
}
