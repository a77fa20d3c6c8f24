//! The SQLite store: WAL journal, `synchronous=FULL` so that a committed change survives a
//! power cut, migrations from `migrations/*.sql` tracked by `PRAGMA user_version`.
//!
//! One write connection (behind a mutex; the changes of rooms reach it from one writer thread,
//! the server's group commit, many rooms per transaction) and a few read connections: with WAL,
//! readers see the last committed state and neither wait for the writer nor block it.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use rusqlite::{params, Connection, OptionalExtension, Row, TransactionBehavior};

pub mod backup;
mod extras;

use crate::error::StoreError;
use crate::rooms::{
    ClientRoom, Commit, Cutoffs, Due, PublicRoom, PublicSeat, RoomStore, RoomWrite,
};
use dames_room::rows::{ActionRow, EventRow, GameRow, RoomRow, RoomState, SeatRow, StoredRoom};

/// The migrations, in order; `user_version` is the number applied.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/0001_rooms.sql"),
    include_str!("../../migrations/0002_push_reviews.sql"),
    include_str!("../../migrations/0003_start_position.sql"),
    include_str!("../../migrations/0004_games.sql"),
    include_str!("../../migrations/0005_stopped_games.sql"),
    include_str!("../../migrations/0006_draw_declined.sql"),
    include_str!("../../migrations/0007_cpu_by.sql"),
    include_str!("../../migrations/0008_clock.sql"),
    include_str!("../../migrations/0009_pairing.sql"),
    include_str!("../../migrations/0010_public.sql"),
    include_str!("../../migrations/0011_analysis.sql"),
    include_str!("../../migrations/0012_seat_memory.sql"),
    include_str!("../../migrations/0013_events_in_log.sql"),
];

/// Read connections beside the write connection.
const READERS: usize = 3;

/// SQLite storage in one file.
#[derive(Debug)]
pub struct SqliteStore {
    writer: Mutex<Connection>,
    /// Empty for an in-memory database (one connection sees it): reads use the writer.
    readers: Vec<Mutex<Connection>>,
    next_reader: AtomicUsize,
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and applies pending migrations.
    ///
    /// # Errors
    /// If the file cannot be opened or a migration fails.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let mut conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // Deleted rows are overwritten with zeros, not only unlinked (see `scrub`).
        conn.pragma_update(None, "secure_delete", "ON")?;
        conn.pragma_update(None, "wal_autocheckpoint", 10000)?;
        // The writer keeps up to 32 MiB of pages (SQLite's default: 2 MiB): the pages of the
        // rooms being played stay in its cache instead of being read back from the file.
        conn.pragma_update(None, "cache_size", -32 * 1024)?;
        migrate(&mut conn)?;
        let in_memory = path.as_os_str().is_empty() || path == Path::new(":memory:");
        let mut readers = Vec::new();
        if !in_memory {
            for _ in 0..READERS {
                let reader = Connection::open(path)?;
                reader.busy_timeout(std::time::Duration::from_secs(5))?;
                reader.pragma_update(None, "query_only", "ON")?;
                readers.push(Mutex::new(reader));
            }
        }
        Ok(Self {
            writer: Mutex::new(conn),
            readers,
            next_reader: AtomicUsize::new(0),
        })
    }

    /// The write connection.
    pub(super) fn conn(&self) -> MutexGuard<'_, Connection> {
        self.writer.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A read connection: a free one if there is one, else the next in turn.
    pub(super) fn reader(&self) -> MutexGuard<'_, Connection> {
        if self.readers.is_empty() {
            return self.conn();
        }
        for reader in &self.readers {
            if let Ok(conn) = reader.try_lock() {
                return conn;
            }
        }
        let n = self.next_reader.fetch_add(1, Ordering::Relaxed) % self.readers.len();
        self.readers[n].lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let done: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(done.max(0) as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}

const ROOM_COLUMNS: &str =
    "code, game, settings, status, version, game_no, first_seat, draw_offer, \
                            created_at, active_at, last_move_at, finished_at, start_fen, \
                            draw_declined, cpu_by, clock";

