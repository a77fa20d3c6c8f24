//! What a room refuses, as the protocol says it: [`Error`], with its protocol code, its HTTP
//! status and, where a client needs it to explain the error in the player's language, a
//! machine-readable [`Detail`]: the request field concerned and why (docs/protocol.md, "Errors").
//! The server's own errors (network limits, unknown routes, storage) wrap this one.

use serde_json::{json, Map, Value};

/// What exactly was refused, for clients to say it in the player's language: the field of the
/// request (`name`, `cpu.levels`, `rules.move_limit` …), a snake_case reason (`out_of_range`,
/// `not_allowed`, `conflict`, `too_long`, `started` …) and the figures the reason needs (`min`,
/// `max`, `allowed`, `with` …). The English `message` is for logs and scripts.
#[derive(Clone, Debug, PartialEq)]
pub struct Detail {
    /// The request field concerned, as a dotted path; `None` when no field is (a state error).
    pub field: Option<String>,
    /// Why, as a snake_case word (the lists are in docs/protocol.md).
    pub reason: &'static str,
    /// The figures of the reason.
    pub params: Map<String, Value>,
    /// The English sentence.
    pub message: String,
}

impl Detail {
    /// A detail about `field`.
    pub fn field(
        field: impl Into<String>,
        reason: &'static str,
        message: impl Into<String>,
    ) -> Self {
        Self {
            field: Some(field.into()),
            reason,
            params: Map::new(),
            message: message.into(),
        }
    }

    /// A detail about no field (the state of the room forbids the action).
    pub fn state(reason: &'static str, message: impl Into<String>) -> Self {
        Self {
            field: None,
            reason,
            params: Map::new(),
            message: message.into(),
        }
    }

    /// The same with one more figure.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.params.insert(key.to_owned(), value.into());
        self
    }

    /// The `detail` object of the protocol: the reason and its figures (`None` when the reason
    /// is the generic `other`).
    pub fn to_json(&self) -> Option<Value> {
        if self.reason == "other" && self.params.is_empty() {
            return None;
        }
        let mut obj = self.params.clone();
        obj.insert("reason".into(), self.reason.into());
        Some(Value::Object(obj))
    }
}

impl std::fmt::Display for Detail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A message alone: the generic reason `other`.
impl From<String> for Detail {
    fn from(message: String) -> Self {
        Self::state("other", message)
    }
}

impl From<&str> for Detail {
    fn from(message: &str) -> Self {
        Self::state("other", message)
    }
}

/// A change a room refuses, answered to a client as `{"error":{"code","message","field"?,
/// "detail"?}}` (HTTP) or as a WebSocket `{"type":"error"}` message with the same fields.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The body or message is not the JSON expected.
    #[error("malformed JSON: {0}")]
    BadJson(String),
    /// A player name is refused (crate::names); the detail says why (field `name`, reason
    /// `length`, `control`, `invisible`, `marks`, `unassigned`, `blank` or `reserved`).
    #[error("invalid name: {0}")]
    InvalidName(Detail),
    /// The settings (or the game, or a CPU level) break a rule; the detail says which field.
    #[error("invalid settings: {0}")]
    InvalidSettings(Detail),
    /// Every seat is taken.
    #[error("every seat of this room is taken")]
    RoomFull,
    /// The requested seat is taken.
    #[error("this seat is taken")]
    SeatTaken,
    /// The caller holds no seat of this room.
    #[error("you hold no seat in this room")]
    NotSeated,
    /// Only the host may do this.
    #[error("only the host may do this")]
    NotHost,
    /// The room is not in a state that allows this action; the detail's reason says why.
    #[error("{0}")]
    WrongState(Detail),
    /// The seat is not away on its turn (long enough) for the others to hand it to a CPU or
    /// claim the win (crate::room, "Away players"); the detail's reason says why (`present`,
    /// `not_their_turn`, `too_early` with `wait_ms`).
    #[error("{0}")]
    NotAway(Detail),
    /// A link to move a seat that no seat has, used or expired (crate::room, "Continue on
    /// another device").
    #[error("this link to move a seat is unknown, used or expired")]
    InvalidTransfer,
    /// It is another seat's turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The move is not legal; the message says why.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// Some seat is still empty.
    #[error("every seat must be taken by a person or a CPU")]
    NotEnoughPlayers,
    /// The room's settings turn hints off.
    #[error("hints are turned off in this room")]
    HintsOff,
    /// A room's invariant does not hold (a game expected in play is not there); the server
    /// logs it and answers `internal`.
    #[error("internal error")]
    Internal,
}

