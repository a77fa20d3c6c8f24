//! The one error of the stores.

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The room's stored version is not the one the change was computed from (or a new room's
    /// code is taken, or the room is gone): another node, or a stale copy of the room, changed
    /// it first. Nothing of the change was written; the room is reloaded and the client told
    /// `conflict` (docs/cluster.md).
    #[error("room {code}: the stored room is not at version {expected:?}")]
    Conflict {
        code: String,
        /// The version the change was computed from (`None`: a new room).
        expected: Option<i64>,
    },
    /// Anything else; logged and answered as `internal`.
    #[error("{0}")]
    Failed(String),
}

impl StoreError {
    /// The same failure, saying which room's change it was.
    pub fn in_room(self, code: &str) -> Self {
        match self {
            Self::Failed(m) => Self::Failed(format!("room {code}: {m}")),
            conflict @ Self::Conflict { .. } => conflict,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        Self::Failed(err.to_string())
    }
}
