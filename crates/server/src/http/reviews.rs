//! Reviews and requests (seed 000, docs/protocol.md "Reviews and requests"): a browser that
//! finished a game of a kind may rate it (1–5) and review it; anyone may send a request, report a
//! problem or propose a rule setting; everything is public with its status. Plain text only: the
//! server never renders HTML, the client shows it with `textContent`.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, get};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{Caller, JsonBody};
use crate::error::AppError;
use crate::live::{blocking, now_ms};
use crate::ratelimit::Action as Limit;
use crate::state::AppState;
use dames_room::room::valid_name;
use dames_store::{FeedbackRow, FeedbackStore};

/// Longest text of a review or request, in characters.
pub const MAX_TEXT: usize = 2000;
/// Entries listed at most.
const LIST: i64 = 200;
/// Entries one browser may write per hour.
pub const PER_CLIENT_HOUR: usize = 5;

/// The routes under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/feedback", get(list).post(add))
        .route("/feedback/{id}", delete(remove))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    /// `review`, `request`, `problem`, `rule`.
    kind: String,
    /// `cc` or `draughts` (required for a review).
    game: Option<String>,
    /// 1–5, reviews only.
    stars: Option<i64>,
    text: String,
    name: Option<String>,
}

fn view(row: &FeedbackRow, client: &str) -> Value {
    json!({
        "id": row.id,
        "kind": row.kind,
        "game": row.game,
        "stars": row.stars,
        "text": row.body,
        "name": row.name,
        "status": row.status,
        "created_at": row.created_at,
        "mine": row.client == client,
    })
}

/// Every entry, newest first, and what this browser may review.
async fn list(State(state): State<AppState>, caller: Caller) -> Result<Json<Value>, AppError> {
    let store: Arc<dyn FeedbackStore> = state.store.clone();
    let client = caller.client.clone();
    let (rows, cc, draughts) = blocking(move || {
        Ok((
            store.feedback(LIST)?,
            store.has_played(&client, "cc")?,
            store.has_played(&client, "draughts")?,
        ))
    })
    .await?;
    let entries: Vec<Value> = rows.iter().map(|r| view(r, &caller.client)).collect();
    Ok(Json(
        json!({"entries": entries, "can_review": {"cc": cc, "draughts": draughts}}),
    ))
}

/// Checks the text: NFC, trimmed, 1–[`MAX_TEXT`] characters, no control characters but newlines
/// and tabs, nothing invisible (dames_room::names).
fn valid_text(text: &str) -> Result<String, AppError> {
    let text =
        dames_room::names::text(text).map_err(|why| AppError::Invalid(format!("text: {why}")))?;
    let len = text.chars().count();
    if len == 0 || len > MAX_TEXT {
        return Err(AppError::Invalid(format!(
            "text: 1 to {MAX_TEXT} characters"
        )));
    }
    Ok(text)
}

/// Adds a review or request.
async fn add(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(input): JsonBody<Input>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let kind = input.kind.as_str();
    if !matches!(kind, "review" | "request" | "problem" | "rule") {
        return Err(AppError::Invalid(
            "kind: review, request, problem or rule".into(),
        ));
    }
    let game = match input.game.as_deref() {
        None => None,
        Some(g @ ("cc" | "draughts")) => Some(g.to_owned()),
        Some(_) => return Err(AppError::Invalid("game: cc or draughts".into())),
    };
    let stars = match (kind, input.stars) {
        ("review", Some(s @ 1..=5)) => Some(s),
        ("review", _) => return Err(AppError::Invalid("stars: 1 to 5".into())),
        (_, None) => None,
        (_, Some(_)) => return Err(AppError::Invalid("stars: only for a review".into())),
    };
    if kind == "review" && game.is_none() {
        return Err(AppError::Invalid("game: which game is reviewed".into()));
    }
    let body = valid_text(&input.text)?;
    let name = match input.name.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(n) => Some(valid_name(n)?),
    };
    let limits = state.config.limits.enabled;
    let store: Arc<dyn FeedbackStore> = state.store.clone();
    let client = caller.client.clone();
    let now = now_ms();
    let check_game = (kind == "review").then(|| game.clone()).flatten();
    let (played, recent) = blocking({
        let store = store.clone();
        let client = client.clone();
        move || {
            let played = match &check_game {
                Some(g) => store.has_played(&client, g)?,
                None => true,
            };
            let recent = store
                .feedback(LIST)?
                .iter()
                .filter(|r| r.client == client && r.created_at > now - 3_600_000)
                .count();
            Ok((played, recent))
        }
    })
    .await?;
    if !played {
        return Err(AppError::NotPlayed);
    }
    if limits && recent >= PER_CLIENT_HOUR {
        return Err(AppError::RateLimited(3600));
    }
    // Several browsers behind one address ([`crate::ratelimit::Action::Feedback`]).
    state.limiter.take_ip(Limit::Feedback, caller.ip).await?;
    let mut row = FeedbackRow {
        id: 0,
        kind: kind.to_owned(),
        game,
        stars,
        body,
        name,
        status: "new".into(),
        client,
        created_at: now,
    };
    let to_store = row.clone();
    row.id = blocking(move || store.add_feedback(&to_store)).await?;
    Ok((StatusCode::CREATED, Json(view(&row, &caller.client))))
}

/// Deletes an entry of the caller's.
async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<i64>,
) -> Result<Json<Value>, AppError> {
    let store: Arc<dyn FeedbackStore> = state.store.clone();
    let client = caller.client.clone();
    if blocking(move || store.delete_feedback(id, &client)).await? {
        Ok(Json(json!({"ok": true})))
    } else {
        Err(AppError::NotFound)
    }
}
