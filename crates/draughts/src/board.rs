//! Board geometry: the three board sizes, squares, colours and the padded bit layout.
//!
//! # Numbering and layout
//! Squares are numbered as in FMJD notation (RULES.md part 2): the board is seen from White's
//! side, square 1 is the leftmost dark square of the top row (Black's back row), numbers run left
//! to right and top to bottom, and the last square (50 on 10×10, 32 on 8×8, 72 on 12×12) is
//! White's bottom-right dark square. The bottom-left corner of each player is dark. White's men
//! move up (towards square 1), Black's men move down. White moves first.
//!
//! Internally square `s` (0-based, `s = number - 1`) is bit `s + s / N` of an unsigned integer,
//! where `N` is the board's side: every two rows (`N` squares) are followed by one unused
//! "ghost" bit. With `H = N / 2` squares per row, the four diagonal neighbours of a bit are then
//! `bit − (H + 1)` (up-left), `bit − H` (up-right), `bit + H` (down-left) and `bit + H + 1`
//! (down-right); a step off the left or right edge lands on a ghost bit, a step off the top or
//! bottom leaves the valid range, so every direction is one shift and one mask.
//!
//! ```text
//! 10×10, padded bits (ghosts at 10, 21, 32, 43):
//!      0   1   2   3   4        squares  1  2  3  4  5
//!    5   6   7   8   9          squares  6 … 10
//!     11  12  13  14  15        squares 11 … 15
//!   16  17  18  19  20          …
//! ```

use std::fmt;

use crate::bitboard::Bits;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Color {
    /// Moves first, starts on the high numbers.
    White,
    /// Starts on the low numbers.
    Black,
}

impl Color {
    /// The other side.
    #[inline(always)]
    #[must_use]
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `'W'` or `'B'`, as in FEN and PDN.
    pub fn to_char(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A dark square, by its FMJD number (1-based). Whether it exists depends on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Square(pub u8);

impl Square {
    /// The FMJD number.
    #[inline]
    pub fn number(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The three board sizes, as a runtime value (see [`Board`] for the compile-time types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Variant {
    /// 8×8, 12 men each.
    Brazilian,
    /// 10×10, 20 men each.
    #[default]
    International,
    /// 12×12, 30 men each.
    Canadian,
}

impl Variant {
    /// All variants, smallest board first.
    pub const ALL: [Variant; 3] = [
        Variant::Brazilian,
        Variant::International,
        Variant::Canadian,
    ];

    /// The board side (8, 10 or 12).
    pub fn size(self) -> u32 {
        match self {
            Variant::Brazilian => 8,
            Variant::International => 10,
            Variant::Canadian => 12,
        }
    }

    /// The number of dark squares.
    pub fn squares(self) -> u32 {
        self.size() * self.size() / 2
    }

    /// The lowercase name (`"international"`, …).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Brazilian => "brazilian",
            Variant::International => "international",
            Variant::Canadian => "canadian",
        }
    }

    /// The PDN `GameType` number: 20 International, 26 Brazilian, 27 Canadian.
    pub fn pdn_game_type(self) -> u32 {
        match self {
            Variant::Brazilian => 26,
            Variant::International => 20,
            Variant::Canadian => 27,
        }
    }

    /// The variant of a PDN `GameType` number.
    pub fn from_pdn_game_type(n: u32) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.pdn_game_type() == n)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or(UnknownVariant)
    }
}

/// A variant name that is none of `brazilian`, `international`, `canadian`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownVariant;

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown variant (expected brazilian, international or canadian)")
    }
}

impl std::error::Error for UnknownVariant {}

/// Diagonal directions, as seen from White: up is towards square 1.
pub(crate) const UP_LEFT: usize = 0;
pub(crate) const UP_RIGHT: usize = 1;
pub(crate) const DOWN_LEFT: usize = 2;
pub(crate) const DOWN_RIGHT: usize = 3;

