//! Who is connected to a room (like lila-ws's crowd): each seat's open WebSockets counted in
//! memory, the flips of a seat's presence broadcast to the room as their own `presence`
//! message. Never stored, never an event, never a version bump: (re)connecting costs no write,
//! even after a restart when every client comes back at once — but for a person coming back to
//! a seat a CPU was playing for them (dames_room::room, "Away players"): taking it back is an event.
//!
//! A seat's flips are **coalesced**: at most one `presence` message per seat every
//! [`PRESENCE_EVERY`]. A flip inside that time is sent when it ends, as the seat then is (and
//! not at all if it flipped back), so a reconnect loop cannot flood the other players' pages.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{RoomCell, Rooms, Update};
use crate::live::publish::frame;
use dames_room::message::ServerMessage;

impl Rooms {
    /// A connection presenting `token` opened (`delta` 1) or closed (-1). Counts it for the
    /// token's seat — on closing, only if `seat` is still that token's (a seat left or kicked
    /// since then was reset and may be someone else's now) — and broadcasts the seat's presence
    /// when it flips. Returns the seat counted (`None`: a spectator, or nothing counted).
    pub async fn presence(
        self: &Arc<Self>,
        cell: &Arc<RoomCell>,
        token: Option<&str>,
        seat: Option<usize>,
        delta: i32,
    ) -> Option<usize> {
        let token = token?;
        let mut guard = cell.room.lock().await;
        if cell.deleted.load(Ordering::Relaxed) {
            return None;
        }
        let found = guard.seat_of_token(token)?;
        if seat.is_some_and(|s| s != found) {
            return None;
        }
        // The connection counts are this node's memory of the room: they change on the room
        // held, not on a copy (the copies already sent with earlier changes keep theirs).
        let room = Arc::make_mut(&mut guard);
        // A person coming back to a seat a CPU plays for them takes it back at once.
        let returns = delta > 0 && room.seats[found].stand_in.is_some();
        let here_before = room.seats[found].connections > 0;
        let flipped = room.presence(found, delta, super::now_ms());
        let here = room.seats[found].connections > 0;
        if here != here_before {
            self.share_presence(&room.code, found, here);
        }
        if flipped.is_some() {
            self.send_presence(cell, found, here_or_elsewhere(room, found));
        }
        // The away clock started or stopped: stored, so that a restart or another node keeps it.
        let store_clock = flipped.is_some() && super::seats::away_clock_counts(room);
        drop(guard);
        if store_clock {
            self.save_seat_memory_later(cell);
        }
        if returns {
            let back = self
                .mutate(cell, move |room, ch, _| Ok(room.take_back(found, ch)))
                .await;
            if let Err(err) = back {
                tracing::warn!("seat {found} could not be taken back: {err}");
            }
        }
        Some(found)
    }

    /// Tells the room's connections that `seat` is now `online`, coalesced: at once if its last
    /// message is [`PRESENCE_EVERY`] old, else once that time is over, as the seat then is.
    /// Called under the room's lock.
    pub(super) fn send_presence(self: &Arc<Self>, cell: &Arc<RoomCell>, seat: usize, online: bool) {
        let now = Instant::now();
        let mut out = cell.presence_out.lock().unwrap_or_else(|e| e.into_inner());
        let last = out.entry(seat).or_insert(PresenceOut {
            at: now - PRESENCE_EVERY,
            online: !online,
            due: false,
        });
        if last.due {
            return;
        }
        let wait = (last.at + PRESENCE_EVERY).saturating_duration_since(now);
        if wait.is_zero() {
            if last.online != online {
                *last = PresenceOut {
                    at: now,
                    online,
                    due: false,
                };
                broadcast_presence(cell, seat, online);
            }
            return;
        }
        last.due = true;
        drop(out);
        let cell = cell.clone();
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            let room = cell.room.lock().await;
            if cell.deleted.load(Ordering::Relaxed) {
                return;
            }
            let online = here_or_elsewhere(&room, seat);
            let mut out = cell.presence_out.lock().unwrap_or_else(|e| e.into_inner());
            let Some(last) = out.get_mut(&seat) else {
                return;
            };
            last.due = false;
            if last.online != online {
                (last.at, last.online) = (Instant::now(), online);
                broadcast_presence(&cell, seat, online);
            }
        });
    }
}

/// The least time between two `presence` messages about one seat.
pub const PRESENCE_EVERY: Duration = Duration::from_millis(250);

/// The presence last sent about a seat.
#[derive(Debug, Clone, Copy)]
pub(super) struct PresenceOut {
    at: Instant,
    online: bool,
    /// A message is due at the end of the current [`PRESENCE_EVERY`].
    due: bool,
}

/// Whether `seat` has a connection, here or on another node.
fn here_or_elsewhere(room: &dames_room::room::Room, seat: usize) -> bool {
    room.seats
        .get(seat)
        .is_some_and(dames_room::room::Seat::online)
}

fn broadcast_presence(cell: &RoomCell, seat: usize, online: bool) {
    let wire = frame(&ServerMessage::Presence { seat, online });
    // No receiver is fine: nobody else is watching.
    let _ = cell
        .tx
        .send(Arc::new(Update::Presence { seat, online, wire }));
}
