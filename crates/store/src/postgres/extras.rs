//! The PostgreSQL implementations of [`FeedbackStore`], [`PushStore`] and [`PairingStore`].

use postgres::Row;

use super::PostgresStore;
use crate::analysis::AnalysisStore;
use crate::error::StoreError;
use crate::feedback::{FeedbackRow, FeedbackStore};
use crate::pairing::{LeaveRow, PairingStore};
use crate::push::{PushStore, PushSub};

fn feedback_from_row(r: &Row) -> FeedbackRow {
    FeedbackRow {
        id: r.get(0),
        kind: r.get(1),
        game: r.get(2),
        stars: r.get(3),
        body: r.get(4),
        name: r.get(5),
        status: r.get(6),
        client: r.get(7),
        created_at: r.get(8),
    }
}

fn count(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

impl FeedbackStore for PostgresStore {
    fn has_played(&self, client: &str, game: &str) -> Result<bool, StoreError> {
        // The record, or a room still kept whose (first) game this browser finished.
        let mut pooled = self.get()?;
        Ok(pooled
            .conn()
            .client
            .query_opt(
                "SELECT 1 FROM played WHERE client = $1 AND game = $2
                 UNION ALL
                 SELECT 1 FROM seats s JOIN rooms r ON r.code = s.code
                 WHERE s.client = $1 AND r.game = $2 AND (r.status = 'finished' OR r.game_no > 1)
                 LIMIT 1",
                &[&client, &game],
            )?
            .is_some())
    }

    fn add_feedback(&self, row: &FeedbackRow) -> Result<i64, StoreError> {
        let mut pooled = self.get()?;
        let id = pooled.conn().client.query_one(
            "INSERT INTO feedback (kind, game, stars, body, name, status, client, created_at)
             VALUES ($1, $2, $3, $4, $5, 'new', $6, $7) RETURNING id",
            &[
                &row.kind,
                &row.game,
                &row.stars,
                &row.body,
                &row.name,
                &row.client,
                &row.created_at,
            ],
        )?;
        Ok(id.get(0))
    }

    fn feedback(&self, limit: i64) -> Result<Vec<FeedbackRow>, StoreError> {
        let mut pooled = self.get()?;
        let rows = pooled.conn().client.query(
            "SELECT id, kind, game, stars, body, name, status, client, created_at FROM feedback
             WHERE kind <> 'report' ORDER BY created_at DESC, id DESC LIMIT $1",
            &[&limit.max(0)],
        )?;
        Ok(rows.iter().map(feedback_from_row).collect())
    }

    fn count_feedback(&self, client: &str, kind: &str, since: i64) -> Result<usize, StoreError> {
        let mut pooled = self.get()?;
        let row = pooled.conn().client.query_one(
            "SELECT count(*) FROM feedback WHERE client = $1 AND kind = $2 AND created_at > $3",
            &[&client, &kind, &since],
        )?;
        Ok(usize::try_from(row.get::<_, i64>(0)).unwrap_or(0))
    }

    fn delete_feedback(&self, id: i64, client: &str) -> Result<bool, StoreError> {
        let mut pooled = self.get()?;
        Ok(pooled.conn().client.execute(
            "DELETE FROM feedback WHERE id = $1 AND client = $2",
            &[&id, &client],
        )? > 0)
    }

    fn set_feedback_status(&self, id: i64, status: &str) -> Result<bool, StoreError> {
        let mut pooled = self.get()?;
        Ok(pooled.conn().client.execute(
            "UPDATE feedback SET status = $2 WHERE id = $1",
            &[&id, &status],
        )? > 0)
    }

    fn sweep_feedback(&self, before: i64) -> Result<usize, StoreError> {
        let mut pooled = self.get()?;
        let mut tx = pooled.conn().client.transaction()?;
        let mut n = tx.execute("DELETE FROM feedback WHERE created_at < $1", &[&before])?;
        n += tx.execute("DELETE FROM played WHERE at < $1", &[&before])?;
        tx.commit()?;
        Ok(count(n))
    }
}

impl PushStore for PostgresStore {
    fn server_key(&self, name: &str) -> Result<Option<String>, StoreError> {
        let mut pooled = self.get()?;
        Ok(pooled
            .conn()
            .client
            .query_opt("SELECT value FROM server_keys WHERE name = $1", &[&name])?
            .map(|r| r.get(0)))
    }

    fn init_server_key(&self, name: &str, value: &str) -> Result<String, StoreError> {
        let mut pooled = self.get()?;
        let client = &mut pooled.conn().client;
        client.execute(
            "INSERT INTO server_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
            &[&name, &value],
        )?;
        Ok(client
            .query_one("SELECT value FROM server_keys WHERE name = $1", &[&name])?
            .get(0))
    }

    fn save_push(&self, sub: &PushSub, now: i64) -> Result<(), StoreError> {
        let mut pooled = self.get()?;
        pooled.conn().client.execute(
            "INSERT INTO push_subscriptions (code, seat, endpoint, p256dh, auth, created_at)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (code, seat) DO UPDATE SET endpoint = $3, p256dh = $4, auth = $5,
               created_at = $6",
            &[
                &sub.code,
                &sub.seat,
                &sub.endpoint,
                &sub.p256dh,
                &sub.auth,
                &now,
            ],
        )?;
        Ok(())
    }

    fn push_of(&self, code: &str, seat: i64) -> Result<Option<PushSub>, StoreError> {
        let mut pooled = self.get()?;
        Ok(pooled
            .conn()
            .client
            .query_opt(
                "SELECT code, seat, endpoint, p256dh, auth FROM push_subscriptions
                 WHERE code = $1 AND seat = $2",
                &[&code, &seat],
            )?
            .map(|r| PushSub {
                code: r.get(0),
                seat: r.get(1),
                endpoint: r.get(2),
                p256dh: r.get(3),
                auth: r.get(4),
            }))
    }

    fn delete_push_endpoint(&self, endpoint: &str) -> Result<(), StoreError> {
        let mut pooled = self.get()?;
        pooled.conn().client.execute(
            "DELETE FROM push_subscriptions WHERE endpoint = $1",
            &[&endpoint],
        )?;
        Ok(())
    }

    fn delete_push_seat(&self, code: &str, seat: i64) -> Result<(), StoreError> {
        let mut pooled = self.get()?;
        pooled.conn().client.execute(
            "DELETE FROM push_subscriptions WHERE code = $1 AND seat = $2",
            &[&code, &seat],
        )?;
        Ok(())
    }

    fn delete_push_room(&self, code: &str) -> Result<(), StoreError> {
        let mut pooled = self.get()?;
        pooled
            .conn()
            .client
            .execute("DELETE FROM push_subscriptions WHERE code = $1", &[&code])?;
        Ok(())
    }

    fn sweep_push(&self, finished_before: i64) -> Result<usize, StoreError> {
        let mut pooled = self.get()?;
        let n = pooled.conn().client.execute(
            "DELETE FROM push_subscriptions WHERE code IN
             (SELECT code FROM rooms WHERE status = 'finished' AND finished_at < $1)",
            &[&finished_before],
        )?;
        Ok(count(n))
    }
}

impl PairingStore for PostgresStore {
    fn block(&self, client: &str, blocked: &str, at: i64) -> Result<(), StoreError> {
        let mut pooled = self.get()?;
        pooled.conn().client.execute(
            "INSERT INTO blocks (client, blocked, at) VALUES ($1, $2, $3)
             ON CONFLICT (client, blocked) DO UPDATE SET at = $3",
            &[&client, &blocked, &at],
        )?;
        Ok(())
    }

    fn clear_blocks(&self, client: &str) -> Result<usize, StoreError> {
        let mut pooled = self.get()?;
        let n =
            (pooled.conn().client).execute("DELETE FROM blocks WHERE client = $1", &[&client])?;
        Ok(count(n))
    }

    fn avoided(&self, client: &str) -> Result<Vec<String>, StoreError> {
        let mut pooled = self.get()?;
        let rows = pooled.conn().client.query(
            "SELECT blocked FROM blocks WHERE client = $1
             UNION SELECT client FROM blocks WHERE blocked = $1 ORDER BY 1",
            &[&client],
        )?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn record_leave(&self, leave: &LeaveRow) -> Result<bool, StoreError> {
        let mut pooled = self.get()?;
        let n = pooled.conn().client.execute(
            "INSERT INTO leaves (code, game_no, seat, client, at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT DO NOTHING",
            &[
                &leave.code,
                &leave.game_no,
                &leave.seat,
                &leave.client,
                &leave.at,
            ],
        )?;
        Ok(n > 0)
    }

    fn leaves_since(&self, client: &str, since: i64) -> Result<u32, StoreError> {
        let mut pooled = self.get()?;
        let n: i64 = pooled
            .conn()
            .client
            .query_one(
                "SELECT COUNT(*) FROM leaves WHERE client = $1 AND at >= $2",
                &[&client, &since],
            )?
            .get(0);
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    fn sweep_leaves(&self, before: i64) -> Result<usize, StoreError> {
        let mut pooled = self.get()?;
        let n = (pooled.conn().client).execute("DELETE FROM leaves WHERE at < $1", &[&before])?;
        Ok(count(n))
    }
}

impl AnalysisStore for PostgresStore {
    fn save_analysis(
        &self,
        code: &str,
        game_no: i64,
        analysis: &str,
        at: i64,
    ) -> Result<bool, StoreError> {
        let mut pooled = self.get()?;
        // Only for a game that exists: no foreign-key error for a game deleted meanwhile.
        let n = (pooled.conn().client).execute(
            "INSERT INTO analyses (code, game_no, analysis, at)
             SELECT code, game_no, $3, $4 FROM games WHERE code = $1 AND game_no = $2
             ON CONFLICT (code, game_no) DO UPDATE SET analysis = EXCLUDED.analysis, at = EXCLUDED.at",
            &[&code, &game_no, &analysis, &at],
        )?;
        Ok(n > 0)
    }

    fn analysis(&self, code: &str, game_no: i64) -> Result<Option<String>, StoreError> {
        let mut pooled = self.get()?;
        let row = (pooled.conn().client).query_opt(
            "SELECT analysis FROM analyses WHERE code = $1 AND game_no = $2",
            &[&code, &game_no],
        )?;
        Ok(row.map(|r| r.get(0)))
    }
}
