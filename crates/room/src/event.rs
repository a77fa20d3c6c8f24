//! The events of a room, typed, in one place (docs/protocol.md, `Event`): what a change did,
//! numbered by the room's version, stored in the `events` table, broadcast in `delta`s and sent
//! again (`event` messages, `GET /api/rooms/{code}/events`) to whoever missed them.
//!
//! An event is written as JSON with its keys in alphabetical order ([`Event::to_json`], and the
//! same order on the wire): the bytes the server stored before the events were typed (built as
//! `serde_json::Value`s, whose maps are sorted), so that every row reads back and a new row is
//! the same text as an old one. A test reads each stored shape.

use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use crate::protocol::{MoveRecord, Outcome};
use crate::rows::EventRow;

/// What a change of a room did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// A move was played (the record of the game's move list).
    Move(MoveRecord),
    /// A person (or a CPU, named `"CPU"`) took a seat.
    Joined {
        /// The name shown.
        name: String,
        /// The seat.
        seat: usize,
    },
    /// A seat was freed (left, kicked, removed CPU, or beyond a smaller seat count).
    Left {
        /// The seat.
        seat: usize,
    },
    /// The host changed the settings (the new ones are in the room).
    Settings,
    /// A game started.
    Started {
        /// Its number in the room.
        game_no: i64,
    },
    /// A seat resigned.
    Resigned {
        /// The seat.
        seat: usize,
    },
    /// Draughts: a seat offers a draw.
    DrawOffer {
        /// The seat offering.
        seat: usize,
    },
    /// Draughts: the offer was accepted (a `finished` follows).
    DrawAccepted {
        /// The seat accepting.
        seat: usize,
    },
    /// Draughts: the offer was declined.
    DrawDeclined {
        /// The seat declining.
        seat: usize,
    },
    /// The game is over.
    Finished {
        /// Its result.
        outcome: Outcome,
    },
    /// A seat is (no longer) ready for a rematch.
    Rematch {
        /// Ready or not.
        ready: bool,
        /// The seat.
        seat: usize,
    },
    /// A CPU plays a person's seat, away on its turn, until they come back (crate::room,
    /// "Away players"; also when a rematch starts without them).
    StandIn {
        /// The seat that handed it over.
        by: usize,
        /// The CPU's level (`"normal"` …).
        level: String,
        /// The seat.
        seat: usize,
    },
    /// A finished game: the host sent the room back to the lobby without the persons who left,
    /// their seats freed (each a `left` before it), for the next game to start there.
    Reopened {
        /// The seat that did it (the host's).
        by: usize,
    },
    /// The person of a seat a CPU played is back and plays it again.
    Returned {
        /// The seat.
        seat: usize,
    },
    /// A 2-player live game: `seat` claimed the win over `away`, gone on its turn (a
    /// `finished` follows, reason `abandonment`).
    Claimed {
        /// The seat away.
        away: usize,
        /// The seat claiming.
        seat: usize,
    },
    /// The seat moved to another browser (a one-time link): the old seat token stopped
    /// working.
    Moved {
        /// The seat.
        seat: usize,
    },
    /// A live game with a clock: the time of `seat` ran out (crate::clock). `then` says what
    /// became of it: `lost` (a `finished` follows, reason `time`), `last` (it took the last free
    /// place and left the game) or `cpu` (a CPU plays it to the end).
    Flag {
        /// The seat.
        seat: usize,
        /// What became of it.
        then: FlagThen,
    },
    /// Only in the history of rooms from before presence was kept in memory (it is no event
    /// any more: the `presence` message): read back and sent again as stored, never made.
    Presence {
        /// Online or not.
        online: bool,
        /// The seat.
        seat: usize,
    },
}

/// What became of a seat whose flag fell (`Event::Flag`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagThen {
    /// It lost the game.
    Lost,
    /// It took the last free place and left the game; the others play on.
    Last,
    /// A CPU plays it to the end.
    Cpu,
}

