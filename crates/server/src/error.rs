//! The one error type of the server: every failure a client can see, with its protocol code, its
//! HTTP status and, where a client needs it to explain the error in the player's language, a
//! machine-readable [`Detail`]: the request field concerned and why (docs/protocol.md, "Errors").

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
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
    fn to_json(&self) -> Option<Value> {
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

/// An error answered to a client as `{"error":{"code","message","field"?,"detail"?}}` (HTTP) or
/// as a WebSocket `{"type":"error"}` message with the same fields.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The body or message is not the JSON expected.
    #[error("malformed JSON: {0}")]
    BadJson(String),
    /// The body or message is over its size limit.
    #[error("the request is too large")]
    TooLarge,
    /// A player name is refused (crate::names); the detail says why (field `name`, reason
    /// `length`, `control`, `invisible`, `marks`, `unassigned`, `blank` or `reserved`).
    #[error("invalid name: {0}")]
    InvalidName(Detail),
    /// The settings (or the game, or a CPU level) break a rule; the detail says which field.
    #[error("invalid settings: {0}")]
    InvalidSettings(Detail),
    /// No room has this code.
    #[error("no room has this code")]
    UnknownRoom,
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
    /// The seat cookie and the Authorization header name different tokens.
    #[error("the seat cookie and the Authorization header disagree")]
    TokenMismatch,
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
    /// The seat this connection spoke for moved to another browser (WebSocket only).
    #[error("your seat moved to another device")]
    SeatMoved,
    /// It is another seat's turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The move is not legal; the message says why.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// Some seat is still empty.
    #[error("every seat must be taken by a person or a CPU")]
    NotEnoughPlayers,
    /// Too many requests of this kind from this client; retry after the given seconds.
    #[error("too many requests, retry in {0} s")]
    RateLimited(u64),
    /// The room has no game with this number (never played, or deleted by retention).
    #[error("this room has no game with this number")]
    UnknownGame,
    /// No such API route.
    #[error("no such API route")]
    NotFound,
    /// The route exists but not with this HTTP method (the `Allow` header lists the good ones).
    #[error("this method is not allowed here")]
    MethodNotAllowed,
    /// A field of a review, request or push subscription is not acceptable; the message says which.
    #[error("{0}")]
    Invalid(String),
    /// A review needs a finished game of that kind played in this browser.
    #[error("you can review a game after having played one to the end in this browser")]
    NotPlayed,
    /// The room's settings turn hints off.
    #[error("hints are turned off in this room")]
    HintsOff,
    /// A PDN or FEN text to import does not give a position to play from; the detail says why.
    #[error("invalid position: {0}")]
    InvalidPosition(crate::position::ImportError),
    /// A state-changing request or a WebSocket upgrade from another site (crate::net::origin).
    #[error("requests from another site are refused")]
    CrossSite,
    /// A body that is not declared `Content-Type: application/json`.
    #[error("the body must be sent as application/json")]
    NotJson,
    /// The request was not received in time (crate::net::limits).
    #[error("the request took too long to arrive")]
    Timeout,
    /// The caller already plays its share of games against CPUs at once (Limits).
    #[error("too many games against the CPU at once: finish one first")]
    TooManyCpuGames,
    /// Too many open connections or WebSockets from this address (crate::net::limits).
    #[error("too many connections from your address")]
    TooManyConnections,
    /// The server is at its connection limit; retry later.
    #[error("the server is busy, retry in a moment")]
    Overloaded,
    /// The room changed in the database since this server computed the change (another node
    /// changed it: the per-room version check, docs/cluster.md): nothing was applied, the room
    /// is reloaded; the client may try again.
    #[error("the room changed meanwhile: try again")]
    Conflict,
    /// Anything else; the details are only in the server log.
    #[error("internal error")]
    Internal,
}

