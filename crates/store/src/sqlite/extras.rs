//! The SQLite implementations of [`FeedbackStore`], [`PushStore`] and [`PairingStore`].

use rusqlite::{params, OptionalExtension};

use super::SqliteStore;
use crate::analysis::AnalysisStore;
use crate::error::StoreError;
use crate::feedback::{FeedbackRow, FeedbackStore};
use crate::pairing::{LeaveRow, PairingStore};
use crate::push::{PushStore, PushSub};

fn feedback_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<FeedbackRow> {
    Ok(FeedbackRow {
        id: r.get(0)?,
        kind: r.get(1)?,
        game: r.get(2)?,
        stars: r.get(3)?,
        body: r.get(4)?,
        name: r.get(5)?,
        status: r.get(6)?,
        client: r.get(7)?,
        created_at: r.get(8)?,
    })
}

impl FeedbackStore for SqliteStore {
    fn has_played(&self, client: &str, game: &str) -> Result<bool, StoreError> {
        // The record, or a room still kept whose (first) game this browser finished.
        Ok(self
            .reader()
            .query_row(
                "SELECT 1 FROM played WHERE client = ?1 AND game = ?2
                 UNION ALL
                 SELECT 1 FROM seats s JOIN rooms r ON r.code = s.code
                 WHERE s.client = ?1 AND r.game = ?2 AND (r.status = 'finished' OR r.game_no > 1)
                 LIMIT 1",
                [client, game],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    fn add_feedback(&self, row: &FeedbackRow) -> Result<i64, StoreError> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO feedback (kind, game, stars, body, name, status, client, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, 'new', ?6, ?7)",
            params![
                row.kind,
                row.game,
                row.stars,
                row.body,
                row.name,
                row.client,
                row.created_at
            ],
        )?;
        Ok(conn.last_insert_rowid())
    }

    fn feedback(&self, limit: i64) -> Result<Vec<FeedbackRow>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT id, kind, game, stars, body, name, status, client, created_at FROM feedback
             WHERE kind <> 'report' ORDER BY created_at DESC, id DESC LIMIT ?1",
        )?;
        let rows = stmt
            .query_map([limit], feedback_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    fn count_feedback(&self, client: &str, kind: &str, since: i64) -> Result<usize, StoreError> {
        let n: i64 = self.reader().query_row(
            "SELECT count(*) FROM feedback WHERE client = ?1 AND kind = ?2 AND created_at > ?3",
            rusqlite::params![client, kind, since],
            |r| r.get(0),
        )?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    fn delete_feedback(&self, id: i64, client: &str) -> Result<bool, StoreError> {
        Ok(self.conn().execute(
            "DELETE FROM feedback WHERE id = ?1 AND client = ?2",
            params![id, client],
        )? > 0)
    }

    fn set_feedback_status(&self, id: i64, status: &str) -> Result<bool, StoreError> {
        Ok(self.conn().execute(
            "UPDATE feedback SET status = ?2 WHERE id = ?1",
            params![id, status],
        )? > 0)
    }

    fn sweep_feedback(&self, before: i64) -> Result<usize, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let mut n = tx.execute("DELETE FROM feedback WHERE created_at < ?1", [before])?;
        n += tx.execute("DELETE FROM played WHERE at < ?1", [before])?;
        tx.commit()?;
        Ok(n)
    }
}

impl PushStore for SqliteStore {
    fn server_key(&self, name: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .reader()
            .query_row(
                "SELECT value FROM server_keys WHERE name = ?1",
                [name],
                |r| r.get(0),
            )
            .optional()?)
    }

