//! The public lists (issue 20, docs/protocol.md "Public lists", docs/cluster.md): the **open
//! tables** (public rooms in the lobby with a free seat) and the **games to watch** (public rooms
//! being played), with a featured game, as `GET /api/public` serves them and its live feed
//! `GET /api/public/events` pushes them (crate::http::public).
//!
//! The database is the truth: the lists are read from the store ([`RoomStore::public_rooms`],
//! an indexed query of the public rooms only), so that every node lists the rooms of every
//! node. A node rebuilds them when something may have changed them — a change committed here
//! to a public room (or to one it listed: a room turned private, full or started), a spectator
//! coming or going, or a note from another node on the cluster's `public` channel — at most
//! every [`DEBOUNCE`], and every [`REFRESH_EVERY`] anyway while a feed is open (a note Redis
//! lost delays a list by that much at most). The feed sends the lists only when they changed.
//!
//! Names only: a room's code (its public link), the game, the rules that differ from the
//! defaults, the pace, the seats' names and CPU levels, the move number and the spectators.
//! Never a browser id, a token or an address.
//!
//! **Spectators** are the open WebSockets of a room that speak for no seat (a person on the
//! room's page without a seat; a tab counts once per socket). Each node counts its own
//! ([`RoomCell::spectators`]); with a cluster it records its count in Redis (`watchers:CODE`,
//! field = node) and the lists add the counts of the live nodes (those whose liveness key
//! `node:NODE` exists, live::presence_cluster), so that a node killed stops counting within a
//! few seconds.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{json, Map, Value};
use tokio::sync::{broadcast, Notify};

use super::{blocking, now_ms, Origin, RoomCell, Rooms};
use crate::cluster::Cluster;
use crate::error::AppError;
use dames_room::event::Event;
use dames_room::game::{GameKind, GameRules};
use dames_room::room::Room;
use dames_store::{PublicRoom, RoomStore};

/// Rooms listed at most in each list.
pub const LIST_MAX: usize = 50;
/// A room is listed while it changed (a join, a move) within this time.
pub const LISTED_FOR: Duration = Duration::from_secs(3600);
/// The least time between two rebuilds of the lists.
pub const DEBOUNCE: Duration = Duration::from_millis(250);
/// While a feed is open, the lists are rebuilt at least this often (the spectators of other
/// nodes, a note lost).
pub const REFRESH_EVERY: Duration = Duration::from_secs(5);
/// How long lists built for `GET /api/public` are served again when nothing changed here.
const FRESH_FOR: Duration = Duration::from_secs(1);
/// How long a node's spectator count of a room lasts in Redis unless written again.
const WATCHERS_TTL_SECS: u64 = 86_400;
/// Lists a feed may fall behind by before it skips to the newest.
const QUEUE: usize = 4;

/// The lists, their feed and the spectators' counts of this node.
pub struct PublicLists {
    rooms: Arc<Rooms>,
    store: Arc<dyn RoomStore>,
    cluster: Option<Arc<Cluster>>,
    /// The last lists built (their JSON) and when.
    last: tokio::sync::Mutex<Option<(Instant, Arc<str>)>>,
    /// The codes in the last lists (a change of one of them changes the lists).
    listed: Mutex<HashSet<String>>,
    /// Something may have changed the lists since they were built.
    dirty: AtomicBool,
    poke: Notify,
    /// The feed: each new lists' JSON.
    tx: broadcast::Sender<Arc<str>>,
    /// Open feeds on this node.
    feeds: AtomicUsize,
}

impl std::fmt::Debug for PublicLists {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PublicLists").finish_non_exhaustive()
    }
}

