//! The one error type of the server: every failure a client can see — what a room refuses
//! ([`RoomError`], from `dames-room`) and what the server itself refuses (limits, routes,
//! storage) — with its protocol code, its HTTP status and, where a client needs it, a
//! machine-readable [`Detail`] (docs/protocol.md, "Errors").

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

pub use dames_room::error::{error_json, Detail};
pub use dames_room::Error as RoomError;

/// An error answered to a client as `{"error":{"code","message","field"?,"detail"?}}` (HTTP) or
/// as a WebSocket `{"type":"error"}` message with the same fields.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// A change the room refuses (its rules, its state, the caller's seat).
    #[error(transparent)]
    Room(#[from] RoomError),
    /// The body or message is over its size limit.
    #[error("the request is too large")]
    TooLarge,
    /// No room has this code.
    #[error("no room has this code")]
    UnknownRoom,
    /// The seat cookie and the Authorization header name different tokens.
    #[error("the seat cookie and the Authorization header disagree")]
    TokenMismatch,
    /// The seat this connection spoke for moved to another browser (WebSocket only).
    #[error("your seat moved to another device")]
    SeatMoved,
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
    /// A `phrase` message names none of the preset phrases (dames_room::phrase).
    #[error("no preset phrase has this id")]
    UnknownPhrase,
    /// A review needs a finished game of that kind played in this browser.
    #[error("you can review a game after having played one to the end in this browser")]
    NotPlayed,
    /// A PDN or FEN text to import does not give a position to play from; the detail says why.
    #[error("invalid position: {0}")]
    InvalidPosition(dames_room::position::ImportError),
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
    /// Quick pairing: no pool has this id (crate::pools::spec).
    #[error("no pool {0:?}")]
    UnknownPool(String),
    /// Quick pairing: this browser already seeks a game (one seek per browser, several pools
    /// in it).
    #[error("this browser already seeks a game: cancel it first")]
    TooManySeeks,
    /// « Analyser »: this game cannot be analysed (Chinese checkers; docs/protocol.md
    /// "Analysis").
    #[error("analysis is only available for draughts games")]
    NotSupported,
    /// « Analyser »: this node runs as many analyses as it may; retry later.
    #[error("too many analyses in progress, retry in a moment")]
    AnalysisBusy,
    /// Blocking: the seat named is not a person's (an empty seat, a CPU, or one's own).
    #[error("{0}")]
    NotBlockable(String),
    /// Anything else; the details are only in the server log.
    #[error("internal error")]
    Internal,
}

