//! The draughts evaluation (RULES.md part 2), for the side to move, in hundredths of a man.
//!
//! It is linear in its weights: every term is a *feature* (a count for White minus the same
//! count for Black, see [`Feature`]) times a pair of weights, one for the opening and middle game
//! and one for the ending, blended by the number of pieces left ([`PHASE_ONE`] at the start, 0
//! on an empty board). Being linear is what lets `dames tune` fit the weights on games (logistic
//! regression on results, "Texel tuning"): [`features`] gives the same terms as a sparse vector,
//! and the fitted weights are written to `weights.rs`. On top of the linear part, endings that
//! the draw rules make hopeless are scaled towards 0 ([`drawish_divisor`]).
//!
//! The features: a man on each square (a table of 50 squares, seen from its owner; the 8×8 and
//! 12×12 boards use the nearest 10×10 square), kings, king mobility, kings on the long diagonal,
//! the first king, runaway men (nothing can stop them crowning) by rows to go, outposts, men
//! backed from behind, isolated men, quiet man moves, locked men, the balance of the wings (men
//! and tempo), back-row men while the opponent has no king, a capture threatened by the side not
//! to move, trading down when ahead, and the side to move.

use draughts::bitboard::Bits;
use draughts::{Board, Color, Position};

use super::patterns::{self, PatternWeights, UNIT};
use super::weights::WEIGHTS;

/// The evaluation's terms. Each is the count for White minus the count for Black (a term of
/// one side only, like the side to move, is +1 for White and −1 for Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature;

impl Feature {
    /// A man on relative square `PST + i` (0..50): the square numbered `i + 1` for White, the
    /// square it maps to by turning the board for Black.
    pub const PST: usize = 0;
    /// A king.
    pub const KING: usize = 50;
    /// The empty squares a king reaches in one move.
    pub const KING_MOBILITY: usize = 51;
    /// A king on the long diagonal (46–5 on 10×10).
    pub const KING_LONG_DIAGONAL: usize = 52;
    /// Kings while the opponent has none (1 or 0).
    pub const FIRST_KING: usize = 53;
    /// A runaway man, `RUNAWAY + k − 1` for `k` rows to go (1 to 5).
    pub const RUNAWAY: usize = 54;
    /// A man in the opponent's half backed by two men.
    pub const OUTPOST: usize = 59;
    /// A man with a piece of its own right behind it.
    pub const BACKED: usize = 60;
    /// A man with no piece of its own on a neighbouring square.
    pub const ISOLATED: usize = 61;
    /// A quiet move of a man.
    pub const MAN_MOVES: usize = 62;
    /// A man whose squares ahead are both taken (or off the board).
    pub const LOCKED: usize = 63;
    /// |men on the left wing − men on the right wing|.
    pub const BALANCE_MEN: usize = 64;
    /// |tempo of the left wing − tempo of the right wing| (rows advanced, summed).
    pub const BALANCE_TEMPO: usize = 65;
    /// A man on its own back row while the opponent has no king.
    pub const BACK_ROW: usize = 66;
    /// The side not to move threatens a capture.
    pub const THREAT: usize = 67;
    /// The material lead (men, a king 3) × 64 / (pieces + 6): trading down when ahead.
    pub const TRADE: usize = 68;
    /// The side to move.
    pub const TO_MOVE: usize = 69;
    /// Number of features.
    pub const COUNT: usize = 70;