impl Event {
    /// The event's `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Move(_) => "move",
            Self::Joined { .. } => "joined",
            Self::Left { .. } => "left",
            Self::Settings => "settings",
            Self::Started { .. } => "started",
            Self::Resigned { .. } => "resigned",
            Self::DrawOffer { .. } => "draw_offer",
            Self::DrawAccepted { .. } => "draw_accepted",
            Self::DrawDeclined { .. } => "draw_declined",
            Self::Finished { .. } => "finished",
            Self::Rematch { .. } => "rematch",
            Self::StandIn { .. } => "stand_in",
            Self::Returned { .. } => "returned",
            Self::Reopened { .. } => "reopened",
            Self::Claimed { .. } => "claimed",
            Self::Moved { .. } => "moved",
            Self::Flag { .. } => "flag",
            Self::Presence { .. } => "presence",
        }
    }

    /// The seat the event is about, when it is about one.
    pub fn seat(&self) -> Option<usize> {
        match self {
            Self::Move(MoveRecord { seat, .. })
            | Self::Joined { seat, .. }
            | Self::Left { seat }
            | Self::Resigned { seat }
            | Self::DrawOffer { seat }
            | Self::DrawAccepted { seat }
            | Self::DrawDeclined { seat }
            | Self::Rematch { seat, .. }
            | Self::StandIn { seat, .. }
            | Self::Returned { seat }
            | Self::Claimed { seat, .. }
            | Self::Moved { seat }
            | Self::Flag { seat, .. }
            | Self::Presence { seat, .. } => Some(*seat),
            Self::Settings
            | Self::Started { .. }
            | Self::Finished { .. }
            | Self::Reopened { .. } => None,
        }
    }

    /// The event as a JSON value (keys in alphabetical order).
    pub fn to_value(&self) -> Value {
        // Every field is a string, a number, a boolean, or a list or map of those, with string
        // keys: this cannot fail.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The stored text of the event: its JSON with the keys in alphabetical order, as stored
    /// since the first version.
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }

    /// Reads a stored event.
    ///
    /// # Errors
    /// If the text is not one of the stored shapes.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Serialises `event` with its keys in alphabetical order (`#[serde(serialize_with)]` of the
    /// messages that carry events): the same bytes as [`Event::to_json`].
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize_sorted<S: Serializer>(event: &Self, s: S) -> Result<S::Ok, S::Error> {
        event.to_value().serialize(s)
    }
}

