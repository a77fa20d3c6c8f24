//! Quick pairing (« Jouer en ligne », docs/protocol.md "Pools"): browsers seek a game in one or
//! several pools ([`spec`]); when enough of them wait in one pool ([`pick`]), a room is made with
//! each of them seated by the seat token their own socket holds, started, and each socket is
//! told where. One node keeps the seeks in its memory; a cluster keeps them in Redis
//! ([`shared`]), where each match is claimed atomically.
//!
//! The matcher is one task per node: it runs at once when a seek arrives, and every
//! [`PoolOptions::tick`] for what time alone makes possible (a waiting penalty over, a CPU fill
//! due) and to refresh the waiting list every socket shows.

pub mod pick;
pub mod shared;
pub mod spec;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::{mpsc, watch, Notify};

use crate::error::{AppError, RoomError};
use crate::live::{blocking, now_ms, Rooms};
use dames_room::event::Event;
use dames_room::room::{Occupant, Room, SeatAction, Settings, SettingsInput};
use dames_room::{settings, token};
use dames_store::{LeaveRow, Store};
use pick::{picks, CpuFill, Pick, Seek};
use spec::PoolSpec;

/// Where a seeker was seated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matched {
    /// The seek.
    pub seek: String,
    /// The room's code.
    pub code: String,
    /// The seeker's seat.
    pub seat: usize,
}

/// The options of the pools.
#[derive(Clone, Debug)]
pub struct PoolOptions {
    /// How often the matcher runs without a new seek.
    pub tick: Duration,
    /// Cluster: how long a node has to make the room of a match it claimed.
    pub pending_for: Duration,
    /// Shortest, longest and default wait before the CPU fill (seconds).
    pub cpu_after: (u64, u64, u64),
    /// The clocks of the live pools.
    pub clocks: spec::PoolClocks,
}

impl Default for PoolOptions {
    fn default() -> Self {
        Self {
            tick: Duration::from_millis(250),
            pending_for: Duration::from_secs(10),
            cpu_after: CPU_AFTER,
            clocks: spec::PoolClocks::default(),
        }
    }
}

/// Most pools one seek may be in.
pub const MAX_POOLS: usize = 8;
/// Shortest, longest and default wait before the CPU fill (seconds).
pub const CPU_AFTER: (u64, u64, u64) = (10, 300, 60);
/// Waiting penalty per game left in the last [`LEAVE_WINDOW_MS`], and its cap (ms).
pub const PENALTY_PER_LEAVE_MS: i64 = 15_000;
/// See [`PENALTY_PER_LEAVE_MS`].
pub const PENALTY_CAP_MS: i64 = 120_000;
/// The window in which games left count.
pub const LEAVE_WINDOW_MS: i64 = 24 * 3600 * 1000;
/// Names shown per pool in the waiting list.
const SHOWN: usize = 20;

/// The waiting penalty of a browser that left `leaves` games in the last 24 h.
pub fn penalty_ms(leaves: u32) -> i64 {
    (i64::from(leaves) * PENALTY_PER_LEAVE_MS).min(PENALTY_CAP_MS)
}

/// What a browser asks for.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// Its name.
    pub name: String,
    /// The pools' ids.
    pub pools: Vec<String>,
    /// « Compléter avec des CPU après N s »: `{"level": "normal", "after": 60}`.
    #[serde(default)]
    pub cpu: Option<CpuRequest>,
}

/// The CPU fill asked for.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CpuRequest {
    /// The level.
    pub level: String,
    /// Seconds ([`CPU_AFTER`]); absent: the default.
    #[serde(default)]
    pub after: Option<u64>,
}

enum Backend {
    Local(Mutex<HashMap<String, Seek>>),
    Shared(shared::Shared),
}

/// The pools of this node.
pub struct Pools {
    rooms: Arc<Rooms>,
    store: Arc<dyn Store>,
    backend: Backend,
    options: PoolOptions,
    /// This node's seeking sockets: seek id → where to tell it.
    sockets: Mutex<HashMap<String, mpsc::UnboundedSender<Matched>>>,
    wake: Notify,
    waiting: watch::Sender<Arc<str>>,
    /// Who the last waiting list showed (seek ids: never sent).
    waiting_who: Mutex<String>,
    /// The `since` of the last seek made here: each seek is strictly younger than the one
    /// before, so that "oldest first" is an order even within one millisecond.
    last_since: std::sync::atomic::AtomicI64,
}

