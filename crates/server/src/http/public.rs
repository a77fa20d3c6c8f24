//! « Jouer en ligne »: the open tables and the games to watch (issue 20, docs/protocol.md "Public
//! lists"). `GET /api/public` answers both lists and the featured game; `GET /api/public/events`
//! is their live feed, a server-sent event stream: `lists` at once with the lists, then again
//! each time they change (built by crate::live::public, for the whole cluster).
//!
//! Bounded: at most [`FEEDS_PER_ADDRESS`] feeds per address and node (`429
//! too_many_connections` beyond); a comment line every `HEARTBEAT` keeps proxies from closing
//! a quiet feed; every feed ends when the server shuts down.

use std::convert::Infallible;

use axum::extract::State;
use axum::http::header;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::Stream;
use tokio::sync::broadcast::error::RecvError;

use super::events::HEARTBEAT;
use super::Caller;
use crate::error::AppError;
use crate::state::AppState;

/// Feeds of the public lists one address (IPv6: its /64) may hold open on a node.
pub const FEEDS_PER_ADDRESS: usize = 16;

/// The routes of the public lists.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/public", get(lists))
        .route("/public/events", get(feed))
}

/// `GET /api/public`: `{"open": [table], "watch": [game], "featured": code|null,
/// "pool_clocks": {"draughts": clock, "cc": clock}}`: the lists, and the clocks of the live
/// pools that « Jouer en ligne » shows before anyone taps (one request for the whole section).
async fn lists(State(state): State<AppState>) -> Result<Response, AppError> {
    let lists = state.public.current().await?;
    let mut json: serde_json::Value =
        serde_json::from_str(&lists).map_err(|e| AppError::internal("public", e))?;
    let clocks = state.pools.clocks();
    json["pool_clocks"] = serde_json::json!({"draughts": clocks.draughts, "cc": clocks.cc});
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        json.to_string(),
    )
        .into_response())
}

/// `GET /api/public/events`: `lists` now, then each time the lists change.
async fn feed(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, AppError> {
    let cap = if state.config.limits.enabled {
        FEEDS_PER_ADDRESS
    } else {
        usize::MAX
    };
    let key = crate::net::client_ip::limit_key(caller.ip);
    let slot = state
        .public_feeds
        .take(key, cap)
        .ok_or(AppError::TooManyConnections)?;
    let feed = state.public.subscribe();
    let first = state.public.current().await?;
    let closing = state.closing.subscribe();
    let stream = futures_util::stream::unfold(
        (Some(first), feed, closing, slot),
        |(first, mut feed, mut closing, slot)| async move {
            let lists = match first {
                Some(lists) => lists,
                None => loop {
                    if *closing.borrow() {
                        return None;
                    }
                    tokio::select! {
                        next = feed.rx.recv() => match next {
                            Ok(lists) => break lists,
                            // Fell behind: the newest lists come next.
                            Err(RecvError::Lagged(_)) => continue,
                            Err(RecvError::Closed) => return None,
                        },
                        _ = closing.changed() => return None,
                    }
                },
            };
            let event = Event::default().event("lists").data(&*lists);
            Some((Ok(event), (None, feed, closing, slot)))
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(HEARTBEAT)))
}
