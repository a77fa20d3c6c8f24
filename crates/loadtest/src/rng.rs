//! A small seeded generator (SplitMix64) for the scripted players and the kill moments: a run is
//! repeatable from the seed that its report prints.

use std::time::{SystemTime, UNIX_EPOCH};

/// SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A seed from the clock, for runs that were given none.
    pub fn clock_seed() -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }

    /// A generator for a sub-task, independent of this one's next draws.
    pub fn fork(&mut self) -> Rng {
        Rng(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_draws_and_between_stays_in_bounds() {
        let (mut a, mut b) = (Rng::new(42), Rng::new(42));
        let draws: Vec<u64> = (0..100).map(|_| a.between(3, 7)).collect();
        assert_eq!(draws, (0..100).map(|_| b.between(3, 7)).collect::<Vec<_>>());
        assert!(draws.iter().all(|d| (3..=7).contains(d)));
        // Every value of the range comes up.
        assert!((3..=7).all(|v| draws.contains(&v)));
        assert_eq!(Rng::new(1).below(0), 0);
    }
}
