//! Rooms leave memory when nobody uses them: memory is bounded by the rooms in use, not by every
//! room ever opened. A room is dropped from the cache once it has been idle (not asked for, not
//! changed) for `evict_after` and nothing else holds its cell: no WebSocket (a session holds the
//! cell for its whole life), no request in progress, no CPU turn (the job holds the cell, and a
//! turn still marked pending keeps the room), and no state the store does not have that still
//! matters (an unexpired link to move a seat, the time a seat left in a live game until the
//! claim of the win is open: `Room::holds_memory_state`). The next [`Rooms::get`] loads it from the store,
//! where every committed change already is, so that a client reconnecting with `since` sees the
//! same versions and events as if the room had stayed.
//!
//! "Nothing else holds the cell" is `Arc::strong_count(cell) == 1` read under the cache's lock:
//! a cell is only ever handed out by cloning it from the cache under that lock, so once the
//! cache's reference is the only one, nobody can lock the room, subscribe to it or change it,
//! and a late `mutate` on an evicted cell cannot exist.

use std::sync::Arc;
use std::time::Duration;

use super::{now_ms, Rooms};

/// Starts the periodic eviction of idle rooms (it stops when the rooms are dropped).
pub(super) fn start(rooms: &Arc<Rooms>) {
    let weak = Arc::downgrade(rooms);
    let every = (rooms.evict_after / 2).clamp(Duration::from_millis(5), Duration::from_secs(30));
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(rooms) = weak.upgrade() else { return };
            let evicted = rooms.evict_idle(now_ms());
            if evicted > 0 {
                tracing::debug!("{evicted} idle rooms left memory");
            }
        }
    });
}

impl Rooms {
    /// Drops from memory the rooms idle since before `now - evict_after` that nothing holds;
    /// returns how many.
    pub fn evict_idle(&self, now: i64) -> usize {
        let cutoff =
            now.saturating_sub(i64::try_from(self.evict_after.as_millis()).unwrap_or(i64::MAX));
        let mut cells = self.cells();
        let before = cells.len();
        cells.retain(|_, cell| {
            let idle = cell.used_at.load(std::sync::atomic::Ordering::Relaxed) < cutoff;
            let held = Arc::strong_count(cell) > 1;
            let cpu_pending = cell.cpu.lock().unwrap_or_else(|e| e.into_inner()).is_some();
            // Nothing holds the cell, so its room is free to look at; a link to move a seat or
            // the time a seat left exist only here (Room::holds_memory_state).
            let memory = || {
                cell.room
                    .try_lock()
                    .map_or(true, |r| r.holds_memory_state(now))
            };
            !idle || held || cpu_pending || memory()
        });
        let evicted = before - cells.len();
        if let Some(probe) = &self.probe {
            probe.count_evicted(evicted);
        }
        evicted
    }

    /// How many rooms are in memory.
    pub fn in_memory(&self) -> usize {
        self.cells().len()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::live::tests::{human, new_room};
    use crate::live::{CommitOptions, RoomCell};
    use dames_ai::Level;
    use dames_room::room::{SeatAction, Status};
    use dames_store::{MemoryStore, RoomStore};

    #[tokio::test]
    async fn a_start_loads_the_games_that_go_on_by_themselves_and_the_others_when_asked_for() {
        let store = Arc::new(MemoryStore::default());
        let options = || CommitOptions {
            evict_after: Duration::from_secs(3600),
            probe: None,
        };
        let before = Rooms::with_options(store.clone(), 1, options());
        // Two people, no clock; a person and a CPU; a lobby.
        let (people, ()) = before.create(new_room).await.unwrap();
        before
            .mutate(&people, |room, ch, now| {
                room.join(None, human("Bo"), ch)?;
                Ok(room.start(1, now, ch)?)
            })
            .await
            .unwrap();
        let (cpu, ()) = before.create(new_room).await.unwrap();
        before
            .mutate(&cpu, |room, ch, now| {
                room.set_seat(1, SeatAction::Cpu(Level::Normal), ch)?;
                Ok(room.start(2, now, ch)?)
            })
            .await
            .unwrap();
        let (lobby, ()) = before.create(new_room).await.unwrap();
        let code = |cell: Arc<RoomCell>| async move { cell.room.lock().await.code.clone() };
        let (people, cpu, lobby) = (code(people).await, code(cpu).await, code(lobby).await);
        before.close();
        before.flush().await;

        let after = Rooms::with_options(store.clone(), 1, options());
        assert_eq!(
            after.restore_all().await.unwrap(),
            1,
            "the game against the CPU"
        );
        assert_eq!(after.in_memory(), 1);
        assert!(after.cells().contains_key(&cpu));
        // The others come back from the store when someone asks, as they were.
        let cell = after.get(&people).await.unwrap();
        assert_eq!(cell.room.lock().await.seat_of_token("Bo"), Some(1));
        assert_eq!(cell.room.lock().await.status, Status::Playing);
        after.get(&lobby).await.unwrap();
        assert_eq!(after.in_memory(), 3);
    }

    #[tokio::test]
    async fn an_idle_room_nothing_holds_leaves_memory_and_comes_back_as_it_was() {
        let store = Arc::new(MemoryStore::default());
        let options = CommitOptions {
            evict_after: Duration::from_secs(3600),
            probe: None,
        };
        let rooms = Rooms::with_options(store.clone(), 1, options);
        let (cell, ()) = rooms.create(new_room).await.unwrap();
        let code = cell.room.lock().await.code.clone();
        rooms
            .mutate(&cell, |room, ch, _| {
                Ok(room.join(None, human("Bo"), ch).map(drop)?)
            })
            .await
            .unwrap();
        let later = now_ms() + 2 * 3600 * 1000;
        // Not idle yet; then idle but held (a connection, a request in progress).
        assert_eq!(rooms.evict_idle(now_ms()), 0);
        assert_eq!(rooms.evict_idle(later), 0);
        drop(cell);
        assert_eq!(rooms.evict_idle(later), 1);
        assert_eq!(rooms.in_memory(), 0);

        let batches = store.batches();
        let cell = rooms.get(&code).await.unwrap();
        {
            let room = cell.room.lock().await;
            assert_eq!(room.version, 2);
            assert_eq!(room.seat_of_token("Bo"), Some(1));
        }
        assert_eq!(store.batches(), batches, "loading writes nothing");
        rooms
            .mutate(&cell, |room, ch, _| Ok(room.leave(1, ch)?))
            .await
            .unwrap();
        assert_eq!(cell.room.lock().await.version, 3);
        assert_eq!(store.load(&code).unwrap().unwrap().room.state.version, 3);
    }
}
