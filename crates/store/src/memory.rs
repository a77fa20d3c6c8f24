//! An in-memory store (every store trait) for unit tests of the server's live rooms: the same contract as
//! [`super::SqliteStore`] — a batch is all or nothing, a repeated log entry, event version or
//! client move id is refused, a play-columns update needs the room — kept in maps, plus a way
//! to make the next transactions fail (what a full disk does), which a real file cannot be
//! asked to do on cue. Tests of what is on disk use SQLite files (tests/, store::sqlite).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::analysis::AnalysisStore;
use crate::error::StoreError;
use crate::feedback::{FeedbackRow, FeedbackStore};
use crate::pairing::{LeaveRow, PairingStore};
use crate::push::{PushStore, PushSub};
use crate::rooms::{
    ClientRoom, Commit, Cutoffs, Due, PublicRoom, PublicSeat, RoomStore, RoomWrite,
};
use dames_room::rows::{ActionRow, EventRow, GameRow, RoomRow, SeatRow, StoredRoom};

#[derive(Clone, Debug)]
struct MemRoom {
    row: RoomRow,
    seats: Vec<SeatRow>,
    actions: BTreeMap<(i64, i64), ActionRow>,
    events: BTreeMap<i64, EventRow>,
    games: BTreeMap<i64, GameRow>,
}

#[derive(Clone, Debug, Default)]
struct Mem {
    rooms: BTreeMap<String, MemRoom>,
    server_keys: HashMap<String, String>,
    push: BTreeMap<(String, i64), PushSub>,
    played: HashMap<(String, String), i64>,
    feedback: Vec<FeedbackRow>,
    next_feedback: i64,
    /// (who blocked, whom) → when.
    blocks: BTreeMap<(String, String), i64>,
    leaves: BTreeMap<(String, i64, i64), LeaveRow>,
    /// (room, game) → the analysis; read only while the game is kept (as the cascade would).
    analyses: BTreeMap<(String, i64), String>,
}

/// The store in memory.
#[derive(Debug, Default)]
pub struct MemoryStore {
    mem: Mutex<Mem>,
    fail: AtomicUsize,
    batches: AtomicUsize,
    version_queries: AtomicUsize,
}

impl MemoryStore {
    /// The next `n` batches fail (and write nothing).
    pub fn fail_next(&self, n: usize) {
        self.fail.store(n, Ordering::SeqCst);
    }

    /// Batches committed so far.
    pub fn batches(&self) -> usize {
        self.batches.load(Ordering::SeqCst)
    }

    /// Calls of [`RoomStore::versions`] so far (each is one query of a real database).
    pub fn version_queries(&self) -> usize {
        self.version_queries.load(Ordering::SeqCst)
    }

