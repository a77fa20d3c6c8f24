//! The game values of the protocol, typed (docs/protocol.md): boards, legal moves, move records,
//! outcomes (the views of a room are [`crate::view`], the WebSocket messages [`crate::message`]).
//! Each type serialises to exactly the JSON the protocol documents, and reads it back (clients
//! written in Rust, tests): unknown fields are refused, so a field added here and not in the
//! documentation, or the other way round, is caught by the test that reads every example of
//! docs/protocol.md.

use serde::{Deserialize, Serialize};

use draughts::{Color, Square};

/// A hole of the Chinese checkers star in cube coordinates (RULES.md 1.1).
pub type Cube = [i8; 3];

/// The pieces on the board of either game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Board {
    /// Chinese checkers.
    Cc(CcBoard),
    /// Draughts.
    Draughts(DraughtsBoard),
}

/// A Chinese checkers board: the players' pieces and the inert pieces of filled camps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CcBoard {
    /// Pieces of the players, in no particular order.
    pub pieces: Vec<CcPiece>,
    /// Holes holding an inert piece.
    pub inert: Vec<Cube>,
}

/// A player's piece on the star.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CcPiece {
    /// The seat that moves it.
    pub seat: usize,
    /// Where it stands.
    pub at: Cube,
    /// A Japanese king.
    pub king: bool,
    /// The start camp of its set (tells the sets of a player with several apart).
    pub camp: Option<u8>,
}

/// A draughts board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DraughtsBoard {
    /// 8, 10 or 12.
    pub size: u32,
    /// The position in FEN (`W:W31,32:B1,K2`).
    pub fen: String,
    /// The pieces, by square number.
    pub pieces: Vec<DraughtsPiece>,
}

/// A draughts piece.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DraughtsPiece {
    /// Its FMJD square number.
    pub square: Square,
    /// Its colour.
    pub color: Color,
    /// A king (else a man).
    pub king: bool,
}

/// A legal move of either game, as listed to the seat to move and recorded once played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LegalMove {
    /// Draughts (tried first: it has the most fields).
    Draughts(DraughtsMove),
    /// Chinese checkers.
    Cc(CcMove),
}

/// A Chinese checkers move: a step or a chain of jumps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CcMove {
    /// Start hole.
    pub from: Cube,
    /// End hole.
    pub to: Cube,
    /// Every hole from start to end, inclusive.
    pub path: Vec<Cube>,
}

/// A draughts move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DraughtsMove {
    /// Start square.
    pub from: Square,
    /// End square.
    pub to: Square,
    /// Every landing square, start included.
    pub path: Vec<Square>,
    /// The captured squares, in the order they are jumped.
    pub captures: Vec<Square>,
    /// PDN notation with every landing square (`28x19x10`, `32-28`).
    pub notation: String,
}

/// A move of the game's move list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRecord {
    /// Who played it.
    pub seat: usize,
    /// The move.
    #[serde(rename = "move")]
    pub mv: LegalMove,
    /// Seats whose turn was then passed automatically (no legal move).
    pub passes: Vec<usize>,
    /// Seats that finished with this move.
    pub finished: Vec<usize>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// `win`, `places`, `draw` or `abandoned`.
    pub kind: OutcomeKind,
    /// Why it ended.
    pub reason: Reason,
    /// Each seat's place (1 = first; equal numbers share a place); `None` for no result.
    pub places: Vec<Option<u8>>,
}

/// The kind of result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeKind {
    /// A 2-player game with a winner.
    Win,
    /// Places of a game of 3 or more.
    Places,
    /// Every seat shares the first place.
    Draw,
    /// No result.
    Abandoned,
}

/// Why a game ended: the reasons of both games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Chinese checkers: every place decided by play.
    Finished,
    /// Chinese checkers: the first finisher ended the game (« Jouer jusqu'au bout » off).
    FirstFinished,
    /// Chinese checkers: the move limit.
    MoveLimit,
    /// Chinese checkers: nobody progressed for the stagnation limit.
    Stagnation,
    /// Chinese checkers: no unfinished player could move.
    Blocked,
    /// A resignation.
    Resignation,
    /// A 2-player live game: the other player claimed the win after the loser had been away
    /// on their turn for three times the room's `away_after` (crate::room, "Away players").
    Abandonment,
    /// A live game with a clock: the loser's time ran out (crate::clock; Chinese checkers with 3
    /// or more players, the room's `on_flag` says whether the others play on).
    Time,
    /// No result: 45 days without a move.
    Abandoned,
    /// No person was left in play (all finished or resigned): the CPU players do not play on
    /// alone; those still playing are ranked as for stagnation (Chinese checkers).
    Stopped,
    /// Draughts: the loser had no legal move.
    NoMoves,
    /// Draughts: a draw by agreement.
    Agreement,
    /// Draughts: the same position a third time.
    ThreefoldRepetition,
    /// Draughts: 25 moves each with kings only.
    TwentyFiveKingMoves,
    /// Draughts: three pieces against a lone king.
    ThreeVsLoneKing,
    /// Draughts: two pieces against a lone king.
    TwoVsLoneKing,
}

/// The answer of a hint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintAnswer {
    /// One of the caller's legal moves.
    #[serde(rename = "move")]
    pub mv: LegalMove,
}
