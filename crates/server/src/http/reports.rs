//! « Signaler » (issue 20, docs/protocol.md "Reports"): anyone on a room's page may report a
//! person seated there, choosing one of the preset [`REASONS`] (no free text to the other
//! players; a short optional note goes to the operator only). The report is stored in the
//! reviews and requests store as feedback of kind `report`, with the room's code, the seat and
//! its name, and the current game's record, never listed publicly (`GET /api/feedback` leaves
//! reports out): the operator reads them in the `feedback` table (docs/operations.md).
//!
//! Limited: [`PER_CLIENT_HOUR`] reports per browser an hour, and the per-address limit of
//! reviews and requests (crate::ratelimit `feedback`).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::rooms::{lookup, seat_in};
use super::{Caller, JsonBody};
use crate::error::AppError;
use crate::live::{blocking, now_ms};
use crate::ratelimit::Action as Limit;
use crate::state::AppState;
use dames_room::room::Occupant;
use dames_store::{FeedbackRow, FeedbackStore};

/// The reasons a report may give.
pub const REASONS: [&str; 5] = ["name", "stalling", "leaving", "cheating", "other"];
/// Longest note to the operator, in characters.
pub const MAX_NOTE: usize = 300;
/// Reports one browser may file an hour.
pub const PER_CLIENT_HOUR: usize = 5;

/// The route of reports.
pub fn router() -> Router<AppState> {
    Router::new().route("/rooms/{code}/reports", post(report))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    /// The seat of the person reported.
    seat: usize,
    /// One of [`REASONS`].
    reason: String,
    /// To the operator only.
    #[serde(default)]
    note: Option<String>,
}

/// The note to the operator: plain text (dames_room::names), at most [`MAX_NOTE`] characters.
fn valid_note(note: Option<&str>) -> Result<Option<String>, AppError> {
    let Some(note) = note else {
        return Ok(None);
    };
    let note =
        dames_room::names::text(note).map_err(|why| AppError::Invalid(format!("note: {why}")))?;
    if note.chars().count() > MAX_NOTE {
        return Err(AppError::Invalid(format!(
            "note: at most {MAX_NOTE} characters"
        )));
    }
    Ok((!note.is_empty()).then_some(note))
}

/// `POST /api/rooms/{code}/reports`: files the report; `201 {"reported": true}`.
async fn report(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
    JsonBody(input): JsonBody<Input>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    if !REASONS.contains(&input.reason.as_str()) {
        return Err(AppError::Invalid(format!(
            "reason: one of {}",
            REASONS.join(", ")
        )));
    }
    let note = valid_note(input.note.as_deref())?;
    let cell = lookup(&state, &caller, &code).await?;
    let (code, game, by, name) = {
        let room = cell.room.lock().await;
        let by = seat_in(&room, &caller)?;
        let name = match room.seats.get(input.seat).map(|s| &s.occupant) {
            Some(Occupant::Human { name, .. }) if by != Some(input.seat) => name.clone(),
            _ => {
                return Err(AppError::Invalid(
                    "seat: the seat of another person in this room".into(),
                ))
            }
        };
        (room.code.clone(), room.kind.as_str(), by, name)
    };
    let store: Arc<dyn FeedbackStore> = state.store.clone();
    let client = caller.client.clone();
    let now = now_ms();
    let recent = blocking({
        let (store, client) = (store.clone(), client.clone());
        move || store.count_feedback(&client, "report", now - 3_600_000)
    })
    .await?;
    if recent >= PER_CLIENT_HOUR {
        return Err(AppError::RateLimited(3600));
    }
    state.limiter.take_ip(Limit::Feedback, caller.ip).await?;
    let site = state.origin(caller.headers());
    let record = super::games::current_record_text(&state, &cell, &site).await?;
    let by = by.map_or_else(|| "a spectator".to_owned(), |s| format!("seat {s}"));
    let body = format!(
        "Report: {reason}\nRoom: {code} ({game})\nReported: seat {seat}, named {name:?}\nBy: {by}\n\
         Note: {note}\n\n{record}",
        reason = input.reason,
        seat = input.seat,
        note = note.as_deref().unwrap_or("-"),
        record = record.as_deref().unwrap_or("(no game started yet)"),
    );
    let row = FeedbackRow {
        id: 0,
        kind: "report".into(),
        game: Some(game.to_owned()),
        stars: None,
        body,
        name: None,
        status: "new".into(),
        client,
        created_at: now,
    };
    blocking(move || store.add_feedback(&row)).await?;
    Ok((StatusCode::CREATED, Json(json!({"reported": true}))))
}
