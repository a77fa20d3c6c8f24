//! The commit path: what a change of a room writes (only what it changed), and the writer that
//! commits the changes of many rooms in one transaction per fsync (group commit).
//!
//! A change is sent to the writer, a dedicated thread that is the only one to commit room
//! changes: it takes every change waiting (up to [`MAX_BATCH`]) and commits them in one
//! transaction, so that one fsync makes many moves durable; then it answers each caller on its
//! own channel. The caller holds its room's lock while it waits, so a room has at most one
//! change in the writer at a time and its changes are committed in the order they were made;
//! the writer keeps the order in which changes arrived. Only once its change is committed does
//! the caller update the room in memory, answer and broadcast ("ack after commit").
//!
//! A batch that fails is retried change by change (each in its own transaction), so that one bad
//! change (a broken invariant, a full disk at that moment) fails alone with `internal` and the
//! others are committed; a failed change leaves its room unchanged in memory. A change refused
//! by the version check (its room changed on another node first) fails alone with `conflict`
//! and the others are tried again together, in one more transaction.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;

use crate::error::AppError;
use dames_room::event::Event;
use dames_room::room::{Change, Occupant, Room, Status};
use dames_room::snapshot::action_rows;
use dames_store::{Commit, EventRow, PlayedRow, RoomStore, RoomWrite, StoreError};

use super::Rooms;

/// Changes committed in one transaction at most.
pub const MAX_BATCH: usize = 512;

/// Options of the commit path and of the room cache.
#[derive(Clone, Debug)]
pub struct CommitOptions {
    /// A room nobody uses (no connection, no CPU turn, no request) for this long leaves memory;
    /// the next request loads it again (`--evict-after`, 5 min).
    pub evict_after: Duration,
    /// Test hook: holds the writer and counts its transactions.
    pub probe: Option<Arc<CommitProbe>>,
}

impl Default for CommitOptions {
    fn default() -> Self {
        Self {
            evict_after: Duration::from_secs(300),
            probe: None,
        }
    }
}

/// What tests see of the writer (and of eviction), and a gate they can close to hold the writer:
/// while paused, it commits nothing (and so no change is acknowledged or broadcast).
#[derive(Debug, Default)]
pub struct CommitProbe {
    paused: Mutex<bool>,
    resumed: Condvar,
    /// Changes sent to the writer and not answered yet.
    pending: AtomicU64,
    batches: AtomicU64,
    transactions: AtomicU64,
    changes: AtomicU64,
    largest: AtomicU64,
    evicted: AtomicU64,
}

impl CommitProbe {
    /// Holds the writer before its next transaction.
    pub fn pause(&self) {
        *self.paused.lock().unwrap_or_else(|e| e.into_inner()) = true;
    }

    /// Lets the writer go on.
    pub fn resume(&self) {
        *self.paused.lock().unwrap_or_else(|e| e.into_inner()) = false;
        self.resumed.notify_all();
    }

    /// Changes waiting for the writer (sent, not yet answered).
    pub fn pending(&self) -> u64 {
        self.pending.load(Ordering::SeqCst)
    }

    /// Transactions committed (or tried) by the writer.
    pub fn batches(&self) -> u64 {
        self.batches.load(Ordering::SeqCst)
    }

    /// Transactions the writer tried (a batch that failed is tried again in more).
    pub fn transactions(&self) -> u64 {
        self.transactions.load(Ordering::SeqCst)
    }

    /// Changes committed (or tried) by the writer.
    pub fn changes(&self) -> u64 {
        self.changes.load(Ordering::SeqCst)
    }

    /// The most changes committed in one transaction.
    pub fn largest_batch(&self) -> u64 {
        self.largest.load(Ordering::SeqCst)
    }

    /// Rooms that left memory (`evict`).
    pub fn evicted(&self) -> u64 {
        self.evicted.load(Ordering::SeqCst)
    }

    pub(super) fn count_evicted(&self, n: usize) {
        self.evicted.fetch_add(n as u64, Ordering::SeqCst);
    }

