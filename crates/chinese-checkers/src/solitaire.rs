//! The crossing puzzle (« Défi solitaire »): one set of ten pieces alone on the board, to be
//! moved from camp 0 to the opposite camp 3 in as few moves as possible. The moves are those of
//! RULES.md 1.3 with the default options (steps, and chains of plain jumps over the set's own
//! pieces, the only ones on the board). O. Levenspiel found a 27-move crossing (1971); G. I. Bell
//! proved that none is shorter ("The shortest game of Chinese checkers and related problems",
//! INTEGERS 9, 2009).
//!
//! A position is the set of holes of the ten pieces: the pieces are alike, so nothing else
//! matters. It is `Copy` and 16 bytes, for the solver.
//!
//! ```
//! use chinese_checkers::{Cell, Move, Solitaire};
//!
//! let mut puzzle = Solitaire::start();
//! let step = Move::new(Cell::from_cube(1, 4, -5).unwrap(), Cell::from_cube(1, 3, -4).unwrap());
//! puzzle.play(step).unwrap();
//! assert!(puzzle.play(step).is_err());
//! assert!(!puzzle.is_crossed());
//! // The goal is the start seen from the other side of the board.
//! assert_eq!(Solitaire::start().mirrored(), Solitaire::goal());
//! ```

use crate::cell::{Bitboard, Bits, Cell, BOARD, CAMPS_10, CELL_COUNT, COORDS, NEIGHBOURS};
use crate::movegen::{Components, Move, MoveList};
use crate::position::IllegalMove;
use crate::position_file::{PieceEntry, PositionFile};
use crate::{Game, Rules};

/// Pieces of the set.
pub const SOLITAIRE_PIECES: u32 = 10;

/// A position of the crossing puzzle: where the ten pieces stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Solitaire(u128);

/// Why a set of holes is not a position of the puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceCountError(pub u32);

impl std::fmt::Display for PieceCountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the puzzle has {SOLITAIRE_PIECES} pieces, not {}",
            self.0
        )
    }
}

impl std::error::Error for PieceCountError {}

