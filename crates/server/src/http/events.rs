//! « Mes parties » kept live (issue 11 item 6, docs/protocol.md "Live lists"):
//! `GET /api/me/events`, a server-sent event stream per browser tab keyed by its `dames_client`
//! cookie. Every committed change of a room tells the streams of the browsers seated there
//! (`games` with the room's code and version); the page then asks `GET /api/me/games` again, so
//! the badge and the lists follow a move within a second instead of every 30 s.
//!
//! Bounded (crate::live::streams): at most 8 streams per browser (for the whole cluster with
//! `--redis`) and 64 per address and node (`429 too_many_connections` beyond); a comment line every [`HEARTBEAT`] keeps proxies from
//! closing a quiet stream and lets the server notice a closed tab (the write fails, the stream
//! is dropped and its places given back); every stream ends when the server shuts down.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use axum::Router;
use futures_util::Stream;
use serde_json::json;
use tokio::sync::broadcast;

use super::Caller;
use crate::error::AppError;
use crate::state::AppState;

/// Interval of the heartbeat comment.
pub const HEARTBEAT: Duration = Duration::from_secs(15);

/// The `/api/me/events` route.
pub fn router() -> Router<AppState> {
    Router::new().route("/me/events", get(events))
}

/// `GET /api/me/events`: `ready` at once, then `games` for each change of a room this browser
/// is seated in.
async fn events(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, AppError> {
    let mut sub = state.streams.open(&caller.client, caller.ip)?;
    // With a cluster, the browser's streams are counted once for all the nodes.
    if let Some(cluster) = &state.cluster {
        sub.share(cluster).await?;
    }
    let closing = state.closing.subscribe();
    let ready = Event::default().event("ready").data("{}");
    let mut renew = tokio::time::interval(crate::live::streams::RENEW_EVERY);
    renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let stream = futures_util::stream::unfold(
        (Some(ready), sub, closing, renew),
        |(first, mut sub, mut closing, mut renew)| async move {
            if let Some(event) = first {
                return Some((Ok(event), (None, sub, closing, renew)));
            }
            let notice = loop {
                if *closing.borrow() {
                    return None;
                }
                tokio::select! {
                    notice = sub.rx.recv() => break notice,
                    _ = closing.changed() => return None,
                    _ = renew.tick() => sub.renew().await,
                }
            };
            let data = match notice {
                Ok(n) => json!({"code": n.code, "version": n.version}),
                // Fell behind: one notice for all, the page reads its whole list anyway.
                Err(broadcast::error::RecvError::Lagged(_)) => json!({"code": null}),
                Err(broadcast::error::RecvError::Closed) => return None,
            };
            let event = Event::default().event("games").data(data.to_string());
            Some((Ok(event), (None, sub, closing, renew)))
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(HEARTBEAT)))
}
