//! Everything the server sends, typed, in one place (docs/protocol.md): the game values (boards,
//! legal moves, move records, outcomes), the views of a room, and the answers of the HTTP API.
//! Each type serialises to exactly the JSON the protocol documents, and reads it back (clients
//! written in Rust, tests): unknown fields are refused, so a field added here and not in the
//! documentation, or the other way round, is caught by the test that reads every example of
//! docs/protocol.md.

use serde::{Deserialize, Serialize};

use dames_ai::Level;
use draughts::{Color, Square};

use crate::game::GameKind;
use crate::room::{Settings, Status};

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

/// A room as one caller sees it (`RoomView`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomView {
    /// Six characters.
    pub code: String,
    /// Which game.
    pub game: GameKind,
    /// Version of the last event.
    pub version: i64,
    /// Lobby, playing or finished.
    pub status: Status,
    /// The caller's seat; `None` for a spectator.
    pub you: Option<usize>,
    /// Whether the caller is the host.
    pub host: bool,
    /// The settings.
    pub settings: Settings,
    /// Every seat.
    pub seats: Vec<SeatView>,
    /// 0 before the first start, then the number of the current game.
    pub game_no: i64,
    /// The current (or last finished) game.
    pub play: Option<GameView>,
    /// Chinese checkers: the room plays the crossing puzzle (« Défi solitaire »), one seat.
    #[serde(default)]
    pub solitaire: bool,
}

/// Who sits on a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A person.
    Human,
    /// A CPU player.
    Cpu,
    /// Nobody.
    Empty,
}

/// A seat as seen by everyone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatView {
    /// Its number.
    pub seat: usize,
    /// Who sits there.
    pub kind: SeatKind,
    /// A person's name, `"CPU"` for a CPU, `None` when empty.
    pub name: Option<String>,
    /// A CPU's level.
    #[serde(with = "level_name")]
    pub level: Option<Level>,
    /// A person with an open connection (CPUs always are).
    pub online: bool,
    /// Ready for a rematch (CPUs always are).
    pub ready: bool,
    /// Chinese checkers: the start camps of this seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camps: Option<Vec<u8>>,
    /// Draughts: the seat's colour in the current game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// A person's seat a CPU of this level plays until they come back ("Away players").
    #[serde(default, skip_serializing_if = "Option::is_none", with = "level_name")]
    pub stand_in: Option<Level>,
}

/// The game of a room (`GameView`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameView {
    /// The seat to move; `None` once the game is over.
    pub to_move: Option<usize>,
    /// The pieces.
    pub board: Board,
    /// Every move of this game.
    pub moves: Vec<MoveRecord>,
    /// The legal moves, for the seat to move only (otherwise empty).
    pub legal_moves: Vec<LegalMove>,
    /// Draughts: the seat offering a draw.
    pub draw_offer: Option<usize>,
    /// Draughts: the seat that declined the last offer, until the next move.
    #[serde(default)]
    pub draw_declined: Option<usize>,
    /// The result once over.
    pub outcome: Option<Outcome>,
    /// Since when the seat to move waits (Unix ms): the last move or the start.
    pub turn_since: Option<i64>,
}

/// `{"seat","token","room"}`: the answer of creating or joining a room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatAnswer {
    /// The room's code.
    pub code: String,
    /// The seat taken.
    pub seat: usize,
    /// Its token (32 hex digits), also set as the seat cookie; absent when the caller came back
    /// with only the HttpOnly cookie (a script of the page must not read it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The room as the new seat holder sees it.
    pub room: RoomView,
}

/// The answer of a move over HTTP.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveAnswer {
    /// `false`: this move id had already been applied (nothing done).
    pub applied: bool,
    /// The room after it.
    pub room: RoomView,
}

/// The answer of a hint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintAnswer {
    /// One of the caller's legal moves.
    #[serde(rename = "move")]
    pub mv: LegalMove,
}

/// The protocol's lowercase level names (`"facile"` …) for an optional [`Level`].
mod level_name {
    use dames_ai::Level;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(level: &Option<Level>, s: S) -> Result<S::Ok, S::Error> {
        match level {
            Some(l) => s.serialize_some(l.name()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Level>, D::Error> {
        match Option::<String>::deserialize(d)? {
            None => Ok(None),
            Some(name) => Level::from_name(&name)
                .map(Some)
                .ok_or_else(|| serde::de::Error::custom(format!("unknown level {name:?}"))),
        }
    }
}