    /// The name of feature `f`, for the tuner's output.
    pub fn name(f: usize) -> String {
        match f {
            f if f < Self::KING => format!("man on {}", f + 1),
            Self::KING => "king".into(),
            Self::KING_MOBILITY => "king mobility".into(),
            Self::KING_LONG_DIAGONAL => "king on the long diagonal".into(),
            Self::FIRST_KING => "first king".into(),
            f if (Self::RUNAWAY..Self::RUNAWAY + 5).contains(&f) => {
                format!("runaway, {} rows to go", f - Self::RUNAWAY + 1)
            }
            Self::OUTPOST => "outpost".into(),
            Self::BACKED => "backed man".into(),
            Self::ISOLATED => "isolated man".into(),
            Self::MAN_MOVES => "man move".into(),
            Self::LOCKED => "locked man".into(),
            Self::BALANCE_MEN => "wing imbalance (men)".into(),
            Self::BALANCE_TEMPO => "wing imbalance (tempo)".into(),
            Self::BACK_ROW => "back-row man, no enemy king".into(),
            Self::THREAT => "threat by the side not to move".into(),
            Self::TRADE => "trade when ahead".into(),
            Self::TO_MOVE => "side to move".into(),
            _ => format!("feature {f}"),
        }
    }
}

/// The phase of a full board; 0 is an empty one.
pub const PHASE_ONE: i32 = 256;

/// Where the features go: the weighted sum ([`Score`]) or a list (the tuner).
pub(crate) trait Sink {
    fn add(&mut self, feature: usize, value: i32);
}

/// The weighted sums, opening and ending.
struct Score<'a> {
    weights: &'a [[i16; 2]; Feature::COUNT],
    mg: i32,
    eg: i32,
}

impl Score<'_> {
    fn new(weights: &[[i16; 2]; Feature::COUNT]) -> Score<'_> {
        Score {
            weights,
            mg: 0,
            eg: 0,
        }
    }
}

impl Sink for Score<'_> {
    #[inline(always)]
    fn add(&mut self, f: usize, v: i32) {
        let [mg, eg] = self.weights[f];
        self.mg += i32::from(mg) * v;
        self.eg += i32::from(eg) * v;
    }
}

/// Board directions (see `draughts::board`): up is towards square 1 (White's way).
const UP_LEFT: usize = 0;
const UP_RIGHT: usize = 1;
const DOWN_LEFT: usize = 2;
const DOWN_RIGHT: usize = 3;
const DIRS: [usize; 4] = [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT];

/// The value of `pos` for the side to move: with the pattern weights on 10×10 (unless
/// `DAMES_EVAL=linear`, see [`patterns::active`]), else the linear evaluation.
#[inline]
pub fn evaluate<B: Board>(pos: &Position<B>) -> i32 {
    if B::N == 10 {
        if let Some(w) = patterns::active() {
            return evaluate_patterns(pos, w);
        }
    }
    evaluate_linear(pos)
}

/// The linear evaluation (the weights of `weights.rs`), for the side to move: every board
/// but 10×10, and 10×10 with `DAMES_EVAL=linear`.
#[inline]
pub fn evaluate_linear<B: Board>(pos: &Position<B>) -> i32 {
    let mut s = Score::new(&WEIGHTS);
    let phase = add_features(pos, &mut s);
    let v = (s.mg * phase + s.eg * (PHASE_ONE - phase)) / PHASE_ONE;
    for_side_to_move(pos, v / drawish_divisor(pos))
}

/// The value of a 10×10 position for the side to move with pattern weights `w`: the linear
/// features with `w`'s own weights plus the windows' weights (see [`patterns`]).
pub fn evaluate_patterns<B: Board>(pos: &Position<B>, w: &PatternWeights) -> i32 {
    let mut s = Score::new(w.linear());
    let phase = add_features(pos, &mut s);
    let (pmg, peg) = patterns::score(w, &patterns::indices(pos));
    let (mg, eg) = (s.mg * UNIT + pmg, s.eg * UNIT + peg);
    let v = (mg * phase + eg * (PHASE_ONE - phase)) / (PHASE_ONE * UNIT);
    for_side_to_move(pos, v / drawish_divisor(pos))
}

/// White's value `v` of `pos` as the side to move's.
#[inline(always)]
fn for_side_to_move<B: Board>(pos: &Position<B>, v: i32) -> i32 {
    if pos.side_to_move() == Color::White {
        v
    } else {
        -v
    }
}

