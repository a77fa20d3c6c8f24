//! The Dames game server, the runtime and the edges around the pure room model (`dames-room`)
//! and the stores (`dames-store`): the live rooms ([`live`]: one cell per room in memory, the
//! group-commit writer, the CPU scheduler, eviction, presence, the fan-out between nodes), the
//! HTTP API ([`http`]) and the WebSocket sessions ([`ws`]), Web Push ([`push`]), the cluster's
//! Redis ([`cluster`]), network limits ([`net`], [`ratelimit`]), the Prometheus metrics
//! ([`metrics`], served by [`scrape`]) and the web client embedded in the binary ([`assets`]). ARCHITECTURE.md
//! follows one move through all of it.
//!
//! The protocol is `docs/protocol.md`, the storage `docs/storage.md`. The platform rules are
//! RULES.md part 3.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use dames_server::{AppState, Config};
//! let state = AppState::open(Config::new("dames.db")).await?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! dames_server::serve(listener, state, std::future::pending()).await?;
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]

pub mod app;
pub mod assets;
pub mod cluster;
pub mod config;
pub mod error;
pub mod http;
pub mod live;
pub mod metrics;
pub mod net;
pub mod options;
pub mod pools;
pub mod push;
pub mod qr;
pub mod ratelimit;
pub mod retention;
pub mod scrape;
pub mod state;
pub mod ws;

pub use app::{app, serve};
pub use config::Config;
pub use error::AppError;
pub use net::Network;
pub use options::{Limits, Rate, Retention};
pub use scrape::serve as serve_metrics;
pub use state::AppState;
