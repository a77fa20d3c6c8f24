//! The Dames game server: rooms with a six-character code, live play over WebSocket, a small
//! JSON HTTP API, CPU seats, SQLite persistence, and the web client embedded in the binary.
//!
//! The protocol is `docs/protocol.md`, the storage `docs/storage.md`. The platform rules are
//! RULES.md part 3. The games themselves are the `chinese-checkers` and `draughts` engines,
//! behind [`game::GameState`].
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
pub mod event;
pub mod fuzz;
pub mod game;
pub mod http;
pub mod names;
pub mod net;
pub mod position;
pub mod protocol;
pub mod push;
pub mod qr;
pub mod ratelimit;
pub mod record;
pub mod retention;
pub mod room;
pub mod rooms;
pub mod settings;
pub mod snapshot;
pub mod state;
pub mod store;
pub mod token;
pub mod view;
pub mod wire;
pub mod ws;

pub use app::{app, serve};
pub use config::{Config, Limits, Network, Rate, Retention};
pub use error::AppError;
pub use state::AppState;
