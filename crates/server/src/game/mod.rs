//! The game adapter: one [`GameState`] for either game, speaking the JSON of docs/protocol.md
//! (boards, legal moves, move input, move records, outcomes) on top of the rules engines
//! (`chinese-checkers` and `draughts` crates). The room layer never looks inside a game.

mod cc;
mod draughts;

use serde_json::Value;

use dames_ai::Level;

/// Which game a room plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// Chinese checkers (« Dames chinoises »).
    Cc,
    /// Draughts (international and its 8×8 and 12×12 forms).
    Draughts,
}

impl GameKind {
    /// The protocol's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cc => "cc",
            Self::Draughts => "draughts",
        }
    }

    /// From the protocol's name.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "cc" => Some(Self::Cc),
            "draughts" => Some(Self::Draughts),
            _ => None,
        }
    }
}

/// A move accepted by the engine, as recorded and replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The move as a `LegalMove` JSON value (also a valid `MoveInput` to replay it).
    pub mv: Value,
    /// Seats whose turn was passed automatically after it.
    pub passes: Vec<usize>,
    /// Seats that finished with it.
    pub finished: Vec<usize>,
}

/// Validated rules of a room: the engine's canonical serde form and what the room needs from it.
#[derive(Clone, Debug, PartialEq)]
pub struct RulesInfo {
    /// The rules as the engine serialises them (every field present).
    pub rules: Value,
    /// Number of seats.
    pub seats: usize,
}

/// Validates `rules` (`None`: the defaults) for `kind`.
///
/// # Errors
/// The engine's message for rules that cannot be played or do not parse.
pub fn validate_rules(kind: GameKind, rules: Option<&Value>) -> Result<RulesInfo, String> {
    match kind {
        GameKind::Cc => cc::validate_rules(rules),
        GameKind::Draughts => draughts::validate_rules(rules),
    }
}

/// What the seat view shows of `seat` under `rules`: `("camps", [..])` or `("color", "white")`.
pub fn seat_info(
    kind: GameKind,
    rules: &Value,
    seat: usize,
    first_seat: usize,
) -> (&'static str, Value) {
    match kind {
        GameKind::Cc => ("camps", cc::seat_camps(rules, seat)),
        GameKind::Draughts => ("color", draughts::seat_color(seat, first_seat)),
    }
}

/// A game in progress or finished.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum GameState {
    /// Chinese checkers (the engine's game is `Copy` and small: boxing it would only add an
    /// allocation per clone).
    Cc(cc::CcGame),
    /// Draughts.
    Draughts(draughts::DraughtsGame),
}

macro_rules! each {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            GameState::Cc($g) => $body,
            GameState::Draughts($g) => $body,
        }
    };
}

impl GameState {
    /// A new game under `rules` (already validated) where `first_seat` moves first.
    ///
    /// # Errors
    /// The engine's message if the rules do not parse.
    pub fn new(kind: GameKind, rules: &Value, first_seat: usize) -> Result<Self, String> {
        Ok(match kind {
            GameKind::Cc => Self::Cc(cc::CcGame::new(rules, first_seat)?),
            GameKind::Draughts => Self::Draughts(draughts::DraughtsGame::new(rules, first_seat)?),
        })
    }

    /// The seat to move, `None` once the game is over.
    pub fn to_move(&self) -> Option<usize> {
        each!(self, g => g.to_move())
    }

    /// The protocol's `Board`.
    pub fn board(&self) -> Value {
        each!(self, g => g.board())
    }

    /// The legal moves of the seat to move, as `LegalMove` values.
    pub fn legal_moves(&self) -> Vec<Value> {
        each!(self, g => g.legal_moves())
    }

    /// Plays a `MoveInput` for the seat to move.
    ///
    /// # Errors
    /// Why the move is not legal (or not a move).
    pub fn play(&mut self, input: &Value) -> Result<Played, String> {
        each!(self, g => g.play(input))
    }

    /// `seat` resigns (RULES.md: the engine applies the consequences).
    ///
    /// # Errors
    /// If the engine refuses (e.g. a seat that already finished).
    pub fn resign(&mut self, seat: usize) -> Result<(), String> {
        each!(self, g => g.resign(seat))
    }

    /// The players agree to a draw (draughts).
    ///
    /// # Errors
    /// If the game has no draw by agreement.
    pub fn agree_draw(&mut self) -> Result<(), String> {
        match self {
            Self::Cc(_) => Err("Chinese checkers has no draw by agreement".into()),
            Self::Draughts(g) => g.agree_draw(),
        }
    }

    /// Ends the game with no result (45 days without a move).
    pub fn abandon(&mut self) {
        each!(self, g => g.abandon())
    }

    /// The protocol's `Outcome` once the game is over.
    pub fn outcome(&self) -> Option<Value> {
        each!(self, g => g.outcome())
    }

    /// A CPU move for the seat to move (blocking: call off the async runtime), as a `MoveInput`.
    pub fn cpu_move(&self, level: Level, limits: &dames_ai::Limits) -> Option<Value> {
        each!(self, g => g.cpu_move(level, limits))
    }

    /// The AI's move at `level` as the exact `LegalMove` of [`GameState::legal_moves`] (found by
    /// from/to in Chinese checkers, by notation in draughts), so a client can show it.
    pub fn hint(&self, level: Level, limits: &dames_ai::Limits) -> Option<Value> {
        let chosen = self.cpu_move(level, limits)?;
        let same = |m: &Value| match self {
            GameState::Cc(_) => {
                m.get("from") == chosen.get("from") && m.get("to") == chosen.get("to")
            }
            GameState::Draughts(_) => m.get("notation") == chosen.get("notation"),
        };
        self.legal_moves().into_iter().find(same)
    }
}
