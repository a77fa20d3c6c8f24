//! The WebSocket side of docs/protocol.md, as far as a scripted player needs it — and only that
//! far, so that the protocol can grow (deltas instead of full states, typed messages) without
//! breaking the load generator: unknown message types and fields are ignored.
//!
//! What is read: `ack` and `error` (with the `id` of the action), `event` and the events of a
//! `delta` (their `version` and,
//! for `move`/`started`/`finished`, the seat or game number), `state` (version, status, your
//! seat, its camps, the seat to move, the number of moves and the legal moves), and any message
//! carrying a top-level `legal_moves` list (the seat-to-move message of the delta protocol).
//! This module is the one place to change when the server's messages change.

use std::fmt;
use std::time::Duration;

use futures_util::StreamExt;
use serde::de::{IgnoredAny, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
pub use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::error::{Error, Result};

/// A client WebSocket to a room.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Opens `/ws/rooms/{code}?since={since}` on the server at `base` (`http://127.0.0.1:port`),
/// as the seat of `token` (a spectator without).
///
/// # Errors
/// The connection or the upgrade failed (e.g. `404` for an unknown room).
pub async fn connect(base: &str, code: &str, token: Option<&str>, since: i64) -> Result<Ws> {
    let host = base
        .strip_prefix("http://")
        .ok_or_else(|| Error::Usage(format!("not an http:// URL: {base}")))?;
    let mut request = format!("ws://{host}/ws/rooms/{code}?since={since}").into_client_request()?;
    if let Some(token) = token {
        let value = format!("Bearer {token}")
            .parse()
            .map_err(|_| Error::Usage("a seat token is not a header value".into()))?;
        request.headers_mut().insert("authorization", value);
    }
    // Small buffers: the messages are small and a run may hold 15,000 of these sockets. No
    // Nagle on our side, so that latencies are the server's.
    let config = WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0);
    let (ws, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true).await?;
    Ok(ws)
}

/// [`connect`] within `limit`; a failure is a short reason (a count key in reports).
pub async fn connect_within(
    base: &str,
    code: &str,
    token: Option<&str>,
    since: i64,
    limit: Duration,
) -> std::result::Result<Ws, String> {
    match timeout(limit, connect(base, code, token, since)).await {
        Ok(Ok(ws)) => Ok(ws),
        Ok(Err(Error::Ws(e))) => Err(format!("connect: {}", short_error(&e))),
        Ok(Err(e)) => Err(format!("connect: {e}")),
        Err(_) => Err("connect: timed out".into()),
    }
}

/// The next `state` of `ws` within `limit` (other messages are skipped).
pub async fn state_within(
    ws: &mut Ws,
    limit: Duration,
) -> std::result::Result<Box<RoomState>, String> {
    let state = timeout(limit, async {
        loop {
            match next_message(ws).await {
                Ok(Incoming::State(state)) => return Ok(state),
                Ok(_) => continue,
                Err(reason) => return Err(format!("closed before the state: {reason}")),
            }
        }
    });
    state
        .await
        .unwrap_or_else(|_| Err("no state in time".into()))
}

/// The close code of a server that restarts (« service restart »): its sockets go elsewhere.
const RESTART: u16 = 1012;

/// Why a socket ended when the server closed it as it restarts (a drain, a deploy).
pub const RESTARTING: &str = "closed: restarting";

/// The next text message of `ws` parsed, skipping pings and binary frames; `None` when the
/// socket closed or failed (with the reason).
pub async fn next_message(ws: &mut Ws) -> std::result::Result<Incoming, String> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(text))) => return Ok(parse(&text)),
            Some(Ok(Message::Close(Some(frame)))) if u16::from(frame.code) == RESTART => {
                return Err(RESTARTING.into())
            }
            Some(Ok(Message::Close(_))) | None => return Err("closed".into()),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(short_error(&e)),
        }
    }
}

/// A short, stable name for a socket failure (used as a count key in reports).
pub fn short_error(e: &tokio_tungstenite::tungstenite::Error) -> String {
    use tokio_tungstenite::tungstenite::Error as E;
    match e {
        E::ConnectionClosed | E::AlreadyClosed => "closed".into(),
        E::Io(io) => format!("io: {:?}", io.kind()),
        E::Protocol(p) => format!("protocol: {p}"),
        E::Http(r) => format!("http {}", r.status()),
        other => other.to_string(),
    }
}

