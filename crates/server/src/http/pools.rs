//! Quick pairing at the edge (docs/protocol.md "Pools"): `GET /api/pools` (the pools and their
//! rules of waiting), the socket `/ws/pools` where a browser seeks, sees who waits, cancels and
//! is told its room, and `POST|DELETE /api/me/blocks` (« Ne plus jouer avec cette personne »).
//!
//! The seat token of a seek is made by the seeker's socket and only its hash goes into the
//! pools (and, in a cluster, into Redis): the token reaches nobody but that socket, which sends
//! it with the room's code when matched; the browser then presents it to
//! `POST /api/rooms/{code}/join` as any seat holder does, which sets its seat cookie.

use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};

use super::rooms::{lookup, seat_in};
use super::{Caller, JsonBody};
use crate::error::{AppError, RoomError};
use crate::live::{blocking, now_ms};
use crate::pools::{self, spec, SeekRequest, Ticket};
use crate::ratelimit::Action as Limit;
use crate::state::AppState;
use dames_room::room::Occupant;
use dames_room::token;

/// Largest message a seeking socket reads.
const MAX_MESSAGE: usize = 2 * 1024;
const PING_EVERY: std::time::Duration = std::time::Duration::from_secs(20);

/// The routes under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/pools", get(list))
        .route("/me/blocks", post(block).delete(unblock))
}

/// The `/ws/pools` route.
pub fn ws_router() -> Router<AppState> {
    Router::new().route("/ws/pools", get(upgrade))
}

/// Every pool and the rules of waiting.
async fn list(State(state): State<AppState>) -> Json<Value> {
    let all: Vec<Value> = spec::POOLS
        .iter()
        .map(|p| {
            let (game, size, rules) = match p.game {
                spec::Game::Cc { japanese, .. } => (
                    "cc",
                    None,
                    if japanese {
                        "japanese"
                    } else {
                        "international"
                    },
                ),
                spec::Game::Draughts { size } => ("draughts", Some(size), "international"),
            };
            json!({
                "id": p.id,
                "game": game,
                "players": p.players(),
                "size": size,
                "rules": rules,
                "pace": match p.pace { spec::Pace::Live => "live", spec::Pace::Turn => "turn" },
                "cpu_fill": p.cpu_fill(),
                "clock": p.clock(state.pools.clocks()),
            })
        })
        .collect();
    let (min, max, default) = state.pools.cpu_after();
    Json(json!({
        "pools": all,
        "cpu_after": {"min": min, "max": max, "default": default},
        "levels": dames_ai::Level::ALL.map(dames_ai::Level::name),
        "max_pools": pools::MAX_POOLS,
        "penalty": {
            "per_leave_ms": pools::PENALTY_PER_LEAVE_MS,
            "cap_ms": pools::PENALTY_CAP_MS,
            "window_ms": pools::LEAVE_WINDOW_MS,
        },
    }))
}

async fn upgrade(
    State(state): State<AppState>,
    caller: Caller,
    ws: WebSocketUpgrade,
) -> Result<Response, AppError> {
    state.limiter.take_connect(caller.ip, None).await?;
    let slot = state.websockets.open(caller.ip)?;
    let session = Seeker {
        live: state.sessions.subscribe(),
        state,
        caller,
        ticket: None,
        token: None,
        _slot: slot,
    };
    Ok(ws
        .read_buffer_size(4 * 1024)
        .max_message_size(16 * 1024)
        .max_frame_size(16 * 1024)
        .on_upgrade(move |socket| session.run(socket)))
}

/// A client message on `/ws/pools`.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum PoolMessage {
    /// Seek in these pools (a seek already held is replaced).
    Seek {
        name: String,
        pools: Vec<String>,
        #[serde(default)]
        cpu: Option<pools::CpuRequest>,
    },
    /// Stop seeking.
    Cancel,
    Ping,
}

/// One seeking socket.
struct Seeker {
    state: AppState,
    caller: Caller,
    /// The seek held, and the raw seat token its hash stands for.
    ticket: Option<Ticket>,
    token: Option<String>,
    _slot: crate::net::limits::Slot,
    live: tokio::sync::watch::Receiver<()>,
}

fn frame(v: &Value) -> Message {
    Message::Text(v.to_string().into())
}

