//! The `RoomView` of docs/protocol.md: a room as one caller sees it; and the part of it that
//! is the same for everyone, which a `delta` carries (crate::wire).

use crate::protocol::{GameView, RoomView, SeatKind, SeatView};
use crate::room::{Occupant, Room, Settings};
use crate::wire::{SharedPlay, SharedRoom};

impl Room {
    /// The `RoomView` for the holder of seat `you` (`None`: a spectator).
    pub fn view(&self, you: Option<usize>) -> RoomView {
        RoomView {
            code: self.code.clone(),
            game: self.kind,
            version: self.version,
            status: self.status,
            you,
            host: you == Some(0),
            settings: self.settings.clone(),
            seats: self.seat_views(),
            game_no: self.game_no,
            play: self.play_view(you),
            solitaire: self.is_solitaire(),
        }
    }

    /// What a `delta` carries: the room as everyone sees it, but for its move list and legal
    /// moves; `settings` when they changed.
    pub fn shared_view(&self, settings: Option<Settings>) -> SharedRoom {
        SharedRoom {
            status: self.status,
            game_no: self.game_no,
            seats: self.seat_views(),
            settings,
            play: self.play.as_ref().map(|play| SharedPlay {
                to_move: play.state.to_move(),
                board: play.state.board(),
                draw_offer: play.draw_offer,
                draw_declined: play.draw_declined,
                outcome: play.state.outcome(),
                turn_since: self.last_move_at,
            }),
        }
    }

    /// Every seat as everyone sees it.
    pub fn seat_views(&self) -> Vec<SeatView> {
        self.seats
            .iter()
            .enumerate()
            .map(|(n, seat)| {
                let (kind, name, level) = match &seat.occupant {
                    Occupant::Empty => (SeatKind::Empty, None, None),
                    Occupant::Human { name, .. } => (SeatKind::Human, Some(name.clone()), None),
                    Occupant::Cpu(level) => (SeatKind::Cpu, Some("CPU".to_owned()), Some(*level)),
                };
                let cpu = kind == SeatKind::Cpu;
                let info = self.settings.rules.seat_info(n, self.white_seat());
                SeatView {
                    seat: n,
                    kind,
                    name,
                    level,
                    online: cpu || seat.online(),
                    ready: seat.ready || cpu,
                    camps: info.camps,
                    color: info.color,
                    stand_in: seat.stand_in,
                }
            })
            .collect()
    }

    fn play_view(&self, you: Option<usize>) -> Option<GameView> {
        let play = self.play.as_ref()?;
        let to_move = play.state.to_move();
        let legal_moves = if you.is_some() && you == to_move {
            play.state.legal_moves()
        } else {
            Vec::new()
        };
        Some(GameView {
            to_move,
            board: play.state.board(),
            moves: play.records.clone(),
            legal_moves,
            draw_offer: play.draw_offer,
            draw_declined: play.draw_declined,
            outcome: play.state.outcome(),
            // Since when the seat to move has been waiting (Unix ms): the last move or the start.
            turn_since: self.last_move_at,
        })
    }
}
