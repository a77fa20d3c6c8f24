//! Chinese checkers through the `chinese-checkers` engine: its serde `Rules`, cube coordinates
//! in every JSON value (RULES.md 1.1), and its outcome mapped to the protocol's `Outcome`.

use chinese_checkers::{Cell, Game, Move, Outcome, Rules, Seat};
use serde_json::{json, Value};

use dames_ai::Level;

use super::{Played, RulesInfo};

/// A Chinese checkers game.
#[derive(Clone, Debug)]
pub struct CcGame {
    game: Game,
}

fn parse_rules(rules: Option<&Value>) -> Result<Rules, String> {
    let rules: Rules = match rules {
        Some(value) => serde_json::from_value(value.clone()).map_err(|e| format!("rules: {e}"))?,
        None => Rules::default(),
    };
    rules.validate().map_err(|e| e.to_string())?;
    Ok(rules)
}

/// Validates the rules through the engine.
pub fn validate_rules(rules: Option<&Value>) -> Result<RulesInfo, String> {
    let rules = parse_rules(rules)?;
    let value = serde_json::to_value(rules).map_err(|e| e.to_string())?;
    Ok(RulesInfo {
        rules: value,
        seats: rules.seat_count(),
    })
}

/// The start camps of `seat` (RULES.md 1.2), as numbers.
pub fn seat_camps(rules: &Value, seat: usize) -> Value {
    let camps: Vec<u8> = parse_rules(Some(rules))
        .ok()
        .and_then(|r| {
            u8::try_from(seat)
                .ok()
                .map(|s| r.seat_camps(Seat(s)).iter().map(|c| c.index()).collect())
        })
        .unwrap_or_default();
    json!(camps)
}

fn cube(cell: Cell) -> Value {
    json!(cell.to_cube())
}

fn cell_from(value: Option<&Value>) -> Result<Cell, String> {
    let coords: Vec<i64> = value
        .and_then(Value::as_array)
        .filter(|a| a.len() == 3)
        .and_then(|a| a.iter().map(Value::as_i64).collect())
        .ok_or("a hole is [x, y, z] in cube coordinates")?;
    let [x, y, z] = [coords[0], coords[1], coords[2]].map(|c| i32::try_from(c).unwrap_or(i32::MAX));
    Cell::from_cube(x, y, z).ok_or_else(|| format!("[{x},{y},{z}] is not a hole of the board"))
}

fn outcome_json(outcome: &Outcome, seats: usize) -> Value {
    let reason = serde_json::to_value(outcome.ending()).unwrap_or(Value::Null);
    let Some(places) = outcome.places() else {
        return json!({"kind": "abandoned", "reason": reason, "places": vec![Value::Null; seats]});
    };
    let kind = if outcome.is_draw() {
        "draw"
    } else if places.len() == 2 {
        "win"
    } else {
        "places"
    };
    json!({"kind": kind, "reason": reason, "places": places})
}

impl CcGame {
    /// A new game; `first_seat` moves first.
    pub fn new(rules: &Value, first_seat: usize) -> Result<Self, String> {
        let rules = parse_rules(Some(rules))?;
        let first = u8::try_from(first_seat).map_err(|_| "no such seat")?;
        Ok(Self {
            game: Game::new(rules, Seat(first)).map_err(|e| e.to_string())?,
        })
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn to_move(&self) -> Option<usize> {
        (!self.game.is_over()).then(|| self.game.to_move().index())
    }

    pub fn board(&self) -> Value {
        let mut pieces = Vec::new();
        let mut inert = Vec::new();
        for cell in Cell::all() {
            let Some(piece) = self.game.piece_at(cell) else {
                continue;
            };
            match (piece.seat, piece.colour) {
                (Some(seat), colour) => pieces.push(json!({
                    "seat": seat.index(),
                    "at": cube(cell),
                    "king": piece.king,
                    "camp": colour.map(|c| c.index()),
                })),
                (None, _) => inert.push(cube(cell)),
            }
        }
        json!({"pieces": pieces, "inert": inert})
    }

    fn move_json(&self, mv: Move) -> Value {
        let path: Vec<Value> = self
            .game
            .path(mv)
            .unwrap_or_else(|| vec![mv.from, mv.to])
            .into_iter()
            .map(cube)
            .collect();
        json!({"from": cube(mv.from), "to": cube(mv.to), "path": path})
    }

    pub fn legal_moves(&self) -> Vec<Value> {
        if self.game.is_over() {
            return Vec::new();
        }
        self.game
            .legal_moves_vec()
            .into_iter()
            .map(|mv| self.move_json(mv))
            .collect()
    }

    pub fn play(&mut self, input: &Value) -> Result<Played, String> {
        let mv = Move::new(cell_from(input.get("from"))?, cell_from(input.get("to"))?);
        let record = self.move_json(mv);
        let events = self.game.play(mv).map_err(|e| e.to_string())?;
        Ok(Played {
            mv: record,
            passes: events.passes.iter().map(|s| s.index()).collect(),
            finished: events.finished.iter().map(|f| f.seat.index()).collect(),
        })
    }

    pub fn resign(&mut self, seat: usize) -> Result<(), String> {
        let seat = u8::try_from(seat).map_err(|_| "no such seat")?;
        self.game
            .resign(Seat(seat))
            .map(drop)
            .map_err(|e| e.to_string())
    }

    pub fn abandon(&mut self) {
        // An error means the game is already over: nothing to abandon.
        let _ = self.game.abandon();
    }

    pub fn outcome(&self) -> Option<Value> {
        self.game
            .outcome()
            .map(|o| outcome_json(&o, self.game.rules().seat_count()))
    }

    pub fn cpu_move(&self, level: Level, limits: &dames_ai::Limits) -> Option<Value> {
        let mv = dames_ai::cc::choose(&self.game, level, limits)?;
        Some(json!({"from": cube(mv.from), "to": cube(mv.to)}))
    }
}
