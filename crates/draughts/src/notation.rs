//! PDN move notation (RULES.md part 2): `32-28` for a quiet move, `28x19x10` for a capture with
//! every landing square. Reading also accepts the short `28x10` when only one legal move goes
//! from 28 to 10, and either separator.
//!
//! [`MoveInfo`] gives a user interface everything about a legal move: start, end, every square
//! of its path and the captured squares.

use std::fmt;

use crate::bitboard::Bits;
use crate::board::{Board, Square, DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT};
use crate::moves::Move;
use crate::position::Position;

/// A legal move described for notation and user interfaces.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveInfo {
    /// Start square.
    pub from: Square,
    /// End square.
    pub to: Square,
    /// The start square then every landing square, in order (`[32, 28]` for a quiet move).
    pub path: Vec<Square>,
    /// The captured squares in the order they are jumped.
    pub captures: Vec<Square>,
    /// The PDN notation with every landing square (`28x19x10`, `32-28`).
    pub notation: String,
}

/// Why a move's notation was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// Not of the form `n-n` or `nxnx…n` with square numbers of this board.
    Syntax(String),
    /// Well formed, but no legal move matches.
    Illegal(String),
    /// The short form matches several legal moves: give every landing square.
    Ambiguous(String),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Syntax(s) => write!(f, "not a move: {s:?}"),
            ParseMoveError::Illegal(s) => write!(f, "illegal move: {s}"),
            ParseMoveError::Ambiguous(s) => {
                write!(f, "ambiguous move {s}: give every landing square")
            }
        }
    }
}

impl std::error::Error for ParseMoveError {}

const DIRS: [usize; 4] = [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT];

/// Squares read from notation, as padded bits.
fn parse_squares<B: Board>(text: &str) -> Result<Vec<u32>, ParseMoveError> {
    let syntax = || ParseMoveError::Syntax(text.chars().take(40).collect());
    let t = text.trim();
    if t.is_empty() || t.len() > 200 {
        return Err(syntax());
    }
    t.split(['-', 'x', 'X', ':'])
        .map(|part| {
            let part = part.trim();
            if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            let n: u8 = part.parse().map_err(|_| syntax())?;
            B::bit_of(Square(n)).ok_or_else(syntax)
        })
        .collect::<Result<Vec<_>, _>>()
        .and_then(|v| if v.len() < 2 { Err(syntax()) } else { Ok(v) })
}

impl<B: Board> Position<B> {
    /// The legal move written `text` (see the module documentation).
    ///
    /// # Errors
    /// [`ParseMoveError`] if the text is malformed, matches no legal move, or (short form)
    /// several.
    pub fn parse_move(&self, text: &str) -> Result<Move<B>, ParseMoveError> {
        let squares = parse_squares::<B>(text)?;
        let legal = self.legal_moves();
        if let Some(mv) = self.follow_path(&squares) {
            if legal.contains(&mv) {
                return Ok(mv);
            }
        }
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let mut candidates = legal
            .iter()
            .filter(|m| m.from_bit() == from && m.to_bit() == to)
            .filter(|m| squares.len() == 2 || self.path_matches(**m, &squares));
        match (candidates.next(), candidates.next()) {
            (Some(&mv), None) => Ok(mv),
            (Some(_), Some(_)) => Err(ParseMoveError::Ambiguous(text.trim().to_string())),
            (None, _) => Err(ParseMoveError::Illegal(text.trim().to_string())),
        }
    }

    /// Whether the given squares (a start, some landing squares, an end) appear in that order
    /// in `mv`'s path.
    fn path_matches(&self, mv: Move<B>, squares: &[u32]) -> bool {
        let path = self.path_bits(mv);
        let mut it = path.iter();
        squares.iter().all(|s| it.any(|p| p == s))
    }

    /// The move made by going through `squares` (start, then each landing square), if each
    /// step is a quiet move or captures exactly one opponent piece. Legality is not checked.
    fn follow_path(&self, squares: &[u32]) -> Option<Move<B>> {
        let (own, opp) = self.own_opp();
        let from = squares[0];
        if !own.has(from) {
            return None;
        }
        let king = self.kings().has(from);
        let empty = self.empty_squares() | B::Bits::bit(from);
        let mut captured = B::Bits::ZERO;
        for pair in squares.windows(2) {
            let (dir, between, steps) = line::<B>(pair[0], pair[1])?;
            let pieces = between & !empty;
            if !empty.has(pair[1]) || !(pieces & !(opp & !captured)).is_empty() {
                return None;
            }
            match pieces.count() {
                0 if squares.len() == 2 && (king || steps == 1 && self.is_forward(dir)) => {}
                1 if king || steps == 2 => captured |= pieces,
                _ => return None,
            }
        }
        Some(Move::from_parts(from, squares[squares.len() - 1], captured))
    }