/// The text of a `move` action.
pub fn move_message(id: &str, mv: &LegalMove) -> Message {
    Message::text(json!({"type": "move", "id": id, "move": mv.input()}).to_string())
}

/// The text of a `rematch` action (ready).
pub fn rematch_message(id: &str) -> Message {
    Message::text(json!({"type": "rematch", "id": id, "ready": true}).to_string())
}

/// The text of a `ping` action (answered by `pong`).
pub fn ping_message() -> Message {
    Message::text(r#"{"type":"ping"}"#)
}

/// A server message, reduced to what the scripted players use.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    /// `{"type":"ack","id","applied"}`.
    Ack {
        /// The action's id.
        id: String,
        /// `false` when that id had already been applied.
        applied: bool,
    },
    /// `{"type":"error","id","code"}`.
    Error {
        /// The id of the refused action, if it had one.
        id: Option<String>,
        /// The error code (`not_your_turn`, `illegal_move`…).
        code: String,
    },
    /// `{"type":"event","version","event"}`.
    Event {
        /// The room version of this event.
        version: i64,
        /// What happened.
        event: Event,
    },
    /// `{"type":"delta","version","events":[{"version","event"}…],"room"}`: a change, as its
    /// events (the shared part of the room is not read).
    Delta {
        /// The events of the change with their versions, in order.
        events: Vec<(i64, Event)>,
    },
    /// `{"type":"state","version","room"}`: a full state.
    State(Box<RoomState>),
    /// A message with a top-level `legal_moves` list: the seat to move and its moves.
    Turn {
        /// The room version the moves are for, if given.
        version: Option<i64>,
        /// The move number they are for (0 = first move), if given.
        ply: Option<usize>,
        /// The legal moves.
        legal: Vec<LegalMove>,
    },
    /// `{"type":"pong"}`.
    Pong,
    /// Anything else (including what this module does not know yet).
    Other,
}

/// A room event: its kind and the fields the players use.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Event {
    /// `move`, `started`, `finished`, `joined`…
    #[serde(default)]
    pub kind: String,
    /// The seat concerned (`move`: the mover).
    #[serde(default)]
    pub seat: Option<usize>,
    /// `started`: the game number.
    #[serde(default)]
    pub game_no: Option<u64>,
}

/// The parts of a `state` (RoomView) that the players use.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomState {
    /// Version of the state.
    pub version: i64,
    /// `lobby`, `playing` or `finished`.
    pub status: String,
    /// Your seat, `None` for a spectator.
    pub you: Option<usize>,
    /// 0 before the first game, then 1, 2…
    pub game_no: u64,
    /// The start camps of your seat (Chinese checkers).
    pub your_camps: Vec<u8>,
    /// The seat to move.
    pub to_move: Option<usize>,
    /// Moves played in the current game.
    pub plies: usize,
    /// Your legal moves (empty unless it is your turn).
    pub legal: Vec<LegalMove>,
}

/// A legal move as the server lists it; sent back as a `MoveInput`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct LegalMove {
    /// Chinese checkers: `[x,y,z]`; draughts: a square number.
    #[serde(default)]
    pub from: Value,
    /// Same as `from`.
    #[serde(default)]
    pub to: Value,
    /// Draughts: the full notation (`32x23`).
    #[serde(default)]
    pub notation: Option<String>,
}

impl LegalMove {
    /// The `MoveInput` that plays this move: the notation in draughts, from and to in Chinese
    /// checkers.
    pub fn input(&self) -> Value {
        match &self.notation {
            Some(n) => json!({"notation": n}),
            None => json!({"from": self.from, "to": self.to}),
        }
    }

    /// Whether `other` (read back from the server) is this move.
    pub fn same_as(&self, other: &LegalMove) -> bool {
        match (&self.notation, &other.notation) {
            (Some(a), Some(b)) => a == b,
            _ => self.from == other.from && self.to == other.to,
        }
    }
}

impl fmt::Display for LegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.notation {
            Some(n) => f.write_str(n),
            None => write!(f, "{}→{}", self.from, self.to),
        }
    }
}

