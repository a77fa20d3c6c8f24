//! Rules of international draughts (10×10) and of its 8×8 Brazilian and 12×12 Canadian forms,
//! as specified in RULES.md part 2: move generation, draw rules, FEN and PDN. Pure and
//! deterministic, no I/O.
//!
//! ```
//! use draughts::{perft, International, Position};
//!
//! let start = Position::<International>::initial();
//! assert_eq!(start.legal_moves().len(), 9);
//! assert_eq!(perft(&start, 3, true), 658);
//! ```
#![forbid(unsafe_code)]

pub mod bitboard;
pub mod board;
pub mod draw;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod position;
pub mod zobrist;

pub use board::{Board, Brazilian, Canadian, Color, International, Square, Variant};
pub use draw::{DrawReason, Outcome, Rules, WinReason};
pub use fen::{parse_fen, to_fen, ParseFenError};
pub use game::{Game, GameOf, PlayError};
pub use moves::{Move, MoveList};
pub use notation::{MoveInfo, ParseMoveError};
pub use pdn::{read_pdn, ParsePdnError, PdnGame};
pub use perft::{divide, perft};
pub use position::{InvalidPosition, Piece, Position, Role};
