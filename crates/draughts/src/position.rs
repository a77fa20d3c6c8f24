//! A position: the pieces on the board and the side to move, and how a move changes it.

use std::fmt;

use crate::bitboard::Bits;
use crate::board::{Board, Color, Square};
use crate::moves::Move;

/// Man or king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Role {
    /// Moves one square forward, captures forward and backward.
    Man,
    /// Flies along diagonals.
    King,
}

/// A piece: a colour and a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}

/// The pieces on a board of size `B` and the side to move. Small and `Copy`: playing a move
/// returns a new position.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<B: Board> {
    pub(crate) white: B::Bits,
    pub(crate) black: B::Bits,
    pub(crate) kings: B::Bits,
    pub(crate) side: Color,
}

/// Why a set of pieces is not a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvalidPosition {
    /// A set holds a bit that is not a square of this board.
    OffBoard,
    /// A square holds both a white and a black piece.
    Overlap,
    /// A king bit is set on an empty square.
    KingWithoutPiece,
}

impl fmt::Display for InvalidPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InvalidPosition::OffBoard => "a piece is off the board",
            InvalidPosition::Overlap => "a square holds a white and a black piece",
            InvalidPosition::KingWithoutPiece => "a king is marked on an empty square",
        })
    }
}

impl std::error::Error for InvalidPosition {}

impl<B: Board> Default for Position<B> {
    fn default() -> Self {
        Self::initial()
    }
}

impl<B: Board> Position<B> {
    /// The starting position: each side's men on its first `N/2 − 1` rows, White to move.
    pub fn initial() -> Self {
        Position {
            white: B::WHITE_START,
            black: B::BLACK_START,
            kings: B::Bits::ZERO,
            side: Color::White,
        }
    }

    /// A position from padded bit sets (see [`crate::board`]).
    ///
    /// # Errors
    /// [`InvalidPosition`] if a set leaves the board, the colours overlap or a king bit is on an
    /// empty square.
    pub fn from_bits(
        white: B::Bits,
        black: B::Bits,
        kings: B::Bits,
        side: Color,
    ) -> Result<Self, InvalidPosition> {
        if !((white | black | kings) & !B::ALL).is_empty() {
            return Err(InvalidPosition::OffBoard);
        }
        if !(white & black).is_empty() {
            return Err(InvalidPosition::Overlap);
        }
        if !(kings & !(white | black)).is_empty() {
            return Err(InvalidPosition::KingWithoutPiece);
        }
        Ok(Position {
            white,
            black,
            kings,
            side,
        })
    }

    /// An empty board with `side` to move; add pieces with [`Position::put`].
    pub fn empty(side: Color) -> Self {
        Position {
            white: B::Bits::ZERO,
            black: B::Bits::ZERO,
            kings: B::Bits::ZERO,
            side,
        }
    }

    /// Puts `piece` on `square` (replacing what was there). Returns `None` if the square is not
    /// on this board.
    #[must_use]
    pub fn put(mut self, square: Square, piece: Piece) -> Option<Self> {
        let b = B::Bits::bit(B::bit_of(square)?);
        self.white &= !b;
        self.black &= !b;
        self.kings &= !b;
        match piece.color {
            Color::White => self.white |= b,
            Color::Black => self.black |= b,
        }
        if piece.role == Role::King {
            self.kings |= b;
        }
        Some(self)
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The same pieces with the other side to move.
    #[must_use]
    pub fn with_side_to_move(mut self, side: Color) -> Self {
        self.side = side;
        self
    }

    /// The squares of `color`'s pieces, as padded bits.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> B::Bits {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The squares of every king, as padded bits.
    #[inline(always)]
    pub fn kings(&self) -> B::Bits {
        self.kings
    }

    /// The squares of `color`'s men, as padded bits.
    #[inline(always)]
    pub fn men_of(&self, color: Color) -> B::Bits {
        self.pieces(color) & !self.kings
    }

    /// The squares of `color`'s kings, as padded bits.
    #[inline(always)]
    pub fn kings_of(&self, color: Color) -> B::Bits {
        self.pieces(color) & self.kings
    }

    /// The occupied squares, as padded bits.
    #[inline(always)]
    pub fn occupied(&self) -> B::Bits {
        self.white | self.black
    }

    /// The piece on `square`, if any (and `None` for a square that is not on the board).
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let bit = B::bit_of(square)?;
        let color = if self.white.has(bit) {
            Color::White
        } else if self.black.has(bit) {
            Color::Black
        } else {
            return None;
        };
        let role = if self.kings.has(bit) {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece { color, role })
    }

    /// Every piece with its square, by increasing square number.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied().iter().map(move |bit| {
            let sq = B::square_of(bit);
            (sq, self.piece_at(sq).expect("occupied"))
        })
    }

    /// Number of men and kings of `color`.
    pub fn count(&self, color: Color) -> (u32, u32) {
        let p = self.pieces(color);
        ((p & !self.kings).count(), (p & self.kings).count())
    }

    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    /// [`crate::PlayError::IllegalMove`] otherwise.
    pub fn play(&self, mv: Move<B>) -> Result<Self, crate::PlayError> {
        if self.is_legal(mv) {
            Ok(self.play_unchecked(mv))
        } else {
            Err(crate::PlayError::IllegalMove)
        }
    }

    /// Plays a move without checking it.
    ///
    /// Precondition: `mv` is one of [`Position::legal_moves`]. Otherwise the result is some
    /// valid-looking but meaningless position (never a panic in release builds).
    #[inline(always)]
    #[must_use]
    pub fn play_unchecked(&self, mv: Move<B>) -> Self {
        debug_assert!(self.pieces(self.side).has(mv.from_bit()));
        let from = B::Bits::bit(mv.from_bit());
        let to = B::Bits::bit(mv.to_bit());
        let moved = from ^ to;
        let captured = mv.captured_bits();
        let mut p = *self;
        let (own, opp) = match self.side {
            Color::White => (&mut p.white, &mut p.black),
            Color::Black => (&mut p.black, &mut p.white),
        };
        *own ^= moved;
        *opp &= !captured;
        if !(self.kings & from).is_empty() {
            p.kings ^= moved;
        } else {
            p.kings |= to & B::crown_row(self.side);
        }
        p.kings &= !captured;
        p.side = self.side.opponent();
        p
    }

    /// Whether `mv` changes nothing that cannot come back: a non-capturing king move.
    #[inline]
    pub fn is_reversible(&self, mv: Move<B>) -> bool {
        mv.captured_bits().is_empty() && self.kings.has(mv.from_bit())
    }
}

impl<B: Board> fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::fen::to_fen(self))
    }
}

impl<B: Board> fmt::Display for Position<B> {
    /// A text diagram: `w`/`b` men, `W`/`B` kings, `.` empty dark squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..B::N {
            for file in 0..B::N {
                if (row + file) % 2 == 0 {
                    f.write_str("  ")?;
                    continue;
                }
                let sq = Square((row * B::H + file / 2 + 1) as u8);
                let c = match self.piece_at(sq) {
                    None => '.',
                    Some(Piece {
                        color: Color::White,
                        role: Role::Man,
                    }) => 'w',
                    Some(Piece {
                        color: Color::White,
                        role: Role::King,
                    }) => 'W',
                    Some(Piece {
                        color: Color::Black,
                        role: Role::Man,
                    }) => 'b',
                    Some(Piece {
                        color: Color::Black,
                        role: Role::King,
                    }) => 'B',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "{} to move", self.side)
    }
}
