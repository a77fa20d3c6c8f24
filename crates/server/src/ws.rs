//! `/ws/rooms/{code}?since=V` (docs/protocol.md, "WebSocket"): the missed events and a full state
//! on connection, then every change as a `delta` serialised once for all the room's connections
//! (and its `turn` to the seat to move; crate::wire); client actions with ids answered by `ack`;
//! typed errors that never close the socket; presence of the seats; pings.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;

use crate::error::AppError;
use crate::event::Event;
use crate::http::rooms::{check_move_id, lookup, random_u64, Since};
use crate::http::Caller;
use crate::room::{DrawAction, Room};
use crate::rooms::{blocking, RoomCell, Update};
use crate::state::AppState;
use crate::wire::{Published, ServerMessage};

/// Largest client message (bytes); bigger ones get a `too_large` error.
pub const MAX_MESSAGE: usize = 4 * 1024;
/// Messages beyond this close the connection (the transport refuses them).
const HARD_LIMIT: usize = 64 * 1024;
/// Read buffer of a socket: client messages are small (at most [`MAX_MESSAGE`]); a longer one is
/// read in several pieces. The transport's default (128 KiB, allocated up front) made each idle
/// socket cost about 150 KiB.
const READ_BUFFER: usize = 4 * 1024;
/// Messages are written as soon as they are sent (no write buffering): each is a whole event or
/// state, and the socket has `TCP_NODELAY`.
const WRITE_BUFFER: usize = 0;
/// Bound of the write buffer (it only grows while writes to the socket fail; a client that reads
/// slowly just makes sends wait).
const MAX_WRITE_BUFFER: usize = 1024 * 1024;
const PING_EVERY: Duration = Duration::from_secs(20);
const SILENCE_LIMIT: Duration = Duration::from_secs(60);

/// The `/ws` routes.
pub fn router() -> Router<AppState> {
    Router::new().route("/ws/rooms/{code}", get(upgrade))
}

async fn upgrade(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
    Query(q): Query<Since>,
    ws: WebSocketUpgrade,
) -> Result<Response, AppError> {
    let cell = lookup(&state, &caller, &code).await?;
    let token = {
        let room = cell.room.lock().await;
        caller.seat_token(&room.code)?
    };
    let since = q.version()?;
    let slot = state.websockets.open(caller.ip)?;
    let session = Session {
        state,
        cell,
        token,
        seat: None,
        you: None,
        sent: 0,
        _slot: slot,
        ip: caller.ip,
        client: caller.client,
    };
    Ok(ws
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(MAX_WRITE_BUFFER)
        .max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .on_upgrade(move |socket| session.run(socket, since)))
}

struct Session {
    state: AppState,
    cell: Arc<RoomCell>,
    /// The seat token presented when connecting.
    token: Option<String>,
    /// The seat counted online for this connection.
    seat: Option<usize>,
    /// The seat this connection speaks for (its token's), as of the last state sent.
    you: Option<usize>,
    /// Last version sent.
    sent: i64,
    /// This socket's place in its address's WebSocket count (crate::net::limits).
    _slot: crate::net::limits::Slot,
    /// Who connected: the address and browser the limits count.
    ip: std::net::IpAddr,
    client: String,
}

/// A client message.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    Move {
        id: Option<String>,
        #[serde(rename = "move")]
        mv: Value,
    },
    Resign {
        id: Option<String>,
    },
    Draw {
        id: Option<String>,
        action: DrawAction,
    },
    Rematch {
        id: Option<String>,
        ready: bool,
    },
    Ping {
        #[serde(rename = "id")]
        _id: Option<String>,
    },
    /// Asks for a full `state` (a client that saw a gap in the versions).
    Sync {
        #[serde(rename = "id")]
        _id: Option<String>,
    },
}

impl ClientMessage {
    /// The client's id of the action.
    fn id(&self) -> Option<&str> {
        match self {
            Self::Move { id, .. }
            | Self::Resign { id }
            | Self::Draw { id, .. }
            | Self::Rematch { id, .. } => id.as_deref(),
            Self::Ping { .. } | Self::Sync { .. } => None,
        }
    }
}

/// Answers one client message of a WebSocket of room `code` presenting `token`, exactly as a
/// connected session does, without the socket: how [`crate::fuzz`] feeds messages to the
/// server's own reading and handling code.
///
/// # Errors
/// `unknown_room`, or `too_many_connections` when `ip` has all its WebSockets open.
pub async fn answer_detached(
    state: &AppState,
    code: &str,
    token: Option<String>,
    ip: std::net::IpAddr,
    bytes: &[u8],
) -> Result<Option<ServerMessage>, AppError> {
    let session = Session {
        state: state.clone(),
        cell: state.rooms.get(code).await?,
        token,
        seat: None,
        you: None,
        sent: 0,
        _slot: state.websockets.open(ip)?,
        ip,
        client: String::new(),
    };
    Ok(session.answer(bytes).await)
}