/// The stored events of room `code`, read back with their versions. A row that does not read
/// (which no version of the server wrote) is logged and left out: the `state` sent after the
/// missed events is complete anyway.
pub fn read_rows(code: &str, rows: &[EventRow]) -> Vec<(i64, Event)> {
    rows.iter()
        .filter_map(|row| match Event::from_json(&row.event) {
            Ok(event) => Some((row.version, event)),
            Err(err) => {
                tracing::error!(
                    "room {code}: stored event {} does not read: {err}",
                    row.version
                );
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{CcMove, DraughtsMove, LegalMove, OutcomeKind, Reason};
    use draughts::Square;

    /// Every shape the `events` table holds, as the server wrote it before the events were
    /// typed (`json!` values, keys sorted), with the event it is.
    fn stored() -> Vec<(&'static str, Event)> {
        let draughts = LegalMove::Draughts(DraughtsMove {
            from: Square(32),
            to: Square(28),
            path: vec![Square(32), Square(28)],
            captures: vec![],
            notation: "32-28".into(),
        });
        let cc = LegalMove::Cc(CcMove {
            from: [0, -4, 4],
            to: [0, -2, 2],
            path: vec![[0, -4, 4], [0, -3, 3], [0, -2, 2]],
        });
        vec![
            (
                r#"{"finished":[],"kind":"move","move":{"captures":[],"from":32,"notation":"32-28","path":[32,28],"to":28},"passes":[],"seat":0}"#,
                Event::Move(MoveRecord {
                    seat: 0,
                    mv: draughts,
                    passes: vec![],
                    finished: vec![],
                }),
            ),
            (
                r#"{"finished":[1],"kind":"move","move":{"from":[0,-4,4],"path":[[0,-4,4],[0,-3,3],[0,-2,2]],"to":[0,-2,2]},"passes":[2],"seat":1}"#,
                Event::Move(MoveRecord {
                    seat: 1,
                    mv: cc,
                    passes: vec![2],
                    finished: vec![1],
                }),
            ),
            (
                r#"{"kind":"joined","name":"Ana","seat":0}"#,
                Event::Joined {
                    name: "Ana".into(),
                    seat: 0,
                },
            ),
            (
                r#"{"kind":"joined","name":"CPU","seat":2}"#,
                Event::Joined {
                    name: "CPU".into(),
                    seat: 2,
                },
            ),
            (r#"{"kind":"left","seat":3}"#, Event::Left { seat: 3 }),
            (r#"{"kind":"settings"}"#, Event::Settings),
            (
                r#"{"game_no":2,"kind":"started"}"#,
                Event::Started { game_no: 2 },
            ),
            (
                r#"{"kind":"resigned","seat":1}"#,
                Event::Resigned { seat: 1 },
            ),
            (
                r#"{"kind":"draw_offer","seat":0}"#,
                Event::DrawOffer { seat: 0 },
            ),
            (
                r#"{"kind":"draw_accepted","seat":1}"#,
                Event::DrawAccepted { seat: 1 },
            ),
            (
                r#"{"kind":"draw_declined","seat":1}"#,
                Event::DrawDeclined { seat: 1 },
            ),
            (
                r#"{"kind":"finished","outcome":{"kind":"places","places":[1,null,2],"reason":"stopped"}}"#,
                Event::Finished {
                    outcome: Outcome {
                        kind: OutcomeKind::Places,
                        reason: Reason::Stopped,
                        places: vec![Some(1), None, Some(2)],
                    },
                },
            ),
            (
                r#"{"kind":"finished","outcome":{"kind":"win","places":[2,1],"reason":"resignation"}}"#,
                Event::Finished {
                    outcome: Outcome {
                        kind: OutcomeKind::Win,
                        reason: Reason::Resignation,
                        places: vec![Some(2), Some(1)],
                    },
                },
            ),
            (
                r#"{"kind":"rematch","ready":true,"seat":0}"#,
                Event::Rematch {
                    ready: true,
                    seat: 0,
                },
            ),
            (
                r#"{"by":1,"kind":"stand_in","level":"facile","seat":0}"#,
                Event::StandIn {
                    by: 1,
                    level: "facile".into(),
                    seat: 0,
                },
            ),
            (
                r#"{"kind":"returned","seat":0}"#,
                Event::Returned { seat: 0 },
            ),
            (r#"{"by":0,"kind":"reopened"}"#, Event::Reopened { by: 0 }),
            (
                r#"{"away":0,"kind":"claimed","seat":1}"#,
                Event::Claimed { away: 0, seat: 1 },
            ),
            (r#"{"kind":"moved","seat":0}"#, Event::Moved { seat: 0 }),
            (
                r#"{"kind":"flag","seat":1,"then":"lost"}"#,
                Event::Flag {
                    seat: 1,
                    then: FlagThen::Lost,
                },
            ),
            (
                r#"{"kind":"presence","online":false,"seat":1}"#,
                Event::Presence {
                    online: false,
                    seat: 1,
                },
            ),
        ]
    }

    #[test]
    fn every_stored_shape_reads_back_and_is_written_byte_for_byte_the_same() {
        let shapes = stored();
        for (text, event) in &shapes {
            assert_eq!(&Event::from_json(text).unwrap(), event, "{text}");
            assert_eq!(event.to_json(), *text);
            assert_eq!(event.kind(), event.to_value()["kind"], "{text}");
        }
        let kinds: std::collections::BTreeSet<String> =
            shapes.iter().map(|(_, e)| e.kind().to_owned()).collect();
        assert_eq!(kinds, kinds_of_the_type(), "a stored shape for every kind");
    }

    #[test]
    fn the_wire_carries_the_stored_bytes() {
        #[derive(Serialize)]
        struct Carrier<'a> {
            #[serde(serialize_with = "Event::serialize_sorted")]
            event: &'a Event,
        }
        for (text, event) in stored() {
            let carried = serde_json::to_string(&Carrier { event: &event }).unwrap();
            assert_eq!(carried, format!(r#"{{"event":{text}}}"#));
        }
    }

    #[test]
    fn unknown_kinds_and_fields_are_refused() {
        for bad in [
            r#"{"kind":"teleported","seat":0}"#,
            r#"{"kind":"left","seat":0,"why":"bored"}"#,
            r#"{"kind":"left"}"#,
            r#"{"seat":0}"#,
            r#"{"kind":"started","game_no":"one"}"#,
        ] {
            assert!(Event::from_json(bad).is_err(), "{bad}");
        }
    }

    /// The names inside backquotes of `text`.
    fn quoted(text: &str) -> Vec<&str> {
        text.split('`').skip(1).step_by(2).collect()
    }

    /// Every `kind` an `Event` can have, as serde itself lists them.
    fn kinds_of_the_type() -> std::collections::BTreeSet<String> {
        let err = Event::from_json(r#"{"kind":"?"}"#).unwrap_err().to_string();
        let listed = err
            .split("expected one of ")
            .nth(1)
            .unwrap_or_else(|| panic!("serde's message changed: {err}"));
        quoted(listed).into_iter().map(str::to_owned).collect()
    }

    #[test]
    fn every_event_kind_is_documented_with_its_fields_and_nothing_else() {
        let doc = include_str!("../../../docs/protocol.md");
        let section = doc
            .split("\n`Event`:")
            .nth(1)
            .and_then(|s| s.split("\n\n").next())
            .expect("docs/protocol.md lists the events after \"`Event`:\"");
        // Each documented event is a backquoted JSON object with a `kind`; its other keys are
        // the fields (`LegalMove`, `Outcome` … stand for values).
        let mut documented = std::collections::BTreeMap::new();
        for example in quoted(section).into_iter().filter(|q| q.starts_with('{')) {
            let keys: Vec<String> = example
                .split('"')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect();
            let kind = example
                .split(r#""kind":""#)
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap_or_else(|| panic!("an event without kind in the doc: {example}"));
            // Keys are the quoted names followed by a colon.
            let fields: std::collections::BTreeSet<String> = keys
                .iter()
                .filter(|k| example.contains(&format!("\"{k}\":")) && k.as_str() != "kind")
                .cloned()
                .collect();
            documented.insert(kind.to_owned(), fields);
        }
        let documented_kinds: std::collections::BTreeSet<String> =
            documented.keys().cloned().collect();
        assert_eq!(documented_kinds, kinds_of_the_type());
        for (_, event) in stored() {
            let Value::Object(map) = event.to_value() else {
                panic!("an event is an object")
            };
            let fields: std::collections::BTreeSet<String> =
                map.keys().filter(|k| *k != "kind").cloned().collect();
            assert_eq!(
                documented[event.kind()],
                fields,
                "the fields of `{}` in docs/protocol.md",
                event.kind()
            );
        }
    }
}
