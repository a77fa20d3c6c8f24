//! The `RoomView` of docs/protocol.md: a room as one caller sees it; the part of it that is the
//! same for everyone, which a `delta` carries ([`SharedRoom`]); and the answers of the HTTP API
//! that carry a room. Each type serialises to exactly the JSON the protocol documents, and reads
//! it back: unknown fields are refused, so a field added here and not in the documentation, or
//! the other way round, is caught by the test that reads every example of docs/protocol.md.

use serde::{Deserialize, Serialize};

use dames_ai::Level;
use draughts::Color;

use crate::clock::ClockView;
use crate::game::GameKind;
use crate::protocol::{Board, LegalMove, MoveRecord, Outcome};
use crate::room::{Occupant, Room, Settings, Status};

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
    /// A room with a « Pendule »: the clocks as of the server's `now` (crate::clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Box<ClockView>>,
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

/// What a `delta` carries of the room: the fields of `RoomView` that may change and are the
/// same for everyone — not `you`/`host` (per connection), not the move list (the client
/// appends the `move` events), not the legal moves (the `turn` message).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedRoom {
    /// Lobby, playing or finished.
    pub status: Status,
    /// The number of the current game.
    pub game_no: i64,
    /// Every seat.
    pub seats: Vec<SeatView>,
    /// The settings, only when the change has a `settings` event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Settings>,
    /// The current (or last) game, without its moves and legal moves.
    pub play: Option<SharedPlay>,
}

/// `GameView` without `moves` and `legal_moves`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedPlay {
    /// The seat to move.
    pub to_move: Option<usize>,
    /// The pieces.
    pub board: Board,
    /// Draughts: the seat offering a draw.
    pub draw_offer: Option<usize>,
    /// Draughts: the seat that declined the last offer.
    pub draw_declined: Option<usize>,
    /// The result once over.
    pub outcome: Option<Outcome>,
    /// Since when the seat to move waits (Unix ms).
    pub turn_since: Option<i64>,
    /// A room with a « Pendule »: the clocks as of the server's `now` (crate::clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Box<ClockView>>,
}

impl Room {
    /// The `RoomView` for the holder of seat `you` (`None`: a spectator), its clocks as of the
    /// server's `now` (Unix ms).
    pub fn view(&self, you: Option<usize>, now: i64) -> RoomView {
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
            play: self.play_view(you, now),
            solitaire: self.is_solitaire(),
        }
    }

    /// What a `delta` carries: the room as everyone sees it, but for its move list and legal
    /// moves; `settings` when they changed; the clocks as of `now`.
    pub fn shared_view(&self, settings: Option<Settings>, now: i64) -> SharedRoom {
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
                clock: self.clock_view(now).map(Box::new),
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

    fn play_view(&self, you: Option<usize>, now: i64) -> Option<GameView> {
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
            moves: play.records.iter().map(|r| MoveRecord::clone(r)).collect(),
            legal_moves,
            draw_offer: play.draw_offer,
            draw_declined: play.draw_declined,
            outcome: play.state.outcome(),
            // Since when the seat to move has been waiting (Unix ms): the last move or the start.
            turn_since: self.last_move_at,
            clock: self.clock_view(now).map(Box::new),
        })
    }
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
