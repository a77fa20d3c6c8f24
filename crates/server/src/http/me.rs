//! "My games" and Web Push subscriptions (issue 6, docs/protocol.md):
//! `GET /api/me/games`, `GET /api/push/key`, `POST|DELETE /api/rooms/{code}/push`.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::rooms::{lookup, seat_in};
use super::{Caller, JsonBody};
use crate::error::{AppError, RoomError};
use crate::live::{blocking, now_ms};
use crate::push::{self, crypto};
use crate::state::AppState;
use dames_room::room::Occupant;
use dames_store::{PushStore, PushSub};

/// The routes under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/me/games", get(my_games))
        .route("/push/key", get(push_key))
        .route("/rooms/{code}/push", post(subscribe).delete(unsubscribe))
}

/// `?offset=N&limit=K` of « Mes parties ».
#[derive(Deserialize)]
struct MyPage {
    offset: Option<String>,
    limit: Option<String>,
}

impl MyPage {
    fn read(&self) -> Result<(usize, usize), AppError> {
        let number = |name: &str, v: &Option<String>, min: usize, max: usize| match v.as_deref() {
            None | Some("") => Ok(None),
            Some(v) => match v.parse::<usize>() {
                Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
                _ => Err(AppError::Invalid(format!(
                    "{name} must be a whole number from {min} to {max}"
                ))),
            },
        };
        let offset = number("offset", &self.offset, 0, 1_000_000)?.unwrap_or(0);
        let limit = number("limit", &self.limit, 1, 100)?.unwrap_or(50);
        Ok((offset, limit))
    }
}

/// How many of a room's earlier games « Mes parties » lists (the newest).
const EARLIER_GAMES: usize = 10;

/// Every game this browser holds a seat in, those where it is its turn first.
///
/// Paged (`?offset=N&limit=K`, the rooms newest first, 50 a page by default, at most 100):
/// only the rooms of the page are loaded; `next_offset` is the next page's (`null`: none).
async fn my_games(
    State(state): State<AppState>,
    caller: Caller,
    Query(page): Query<MyPage>,
) -> Result<Json<Value>, AppError> {
    let (offset, limit) = page.read()?;
    let store = state.rooms.store().clone();
    let client = caller.client.clone();
    let rows = blocking(move || store.rooms_of_client(&client)).await?;
    let next_offset = (rows.len() > offset + limit).then_some(offset + limit);
    let mut games = Vec::new();
    for row in rows.into_iter().skip(offset).take(limit) {
        let Ok(cell) = state.rooms.get(&row.code).await else {
            continue;
        };
        // The room's last finished games before its current one, to look at again (the
        // room's page lists the others).
        let store = state.rooms.store().clone();
        let code = row.code.clone();
        let earlier: Vec<i64> = blocking(move || store.games(&code, None, EARLIER_GAMES + 1))
            .await?
            .into_iter()
            .filter(|g| g.finished_at.is_some())
            .map(|g| g.game_no)
            .rev()
            .collect();
        let room = cell.room.lock().await;
        let mut earlier: Vec<i64> = earlier.into_iter().filter(|&n| n < room.game_no).collect();
        earlier.drain(..earlier.len().saturating_sub(EARLIER_GAMES));
        let seat = usize::try_from(row.seat).unwrap_or(usize::MAX);
        let to_move = room.play.as_ref().and_then(|p| p.state.to_move());
        let playing = room.status == dames_room::room::Status::Playing;
        let players: Vec<Value> = room
            .seats
            .iter()
            .map(|s| match &s.occupant {
                Occupant::Human { name, .. } => json!(name),
                Occupant::Cpu(_) => json!("CPU"),
                Occupant::Empty => Value::Null,
            })
            .collect();
        games.push(json!({
            "code": room.code,
            "game": room.kind.as_str(),
            "status": room.status.as_str(),
            "rhythm": room.settings.rhythm.as_str(),
            "seat": seat,
            "players": players,
            "to_move": if playing { to_move } else { None },
            "your_turn": playing && to_move == Some(seat),
            "turn_since": if playing { room.last_move_at } else { None },
            "outcome": room.play.as_ref().and_then(|p| p.state.outcome()),
            "game_no": room.game_no,
            "earlier_games": earlier,
            "active_at": room.active_at,
        }));
    }
    // Your turn first, then the most recently active.
    games.sort_by_key(|g| !g["your_turn"].as_bool().unwrap_or(false));
    let your_turn = games.iter().filter(|g| g["your_turn"] == true).count();
    Ok(Json(json!({
        "games": games,
        "your_turn": your_turn,
        "now": now_ms(),
        "next_offset": next_offset,
    })))
}

/// The VAPID public key: the browser's `applicationServerKey`.
async fn push_key(State(state): State<AppState>) -> Result<Json<Value>, AppError> {
    let key = push::vapid(state.store.clone()).await?;
    Ok(Json(json!({"key": key.public})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    p256dh: String,
    auth: String,
}

/// `PushSubscription.toJSON()`.
#[derive(Deserialize)]
struct Subscription {
    endpoint: String,
    keys: Keys,
    #[serde(default, rename = "expirationTime")]
    _expiration_time: Option<Value>,
}

/// Stores the subscription of the caller's seat (replacing a previous one).
async fn subscribe(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
    JsonBody(sub): JsonBody<Subscription>,
) -> Result<Json<Value>, AppError> {
    push::check_endpoint(&sub.endpoint, &state.config.push)?;
    if sub.keys.p256dh.len() > 200 || sub.keys.auth.len() > 100 {
        return Err(AppError::Invalid("keys: too long".into()));
    }
    crypto::check_keys(&sub.keys.p256dh, &sub.keys.auth)
        .map_err(|e| AppError::Invalid(e.0.into()))?;
    let cell = lookup(&state, &caller, &code).await?;
    let (code, seat) = {
        let room = cell.room.lock().await;
        let seat = seat_in(&room, &caller)?.ok_or(AppError::Room(RoomError::NotSeated))?;
        if room.status == dames_room::room::Status::Finished {
            return Err(AppError::Room(RoomError::WrongState(
                "this game is over".into(),
            )));
        }
        (room.code.clone(), seat as i64)
    };
    let row = PushSub {
        code,
        seat,
        endpoint: sub.endpoint,
        p256dh: sub.keys.p256dh,
        auth: sub.keys.auth,
    };
    let store: Arc<dyn PushStore> = state.store.clone();
    blocking(move || store.save_push(&row, now_ms())).await?;
    Ok(Json(json!({"ok": true, "seat": seat})))
}

/// Deletes the subscription of the caller's seat.
async fn unsubscribe(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
) -> Result<Json<Value>, AppError> {
    let cell = lookup(&state, &caller, &code).await?;
    let (code, seat) = {
        let room = cell.room.lock().await;
        let seat = seat_in(&room, &caller)?.ok_or(AppError::Room(RoomError::NotSeated))?;
        (room.code.clone(), seat as i64)
    };
    let store: Arc<dyn PushStore> = state.store.clone();
    blocking(move || store.delete_push_seat(&code, seat)).await?;
    Ok(Json(json!({"ok": true})))
}
