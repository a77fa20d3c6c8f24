//! Places counted once across the cluster (docs/cluster.md): a capped key — a browser's games
//! against CPUs, its « Mes parties » streams — is a sorted set in Redis of the members holding a
//! place (a room code, a stream id), each scored by when its place lapses. [`take`] drops the
//! lapsed places, checks every key against its cap and adds the member to each, in one script,
//! so that two nodes racing for the last place cannot both have it. The holder [`renew`]s its
//! place while it lasts and [`give_back`]s it at the end; a node that dies leaves places that
//! lapse by themselves after their time to live.

use std::time::Duration;

use super::Cluster;

/// Drops the lapsed places of every key, then, if no key is full (a key already holding the
/// member has room for it), adds the member to every key: 0, or the (1-based) key that is full.
/// `KEYS`: the sets; `ARGV`: the member, the place's life in ms, then each key's cap.
const TAKE: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local member = ARGV[1]
local ttl = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if not redis.call('ZSCORE', key, member) then
    if redis.call('ZCARD', key) >= tonumber(ARGV[2 + i]) then return i end
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + ttl, member)
  redis.call('PEXPIRE', key, ttl)
end
return 0";

/// Renews (or puts back) a member's place in every key: `ARGV`: the member, the life in ms.
const RENEW: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', key, tonumber(ARGV[2]))
end
return 0";

fn millis(ttl: Duration) -> u64 {
    u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1)
}

/// Takes a place for `member` in every key of `keys` (full keys, with their caps), lasting
/// `ttl`: whether every key had room.
///
/// # Errors
/// If Redis does not answer (the caller then counts alone: never unlimited).
pub async fn take(
    cluster: &Cluster,
    keys: &[(String, usize)],
    member: &str,
    ttl: Duration,
) -> Result<bool, redis::RedisError> {
    static SCRIPT: std::sync::LazyLock<redis::Script> =
        std::sync::LazyLock::new(|| redis::Script::new(TAKE));
    let mut script = SCRIPT.prepare_invoke();
    for (key, _) in keys {
        script.key(key);
    }
    script.arg(member).arg(millis(ttl));
    for (_, cap) in keys {
        script.arg(*cap);
    }
    let full: i64 = script.invoke_async(&mut cluster.conn()).await?;
    Ok(full == 0)
}

/// Renews `member`'s place in every key of `keys` for another `ttl`.
///
/// # Errors
/// If Redis does not answer.
pub async fn renew(
    cluster: &Cluster,
    keys: &[String],
    member: &str,
    ttl: Duration,
) -> Result<(), redis::RedisError> {
    static SCRIPT: std::sync::LazyLock<redis::Script> =
        std::sync::LazyLock::new(|| redis::Script::new(RENEW));
    let mut script = SCRIPT.prepare_invoke();
    for key in keys {
        script.key(key);
    }
    script.arg(member).arg(millis(ttl));
    script.invoke_async::<i64>(&mut cluster.conn()).await?;
    Ok(())
}

/// Gives `member`'s place back in every key of `keys`, in a task (errors are logged and
/// counted: the place then lapses by itself).
pub fn give_back(cluster: &Cluster, keys: Vec<String>, member: String) {
    let mut conn = cluster.conn();
    tokio::spawn(async move {
        let mut pipe = redis::pipe();
        for key in &keys {
            pipe.cmd("ZREM").arg(key).arg(&member).ignore();
        }
        if let Err(err) = pipe.query_async::<()>(&mut conn).await {
            crate::metrics::METRICS.redis_errors.inc();
            tracing::warn!("a place could not be given back (it lapses by itself): {err}");
        }
    });
}
