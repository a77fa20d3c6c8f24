//! Persistence behind narrow, synchronous interfaces, one per concern: [`RoomStore`] (rooms,
//! their changes, history, games and retention), [`FeedbackStore`] (reviews and requests, who
//! played what) and [`PushStore`] (push subscriptions, the VAPID key). The room layer calls them
//! from blocking threads (`spawn_blocking`, and the writer thread of `crate::rooms::commit` for
//! the changes of rooms), never on the async runtime.
//!
//! One backend implements all three over one database ([`SqliteStore`]; [`MemoryStore`] in
//! tests), and [`Store`] is the three together: what the application state opens and holds,
//! since one database serves every concern. Each part of the server keeps only the trait it uses
//! (the room cache and its writer an `Arc<dyn RoomStore>`, the push worker an
//! `Arc<dyn PushStore>`), handed out from the `Arc<dyn Store>` by upcasting, so that what a part
//! may touch is visible in its type and a test can give it the fake.
//!
//! The behaviour every backend must have is written once, in `conformance` (tests), and run
//! against each.

#[cfg(test)]
mod conformance;
mod feedback;
#[cfg(test)]
mod memory;
mod postgres;
mod push;
mod sqlite;

use serde::{Deserialize, Serialize};

pub use feedback::{FeedbackRow, FeedbackStore};
#[cfg(test)]
pub use memory::MemoryStore;
pub use postgres::{PostgresStore, ScratchDatabase};
pub use push::{PushStore, PushSub};
pub use sqlite::SqliteStore;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The room's stored version is not the one the change was computed from (or a new room's
    /// code is taken, or the room is gone): another node, or a stale copy of the room, changed
    /// it first. Nothing of the change was written; the room is reloaded and the client told
    /// `conflict` (docs/cluster.md).
    #[error("room {code}: the stored room is not at version {expected:?}")]
    Conflict {
        code: String,
        /// The version the change was computed from (`None`: a new room).
        expected: Option<i64>,
    },
    /// Anything else; logged and answered as `internal`.
    #[error("{0}")]
    Failed(String),
}

impl StoreError {
    /// The same failure, saying which room's change it was.
    pub fn in_room(self, code: &str) -> Self {
        match self {
            Self::Failed(m) => Self::Failed(format!("room {code}: {m}")),
            conflict @ Self::Conflict { .. } => conflict,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        Self::Failed(err.to_string())
    }
}

/// The `rooms` row of a room: what a room is created with, and the columns play changes.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomRow {
    pub code: String,
    pub game: String,
    pub settings: String,
    /// Draughts: the imported start position (FEN) of the room's games.
    pub start_fen: Option<String>,
    pub created_at: i64,
    /// The columns that play changes.
    pub state: RoomState,
}

/// A `seats` row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRow {
    pub seat: i64,
    pub kind: String,
    pub name: Option<String>,
    pub level: Option<String>,
    pub token_hash: Option<Vec<u8>>,
    pub client: Option<String>,
    pub ready: bool,
}

/// An `actions` row: one entry of a game's log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionRow {
    pub game_no: i64,
    pub seq: i64,
    pub seat: Option<i64>,
    pub kind: String,
    pub data: Option<String>,
    pub client_id: Option<String>,
    pub at: i64,
}

/// An `events` row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventRow {
    pub version: i64,
    pub event: String,
    pub at: i64,
}

/// A `games` row: one game of a room, as it started (and ended).
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub game_no: i64,
    /// JSON `Settings` the game is played under.
    pub settings: String,
    /// JSON `[SeatView]` at its start; `None` for games stored before the table existed.
    pub seats: Option<String>,
    pub first_seat: i64,
    /// Draughts: the imported start position (FEN).
    pub start_fen: Option<String>,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// JSON `Outcome` once over.
    pub outcome: Option<String>,
}

/// The `rooms` columns that play changes (everything but the code, the game kind, the settings,
/// the start position and the creation time): what a move, a join or a resignation rewrites.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomState {
    pub status: String,
    pub version: i64,
    pub game_no: i64,
    pub first_seat: i64,
    pub draw_offer: Option<i64>,
    /// Draughts: the seat that declined the last offer, until the next move.
    pub draw_declined: Option<i64>,
    /// Games against CPUs: the keyed hash of the address that started the game.
    pub cpu_by: Option<String>,
    pub active_at: i64,
    pub last_move_at: Option<i64>,
    pub finished_at: Option<i64>,
}

/// What a change writes of the `rooms` row. A change of an existing room carries the version
/// it was computed from (`from`): the row is written only if that is still the stored version,
/// else the change fails with [`StoreError::Conflict`] (the per-room version check,
/// docs/cluster.md).
#[derive(Clone, Debug, PartialEq)]
pub enum RoomWrite {
    /// A new room: its whole row, inserted only if its code is free.
    New(RoomRow),
    /// An existing room whose settings or start position changed: every column but the code,
    /// the game kind and the creation time.
    Row { from: i64, row: RoomRow },
    /// Only the columns that play changes (an `UPDATE` of an existing row).
    State { from: i64, state: RoomState },
}

impl RoomWrite {
    /// The version the change was computed from (`None`: a new room).
    pub fn from(&self) -> Option<i64> {
        match self {
            Self::New(_) => None,
            Self::Row { from, .. } | Self::State { from, .. } => Some(*from),
        }
    }
}

/// A `played` row: a browser held a seat in a finished game of this kind.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedRow {
    /// The browser's `dames_client`.
    pub client: String,
    /// `cc` or `draughts`.
    pub game: String,
    pub at: i64,
}

