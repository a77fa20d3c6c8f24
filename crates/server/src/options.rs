//! The options of each part of the server, plain values with their defaults (docs/security.md
//! "Limits", docs/storage.md "Retention"): the parts take their own from here, and
//! [`crate::config::Config`] gathers them.

use std::time::Duration;

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
    /// Openings of a room's WebSocket, per address and per seat.
    pub connect: Rate,
    /// Seeks in the pools of quick pairing, per browser and address (crate::pools).
    pub seek: Rate,
    /// Analyses of finished games started (« Analyser »), per browser and address: each keeps
    /// the CPU pool busy when it is idle (crate::live::analysis).
    pub analysis: Rate,
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
            connect: Rate {
                burst: 60,
                per_minute: 120,
            },
            seek: Rate {
                burst: 20,
                per_minute: 30,
            },
            analysis: Rate {
                burst: 4,
                per_minute: 1,
            },
            cpu_games_per_client: 5,
            cpu_games_per_ip: 30,
        }
    }
}
