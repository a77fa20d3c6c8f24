//! The live rooms: one [`RoomCell`] per room in memory (loaded from the store on first use or
//! on start, dropped when idle: `evict`), every change serialised by the room's lock, committed
//! to the store by the group-commit writer (`commit`) before the room is updated in memory and
//! the change broadcast, and CPU turns scheduled on a bounded worker pool.

mod commit;
mod evict;

mod presence;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::extract::ws::Utf8Bytes;
use serde_json::Value;
use tokio::sync::{broadcast, Semaphore};

use crate::error::AppError;
use crate::game::MoveInput;
use crate::protocol::LegalMove;
use crate::room::{Change, Room};
use crate::store::{Store, StoreError};
use crate::token;

pub use commit::{CommitOptions, CommitProbe, MAX_BATCH};

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
        events: Vec<(i64, Value)>,
        /// The room after the change.
        room: Arc<Room>,
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
    /// The room was deleted (retention).
    Deleted,
}

/// A room in memory.
#[derive(Debug)]
pub struct RoomCell {
    /// The room; its lock serialises changes.
    pub room: tokio::sync::Mutex<Room>,
    /// Updates for the room's WebSocket connections.
    pub tx: broadcast::Sender<Arc<Update>>,
    pub(crate) deleted: AtomicBool,
    /// Cancellation flag of the CPU turn being thought, and which turn it is.
    cpu: Mutex<Option<CpuTurn>>,
    /// When the room was last asked for or changed (ms; eviction, `evict`).
    used_at: AtomicI64,
}

#[derive(Debug)]
struct CpuTurn {
    key: (i64, i64),
    cancel: Arc<AtomicBool>,
}

impl RoomCell {
    fn new(room: Room) -> Arc<Self> {
        let (tx, _) = broadcast::channel(256);
        Arc::new(Self {
            room: tokio::sync::Mutex::new(room),
            tx,
            deleted: AtomicBool::new(false),
            cpu: Mutex::new(None),
            used_at: AtomicI64::new(now_ms()),
        })
    }

    fn cancel_cpu(&self) {
        if let Some(turn) = self.cpu.lock().unwrap_or_else(|e| e.into_inner()).take() {
            turn.cancel.store(true, Ordering::Relaxed);
        }
    }
}

/// Every live room, the store, and the CPU worker pool.
pub struct Rooms {
    store: Arc<dyn Store>,
    cells: Mutex<HashMap<String, Arc<RoomCell>>>,
    cpu_permits: Arc<Semaphore>,
    /// When each (room code, seat) last asked for a hint (rate limit; pruned as it grows).
    hint_times: Mutex<HashMap<(String, usize), Instant>>,
    /// Set on shutdown: no change is committed any more, CPU players stop.
    closed: AtomicBool,
    /// Called after each committed change with its events (notifications, crate::push).
    observer: std::sync::OnceLock<Observer>,
    /// The group-commit writer (`commit`).
    writer: commit::Writer,
    /// Eviction of idle rooms (`evict`).
    evict_after: Duration,
    /// Test hook (`commit`).
    probe: Option<Arc<CommitProbe>>,
}

/// Sees every committed change: the room after it and its numbered events.
pub type Observer = Arc<dyn Fn(&Arc<Room>, &[(i64, Value)]) + Send + Sync>;

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
        Err(err) => Err(AppError::internal("blocking task", err)),
    }
}

impl Rooms {
    /// The rooms over `store`, with `cpu_workers` CPU players thinking at most at once.
    pub fn new(store: Arc<dyn Store>, cpu_workers: usize) -> Arc<Self> {
        Self::with_options(store, cpu_workers, CommitOptions::default())
    }

    /// The rooms over `store` with these commit and cache options. Inside a Tokio runtime,
    /// also starts the eviction of idle rooms.
    pub fn with_options(
        store: Arc<dyn Store>,
        cpu_workers: usize,
        options: CommitOptions,
    ) -> Arc<Self> {
        let rooms = Arc::new(Self {
            writer: commit::Writer::start(store.clone(), options.probe.clone()),
            evict_after: options.evict_after,
            probe: options.probe,
            store,
            cells: Mutex::new(HashMap::new()),
            cpu_permits: Arc::new(Semaphore::new(cpu_workers.max(1))),
            hint_times: Mutex::new(HashMap::new()),
            closed: AtomicBool::new(false),
            observer: std::sync::OnceLock::new(),
        });
        if tokio::runtime::Handle::try_current().is_ok() {
            evict::start(&rooms);
        }
        rooms
    }

    /// Sets the observer of committed changes (once; later calls are ignored).
    pub fn observe(&self, observer: Observer) {
        let _ = self.observer.set(observer);
    }