impl PublicLists {
    /// The lists of `rooms`' store; they follow its committed changes from now on (an
    /// observer), and, with a cluster, the other nodes' notes. Starts the feed's task.
    pub fn start(rooms: &Arc<Rooms>, cluster: Option<Arc<Cluster>>) -> Arc<Self> {
        let lists = Arc::new(Self {
            store: rooms.store().clone(),
            rooms: rooms.clone(),
            cluster,
            last: tokio::sync::Mutex::new(None),
            listed: Mutex::new(HashSet::new()),
            dirty: AtomicBool::new(true),
            poke: Notify::new(),
            tx: broadcast::channel(QUEUE).0,
            feeds: AtomicUsize::new(0),
        });
        let weak = Arc::downgrade(&lists);
        rooms.observe(Arc::new(
            move |room: &Arc<Room>, _: &[(i64, Event)], origin: Origin| {
                if let Some(lists) = weak.upgrade() {
                    lists.changed(room, origin);
                }
            },
        ));
        tokio::spawn(lists.clone().feed_loop());
        if lists.cluster.is_some() {
            tokio::spawn(lists.clone().listen());
        }
        lists
    }

    /// A committed change of `room`: the lists change if it is public or was listed.
    fn changed(&self, room: &Room, origin: Origin) {
        let listed = self
            .listed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(&room.code);
        if !room.settings.public && !listed {
            return;
        }
        self.touch();
        // The other nodes hear it on the `public` channel (a change caught up from another
        // node was announced by that node).
        if origin == Origin::Here {
            self.announce();
        }
    }

    /// The lists may have changed here.
    fn touch(&self) {
        self.dirty.store(true, Ordering::SeqCst);
        self.poke.notify_one();
    }

    /// Tells the other nodes that the lists may have changed.
    fn announce(&self) {
        let Some(cluster) = &self.cluster else {
            return;
        };
        let mut conn = cluster.conn();
        let channel = cluster.key(&["public"]);
        let node = cluster.node().to_owned();
        tokio::spawn(async move {
            let sent: Result<i64, _> = redis::cmd("PUBLISH")
                .arg(&channel)
                .arg(&node)
                .query_async(&mut conn)
                .await;
            if let Err(err) = sent {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("public lists: not announced ({err}); refreshed anyway");
            }
        });
    }

    /// A WebSocket of `cell`'s room that speaks for no seat opened (`delta` 1) or closed (-1).
    pub fn spectator(&self, cell: &Arc<RoomCell>, code: &str, delta: i32) {
        let now = if delta > 0 {
            cell.spectators.fetch_add(1, Ordering::SeqCst) + 1
        } else {
            cell.spectators
                .fetch_sub(1, Ordering::SeqCst)
                .saturating_sub(1)
        };
        // A room being changed now may be public: the lists are rebuilt anyway.
        let public = match cell.room.try_lock() {
            Ok(room) => room.settings.public,
            Err(_) => true,
        };
        if let Some(cluster) = &self.cluster {
            let key = cluster.key(&["watchers", code]);
            let mut pipe = redis::pipe();
            if now > 0 {
                pipe.cmd("HSET")
                    .arg(&key)
                    .arg(cluster.node())
                    .arg(now)
                    .ignore();
                pipe.cmd("EXPIRE").arg(&key).arg(WATCHERS_TTL_SECS).ignore();
            } else {
                pipe.cmd("HDEL").arg(&key).arg(cluster.node()).ignore();
            }
            if public {
                pipe.cmd("PUBLISH")
                    .arg(cluster.key(&["public"]))
                    .arg(cluster.node())
                    .ignore();
            }
            let mut conn = cluster.conn();
            tokio::spawn(async move {
                if let Err(err) = pipe.query_async::<()>(&mut conn).await {
                    crate::metrics::METRICS.redis_errors.inc();
                    tracing::warn!("spectators: not shared ({err})");
                }
            });
        }
        if public {
            self.touch();
        }
    }

