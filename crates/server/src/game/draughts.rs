//! Draughts through the `draughts` engine: rules `{"variant", "three_vs_king_moves"}`, FMJD
//! square numbers and PDN notation in every JSON value. The seat that moves first plays White.

use draughts::{Color, DrawReason, Game, MoveInfo, Outcome, Role, Rules, Variant, WinReason};
use serde_json::{json, Map, Value};

use dames_ai::Level;

use super::{Played, RulesInfo};

/// A draughts game.
#[derive(Clone, Debug)]
pub struct DraughtsGame {
    game: Game,
    /// The seat playing White.
    white: usize,
    /// Ended with no result (45 days without a move): the engine has no such ending.
    abandoned: bool,
}

fn parse_rules(rules: Option<&Value>) -> Result<Rules, String> {
    let empty = Map::new();
    let obj = match rules {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(obj)) => obj,
        Some(_) => return Err("rules must be an object".into()),
    };
    if let Some(key) = obj
        .keys()
        .find(|k| !["variant", "three_vs_king_moves"].contains(&k.as_str()))
    {
        return Err(format!("unknown draughts rule {key:?}"));
    }
    let mut out = Rules::default();
    if let Some(v) = obj.get("variant") {
        let name = v
            .as_str()
            .ok_or("variant: \"international\", \"brazilian\" or \"canadian\"")?;
        out.variant = name.parse::<Variant>().map_err(|_| {
            format!("unknown variant {name:?}: \"international\", \"brazilian\" or \"canadian\"")
        })?;
    }
    if let Some(v) = obj.get("three_vs_king_moves") {
        match v.as_u64() {
            Some(n @ (10 | 16)) => out.three_vs_king_moves = n as u8,
            _ => return Err("three_vs_king_moves must be 16 or 10".into()),
        }
    }
    Ok(out)
}

fn rules_json(rules: Rules) -> Value {
    json!({"variant": rules.variant.name(), "three_vs_king_moves": rules.three_vs_king_moves})
}

/// Validates the rules.
pub fn validate_rules(rules: Option<&Value>) -> Result<RulesInfo, String> {
    Ok(RulesInfo {
        rules: rules_json(parse_rules(rules)?),
        seats: 2,
    })
}

/// `"white"` for the seat that moves first, `"black"` for the other.
pub fn seat_color(seat: usize, first_seat: usize) -> Value {
    if seat == first_seat { "white" } else { "black" }.into()
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn move_json(info: &MoveInfo) -> Value {
    let squares = |s: &[draughts::Square]| s.iter().map(|q| q.number()).collect::<Vec<_>>();
    json!({
        "from": info.from.number(),
        "to": info.to.number(),
        "path": squares(&info.path),
        "captures": squares(&info.captures),
        "notation": info.notation,
    })
}

fn reason(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Win {
            reason: WinReason::NoMoves,
            ..
        } => "no_moves",
        Outcome::Win {
            reason: WinReason::Resignation,
            ..
        } => "resignation",
        Outcome::Draw {
            reason: DrawReason::Agreement,
        } => "agreement",
        Outcome::Draw {
            reason: DrawReason::ThreefoldRepetition,
        } => "threefold_repetition",
        Outcome::Draw {
            reason: DrawReason::TwentyFiveKingMoves,
        } => "twenty_five_king_moves",
        Outcome::Draw {
            reason: DrawReason::ThreeVsLoneKing,
        } => "three_vs_lone_king",
        Outcome::Draw {
            reason: DrawReason::TwoVsLoneKing,
        } => "two_vs_lone_king",
    }
}

impl DraughtsGame {
    /// A new game; `first_seat` plays White.
    pub fn new(rules: &Value, first_seat: usize) -> Result<Self, String> {
        if first_seat > 1 {
            return Err("draughts has seats 0 and 1".into());
        }
        Ok(Self {
            game: Game::new(parse_rules(Some(rules))?),
            white: first_seat,
            abandoned: false,
        })
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

    fn color_of(&self, seat: usize) -> Color {
        if seat == self.white {
            Color::White
        } else {
            Color::Black
        }
    }

    pub fn to_move(&self) -> Option<usize> {
        (!self.abandoned && self.game.outcome().is_none())
            .then(|| self.seat_of(self.game.side_to_move()))
    }

    pub fn board(&self) -> Value {
        let pieces: Vec<Value> = self
            .game
            .pieces()
            .into_iter()
            .map(|(square, piece)| {
                json!({"square": square.number(), "color": color_name(piece.color), "king": piece.role == Role::King})
            })
            .collect();
        json!({"size": self.game.variant().size(), "fen": self.game.fen(), "pieces": pieces})
    }

    pub fn legal_moves(&self) -> Vec<Value> {
        if self.to_move().is_none() {
            return Vec::new();
        }
        self.game.legal_moves().iter().map(move_json).collect()
    }

    pub fn play(&mut self, input: &Value) -> Result<Played, String> {
        if self.abandoned {
            return Err("the game is over".into());
        }
        let notation = input
            .get("notation")
            .and_then(Value::as_str)
            .ok_or("a draughts move is {\"notation\": \"32-28\"}")?;
        if notation.len() > 200 {
            return Err("notation too long".into());
        }
        let info = self
            .game
            .play_notation(notation)
            .map_err(|e| e.to_string())?;
        Ok(Played {
            mv: move_json(&info),
            passes: Vec::new(),
            finished: Vec::new(),
        })
    }

    pub fn resign(&mut self, seat: usize) -> Result<(), String> {
        if self.abandoned {
            return Err("the game is over".into());
        }
        self.game
            .resign(self.color_of(seat))
            .map_err(|e| e.to_string())
    }

    pub fn agree_draw(&mut self) -> Result<(), String> {
        if self.abandoned {
            return Err("the game is over".into());
        }
        self.game.agree_draw().map_err(|e| e.to_string())
    }

    pub fn abandon(&mut self) {
        if self.game.outcome().is_none() {
            self.abandoned = true;
        }
    }

    pub fn outcome(&self) -> Option<Value> {
        if self.abandoned {
            return Some(
                json!({"kind": "abandoned", "reason": "abandoned", "places": [null, null]}),
            );
        }
        let outcome = self.game.outcome()?;
        let (kind, places) = match outcome.winner() {
            Some(winner) => {
                let mut places = [2, 2];
                places[self.seat_of(winner)] = 1;
                ("win", places)
            }
            None => ("draw", [1, 1]),
        };
        Some(json!({"kind": kind, "reason": reason(&outcome), "places": places}))
    }

    pub fn cpu_move(&self, level: Level, limits: &dames_ai::Limits) -> Option<Value> {
        self.to_move()?;
        let info = dames_ai::draughts::choose(&self.game, level, limits)?;
        Some(json!({"notation": info.notation}))
    }
}
