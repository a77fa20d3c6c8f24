//! The `RoomView` of docs/protocol.md: a room as one caller sees it.

use serde_json::{json, Value};

use crate::game;
use crate::room::{Occupant, Room};

impl Room {
    /// The `RoomView` for the holder of seat `you` (`None`: a spectator).
    pub fn view(&self, you: Option<usize>) -> Value {
        json!({
            "code": self.code,
            "game": self.kind.as_str(),
            "version": self.version,
            "status": self.status.as_str(),
            "you": you,
            "host": you == Some(0),
            "settings": self.settings.to_json(),
            "seats": self.seat_views(),
            "game_no": self.game_no,
            "play": self.play_view(you),
        })
    }

    fn seat_views(&self) -> Vec<Value> {
        self.seats
            .iter()
            .enumerate()
            .map(|(n, seat)| {
                let (kind, name, level) = match &seat.occupant {
                    Occupant::Empty => ("empty", Value::Null, Value::Null),
                    Occupant::Human { name, .. } => ("human", name.as_str().into(), Value::Null),
                    Occupant::Cpu(level) => ("cpu", "CPU".into(), level.name().into()),
                };
                let cpu = matches!(seat.occupant, Occupant::Cpu(_));
                let mut view = json!({
                    "seat": n,
                    "kind": kind,
                    "name": name,
                    "level": level,
                    "online": cpu || seat.connections > 0,
                    "ready": seat.ready || cpu,
                });
                let (key, info) =
                    game::seat_info(self.kind, &self.settings.rules, n, self.first_seat);
                view[key] = info;
                view
            })
            .collect()
    }

    fn play_view(&self, you: Option<usize>) -> Value {
        let Some(play) = &self.play else {
            return Value::Null;
        };
        let to_move = play.state.to_move();
        let legal_moves = if you.is_some() && you == to_move {
            play.state.legal_moves()
        } else {
            Vec::new()
        };
        json!({
            "to_move": to_move,
            "board": play.state.board(),
            "moves": play.records,
            "legal_moves": legal_moves,
            "draw_offer": play.draw_offer,
            "outcome": play.state.outcome(),
            // Since when the seat to move has been waiting (Unix ms): the last move or the start.
            "turn_since": self.last_move_at,
        })
    }
}