fn room_from_row(r: &Row<'_>) -> rusqlite::Result<RoomRow> {
    Ok(RoomRow {
        code: r.get(0)?,
        game: r.get(1)?,
        settings: r.get(2)?,
        created_at: r.get(8)?,
        start_fen: r.get(12)?,
        state: RoomState {
            status: r.get(3)?,
            version: r.get(4)?,
            game_no: r.get(5)?,
            first_seat: r.get(6)?,
            draw_offer: r.get(7)?,
            draw_declined: r.get(13)?,
            cpu_by: r.get(14)?,
            active_at: r.get(9)?,
            last_move_at: r.get(10)?,
            finished_at: r.get(11)?,
            clock: r.get(15)?,
        },
    })
}

/// Writes the room row of a change: a new room only if its code is free, an existing one only
/// if its stored version is the one the change was computed from (else `Conflict`).
fn save_room(
    tx: &rusqlite::Transaction<'_>,
    code: &str,
    room: &RoomWrite,
) -> Result<(), StoreError> {
    let written = match room {
        RoomWrite::New(r) => tx
            .prepare_cached(&format!(
                "INSERT INTO rooms ({ROOM_COLUMNS})
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
                 ON CONFLICT (code) DO NOTHING"
            ))?
            .execute(params![
                r.code,
                r.game,
                r.settings,
                r.state.status,
                r.state.version,
                r.state.game_no,
                r.state.first_seat,
                r.state.draw_offer,
                r.created_at,
                r.state.active_at,
                r.state.last_move_at,
                r.state.finished_at,
                r.start_fen,
                r.state.draw_declined,
                r.state.cpu_by,
                r.state.clock
            ])?,
        RoomWrite::Row { from, row: r } => tx
            .prepare_cached(
                "UPDATE rooms SET settings = ?3, status = ?4, version = ?5, game_no = ?6,
                   first_seat = ?7, draw_offer = ?8, active_at = ?9, last_move_at = ?10,
                   finished_at = ?11, start_fen = ?12, draw_declined = ?13,
                   cpu_by = ?14, clock = ?15
                 WHERE code = ?1 AND version = ?2",
            )?
            .execute(params![
                code,
                from,
                r.settings,
                r.state.status,
                r.state.version,
                r.state.game_no,
                r.state.first_seat,
                r.state.draw_offer,
                r.state.active_at,
                r.state.last_move_at,
                r.state.finished_at,
                r.start_fen,
                r.state.draw_declined,
                r.state.cpu_by,
                r.state.clock
            ])?,
        // A move leaves the status as it was: the first statement then has it in its `WHERE`,
        // not its `SET`, so that SQLite leaves the two indexes on the status alone (naming a
        // column in `SET` rewrites every index on it, even to the same value: two more pages
        // in the log at every move). Only when the status changed does the second one run.
        RoomWrite::State { from, state: s } => {
            let values = params![
                code,
                from,
                s.status,
                s.version,
                s.game_no,
                s.first_seat,
                s.draw_offer,
                s.active_at,
                s.last_move_at,
                s.finished_at,
                s.draw_declined,
                s.cpu_by,
                s.clock
            ];
            let same_status = tx
                .prepare_cached(
                    "UPDATE rooms SET version = ?4, game_no = ?5, first_seat = ?6,
                       draw_offer = ?7, active_at = ?8, last_move_at = ?9, finished_at = ?10,
                       draw_declined = ?11, cpu_by = ?12, clock = ?13
                     WHERE code = ?1 AND version = ?2 AND status = ?3",
                )?
                .execute(values)?;
            if same_status == 1 {
                1
            } else {
                tx.prepare_cached(
                    "UPDATE rooms SET status = ?3, version = ?4, game_no = ?5, first_seat = ?6,
                       draw_offer = ?7, active_at = ?8, last_move_at = ?9, finished_at = ?10,
                       draw_declined = ?11, cpu_by = ?12, clock = ?13
                     WHERE code = ?1 AND version = ?2",
                )?
                .execute(values)?
            }
        }
    };
    if written != 1 {
        return Err(StoreError::Conflict {
            code: code.to_owned(),
            expected: room.from(),
        });
    }
    Ok(())
}

const GAME_COLUMNS: &str =
    "game_no, settings, seats, first_seat, start_fen, started_at, finished_at, outcome";

