//! Game records and files (docs/protocol.md, "Game records"): a room's game to look at again
//! (`GET /api/rooms/{code}/record`), to download as PDN or in the Chinese checkers text format
//! (`GET /api/rooms/{code}/download`), and draughts positions read from PDN or FEN to start a
//! room from (`POST /api/draughts/position`).

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use super::rooms::lookup;
use super::{Caller, JsonBody};
use crate::error::AppError;
use crate::game::GameKind;
use crate::position::{self, Imported};
use crate::record::{self, GameRecord};
use crate::rooms::{blocking, now_ms, RoomCell};
use crate::state::AppState;

/// The routes of records, files and imports.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/rooms/{code}/record", get(show_record))
        .route("/rooms/{code}/download", get(download))
        .route("/draughts/position", post(read_position))
}

/// The record of the room's current (or last) game and the engine's state after it. The room
/// stays locked while its log is read, so the two agree.
async fn record_of(
    state: &AppState,
    cell: &RoomCell,
) -> Result<(GameRecord, crate::game::GameState), AppError> {
    let room = cell.room.lock().await;
    if room.play.is_none() {
        return Err(AppError::WrongState("the game has not started".into()));
    }
    let store = state.rooms.store().clone();
    let code = room.code.clone();
    let stored = blocking(move || store.load(&code))
        .await?
        .ok_or(AppError::UnknownRoom)?;
    room.record(&stored.actions)
        .map_err(|e| AppError::internal(&format!("record of room {}", room.code), e))
}

async fn show_record(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
) -> Result<Json<GameRecord>, AppError> {
    let cell = lookup(&state, &caller, &code).await?;
    Ok(Json(record_of(&state, &cell).await?.0))
}

async fn download(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
) -> Result<Response, AppError> {
    let cell = lookup(&state, &caller, &code).await?;
    let (record, game) = record_of(&state, &cell).await?;
    let site = state.origin(caller.headers());
    let now = now_ms();
    let (text, content_type, name) = match record.game {
        GameKind::Draughts => (
            record::pdn(&record, &game, &site, now),
            "application/x-draughts-pdn; charset=utf-8",
            format!("dames-{}-{}.pdn", record.code, record.game_no),
        ),
        GameKind::Cc => (
            record::cc_text(&record, &site, now),
            "text/plain; charset=utf-8",
            format!("dames-chinoises-{}-{}.txt", record.code, record.game_no),
        ),
    };
    let text = text.ok_or(AppError::Internal)?;
    let headers = [
        (header::CONTENT_TYPE, content_type.to_owned()),
        (
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{name}\""),
        ),
        (header::CACHE_CONTROL, "no-store".to_owned()),
    ];
    Ok((headers, text).into_response())
}

/// `{"text": "<PDN or FEN>", "variant"?: "international"|"brazilian"|"canadian"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionBody {
    text: String,
    #[serde(default)]
    variant: Option<draughts::Variant>,
}

async fn read_position(JsonBody(body): JsonBody<PositionBody>) -> Result<Json<Imported>, AppError> {
    let variant = body.variant.unwrap_or_default();
    position::import(&body.text, variant)
        .map(Json)
        .map_err(AppError::InvalidPosition)
}