impl AppError {
    /// The protocol's snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Room(e) => e.code(),
            Self::TooLarge => "too_large",
            Self::UnknownRoom => "unknown_room",
            Self::TokenMismatch => "token_mismatch",
            Self::SeatMoved => "seat_moved",
            Self::RateLimited(_) => "rate_limited",
            Self::UnknownGame => "unknown_game",
            Self::NotFound => "not_found",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::Invalid(_) => "invalid_input",
            Self::UnknownPhrase => "unknown_phrase",
            Self::NotPlayed => "not_played",
            Self::InvalidPosition(_) => "invalid_position",
            Self::CrossSite => "cross_site",
            Self::NotJson => "not_json",
            Self::Timeout => "timeout",
            Self::TooManyConnections => "too_many_connections",
            Self::TooManyCpuGames => "too_many_cpu_games",
            Self::Overloaded => "overloaded",
            Self::Conflict => "conflict",
            Self::UnknownPool(_) => "unknown_pool",
            Self::TooManySeeks => "too_many_seeks",
            Self::NotBlockable(_) => "not_blockable",
            Self::NotSupported => "not_supported",
            Self::AnalysisBusy => "analysis_busy",
            Self::Internal => "internal",
        }
    }

    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::Room(e) => {
                StatusCode::from_u16(e.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            }
            Self::Invalid(_) | Self::InvalidPosition(_) | Self::UnknownPhrase => {
                StatusCode::BAD_REQUEST
            }
            Self::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnknownRoom | Self::UnknownGame | Self::NotFound => StatusCode::NOT_FOUND,
            Self::SeatMoved => StatusCode::FORBIDDEN,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::TokenMismatch | Self::NotPlayed => StatusCode::FORBIDDEN,
            Self::CrossSite => StatusCode::FORBIDDEN,
            Self::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Timeout => StatusCode::REQUEST_TIMEOUT,
            Self::TooManyConnections | Self::TooManyCpuGames => StatusCode::TOO_MANY_REQUESTS,
            Self::Overloaded | Self::AnalysisBusy => StatusCode::SERVICE_UNAVAILABLE,
            Self::NotSupported => StatusCode::UNPROCESSABLE_ENTITY,
            Self::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Conflict | Self::TooManySeeks => StatusCode::CONFLICT,
            Self::UnknownPool(_) | Self::NotBlockable(_) => StatusCode::BAD_REQUEST,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// Seconds for the `Retry-After` header, for the errors that have one.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Self::RateLimited(secs) => Some((*secs).max(1)),
            Self::TooManyConnections | Self::Overloaded => Some(5),
            Self::AnalysisBusy => Some(30),
            _ => None,
        }
    }

    /// The answer to a change asked for once the server has begun to stop.
    pub fn shutting_down() -> Self {
        RoomError::WrongState("the server is shutting down".into()).into()
    }

    /// Whether this is [`AppError::shutting_down`]: the expected end of work in progress at a
    /// shutdown, not something to log as an error.
    pub fn is_shutting_down(&self) -> bool {
        matches!(self, Self::Room(RoomError::WrongState(d)) if d.message == "the server is shutting down")
    }

    /// Logs `err` and turns it into [`AppError::Internal`]: the details never reach a client.
    /// At most one line per context every [`REPEATS_EVERY`] ([`Repeats`]): while the database or
    /// the disk is out, every refused request fails the same way.
    pub fn internal(context: &str, err: impl std::fmt::Display) -> Self {
        match REPEATS.admit(context, Instant::now()) {
            Some(0) => tracing::error!("{context}: {err}"),
            Some(held) => tracing::error!(
                "{context}: {err} (and {held} more like it in the last {}s, not logged)",
                REPEATS_EVERY.as_secs()
            ),
            None => {}
        }
        Self::Internal
    }

    /// Whether this is an internal error (the server's own, or a room's broken invariant).
    pub fn is_internal(&self) -> bool {
        matches!(self, Self::Internal | Self::Room(RoomError::Internal))
    }

    /// The detail of this error, if it has one.
    pub fn detail(&self) -> Option<&Detail> {
        match self {
            Self::Room(e) => e.detail(),
            _ => None,
        }
    }

    /// The `{"code","message"}` object, with `field` and `detail` when the error has them.
    pub fn to_json(&self) -> Value {
        let mut out = error_json(self.code(), &self.to_string(), self.detail());
        if let Some(secs) = self.retry_after() {
            out["retry_after"] = secs.into();
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

/// How often an internal error of one context is logged at most.
pub const REPEATS_EVERY: Duration = Duration::from_secs(10);

static REPEATS: LazyLock<Repeats> = LazyLock::new(|| Repeats::new(REPEATS_EVERY));

/// The internal errors held back, by context: the first of a context is logged, the next ones
/// within `every` only counted, and the count said with the first one logged after it. Contexts
/// are the code's own fixed words (« storage », « pools »), a few dozen at most; past
/// [`Repeats::KINDS`] of them a new one is logged every time rather than forgotten.
struct Repeats {
    every: Duration,
    kinds: Mutex<HashMap<String, (Instant, u64)>>,
}

impl Repeats {
    const KINDS: usize = 256;

    fn new(every: Duration) -> Self {
        Self {
            every,
            kinds: Mutex::new(HashMap::new()),
        }
    }

    /// Whether to log an error of `context` at `now`: `Some(n)` with the `n` held back since the
    /// last line of that context, `None` to hold this one back.
    fn admit(&self, context: &str, now: Instant) -> Option<u64> {
        let mut kinds = self.kinds.lock().unwrap_or_else(|e| e.into_inner());
        match kinds.get_mut(context) {
            Some((logged_at, held)) if now.duration_since(*logged_at) < self.every => {
                *held += 1;
                None
            }
            Some((logged_at, held)) => {
                *logged_at = now;
                Some(std::mem::take(held))
            }
            None => {
                if kinds.len() < Self::KINDS {
                    kinds.insert(context.to_owned(), (now, 0));
                }
                Some(0)
            }
        }
    }
}

impl From<dames_store::StoreError> for AppError {
    fn from(err: dames_store::StoreError) -> Self {
        match err {
            dames_store::StoreError::Conflict { .. } => {
                tracing::info!("{err}");
                Self::Conflict
            }
            dames_store::StoreError::Failed(_) => {
                crate::metrics::METRICS.database_errors.inc();
                Self::internal("storage", err)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_internal_error_repeated_is_logged_once_per_period_with_the_count_held_back() {
        let repeats = Repeats::new(Duration::from_secs(10));
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        assert_eq!(
            repeats.admit("storage", at(0)),
            Some(0),
            "the first is logged"
        );
        assert_eq!(repeats.admit("storage", at(1)), None);
        assert_eq!(repeats.admit("storage", at(9)), None);
        assert_eq!(
            repeats.admit("pools", at(9)),
            Some(0),
            "another context is its own"
        );
        assert_eq!(
            repeats.admit("storage", at(10)),
            Some(2),
            "after the period: logged, with the two held back"
        );
        assert_eq!(repeats.admit("storage", at(25)), Some(0), "none held since");
    }

    #[test]
    fn past_the_number_of_contexts_kept_a_new_one_is_always_logged() {
        let repeats = Repeats::new(Duration::from_secs(10));
        let now = Instant::now();
        for i in 0..Repeats::KINDS {
            assert_eq!(repeats.admit(&format!("c{i}"), now), Some(0));
        }
        assert_eq!(repeats.admit("one more", now), Some(0));
        assert_eq!(
            repeats.admit("one more", now),
            Some(0),
            "not kept: never held back"
        );
        assert_eq!(repeats.admit("c0", now), None, "the ones kept still are");
    }

    #[test]
    fn a_room_error_keeps_its_code_status_and_detail() {
        let err = AppError::from(RoomError::InvalidSettings(
            Detail::field("rules.move_limit", "out_of_range", "too big").with("max", 1000),
        ));
        assert_eq!(err.status(), StatusCode::BAD_REQUEST);
        assert_eq!(
            err.to_json(),
            json!({"code": "invalid_settings", "message": "invalid settings: too big",
                "field": "rules.move_limit", "detail": {"reason": "out_of_range", "max": 1000}})
        );
        assert_eq!(
            AppError::from(RoomError::NotYourTurn).status(),
            StatusCode::CONFLICT
        );
    }

    #[test]
    fn a_refusal_to_retry_later_says_when() {
        let err = AppError::RateLimited(0);
        assert_eq!(
            err.to_json(),
            json!({"code": "rate_limited", "message": "too many requests, retry in 0 s", "retry_after": 1})
        );
        assert!(AppError::shutting_down().is_shutting_down());
        assert_eq!(AppError::shutting_down().code(), "wrong_state");
    }
}
