//! The PostgreSQL store, for several nodes on one database (issue 13, docs/cluster.md): the same
//! traits and the same contract as [`super::SqliteStore`] (the conformance suite runs on both),
//! migrations from `migrations/postgres/*.sql` applied at open under an advisory lock (so that
//! nodes starting together apply each once).
//!
//! Blocking like the rest of the store, over the synchronous `postgres` client and a small pool
//! of connections, each keeping the statements it prepared. A batch of changes is one
//! transaction (group commit); every change of an existing room updates its row only if the
//! stored version is the one the change was computed from, so two nodes can never both apply a
//! change to the same room: the second gets [`StoreError::Conflict`].

mod extras;
mod scratch;

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, MutexGuard};

use postgres::{Client, IsolationLevel, NoTls, Row, Statement, Transaction};

use crate::error::StoreError;
use crate::rooms::{
    ClientRoom, Commit, Cutoffs, Due, PublicRoom, PublicSeat, RoomStore, RoomWrite,
};
use dames_room::rows::{ActionRow, EventRow, GameRow, RoomRow, RoomState, SeatRow, StoredRoom};

pub use scratch::ScratchDatabase;

/// The migrations, in order; the table `dames_migrations` records those applied.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/postgres/0001_schema.sql"),
    include_str!("../../migrations/postgres/0002_draw_declined.sql"),
    include_str!("../../migrations/postgres/0003_cpu_by.sql"),
    include_str!("../../migrations/postgres/0004_clock.sql"),
    include_str!("../../migrations/postgres/0005_pairing.sql"),
    include_str!("../../migrations/postgres/0006_public.sql"),
    include_str!("../../migrations/postgres/0007_analysis.sql"),
    include_str!("../../migrations/postgres/0008_seat_memory.sql"),
    include_str!("../../migrations/postgres/0009_events_in_log.sql"),
];

/// Connections open at most; a caller waits for a free one beyond that.
const POOL: usize = 8;

/// The key of the advisory lock held while migrating (any constant the application owns).
const MIGRATION_LOCK: i64 = 0x6461_6d65_735f_6d67;

impl From<postgres::Error> for StoreError {
    fn from(err: postgres::Error) -> Self {
        // The server's message and code, not only "db error".
        match err.as_db_error() {
            Some(db) => Self::Failed(format!("{} ({})", db.message(), db.code().code())),
            None => Self::Failed(err.to_string()),
        }
    }
}

/// A connection and the statements prepared on it.
struct Conn {
    client: Client,
    statements: HashMap<&'static str, Statement>,
}

#[derive(Default)]
struct Pool {
    idle: Vec<Conn>,
    open: usize,
}

/// PostgreSQL storage.
pub struct PostgresStore {
    config: postgres::Config,
    pool: Mutex<Pool>,
    freed: Condvar,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the configuration: it may hold a password.
        f.debug_struct("PostgresStore").finish_non_exhaustive()
    }
}

/// A connection taken from the pool, given back when dropped (unless it broke).
struct Pooled<'a> {
    store: &'a PostgresStore,
    conn: Option<Conn>,
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        let mut pool = self.store.pool();
        match self.conn.take() {
            Some(conn) if !conn.client.is_closed() => pool.idle.push(conn),
            broken => {
                pool.open -= 1;
                discard(broken);
            }
        }
        drop(pool);
        self.store.freed.notify_one();
    }
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        discard(std::mem::take(&mut self.pool().idle));
    }
}

/// Drops connections on a thread of their own: each runs a small runtime, which must not be
/// dropped on a thread of the server's async runtime (the store may be dropped there).
fn discard<T: Send + 'static>(conns: T) {
    let _ = std::thread::spawn(move || drop(conns));
}

