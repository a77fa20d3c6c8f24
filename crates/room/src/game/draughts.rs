//! Draughts through the `draughts` engine: FMJD square numbers and PDN notation in every value.
//! The seat that moves first plays White.

use draughts::{Color, DrawReason, Game, MoveInfo, Role, Rules, WinReason};
use serde::Deserialize;
use serde_json::Value;

use dames_ai::Level;

use super::{ActionError, GameKind, InputError, MoveInput, PlayError, Played};
use crate::protocol::{self, Board, DraughtsBoard, DraughtsMove, DraughtsPiece, LegalMove};
use crate::protocol::{OutcomeKind, Reason};

/// Longest notation accepted (a 12×12 capture of every piece fits many times over).
const MAX_NOTATION: usize = 200;

/// A draughts game.
#[derive(Clone, Debug)]
pub struct DraughtsGame {
    game: Game,
    /// The seat playing White.
    white: usize,
    /// Ended with no result, and why (45 days without a move, or stopped): the engine has no
    /// such ending.
    ended: Option<Reason>,
    /// Why the last resignation was made: `resignation`, or `abandonment` (`forfeit`) or
    /// `time` (`flag`), which are resignations the player did not choose.
    resigned_for: Reason,
}

/// White for the seat that moves first, Black for the other.
pub fn seat_color(seat: usize, first_seat: usize) -> Color {
    if seat == first_seat {
        Color::White
    } else {
        Color::Black
    }
}

/// What a draughts `MoveInput` looks like, for errors.
pub fn bad_input() -> PlayError {
    InputError::Shape(GameKind::Draughts).into()
}

/// `{"notation"}` (other fields, such as a whole `LegalMove` sent back, are ignored).
#[derive(Deserialize)]
struct Input {
    notation: String,
}

/// Reads a `MoveInput`.
pub fn parse_move(input: &Value) -> Result<MoveInput, PlayError> {
    let input = Input::deserialize(input).map_err(|_| bad_input())?;
    if input.notation.len() > MAX_NOTATION {
        return Err(InputError::NotationTooLong.into());
    }
    Ok(MoveInput::Draughts(input.notation))
}

fn listed(info: &MoveInfo) -> LegalMove {
    LegalMove::Draughts(DraughtsMove {
        from: info.from,
        to: info.to,
        path: info.path.clone(),
        captures: info.captures.clone(),
        notation: info.notation.clone(),
    })
}

fn reason(outcome: &draughts::Outcome) -> Reason {
    match outcome {
        draughts::Outcome::Win { reason, .. } => match reason {
            WinReason::NoMoves => Reason::NoMoves,
            WinReason::Resignation => Reason::Resignation,
        },
        draughts::Outcome::Draw { reason } => match reason {
            DrawReason::Agreement => Reason::Agreement,
            DrawReason::ThreefoldRepetition => Reason::ThreefoldRepetition,
            DrawReason::TwentyFiveKingMoves => Reason::TwentyFiveKingMoves,
            DrawReason::ThreeVsLoneKing => Reason::ThreeVsLoneKing,
            DrawReason::TwoVsLoneKing => Reason::TwoVsLoneKing,
        },
    }
}

impl DraughtsGame {
    /// A new game from the usual start, or from `start` (a FEN) when given; `first_seat` (0 or
    /// 1) is the side to move: White from the usual start.
    ///
    /// # Errors
    /// If `start` is not a position of the rules' board.
    pub fn new(
        rules: Rules,
        first_seat: usize,
        start: Option<&str>,
    ) -> Result<Self, draughts::ParseFenError> {
        let game = match start {
            Some(fen) => Game::from_fen(rules, fen)?,
            None => Game::new(rules),
        };
        let first = first_seat.min(1);
        let white = match game.side_to_move() {
            Color::White => first,
            Color::Black => 1 - first,
        };
        Ok(Self {
            game,
            white,
            ended: None,
            resigned_for: Reason::Resignation,
        })
    }

