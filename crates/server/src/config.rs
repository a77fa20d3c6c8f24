//! Server configuration: what `dames serve` sets from its options.

use std::path::PathBuf;
use std::time::Duration;

/// Everything the server needs to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// SQLite database file (created if missing), unless `database` is set.
    pub db_path: PathBuf,
    /// A PostgreSQL URL (`postgres://user@host:port/db`): the store is PostgreSQL instead of
    /// the SQLite file (docs/cluster.md).
    pub database: Option<String>,
    /// A Redis URL (`redis://host:port`): this node is one of several sharing the database,
    /// and they talk through this Redis (crate::cluster, docs/cluster.md).
    pub redis: Option<String>,
    /// The prefix of every Redis key and channel of this deployment.
    pub redis_prefix: String,
    /// Origin used in room links and QR codes (`https://dames.example`); `None`: from the `Host`
    /// header of the request.
    pub public_url: Option<String>,
    /// Retention durations (docs/storage.md).
    pub retention: Retention,
    /// Rate limits (in memory).
    pub limits: Limits,
    /// CPU searches (CPU turns and hints) computing at the same time; the others wait for a
    /// slice (crate::rooms::scheduler). Default: the cores available but one, at least one.
    pub cpu_workers: usize,
    /// Web Push delivery (crate::push).
    pub push: Push,
    /// Connections: proxies, timeouts and caps (crate::net).
    pub network: Network,
    /// The commit path and the room cache (crate::rooms::commit, eviction of idle rooms).
    pub commit: crate::rooms::CommitOptions,
}

/// The network edge (docs/security.md, "Limits").
#[derive(Clone, Debug)]
pub struct Network {
    /// Reverse proxies whose `Forwarded` / `X-Forwarded-For` headers name the client
    /// (crate::net::client_ip); none by default.
    pub trusted_proxies: Vec<crate::net::client_ip::Cidr>,
    /// A request's head must arrive within this time of the connection's opening or of its own
    /// first byte (10 s); a slow one is answered `408` and closed.
    pub header_timeout: Duration,
    /// A kept-alive connection with no request for this long is closed (30 s).
    pub idle_timeout: Duration,
    /// Open connections at most (WebSockets included); `None`: from the open-file limit
    /// (crate::net::limits::default_max_connections). More are answered `503` and closed.
    pub max_connections: Option<usize>,
    /// Open connections from one address (IPv6: one /64) at most, except from trusted
    /// proxies (256). More are answered `429`.
    pub max_connections_per_ip: usize,
    /// Open WebSockets from one client address (after proxies; IPv6: one /64) at most (50).
    /// More upgrades are answered `429 too_many_connections`.
    pub max_websockets_per_ip: usize,
    /// On SIGTERM or Ctrl-C, how long the drain may take (10 s): requests in progress finish,
    /// WebSockets are told to reconnect, the writer commits what it was given; then the
    /// process exits whatever is left.
    pub drain_timeout: Duration,
}

impl Default for Network {
    fn default() -> Self {
        Self {
            trusted_proxies: Vec::new(),
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            max_connections: None,
            max_connections_per_ip: 256,
            max_websockets_per_ip: 50,
            drain_timeout: Duration::from_secs(10),
        }
    }
}

/// Web Push settings.
#[derive(Clone, Debug)]
pub struct Push {
    /// Accept `http://` subscription endpoints on loopback addresses (tests with a local push
    /// endpoint). Off in production: endpoints must be https.
    pub allow_loopback_http: bool,
    /// The VAPID `sub` claim: a contact for push services (`mailto:` or https URL).
    pub subject: String,
    /// Push service hosts allowed (each with its subdomains; `known`: the big browsers'
    /// services); empty: any public host (crate::push::ssrf).
    pub allowed_hosts: Vec<String>,
    /// Host names resolved to these addresses without DNS (still checked like DNS answers).
    pub static_hosts: Vec<(String, std::net::IpAddr)>,
}

impl Default for Push {
    fn default() -> Self {
        Self {
            allow_loopback_http: false,
            subject: "mailto:admin@localhost".into(),
            allowed_hosts: Vec::new(),
            static_hosts: Vec::new(),
        }
    }
}

impl Config {
    /// The defaults of `dames serve` with the given database file.
    pub fn new(db_path: impl Into<PathBuf>) -> Self {
        Self {
            db_path: db_path.into(),
            database: None,
            redis: None,
            redis_prefix: "dames:".into(),
            public_url: None,
            retention: Retention::default(),
            limits: Limits::default(),
            cpu_workers: crate::rooms::scheduler::default_workers(),
            push: Push::default(),
            network: Network::default(),
            commit: crate::rooms::CommitOptions::default(),
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
    /// `false` turns every limit off (load tests, local scripts), the per-address connection and
    /// WebSocket caps too ([`Network`]).
    pub enabled: bool,
    /// Room creations.
    pub create: Rate,
    /// Joins and other lookups of a room by code.
    pub join: Rate,
    /// Lookups of codes that name no room (the brute-force guard).
    pub unknown_code: Rate,
    /// Actions in a room (moves, resignations, draw offers, rematches, seats, settings): per
    /// seat on the WebSocket, per seat (else browser) over HTTP.
    pub act: Rate,
    /// Hints, per seat.
    pub hint: Rate,
    /// Reviews and requests, per address.
    pub feedback: Rate,
    /// Games against CPUs being played at once per browser (`too_many_cpu_games`): each keeps
    /// the CPU players' pool busy as long as it lasts.
    pub cpu_games_per_client: usize,
    /// Games against CPUs being played at once per client address (IPv6: per /64).
    pub cpu_games_per_ip: usize,
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
            act: Rate {
                burst: 20,
                per_minute: 600,
            },
            hint: Rate {
                burst: 1,
                per_minute: 30,
            },
            feedback: Rate {
                burst: 30,
                per_minute: 1,
            },
            cpu_games_per_client: 5,
            cpu_games_per_ip: 30,
        }
    }
}