fn text(msg: &ServerMessage) -> Message {
    Message::Text(msg.to_text())
}

impl Session {
    fn you(&self, room: &Room) -> Option<usize> {
        self.token.as_deref().and_then(|t| room.seat_of_token(t))
    }

    async fn run(mut self, mut socket: WebSocket, since: i64) {
        let mut updates = self.cell.tx.subscribe();
        let mut closing = self.state.closing.subscribe();
        if self.connect(&mut socket, since).await.is_err() {
            self.disconnect().await;
            return;
        }
        let mut ping = tokio::time::interval(PING_EVERY);
        let mut heard = Instant::now();
        loop {
            let step = tokio::select! {
                msg = socket.recv() => match msg {
                    Some(Ok(msg)) => {
                        heard = Instant::now();
                        self.on_message(&mut socket, msg).await
                    }
                    _ => Err(()),
                },
                update = updates.recv() => self.on_update(&mut socket, update).await,
                _ = ping.tick() => {
                    if heard.elapsed() > SILENCE_LIMIT {
                        Err(())
                    } else {
                        socket.send(Message::Ping(Default::default())).await.map_err(drop)
                    }
                }
                _ = closing.changed() => {
                    let _ = socket.send(Message::Close(None)).await;
                    Err(())
                }
            };
            if step.is_err() {
                break;
            }
        }
        self.disconnect().await;
    }

    /// Counts the seat online, then sends the missed events and the state.
    async fn connect(&mut self, socket: &mut WebSocket, since: i64) -> Result<(), ()> {
        self.seat = self
            .state
            .rooms
            .presence(&self.cell, self.token.as_deref(), None, 1)
            .await;
        let (code, version, state) = {
            let room = self.cell.room.lock().await;
            self.you = self.you(&room);
            (
                room.code.clone(),
                room.version,
                ServerMessage::state(&room, self.you),
            )
        };
        if since < version {
            let store = self.state.rooms.store().clone();
            let key = code.clone();
            let rows = blocking(move || store.events_since(&key, since, version))
                .await
                .map_err(drop)?;
            for (version, event) in crate::event::read_rows(&code, &rows) {
                let msg = ServerMessage::Event { version, event };
                socket.send(text(&msg)).await.map_err(drop)?;
            }
        }
        self.sent = version;
        socket.send(text(&state)).await.map_err(drop)
    }

    async fn disconnect(&mut self) {
        if let Some(seat) = self.seat.take() {
            self.state
                .rooms
                .presence(&self.cell, self.token.as_deref(), Some(seat), -1)
                .await;
        }
    }

    async fn on_update(
        &mut self,
        socket: &mut WebSocket,
        update: Result<Arc<Update>, RecvError>,
    ) -> Result<(), ()> {
        match update.as_deref() {
            Ok(Update::Deleted) => {
                let gone = ServerMessage::error(None, &AppError::UnknownRoom);
                let _ = socket.send(text(&gone)).await;
                let _ = socket.send(Message::Close(None)).await;
                Err(())
            }
            Ok(Update::Presence { wire, .. }) => {
                socket.send(Message::Text(wire.clone())).await.map_err(drop)
            }
            Ok(Update::Change { events, room, wire }) => {
                self.on_change(socket, events, room, wire).await
            }
            Err(RecvError::Lagged(_)) => {
                let room = self.cell.room.lock().await.clone();
                self.send_state(socket, &room).await
            }
            Err(RecvError::Closed) => Err(()),
        }
    }

    /// A committed change: its shared `delta` (and `turn` for the seat to move), or a full state
    /// when this connection cannot follow by deltas (it missed a version, or its seat was
    /// freed: it now speaks as a spectator).
    async fn on_change(
        &mut self,
        socket: &mut WebSocket,
        events: &[(i64, Event)],
        room: &Room,
        wire: &Published,
    ) -> Result<(), ()> {
        if room.version <= self.sent {
            return Ok(()); // already in the state sent on connection
        }
        // A token's seat can only be lost (left, kicked, or beyond a smaller seat count), and
        // every way of losing it is a `left` event.
        if self.you.is_some() && events.iter().any(|(_, e)| matches!(e, Event::Left { .. })) {
            let you = self.you(room);
            if you != self.you {
                self.you = you;
                return self.send_state(socket, room).await;
            }
        }
        let follows = events.first().map(|(v, _)| *v) == Some(self.sent + 1);
        if !follows {
            return self.send_state(socket, room).await;
        }
        self.sent = room.version;
        socket
            .send(Message::Text(wire.delta.clone()))
            .await
            .map_err(drop)?;
        match &wire.turn {
            Some((seat, turn)) if self.you == Some(*seat) => {
                socket.send(Message::Text(turn.clone())).await.map_err(drop)
            }
            _ => Ok(()),
        }
    }

