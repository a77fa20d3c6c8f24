//! Preset phrases (dames_room::phrase, docs/protocol.md "Phrases"): a seated person's phrase is
//! broadcast to the room's connections as a `phrase` message — memory only, like presence: no
//! version, no event, nothing stored — and, with a cluster, to the connections of the other
//! nodes through the fan-out channel. Each seat's budget (3 in 10 s, 10 a minute) is kept by
//! the node its connection is on.

use std::sync::Arc;

use super::fanout::Note;
use super::{now_ms, RoomCell, Rooms};
use crate::error::AppError;
use dames_room::phrase::Phrase;

impl Rooms {
    /// `seat` says `phrase` in room `code` (held in `cell`): counted in the seat's budget, then
    /// sent to every connection of the room here and on the other nodes.
    ///
    /// # Errors
    /// `rate_limited` (with the seconds to wait) beyond the seat's budget.
    pub fn say(
        &self,
        cell: &Arc<RoomCell>,
        code: &str,
        seat: usize,
        phrase: Phrase,
    ) -> Result<(), AppError> {
        {
            let mut budgets = cell.phrases.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(ms) = budgets.entry(seat).or_default().take(now_ms()) {
                let secs = u64::try_from(ms).unwrap_or(0).div_ceil(1000).max(1);
                return Err(AppError::RateLimited(secs));
            }
        }
        cell.hear(seat, phrase);
        if let Some(cluster) = self.cluster.get() {
            self.share_phrase(cluster.node(), code, seat, phrase);
        }
        Ok(())
    }

    /// Tells the other nodes that `seat` of room `code` said `phrase`.
    fn share_phrase(&self, node: &str, code: &str, seat: usize, phrase: Phrase) {
        let note = Note {
            code: code.to_owned(),
            version: 0,
            node: node.to_owned(),
            deleted: false,
            presence: false,
            phrase: Some((seat, phrase)),
            delta: None,
        };
        if let Ok(payload) = serde_json::to_string(&note) {
            self.send_note(code, payload);
        }
    }
}