    fn mem(&self) -> std::sync::MutexGuard<'_, Mem> {
        self.mem.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn refused(what: String) -> StoreError {
    StoreError::Failed(what)
}

fn apply(mem: &mut Mem, c: &Commit) -> Result<(), StoreError> {
    let conflict = || StoreError::Conflict {
        code: c.code.clone(),
        expected: c.room.from(),
    };
    let stored = mem.rooms.get_mut(&c.code);
    match (&c.room, stored) {
        (RoomWrite::New(row), None) => {
            mem.rooms.insert(
                c.code.clone(),
                MemRoom {
                    row: row.clone(),
                    seats: Vec::new(),
                    actions: BTreeMap::new(),
                    events: BTreeMap::new(),
                    games: BTreeMap::new(),
                },
            );
        }
        (RoomWrite::Row { from, row }, Some(room)) if room.row.state.version == *from => {
            // As the SQL update: the game kind and the creation time stay.
            room.row = RoomRow {
                game: room.row.game.clone(),
                created_at: room.row.created_at,
                ..row.clone()
            };
        }
        (RoomWrite::State { from, state }, Some(room)) if room.row.state.version == *from => {
            room.row.state.clone_from(state);
        }
        _ => return Err(conflict()),
    }
    c.check_event_versions()?;
    let room = mem
        .rooms
        .get_mut(&c.code)
        .ok_or_else(|| refused(format!("no room {}", c.code)))?;
    if let Some(seats) = &c.seats {
        room.seats.clone_from(seats);
    }
    for a in &c.actions {
        let repeated_id =
            a.client_id.is_some() && room.actions.values().any(|b| b.client_id == a.client_id);
        if repeated_id || room.actions.contains_key(&(a.game_no, a.seq)) {
            return Err(refused(format!(
                "log entry {} {} refused",
                a.game_no, a.seq
            )));
        }
        room.actions.insert((a.game_no, a.seq), a.clone());
    }
    for e in &c.events {
        if room.events.insert(e.version, e.clone()).is_some() {
            return Err(refused(format!("event {} repeated", e.version)));
        }
    }
    if let Some(g) = &c.game {
        let started_at = room
            .games
            .get(&g.game_no)
            .and_then(|old| old.started_at)
            .or(g.started_at);
        room.games.insert(
            g.game_no,
            GameRow {
                started_at,
                ..g.clone()
            },
        );
        // The oldest games out (rooms::GAMES_KEPT_PER_ROOM).
        let oldest_gone = g.game_no - crate::rooms::GAMES_KEPT_PER_ROOM;
        room.games.retain(|&n, _| n > oldest_gone);
        room.actions.retain(|&(n, _), _| n > oldest_gone);
    }
    for p in &c.played {
        mem.played.insert((p.client.clone(), p.game.clone()), p.at);
    }
    Ok(())
}

impl RoomStore for MemoryStore {
    fn commit_batch(&self, commits: &[Commit]) -> Result<(), StoreError> {
        let failing = self
            .fail
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if failing {
            return Err(StoreError::Failed(
                "the disk is full (MemoryStore::fail_next)".into(),
            ));
        }
        let mut mem = self.mem();
        let mut next = mem.clone();
        for c in commits {
            apply(&mut next, c)?;
        }
        *mem = next;
        self.batches.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    fn load(&self, code: &str) -> Result<Option<StoredRoom>, StoreError> {
        let mem = self.mem();
        Ok(mem.rooms.get(code).map(|r| StoredRoom {
            room: r.row.clone(),
            seats: r.seats.clone(),
            actions: r
                .actions
                .values()
                .filter(|a| a.game_no == r.row.state.game_no)
                .cloned()
                .collect(),
            client_ids: r
                .actions
                .values()
                .filter_map(|a| a.client_id.clone())
                .collect(),
        }))
    }

    fn exists(&self, code: &str) -> Result<bool, StoreError> {
        Ok(self.mem().rooms.contains_key(code))
    }

    fn versions(&self, codes: &[String]) -> Result<Vec<(String, i64)>, StoreError> {
        self.version_queries.fetch_add(1, Ordering::SeqCst);
        let mem = self.mem();
        Ok(codes
            .iter()
            .filter_map(|code| {
                let room = mem.rooms.get(code)?;
                Some((code.clone(), room.row.state.version))
            })
            .collect())
    }

    fn public_rooms(
        &self,
        status: &str,
        active_since: i64,
        limit: usize,
    ) -> Result<Vec<PublicRoom>, StoreError> {
        let mem = self.mem();
        let public = |r: &MemRoom| {
            serde_json::from_str::<serde_json::Value>(&r.row.settings)
                .is_ok_and(|v| v["public"] == serde_json::Value::Bool(true))
        };
        let mut rooms: Vec<PublicRoom> = mem
            .rooms
            .values()
            .filter(|r| r.row.state.status == status && r.row.state.active_at >= active_since)
            .filter(|r| status != "lobby" || r.seats.iter().any(|s| s.kind == "empty"))
            .filter(|r| public(r))
            .map(|r| PublicRoom {
                code: r.row.code.clone(),
                game: r.row.game.clone(),
                settings: r.row.settings.clone(),
                status: r.row.state.status.clone(),
                game_no: r.row.state.game_no,
                created_at: r.row.created_at,
                active_at: r.row.state.active_at,
                last_move_at: r.row.state.last_move_at,
                seats: r
                    .seats
                    .iter()
                    .map(|s| PublicSeat {
                        seat: s.seat,
                        kind: s.kind.clone(),
                        name: s.name.clone(),
                        level: s.level.clone(),
                    })
                    .collect(),
                moves: r
                    .actions
                    .values()
                    .filter(|a| a.game_no == r.row.state.game_no && a.kind == "move")
                    .count() as i64,
            })
            .collect();
        rooms.sort_by(|a, b| b.active_at.cmp(&a.active_at).then(a.code.cmp(&b.code)));
        rooms.truncate(limit);
        Ok(rooms)
    }

    fn live_codes(&self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .mem()
            .rooms
            .values()
            .filter(|r| r.row.state.status != "finished")
            .map(|r| r.row.code.clone())
            .collect())
    }

