//! The retention job (docs/storage.md): rooms never started are deleted 7 days after their last
//! activity, finished games 30 days after they end (a room with its last game, an earlier game of
//! a room on its own), and a game with no move for 45 days ends as
//! abandoned (no result) and is then deleted 30 days later. The durations come from
//! [`crate::config::Retention`].

use std::sync::Arc;
use std::time::Duration;

use crate::config::Retention;
use crate::error::AppError;
use crate::rooms::{blocking, now_ms, Rooms};
use crate::store::{Cutoffs, Store};

/// Runs [`sweep`] forever at the configured interval.
pub async fn run(rooms: Arc<Rooms>, store: Arc<dyn Store>, retention: Retention) {
    let mut tick = tokio::time::interval(retention.sweep_every.max(Duration::from_millis(10)));
    loop {
        tick.tick().await;
        match sweep(&rooms, &store, &retention).await {
            Ok((deleted, abandoned)) if deleted + abandoned > 0 => {
                tracing::info!("retention: {deleted} rooms deleted, {abandoned} games abandoned");
            }
            Ok(_) => {}
            Err(err) => tracing::error!("retention sweep failed: {err}"),
        }
    }
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
    blocking(move || {
        store.sweep_feedback(before)?;
        store.sweep_push(finished_before)?;
        store.scrub()
    })
    .await?;
    Ok((due.delete.len(), due.abandon.len()))
}
