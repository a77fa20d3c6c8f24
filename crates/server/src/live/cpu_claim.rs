//! CPU turns in a cluster (docs/cluster.md, "CPU turns"): exactly one node thinks each one.
//!
//! A room waiting for a CPU is in the pending set `cpu-pending` (scored by the room's version,
//! so that a late "no longer waits" never removes a newer "waits"). The node that starts the
//! turn takes the room's lease `cpu:CODE` ([`Lease`]) and renews it while it thinks; a node
//! that cannot take it leaves the turn to its holder. Every node scans the pending set every
//! [`SCAN_EVERY`]: a pending room with no lease (its thinker died, or nobody started it) is
//! claimed, refreshed from the store and its CPU turn started there. With no cluster, none of
//! this runs.

use std::sync::{Arc, Weak};
use std::time::Duration;

use super::{RoomCell, Rooms};
use crate::cluster::lease::Lease;
use crate::cluster::{Cluster, ClusterError};
use crate::error::AppError;
use dames_room::room::Room;

/// How long a CPU turn's lease lasts unless renewed (a third of it between renewals).
pub const CPU_LEASE: Duration = Duration::from_millis(2_000);
/// How often each node looks for CPU turns nobody thinks.
pub const SCAN_EVERY: Duration = Duration::from_millis(500);

/// Removes room `code` from the pending set unless it was marked at a version after `version`.
const UNMARK: &str = r"
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and tonumber(s) <= tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0";

/// The lease of room `code`'s CPU turn.
pub fn lease(cluster: &Cluster, code: &str) -> Lease {
    Lease::new(cluster.key(&["cpu", code]), CPU_LEASE)
}

fn pending_key(cluster: &Cluster) -> String {
    cluster.key(&["cpu-pending"])
}

/// Records that room `code` waits for a CPU since `version`.
///
/// # Errors
/// If Redis does not answer.
pub async fn mark(cluster: &Cluster, code: &str, version: i64) -> Result<(), ClusterError> {
    let mut conn = cluster.conn();
    let _: i64 = redis::cmd("ZADD")
        .arg(pending_key(cluster))
        .arg("GT")
        .arg(version)
        .arg(code)
        .query_async(&mut conn)
        .await?;
    Ok(())
}

/// Records that room `code` no longer waits for a CPU as of `version` (a mark of a later
/// version stays).
///
/// # Errors
/// If Redis does not answer.
pub async fn unmark(cluster: &Cluster, code: &str, version: i64) -> Result<(), ClusterError> {
    let mut conn = cluster.conn();
    let _: i64 = redis::Script::new(UNMARK)
        .key(pending_key(cluster))
        .arg(code)
        .arg(version)
        .invoke_async(&mut conn)
        .await?;
    Ok(())
}

/// The rooms waiting for a CPU whose lease nobody holds.
///
/// # Errors
/// If Redis does not answer.
pub async fn unclaimed(cluster: &Cluster) -> Result<Vec<String>, ClusterError> {
    let mut conn = cluster.conn();
    let codes: Vec<String> = redis::cmd("ZRANGE")
        .arg(pending_key(cluster))
        .arg(0)
        .arg(-1)
        .query_async(&mut conn)
        .await?;
    if codes.is_empty() {
        return Ok(codes);
    }
    let keys: Vec<String> = codes
        .iter()
        .map(|c| lease(cluster, c).key().to_owned())
        .collect();
    let holders: Vec<Option<String>> = redis::cmd("MGET").arg(&keys).query_async(&mut conn).await?;
    Ok(codes
        .into_iter()
        .zip(holders)
        .filter_map(|(code, holder)| holder.is_none().then_some(code))
        .collect())
}

impl Rooms {
    /// After a change in a cluster: a room that no longer waits for a CPU leaves the pending
    /// set (in the background; a room that never had a CPU is not looked up at all).
    pub(super) fn unmark_cpu(&self, room: &Room) {
        let Some(cluster) = self.cluster().cloned() else {
            return;
        };
        if !room.has_cpu() {
            return;
        }
        let (code, version) = (room.code.clone(), room.version);
        tokio::spawn(async move {
            if let Err(err) = unmark(&cluster, &code, version).await {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("room {code}: CPU turn not unmarked: {err}");
            }
        });
    }

