//! `/ws/rooms/{code}?since=V` (docs/protocol.md, "WebSocket"): the missed events and a full state
//! on connection, then every change as a `delta` serialised once for all the room's connections
//! (and its `turn` to the seat to move; dames_room::message); client actions with ids answered by `ack`;
//! typed errors that never close the socket; presence of the seats; pings.
//!
//! A session is written against any `Stream` of incoming and `Sink` of outgoing [`Message`]s
//! ([`Session::run`]): the upgraded WebSocket in the server, channels in the unit tests below
//! (connection, a move acknowledged and broadcast, refused messages, falling behind, closing),
//! which need no socket; `tests/` drives the real one.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;

use crate::error::{AppError, RoomError};
use crate::http::rooms::{check_move_id, lookup, random_u64, Since};
use crate::http::Caller;
use crate::live::publish::frame;
use crate::live::publish::Published;
use crate::live::{blocking, RoomCell, Update};
use crate::state::AppState;
use dames_room::event::Event;
use dames_room::message::ServerMessage;
use dames_room::room::{AwayAction, AwayRequest, DrawAction, Room};

/// Largest client message (bytes); bigger ones get a `too_large` error.
pub const MAX_MESSAGE: usize = 4 * 1024;
/// Messages beyond this close the connection (the transport refuses them).
const HARD_LIMIT: usize = 64 * 1024;
/// Read buffer of a socket: client messages are small (at most [`MAX_MESSAGE`]); a longer one is
/// read in several pieces. The transport's default (128 KiB, allocated up front) made each idle
/// socket cost about 150 KiB.
const READ_BUFFER: usize = 4 * 1024;
/// Messages are written when the session flushes, once it has nothing more to send at once:
/// the `ack` of a move and its `delta`, or a `delta` and the `turn` that follows it, go out in
/// one write (one system call, one TCP segment) instead of one each. Past this size a write
/// happens without waiting for the flush. The socket has `TCP_NODELAY`.
const WRITE_BUFFER: usize = 64 * 1024;
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
    state
        .limiter
        .take_connect(caller.ip, token.as_deref())
        .await?;
    let slot = state.websockets.open(caller.ip)?;
    let live = state.sessions.subscribe();
    let session = Session {
        state,
        cell,
        token,
        seat: None,
        watching: None,
        you: None,
        sent: 0,
        _slot: slot,
        _live: live,
        ip: caller.ip,
        client: caller.client,
        ping_at: None,
        lag_ms: 0,
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
    /// The room's code while this connection is counted as a spectator of it (it speaks for no
    /// seat: crate::live::public).
    watching: Option<String>,
    /// The seat this connection speaks for (its token's), as of the last state sent.
    you: Option<usize>,
    /// Last version sent.
    sent: i64,
    /// This socket's place in its address's WebSocket count (crate::net::limits).
    _slot: crate::net::limits::Slot,
    /// Held until the session has ended (crate::AppState::sessions).
    _live: tokio::sync::watch::Receiver<()>,
    /// Who connected: the address and browser the limits count.
    ip: std::net::IpAddr,
    client: String,
    /// When the last ping was sent, until its pong comes.
    ping_at: Option<Instant>,
    /// Half the round trip of the last ping answered (ms): the lag credit of this connection's
    /// moves in a room with a clock (at most `dames_room::clock::MAX_LAG_CREDIT_MS`).
    lag_ms: i64,
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
    /// « Confier à un CPU » or « Réclamer la victoire » (dames_room::room, "Away players").
    Away {
        id: Option<String>,
        seat: usize,
        action: AwayAction,
        #[serde(default)]
        level: Option<String>,
    },
    /// A preset phrase (dames_room::phrase), said by a seated person to the room.
    Phrase {
        id: Option<String>,
        phrase: String,
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
            | Self::Rematch { id, .. }
            | Self::Away { id, .. }
            | Self::Phrase { id, .. } => id.as_deref(),
            Self::Ping { .. } | Self::Sync { .. } => None,
        }
    }
}