    fn wait_open(&self) {
        let mut paused = self.paused.lock().unwrap_or_else(|e| e.into_inner());
        while *paused {
            paused = self.resumed.wait(paused).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// A change waiting for the writer, with where to answer.
struct Job {
    commit: Commit,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The sending end of the writer thread (which ends when this is dropped).
#[derive(Debug)]
pub(super) struct Writer {
    jobs: mpsc::Sender<Job>,
    probe: Option<Arc<CommitProbe>>,
    /// Changes handed over and not answered yet (or whose caller has not gone).
    in_flight: tokio::sync::watch::Sender<usize>,
}

/// One change in flight, counted off when its caller has its answer or goes away.
struct InFlight<'a>(&'a tokio::sync::watch::Sender<usize>);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n -= 1);
    }
}

impl Writer {
    /// Starts the writer thread over `store`.
    pub(super) fn start(store: Arc<dyn RoomStore>, probe: Option<Arc<CommitProbe>>) -> Self {
        let (jobs, queue) = mpsc::channel::<Job>();
        let thread_probe = probe.clone();
        std::thread::Builder::new()
            .name("dames-writer".into())
            .spawn(move || write_loop(&*store, &queue, thread_probe.as_deref()))
            .expect("the writer thread starts");
        Self {
            jobs,
            probe,
            in_flight: tokio::sync::watch::channel(0).0,
        }
    }

    /// Completes when no change is in flight.
    pub(super) async fn idle(&self) {
        let _ = self.in_flight.subscribe().wait_for(|n| *n == 0).await;
    }

    /// Commits `commit` with whatever else is waiting; `Ok` once it is durable.
    pub(super) async fn commit(&self, commit: Commit) -> Result<(), AppError> {
        let (done, answer) = oneshot::channel();
        let timer = crate::metrics::CommitTimer::start(&commit);
        self.in_flight.send_modify(|n| *n += 1);
        let _in_flight = InFlight(&self.in_flight);
        if let Some(probe) = &self.probe {
            probe.pending.fetch_add(1, Ordering::SeqCst);
        }
        let sent = self.jobs.send(Job { commit, done });
        let result = match sent {
            Ok(()) => match answer.await {
                Ok(result) => result.map_err(AppError::from),
                Err(err) => Err(AppError::internal("the writer stopped", err)),
            },
            Err(err) => Err(AppError::internal("the writer stopped", err)),
        };
        if let Some(probe) = &self.probe {
            probe.pending.fetch_sub(1, Ordering::SeqCst);
        }
        timer.done(result.is_ok(), matches!(result, Err(AppError::Conflict)));
        result
    }
}

/// The writer thread: one transaction for everything waiting, then the answers.
fn write_loop(store: &dyn RoomStore, queue: &mpsc::Receiver<Job>, probe: Option<&CommitProbe>) {
    let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    let mut commits: Vec<Commit> = Vec::with_capacity(MAX_BATCH);
    while let Ok(first) = queue.recv() {
        if let Some(probe) = probe {
            probe.wait_open();
        }
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let mut dones = Vec::with_capacity(batch.len());
        for job in batch.drain(..) {
            commits.push(job.commit);
            dones.push(job.done);
        }
        if let Some(probe) = probe {
            probe.batches.fetch_add(1, Ordering::SeqCst);
            probe
                .changes
                .fetch_add(commits.len() as u64, Ordering::SeqCst);
            probe
                .largest
                .fetch_max(commits.len() as u64, Ordering::SeqCst);
        }
        let _timer = crate::metrics::BatchTimer::start(commits.len());
        commit_together(store, &mut commits, dones, probe);
    }
}