/// A position as the tuner sees it: the nonzero features for the side to move, the phase and
/// the draw divisor, so that [`evaluate`] is
/// `Σ value × (mg × phase + eg × (PHASE_ONE − phase)) / PHASE_ONE / divisor` (up to rounding).
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// `(feature, value)`, in the frame of the side to move.
    pub values: Vec<(u16, i16)>,
    /// 0 (empty board) to [`PHASE_ONE`] (full board).
    pub phase: i32,
    /// The evaluation is divided by this (see [`drawish_divisor`]).
    pub divisor: i32,
}

/// The features of `pos`, for the side to move.
pub fn features<B: Board>(pos: &Position<B>) -> Features {
    struct List([i32; Feature::COUNT]);
    impl Sink for List {
        fn add(&mut self, f: usize, v: i32) {
            self.0[f] += v;
        }
    }
    let mut list = List([0; Feature::COUNT]);
    let phase = add_features(pos, &mut list);
    let sign = if pos.side_to_move() == Color::White {
        1
    } else {
        -1
    };
    Features {
        values: (0..Feature::COUNT)
            .filter(|&f| list.0[f] != 0)
            .map(|f| (f as u16, (sign * list.0[f]) as i16))
            .collect(),
        phase,
        divisor: drawish_divisor(pos),
    }
}

/// Adds every feature of `pos` (White's minus Black's) to `sink`; returns the phase.
#[inline(always)]
fn add_features<B: Board, S: Sink>(pos: &Position<B>, sink: &mut S) -> i32 {
    side::<B, S>(pos, Color::White, 1, sink);
    side::<B, S>(pos, Color::Black, -1, sink);
    let (wm, wk) = pos.count(Color::White);
    let (bm, bk) = pos.count(Color::Black);
    let pieces = (wm + wk + bm + bk) as i32;
    let lead = (wm as i32 - bm as i32) + 3 * (wk as i32 - bk as i32);
    sink.add(Feature::TRADE, lead * 64 / (pieces + 6));
    let white = pos.side_to_move() == Color::White;
    sink.add(Feature::TO_MOVE, if white { 1 } else { -1 });
    // A capture threatened by the side not to move (the side to move has none: the search only
    // evaluates quiet positions).
    let other = pos.side_to_move().opponent();
    if pos.with_side_to_move(other).has_captures() {
        sink.add(Feature::THREAT, if white { -1 } else { 1 });
    }
    let full = 2 * B::WHITE_START.count() as i32;
    (pieces * PHASE_ONE / full).min(PHASE_ONE)
}