/// The hole opposite each hole through the centre: `(x, y, z)` to `(-x, -y, -z)`.
static MIRROR: [u8; CELL_COUNT] = {
    let mut t = [0u8; CELL_COUNT];
    let mut i = 0;
    while i < CELL_COUNT {
        let c = COORDS[i];
        let mut j = 0;
        while j < CELL_COUNT {
            let d = COORDS[j];
            if d[0] == -c[0] && d[1] == -c[1] && d[2] == -c[2] {
                t[i] = j as u8;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

impl Solitaire {
    /// The ten pieces in camp 0.
    pub const fn start() -> Solitaire {
        Solitaire(CAMPS_10[0])
    }

    /// The ten pieces in camp 3: the puzzle is solved.
    pub const fn goal() -> Solitaire {
        Solitaire(CAMPS_10[3])
    }

    /// The position with pieces on `holes`.
    ///
    /// # Errors
    /// [`PieceCountError`] unless there are exactly ten holes.
    pub fn from_pieces(holes: Bitboard) -> Result<Solitaire, PieceCountError> {
        if holes.count() == SOLITAIRE_PIECES {
            Ok(Solitaire(holes.0 & BOARD))
        } else {
            Err(PieceCountError(holes.count()))
        }
    }

    /// The holes of the pieces.
    pub const fn pieces(self) -> Bitboard {
        Bitboard(self.0)
    }

    /// Whether every piece is in camp 3.
    pub const fn is_crossed(self) -> bool {
        self.0 == CAMPS_10[3]
    }

    /// The position turned half a turn about the centre: a crossing read backwards and mirrored
    /// is a crossing, since every move can be played back (jumped pieces stay).
    pub fn mirrored(self) -> Solitaire {
        Solitaire(Bits(self.0).fold(0, |m, c| m | 1u128 << MIRROR[c as usize]))
    }

    /// The hole opposite `cell` through the centre.
    pub fn mirror_cell(cell: Cell) -> Cell {
        Cell::from_index(MIRROR[cell.index() as usize]).expect("a hole")
    }

    /// Calls `f(from, destinations)` for every piece, with the holes it can reach in one move
    /// (steps and jump chains; none once the puzzle is solved, as a game would be over).
    #[inline]
    pub fn for_each_piece_move(self, mut f: impl FnMut(Cell, Bitboard)) {
        if self.is_crossed() {
            return;
        }
        let empty = BOARD & !self.0;
        let mut components = Components::new();
        for from in Bits(self.0) {
            let to = (NEIGHBOURS[from as usize] & empty) | components.reach(from, self.0, empty);
            if to != 0 {
                f(Cell::from_index(from).expect("a hole"), Bitboard(to));
            }
        }
    }

    /// Writes the legal moves into `moves` (cleared first).
    pub fn legal_moves(self, moves: &mut MoveList) {
        moves.clear();
        self.for_each_piece_move(|from, to| {
            for to in to {
                moves.push(Move::new(from, to));
            }
        });
    }

    /// The holes the piece on `from` can reach (empty if there is no piece there).
    pub fn destinations(self, from: Cell) -> Bitboard {
        let mut out = Bitboard(0);
        if self.0 & from.bit() != 0 {
            self.for_each_piece_move(|f, to| {
                if f == from {
                    out = to;
                }
            });
        }
        out
    }

    /// Plays `mv` after checking it.
    ///
    /// # Errors
    /// [`IllegalMove`] if the puzzle is solved, `from` holds no piece or `to` cannot be reached;
    /// the position is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_crossed() {
            return Err(IllegalMove::GameOver);
        }
        if self.0 & mv.from.bit() == 0 {
            return Err(IllegalMove::NotYourPiece(mv.from));
        }
        if !self.destinations(mv.from).contains(mv.to) {
            return Err(IllegalMove::Unreachable(mv));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` without checking it: it must be one of [`Solitaire::legal_moves`].
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert!(self.0 & mv.from.bit() != 0 && self.0 & mv.to.bit() == 0);
        self.0 ^= mv.from.bit() | mv.to.bit();
    }

    /// The same position as a game of the rules engine: two players with the default rules,
    /// seat 0 with these pieces and to move, seat 1 without pieces, so that it passes every
    /// turn and seat 0 plays alone. Seat 0 finishes (and the game ends) on the move that
    /// completes the crossing; its turns count the moves.
    pub fn to_game(self) -> Game {
        let file = PositionFile {
            rules: Rules::default(),
            to_move: 0,
            seats: vec![
                Bits(self.0)
                    .map(|c| PieceEntry::At(Cell::from_index(c).expect("a hole")))
                    .collect(),
                Vec::new(),
            ],
            inert: None,
            state: None,
        };
        file.to_game()
            .expect("ten pieces of seat 0 make a valid position")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mirror_swaps_opposite_camps() {
        for camp in 0..6 {
            let mirrored = Solitaire(CAMPS_10[camp]).mirrored();
            assert_eq!(mirrored.0, CAMPS_10[(camp + 3) % 6]);
        }
        let all = Solitaire(BOARD).mirrored();
        assert_eq!(all.0, BOARD);
    }

    #[test]
    fn the_start_has_the_moves_of_a_lone_set() {
        let mut moves = MoveList::new();
        Solitaire::start().legal_moves(&mut moves);
        // As in a 2-player game before the opponent has moved: 14 moves.
        assert_eq!(moves.len(), 14);
    }

    #[test]
    fn a_position_has_ten_pieces() {
        assert_eq!(
            Solitaire::from_pieces(Bitboard(CAMPS_10[0] | CAMPS_10[1])),
            Err(PieceCountError(20))
        );
        assert!(Solitaire::from_pieces(Bitboard(CAMPS_10[2])).is_ok());
    }
}
