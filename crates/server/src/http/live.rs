//! « Mes parties » kept live (issue 11 item 6, docs/protocol.md "Live lists"):
//! `GET /api/me/events`, a server-sent event stream per browser tab keyed by its `dames_client`
//! cookie. Every committed change of a room tells the streams of the browsers seated there
//! (`games` with the room's code and version); the page then asks `GET /api/me/games` again, so
//! the badge and the lists follow a move within a second instead of every 30 s.
//!
//! Bounded: at most [`PER_CLIENT`] streams per browser and [`PER_ADDRESS`] per address
//! (`429 too_many_connections` beyond); a comment line every [`HEARTBEAT`] keeps proxies from
//! closing a quiet stream and lets the server notice a closed tab (the write fails, the stream
//! is dropped and its places given back); every stream ends when the server shuts down.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
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
use crate::net::client_ip::limit_key;
use crate::net::limits::{Counter, Slot};
use crate::room::{Occupant, Room};
use crate::state::AppState;

/// Streams one browser may hold open (its tabs).
pub const PER_CLIENT: usize = 8;
/// Streams one address (IPv6: its /64) may hold open.
pub const PER_ADDRESS: usize = 64;
/// Interval of the heartbeat comment.
pub const HEARTBEAT: Duration = Duration::from_secs(15);
/// Notices a stream may fall behind by before they are merged into one.
const QUEUE: usize = 16;

/// The `/api/me/events` route.
pub fn router() -> Router<AppState> {
    Router::new().route("/me/events", get(events))
}

/// The open streams, by browser.
#[derive(Debug)]
pub struct Live {
    clients: Mutex<HashMap<String, broadcast::Sender<Notice>>>,
    addresses: Arc<Counter>,
    per_address: usize,
}

/// A room of this browser changed.
#[derive(Clone, Debug)]
struct Notice {
    code: String,
    version: i64,
}

impl Live {
    /// No stream yet; `limits` off (load tests) lifts the per-address cap.
    pub fn new(limits: bool) -> Self {
        Self {
            clients: Mutex::new(HashMap::new()),
            addresses: Arc::default(),
            per_address: if limits { PER_ADDRESS } else { usize::MAX },
        }
    }

    fn clients(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<Notice>>> {
        self.clients.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells the browsers seated in `room` that it changed (called for every committed change;
    /// nothing is built when none of them listens).
    pub fn changed(&self, room: &Room) {
        let clients = self.clients();
        if clients.is_empty() {
            return;
        }
        for seat in &room.seats {
            if let Occupant::Human {
                client: Some(client),
                ..
            } = &seat.occupant
            {
                if let Some(tx) = clients.get(client) {
                    // No receiver left is fine: the last tab is closing.
                    let _ = tx.send(Notice {
                        code: room.code.clone(),
                        version: room.version,
                    });
                }
            }
        }
    }

    /// A new stream of `client` from `ip`.
    ///
    /// # Errors
    /// `too_many_connections` past [`PER_CLIENT`] or the per-address cap.
    fn open(self: &Arc<Self>, client: &str, ip: IpAddr) -> Result<Subscription, AppError> {
        let slot = self
            .addresses
            .take(limit_key(ip), self.per_address)
            .ok_or(AppError::TooManyConnections)?;
        let mut clients = self.clients();
        let tx = clients
            .entry(client.to_owned())
            .or_insert_with(|| broadcast::channel(QUEUE).0);
        if tx.receiver_count() >= PER_CLIENT {
            return Err(AppError::TooManyConnections);
        }
        Ok(Subscription {
            rx: tx.subscribe(),
            live: self.clone(),
            client: client.to_owned(),
            _slot: slot,
        })
    }

    /// Streams open now (tests, metrics).
    pub fn streams(&self) -> usize {
        self.clients().values().map(|tx| tx.receiver_count()).sum()
    }
}

/// One open stream: its notices, and its places in the counts (given back when dropped).
struct Subscription {
    rx: broadcast::Receiver<Notice>,
    live: Arc<Live>,
    client: String,
    _slot: Slot,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut clients = self.live.clients();
        // This receiver still counts while it is being dropped.
        if clients
            .get(&self.client)
            .is_some_and(|tx| tx.receiver_count() <= 1)
        {
            clients.remove(&self.client);
        }
    }
}

/// `GET /api/me/events`: `ready` at once, then `games` for each change of a room this browser
/// is seated in.
async fn events(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, AppError> {
    let sub = state.live.open(&caller.client, caller.ip)?;
    let closing = state.closing.subscribe();
    let ready = Event::default().event("ready").data("{}");
    let stream = futures_util::stream::unfold(
        (Some(ready), sub, closing),
        |(first, mut sub, mut closing)| async move {
            if let Some(event) = first {
                return Some((Ok(event), (None, sub, closing)));
            }
            if *closing.borrow() {
                return None;
            }
            let notice = tokio::select! {
                notice = sub.rx.recv() => notice,
                _ = closing.changed() => return None,
            };
            let data = match notice {
                Ok(n) => json!({"code": n.code, "version": n.version}),
                // Fell behind: one notice for all, the page reads its whole list anyway.
                Err(broadcast::error::RecvError::Lagged(_)) => json!({"code": null}),
                Err(broadcast::error::RecvError::Closed) => return None,
            };
            let event = Event::default().event("games").data(data.to_string());
            Some((Ok(event), (None, sub, closing)))
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(HEARTBEAT)))
}
