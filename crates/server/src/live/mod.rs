//! The live rooms: one [`RoomCell`] per room in memory (loaded from the store on first use or
//! on start, dropped when idle: `evict`), every change serialised by the room's lock, committed
//! to the store by the group-commit writer (`commit`) before the room is updated in memory and
//! the change broadcast, and CPU turns scheduled on a bounded worker pool (the CPU players in
//! [`cpu`], their pool in [`scheduler`]).

pub mod analysis;
mod clock;
mod commit;
mod cpu;
pub mod cpu_claim;
mod cpu_shared;
mod evict;
mod fanout;
pub mod publish;
pub mod scheduler;
pub mod streams;

mod phrases;
mod presence;
mod presence_cluster;
pub mod public;
mod seats;
mod versions;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::ws::Utf8Bytes;
use futures_util::StreamExt;
use tokio::sync::broadcast;

use crate::error::AppError;
use crate::live::publish::Published;
use dames_room::event::Event;
use dames_room::room::{Change, Room};
use dames_room::token;
use dames_store::{RoomStore, StoreError};

pub use commit::{CommitOptions, CommitProbe, MAX_BATCH};
pub use fanout::{CatchUps, STALE_BOUND, SWEEP_EVERY};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// What is broadcast to the room's connections.
#[derive(Debug)]
pub enum Update {
    /// A committed change.
    Change {
        /// The new events with their versions.
        events: Vec<(i64, Event)>,
        /// The room after the change.
        room: Arc<Room>,
        /// Its messages, serialised once for every connection (built only when someone is
        /// listening: with no receiver, nothing is sent at all).
        wire: Published,
    },
    /// A seat's presence flipped (memory only: no version, nothing stored; see
    /// [`Rooms::presence`]).
    Presence {
        /// The seat.
        seat: usize,
        /// Whether it now has an open connection.
        online: bool,
        /// The `presence` message, serialised once for every connection.
        wire: Utf8Bytes,
    },
    /// A seated person said a preset phrase (memory only, like presence: [`Rooms::say`]).
    Phrase {
        /// The `phrase` message, serialised once for every connection.
        wire: Utf8Bytes,
    },
    /// The room was deleted (retention).
    Deleted,
}

/// Rooms loaded at once when a node starts ([`Rooms::restore_all`]).
const RESTORE_AT_ONCE: usize = 16;

/// A room in memory.
#[derive(Debug)]
pub struct RoomCell {
    /// The room as last committed; its lock serialises changes. A change is made on a copy
    /// and swapped in (`Rooms::mutate`); the same `Arc` goes to the connections and observers
    /// with the change's messages, so that a move copies the room once, not twice.
    pub room: tokio::sync::Mutex<Arc<Room>>,
    /// Updates for the room's WebSocket connections.
    pub tx: broadcast::Sender<Arc<Update>>,
    pub(crate) deleted: AtomicBool,
    /// Cancellation flag of the CPU turn being thought, and which turn it is.
    cpu: Mutex<Option<cpu::CpuTurn>>,
    /// When the room was last asked for or changed (ms; eviction, `evict`).
    used_at: AtomicI64,
    /// The presence last sent of each seat, to coalesce flips (`presence`).
    presence_out: Mutex<HashMap<usize, presence::PresenceOut>>,
    /// The timer of the running clock, if any (`clock`).
    clock: Mutex<Option<clock::ClockTimer>>,
    /// Open WebSockets of this room that speak for no seat, on this node (the spectators the
    /// public lists count, `public`).
    pub(crate) spectators: std::sync::atomic::AtomicU32,
    /// The phrases each seat said lately, on this node (`phrases`).
    phrases: Mutex<HashMap<usize, dames_room::phrase::Budget>>,
    /// Serialises the writes of the seats' away clocks and transfer links (`seats`).
    seat_memory: tokio::sync::Mutex<()>,
}

