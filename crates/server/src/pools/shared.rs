//! The pools across the nodes of a cluster (docs/cluster.md "Pools"): the seeks live in Redis,
//! every change of them is one Lua script, so that two nodes racing for the same seekers cannot
//! both have them.
//!
//! Keys, under the deployment's prefix: `pools:seeks` (hash: seek id → the seek's JSON),
//! `pools:clients` (hash: browser → its seek id: one seek per browser), `pools:alive:{id}`
//! (renewed by the seeker's node while its socket is open: a seek whose node died lapses),
//! `pools:pending` (hash: match id → the claimed seeks and the match's deadline),
//! `pools:result:{id}` (where a seeker's room is, for a node that missed the announcement), and
//! the channel `pools:matched`.
//!
//! A match: [`Shared::claim`] takes the seeks out of the pools and into `pending` at once (or
//! none of them, if one is gone); the node makes the room; [`Shared::done`] removes the pending
//! match and writes each seeker's result, at once, only if the match is still pending. A node
//! that dies between the two leaves a pending match whose deadline passes: any node's
//! [`Shared::reclaim`] then puts its seekers still connected back in their pools, with their
//! first place in line (their `since`). If the slow node finishes the room after that, `done`
//! refuses: nobody is told, nobody holds two seats.

use std::time::Duration;

use futures_util::StreamExt;
use redis::RedisError;

use super::pick::Seek;
use super::Matched;
use crate::cluster::Cluster;

/// How long a seek's node has to renew it.
pub const ALIVE_FOR: Duration = Duration::from_secs(10);
/// How long a result waits for a seeker's node to read it.
const RESULT_FOR: Duration = Duration::from_secs(120);

/// Adds a seek unless its browser has a live one: 1 added, 0 refused. `KEYS`: seeks, clients,
/// alive of this seek. `ARGV`: id, client, JSON, alive ms, the alive key's prefix.
const ADD: &str = r"
local other = redis.call('HGET', KEYS[2], ARGV[2])
if other and other ~= ARGV[1] and redis.call('EXISTS', ARGV[5] .. other) == 1 then
  return 0
end
if other then redis.call('HDEL', KEYS[1], other) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
redis.call('SET', KEYS[3], '1', 'PX', ARGV[4])
return 1";

/// Replaces a seek's JSON if it is still the one read (a block added to a seek waiting): 1, or
/// 0 if a match took it or it changed meanwhile. `KEYS`: seeks. `ARGV`: id, old JSON, new JSON.
const REPLACE: &str = r"
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1";

/// Removes a seek (cancelled, its socket closed): 1, or 0 if it was no longer in the pools (a
/// match claimed it). `KEYS`: seeks, clients, alive. `ARGV`: id, client.
const REMOVE: &str = r"
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HGET', KEYS[2], ARGV[2]) == ARGV[1] then redis.call('HDEL', KEYS[2], ARGV[2]) end
redis.call('DEL', KEYS[3])
return removed";

