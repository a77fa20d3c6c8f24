//! Who is connected to a room (like lila-ws's crowd): each seat's open WebSockets counted in
//! memory, the flips of a seat's presence broadcast to the room as their own `presence`
//! message. Never stored, never an event, never a version bump: (re)connecting costs no write,
//! even after a restart when every client comes back at once — but for a person coming back to
//! a seat a CPU was playing for them (dames_room::room, "Away players"): taking it back is an event.

use std::sync::atomic::Ordering;
use std::sync::Arc;

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
        let mut room = cell.room.lock().await;
        if cell.deleted.load(Ordering::Relaxed) {
            return None;
        }
        let found = room.seat_of_token(token)?;
        if seat.is_some_and(|s| s != found) {
            return None;
        }
        // A person coming back to a seat a CPU plays for them takes it back at once.
        let returns = delta > 0 && room.seats[found].stand_in.is_some();
        let here_before = room.seats[found].connections > 0;
        let flipped = room.presence(found, delta, super::now_ms());
        let here = room.seats[found].connections > 0;
        if here != here_before {
            self.share_presence(&room.code, found, here);
        }
        if let Some(online) = flipped {
            let wire = frame(&ServerMessage::Presence {
                seat: found,
                online,
            });
            // No receiver is fine: nobody else is watching.
            let _ = cell.tx.send(Arc::new(Update::Presence {
                seat: found,
                online,
                wire,
            }));
        }
        drop(room);
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
}
