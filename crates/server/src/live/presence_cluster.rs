//! Presence across the nodes of a cluster (docs/cluster.md): each node records in Redis which
//! seats it has connections for (`presence:CODE`, field `SEAT:NODE`), tells the others on the
//! fan-out channel when one flips, and keeps a liveness key (`node:NODE`, expiring after
//! [`ALIVE`], renewed every [`BEAT`]). A seat counts as connected elsewhere if any other live node
//! has it: a node killed -9 stops counting within [`ALIVE`] plus a beat.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::fanout::Note;
use super::{RoomCell, Rooms};
use crate::cluster::Cluster;

/// A node's liveness key lasts this long unless renewed.
pub const ALIVE: Duration = Duration::from_millis(3_000);
/// How often a node renews its liveness key and looks for dead nodes.
pub const BEAT: Duration = Duration::from_millis(1_000);
/// How long a room's presence lasts in Redis unless written again (a day).
const PRESENCE_TTL_SECS: u64 = 86_400;
/// How often a node writes its presence again (renewing the expiry, and correcting a flip that
/// Redis missed): an hour, well within [`PRESENCE_TTL_SECS`].
const REFRESH: Duration = Duration::from_secs(3_600);
/// Rooms per Redis pipeline when presence is written again.
const RESHARE_BATCH: usize = 256;

fn node_key(cluster: &Cluster, node: &str) -> String {
    cluster.key(&["node", node])
}

/// The message telling the other nodes that the presence of room `code` changed on this node.
fn presence_note(cluster: &Cluster, code: &str) -> Option<String> {
    let note = Note {
        code: code.to_owned(),
        version: 0,
        node: cluster.node().to_owned(),
        deleted: false,
        presence: true,
        phrase: None,
        delta: None,
    };
    serde_json::to_string(&note).ok()
}

/// Adds to `pipe` the write of this node's field for `seat` in the presence hash `key`: set if
/// the seat has connections `here`, deleted if not.
fn write_field(pipe: &mut redis::Pipeline, cluster: &Cluster, key: &str, seat: usize, here: bool) {
    let field = format!("{seat}:{}", cluster.node());
    if here {
        pipe.cmd("HSET").arg(key).arg(field).arg(1).ignore();
    } else {
        pipe.cmd("HDEL").arg(key).arg(field).ignore();
    }
}

impl Rooms {
    /// The connections of `seat` here went from none to some (`here`) or back: recorded in
    /// Redis and told to the other nodes. Nothing without a cluster.
    pub(super) fn share_presence(&self, code: &str, seat: usize, here: bool) {
        let Some(cluster) = self.cluster.get() else {
            return;
        };
        let Some(payload) = presence_note(cluster, code) else {
            return;
        };
        let key = cluster.key(&["presence", code]);
        let mut pipe = redis::pipe();
        write_field(&mut pipe, cluster, &key, seat, here);
        if here {
            pipe.cmd("EXPIRE").arg(&key).arg(PRESENCE_TTL_SECS).ignore();
        }
        pipe.cmd("PUBLISH")
            .arg(cluster.key(&["rooms"]))
            .arg(payload)
            .ignore();
        let mut conn = cluster.conn();
        let code = code.to_owned();
        tokio::spawn(async move {
            if let Err(err) = pipe.query_async::<()>(&mut conn).await {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("presence of room {code}: {err}");
            }
        });
    }

    /// Writes again in Redis which seats of every room held here have connections here (and
    /// that the others have none), then tells the other nodes and reads theirs again: after
    /// (re)subscribing to the fan-out, because a Redis that restarted lost every presence, and a
    /// flip during an outage was not recorded. Without `announce`, only rewrites this node's
    /// fields and renews their expiry (the periodic refresh, [`REFRESH`]).
    pub(super) async fn reshare_presence(self: Arc<Self>, announce: bool) {
        let Some(cluster) = self.cluster.get().cloned() else {
            return;
        };
        let held: Vec<(String, Arc<RoomCell>)> = self
            .cells()
            .iter()
            .map(|(code, cell)| (code.clone(), cell.clone()))
            .collect();
        let mut conn = cluster.conn();
        // This node's liveness first: a node reading the presence written below counts it.
        let _: Result<(), _> = redis::cmd("SET")
            .arg(node_key(&cluster, cluster.node()))
            .arg(1)
            .arg("PX")
            .arg(ALIVE.as_millis() as u64)
            .query_async(&mut conn)
            .await;
        for chunk in held.chunks(RESHARE_BATCH) {
            let mut pipe = redis::pipe();
            for (code, cell) in chunk {
                let here: Vec<bool> = {
                    let room = cell.room.lock().await;
                    if cell.deleted.load(Ordering::Relaxed) {
                        continue;
                    }
                    room.seats.iter().map(|s| s.connections > 0).collect()
                };
                let key = cluster.key(&["presence", code]);
                for (seat, here) in here.iter().enumerate() {
                    write_field(&mut pipe, &cluster, &key, seat, *here);
                }
                if here.contains(&true) {
                    pipe.cmd("EXPIRE").arg(&key).arg(PRESENCE_TTL_SECS).ignore();
                }
                if let Some(payload) = announce.then(|| presence_note(&cluster, code)).flatten() {
                    pipe.cmd("PUBLISH")
                        .arg(cluster.key(&["rooms"]))
                        .arg(payload)
                        .ignore();
                }
            }
            if let Err(err) = pipe.query_async::<()>(&mut conn).await {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("presence: not shared again ({err}); at the next subscription");
                return;
            }
        }
        if announce {
            // What the others wrote before this node (re)subscribed.
            for (code, cell) in held {
                self.clone().recompute_presence(cell, code).await;
            }
        }
    }

