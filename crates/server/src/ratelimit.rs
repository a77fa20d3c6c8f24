//! The one rate limiter of the server: in-memory token buckets keyed by client IP, by
//! `dames_client` cookie or by seat, for every action a client can repeat — creating and joining
//! rooms, looking up codes, acting in a room (HTTP and WebSocket), hints, reviews. Nothing here is
//! persisted: a restart forgets every counter (docs/storage.md). `--no-rate-limits` turns it off.
//!
//! In a cluster (docs/cluster.md, "Rate limits"), the limits by address and browser cookie
//! ([`RateLimiter::check`], [`RateLimiter::take`], [`RateLimiter::take_ip`]) are counted in Redis,
//! the same token buckets kept by one Lua script, so that N nodes do not give N times the limit;
//! if Redis does not answer, the node's own buckets count (logged once), never nothing. The limits
//! per seat and per socket stay in each node's memory.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::cluster::Cluster;

use crate::error::AppError;
use crate::options::{Limits, Rate};

/// What is being limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Creating a room.
    Create,
    /// Joining or looking up a room by code.
    Join,
    /// Looking up a code that names no room.
    UnknownCode,
    /// An action in a room (a move, a resignation, a draw offer, a rematch, seats, settings…):
    /// per seat on the WebSocket, per seat or browser over HTTP.
    Act,
    /// A hint, per seat.
    Hint,
    /// A review or request, per address.
    Feedback,
    /// Opening a room's WebSocket, per address and per seat: a reconnect loop costs the other
    /// players nothing past it.
    Connect,
    /// Seeking a game in the pools (or blocking a person), per address and browser.
    Seek,
    /// Starting the analysis of a finished game, per address and browser.
    Analysis,
}

impl Action {
    fn name(self) -> &'static str {
        match self {
            Action::Create => "create",
            Action::Join => "join",
            Action::UnknownCode => "unknown-code",
            Action::Act => "act",
            Action::Hint => "hint",
            Action::Feedback => "feedback",
            Action::Connect => "connect",
            Action::Seek => "seek",
            Action::Analysis => "analysis",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Ip(IpAddr),
    Client(String),
    /// A seat, by its token.
    Seat(String),
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Key {
    /// Its part of a Redis key.
    fn to_redis(&self) -> String {
        match self {
            Key::Ip(ip) => format!("ip:{ip}"),
            Key::Client(c) => format!("client:{c}"),
            Key::Seat(s) => format!("seat:{s}"),
        }
    }
}

/// The token buckets `KEYS` (burst `ARGV[1]`, regained per minute `ARGV[2]`) refilled to Redis's
/// clock; if one has less than a token, the milliseconds until it has one, else 0, after taking
/// a token from each when `ARGV[3]` is 1. A bucket is kept until it would be full again.
const BUCKETS: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local burst = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2]) / 60000
local tokens = {}
local wait = 0
for i, key in ipairs(KEYS) do
  local b = redis.call('HMGET', key, 'tokens', 'at')
  local tk = tonumber(b[1]) or burst
  local at = tonumber(b[2]) or now
  tk = math.min(burst, tk + math.max(0, now - at) * per_ms)
  tokens[i] = tk
  if tk < 1 then wait = math.max(wait, (1 - tk) / per_ms) end
end
if wait > 0 then return math.ceil(wait) end
if ARGV[3] == '1' then
  for i, key in ipairs(KEYS) do
    local left = tokens[i] - 1
    redis.call('HSET', key, 'tokens', tostring(left), 'at', now)
    redis.call('PEXPIRE', key, math.ceil((burst - left) / per_ms) + 1000)
  end
end
return 0";

/// The limiter shared by every request.
#[derive(Debug)]
pub struct RateLimiter {
    limits: Limits,
    buckets: Mutex<HashMap<(Action, Key), Bucket>>,
    /// The cluster's Redis, where the limits by address and browser are counted.
    shared: Option<Arc<Cluster>>,
    /// Whether a Redis failure was logged (once).
    warned: AtomicBool,
}

impl RateLimiter {
    /// A limiter with these limits.
    pub fn new(limits: Limits) -> Self {
        Self {
            limits,
            buckets: Mutex::new(HashMap::new()),
            shared: None,
            warned: AtomicBool::new(false),
        }
    }