impl Pooled<'_> {
    fn conn(&mut self) -> &mut Conn {
        self.conn
            .as_mut()
            .expect("a pooled connection is held until dropped")
    }
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://user@host:port/db`) and applies pending
    /// migrations.
    ///
    /// # Errors
    /// If the URL is not one, the server cannot be reached or a migration fails.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        let config: postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Failed(format!("database URL: {e}")))?;
        let store = Self {
            config,
            pool: Mutex::new(Pool::default()),
            freed: Condvar::new(),
        };
        {
            let mut conn = store.get()?;
            migrate(&mut conn.conn().client)?;
        }
        Ok(store)
    }

    fn pool(&self) -> MutexGuard<'_, Pool> {
        self.pool.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A free connection, a new one while fewer than [`POOL`] are open, else the next freed.
    fn get(&self) -> Result<Pooled<'_>, StoreError> {
        let mut pool = self.pool();
        loop {
            if let Some(conn) = pool.idle.pop() {
                return Ok(Pooled {
                    store: self,
                    conn: Some(conn),
                });
            }
            if pool.open < POOL {
                pool.open += 1;
                drop(pool);
                return match self.config.connect(NoTls) {
                    Ok(client) => Ok(Pooled {
                        store: self,
                        conn: Some(Conn {
                            client,
                            statements: HashMap::new(),
                        }),
                    }),
                    Err(err) => {
                        self.pool().open -= 1;
                        self.freed.notify_one();
                        Err(err.into())
                    }
                };
            }
            pool = self.freed.wait(pool).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Applies the migrations not yet applied, each in its own transaction, under an advisory
/// lock: a node starting while another migrates waits, then finds them applied.
fn migrate(client: &mut Client) -> Result<(), StoreError> {
    client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])?;
    let result = (|| -> Result<(), StoreError> {
        client.batch_execute(
            "CREATE TABLE IF NOT EXISTS dames_migrations (
                 version    BIGINT PRIMARY KEY,
                 applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
             )",
        )?;
        let done: i64 = client
            .query_one(
                "SELECT COALESCE(MAX(version), 0) FROM dames_migrations",
                &[],
            )?
            .get(0);
        for (i, sql) in MIGRATIONS.iter().enumerate() {
            let version = i as i64 + 1;
            if version <= done {
                continue;
            }
            let mut tx = client.transaction()?;
            tx.batch_execute(sql)?;
            tx.execute(
                "INSERT INTO dames_migrations (version) VALUES ($1)",
                &[&version],
            )?;
            tx.commit()?;
        }
        Ok(())
    })();
    client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])?;
    result
}

/// The statement for `sql` on this connection, prepared once.
///
/// Every query of a hot path goes through here: a query given as text is parsed and planned by
/// PostgreSQL at every call (a node restarted in a deploy loads 1,000 rooms, four queries each,
/// while the others answer the players it sent them: parsing and planning were most of the
/// database's CPU).
fn prepared<C: postgres::GenericClient>(
    client: &mut C,
    statements: &mut HashMap<&'static str, Statement>,
    sql: &'static str,
) -> Result<Statement, postgres::Error> {
    if let Some(statement) = statements.get(sql) {
        return Ok(statement.clone());
    }
    let statement = client.prepare(sql)?;
    statements.insert(sql, statement.clone());
    Ok(statement)
}

const ROOM_COLUMNS: &str =
    "code, game, settings, status, version, game_no, first_seat, draw_offer, \
                            created_at, active_at, last_move_at, finished_at, start_fen, \
                            draw_declined, cpu_by, clock";

fn room_from_row(r: &Row) -> RoomRow {
    RoomRow {
        code: r.get(0),
        game: r.get(1),
        settings: r.get(2),
        created_at: r.get(8),
        start_fen: r.get(12),
        state: RoomState {
            status: r.get(3),
            version: r.get(4),
            game_no: r.get(5),
            first_seat: r.get(6),
            draw_offer: r.get(7),
            draw_declined: r.get(13),
            cpu_by: r.get(14),
            active_at: r.get(9),
            last_move_at: r.get(10),
            finished_at: r.get(11),
            clock: r.get(15),
        },
    }
}

const GAME_COLUMNS: &str =
    "game_no, settings, seats, first_seat, start_fen, started_at, finished_at, outcome";

fn game_from_row(r: &Row) -> GameRow {
    GameRow {
        game_no: r.get(0),
        settings: r.get(1),
        seats: r.get(2),
        first_seat: r.get(3),
        start_fen: r.get(4),
        started_at: r.get(5),
        finished_at: r.get(6),
        outcome: r.get(7),
    }
}

