//! What seats hold between a room's changes — the away clock (when a seat's last connection
//! closed) and a pending link moving the seat to another browser — written to the store beside
//! the room's changes (`RoomStore::save_seat_memory`), so that a restart keeps them and every
//! node of a cluster can read them (docs/storage.md, "seats"). Neither is an event: writing
//! them changes no version and tells no connection.
//!
//! The away clock is written when a seat of a live game in play goes away or comes back
//! (presence flips are few: see `presence`), a transfer link before it is answered. The writes
//! of one room are serialised and each reads the room when its turn comes, so the last one
//! written is the latest state.

use std::sync::Arc;

use super::{blocking, RoomCell, Rooms};
use crate::error::AppError;
use dames_room::room::{Room, Status};
use dames_room::settings::Rhythm;

impl Rooms {
    /// Writes the away clocks and transfer links of `cell`'s seats as they are now.
    ///
    /// # Errors
    /// `internal` if the store fails.
    pub async fn save_seat_memory(&self, cell: &Arc<RoomCell>) -> Result<(), AppError> {
        let _turn = cell.seat_memory.lock().await;
        let (code, rows) = {
            let room = cell.room.lock().await;
            let rows: Vec<_> = (room.seat_rows().into_iter())
                .filter(|r| r.kind == "human")
                .collect();
            (room.code.clone(), rows)
        };
        if rows.is_empty() {
            return Ok(());
        }
        let store = self.store.clone();
        blocking(move || store.save_seat_memory(&code, &rows)).await
    }

    /// [`Rooms::save_seat_memory`] in a task of its own (a presence flip does not wait for it);
    /// a failure is logged: the clock is then the one this node keeps until the next write.
    pub(super) fn save_seat_memory_later(self: &Arc<Self>, cell: &Arc<RoomCell>) {
        let (rooms, cell) = (self.clone(), cell.clone());
        tokio::spawn(async move {
            if let Err(err) = rooms.save_seat_memory(&cell).await {
                tracing::warn!("the away clock of a room could not be stored: {err}");
            }
        });
    }

    /// Reads the seats' transfer links from the store into `cell`: a link made through
    /// another node of the cluster, which this node's copy of the room does not know. Only for
    /// a seat still held by the same person (the same seat token).
    ///
    /// # Errors
    /// `internal` if the store fails.
    pub async fn read_transfers(&self, cell: &Arc<RoomCell>) -> Result<(), AppError> {
        let code = cell.room.lock().await.code.clone();
        let store = self.store.clone();
        let Some(stored) = blocking(move || store.load(&code)).await? else {
            return Ok(());
        };
        // The seats' rows only: no game replayed for a link.
        Arc::make_mut(&mut *cell.room.lock().await).take_stored_transfers(&stored.seats);
        Ok(())
    }
}

/// Whether the away clock of `room` matters (and so is stored): a live game being played.
pub(super) fn away_clock_counts(room: &Room) -> bool {
    room.settings.rhythm == Rhythm::Live && room.status == Status::Playing
}
