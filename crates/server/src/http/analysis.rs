//! « Analyser » (docs/protocol.md "Analysis"): `POST /api/rooms/{code}/games/{n}/analysis` asks
//! for the analysis of a finished draughts game (one job per game: a second request joins the
//! first; crate::live::analysis runs it on the CPU pool in the background), `GET` the same
//! reads it: `none`, `running` with its progress, or `done` with the analysis, stored with the
//! game. Each request tells the job that someone still watches it.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use super::games::{record_of, stored_analysis, Which};
use super::rooms::lookup;
use super::Caller;
use crate::error::{AppError, Detail, RoomError};
use crate::live::analysis::{Asked, Job};
use crate::ratelimit::Action;
use crate::state::AppState;
use dames_room::analysis::GameAnalysis;
use dames_room::game::{GameKind, GameState};
use dames_room::room::Status;

/// The route of a game's analysis.
pub fn router() -> Router<AppState> {
    Router::new().route("/rooms/{code}/games/{n}/analysis", get(show).post(ask))
}

/// Where a game's analysis stands.
#[derive(Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
enum Answer {
    /// Not analysed, and no analysis in progress.
    None,
    /// In progress: `done` of `total` positions searched.
    Running { done: usize, total: usize },
    /// Analysed.
    Done { analysis: GameAnalysis },
}

impl Answer {
    fn running(job: &Job) -> Self {
        let (done, total) = job.progress();
        Answer::Running { done, total }
    }
}

/// The room's code as stored, and the game's number, of a request's path.
async fn game_of(
    state: &AppState,
    caller: &Caller,
    code: &str,
    n: &str,
) -> Result<(std::sync::Arc<crate::live::RoomCell>, String, Which, i64), AppError> {
    let which = Which::parse(n)?;
    let Which::No(game_no) = which else {
        return Err(AppError::UnknownGame);
    };
    let cell = lookup(state, caller, code).await?;
    let code = cell.room.lock().await.code.clone();
    Ok((cell, code, which, game_no))
}

async fn show(
    State(state): State<AppState>,
    caller: Caller,
    Path((code, n)): Path<(String, String)>,
) -> Result<Json<Answer>, AppError> {
    let (cell, code, which, game_no) = game_of(&state, &caller, &code, &n).await?;
    if let Some(job) = state.analyses.find(&code, game_no) {
        return Ok(Json(Answer::running(&job)));
    }
    if let Some(analysis) = stored_analysis(&state, &code, game_no).await? {
        return Ok(Json(Answer::Done { analysis }));
    }
    // No such game is `unknown_game`, not `none`.
    record_of(&state, &cell, which).await?;
    Ok(Json(Answer::None))
}

async fn ask(
    State(state): State<AppState>,
    caller: Caller,
    Path((code, n)): Path<(String, String)>,
) -> Result<(StatusCode, Json<Answer>), AppError> {
    let (cell, code, which, game_no) = game_of(&state, &caller, &code, &n).await?;
    if let Some(analysis) = stored_analysis(&state, &code, game_no).await? {
        return Ok((StatusCode::OK, Json(Answer::Done { analysis })));
    }
    if let Some(job) = state.analyses.find(&code, game_no) {
        return Ok((StatusCode::ACCEPTED, Json(Answer::running(&job))));
    }
    let (record, game) = record_of(&state, &cell, which).await?;
    let GameState::Draughts(game) = game else {
        return Err(AppError::NotSupported);
    };
    if record.game != GameKind::Draughts {
        return Err(AppError::NotSupported);
    }
    if record.status != Status::Finished {
        return Err(RoomError::WrongState(Detail::state(
            "not_finished",
            "only a finished game can be analysed",
        ))
        .into());
    }
    state.analyses.check_room()?;
    state
        .limiter
        .take(Action::Analysis, caller.ip, Some(&caller.client))
        .await?;
    let job = match state
        .analyses
        .ask(&state.rooms, &code, game_no, game.game().clone())?
    {
        Asked::Joined(job) | Asked::Started(job) => job,
    };
    Ok((StatusCode::ACCEPTED, Json(Answer::running(&job))))
}