/// Commits `commits` in one transaction and answers each. A change refused because its room
/// changed first (another node: `Conflict`) is answered alone and the others are tried again
/// together, so that a conflict, frequent when a room's players are on different nodes, costs
/// one more transaction and not one per change; any other failure: each change alone.
fn commit_together(
    store: &dyn RoomStore,
    commits: &mut Vec<Commit>,
    mut dones: Vec<oneshot::Sender<Result<(), StoreError>>>,
    probe: Option<&CommitProbe>,
) {
    loop {
        if let Some(probe) = probe {
            probe.transactions.fetch_add(1, Ordering::SeqCst);
        }
        let err = match store.commit_batch(commits) {
            Ok(()) => {
                for done in dones {
                    // A caller that went away (its request was dropped) needs no answer.
                    let _ = done.send(Ok(()));
                }
                break;
            }
            Err(err) if commits.len() == 1 => {
                let _ = dones.pop().map(|done| done.send(Err(err)));
                break;
            }
            Err(err) => err,
        };
        if let Some(i) = refused_for_conflict(commits, &err) {
            commits.remove(i);
            let _ = dones.remove(i).send(Err(err));
            continue;
        }
        tracing::warn!(
            "a batch of {} changes failed ({err}); committing them one by one",
            commits.len()
        );
        for (commit, done) in commits.iter().zip(dones) {
            if let Some(probe) = probe {
                probe.transactions.fetch_add(1, Ordering::SeqCst);
            }
            let _ = done.send(store.commit(commit));
        }
        break;
    }
    commits.clear();
}

/// Which change of `commits` `err` refuses, if it is a conflict.
fn refused_for_conflict(commits: &[Commit], err: &StoreError) -> Option<usize> {
    let StoreError::Conflict { code, expected } = err else {
        return None;
    };
    commits
        .iter()
        .position(|c| &c.code == code && c.room.from() == *expected)
}

/// Whether the stored part of the seats (who sits where, readiness, a CPU standing in) differs:
/// connections are memory only.
fn seats_changed(before: &Room, after: &Room) -> bool {
    before.seats.len() != after.seats.len()
        || before.seats.iter().zip(&after.seats).any(|(a, b)| {
            a.occupant != b.occupant || a.ready != b.ready || a.stand_in != b.stand_in
        })
}

/// The `played` rows of a change that finished the game: every browser seated in it.
fn played_rows(room: &Room, now: i64) -> Vec<PlayedRow> {
    room.seats
        .iter()
        .filter_map(|seat| match &seat.occupant {
            Occupant::Human {
                client: Some(client),
                ..
            } => Some(PlayedRow {
                client: client.clone(),
                game: room.kind.as_str().into(),
                at: now,
            }),
            _ => None,
        })
        .collect()
}