/// One change of a room: only what it changed. Committed atomically, with other rooms' changes
/// in the same transaction (group commit, `crate::rooms::commit`).
#[derive(Clone, Debug)]
pub struct Commit {
    /// The room's code.
    pub code: String,
    pub room: RoomWrite,
    /// Every seat row of the room, when its seats changed (`None`: the seat rows stay).
    pub seats: Option<Vec<SeatRow>>,
    /// New game log entries.
    pub actions: Vec<ActionRow>,
    /// New events.
    pub events: Vec<EventRow>,
    /// The current game's row when it started or ended with this change (its start time is
    /// kept from the first write).
    pub game: Option<GameRow>,
    /// The browsers that held a seat in the game this change finished.
    pub played: Vec<PlayedRow>,
}

impl Commit {
    /// A new room with its seats.
    pub fn new_room(room: RoomRow, seats: Vec<SeatRow>) -> Self {
        Self {
            code: room.code.clone(),
            room: RoomWrite::New(room),
            seats: Some(seats),
            actions: Vec::new(),
            events: Vec::new(),
            game: None,
            played: Vec::new(),
        }
    }
}

/// A room as stored: enough to rebuild it.
#[derive(Clone, Debug)]
pub struct StoredRoom {
    pub room: RoomRow,
    pub seats: Vec<SeatRow>,
    /// The log of the current game (`room.game_no`), in order.
    pub actions: Vec<ActionRow>,
    /// Every client move id ever applied in this room.
    pub client_ids: Vec<String>,
}

/// Rooms the retention job must act on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Due {
    /// Rooms to delete with everything in them.
    pub delete: Vec<String>,
    /// Games to end as abandoned.
    pub abandon: Vec<String>,
}

/// Cut-off times (Unix ms) for the retention job: rows older than these are due.
#[derive(Clone, Copy, Debug)]
pub struct Cutoffs {
    pub lobby_active_before: i64,
    pub finished_before: i64,
    pub idle_before: i64,
}

/// A room where a browser holds a seat ("my games").
#[derive(Clone, Debug, PartialEq)]
pub struct ClientRoom {
    pub code: String,
    pub seat: i64,
    pub game: String,
    pub status: String,
    pub active_at: i64,
}

/// The rooms: their changes (committed by the writer, `crate::rooms::commit`), loading them
/// back, their history and their games, and what retention acts on.
pub trait RoomStore: Send + Sync + 'static {
    /// Writes several changes (of different rooms, in this order) in one transaction,
    /// atomically and durably: all of them are committed when this returns `Ok`, none when it
    /// returns an error.
    fn commit_batch(&self, commits: &[Commit]) -> Result<(), StoreError>;
    /// Writes one change atomically and durably (committed when this returns `Ok`).
    fn commit(&self, commit: &Commit) -> Result<(), StoreError> {
        self.commit_batch(std::slice::from_ref(commit))
    }
    /// The room with this code, if any.
    fn load(&self, code: &str) -> Result<Option<StoredRoom>, StoreError>;
    /// Whether a room has this code.
    fn exists(&self, code: &str) -> Result<bool, StoreError>;
    /// Codes of the rooms whose game is not finished (restored on start).
    fn live_codes(&self) -> Result<Vec<String>, StoreError>;
    /// Events of a room with `since < version <= up_to`, in order.
    fn events_since(&self, code: &str, since: i64, up_to: i64)
        -> Result<Vec<EventRow>, StoreError>;
    /// Rooms the retention rules act on now.
    fn due(&self, cutoffs: Cutoffs) -> Result<Due, StoreError>;
    /// Deletes a room and everything in it (its seats, log, events, games, subscriptions).
    fn delete(&self, code: &str) -> Result<(), StoreError>;
    /// Rooms where this `dames_client` holds a seat: (code, seat), newest first.
    fn rooms_of_client(&self, client: &str) -> Result<Vec<ClientRoom>, StoreError>;
    /// Makes what was deleted unreadable on disk too (after each retention sweep): the
    /// retention that the data page promises must be true of the files, not only of queries.
    fn scrub(&self) -> Result<(), StoreError>;
    /// Every game of a room, in order.
    fn games(&self, code: &str) -> Result<Vec<GameRow>, StoreError>;
    /// Game `game_no` of a room with its log, in order, if there is such a game.
    fn game(
        &self,
        code: &str,
        game_no: i64,
    ) -> Result<Option<(GameRow, Vec<ActionRow>)>, StoreError>;
    /// Deletes the games (rows and logs) that ended before `finished_before` and are not the
    /// current game of their room (retention). Returns how many.
    fn delete_old_games(&self, finished_before: i64) -> Result<usize, StoreError>;
    /// Whether the database answers a query now (`/ready`).
    fn ping(&self) -> Result<(), StoreError>;
}

/// Opens the store of a configuration: PostgreSQL at `database` if set (its migrations applied),
/// else the SQLite file at `db_path`.
///
/// # Errors
/// If the database cannot be opened or migrated.
pub fn open(
    db_path: &std::path::Path,
    database: Option<&str>,
) -> Result<std::sync::Arc<dyn Store>, StoreError> {
    Ok(match database {
        Some(url) => std::sync::Arc::new(PostgresStore::open(url)?),
        None => std::sync::Arc::new(SqliteStore::open(db_path)?),
    })
}

/// Every concern of the storage in one object: what the application state holds, each part
/// handing out only the trait it needs (see the module documentation).
pub trait Store: RoomStore + FeedbackStore + PushStore + std::fmt::Debug {}

impl<T: RoomStore + FeedbackStore + PushStore + std::fmt::Debug> Store for T {}
