//! Rules of international draughts (10×10) and of its 8×8 Brazilian and 12×12 Canadian forms,
//! as specified in RULES.md part 2: move generation, draw rules, FEN and PDN. Pure and
//! deterministic, no I/O.
//!
//! # Layers
//! - [`Position<B>`](Position) and [`Move<B>`](Move) are generic over the board size `B`
//!   ([`International`], [`Brazilian`], [`Canadian`]): bitboards in a padded layout (see
//!   [`board`]), each size compiled to its own code. [`Position::generate_moves`] fills a
//!   reusable [`MoveList`]; [`Position::play_unchecked`] returns the next position;
//!   [`perft()`] counts move sequences.
//! - [`GameOf<B>`](GameOf) adds the moves played, the incremental Zobrist hash and every draw
//!   rule ([`draw`]); [`Game`] chooses the board at run time from [`Rules::variant`] and speaks in
//!   FMJD square numbers, notation and [`MoveInfo`] (start, end, path, captures), for the server.
//! - Text: [`fen`] (positions), [`notation`] (moves), [`pdn`] (games).
//!
//! Squares are numbered as in FMJD notation: 1 is Black's back-row left square as White sees the
//! board, the highest number (50, 32 or 72) White's back-row right square; White moves first.
//!
//! ```
//! use draughts::{perft, Game, International, Position, Rules, Variant};
//!
//! let start = Position::<International>::initial();
//! assert_eq!(start.legal_moves().len(), 9);
//! assert_eq!(perft(&start, 3, true), 658);
//!
//! let mut game = Game::new(Rules::new(Variant::International));
//! let info = game.play_notation("32-28").unwrap();
//! assert_eq!((info.from.number(), info.to.number()), (32, 28));
//! assert_eq!(game.outcome(), None);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

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
pub use draw::{DrawCounters, DrawReason, Outcome, Rules, RulesError, WinReason};
pub use fen::{parse_fen, to_fen, ParseFenError};
pub use game::{Game, GameOf, PlayError};
pub use moves::{Move, MoveList};
pub use notation::{MoveInfo, ParseMoveError};
pub use pdn::{read_pdn, Annotation, ParsePdnError, PdnGame};
pub use perft::{divide, perft};
pub use position::{InvalidPosition, Piece, Position, Role};