    fn running_codes(&self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .mem()
            .rooms
            .values()
            .filter(|r| {
                let cpu = r
                    .seats
                    .iter()
                    .any(|s| s.kind == "cpu" || (s.kind == "human" && s.level.is_some()));
                r.row.state.status == "playing" && (r.row.state.clock.is_some() || cpu)
            })
            .map(|r| r.row.code.clone())
            .collect())
    }

    fn events_since(
        &self,
        code: &str,
        since: i64,
        up_to: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        Ok(self.mem().rooms.get(code).map_or_else(Vec::new, |r| {
            r.events
                .range(since.saturating_add(1)..=up_to)
                .map(|(_, e)| e.clone())
                .collect()
        }))
    }

    fn due(&self, c: Cutoffs) -> Result<Due, StoreError> {
        let mem = self.mem();
        let codes = |f: &dyn Fn(&RoomRow) -> bool| -> Vec<String> {
            mem.rooms
                .values()
                .filter(|r| f(&r.row))
                .map(|r| r.row.code.clone())
                .collect()
        };
        let mut delete =
            codes(&|r| r.state.status == "lobby" && r.state.active_at < c.lobby_active_before);
        delete.extend(codes(&|r| {
            r.state.status == "finished"
                && r.state.finished_at.is_some_and(|t| t < c.finished_before)
        }));
        let abandon = codes(&|r| {
            r.state.status == "playing" && r.state.last_move_at.is_some_and(|t| t < c.idle_before)
        });
        Ok(Due { delete, abandon })
    }

    fn delete(&self, code: &str) -> Result<(), StoreError> {
        let mut mem = self.mem();
        mem.rooms.remove(code);
        mem.push.retain(|(c, _), _| c != code);
        Ok(())
    }

    fn save_seat_memory(&self, code: &str, rows: &[SeatRow]) -> Result<(), StoreError> {
        let mut mem = self.mem();
        let Some(room) = mem.rooms.get_mut(code) else {
            return Ok(());
        };
        for row in rows {
            let stored = room.seats.iter_mut().find(|s| s.seat == row.seat);
            if let Some(s) = stored.filter(|s| s.token_hash == row.token_hash) {
                s.away_since = row.away_since;
                s.transfer_hash.clone_from(&row.transfer_hash);
                s.transfer_expires_at = row.transfer_expires_at;
            }
        }
        Ok(())
    }

    fn ping(&self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Nothing is kept of what was deleted.
    fn scrub(&self) -> Result<(), StoreError> {
        Ok(())
    }

    fn rooms_of_client(&self, client: &str) -> Result<Vec<ClientRoom>, StoreError> {
        let mem = self.mem();
        let mut rows: Vec<ClientRoom> = mem
            .rooms
            .values()
            .flat_map(|r| {
                r.seats
                    .iter()
                    .filter(|s| s.client.as_deref() == Some(client))
                    .map(|s| ClientRoom {
                        code: r.row.code.clone(),
                        seat: s.seat,
                        game: r.row.game.clone(),
                        status: r.row.state.status.clone(),
                        active_at: r.row.state.active_at,
                    })
            })
            .collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.active_at));
        rows.truncate(50);
        Ok(rows)
    }

    fn games(
        &self,
        code: &str,
        before: Option<i64>,
        limit: usize,
    ) -> Result<Vec<GameRow>, StoreError> {
        let before = before.unwrap_or(i64::MAX);
        Ok(self.mem().rooms.get(code).map_or_else(Vec::new, |r| {
            r.games
                .range(..before)
                .rev()
                .take(limit)
                .map(|(_, g)| g.clone())
                .collect()
        }))
    }

    fn game(
        &self,
        code: &str,
        game_no: i64,
    ) -> Result<Option<(GameRow, Vec<ActionRow>)>, StoreError> {
        let mem = self.mem();
        Ok(mem.rooms.get(code).and_then(|r| {
            let game = r.games.get(&game_no)?.clone();
            let log = r
                .actions
                .values()
                .filter(|a| a.game_no == game_no)
                .cloned()
                .collect();
            Some((game, log))
        }))
    }

    fn delete_old_games(&self, finished_before: i64) -> Result<usize, StoreError> {
        let mut n = 0;
        for room in self.mem().rooms.values_mut() {
            let current = room.row.state.game_no;
            let old: Vec<i64> = room
                .games
                .values()
                .filter(|g| {
                    g.game_no < current && g.finished_at.is_some_and(|t| t < finished_before)
                })
                .map(|g| g.game_no)
                .collect();
            for game_no in old {
                room.games.remove(&game_no);
                room.actions.retain(|(g, _), _| *g != game_no);
                n += 1;
            }
        }
        Ok(n)
    }
}