/// The terms of `color`'s pieces, added with `sign`.
#[inline(always)]
fn side<B: Board, S: Sink>(pos: &Position<B>, color: Color, sign: i32, sink: &mut S) {
    let own = pos.pieces(color);
    let men = pos.men_of(color);
    let kings = pos.kings_of(color);
    let enemy = pos.pieces(color.opponent());
    let enemy_kings = pos.kings_of(color.opponent());
    let occ = pos.occupied();
    let empty = B::ALL & !occ;
    let n = B::N;
    let (fwd, back) = match color {
        Color::White => ([UP_LEFT, UP_RIGHT], [DOWN_RIGHT, DOWN_LEFT]),
        Color::Black => ([DOWN_LEFT, DOWN_RIGHT], [UP_RIGHT, UP_LEFT]),
    };
    // Men: squares, runaways, outposts, wings.
    let outposts = B::step(men, fwd[0]) & B::step(men, fwd[1]);
    let (mut left, mut right, mut left_tempo, mut right_tempo) = (0i32, 0i32, 0i32, 0i32);
    for bit in men.iter() {
        let row = B::row_of(bit);
        let to_go = match color {
            Color::White => row,
            Color::Black => n - 1 - row,
        };
        sink.add(Feature::PST + relative_square::<B>(bit, color), sign);
        let advanced = (n - 1 - to_go) as i32;
        if 2 * file::<B>(bit) < n - 1 {
            left += 1;
            left_tempo += advanced;
        } else {
            right += 1;
            right_tempo += advanced;
        }
        let b = B::Bits::bit(bit);
        if to_go < n / 2 && !(outposts & b).is_empty() {
            sink.add(Feature::OUTPOST, sign);
        }
        if to_go == n - 1 && enemy_kings.is_empty() {
            sink.add(Feature::BACK_ROW, sign);
        }
        if to_go <= n / 2 && to_go > 0 && runaway::<B>(b, to_go, fwd, enemy, occ) {
            sink.add(Feature::RUNAWAY + to_go.min(5) as usize - 1, sign);
        }
    }
    let (left, right) = match color {
        Color::White => (left, right),
        Color::Black => (right, left),
    };
    let (left_tempo, right_tempo) = match color {
        Color::White => (left_tempo, right_tempo),
        Color::Black => (right_tempo, left_tempo),
    };
    sink.add(Feature::BALANCE_MEN, sign * (left - right).abs());
    sink.add(
        Feature::BALANCE_TEMPO,
        sign * (left_tempo - right_tempo).abs(),
    );
    // Formation: backed, isolated, mobile and locked men.
    let backed = men & (B::step(own, fwd[0]) | B::step(own, fwd[1]));
    sink.add(Feature::BACKED, sign * backed.count() as i32);
    let neighbours = DIRS
        .iter()
        .fold(B::Bits::ZERO, |acc, &d| acc | B::step(own, d));
    sink.add(Feature::ISOLATED, sign * (men & !neighbours).count() as i32);
    let moves = (B::step(men, fwd[0]) & empty).count() + (B::step(men, fwd[1]) & empty).count();
    sink.add(Feature::MAN_MOVES, sign * moves as i32);
    let movable = men & (B::step(empty, back[0]) | B::step(empty, back[1]));
    sink.add(Feature::LOCKED, sign * (men & !movable).count() as i32);
    // Kings.
    if !kings.is_empty() {
        sink.add(Feature::KING, sign * kings.count() as i32);
        if enemy_kings.is_empty() {
            sink.add(Feature::FIRST_KING, sign);
        }
        let mut mobility = 0;
        let mut diagonal = 0;
        for k in kings.iter() {
            for dir in DIRS {
                let ray = B::ray(dir, k);
                let blockers = ray & occ;
                mobility += if blockers.is_empty() {
                    ray.count()
                } else {
                    let b = B::nearest(dir, blockers);
                    ray.count() - B::ray(dir, b).count() - 1
                };
            }
            if B::row_of(k) + file::<B>(k) == n - 1 {
                diagonal += 1;
            }
        }
        sink.add(Feature::KING_MOBILITY, sign * mobility as i32);
        sink.add(Feature::KING_LONG_DIAGONAL, sign * diagonal);
    }
}

/// The divisor of endings the draw rules make drawn unless a shot decides them: a lone king
/// against at most three pieces with a king (16), kings only with at most one more (4).
pub fn drawish_divisor<B: Board>(pos: &Position<B>) -> i32 {
    let (wm, wk) = pos.count(Color::White);
    let (bm, bk) = pos.count(Color::Black);
    let lone = |m: u32, k: u32| m == 0 && k == 1;
    let few = |m: u32, k: u32| m + k <= 3 && k >= 1;
    if (lone(bm, bk) && few(wm, wk)) || (lone(wm, wk) && few(bm, bk)) {
        return 16;
    }
    if wm == 0 && bm == 0 && wk.abs_diff(bk) <= 1 {
        return 4;
    }
    1
}

/// The file (0 = left as White sees the board) of a valid padded bit.
#[inline(always)]
fn file<B: Board>(bit: u32) -> u32 {
    let s = bit - bit / (B::N + 1);
    let row = s / B::H;
    2 * (s % B::H) + u32::from(row % 2 == 0)
}

