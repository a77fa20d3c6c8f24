//! The analyses of finished games (« Analyser », docs/protocol.md "Analysis"): one per game of a
//! room, stored with the game (deleted with it, by retention or with its room) so that a second
//! visit shows it at once. The analysis itself is JSON the store does not read
//! (`dames_room::analysis::GameAnalysis`).

use crate::error::StoreError;

/// The storage of game analyses.
pub trait AnalysisStore: Send + Sync + 'static {
    /// Stores (replaces) the analysis of game `game_no` of room `code`, made at `at`. Returns
    /// `false`, storing nothing, if the room has no such game (deleted meanwhile).
    fn save_analysis(
        &self,
        code: &str,
        game_no: i64,
        analysis: &str,
        at: i64,
    ) -> Result<bool, StoreError>;
    /// The stored analysis of game `game_no` of room `code`, if any.
    fn analysis(&self, code: &str, game_no: i64) -> Result<Option<String>, StoreError>;
}