/// Answers one client message of a WebSocket of room `code` presenting `token`, exactly as a
/// connected session does, without the socket: how the fuzzer (`dames-fuzz`) feeds messages to the
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
        watching: None,
        you: None,
        sent: 0,
        _slot: state.websockets.open(ip)?,
        _live: state.sessions.subscribe(),
        ip,
        client: String::new(),
        ping_at: None,
        lag_ms: 0,
    };
    Ok(session.answer(bytes).await)
}

fn text(msg: &ServerMessage) -> Message {
    Message::Text(frame(msg))
}

/// Sends `msg` on `socket` (and flushes it): `Err` once the peer is gone.
async fn send<S: Sink<Message> + Unpin>(socket: &mut S, msg: Message) -> Result<(), ()> {
    socket.send(msg).await.map_err(drop)
}

/// Queues `msg` on `socket`, written with the next flush (the session flushes whenever it has
/// nothing more ready to send): `Err` once the peer is gone.
async fn feed<S: Sink<Message> + Unpin>(socket: &mut S, msg: Message) -> Result<(), ()> {
    socket.feed(msg).await.map_err(drop)
}

impl Session {
    fn you(&self, room: &Room) -> Option<usize> {
        self.token.as_deref().and_then(|t| room.seat_of_token(t))
    }

