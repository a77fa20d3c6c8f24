//! Pattern evaluation for the 10×10 board (issue 21): a weight for every way the men can stand
//! on each 4×4 region of the board, on top of the linear terms of `eval.rs` (material, kings,
//! runaways, tempo, wing balance, …), both fitted together by `dames tune patterns`.
//!
//! The board is cut into 16 overlapping 4×4 windows (top-left corners on rows and files 0, 2,
//! 4 and 6), each holding 8 dark squares. A window's *index* is the base-3 number of its squares
//! in square order (0 empty, 1 a man of the side it is seen from, 2 an enemy man; a king counts
//! as empty here: the linear terms value kings), so 3⁸ = 6 561 indices a window, and a weight
//! pair (opening, ending) for each: 16 × 6 561 × 2 weights.
//!
//! Both sides use the same weights: a window is looked up once as White sees the board and once
//! as Black sees it (the board turned half a turn, colours swapped), and the second value is
//! subtracted. So a position and its colour-turned image evaluate alike, and a symmetric
//! position's patterns add to exactly 0.
//!
//! The indices are computed from the men's squares at each evaluation with a table of each
//! square's contribution to the 32 indices (16 windows × 2 sides): one 64-byte vector add a
//! man, no allocation.
//!
//! The weights come from `patterns.bin` (format in [`file`]), compiled into the binary. The
//! search uses them on 10×10 by default since an SPRT against the linear evaluation accepted
//! them (docs/ai.md, "Pattern evaluation"); `DAMES_EVAL=linear` goes back to the linear one
//! ([`active`]).

pub mod file;

use std::sync::OnceLock;

use draughts::bitboard::Bits;
use draughts::{Board, Color, Position};

use super::eval::Feature;
pub use file::{PatternWeights, WeightsError};

/// Windows on the board.
pub const REGIONS: usize = 16;
/// Dark squares in a window.
pub const REGION_SQUARES: usize = 8;
/// Indices of one window: 3⁸.
pub const INDICES: usize = 6561;
/// Pattern weights are stored in 1/`UNIT` of a hundredth of a man (the many small weights
/// would lose too much to rounding in hundredths).
pub const UNIT: i32 = 4;
/// Weight pairs in a full set: the linear features, then every window's indices.
pub const WEIGHT_COUNT: usize = Feature::COUNT + REGIONS * INDICES;

/// The 10×10 dark squares (0..50) of window `r`, in square order.
pub fn region_squares(r: usize) -> [usize; REGION_SQUARES] {
    let (row0, file0) = (2 * (r / 4), 2 * (r % 4));
    let mut out = [0; REGION_SQUARES];
    let mut n = 0;
    for s in 0..50 {
        let row = s / 5;
        let file = 2 * (s % 5) + usize::from(row % 2 == 0);
        if (row0..row0 + 4).contains(&row) && (file0..file0 + 4).contains(&file) {
            out[n] = s;
            n += 1;
        }
    }
    debug_assert_eq!(n, REGION_SQUARES);
    out
}

/// Per square (0..50) and owner (0 White, 1 Black): what a man there adds to the 16 indices
/// seen by White (lanes 0..16) and the 16 seen by Black (lanes 16..32).
type Contributions = [[[u16; 2 * REGIONS]; 2]; 50];

fn contributions() -> &'static Contributions {
    static TABLE: OnceLock<Box<Contributions>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[[0u16; 2 * REGIONS]; 2]; 50]);
        for r in 0..REGIONS {
            for (j, &s) in region_squares(r).iter().enumerate() {
                let p = 3u16.pow(j as u32);
                // As White sees it: a white man on s is its own (1), a black man an enemy (2).
                t[s][0][r] += p;
                t[s][1][r] += 2 * p;
                // As Black sees it, square s is square 49 − s of the turned board.
                t[49 - s][1][REGIONS + r] += p;
                t[49 - s][0][REGIONS + r] += 2 * p;
            }
        }
        t
    })
}

/// The 16 window indices as White sees the board, then the 16 as Black sees it.
pub fn indices<B: Board>(pos: &Position<B>) -> [u16; 2 * REGIONS] {
    debug_assert_eq!(B::N, 10, "patterns are for the 10×10 board");
    let t = contributions();
    let mut idx = [0u16; 2 * REGIONS];
    for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
        for bit in pos.men_of(color).iter() {
            let s = (bit - bit / (B::N + 1)) as usize;
            let add = &t[s][c];
            for (i, a) in idx.iter_mut().zip(add) {
                *i += a;
            }
        }
    }
    idx
}