impl RoomCell {
    fn new(room: Arc<Room>) -> Arc<Self> {
        let (tx, _) = broadcast::channel(256);
        Arc::new(Self {
            room: tokio::sync::Mutex::new(room),
            tx,
            deleted: AtomicBool::new(false),
            cpu: Mutex::new(None),
            used_at: AtomicI64::new(now_ms()),
            presence_out: Mutex::new(HashMap::new()),
            clock: Mutex::new(None),
            spectators: std::sync::atomic::AtomicU32::new(0),
            phrases: Mutex::new(HashMap::new()),
            seat_memory: tokio::sync::Mutex::new(()),
        })
    }

    /// Whether a CPU turn is being thought here.
    fn cpu_turn_running(&self) -> bool {
        self.cpu.lock().unwrap_or_else(|e| e.into_inner()).is_some()
    }

    /// Forgets the CPU turn whose cancellation flag is `cancel` if it is still the current one
    /// (it ended without playing: a later look at the room may start it again).
    fn end_cpu_turn(&self, cancel: &Arc<AtomicBool>) -> bool {
        let mut cpu = self.cpu.lock().unwrap_or_else(|e| e.into_inner());
        match cpu.as_ref() {
            Some(turn) if Arc::ptr_eq(&turn.cancel, cancel) => {
                *cpu = None;
                true
            }
            Some(_) => false,
            None => true,
        }
    }

    /// Sends a seat's preset phrase to the connections of the room on this node (`phrases`,
    /// and a phrase said on another node: `fanout`).
    pub(crate) fn hear(&self, seat: usize, phrase: dames_room::phrase::Phrase) {
        let wire = publish::frame(&dames_room::message::ServerMessage::Phrase { seat, phrase });
        // No receiver is fine: nobody is watching here.
        let _ = self.tx.send(Arc::new(Update::Phrase { wire }));
    }

    fn cancel_cpu(&self) {
        if let Some(turn) = self.cpu.lock().unwrap_or_else(|e| e.into_inner()).take() {
            turn.cancel.store(true, Ordering::Relaxed);
        }
    }
}

/// Every live room, the store, and the CPU worker pool.
pub struct Rooms {
    store: Arc<dyn RoomStore>,
    cells: Mutex<HashMap<String, Arc<RoomCell>>>,
    /// The CPU players' pool (CPU turns and hints).
    scheduler: Arc<scheduler::Scheduler>,
    /// Who plays which game against CPUs (their cap per browser and address).
    cpu_games: cpu::CpuGames,
    /// Set on shutdown: no change is committed any more, CPU players stop.
    closed: AtomicBool,
    /// Called after each committed change with its events (notifications, crate::push; the
    /// live lists, crate::http::events).
    observers: std::sync::RwLock<Vec<Observer>>,
    /// The group-commit writer (`commit`).
    writer: commit::Writer,
    /// Eviction of idle rooms (`evict`).
    evict_after: Duration,
    /// Test hook (`commit`).
    probe: Option<Arc<CommitProbe>>,
    /// Test hook: the codes `fresh_code` gives first (a code another node takes meanwhile).
    #[cfg(test)]
    planted_codes: Mutex<Vec<String>>,
    /// The other nodes (crate::cluster), set once at start; unset: this node is alone.
    cluster: std::sync::OnceLock<Arc<crate::cluster::Cluster>>,
    /// In a cluster: the other nodes counted online in each room held (`presence_cluster`).
    remote_presence: Mutex<HashMap<String, Vec<String>>>,
    /// In a cluster: how the changes of other nodes were caught up on (`fanout`).
    catch_ups: CatchUps,
    /// In a cluster: the rooms whose stored version is asked for, read together (`versions`).
    asked: versions::Asked,
}

/// Sees every committed change: the room after it, its numbered events and where it was made.
pub type Observer = Arc<dyn Fn(&Arc<Room>, &[(i64, Event)], Origin) + Send + Sync>;

/// Where a change was committed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// By this node: its observers act on it (a push is sent by this node only).
    Here,
    /// By another node of the cluster, and caught up here (`fanout`, or the reload after a
    /// conflict): connections and live lists follow it, nothing is sent again.
    Elsewhere,
}

impl std::fmt::Debug for Rooms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rooms").finish_non_exhaustive()
    }
}

