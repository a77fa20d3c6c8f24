//! What a change sends to the room's connections, serialised **once** for all of them
//! ([`Published`]; the messages themselves are `dames_room::message`).

use axum::extract::ws::Utf8Bytes;

use dames_room::event::Event;
use dames_room::message::{Numbered, ServerMessage};
use dames_room::Room;

/// The message as a WebSocket text frame.
pub fn frame(msg: &ServerMessage) -> Utf8Bytes {
    Utf8Bytes::from(msg.to_text())
}

/// What a change sends, serialised once for all the room's connections.
#[derive(Debug)]
pub struct Published {
    /// The `delta`.
    pub delta: Utf8Bytes,
    /// The seat to move and its `turn`, when that seat is a person with an open connection.
    pub turn: Option<(usize, Utf8Bytes)>,
}

impl Published {
    /// The messages of the change that numbered `events` and left `room`.
    pub fn new(events: &[(i64, Event)], room: &Room) -> Self {
        let settings = events
            .iter()
            .any(|(_, e)| *e == Event::Settings)
            .then(|| room.settings.clone());
        let delta = ServerMessage::Delta {
            version: room.version,
            events: events
                .iter()
                .map(|(version, event)| Numbered {
                    version: *version,
                    event: event.clone(),
                })
                .collect(),
            room: room.shared_view(settings, crate::live::now_ms()),
        };
        let turn = ServerMessage::turn(room)
            .filter(|(seat, _)| room.seats.get(*seat).is_some_and(|s| s.connections > 0))
            .map(|(seat, msg)| (seat, frame(&msg)));
        Self {
            delta: frame(&delta),
            turn,
        }
    }
}
