//! What a Dames room is and does, pure and synchronous: the settings and their table, player
//! names, the game adapter over the two rules crates ([`game::GameState`]), the room state
//! machine ([`Room`]: seats, host, start, moves, resignation, draws, rematch, away players and
//! stand-in CPUs, seat transfer), its [`event::Event`]s, the views and records built from a room,
//! the protocol's value types and the errors a room answers (docs/protocol.md, RULES.md part 3).
//!
//! No runtime, socket, clock or database here. Every change is a function from a room and an
//! input to a new room and a [`Change`] (the events to broadcast, the log entries to persist);
//! the caller commits the copy once the change is durable and keeps the old room on any error.
//! Time comes in as an argument (`now`, Unix milliseconds). The stores (`dames-store`) keep a
//! room as the [`rows`] that [`snapshot`] writes and reads back; the server (`dames-server`)
//! holds the live rooms, commits their changes and speaks HTTP and WebSocket.
//!
//! ```
//! use dames_room::game::GameKind;
//! use dames_room::token::hash_token;
//! use dames_room::{Change, Error, Occupant, Room, Settings, SettingsInput, Status};
//!
//! let person = |name: &str| Occupant::Human {
//!     name: name.into(),
//!     token_hash: hash_token(name),
//!     client: None,
//! };
//! let (settings, seats) = Settings::new(GameKind::Draughts, &SettingsInput::default()).unwrap();
//! let mut room = Room::new("K7M2PQ".into(), GameKind::Draughts, settings, seats, person("Ana"), 0);
//! let mut change = Change::default();
//! room.join(None, person("Bo"), &mut change).unwrap();
//! room.start(7, 1_000, &mut change).unwrap();
//! assert_eq!(room.status, Status::Playing);
//!
//! // White moves first; the other seat is refused and nothing changes.
//! let white = room.white_seat();
//! let black = 1 - white;
//! let input = room.parse_move(&serde_json::json!({"notation": "32-28"})).unwrap();
//! assert!(matches!(
//!     room.play_move(black, None, &input, 2_000, &mut Change::default()),
//!     Err(Error::NotYourTurn)
//! ));
//! assert_eq!(room.ply(), 0);
//! let mut change = Change::default();
//! assert!(room.play_move(white, Some("m1"), &input, 2_000, &mut change).unwrap());
//! assert_eq!(room.ply(), 1);
//! assert!(!change.events.is_empty());
//! ```
#![forbid(unsafe_code)]

pub mod analysis;
pub mod clock;
pub mod error;
pub mod event;
pub mod game;
pub mod message;
pub mod names;
pub mod phrase;
pub mod position;
pub mod protocol;
pub mod record;
pub mod room;
pub mod rows;
pub mod settings;
pub mod snapshot;
pub mod token;
pub mod view;

pub use error::{Detail, Error};
pub use room::{Change, Occupant, Room, Seat, Status};
pub use settings::{Settings, SettingsInput};