impl FeedbackStore for MemoryStore {
    fn has_played(&self, client: &str, game: &str) -> Result<bool, StoreError> {
        let mem = self.mem();
        Ok(mem.played.contains_key(&(client.into(), game.into()))
            || mem.rooms.values().any(|r| {
                r.row.game == game
                    && (r.row.state.status == "finished" || r.row.state.game_no > 1)
                    && r.seats.iter().any(|s| s.client.as_deref() == Some(client))
            }))
    }

    fn add_feedback(&self, row: &FeedbackRow) -> Result<i64, StoreError> {
        let mut mem = self.mem();
        mem.next_feedback += 1;
        let id = mem.next_feedback;
        mem.feedback.push(FeedbackRow {
            id,
            status: "new".into(),
            ..row.clone()
        });
        Ok(id)
    }

    fn feedback(&self, limit: i64) -> Result<Vec<FeedbackRow>, StoreError> {
        let mut rows = self.mem().feedback.clone();
        rows.retain(|r| r.kind != "report");
        rows.sort_by_key(|r| std::cmp::Reverse((r.created_at, r.id)));
        rows.truncate(usize::try_from(limit).unwrap_or(0));
        Ok(rows)
    }

    fn count_feedback(&self, client: &str, kind: &str, since: i64) -> Result<usize, StoreError> {
        Ok(self
            .mem()
            .feedback
            .iter()
            .filter(|r| r.client == client && r.kind == kind && r.created_at > since)
            .count())
    }

    fn delete_feedback(&self, id: i64, client: &str) -> Result<bool, StoreError> {
        let mut mem = self.mem();
        let before = mem.feedback.len();
        mem.feedback.retain(|f| !(f.id == id && f.client == client));
        Ok(mem.feedback.len() < before)
    }

    fn set_feedback_status(&self, id: i64, status: &str) -> Result<bool, StoreError> {
        let mut mem = self.mem();
        let found = mem.feedback.iter_mut().find(|f| f.id == id);
        Ok(found.map(|f| f.status = status.into()).is_some())
    }

    fn sweep_feedback(&self, before: i64) -> Result<usize, StoreError> {
        let mut mem = self.mem();
        let start = mem.feedback.len() + mem.played.len();
        mem.feedback.retain(|f| f.created_at >= before);
        mem.played.retain(|_, at| *at >= before);
        Ok(start - (mem.feedback.len() + mem.played.len()))
    }
}

impl PushStore for MemoryStore {
    fn server_key(&self, name: &str) -> Result<Option<String>, StoreError> {
        Ok(self.mem().server_keys.get(name).cloned())
    }

    fn init_server_key(&self, name: &str, value: &str) -> Result<String, StoreError> {
        Ok(self
            .mem()
            .server_keys
            .entry(name.into())
            .or_insert_with(|| value.into())
            .clone())
    }

    fn save_push(&self, sub: &PushSub, _now: i64) -> Result<(), StoreError> {
        let mut mem = self.mem();
        if !mem.rooms.contains_key(&sub.code) {
            return Err(refused(format!("no room {}", sub.code)));
        }
        mem.push.insert((sub.code.clone(), sub.seat), sub.clone());
        Ok(())
    }