    /// Stops every CPU player and refuses every further change (server shutdown): what the
    /// store holds is then final.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        for cell in self.cells().values() {
            cell.cancel_cpu();
        }
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    fn cells(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<RoomCell>>> {
        self.cells.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Loads every unfinished room and resumes the CPU seats whose turn it is.
    ///
    /// # Errors
    /// If the store cannot list the rooms.
    pub async fn restore_all(self: &Arc<Self>) -> Result<usize, AppError> {
        let store = self.store.clone();
        let codes = blocking(move || store.live_codes()).await?;
        let mut restored = 0;
        for code in codes {
            match self.get(&code).await {
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
                .or_insert_with(|| RoomCell::new(room))
                .clone()
        };
        let snapshot = Arc::new(cell.room.lock().await.clone());
        self.after_change(&cell, &snapshot);
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
        let (mut room, out) = make(code.clone(), &mut ch, now)?;
        let events = self.persist(None, &mut room, ch, now).await?;
        let cell = RoomCell::new(room.clone());
        self.cells().insert(code, cell.clone());
        self.publish(&cell, events, room);
        Ok((cell, out))
    }

    async fn fresh_code(&self) -> Result<String, AppError> {
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
            return Err(AppError::WrongState("the server is shutting down".into()));
        }
        let mut next = guard.clone();
        let mut ch = Change::default();
        let now = now_ms();
        let out = f(&mut next, &mut ch, now)?;
        if ch.events.is_empty() && ch.actions.is_empty() {
            *guard = next;
            return Ok(out);
        }
        let events = self.persist(Some(&guard), &mut next, ch, now).await?;
        cell.used_at.store(now, Ordering::Relaxed);
        *guard = next.clone();
        drop(guard);
        self.publish(cell, events, next);
        Ok(out)
    }

    fn publish(self: &Arc<Self>, cell: &Arc<RoomCell>, events: Vec<(i64, Value)>, room: Room) {
        let room = Arc::new(room);
        if let Some(observer) = self.observer.get() {
            observer(&room, &events);
        }
        // No receiver is fine: nobody is watching.
        let _ = cell.tx.send(Arc::new(Update::Change {
            events,
            room: room.clone(),
        }));
        self.after_change(cell, &room);
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
        self.cells().remove(code);
        cell.deleted.store(true, Ordering::Relaxed);
        cell.cancel_cpu();
        let _ = cell.tx.send(Arc::new(Update::Deleted));
        Ok(())
    }

    /// After each change: cancel a CPU that has nothing left to do, start one whose turn it is.
    fn after_change(self: &Arc<Self>, cell: &Arc<RoomCell>, room: &Arc<Room>) {
        let cpu = room
            .cpu_to_move()
            .filter(|_| !self.closed.load(Ordering::SeqCst));
        let Some((seat, level)) = cpu else {
            cell.cancel_cpu();
            return;
        };
        let key = (room.game_no, room.play.as_ref().map_or(0, |p| p.log_len));
        let cancel = {
            let mut cpu = cell.cpu.lock().unwrap_or_else(|e| e.into_inner());
            if cpu.as_ref().is_some_and(|t| t.key == key) {
                return;
            }
            if let Some(old) = cpu.take() {
                old.cancel.store(true, Ordering::Relaxed);
            }
            let cancel = Arc::new(AtomicBool::new(false));
            *cpu = Some(CpuTurn {
                key,
                cancel: cancel.clone(),
            });
            cancel
        };
        let job = CpuJob {
            rooms: self.clone(),
            cell: cell.clone(),
            room: room.clone(),
            seat,
            level,
            key,
            cancel,
        };
        tokio::spawn(job.run());
    }
}

/// Think time of a hint: short, so that the answer feels immediate, but at the strong level.
pub const HINT_TIME: Duration = Duration::from_millis(300);
/// The level hints are computed at.
pub const HINT_LEVEL: dames_ai::Level = dames_ai::Level::Difficile;
/// One hint per seat of a room every this long.
pub const HINT_EVERY: Duration = Duration::from_secs(2);

impl Rooms {
    /// A hint for `seat` of room `code` in `state`: the AI's move at [`HINT_LEVEL`] within
    /// [`HINT_TIME`], computed on the CPU players' worker pool (same semaphore, blocking
    /// threads). Nothing is stored or broadcast.
    ///
    /// # Errors
    /// `rate_limited` if this seat asked less than [`HINT_EVERY`] ago; `internal` if the AI
    /// finds nothing.
    pub async fn hint(
        &self,
        code: &str,
        seat: usize,
        state: crate::game::GameState,
    ) -> Result<LegalMove, AppError> {
        {
            let now = Instant::now();
            let mut times = self.hint_times.lock().unwrap_or_else(|e| e.into_inner());
            let key = (code.to_owned(), seat);
            if let Some(last) = times.get(&key) {
                let since = now.duration_since(*last);
                if since < HINT_EVERY {
                    let wait = (HINT_EVERY - since).as_secs_f64().ceil();
                    // Rounded up, at most a few seconds: the cast cannot truncate.
                    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                    return Err(AppError::RateLimited(wait as u64));
                }
            }
            if times.len() >= 4096 {
                times.retain(|_, t| now.duration_since(*t) < HINT_EVERY);
            }
            times.insert(key, now);
        }
        let _permit = self
            .cpu_permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| AppError::internal("hint permit", e))?;
        let limits = dames_ai::Limits {
            time: HINT_TIME,
            seed: random_seed(),
            cancel: Arc::new(AtomicBool::new(false)),
        };
        match tokio::task::spawn_blocking(move || state.hint(HINT_LEVEL, &limits)).await {
            Ok(Some(mv)) => Ok(mv),
            Ok(None) => Err(AppError::internal("hint", "the AI found no legal move")),
            Err(err) => Err(AppError::internal("hint", err)),
        }
    }
}