    /// Reads which seats of `code` other live nodes have connections for, and flips the seats
    /// whose presence changed (a `presence` message to the connections here).
    pub(super) async fn recompute_presence(self: Arc<Self>, cell: Arc<RoomCell>, code: String) {
        let Some(cluster) = self.cluster.get().cloned() else {
            return;
        };
        let mut conn = cluster.conn();
        let fields: HashMap<String, String> = match redis::cmd("HGETALL")
            .arg(cluster.key(&["presence", &code]))
            .query_async(&mut conn)
            .await
        {
            Ok(fields) => fields,
            Err(err) => {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("presence of room {code}: {err}");
                return;
            }
        };
        let counted: Vec<(usize, &str)> = fields
            .keys()
            .filter_map(|f| {
                let (seat, node) = f.split_once(':')?;
                (node != cluster.node()).then_some((seat.parse().ok()?, node))
            })
            .collect();
        let mut live = Vec::new();
        for node in counted.iter().map(|(_, n)| *n).collect::<HashSet<_>>() {
            let alive: Result<i64, _> = redis::cmd("EXISTS")
                .arg(node_key(&cluster, node))
                .query_async(&mut conn)
                .await;
            if alive.unwrap_or(1) > 0 {
                live.push(node.to_owned());
            }
        }
        let seats: HashSet<usize> = counted
            .iter()
            .filter(|(_, n)| live.iter().any(|l| l == n))
            .map(|(s, _)| *s)
            .collect();
        {
            let mut remote = self
                .remote_presence
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if live.is_empty() {
                remote.remove(&code);
            } else {
                remote.insert(code.clone(), live);
            }
        }
        let mut guard = cell.room.lock().await;
        if cell.deleted.load(Ordering::Relaxed) {
            return;
        }
        let room = Arc::make_mut(&mut guard);
        let now = super::now_ms();
        for seat in 0..room.seats.len() {
            if let Some(online) = room.presence_elsewhere(seat, seats.contains(&seat), now) {
                self.send_presence(&cell, seat, online);
            }
        }
    }

    /// Renews this node's liveness key every [`BEAT`], and recomputes the presence of the rooms
    /// that counted a node whose key expired.
    pub(super) async fn heartbeat(self: Arc<Self>) {
        let Some(cluster) = self.cluster.get().cloned() else {
            return;
        };
        let mut conn = cluster.conn();
        let mine = node_key(&cluster, cluster.node());
        let nodes_key = cluster.key(&["nodes"]);
        // The other nodes seen alive: when one's key expires, it may have died between a commit
        // and its fan-out message, so every room held here is checked against the store.
        let mut known: HashSet<String> = HashSet::new();
        let mut refreshed = tokio::time::Instant::now();
        while !self.closed.load(Ordering::SeqCst) {
            if refreshed.elapsed() >= REFRESH {
                refreshed = tokio::time::Instant::now();
                tokio::spawn(self.clone().reshare_presence(false));
            }
            // The set lasts a minute after the last node's beat (no key left behind).
            let _: Result<(), _> = redis::pipe()
                .cmd("SADD")
                .arg(&nodes_key)
                .arg(cluster.node())
                .ignore()
                .cmd("EXPIRE")
                .arg(&nodes_key)
                .arg(60)
                .ignore()
                .query_async(&mut conn)
                .await;
            let members: Result<Vec<String>, _> = redis::cmd("SMEMBERS")
                .arg(&nodes_key)
                .query_async(&mut conn)
                .await;
            if let Err(err) = &members {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("presence: the nodes cannot be listed: {err}");
            }
            // Those known here too: another node may have removed a dead one from the set first.
            let mut others: HashSet<String> = members.unwrap_or_default().into_iter().collect();
            others.extend(known.iter().cloned());
            for node in others {
                if node == cluster.node() {
                    continue;
                }
                let alive: Result<i64, _> = redis::cmd("EXISTS")
                    .arg(node_key(&cluster, &node))
                    .query_async(&mut conn)
                    .await;
                match alive {
                    Ok(0) => {
                        let _: Result<i64, _> = redis::cmd("SREM")
                            .arg(&nodes_key)
                            .arg(&node)
                            .query_async(&mut conn)
                            .await;
                        if known.remove(&node) {
                            tracing::warn!("node {node} is gone: checking the rooms held here");
                            self.clone().check_all();
                        }
                    }
                    Ok(_) => {
                        known.insert(node);
                    }
                    Err(_) => {}
                }
            }
            let beat: Result<(), _> = redis::cmd("SET")
                .arg(&mine)
                .arg(1)
                .arg("PX")
                .arg(ALIVE.as_millis() as u64)
                .query_async(&mut conn)
                .await;
            if let Err(err) = beat {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("presence: liveness not renewed: {err}");
            }
            let counted: HashMap<String, Vec<String>> = self
                .remote_presence
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
            let nodes: HashSet<&String> = counted.values().flatten().collect();
            let mut dead = Vec::new();
            for node in nodes {
                let alive: Result<i64, _> = redis::cmd("EXISTS")
                    .arg(node_key(&cluster, node))
                    .query_async(&mut conn)
                    .await;
                if matches!(alive, Ok(0)) {
                    dead.push(node);
                }
            }
            for (code, nodes) in &counted {
                if !nodes.iter().any(|n| dead.contains(&n)) {
                    continue;
                }
                let Some(cell) = self.cells().get(code).cloned() else {
                    continue;
                };
                tokio::spawn(self.clone().recompute_presence(cell, code.clone()));
            }
            tokio::time::sleep(BEAT).await;
        }
    }
}