    fn is_forward(&self, dir: usize) -> bool {
        match self.side_to_move() {
            crate::Color::White => dir == UP_LEFT || dir == UP_RIGHT,
            crate::Color::Black => dir == DOWN_LEFT || dir == DOWN_RIGHT,
        }
    }

    /// A path of `mv`: its start square then each landing square (padded bits). For a king
    /// that may land on several squares between two captures along one line, the first.
    pub(crate) fn path_bits(&self, mv: Move<B>) -> Vec<u32> {
        let mut path = vec![mv.from_bit()];
        if !mv.is_capture() {
            path.push(mv.to_bit());
            return path;
        }
        let empty = self.empty_squares() | B::Bits::bit(mv.from_bit());
        let king = self.kings().has(mv.from_bit());
        if !find_path::<B>(&mut path, mv, king, empty, B::Bits::ZERO) {
            // Not reachable for a legal move; keep the notation well formed anyway.
            path.push(mv.to_bit());
        }
        path
    }

    /// Start, end, path, captures and notation of `mv` (assumed legal).
    pub fn move_info(&self, mv: Move<B>) -> MoveInfo {
        let path: Vec<Square> = self.path_bits(mv).into_iter().map(B::square_of).collect();
        let captures = path
            .windows(2)
            .filter_map(|w| {
                let (a, b) = (B::bit_of(w[0])?, B::bit_of(w[1])?);
                let (_, between, _) = line::<B>(a, b)?;
                let piece = between & mv.captured_bits();
                (!piece.is_empty()).then(|| B::square_of(piece.lowest()))
            })
            .collect();
        let sep = if mv.is_capture() { "x" } else { "-" };
        let notation = path
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(sep);
        MoveInfo {
            from: mv.from(),
            to: mv.to(),
            path,
            captures,
            notation,
        }
    }

    /// The notation of `mv` (assumed legal) with every landing square.
    pub fn move_notation(&self, mv: Move<B>) -> String {
        self.move_info(mv).notation
    }

    /// [`Position::move_info`] of every legal move.
    pub fn legal_move_infos(&self) -> Vec<MoveInfo> {
        self.legal_moves()
            .iter()
            .map(|&mv| self.move_info(mv))
            .collect()
    }
}

/// Direction, squares strictly between, and number of steps from `a` to `b`, if they are on one
/// diagonal.
fn line<B: Board>(a: u32, b: u32) -> Option<(usize, B::Bits, u32)> {
    for dir in DIRS {
        let mut s = B::step(B::Bits::bit(a), dir);
        let mut between = B::Bits::ZERO;
        let mut steps = 1;
        while !s.is_empty() {
            if s.has(b) {
                return Some((dir, between, steps));
            }
            between |= s;
            s = B::step(s, dir);
            steps += 1;
        }
    }
    None
}

/// Depth-first search for landing squares that capture exactly `mv`'s pieces and end on its
/// end square; pushes them onto `path`.
fn find_path<B: Board>(
    path: &mut Vec<u32>,
    mv: Move<B>,
    king: bool,
    empty: B::Bits,
    captured: B::Bits,
) -> bool {
    let at = *path.last().expect("path starts with the start square");
    if captured == mv.captured_bits() {
        return at == mv.to_bit();
    }
    let targets = mv.captured_bits() & !captured;
    for dir in DIRS {
        let mut s = B::step(B::Bits::bit(at), dir);
        while king && !(s & empty).is_empty() {
            s = B::step(s, dir);
        }
        if (s & targets).is_empty() {
            continue;
        }
        let mut land = B::step(s, dir) & empty;
        while !land.is_empty() {
            path.push(land.lowest());
            if find_path(path, mv, king, empty, captured | s) {
                return true;
            }
            path.pop();
            if !king {
                break;
            }
            land = B::step(land, dir) & empty;
        }
    }
    false
}