impl AppError {
    /// The protocol's snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::BadJson(_) => "bad_json",
            Self::TooLarge => "too_large",
            Self::InvalidName(_) => "invalid_name",
            Self::InvalidSettings(_) => "invalid_settings",
            Self::UnknownRoom => "unknown_room",
            Self::RoomFull => "room_full",
            Self::SeatTaken => "seat_taken",
            Self::NotSeated => "not_seated",
            Self::NotHost => "not_host",
            Self::TokenMismatch => "token_mismatch",
            Self::WrongState(_) => "wrong_state",
            Self::NotAway(_) => "not_away",
            Self::InvalidTransfer => "invalid_transfer",
            Self::SeatMoved => "seat_moved",
            Self::NotYourTurn => "not_your_turn",
            Self::IllegalMove(_) => "illegal_move",
            Self::NotEnoughPlayers => "not_enough_players",
            Self::RateLimited(_) => "rate_limited",
            Self::UnknownGame => "unknown_game",
            Self::NotFound => "not_found",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::Invalid(_) => "invalid_input",
            Self::NotPlayed => "not_played",
            Self::HintsOff => "hints_off",
            Self::InvalidPosition(_) => "invalid_position",
            Self::CrossSite => "cross_site",
            Self::NotJson => "not_json",
            Self::Timeout => "timeout",
            Self::TooManyConnections => "too_many_connections",
            Self::TooManyCpuGames => "too_many_cpu_games",
            Self::Overloaded => "overloaded",
            Self::Conflict => "conflict",
            Self::Internal => "internal",
        }
    }

    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadJson(_)
            | Self::InvalidName(_)
            | Self::InvalidSettings(_)
            | Self::Invalid(_)
            | Self::InvalidPosition(_) => StatusCode::BAD_REQUEST,
            Self::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnknownRoom | Self::UnknownGame | Self::NotFound => StatusCode::NOT_FOUND,
            Self::InvalidTransfer => StatusCode::GONE,
            Self::SeatMoved => StatusCode::FORBIDDEN,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::RoomFull
            | Self::SeatTaken
            | Self::WrongState(_)
            | Self::NotAway(_)
            | Self::NotYourTurn
            | Self::NotEnoughPlayers => StatusCode::CONFLICT,
            Self::NotSeated
            | Self::NotHost
            | Self::TokenMismatch
            | Self::NotPlayed
            | Self::HintsOff => StatusCode::FORBIDDEN,
            Self::IllegalMove(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::CrossSite => StatusCode::FORBIDDEN,
            Self::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Timeout => StatusCode::REQUEST_TIMEOUT,
            Self::TooManyConnections | Self::TooManyCpuGames => StatusCode::TOO_MANY_REQUESTS,
            Self::Overloaded => StatusCode::SERVICE_UNAVAILABLE,
            Self::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Conflict => StatusCode::CONFLICT,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// Seconds for the `Retry-After` header, for the errors that have one.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Self::RateLimited(secs) => Some((*secs).max(1)),
            Self::TooManyConnections | Self::Overloaded => Some(5),
            _ => None,
        }
    }

    /// The answer to a change asked for once the server has begun to stop.
    pub fn shutting_down() -> Self {
        Self::WrongState("the server is shutting down".into())
    }

    /// Whether this is [`AppError::shutting_down`]: the expected end of work in progress at a
    /// shutdown, not something to log as an error.
    pub fn is_shutting_down(&self) -> bool {
        matches!(self, Self::WrongState(d) if d.message == "the server is shutting down")
    }

    /// Logs `err` and turns it into [`AppError::Internal`]: the details never reach a client.
    pub fn internal(context: &str, err: impl std::fmt::Display) -> Self {
        tracing::error!("{context}: {err}");
        Self::Internal
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
        let mut out = json!({ "code": self.code(), "message": self.to_string() });
        if let Some(secs) = self.retry_after() {
            out["retry_after"] = secs.into();
        }
        if let Some(d) = self.detail() {
            if let Some(field) = &d.field {
                out["field"] = field.as_str().into();
            }
            if let Some(detail) = d.to_json() {
                out["detail"] = detail;
            }
        }
        if let Self::InvalidPosition(e) = self {
            out["detail"] = e.detail();
        }
        out
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status(),
            axum::Json(json!({ "error": self.to_json() })),
        )
            .into_response();
        if let Some(secs) = self.retry_after() {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

impl From<crate::store::StoreError> for AppError {
    fn from(err: crate::store::StoreError) -> Self {
        match err {
            crate::store::StoreError::Conflict { .. } => {
                tracing::info!("{err}");
                Self::Conflict
            }
            crate::store::StoreError::Failed(_) => Self::internal("storage", err),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_detailed_error_carries_its_field_reason_and_figures() {
        let err = AppError::InvalidSettings(
            Detail::field("rules.move_limit", "out_of_range", "too big")
                .with("min", 0)
                .with("max", 1000),
        );
        assert_eq!(
            err.to_json(),
            json!({"code": "invalid_settings", "message": "invalid settings: too big",
                "field": "rules.move_limit", "detail": {"reason": "out_of_range", "min": 0, "max": 1000}})
        );
        let state = AppError::WrongState(Detail::state("started", "the game has already started"));
        assert_eq!(state.to_json()["detail"], json!({"reason": "started"}));
        assert!(state.to_json().get("field").is_none());
    }

    #[test]
    fn a_plain_message_has_no_detail() {
        let err = AppError::WrongState("the server is shutting down".into());
        assert_eq!(
            err.to_json(),
            json!({"code": "wrong_state", "message": "the server is shutting down"})
        );
        assert_eq!(AppError::NotHost.to_json()["code"], "not_host");
    }
}
