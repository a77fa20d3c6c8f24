//! Chinese checkers through the `chinese-checkers` engine: cube coordinates in every value
//! (RULES.md 1.1), its outcome mapped to the protocol's `Outcome`.

use chinese_checkers::{Cell, Ending, Game, Move, Rules, Seat};
use serde::Deserialize;
use serde_json::Value;

use dames_ai::Level;

use super::{ActionError, GameKind, InputError, MoveInput, PlayError, Played, RulesError};
use crate::protocol::{self, Board, CcBoard, CcMove, CcPiece, LegalMove, OutcomeKind, Reason};

/// A Chinese checkers game.
#[derive(Clone, Debug)]
pub struct CcGame {
    game: Game,
    /// The crossing puzzle (« Défi solitaire »): the room has one seat; the engine's game has a
    /// second seat without pieces that passes every turn, which the protocol never shows.
    solitaire: bool,
    /// Why the last resignation was made: `resignation`, or `abandonment` (`forfeit`) or
    /// `time` (`flag`), which are resignations the player did not choose.
    resigned_for: Reason,
}

/// The start camps of `seat` (RULES.md 1.2), as numbers.
pub fn seat_camps(rules: &Rules, seat: usize) -> Vec<u8> {
    u8::try_from(seat)
        .map(|s| {
            rules
                .seat_camps(Seat(s))
                .iter()
                .map(|c| c.index())
                .collect()
        })
        .unwrap_or_default()
}

/// What a Chinese checkers `MoveInput` looks like, for errors.
pub fn bad_input() -> PlayError {
    InputError::Shape(GameKind::Cc).into()
}

/// `{"from", "to"}` (other fields, such as a whole `LegalMove` sent back, are ignored).
#[derive(Deserialize)]
struct Input {
    from: [i32; 3],
    to: [i32; 3],
}

fn cell(c: [i32; 3]) -> Result<Cell, PlayError> {
    Cell::from_cube(c[0], c[1], c[2]).ok_or(PlayError::Input(InputError::NotAHole(c)))
}

/// Reads a `MoveInput`.
pub fn parse_move(input: &Value) -> Result<MoveInput, PlayError> {
    let input = Input::deserialize(input).map_err(|_| bad_input())?;
    Ok(MoveInput::Cc(Move::new(cell(input.from)?, cell(input.to)?)))
}

/// The engine's move of a listed move.
pub fn engine_move(m: &CcMove) -> Move {
    let to_cell = |c: protocol::Cube| {
        Cell::from_cube(i32::from(c[0]), i32::from(c[1]), i32::from(c[2]))
            .expect("listed moves are on the board")
    };
    Move::new(to_cell(m.from), to_cell(m.to))
}

fn reason(ending: Ending) -> Reason {
    match ending {
        Ending::Finished => Reason::Finished,
        Ending::FirstFinished => Reason::FirstFinished,
        Ending::MoveLimit => Reason::MoveLimit,
        Ending::Stagnation => Reason::Stagnation,
        Ending::Blocked => Reason::Blocked,
        Ending::Resignation => Reason::Resignation,
        Ending::Abandoned => Reason::Abandoned,
        Ending::Stopped => Reason::Stopped,
    }
}

fn outcome(outcome: &chinese_checkers::Outcome, seats: usize) -> protocol::Outcome {
    let reason = reason(outcome.ending());
    let Some(places) = outcome.places() else {
        return protocol::Outcome {
            kind: OutcomeKind::Abandoned,
            reason,
            places: vec![None; seats],
        };
    };
    let kind = if outcome.is_draw() {
        OutcomeKind::Draw
    } else if places.len() == 2 {
        OutcomeKind::Win
    } else {
        OutcomeKind::Places
    };
    protocol::Outcome {
        kind,
        reason,
        places: places.iter().map(|&p| Some(p)).collect(),
    }
}

/// The crossing puzzle's outcome for its one seat: a win once across (place 1), no result
/// otherwise (given up, or ended by the move limit or stagnation: `places` is `[null]`).
fn solitaire_outcome(game: &Game, o: &chinese_checkers::Outcome) -> protocol::Outcome {
    let reason = reason(o.ending());
    if game.has_finished(Seat(0)) {
        protocol::Outcome {
            kind: OutcomeKind::Win,
            reason,
            places: vec![Some(1)],
        }
    } else {
        protocol::Outcome {
            kind: OutcomeKind::Places,
            reason,
            places: vec![None],
        }
    }
}