fn action_from_row(r: &Row) -> ActionRow {
    ActionRow {
        game_no: r.get(0),
        seq: r.get(1),
        seat: r.get(2),
        kind: r.get(3),
        data: r.get(4),
        client_id: r.get(5),
        at: r.get(6),
        clock: r.get(7),
    }
}

/// A game's log (its columns are [`ACTION_COLUMNS`], read by [`action_from_row`]).
static ACTIONS_OF_GAME: std::sync::LazyLock<&'static str> = std::sync::LazyLock::new(|| {
    format!("SELECT {ACTION_COLUMNS} FROM actions WHERE code = $1 AND game_no = $2 ORDER BY seq")
        .leak()
});

/// A room with its seats, the log of its current game and every client id of its log, in one
/// row: the room's columns ([`ROOM_COLUMNS`]), then one array per column of the other tables
/// (NULL when there is no row; read by [`stored_from_row`]).
static LOAD_ROOM: std::sync::LazyLock<&'static str> = std::sync::LazyLock::new(|| {
    let room = ROOM_COLUMNS
        .split(", ")
        .map(|c| format!("r.{}", c.trim()))
        .collect::<Vec<_>>()
        .join(", ");
    let agg = |columns: &str, order: &str| {
        columns
            .split(", ")
            .map(|c| format!("array_agg({c} ORDER BY {order}) AS {c}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "SELECT {room}, s.*, a.*, c.*
         FROM rooms r
         CROSS JOIN LATERAL (SELECT {} FROM seats WHERE code = r.code) s
         CROSS JOIN LATERAL (SELECT {} FROM actions WHERE code = r.code AND game_no = r.game_no) a
         CROSS JOIN LATERAL (SELECT array_agg(client_id) AS ids FROM actions
                             WHERE code = r.code AND client_id IS NOT NULL) c
         WHERE r.code = $1",
        agg(SEAT_COLUMNS, "seat"),
        agg(ACTION_COLUMNS, "seq"),
    )
    .leak()
});

const SEAT_COLUMNS: &str =
    "seat, kind, name, level, token_hash, client, ready, away_since, transfer_hash, transfer_expires_at";

const ACTION_COLUMNS: &str = "game_no, seq, seat, kind, data, client_id, at, clock";

/// Reads a row of [`LOAD_ROOM`].
fn stored_from_row(row: &Row) -> StoredRoom {
    // Column `i`'s array, one item a row of its table (an aggregate over no row is NULL).
    fn column<'a, T: postgres::types::FromSql<'a>>(
        row: &'a Row,
        i: usize,
    ) -> std::vec::IntoIter<T> {
        row.get::<_, Option<Vec<T>>>(i)
            .unwrap_or_default()
            .into_iter()
    }
    let s = ROOM_COLUMNS.split(',').count(); // the seats' first column, after the room's
    let (mut seat, mut kind, mut name, mut level, mut token_hash) = (
        column(row, s),
        column(row, s + 1),
        column(row, s + 2),
        column(row, s + 3),
        column(row, s + 4),
    );
    let (mut client, mut ready, mut away_since, mut transfer_hash, mut transfer_expires_at) = (
        column(row, s + 5),
        column(row, s + 6),
        column(row, s + 7),
        column(row, s + 8),
        column(row, s + 9),
    );
    let seats = std::iter::from_fn(|| {
        Some(SeatRow {
            seat: seat.next()?,
            kind: kind.next()?,
            name: name.next()?,
            level: level.next()?,
            token_hash: token_hash.next()?,
            client: client.next()?,
            ready: ready.next()?,
            away_since: away_since.next()?,
            transfer_hash: transfer_hash.next()?,
            transfer_expires_at: transfer_expires_at.next()?,
        })
    })
    .collect();
    let a = s + 10; // the actions' first column
    let (mut game_no, mut seq, mut seat, mut kind) = (
        column(row, a),
        column(row, a + 1),
        column(row, a + 2),
        column(row, a + 3),
    );
    let (mut data, mut client_id, mut at, mut clock) = (
        column(row, a + 4),
        column(row, a + 5),
        column(row, a + 6),
        column(row, a + 7),
    );
    let actions = std::iter::from_fn(|| {
        Some(ActionRow {
            game_no: game_no.next()?,
            seq: seq.next()?,
            seat: seat.next()?,
            kind: kind.next()?,
            data: data.next()?,
            client_id: client_id.next()?,
            at: at.next()?,
            clock: clock.next()?,
        })
    })
    .collect();
    StoredRoom {
        room: room_from_row(row),
        seats,
        actions,
        client_ids: column::<String>(row, a + 8).collect(),
    }
}