impl Error {
    /// The protocol's snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::BadJson(_) => "bad_json",
            Self::InvalidName(_) => "invalid_name",
            Self::InvalidSettings(_) => "invalid_settings",
            Self::RoomFull => "room_full",
            Self::SeatTaken => "seat_taken",
            Self::NotSeated => "not_seated",
            Self::NotHost => "not_host",
            Self::WrongState(_) => "wrong_state",
            Self::NotAway(_) => "not_away",
            Self::InvalidTransfer => "invalid_transfer",
            Self::NotYourTurn => "not_your_turn",
            Self::IllegalMove(_) => "illegal_move",
            Self::NotEnoughPlayers => "not_enough_players",
            Self::HintsOff => "hints_off",
            Self::Internal => "internal",
        }
    }

    /// The HTTP status of this error.
    pub fn http_status(&self) -> u16 {
        match self {
            Self::BadJson(_) | Self::InvalidName(_) | Self::InvalidSettings(_) => 400,
            Self::InvalidTransfer => 410,
            Self::RoomFull
            | Self::SeatTaken
            | Self::WrongState(_)
            | Self::NotAway(_)
            | Self::NotYourTurn
            | Self::NotEnoughPlayers => 409,
            Self::NotSeated | Self::NotHost | Self::HintsOff => 403,
            Self::IllegalMove(_) => 422,
            Self::Internal => 500,
        }
    }

    /// The detail of this error, if it has one.
    pub fn detail(&self) -> Option<&Detail> {
        match self {
            Self::InvalidName(d)
            | Self::InvalidSettings(d)
            | Self::WrongState(d)
            | Self::NotAway(d) => Some(d),
            _ => None,
        }
    }

    /// The `{"code","message"}` object, with `field` and `detail` when the error has them.
    pub fn to_json(&self) -> Value {
        error_json(self.code(), &self.to_string(), self.detail())
    }
}

/// The protocol's error object: `{"code","message"}`, with `field` and `detail` when a
/// [`Detail`] has them (the server's own errors are written with it too).
pub fn error_json(code: &str, message: &str, detail: Option<&Detail>) -> Value {
    let mut out = json!({ "code": code, "message": message });
    if let Some(d) = detail {
        if let Some(field) = &d.field {
            out["field"] = field.as_str().into();
        }
        if let Some(detail) = d.to_json() {
            out["detail"] = detail;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_detailed_error_carries_its_field_reason_and_figures() {
        let err = Error::InvalidSettings(
            Detail::field("rules.move_limit", "out_of_range", "too big")
                .with("min", 0)
                .with("max", 1000),
        );
        assert_eq!(
            err.to_json(),
            json!({"code": "invalid_settings", "message": "invalid settings: too big",
                "field": "rules.move_limit", "detail": {"reason": "out_of_range", "min": 0, "max": 1000}})
        );
        let state = Error::WrongState(Detail::state("started", "the game has already started"));
        assert_eq!(state.to_json()["detail"], json!({"reason": "started"}));
        assert!(state.to_json().get("field").is_none());
    }

    #[test]
    fn a_plain_message_has_no_detail() {
        let err = Error::WrongState("the server is shutting down".into());
        assert_eq!(
            err.to_json(),
            json!({"code": "wrong_state", "message": "the server is shutting down"})
        );
        assert_eq!(Error::NotHost.to_json()["code"], "not_host");
    }
}
