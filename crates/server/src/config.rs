//! Server configuration: what `dames serve` sets from its options.

use std::path::PathBuf;
use std::time::Duration;

/// Everything the server needs to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// SQLite database file (created if missing).
    pub db_path: PathBuf,
    /// Origin used in room links and QR codes (`https://dames.example`); `None`: from the `Host`
    /// header of the request.
    pub public_url: Option<String>,
    /// Retention durations (docs/storage.md).
    pub retention: Retention,
    /// Rate limits (in memory).
    pub limits: Limits,
    /// Number of CPU players that may think at the same time.
    pub cpu_workers: usize,
    /// Web Push delivery (crate::push).
    pub push: Push,
}

/// Web Push settings.
#[derive(Clone, Debug)]
pub struct Push {
    /// Accept `http://` subscription endpoints on loopback addresses (tests with a local push
    /// endpoint). Off in production: endpoints must be https.
    pub allow_loopback_http: bool,
    /// The VAPID `sub` claim: a contact for push services (`mailto:` or https URL).
    pub subject: String,
}

impl Default for Push {
    fn default() -> Self {
        Self {
            allow_loopback_http: false,
            subject: "mailto:admin@localhost".into(),
        }
    }
}

impl Config {
    /// The defaults of `dames serve` with the given database file.
    pub fn new(db_path: impl Into<PathBuf>) -> Self {
        Self {
            db_path: db_path.into(),
            public_url: None,
            retention: Retention::default(),
            limits: Limits::default(),
            cpu_workers: 1,
            push: Push::default(),
        }
    }
}

const DAY: Duration = Duration::from_secs(24 * 3600);

/// How long rooms are kept (docs/storage.md, "Retention").
#[derive(Clone, Debug)]
pub struct Retention {
    /// A room whose game never started is deleted this long after its last activity (7 days).
    pub lobby: Duration,
    /// A finished game's room is deleted this long after the game ended (30 days).
    pub finished: Duration,
    /// A game with no move for this long ends as abandoned, with no result (45 days).
    pub idle: Duration,
    /// How often the retention job runs.
    pub sweep_every: Duration,
    /// Reviews, requests, and the record that a browser finished a game, are deleted this
    /// long after they were written (2 years).
    pub feedback: Duration,
}

impl Default for Retention {
    fn default() -> Self {
        Self {
            lobby: 7 * DAY,
            finished: 30 * DAY,
            idle: 45 * DAY,
            sweep_every: Duration::from_secs(3600),
            feedback: 730 * DAY,
        }
    }
}

/// A token bucket's shape: `burst` requests at once, refilled at `per_minute`.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    /// Requests allowed at once.
    pub burst: u32,
    /// Requests regained per minute.
    pub per_minute: u32,
}

/// Rate limits per client IP and per `dames_client` cookie.
#[derive(Clone, Debug)]
pub struct Limits {
    /// `false` turns every limit off (load tests, local scripts).
    pub enabled: bool,
    /// Room creations.
    pub create: Rate,
    /// Joins and other lookups of a room by code.
    pub join: Rate,
    /// Lookups of codes that name no room (the brute-force guard).
    pub unknown_code: Rate,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            enabled: true,
            create: Rate {
                burst: 30,
                per_minute: 10,
            },
            join: Rate {
                burst: 60,
                per_minute: 60,
            },
            unknown_code: Rate {
                burst: 10,
                per_minute: 10,
            },
        }
    }
}