    /// The same limiter counting the limits by address and browser in `cluster`'s Redis.
    pub fn shared(self, cluster: Option<Arc<Cluster>>) -> Self {
        Self {
            shared: cluster,
            ..self
        }
    }

    fn rate(&self, action: Action) -> Rate {
        match action {
            Action::Create => self.limits.create,
            Action::Join => self.limits.join,
            Action::UnknownCode => self.limits.unknown_code,
            Action::Act => self.limits.act,
            Action::Hint => self.limits.hint,
            Action::Feedback => self.limits.feedback,
            Action::Connect => self.limits.connect,
            Action::Seek => self.limits.seek,
            Action::Analysis => self.limits.analysis,
        }
    }

    fn keys(ip: IpAddr, client: Option<&str>) -> Vec<Key> {
        let mut keys = vec![Key::Ip(crate::net::client_ip::limit_key(ip))];
        keys.extend(client.map(|c| Key::Client(c.to_owned())));
        keys
    }

    /// Fails with `rate_limited` if `ip` or `client` has no token left for `action`, without
    /// taking one.
    ///
    /// # Errors
    /// `rate_limited` with the seconds to wait.
    pub async fn check(
        &self,
        action: Action,
        ip: IpAddr,
        client: Option<&str>,
    ) -> Result<(), AppError> {
        self.apply_shared(action, Self::keys(ip, client), false)
            .await
    }

    /// Takes one token for `action` from `ip` and `client`, or fails with `rate_limited`.
    ///
    /// # Errors
    /// `rate_limited` with the seconds to wait.
    pub async fn take(
        &self,
        action: Action,
        ip: IpAddr,
        client: Option<&str>,
    ) -> Result<(), AppError> {
        self.apply_shared(action, Self::keys(ip, client), true)
            .await
    }

    /// Takes one token for `action` from the seat whose token is `seat`, or fails with
    /// `rate_limited`.
    pub fn take_seat(&self, action: Action, seat: &str) -> Result<(), AppError> {
        self.apply_keys(action, vec![Key::Seat(seat.to_owned())], true)
    }

    /// Takes one [`Action::Connect`] token from address `ip` (IPv6: its /64) and, for a seated
    /// caller, from its seat (by its token), or fails with `rate_limited`.
    ///
    /// # Errors
    /// `rate_limited` with the seconds to wait.
    pub async fn take_connect(&self, ip: IpAddr, seat: Option<&str>) -> Result<(), AppError> {
        let mut keys = vec![Key::Ip(crate::net::client_ip::limit_key(ip))];
        // Known to Redis by a hash: a seat token is a secret, never a key name.
        keys.extend(seat.map(|s| {
            let hash = dames_room::token::hash_token(s);
            Key::Seat(hash[..16].iter().map(|b| format!("{b:02x}")).collect())
        }));
        self.apply_shared(Action::Connect, keys, true).await
    }

    /// Takes one token for `action` from browser `client`, or fails with `rate_limited`.
    pub fn take_client(&self, action: Action, client: &str) -> Result<(), AppError> {
        self.apply_keys(action, vec![Key::Client(client.to_owned())], true)
    }

    /// Takes one token for `action` from address `ip` (IPv6: its /64), or fails with
    /// `rate_limited`.
    ///
    /// # Errors
    /// `rate_limited` with the seconds to wait.
    pub async fn take_ip(&self, action: Action, ip: IpAddr) -> Result<(), AppError> {
        let key = Key::Ip(crate::net::client_ip::limit_key(ip));
        self.apply_shared(action, vec![key], true).await
    }

    /// [`RateLimiter::apply_keys`] in the cluster's Redis if there is one and it answers.
    async fn apply_shared(
        &self,
        action: Action,
        keys: Vec<Key>,
        take: bool,
    ) -> Result<(), AppError> {
        let Some(cluster) = self.shared.as_ref().filter(|_| self.limits.enabled) else {
            return self.apply_keys(action, keys, take);
        };
        match self.apply_redis(cluster, action, &keys, take).await {
            Ok(0) => Ok(()),
            Ok(wait_ms) => Err(AppError::RateLimited(wait_ms.div_ceil(1000).max(1)))
                .inspect_err(|_| crate::metrics::METRICS.refused(action.name())),
            Err(err) => {
                crate::metrics::METRICS.redis_errors.inc();
                if !self.warned.swap(true, Ordering::Relaxed) {
                    tracing::error!("rate limits counted by this node alone (Redis: {err})");
                }
                self.apply_keys(action, keys, take)
            }
        }
    }