/// A board size, as a type: the rules code is generic over it so that each size compiles to its
/// own fast code. Implemented by [`Brazilian`], [`International`] and [`Canadian`].
pub trait Board:
    Copy + Eq + Ord + std::hash::Hash + fmt::Debug + Default + Send + Sync + 'static
{
    /// The set-of-squares type.
    type Bits: Bits;
    /// The runtime name of this size.
    const VARIANT: Variant;
    /// The side `N` (even).
    const N: u32;
    /// Squares per row, `N / 2`.
    const H: u32 = Self::N / 2;
    /// Number of dark squares, `N² / 2`.
    const SQUARES: u32 = Self::N * Self::N / 2;
    /// Every valid square.
    const ALL: Self::Bits;
    /// The top row (White's crowning row).
    const TOP_ROW: Self::Bits;
    /// The bottom row (Black's crowning row).
    const BOTTOM_ROW: Self::Bits;
    /// Black's men at the start.
    const BLACK_START: Self::Bits;
    /// White's men at the start.
    const WHITE_START: Self::Bits;

    /// The padded bit of a square, if it is on this board.
    #[inline]
    fn bit_of(square: Square) -> Option<u32> {
        let n = u32::from(square.0);
        (1..=Self::SQUARES)
            .contains(&n)
            .then(|| (n - 1) + (n - 1) / Self::N)
    }

    /// The square of a valid padded bit.
    #[inline]
    fn square_of(bit: u32) -> Square {
        debug_assert!(Self::ALL.has(bit));
        Square((bit - bit / (Self::N + 1) + 1) as u8)
    }

    /// The row (0 = top) of a valid padded bit.
    #[inline]
    fn row_of(bit: u32) -> u32 {
        (bit - bit / (Self::N + 1)) / Self::H
    }

    /// Moves every square one step in `dir` (see the direction constants), dropping those that
    /// leave the board.
    #[inline(always)]
    fn step(x: Self::Bits, dir: usize) -> Self::Bits {
        (match dir {
            UP_LEFT => x >> (Self::H + 1),
            UP_RIGHT => x >> Self::H,
            DOWN_LEFT => x << Self::H,
            _ => x << (Self::H + 1),
        }) & Self::ALL
    }

    /// The crowning row of `color`'s men.
    #[inline(always)]
    fn crown_row(color: Color) -> Self::Bits {
        match color {
            Color::White => Self::TOP_ROW,
            Color::Black => Self::BOTTOM_ROW,
        }
    }

    /// The squares from padded bit `bit` (excluded) to the edge of the board along `dir`.
    fn ray(dir: usize, bit: u32) -> Self::Bits;

    /// The nearest of the squares `set` (all on one ray from a square along `dir`).
    #[inline(always)]
    fn nearest(dir: usize, set: Self::Bits) -> u32 {
        if dir >= DOWN_LEFT {
            set.lowest()
        } else {
            set.highest()
        }
    }
}

/// The rays of an `n`×`n` board: `[dir][bit]`, the squares beyond `bit` along `dir`.
const fn rays(n: u32) -> [[u128; 128]; 4] {
    const STEPS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
    let mut out = [[0u128; 128]; 4];
    let h = n / 2;
    let mut s = 0;
    while s < n * n / 2 {
        let r = (s / h) as i32;
        let f = if r % 2 == 0 {
            2 * (s % h) + 1
        } else {
            2 * (s % h)
        } as i32;
        let mut d = 0;
        while d < 4 {
            let (mut rr, mut ff) = (r + STEPS[d].0, f + STEPS[d].1);
            while rr >= 0 && ff >= 0 && rr < n as i32 && ff < n as i32 {
                let s2 = rr as u32 * h + ff as u32 / 2;
                out[d][(s + s / n) as usize] |= 1 << (s2 + s2 / n);
                rr += STEPS[d].0;
                ff += STEPS[d].1;
            }
            d += 1;
        }
        s += 1;
    }
    out
}

/// The padded bits of squares `from..to` (0-based) of an `n`×`n` board.
const fn squares_mask(n: u32, from: u32, to: u32) -> u128 {
    let mut m = 0u128;
    let mut s = from;
    while s < to {
        m |= 1 << (s + s / n);
        s += 1;
    }
    m
}