    async fn send_state(&mut self, socket: &mut WebSocket, room: &Room) -> Result<(), ()> {
        if room.version < self.sent {
            return Ok(());
        }
        self.sent = room.version;
        self.you = self.you(room);
        // The state carries this connection's legal moves: no `turn` after it.
        let state = ServerMessage::state(room, self.you);
        socket.send(text(&state)).await.map_err(drop)
    }

    async fn on_message(&mut self, socket: &mut WebSocket, msg: Message) -> Result<(), ()> {
        let bytes = match msg {
            Message::Text(t) => t.as_bytes().to_vec(),
            Message::Binary(b) => b.to_vec(),
            Message::Close(_) => return Err(()),
            Message::Ping(_) | Message::Pong(_) => return Ok(()),
        };
        match self.answer(&bytes).await {
            None => Ok(()),
            Some(ServerMessage::State { .. }) => {
                // `sync`: the state as this connection sees it, from now on followed by deltas.
                let room = self.cell.room.lock().await.clone();
                self.sent = 0;
                self.send_state(socket, &room).await
            }
            Some(answer) => socket.send(text(&answer)).await.map_err(drop),
        }
    }

    /// Reads one client message and runs it: the `pong`, `ack`, `error` or `state` (for `sync`)
    /// to send back, or `None` when there is nothing to say.
    async fn answer(&self, bytes: &[u8]) -> Option<ServerMessage> {
        if bytes.len() > MAX_MESSAGE {
            return Some(ServerMessage::error(None, &AppError::TooLarge));
        }
        match serde_json::from_slice::<ClientMessage>(bytes) {
            Ok(ClientMessage::Ping { .. }) => Some(ServerMessage::Pong),
            Ok(ClientMessage::Sync { .. }) => {
                let room = self.cell.room.lock().await;
                Some(ServerMessage::state(&room, self.you(&room)))
            }
            Ok(msg) => match self.limit() {
                Ok(()) => self.act(msg).await,
                Err(err) => Some(ServerMessage::error(msg.id(), &err)),
            },
            Err(err) => Some(ServerMessage::error(
                None,
                &AppError::BadJson(err.to_string()),
            )),
        }
    }

    /// Takes a token of this socket's room actions ([`crate::ratelimit::Action::Act`]): its
    /// seat's, else its browser's.
    fn limit(&self) -> Result<(), AppError> {
        let act = crate::ratelimit::Action::Act;
        match &self.token {
            Some(token) => self.state.limiter.take_seat(act, token),
            None => self.state.limiter.take_client(act, &self.client),
        }
    }

    /// Runs a client action; the answer is an `ack`, an `error`, or nothing (no id, success).
    async fn act(&self, msg: ClientMessage) -> Option<ServerMessage> {
        let (id, result) = match msg {
            ClientMessage::Move { id, mv } => {
                let result = match check_move_id(id.as_deref()) {
                    Ok(()) => {
                        let move_id = id.clone();
                        self.with_seat(move |room, seat, ch, now| {
                            let input = room.parse_move(&mv)?;
                            room.play_move(seat, move_id.as_deref(), &input, now, ch)
                        })
                        .await
                    }
                    Err(err) => Err(err),
                };
                (id, result)
            }
            ClientMessage::Resign { id } => (
                id,
                self.with_seat(|room, seat, ch, now| room.resign(seat, now, ch).map(|()| true))
                    .await,
            ),
            ClientMessage::Draw { id, action } => (
                id,
                self.with_seat(move |room, seat, ch, now| {
                    room.draw(seat, action, now, ch).map(|()| true)
                })
                .await,
            ),
            ClientMessage::Rematch { id, ready } => {
                let random = random_u64();
                let (rooms, limits) = (&self.state.rooms, &self.state.config.limits);
                (
                    id,
                    self.with_seat(move |room, seat, ch, now| {
                        if ready {
                            rooms.check_cpu_games(Some(room), self.ip, &self.client, limits)?;
                        }
                        room.rematch(seat, ready, random, now, ch).map(|()| true)
                    })
                    .await,
                )
            }
            ClientMessage::Ping { .. } => return Some(ServerMessage::Pong),
            ClientMessage::Sync { .. } => return None,
        };
        match (result, id) {
            (Ok(applied), Some(id)) => Some(ServerMessage::Ack { id, applied }),
            (Ok(_), None) => None,
            (Err(err), id) => Some(ServerMessage::error(id.as_deref(), &err)),
        }
    }

    async fn with_seat(
        &self,
        op: impl FnOnce(&mut Room, usize, &mut crate::room::Change, i64) -> Result<bool, AppError>,
    ) -> Result<bool, AppError> {
        let token = self.token.clone();
        self.state
            .rooms
            .mutate(&self.cell, move |room, ch, now| {
                let seat = token
                    .as_deref()
                    .and_then(|t| room.seat_of_token(t))
                    .ok_or(AppError::NotSeated)?;
                op(room, seat, ch, now)
            })
            .await
    }
}
