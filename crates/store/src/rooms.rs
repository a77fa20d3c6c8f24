//! The rooms' part of a store ([`RoomStore`]): what one change of a room writes ([`Commit`]),
//! loading a room back, its history and its games, and what retention acts on. The rows
//! themselves are `dames_room::rows`.

use dames_room::rows::{ActionRow, EventRow, GameRow, RoomRow, RoomState, SeatRow, StoredRoom};

use crate::error::StoreError;

/// [`RoomStore::running_codes`] in SQL, the same for SQLite and PostgreSQL: a game being played
/// with a clock, a CPU seat, or a person's seat a CPU stands in for (a `human` seat with a
/// `level`).
pub(crate) const RUNNING_CODES: &str = "SELECT code FROM rooms r WHERE status = 'playing'
     AND (clock IS NOT NULL
          OR EXISTS (SELECT 1 FROM seats s WHERE s.code = r.code
                     AND (s.kind = 'cpu' OR (s.kind = 'human' AND s.level IS NOT NULL))))";

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
/// in the same transaction (the server's group commit, `live::commit`).
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

    /// The log entry and the event of a change of one of each made at one moment (a move, a
    /// resignation): the stores keep such an event in its entry's row (SQLite migration 0013,
    /// PostgreSQL 0009), one row and one index page fewer written per move.
    pub(crate) fn one_entry_and_its_event(&self) -> Option<(&ActionRow, &EventRow)> {
        match (self.actions.as_slice(), self.events.as_slice()) {
            ([a], [e]) if a.at == e.at => Some((a, e)),
            _ => None,
        }
    }

    /// Checks that the change's events are numbered after the version it was computed from
    /// and up to the one it writes: with the version check of the room's row, no two events of
    /// a room can then have one version, whichever table keeps them (an event kept in a log
    /// entry's row has no key of its own to refuse a repeat).
    ///
    /// # Errors
    /// `Failed`, naming the event out of range.
    pub(crate) fn check_event_versions(&self) -> Result<(), StoreError> {
        let to = match &self.room {
            RoomWrite::New(r) => r.state.version,
            RoomWrite::Row { row, .. } => row.state.version,
            RoomWrite::State { state, .. } => state.version,
        };
        let from = self.room.from().unwrap_or(0);
        match self
            .events
            .iter()
            .find(|e| e.version <= from || e.version > to)
        {
            Some(e) => Err(StoreError::Failed(format!(
                "event version {} is not after {from} and up to {to}",
                e.version
            ))),
            None => Ok(()),
        }
    }
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

/// A seat of a public room as the public lists show it: who sits there, never their token or
/// browser (`RoomStore::public_rooms`).
#[derive(Clone, Debug, PartialEq)]
pub struct PublicSeat {
    pub seat: i64,
    /// `empty`, `human` or `cpu`.
    pub kind: String,
    pub name: Option<String>,
    /// CPU level.
    pub level: Option<String>,
}

/// A public room (settings `"public": true`) as the public lists show it.
#[derive(Clone, Debug, PartialEq)]
pub struct PublicRoom {
    pub code: String,
    pub game: String,
    /// JSON `Settings`.
    pub settings: String,
    /// `lobby` or `playing`.
    pub status: String,
    pub game_no: i64,
    pub created_at: i64,
    pub active_at: i64,
    pub last_move_at: Option<i64>,
    /// Its seats, in order.
    pub seats: Vec<PublicSeat>,
    /// Moves played in the current game.
    pub moves: i64,
}

/// How many games a room keeps: when a game row is written, the games numbered
/// [`GAMES_KEPT_PER_ROOM`] or more below it go, with their logs (oldest first out), so that a
/// room's archive is bounded however long it is played in (docs/storage.md).
pub const GAMES_KEPT_PER_ROOM: i64 = 200;

/// The rooms: their changes (committed by the server's writer, `live::commit`), loading them
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
    /// The stored version of each of these rooms that exists (in any order): how a node of a
    /// cluster finds, in one query, the rooms it holds that another node changed.
    fn versions(&self, codes: &[String]) -> Result<Vec<(String, i64)>, StoreError>;
    /// Codes of the rooms whose game is not finished.
    fn live_codes(&self) -> Result<Vec<String>, StoreError>;
    /// Codes of the rooms whose game goes on with nobody connected, restored when a node
    /// starts: a game being played with a clock (a flag can fall), a CPU seat, or a CPU standing
    /// in for a person (a seat `human` with a `level`). The others wait for someone to come
    /// back, and are loaded when first asked for.
    fn running_codes(&self) -> Result<Vec<String>, StoreError>;
    /// Events of a room with `since < version <= up_to`, in order.
    fn events_since(&self, code: &str, since: i64, up_to: i64)
        -> Result<Vec<EventRow>, StoreError>;
    /// Rooms the retention rules act on now.
    fn due(&self, cutoffs: Cutoffs) -> Result<Due, StoreError>;
    /// Deletes a room and everything in it (its seats, log, events, games, subscriptions).
    fn delete(&self, code: &str) -> Result<(), StoreError>;
    /// Writes what seats hold between a room's changes — the away clock and a pending
    /// transfer link (`SeatRow::away_since`, `transfer_hash`, `transfer_expires_at`) — for the
    /// seats of `rows` whose stored occupant is the same person (the same seat token, so that a
    /// late write never lands on a seat taken since): their other columns and the room's version
    /// are not touched. A node writes it when it happens; every node reads it on load.
    fn save_seat_memory(&self, code: &str, rows: &[SeatRow]) -> Result<(), StoreError>;
    /// Rooms where this `dames_client` holds a seat: (code, seat), newest first.
    fn rooms_of_client(&self, client: &str) -> Result<Vec<ClientRoom>, StoreError>;
    /// Makes what was deleted unreadable on disk too (after each retention sweep): the
    /// retention that the data page promises must be true of the files, not only of queries.
    fn scrub(&self) -> Result<(), StoreError>;
    /// A page of the games of a room, newest first: at most `limit` of those numbered below
    /// `before` (`None`: from the newest).
    fn games(
        &self,
        code: &str,
        before: Option<i64>,
        limit: usize,
    ) -> Result<Vec<GameRow>, StoreError>;
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
    /// The public rooms in `status` (`lobby` or `playing`) changed since `active_since`, the
    /// most recently changed first, at most `limit`; in the lobby only those with a free seat
    /// (the open tables; docs/protocol.md "Public lists").
    fn public_rooms(
        &self,
        status: &str,
        active_since: i64,
        limit: usize,
    ) -> Result<Vec<PublicRoom>, StoreError>;
}