/// The square (0..50) of the 10×10 table for a man of `color` on `bit`: its own square number
/// minus one for White, the square turned by half a turn for Black; on the other boards the
/// 10×10 square at the same place (row and file scaled, then moved onto a dark square).
#[inline(always)]
fn relative_square<B: Board>(bit: u32, color: Color) -> usize {
    let s = bit - bit / (B::N + 1);
    let s = match color {
        Color::White => s,
        Color::Black => B::SQUARES - 1 - s,
    };
    if B::N == 10 {
        return s as usize;
    }
    let (n, h) = (B::N, B::H);
    let row = s / h;
    let file = 2 * (s % h) + u32::from(row % 2 == 0);
    let scale = |x: u32| (x * 9 + (n - 1) / 2) / (n - 1);
    let (r, mut f) = (scale(row), scale(file));
    // Dark squares: an odd file on an even row, an even file on an odd one.
    if (r + f) % 2 == 0 {
        f = if f < 5 { f + 1 } else { f - 1 };
    }
    (r * 5 + f / 2) as usize
}

/// Whether a man on `b` has a free run: no enemy piece in the cone of squares ahead of it and
/// its own next squares not all blocked.
fn runaway<B: Board>(
    b: B::Bits,
    to_go: u32,
    fwd: [usize; 2],
    enemy: B::Bits,
    occ: B::Bits,
) -> bool {
    let mut front = b;
    let mut cone = B::Bits::ZERO;
    for _ in 0..to_go {
        front = B::step(front, fwd[0]) | B::step(front, fwd[1]);
        // Widen by one on each side: an enemy next to the path can still intercept.
        cone |= front;
    }
    let wide = cone | B::step(cone, fwd[0]) | B::step(cone, fwd[1]);
    let next = B::step(b, fwd[0]) | B::step(b, fwd[1]);
    (wide & enemy).is_empty() && !(next & !occ).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::{parse_fen, Brazilian, Canadian, International};

    #[test]
    fn the_start_is_level_and_material_counts() {
        let start = Position::<International>::initial();
        // Only the side to move's term is not symmetric.
        assert_eq!(
            evaluate_linear(&start),
            (i32::from(WEIGHTS[Feature::TO_MOVE][0]) * PHASE_ONE) / PHASE_ONE
        );
        let up: Position<International> = parse_fen("W:W31,32,33:B1,2").unwrap();
        assert!(evaluate(&up) > 50);
    }

    #[test]
    fn a_runaway_man_is_worth_more_than_a_stopped_one() {
        let free: Position<International> = parse_fen("W:W16,46:B5").unwrap();
        let blocked: Position<International> = parse_fen("W:W16,46:B7").unwrap();
        assert!(evaluate_linear(&free) > evaluate_linear(&blocked) + 50);
        // The fitted patterns and linear weights (few such endings in the games) keep less of
        // the gap (94 against 49), but keep it.
        assert!(evaluate(&free) > evaluate(&blocked) + 25);
    }

    #[test]
    fn the_features_are_the_evaluation() {
        for fen in [
            "W:W31,32,33,K40:B1,2,K12",
            "B:W16,27,28,32,33,34,38,K46:B5,7,8,13,19,K41",
            "W:WK47,K50:BK1,K4",
        ] {
            let pos: Position<International> = parse_fen(fen).unwrap();
            let f = features(&pos);
            let mut mg = 0;
            let mut eg = 0;
            for &(i, v) in &f.values {
                mg += i32::from(WEIGHTS[usize::from(i)][0]) * i32::from(v);
                eg += i32::from(WEIGHTS[usize::from(i)][1]) * i32::from(v);
            }
            let v = (mg * f.phase + eg * (PHASE_ONE - f.phase)) / PHASE_ONE / f.divisor;
            assert_eq!(v, evaluate_linear(&pos), "{fen}");
        }
    }

    /// `pos` turned half a turn with the colours swapped: the same position for the other side.
    fn turned<B: Board>(pos: &Position<B>) -> Position<B> {
        let mut out = Position::<B>::empty(pos.side_to_move().opponent());
        for (sq, mut piece) in pos.iter() {
            piece.color = piece.color.opponent();
            let sq = draughts::Square((B::SQUARES + 1) as u8 - sq.number());
            out = out.put(sq, piece).unwrap();
        }
        out
    }

    #[test]
    fn colours_are_symmetric_on_every_board() {
        fn check<B: Board>(fen: &str) {
            let pos: Position<B> = parse_fen(fen).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&turned(&pos)), "{fen}");
            assert_eq!(
                evaluate_linear(&pos),
                evaluate_linear(&turned(&pos)),
                "{fen}"
            );
        }
        check::<International>("W:W16,27,28,32,33,34,38,K46:B5,7,8,13,19,K41");
        check::<Brazilian>("W:W17,21,22,26,K30:B1,6,9,10");
        check::<Canadian>("B:W40,45,50,51,60,K70:B1,2,3,13,24,35");
    }

    /// Pattern weights with random window weights and the linear weights of `weights.rs`.
    fn random_patterns(seed: u64) -> PatternWeights {
        let mut rng = crate::Rng::new(seed);
        let windows: Vec<[i16; 2]> = (0..patterns::REGIONS * patterns::INDICES)
            .map(|_| [rng.below(800) as i16 - 400, rng.below(800) as i16 - 400])
            .collect();
        PatternWeights::new("test".into(), &WEIGHTS, &windows)
    }

    #[test]
    fn with_patterns_colours_are_symmetric() {
        let w = random_patterns(1);
        for fen in [
            "W:W16,27,28,32,33,34,38,K46:B5,7,8,13,19,K41",
            "B:W31,32,33,34,35,36,37,38,39,40:B1,2,3,4,5,11,12,13,14,15",
        ] {
            let pos: Position<International> = parse_fen(fen).unwrap();
            assert_eq!(
                evaluate_patterns(&pos, &w),
                evaluate_patterns(&turned(&pos), &w),
                "{fen}"
            );
        }
    }

    #[test]
    fn a_symmetric_position_has_no_pattern_value() {
        let w = random_patterns(2);
        // The start, and a position equal to its colour-turned image.
        for fen in ["W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20", "W:W28,33,39,K45:BK6,12,18,23"] {
            let pos: Position<International> = parse_fen(fen).unwrap();
            assert_eq!(patterns::score(&w, &patterns::indices(&pos)), (0, 0), "{fen}");
            // So the evaluation is the linear one's (the side to move's term only).
            assert_eq!(evaluate_patterns(&pos, &w), evaluate_linear(&pos), "{fen}");
        }
        let lopsided: Position<International> = parse_fen("W:W28,33,39:B6,12,17").unwrap();
        assert_ne!(patterns::score(&w, &patterns::indices(&lopsided)), (0, 0));
    }

    #[test]
    fn other_boards_use_dark_squares_of_the_table() {
        for bit in Brazilian::ALL.iter() {
            for c in [Color::White, Color::Black] {
                assert!(relative_square::<Brazilian>(bit, c) < 50);
            }
        }
        for bit in Canadian::ALL.iter() {
            assert!(relative_square::<Canadian>(bit, Color::White) < 50);
        }
        // Corners map to corners.
        let sq = |n: u8| Brazilian::bit_of(draughts::Square(n)).unwrap();
        assert_eq!(relative_square::<Brazilian>(sq(1), Color::White), 0);
        assert_eq!(relative_square::<Brazilian>(sq(32), Color::White), 49);
        assert_eq!(relative_square::<Brazilian>(sq(29), Color::White), 45);
    }
}
