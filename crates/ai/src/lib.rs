//! CPU players for both games.
//!
//! This is the interface the platform uses and that the strong AI of issue 5 keeps: a [`Level`],
//! [`Limits`] (time budget, cancellation flag, seed) and one function per game that returns the
//! move to play. For now every level is a simple player: **Facile** picks a random legal move,
//! the other levels pick the best move one ply deep (Chinese checkers: the move that most
//! reduces the total distance to the destination; draughts: captures and promotions first, no
//! piece left hanging, material). The real search and evaluation come with issue 5.
//!
//! Every choice is deterministic for a given position, level and seed.
#![forbid(unsafe_code)]

pub mod cc;
pub mod draughts;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How strong a CPU player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Random legal moves.
    Facile,
    /// One-ply greedy for now.
    Normal,
    /// One-ply greedy for now (issue 5: real search).
    Difficile,
    /// One-ply greedy for now (issue 5: real search).
    Expert,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [
        Level::Facile,
        Level::Normal,
        Level::Difficile,
        Level::Expert,
    ];

    /// The lowercase name used by the protocol (`"facile"` …).
    pub fn name(self) -> &'static str {
        match self {
            Level::Facile => "facile",
            Level::Normal => "normal",
            Level::Difficile => "difficile",
            Level::Expert => "expert",
        }
    }

    /// The level with this name (case-insensitive).
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name))
    }
}

/// What a search may use.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Time budget for the move (the simple players need far less).
    pub time: Duration,
    /// Seed of every random choice: same position, level and seed, same move.
    pub seed: u64,
    /// Set to `true` to stop thinking at once (the game ended, the room was deleted).
    pub cancel: Arc<AtomicBool>,
}

impl Limits {
    /// Whether the search has been cancelled.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// A small deterministic generator (SplitMix64) for the random choices of the CPU players.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Index of the best of `scores` (higher is better), ties broken by `rng`; `None` if empty.
pub fn pick_best(scores: &[i64], rng: &mut Rng) -> Option<usize> {
    let best = *scores.iter().max()?;
    let ties: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] == best).collect();
    Some(ties[rng.below(ties.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_round_trip_through_their_names() {
        for level in Level::ALL {
            assert_eq!(Level::from_name(level.name()), Some(level));
        }
        assert_eq!(Level::from_name("EXPERT"), Some(Level::Expert));
        assert_eq!(Level::from_name("grandmaster"), None);
    }

    #[test]
    fn the_rng_is_deterministic_for_a_seed() {
        let a: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(
            a,
            (0..5)
                .scan(Rng::new(8), |r, _| Some(r.next_u64()))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn pick_best_picks_a_maximum() {
        let mut rng = Rng::new(1);
        for _ in 0..20 {
            let i = pick_best(&[1, 5, 3, 5], &mut rng).unwrap();
            assert!(i == 1 || i == 3);
        }
        assert_eq!(pick_best(&[], &mut rng), None);
    }
}