    /// The lists now: the last ones if nothing changed since (and they are recent), else built
    /// again.
    ///
    /// # Errors
    /// If the store cannot be read.
    pub async fn current(&self) -> Result<Arc<str>, AppError> {
        let mut last = self.last.lock().await;
        if let Some((at, json)) = last.as_ref() {
            if at.elapsed() < FRESH_FOR && !self.dirty.load(Ordering::SeqCst) {
                return Ok(json.clone());
            }
        }
        self.dirty.store(false, Ordering::SeqCst);
        let json: Arc<str> = self.build().await?.to_string().into();
        *last = Some((Instant::now(), json.clone()));
        Ok(json)
    }

    /// A feed of the lists: each new lists' JSON (the current ones are for the caller to send
    /// first, [`PublicLists::current`]).
    pub fn subscribe(self: &Arc<Self>) -> Feed {
        self.feeds.fetch_add(1, Ordering::SeqCst);
        self.poke.notify_one();
        Feed {
            rx: self.tx.subscribe(),
            lists: self.clone(),
        }
    }

    /// Rebuilds the lists when poked (and every [`REFRESH_EVERY`]) while feeds are open, and
    /// sends them when they changed.
    async fn feed_loop(self: Arc<Self>) {
        let mut sent: Option<Arc<str>> = None;
        loop {
            let _ = tokio::time::timeout(REFRESH_EVERY, self.poke.notified()).await;
            if self.rooms.is_closed() {
                return;
            }
            if self.feeds.load(Ordering::SeqCst) == 0 {
                sent = None;
                continue;
            }
            tokio::time::sleep(DEBOUNCE).await;
            // Every REFRESH_EVERY the lists are read again (other nodes' spectators).
            self.dirty.store(true, Ordering::SeqCst);
            match self.current().await {
                Ok(json) if sent.as_deref() != Some(&*json) => {
                    sent = Some(json.clone());
                    let _ = self.tx.send(json);
                }
                Ok(_) => {}
                Err(err) => tracing::warn!("public lists: {err}"),
            }
        }
    }

    /// Listens to the other nodes' `public` notes (subscribing again when Redis drops).
    async fn listen(self: Arc<Self>) {
        let Some(cluster) = self.cluster.clone() else {
            return;
        };
        let mut backoff = Duration::from_millis(100);
        while !self.rooms.is_closed() {
            let subscribed = async {
                let mut pubsub = cluster.client().get_async_pubsub().await?;
                pubsub.subscribe(cluster.key(&["public"])).await?;
                // Whatever was missed meanwhile.
                self.touch();
                let mut messages = pubsub.into_on_message();
                while let Some(msg) = messages.next().await {
                    if msg.get_payload_bytes() != cluster.node().as_bytes() {
                        self.touch();
                    }
                }
                Ok::<(), redis::RedisError>(())
            };
            match subscribed.await {
                Ok(()) => backoff = Duration::from_millis(100),
                Err(err) => {
                    crate::metrics::METRICS.redis_errors.inc();
                    tracing::warn!("public lists: cannot subscribe ({err}); again in {backoff:?}");
                    backoff = (backoff * 2).min(Duration::from_secs(5));
                }
            }
            tokio::time::sleep(backoff).await;
        }
    }

    /// Reads the lists from the store and counts their spectators.
    async fn build(&self) -> Result<Value, AppError> {
        let store = self.store.clone();
        let since = now_ms() - LISTED_FOR.as_millis() as i64;
        let (open, playing) = blocking(move || {
            Ok((
                store.public_rooms("lobby", since, LIST_MAX)?,
                store.public_rooms("playing", since, LIST_MAX)?,
            ))
        })
        .await?;
        let codes: Vec<String> = playing.iter().map(|r| r.code.clone()).collect();
        let spectators = self.spectators(&codes).await;
        *self.listed.lock().unwrap_or_else(|e| e.into_inner()) = open
            .iter()
            .chain(&playing)
            .map(|r| r.code.clone())
            .collect();
        let open: Vec<Value> = open.iter().filter_map(open_table).collect();
        let watch: Vec<Value> = playing
            .iter()
            .filter_map(|r| game_to_watch(r, spectators.get(&r.code).copied().unwrap_or(0)))
            .collect();
        // The most watched game, the most recently played first among equals.
        let featured = watch
            .iter()
            .enumerate()
            .max_by_key(|(i, g)| (g["spectators"].as_u64().unwrap_or(0), usize::MAX - i))
            .map(|(_, g)| g["code"].clone());
        Ok(json!({"open": open, "watch": watch, "featured": featured}))
    }