fn game_from_row(r: &Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        game_no: r.get(0)?,
        settings: r.get(1)?,
        seats: r.get(2)?,
        first_seat: r.get(3)?,
        start_fen: r.get(4)?,
        started_at: r.get(5)?,
        finished_at: r.get(6)?,
        outcome: r.get(7)?,
    })
}

fn action_from_row(r: &Row<'_>) -> rusqlite::Result<ActionRow> {
    Ok(ActionRow {
        game_no: r.get(0)?,
        seq: r.get(1)?,
        seat: r.get(2)?,
        kind: r.get(3)?,
        data: r.get(4)?,
        client_id: r.get(5)?,
        at: r.get(6)?,
        clock: r.get(7)?,
    })
}

const ACTIONS_OF_GAME: &str =
    "SELECT game_no, seq, seat, kind, data, client_id, at, clock FROM actions
                               WHERE code = ?1 AND game_no = ?2 ORDER BY seq";

/// Writes a game's row; a second write (its end) keeps the start time of the first.
fn save_game(tx: &rusqlite::Transaction<'_>, code: &str, g: &GameRow) -> rusqlite::Result<()> {
    tx.prepare_cached(&format!(
        "INSERT INTO games (code, {GAME_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT (code, game_no) DO UPDATE SET settings = ?3, seats = ?4, first_seat = ?5,
           start_fen = ?6, started_at = COALESCE(started_at, ?7), finished_at = ?8, outcome = ?9"
    ))?
    .execute(params![
        code,
        g.game_no,
        g.settings,
        g.seats,
        g.first_seat,
        g.start_fen,
        g.started_at,
        g.finished_at,
        g.outcome
    ])?;
    Ok(())
}

