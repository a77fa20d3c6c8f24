//! The stored versions of the rooms held here, asked for together. In a cluster every
//! connection and request for a room held here first reads the room's version in the store
//! (`fanout`, [`Rooms::get_fresh`]), and a deploy sends the hundreds of players of the node it
//! restarts to the others within a few hundred milliseconds. One blocking store call each made
//! them queue for threads and for the database's connections: 50–350 ms a lookup, a median of
//! 0.6 s for a player to come back (docs/cluster.md, "Faults"). So the codes asked for while a
//! query is out wait for it to end and go together in the next one, as the commits of many
//! rooms share one transaction (`commit`): a wave of connections costs a few queries.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use super::{blocking, Rooms};

/// What a query answers each asker: the room's stored version (`None`: not stored), or
/// `Err` when the store could not be read (the query's error is logged once).
type Answer = Result<Option<i64>, ()>;

/// The codes waiting for the next query, and whether a query is out.
#[derive(Default)]
pub(super) struct Asked {
    waiting: Mutex<Wave>,
}

#[derive(Default)]
struct Wave {
    askers: Vec<(String, oneshot::Sender<Answer>)>,
    /// A task is querying: it takes the askers that came meanwhile when its query ends.
    querying: bool,
}

impl Asked {
    fn wave(&self) -> std::sync::MutexGuard<'_, Wave> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Codes at most in one query (the sweep's chunk too).
pub(super) const QUERY_CHUNK: usize = 1000;

impl Rooms {
    /// The version of `code` in the store (`None`: not stored), read in one query with the other
    /// codes asked for meanwhile.
    ///
    /// # Errors
    /// The store could not be read.
    pub(super) async fn stored_version(self: &Arc<Self>, code: &str) -> Answer {
        let (tx, rx) = oneshot::channel();
        let start = {
            let mut wave = self.asked.wave();
            wave.askers.push((code.to_owned(), tx));
            !std::mem::replace(&mut wave.querying, true)
        };
        if start {
            tokio::spawn(self.clone().query_waves());
        }
        rx.await.unwrap_or(Err(()))
    }

    /// Answers the waiting askers, one query per wave, until no one waits.
    async fn query_waves(self: Arc<Self>) {
        loop {
            let askers = {
                let mut wave = self.asked.wave();
                if wave.askers.is_empty() {
                    wave.querying = false;
                    return;
                }
                std::mem::take(&mut wave.askers)
            };
            let mut codes: Vec<String> = askers.iter().map(|(code, _)| code.clone()).collect();
            codes.sort_unstable();
            codes.dedup();
            let store = self.store.clone();
            let found = blocking(move || {
                let mut found = HashMap::with_capacity(codes.len());
                for chunk in codes.chunks(QUERY_CHUNK) {
                    found.extend(store.versions(chunk)?);
                }
                Ok(found)
            })
            .await;
            if let Err(err) = &found {
                tracing::warn!(
                    "the versions of {} rooms cannot be read: {err}",
                    askers.len()
                );
            }
            for (code, tx) in askers {
                let answer = match &found {
                    Ok(found) => Ok(found.get(&code).copied()),
                    Err(_) => Err(()),
                };
                let _ = tx.send(answer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use dames_store::MemoryStore;

    use super::*;
    use crate::live::tests::new_room;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_codes_asked_while_a_query_is_out_go_together_in_the_next() {
        let store = Arc::new(MemoryStore::default());
        let rooms = Rooms::new(store.clone(), 1);
        let mut held = Vec::new();
        for _ in 0..3 {
            let (cell, ()) = rooms.create(new_room).await.unwrap();
            let room = cell.room.lock().await;
            held.push((room.code.clone(), room.version));
        }
        // As if a query were out: the asks wait for its end.
        rooms.asked.wave().querying = true;
        let asks: Vec<_> = (0..300)
            .map(|i| {
                let (rooms, (code, version)) = (rooms.clone(), held[i % 3].clone());
                tokio::spawn(async move { (rooms.stored_version(&code).await, version) })
            })
            .collect();
        while rooms.asked.wave().askers.len() < 300 {
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        assert_eq!(store.version_queries(), 0);
        // The query ends: the next one takes all 300 codes (3 rooms) at once.
        tokio::spawn(rooms.clone().query_waves());
        for ask in asks {
            let (answer, version) = ask.await.unwrap();
            assert_eq!(answer, Ok(Some(version)));
        }
        assert_eq!(store.version_queries(), 1);
        assert!(!rooms.asked.wave().querying);
        // Alone, an ask starts its own query; a room never stored has no version.
        assert_eq!(rooms.stored_version("ZZZZZZ").await, Ok(None));
        assert_eq!(store.version_queries(), 2);
    }
}
