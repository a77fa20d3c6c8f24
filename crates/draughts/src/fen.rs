//! Positions in FEN as used by PDN: `W:W31,32,K45:B1,2,K10` (RULES.md part 2).
//!
//! The first field is the side to move; then one field per colour, each a comma-separated list of
//! squares, `K` marking kings. Reading also accepts ranges (`B1-20`, `K1-3`), either colour
//! first, an empty list, whitespace anywhere, lowercase letters, a final `.`, surrounding quotes
//! and the `H…`/`F…` (move counter) fields some programs add, which are ignored.

use std::fmt;

use crate::bitboard::Bits;
use crate::board::{Board, Color, Square};
use crate::position::{Piece, Position, Role};

/// Why a FEN string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseFenError {
    /// Nothing but whitespace.
    Empty,
    /// The side to move is not `W` or `B`.
    InvalidSide,
    /// A field is neither a colour's piece list nor a move counter.
    InvalidField(String),
    /// A list item is not a square number, a range or `K` followed by one.
    InvalidSquare(String),
    /// A square number that is not on this board.
    SquareOutOfRange(u32),
    /// A square listed twice.
    DuplicateSquare(u32),
    /// The same colour's list given twice.
    DuplicateColor(Color),
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFenError::Empty => write!(f, "empty FEN"),
            ParseFenError::InvalidSide => write!(f, "side to move must be W or B"),
            ParseFenError::InvalidField(s) => write!(f, "invalid FEN field {s:?}"),
            ParseFenError::InvalidSquare(s) => write!(f, "invalid square {s:?}"),
            ParseFenError::SquareOutOfRange(n) => write!(f, "square {n} is not on the board"),
            ParseFenError::DuplicateSquare(n) => write!(f, "square {n} is listed twice"),
            ParseFenError::DuplicateColor(c) => write!(f, "{c}'s pieces are listed twice"),
        }
    }
}

impl std::error::Error for ParseFenError {}

/// Reads a FEN position for board `B`.
///
/// # Errors
/// [`ParseFenError`] describing the first problem found.
pub fn parse_fen<B: Board>(fen: &str) -> Result<Position<B>, ParseFenError> {
    let cleaned: String = fen.chars().filter(|c| !c.is_whitespace()).collect();
    let cleaned = cleaned.trim_matches('"');
    let cleaned = cleaned.strip_suffix('.').unwrap_or(cleaned);
    if cleaned.is_empty() {
        return Err(ParseFenError::Empty);
    }
    let mut fields = cleaned.split(':');
    let side = match fields.next().unwrap_or("") {
        "W" | "w" => Color::White,
        "B" | "b" => Color::Black,
        _ => return Err(ParseFenError::InvalidSide),
    };
    let mut pos = Position::<B>::empty(side);
    let mut seen = [false; 2];
    for field in fields {
        let mut chars = field.chars();
        let color = match chars.next() {
            Some('W' | 'w') => Color::White,
            Some('B' | 'b') => Color::Black,
            Some('H' | 'h' | 'F' | 'f') if chars.as_str().bytes().all(|b| b.is_ascii_digit()) => {
                continue;
            }
            _ => return Err(ParseFenError::InvalidField(field.to_string())),
        };
        if std::mem::replace(&mut seen[color as usize], true) {
            return Err(ParseFenError::DuplicateColor(color));
        }
        pos = parse_list(pos, color, chars.as_str())?;
    }
    Ok(pos)
}