    /// Runs [`BUCKETS`]: the milliseconds to wait, or 0.
    async fn apply_redis(
        &self,
        cluster: &Cluster,
        action: Action,
        keys: &[Key],
        take: bool,
    ) -> Result<u64, redis::RedisError> {
        let rate = self.rate(action);
        static SCRIPT: std::sync::LazyLock<redis::Script> =
            std::sync::LazyLock::new(|| redis::Script::new(BUCKETS));
        let mut script = SCRIPT.prepare_invoke();
        for key in keys {
            script.key(cluster.key(&["rate", action.name(), &key.to_redis()]));
        }
        script
            .arg(rate.burst)
            .arg(rate.per_minute.max(1))
            .arg(u8::from(take));
        let mut conn = cluster.conn();
        script.invoke_async(&mut conn).await
    }

    fn apply_keys(&self, action: Action, keys: Vec<Key>, take: bool) -> Result<(), AppError> {
        if !self.limits.enabled {
            return Ok(());
        }
        let rate = self.rate(action);
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            Self::forget_full(&mut buckets, |a| self.rate(a), now);
        }
        let mut wait = 0.0f64;
        for key in &keys {
            let bucket = buckets.entry((action, key.clone())).or_insert(Bucket {
                tokens: rate.burst as f64,
                at: now,
            });
            refill(bucket, rate, now);
            if bucket.tokens < 1.0 {
                wait = wait.max((1.0 - bucket.tokens) * 60.0 / rate.per_minute.max(1) as f64);
            }
        }
        if wait > 0.0 {
            crate::metrics::METRICS.refused(action.name());
            return Err(AppError::RateLimited(wait.ceil() as u64));
        }
        if take {
            for key in keys {
                if let Some(bucket) = buckets.get_mut(&(action, key)) {
                    bucket.tokens -= 1.0;
                }
            }
        }
        Ok(())
    }

    /// Drops buckets that have refilled completely (they carry no information).
    fn forget_full(
        buckets: &mut HashMap<(Action, Key), Bucket>,
        rate: impl Fn(Action) -> Rate,
        now: Instant,
    ) {
        buckets.retain(|(action, _), bucket| {
            let r = rate(*action);
            refill(bucket, r, now);
            bucket.tokens < r.burst as f64
        });
    }
}

