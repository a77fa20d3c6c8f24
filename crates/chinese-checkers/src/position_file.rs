//! The position file: a JSON description of a position, used by the CLI and the tests, and the
//! serde form of [`Game`].
//!
//! ```json
//! {
//!   "rules": {"players": 2},
//!   "to_move": 0,
//!   "seats": [
//!     [[4,4,-8], [3,4,-7], {"at": [4,3,-7], "king": true}],
//!     [[-4,-4,8]]
//!   ]
//! }
//! ```
//!
//! - `"rules"`: the serde form of [`Rules`]; missing fields take their defaults (`{}` or an absent
//!   `"rules"` is the default game).
//! - `"to_move"`: the seat to move, 0-based in turn order (default 0).
//! - `"seats"`: one array per seat, in turn order, of its pieces: `[x,y,z]` cube coordinates, or
//!   `{"at":[x,y,z], "king":true, "set":1}` where `king` (Japanese rules only) and `set` (the index
//!   of the set among the seat's sets, [`Rules::seat_camps`], default 0) are optional. A set may
//!   have fewer pieces than the rules give (hand-built positions) but not more.
//! - `"inert"` (optional): the inert pieces of filled camps; absent, they are those the rules give.
//! - `"state"` (optional, written by [`Game`]'s serde form): turns taken, places, resignations,
//!   stagnation counters and outcome. Absent, the counters start at zero; players who have
//!   finished on the given board take places in seat order.
//!
//! Parsing never panics: every malformed input is a [`PositionError`].

use serde::{Deserialize, Serialize};

use crate::cell::{Bitboard, Cell};
use crate::outcome::Outcome;
use crate::position::{Game, SavedState};
use crate::rules::{RuleSet, Rules, RulesError, Seat};

/// A piece in a position file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PieceEntry {
    /// A plain piece of the seat's first set: `[x,y,z]`.
    At(Cell),
    /// `{"at":[x,y,z], "king":true, "set":1}`.
    Detailed(PieceSpec),
}

/// The object form of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSpec {
    /// Where it stands.
    pub at: Cell,
    /// A Japanese king.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub king: bool,
    /// Index of its set among the seat's sets.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub set: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// The counters of a game in progress (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateForm {
    /// Turns taken by each seat.
    pub turns: Vec<u16>,
    /// Place of each seat, 0 if not yet decided.
    pub places: Vec<u8>,
    /// Seats that resigned.
    #[serde(default)]
    pub resigned: Vec<Seat>,
    /// Turns since an unfinished player last improved.
    #[serde(default)]
    pub quiet_turns: u32,
    /// The outcome, if the game is over.
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// Each seat's best progress so far (stagnation); recomputed from the board if absent.
    #[serde(default)]
    pub best_progress: Vec<u32>,
}

/// A position file (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionFile {
    /// The rules; missing fields take their defaults.
    #[serde(default)]
    pub rules: Rules,
    /// Seat to move.
    #[serde(default)]
    pub to_move: u8,
    /// Pieces of each seat, in turn order.
    pub seats: Vec<Vec<PieceEntry>>,
    /// Inert pieces, if not those of the rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inert: Option<Vec<Cell>>,
    /// Game counters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<StateForm>,
}

/// Why a position file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Not valid JSON of the expected shape (with serde's message).
    Json(String),
    /// The rules are invalid.
    Rules(RulesError),
    /// `"seats"` does not have one entry per player.
    SeatCount {
        /// Players of the rules.
        expected: u8,
        /// Entries found.
        found: usize,
    },
    /// `"to_move"` is not a seat.
    ToMove(u8),
    /// A piece names a set its seat does not have.
    NoSuchSet {
        /// The seat.
        seat: u8,
        /// The set index given.
        set: u8,
    },
    /// Two pieces on one hole.
    TwoPiecesOnOneHole(Cell),
    /// A set has more pieces than the rules give.
    TooManyPieces {
        /// The seat.
        seat: u8,
        /// Pieces found in one of its sets.
        count: u32,
    },
    /// A king outside the Japanese rules, or two kings in one set.
    BadKing(Cell),
    /// The `"state"` does not fit the game (wrong lengths or values).
    BadState(&'static str),
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Json(e) => write!(f, "invalid position file: {e}"),
            PositionError::Rules(e) => write!(f, "invalid rules: {e}"),
            PositionError::SeatCount { expected, found } => {
                write!(f, "{found} seats listed for {expected} players")
            }
            PositionError::ToMove(s) => write!(f, "to_move: seat {s} does not exist"),
            PositionError::NoSuchSet { seat, set } => write!(f, "seat {seat} has no set {set}"),
            PositionError::TwoPiecesOnOneHole(c) => write!(f, "two pieces on {c}"),
            PositionError::TooManyPieces { seat, count } => {
                write!(
                    f,
                    "seat {seat} has {count} pieces in one set, more than the rules give"
                )
            }
            PositionError::BadKing(c) => {
                write!(
                    f,
                    "king on {c}: kings exist only in the Japanese rules, one per set"
                )
            }
            PositionError::BadState(e) => write!(f, "invalid state: {e}"),
        }
    }
}