/// Adds one colour's list (`31,32,K45`, `1-20`) to `pos`.
fn parse_list<B: Board>(
    mut pos: Position<B>,
    color: Color,
    list: &str,
) -> Result<Position<B>, ParseFenError> {
    for item in list.split(',').filter(|s| !s.is_empty()) {
        let (role, range) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => (Role::King, rest),
            None => (Role::Man, item),
        };
        let (lo, hi) = match range.split_once('-') {
            Some((a, b)) => (square_number::<B>(a, item)?, square_number::<B>(b, item)?),
            None => {
                let n = square_number::<B>(range, item)?;
                (n, n)
            }
        };
        if lo > hi {
            return Err(ParseFenError::InvalidSquare(item.to_string()));
        }
        for n in lo..=hi {
            let square = Square(n as u8);
            if pos.piece_at(square).is_some() {
                return Err(ParseFenError::DuplicateSquare(n));
            }
            pos = pos
                .put(square, Piece { color, role })
                .ok_or(ParseFenError::SquareOutOfRange(n))?;
        }
    }
    Ok(pos)
}

/// A square number of board `B`.
fn square_number<B: Board>(s: &str, item: &str) -> Result<u32, ParseFenError> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseFenError::InvalidSquare(item.to_string()));
    }
    let n: u32 = s
        .parse()
        .map_err(|_| ParseFenError::InvalidSquare(item.to_string()))?;
    if n == 0 || n > B::SQUARES {
        return Err(ParseFenError::SquareOutOfRange(n));
    }
    Ok(n)
}

/// Writes `pos` as FEN: side to move, then White's and Black's squares in increasing order, kings
/// marked `K`, no ranges (`W:W31,32,K45:B1,2,K10`).
pub fn to_fen<B: Board>(pos: &Position<B>) -> String {
    let mut s = String::with_capacity(160);
    s.push(pos.side_to_move().to_char());
    for color in [Color::White, Color::Black] {
        s.push(':');
        s.push(color.to_char());
        let mut first = true;
        for bit in pos.pieces(color).iter() {
            if !first {
                s.push(',');
            }
            first = false;
            if pos.kings().has(bit) {
                s.push('K');
            }
            s.push_str(&B::square_of(bit).to_string());
        }
    }
    s
}

impl<B: Board> std::str::FromStr for Position<B> {
    type Err = ParseFenError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_fen(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Brazilian, Canadian, International};

    #[test]
    fn initial_positions_read_from_ranges() {
        let p: Position<International> = parse_fen("W:W31-50:B1-20").unwrap();
        assert_eq!(p, Position::initial());
        let p: Position<Brazilian> = parse_fen("W:W21-32:B1-12.").unwrap();
        assert_eq!(p, Position::initial());
        let p: Position<Canadian> = parse_fen(" W : B1-30 : W43-72 ").unwrap();
        assert_eq!(p, Position::initial());
    }

    #[test]
    fn writes_kings_and_reads_back() {
        let fen = "W:W31,32,K45:B1,2,K10";
        let p: Position<International> = parse_fen(fen).unwrap();
        assert_eq!(to_fen(&p), fen);
        let p: Position<International> = parse_fen("B:W18:B").unwrap();
        assert_eq!(to_fen(&p), "B:W18:B");
    }

    #[test]
    fn rejects_malformed_input() {
        type B = International;
        assert_eq!(parse_fen::<B>("  "), Err(ParseFenError::Empty));
        assert_eq!(parse_fen::<B>("X:W1"), Err(ParseFenError::InvalidSide));
        assert_eq!(
            parse_fen::<B>("W:W51"),
            Err(ParseFenError::SquareOutOfRange(51))
        );
        assert_eq!(
            parse_fen::<B>("W:W0"),
            Err(ParseFenError::SquareOutOfRange(0))
        );
        assert_eq!(
            parse_fen::<B>("W:W1:B1"),
            Err(ParseFenError::DuplicateSquare(1))
        );
        assert_eq!(
            parse_fen::<B>("W:W1:W2"),
            Err(ParseFenError::DuplicateColor(Color::White))
        );
        assert!(parse_fen::<B>("W:W1-99999999999").is_err());
        assert!(parse_fen::<B>("W:Q1").is_err());
        assert!(parse_fen::<B>("W:W5-1").is_err());
        assert!(parse_fen::<B>("W:WK").is_err());
    }
}
