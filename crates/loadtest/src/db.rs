//! The crash self-test's one write to the server's database (docs/storage.md), made while the
//! server is down: a committed move disappears, as if the commit had been lost. If the storage
//! schema changes, this is the query to follow.

use std::path::Path;
use std::time::Duration;

use crate::error::Result;

/// Deletes the move of client id `id` from room `code`'s game log if it is the last action of
/// its game (so that the rest still replays); `false` if it is not (or not there).
///
/// # Errors
/// The database could not be opened or written.
pub(crate) fn delete_last_move(db: &Path, code: &str, id: &str) -> Result<bool> {
    let conn = rusqlite::Connection::open(db)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    let deleted = conn.execute(
        "DELETE FROM actions
          WHERE code = ?1 AND client_id = ?2 AND kind = 'move'
            AND seq = (SELECT MAX(a.seq) FROM actions AS a
                        WHERE a.code = ?1 AND a.game_no = actions.game_no)",
        (code, id),
    )?;
    Ok(deleted == 1)
}