impl std::error::Error for PositionError {}

impl From<RulesError> for PositionError {
    fn from(e: RulesError) -> PositionError {
        PositionError::Rules(e)
    }
}

impl PositionFile {
    /// Parses a position file.
    ///
    /// # Errors
    /// [`PositionError::Json`] if the text is not a position file.
    pub fn from_json(text: &str) -> Result<PositionFile, PositionError> {
        serde_json::from_str(text).map_err(|e| PositionError::Json(e.to_string()))
    }

    /// The game this file describes.
    ///
    /// # Errors
    /// [`PositionError`] saying what does not fit the rules.
    pub fn to_game(&self) -> Result<Game, PositionError> {
        let rules = self.rules;
        let mut game = Game::empty(rules)?;
        if self.seats.len() != rules.seat_count() {
            return Err(PositionError::SeatCount {
                expected: rules.players,
                found: self.seats.len(),
            });
        }
        if self.to_move >= rules.players {
            return Err(PositionError::ToMove(self.to_move));
        }
        let mut board = Board::default();
        for (seat, entries) in (0u8..).zip(&self.seats) {
            board.place_seat(&rules, seat, entries)?;
        }
        let inert = self.inert_pieces(&rules, &mut board.occupied)?;
        game.set_board(board.pieces, inert, board.kings, self.to_move);
        if let Some(state) = &self.state {
            game.set_state(state.to_saved(&rules)?);
        }
        game.refresh();
        if let Some(state) = &self.state {
            if !state.best_progress.is_empty() && state.best_progress.len() != rules.seat_count() {
                return Err(PositionError::BadState(
                    "best_progress needs one entry per seat",
                ));
            }
            game.set_best_progress(&state.best_progress);
        }
        Ok(game)
    }

    /// The inert pieces: those listed, or those of the rules.
    fn inert_pieces(&self, rules: &Rules, occupied: &mut u128) -> Result<u128, PositionError> {
        match &self.inert {
            Some(cells) => cells.iter().try_fold(0u128, |m, &c| {
                place(occupied, c)?;
                Ok(m | (1u128 << c.index()))
            }),
            None => {
                let standard = Game::standard_inert(rules);
                match Bitboard(standard & *occupied).next() {
                    Some(c) => Err(PositionError::TwoPiecesOnOneHole(c)),
                    None => Ok(standard),
                }
            }
        }
    }

    /// The position file of `game` (with its state counters).
    pub fn from_game(game: &Game) -> PositionFile {
        let rules = *game.rules();
        let seats = rules
            .seats()
            .map(|seat| {
                let mut entries = Vec::new();
                for (set, camp) in (0u8..).zip(rules.seat_camps(seat)) {
                    for at in game.set_pieces(*camp) {
                        let king = game.kings().contains(at);
                        entries.push(if king || set != 0 {
                            PieceEntry::Detailed(PieceSpec { at, king, set })
                        } else {
                            PieceEntry::At(at)
                        });
                    }
                }
                entries
            })
            .collect();
        let inert = game.inert_pieces();
        let standard = Bitboard(Game::standard_inert(&rules));
        PositionFile {
            rules,
            to_move: game.to_move().0,
            seats,
            inert: (inert != standard).then(|| inert.collect()),
            state: Some(StateForm {
                best_progress: game.best_progress().to_vec(),
                ..StateForm::from_saved(&rules, &game.saved_state())
            }),
        }
    }
}

