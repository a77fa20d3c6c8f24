//! Game records and files (docs/protocol.md, "Game records"): every game of a room to look at
//! again (`GET /api/rooms/{code}/games`, `GET /api/rooms/{code}/games/{n}`; `…/record` is the
//! current one), to download as PDN or in the Chinese checkers text format
//! (`GET /api/rooms/{code}/games/{n}/download`; `…/download`: the current one), and draughts
//! positions read from PDN or FEN to start a room from (`POST /api/draughts/position`).

use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::rooms::lookup;
use super::{Caller, JsonBody};
use crate::error::{AppError, RoomError};
use crate::live::{blocking, now_ms, RoomCell};
use crate::state::AppState;
use dames_room::analysis::GameAnalysis;
use dames_room::game::{GameKind, GameState};
use dames_room::position::{self, Imported};
use dames_room::record::{self, GameRecord};
use dames_room::room::Status;

/// The routes of records, files and imports.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/rooms/{code}/record", get(show_current))
        .route("/rooms/{code}/download", get(download_current))
        .route("/rooms/{code}/games", get(list_games))
        .route("/rooms/{code}/games/{n}", get(show_game))
        .route("/rooms/{code}/games/{n}/download", get(download_game))
        .route("/draughts/position", post(read_position))
}

/// Which game of a room: its number, or the current (or last) one.
#[derive(Clone, Copy)]
pub(super) enum Which {
    Current,
    No(i64),
}

impl Which {
    /// From the `{n}` of a path: a game number (1, 2, …).
    pub(super) fn parse(n: &str) -> Result<Self, AppError> {
        match n.parse::<i64>() {
            Ok(v) if v >= 1 && n.bytes().all(|b| b.is_ascii_digit()) => Ok(Self::No(v)),
            _ => Err(AppError::UnknownGame),
        }
    }
}

/// The record of a game of the room and the engine's state after it, rebuilt from the store
/// (the game's row and its log are read together).
pub(super) async fn record_of(
    state: &AppState,
    cell: &RoomCell,
    which: Which,
) -> Result<(GameRecord, GameState), AppError> {
    let (code, kind, current, seats) = {
        let room = cell.room.lock().await;
        (
            room.code.clone(),
            room.kind,
            room.game_no,
            room.seat_views(),
        )
    };
    let n = match which {
        Which::Current if current == 0 => {
            return Err(AppError::Room(RoomError::WrongState(
                "the game has not started".into(),
            )))
        }
        Which::Current => current,
        Which::No(n) => n,
    };
    let store = state.rooms.store().clone();
    let key = code.clone();
    let (row, actions) = blocking(move || store.game(&key, n))
        .await?
        .ok_or(AppError::UnknownGame)?;
    record::build(&code, kind, &row, &actions, || seats)
        .map_err(|e| AppError::internal(&format!("record of game {n} of room {code}"), e))
}

async fn show_current(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
) -> Result<Json<GameRecord>, AppError> {
    let cell = lookup(&state, &caller, &code).await?;
    Ok(Json(record_of(&state, &cell, Which::Current).await?.0))
}

async fn show_game(
    State(state): State<AppState>,
    caller: Caller,
    Path((code, n)): Path<(String, String)>,
) -> Result<Json<GameRecord>, AppError> {
    let cell = lookup(&state, &caller, &code).await?;
    Ok(Json(record_of(&state, &cell, Which::parse(&n)?).await?.0))
}

/// One game of a room in its list.
#[derive(Serialize)]
struct GameItem {
    game_no: i64,
    status: Status,
    first_seat: i64,
    started_at: Option<i64>,
    finished_at: Option<i64>,
    outcome: Option<Value>,
}

/// The games of a page by default, and at most.
pub const GAMES_PAGE: usize = 50;
const GAMES_PAGE_MAX: usize = 100;

/// `?before=N&limit=K` of a paged list: the items below `N` (none: from the newest), at most
/// `K` (default [`GAMES_PAGE`], at most 100).
#[derive(Deserialize)]
pub struct Page {
    before: Option<String>,
    limit: Option<String>,
}

