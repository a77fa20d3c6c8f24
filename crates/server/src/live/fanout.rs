//! Fan-out between the nodes of a cluster (docs/cluster.md): after each change committed here
//! (and each deletion), this node publishes `{code, version, node}` on one Redis channel, with
//! what the change wrote ([`Delta`]: the room's play columns, its seats if they changed, the new
//! log entries and events). Every node listens to it; a node holding the room at the version the
//! change was computed from applies it to its copy, playing only the new log entries through
//! the engine ([`Room::apply_committed`]); a node behind by more (a message lost or overtaken),
//! or whose copy the change does not fit, reloads the room from the store. Either way the
//! missed events go to its connections and observers ([`Origin::Elsewhere`]), in order, under
//! the room's lock. The database stays the only truth: a message is sent only once its change is
//! committed, a lost message only delays a catch-up until the next one (or the next change,
//! which conflicts and reloads), and on (re)subscribing every room held is checked against the
//! store.
//!
//! Messages alone cannot be enough: a node killed between its commit and its message, a node
//! restarted under the same id (its liveness key never expires) or a message Redis dropped
//! would leave the other nodes serving an old copy for ever, each player waiting for the other.
//! So the store is also asked directly, in one query for every room held here
//! ([`RoomStore::versions`](dames_store::RoomStore::versions)), every [`SWEEP_EVERY`]; and a
//! room already held is checked against the store when a request or a connection asks for it
//! ([`Rooms::get_fresh`]). Together: **no node serves a room older than the store for more
//! than [`STALE_BOUND`]** after another node acknowledged a change to it, whatever was lost.
//!
//! With no cluster, nothing of this runs: no task, no message, no allocation per change.

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use super::{blocking, Origin, RoomCell, Rooms};
use crate::error::AppError;
use dames_room::event::Event;
use dames_room::room::Room;
use dames_store::{ActionRow, Commit, EventRow, RoomState, RoomWrite, SeatRow};

/// One message on the channel.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Note<'a> {
    pub(super) code: String,
    /// The room's version after the change.
    pub(super) version: i64,
    /// The node that committed it (its own messages come back to it: ignored).
    pub(super) node: String,
    /// The room was deleted (retention).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(super) deleted: bool,
    /// A seat's presence on that node flipped (`presence_cluster`; `version` unused).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(super) presence: bool,
    /// A seat said a preset phrase (`phrases`; `version` unused): its connections here hear it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) phrase: Option<(usize, dames_room::phrase::Phrase)>,
    /// What the change wrote, when it changed only what play changes (not a new room, nor its
    /// settings: those reload, in the lobby, where a room is small).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) delta: Option<Delta<'a>>,
}

/// What a committed change wrote of a room, as the store got it (borrowed from the [`Commit`]
/// when sent, owned when received).
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Delta<'a> {
    /// The version the change was computed from.
    from: i64,
    /// The room's play columns after it.
    state: Cow<'a, RoomState>,
    /// Every seat row, when the seats changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seats: Option<Cow<'a, [SeatRow]>>,
    /// The new log entries of the current game.
    actions: Cow<'a, [ActionRow]>,
    /// The new events.
    events: Cow<'a, [EventRow]>,
}

/// How often every room held here is checked against the store (with a cluster).
pub const SWEEP_EVERY: Duration = Duration::from_millis(400);

/// The longest a node serves a room older than the store once another node acknowledged a
/// change to it (docs/cluster.md): a sweep's period plus the time its query and reload take.
pub const STALE_BOUND: Duration = Duration::from_secs(1);

/// How many codes one sweep query asks about at most.
const SWEEP_CHUNK: usize = super::versions::QUERY_CHUNK;

/// How this node caught up on the changes of other nodes (tests, and the log at shutdown).
#[derive(Debug, Default)]
pub struct CatchUps {
    applied: AtomicU64,
    reloaded: AtomicU64,
    swept: AtomicU64,
}

impl CatchUps {
    /// Changes of other nodes applied to a room held here from their message alone.
    pub fn applied(&self) -> u64 {
        self.applied.load(Ordering::Relaxed)
    }