/// The weights the search uses on 10×10: the compiled-in `patterns.bin`, or the file named by
/// `DAMES_PATTERNS` (weights tried without a rebuild), or `None` (the linear evaluation) when
/// `DAMES_EVAL=linear` is set. Read once per process; a file that does not load is reported on
/// stderr and the linear evaluation is used.
pub fn active() -> Option<&'static PatternWeights> {
    static ACTIVE: OnceLock<Option<PatternWeights>> = OnceLock::new();
    ACTIVE
        .get_or_init(|| {
            if std::env::var("DAMES_EVAL").is_ok_and(|v| v == "linear") {
                return None;
            }
            let loaded = match std::env::var_os("DAMES_PATTERNS") {
                Some(path) => std::fs::read(&path)
                    .map_err(|e| format!("{}: {e}", path.to_string_lossy()))
                    .and_then(|b| PatternWeights::from_bytes(&b).map_err(|e| e.to_string())),
                None => compiled().map_err(|e| e.to_string()),
            };
            match loaded {
                Ok(w) => Some(w),
                Err(e) => {
                    eprintln!("pattern weights: {e}; the linear evaluation is used");
                    None
                }
            }
        })
        .as_ref()
}

/// The weights compiled into the binary (`crates/ai/src/draughts/patterns.bin`).
///
/// # Errors
/// The file's own error if it does not load (see [`WeightsError`]).
pub fn compiled() -> Result<PatternWeights, WeightsError> {
    PatternWeights::from_bytes(include_bytes!("../patterns.bin"))
}

/// The patterns' share of the evaluation, for White, in 1/[`UNIT`] hundredths of a man:
/// `(opening, ending)`.
#[inline]
pub fn score(w: &PatternWeights, idx: &[u16; 2 * REGIONS]) -> (i32, i32) {
    let (mut mg, mut eg) = (0i32, 0i32);
    for r in 0..REGIONS {
        let [m, e] = w.pattern(r, idx[r]);
        let [bm, be] = w.pattern(r, idx[REGIONS + r]);
        mg += i32::from(m) - i32::from(bm);
        eg += i32::from(e) - i32::from(be);
    }
    (mg, eg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::{parse_fen, International, Position};

    /// The indices the slow way: each window's squares read one by one.
    fn naive(pos: &Position<International>) -> [u16; 2 * REGIONS] {
        let code = |s: usize, own: Color| -> u16 {
            let sq = draughts::Square(s as u8 + 1);
            match pos.piece_at(sq) {
                Some(p) if p.role == draughts::Role::Man => {
                    if p.color == own {
                        1
                    } else {
                        2
                    }
                }
                _ => 0,
            }
        };
        let mut out = [0; 2 * REGIONS];
        for r in 0..REGIONS {
            for (j, &s) in region_squares(r).iter().enumerate() {
                let p = 3u16.pow(j as u32);
                out[r] += p * code(s, Color::White);
                out[REGIONS + r] += p * code(49 - s, Color::Black);
            }
        }
        out
    }

    #[test]
    fn every_square_is_in_a_window_and_windows_hold_eight() {
        let mut seen = [0; 50];
        for r in 0..REGIONS {
            for s in region_squares(r) {
                seen[s] += 1;
            }
        }
        assert!(seen.iter().all(|&n| (1..=4).contains(&n)), "{seen:?}");
        assert_eq!(seen.iter().sum::<usize>(), REGIONS * REGION_SQUARES);
    }

    #[test]
    fn the_indices_are_the_sum_of_each_squares_digit() {
        let mut pos = Position::<International>::initial();
        let mut rng = crate::Rng::new(7);
        for _ in 0..80 {
            assert_eq!(indices(&pos), naive(&pos));
            let mut list = draughts::MoveList::new();
            pos.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos = pos.play_unchecked(list[rng.below(list.len())]);
        }
        let kings: Position<International> = parse_fen("W:W31,K32,33:B1,K2,19").unwrap();
        assert_eq!(indices(&kings), naive(&kings));
    }

    #[test]
    fn the_start_position_looks_the_same_from_both_sides() {
        let idx = indices(&Position::<International>::initial());
        assert_eq!(idx[..REGIONS], idx[REGIONS..]);
    }
}