/// Takes every seek of a pick out of the pools into a pending match, or none if one is gone
/// (a dead one is removed). `KEYS`: seeks, clients, pending. `ARGV`: match id, deadline ms from
/// now, the alive key's prefix, then the seek ids. Returns the seeks' JSON, or nothing.
const CLAIM: &str = r"
local found = {}
for i = 4, #ARGV do
  local json = redis.call('HGET', KEYS[1], ARGV[i])
  if not json then return {} end
  if redis.call('EXISTS', ARGV[3] .. ARGV[i]) == 0 then
    redis.call('HDEL', KEYS[1], ARGV[i])
    local seek = cjson.decode(json)
    if redis.call('HGET', KEYS[2], seek.client) == ARGV[i] then
      redis.call('HDEL', KEYS[2], seek.client)
    end
    return {}
  end
  found[#found + 1] = json
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 4, #ARGV do
  redis.call('HDEL', KEYS[1], ARGV[i])
end
redis.call('HSET', KEYS[3], ARGV[1], cjson.encode({deadline = now + tonumber(ARGV[2]), seeks = found}))
return found";

/// Ends a pending match: 1 and each result written if it was still pending, else 0. `KEYS`:
/// pending, clients. `ARGV`: match id, result ms, the result key's prefix, then pairs of seek id
/// and result JSON.
const DONE: &str = r"
local pending = redis.call('HGET', KEYS[1], ARGV[1])
if not pending then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
for _, json in ipairs(cjson.decode(pending).seeks) do
  local seek = cjson.decode(json)
  if redis.call('HGET', KEYS[2], seek.client) == seek.id then
    redis.call('HDEL', KEYS[2], seek.client)
  end
end
for i = 4, #ARGV, 2 do
  redis.call('SET', ARGV[3] .. ARGV[i], ARGV[i + 1], 'PX', ARGV[2])
end
return 1";

/// Puts back the seeks of pending matches (ARGV[3] = '' : those past their deadline; else only
/// that match) whose seeker is still connected; returns how many. `KEYS`: seeks, clients,
/// pending. `ARGV`: the alive key's prefix, now (unused: Redis's clock), the match id or ''.
const RECLAIM: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local back = 0
local all = redis.call('HGETALL', KEYS[3])
for i = 1, #all, 2 do
  local id, match = all[i], cjson.decode(all[i + 1])
  if (ARGV[3] == '' and match.deadline < now) or ARGV[3] == id then
    redis.call('HDEL', KEYS[3], id)
    for _, json in ipairs(match.seeks) do
      local seek = cjson.decode(json)
      local owner = redis.call('HGET', KEYS[2], seek.client)
      if redis.call('EXISTS', ARGV[1] .. seek.id) == 1 and (not owner or owner == seek.id) then
        redis.call('HSET', KEYS[1], seek.id, json)
        redis.call('HSET', KEYS[2], seek.client, seek.id)
        back = back + 1
      end
    end
  end
end
return back";

/// Removes the seeks whose node stopped renewing them; returns how many. `KEYS`: seeks,
/// clients. `ARGV`: the alive key's prefix.
const SWEEP: &str = r"
local gone = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if redis.call('EXISTS', ARGV[1] .. all[i]) == 0 then
    redis.call('HDEL', KEYS[1], all[i])
    local seek = cjson.decode(all[i + 1])
    if redis.call('HGET', KEYS[2], seek.client) == all[i] then
      redis.call('HDEL', KEYS[2], seek.client)
    end
    gone = gone + 1
  end
end
return gone";

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}

macro_rules! script {
    ($src:expr) => {{
        static SCRIPT: std::sync::LazyLock<redis::Script> =
            std::sync::LazyLock::new(|| redis::Script::new($src));
        SCRIPT.prepare_invoke()
    }};
}

/// The pools in Redis.
#[derive(Clone, Debug)]
pub struct Shared {
    cluster: std::sync::Arc<Cluster>,
    /// How long a node has to make the room of a match it claimed.
    pending_for: Duration,
}

impl Shared {
    /// The pools of `cluster`; a claimed match not done within `pending_for` is put back.
    pub fn new(cluster: std::sync::Arc<Cluster>, pending_for: Duration) -> Self {
        Self {
            cluster,
            pending_for,
        }
    }

    fn key(&self, parts: &[&str]) -> String {
        let mut all = vec!["pools"];
        all.extend_from_slice(parts);
        self.cluster.key(&all)
    }

    fn alive_prefix(&self) -> String {
        self.key(&["alive", ""])
    }

    fn alive_key(&self, id: &str) -> String {
        self.key(&["alive", id])
    }

    /// Adds `seek`: `false` if its browser already seeks.
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn add(&self, seek: &Seek) -> Result<bool, RedisError> {
        let json = serde_json::to_string(seek).unwrap_or_default();
        let mut s = script!(ADD);
        s.key(self.key(&["seeks"]))
            .key(self.key(&["clients"]))
            .key(self.alive_key(&seek.id));
        s.arg(&seek.id)
            .arg(&seek.client)
            .arg(json)
            .arg(millis(ALIVE_FOR))
            .arg(self.alive_prefix());
        let added: i64 = s.invoke_async(&mut self.cluster.conn()).await?;
        Ok(added == 1)
    }