    /// Rooms reloaded from the store because they were behind (a message missed, overtaken or
    /// not applicable, or a check after subscribing or after a node died).
    pub fn reloaded(&self) -> u64 {
        self.reloaded.load(Ordering::Relaxed)
    }

    /// Of those, the rooms found behind by asking the store (a sweep, or a request for a room
    /// held here), not by a message: each is a message that never came.
    pub fn swept(&self) -> u64 {
        self.swept.load(Ordering::Relaxed)
    }
}

/// The longest wait between two attempts to subscribe again after Redis dropped.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

impl Rooms {
    /// The message telling the other nodes about `commit` (built before the writer takes it,
    /// sent by [`Rooms::send_note`] once it is committed). `None` without a cluster.
    pub(super) fn note_of(&self, commit: &Commit) -> Option<String> {
        let cluster = self.cluster.get()?;
        let (version, delta) = match &commit.room {
            RoomWrite::State { from, state } => {
                let delta = Delta {
                    from: *from,
                    state: Cow::Borrowed(state),
                    seats: commit.seats.as_deref().map(Cow::Borrowed),
                    actions: Cow::Borrowed(&commit.actions),
                    events: Cow::Borrowed(&commit.events),
                };
                (state.version, Some(delta))
            }
            RoomWrite::New(row) | RoomWrite::Row { row, .. } => (row.state.version, None),
        };
        let note = Note {
            code: commit.code.clone(),
            version,
            node: cluster.node().to_owned(),
            deleted: false,
            presence: false,
            phrase: None,
            delta,
        };
        serde_json::to_string(&note).ok()
    }

    /// Tells the other nodes that `code` was deleted.
    pub(super) fn announce_deleted(&self, code: &str) {
        let Some(cluster) = self.cluster.get() else {
            return;
        };
        let note = Note {
            code: code.to_owned(),
            version: 0,
            node: cluster.node().to_owned(),
            deleted: true,
            presence: false,
            phrase: None,
            delta: None,
        };
        if let Ok(payload) = serde_json::to_string(&note) {
            self.send_note(code, payload);
        }
    }

    /// Publishes a message about room `code`. Does not wait: the message is sent by a task.
    /// Nothing without a cluster.
    pub(super) fn send_note(&self, code: &str, payload: String) {
        let Some(cluster) = self.cluster.get() else {
            return;
        };
        let channel = cluster.key(&["rooms"]);
        let mut conn = cluster.conn();
        let code = code.to_owned();
        tokio::spawn(async move {
            let sent: Result<i64, _> = redis::cmd("PUBLISH")
                .arg(&channel)
                .arg(&payload)
                .query_async(&mut conn)
                .await;
            crate::metrics::METRICS.fanout_published(sent.is_ok());
            if let Err(err) = sent {
                // The others catch up at their next change of the room (a conflict) or when
                // they subscribe again.
                tracing::warn!("fan-out of room {code}: {err}");
            }
        });
    }

    /// How this node caught up on other nodes' changes so far.
    pub fn catch_ups(&self) -> &CatchUps {
        &self.catch_ups
    }

    /// Starts listening to the other nodes (once, at start, after [`Rooms::join_cluster`]).
    pub fn start_fanout(self: &Arc<Self>) {
        if self.cluster.get().is_none() {
            return;
        }
        tokio::spawn(self.clone().listen());
        tokio::spawn(self.clone().heartbeat());
        tokio::spawn(self.clone().sweep());
        tokio::spawn(self.clone().renew_places());
    }

    /// Listens to the other nodes without sweeping (tests of the messages alone: a sweep on a
    /// slow machine would catch a room up before its messages arrive).
    #[cfg(test)]
    fn start_listening_only(self: &Arc<Self>) {
        tokio::spawn(self.clone().listen());
    }

