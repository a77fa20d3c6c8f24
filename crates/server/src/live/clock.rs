//! The timers of the clocks (docs/protocol.md "Clocks", docs/cluster.md "Clocks"): a room held
//! in memory whose game has a running clock has one timer, set at the room's
//! `Room::flag_deadline` after each change (`after_change`: a commit here, a change of another
//! node caught up, a reload, and the load of the room itself). When it fires, the flag is
//! committed through [`Rooms::mutate`] as any change (`Room::flag`), and published. A change
//! that moves the deadline (a move, the end of the game) replaces the timer.
//!
//! - **A restart**: every game being played with a clock is loaded at start
//!   (`Rooms::restore_all`, with the games against CPUs), which sets
//!   its timer; a deadline already past fires at once, so the flag of a game whose time ran out
//!   while the server was down falls as soon as it is back. A room loaded later (evicted, or
//!   asked for on another node) gets its timer the same way.
//! - **Several nodes**: each node holding the room sets the same timer (the deadline is computed
//!   from the room alone). The first to commit the flag wins; the other's commit is refused by
//!   the version check (`conflict`, the room reloaded) or, if it has caught the change up
//!   already, `Room::flag` refuses (`over`): a double firing changes nothing.
//! - A timer holds its room's cell, so a room with a running clock is not evicted.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::{now_ms, RoomCell, Rooms};
use crate::error::AppError;
use dames_room::Room;

/// The timer of a room's clock: the deadline it fires at, and its task.
#[derive(Debug)]
pub(super) struct ClockTimer {
    /// The game and the deadline (Unix ms).
    key: (i64, i64),
    task: tokio::task::AbortHandle,
}

impl Rooms {
    /// After each change of `room`: the timer of its running clock, if any, set at its flag
    /// deadline (left as it is when the deadline did not move).
    pub(super) fn arm_clock(self: &Arc<Self>, cell: &Arc<RoomCell>, room: &Room) {
        let key = room
            .flag_deadline()
            .filter(|_| !self.closed.load(Ordering::SeqCst))
            .map(|deadline| (room.game_no, deadline));
        let mut timer = cell.clock.lock().unwrap_or_else(|e| e.into_inner());
        if timer.as_ref().map(|t| t.key) == key {
            return;
        }
        if let Some(old) = timer.take() {
            old.task.abort();
        }
        let Some(key) = key else { return };
        let task = tokio::spawn(self.clone().fire(cell.clone(), key));
        *timer = Some(ClockTimer {
            key,
            task: task.abort_handle(),
        });
    }

    /// Waits for the deadline of `key`, then commits the flag.
    async fn fire(self: Arc<Self>, cell: Arc<RoomCell>, key: (i64, i64)) {
        loop {
            let wait = key.1 - now_ms();
            if wait <= 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(wait.unsigned_abs())).await;
        }
        {
            // This timer is done: the change it commits sets the next one, if any.
            let mut timer = cell.clock.lock().unwrap_or_else(|e| e.into_inner());
            if timer.as_ref().is_some_and(|t| t.key == key) {
                *timer = None;
            }
        }
        let result = self
            .mutate(&cell, |room, ch, now| Ok(room.flag(now, ch)?))
            .await;
        match result {
            Ok(seat) => {
                tracing::debug!("flag of seat {seat} fell at {} (due {})", now_ms(), key.1);
            }
            // Another node committed it first, or the game changed meanwhile (a move that came
            // in time, the end of the game): the room as it is now sets its timer, if any.
            Err(AppError::Conflict | AppError::Room(_)) => {
                let room = cell.room.lock().await.clone();
                self.arm_clock(&cell, &room);
            }
            Err(err) => tracing::warn!("flag not committed: {err}"),
        }
    }
}