/// Parses one server message; never fails (unreadable text is [`Incoming::Other`]).
pub fn parse(text: &str) -> Incoming {
    let Ok(raw) = serde_json::from_str::<Raw>(text) else {
        return Incoming::Other;
    };
    match raw.kind.as_str() {
        "ack" => match (raw.id, raw.applied) {
            (Some(id), Some(applied)) => Incoming::Ack { id, applied },
            _ => Incoming::Other,
        },
        "error" => Incoming::Error {
            id: raw.id,
            code: raw.code.unwrap_or_default(),
        },
        "event" => match (raw.version, raw.event) {
            (Some(version), Some(event)) => Incoming::Event { version, event },
            _ => Incoming::Other,
        },
        "delta" => match raw.events {
            Some(events) => Incoming::Delta {
                events: events.into_iter().map(|e| (e.version, e.event)).collect(),
            },
            None => Incoming::Other,
        },
        "state" => match raw.room {
            Some(room) => Incoming::State(Box::new(room.into_state(raw.version))),
            None => Incoming::Other,
        },
        "pong" => Incoming::Pong,
        _ => match raw.legal_moves {
            Some(legal) => Incoming::Turn {
                version: raw.version,
                ply: raw.ply,
                legal,
            },
            None => Incoming::Other,
        },
    }
}

#[derive(Deserialize)]
struct Raw {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    applied: Option<bool>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    version: Option<i64>,
    #[serde(default)]
    event: Option<Event>,
    #[serde(default)]
    room: Option<RawRoom>,
    #[serde(default)]
    legal_moves: Option<Vec<LegalMove>>,
    #[serde(default)]
    ply: Option<usize>,
    #[serde(default)]
    events: Option<Vec<Numbered>>,
}

#[derive(Deserialize)]
struct Numbered {
    version: i64,
    event: Event,
}

#[derive(Deserialize)]
struct RawRoom {
    #[serde(default)]
    version: i64,
    #[serde(default)]
    status: String,
    #[serde(default)]
    you: Option<usize>,
    #[serde(default)]
    game_no: u64,
    #[serde(default)]
    seats: Vec<RawSeat>,
    #[serde(default)]
    play: Option<RawPlay>,
}

#[derive(Deserialize)]
struct RawSeat {
    #[serde(default)]
    camps: Vec<u8>,
}

#[derive(Deserialize)]
struct RawPlay {
    #[serde(default)]
    to_move: Option<usize>,
    #[serde(default)]
    moves: Count,
    #[serde(default)]
    legal_moves: Vec<LegalMove>,
}

impl RawRoom {
    fn into_state(self, version: Option<i64>) -> RoomState {
        let your_camps = self
            .you
            .and_then(|s| self.seats.into_iter().nth(s))
            .map(|s| s.camps)
            .unwrap_or_default();
        let play = self.play;
        RoomState {
            version: version.unwrap_or(self.version),
            status: self.status,
            you: self.you,
            game_no: self.game_no,
            your_camps,
            to_move: play.as_ref().and_then(|p| p.to_move),
            plies: play.as_ref().map_or(0, |p| p.moves.0),
            legal: play.map(|p| p.legal_moves).unwrap_or_default(),
        }
    }
}