impl std::fmt::Debug for Pools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pools").finish_non_exhaustive()
    }
}

/// A seek held by a socket: its matches come on [`Ticket::matched`]; dropping it cancels the seek.
#[derive(Debug)]
pub struct Ticket {
    pools: Weak<Pools>,
    seek: Seek,
    /// The seek's own penalty (ms) before it may be paired.
    pub penalty_ms: i64,
    /// Where the match comes.
    pub matched: mpsc::UnboundedReceiver<Matched>,
}

impl Ticket {
    /// The seek's pools.
    pub fn pools(&self) -> &[String] {
        &self.seek.pools
    }

    /// Cancels the seek: `true` if it left the pools; `false` if a match had already taken it
    /// (its room is being made: the match comes on [`Ticket::matched`]).
    ///
    /// # Errors
    /// `internal` if Redis does not answer.
    pub async fn withdraw(&self) -> Result<bool, AppError> {
        let Some(pools) = self.pools.upgrade() else {
            return Ok(true);
        };
        pools.withdraw(&self.seek).await
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if let Some(pools) = self.pools.upgrade() {
            pools.forget(&self.seek);
        }
    }
}

fn unix_ms() -> i64 {
    now_ms()
}

impl Pools {
    /// The pools of these rooms: in Redis when the rooms are a cluster's, else in memory.
    /// Starts the matcher (and, in a cluster, the listener of matches made by other nodes).
    pub fn start(rooms: Arc<Rooms>, store: Arc<dyn Store>, options: PoolOptions) -> Arc<Self> {
        let backend = match rooms.cluster() {
            Some(c) => Backend::Shared(shared::Shared::new(c.clone(), options.pending_for)),
            None => Backend::Local(Mutex::new(HashMap::new())),
        };
        let pools = Arc::new(Self {
            rooms,
            store,
            backend,
            options,
            sockets: Mutex::new(HashMap::new()),
            wake: Notify::new(),
            waiting: watch::channel(Arc::from(r#"{"type":"waiting","pools":[]}"#)).0,
            waiting_who: Mutex::new(String::new()),
            last_since: std::sync::atomic::AtomicI64::new(0),
        });
        if tokio::runtime::Handle::try_current().is_ok() {
            tokio::spawn(matcher(Arc::downgrade(&pools)));
            if let Backend::Shared(shared) = &pools.backend {
                tokio::spawn(listen(Arc::downgrade(&pools), shared.clone()));
            }
        }
        pools
    }

    fn sockets(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::UnboundedSender<Matched>>> {
        self.sockets.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The shortest, longest and default wait before the CPU fill (seconds).
    pub fn cpu_after(&self) -> (u64, u64, u64) {
        self.options.cpu_after
    }

    /// The clocks of the live pools.
    pub fn clocks(&self) -> &spec::PoolClocks {
        &self.options.clocks
    }

    /// The waiting list (a `waiting` frame), renewed every tick.
    pub fn waiting(&self) -> watch::Receiver<Arc<str>> {
        self.waiting.subscribe()
    }

    /// Checks a request of browser `client` at address `ip` and makes its seek, holding a seat
    /// token whose hash is `token_hash`: its blocks and waiting penalty read from the store. A
    /// CPU fill is a game against CPUs like any other: it is refused to a browser or an address
    /// already at its cap (`limits`), and the room it makes counts for the seeker who asked.
    ///
    /// # Errors
    /// `unknown_pool`, `invalid_settings` (the CPU fill), `invalid_name`, `invalid_input`
    /// (no pool, too many), `too_many_cpu_games`, `internal`.
    pub async fn prepare(
        &self,
        client: &str,
        ip: std::net::IpAddr,
        request: &SeekRequest,
        token_hash: &[u8; 32],
        limits: &crate::options::Limits,
    ) -> Result<Seek, AppError> {
        let name = dames_room::room::valid_name(&request.name)?;
        let pools = check_pools(&request.pools)?;
        let cpu = (request.cpu.as_ref())
            .map(|c| check_cpu(c, self.options.cpu_after))
            .transpose()?;
        if cpu.is_some() {
            self.rooms.check_cpu_games(None, ip, client, limits)?;
        }
        let store = self.store.clone();
        let who = client.to_owned();
        let now = self.next_since();
        let (avoid, leaves) = blocking(move || {
            Ok((
                store.avoided(&who)?,
                store.leaves_since(&who, now - LEAVE_WINDOW_MS)?,
            ))
        })
        .await?;
        Ok(Seek {
            id: token::random_hex128(),
            client: client.to_owned(),
            name,
            pools,
            token_hash: hex(token_hash),
            since: now,
            ready_at: now + penalty_ms(leaves),
            by: cpu.is_some().then(|| self.rooms.address_hash(ip)),
            cpu,
            avoid,
        })
    }

    /// Now, or 1 ms after the last seek made here if that is later (see `last_since`).
    fn next_since(&self) -> i64 {
        use std::sync::atomic::Ordering::SeqCst;
        let now = unix_ms();
        let next = |last: i64| now.max(last + 1);
        let last = (self
            .last_since
            .fetch_update(SeqCst, SeqCst, |last| Some(next(last))))
        .unwrap_or_else(|last| last);
        next(last)
    }

    /// Puts `seek` in its pools.
    ///
    /// # Errors
    /// `too_many_seeks` if its browser already seeks (on any node), `internal` if Redis fails.
    pub async fn seek(self: &Arc<Self>, seek: Seek) -> Result<Ticket, AppError> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.sockets().insert(seek.id.clone(), tx);
        let added = match &self.backend {
            Backend::Local(seeks) => {
                let mut seeks = seeks.lock().unwrap_or_else(|e| e.into_inner());
                let busy = seeks.values().any(|s| s.client == seek.client);
                if !busy {
                    seeks.insert(seek.id.clone(), seek.clone());
                }
                Ok(!busy)
            }
            Backend::Shared(shared) => shared.add(&seek).await,
        };
        let added = added.map_err(|e| AppError::internal("pools", e));
        if !matches!(added, Ok(true)) {
            self.sockets().remove(&seek.id);
            return Err(added.err().unwrap_or(AppError::TooManySeeks));
        }
        self.wake.notify_one();
        Ok(Ticket {
            pools: Arc::downgrade(self),
            penalty_ms: seek.ready_at - seek.since,
            seek,
            matched: rx,
        })
    }

    /// Browser `client` blocked browser `blocked` (« Ne plus jouer avec cette personne »): a
    /// seek of its waiting now, on any node, avoids that browser from the next round on; its
    /// next seeks read the block from the store.
    pub async fn blocked(&self, client: &str, blocked: &str) {
        match &self.backend {
            Backend::Local(seeks) => {
                let mut seeks = seeks.lock().unwrap_or_else(|e| e.into_inner());
                for seek in seeks.values_mut().filter(|s| s.client == client) {
                    if !seek.avoid.iter().any(|b| b == blocked) {
                        seek.avoid.push(blocked.to_owned());
                    }
                }
            }
            Backend::Shared(shared) => {
                if let Err(err) = shared.avoid(client, blocked).await {
                    crate::metrics::METRICS.redis_errors.inc();
                    tracing::warn!(
                        "a block could not reach a seek waiting (its next seek has it): {err}"
                    );
                }
            }
        }
    }

    /// Takes `seek` out of the pools if it is still there (its socket then forgotten).
    async fn withdraw(&self, seek: &Seek) -> Result<bool, AppError> {
        let removed = match &self.backend {
            Backend::Local(seeks) => (seeks.lock().unwrap_or_else(|e| e.into_inner()))
                .remove(&seek.id)
                .is_some(),
            Backend::Shared(shared) => (shared.remove(&seek.id, &seek.client).await)
                .map_err(|e| AppError::internal("pools", e))?,
        };
        if removed {
            self.sockets().remove(&seek.id);
        }
        Ok(removed)
    }

    /// Takes `seek` out of the pools (its ticket dropped).
    fn forget(&self, seek: &Seek) {
        self.sockets().remove(&seek.id);
        match &self.backend {
            Backend::Local(seeks) => {
                (seeks.lock().unwrap_or_else(|e| e.into_inner())).remove(&seek.id);
            }
            Backend::Shared(shared) => {
                let (shared, id, client) = (shared.clone(), seek.id.clone(), seek.client.clone());
                tokio::spawn(async move {
                    if let Err(err) = shared.remove(&id, &client).await {
                        crate::metrics::METRICS.redis_errors.inc();
                        tracing::warn!("a seek could not be removed (it lapses by itself): {err}");
                    }
                });
            }
        }
    }

    async fn snapshot(&self) -> Result<Vec<Seek>, AppError> {
        match &self.backend {
            Backend::Local(seeks) => Ok((seeks.lock().unwrap_or_else(|e| e.into_inner()))
                .values()
                .cloned()
                .collect()),
            Backend::Shared(shared) => {
                (shared.snapshot().await).map_err(|e| AppError::internal("pools", e))
            }
        }
    }

    /// Takes the seeks of `pick` out of the pools: them, or `None` if one was gone.
    async fn claim(&self, match_id: &str, pick: &Pick) -> Result<Option<Vec<Seek>>, AppError> {
        match &self.backend {
            Backend::Local(seeks) => {
                let mut seeks = seeks.lock().unwrap_or_else(|e| e.into_inner());
                if !pick.seeks.iter().all(|id| seeks.contains_key(id)) {
                    return Ok(None);
                }
                Ok(Some(
                    pick.seeks
                        .iter()
                        .filter_map(|id| seeks.remove(id))
                        .collect(),
                ))
            }
            Backend::Shared(shared) => (shared.claim(match_id, &pick.seeks).await)
                .map_err(|e| AppError::internal("pools", e)),
        }
    }

    /// One round: every group that can be formed is claimed and its room made.
    async fn matchmake(self: &Arc<Self>) -> Result<(), AppError> {
        let seeks = self.snapshot().await?;
        for pick in picks(&seeks, unix_ms()) {
            let match_id = token::random_hex128();
            let Some(claimed) = self.claim(&match_id, &pick).await? else {
                // Another node was quicker, or a seek was cancelled: the next round sees.
                self.wake.notify_one();
                continue;
            };
            let this = self.clone();
            tokio::spawn(async move { this.seat(match_id, pick, claimed).await });
        }
        Ok(())
    }

    /// Makes the room of a claimed match and tells its seekers; on failure puts them back.
    async fn seat(self: Arc<Self>, match_id: String, pick: Pick, claimed: Vec<Seek>) {
        let made = self.make_room(&pick, &claimed).await;
        let results = match made {
            Ok(results) => results,
            Err(err) => {
                tracing::error!("pools: a room could not be made ({err}); seekers put back");
                self.put_back(&match_id, claimed).await;
                return;
            }
        };
        crate::metrics::METRICS.pool_matches.inc();
        match &self.backend {
            Backend::Local(_) => self.deliver(results),
            Backend::Shared(shared) => match shared.done(&match_id, &results).await {
                Ok(true) => self.deliver(results),
                Ok(false) => tracing::warn!(
                    "pools: match {} done too late: its seekers were put back, room {} unused",
                    &match_id[..8],
                    results.first().map_or("", |r| r.code.as_str())
                ),
                // Redis may have done it: the seekers' nodes read their result when renewing.
                Err(err) => tracing::error!("pools: a match could not be announced: {err}"),
            },
        }
    }

    async fn put_back(&self, match_id: &str, claimed: Vec<Seek>) {
        match &self.backend {
            Backend::Local(seeks) => {
                let open = self.sockets();
                let mut seeks = seeks.lock().unwrap_or_else(|e| e.into_inner());
                for seek in claimed.into_iter().filter(|s| open.contains_key(&s.id)) {
                    seeks.insert(seek.id.clone(), seek);
                }
            }
            Backend::Shared(shared) => {
                if let Err(err) = shared.reclaim(Some(match_id)).await {
                    tracing::error!(
                        "pools: seekers not put back now (they are at the deadline): {err}"
                    );
                }
            }
        }
    }

    /// Tells the seekers whose socket is on this node.
    fn deliver(&self, results: Vec<Matched>) {
        let sockets = self.sockets();
        for r in results {
            if let Some(tx) = sockets.get(&r.seek) {
                let _ = tx.send(r);
            }
        }
    }

    /// Makes, seats and starts the room of `pick`: each seeker's seat.
    async fn make_room(&self, pick: &Pick, claimed: &[Seek]) -> Result<Vec<Matched>, AppError> {
        let pool = pick.pool;
        let kind = pool.kind();
        let input = SettingsInput::parse(kind, &pool.settings_json(&self.options.clocks))?;
        let (settings, seats) = Settings::new(kind, &input)?;
        let random = random_u64();
        let mut order = seat_order(seats, claimed.len(), random);
        // A CPU fill is the game of the seeker who asked for it: it holds the host's seat, and
        // the caps on games against CPUs count the room for its browser and its address.
        let filler = (pick.cpus.is_some())
            .then(|| claimed.iter().position(|s| s.cpu.is_some()))
            .flatten();
        if let Some(f) = filler {
            if let Some(host) = order.iter().position(|&s| s == 0) {
                order.swap(f, host);
            }
        }
        let cpu_by = filler.and_then(|f| claimed[f].by.clone());
        let level = match &pick.cpus {
            Some((_, level)) => Some(settings::level("cpu.level", level)?),
            None => None,
        };
        let occupant = |s: &Seek| -> Result<Occupant, AppError> {
            Ok(Occupant::Human {
                name: s.name.clone(),
                token_hash: unhex(&s.token_hash).ok_or(AppError::Internal)?,
                client: Some(s.client.clone()),
            })
        };
        let host = occupant(&claimed[order.iter().position(|&s| s == 0).unwrap_or(0)])?;
        let (cell, ()) = self
            .rooms
            .create(|code, ch, now| {
                let mut room = Room::new(code, kind, settings, seats, host.clone(), now);
                for (seek, &seat) in claimed.iter().zip(&order) {
                    if seat == 0 {
                        ch.events.push(Event::Joined {
                            name: seek.name.clone(),
                            seat: 0,
                        });
                    } else {
                        room.join(Some(seat), occupant(seek)?, ch)?;
                    }
                }
                if let Some(level) = level {
                    for seat in (0..seats).filter(|s| !order.contains(s)) {
                        room.set_seat(seat, SeatAction::Cpu(level), ch)?;
                    }
                }
                room.cpu_by.clone_from(&cpu_by);
                room.start(random, now, ch)?;
                Ok((room, ()))
            })
            .await?;
        let code = cell.room.lock().await.code.clone();
        Ok(claimed
            .iter()
            .zip(&order)
            .map(|(s, &seat)| Matched {
                seek: s.id.clone(),
                code: code.clone(),
                seat,
            })
            .collect())
    }

    /// The waiting list of `seeks`: per pool, the names (never ids) and how long each waited;
    /// and what of it changes only when someone comes or goes (not as time passes: each page
    /// counts the seconds itself), to send it only then.
    fn waiting_frame(seeks: &[Seek], now: i64) -> (String, String) {
        let mut who = String::new();
        let pools: Vec<Value> = spec::POOLS
            .iter()
            .filter_map(|pool| {
                let mut here: Vec<&Seek> = seeks
                    .iter()
                    .filter(|s| s.pools.iter().any(|p| p == pool.id))
                    .collect();
                if here.is_empty() {
                    return None;
                }
                here.sort_by_key(|s| (s.since, s.id.clone()));
                who.push_str(pool.id);
                for s in here.iter().take(SHOWN) {
                    who.push(':');
                    who.push_str(&s.id);
                }
                who.push_str(&format!("={};", here.len()));
                let shown: Vec<Value> = (here.iter().take(SHOWN))
                    .map(|s| json!({"name": s.name, "waited_ms": (now - s.since).max(0)}))
                    .collect();
                Some(json!({"pool": pool.id, "count": here.len(), "waiting": shown}))
            })
            .collect();
        (json!({"type": "waiting", "pools": pools}).to_string(), who)
    }

    /// Every tick: the waiting list, and in a cluster the seeks renewed, the dead ones swept,
    /// the matches of dead nodes put back, the results missed read.
    async fn upkeep(&self) -> Result<(), AppError> {
        let seeks = self.snapshot().await?;
        let (frame, who) = Self::waiting_frame(&seeks, unix_ms());
        let changed = {
            let mut last = self.waiting_who.lock().unwrap_or_else(|e| e.into_inner());
            let changed = *last != who;
            *last = who;
            changed
        };
        if changed {
            self.waiting.send_replace(Arc::from(frame.as_str()));
        }
        let Backend::Shared(shared) = &self.backend else {
            return Ok(());
        };
        let mine: Vec<String> = self.sockets().keys().cloned().collect();
        let redis = |e| AppError::internal("pools", e);
        shared.renew(&mine).await.map_err(redis)?;
        shared.sweep().await.map_err(redis)?;
        if shared.reclaim(None).await.map_err(redis)? > 0 {
            self.wake.notify_one();
        }
        let waiting: std::collections::HashSet<&str> =
            seeks.iter().map(|s| s.id.as_str()).collect();
        for id in mine.iter().filter(|id| !waiting.contains(id.as_str())) {
            if let Some(found) = shared.result(id).await.map_err(redis)? {
                self.deliver(vec![found]);
            }
        }
        Ok(())
    }

    /// Records the games left in a change (docs/protocol.md "Leavers"): the seat whose win
    /// was claimed after it stayed away on its turn (a game lost by `abandonment`). Every node
    /// may see the same change; the store keeps it once.
    pub fn record_leaves(&self, room: &Room, events: &[(i64, Event)]) {
        let leaves: Vec<LeaveRow> = events
            .iter()
            .filter_map(|(_, e)| match e {
                Event::Claimed { away, .. } => Some(*away),
                // A flag fallen while its seat had no open connection, here or on another
                // node: a game left, not a game lost on time at the board.
                Event::Flag { seat, .. } if room.seats.get(*seat).is_some_and(|s| !s.online()) => {
                    Some(*seat)
                }
                _ => None,
            })
            .filter_map(|seat| {
                let client = match &room.seats.get(seat)?.occupant {
                    Occupant::Human { client, .. } => client.clone()?,
                    _ => return None,
                };
                Some(LeaveRow {
                    code: room.code.clone(),
                    game_no: room.game_no,
                    seat: i64::try_from(seat).ok()?,
                    client,
                    at: unix_ms(),
                })
            })
            .collect();
        if leaves.is_empty() {
            return;
        }
        let store = self.store.clone();
        tokio::spawn(async move {
            let done = blocking(move || {
                for leave in &leaves {
                    store.record_leave(leave)?;
                }
                Ok(())
            })
            .await;
            if let Err(err) = done {
                tracing::warn!("a game left could not be recorded: {err}");
            }
        });
    }
}

/// The matcher: a round when woken or every tick, until the pools are dropped.
async fn matcher(pools: Weak<Pools>) {
    let Some(tick) = pools.upgrade().map(|p| p.options.tick) else {
        return;
    };
    let mut upkeep = tokio::time::interval(tick);
    upkeep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let Some(this) = pools.upgrade() else { return };
        let ticked = tokio::select! {
            () = this.wake.notified() => false,
            _ = upkeep.tick() => true,
        };
        if let Err(err) = this.matchmake().await {
            tracing::warn!("pools: a round failed: {err}");
        }
        if ticked {
            if let Err(err) = this.upkeep().await {
                tracing::warn!("pools: upkeep failed: {err}");
            }
        }
        drop(this);
    }
}

/// Cluster: the matches made by other nodes, to this node's sockets, until the pools are
/// dropped.
async fn listen(pools: Weak<Pools>, shared: shared::Shared) {
    let mut backoff = Duration::from_millis(100);
    let mut check = tokio::time::interval(Duration::from_secs(1));
    loop {
        let weak = pools.clone();
        let listening = shared.listen(move |results| {
            if let Some(p) = weak.upgrade() {
                p.deliver(results);
            }
        });
        tokio::pin!(listening);
        let ended = loop {
            tokio::select! {
                ended = &mut listening => break Some(ended),
                _ = check.tick() => if pools.strong_count() == 0 { break None },
            }
        };
        let Some(ended) = ended else { return };
        if let Err(err) = ended {
            crate::metrics::METRICS.redis_errors.inc();
            tracing::warn!("pools: cannot subscribe ({err}); again in {backoff:?}");
            backoff = (backoff * 2).min(Duration::from_secs(5));
        }
        tokio::time::sleep(backoff).await;
    }
}

/// Each seeker's seat: seat 0 (the host's) always to a person, the others drawn.
fn seat_order(seats: usize, persons: usize, random: u64) -> Vec<usize> {
    let mut all: Vec<usize> = (0..seats).collect();
    let mut r = random;
    for i in (1..seats).rev() {
        r = r
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let j = usize::try_from((r >> 33) % (i as u64 + 1)).unwrap_or(0);
        all.swap(i, j);
    }
    let mut order: Vec<usize> = all.into_iter().take(persons).collect();
    if !order.contains(&0) {
        order[0] = 0;
    }
    order
}

fn check_pools(ids: &[String]) -> Result<Vec<String>, AppError> {
    if ids.is_empty() || ids.len() > MAX_POOLS {
        return Err(AppError::Invalid(format!(
            "pools: 1 to {MAX_POOLS} pool ids"
        )));
    }
    let mut out: Vec<String> = Vec::with_capacity(ids.len());
    for id in ids {
        let pool = PoolSpec::find(id)
            .ok_or_else(|| AppError::UnknownPool(id.chars().take(40).collect()))?;
        if !out.iter().any(|p| p == pool.id) {
            out.push(pool.id.to_owned());
        }
    }
    Ok(out)
}

fn check_cpu(cpu: &CpuRequest, (min, max, default): (u64, u64, u64)) -> Result<CpuFill, AppError> {
    let level = settings::level("cpu.level", &cpu.level)?;
    let after_s = cpu.after.unwrap_or(default);
    if !(min..=max).contains(&after_s) {
        return Err(AppError::Room(RoomError::InvalidSettings(
            settings::out_of_range("cpu.after", min as i64, max as i64),
        )));
    }
    Ok(CpuFill {
        level: level.name().to_owned(),
        after_s,
    })
}

/// 64 random bits from the OS (the seats' order, the first player's draw).
fn random_u64() -> u64 {
    u64::from_str_radix(&token::random_hex128()[..16], 16).unwrap_or(0)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    if text.len() != 64 {
        return None;
    }
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// The typed refusal of a bad field of a seek (used by the socket).
pub fn bad_request(message: &str) -> AppError {
    AppError::Room(RoomError::BadJson(message.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_zero_always_goes_to_a_person_and_seats_are_distinct() {
        for r in 0..200u64 {
            for (seats, persons) in [(2, 2), (4, 3), (4, 1), (6, 6), (3, 2)] {
                let order = seat_order(seats, persons, r.wrapping_mul(0x9e37_79b9_7f4a_7c15));
                assert_eq!(order.len(), persons);
                assert!(order.contains(&0));
                let mut sorted = order.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), persons);
                assert!(order.iter().all(|&s| s < seats));
            }
        }
    }

    #[test]
    fn the_penalty_grows_by_fifteen_seconds_a_leave_up_to_two_minutes() {
        assert_eq!(penalty_ms(0), 0);
        assert_eq!(penalty_ms(1), 15_000);
        assert_eq!(penalty_ms(3), 45_000);
        assert_eq!(penalty_ms(8), 120_000);
        assert_eq!(penalty_ms(1000), 120_000);
    }

    /// A person of browser `client`.
    fn person(name: &str, client: &str) -> Occupant {
        Occupant::Human {
            name: name.into(),
            token_hash: token::hash_token(name),
            client: Some(client.into()),
        }
    }

    /// Pools on a memory store, and a started draughts room of Ana (seat 0) and Bo (seat 1).
    fn ana_and_bo() -> (Arc<dames_store::MemoryStore>, Arc<Pools>, Room) {
        let store = Arc::new(dames_store::MemoryStore::default());
        let rooms = Rooms::new(store.clone(), 1);
        let pools = Pools::start(rooms, store.clone(), PoolOptions::default());
        let kind = dames_room::game::GameKind::Draughts;
        let (settings, seats) = Settings::new(kind, &SettingsInput::default()).unwrap();
        let mut room = Room::new(
            "ABCDEF".into(),
            kind,
            settings,
            seats,
            person("Ana", "ana"),
            0,
        );
        let mut ch = dames_room::room::Change::default();
        room.join(Some(1), person("Bo", "bo"), &mut ch).unwrap();
        (store, pools, room)
    }

    #[test]
    fn seeks_made_in_one_millisecond_are_still_strictly_in_order() {
        let (_, pools, _) = ana_and_bo();
        let all: Vec<i64> = (0..2_000).map(|_| pools.next_since()).collect();
        assert!(all.windows(2).all(|w| w[0] < w[1]), "strictly increasing");
        let drift = all[all.len() - 1] - unix_ms();
        assert!(
            drift <= 2_000,
            "at most 1 ms ahead per seek of the same millisecond"
        );
    }

    /// The games left recorded for Bo and for Ana, once the recording (a task) is done.
    async fn leaves_of_bo_and_ana(store: &dames_store::MemoryStore) -> (u32, u32) {
        use dames_store::PairingStore;
        let counted = || {
            (
                store.leaves_since("bo", 0).unwrap(),
                store.leaves_since("ana", 0).unwrap(),
            )
        };
        for _ in 0..100 {
            if counted().0 > 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        counted()
    }

    #[tokio::test]
    async fn a_claimed_win_counts_once_as_a_game_left_by_the_seat_away() {
        let (store, pools, room) = ana_and_bo();
        let claimed = [(7, Event::Claimed { away: 1, seat: 0 })];
        pools.record_leaves(&room, &claimed);
        // Another node seeing the same end records nothing more; other events count for nothing.
        pools.record_leaves(&room, &claimed);
        pools.record_leaves(&room, &[(8, Event::Returned { seat: 0 })]);
        assert_eq!(leaves_of_bo_and_ana(&store).await, (1, 0));
    }

    #[tokio::test]
    async fn a_flag_fallen_while_away_counts_as_a_game_left_and_at_the_board_does_not() {
        use dames_room::event::FlagThen;
        let (store, pools, mut room) = ana_and_bo();
        // Ana is at the board (a socket open), Bo is not: both flags fall (two games).
        room.seats[0].connections = 1;
        for seat in [0, 1] {
            let flag = [(
                9,
                Event::Flag {
                    seat,
                    then: FlagThen::Lost,
                },
            )];
            pools.record_leaves(&room, &flag);
        }
        assert_eq!(leaves_of_bo_and_ana(&store).await, (1, 0));
    }

    #[test]
    fn token_hashes_round_trip_through_hex() {
        let h = token::hash_token("abc");
        assert_eq!(unhex(&hex(&h)), Some(h));
        assert_eq!(unhex("zz"), None);
    }

    #[test]
    fn the_waiting_list_shows_names_and_waits_never_ids_or_browsers() {
        let seek = Seek {
            id: "seek-id-secret".into(),
            client: "client-secret".into(),
            name: "Ana".into(),
            pools: vec!["draughts10-live".into()],
            token_hash: "00".repeat(32),
            since: 1_000,
            ready_at: 1_000,
            cpu: None,
            avoid: vec!["other-secret".into()],
            by: Some("address-secret".into()),
        };
        let (frame, who) = Pools::waiting_frame(&[seek], 4_000);
        assert!(!frame.contains("address-secret"));
        assert!(
            who.contains("seek-id-secret"),
            "the change key is server-side"
        );
        assert!(!frame.contains("secret"), "{frame}");
        let v: Value = serde_json::from_str(&frame).unwrap();
        assert_eq!(v["pools"][0]["pool"], "draughts10-live");
        assert_eq!(v["pools"][0]["waiting"][0]["name"], "Ana");
        assert_eq!(v["pools"][0]["waiting"][0]["waited_ms"], 3_000);
    }
}