/// Pieces read so far from a position file.
#[derive(Default)]
struct Board {
    pieces: [u128; 6],
    kings: u128,
    occupied: u128,
}

impl Board {
    /// Places the pieces of `seat`, checking sets, holes, kings and counts.
    fn place_seat(
        &mut self,
        rules: &Rules,
        seat: u8,
        entries: &[PieceEntry],
    ) -> Result<(), PositionError> {
        let camps = rules.seat_camps(Seat(seat));
        for entry in entries {
            let spec = match *entry {
                PieceEntry::At(at) => PieceSpec {
                    at,
                    king: false,
                    set: 0,
                },
                PieceEntry::Detailed(spec) => spec,
            };
            let set = spec.set;
            let camp = camps
                .get(usize::from(set))
                .ok_or(PositionError::NoSuchSet { seat, set })?;
            let colour = usize::from(camp.index());
            place(&mut self.occupied, spec.at)?;
            self.pieces[colour] |= 1u128 << spec.at.index();
            if spec.king {
                if rules.rule_set != RuleSet::Japanese || self.pieces[colour] & self.kings != 0 {
                    return Err(PositionError::BadKing(spec.at));
                }
                self.kings |= 1u128 << spec.at.index();
            }
        }
        for camp in camps {
            let count = self.pieces[usize::from(camp.index())].count_ones();
            if count > u32::from(rules.pieces) {
                return Err(PositionError::TooManyPieces { seat, count });
            }
        }
        Ok(())
    }
}

fn place(occupied: &mut u128, at: Cell) -> Result<(), PositionError> {
    let bit = 1u128 << at.index();
    if *occupied & bit != 0 {
        return Err(PositionError::TwoPiecesOnOneHole(at));
    }
    *occupied |= bit;
    Ok(())
}

impl StateForm {
    fn to_saved(&self, rules: &Rules) -> Result<SavedState, PositionError> {
        let n = rules.seat_count();
        if self.turns.len() != n || self.places.len() != n {
            return Err(PositionError::BadState(
                "turns and places need one entry per seat",
            ));
        }
        if self.places.iter().any(|&p| usize::from(p) > n) {
            return Err(PositionError::BadState(
                "a place beyond the number of seats",
            ));
        }
        let mut saved = SavedState {
            quiet_turns: self.quiet_turns,
            outcome: self.outcome,
            ..SavedState::default()
        };
        saved.turns[..n].copy_from_slice(&self.turns);
        saved.places[..n].copy_from_slice(&self.places);
        for (s, &p) in self.places.iter().enumerate() {
            if p != 0 {
                saved.out |= 1 << s;
            }
        }
        for seat in &self.resigned {
            if seat.index() >= n || saved.places[seat.index()] == 0 {
                return Err(PositionError::BadState("a resigned seat needs a place"));
            }
            saved.resigned |= 1 << seat.0;
        }
        if let Some(outcome) = self.outcome {
            if outcome.places().is_some_and(|p| p.len() != n) {
                return Err(PositionError::BadState(
                    "the outcome needs one place per seat",
                ));
            }
        }
        Ok(saved)
    }

    fn from_saved(rules: &Rules, saved: &SavedState) -> StateForm {
        let n = rules.seat_count();
        StateForm {
            turns: saved.turns[..n].to_vec(),
            places: saved.places[..n].to_vec(),
            resigned: (0..rules.players)
                .filter(|s| saved.resigned >> s & 1 != 0)
                .map(Seat)
                .collect(),
            quiet_turns: saved.quiet_turns,
            outcome: saved.outcome,
            best_progress: Vec::new(),
        }
    }
}

impl Game {
    /// Parses a position file (see [`crate::position_file`]).
    ///
    /// # Errors
    /// [`PositionError`] for malformed JSON or a position that does not fit its rules.
    pub fn from_position_json(text: &str) -> Result<Game, PositionError> {
        PositionFile::from_json(text)?.to_game()
    }

    /// The position file of this game, as JSON (including the state counters).
    pub fn to_position_json(&self) -> String {
        serde_json::to_string(&PositionFile::from_game(self)).expect("a position file serialises")
    }
}

impl Serialize for Game {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        PositionFile::from_game(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        PositionFile::deserialize(d)?
            .to_game()
            .map_err(serde::de::Error::custom)
    }
}