/// The length of a JSON array, read without building its elements (a state's move list grows
/// with the game; the players only need its length).
#[derive(Default)]
struct Count(usize);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        struct Counter;
        impl<'de> Visitor<'de> for Counter {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Count, A::Error> {
                let mut n = 0;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(Count(n))
            }
        }
        d.deserialize_seq(Counter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acks_errors_and_pongs_are_read() {
        assert_eq!(
            parse(r#"{"type":"ack","id":"m0-1","applied":false}"#),
            Incoming::Ack {
                id: "m0-1".into(),
                applied: false
            }
        );
        assert_eq!(
            parse(r#"{"type":"error","id":null,"code":"bad_json","message":"…"}"#),
            Incoming::Error {
                id: None,
                code: "bad_json".into()
            }
        );
        assert_eq!(parse(r#"{"type":"pong"}"#), Incoming::Pong);
    }

    #[test]
    fn a_move_event_gives_its_version_and_mover() {
        let text = r#"{"type":"event","version":9,"event":{"kind":"move","seat":1,
            "move":{"from":32,"to":23,"path":[32,23],"captures":[28],"notation":"32x23"},
            "passes":[],"finished":[]}}"#;
        let Incoming::Event { version, event } = parse(text) else {
            panic!("not an event");
        };
        assert_eq!(
            (version, event.kind.as_str(), event.seat),
            (9, "move", Some(1))
        );
    }

    #[test]
    fn a_state_gives_the_turn_the_move_count_and_your_camps() {
        let text = r#"{"type":"state","version":17,"room":{"code":"K7M2QX","game":"cc",
            "version":17,"status":"playing","you":1,"host":false,"settings":{"rules":{}},
            "seats":[{"seat":0,"camps":[0]},{"seat":1,"camps":[3]}],"game_no":2,
            "play":{"to_move":1,"board":{"pieces":[]},"moves":[{"seat":0},{"seat":1},{"seat":0}],
            "legal_moves":[{"from":[1,-1,0],"to":[2,-2,0],"path":[[1,-1,0],[2,-2,0]]}],
            "draw_offer":null,"outcome":null,"turn_since":0}}}"#;
        let Incoming::State(state) = parse(text) else {
            panic!("not a state");
        };
        assert_eq!(
            (
                state.version,
                state.status.as_str(),
                state.you,
                state.game_no,
                state.to_move,
                state.plies
            ),
            (17, "playing", Some(1), 2, Some(1), 3)
        );
        assert_eq!(state.your_camps, vec![3]);
        assert_eq!(
            state.legal[0].input(),
            json!({"from": [1, -1, 0], "to": [2, -2, 0]})
        );
    }

    #[test]
    fn a_lobby_state_and_a_spectator_state_have_no_turn() {
        let Incoming::State(state) = parse(
            r#"{"type":"state","version":2,"room":{"status":"lobby","you":null,"seats":[],"play":null}}"#,
        ) else {
            panic!("not a state");
        };
        assert_eq!((state.you, state.to_move, state.plies), (None, None, 0));
        assert!(state.legal.is_empty());
    }

    #[test]
    fn unknown_types_and_fields_are_tolerated_and_a_top_level_legal_list_is_a_turn() {
        assert_eq!(
            parse(r#"{"type":"presence","seat":0,"online":true}"#),
            Incoming::Other
        );
        assert_eq!(parse("not json"), Incoming::Other);
        assert_eq!(parse(r#"{"no_type":1}"#), Incoming::Other);
        assert_eq!(
            parse(
                r#"{"type":"your_turn","version":5,"ply":4,"legal_moves":[{"notation":"32-28","from":32,"to":28}],"extra":true}"#
            ),
            Incoming::Turn {
                version: Some(5),
                ply: Some(4),
                legal: vec![LegalMove {
                    from: json!(32),
                    to: json!(28),
                    notation: Some("32-28".into())
                }]
            }
        );
    }

    #[test]
    fn a_delta_gives_its_events_in_order() {
        let text = r#"{"type":"delta","version":12,"events":[{"version":11,"event":{"kind":"move","seat":1,"move":{"from":32,"to":28},"passes":[],"finished":[]}},{"version":12,"event":{"kind":"finished","outcome":null}}],"room":{"status":"finished","game_no":1,"seats":[],"play":null}}"#;
        let Incoming::Delta { events } = parse(text) else {
            panic!("not a delta");
        };
        let kinds: Vec<(i64, &str, Option<usize>)> = events
            .iter()
            .map(|(v, e)| (*v, e.kind.as_str(), e.seat))
            .collect();
        assert_eq!(kinds, [(11, "move", Some(1)), (12, "finished", None)]);
    }

    #[test]
    fn moves_are_compared_by_notation_or_by_from_and_to() {
        let d = |n: &str| LegalMove {
            notation: Some(n.into()),
            ..LegalMove::default()
        };
        assert!(d("32x23").same_as(&d("32x23")));
        assert!(!d("32x23").same_as(&d("32-28")));
        assert_eq!(d("28x19x10").input(), json!({"notation": "28x19x10"}));
        let c = |to: i64| LegalMove {
            from: json!([0, 0, 0]),
            to: json!([to, -to, 0]),
            notation: None,
        };
        assert!(c(1).same_as(&c(1)));
        assert!(!c(1).same_as(&c(2)));
    }
}