    /// The room with this code, as [`Rooms::get`]; with a cluster, a room already held here is
    /// first checked against the store and brought up to date if another node changed it (a
    /// message lost or not yet arrived). Without a cluster, exactly [`Rooms::get`].
    ///
    /// # Errors
    /// As [`Rooms::get`].
    pub async fn get_fresh(self: &Arc<Self>, code: &str) -> Result<Arc<RoomCell>, AppError> {
        let held = self.cells().contains_key(code);
        let cell = self.get(code).await?;
        if held && self.cluster.get().is_some() {
            // Read with the other rooms asked for meanwhile (`versions`). If the store cannot
            // answer, the copy held here is served: the sweep catches up when it can.
            if let Ok(Some(stored)) = self.stored_version(code).await {
                self.clone().catch_up_from_store(cell.clone(), stored).await;
            }
        }
        Ok(cell)
    }

    /// Every [`SWEEP_EVERY`], asks the store for the version of every room held here and
    /// catches up those another node changed.
    async fn sweep(self: Arc<Self>) {
        let mut every = tokio::time::interval(SWEEP_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        while !self.closed.load(Ordering::SeqCst) {
            every.tick().await;
            let held: Vec<(String, Arc<RoomCell>)> = self
                .cells()
                .iter()
                .map(|(code, cell)| (code.clone(), cell.clone()))
                .collect();
            for chunk in held.chunks(SWEEP_CHUNK) {
                let store = self.store.clone();
                let codes: Vec<String> = chunk.iter().map(|(code, _)| code.clone()).collect();
                let found = match blocking(move || store.versions(&codes)).await {
                    Ok(found) => found,
                    Err(err) => {
                        tracing::warn!("sweep: the rooms' versions cannot be read: {err}");
                        break;
                    }
                };
                let stored: std::collections::HashMap<String, i64> = found.into_iter().collect();
                for (code, cell) in chunk {
                    let Some(&version) = stored.get(code) else {
                        continue;
                    };
                    // A room being changed now is looked at again at the next sweep.
                    let behind = cell
                        .room
                        .try_lock()
                        .is_ok_and(|room| room.version < version);
                    if behind {
                        tokio::spawn(self.clone().catch_up_from_store(cell.clone(), version));
                    }
                }
            }
        }
    }

    /// Brings a room up to the store's `version` if it is behind it: the change that made it
    /// never came as a message.
    async fn catch_up_from_store(self: Arc<Self>, cell: Arc<RoomCell>, version: i64) {
        if cell.room.lock().await.version >= version {
            return;
        }
        if self.clone().catch_up(cell, Some(version), None).await {
            self.catch_ups.swept.fetch_add(1, Ordering::Relaxed);
            crate::metrics::METRICS.stale_found.inc();
        }
    }

    /// Subscribes, and subscribes again with a growing pause whenever Redis drops.
    async fn listen(self: Arc<Self>) {
        let mut backoff = Duration::from_millis(100);
        while !self.closed.load(Ordering::SeqCst) {
            match self.subscribe_once().await {
                Ok(()) => {
                    tracing::warn!("fan-out: the subscription ended; subscribing again");
                    backoff = Duration::from_millis(100);
                }
                Err(err) => {
                    crate::metrics::METRICS.redis_errors.inc();
                    tracing::warn!("fan-out: cannot subscribe ({err}); again in {backoff:?}");
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
            tokio::time::sleep(backoff).await;
        }
    }

    /// One subscription, until its connection ends.
    async fn subscribe_once(self: &Arc<Self>) -> Result<(), redis::RedisError> {
        let Some(cluster) = self.cluster.get().cloned() else {
            return Ok(());
        };
        let mut pubsub = cluster.client().get_async_pubsub().await?;
        pubsub.subscribe(cluster.key(&["rooms"])).await?;
        // Messages may have been missed while not subscribed: every room held is checked.
        self.clone().check_all();
        // And every presence: Redis may have restarted (and lost them) or missed flips.
        tokio::spawn(self.clone().reshare_presence(true));
        let mut messages = pubsub.into_on_message();
        while let Some(msg) = messages.next().await {
            crate::metrics::METRICS.fanout_received.inc();
            let Ok(note) = serde_json::from_slice::<Note<'static>>(msg.get_payload_bytes()) else {
                continue;
            };
            if note.node == cluster.node() {
                continue;
            }
            // Rooms not held here are loaded from the store when first asked for.
            let Some(cell) = self.cells().get(&note.code).cloned() else {
                continue;
            };
            if let Some((seat, phrase)) = note.phrase {
                cell.hear(seat, phrase);
            } else if note.presence {
                tokio::spawn(self.clone().recompute_presence(cell, note.code));
            } else if note.deleted {
                self.forget(&note.code, &cell).await;
            } else {
                tokio::spawn(self.clone().catch_up(cell, Some(note.version), note.delta));
            }
        }
        Ok(())
    }

    /// Checks every room held here against the store, one after the other, in a task.
    pub(super) fn check_all(self: Arc<Self>) {
        let held: Vec<Arc<RoomCell>> = self.cells().values().cloned().collect();
        if held.is_empty() {
            return;
        }
        tokio::spawn(async move {
            for cell in held {
                if self.clone().catch_up(cell, None, None).await {
                    self.catch_ups.swept.fetch_add(1, Ordering::Relaxed);
                    crate::metrics::METRICS.stale_found.inc();
                }
            }
        });
    }

    /// Brings a room held here up to `version` (`None`: to the store's): by applying `delta`
    /// if it follows the room's version, else by reloading the room if the store has a newer
    /// one; then gives the missed events to its connections and observers, under the room's
    /// lock so that they go out in order. No CPU turn is scheduled for a change made elsewhere.
    /// Whether the room was reloaded.
    async fn catch_up(
        self: Arc<Self>,
        cell: Arc<RoomCell>,
        version: Option<i64>,
        delta: Option<Delta<'static>>,
    ) -> bool {
        let mut guard = cell.room.lock().await;
        if cell.deleted.load(Ordering::Relaxed) || version.is_some_and(|v| guard.version >= v) {
            return false;
        }
        let applied = delta
            .filter(|d| d.from == guard.version)
            .and_then(|d| applied(&guard, &d));
        let (events, room, reloaded) = match applied {
            Some((events, room)) => {
                self.catch_ups.applied.fetch_add(1, Ordering::Relaxed);
                let room = Arc::new(room);
                *guard = room.clone();
                (events, room, false)
            }
            None => {
                let Some((events, room)) = self.reload_from(&mut guard, true).await else {
                    return false;
                };
                self.catch_ups.reloaded.fetch_add(1, Ordering::Relaxed);
                (events, room, true)
            }
        };
        let room = self.broadcast(&cell, events, room, Origin::Elsewhere);
        drop(guard);
        // The clock's deadline moved with the change: this node's timer follows.
        self.arm_clock(&cell, &room);
        // The caps count what the room now is here too (no renewing a game ended elsewhere).
        if let Some(place) = self.cpu_games.update(&room) {
            self.release_shared(place);
        }
        reloaded
    }

    /// A room deleted by another node: dropped here too, its connections told.
    async fn forget(&self, code: &str, cell: &Arc<RoomCell>) {
        let _guard = cell.room.lock().await;
        self.drop_deleted(code, cell);
    }
}

/// `room` (at `delta.from`) with `delta` applied, and the change's events; `None` (logged) if
/// the delta does not read or does not fit the room: it is then reloaded.
fn applied(room: &Room, delta: &Delta<'_>) -> Option<(Vec<(i64, Event)>, Room)> {
    fit(room, delta)
        .inspect_err(|err| {
            tracing::warn!(
                "room {}: the change from version {} does not apply ({err}): reloaded",
                room.code,
                delta.from
            );
        })
        .ok()
}

/// [`applied`], or why not.
fn fit(room: &Room, delta: &Delta<'_>) -> Result<(Vec<(i64, Event)>, Room), String> {
    let mut events = Vec::with_capacity(delta.events.len());
    for (n, row) in (delta.from + 1..).zip(delta.events.iter()) {
        if row.version != n {
            return Err(format!("event {} where {n} was due", row.version));
        }
        events.push((n, Event::from_json(&row.event).map_err(|e| e.to_string())?));
    }
    if delta.from + events.len() as i64 != delta.state.version {
        return Err(format!("no events up to {}", delta.state.version));
    }
    let mut next = room.clone();
    next.apply_committed(&delta.state, delta.seats.as_deref(), &delta.actions)?;
    Ok((events, next))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::tests::{scratch_prefix, test_url};
    use crate::cluster::Cluster;
    use crate::error::AppError;
    use crate::live::tests::{human, new_room};
    use crate::live::Update;
    use dames_store::{MemoryStore, RoomStore};

    const WAIT: Duration = Duration::from_secs(5);

    /// A node of a cluster (under `prefix`) over `store`.
    async fn node(store: &Arc<MemoryStore>, prefix: &str) -> Arc<Rooms> {
        let rooms = Rooms::new(store.clone(), 1);
        let cluster = Cluster::connect(&test_url(), prefix).await.unwrap();
        rooms.join_cluster(Arc::new(cluster));
        rooms
    }

    /// Waits until `n` connections listen to the channel of `prefix`.
    async fn until_subscribed(prefix: &str, n: i64) {
        let cluster = Cluster::connect(&test_url(), prefix).await.unwrap();
        let mut conn = cluster.conn();
        let channel = cluster.key(&["rooms"]);
        for _ in 0..500 {
            let (_, count): (String, i64) = redis::cmd("PUBSUB")
                .arg("NUMSUB")
                .arg(&channel)
                .query_async(&mut conn)
                .await
                .unwrap();
            if count >= n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("nobody subscribed to {channel}");
    }

    /// Seats Bo and starts the game (Ana moves first), recording who started it as a start
    /// against CPUs does (`Room::cpu_by`, a column the change writes).
    async fn start(rooms: &Arc<Rooms>, cell: &Arc<RoomCell>) {
        rooms
            .mutate(cell, |room, ch, _| {
                Ok(room.join(None, human("Bo"), ch).map(drop)?)
            })
            .await
            .unwrap();
        rooms
            .mutate(cell, |room, ch, now| {
                room.cpu_by = Some("0123456789abcdef".into());
                Ok(room.start(0, now, ch)?)
            })
            .await
            .unwrap();
    }

    /// Whoever is to move plays their first legal move, with move id `id`.
    async fn play(rooms: &Arc<Rooms>, cell: &Arc<RoomCell>, id: &str) {
        rooms
            .mutate(cell, |room, ch, now| {
                let play = room.play.as_ref().ok_or(AppError::Internal)?;
                let seat = play.state.to_move().ok_or(AppError::Internal)?;
                let mv = play.state.legal_moves().into_iter().next();
                let mv = mv.ok_or(AppError::Internal)?.to_input();
                Ok(room.play_move(seat, Some(id), &mv, now, ch).map(drop)?)
            })
            .await
            .unwrap();
    }

    /// Every stored part of `room` is the store's room's.
    fn assert_stored(store: &MemoryStore, room: &Room) {
        let stored = Room::from_stored(&store.load(&room.code).unwrap().unwrap()).unwrap();
        assert_eq!(room.to_row(), stored.to_row());
        // The away clock is written by the node holding the seat's connection, in a task of its
        // own (live/seats.rs): each node's copy may know a presence the store does not yet.
        let lasting = |r: &Room| -> Vec<dames_store::SeatRow> {
            (r.seat_rows().into_iter())
                .map(|s| dames_store::SeatRow {
                    away_since: None,
                    ..s
                })
                .collect()
        };
        assert_eq!(lasting(room), lasting(&stored));
        assert_eq!(room.move_ids, stored.move_ids);
        let (mine, theirs) = (room.play.as_ref().unwrap(), stored.play.as_ref().unwrap());
        assert_eq!(mine.records, theirs.records);
        assert_eq!(mine.log_len, theirs.log_len);
        assert_eq!(mine.state.board(), theirs.state.board());
        assert_eq!(mine.state.to_move(), theirs.state.to_move());
    }

    type Messages = std::pin::Pin<Box<dyn futures_util::Stream<Item = redis::Msg> + Send>>;

    /// The next message on the channel.
    async fn next(messages: &mut Messages) -> String {
        let msg = tokio::time::timeout(WAIT, messages.next()).await;
        msg.expect("a message comes")
            .unwrap()
            .get_payload()
            .unwrap()
    }

    /// The versions of the changes received on `updates` until `last`.
    async fn versions_until(
        updates: &mut tokio::sync::broadcast::Receiver<Arc<Update>>,
        last: i64,
    ) -> Vec<i64> {
        let mut versions = Vec::new();
        while versions.last() != Some(&last) {
            let update = tokio::time::timeout(WAIT, updates.recv()).await;
            let update = update.expect("the change arrives").unwrap();
            if let Update::Change { events, .. } = &*update {
                versions.extend(events.iter().map(|(v, _)| *v));
            }
        }
        versions
    }

    #[tokio::test]
    async fn a_change_made_on_another_node_is_applied_there_without_reloading_the_room() {
        let store = Arc::new(MemoryStore::default());
        let prefix = scratch_prefix();
        let (a, b) = (node(&store, &prefix).await, node(&store, &prefix).await);
        b.start_listening_only();
        until_subscribed(&prefix, 1).await;
        let (on_a, ()) = a.create(new_room).await.unwrap();
        let code = on_a.room.lock().await.code.clone();
        let on_b = b.get(&code).await.unwrap();
        let mut seen_on_b = on_b.tx.subscribe();
        // Seats, a game, its moves, its end, the rematch (seats ready), the next game's move.
        start(&a, &on_a).await;
        for n in 0..6 {
            play(&a, &on_a, &format!("m{n}")).await;
        }
        a.mutate(&on_a, |room, ch, now| Ok(room.resign(1, now, ch)?))
            .await
            .unwrap();
        for seat in [0, 1] {
            a.mutate(&on_a, |room, ch, now| {
                Ok(room.rematch(seat, true, 0, now, ch)?)
            })
            .await
            .unwrap();
        }
        play(&a, &on_a, "second").await;
        let last = on_a.room.lock().await.version;
        assert_eq!(last, 15);
        assert_eq!(
            versions_until(&mut seen_on_b, last).await,
            (2..=last).collect::<Vec<_>>()
        );
        let room = on_b.room.lock().await;
        assert_eq!((room.game_no, room.ply()), (2, 1));
        assert_stored(&store, &room);
        // Every change of A came as a delta B applied: the room was never reloaded.
        assert_eq!((b.catch_ups().applied(), b.catch_ups().reloaded()), (12, 0));
    }

    #[tokio::test]
    async fn a_missed_overtaken_or_unfit_change_reloads_and_each_event_is_given_once_in_order() {
        let store = Arc::new(MemoryStore::default());
        let prefix = scratch_prefix();
        let a = node(&store, &prefix).await;
        // B is fed A's messages by hand, in the order the test chooses.
        let b = Rooms::new(store.clone(), 1);
        let listener = Cluster::connect(&test_url(), &prefix).await.unwrap();
        let mut pubsub = listener.client().get_async_pubsub().await.unwrap();
        pubsub.subscribe(listener.key(&["rooms"])).await.unwrap();
        let mut messages: Messages = Box::pin(pubsub.into_on_message());
        let (on_a, ()) = a.create(new_room).await.unwrap();
        let created = next(&mut messages).await;
        let code = on_a.room.lock().await.code.clone();
        assert!(created.contains(&code) && !created.contains("delta"));
        let on_b = b.get(&code).await.unwrap();
        let mut seen_on_b = on_b.tx.subscribe();
        let give = |payload: String| {
            let (b, cell) = (b.clone(), on_b.clone());
            async move {
                let note: Note<'static> = serde_json::from_str(&payload).unwrap();
                b.catch_up(cell, Some(note.version), note.delta).await;
            }
        };

        start(&a, &on_a).await;
        let (joined, started) = (next(&mut messages).await, next(&mut messages).await);
        give(started).await; // B missed the join: reloaded, at version 3
        give(joined).await; // then the join comes late: nothing
        play(&a, &on_a, "m0").await;
        let m0 = next(&mut messages).await;
        give(m0.clone()).await; // applied
        give(m0).await; // twice: nothing
        play(&a, &on_a, "m1").await;
        play(&a, &on_a, "m2").await;
        let (m1, m2) = (next(&mut messages).await, next(&mut messages).await);
        give(m2).await; // overtook m1: reloaded, at version 6
        give(m1).await;
        play(&a, &on_a, "m3").await;
        let m3 = next(&mut messages).await;
        assert!(m3.contains(r#""seq":3,"#), "{m3}");
        give(m3.replace(r#""seq":3,"#, r#""seq":9,"#)).await; // does not fit: reloaded
        play(&a, &on_a, "m4").await;
        give(next(&mut messages).await).await; // applied

        assert_eq!(
            versions_until(&mut seen_on_b, 8).await,
            (2..=8).collect::<Vec<_>>()
        );
        assert!(seen_on_b.try_recv().is_err(), "nothing given twice");
        assert_stored(&store, &*on_b.room.lock().await);
        assert_eq!((b.catch_ups().applied(), b.catch_ups().reloaded()), (2, 3));
    }

    #[tokio::test]
    async fn a_change_whose_message_never_came_is_caught_up_by_the_sweep_within_the_bound() {
        let store = Arc::new(MemoryStore::default());
        let prefix = scratch_prefix();
        // A publishes nothing (a node killed between its commit and its message, say).
        let a = Rooms::new(store.clone(), 1);
        let b = node(&store, &prefix).await;
        b.start_fanout();
        until_subscribed(&prefix, 1).await;
        let (on_a, ()) = a.create(new_room).await.unwrap();
        let code = on_a.room.lock().await.code.clone();
        let on_b = b.get(&code).await.unwrap();
        let mut seen_on_b = on_b.tx.subscribe();
        start(&a, &on_a).await;
        play(&a, &on_a, "m0").await;
        let last = on_a.room.lock().await.version;
        let since = tokio::time::Instant::now();
        assert_eq!(
            versions_until(&mut seen_on_b, last).await,
            (2..=last).collect::<Vec<_>>()
        );
        assert!(since.elapsed() < STALE_BOUND, "{:?}", since.elapsed());
        assert_stored(&store, &*on_b.room.lock().await);
        assert!(b.catch_ups().swept() >= 1);
        assert_eq!(b.catch_ups().applied(), 0);
    }

    #[tokio::test]
    async fn a_room_held_here_is_checked_against_the_store_when_asked_for() {
        let store = Arc::new(MemoryStore::default());
        let prefix = scratch_prefix();
        let a = Rooms::new(store.clone(), 1);
        // B is in a cluster but neither listens nor sweeps: only the request can tell it.
        let b = node(&store, &prefix).await;
        let (on_a, ()) = a.create(new_room).await.unwrap();
        let code = on_a.room.lock().await.code.clone();
        let on_b = b.get(&code).await.unwrap();
        start(&a, &on_a).await;
        play(&a, &on_a, "m0").await;
        assert_eq!(b.get(&code).await.unwrap().room.lock().await.version, 1);
        let fresh = b.get_fresh(&code).await.unwrap();
        assert!(Arc::ptr_eq(&fresh, &on_b));
        assert_stored(&store, &*fresh.room.lock().await);
        assert_eq!(b.catch_ups().swept(), 1);
        // Without a cluster, nothing is asked: a lone node is the only writer.
        let (on_lone, ()) = a.create(new_room).await.unwrap();
        let lone = on_lone.room.lock().await.code.clone();
        assert!(Arc::ptr_eq(&a.get_fresh(&lone).await.unwrap(), &on_lone));
    }
}
