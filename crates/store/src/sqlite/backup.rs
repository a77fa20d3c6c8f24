//! The online backup of an SQLite database that a server is serving (`dames backup`,
//! docs/operations.md "Backups"): SQLite's backup API copies every page in one step, that is
//! inside one read transaction, so the copy is the database as of one instant — every change
//! committed (and so every move acknowledged) before the backup began is in it, none half. In WAL
//! mode a reader neither waits for the server's writer nor blocks it: the server goes on
//! committing while the pages are copied.
//!
//! The copy is written beside the destination, checked (`PRAGMA quick_check`), switched to a
//! rollback journal (one self-contained file, no `-wal` beside it), synced to disk, then renamed
//! over the destination: a backup file is complete or absent, never half written.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use crate::error::StoreError;

/// How long a backup waits for a lock (another backup, a checkpoint) before giving up.
const PATIENCE: Duration = Duration::from_secs(30);

/// What a backup copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupSummary {
    /// Pages of the database copied.
    pub pages: u64,
    /// Size of the backup file in bytes.
    pub bytes: u64,
    /// Rooms in the backup.
    pub rooms: u64,
}

/// Copies the SQLite database at `source` (a server may be serving it) to the file `to`,
/// replacing it.
///
/// # Errors
/// If `source` is not a database (or does not exist), the copy fails or does not check, or
/// `to` cannot be written.
pub fn backup(source: &Path, to: &Path) -> Result<BackupSummary, StoreError> {
    // Never created: a mistyped path is an error, not an empty backup.
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let from = Connection::open_with_flags(source, flags)
        .map_err(|e| StoreError::Failed(format!("{}: {e}", source.display())))?;
    from.busy_timeout(Duration::from_secs(5))?;
    from.pragma_update(None, "query_only", "ON")?;
    let partial = partial_path(to);
    let _ = std::fs::remove_file(&partial);
    let result = copy_to(&from, &partial);
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    let (pages, rooms) = result?;
    std::fs::rename(&partial, to).map_err(|e| failed(to, &e))?;
    if let Some(dir) = to.parent().filter(|d| !d.as_os_str().is_empty()) {
        // The rename itself made durable (not every file system allows opening a directory).
        if let Ok(dir) = std::fs::File::open(dir) {
            let _ = dir.sync_all();
        }
    }
    let bytes = std::fs::metadata(to).map_err(|e| failed(to, &e))?.len();
    Ok(BackupSummary {
        pages,
        bytes,
        rooms,
    })
}

/// Where the copy is written before it is renamed to `to`.
fn partial_path(to: &Path) -> PathBuf {
    let mut name = to.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

fn failed(path: &Path, err: &std::io::Error) -> StoreError {
    StoreError::Failed(format!("{}: {err}", path.display()))
}

/// Copies `from` into a new file at `path`, checks and syncs it: the pages copied and the rooms.
fn copy_to(from: &Connection, path: &Path) -> Result<(u64, u64), StoreError> {
    let mut to = Connection::open(path)?;
    let pages = {
        let backup = Backup::new(from, &mut to)?;
        let start = Instant::now();
        // Every page in one step: one read transaction, one instant of the database.
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More => {}
                StepResult::Busy | StepResult::Locked if start.elapsed() < PATIENCE => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => return Err(StoreError::Failed("the database stayed locked".into())),
            }
        }
        backup.progress().pagecount
    };
    let check: String = to.query_row("PRAGMA quick_check", [], |r| r.get(0))?;
    if check != "ok" {
        return Err(StoreError::Failed(format!(
            "the copy does not check: {check}"
        )));
    }
    let _: String = to.query_row("PRAGMA journal_mode=DELETE", [], |r| r.get(0))?;
    let rooms: i64 = to.query_row("SELECT count(*) FROM rooms", [], |r| r.get(0))?;
    drop(to);
    std::fs::File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(|e| failed(path, &e))?;
    Ok((u64::try_from(pages).unwrap_or(0), rooms.max(0) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Commit, RoomRow, RoomState, RoomStore, SqliteStore};

    fn room(code: &str) -> RoomRow {
        RoomRow {
            code: code.into(),
            game: "draughts".into(),
            settings: "{}".into(),
            start_fen: None,
            created_at: 1,
            state: RoomState {
                status: "lobby".into(),
                version: 1,
                game_no: 1,
                first_seat: 0,
                draw_offer: None,
                draw_declined: None,
                cpu_by: None,
                active_at: 1,
                last_move_at: None,
                finished_at: None,
                clock: None,
            },
        }
    }

    #[test]
    fn a_backup_of_an_open_database_holds_what_it_had_committed_and_opens_alone() {
        let dir = tempfile::tempdir().unwrap();
        let (db, copy) = (dir.path().join("live.db"), dir.path().join("copy.db"));
        let store = SqliteStore::open(&db).unwrap();
        for code in ["AAAAAA", "BBBBBB"] {
            store
                .commit(&Commit::new_room(room(code), Vec::new()))
                .unwrap();
        }
        // The store stays open (its WAL not checkpointed): the backup reads through it.
        let summary = backup(&db, &copy).unwrap();
        assert_eq!(summary.rooms, 2);
        assert!(summary.pages > 0 && summary.bytes > 0, "{summary:?}");
        store
            .commit(&Commit::new_room(room("CCCCCC"), Vec::new()))
            .unwrap();
        // One file, no journal beside it, and a store opens it.
        assert!(!partial_path(&copy).exists());
        assert!(!dir.path().join("copy.db-wal").exists());
        let restored = SqliteStore::open(&copy).unwrap();
        assert_eq!(
            restored.load("BBBBBB").unwrap().unwrap().room.code,
            "BBBBBB"
        );
        assert!(
            restored.load("CCCCCC").unwrap().is_none(),
            "made after the backup"
        );
        // Again over the same file: replaced, now with the third room.
        drop(restored);
        assert_eq!(backup(&db, &copy).unwrap().rooms, 3);
    }

    #[test]
    fn a_missing_database_is_an_error_and_no_backup_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let copy = dir.path().join("copy.db");
        let err = backup(&dir.path().join("typo.db"), &copy).unwrap_err();
        assert!(err.to_string().contains("typo.db"), "{err}");
        assert!(!copy.exists() && !partial_path(&copy).exists());
        assert!(!dir.path().join("typo.db").exists(), "not created");
    }
}
