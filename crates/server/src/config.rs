//! Server configuration: what `dames serve` sets from its options, every part's options
//! ([`crate::options`]) in one value.

use std::path::PathBuf;

use crate::live::{scheduler, CommitOptions};
pub use crate::net::Network;
pub use crate::options::{Limits, Push, Rate, Retention};

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
    /// slice (crate::live::scheduler). Default: the cores available but one, at least one.
    pub cpu_workers: usize,
    /// Web Push delivery (crate::push).
    pub push: Push,
    /// Connections: proxies, timeouts and caps (crate::net).
    pub network: Network,
    /// The commit path and the room cache (crate::live::commit, eviction of idle rooms).
    pub commit: CommitOptions,
    /// Quick pairing: the matcher's tick, a claimed match's deadline (crate::pools).
    pub pools: crate::pools::PoolOptions,
    /// The analyses of finished games: budget, bounds, when an unwatched one stops
    /// (crate::live::analysis).
    pub analysis: crate::live::analysis::AnalysisOptions,
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
            cpu_workers: scheduler::default_workers(),
            push: Push::default(),
            network: Network::default(),
            commit: CommitOptions::default(),
            pools: crate::pools::PoolOptions::default(),
            analysis: crate::live::analysis::AnalysisOptions::default(),
        }
    }
}
