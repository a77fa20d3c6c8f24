//! Reviews and requests, and who has played which game (only they may review it).

use crate::error::StoreError;

/// A review or a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedbackRow {
    pub id: i64,
    /// `review`, `request`, `problem`, `rule`, or `report` (« Signaler »: for the operator only).
    pub kind: String,
    pub game: Option<String>,
    pub stars: Option<i64>,
    pub body: String,
    pub name: Option<String>,
    /// `new`, `planned`, `done`, `declined`.
    pub status: String,
    pub client: String,
    pub created_at: i64,
}

/// The storage of reviews and requests.
pub trait FeedbackStore: Send + Sync + 'static {
    /// Whether `client` held a seat in a finished game of kind `game` (the `played` rows are
    /// written by the commit that finishes a game, the server's `live::commit`; a room still kept
    /// whose first game this browser finished counts too).
    fn has_played(&self, client: &str, game: &str) -> Result<bool, StoreError>;
    /// Adds a review or request (its id and status are the store's: `new`); returns its id.
    fn add_feedback(&self, row: &FeedbackRow) -> Result<i64, StoreError>;
    /// The newest reviews and requests, at most `limit` (never the reports: those are for the
    /// operator only).
    fn feedback(&self, limit: i64) -> Result<Vec<FeedbackRow>, StoreError>;
    /// How many entries of `kind` `client` wrote after `since` (the limits per browser).
    fn count_feedback(&self, client: &str, kind: &str, since: i64) -> Result<usize, StoreError>;
    /// Deletes an entry written by `client`; returns whether one was deleted.
    fn delete_feedback(&self, id: i64, client: &str) -> Result<bool, StoreError>;
    /// Sets the status of an entry; returns whether it exists.
    fn set_feedback_status(&self, id: i64, status: &str) -> Result<bool, StoreError>;
    /// Retention: deletes feedback and `played` rows older than `before`. Returns the rows
    /// deleted.
    fn sweep_feedback(&self, before: i64) -> Result<usize, StoreError>;
}