    fn init_server_key(&self, name: &str, value: &str) -> Result<String, StoreError> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO server_keys (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING",
            [name, value],
        )?;
        Ok(conn.query_row(
            "SELECT value FROM server_keys WHERE name = ?1",
            [name],
            |r| r.get(0),
        )?)
    }

    fn save_push(&self, sub: &PushSub, now: i64) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT INTO push_subscriptions (code, seat, endpoint, p256dh, auth, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (code, seat) DO UPDATE SET endpoint = ?3, p256dh = ?4, auth = ?5, created_at = ?6",
            params![sub.code, sub.seat, sub.endpoint, sub.p256dh, sub.auth, now],
        )?;
        Ok(())
    }

    fn push_of(&self, code: &str, seat: i64) -> Result<Option<PushSub>, StoreError> {
        Ok(self
            .reader()
            .query_row(
                "SELECT code, seat, endpoint, p256dh, auth FROM push_subscriptions
                 WHERE code = ?1 AND seat = ?2",
                params![code, seat],
                |r| {
                    Ok(PushSub {
                        code: r.get(0)?,
                        seat: r.get(1)?,
                        endpoint: r.get(2)?,
                        p256dh: r.get(3)?,
                        auth: r.get(4)?,
                    })
                },
            )
            .optional()?)
    }

    fn delete_push_endpoint(&self, endpoint: &str) -> Result<(), StoreError> {
        self.conn().execute(
            "DELETE FROM push_subscriptions WHERE endpoint = ?1",
            [endpoint],
        )?;
        Ok(())
    }

    fn delete_push_seat(&self, code: &str, seat: i64) -> Result<(), StoreError> {
        self.conn().execute(
            "DELETE FROM push_subscriptions WHERE code = ?1 AND seat = ?2",
            params![code, seat],
        )?;
        Ok(())
    }

    fn delete_push_room(&self, code: &str) -> Result<(), StoreError> {
        self.conn()
            .execute("DELETE FROM push_subscriptions WHERE code = ?1", [code])?;
        Ok(())
    }

    fn sweep_push(&self, finished_before: i64) -> Result<usize, StoreError> {
        Ok(self.conn().execute(
            "DELETE FROM push_subscriptions WHERE code IN
             (SELECT code FROM rooms WHERE status = 'finished' AND finished_at < ?1)",
            [finished_before],
        )?)
    }
}

impl PairingStore for SqliteStore {
    fn block(&self, client: &str, blocked: &str, at: i64) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT INTO blocks (client, blocked, at) VALUES (?1, ?2, ?3)
             ON CONFLICT (client, blocked) DO UPDATE SET at = ?3",
            params![client, blocked, at],
        )?;
        Ok(())
    }

    fn clear_blocks(&self, client: &str) -> Result<usize, StoreError> {
        Ok(self
            .conn()
            .execute("DELETE FROM blocks WHERE client = ?1", [client])?)
    }

    fn avoided(&self, client: &str) -> Result<Vec<String>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT blocked FROM blocks WHERE client = ?1
             UNION SELECT client FROM blocks WHERE blocked = ?1 ORDER BY 1",
        )?;
        let rows = stmt
            .query_map([client], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(rows)
    }

    fn record_leave(&self, leave: &LeaveRow) -> Result<bool, StoreError> {
        Ok(self.conn().execute(
            "INSERT INTO leaves (code, game_no, seat, client, at) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT DO NOTHING",
            params![
                leave.code,
                leave.game_no,
                leave.seat,
                leave.client,
                leave.at
            ],
        )? > 0)
    }

    fn leaves_since(&self, client: &str, since: i64) -> Result<u32, StoreError> {
        let n: i64 = self.reader().query_row(
            "SELECT COUNT(*) FROM leaves WHERE client = ?1 AND at >= ?2",
            params![client, since],
            |r| r.get(0),
        )?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    fn sweep_leaves(&self, before: i64) -> Result<usize, StoreError> {
        Ok(self
            .conn()
            .execute("DELETE FROM leaves WHERE at < ?1", [before])?)
    }
}

impl AnalysisStore for SqliteStore {
    fn save_analysis(
        &self,
        code: &str,
        game_no: i64,
        analysis: &str,
        at: i64,
    ) -> Result<bool, StoreError> {
        // Only for a game that exists: no foreign-key error for a game deleted meanwhile.
        let n = self.conn().execute(
            "INSERT INTO analyses (code, game_no, analysis, at)
             SELECT code, game_no, ?3, ?4 FROM games WHERE code = ?1 AND game_no = ?2
             ON CONFLICT (code, game_no) DO UPDATE SET analysis = excluded.analysis, at = excluded.at",
            rusqlite::params![code, game_no, analysis, at],
        )?;
        Ok(n > 0)
    }

    fn analysis(&self, code: &str, game_no: i64) -> Result<Option<String>, StoreError> {
        use rusqlite::OptionalExtension;
        Ok(self
            .reader()
            .query_row(
                "SELECT analysis FROM analyses WHERE code = ?1 AND game_no = ?2",
                rusqlite::params![code, game_no],
                |r| r.get(0),
            )
            .optional()?)
    }
}
