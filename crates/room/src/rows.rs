//! The stored form of a room: the rows a store keeps for it (docs/storage.md). Plain data,
//! built from a room and read back into one by [`crate::snapshot`]; the stores (`dames-store`)
//! write and read them, and the cluster's fan-out carries them between nodes.

use serde::{Deserialize, Serialize};

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
    /// When the seat's last connection closed (Unix ms), while it has none: the away clock,
    /// kept across a restart and read by every node (docs/storage.md).
    #[serde(default)]
    pub away_since: Option<i64>,
    /// A pending link moving the seat to another browser: the SHA-256 of its token…
    #[serde(default)]
    pub transfer_hash: Option<Vec<u8>>,
    /// …and when it stops working (Unix ms).
    #[serde(default)]
    pub transfer_expires_at: Option<i64>,
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
    /// A room with a clock: each seat's time (ms) after this entry, JSON `[ms, …]`
    /// (`actions.clock`).
    #[serde(default)]
    pub clock: Option<String>,
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
    /// A game with a clock: JSON `crate::clock::Clock` (each seat's time, whose runs and since
    /// when, the fallen flags; `rooms.clock`).
    #[serde(default)]
    pub clock: Option<String>,
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