    /// The spectators of each room: this node's, plus the other live nodes' from Redis.
    async fn spectators(&self, codes: &[String]) -> HashMap<String, u64> {
        let mut counts: HashMap<String, u64> = HashMap::new();
        for code in codes {
            if let Some(cell) = self.rooms.held(code) {
                counts.insert(
                    code.clone(),
                    u64::from(cell.spectators.load(Ordering::SeqCst)),
                );
            }
        }
        let Some(cluster) = &self.cluster else {
            return counts;
        };
        match remote_spectators(cluster, codes).await {
            Ok(remote) => {
                for (code, n) in remote {
                    *counts.entry(code).or_default() += n;
                }
            }
            // This node's counts only, until Redis answers again.
            Err(err) => {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("public lists: other nodes' spectators not read ({err})");
            }
        }
        counts
    }
}

/// The spectators the other live nodes count in each of these rooms.
async fn remote_spectators(
    cluster: &Cluster,
    codes: &[String],
) -> Result<Vec<(String, u64)>, redis::RedisError> {
    if codes.is_empty() {
        return Ok(Vec::new());
    }
    let mut conn = cluster.conn();
    let mut pipe = redis::pipe();
    for code in codes {
        pipe.cmd("HGETALL").arg(cluster.key(&["watchers", code]));
    }
    let per_room: Vec<HashMap<String, u64>> = pipe.query_async(&mut conn).await?;
    let nodes: Vec<String> = per_room
        .iter()
        .flat_map(|m| m.keys().cloned())
        .filter(|n| n != cluster.node())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let mut alive = HashSet::new();
    if !nodes.is_empty() {
        let mut pipe = redis::pipe();
        for node in &nodes {
            pipe.cmd("EXISTS").arg(cluster.key(&["node", node]));
        }
        let exists: Vec<bool> = pipe.query_async(&mut conn).await?;
        alive.extend(nodes.iter().zip(exists).filter(|(_, e)| *e).map(|(n, _)| n));
    }
    Ok(codes
        .iter()
        .zip(per_room)
        .map(|(code, fields)| {
            let n = fields
                .iter()
                .filter(|(node, _)| alive.contains(node))
                .map(|(_, n)| n)
                .sum();
            (code.clone(), n)
        })
        .collect())
}

/// A feed of the lists (`PublicLists::subscribe`); counted open until dropped.
pub struct Feed {
    /// Each new lists' JSON.
    pub rx: broadcast::Receiver<Arc<str>>,
    lists: Arc<PublicLists>,
}

