//! Persistence behind a narrow, synchronous interface ([`Store`]): the room layer calls it from
//! blocking threads (`spawn_blocking`), never on the async runtime. SQLite today
//! ([`SqliteStore`]); a PostgreSQL backend for several nodes would implement the same trait.

mod extras;
mod sqlite;

pub use extras::{Extras, FeedbackRow, PushSub};
pub use sqlite::SqliteStore;

/// A storage failure; logged and answered as `internal`.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(pub String);

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        Self(err.to_string())
    }
}

/// The `rooms` row of a room.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomRow {
    pub code: String,
    pub game: String,
    pub settings: String,
    pub status: String,
    pub version: i64,
    pub game_no: i64,
    pub first_seat: i64,
    pub draw_offer: Option<i64>,
    pub created_at: i64,
    pub active_at: i64,
    pub last_move_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// Draughts: the imported start position (FEN) of the room's games.
    pub start_fen: Option<String>,
}

/// A `seats` row.
#[derive(Clone, Debug, PartialEq)]
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
#[derive(Clone, Debug, PartialEq)]
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
#[derive(Clone, Debug, PartialEq)]
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

/// One change of a room, written in one transaction.
#[derive(Debug)]
pub struct Commit<'a> {
    pub room: &'a RoomRow,
    pub seats: &'a [SeatRow],
    pub actions: &'a [ActionRow],
    pub events: &'a [EventRow],
    /// The current game's row when it started or ended with this change (its start time is
    /// kept from the first write).
    pub game: Option<&'a GameRow>,
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

/// The storage interface.
pub trait Store: Extras + Send + Sync + 'static {
    /// Writes one change atomically and durably (committed when this returns `Ok`).
    fn commit(&self, commit: &Commit<'_>) -> Result<(), StoreError>;
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
    /// Deletes a room and everything in it.
    fn delete(&self, code: &str) -> Result<(), StoreError>;
    /// Rooms where this `dames_client` holds a seat: (code, seat), newest first.
    fn rooms_of_client(&self, client: &str) -> Result<Vec<ClientRoom>, StoreError>;
    /// Makes what was deleted unreadable on disk too (after each retention sweep): the
    /// retention that the data page promises must be true of the files, not only of queries.
    fn scrub(&self) -> Result<(), StoreError> {
        Ok(())
    }
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
}
