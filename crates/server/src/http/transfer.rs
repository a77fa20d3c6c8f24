//! Continue on another device (issue 11 item 1, docs/protocol.md "Continue on another device"):
//! `POST /api/rooms/{code}/transfer` gives a seated person a one-time link and its QR code;
//! `POST /api/rooms/{code}/transfer/claim` opened from that link in another browser moves the
//! seat there (dames_room::room's `claim_transfer`: the old seat token stops working at once).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::post;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use super::rooms::{limit_action, lookup, seat_answer, seat_in};
use super::{Caller, JsonBody};
use crate::error::{AppError, Detail, RoomError};
use crate::qr;
use crate::ratelimit::Action as Limit;
use crate::state::AppState;
use dames_room::room::{Change, Room};

/// The routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/rooms/{code}/transfer", post(offer))
        .route("/rooms/{code}/transfer/claim", post(claim))
}

/// The answer of `POST /api/rooms/{code}/transfer`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TransferLink {
    /// The link to open in the other browser (the token is in its fragment: never sent in a
    /// request line, so never in a log).
    pub url: String,
    /// The link's QR code (SVG).
    pub qr: String,
    /// When the link stops working (Unix ms).
    pub expires_at: i64,
}

/// A seated person asks for a one-time link moving their seat to another browser.
async fn offer(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
) -> Result<Json<TransferLink>, AppError> {
    let cell = lookup(&state, &caller, &code).await?;
    limit_action(&state, &caller, &cell).await?;
    let (code, (token, expires_at)) = state
        .rooms
        .mutate(&cell, |room, _, now| {
            let seat = seat_in(room, &caller)?.ok_or(AppError::Room(RoomError::NotSeated))?;
            Ok((room.code.clone(), room.offer_transfer(seat, now)?))
        })
        .await?;
    // Stored before it is given: the link works after a restart and through any node.
    state.rooms.save_seat_memory(&cell).await?;
    let url = format!(
        "{}/r/{code}#transfer={token}",
        state.origin(caller.headers())
    );
    let qr = qr::svg(&url).map_err(|e| AppError::internal("QR code", e))?;
    Ok(Json(TransferLink {
        url,
        qr,
        expires_at,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimBody {
    token: String,
}

/// The other browser opens the link: the seat is now its own (`{"seat","token","room"}` and
/// the seat cookie, as a join with a new seat).
async fn claim(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
    JsonBody(body): JsonBody<ClaimBody>,
) -> Result<Response, AppError> {
    state
        .limiter
        .take(Limit::Join, caller.ip, Some(&caller.client))
        .await?;
    if !dames_room::token::is_hex128(&body.token) {
        return Err(AppError::Room(RoomError::InvalidTransfer));
    }
    let cell = lookup(&state, &caller, &code).await?;
    let client = caller.client.clone();
    let claim = |room: &mut Room, ch: &mut Change, now: i64| {
        let held = seat_in(room, &caller)?;
        let (seat, token) = room.claim_transfer(&body.token, &client, now, ch)?;
        // A browser holding another seat of this room cannot take a second one.
        if held.is_some_and(|h| h != seat) {
            return Err(AppError::Room(RoomError::WrongState(Detail::state(
                "already_seated",
                "this browser already holds another seat of this room",
            ))));
        }
        Ok((seat, token))
    };
    let (seat, token) = match state.rooms.mutate(&cell, claim).await {
        // A link made through another node: this node's copy does not know it yet (one node
        // alone knows every link it made, restarts included: a wrong token costs no read).
        Err(AppError::Room(RoomError::InvalidTransfer)) if state.rooms.cluster().is_some() => {
            state.rooms.read_transfers(&cell).await?;
            state.rooms.mutate(&cell, claim).await?
        }
        answer => answer?,
    };
    let room = cell.room.lock().await;
    Ok(seat_answer(
        &state,
        StatusCode::OK,
        &room.code,
        seat,
        // A new token, as for a new seat: in the body too.
        (&token, true),
        room.view(Some(seat), crate::live::now_ms()),
    ))
}