impl Rooms {
    /// Numbers the change's events and log entries and commits what changed between `before`
    /// (`None`: a new room) and `room` through the writer. In a cluster, also gives the message
    /// that tells the other nodes what was committed (`fanout`), to send once it is published
    /// here.
    pub(super) async fn persist(
        &self,
        before: Option<&Room>,
        room: &mut Room,
        ch: Change,
        now: i64,
    ) -> Result<(Vec<(i64, Event)>, Option<String>), AppError> {
        if ch.activity {
            room.active_at = now;
        }
        let events: Vec<(i64, Event)> = ch
            .events
            .into_iter()
            .map(|e| {
                room.version += 1;
                (room.version, e)
            })
            .collect();
        let first_seq = room.play.as_ref().map_or(0, |p| p.log_len);
        let actions = action_rows(room.game_no, first_seq, &ch.actions, now);
        if let Some(play) = room.play.as_mut() {
            play.log_len += actions.len() as i64;
        }
        let event_rows: Vec<EventRow> = events
            .iter()
            .map(|(v, e)| EventRow {
                version: *v,
                event: e.to_json(),
                at: now,
            })
            .collect();
        let finished = ch.game
            && room.status == Status::Finished
            && before.is_none_or(|b| b.status != Status::Finished);
        let commit = Commit {
            code: room.code.clone(),
            room: match before {
                None => RoomWrite::New(room.to_row()),
                Some(b) if b.settings != room.settings || b.start != room.start => RoomWrite::Row {
                    from: b.version,
                    row: room.to_row(),
                },
                Some(b) => RoomWrite::State {
                    from: b.version,
                    state: room.room_state(),
                },
            },
            seats: before
                .is_none_or(|b| seats_changed(b, room))
                .then(|| room.seat_rows()),
            actions,
            events: event_rows,
            game: ch.game.then(|| room.game_row(now)),
            played: if finished {
                played_rows(room, now)
            } else {
                Vec::new()
            },
        };
        let note = self.note_of(&commit);
        // The caps on games against CPUs hold here, counted with the commit (live/cpu.rs), and
        // across the cluster (live/cpu_shared.rs).
        let mut reserved = self.cpu_games.reserve(before, room)?;
        if let Some(place) = reserved.as_ref().map(|r| r.place().clone()) {
            if !self.reserve_shared(&place).await {
                if let Some(taken) = reserved.take() {
                    self.cpu_games.release(taken);
                }
                crate::metrics::METRICS.refused("cpu-games");
                return Err(AppError::TooManyCpuGames);
            }
        }
        if let Err(err) = self.writer.commit(commit).await {
            if let Some(reserved) = reserved {
                self.release_shared(reserved.place().clone());
                self.cpu_games.release(reserved);
            }
            return Err(err);
        }
        Ok((events, note))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::RoomError;
    use crate::live::tests::{human, new_room};
    use crate::live::Update;
    use dames_store::{ActionRow, MemoryStore, RoomRow, RoomState, SqliteStore};

    fn room(code: &str) -> RoomRow {
        RoomRow {
            code: code.into(),
            game: "draughts".into(),
            settings: "{}".into(),
            start_fen: None,
            created_at: 1,
            state: RoomState {
                status: "playing".into(),
                version: 0,
                game_no: 1,
                first_seat: 0,
                draw_offer: None,
                draw_declined: None,
                cpu_by: None,
                active_at: 1,
                last_move_at: Some(1),
                finished_at: None,
                clock: None,
            },
        }
    }

    /// Rooms AAAAAA, BBBBBB and CCCCCC at version 0 in a SQLite store in `dir`, and a writer
    /// over it with a probe.
    fn three_rooms(dir: &tempfile::TempDir) -> (Arc<dyn RoomStore>, Arc<CommitProbe>, Arc<Writer>) {
        let store: Arc<dyn RoomStore> =
            Arc::new(SqliteStore::open(&dir.path().join("t.db")).unwrap());
        for code in ["AAAAAA", "BBBBBB", "CCCCCC"] {
            store
                .commit(&Commit::new_room(room(code), Vec::new()))
                .unwrap();
        }
        let probe = Arc::new(CommitProbe::default());
        let writer = Arc::new(Writer::start(store.clone(), Some(probe.clone())));
        (store, probe, writer)
    }

    /// Commits `c` through `writer` in a task of its own.
    fn spawn_commit(
        writer: &Arc<Writer>,
        c: Commit,
    ) -> tokio::task::JoinHandle<Result<(), AppError>> {
        let writer = writer.clone();
        tokio::spawn(async move { writer.commit(c).await })
    }

    /// A move of room `code`: its log entry with the client's move id, and the room's version.
    fn a_move(code: &str, seq: i64, client_id: &str) -> Commit {
        Commit {
            code: code.into(),
            room: RoomWrite::State {
                from: seq,
                state: RoomState {
                    version: seq + 1,
                    ..room(code).state
                },
            },
            seats: None,
            actions: vec![ActionRow {
                game_no: 1,
                seq,
                seat: Some(0),
                kind: "move".into(),
                data: Some("{}".into()),
                client_id: Some(client_id.into()),
                at: 2,
                clock: None,
            }],
            events: Vec::new(),
            game: None,
            played: Vec::new(),
        }
    }

    #[tokio::test]
    async fn a_change_whose_commit_fails_leaves_the_room_as_it_was() {
        let store = Arc::new(MemoryStore::default());
        let rooms = Rooms::new(store.clone(), 1);
        let (cell, ()) = rooms.create(new_room).await.unwrap();
        let code = cell.room.lock().await.code.clone();
        store.fail_next(1);
        let failed = rooms
            .mutate(&cell, |room, ch, _| Ok(room.join(None, human("Bo"), ch)?))
            .await;
        assert!(matches!(failed, Err(AppError::Internal)), "{failed:?}");
        {
            let room = cell.room.lock().await;
            assert_eq!(room.version, 1);
            assert_eq!(room.seat_of_token("Bo"), None);
        }
        // The same change again, the disk back: committed, then applied.
        let seat = rooms
            .mutate(&cell, |room, ch, _| Ok(room.join(None, human("Bo"), ch)?))
            .await
            .unwrap();
        assert_eq!(seat, 1);
        assert_eq!(cell.room.lock().await.version, 2);
        let stored = store.load(&code).unwrap().unwrap();
        assert_eq!(stored.room.state.version, 2);
        assert_eq!(stored.seats[1].name.as_deref(), Some("Bo"));
        assert_eq!(store.events_since(&code, 0, 10).unwrap().len(), 2);
    }

    #[tokio::test]
    async fn a_room_created_with_a_code_another_node_just_took_gets_another_code() {
        let store = Arc::new(MemoryStore::default());
        let (a, b) = (Rooms::new(store.clone(), 1), Rooms::new(store.clone(), 1));
        let (on_a, ()) = a.create(new_room).await.unwrap();
        let taken = on_a.room.lock().await.code.clone();
        // B's fresh code is the one A just took (B looked before A wrote).
        b.planted_codes.lock().unwrap().push(taken.clone());
        let (on_b, ()) = b.create(new_room).await.unwrap();
        let code = on_b.room.lock().await.code.clone();
        assert_ne!(code, taken);
        assert_eq!(store.load(&code).unwrap().unwrap().room.code, code);
        assert_eq!(
            store.load(&taken).unwrap().unwrap().room.state.version,
            1,
            "A's room is untouched"
        );
    }

    #[tokio::test]
    async fn a_change_made_on_a_stale_copy_conflicts_and_the_room_is_reloaded() {
        // Two nodes over one database: each has its own copy of the room.
        let store = Arc::new(MemoryStore::default());
        let (a, b) = (Rooms::new(store.clone(), 1), Rooms::new(store.clone(), 1));
        let (on_a, ()) = a.create(new_room).await.unwrap();
        let code = on_a.room.lock().await.code.clone();
        let on_b = b.get(&code).await.unwrap();
        let mut seen_on_b = on_b.tx.subscribe();
        a.mutate(&on_a, |room, ch, _| Ok(room.join(None, human("Bo"), ch)?))
            .await
            .unwrap();
        // B's copy is still at version 1: its change is refused, nothing of it written.
        let refused = b
            .mutate(&on_b, |room, ch, _| Ok(room.join(None, human("Cy"), ch)?))
            .await;
        assert!(matches!(refused, Err(AppError::Conflict)), "{refused:?}");
        assert_eq!(store.load(&code).unwrap().unwrap().room.state.version, 2);
        // B reloaded the room and told its connections what they missed (Bo's arrival).
        {
            let room = on_b.room.lock().await;
            assert_eq!((room.version, room.seat_of_token("Bo")), (2, Some(1)));
        }
        let missed = seen_on_b.recv().await.unwrap();
        let Update::Change { events, .. } = &*missed else {
            panic!("not a change: {missed:?}");
        };
        assert_eq!(events.len(), 1);
        assert_eq!((events[0].0, events[0].1.kind()), (2, "joined"));
        // Tried again on the reloaded room, it is judged on the room as it is (full now), and
        // B's next change applies.
        let again = b
            .mutate(&on_b, |room, ch, _| Ok(room.join(None, human("Cy"), ch)?))
            .await;
        assert!(
            matches!(again, Err(AppError::Room(RoomError::RoomFull))),
            "{again:?}"
        );
        b.mutate(&on_b, |room, ch, _| Ok(room.leave(1, ch)?))
            .await
            .unwrap();
        assert_eq!(store.load(&code).unwrap().unwrap().room.state.version, 3);
    }

    #[tokio::test]
    async fn changes_waiting_together_share_a_transaction_and_a_bad_one_fails_alone() {
        let dir = tempfile::tempdir().unwrap();
        let (store, probe, writer) = three_rooms(&dir);

        // Held: four moves wait; A's second repeats its first's move id (the unique index
        // refuses it); C's second was computed from the version C had before its first (the
        // version check refuses it: another node, or a stale copy).
        probe.pause();
        let send = |c: Commit| spawn_commit(&writer, c);
        let a = send(a_move("AAAAAA", 0, "same"));
        while probe.pending() < 1 {
            tokio::task::yield_now().await;
        }
        let b = send(a_move("AAAAAA", 1, "same"));
        let c = send(a_move("CCCCCC", 0, "c1"));
        let d = send(a_move("CCCCCC", 0, "c2"));
        while probe.pending() < 4 {
            tokio::task::yield_now().await;
        }
        assert_eq!(probe.batches(), 0);
        probe.resume();
        let (a, b) = (a.await.unwrap(), b.await.unwrap());
        let (c, d) = (c.await.unwrap(), d.await.unwrap());
        assert!(a.is_ok() && c.is_ok(), "{a:?} {c:?}");
        assert!(matches!(b, Err(AppError::Internal)), "{b:?}");
        assert!(matches!(d, Err(AppError::Conflict)), "{d:?}");
        // One transaction was tried for the four, then each alone.
        assert_eq!((probe.batches(), probe.largest_batch()), (1, 4));
        let a = store.load("AAAAAA").unwrap().unwrap();
        assert_eq!((a.room.state.version, a.actions.len()), (1, 1));
        let c = store.load("CCCCCC").unwrap().unwrap();
        assert_eq!((c.room.state.version, c.actions.len()), (1, 1));

        // Tried once together, then each alone.
        assert_eq!(probe.transactions(), 5);

        // Many changes of two rooms, sent in order: fewer transactions than changes, and the
        // last version written is the last sent (arrival order kept).
        probe.pause();
        let mut tasks = Vec::new();
        for n in 1..=20 {
            for (code, seq) in [("BBBBBB", n - 1), ("CCCCCC", n)] {
                let c = a_move(code, seq, &format!("{code}-{seq}"));
                tasks.push(send(c));
            }
        }
        while probe.pending() < 40 {
            tokio::task::yield_now().await;
        }
        probe.resume();
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        assert!(probe.largest_batch() >= 40, "{}", probe.largest_batch());
        for (code, version) in [("BBBBBB", 20), ("CCCCCC", 21)] {
            let stored = store.load(code).unwrap().unwrap();
            assert_eq!(stored.room.state.version, version, "{code}");
        }
    }

    #[tokio::test]
    async fn a_change_refused_by_the_version_check_fails_alone_and_the_others_commit_together() {
        let dir = tempfile::tempdir().unwrap();
        let (store, probe, writer) = three_rooms(&dir);
        probe.pause();
        let send = |c: Commit| spawn_commit(&writer, c);
        // B's change was computed from a version B never had here (another node's copy).
        let tasks = [
            send(a_move("AAAAAA", 0, "a")),
            send(a_move("BBBBBB", 3, "b")),
            send(a_move("CCCCCC", 0, "c")),
        ];
        while probe.pending() < 3 {
            tokio::task::yield_now().await;
        }
        probe.resume();
        let mut answers = Vec::new();
        for task in tasks {
            answers.push(task.await.unwrap());
        }
        assert!(answers[0].is_ok() && answers[2].is_ok(), "{answers:?}");
        assert!(matches!(answers[1], Err(AppError::Conflict)), "{answers:?}");
        // The three together, then A's and C's together again: two transactions, not four.
        assert_eq!((probe.batches(), probe.transactions()), (1, 2));
        for (code, version) in [("AAAAAA", 1), ("BBBBBB", 0), ("CCCCCC", 1)] {
            let stored = store.load(code).unwrap().unwrap();
            assert_eq!(stored.room.state.version, version, "{code}");
        }
    }
}