impl Page {
    /// `(before, limit)`, or `invalid_input` naming the parameter.
    pub fn read(&self) -> Result<(Option<i64>, usize), AppError> {
        let number = |name: &str, v: &Option<String>, max: i64| match v.as_deref() {
            None | Some("") => Ok(None),
            Some(v) => match v.parse::<i64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(Some(n)),
                _ => Err(AppError::Invalid(format!(
                    "{name} must be a whole number from 1 to {max}"
                ))),
            },
        };
        let before = number("before", &self.before, i64::MAX)?;
        let limit = number("limit", &self.limit, GAMES_PAGE_MAX as i64)?;
        Ok((before, limit.map_or(GAMES_PAGE, |n| n as usize)))
    }
}

/// A page of the room's games, newest first (`GET /api/rooms/{code}/games?before=N&limit=K`),
/// with `next_before`, the `before` of the next page (`null`: no older game is kept). A room
/// keeps its last `dames_store::GAMES_KEPT_PER_ROOM` games.
async fn list_games(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
    Query(page): Query<Page>,
) -> Result<Json<Value>, AppError> {
    let (before, limit) = page.read()?;
    let cell = lookup(&state, &caller, &code).await?;
    let (code, current) = {
        let room = cell.room.lock().await;
        (room.code.clone(), room.game_no)
    };
    let store = state.rooms.store().clone();
    let key = code.clone();
    // One more than asked for tells whether there is a next page.
    let mut rows = blocking(move || store.games(&key, before, limit + 1)).await?;
    let more = rows.len() > limit;
    rows.truncate(limit);
    let next_before = more.then(|| rows.last().map(|g| g.game_no)).flatten();
    let games: Vec<GameItem> = rows
        .into_iter()
        .map(|g| GameItem {
            game_no: g.game_no,
            status: if g.finished_at.is_some() {
                Status::Finished
            } else {
                Status::Playing
            },
            first_seat: g.first_seat,
            started_at: g.started_at,
            finished_at: g.finished_at,
            outcome: g.outcome.and_then(|o| serde_json::from_str(&o).ok()),
        })
        .collect();
    Ok(Json(json!({
        "code": code,
        "current": current,
        "games": games,
        "next_before": next_before,
    })))
}

async fn download_current(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
) -> Result<Response, AppError> {
    download(state, caller, code, Which::Current).await
}

async fn download_game(
    State(state): State<AppState>,
    caller: Caller,
    Path((code, n)): Path<(String, String)>,
) -> Result<Response, AppError> {
    let which = Which::parse(&n)?;
    download(state, caller, code, which).await
}

/// The game as a file: standard PDN for draughts, the text format of docs/notation.md for
/// Chinese checkers.
async fn download(
    state: AppState,
    caller: Caller,
    code: String,
    which: Which,
) -> Result<Response, AppError> {
    let cell = lookup(&state, &caller, &code).await?;
    let (record, game) = record_of(&state, &cell, which).await?;
    let site = state.origin(caller.headers());
    let now = now_ms();
    let (text, content_type, name) = match record.game {
        GameKind::Draughts => (
            record::pdn_analysed(
                &record,
                &game,
                &site,
                now,
                stored_analysis(&state, &record.code, record.game_no)
                    .await?
                    .as_ref(),
            ),
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

/// The stored analysis of game `game_no` of room `code` (« Analyser », crate::live::analysis),
/// if there is one in the current format.
///
/// # Errors
/// If the store cannot be read.
pub(super) async fn stored_analysis(
    state: &AppState,
    code: &str,
    game_no: i64,
) -> Result<Option<GameAnalysis>, AppError> {
    let store = state.store.clone();
    let code = code.to_owned();
    let text = blocking(move || store.analysis(&code, game_no)).await?;
    Ok(text.as_deref().and_then(GameAnalysis::from_json))
}

/// The current (or last) game of the room as the text of its file (PDN for draughts, the text
/// format of docs/notation.md for Chinese checkers); `None` before the first game.
///
/// # Errors
/// If the game's log cannot be read or rebuilt.
pub async fn current_record_text(
    state: &AppState,
    cell: &RoomCell,
    site: &str,
) -> Result<Option<String>, AppError> {
    let (record, game) = match record_of(state, cell, Which::Current).await {
        Ok(found) => found,
        Err(AppError::Room(RoomError::WrongState(_))) => return Ok(None),
        Err(err) => return Err(err),
    };
    let now = now_ms();
    Ok(match record.game {
        GameKind::Draughts => record::pdn(&record, &game, site, now),
        GameKind::Cc => record::cc_text(&record, site, now),
    })
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