    /// The seat playing White.
    pub fn white_seat(&self) -> usize {
        self.white
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn seat_of(&self, color: Color) -> usize {
        match color {
            Color::White => self.white,
            Color::Black => 1 - self.white,
        }
    }

    pub fn to_move(&self) -> Option<usize> {
        (self.ended.is_none() && self.game.outcome().is_none())
            .then(|| self.seat_of(self.game.side_to_move()))
    }

    pub fn board(&self) -> Board {
        let pieces = self
            .game
            .pieces()
            .into_iter()
            .map(|(square, piece)| DraughtsPiece {
                square,
                color: piece.color,
                king: piece.role == Role::King,
            })
            .collect();
        Board::Draughts(DraughtsBoard {
            size: self.game.variant().size(),
            fen: self.game.fen(),
            pieces,
        })
    }

    pub fn legal_moves(&self) -> Vec<LegalMove> {
        if self.to_move().is_none() {
            return Vec::new();
        }
        self.game.legal_moves().iter().map(listed).collect()
    }

    pub fn play(&mut self, notation: &str) -> Result<Played, PlayError> {
        if self.ended.is_some() {
            return Err(PlayError::Abandoned);
        }
        let info = self.game.play_notation(notation)?;
        Ok(Played {
            mv: listed(&info),
            passes: Vec::new(),
            finished: Vec::new(),
        })
    }

    pub fn resign(&mut self, seat: usize) -> Result<(), ActionError> {
        if self.ended.is_some() {
            return Err(ActionError::Abandoned);
        }
        let color = seat_color(seat, self.white);
        self.game.resign(color)?;
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

    pub fn agree_draw(&mut self) -> Result<(), ActionError> {
        if self.ended.is_some() {
            return Err(ActionError::Abandoned);
        }
        Ok(self.game.agree_draw()?)
    }

    pub fn abandon(&mut self) {
        self.end_without_result(Reason::Abandoned);
    }

    /// Draughts has two seats, one of them a person's: a game is stopped only if that person is
    /// out of play, which ends it anyway; should it happen, it ends with no result.
    pub fn stop(&mut self) {
        self.end_without_result(Reason::Stopped);
    }

    fn end_without_result(&mut self, reason: Reason) {
        if self.to_move().is_some() {
            self.ended = Some(reason);
        }
    }

    pub fn in_play(&self, _seat: usize) -> bool {
        self.to_move().is_some()
    }

    pub fn outcome(&self) -> Option<protocol::Outcome> {
        if let Some(reason) = self.ended {
            return Some(protocol::Outcome {
                kind: OutcomeKind::Abandoned,
                reason,
                places: vec![None, None],
            });
        }
        let outcome = self.game.outcome()?;
        let (kind, places) = match outcome.winner() {
            Some(winner) => {
                let mut places = [2, 2];
                places[self.seat_of(winner)] = 1;
                (OutcomeKind::Win, places)
            }
            None => (OutcomeKind::Draw, [1, 1]),
        };
        let reason = match reason(&outcome) {
            Reason::Resignation => self.resigned_for,
            other => other,
        };
        Some(protocol::Outcome {
            kind,
            reason,
            places: places.iter().map(|&p| Some(p)).collect(),
        })
    }

    /// Whether a CPU on `seat` accepts a draw offer now (its evaluation's judgement).
    pub fn cpu_accepts_draw(&self, seat: usize) -> bool {
        let color = seat_color(seat, self.white);
        self.to_move().is_some() && dames_ai::draughts::accepts_draw(&self.game, color)
    }

    pub fn cpu_move(&self, level: Level, limits: &dames_ai::Limits) -> Option<MoveInput> {
        self.to_move()?;
        let info = dames_ai::draughts::choose(&self.game, level, limits)?;
        Some(MoveInput::Draughts(info.notation))
    }
}