    /// Removes `seek` (cancelled or its socket closed): whether it was still in the pools.
    ///
    /// # Errors
    /// If Redis does not answer (the seek then lapses by itself).
    pub async fn remove(&self, id: &str, client: &str) -> Result<bool, RedisError> {
        let mut s = script!(REMOVE);
        s.key(self.key(&["seeks"]))
            .key(self.key(&["clients"]))
            .key(self.alive_key(id));
        s.arg(id).arg(client);
        let removed: i64 = s.invoke_async(&mut self.cluster.conn()).await?;
        Ok(removed == 1)
    }

    /// Browser `client` blocked browser `blocked`: its seek waiting, if any, avoids it from the
    /// next round on (a compare-and-set on the seek's JSON, so that a match taking the seek
    /// meanwhile wins and nothing is put back).
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn avoid(&self, client: &str, blocked: &str) -> Result<(), RedisError> {
        for _ in 0..3 {
            let id: Option<String> = redis::cmd("HGET")
                .arg(self.key(&["clients"]))
                .arg(client)
                .query_async(&mut self.cluster.conn())
                .await?;
            let Some(id) = id else { return Ok(()) };
            let old: Option<String> = redis::cmd("HGET")
                .arg(self.key(&["seeks"]))
                .arg(&id)
                .query_async(&mut self.cluster.conn())
                .await?;
            let Some(old) = old else { return Ok(()) };
            let Ok(mut seek) = serde_json::from_str::<Seek>(&old) else {
                return Ok(());
            };
            if seek.client != client || seek.avoid.iter().any(|b| b == blocked) {
                return Ok(());
            }
            seek.avoid.push(blocked.to_owned());
            let new = serde_json::to_string(&seek).unwrap_or_default();
            let mut s = script!(REPLACE);
            s.key(self.key(&["seeks"]));
            s.arg(&id).arg(&old).arg(new);
            let replaced: i64 = s.invoke_async(&mut self.cluster.conn()).await?;
            if replaced == 1 {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Renews the seeks of `ids` (this node's open sockets).
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn renew(&self, ids: &[String]) -> Result<(), RedisError> {
        if ids.is_empty() {
            return Ok(());
        }
        let mut pipe = redis::pipe();
        for id in ids {
            pipe.cmd("SET")
                .arg(self.alive_key(id))
                .arg("1")
                .arg("PX")
                .arg(millis(ALIVE_FOR))
                .ignore();
        }
        pipe.query_async::<()>(&mut self.cluster.conn()).await
    }

    /// Every seek waiting, on every node.
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn snapshot(&self) -> Result<Vec<Seek>, RedisError> {
        let all: Vec<String> = redis::cmd("HVALS")
            .arg(self.key(&["seeks"]))
            .query_async(&mut self.cluster.conn())
            .await?;
        Ok(all
            .iter()
            .filter_map(|j| serde_json::from_str(j).ok())
            .collect())
    }

    /// Takes the seeks `ids` into the pending match `match_id`: them, or `None` if one was gone.
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn claim(
        &self,
        match_id: &str,
        ids: &[String],
    ) -> Result<Option<Vec<Seek>>, RedisError> {
        let mut s = script!(CLAIM);
        s.key(self.key(&["seeks"]))
            .key(self.key(&["clients"]))
            .key(self.key(&["pending"]));
        s.arg(match_id)
            .arg(millis(self.pending_for))
            .arg(self.alive_prefix());
        for id in ids {
            s.arg(id);
        }
        let found: Vec<String> = s.invoke_async(&mut self.cluster.conn()).await?;
        if found.len() != ids.len() {
            return Ok(None);
        }
        let seeks: Vec<Seek> = found
            .iter()
            .filter_map(|j| serde_json::from_str(j).ok())
            .collect();
        Ok((seeks.len() == ids.len()).then_some(seeks))
    }

    /// Ends the pending match `match_id` with its `results`: whether it was still pending (else
    /// its seekers were put back and must not be told).
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn done(&self, match_id: &str, results: &[Matched]) -> Result<bool, RedisError> {
        let mut s = script!(DONE);
        s.key(self.key(&["pending"])).key(self.key(&["clients"]));
        s.arg(match_id)
            .arg(millis(RESULT_FOR))
            .arg(self.key(&["result", ""]));
        for r in results {
            s.arg(&r.seek)
                .arg(serde_json::to_string(r).unwrap_or_default());
        }
        let done: i64 = s.invoke_async(&mut self.cluster.conn()).await?;
        if done == 1 {
            let payload = serde_json::to_string(results).unwrap_or_default();
            let _: i64 = redis::cmd("PUBLISH")
                .arg(self.key(&["matched"]))
                .arg(payload)
                .query_async(&mut self.cluster.conn())
                .await?;
        }
        Ok(done == 1)
    }

    /// Puts back the seekers of `match_id` (its room could not be made), or, with `None`, of
    /// every pending match past its deadline (a node died holding it): how many.
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn reclaim(&self, match_id: Option<&str>) -> Result<i64, RedisError> {
        let mut s = script!(RECLAIM);
        s.key(self.key(&["seeks"]))
            .key(self.key(&["clients"]))
            .key(self.key(&["pending"]));
        s.arg(self.alive_prefix())
            .arg(0)
            .arg(match_id.unwrap_or(""));
        s.invoke_async(&mut self.cluster.conn()).await
    }

    /// Removes the seeks of nodes that died: how many.
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn sweep(&self) -> Result<i64, RedisError> {
        let mut s = script!(SWEEP);
        s.key(self.key(&["seeks"])).key(self.key(&["clients"]));
        s.arg(self.alive_prefix());
        s.invoke_async(&mut self.cluster.conn()).await
    }

    /// Where seek `id` was seated, if a match was done for it.
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn result(&self, id: &str) -> Result<Option<Matched>, RedisError> {
        let json: Option<String> = redis::cmd("GET")
            .arg(self.key(&["result", id]))
            .query_async(&mut self.cluster.conn())
            .await?;
        Ok(json.and_then(|j| serde_json::from_str(&j).ok()))
    }

    /// Calls `deliver` with every announcement of matches, until the subscription ends.
    ///
    /// # Errors
    /// If the subscription cannot be opened.
    pub async fn listen(&self, deliver: impl Fn(Vec<Matched>)) -> Result<(), RedisError> {
        let mut pubsub = self.cluster.client().get_async_pubsub().await?;
        pubsub.subscribe(self.key(&["matched"])).await?;
        let mut messages = pubsub.into_on_message();
        while let Some(msg) = messages.next().await {
            if let Ok(results) = serde_json::from_slice::<Vec<Matched>>(msg.get_payload_bytes()) {
                deliver(results);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::cluster::tests::{scratch_prefix, test_url};

    fn seek(id: &str, client: &str) -> Seek {
        Seek {
            id: id.into(),
            client: client.into(),
            name: id.into(),
            pools: vec!["draughts10-live".into()],
            token_hash: "00".repeat(32),
            since: 1,
            ready_at: 1,
            cpu: None,
            avoid: Vec::new(),
            by: None,
        }
    }

    async fn two_nodes(pending_for: Duration) -> (Shared, Shared) {
        let prefix = scratch_prefix();
        let a = Cluster::connect(&test_url(), &prefix).await.unwrap();
        let b = Cluster::connect(&test_url(), &prefix).await.unwrap();
        (
            Shared::new(Arc::new(a), pending_for),
            Shared::new(Arc::new(b), pending_for),
        )
    }

    fn ids(seeks: &[Seek]) -> Vec<String> {
        let mut out: Vec<String> = seeks.iter().map(|s| s.id.clone()).collect();
        out.sort();
        out
    }

    #[tokio::test]
    async fn a_block_reaches_a_seek_waiting_on_another_node_and_never_revives_a_claimed_one() {
        let (a, b) = two_nodes(Duration::from_secs(10)).await;
        assert!(a.add(&seek("s1", "ana")).await.unwrap());
        b.avoid("ana", "bo").await.unwrap();
        b.avoid("ana", "bo").await.unwrap();
        let seen = a.snapshot().await.unwrap();
        assert_eq!(seen[0].avoid, ["bo"], "once, from the other node");
        // Claimed by a match: a block made after it puts nothing back.
        let claimed = a.claim("m1", &["s1".to_owned()]).await.unwrap().unwrap();
        assert_eq!(claimed[0].avoid, ["bo"]);
        b.avoid("ana", "cy").await.unwrap();
        assert!(a.snapshot().await.unwrap().is_empty());
        // A browser that seeks nothing: nothing to do.
        b.avoid("dee", "bo").await.unwrap();
    }

    #[tokio::test]
    async fn a_match_claimed_by_a_node_that_dies_is_put_back_and_made_once_elsewhere() {
        let (a, b) = two_nodes(Duration::from_millis(300)).await;
        assert!(a.add(&seek("s1", "ana")).await.unwrap());
        assert!(b.add(&seek("s2", "bo")).await.unwrap());
        let both = vec!["s1".to_owned(), "s2".to_owned()];
        assert_eq!(ids(&b.snapshot().await.unwrap()), both);
        // Node A claims the pair; node B, racing for it, gets nothing.
        let claimed = a.claim("m1", &both).await.unwrap().unwrap();
        assert_eq!(ids(&claimed), both);
        assert!(b.claim("m2", &both).await.unwrap().is_none());
        assert!(a.snapshot().await.unwrap().is_empty());
        // Node A dies before making the room: nothing happens until the deadline…
        assert_eq!(b.reclaim(None).await.unwrap(), 0);
        tokio::time::sleep(Duration::from_millis(400)).await;
        // …then any node puts the seekers back, first in line as they were.
        assert_eq!(b.reclaim(None).await.unwrap(), 2);
        assert_eq!(ids(&b.snapshot().await.unwrap()), both);
        let again = b.claim("m3", &both).await.unwrap().unwrap();
        let results: Vec<Matched> = again
            .iter()
            .enumerate()
            .map(|(seat, s)| Matched {
                seek: s.id.clone(),
                code: "ROOM22".into(),
                seat,
            })
            .collect();
        assert!(b.done("m3", &results).await.unwrap());
        // Node A coming back late is refused: nobody is told of its room.
        let late: Vec<Matched> = results
            .iter()
            .map(|r| Matched {
                code: "LATE33".into(),
                ..r.clone()
            })
            .collect();
        assert!(!a.done("m1", &late).await.unwrap());
        assert_eq!(a.result("s1").await.unwrap().unwrap().code, "ROOM22");
        assert_eq!(a.result("s2").await.unwrap().unwrap().code, "ROOM22");
        // Matched, the browsers may seek again.
        assert!(a.add(&seek("s4", "ana")).await.unwrap());
    }

    #[tokio::test]
    async fn one_seek_per_browser_and_dead_seeks_are_swept() {
        let (a, b) = two_nodes(Duration::from_secs(10)).await;
        assert!(a.add(&seek("s1", "ana")).await.unwrap());
        assert!(
            !b.add(&seek("s2", "ana")).await.unwrap(),
            "one seek per browser"
        );
        // Its node stops renewing it (dead): the seek is swept, the browser may seek again.
        let _: i64 = redis::cmd("DEL")
            .arg(a.alive_key("s1"))
            .query_async(&mut a.cluster.conn())
            .await
            .unwrap();
        assert_eq!(b.sweep().await.unwrap(), 1);
        assert!(b.snapshot().await.unwrap().is_empty());
        assert!(b.add(&seek("s2", "ana")).await.unwrap());
        // A claim meeting a dead seek fails and removes it.
        assert!(a.add(&seek("s3", "cy")).await.unwrap());
        let _: i64 = redis::cmd("DEL")
            .arg(a.alive_key("s3"))
            .query_async(&mut a.cluster.conn())
            .await
            .unwrap();
        let pair = vec!["s2".to_owned(), "s3".to_owned()];
        assert!(a.claim("m", &pair).await.unwrap().is_none());
        assert_eq!(ids(&a.snapshot().await.unwrap()), ["s2"]);
        // Cancelled: out of the pools; a claimed seek is not "cancelled" (its match comes).
        assert!(a.remove("s2", "ana").await.unwrap());
        assert!(!a.remove("s2", "ana").await.unwrap());
    }
}
