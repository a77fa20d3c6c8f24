//! CPU players for both games: searches, evaluations and the four levels.
//!
//! One entry point per game, used by the server for CPU seats and hints, by `dames selfplay` and
//! by `dames hub`:
//! - [`cc::choose`] / [`cc::analyse`]: Chinese checkers. Two players: iterative-deepening PVS with
//!   a transposition table; three to six players: focused paranoid search (opponents answer with
//!   their few most plausible moves; plain paranoid and max^n in [`cc::MultiSearch`]), all on
//!   the same evaluation (distance to the destination camp, stragglers, jump lanes).
//!   [`cc::greedy`] is the one-ply reference player of the ladder.
//! - [`draughts::choose`] / [`draughts::analyse`]: draughts on every board size. PVS with
//!   iterative deepening, transposition table, capture quiescence, killers and history, an
//!   evaluation with material, kings, tempo, centre, outposts and runaway men, and repetition
//!   draws.
//!
//! A [`Level`] maps to a [`Plan`]: how much of the budget it uses, how deep it may go and how much
//! noise it adds to its choice (Facile makes human mistakes: a weighted random pick among the
//! decent moves). The budget is [`Limits::time`] (2 s when zero), optionally capped by a node
//! count ([`Budget`]) for reproducible matches.
//!
//! Every choice is deterministic for a given position, level, seed and node or depth limit; with a
//! time limit the depth reached depends on the machine.
//!
//! ```
//! use chinese_checkers::{Game, Rules, Seat};
//! use dames_ai::{Budget, Level, Limits};
//!
//! let game = Game::new(Rules::default(), Seat(0)).unwrap();
//! let limits = Limits { seed: 1, ..Limits::default() };
//! let budget = Budget { nodes: Some(2_000), ..Budget::default() };
//! let analysis = dames_ai::cc::analyse(&game, Level::Expert, &limits, &budget).unwrap();
//! assert!(game.legal_moves_vec().contains(&analysis.best));
//! assert_eq!(analysis.pv[0], analysis.best);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cc;
pub mod draughts;
mod search;
mod time;
mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use time::{with_checkpoint, Clock};

/// How strong a CPU player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Human mistakes: a shallow search, then a weighted random pick among the decent moves.
    Facile,
    /// A shallow search (a few plies) with some noise in its choice.
    Normal,
    /// The full search on an eighth of the budget (plain paranoid with 3–6 Chinese checkers
    /// players).
    Difficile,
    /// The full search on the whole budget.
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

    /// What the level does with a budget (see [`Plan`]).
    pub fn plan(self) -> Plan {
        match self {
            Level::Facile => Plan {
                share: 16,
                max_depth: 1,
                noise: 60,
                focused: true,
            },
            Level::Normal => Plan {
                share: 16,
                max_depth: 2,
                noise: 8,
                focused: true,
            },
            Level::Difficile => Plan {
                share: 8,
                max_depth: MAX_DEPTH,
                noise: 0,
                focused: false,
            },
            Level::Expert => Plan {
                share: 1,
                max_depth: MAX_DEPTH,
                noise: 0,
                focused: true,
            },
        }
    }
}

/// Deepest nominal search depth.
pub const MAX_DEPTH: u32 = 48;

/// How a level uses the budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The level uses `1 / share` of the time and node budget.
    pub share: u32,
    /// Deepest iteration (in plies; draughts adds capture quiescence; levels below Difficile use
    /// this as their main limit and the game multiplies it, see each game's module).
    pub max_depth: u32,
    /// Root noise: moves within about this many centi-units of the best may be picked, with
    /// weights falling with the loss (0: always the best).
    pub noise: i32,
    /// Chinese checkers with 3–6 players: whether the default search is the focused paranoid
    /// one (Difficile plays plain paranoid, see docs/ai.md).
    pub focused: bool,
}

/// Default budget when [`Limits::time`] is zero: 2 s a move.
pub const DEFAULT_TIME: Duration = Duration::from_secs(2);

/// What a search may use.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Time budget for the move (zero: [`DEFAULT_TIME`]). Expert uses all of it, weaker levels
    /// a share (see [`Plan`]).
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

    /// The time budget, [`DEFAULT_TIME`] when unset.
    pub fn budget(&self) -> Duration {
        if self.time.is_zero() {
            DEFAULT_TIME
        } else {
            self.time
        }
    }
}

/// Extra limits for reproducible searches (matches, tests, analysis): a node cap for the full
/// budget (levels use their share of it) and a depth cap. The default adds none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Nodes for the full budget (Expert); `None`: time only.
    pub nodes: Option<u64>,
    /// Deepest iteration; `None`: the level's own.
    pub depth: Option<u32>,
}