/// Writes the room row of a change; a version that is not the stored one is a conflict.
fn save_room(
    tx: &mut Transaction<'_>,
    st: &mut HashMap<&'static str, Statement>,
    code: &str,
    room: &RoomWrite,
) -> Result<(), StoreError> {
    let (written, from) = match room {
        RoomWrite::New(r) => {
            let s = prepared(
                tx,
                st,
                "INSERT INTO rooms (code, game, settings, status, version, game_no, first_seat,
                   draw_offer, created_at, active_at, last_move_at, finished_at, start_fen,
                   draw_declined, cpu_by, clock)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
                 ON CONFLICT (code) DO NOTHING",
            )?;
            let s2 = &r.state;
            let n = tx.execute(
                &s,
                &[
                    &r.code,
                    &r.game,
                    &r.settings,
                    &s2.status,
                    &s2.version,
                    &s2.game_no,
                    &s2.first_seat,
                    &s2.draw_offer,
                    &r.created_at,
                    &s2.active_at,
                    &s2.last_move_at,
                    &s2.finished_at,
                    &r.start_fen,
                    &s2.draw_declined,
                    &s2.cpu_by,
                    &s2.clock,
                ],
            )?;
            (n, None)
        }
        RoomWrite::Row { from, row: r } => {
            let s = prepared(
                tx,
                st,
                "UPDATE rooms SET settings = $3, status = $4, version = $5, game_no = $6,
                   first_seat = $7, draw_offer = $8, active_at = $9, last_move_at = $10,
                   finished_at = $11, start_fen = $12, draw_declined = $13,
                   cpu_by = $14, clock = $15
                 WHERE code = $1 AND version = $2",
            )?;
            let s2 = &r.state;
            let n = tx.execute(
                &s,
                &[
                    &code,
                    from,
                    &r.settings,
                    &s2.status,
                    &s2.version,
                    &s2.game_no,
                    &s2.first_seat,
                    &s2.draw_offer,
                    &s2.active_at,
                    &s2.last_move_at,
                    &s2.finished_at,
                    &r.start_fen,
                    &s2.draw_declined,
                    &s2.cpu_by,
                    &s2.clock,
                ],
            )?;
            (n, Some(*from))
        }
        RoomWrite::State { from, state: s2 } => {
            let s = prepared(
                tx,
                st,
                "UPDATE rooms SET status = $3, version = $4, game_no = $5, first_seat = $6,
                   draw_offer = $7, active_at = $8, last_move_at = $9, finished_at = $10,
                   draw_declined = $11, cpu_by = $12, clock = $13
                 WHERE code = $1 AND version = $2",
            )?;
            let n = tx.execute(
                &s,
                &[
                    &code,
                    from,
                    &s2.status,
                    &s2.version,
                    &s2.game_no,
                    &s2.first_seat,
                    &s2.draw_offer,
                    &s2.active_at,
                    &s2.last_move_at,
                    &s2.finished_at,
                    &s2.draw_declined,
                    &s2.cpu_by,
                    &s2.clock,
                ],
            )?;
            (n, Some(*from))
        }
    };
    if written != 1 {
        return Err(StoreError::Conflict {
            code: code.to_owned(),
            expected: from,
        });
    }
    Ok(())
}