impl Drop for Feed {
    fn drop(&mut self) {
        self.lists.feeds.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What the lists say of a room: its code, game, pace, the rules that differ from the defaults
/// and its seats (names and CPU levels only). `None` for a row that does not read.
fn common(row: &PublicRoom) -> Option<Map<String, Value>> {
    let kind = GameKind::from_name(&row.game)?;
    let settings: Value = serde_json::from_str(&row.settings).ok()?;
    if !settings.is_object() {
        return None;
    }
    let defaults = serde_json::to_value(GameRules::default_for(kind)).ok()?;
    let mut rules = Map::new();
    if let (Some(now), Some(by_default)) = (settings["rules"].as_object(), defaults.as_object()) {
        for (field, value) in now {
            // Who moves first is a room setting of both games, not a rule of the game.
            let first = matches!(
                field.as_str(),
                "rotate_first_player" | "random_first_player"
            );
            if !first && by_default.get(field) != Some(value) {
                rules.insert(field.clone(), value.clone());
            }
        }
    }
    let seats: Vec<Value> = row
        .seats
        .iter()
        .map(|s| match s.kind.as_str() {
            "human" => json!({"seat": s.seat, "kind": "human", "name": s.name}),
            "cpu" => json!({"seat": s.seat, "kind": "cpu", "level": s.level}),
            _ => json!({"seat": s.seat, "kind": "empty"}),
        })
        .collect();
    let mut out = Map::new();
    out.insert("code".into(), row.code.clone().into());
    out.insert("game".into(), row.game.clone().into());
    out.insert("rules".into(), Value::Object(rules));
    out.insert("rhythm".into(), settings["rhythm"].clone());
    // The clock of the room, once rooms have one (null: none).
    out.insert(
        "clock".into(),
        settings.get("clock").cloned().unwrap_or(Value::Null),
    );
    out.insert("seats".into(), Value::Array(seats));
    Some(out)
}

/// An open table: a public room in the lobby with a free seat.
fn open_table(row: &PublicRoom) -> Option<Value> {
    let mut out = common(row)?;
    let free = row.seats.iter().filter(|s| s.kind == "empty").count();
    let host = row.seats.first().and_then(|s| s.name.clone());
    out.insert("free".into(), free.into());
    out.insert("taken".into(), (row.seats.len() - free).into());
    out.insert("host".into(), host.into());
    out.insert("created_at".into(), row.created_at.into());
    Some(Value::Object(out))
}

/// A game to watch: a public room being played.
fn game_to_watch(row: &PublicRoom, spectators: u64) -> Option<Value> {
    let mut out = common(row)?;
    out.insert("moves".into(), row.moves.into());
    out.insert("game_no".into(), row.game_no.into());
    out.insert("spectators".into(), spectators.into());
    out.insert("last_move_at".into(), row.last_move_at.into());
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dames_store::PublicSeat;

    fn row(settings: Value, kinds: &[&str]) -> PublicRoom {
        PublicRoom {
            code: "K7M2PQ".into(),
            game: "cc".into(),
            settings: settings.to_string(),
            status: "lobby".into(),
            game_no: 0,
            created_at: 5,
            active_at: 6,
            last_move_at: None,
            seats: kinds
                .iter()
                .enumerate()
                .map(|(n, k)| PublicSeat {
                    seat: n as i64,
                    kind: (*k).into(),
                    name: (*k == "human").then(|| format!("P{n}")),
                    level: (*k == "cpu").then(|| "expert".into()),
                })
                .collect(),
            moves: 0,
        }
    }

    #[test]
    fn a_table_shows_only_the_rules_that_differ_and_names() {
        let (settings, _) = dames_room::Settings::new(
            GameKind::Cc,
            &dames_room::SettingsInput::parse(
                GameKind::Cc,
                &json!({"public": true, "rhythm": "turn", "rotate_first": false,
                    "rules": {"players": 3, "long_jumps": true}}),
            )
            .unwrap(),
        )
        .unwrap();
        let table = open_table(&row(settings.to_json(), &["human", "cpu", "empty"])).unwrap();
        assert_eq!(table["rules"], json!({"players": 3, "long_jumps": true}));
        assert_eq!(table["rhythm"], "turn");
        assert_eq!(
            (table["free"].clone(), table["taken"].clone()),
            (json!(1), json!(2))
        );
        assert_eq!(table["host"], "P0");
        assert_eq!(
            table["seats"],
            json!([{"seat": 0, "kind": "human", "name": "P0"},
                {"seat": 1, "kind": "cpu", "level": "expert"}, {"seat": 2, "kind": "empty"}])
        );
    }

    #[test]
    fn a_row_that_does_not_read_is_left_out() {
        assert!(open_table(&row(json!("not settings"), &["human"])).is_none());
        assert_eq!(
            open_table(&row(json!({}), &["human"])).unwrap()["rules"],
            json!({})
        );
        let mut bad = row(json!({}), &["human"]);
        bad.game = "chess".into();
        assert!(open_table(&bad).is_none());
    }
}