    /// Starts the scan for CPU turns nobody thinks (once, when joining a cluster).
    pub(super) fn start_cpu_scan(self: &Arc<Self>, cluster: Arc<Cluster>) {
        let rooms = Arc::downgrade(self);
        tokio::spawn(scan(rooms, cluster));
    }

    /// Takes over room `code`'s CPU turn if nobody holds its lease: whether this node took it.
    async fn claim_cpu(self: &Arc<Self>, cluster: &Cluster, code: &str) -> bool {
        let lease = lease(cluster, code);
        match lease.acquire(cluster).await {
            Ok(true) => {}
            Ok(false) => return false,
            Err(err) => {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("room {code}: CPU lease not taken: {err}");
                return false;
            }
        }
        let started = match self.get(code).await {
            Ok(cell) => self.refresh(&cell).await,
            Err(AppError::UnknownRoom) => false,
            Err(err) => {
                tracing::warn!("room {code}: not loaded for its CPU turn: {err}");
                let _ = lease.release(cluster).await;
                return false;
            }
        };
        if !started {
            // Nothing to think (the turn was played, the room is gone): forget it.
            let _ = unmark(cluster, code, i64::MAX).await;
            let _ = lease.release(cluster).await;
        }
        started
    }

    /// Brings a cached room up to the stored one and starts its CPU turn if it has one:
    /// whether a CPU turn is now being thought here.
    async fn refresh(self: &Arc<Self>, cell: &Arc<RoomCell>) -> bool {
        let mut guard = cell.room.lock().await;
        if let Some((events, room)) = self.reload(&mut guard).await {
            drop(guard);
            let room = if events.is_empty() {
                room
            } else {
                // Committed by another node: no push, no fan-out again from here.
                self.broadcast(cell, events, room, super::Origin::Elsewhere)
            };
            self.after_change(cell, &room);
        }
        cell.cpu_turn_running()
    }
}

/// Every [`SCAN_EVERY`] until the rooms are gone or closed: claims the CPU turns nobody holds.
async fn scan(rooms: Weak<Rooms>, cluster: Arc<Cluster>) {
    let mut tick = tokio::time::interval(SCAN_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(rooms) = rooms.upgrade() else {
            return;
        };
        if rooms.closed.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let codes = match unclaimed(&cluster).await {
            Ok(codes) => codes,
            Err(err) => {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("CPU turns not scanned: {err}");
                continue;
            }
        };
        for code in codes {
            if rooms.claim_cpu(&cluster, &code).await {
                tracing::info!("room {code}: CPU turn taken over");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::tests::{scratch_prefix, test_url};

    #[tokio::test]
    async fn a_late_unmark_never_removes_a_newer_mark() {
        let cluster = Cluster::connect(&test_url(), &scratch_prefix())
            .await
            .unwrap();
        mark(&cluster, "AAAAAA", 5).await.unwrap();
        mark(&cluster, "BBBBBB", 2).await.unwrap();
        assert_eq!(unclaimed(&cluster).await.unwrap(), ["BBBBBB", "AAAAAA"]);
        unmark(&cluster, "AAAAAA", 4).await.unwrap();
        mark(&cluster, "BBBBBB", 1).await.unwrap();
        unmark(&cluster, "BBBBBB", 2).await.unwrap();
        assert_eq!(unclaimed(&cluster).await.unwrap(), ["AAAAAA"]);
        // A held lease hides the room from the scan.
        assert!(lease(&cluster, "AAAAAA").acquire(&cluster).await.unwrap());
        assert!(unclaimed(&cluster).await.unwrap().is_empty());
        lease(&cluster, "AAAAAA").release(&cluster).await.unwrap();
        unmark(&cluster, "AAAAAA", 5).await.unwrap();
        assert!(unclaimed(&cluster).await.unwrap().is_empty());
    }
}
