//! The retention job (docs/storage.md): rooms never started are deleted 7 days after their last
//! activity, finished games 30 days after they end (a room with its last game, an earlier game of
//! a room on its own), and a game with no move for 45 days ends as
//! abandoned (no result) and is then deleted 30 days later. The durations come from
//! [`crate::options::Retention`].
//!
//! In a cluster, each sweep runs on one node at a time: the node holding the `retention` lease
//! in Redis (docs/cluster.md, "Retention"); a node that cannot take it skips that sweep.

use std::sync::Arc;
use std::time::Duration;

use crate::cluster::lease::Lease;
use crate::cluster::Cluster;
use crate::error::AppError;
use crate::live::{blocking, now_ms, Rooms};
use crate::options::Retention;
use dames_store::{Cutoffs, Store};

/// How long the retention lease lasts unless renewed (renewed during a long sweep).
const LEASE: Duration = Duration::from_secs(10);

/// Runs [`sweep`] forever at the configured interval (in a cluster, when no other node sweeps).
pub async fn run(rooms: Arc<Rooms>, store: Arc<dyn Store>, retention: Retention) {
    let mut tick = tokio::time::interval(retention.sweep_every.max(Duration::from_millis(10)));
    loop {
        tick.tick().await;
        let swept = alone(rooms.cluster(), || sweep(&rooms, &store, &retention)).await;
        match swept {
            Some(Ok((deleted, abandoned))) if deleted + abandoned > 0 => {
                tracing::info!("retention: {deleted} rooms deleted, {abandoned} games abandoned");
            }
            Some(Ok(_)) | None => {}
            Some(Err(err)) => tracing::error!("retention sweep failed: {err}"),
        }
    }
}

/// Runs `work` if no other node of `cluster` runs it now (holding the `retention` lease while
/// it runs); with no cluster, runs it. `None` if another node holds the lease. If Redis does not
/// answer, the work runs anyway: a sweep twice at once deletes nothing twice (each deletion and
/// each abandonment is a checked change of its own).
async fn alone<T, F: std::future::Future<Output = T>>(
    cluster: Option<&Arc<Cluster>>,
    work: impl FnOnce() -> F,
) -> Option<T> {
    let Some(cluster) = cluster else {
        return Some(work().await);
    };
    let lease = Lease::new(cluster.key(&["retention"]), LEASE);
    match lease.acquire(cluster).await {
        Ok(true) => {}
        Ok(false) => return None,
        Err(err) => tracing::warn!("retention lease not taken ({err}): sweeping anyway"),
    }
    let keep = lease.keep(cluster.clone(), || {});
    let out = work().await;
    drop(keep);
    if let Err(err) = lease.release(cluster).await {
        tracing::warn!("retention lease not released: {err}");
    }
    Some(out)
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

async fn abandon(rooms: &Arc<Rooms>, code: &str) -> Result<(), AppError> {
    let cell = rooms.get(code).await?;
    rooms
        .mutate(&cell, |room, ch, now| {
            room.abandon(now, ch);
            Ok(())
        })
        .await
}

/// One pass: abandons idle games and deletes expired rooms. Returns (deleted, abandoned).
///
/// # Errors
/// If the store fails.
pub async fn sweep(
    rooms: &Arc<Rooms>,
    extras: &Arc<dyn Store>,
    r: &Retention,
) -> Result<(usize, usize), AppError> {
    let now = now_ms();
    let cutoffs = Cutoffs {
        lobby_active_before: now.saturating_sub(ms(r.lobby)),
        finished_before: now.saturating_sub(ms(r.finished)),
        idle_before: now.saturating_sub(ms(r.idle)),
    };
    let store = rooms.store().clone();
    let due = blocking(move || store.due(cutoffs)).await?;
    for code in &due.abandon {
        if let Err(err) = abandon(rooms, code).await {
            // A game that cannot even be rebuilt is deleted rather than kept forever.
            tracing::error!("retention: room {code} cannot be abandoned ({err}): deleting it");
            rooms.delete(code).await?;
        }
    }
    for code in &due.delete {
        rooms.delete(code).await?;
    }
    // Earlier games of rooms that went on to a rematch: kept as long as a finished room.
    let store = rooms.store().clone();
    let old = blocking(move || store.delete_old_games(cutoffs.finished_before)).await?;
    if old > 0 {
        tracing::info!("retention: {old} earlier games deleted");
    }
    // Reviews, requests, "has finished a game" records; subscriptions of finished games.
    let store = extras.clone();
    let before = now.saturating_sub(ms(r.feedback));
    let finished_before = now.saturating_sub(60_000);
    // Games left count for a day in the pools (crate::pools, LEAVE_WINDOW_MS).
    let leaves_before = now.saturating_sub(crate::pools::LEAVE_WINDOW_MS);
    blocking(move || {
        store.sweep_feedback(before)?;
        store.sweep_push(finished_before)?;
        store.sweep_leaves(leaves_before)?;
        store.scrub()
    })
    .await?;
    Ok((due.delete.len(), due.abandon.len()))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::cluster::tests::{scratch_prefix, test_url};

    #[tokio::test]
    async fn two_nodes_sweeping_often_never_sweep_at_once() {
        let prefix = scratch_prefix();
        let inside = Arc::new(AtomicUsize::new(0));
        let mut nodes = Vec::new();
        for _ in 0..2 {
            let cluster = Arc::new(Cluster::connect(&test_url(), &prefix).await.unwrap());
            let inside = inside.clone();
            nodes.push(tokio::spawn(async move {
                let (mut swept, mut skipped) = (0, 0);
                let until = tokio::time::Instant::now() + Duration::from_millis(1_500);
                while tokio::time::Instant::now() < until {
                    let ran = alone(Some(&cluster), || async {
                        assert_eq!(
                            inside.fetch_add(1, Ordering::SeqCst),
                            0,
                            "two sweeps at once"
                        );
                        tokio::time::sleep(Duration::from_millis(30)).await;
                        inside.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await;
                    match ran {
                        Some(()) => swept += 1,
                        None => skipped += 1,
                    }
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                (swept, skipped)
            }));
        }
        let mut skipped = 0;
        for node in nodes {
            let (s, k) = node.await.unwrap();
            assert!(s > 0, "a node never swept");
            skipped += k;
        }
        assert!(skipped > 0, "the nodes never met");
        // With no cluster, the work just runs.
        assert_eq!(alone(None, || async { 7 }).await, Some(7));
    }
}