    /// Serves one connection until it closes: `socket` yields the client's messages and takes
    /// the server's (the WebSocket; channels in tests).
    async fn run<S, E>(mut self, mut socket: S, since: i64)
    where
        S: Stream<Item = Result<Message, E>> + Sink<Message> + Unpin,
    {
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
                msg = socket.next() => match msg {
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
                        self.ping_at = Some(Instant::now());
                        send(&mut socket, Message::Ping(Default::default())).await
                    }
                }
                // `wait_for`: a session that starts after the signal closes at once too.
                () = async { drop(closing.wait_for(|closing| *closing).await) } => {
                    // 1012 "service restart": the client reconnects (with `since`, after its
                    // backoff) to this node once it is back, or to another behind the proxy.
                    let frame = axum::extract::ws::CloseFrame {
                        code: axum::extract::ws::close_code::RESTART,
                        reason: "server restarting".into(),
                    };
                    let _ = send(&mut socket, Message::Close(Some(frame))).await;
                    Err(())
                }
            };
            // What the step queued goes out now, unless another update is already waiting:
            // it will join the same write.
            if step.is_err() || (updates.is_empty() && socket.flush().await.is_err()) {
                break;
            }
        }
        self.disconnect().await;
    }

    /// Counts the seat online, then sends the missed events and the state.
    async fn connect<S: Sink<Message> + Unpin>(
        &mut self,
        socket: &mut S,
        since: i64,
    ) -> Result<(), ()> {
        self.seat = self
            .state
            .rooms
            .presence(&self.cell, self.token.as_deref(), None, 1)
            .await;
        let (code, version, state) = {
            let room = self.cell.room.lock().await;
            if self.seat.is_none() {
                self.watching = Some(room.code.clone());
            }
            self.you = self.you(&room);
            (
                room.code.clone(),
                room.version,
                ServerMessage::state(&room, self.you, crate::live::now_ms()),
            )
        };
        // `since` 0: the client has no state to bring up to date, and the state below is whole;
        // the room's history would be a database read per connection for nothing (a burst of
        // connections, docs/performance.md).
        if since > 0 && since < version {
            let store = self.state.rooms.store().clone();
            let key = code.clone();
            let rows = blocking(move || store.events_since(&key, since, version))
                .await
                .map_err(drop)?;
            for (version, event) in dames_room::event::read_rows(&code, &rows) {
                let msg = ServerMessage::Event { version, event };
                send(socket, text(&msg)).await?;
            }
        }
        if let Some(code) = &self.watching {
            self.state.public.spectator(&self.cell, code, 1);
        }
        self.sent = version;
        send(socket, text(&state)).await
    }

    async fn disconnect(&mut self) {
        if let Some(code) = self.watching.take() {
            self.state.public.spectator(&self.cell, &code, -1);
        }
        if let Some(seat) = self.seat.take() {
            self.state
                .rooms
                .presence(&self.cell, self.token.as_deref(), Some(seat), -1)
                .await;
        }
    }

    async fn on_update<S: Sink<Message> + Unpin>(
        &mut self,
        socket: &mut S,
        update: Result<Arc<Update>, RecvError>,
    ) -> Result<(), ()> {
        match update.as_deref() {
            Ok(Update::Deleted) => {
                let gone = ServerMessage::error(None, &AppError::UnknownRoom.to_json());
                let _ = send(socket, text(&gone)).await;
                let _ = send(socket, Message::Close(None)).await;
                Err(())
            }
            Ok(Update::Presence { wire, .. } | Update::Phrase { wire }) => {
                feed(socket, Message::Text(wire.clone())).await
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
    async fn on_change<S: Sink<Message> + Unpin>(
        &mut self,
        socket: &mut S,
        events: &[(i64, Event)],
        room: &Room,
        wire: &Published,
    ) -> Result<(), ()> {
        if room.version <= self.sent {
            return Ok(()); // already in the state sent on connection
        }
        // A token's seat can only be lost (left, kicked, or beyond a smaller seat count: a
        // `left` event; moved to another browser: a `moved` event, told with `seat_moved`).
        let lost = |e: &Event| matches!(e, Event::Left { .. } | Event::Moved { .. });
        if self.you.is_some() && events.iter().any(|(_, e)| lost(e)) {
            let you = self.you(room);
            if you != self.you {
                let moved = events
                    .iter()
                    .any(|(_, e)| matches!(e, Event::Moved { seat } if Some(*seat) == self.you));
                self.you = you;
                if moved {
                    let told = ServerMessage::error(None, &AppError::SeatMoved.to_json());
                    socket.send(text(&told)).await.map_err(drop)?;
                }
                return self.send_state(socket, room).await;
            }
        }
        let follows = events.first().map(|(v, _)| *v) == Some(self.sent + 1);
        if !follows {
            return self.send_state(socket, room).await;
        }
        self.sent = room.version;
        feed(socket, Message::Text(wire.delta.clone())).await?;
        match &wire.turn {
            Some((seat, turn)) if self.you == Some(*seat) => {
                feed(socket, Message::Text(turn.clone())).await
            }
            _ => Ok(()),
        }
    }

    async fn send_state<S: Sink<Message> + Unpin>(
        &mut self,
        socket: &mut S,
        room: &Room,
    ) -> Result<(), ()> {
        if room.version < self.sent {
            return Ok(());
        }
        self.sent = room.version;
        self.you = self.you(room);
        // The state carries this connection's legal moves: no `turn` after it.
        let state = ServerMessage::state(room, self.you, crate::live::now_ms());
        send(socket, text(&state)).await
    }

    async fn on_message<S: Sink<Message> + Unpin>(
        &mut self,
        socket: &mut S,
        msg: Message,
    ) -> Result<(), ()> {
        let bytes = match msg {
            Message::Text(t) => t.as_bytes().to_vec(),
            Message::Binary(b) => b.to_vec(),
            Message::Close(_) => return Err(()),
            Message::Pong(_) => {
                // The round trip of the last ping: half of it is the lag of this connection.
                if let Some(at) = self.ping_at.take() {
                    self.lag_ms = i64::try_from(at.elapsed().as_millis() / 2).unwrap_or(i64::MAX);
                }
                return Ok(());
            }
            Message::Ping(_) => return Ok(()),
        };
        match self.answer(&bytes).await {
            None => Ok(()),
            Some(ServerMessage::State { .. }) => {
                // `sync`: the state as this connection sees it, from now on followed by deltas.
                let room = self.cell.room.lock().await.clone();
                self.sent = 0;
                self.send_state(socket, &room).await
            }
            Some(answer) => feed(socket, text(&answer)).await,
        }
    }

    /// Reads one client message and runs it: the `pong`, `ack`, `error` or `state` (for `sync`)
    /// to send back, or `None` when there is nothing to say.
    async fn answer(&self, bytes: &[u8]) -> Option<ServerMessage> {
        if bytes.len() > MAX_MESSAGE {
            return Some(ServerMessage::error(None, &AppError::TooLarge.to_json()));
        }
        match serde_json::from_slice::<ClientMessage>(bytes) {
            Ok(ClientMessage::Ping { .. }) => Some(ServerMessage::Pong),
            Ok(ClientMessage::Sync { .. }) => {
                let room = self.cell.room.lock().await;
                Some(ServerMessage::state(
                    &room,
                    self.you(&room),
                    crate::live::now_ms(),
                ))
            }
            Ok(msg) => match self.limit() {
                Ok(()) => self.act(msg).await,
                Err(err) => Some(ServerMessage::error(msg.id(), &err.to_json())),
            },
            Err(err) => Some(ServerMessage::error(
                None,
                &RoomError::BadJson(err.to_string()).to_json(),
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
                        let (move_id, lag) = (id.clone(), self.lag_ms);
                        self.with_seat(move |room, seat, ch, now| {
                            let input = room.parse_move(&mv)?;
                            let id = move_id.as_deref();
                            Ok(room.play_move_lagged(seat, id, &input, now, lag, ch)?)
                        })
                        .await
                    }
                    Err(err) => Err(err),
                };
                (id, result)
            }
            ClientMessage::Resign { id } => (
                id,
                self.with_seat(|room, seat, ch, now| {
                    Ok(room.resign(seat, now, ch).map(|()| true)?)
                })
                .await,
            ),
            ClientMessage::Draw { id, action } => (
                id,
                self.with_seat(move |room, seat, ch, now| {
                    Ok(room.draw(seat, action, now, ch).map(|()| true)?)
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
                        Ok(room.rematch(seat, ready, random, now, ch).map(|()| true)?)
                    })
                    .await,
                )
            }
            ClientMessage::Away {
                id,
                seat,
                action,
                level,
            } => {
                let req = AwayRequest {
                    seat,
                    action,
                    level,
                };
                (
                    id,
                    self.with_seat(move |room, by, ch, now| {
                        Ok(room.away(by, &req, now, ch).map(|()| true)?)
                    })
                    .await,
                )
            }
            ClientMessage::Phrase { id, phrase } => (id, self.say(&phrase).await),
            ClientMessage::Ping { .. } => return Some(ServerMessage::Pong),
            ClientMessage::Sync { .. } => return None,
        };
        match (result, id) {
            (Ok(applied), Some(id)) => Some(ServerMessage::Ack { id, applied }),
            (Ok(_), None) => None,
            (Err(err), id) => Some(ServerMessage::error(id.as_deref(), &err.to_json())),
        }
    }

    /// Says a preset phrase for this connection's seat.
    async fn say(&self, phrase: &str) -> Result<bool, AppError> {
        let phrase = phrase
            .parse::<dames_room::phrase::Phrase>()
            .map_err(|_| AppError::UnknownPhrase)?;
        let (code, seat) = {
            let room = self.cell.room.lock().await;
            (room.code.clone(), self.you(&room))
        };
        let seat = seat.ok_or(AppError::Room(RoomError::NotSeated))?;
        self.state.rooms.say(&self.cell, &code, seat, phrase)?;
        Ok(true)
    }

    async fn with_seat(
        &self,
        op: impl FnOnce(&mut Room, usize, &mut dames_room::room::Change, i64) -> Result<bool, AppError>,
    ) -> Result<bool, AppError> {
        let token = self.token.clone();
        self.state
            .rooms
            .mutate(&self.cell, move |room, ch, now| {
                let seat = token
                    .as_deref()
                    .and_then(|t| room.seat_of_token(t))
                    .ok_or(AppError::Room(RoomError::NotSeated))?;
                op(room, seat, ch, now)
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    //! The session driven through channels: no socket, no HTTP (`tests/` has those).

    use std::convert::Infallible;
    use std::net::Ipv4Addr;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use futures_channel::mpsc;
    use serde_json::{json, Value};

    use super::*;
    use crate::config::Config;
    use crate::live::tests::{human, new_room};
    use dames_store::MemoryStore;

    /// The session's end of a connection: what the client sent, and where the server's
    /// messages go.
    struct Duplex {
        rx: mpsc::UnboundedReceiver<Result<Message, Infallible>>,
        tx: mpsc::Sender<Message>,
    }

    impl Stream for Duplex {
        type Item = Result<Message, Infallible>;

        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            self.rx.poll_next_unpin(cx)
        }
    }

    impl Sink<Message> for Duplex {
        type Error = mpsc::SendError;

        fn poll_ready(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Result<(), Self::Error>> {
            self.tx.poll_ready_unpin(cx)
        }

        fn start_send(mut self: Pin<&mut Self>, item: Message) -> Result<(), Self::Error> {
            self.tx.start_send_unpin(item)
        }

        fn poll_flush(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Result<(), Self::Error>> {
            self.tx.poll_flush_unpin(cx)
        }

        fn poll_close(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Result<(), Self::Error>> {
            self.tx.poll_close_unpin(cx)
        }
    }

    /// The client's end.
    struct Client {
        to_server: mpsc::UnboundedSender<Result<Message, Infallible>>,
        from_server: mpsc::Receiver<Message>,
        task: tokio::task::JoinHandle<()>,
    }

    impl Client {
        fn send_text(&self, text: String) {
            self.to_server
                .unbounded_send(Ok(Message::Text(text.into())))
                .unwrap();
        }

        fn send(&self, msg: Value) {
            self.send_text(msg.to_string());
        }

        /// The next message of the server but pings (the session pings when it starts).
        async fn next(&mut self) -> Message {
            loop {
                let msg = tokio::time::timeout(Duration::from_secs(10), self.from_server.next())
                    .await
                    .expect("a message in time")
                    .expect("the session is still sending");
                if !matches!(msg, Message::Ping(_)) {
                    return msg;
                }
            }
        }

        /// The next text message, read.
        async fn recv(&mut self) -> Value {
            match self.next().await {
                Message::Text(t) => serde_json::from_str(t.as_str()).unwrap(),
                other => panic!("not a text message: {other:?}"),
            }
        }

        /// Messages up to the first of type `ty`: (it, those before it).
        async fn until(&mut self, ty: &str) -> (Value, Vec<Value>) {
            let mut before = Vec::new();
            loop {
                let msg = self.recv().await;
                if msg["type"] == ty {
                    return (msg, before);
                }
                before.push(msg);
            }
        }

        /// One message of each type of `types`, in that order, whatever order they come in
        /// (others are skipped).
        async fn each(&mut self, types: &[&str]) -> Vec<Value> {
            let mut found: Vec<Option<Value>> = vec![None; types.len()];
            while found.iter().any(Option::is_none) {
                let msg = self.recv().await;
                if let Some(i) = types.iter().position(|t| msg["type"] == *t) {
                    found[i].get_or_insert(msg);
                }
            }
            found.into_iter().flatten().collect()
        }

        /// The next `presence` message about `seat`.
        async fn presence(&mut self, seat: usize) -> Value {
            loop {
                let msg = self.until("presence").await.0;
                if msg["seat"] == seat {
                    return msg;
                }
            }
        }

        /// Whether the server says nothing (but pings and presence) for a moment.
        async fn quiet(&mut self) -> Result<(), Value> {
            loop {
                match tokio::time::timeout(Duration::from_millis(300), self.from_server.next())
                    .await
                {
                    Err(_) | Ok(None) => return Ok(()),
                    Ok(Some(Message::Text(t))) => {
                        let msg: Value = serde_json::from_str(t.as_str()).unwrap();
                        if msg["type"] != "presence" {
                            return Err(msg);
                        }
                    }
                    Ok(Some(_)) => {}
                }
            }
        }
    }

    /// The server's state over an in-memory store, without rate limits.
    async fn app() -> AppState {
        let mut config = Config::new("in-memory");
        config.limits.enabled = false;
        AppState::with_store(Arc::new(MemoryStore::default()), config)
            .await
            .unwrap()
    }

    /// A draughts game between Ana (seat 0, White, to move; token "Ana") and Bo (seat 1,
    /// token "Bo").
    async fn game(state: &AppState) -> Arc<RoomCell> {
        let (cell, ()) = state.rooms.create(new_room).await.unwrap();
        state
            .rooms
            .mutate(&cell, |room, ch, now| {
                room.join(None, human("Bo"), ch)?;
                Ok(room.start(0, now, ch)?)
            })
            .await
            .unwrap();
        cell
    }

    /// A session of `cell` for the holder of `token`, that saw version `since`, whose outgoing
    /// channel holds `buffer` messages (more wait for the client to read).
    fn connect(
        state: &AppState,
        cell: &Arc<RoomCell>,
        token: Option<&str>,
        since: i64,
        buffer: usize,
    ) -> Client {
        let ip = std::net::IpAddr::from(Ipv4Addr::LOCALHOST);
        let session = Session {
            state: state.clone(),
            cell: cell.clone(),
            token: token.map(str::to_owned),
            seat: None,
            watching: None,
            you: None,
            sent: 0,
            _slot: state.websockets.open(ip).unwrap(),
            _live: state.sessions.subscribe(),
            ip,
            client: format!("client-{}", token.unwrap_or("spectator")),
            ping_at: None,
            lag_ms: 0,
        };
        let (to_server, rx) = mpsc::unbounded();
        let (tx, from_server) = mpsc::channel(buffer);
        let task = tokio::spawn(session.run(Duplex { rx, tx }, since));
        Client {
            to_server,
            from_server,
            task,
        }
    }

    async fn version(cell: &RoomCell) -> i64 {
        cell.room.lock().await.version
    }

    #[tokio::test]
    async fn connecting_sends_the_missed_events_in_order_then_the_state() {
        let state = app().await;
        let cell = game(&state).await;
        let v = version(&cell).await;
        let mut ana = connect(&state, &cell, Some("Ana"), 1, 64);
        let (full, missed) = ana.until("state").await;
        let versions: Vec<i64> = missed
            .iter()
            .map(|m| m["version"].as_i64().unwrap())
            .collect();
        assert_eq!(versions, (2..=v).collect::<Vec<_>>());
        assert!(missed.iter().all(|m| m["type"] == "event"));
        assert_eq!(
            missed[0]["event"],
            json!({"kind": "joined", "seat": 1, "name": "Bo"})
        );
        assert_eq!(missed.last().unwrap()["event"]["kind"], "started");
        assert_eq!(
            (full["version"].as_i64(), &full["room"]["you"]),
            (Some(v), &json!(0))
        );
        assert!(!full["room"]["play"]["legal_moves"]
            .as_array()
            .unwrap()
            .is_empty());
        // Up to date, or nothing seen yet (`since` 0): the state alone. A spectator sees no
        // legal moves.
        let mut bo = connect(&state, &cell, Some("Bo"), v, 64);
        assert_eq!(bo.recv().await["type"], "state");
        let mut new = connect(&state, &cell, Some("Bo"), 0, 64);
        assert_eq!(new.recv().await["type"], "state");
        let mut watcher = connect(&state, &cell, None, v, 64);
        let (full, _) = watcher.until("state").await;
        assert_eq!(full["room"]["you"], Value::Null);
        assert_eq!(full["room"]["play"]["legal_moves"], json!([]));
    }

    #[tokio::test]
    async fn a_move_is_acknowledged_and_broadcast_once_with_the_turn_to_the_seat_to_move() {
        let state = app().await;
        let cell = game(&state).await;
        let v = version(&cell).await;
        let mut ana = connect(&state, &cell, Some("Ana"), v, 64);
        let mut bo = connect(&state, &cell, Some("Bo"), v, 64);
        ana.until("state").await;
        bo.until("state").await;
        let mv = json!({"type": "move", "id": "m-1", "move": {"notation": "32-28"}});
        ana.send(mv.clone());
        let [ack, delta_ana] = <[Value; 2]>::try_from(ana.each(&["ack", "delta"]).await).unwrap();
        assert_eq!(ack, json!({"type": "ack", "id": "m-1", "applied": true}));
        let (delta_bo, _) = bo.until("delta").await;
        assert_eq!(delta_ana, delta_bo, "the same delta for everyone");
        assert_eq!(delta_bo["version"], v + 1);
        assert_eq!(delta_bo["events"][0]["event"]["kind"], "move");
        assert_eq!(delta_bo["room"]["play"]["to_move"], 1);
        let (turn, _) = bo.until("turn").await;
        assert_eq!(
            (turn["version"].as_i64(), turn["ply"].as_i64()),
            (Some(v + 1), Some(1))
        );
        assert!(!turn["legal_moves"].as_array().unwrap().is_empty());
        // Resent (after a reconnection): applied once.
        ana.send(mv);
        assert_eq!(
            ana.until("ack").await.0,
            json!({"type": "ack", "id": "m-1", "applied": false})
        );
        assert_eq!(version(&cell).await, v + 1);
        assert_eq!(
            bo.quiet().await,
            Ok(()),
            "no turn for the seat that moved, nothing else"
        );
    }

    #[tokio::test]
    async fn refused_messages_get_typed_errors_and_change_nothing() {
        let state = app().await;
        let cell = game(&state).await;
        let v = version(&cell).await;
        let mut ana = connect(&state, &cell, Some("Ana"), v, 64);
        let mut bo = connect(&state, &cell, Some("Bo"), v, 64);
        let mut watcher = connect(&state, &cell, None, v, 64);
        for c in [&mut ana, &mut bo, &mut watcher] {
            c.until("state").await;
        }
        let code = |msg: &Value| (msg["code"].as_str().unwrap().to_owned(), msg["id"].clone());
        ana.send_text(format!(
            r#"{{"type":"ping","pad":"{}"}}"#,
            "x".repeat(MAX_MESSAGE)
        ));
        assert_eq!(
            code(&ana.until("error").await.0),
            ("too_large".into(), Value::Null)
        );
        ana.send_text("{not json".into());
        assert_eq!(
            code(&ana.until("error").await.0),
            ("bad_json".into(), Value::Null)
        );
        ana.send(json!({"type": "teleport", "id": "t"}));
        assert_eq!(ana.until("error").await.0["code"], "bad_json");
        ana.send(json!({"type": "move", "id": "m-9", "move": {"notation": "99-1"}}));
        assert_eq!(
            code(&ana.until("error").await.0),
            ("illegal_move".into(), json!("m-9"))
        );
        bo.send(json!({"type": "move", "id": "b-1", "move": {"notation": "19-23"}}));
        assert_eq!(
            code(&bo.until("error").await.0),
            ("not_your_turn".into(), json!("b-1"))
        );
        watcher.send(json!({"type": "resign", "id": "w-1"}));
        assert_eq!(
            code(&watcher.until("error").await.0),
            ("not_seated".into(), json!("w-1"))
        );
        ana.send(json!({"type": "rematch", "id": "r-1", "ready": true}));
        assert_eq!(
            code(&ana.until("error").await.0),
            ("wrong_state".into(), json!("r-1"))
        );
        // Still connected, nothing changed, nothing broadcast.
        ana.send(json!({"type": "ping"}));
        assert_eq!(ana.until("pong").await.0, json!({"type": "pong"}));
        assert_eq!(version(&cell).await, v);
        assert_eq!(bo.quiet().await, Ok(()));
        assert_eq!(watcher.quiet().await, Ok(()));
    }

    #[tokio::test]
    async fn a_connection_that_falls_behind_gets_the_full_state_instead() {
        let state = app().await;
        let cell = game(&state).await;
        let v = version(&cell).await;
        // Bo's client reads nothing for a while: its session blocks on its next send. A move
        // is played meanwhile, then more updates come than the room's channel keeps.
        let mut bo = connect(&state, &cell, Some("Bo"), v, 0);
        bo.until("state").await;
        state
            .rooms
            .mutate(&cell, |room, ch, now| {
                let input = room.parse_move(&json!({"notation": "32-28"}))?;
                Ok(room.play_move(0, None, &input, now, ch)?)
            })
            .await
            .unwrap();
        let noise = frame(&ServerMessage::Presence {
            seat: 0,
            online: false,
        });
        for _ in 0..300 {
            let _ = cell.tx.send(Arc::new(Update::Presence {
                seat: 0,
                online: false,
                wire: noise.clone(),
            }));
        }
        // More updates than the room's channel keeps were missed: a state of now, and the
        // move's delta (already in it) is not sent.
        let (full, before) = bo.until("state").await;
        assert!(before.iter().all(|m| m["type"] == "presence"), "{before:?}");
        assert_eq!(full["version"], v + 1);
        assert_eq!(full["room"]["you"], 1);
        assert_eq!(full["room"]["play"]["moves"].as_array().unwrap().len(), 1);
        assert!(!full["room"]["play"]["legal_moves"]
            .as_array()
            .unwrap()
            .is_empty());
        assert_eq!(bo.quiet().await, Ok(()));
    }

    #[tokio::test]
    async fn a_closed_stream_ends_the_session_and_the_seat_goes_offline() {
        let state = app().await;
        let cell = game(&state).await;
        let v = version(&cell).await;
        let mut ana = connect(&state, &cell, Some("Ana"), v, 64);
        ana.until("state").await;
        let mut bo = connect(&state, &cell, Some("Bo"), v, 64);
        bo.until("state").await;
        assert_eq!(
            ana.presence(1).await,
            json!({"type": "presence", "seat": 1, "online": true})
        );
        assert_eq!(cell.room.lock().await.seats[1].connections, 1);
        let Client {
            to_server, task, ..
        } = bo;
        drop(to_server);
        tokio::time::timeout(Duration::from_secs(10), task)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            ana.presence(1).await,
            json!({"type": "presence", "seat": 1, "online": false})
        );
        assert_eq!(cell.room.lock().await.seats[1].connections, 0);
        // The server shutting down closes the others, with 1012 (service restart: reconnect).
        state.closing.send_replace(true);
        let frame = loop {
            if let Message::Close(frame) = ana.next().await {
                break frame;
            }
        };
        assert_eq!(
            frame.map(|f| f.code),
            Some(axum::extract::ws::close_code::RESTART)
        );
        tokio::time::timeout(Duration::from_secs(10), ana.task)
            .await
            .unwrap()
            .unwrap();
        // The drain waits for the sessions: none is left.
        tokio::time::timeout(Duration::from_secs(1), state.sessions.closed())
            .await
            .unwrap();
        // One that starts after the signal closes at once.
        let late = connect(&state, &cell, Some("Bo"), v, 64);
        tokio::time::timeout(Duration::from_secs(10), late.task)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(version(&cell).await, v, "presence is no event");
    }

    #[tokio::test]
    async fn a_reconnect_loop_sends_the_other_players_a_few_presence_messages_not_one_per_flip() {
        let state = app().await;
        let cell = game(&state).await;
        let v = version(&cell).await;
        let mut ana = connect(&state, &cell, Some("Ana"), v, 256);
        ana.until("state").await;
        // Bo's page opens and closes 40 times in about half a second.
        let started = tokio::time::Instant::now();
        for _ in 0..40 {
            state.rooms.presence(&cell, Some("Bo"), None, 1).await;
            state.rooms.presence(&cell, Some("Bo"), Some(1), -1).await;
            tokio::time::sleep(Duration::from_millis(12)).await;
        }
        // Then it stays open: the last message says so.
        state.rooms.presence(&cell, Some("Bo"), None, 1).await;
        let spent = started.elapsed();
        // Everything Ana is sent until nothing more comes for 600 ms.
        let mut seen = Vec::new();
        while let Ok(Some(msg)) =
            tokio::time::timeout(Duration::from_millis(600), ana.from_server.next()).await
        {
            if let Message::Text(t) = msg {
                let msg: Value = serde_json::from_str(t.as_str()).unwrap();
                assert_eq!(msg["type"], "presence", "{msg}");
                seen.push(msg);
            }
        }
        assert_eq!(
            seen.last(),
            Some(&json!({"type": "presence", "seat": 1, "online": true}))
        );
        // One message a PRESENCE_EVERY at most, not 81.
        let most = 2 + (spent.as_millis() / 250) as usize;
        assert!(
            seen.len() <= most,
            "{} messages in {spent:?}: {seen:?}",
            seen.len()
        );
        assert_eq!(version(&cell).await, v, "presence is no event");
    }
}
