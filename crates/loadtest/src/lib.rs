//! The load generator of the Dames server (issue 9): how many sockets it holds, how many moves
//! per second it commits and how fast they reach the other player, how fast players come and
//! go, and whether every acknowledged move survives `kill -9`.
//!
//! It talks to the server as browsers do — HTTP to create, join and start rooms, one WebSocket
//! per seat (docs/protocol.md) — from this machine only (loopback addresses are the only
//! targets). Five runs, each a module with a `Config`, an async `run` and a `Report` (printable,
//! and serialisable to JSON):
//! - [`connections`]: N WebSockets held T seconds; how many opened and stayed alive, and the
//!   server's resident memory per socket.
//! - [`play`]: G concurrent 2-player games of each kind between scripted clients, flat out or at
//!   a pace; committed moves per second, latency send→ack and send→opponent (p50/p90/p99/max).
//! - [`reconnect`]: seated players connecting and disconnecting in a loop; connections per
//!   second and what each costs the server in stored events.
//! - [`pair`]: browsers seeking games in the pools of quick pairing, some cancelling; time to
//!   pair, nobody paired twice, nobody lost.
//! - [`crash`]: play, `kill -9` the server at random moments, restart it on the same database,
//!   check that every acknowledged move is there and that resent moves apply at most once; a
//!   self-test deletes a committed move while the server is down and must be caught.
//! - [`faults`]: play while Redis or PostgreSQL is restarted, a node is cut off from Redis, or
//!   the database's disk is full (services the run starts itself: [`infra`]); nothing
//!   acknowledged lost or doubled, and play resumes by itself when the fault ends.
//!
//! Every loop is bounded in count and time; a run either returns a report or an [`Error`] saying
//! why it could not measure. The `dames loadtest …` subcommand is the command-line front; the
//! figures and the exact commands are in docs/performance.md.
//!
//! A run may open thousands of sockets: [`raise_fd_limit`] raises this process's soft open-file
//! limit to the hard one first, and a server spawned by the run inherits it. A server started
//! by hand needs the same (`ulimit -n 20000` before `dames serve`) and `--no-rate-limits`.
//!
//! ```no_run
//! # async fn demo() -> Result<(), dames_loadtest::Error> {
//! use std::time::Duration;
//! use dames_loadtest::{play, Target};
//!
//! let config = play::Config {
//!     target: Target::running("http://127.0.0.1:8080", None)?,
//!     games: 10,
//!     duration: Duration::from_secs(10),
//!     ..play::Config::default()
//! };
//! let report = play::run(&config).await?;
//! println!("{report}");
//! assert_eq!(report.failures(), 0);
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
pub mod connections;
pub mod crash;
mod db;
mod error;
pub mod faults;
pub mod infra;
pub mod pair;
pub mod play;
mod player;
pub mod protocol;
pub mod reconnect;
mod rng;
pub mod server;
mod setup;
pub mod stats;

/// What every run's report offers: a text for people (`Display`), JSON for scripts, the count
/// of failures that decides the exit code, and the median of several runs.
pub trait RunReport: std::fmt::Display + Sized {
    /// Failures found by the run: 0 for a clean run.
    fn failures(&self) -> u64;
    /// The report as JSON.
    fn to_json(&self) -> serde_json::Value;
    /// A report whose every figure is the median of that figure over `runs`
    /// ([`stats::median_json`]); `None` without runs.
    fn median(runs: &[Self]) -> Option<Self>;
}

macro_rules! run_report {
    ($($report:ty),*) => {$(
        impl RunReport for $report {
            fn failures(&self) -> u64 {
                <$report>::failures(self)
            }
            fn to_json(&self) -> serde_json::Value {
                serde_json::to_value(self).unwrap_or_default()
            }
            fn median(runs: &[Self]) -> Option<Self> {
                let values: Vec<serde_json::Value> = runs.iter().map(Self::to_json).collect();
                serde_json::from_value(stats::median_json(&values)).ok()
            }
        }
    )*};
}

run_report!(
    connections::Report,
    pair::Report,
    play::Report,
    reconnect::Report,
    crash::Report,
    faults::Report
);

pub use api::GameKind;
pub use error::{Error, Result};
pub use server::{raise_fd_limit, ServerProcess, Spread, Target};
pub use setup::parse_kinds;