macro_rules! board {
    ($(#[$doc:meta])* $name:ident, $variant:ident, $n:expr, $bits:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name;

        impl Board for $name {
            type Bits = $bits;
            const VARIANT: Variant = Variant::$variant;
            const N: u32 = $n;
            const ALL: $bits = squares_mask($n, 0, $n * $n / 2) as $bits;
            const TOP_ROW: $bits = squares_mask($n, 0, $n / 2) as $bits;
            const BOTTOM_ROW: $bits = squares_mask($n, $n * $n / 2 - $n / 2, $n * $n / 2) as $bits;
            const BLACK_START: $bits = squares_mask($n, 0, ($n / 2 - 1) * $n / 2) as $bits;
            const WHITE_START: $bits =
                squares_mask($n, $n * $n / 2 - ($n / 2 - 1) * $n / 2, $n * $n / 2) as $bits;

            #[inline(always)]
            fn ray(dir: usize, bit: u32) -> $bits {
                static RAYS: [[$bits; 128]; 4] = {
                    let wide = rays($n);
                    let mut out = [[0; 128]; 4];
                    let mut d = 0;
                    while d < 4 {
                        let mut i = 0;
                        while i < 128 {
                            out[d][i] = wide[d][i] as $bits;
                            i += 1;
                        }
                        d += 1;
                    }
                    out
                };
                RAYS[dir & 3][bit as usize & 127]
            }
        }
    };
}

board!(
    /// The 8×8 board of Brazilian draughts (squares 1–32, 12 men each).
    Brazilian, Brazilian, 8, u64
);
board!(
    /// The 10×10 board of international draughts (squares 1–50, 20 men each).
    International, International, 10, u64
);
board!(
    /// The 12×12 board of Canadian draughts (squares 1–72, 30 men each).
    Canadian, Canadian, 12, u128
);

#[cfg(test)]
mod tests {
    use super::*;

    fn sq<B: Board>(n: u8) -> u32 {
        B::bit_of(Square(n)).unwrap()
    }

    #[test]
    fn layout_round_trips_and_counts() {
        fn check<B: Board>() {
            assert_eq!(B::ALL.count(), B::SQUARES);
            assert_eq!(B::TOP_ROW.count(), B::H);
            assert_eq!(B::BLACK_START.count(), (B::H - 1) * B::H);
            assert_eq!(B::WHITE_START.count(), (B::H - 1) * B::H);
            for n in 1..=B::SQUARES as u8 {
                assert_eq!(B::square_of(sq::<B>(n)), Square(n));
            }
            assert_eq!(B::bit_of(Square(0)), None);
            assert_eq!(B::bit_of(Square(B::SQUARES as u8 + 1)), None);
        }
        check::<Brazilian>();
        check::<International>();
        check::<Canadian>();
    }

    #[test]
    fn directions_follow_the_fmjd_numbering() {
        type B = International;
        let one = |n| <B as Board>::Bits::bit(sq::<B>(n));
        // 28 is on the 6th row: up-left 22, up-right 23, down-left 32, down-right 33.
        assert_eq!(B::step(one(28), UP_LEFT), one(22));
        assert_eq!(B::step(one(28), UP_RIGHT), one(23));
        assert_eq!(B::step(one(28), DOWN_LEFT), one(32));
        assert_eq!(B::step(one(28), DOWN_RIGHT), one(33));
        // Edges: 5 and 15 are on the right edge, 6 and 46 on the left edge.
        assert_eq!(B::step(one(5), DOWN_RIGHT), 0);
        assert_eq!(B::step(one(15), UP_RIGHT), 0);
        assert_eq!(B::step(one(6), UP_LEFT), 0);
        assert_eq!(B::step(one(46), DOWN_LEFT), 0);
        assert_eq!(B::step(one(46), UP_RIGHT), one(41));
        assert_eq!(B::step(one(3), UP_LEFT), 0);
        assert_eq!(B::step(one(48), DOWN_LEFT), 0);
    }

    #[test]
    fn rays_are_repeated_steps() {
        fn check<B: Board>() {
            for bit in B::ALL.iter() {
                for dir in [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT] {
                    let mut walk = B::Bits::ZERO;
                    let mut s = B::step(B::Bits::bit(bit), dir);
                    while !s.is_empty() {
                        walk |= s;
                        s = B::step(s, dir);
                    }
                    assert_eq!(B::ray(dir, bit), walk);
                    if !walk.is_empty() {
                        assert_eq!(
                            B::step(B::Bits::bit(bit), dir),
                            B::Bits::bit(B::nearest(dir, walk))
                        );
                    }
                }
            }
        }
        check::<Brazilian>();
        check::<International>();
        check::<Canadian>();
    }
}
