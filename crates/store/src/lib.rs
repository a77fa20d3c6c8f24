//! The persistence of the Dames rooms behind narrow, synchronous interfaces, one per concern: [`RoomStore`] (rooms,
//! their changes, history, games and retention), [`FeedbackStore`] (reviews and requests, who
//! played what) [`PushStore`] (push subscriptions, the VAPID key) and [`PairingStore`] (quick pairing: blocks
//! and games left). A room is kept as the rows
//! of `dames_room::rows` (re-exported here), which `dames_room::snapshot` builds from a room and
//! reads back into one. The server calls the stores from blocking threads (`spawn_blocking`, and
//! the writer thread of its group commit for the changes of rooms), never on its async runtime.
//!
//! One backend implements all three over one database ([`SqliteStore`], [`PostgresStore`];
//! [`MemoryStore`], the in-memory fake, for the server's unit tests), and [`Store`] is the three together: what the application state opens and holds,
//! since one database serves every concern. Each part of the server keeps only the trait it uses
//! (the room cache and its writer an `Arc<dyn RoomStore>`, the push worker an
//! `Arc<dyn PushStore>`), handed out from the `Arc<dyn Store>` by upcasting, so that what a part
//! may touch is visible in its type and a test can give it the fake.
//!
//! The behaviour every backend must have is written once, in `conformance` (tests), and run
//! against each. The migrations are `migrations/*.sql` (SQLite) and `migrations/postgres/*.sql`,
//! compiled into the crate.
//!
//! ```
//! use dames_store::{RoomStore, SqliteStore};
//!
//! let dir = std::env::temp_dir().join(format!("dames-store-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let store = SqliteStore::open(&dir.join("dames.db")).unwrap();
//! assert!(store.load("K7M2PQ").unwrap().is_none());
//! store.ping().unwrap();
//! # std::fs::remove_dir_all(&dir).ok();
//! ```
#![forbid(unsafe_code)]

mod analysis;
#[cfg(test)]
mod conformance;
mod error;
mod feedback;
mod memory;
mod pairing;
mod postgres;
mod push;
mod rooms;
mod sqlite;

pub use analysis::AnalysisStore;
pub use feedback::{FeedbackRow, FeedbackStore};
pub use memory::MemoryStore;
pub use pairing::{LeaveRow, PairingStore};
pub use postgres::{PostgresStore, ScratchDatabase};
pub use push::{PushStore, PushSub};
pub use sqlite::backup::{backup as sqlite_backup, BackupSummary};
pub use sqlite::SqliteStore;

pub use dames_room::rows::{ActionRow, EventRow, GameRow, RoomRow, RoomState, SeatRow, StoredRoom};
pub use error::StoreError;
pub use rooms::{
    ClientRoom, Commit, Cutoffs, Due, PlayedRow, PublicRoom, PublicSeat, RoomStore, RoomWrite,
    GAMES_KEPT_PER_ROOM,
};

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
pub trait Store:
    RoomStore + FeedbackStore + PushStore + PairingStore + AnalysisStore + std::fmt::Debug
{
}

impl<T: RoomStore + FeedbackStore + PushStore + PairingStore + AnalysisStore + std::fmt::Debug>
    Store for T
{
}
