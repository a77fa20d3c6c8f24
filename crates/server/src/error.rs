//! The one error type of the server: every failure a client can see, with its protocol code and
//! HTTP status (docs/protocol.md, "Error codes").

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An error answered to a client as `{"error":{"code","message"}}` (HTTP) or as a WebSocket
/// `{"type":"error"}` message.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The body or message is not the JSON expected.
    #[error("malformed JSON: {0}")]
    BadJson(String),
    /// The body or message is over its size limit.
    #[error("the request is too large")]
    TooLarge,
    /// A player name is empty, too long or has control characters.
    #[error("a name must have 1 to 24 characters and no control characters")]
    InvalidName,
    /// The settings break a rule; the message says which.
    #[error("invalid settings: {0}")]
    InvalidSettings(String),
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
    /// The room is not in a state that allows this action.
    #[error("{0}")]
    WrongState(String),
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
    /// No such API route.
    #[error("no such API route")]
    NotFound,
    /// A field of a review, request or push subscription is not acceptable; the message says which.
    #[error("{0}")]
    Invalid(String),
    /// A review needs a finished game of that kind played in this browser.
    #[error("you can review a game after having played one to the end in this browser")]
    NotPlayed,
    /// The room's settings turn hints off.
    #[error("hints are turned off in this room")]
    HintsOff,
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
            Self::InvalidName => "invalid_name",
            Self::InvalidSettings(_) => "invalid_settings",
            Self::UnknownRoom => "unknown_room",
            Self::RoomFull => "room_full",
            Self::SeatTaken => "seat_taken",
            Self::NotSeated => "not_seated",
            Self::NotHost => "not_host",
            Self::TokenMismatch => "token_mismatch",
            Self::WrongState(_) => "wrong_state",
            Self::NotYourTurn => "not_your_turn",
            Self::IllegalMove(_) => "illegal_move",
            Self::NotEnoughPlayers => "not_enough_players",
            Self::RateLimited(_) => "rate_limited",
            Self::NotFound => "not_found",
            Self::Invalid(_) => "invalid_input",
            Self::NotPlayed => "not_played",
            Self::HintsOff => "hints_off",
            Self::Internal => "internal",
        }
    }

    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadJson(_) | Self::InvalidName | Self::InvalidSettings(_) | Self::Invalid(_) => {
                StatusCode::BAD_REQUEST
            }
            Self::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnknownRoom | Self::NotFound => StatusCode::NOT_FOUND,
            Self::RoomFull
            | Self::SeatTaken
            | Self::WrongState(_)
            | Self::NotYourTurn
            | Self::NotEnoughPlayers => StatusCode::CONFLICT,
            Self::NotSeated
            | Self::NotHost
            | Self::TokenMismatch
            | Self::NotPlayed
            | Self::HintsOff => StatusCode::FORBIDDEN,
            Self::IllegalMove(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// Logs `err` and turns it into [`AppError::Internal`]: the details never reach a client.
    pub fn internal(context: &str, err: impl std::fmt::Display) -> Self {
        tracing::error!("{context}: {err}");
        Self::Internal
    }

    /// The `{"code","message"}` object.
    pub fn to_json(&self) -> serde_json::Value {
        json!({ "code": self.code(), "message": self.to_string() })
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status(),
            axum::Json(json!({ "error": self.to_json() })),
        )
            .into_response();
        if let Self::RateLimited(secs) = self {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
        }
        response
    }
}

impl From<crate::store::StoreError> for AppError {
    fn from(err: crate::store::StoreError) -> Self {
        Self::internal("storage", err)
    }
}
