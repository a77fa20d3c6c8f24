//! Quick pairing's memory of browsers (docs/protocol.md "Pools"): who blocked whom
//! (« Ne plus jouer avec cette personne ») and the games each browser left. Browsers are the
//! signed browser ids of the `dames_client` cookie, never shown to anyone.

use crate::error::StoreError;

/// A game left by a seat: lost by abandonment, or by time while away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaveRow {
    /// The room.
    pub code: String,
    /// Its game number.
    pub game_no: i64,
    /// The seat that left.
    pub seat: i64,
    /// That seat's browser.
    pub client: String,
    /// When the game ended (ms).
    pub at: i64,
}

/// The storage of blocks and leaves.
pub trait PairingStore: Send + Sync + 'static {
    /// `client` blocks `blocked` (again: nothing changes but the time).
    fn block(&self, client: &str, blocked: &str, at: i64) -> Result<(), StoreError>;
    /// Clears every block `client` made; returns how many.
    fn clear_blocks(&self, client: &str) -> Result<usize, StoreError>;
    /// The browsers `client` must not be paired with: those it blocked and those that blocked
    /// it, each once, sorted.
    fn avoided(&self, client: &str) -> Result<Vec<String>, StoreError>;
    /// Records a game left; the same room, game and seat again is ignored (every node of a
    /// cluster may see the same end). Returns whether it was new.
    fn record_leave(&self, leave: &LeaveRow) -> Result<bool, StoreError>;
    /// How many games `client` left at or after `since`.
    fn leaves_since(&self, client: &str, since: i64) -> Result<u32, StoreError>;
    /// Retention: deletes the leaves older than `before`; returns the rows deleted.
    fn sweep_leaves(&self, before: i64) -> Result<usize, StoreError>;
}