fn save_seats(
    tx: &rusqlite::Transaction<'_>,
    code: &str,
    seats: &[SeatRow],
) -> rusqlite::Result<()> {
    tx.prepare_cached("DELETE FROM seats WHERE code = ?1")?
        .execute([code])?;
    let mut stmt = tx.prepare_cached(
        "INSERT INTO seats (code, seat, kind, name, level, token_hash, client, ready, away_since,
                            transfer_hash, transfer_expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?;
    for s in seats {
        stmt.execute(params![
            code,
            s.seat,
            s.kind,
            s.name,
            s.level,
            s.token_hash,
            s.client,
            s.ready,
            s.away_since,
            s.transfer_hash,
            s.transfer_expires_at
        ])?;
    }
    Ok(())
}

fn save_log(tx: &rusqlite::Transaction<'_>, commit: &Commit) -> rusqlite::Result<()> {
    let code = &commit.code;
    // A move: its event kept in its entry's row (0013); else each event in `events`.
    let kept = commit.one_entry_and_its_event().map(|(_, e)| e);
    let mut stmt = tx.prepare_cached(
        "INSERT INTO actions (code, game_no, seq, seat, kind, data, client_id, at, clock,
                              version, event)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?;
    for a in &commit.actions {
        stmt.execute(params![
            code,
            a.game_no,
            a.seq,
            a.seat,
            a.kind,
            a.data,
            a.client_id,
            a.at,
            a.clock,
            kept.map(|e| e.version),
            kept.map(|e| &e.event)
        ])?;
    }
    if kept.is_some() {
        return Ok(());
    }
    let mut stmt =
        tx.prepare_cached("INSERT INTO events (code, version, event, at) VALUES (?1, ?2, ?3, ?4)")?;
    for e in &commit.events {
        stmt.execute(params![code, e.version, e.event, e.at])?;
    }
    Ok(())
}

/// Writes one change inside the batch's transaction.
fn save_change(tx: &rusqlite::Transaction<'_>, c: &Commit) -> Result<(), StoreError> {
    save_room(tx, &c.code, &c.room)?;
    c.check_event_versions()?;
    if let Some(seats) = &c.seats {
        save_seats(tx, &c.code, seats)?;
    }
    save_log(tx, c)?;
    if let Some(game) = &c.game {
        save_game(tx, &c.code, game)?;
        // The oldest games out (rooms::GAMES_KEPT_PER_ROOM).
        let oldest_gone = game.game_no - crate::rooms::GAMES_KEPT_PER_ROOM;
        if oldest_gone >= 1 {
            tx.prepare_cached("DELETE FROM actions WHERE code = ?1 AND game_no <= ?2")?
                .execute(params![c.code, oldest_gone])?;
            tx.prepare_cached("DELETE FROM games WHERE code = ?1 AND game_no <= ?2")?
                .execute(params![c.code, oldest_gone])?;
        }
    }
    if !c.played.is_empty() {
        let mut stmt = tx.prepare_cached(
            "INSERT INTO played (client, game, at) VALUES (?1, ?2, ?3)
             ON CONFLICT (client, game) DO UPDATE SET at = ?3",
        )?;
        for p in &c.played {
            stmt.execute(params![p.client, p.game, p.at])?;
        }
    }
    Ok(())
}

impl RoomStore for SqliteStore {
    fn commit_batch(&self, commits: &[Commit]) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        for c in commits {
            save_change(&tx, c).map_err(|e| e.in_room(&c.code))?;
        }
        tx.commit()?;
        Ok(())
    }

    fn load(&self, code: &str) -> Result<Option<StoredRoom>, StoreError> {
        let mut conn = self.reader();
        // One read transaction: the rows come from one committed state.
        let conn = conn.transaction()?;
        let room = conn
            .query_row(
                &format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE code = ?1"),
                [code],
                room_from_row,
            )
            .optional()?;
        let Some(room) = room else { return Ok(None) };
        let seats = conn
            .prepare_cached(
                "SELECT seat, kind, name, level, token_hash, client, ready, away_since, transfer_hash,
                        transfer_expires_at
                 FROM seats WHERE code = ?1 ORDER BY seat",
            )?
            .query_map([code], |r| {
                Ok(SeatRow {
                    seat: r.get(0)?,
                    kind: r.get(1)?,
                    name: r.get(2)?,
                    level: r.get(3)?,
                    token_hash: r.get(4)?,
                    client: r.get(5)?,
                    ready: r.get(6)?,
                    away_since: r.get(7)?,
                    transfer_hash: r.get(8)?,
                    transfer_expires_at: r.get(9)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let actions = conn
            .prepare_cached(ACTIONS_OF_GAME)?
            .query_map(params![code, room.state.game_no], action_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        let client_ids = conn
            .prepare_cached(
                "SELECT client_id FROM actions WHERE code = ?1 AND client_id IS NOT NULL",
            )?
            .query_map([code], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(Some(StoredRoom {
            room,
            seats,
            actions,
            client_ids,
        }))
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.reader().query_row("SELECT 1", [], |_| Ok(()))?;
        Ok(())
    }

    fn exists(&self, code: &str) -> Result<bool, StoreError> {
        let found = self
            .reader()
            .query_row("SELECT 1 FROM rooms WHERE code = ?1", [code], |_| Ok(()))
            .optional()?;
        Ok(found.is_some())
    }

    fn versions(&self, codes: &[String]) -> Result<Vec<(String, i64)>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached("SELECT version FROM rooms WHERE code = ?1")?;
        let mut found = Vec::with_capacity(codes.len());
        for code in codes {
            if let Some(version) = stmt.query_row([code], |r| r.get(0)).optional()? {
                found.push((code.clone(), version));
            }
        }
        Ok(found)
    }

    fn public_rooms(
        &self,
        status: &str,
        active_since: i64,
        limit: usize,
    ) -> Result<Vec<PublicRoom>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT r.code, r.game, r.settings, r.status, r.game_no, r.created_at, r.active_at,
                    r.last_move_at,
                    (SELECT count(*) FROM actions a
                     WHERE a.code = r.code AND a.game_no = r.game_no AND a.kind = 'move')
             FROM rooms r
             WHERE r.public = 1 AND r.status = ?1 AND r.active_at >= ?2
               AND (?1 <> 'lobby'
                    OR EXISTS (SELECT 1 FROM seats s WHERE s.code = r.code AND s.kind = 'empty'))
             ORDER BY r.active_at DESC, r.code LIMIT ?3",
        )?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut rooms = stmt
            .query_map(params![status, active_since, limit], |r| {
                Ok(PublicRoom {
                    code: r.get(0)?,
                    game: r.get(1)?,
                    settings: r.get(2)?,
                    status: r.get(3)?,
                    game_no: r.get(4)?,
                    created_at: r.get(5)?,
                    active_at: r.get(6)?,
                    last_move_at: r.get(7)?,
                    moves: r.get(8)?,
                    seats: Vec::new(),
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut seats = conn.prepare_cached(
            "SELECT seat, kind, name, level FROM seats WHERE code = ?1 ORDER BY seat",
        )?;
        for room in &mut rooms {
            room.seats = seats
                .query_map([&room.code], |r| {
                    Ok(PublicSeat {
                        seat: r.get(0)?,
                        kind: r.get(1)?,
                        name: r.get(2)?,
                        level: r.get(3)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
        }
        Ok(rooms)
    }

    fn live_codes(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached("SELECT code FROM rooms WHERE status <> 'finished'")?;
        let codes = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(codes)
    }

    fn running_codes(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(crate::rooms::RUNNING_CODES)?;
        let codes = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(codes)
    }

    fn events_since(
        &self,
        code: &str,
        since: i64,
        up_to: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT version, event, at FROM events WHERE code = ?1 AND version > ?2 AND version <= ?3
             UNION ALL
             SELECT version, event, at FROM actions
             WHERE code = ?1 AND version > ?2 AND version <= ?3 AND event IS NOT NULL
             ORDER BY version",
        )?;
        let rows = stmt
            .query_map(params![code, since, up_to], |r| {
                Ok(EventRow {
                    version: r.get(0)?,
                    event: r.get(1)?,
                    at: r.get(2)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    fn due(&self, c: Cutoffs) -> Result<Due, StoreError> {
        let conn = self.reader();
        let codes = |sql: &str, at: i64| -> Result<Vec<String>, StoreError> {
            let mut stmt = conn.prepare_cached(sql)?;
            let rows = stmt
                .query_map([at], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(rows)
        };
        let mut delete = codes(
            "SELECT code FROM rooms WHERE status = 'lobby' AND active_at < ?1",
            c.lobby_active_before,
        )?;
        delete.extend(codes(
            "SELECT code FROM rooms WHERE status = 'finished' AND finished_at < ?1",
            c.finished_before,
        )?);
        let abandon = codes(
            "SELECT code FROM rooms WHERE status = 'playing' AND last_move_at < ?1",
            c.idle_before,
        )?;
        Ok(Due { delete, abandon })
    }

    fn delete(&self, code: &str) -> Result<(), StoreError> {
        self.conn()
            .execute("DELETE FROM rooms WHERE code = ?1", [code])?;
        Ok(())
    }

    fn save_seat_memory(&self, code: &str, rows: &[SeatRow]) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "UPDATE seats SET away_since = ?3, transfer_hash = ?4, transfer_expires_at = ?5
                 WHERE code = ?1 AND seat = ?2 AND token_hash IS ?6",
            )?;
            for s in rows {
                stmt.execute(params![
                    code,
                    s.seat,
                    s.away_since,
                    s.transfer_hash,
                    s.transfer_expires_at,
                    s.token_hash
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// With `secure_delete` on, deleted rows are zeroed in the pages written to the WAL; the
    /// older copies of those pages still in the WAL go when it is checkpointed into the database
    /// and truncated to nothing.
    fn scrub(&self) -> Result<(), StoreError> {
        let conn = self.conn();
        let busy: i64 = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
        if busy != 0 {
            return Err(StoreError::Failed(
                "the WAL could not be truncated (busy)".into(),
            ));
        }
        Ok(())
    }

    fn rooms_of_client(&self, client: &str) -> Result<Vec<ClientRoom>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT s.code, s.seat, r.game, r.status, r.active_at FROM seats s JOIN rooms r ON r.code = s.code
             WHERE s.client = ?1 ORDER BY r.active_at DESC LIMIT 50",
        )?;
        let rows = stmt
            .query_map([client], |r| {
                Ok(ClientRoom {
                    code: r.get(0)?,
                    seat: r.get(1)?,
                    game: r.get(2)?,
                    status: r.get(3)?,
                    active_at: r.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    fn games(
        &self,
        code: &str,
        before: Option<i64>,
        limit: usize,
    ) -> Result<Vec<GameRow>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE code = ?1 AND game_no < ?2
             ORDER BY game_no DESC LIMIT ?3"
        ))?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = stmt
            .query_map(
                params![code, before.unwrap_or(i64::MAX), limit],
                game_from_row,
            )?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    fn game(
        &self,
        code: &str,
        game_no: i64,
    ) -> Result<Option<(GameRow, Vec<ActionRow>)>, StoreError> {
        // One read transaction: the row and the log come from one committed state.
        let mut conn = self.reader();
        let conn = conn.transaction()?;
        let game = conn
            .query_row(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE code = ?1 AND game_no = ?2"),
                params![code, game_no],
                game_from_row,
            )
            .optional()?;
        let Some(game) = game else { return Ok(None) };
        let actions = conn
            .prepare_cached(ACTIONS_OF_GAME)?
            .query_map(params![code, game_no], action_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some((game, actions)))
    }

    fn delete_old_games(&self, finished_before: i64) -> Result<usize, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        const OLD: &str = "SELECT g.code, g.game_no FROM games g JOIN rooms r ON r.code = g.code
                           WHERE g.finished_at < ?1 AND g.game_no < r.game_no";
        tx.execute(
            &format!("DELETE FROM actions WHERE (code, game_no) IN ({OLD})"),
            [finished_before],
        )?;
        let n = tx.execute(
            &format!("DELETE FROM games WHERE (code, game_no) IN ({OLD})"),
            [finished_before],
        )?;
        tx.commit()?;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{a_move, create, room, seat};

    #[test]
    fn what_is_committed_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        {
            let store = SqliteStore::open(&path).unwrap();
            create(&store, &room("AAAAAA", "playing", 10), vec![seat(0, "c")]);
            store.commit(&a_move("AAAAAA", 2, Some("m1"))).unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        let loaded = store.load("AAAAAA").unwrap().unwrap();
        assert_eq!(loaded.room.state.version, 2);
        assert_eq!(loaded.seats, vec![seat(0, "c")]);
        assert_eq!(loaded.client_ids, vec!["m1".to_string()]);
        assert_eq!(store.events_since("AAAAAA", 0, 2).unwrap().len(), 1);
    }

    #[test]
    fn the_games_migration_fills_in_the_games_already_played() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        {
            // A database of the previous version: room K7M2QX on its second game, whose first
            // game's log is still there; a room in the lobby.
            let conn = Connection::open(&path).unwrap();
            for sql in &MIGRATIONS[..3] {
                conn.execute_batch(sql).unwrap();
            }
            conn.pragma_update(None, "user_version", 3).unwrap();
            conn.execute_batch(
                "INSERT INTO rooms (code, game, settings, status, version, game_no, first_seat,
                   created_at, active_at, finished_at)
                 VALUES ('K7M2QX', 'draughts', '{}', 'finished', 9, 2, 0, 1, 50, 50),
                        ('LOBBY1', 'cc', '{}', 'lobby', 1, 0, 0, 1, 1, NULL);
                 INSERT INTO actions (code, game_no, seq, seat, kind, data, at) VALUES
                   ('K7M2QX', 1, 0, 1, 'move', '{}', 10), ('K7M2QX', 1, 1, 0, 'move', '{}', 11),
                   ('K7M2QX', 1, 2, 1, 'resign', NULL, 12),
                   ('K7M2QX', 2, 0, 0, 'move', '{}', 40), ('K7M2QX', 2, 1, 1, 'resign', NULL, 50);",
            )
            .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        let games = store.games("K7M2QX", None, 10).unwrap();
        let game = |game_no, first_seat, started_at, finished_at| GameRow {
            game_no,
            settings: "{}".into(),
            seats: None,
            first_seat,
            start_fen: None,
            started_at,
            finished_at,
            outcome: None,
        };
        assert_eq!(
            games,
            vec![game(2, 0, None, Some(50)), game(1, 1, Some(10), Some(12))]
        );
        assert!(store.games("LOBBY1", None, 10).unwrap().is_empty());
        let (row, log) = store.game("K7M2QX", 1).unwrap().unwrap();
        assert_eq!((row.game_no, log.len()), (1, 3));
        assert!(store.game("K7M2QX", 3).unwrap().is_none());
    }
}