fn refill(bucket: &mut Bucket, rate: Rate, now: Instant) {
    let minutes = now.duration_since(bucket.at).as_secs_f64() / 60.0;
    bucket.tokens = (bucket.tokens + minutes * rate.per_minute as f64).min(rate.burst as f64);
    bucket.at = now;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter() -> RateLimiter {
        RateLimiter::new(Limits {
            unknown_code: Rate {
                burst: 3,
                per_minute: 1,
            },
            ..Limits::default()
        })
    }

    #[tokio::test]
    async fn a_bucket_empties_then_refuses_with_a_retry_delay() {
        let l = limiter();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        for _ in 0..3 {
            l.take(Action::UnknownCode, ip, Some("c1")).await.unwrap();
        }
        let err = l
            .take(Action::UnknownCode, ip, Some("c1"))
            .await
            .unwrap_err();
        assert!(
            matches!(err, AppError::RateLimited(s) if (1..=60).contains(&s)),
            "{err:?}"
        );
        // Another cookie from the same IP is refused too; another IP with the same cookie too.
        assert!(l.check(Action::UnknownCode, ip, Some("c2")).await.is_err());
        assert!(l
            .check(Action::UnknownCode, "10.0.0.1".parse().unwrap(), Some("c1"))
            .await
            .is_err());
        assert!(l
            .check(Action::UnknownCode, "10.0.0.1".parse().unwrap(), Some("c3"))
            .await
            .is_ok());
        // Other actions have their own buckets.
        assert!(l.check(Action::Create, ip, Some("c1")).await.is_ok());
    }

    #[tokio::test]
    async fn seats_browsers_and_addresses_have_their_own_buckets() {
        let l = RateLimiter::new(Limits::default());
        let act = Limits::default().act;
        for _ in 0..act.burst {
            l.take_seat(Action::Act, "seat-a").unwrap();
        }
        let err = l.take_seat(Action::Act, "seat-a").unwrap_err();
        assert!(matches!(err, AppError::RateLimited(1)), "{err:?}");
        l.take_seat(Action::Act, "seat-b").unwrap();
        l.take_client(Action::Act, "seat-a").unwrap();
        l.take_seat(Action::Hint, "seat-a").unwrap();
        assert!(l.take_seat(Action::Hint, "seat-a").is_err());
        let ip: IpAddr = "2001:db8::1".parse().unwrap();
        for _ in 0..Limits::default().feedback.burst {
            l.take_ip(Action::Feedback, ip).await.unwrap();
        }
        // The same /64.
        assert!(l
            .take_ip(Action::Feedback, "2001:db8::2".parse().unwrap())
            .await
            .is_err());
        let off = RateLimiter::new(Limits {
            enabled: false,
            ..Limits::default()
        });
        for _ in 0..100 {
            off.take_seat(Action::Hint, "seat-a").unwrap();
        }
    }

    async fn node(prefix: &str) -> Option<Arc<Cluster>> {
        let url = crate::cluster::tests::test_url();
        Some(Arc::new(Cluster::connect(&url, prefix).await.unwrap()))
    }

    #[tokio::test]
    async fn nodes_of_a_cluster_share_the_buckets_by_address_and_browser() {
        let prefix = crate::cluster::tests::scratch_prefix();
        let a = limiter().shared(node(&prefix).await);
        let b = limiter().shared(node(&prefix).await);
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        let mut taken = 0;
        for i in 0..10 {
            let node = if i % 2 == 0 { &a } else { &b };
            if node.take(Action::UnknownCode, ip, Some("c1")).await.is_ok() {
                taken += 1;
            }
        }
        // The burst of one node, not of two.
        assert_eq!(taken, 3);
        let err = b.check(Action::UnknownCode, ip, None).await.unwrap_err();
        assert!(
            matches!(err, AppError::RateLimited(s) if (1..=60).contains(&s)),
            "{err:?}"
        );
        // The same browser elsewhere, and the seats' limits stay per node.
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        assert!(a
            .check(Action::UnknownCode, other, Some("c1"))
            .await
            .is_err());
        assert!(a
            .check(Action::UnknownCode, other, Some("c2"))
            .await
            .is_ok());
        assert!(a.check(Action::Create, ip, Some("c1")).await.is_ok());
    }

    /// A Redis of this test's own on a free port (`redis-server`, no files), and its URL.
    fn own_redis() -> (std::process::Child, String) {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = std::process::Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server");
        (child, format!("redis://127.0.0.1:{port}"))
    }

    #[tokio::test]
    async fn when_redis_goes_the_node_counts_alone_never_unlimited() {
        let (mut server, url) = own_redis();
        let deadline = Instant::now() + std::time::Duration::from_secs(10);
        let cluster = loop {
            match Cluster::connect(&url, "t:").await {
                Ok(c) => break c,
                Err(_) if Instant::now() < deadline => {
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
                Err(err) => panic!("{err}"),
            }
        };
        let l = limiter().shared(Some(Arc::new(cluster)));
        let ip: IpAddr = "192.0.2.9".parse().unwrap();
        l.take(Action::UnknownCode, ip, None).await.unwrap();
        server.kill().unwrap();
        server.wait().unwrap();
        // Redis is gone: the node's own bucket (full) counts, then refuses.
        for _ in 0..3 {
            l.take(Action::UnknownCode, ip, None).await.unwrap();
        }
        let err = l.take(Action::UnknownCode, ip, None).await.unwrap_err();
        assert!(matches!(err, AppError::RateLimited(_)), "{err:?}");
    }

    #[tokio::test]
    async fn check_takes_nothing() {
        let l = limiter();
        let ip: IpAddr = "::1".parse().unwrap();
        for _ in 0..10 {
            l.check(Action::UnknownCode, ip, None).await.unwrap();
        }
    }
}
