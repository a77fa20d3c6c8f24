//! The caps on games against CPUs across the cluster (docs/security.md, "Limits"): with
//! `--redis`, the places taken live in Redis as well, so that a browser or an address gets its
//! share once for the whole deployment, not once per node.
//!
//! Each capped key — the host's browser (`cpu:client:{id}`), the address's keyed hash
//! (`cpu:addr:{hash}`) — is a sorted set of room codes scored by when the place lapses. Taking a
//! place ([`RESERVE`]) drops the lapsed ones, then checks and adds in one script: two nodes
//! racing for the last place cannot both have it. The node holding a game renews its place every
//! [`RENEW_EVERY`] (a place lasts [`PLACE_TTL`]), so the places of a node that died lapse by
//! themselves, unless another node takes the room over (it renews them then). A game that ends
//! gives its place back at once. When Redis does not answer, the node's own count (live/cpu.rs)
//! decides alone: one node's share, never unlimited.

use std::sync::Arc;
use std::time::Duration;

use super::cpu::Place;
use super::Rooms;

/// How long a place lasts unless its node renews it.
pub const PLACE_TTL: Duration = Duration::from_secs(60);

/// How often a node renews the places of the games it holds.
pub const RENEW_EVERY: Duration = Duration::from_secs(20);

/// Drops the lapsed places of every key, then, if no key is full (a key already holding this
/// room counts as room for it), adds the room to every key: 0, or the (1-based) key that is
/// full. `KEYS`: the sets; `ARGV`: the room code, the place's life in ms, then each key's cap.
const RESERVE: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local code = ARGV[1]
local ttl = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if not redis.call('ZSCORE', key, code) then
    if redis.call('ZCARD', key) >= tonumber(ARGV[2 + i]) then return i end
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + ttl, code)
  redis.call('PEXPIRE', key, ttl)
end
return 0";

/// Renews (or puts back) a place in every key: `ARGV`: the room code, the place's life in ms.
const RENEW: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', key, tonumber(ARGV[2]))
end
return 0";

impl Rooms {
    /// The keys of `place`, with their caps.
    fn place_keys(&self, place: &Place) -> Vec<(String, usize)> {
        let (Some(cluster), Some((per_client, per_ip))) =
            (self.cluster.get(), self.cpu_games.caps())
        else {
            return Vec::new();
        };
        let mut keys = Vec::with_capacity(2);
        if let Some(client) = &place.client {
            keys.push((cluster.key(&["cpu", "client", client]), per_client));
        }
        if let Some(by) = &place.by {
            keys.push((cluster.key(&["cpu", "addr", by]), per_ip));
        }
        keys
    }

    /// Takes `place` across the cluster: whether it may be taken (always without a cluster, or
    /// when Redis does not answer: the node's own count has decided).
    pub(super) async fn reserve_shared(&self, place: &Place) -> bool {
        let keys = self.place_keys(place);
        let Some(cluster) = self.cluster.get().filter(|_| !keys.is_empty()) else {
            return true;
        };
        static SCRIPT: std::sync::LazyLock<redis::Script> =
            std::sync::LazyLock::new(|| redis::Script::new(RESERVE));
        let mut script = SCRIPT.prepare_invoke();
        for (key, _) in &keys {
            script.key(key);
        }
        script.arg(&place.code).arg(PLACE_TTL.as_millis() as u64);
        for (_, cap) in &keys {
            script.arg(*cap);
        }
        let mut conn = cluster.conn();
        match script.invoke_async::<i64>(&mut conn).await {
            Ok(full) => full == 0,
            Err(err) => {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("CPU games counted by this node alone (Redis: {err})");
                true
            }
        }
    }

    /// Gives `place` back across the cluster (in a task; nothing without a cluster).
    pub(super) fn release_shared(&self, place: Place) {
        let keys = self.place_keys(&place);
        let Some(cluster) = self.cluster.get().filter(|_| !keys.is_empty()) else {
            return;
        };
        let mut conn = cluster.conn();
        tokio::spawn(async move {
            let mut pipe = redis::pipe();
            for (key, _) in &keys {
                pipe.cmd("ZREM").arg(key).arg(&place.code).ignore();
            }
            if let Err(err) = pipe.query_async::<()>(&mut conn).await {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("a CPU game's place could not be given back: {err}");
            }
        });
    }

    /// Renews the places of the games against CPUs held here, every [`RENEW_EVERY`], for as long
    /// as the node runs (started with the fan-out, with a cluster only).
    pub(super) async fn renew_places(self: Arc<Self>) {
        let mut every = tokio::time::interval(RENEW_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        static SCRIPT: std::sync::LazyLock<redis::Script> =
            std::sync::LazyLock::new(|| redis::Script::new(RENEW));
        while !self.closed.load(std::sync::atomic::Ordering::SeqCst) {
            every.tick().await;
            let Some(cluster) = self.cluster.get() else {
                return;
            };
            let mut conn = cluster.conn();
            for place in self.cpu_games.live_places() {
                let keys = self.place_keys(&place);
                if keys.is_empty() {
                    continue;
                }
                let mut script = SCRIPT.prepare_invoke();
                for (key, _) in &keys {
                    script.key(key);
                }
                script.arg(&place.code).arg(PLACE_TTL.as_millis() as u64);
                if let Err(err) = script.invoke_async::<i64>(&mut conn).await {
                    crate::metrics::METRICS.redis_errors.inc();
                    tracing::warn!("the places of CPU games could not be renewed: {err}");
                    break;
                }
            }
        }
    }
}
