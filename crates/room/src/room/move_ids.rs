//! The client ids of the moves applied in a room ([`MoveIds`]): a move sent again with an id
//! already applied is acknowledged, not played twice (docs/protocol.md, "at most once").
//!
//! A change is made on a copy of the room (the server's `Rooms::mutate`), so the set is copied
//! with every move. The ids of the earlier games, the bulk of a long-lived room's, never change
//! again: they are shared between the copies behind an `Arc`, and a copy costs the current
//! game's ids only, each an `Arc<str>` (a count, not a string, to copy).

use std::collections::HashSet;
use std::sync::Arc;

/// A set of move ids, cheap to copy.
#[derive(Clone, Debug, Default)]
pub struct MoveIds {
    /// The ids of the games before the current one.
    earlier: Arc<HashSet<Arc<str>>>,
    /// The ids of the current game, in the order applied.
    current: Vec<Arc<str>>,
}

impl MoveIds {
    /// Whether `id` was applied.
    pub fn contains(&self, id: &str) -> bool {
        self.earlier.contains(id) || self.current.iter().any(|c| &**c == id)
    }

    /// Records `id` as applied (an id already there is not counted twice).
    pub fn insert(&mut self, id: &str) {
        if !self.contains(id) {
            self.current.push(id.into());
        }
    }

    /// A new game begins: the current ids join the earlier ones (one copy of those a game).
    pub fn new_game(&mut self) {
        if !self.current.is_empty() {
            Arc::make_mut(&mut self.earlier).extend(self.current.drain(..));
        }
    }

    /// How many ids.
    pub fn len(&self) -> usize {
        self.earlier.len() + self.current.len()
    }

    /// Whether no id was applied.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<S: AsRef<str>> FromIterator<S> for MoveIds {
    fn from_iter<I: IntoIterator<Item = S>>(ids: I) -> Self {
        MoveIds {
            earlier: Arc::new(ids.into_iter().map(|id| id.as_ref().into()).collect()),
            current: Vec::new(),
        }
    }
}

/// The same ids, whichever game they came with.
impl PartialEq for MoveIds {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self.earlier.iter().all(|id| other.contains(id))
            && self.current.iter().all(|id| other.contains(id))
    }
}

impl Eq for MoveIds {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_found_in_the_current_game_and_after_a_new_one() {
        let mut ids = MoveIds::default();
        assert!(!ids.contains("m1"));
        ids.insert("m1");
        ids.insert("m1");
        assert!(ids.contains("m1") && ids.len() == 1);
        ids.new_game();
        assert!(ids.contains("m1"));
        ids.insert("m2");
        assert!(ids.contains("m2") && ids.len() == 2);
        ids.insert("m1");
        assert_eq!(ids.len(), 2);
    }

    #[test]
    fn copies_share_the_earlier_games_and_stay_apart() {
        let mut room = MoveIds::from_iter(["a", "b"]);
        let mut copy = room.clone();
        assert!(Arc::ptr_eq(&room.earlier, &copy.earlier));
        copy.insert("c");
        assert!(copy.contains("c") && !room.contains("c"));
        copy.new_game();
        assert!(!Arc::ptr_eq(&room.earlier, &copy.earlier));
        assert!(!room.contains("c"));
        room.insert("c");
        // Equal as sets, whether "c" came with an earlier game or with the current one.
        assert_eq!(room, copy);
        room.insert("d");
        assert_ne!(room, copy);
    }
}
