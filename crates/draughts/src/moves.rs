//! Moves and move lists.

use std::fmt;

use crate::bitboard::Bits;
use crate::board::{Board, Square};

/// A move: the piece's start and end squares and the set of captured pieces.
///
/// Two capture sequences with the same start, end and captured set are the same move (perft and
/// the legal move list count them once); the landing squares in between are not part of the
/// move. [`crate::Position::move_info`] gives a full path for notation and user interfaces.
///
/// Small and `Copy`: 16 bytes on 8×8 and 10×10, 32 on 12×12.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move<B: Board> {
    captured: B::Bits,
    from: u8,
    to: u8,
}

impl<B: Board> Move<B> {
    /// A move from padded bits (see [`crate::board`]); unchecked.
    #[inline(always)]
    pub(crate) fn from_parts(from: u32, to: u32, captured: B::Bits) -> Self {
        Move {
            captured,
            from: from as u8,
            to: to as u8,
        }
    }

    /// The square the piece leaves.
    #[inline]
    pub fn from(&self) -> Square {
        B::square_of(u32::from(self.from))
    }

    /// The square the piece ends on (equal to [`Move::from`] when a capture returns to its start).
    #[inline]
    pub fn to(&self) -> Square {
        B::square_of(u32::from(self.to))
    }

    /// Whether the move captures.
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// Number of captured pieces.
    #[inline(always)]
    pub fn capture_count(&self) -> u32 {
        self.captured.count()
    }

    /// The captured squares, by increasing number.
    pub fn captured(&self) -> impl Iterator<Item = Square> {
        self.captured.iter().map(B::square_of)
    }

    /// The start square's padded bit.
    #[inline(always)]
    pub fn from_bit(&self) -> u32 {
        u32::from(self.from)
    }

    /// The end square's padded bit.
    #[inline(always)]
    pub fn to_bit(&self) -> u32 {
        u32::from(self.to)
    }

    /// The captured pieces' padded bits.
    #[inline(always)]
    pub fn captured_bits(&self) -> B::Bits {
        self.captured
    }
}

impl<B: Board> fmt::Debug for Move<B> {
    /// Start, end and captured squares: `28x10 [23,14]`, or `32-28`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_capture() {
            let caps: Vec<String> = self.captured().map(|s| s.to_string()).collect();
            write!(f, "{}x{} [{}]", self.from(), self.to(), caps.join(","))
        } else {
            write!(f, "{}-{}", self.from(), self.to())
        }
    }
}

/// A reusable buffer of moves. Generation clears it and fills it; keep one per search ply so that
/// generating allocates nothing once the buffer has grown.
#[derive(Clone, Debug)]
pub struct MoveList<B: Board> {
    pub(crate) moves: Vec<Move<B>>,
}

impl<B: Board> Default for MoveList<B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: Board> MoveList<B> {
    /// An empty list with room for the usual maximum number of moves.
    pub fn new() -> Self {
        MoveList {
            moves: Vec::with_capacity(128),
        }
    }

    /// The moves.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move<B>] {
        &self.moves
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.moves.clear();
    }
}

impl<B: Board> std::ops::Deref for MoveList<B> {
    type Target = [Move<B>];

    #[inline(always)]
    fn deref(&self) -> &[Move<B>] {
        &self.moves
    }
}

impl<'a, B: Board> IntoIterator for &'a MoveList<B> {
    type Item = &'a Move<B>;
    type IntoIter = std::slice::Iter<'a, Move<B>>;

    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}

impl<B: Board> IntoIterator for MoveList<B> {
    type Item = Move<B>;
    type IntoIter = std::vec::IntoIter<Move<B>>;

    fn into_iter(self) -> Self::IntoIter {
        self.moves.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Brazilian, Canadian, International};

    #[test]
    fn moves_are_small() {
        assert_eq!(std::mem::size_of::<Move<International>>(), 16);
        assert_eq!(std::mem::size_of::<Move<Brazilian>>(), 16);
        assert!(std::mem::size_of::<Move<Canadian>>() <= 32);
    }
}