/// A seed for a hint (hints need not be reproducible).
fn random_seed() -> u64 {
    u64::from_str_radix(&token::random_hex128()[..16], 16).unwrap_or(0)
}

/// One CPU turn.
struct CpuJob {
    rooms: Arc<Rooms>,
    cell: Arc<RoomCell>,
    room: Arc<Room>,
    seat: usize,
    level: dames_ai::Level,
    key: (i64, i64),
    cancel: Arc<AtomicBool>,
}

impl CpuJob {
    async fn run(self) {
        let started = Instant::now();
        let think = Duration::from_millis(self.room.settings.cpu_ms);
        // `None` when cancelled, or if the player failed: then the first legal move is played
        // rather than leaving the game stuck on a CPU's turn.
        let mv = self.think(think).await;
        tokio::time::sleep_until((started + think).into()).await;
        if self.cancel.load(Ordering::Relaxed) {
            return;
        }
        let (seat, key) = (self.seat, self.key);
        let result = self
            .rooms
            .mutate(&self.cell, move |room, ch, now| {
                let current = (room.game_no, room.play.as_ref().map_or(0, |p| p.log_len));
                if current != key || room.cpu_to_move().map(|c| c.0) != Some(seat) {
                    return Ok(());
                }
                let fallback = room
                    .play
                    .as_ref()
                    .and_then(|p| p.state.legal_moves().into_iter().next())
                    .map(|m| m.to_input());
                let Some(mv) = mv else {
                    let fallback = fallback.ok_or(AppError::Internal)?;
                    return room.play_move(seat, None, &fallback, now, ch).map(drop);
                };
                match room.play_move(seat, None, &mv, now, ch) {
                    Err(AppError::IllegalMove(msg)) => {
                        tracing::error!(
                            "CPU move refused in room {}: {msg}; playing the first legal move",
                            room.code
                        );
                        let fallback = fallback.ok_or(AppError::Internal)?;
                        room.play_move(seat, None, &fallback, now, ch).map(drop)
                    }
                    other => other.map(drop),
                }
            })
            .await;
        if let Err(err) = result {
            tracing::warn!("CPU move not applied: {err}");
        }
    }

    /// Computes the move on the worker pool (a semaphore over blocking threads).
    async fn think(&self, think: Duration) -> Option<MoveInput> {
        let _permit = self.rooms.cpu_permits.clone().acquire_owned().await.ok()?;
        if self.cancel.load(Ordering::Relaxed) {
            return None;
        }
        let state = self.room.play.as_ref()?.state.clone();
        // A zero budget means "the AI's default" to the AI: the room asked for an instant answer.
        let limits = dames_ai::Limits {
            time: think.max(Duration::from_millis(1)),
            seed: seed(&self.room.code, self.key),
            cancel: self.cancel.clone(),
        };
        let level = self.level;
        match tokio::task::spawn_blocking(move || state.cpu_move(level, &limits)).await {
            Ok(None) if !self.cancel.load(Ordering::Relaxed) => {
                tracing::error!("CPU player found no move in room {}", self.room.code);
                None
            }
            Ok(mv) => mv,
            Err(err) => {
                tracing::error!("CPU player failed: {err}");
                None
            }
        }
    }
}

/// The CPU's seed for a turn: fixed by room code, game and turn (reproducible games).
fn seed(code: &str, key: (i64, i64)) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in code
        .bytes()
        .chain(key.0.to_le_bytes())
        .chain(key.1.to_le_bytes())
    {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::GameKind;
    use crate::room::{Occupant, Settings, SettingsInput};

    /// A person named `name` whose seat token is their name.
    pub fn human(name: &str) -> Occupant {
        Occupant::Human {
            name: name.into(),
            token_hash: crate::token::hash_token(name),
            client: Some(format!("client-{name}")),
        }
    }

    /// What `Rooms::create` makes: a draughts room with Ana on seat 0.
    pub fn new_room(code: String, ch: &mut Change, now: i64) -> Result<(Room, ()), AppError> {
        let (settings, seats) = Settings::new(GameKind::Draughts, &SettingsInput::default())?;
        let room = Room::new(code, GameKind::Draughts, settings, seats, human("Ana"), now);
        ch.events
            .push(serde_json::json!({"kind": "joined", "seat": 0, "name": "Ana"}));
        Ok((room, ()))
    }
}
