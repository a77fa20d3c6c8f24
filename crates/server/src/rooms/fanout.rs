//! Fan-out between the nodes of a cluster (docs/cluster.md): after each change committed here
//! (and each deletion), this node publishes `{code, version, node}` on one Redis channel; every
//! node listens to it and, for a room it holds whose version it has not reached, reloads the
//! room from the store and gives the missed events to its connections and observers
//! ([`Origin::Elsewhere`]). The database stays the only truth: a lost message only delays a
//! catch-up until the next one (or the next change, which conflicts and reloads); on
//! (re)subscribing, every room held is checked against the store.
//!
//! With no cluster, nothing of this runs: no task, no message, no allocation per change.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use super::{Origin, RoomCell, Rooms};

/// One message on the channel.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Note {
    pub(super) code: String,
    /// The room's version after the change.
    pub(super) version: i64,
    /// The node that committed it (its own messages come back to it: ignored).
    pub(super) node: String,
    /// The room was deleted (retention).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(super) deleted: bool,
    /// A seat's presence on that node flipped (`presence_cluster`; `version` unused).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(super) presence: bool,
}

/// The longest wait between two attempts to subscribe again after Redis dropped.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

impl Rooms {
    /// Tells the other nodes that `code` reached `version` here (or was deleted). Does not wait:
    /// the message is sent by a task. Nothing without a cluster.
    pub(super) fn announce(&self, code: &str, version: i64, deleted: bool) {
        let Some(cluster) = self.cluster.get() else {
            return;
        };
        let note = Note {
            code: code.to_owned(),
            version,
            node: cluster.node().to_owned(),
            deleted,
            presence: false,
        };
        let Ok(payload) = serde_json::to_string(&note) else {
            return;
        };
        let channel = cluster.key(&["rooms"]);
        let mut conn = cluster.conn();
        tokio::spawn(async move {
            let sent: Result<i64, _> = redis::cmd("PUBLISH")
                .arg(&channel)
                .arg(&payload)
                .query_async(&mut conn)
                .await;
            if let Err(err) = sent {
                // The others catch up at their next change of the room (a conflict) or when
                // they subscribe again.
                tracing::warn!("fan-out of room {}: {err}", note.code);
            }
        });
    }

    /// Starts listening to the other nodes (once, at start, after [`Rooms::join_cluster`]).
    pub fn start_fanout(self: &Arc<Self>) {
        if self.cluster.get().is_none() {
            return;
        }
        tokio::spawn(self.clone().listen());
        tokio::spawn(self.clone().heartbeat());
    }

    /// Subscribes, and subscribes again with a growing pause whenever Redis drops.
    async fn listen(self: Arc<Self>) {
        let mut backoff = Duration::from_millis(100);
        while !self.closed.load(Ordering::SeqCst) {
            match self.subscribe_once().await {
                Ok(()) => {
                    tracing::warn!("fan-out: the subscription ended; subscribing again");
                    backoff = Duration::from_millis(100);
                }
                Err(err) => {
                    tracing::warn!("fan-out: cannot subscribe ({err}); again in {backoff:?}");
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
            tokio::time::sleep(backoff).await;
        }
    }

    /// One subscription, until its connection ends.
    async fn subscribe_once(self: &Arc<Self>) -> Result<(), redis::RedisError> {
        let Some(cluster) = self.cluster.get().cloned() else {
            return Ok(());
        };
        let mut pubsub = cluster.client().get_async_pubsub().await?;
        pubsub.subscribe(cluster.key(&["rooms"])).await?;
        // Messages may have been missed while not subscribed: every room held is checked.
        self.clone().check_all();
        let mut messages = pubsub.into_on_message();
        while let Some(msg) = messages.next().await {
            let Ok(note) = serde_json::from_slice::<Note>(msg.get_payload_bytes()) else {
                continue;
            };
            if note.node == cluster.node() {
                continue;
            }
            // Rooms not held here are loaded from the store when first asked for.
            let Some(cell) = self.cells().get(&note.code).cloned() else {
                continue;
            };
            if note.presence {
                tokio::spawn(self.clone().recompute_presence(cell, note.code));
            } else if note.deleted {
                self.forget(&note.code, &cell).await;
            } else {
                tokio::spawn(self.clone().catch_up(cell, Some(note.version)));
            }
        }
        Ok(())
    }

    /// Checks every room held here against the store, one after the other, in a task.
    pub(super) fn check_all(self: Arc<Self>) {
        let held: Vec<Arc<RoomCell>> = self.cells().values().cloned().collect();
        if held.is_empty() {
            return;
        }
        tokio::spawn(async move {
            for cell in held {
                self.clone().catch_up(cell, None).await;
            }
        });
    }

    /// Brings a room held here up to the store's (if it is not at `version` yet; `None`: check)
    /// and gives the missed events to its connections and observers. No CPU turn is scheduled
    /// for a change made elsewhere.
    async fn catch_up(self: Arc<Self>, cell: Arc<RoomCell>, version: Option<i64>) {
        let mut guard = cell.room.lock().await;
        if cell.deleted.load(Ordering::Relaxed) || version.is_some_and(|v| guard.version >= v) {
            return;
        }
        if let Some((events, room)) = self.reload_from(&mut guard, true).await {
            drop(guard);
            self.broadcast(&cell, events, room, Origin::Elsewhere);
        }
    }

    /// A room deleted by another node: dropped here too, its connections told.
    async fn forget(&self, code: &str, cell: &Arc<RoomCell>) {
        let _guard = cell.room.lock().await;
        self.drop_deleted(code, cell);
    }
}