/// A transposition table kept from one search to the next, for an engine that plays a whole
/// game (`dames hub`): each search starts with what the earlier ones stored, instead of a
/// table sized for one move and cleared every move. Entries are replaced by depth for the same
/// position and always for another one, so old entries make room by themselves.
pub struct Table {
    tt: tt::Tt,
}

impl Table {
    /// A table of about `megabytes` MiB (16-byte entries, a power of two, 1 MiB to 4 GiB).
    pub fn new(megabytes: usize) -> Table {
        let entries = (megabytes.clamp(1, 4096) as u64) << 16;
        Table {
            tt: tt::Tt::new(63 - entries.leading_zeros()),
        }
    }

    /// Takes the table out (a 1-entry table is left in its place).
    pub(crate) fn take(&mut self) -> tt::Tt {
        std::mem::replace(&mut self.tt, tt::Tt::new(0))
    }

    /// Puts the table back after a search.
    pub(crate) fn put(&mut self, tt: tt::Tt) {
        self.tt = tt;
    }
}

/// Positions the transposition table is sized for: the node cap, or about half a million a
/// second of budget (so that a short search does not spend its time clearing a big table).
pub(crate) fn table_nodes(time: Duration, nodes: Option<u64>) -> u64 {
    let by_time = (time.as_millis() as u64).saturating_mul(500).max(1 << 14);
    nodes.map_or(by_time, |n| n.min(by_time))
}

/// The result of a search: the move, its evaluation and the principal variation.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<M> {
    /// The move chosen (with noise at the lower levels, so not always `pv[0]`).
    pub best: M,
    /// Evaluation of the best line for the side to move, in centi-units (draughts: hundredths
    /// of a man; Chinese checkers: tenths of a hole of progress). Wins are near ±[`WIN`].
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation, from the position searched (starts with the searched best move).
    pub pv: Vec<M>,
    /// Time used.
    pub elapsed: Duration,
}

/// Builds the tables that a first search would otherwise build on the spot, so that no player's
/// move waits for them: today the rows tables of the crossing planner (Expert alone on the
/// board, the « Défi solitaire »), about 11 s of one core and 10.6 MB kept for the process.
/// Blocking: a server calls it once at start in a thread of its own
/// (`std::thread::spawn(dames_ai::warm_up)`); a search that needs the tables meanwhile waits for
/// this build (Expert alone: half its budget at most, then it searches instead). Calling it
/// again does nothing.
pub fn warm_up() {
    cc::solitaire::warm_up();
}

/// Score of a won game (minus the plies to the win).
pub const WIN: i32 = 1_000_000;

/// Whether a score announces a forced win or loss.
pub fn is_decisive(score: i32) -> bool {
    score.abs() > WIN - 1_000
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

/// A weighted random pick among `scores` (higher is better): moves within `3 × noise` of the
/// best, weight halving every `noise / 2` of loss. `noise == 0`: the best, ties at random.
pub fn pick_noisy(scores: &[i32], noise: i32, rng: &mut Rng) -> Option<usize> {
    let best = *scores.iter().max()?;
    if noise <= 0 || is_decisive(best) {
        let wide: Vec<i64> = scores.iter().map(|&s| i64::from(s)).collect();
        return pick_best(&wide, rng);
    }
    let half = (noise / 2).max(1);
    let weights: Vec<u64> = scores
        .iter()
        .map(|&s| {
            let loss = best.saturating_sub(s);
            if loss > 3 * noise {
                0
            } else {
                1024 >> (loss / half).min(10)
            }
        })
        .collect();
    let total: u64 = weights.iter().sum();
    let mut r = rng.next_u64() % total.max(1);
    for (i, &w) in weights.iter().enumerate() {
        if r < w {
            return Some(i);
        }
        r -= w;
    }
    Some(0)
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

    #[test]
    fn noisy_picks_stay_among_decent_moves() {
        let mut rng = Rng::new(3);
        let scores = [100, 95, 80, -500];
        let mut seen = [0; 4];
        for _ in 0..400 {
            seen[pick_noisy(&scores, 10, &mut rng).unwrap()] += 1;
        }
        assert_eq!(seen[3], 0, "a blunder far below the best is never picked");
        assert!(
            seen[0] > seen[1] && seen[1] > seen[2] && seen[2] > 0,
            "{seen:?}"
        );
        assert_eq!(pick_noisy(&scores, 0, &mut rng), Some(0));
    }
}