/// Writes one change inside the batch's transaction.
fn save_change(
    tx: &mut Transaction<'_>,
    st: &mut HashMap<&'static str, Statement>,
    c: &Commit,
) -> Result<(), StoreError> {
    save_room(tx, st, &c.code, &c.room)?;
    c.check_event_versions()?;
    let code = &c.code;
    if let Some(seats) = &c.seats {
        let del = prepared(tx, st, "DELETE FROM seats WHERE code = $1")?;
        tx.execute(&del, &[code])?;
        let ins = prepared(
            tx,
            st,
            "INSERT INTO seats (code, seat, kind, name, level, token_hash, client, ready,
                                away_since, transfer_hash, transfer_expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )?;
        for s in seats {
            tx.execute(
                &ins,
                &[
                    code,
                    &s.seat,
                    &s.kind,
                    &s.name,
                    &s.level,
                    &s.token_hash,
                    &s.client,
                    &s.ready,
                    &s.away_since,
                    &s.transfer_hash,
                    &s.transfer_expires_at,
                ],
            )?;
        }
    }
    // A move: its event kept in its entry's row (0009); else each event in `events`.
    let kept = c.one_entry_and_its_event().map(|(_, e)| e);
    if !c.actions.is_empty() {
        let ins = prepared(
            tx,
            st,
            "INSERT INTO actions (code, game_no, seq, seat, kind, data, client_id, at, clock,
                                  version, event)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )?;
        let (version, event) = (kept.map(|e| e.version), kept.map(|e| &e.event));
        for a in &c.actions {
            tx.execute(
                &ins,
                &[
                    code,
                    &a.game_no,
                    &a.seq,
                    &a.seat,
                    &a.kind,
                    &a.data,
                    &a.client_id,
                    &a.at,
                    &a.clock,
                    &version,
                    &event,
                ],
            )?;
        }
    }
    if kept.is_none() && !c.events.is_empty() {
        let ins = prepared(
            tx,
            st,
            "INSERT INTO events (code, version, event, at) VALUES ($1, $2, $3, $4)",
        )?;
        for e in &c.events {
            tx.execute(&ins, &[code, &e.version, &e.event, &e.at])?;
        }
    }
    if let Some(g) = &c.game {
        // A second write (its end) keeps the start time of the first.
        let up = prepared(
            tx,
            st,
            "INSERT INTO games (code, game_no, settings, seats, first_seat, start_fen, started_at,
               finished_at, outcome)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (code, game_no) DO UPDATE SET settings = $3, seats = $4, first_seat = $5,
               start_fen = $6, started_at = COALESCE(games.started_at, $7), finished_at = $8,
               outcome = $9",
        )?;
        tx.execute(
            &up,
            &[
                code,
                &g.game_no,
                &g.settings,
                &g.seats,
                &g.first_seat,
                &g.start_fen,
                &g.started_at,
                &g.finished_at,
                &g.outcome,
            ],
        )?;
        // The oldest games out (rooms::GAMES_KEPT_PER_ROOM).
        let oldest_gone = g.game_no - crate::rooms::GAMES_KEPT_PER_ROOM;
        if oldest_gone >= 1 {
            for sql in [
                "DELETE FROM actions WHERE code = $1 AND game_no <= $2",
                "DELETE FROM games WHERE code = $1 AND game_no <= $2",
            ] {
                let gone = prepared(tx, st, sql)?;
                tx.execute(&gone, &[code, &oldest_gone])?;
            }
        }
    }
    if !c.played.is_empty() {
        let up = prepared(
            tx,
            st,
            "INSERT INTO played (client, game, at) VALUES ($1, $2, $3)
             ON CONFLICT (client, game) DO UPDATE SET at = $3",
        )?;
        for p in &c.played {
            tx.execute(&up, &[&p.client, &p.game, &p.at])?;
        }
    }
    Ok(())
}

impl RoomStore for PostgresStore {
    fn commit_batch(&self, commits: &[Commit]) -> Result<(), StoreError> {
        let mut pooled = self.get()?;
        let Conn { client, statements } = pooled.conn();
        let mut tx = client.transaction()?;
        for c in commits {
            save_change(&mut tx, statements, c).map_err(|e| e.in_room(&c.code))?;
        }
        tx.commit()?;
        Ok(())
    }

    fn load(&self, code: &str) -> Result<Option<StoredRoom>, StoreError> {
        let mut pooled = self.get()?;
        let Conn { client, statements } = pooled.conn();
        // One statement, so one snapshot and one round trip (a node taking over a stopped
        // node's players loads hundreds of rooms at once: docs/cluster.md).
        let st = prepared(client, statements, &LOAD_ROOM)?;
        let Some(row) = client.query_opt(&st, &[&code])? else {
            return Ok(None);
        };
        Ok(Some(stored_from_row(&row)))
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.get()?.conn().client.simple_query("SELECT 1")?;
        Ok(())
    }