/// Runs blocking store work off the async runtime.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, AppError> {
    match tokio::task::spawn_blocking(f).await {
        Ok(result) => result.map_err(AppError::from),
        // Only a runtime shutting down cancels a blocking task: expected, not an error.
        Err(err) if err.is_cancelled() => {
            tracing::debug!("blocking task cancelled by the shutdown");
            Err(AppError::shutting_down())
        }
        Err(err) => Err(AppError::internal("blocking task", err)),
    }
}

impl Rooms {
    /// The rooms over `store`, with `cpu_workers` CPU searches computing at most at once.
    pub fn new(store: Arc<dyn RoomStore>, cpu_workers: usize) -> Arc<Self> {
        Self::with_options(store, cpu_workers, CommitOptions::default())
    }

    /// The rooms over `store` with these commit and cache options. Inside a Tokio runtime,
    /// also starts the eviction of idle rooms.
    pub fn with_options(
        store: Arc<dyn RoomStore>,
        cpu_workers: usize,
        options: CommitOptions,
    ) -> Arc<Self> {
        let rooms = Arc::new(Self {
            writer: commit::Writer::start(store.clone(), options.probe.clone()),
            evict_after: options.evict_after,
            probe: options.probe,
            store,
            cells: Mutex::new(HashMap::new()),
            scheduler: scheduler::Scheduler::new(cpu_workers),
            cpu_games: cpu::CpuGames::default(),
            closed: AtomicBool::new(false),
            observers: std::sync::RwLock::new(Vec::new()),
            cluster: std::sync::OnceLock::new(),
            remote_presence: Mutex::new(HashMap::new()),
            catch_ups: CatchUps::default(),
            asked: versions::Asked::default(),
            #[cfg(test)]
            planted_codes: Mutex::new(Vec::new()),
        });
        if tokio::runtime::Handle::try_current().is_ok() {
            evict::start(&rooms);
        }
        rooms
    }

    /// Makes these rooms one node of a cluster (before serving), and starts looking for the CPU
    /// turns no node thinks (`cpu_claim`). A second call is ignored.
    pub fn join_cluster(self: &Arc<Self>, cluster: Arc<crate::cluster::Cluster>) {
        if self.cluster.set(cluster.clone()).is_ok() {
            self.start_cpu_scan(cluster);
        }
    }

    /// The cluster this node belongs to, if any.
    pub fn cluster(&self) -> Option<&Arc<crate::cluster::Cluster>> {
        self.cluster.get()
    }

    /// Adds an observer of committed changes.
    pub fn observe(&self, observer: Observer) {
        self.observers
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(observer);
    }

