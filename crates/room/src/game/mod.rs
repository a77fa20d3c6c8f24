//! The game adapter: one [`GameState`] for either game on top of the rules engines
//! (`chinese-checkers` and `draughts` crates), speaking the typed values of
//! [`crate::protocol`] (boards, legal moves, move records, outcomes) and returning the engines'
//! own typed errors. The room layer never looks inside a game.

mod cc;
mod draughts;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use dames_ai::Level;

use crate::protocol::{Board, LegalMove, Outcome};

/// Which game a room plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

    /// Reads a client's `MoveInput` for this game.
    ///
    /// # Errors
    /// [`PlayError::Input`] if it is not a move of this game.
    pub fn parse_move(self, input: &Value) -> Result<MoveInput, PlayError> {
        match self {
            Self::Cc => cc::parse_move(input),
            Self::Draughts => draughts::parse_move(input),
        }
    }
}

/// The start of a Chinese checkers room playing the crossing puzzle (« Défi solitaire »,
/// `chinese_checkers::Solitaire`): one seat, ten pieces alone, from camp 0 to camp 3 in as few
/// moves as possible. Kept as the room's start position (`Room::start`).
pub const SOLITAIRE_START: &str = "solitaire";

/// The validated rules of a room, in the engine's own serde form (every field present).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GameRules {
    /// Chinese checkers.
    Cc(chinese_checkers::Rules),
    /// Draughts.
    Draughts(::draughts::Rules),
}

/// Why rules cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// Not the engine's serde form (an unknown field, a wrong type…).
    #[error("rules: {0}")]
    Json(#[from] serde_json::Error),
    /// Chinese checkers refuses them.
    #[error(transparent)]
    Cc(#[from] chinese_checkers::RulesError),
    /// Draughts refuses them.
    #[error(transparent)]
    Draughts(#[from] ::draughts::RulesError),
    /// The start position does not fit.
    #[error("start position: {0}")]
    Start(#[from] StartError),
}

/// Why a game cannot start from a room's start position.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The crossing puzzle is played alone under the default rules.
    #[error("the solitaire challenge has the default rules and one seat")]
    Solitaire,
    /// Chinese checkers has no other start than the camps (and the crossing puzzle).
    #[error("Chinese checkers games start from the camps")]
    CcPosition,
    /// Draughts refuses the FEN (a position for another board…).
    #[error(transparent)]
    Fen(#[from] ::draughts::ParseFenError),
}

/// What a move of `kind` looks like (errors).
fn move_shape(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Cc => r#"a Chinese checkers move is {"from": [x, y, z], "to": [x, y, z]}"#,
        GameKind::Draughts => r#"a draughts move is {"notation": "32-28"}"#,
    }
}

/// Why a client's `MoveInput` is not a move of the room's game (its shape, before the engine
/// judges it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// Not the shape of a move of `0`.
    #[error("{}", move_shape(*.0))]
    Shape(GameKind),
    /// Chinese checkers: these coordinates are not a hole of the star.
    #[error("{0:?} is not a hole of the board")]
    NotAHole([i32; 3]),
    /// Draughts: a notation longer than any move's.
    #[error("notation too long")]
    NotationTooLong,
}

impl GameRules {
    /// The defaults of `kind` (RULES.md).
    pub fn default_for(kind: GameKind) -> Self {
        match kind {
            GameKind::Cc => Self::Cc(chinese_checkers::Rules::default()),
            GameKind::Draughts => Self::Draughts(::draughts::Rules::default()),
        }
    }

    /// Reads and validates `value` (the engine's serde form; missing fields take the defaults)
    /// with the engine's own `Deserialize`.
    ///
    /// # Errors
    /// The engine's error.
    pub fn parse(kind: GameKind, value: &Value) -> Result<Self, RulesError> {
        match kind {
            GameKind::Cc => {
                let rules = chinese_checkers::Rules::deserialize(value)?;
                rules.validate()?;
                Ok(Self::Cc(rules))
            }
            GameKind::Draughts => {
                let rules = ::draughts::Rules::deserialize(value)?;
                rules.validate()?;
                Ok(Self::Draughts(rules))
            }
        }
    }

    /// Which game these rules are for.
    pub fn kind(&self) -> GameKind {
        match self {
            Self::Cc(_) => GameKind::Cc,
            Self::Draughts(_) => GameKind::Draughts,
        }
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        match self {
            Self::Cc(r) => r.seat_count(),
            Self::Draughts(_) => 2,
        }
    }

    /// What the seat view shows of `seat` besides who sits there: its camps (Chinese checkers)
    /// or its colour (draughts: `white_seat` plays White).
    pub fn seat_info(&self, seat: usize, white_seat: usize) -> SeatInfo {
        match self {
            Self::Cc(r) => SeatInfo {
                camps: Some(cc::seat_camps(r, seat)),
                color: None,
            },
            Self::Draughts(_) => SeatInfo {
                camps: None,
                color: Some(draughts::seat_color(seat, white_seat)),
            },
        }
    }
}

/// The game-specific part of a seat's view.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatInfo {
    /// Chinese checkers: the start camps of the seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camps: Option<Vec<u8>>,
    /// Draughts: the seat's colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<::draughts::Color>,
}