impl CcGame {
    /// A new game; `first_seat` moves first.
    pub fn new(rules: Rules, first_seat: usize) -> Result<Self, RulesError> {
        let first = u8::try_from(first_seat).unwrap_or(u8::MAX);
        Ok(Self {
            game: Game::new(rules, Seat(first))?,
            solitaire: false,
            resigned_for: Reason::Resignation,
        })
    }

    /// The crossing puzzle from its start (`chinese_checkers::Solitaire`): seat 0 alone, with
    /// the default rules; the game ends when its ten pieces are in camp 3.
    pub fn solitaire() -> Self {
        Self {
            game: chinese_checkers::Solitaire::start().to_game(),
            solitaire: true,
            resigned_for: Reason::Resignation,
        }
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn to_move(&self) -> Option<usize> {
        (!self.game.is_over()).then(|| self.game.to_move().index())
    }

    pub fn board(&self) -> Board {
        let mut pieces = Vec::new();
        let mut inert = Vec::new();
        for cell in Cell::all() {
            let Some(piece) = self.game.piece_at(cell) else {
                continue;
            };
            match piece.seat {
                Some(seat) => pieces.push(CcPiece {
                    seat: seat.index(),
                    at: cell.to_cube(),
                    king: piece.king,
                    camp: piece.colour.map(|c| c.index()),
                }),
                None => inert.push(cell.to_cube()),
            }
        }
        Board::Cc(CcBoard { pieces, inert })
    }

    /// `mv` as the protocol lists it, with its `path` (the engine's; `None`: from and to).
    fn listed(mv: Move, path: Option<Vec<Cell>>) -> CcMove {
        let path = path
            .unwrap_or_else(|| vec![mv.from, mv.to])
            .into_iter()
            .map(Cell::to_cube)
            .collect();
        CcMove {
            from: mv.from.to_cube(),
            to: mv.to.to_cube(),
            path,
        }
    }

    pub fn legal_moves(&self) -> Vec<LegalMove> {
        if self.game.is_over() {
            return Vec::new();
        }
        self.game
            .legal_moves_vec()
            .into_iter()
            .map(|mv| LegalMove::Cc(Self::listed(mv, self.game.path_unchecked(mv))))
            .collect()
    }

    pub fn play(&mut self, mv: Move) -> Result<Played, PlayError> {
        let listed = Self::listed(mv, self.game.path(mv));
        let events = self.game.play(mv)?;
        Ok(Played {
            mv: LegalMove::Cc(listed),
            passes: events
                .passes
                .iter()
                .map(|s| s.index())
                .filter(|_| !self.solitaire)
                .collect(),
            finished: events.finished.iter().map(|f| f.seat.index()).collect(),
        })
    }

    pub fn resign(&mut self, seat: usize) -> Result<(), ActionError> {
        let seat = u8::try_from(seat).unwrap_or(u8::MAX);
        self.game.resign(Seat(seat))?;
        self.resigned_for = Reason::Resignation;
        Ok(())
    }

    pub fn forfeit(&mut self, seat: usize) -> Result<(), ActionError> {
        self.resign_for(seat, Reason::Abandonment)
    }

    pub fn flag(&mut self, seat: usize) -> Result<(), ActionError> {
        self.resign_for(seat, Reason::Time)
    }

    fn resign_for(&mut self, seat: usize, why: Reason) -> Result<(), ActionError> {
        self.resign(seat)?;
        self.resigned_for = why;
        Ok(())
    }

    pub fn abandon(&mut self) {
        // An error means the game is already over: nothing to abandon.
        let _ = self.game.abandon();
    }

    pub fn stop(&mut self) {
        // An error means the game is already over: nothing to stop.
        let _ = self.game.stop();
    }

    pub fn in_play(&self, seat: usize) -> bool {
        let seat = Seat(u8::try_from(seat).unwrap_or(u8::MAX));
        !self.game.is_over() && !self.game.has_finished(seat) && !self.game.has_resigned(seat)
    }

    pub fn outcome(&self) -> Option<protocol::Outcome> {
        let o = self.game.outcome()?;
        if self.solitaire {
            return Some(solitaire_outcome(&self.game, &o));
        }
        let mut out = outcome(&o, self.game.rules().seat_count());
        if out.reason == Reason::Resignation {
            out.reason = self.resigned_for;
        }
        Some(out)
    }

    pub fn cpu_move(&self, level: Level, limits: &dames_ai::Limits) -> Option<MoveInput> {
        dames_ai::cc::choose(&self.game, level, limits).map(MoveInput::Cc)
    }
}