    /// Stops every CPU player and refuses every further change (server shutdown): what the
    /// store holds is then final.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        if self.cluster.get().is_some() {
            let c = &self.catch_ups;
            tracing::info!(
                "fan-out: {} changes of other nodes applied, {} rooms reloaded",
                c.applied(),
                c.reloaded()
            );
        }
        for cell in self.cells().values() {
            cell.cancel_cpu();
        }
    }

    /// Completes once every change handed to the writer has been committed and answered (or
    /// its caller has gone). After [`Rooms::close`] no new change comes: the drain's last step.
    pub async fn flush(&self) {
        self.writer.idle().await;
    }

    /// Whether [`Rooms::close`] was called (the server shuts down).
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// The store of the rooms.
    pub fn store(&self) -> &Arc<dyn RoomStore> {
        &self.store
    }

    /// The room with this code if it is held in memory here (never loads it).
    pub(crate) fn held(&self, code: &str) -> Option<Arc<RoomCell>> {
        self.cells().get(code).cloned()
    }

    fn cells(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<RoomCell>>> {
        self.cells.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Loads the rooms whose game goes on with nobody connected — a clock that can fall, a CPU
    /// seat or a CPU standing in for a person (`RoomStore::running_codes`) — and resumes
    /// their clocks and the CPU seats whose turn it is. The other unfinished rooms wait in the
    /// store for their players and are loaded when first asked for ([`Rooms::get`]), as an
    /// evicted room is: a node restarted in a deploy listens after loading only those, and each
    /// node of a cluster holds the rooms its own players use, not every room.
    ///
    /// # Errors
    /// If the store cannot list the rooms.
    pub async fn restore_all(self: &Arc<Self>) -> Result<usize, AppError> {
        let store = self.store.clone();
        let codes = blocking(move || store.running_codes()).await?;
        // Several at a time: each load waits on the store (a round trip to PostgreSQL, a read
        // of SQLite) more than it computes, and a node restarted in a deploy listens only once
        // every room is back (1,000 rooms one by one took 16–41 s on PostgreSQL).
        let mut loads = futures_util::stream::iter(codes)
            .map(|code| async move {
                let loaded = self.get(&code).await;
                (code, loaded)
            })
            .buffer_unordered(RESTORE_AT_ONCE);
        let mut restored = 0;
        while let Some((code, loaded)) = loads.next().await {
            match loaded {
                Ok(_) => restored += 1,
                Err(err) => tracing::error!("room {code} could not be restored: {err}"),
            }
        }
        Ok(restored)
    }

    /// The room with this code (a normalised code), loading it from the store if needed.
    ///
    /// # Errors
    /// `unknown_room`, or `internal` if it cannot be loaded.
    pub async fn get(self: &Arc<Self>, code: &str) -> Result<Arc<RoomCell>, AppError> {
        if let Some(cell) = self.cells().get(code) {
            cell.used_at.store(now_ms(), Ordering::Relaxed);
            return Ok(cell.clone());
        }
        let store = self.store.clone();
        let key = code.to_owned();
        let stored = blocking(move || store.load(&key))
            .await?
            .ok_or(AppError::UnknownRoom)?;
        let room = Room::from_stored(&stored)
            .map_err(|e| AppError::internal(&format!("room {code} cannot be rebuilt"), e))?;
        let cell = {
            let mut cells = self.cells();
            cells
                .entry(code.to_owned())
                .or_insert_with(|| RoomCell::new(Arc::new(room)))
                .clone()
        };
        let snapshot = cell.room.lock().await.clone();
        self.after_change(&cell, &snapshot);
        if self.cluster.get().is_some() {
            // Who is connected to it on the other nodes.
            tokio::spawn(
                self.clone()
                    .recompute_presence(cell.clone(), code.to_owned()),
            );
        }
        Ok(cell)
    }

    /// Stores a new room under a fresh code and returns its cell.
    ///
    /// # Errors
    /// `internal` if the store fails.
    pub async fn create<R>(
        self: &Arc<Self>,
        make: impl FnOnce(String, &mut Change, i64) -> Result<(Room, R), AppError>,
    ) -> Result<(Arc<RoomCell>, R), AppError> {
        let code = self.fresh_code().await?;
        let now = now_ms();
        let mut ch = Change::default();
        let (made, out) = make(code, &mut ch, now)?;
        // A `conflict` is a code taken since `fresh_code` looked (by another node): the same
        // room under another fresh code (nothing of the refused one was written).
        let mut tries = 0;
        let (room, (events, note)) = loop {
            let mut room = made.clone();
            if tries > 0 {
                room.code = self.fresh_code().await?;
            }
            match self.persist(None, &mut room, ch.clone(), now).await {
                Ok(done) => break (room, done),
                Err(AppError::Conflict) if tries < 3 => tries += 1,
                Err(err) => return Err(err),
            }
        };
        let room = Arc::new(room);
        let cell = RoomCell::new(room.clone());
        self.cells().insert(room.code.clone(), cell.clone());
        self.publish(&cell, events, room, note);
        Ok((cell, out))
    }

    async fn fresh_code(&self) -> Result<String, AppError> {
        #[cfg(test)]
        if let Some(code) = self.planted_codes.lock().unwrap().pop() {
            return Ok(code);
        }
        loop {
            let code = token::random_code();
            if self.cells().contains_key(&code) {
                continue;
            }
            let store = self.store.clone();
            let probe = code.clone();
            if !blocking(move || store.exists(&probe)).await? {
                return Ok(code);
            }
        }
    }

    /// Applies `f` to a copy of the room; if it succeeds and changed something, commits the
    /// change, then updates the room and broadcasts. Returns what `f` returned.
    ///
    /// # Errors
    /// What `f` returned, `unknown_room` for a deleted room, `internal` if the store fails (the
    /// room is then unchanged).
    pub async fn mutate<R>(
        self: &Arc<Self>,
        cell: &Arc<RoomCell>,
        f: impl FnOnce(&mut Room, &mut Change, i64) -> Result<R, AppError>,
    ) -> Result<R, AppError> {
        let mut guard = cell.room.lock().await;
        if cell.deleted.load(Ordering::Relaxed) {
            return Err(AppError::UnknownRoom);
        }
        if self.closed.load(Ordering::SeqCst) {
            return Err(AppError::shutting_down());
        }
        // The one copy of a change: refused or failed, it is dropped and the room is as it was.
        let mut next = Room::clone(&guard);
        let mut ch = Change::default();
        let now = now_ms();
        let out = match f(&mut next, &mut ch, now) {
            Ok(out) => out,
            Err(err) => return Err(self.refused(cell, guard, err).await),
        };
        if ch.events.is_empty() && ch.actions.is_empty() {
            *guard = Arc::new(next);
            return Ok(out);
        }
        let (events, note) = match self.persist(Some(&guard), &mut next, ch, now).await {
            Ok(done) => done,
            Err(AppError::Conflict) => {
                // The stored room moved on without this copy (another node): nothing was
                // applied; take the stored room and catch the connections up.
                if let Some((events, room)) = self.reload(&mut guard).await {
                    drop(guard);
                    let room = self.broadcast(cell, events, room, Origin::Elsewhere);
                    self.after_change(cell, &room);
                }
                return Err(AppError::Conflict);
            }
            Err(err) => return Err(err),
        };
        cell.used_at.store(now, Ordering::Relaxed);
        let next = Arc::new(next);
        *guard = next.clone();
        drop(guard);
        self.publish(cell, events, next, note);
        Ok(out)
    }

    /// Replaces a stale room with the stored one; returns the events it had missed (to
    /// publish) and the room. `None` (logged) if it cannot be loaded or rebuilt: the room stays
    /// as it was and the next change conflicts again.
    async fn reload(&self, room: &mut Arc<Room>) -> Option<(Vec<(i64, Event)>, Arc<Room>)> {
        self.reload_from(room, false).await
    }

    /// An action refused on this node's copy of the room. In a cluster the copy may be behind
    /// a change of another node not caught up yet (fan-out takes a few milliseconds): if the
    /// store has a newer room, it is taken (the connections caught up) and the refusal becomes
    /// `conflict` (the client tries again on the room as it now is); else `err` stands.
    async fn refused(
        self: &Arc<Self>,
        cell: &Arc<RoomCell>,
        mut guard: tokio::sync::MutexGuard<'_, Arc<Room>>,
        err: AppError,
    ) -> AppError {
        if self.cluster.get().is_none() {
            return err;
        }
        let Some((events, room)) = self.reload_from(&mut guard, true).await else {
            return err;
        };
        drop(guard);
        let room = self.broadcast(cell, events, room, Origin::Elsewhere);
        self.after_change(cell, &room);
        AppError::Conflict
    }

    /// [`Rooms::reload`]; with `newer_only`, `None` (the room unchanged) if the store holds no
    /// newer version.
    async fn reload_from(
        &self,
        room: &mut Arc<Room>,
        newer_only: bool,
    ) -> Option<(Vec<(i64, Event)>, Arc<Room>)> {
        let store = self.store.clone();
        let (code, since) = (room.code.clone(), room.version);
        let loaded = blocking(move || {
            let Some(stored) = store.load(&code)? else {
                return Ok(None);
            };
            let events = store.events_since(&code, since, stored.room.state.version)?;
            Ok(Some((stored, events)))
        })
        .await;
        let (stored, rows) = match loaded {
            Ok(Some((stored, _))) if newer_only && stored.room.state.version <= since => {
                return None
            }
            Ok(Some(loaded)) => loaded,
            Ok(None) => return None,
            // A node stopping (a deploy): the room is left as it is, nothing to report.
            Err(err) if err.is_shutting_down() => return None,
            Err(err) => {
                tracing::error!(
                    "room {}: reloading after a conflict failed: {err}",
                    room.code
                );
                return None;
            }
        };
        let mut fresh = match Room::from_stored(&stored) {
            Ok(fresh) => fresh,
            Err(err) => {
                tracing::error!("room {} cannot be rebuilt: {err}", room.code);
                return None;
            }
        };
        // Who is connected here is this node's memory, not the database's.
        fresh.keep_memory_of(&room.seats);
        let events = dames_room::event::read_rows(&room.code, &rows);
        crate::metrics::METRICS.reloads.inc();
        let fresh = Arc::new(fresh);
        *room = fresh.clone();
        Some((events, fresh))
    }

    /// A change committed here: to the observers, the connections, the other nodes (`note`,
    /// in a cluster), then the CPU players.
    fn publish(
        self: &Arc<Self>,
        cell: &Arc<RoomCell>,
        events: Vec<(i64, Event)>,
        room: Arc<Room>,
        note: Option<String>,
    ) {
        let room = self.broadcast(cell, events, room, Origin::Here);
        if let Some(note) = note {
            self.send_note(&room.code, note);
        }
        self.after_change(cell, &room);
    }

    /// Gives a committed change to the observers and the room's connections.
    fn broadcast(
        &self,
        cell: &Arc<RoomCell>,
        events: Vec<(i64, Event)>,
        room: Arc<Room>,
        origin: Origin,
    ) -> Arc<Room> {
        for observer in self
            .observers
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            observer(&room, &events, origin);
        }
        // Nobody listening: nothing to build, and no receiver is fine.
        if cell.tx.receiver_count() > 0 {
            let wire = Published::new(&events, &room);
            let _ = cell.tx.send(Arc::new(Update::Change {
                events,
                room: room.clone(),
                wire,
            }));
        }
        room
    }

    /// Deletes a room (retention): from the store, from memory, and tells its connections.
    ///
    /// # Errors
    /// `internal` if the store fails.
    pub async fn delete(self: &Arc<Self>, code: &str) -> Result<(), AppError> {
        let store = self.store.clone();
        let key = code.to_owned();
        let Some(cell) = self.cells().get(code).cloned() else {
            return blocking(move || store.delete(&key)).await;
        };
        let _guard = cell.room.lock().await;
        blocking(move || store.delete(&key)).await?;
        self.drop_deleted(code, &cell);
        self.announce_deleted(code);
        Ok(())
    }

    /// A deleted room (here or by another node, `fanout`), its lock held: out of memory, its CPU
    /// turn stopped, its connections told.
    fn drop_deleted(&self, code: &str, cell: &Arc<RoomCell>) {
        self.cells().remove(code);
        cell.deleted.store(true, Ordering::Relaxed);
        cell.cancel_cpu();
        if let Some(place) = self.cpu_games.forget(code) {
            self.release_shared(place);
        }
        let _ = cell.tx.send(Arc::new(Update::Deleted));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use dames_room::game::GameKind;
    use dames_room::room::{Occupant, Settings, SettingsInput};

    /// A person named `name` whose seat token is their name.
    pub fn human(name: &str) -> Occupant {
        Occupant::Human {
            name: name.into(),
            token_hash: dames_room::token::hash_token(name),
            client: Some(format!("client-{name}")),
        }
    }

    /// What `Rooms::create` makes: a draughts room with Ana on seat 0.
    pub fn new_room(code: String, ch: &mut Change, now: i64) -> Result<(Room, ()), AppError> {
        let (settings, seats) = Settings::new(GameKind::Draughts, &SettingsInput::default())?;
        let room = Room::new(code, GameKind::Draughts, settings, seats, human("Ana"), now);
        ch.events.push(Event::Joined {
            name: "Ana".into(),
            seat: 0,
        });
        Ok((room, ()))
    }
}