fn error_frame(err: &AppError) -> Message {
    let mut v = err.to_json();
    v["type"] = "error".into();
    frame(&v)
}

impl Seeker {
    /// Serves the socket until it closes; the seek goes with it.
    async fn run<S, E>(mut self, mut socket: S)
    where
        S: Stream<Item = Result<Message, E>> + Sink<Message> + Unpin,
    {
        let mut waiting = self.state.pools.waiting();
        let mut closing = self.state.closing.subscribe();
        let mut ping = tokio::time::interval(PING_EVERY);
        let first = waiting.borrow_and_update().clone();
        if socket
            .send(Message::Text(first.to_string().into()))
            .await
            .is_err()
        {
            return;
        }
        loop {
            let step = tokio::select! {
                msg = socket.next() => match msg {
                    Some(Ok(Message::Text(text))) => self.on_text(text.as_bytes()).await,
                    Some(Ok(Message::Binary(bytes))) => self.on_text(&bytes).await,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                },
                matched = recv(&mut self.ticket) => self.on_matched(matched),
                changed = waiting.changed() => match changed {
                    Ok(()) => {
                        let list = waiting.borrow_and_update().clone();
                        Some(Message::Text(list.to_string().into()))
                    }
                    Err(_) => break,
                },
                _ = ping.tick() => Some(Message::Ping(Default::default())),
                () = async { drop(closing.wait_for(|c| *c).await) } => break,
            };
            if let Some(out) = step {
                if socket.send(out).await.is_err() {
                    break;
                }
            }
        }
        let _ = socket.send(Message::Close(None)).await;
        drop(self.ticket.take());
        drop(self.live);
    }

    async fn on_text(&mut self, bytes: &[u8]) -> Option<Message> {
        if bytes.len() > MAX_MESSAGE {
            return Some(error_frame(&AppError::TooLarge));
        }
        let msg = match serde_json::from_slice::<PoolMessage>(bytes) {
            Ok(m) => m,
            Err(e) => {
                return Some(error_frame(&AppError::Room(RoomError::BadJson(
                    e.to_string(),
                ))))
            }
        };
        match msg {
            PoolMessage::Seek { name, pools, cpu } => {
                let request = SeekRequest { name, pools, cpu };
                Some(match self.seek(&request).await {
                    Ok(out) => out,
                    Err(err) => error_frame(&err),
                })
            }
            PoolMessage::Cancel => {
                let withdrawn = match &self.ticket {
                    Some(ticket) => ticket.withdraw().await,
                    None => Ok(true),
                };
                match withdrawn {
                    Ok(true) => {
                        self.ticket = None;
                        self.token = None;
                        Some(frame(&json!({"type": "cancelled"})))
                    }
                    // Too late: the room is being made, `matched` follows.
                    Ok(false) => None,
                    Err(err) => Some(error_frame(&err)),
                }
            }
            PoolMessage::Ping => Some(frame(&json!({"type": "pong"}))),
        }
    }

    async fn seek(&mut self, request: &SeekRequest) -> Result<Message, AppError> {
        let client = self.caller.client.clone();
        (self.state.limiter)
            .take(Limit::Seek, self.caller.ip, Some(&client))
            .await?;
        // A new seek replaces the one held (its pools changed), unless that one was matched.
        if let Some(old) = &self.ticket {
            if !old.withdraw().await? {
                return Err(AppError::TooManySeeks);
            }
            self.ticket = None;
        }
        let token = token::random_hex128();
        let limits = &self.state.config.limits;
        let seek = (self.state.pools)
            .prepare(
                &client,
                self.caller.ip,
                request,
                &token::hash_token(&token),
                limits,
            )
            .await?;
        let ticket = self.state.pools.seek(seek).await?;
        let answer = json!({
            "type": "seeking",
            "pools": ticket.pools(),
            "penalty_ms": ticket.penalty_ms,
        });
        self.ticket = Some(ticket);
        self.token = Some(token);
        Ok(frame(&answer))
    }

    fn on_matched(&mut self, matched: Option<pools::Matched>) -> Option<Message> {
        let m = matched?;
        let token = self.token.take()?;
        // The seek is over: its ticket goes without cancelling anything.
        self.ticket = None;
        Some(frame(&json!({
            "type": "matched",
            "code": m.code,
            "seat": m.seat,
            "token": token,
        })))
    }
}

