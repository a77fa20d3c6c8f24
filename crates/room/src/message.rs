//! Everything the server sends on a room's WebSocket, typed, in one place (docs/protocol.md,
//! "WebSocket"): [`ServerMessage`]. A test reads the documentation and checks that every
//! message type listed there is one of these and that every one of these is listed.
//!
//! After a change, what every connection of the room receives is serialised **once** (by the
//! server's runtime): a `delta` (the change's events and the part of the room that is the same for
//! everyone, of a size that does not grow with the game) and, for the seat to move only, a `turn`
//! with its legal moves, computed once per position. A full `state` (with the whole move list)
//! goes only to a connection that opens, that asks (`sync`), or that fell behind.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::event::Event;
use crate::protocol::LegalMove;
use crate::room::{Room, Status};
use crate::view::{RoomView, SharedRoom};

/// A message of the server on a room's WebSocket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMessage {
    /// An event the client missed, sent when it connects with an older `since`.
    Event {
        /// Its version.
        version: i64,
        /// What happened.
        #[serde(serialize_with = "Event::serialize_sorted")]
        event: Event,
    },
    /// A full state: on connection, on `sync`, or after falling behind.
    State {
        /// The room's version.
        version: i64,
        /// The room as this connection sees it.
        room: Box<RoomView>,
    },
    /// A change: its events and the shared part of the room after it (the same bytes for every
    /// connection).
    Delta {
        /// The room's version after the change (the last event's).
        version: i64,
        /// The change's events, in order, with their versions (the first is the version before
        /// the change + 1: a client that sees a gap asks for a `sync`).
        events: Vec<Numbered>,
        /// The room after the change, but for what is private or grows with the game.
        room: SharedRoom,
    },
    /// To the connections of the seat to move only, right after the `delta` that made it its
    /// turn: its legal moves (a `state` carries them in `play.legal_moves`).
    Turn {
        /// The room's version these moves are for.
        version: i64,
        /// The number of moves played in the game (the move these are for is the next).
        ply: usize,
        /// The legal moves.
        legal_moves: Vec<LegalMove>,
    },
    /// A seat's person opened their first connection or closed their last one (memory only:
    /// no version).
    Presence {
        /// The seat.
        seat: usize,
        /// Whether it has an open connection now.
        online: bool,
    },
    /// A seated person said a preset phrase (crate::phrase; memory only: no version, never
    /// stored).
    Phrase {
        /// Who said it.
        seat: usize,
        /// Which phrase.
        phrase: crate::phrase::Phrase,
    },
    /// The answer to a client action with an `id`.
    Ack {
        /// The action's id.
        id: String,
        /// `false`: a move with this id had already been applied (nothing done).
        applied: bool,
    },
    /// A refused action or an unreadable message; the connection stays open.
    Error {
        /// The id of the action refused, if it had one.
        id: Option<String>,
        /// The error code (the HTTP API's).
        code: String,
        /// An English sentence.
        message: String,
        /// The request field concerned.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        field: Option<String>,
        /// The reason and its figures.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<Value>,
        /// `rate_limited` (and the other refusals to retry later): seconds to wait.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after: Option<u64>,
    },
    /// The answer to a `ping`.
    Pong,
}

/// An event with its version.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Numbered {
    /// Its version.
    pub version: i64,
    /// What happened.
    #[serde(serialize_with = "Event::serialize_sorted")]
    pub event: Event,
}

impl ServerMessage {
    /// The message as the text of a WebSocket frame.
    pub fn to_text(&self) -> String {
        // Every field serialises (strings, numbers, maps with string keys): this cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A typed error, answering the action `id`: `json` is the error's protocol object
    /// (`{"code","message","field"?,"detail"?,"retry_after"?}`, [`crate::Error::to_json`]).
    pub fn error(id: Option<&str>, json: &Value) -> Self {
        let text = |k: &str| json.get(k).and_then(Value::as_str).map(str::to_owned);
        Self::Error {
            id: id.map(str::to_owned),
            code: text("code").unwrap_or_default(),
            message: text("message").unwrap_or_default(),
            field: text("field"),
            detail: json.get("detail").cloned(),
            retry_after: json.get("retry_after").and_then(Value::as_u64),
        }
    }

    /// The full state of `room` for the holder of seat `you`, its clocks as of `now`.
    pub fn state(room: &Room, you: Option<usize>, now: i64) -> Self {
        Self::State {
            version: room.version,
            room: Box::new(room.view(you, now)),
        }
    }

    /// The seat to move's `turn` in `room`, if a game is on.
    pub fn turn(room: &Room) -> Option<(usize, Self)> {
        let play = room
            .play
            .as_ref()
            .filter(|_| room.status == Status::Playing)?;
        let seat = play.state.to_move()?;
        Some((
            seat,
            Self::Turn {
                version: room.version,
                ply: play.records.len(),
                legal_moves: play.state.legal_moves(),
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn messages_read_back_as_they_were_written() {
        let messages = [
            ServerMessage::Presence {
                seat: 2,
                online: true,
            },
            ServerMessage::Phrase {
                seat: 1,
                phrase: crate::phrase::Phrase::WellPlayed,
            },
            ServerMessage::Ack {
                id: "m-1".into(),
                applied: false,
            },
            ServerMessage::error(Some("m-2"), &Error::NotYourTurn.to_json()),
            ServerMessage::Pong,
        ];
        for msg in messages {
            let text = msg.to_text();
            let back: ServerMessage = serde_json::from_str(text.as_str()).unwrap();
            assert_eq!(back, msg, "{}", text.as_str());
        }
        assert_eq!(ServerMessage::Pong.to_text().as_str(), r#"{"type":"pong"}"#);
        assert_eq!(
            serde_json::from_str::<Value>(
                ServerMessage::error(None, &Error::NotYourTurn.to_json())
                    .to_text()
                    .as_str()
            )
            .unwrap(),
            serde_json::json!({"type": "error", "id": null, "code": "not_your_turn",
                "message": Error::NotYourTurn.to_string()})
        );
    }

    /// The names inside backquotes of `text`.
    fn quoted(text: &str) -> Vec<String> {
        text.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    }

    /// Every `type` a `ServerMessage` can have, as serde itself lists them.
    fn server_types() -> std::collections::BTreeSet<String> {
        let err = serde_json::from_str::<ServerMessage>(r#"{"type":"?"}"#).unwrap_err();
        let text = err.to_string();
        let listed = text
            .split("expected one of ")
            .nth(1)
            .unwrap_or_else(|| panic!("serde's message changed: {text}"));
        quoted(listed).into_iter().collect()
    }

    #[test]
    fn every_message_the_server_sends_is_documented_and_nothing_else() {
        let doc = include_str!("../../../docs/protocol.md");
        let section = doc
            .split("\n## WebSocket")
            .nth(1)
            .and_then(|s| s.split("Server → client messages").nth(1))
            .and_then(|s| s.split("\n`Event`:").next())
            .expect("docs/protocol.md has the WebSocket section and its server messages");
        let documented: std::collections::BTreeSet<String> = section
            .split(r#"{"type":""#)
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(documented, server_types());
        assert!(documented.contains("delta") && documented.contains("turn"));
    }
}
