//! The one rate limiter of the server: in-memory token buckets keyed by client IP, by
//! `dames_client` cookie or by seat, for every action a client can repeat — creating and joining
//! rooms, looking up codes, acting in a room (HTTP and WebSocket), hints, reviews. Nothing here is
//! persisted: a restart forgets every counter (docs/storage.md). `--no-rate-limits` turns it off.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

use crate::config::{Limits, Rate};
use crate::error::AppError;

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

/// The limiter shared by every request.
#[derive(Debug)]
pub struct RateLimiter {
    limits: Limits,
    buckets: Mutex<HashMap<(Action, Key), Bucket>>,
}

impl RateLimiter {
    /// A limiter with these limits.
    pub fn new(limits: Limits) -> Self {
        Self {
            limits,
            buckets: Mutex::new(HashMap::new()),
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
        }
    }

    fn keys(ip: IpAddr, client: Option<&str>) -> Vec<Key> {
        let mut keys = vec![Key::Ip(crate::net::client_ip::limit_key(ip))];
        keys.extend(client.map(|c| Key::Client(c.to_owned())));
        keys
    }

    /// Fails with `rate_limited` if `ip` or `client` has no token left for `action`, without
    /// taking one.
    pub fn check(&self, action: Action, ip: IpAddr, client: Option<&str>) -> Result<(), AppError> {
        self.apply(action, ip, client, false)
    }

    /// Takes one token for `action` from `ip` and `client`, or fails with `rate_limited`.
    pub fn take(&self, action: Action, ip: IpAddr, client: Option<&str>) -> Result<(), AppError> {
        self.apply(action, ip, client, true)
    }

    /// Takes one token for `action` from the seat whose token is `seat`, or fails with
    /// `rate_limited`.
    pub fn take_seat(&self, action: Action, seat: &str) -> Result<(), AppError> {
        self.apply_keys(action, vec![Key::Seat(seat.to_owned())], true)
    }

    /// Takes one token for `action` from browser `client`, or fails with `rate_limited`.
    pub fn take_client(&self, action: Action, client: &str) -> Result<(), AppError> {
        self.apply_keys(action, vec![Key::Client(client.to_owned())], true)
    }

    /// Takes one token for `action` from address `ip` (IPv6: its /64), or fails with
    /// `rate_limited`.
    pub fn take_ip(&self, action: Action, ip: IpAddr) -> Result<(), AppError> {
        let key = Key::Ip(crate::net::client_ip::limit_key(ip));
        self.apply_keys(action, vec![key], true)
    }

    fn apply(
        &self,
        action: Action,
        ip: IpAddr,
        client: Option<&str>,
        take: bool,
    ) -> Result<(), AppError> {
        self.apply_keys(action, Self::keys(ip, client), take)
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

    #[test]
    fn a_bucket_empties_then_refuses_with_a_retry_delay() {
        let l = limiter();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        for _ in 0..3 {
            l.take(Action::UnknownCode, ip, Some("c1")).unwrap();
        }
        let err = l.take(Action::UnknownCode, ip, Some("c1")).unwrap_err();
        assert!(
            matches!(err, AppError::RateLimited(s) if (1..=60).contains(&s)),
            "{err:?}"
        );
        // Another cookie from the same IP is refused too; another IP with the same cookie too.
        assert!(l.check(Action::UnknownCode, ip, Some("c2")).is_err());
        assert!(l
            .check(Action::UnknownCode, "10.0.0.1".parse().unwrap(), Some("c1"))
            .is_err());
        assert!(l
            .check(Action::UnknownCode, "10.0.0.1".parse().unwrap(), Some("c3"))
            .is_ok());
        // Other actions have their own buckets.
        assert!(l.check(Action::Create, ip, Some("c1")).is_ok());
    }

    #[test]
    fn seats_browsers_and_addresses_have_their_own_buckets() {
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
            l.take_ip(Action::Feedback, ip).unwrap();
        }
        // The same /64.
        assert!(l
            .take_ip(Action::Feedback, "2001:db8::2".parse().unwrap())
            .is_err());
        let off = RateLimiter::new(Limits {
            enabled: false,
            ..Limits::default()
        });
        for _ in 0..100 {
            off.take_seat(Action::Hint, "seat-a").unwrap();
        }
    }

    #[test]
    fn check_takes_nothing() {
        let l = limiter();
        let ip: IpAddr = "::1".parse().unwrap();
        for _ in 0..10 {
            l.check(Action::UnknownCode, ip, None).unwrap();
        }
    }
}