/// A seeking socket without the socket (the fuzzer's, `dames-fuzz`): each message in gives the
/// frame the socket would send back, through the same code; a match made meanwhile comes with
/// the next answer. Its seek goes when it is dropped, as when a socket closes.
pub struct DetachedSeeker(Seeker);

impl DetachedSeeker {
    /// A seeker of browser `client` at `ip`.
    ///
    /// # Errors
    /// `too_many_connections` past the WebSocket limits of `ip`.
    pub fn new(state: &AppState, ip: std::net::IpAddr, client: &str) -> Result<Self, AppError> {
        Ok(Self(Seeker {
            live: state.sessions.subscribe(),
            _slot: state.websockets.open(ip)?,
            state: state.clone(),
            caller: Caller::new(ip, client.to_owned(), axum::http::HeaderMap::new()),
            ticket: None,
            token: None,
        }))
    }

    /// The frames the socket would send for `bytes`: a match that came first, then the answer
    /// (none for a late cancel, whose `matched` follows).
    pub async fn answer(&mut self, bytes: &[u8]) -> Vec<Value> {
        let mut out = Vec::new();
        let matched = (self.0.ticket.as_mut()).and_then(|t| t.matched.try_recv().ok());
        if let Some(m) = self.0.on_matched(matched) {
            out.push(m);
        }
        out.extend(self.0.on_text(bytes).await);
        out.iter()
            .filter_map(|m| match m {
                Message::Text(t) => serde_json::from_str(t.as_str()).ok(),
                _ => None,
            })
            .collect()
    }
}

/// The next match of the seek held (never, without one).
async fn recv(ticket: &mut Option<Ticket>) -> Option<pools::Matched> {
    match ticket {
        Some(t) => t.matched.recv().await,
        None => std::future::pending().await,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockBody {
    room: String,
    seat: usize,
}

/// « Ne plus jouer avec cette personne »: the caller, seated in `room`, blocks the browser of
/// another person's `seat` there.
async fn block(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody<BlockBody>,
) -> Result<Json<Value>, AppError> {
    (state.limiter)
        .take(Limit::Seek, caller.ip, Some(&caller.client))
        .await?;
    let cell = lookup(&state, &caller, &body.room).await?;
    let blocked = {
        let room = cell.room.lock().await;
        let mine = seat_in(&room, &caller)?.ok_or(AppError::Room(RoomError::NotSeated))?;
        let not = |why: &str| AppError::NotBlockable(why.to_owned());
        if mine == body.seat {
            return Err(not("one's own seat cannot be blocked"));
        }
        match room.seats.get(body.seat).map(|s| &s.occupant) {
            Some(Occupant::Human {
                client: Some(c), ..
            }) if *c != caller.client => c.clone(),
            Some(Occupant::Human { .. }) => {
                return Err(not("this seat's browser is yours or unknown"))
            }
            Some(_) => return Err(not("this seat is not a person's")),
            None => return Err(not("this room has no such seat")),
        }
    };
    let store = state.store.clone();
    let client = caller.client.clone();
    let stored = blocked.clone();
    blocking(move || store.block(&client, &stored, now_ms())).await?;
    state.pools.blocked(&caller.client, &blocked).await;
    Ok(Json(json!({"blocked": true})))
}

/// Clears the caller's blocks.
async fn unblock(State(state): State<AppState>, caller: Caller) -> Result<Json<Value>, AppError> {
    let store = state.store.clone();
    let client = caller.client.clone();
    let n = blocking(move || store.clear_blocks(&client)).await?;
    Ok(Json(json!({"cleared": n})))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seek_message_reads_and_unknown_fields_are_refused() {
        let ok: PoolMessage = serde_json::from_str(
            r#"{"type":"seek","name":"Ana","pools":["cc4-intl-live"],"cpu":{"level":"normal","after":30}}"#,
        )
        .unwrap();
        assert!(matches!(ok, PoolMessage::Seek { .. }));
        assert!(serde_json::from_str::<PoolMessage>(
            r#"{"type":"seek","name":"A","pools":[],"x":1}"#
        )
        .is_err());
        assert!(serde_json::from_str::<PoolMessage>(r#"{"type":"cancel"}"#).is_ok());
    }
}