    fn push_of(&self, code: &str, seat: i64) -> Result<Option<PushSub>, StoreError> {
        Ok(self.mem().push.get(&(code.into(), seat)).cloned())
    }

    fn delete_push_endpoint(&self, endpoint: &str) -> Result<(), StoreError> {
        self.mem().push.retain(|_, s| s.endpoint != endpoint);
        Ok(())
    }

    fn delete_push_seat(&self, code: &str, seat: i64) -> Result<(), StoreError> {
        self.mem().push.remove(&(code.into(), seat));
        Ok(())
    }

    fn delete_push_room(&self, code: &str) -> Result<(), StoreError> {
        self.mem().push.retain(|(c, _), _| c != code);
        Ok(())
    }

    fn sweep_push(&self, finished_before: i64) -> Result<usize, StoreError> {
        let mut mem = self.mem();
        let start = mem.push.len();
        let gone: Vec<String> = mem
            .rooms
            .values()
            .filter(|r| {
                r.row.state.status == "finished"
                    && r.row.state.finished_at.is_some_and(|t| t < finished_before)
            })
            .map(|r| r.row.code.clone())
            .collect();
        mem.push.retain(|(c, _), _| !gone.contains(c));
        Ok(start - mem.push.len())
    }
}

impl PairingStore for MemoryStore {
    fn block(&self, client: &str, blocked: &str, at: i64) -> Result<(), StoreError> {
        (self.mem().blocks).insert((client.into(), blocked.into()), at);
        Ok(())
    }

    fn clear_blocks(&self, client: &str) -> Result<usize, StoreError> {
        let mut mem = self.mem();
        let before = mem.blocks.len();
        mem.blocks.retain(|(c, _), _| c != client);
        Ok(before - mem.blocks.len())
    }

    fn avoided(&self, client: &str) -> Result<Vec<String>, StoreError> {
        let mem = self.mem();
        let mut out: Vec<String> = (mem.blocks.keys())
            .filter_map(|(a, b)| match () {
                () if a == client => Some(b.clone()),
                () if b == client => Some(a.clone()),
                () => None,
            })
            .collect();
        out.sort();
        out.dedup();
        Ok(out)
    }

    fn record_leave(&self, leave: &LeaveRow) -> Result<bool, StoreError> {
        let key = (leave.code.clone(), leave.game_no, leave.seat);
        let mut mem = self.mem();
        if mem.leaves.contains_key(&key) {
            return Ok(false);
        }
        mem.leaves.insert(key, leave.clone());
        Ok(true)
    }

    fn leaves_since(&self, client: &str, since: i64) -> Result<u32, StoreError> {
        let mem = self.mem();
        let n = (mem.leaves.values())
            .filter(|l| l.client == client && l.at >= since)
            .count();
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    fn sweep_leaves(&self, before: i64) -> Result<usize, StoreError> {
        let mut mem = self.mem();
        let start = mem.leaves.len();
        mem.leaves.retain(|_, l| l.at >= before);
        Ok(start - mem.leaves.len())
    }
}

impl AnalysisStore for MemoryStore {
    fn save_analysis(
        &self,
        code: &str,
        game_no: i64,
        analysis: &str,
        _at: i64,
    ) -> Result<bool, StoreError> {
        let mut mem = self.mem();
        let kept = mem
            .rooms
            .get(code)
            .is_some_and(|r| r.games.contains_key(&game_no));
        if kept {
            mem.analyses
                .insert((code.to_owned(), game_no), analysis.to_owned());
        }
        Ok(kept)
    }

    fn analysis(&self, code: &str, game_no: i64) -> Result<Option<String>, StoreError> {
        let mut mem = self.mem();
        let kept = mem
            .rooms
            .get(code)
            .is_some_and(|r| r.games.contains_key(&game_no));
        let key = (code.to_owned(), game_no);
        if !kept {
            // Gone with its game, as the database's cascade does.
            mem.analyses.remove(&key);
            return Ok(None);
        }
        Ok(mem.analyses.get(&key).cloned())
    }
}