/// A client's move (`MoveInput`), read for the room's game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveInput {
    /// Chinese checkers: from a hole to a hole.
    Cc(chinese_checkers::Move),
    /// Draughts: PDN notation.
    Draughts(String),
}

/// Why a move was refused (the game is unchanged).
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// Not a move of this game (its shape; the message says what one looks like).
    #[error(transparent)]
    Input(#[from] InputError),
    /// Chinese checkers refuses it.
    #[error(transparent)]
    Cc(#[from] chinese_checkers::IllegalMove),
    /// Draughts refuses it.
    #[error(transparent)]
    Draughts(#[from] ::draughts::PlayError),
    /// The game ended with no result.
    #[error("the game is over")]
    Abandoned,
}

/// Why a resignation or a draw was refused.
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    /// Chinese checkers refuses the resignation.
    #[error(transparent)]
    Cc(#[from] chinese_checkers::ResignError),
    /// Draughts refuses it.
    #[error(transparent)]
    Draughts(#[from] ::draughts::PlayError),
    /// Chinese checkers has no draw by agreement.
    #[error("Chinese checkers has no draw by agreement")]
    NoDraw,
    /// The game ended with no result.
    #[error("the game is over")]
    Abandoned,
}

/// A move accepted by the engine, as recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The move as listed in the legal moves.
    pub mv: LegalMove,
    /// Seats whose turn was passed automatically after it.
    pub passes: Vec<usize>,
    /// Seats that finished with it.
    pub finished: Vec<usize>,
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
    /// A new game under `rules` where `first_seat` moves first, from the usual start, or from
    /// `start`: a draughts position (a FEN) or, for Chinese checkers, [`SOLITAIRE_START`] (the
    /// crossing puzzle, one seat).
    ///
    /// # Errors
    /// If `first_seat` is not a seat of these rules, or `start` is not a position of them.
    pub fn new(
        rules: &GameRules,
        first_seat: usize,
        start: Option<&str>,
    ) -> Result<Self, RulesError> {
        Ok(match (rules, start) {
            (GameRules::Cc(r), None) => Self::Cc(cc::CcGame::new(*r, first_seat)?),
            (GameRules::Cc(r), Some(SOLITAIRE_START)) => {
                if *r != chinese_checkers::Rules::default() || first_seat != 0 {
                    return Err(StartError::Solitaire.into());
                }
                Self::Cc(cc::CcGame::solitaire())
            }
            (GameRules::Cc(_), Some(_)) => return Err(StartError::CcPosition.into()),
            (GameRules::Draughts(r), start) => Self::Draughts(
                draughts::DraughtsGame::new(*r, first_seat, start).map_err(StartError::from)?,
            ),
        })
    }

    /// Draughts: the seat playing White (the side to move of the start is `first_seat`'s).
    pub fn white_seat(&self) -> Option<usize> {
        match self {
            Self::Cc(_) => None,
            Self::Draughts(g) => Some(g.white_seat()),
        }
    }

    /// The seat to move, `None` once the game is over.
    pub fn to_move(&self) -> Option<usize> {
        each!(self, g => g.to_move())
    }

    /// The protocol's `Board`.
    pub fn board(&self) -> Board {
        each!(self, g => g.board())
    }

    /// The legal moves of the seat to move (none once the game is over).
    pub fn legal_moves(&self) -> Vec<LegalMove> {
        each!(self, g => g.legal_moves())
    }

    /// Plays `input` for the seat to move.
    ///
    /// # Errors
    /// The engine's reason, or [`PlayError::Input`] for a move of the other game.
    pub fn play(&mut self, input: &MoveInput) -> Result<Played, PlayError> {
        match (self, input) {
            (Self::Cc(g), MoveInput::Cc(mv)) => g.play(*mv),
            (Self::Draughts(g), MoveInput::Draughts(notation)) => g.play(notation),
            (Self::Cc(_), _) => Err(cc::bad_input()),
            (Self::Draughts(_), _) => Err(draughts::bad_input()),
        }
    }

    /// `seat` resigns (RULES.md: the engine applies the consequences).
    ///
    /// # Errors
    /// If the engine refuses (e.g. a seat that already finished).
    pub fn resign(&mut self, seat: usize) -> Result<(), ActionError> {
        each!(self, g => g.resign(seat))
    }

    /// `seat` loses by abandonment (the other player of a 2-player game claimed the win):
    /// a resignation whose reason is `abandonment`.
    ///
    /// # Errors
    /// As [`GameState::resign`].
    pub fn forfeit(&mut self, seat: usize) -> Result<(), ActionError> {
        each!(self, g => g.forfeit(seat))
    }

    /// `seat`'s flag fell (crate::clock): a resignation whose reason is `time`.
    ///
    /// # Errors
    /// As [`GameState::resign`].
    pub fn flag(&mut self, seat: usize) -> Result<(), ActionError> {
        each!(self, g => g.flag(seat))
    }

    /// The players agree to a draw (draughts).
    ///
    /// # Errors
    /// [`ActionError::NoDraw`] in Chinese checkers, or the engine's refusal.
    pub fn agree_draw(&mut self) -> Result<(), ActionError> {
        match self {
            Self::Cc(_) => Err(ActionError::NoDraw),
            Self::Draughts(g) => g.agree_draw(),
        }
    }

    /// Whether a CPU on `seat` accepts a draw offered now (draughts; Chinese checkers has no
    /// draw by agreement). A short search: call it once per position.
    pub fn cpu_accepts_draw(&self, seat: usize) -> bool {
        match self {
            Self::Cc(_) => false,
            Self::Draughts(g) => g.cpu_accepts_draw(seat),
        }
    }

    /// Ends the game with no result (45 days without a move).
    pub fn abandon(&mut self) {
        each!(self, g => g.abandon())
    }

    /// Ends the game now because no person is left in play (Chinese checkers: the players still
    /// playing are ranked as for stagnation, reason `stopped`).
    pub fn stop(&mut self) {
        each!(self, g => g.stop())
    }

    /// Whether `seat` still plays in this game (not over, not finished, not resigned).
    pub fn in_play(&self, seat: usize) -> bool {
        each!(self, g => g.in_play(seat))
    }

    /// The protocol's `Outcome` once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, g => g.outcome())
    }

    /// The CPU's move for the seat to move (blocking: call off the async runtime); `None` if
    /// the game is over or the search was cancelled.
    pub fn cpu_move(&self, level: Level, limits: &dames_ai::Limits) -> Option<MoveInput> {
        each!(self, g => g.cpu_move(level, limits))
    }

    /// The AI's move at `level` as the exact [`LegalMove`] of [`GameState::legal_moves`], so a
    /// client can show it.
    pub fn hint(&self, level: Level, limits: &dames_ai::Limits) -> Option<LegalMove> {
        let chosen = self.cpu_move(level, limits)?;
        self.legal_moves()
            .into_iter()
            .find(|m| m.to_input() == chosen)
    }
}

impl LegalMove {
    /// The input that plays this move.
    pub fn to_input(&self) -> MoveInput {
        match self {
            Self::Cc(m) => MoveInput::Cc(cc::engine_move(m)),
            Self::Draughts(m) => MoveInput::Draughts(m.notation.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rules_are_read_by_the_engines_with_their_defaults() {
        let cc = GameRules::parse(GameKind::Cc, &json!({"players": 3})).unwrap();
        assert_eq!(cc.seats(), 3);
        let dr = GameRules::parse(GameKind::Draughts, &json!({"variant": "canadian"})).unwrap();
        assert_eq!(
            serde_json::to_value(dr).unwrap(),
            json!({"variant": "canadian", "three_vs_king_moves": 16})
        );
        for (kind, bad) in [
            (GameKind::Cc, json!({"players": 7})),
            (GameKind::Cc, json!({"colour": 1})),
            (GameKind::Draughts, json!({"variant": "russian"})),
            (GameKind::Draughts, json!({"three_vs_king_moves": 12})),
            (GameKind::Draughts, json!({"flying_men": true})),
            (GameKind::Draughts, json!([1])),
        ] {
            assert!(GameRules::parse(kind, &bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_move_of_the_other_game_is_an_input_error() {
        let rules = GameRules::default_for(GameKind::Draughts);
        let mut game = GameState::new(&rules, 0, None).unwrap();
        let cc = GameKind::Cc
            .parse_move(&json!({"from": [4, 4, -8], "to": [3, 4, -7]}))
            .unwrap();
        fn shape<T: std::fmt::Debug>(r: Result<T, PlayError>) -> (InputError, String) {
            match r {
                Err(PlayError::Input(e)) => (e.clone(), e.to_string()),
                other => panic!("not an input error: {other:?}"),
            }
        }
        assert_eq!(
            shape(game.play(&cc)),
            (
                InputError::Shape(GameKind::Draughts),
                r#"a draughts move is {"notation": "32-28"}"#.into()
            )
        );
        assert_eq!(
            shape(GameKind::Draughts.parse_move(&json!({"from": 31}))).0,
            InputError::Shape(GameKind::Draughts)
        );
        assert_eq!(
            shape(GameKind::Draughts.parse_move(&json!({"notation": "1-".repeat(200)}))).0,
            InputError::NotationTooLong
        );
        assert_eq!(
            shape(GameKind::Cc.parse_move(&json!({"notation": "32-28"}))).1,
            r#"a Chinese checkers move is {"from": [x, y, z], "to": [x, y, z]}"#
        );
        assert_eq!(
            shape(GameKind::Cc.parse_move(&json!({"from": [9, 9, -18], "to": [0, 0, 0]}))),
            (
                InputError::NotAHole([9, 9, -18]),
                "[9, 9, -18] is not a hole of the board".into()
            )
        );
    }

    #[test]
    fn a_start_position_that_does_not_fit_is_a_typed_error() {
        let cc = GameRules::default_for(GameKind::Cc);
        let dr = GameRules::default_for(GameKind::Draughts);
        let three = GameRules::parse(GameKind::Cc, &json!({"players": 3})).unwrap();
        let start = |rules: &GameRules, start: &str| match GameState::new(rules, 0, Some(start)) {
            Err(RulesError::Start(e)) => e,
            other => panic!("not a start error: {:?}", other.map(|_| ())),
        };
        assert!(matches!(start(&cc, "W:W31:B20"), StartError::CcPosition));
        assert!(matches!(
            start(&three, SOLITAIRE_START),
            StartError::Solitaire
        ));
        assert!(matches!(start(&dr, "W:W99:B1"), StartError::Fen(_)));
        assert_eq!(
            RulesError::from(StartError::CcPosition).to_string(),
            "start position: Chinese checkers games start from the camps"
        );
        assert!(GameState::new(&cc, 0, Some(SOLITAIRE_START)).is_ok());
    }

    #[test]
    fn every_legal_move_plays_through_its_input() {
        for kind in [GameKind::Cc, GameKind::Draughts] {
            let game = GameState::new(&GameRules::default_for(kind), 0, None).unwrap();
            for mv in game.legal_moves() {
                let played = game.clone().play(&mv.to_input()).unwrap();
                assert_eq!(played.mv, mv);
            }
        }
    }
}