    fn exists(&self, code: &str) -> Result<bool, StoreError> {
        let mut pooled = self.get()?;
        Ok(pooled
            .conn()
            .client
            .query_opt("SELECT 1 FROM rooms WHERE code = $1", &[&code])?
            .is_some())
    }

    fn versions(&self, codes: &[String]) -> Result<Vec<(String, i64)>, StoreError> {
        let mut pooled = self.get()?;
        let Conn { client, statements } = pooled.conn();
        let st = prepared(
            client,
            statements,
            "SELECT code, version::BIGINT FROM rooms WHERE code = ANY($1)",
        )?;
        let rows = client.query(&st, &[&codes])?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    fn public_rooms(
        &self,
        status: &str,
        active_since: i64,
        limit: usize,
    ) -> Result<Vec<PublicRoom>, StoreError> {
        let mut pooled = self.get()?;
        let client = &mut pooled.conn().client;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = client.query(
            "SELECT r.code, r.game, r.settings, r.status, r.game_no::BIGINT,
                    r.created_at::BIGINT, r.active_at::BIGINT, r.last_move_at::BIGINT,
                    (SELECT count(*) FROM actions a
                     WHERE a.code = r.code AND a.game_no = r.game_no AND a.kind = 'move')::BIGINT
             FROM rooms r
             WHERE r.public AND r.status = $1 AND r.active_at >= $2
               AND ($1 <> 'lobby'
                    OR EXISTS (SELECT 1 FROM seats s WHERE s.code = r.code AND s.kind = 'empty'))
             ORDER BY r.active_at DESC, r.code LIMIT $3",
            &[&status, &active_since, &limit],
        )?;
        let mut rooms: Vec<PublicRoom> = rows
            .iter()
            .map(|r| PublicRoom {
                code: r.get(0),
                game: r.get(1),
                settings: r.get(2),
                status: r.get(3),
                game_no: r.get(4),
                created_at: r.get(5),
                active_at: r.get(6),
                last_move_at: r.get(7),
                moves: r.get(8),
                seats: Vec::new(),
            })
            .collect();
        let codes: Vec<String> = rooms.iter().map(|r| r.code.clone()).collect();
        let seats = client.query(
            "SELECT code, seat::BIGINT, kind, name, level FROM seats
             WHERE code = ANY($1) ORDER BY code, seat",
            &[&codes],
        )?;
        for row in &seats {
            let code: String = row.get(0);
            if let Some(room) = rooms.iter_mut().find(|r| r.code == code) {
                room.seats.push(PublicSeat {
                    seat: row.get(1),
                    kind: row.get(2),
                    name: row.get(3),
                    level: row.get(4),
                });
            }
        }
        Ok(rooms)
    }

    fn live_codes(&self) -> Result<Vec<String>, StoreError> {
        let mut pooled = self.get()?;
        let rows = pooled
            .conn()
            .client
            .query("SELECT code FROM rooms WHERE status <> 'finished'", &[])?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn running_codes(&self) -> Result<Vec<String>, StoreError> {
        let mut pooled = self.get()?;
        let rows = pooled
            .conn()
            .client
            .query(crate::rooms::RUNNING_CODES, &[])?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn events_since(
        &self,
        code: &str,
        since: i64,
        up_to: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        let mut pooled = self.get()?;
        let Conn { client, statements } = pooled.conn();
        let st = prepared(
            client,
            statements,
            "SELECT version, event, at FROM events
             WHERE code = $1 AND version > $2 AND version <= $3
             UNION ALL
             SELECT version, event, at FROM actions
             WHERE code = $1 AND version > $2 AND version <= $3 AND event IS NOT NULL
             ORDER BY version",
        )?;
        let rows = client.query(&st, &[&code, &since, &up_to])?;
        Ok(rows
            .iter()
            .map(|r| EventRow {
                version: r.get(0),
                event: r.get(1),
                at: r.get(2),
            })
            .collect())
    }

    fn due(&self, c: Cutoffs) -> Result<Due, StoreError> {
        let mut pooled = self.get()?;
        let client = &mut pooled.conn().client;
        let mut codes = |sql: &str, at: i64| -> Result<Vec<String>, StoreError> {
            Ok(client
                .query(sql, &[&at])?
                .iter()
                .map(|r| r.get(0))
                .collect())
        };
        let mut delete = codes(
            "SELECT code FROM rooms WHERE status = 'lobby' AND active_at < $1",
            c.lobby_active_before,
        )?;
        delete.extend(codes(
            "SELECT code FROM rooms WHERE status = 'finished' AND finished_at < $1",
            c.finished_before,
        )?);
        let abandon = codes(
            "SELECT code FROM rooms WHERE status = 'playing' AND last_move_at < $1",
            c.idle_before,
        )?;
        Ok(Due { delete, abandon })
    }

    fn delete(&self, code: &str) -> Result<(), StoreError> {
        let mut pooled = self.get()?;
        pooled
            .conn()
            .client
            .execute("DELETE FROM rooms WHERE code = $1", &[&code])?;
        Ok(())
    }

    fn save_seat_memory(&self, code: &str, rows: &[SeatRow]) -> Result<(), StoreError> {
        let mut pooled = self.get()?;
        let mut tx = pooled.conn().client.transaction()?;
        for s in rows {
            tx.execute(
                "UPDATE seats SET away_since = $3, transfer_hash = $4, transfer_expires_at = $5
                 WHERE code = $1 AND seat = $2 AND token_hash IS NOT DISTINCT FROM $6",
                &[
                    &code,
                    &s.seat,
                    &s.away_since,
                    &s.transfer_hash,
                    &s.transfer_expires_at,
                    &s.token_hash,
                ],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// `VACUUM`: the deleted rows are removed from the tables' pages (their space is reused by
    /// later rows); docs/cluster.md says what this does and does not promise.
    fn scrub(&self) -> Result<(), StoreError> {
        let mut pooled = self.get()?;
        pooled.conn().client.batch_execute(
            "VACUUM rooms, seats, actions, events, games, push_subscriptions, played, feedback",
        )?;
        Ok(())
    }

    fn rooms_of_client(&self, client: &str) -> Result<Vec<ClientRoom>, StoreError> {
        let mut pooled = self.get()?;
        let rows = pooled.conn().client.query(
            "SELECT s.code, s.seat, r.game, r.status, r.active_at FROM seats s
             JOIN rooms r ON r.code = s.code
             WHERE s.client = $1 ORDER BY r.active_at DESC LIMIT 50",
            &[&client],
        )?;
        Ok(rows
            .iter()
            .map(|r| ClientRoom {
                code: r.get(0),
                seat: r.get(1),
                game: r.get(2),
                status: r.get(3),
                active_at: r.get(4),
            })
            .collect())
    }

    fn games(
        &self,
        code: &str,
        before: Option<i64>,
        limit: usize,
    ) -> Result<Vec<GameRow>, StoreError> {
        let mut pooled = self.get()?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = pooled.conn().client.query(
            &format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE code = $1 AND game_no < $2
                 ORDER BY game_no DESC LIMIT $3"
            ),
            &[&code, &before.unwrap_or(i64::MAX), &limit],
        )?;
        Ok(rows.iter().map(game_from_row).collect())
    }

    fn game(
        &self,
        code: &str,
        game_no: i64,
    ) -> Result<Option<(GameRow, Vec<ActionRow>)>, StoreError> {
        let mut pooled = self.get()?;
        let mut tx = pooled
            .conn()
            .client
            .build_transaction()
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()?;
        let Some(game) = tx.query_opt(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE code = $1 AND game_no = $2"),
            &[&code, &game_no],
        )?
        else {
            return Ok(None);
        };
        let actions = tx
            .query(*ACTIONS_OF_GAME, &[&code, &game_no])?
            .iter()
            .map(action_from_row)
            .collect();
        tx.commit()?;
        Ok(Some((game_from_row(&game), actions)))
    }

    fn delete_old_games(&self, finished_before: i64) -> Result<usize, StoreError> {
        let mut pooled = self.get()?;
        let mut tx = pooled.conn().client.transaction()?;
        const OLD: &str = "SELECT g.code, g.game_no FROM games g JOIN rooms r ON r.code = g.code
                           WHERE g.finished_at < $1 AND g.game_no < r.game_no";
        tx.execute(
            &format!("DELETE FROM actions WHERE (code, game_no) IN ({OLD})"),
            &[&finished_before],
        )?;
        let n = tx.execute(
            &format!("DELETE FROM games WHERE (code, game_no) IN ({OLD})"),
            &[&finished_before],
        )?;
        tx.commit()?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Barrier};

    use super::*;
    use crate::conformance::{a_move, create, room, seat};

    /// Two nodes: two stores (two pools) on one database.
    fn two_nodes() -> (ScratchDatabase, Arc<PostgresStore>, Arc<PostgresStore>) {
        let db = ScratchDatabase::create().unwrap();
        let a = Arc::new(PostgresStore::open(&db.url()).unwrap());
        // The second open finds the migrations applied.
        let b = Arc::new(PostgresStore::open(&db.url()).unwrap());
        (db, a, b)
    }

    #[test]
    fn the_same_change_committed_by_two_nodes_at_once_applies_once() {
        let (_db, a, b) = two_nodes();
        create(&*a, &room("AAAAAA", "playing", 10), vec![seat(0, "c")]);
        for version in 2..12 {
            // Both nodes computed a move from the same version; they commit at the same moment.
            let start = Arc::new(Barrier::new(2));
            let racers: Vec<_> = [(a.clone(), "a"), (b.clone(), "b")]
                .into_iter()
                .map(|(store, node)| {
                    let start = start.clone();
                    let id = format!("{node}-{version}");
                    std::thread::spawn(move || {
                        start.wait();
                        store.commit(&a_move("AAAAAA", version, Some(&id)))
                    })
                })
                .collect();
            let results: Vec<_> = racers.into_iter().map(|t| t.join().unwrap()).collect();
            let applied = results.iter().filter(|r| r.is_ok()).count();
            assert_eq!(applied, 1, "version {version}: {results:?}");
            assert!(
                results
                    .iter()
                    .any(|r| matches!(r, Err(StoreError::Conflict { .. }))),
                "{results:?}"
            );
        }
        let stored = b.load("AAAAAA").unwrap().unwrap();
        assert_eq!(stored.room.state.version, 11);
        assert_eq!((stored.actions.len(), stored.client_ids.len()), (10, 10));
        assert_eq!(a.events_since("AAAAAA", 0, 100).unwrap().len(), 10);
    }

    #[test]
    fn a_client_move_id_sent_to_two_nodes_is_applied_once() {
        let (_db, a, b) = two_nodes();
        create(&*a, &room("AAAAAA", "playing", 10), Vec::new());
        // Node A applies the move; node B, with the room at the same version, gets the same
        // move id: the version check refuses it.
        a.commit(&a_move("AAAAAA", 2, Some("m1"))).unwrap();
        let stale = b.commit(&a_move("AAAAAA", 2, Some("m1")));
        assert!(
            matches!(stale, Err(StoreError::Conflict { .. })),
            "{stale:?}"
        );
        // B reloads: the move id is known (the room layer answers it as already applied); even
        // a change computed on the fresh version cannot write it a second time.
        let fresh = b.load("AAAAAA").unwrap().unwrap();
        assert_eq!(fresh.client_ids, vec!["m1".to_string()]);
        let again = b.commit(&a_move("AAAAAA", 3, Some("m1")));
        assert!(matches!(again, Err(StoreError::Failed(_))), "{again:?}");
        let stored = a.load("AAAAAA").unwrap().unwrap();
        assert_eq!((stored.room.state.version, stored.actions.len()), (2, 1));
    }

    #[test]
    fn a_bad_url_or_an_unreachable_server_is_an_error() {
        assert!(PostgresStore::open("not a url").is_err());
        // Nothing listens on port 1.
        assert!(PostgresStore::open("postgres://postgres@127.0.0.1:1/x").is_err());
    }
}
