//! Handlers of `/api/rooms…` (docs/protocol.md, "HTTP API"): thin wrappers that find the room,
//! identify the seat, and run one [`Room`] operation through [`crate::live::Rooms::mutate`].

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use dames_ai::Level;

use super::{seat_cookie_name, set_cookie, Caller, JsonBody};
use crate::error::{AppError, Detail, RoomError};
use crate::live::{blocking, RoomCell};
use crate::qr;
use crate::ratelimit::Action as Limit;
use crate::state::AppState;
use dames_room::event::{self, Event};
use dames_room::game::{GameKind, GameRules, SOLITAIRE_START};
use dames_room::message::Numbered;
use dames_room::position;
use dames_room::protocol::HintAnswer;
use dames_room::room::{
    valid_name, AwayRequest, DrawAction, Occupant, Room, SeatAction, Settings, SettingsInput,
};
use dames_room::settings;
use dames_room::token;
use dames_room::view::{MoveAnswer, RoomView, SeatAnswer};

/// The routes under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/rooms", post(create))
        .route("/rooms/{code}", get(show))
        .route("/rooms/{code}/join", post(join))
        .route("/rooms/{code}/leave", post(leave))
        .route("/rooms/{code}/settings", post(settings))
        .route("/rooms/{code}/seats/{seat}", post(seat))
        .route("/rooms/{code}/start", post(start))
        .route("/rooms/{code}/move", post(play))
        .route("/rooms/{code}/hint", post(hint))
        .route("/rooms/{code}/resign", post(resign))
        .route("/rooms/{code}/draw", post(draw))
        .route("/rooms/{code}/rematch", post(rematch))
        .route("/rooms/{code}/away", post(away))
        .route("/rooms/{code}/qr.svg", get(qr_svg))
        .route("/rooms/{code}/events", get(events))
        .route("/me/rooms", get(my_rooms))
        .route("/settings", get(|| async { Json(settings::schema_json()) }))
        .route("/health", get(|| async { Json(json!({"ok": true})) }))
        .fallback(|| async { AppError::NotFound })
}

/// Finds a room by a code typed by someone, counting unknown codes against the caller (codes
/// must not be guessable by brute force).
pub async fn lookup(
    state: &AppState,
    caller: &Caller,
    code: &str,
) -> Result<Arc<RoomCell>, AppError> {
    let client = Some(caller.client.as_str());
    state
        .limiter
        .check(Limit::UnknownCode, caller.ip, client)
        .await?;
    let found = match token::normalize_code(code) {
        // With a cluster, a room held here is checked against the store first (live/fanout.rs).
        Some(code) => state.rooms.get_fresh(&code).await,
        None => Err(AppError::UnknownRoom),
    };
    if matches!(found, Err(AppError::UnknownRoom)) {
        state
            .limiter
            .take(Limit::UnknownCode, caller.ip, client)
            .await?;
    }
    found
}

/// The seat the caller holds in `room`, if any (an unknown token is no seat).
pub fn seat_in(room: &Room, caller: &Caller) -> Result<Option<usize>, AppError> {
    Ok(caller
        .seat_token(&room.code)?
        .and_then(|t| room.seat_of_token(&t)))
}

fn seated(room: &Room, caller: &Caller) -> Result<usize, AppError> {
    seat_in(room, caller)?.ok_or(AppError::Room(RoomError::NotSeated))
}

fn host(room: &Room, caller: &Caller) -> Result<(), AppError> {
    match seated(room, caller)? {
        0 => Ok(()),
        _ => Err(AppError::Room(RoomError::NotHost)),
    }
}

/// The room as the caller sees it now.
async fn view_for(cell: &RoomCell, caller: &Caller) -> Result<RoomView, AppError> {
    let room = cell.room.lock().await;
    let you = seat_in(&room, caller)?;
    Ok(room.view(you, crate::live::now_ms()))
}

/// Answer with a seat: `{"seat","token","room"}` and the seat cookie. `reveal`: the token is
/// in the body too (a new seat, or a caller that already showed it in a header); a caller known
/// only by its HttpOnly cookie never gets it where a script could read it.
pub(super) fn seat_answer(
    state: &AppState,
    status: StatusCode,
    code: &str,
    seat: usize,
    (token, reveal): (&str, bool),
    room: RoomView,
) -> Response {
    let mut headers = HeaderMap::new();
    let cookie = set_cookie(
        &seat_cookie_name(code, state.secure_cookies()),
        token,
        400 * 24 * 3600,
        state.secure_cookies(),
    );
    headers.insert(header::SET_COOKIE, cookie);
    let body = SeatAnswer {
        code: code.to_owned(),
        seat,
        token: reveal.then(|| token.to_owned()),
        room,
    };
    (status, headers, Json(body)).into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRoom {
    game: String,
    name: String,
    #[serde(default)]
    settings: Value,
    cpu: Option<CpuChoice>,
    /// Draughts: a PDN or FEN text whose position the room's games start from.
    start: Option<String>,
    /// Chinese checkers: the crossing puzzle (« Défi solitaire »), one seat, started at once.
    #[serde(default)]
    solitaire: bool,
}

/// « Contre le CPU »: one level for every other seat, or one level per other seat, in order.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CpuChoice {
    level: Option<String>,
    levels: Option<Vec<String>>,
}

impl CpuChoice {
    /// The level of each of the `n` CPU seats.
    fn levels(&self, n: usize) -> Result<Vec<Level>, AppError> {
        match (&self.level, &self.levels) {
            (Some(one), None) => Ok(vec![settings::level("cpu.level", one)?; n]),
            (None, Some(each)) if each.len() == n => each
                .iter()
                .enumerate()
                .map(|(i, l)| Ok(settings::level(&format!("cpu.levels.{i}"), l)?))
                .collect(),
            (None, Some(each)) => Err(AppError::Room(RoomError::InvalidSettings(
                Detail::field(
                    "cpu.levels",
                    "wrong_length",
                    format!("{} levels for {n} CPU seats", each.len()),
                )
                .with("expected", n),
            ))),
            _ => Err(AppError::Room(RoomError::InvalidSettings(Detail::field(
                "cpu",
                "wrong_type",
                "cpu is {\"level\": L} or {\"levels\": [L…]}, one level per CPU seat",
            )))),
        }
    }
}

async fn create(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody<CreateRoom>,
) -> Result<Response, AppError> {
    let kind = GameKind::from_name(&body.game).ok_or_else(|| {
        AppError::Room(RoomError::InvalidSettings(
            Detail::field(
                "game",
                "not_allowed",
                format!("unknown game {:?}: \"cc\" or \"draughts\"", body.game),
            )
            .with("allowed", json!(["cc", "draughts"])),
        ))
    })?;
    let name = valid_name(&body.name)?;
    let input = SettingsInput::parse(kind, &body.settings)?;
    let (mut settings, mut seats) = Settings::new(kind, &input)?;
    if body.solitaire {
        solitaire_settings(&body, &mut settings)?;
        seats = 1;
    }
    let start = match (body.start.as_deref(), &mut settings.rules) {
        _ if body.solitaire => Some(SOLITAIRE_START.to_owned()),
        (None, _) => None,
        (Some(text), GameRules::Draughts(rules)) => {
            let imported =
                position::import(text, rules.variant).map_err(AppError::InvalidPosition)?;
            rules.variant = imported.variant;
            (!imported.initial).then_some(imported.fen)
        }
        (Some(_), GameRules::Cc(_)) => {
            return Err(AppError::Room(RoomError::InvalidSettings(Detail::field(
                "start",
                "not_allowed",
                "Chinese checkers games start from the camps",
            ))))
        }
    };
    let cpu = body.cpu.map(|c| c.levels(seats - 1)).transpose()?;
    if cpu.is_some() {
        let limits = &state.config.limits;
        (state.rooms).check_cpu_games(None, caller.ip, &caller.client, limits)?;
    }
    state
        .limiter
        .take(Limit::Create, caller.ip, Some(&caller.client))
        .await?;
    let token = token::random_hex128();
    let host = Occupant::Human {
        name,
        token_hash: token::hash_token(&token),
        client: Some(caller.client.clone()),
    };
    let random = random_u64();
    let (cell, ()) = state
        .rooms
        .create(|code, ch, now| {
            let mut room = Room::new(code, kind, settings, seats, host.clone(), now);
            room.start.clone_from(&start);
            if let Occupant::Human { name, .. } = &host {
                ch.events.push(Event::Joined {
                    name: name.clone(),
                    seat: 0,
                });
            }
            if let Some(levels) = &cpu {
                for (n, &level) in levels.iter().enumerate() {
                    room.set_seat(n + 1, SeatAction::Cpu(level), ch)?;
                }
                room.start(random, now, ch)?;
                state.rooms.claim_cpu_game(&mut room, caller.ip);
            } else if body.solitaire {
                room.start(random, now, ch)?;
            }
            Ok((room, ()))
        })
        .await?;
    let room = cell.room.lock().await;
    Ok(seat_answer(
        &state,
        StatusCode::CREATED,
        &room.code,
        0,
        (&token, true),
        room.view(Some(0), crate::live::now_ms()),
    ))
}

/// « Défi solitaire » (`"solitaire": true`): Chinese checkers with the default rules, seat 0
/// first, no CPU and no start position. Only the room's other settings (legal moves shown,
/// confirmation, hints, rhythm…) may be given.
fn solitaire_settings(body: &CreateRoom, settings: &mut Settings) -> Result<(), AppError> {
    let conflict = |field: &str, message: &str| {
        Err(AppError::Room(RoomError::InvalidSettings(
            Detail::field(field, "conflict", message.to_owned()).with("with", "solitaire"),
        )))
    };
    let GameRules::Cc(rules) = settings.rules else {
        return Err(AppError::Room(RoomError::InvalidSettings(
            Detail::field(
                "solitaire",
                "not_allowed",
                "the solitaire challenge is a Chinese checkers puzzle",
            )
            .with("allowed", json!(["cc"])),
        )));
    };
    if body.cpu.is_some() {
        return conflict("cpu", "the solitaire challenge is played alone");
    }
    if body.start.is_some() {
        return conflict("start", "the solitaire challenge starts from camp 0");
    }
    if settings.random_first {
        return conflict("random_first", "the solitaire challenge has one player");
    }
    // With one seat, « Changer qui commence » changes nothing.
    let rules = chinese_checkers::Rules {
        rotate_first_player: true,
        ..rules
    };
    if rules != chinese_checkers::Rules::default() {
        return conflict("rules", "the solitaire challenge has the default rules");
    }
    settings.rules = GameRules::Cc(rules);
    settings.rotate_first = true;
    Ok(())
}

/// 64 random bits from the OS (first player draws).
pub fn random_u64() -> u64 {
    let hex = token::random_hex128();
    u64::from_str_radix(&hex[..16], 16).unwrap_or(0)
}

async fn show(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
) -> Result<Json<RoomView>, AppError> {
    let cell = lookup(&state, &caller, &code).await?;
    Ok(Json(view_for(&cell, &caller).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    name: String,
    seat: Option<usize>,
}

async fn join(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
    JsonBody(body): JsonBody<JoinBody>,
) -> Result<Response, AppError> {
    state
        .limiter
        .take(Limit::Join, caller.ip, Some(&caller.client))
        .await?;
    let cell = lookup(&state, &caller, &code).await?;
    let name = valid_name(&body.name)?;
    let presented = {
        let room = cell.room.lock().await;
        caller
            .seat_token(&room.code)?
            .and_then(|t| room.seat_of_token(&t).map(|s| (s, t)))
    };
    let reveal = presented.is_none() || caller.by_header();
    let (seat, token) = match presented {
        Some(found) => found,
        None => {
            let token = token::random_hex128();
            let occupant = Occupant::Human {
                name,
                token_hash: token::hash_token(&token),
                client: Some(caller.client.clone()),
            };
            let seat = state
                .rooms
                .mutate(&cell, |room, ch, _| Ok(room.join(body.seat, occupant, ch)?))
                .await?;
            (seat, token)
        }
    };
    let room = cell.room.lock().await;
    Ok(seat_answer(
        &state,
        StatusCode::OK,
        &room.code,
        seat,
        (&token, reveal),
        room.view(Some(seat), crate::live::now_ms()),
    ))
}

/// Runs `op` for the caller's seat (`host_only`: the host's) and answers the room view.
async fn act(
    state: &AppState,
    caller: &Caller,
    code: &str,
    host_only: bool,
    op: impl FnOnce(&mut Room, usize, &mut dames_room::room::Change, i64) -> Result<(), AppError>,
) -> Result<Json<RoomView>, AppError> {
    let cell = lookup(state, caller, code).await?;
    limit_action(state, caller, &cell).await?;
    state
        .rooms
        .mutate(&cell, |room, ch, now| {
            let seat = seated(room, caller)?;
            if host_only {
                host(room, caller)?;
            }
            op(room, seat, ch, now)
        })
        .await?;
    Ok(Json(view_for(&cell, caller).await?))
}

async fn leave(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
) -> Result<Response, AppError> {
    let view = act(&state, &caller, &code, false, |room, seat, ch, _| {
        Ok(room.leave(seat, ch)?)
    })
    .await?;
    let name = token::normalize_code(&code)
        .map(|c| seat_cookie_name(&c, state.secure_cookies()))
        .unwrap_or_default();
    let mut headers = HeaderMap::new();
    headers.insert(
        header::SET_COOKIE,
        set_cookie(&name, "", 0, state.secure_cookies()),
    );
    Ok((headers, view).into_response())
}

async fn settings(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
    JsonBody(input): JsonBody<Value>,
) -> Result<Json<RoomView>, AppError> {
    act(&state, &caller, &code, true, |room, _, ch, _| {
        let input = SettingsInput::parse(room.kind, &input)?;
        Ok(room.set_settings(&input, ch)?)
    })
    .await
}

fn seat_action(body: &Value) -> Result<SeatAction, AppError> {
    let bad = || {
        AppError::Room(RoomError::BadJson(
            "expected {\"cpu\":\"level\"}, {\"cpu\":null} or {\"kick\":true}".into(),
        ))
    };
    match (body.get("cpu"), body.get("kick")) {
        (Some(Value::Null), None) => Ok(SeatAction::Empty),
        (Some(Value::String(l)), None) => Ok(SeatAction::Cpu(settings::level("cpu", l)?)),
        (None, Some(Value::Bool(true))) => Ok(SeatAction::Kick),
        _ => Err(bad()),
    }
}

async fn seat(
    State(state): State<AppState>,
    caller: Caller,
    Path((code, n)): Path<(String, String)>,
    JsonBody(body): JsonBody<Value>,
) -> Result<Json<RoomView>, AppError> {
    let n: usize = n.parse().map_err(|_| {
        AppError::Room(RoomError::WrongState(Detail::state(
            "no_such_seat",
            "this room has no such seat",
        )))
    })?;
    let action = seat_action(&body)?;
    act(&state, &caller, &code, true, |room, _, ch, _| {
        Ok(room.set_seat(n, action, ch)?)
    })
    .await
}

async fn start(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
) -> Result<Json<RoomView>, AppError> {
    let random = random_u64();
    let limits = &state.config.limits;
    let view = act(&state, &caller, &code, true, |room, _, ch, now| {
        (state.rooms).check_cpu_games(Some(room), caller.ip, &caller.client, limits)?;
        room.start(random, now, ch)?;
        state.rooms.claim_cpu_game(room, caller.ip);
        Ok(())
    })
    .await?;
    Ok(view)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    id: Option<String>,
    #[serde(rename = "move")]
    mv: Value,
}

/// Takes a token of the caller's room actions ([`Limit::Act`]): its seat's if it holds one in
/// the room, else its browser's.
pub(super) async fn limit_action(
    state: &AppState,
    caller: &Caller,
    cell: &RoomCell,
) -> Result<(), AppError> {
    let token = {
        let room = cell.room.lock().await;
        caller.seat_token(&room.code)?
    };
    match token {
        Some(token) => state.limiter.take_seat(Limit::Act, &token),
        None => state.limiter.take_client(Limit::Act, &caller.client),
    }
}

/// Longest client move id.
pub const MAX_MOVE_ID: usize = 64;

/// Checks a client move id.
///
/// # Errors
/// `bad_json` for an empty or too long id.
pub fn check_move_id(id: Option<&str>) -> Result<(), AppError> {
    match id {
        Some(id) if id.is_empty() || id.len() > MAX_MOVE_ID => Err(AppError::Room(
            RoomError::BadJson(format!("a move id has 1 to {MAX_MOVE_ID} characters")),
        )),
        _ => Ok(()),
    }
}

async fn play(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
    JsonBody(body): JsonBody<MoveBody>,
) -> Result<Json<MoveAnswer>, AppError> {
    check_move_id(body.id.as_deref())?;
    let cell = lookup(&state, &caller, &code).await?;
    limit_action(&state, &caller, &cell).await?;
    let applied = state
        .rooms
        .mutate(&cell, |room, ch, now| {
            let seat = seated(room, &caller)?;
            let input = room.parse_move(&body.mv)?;
            Ok(room.play_move(seat, body.id.as_deref(), &input, now, ch)?)
        })
        .await?;
    let room = view_for(&cell, &caller).await?;
    Ok(Json(MoveAnswer { applied, room }))
}

/// A hint for the seat to move: `{"move": LegalMove}`, private (nothing stored or broadcast).
async fn hint(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
) -> Result<Json<HintAnswer>, AppError> {
    let cell = lookup(&state, &caller, &code).await?;
    let (code, token, position) = {
        let room = cell.room.lock().await;
        let seat = seated(&room, &caller)?;
        let token = caller.seat_token(&room.code)?.unwrap_or_default();
        (room.code.clone(), token, room.hint_position(seat)?)
    };
    state.limiter.take_seat(Limit::Hint, &token)?;
    let mv = state.rooms.hint(&code, position).await?;
    Ok(Json(HintAnswer { mv }))
}

async fn resign(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
) -> Result<Json<RoomView>, AppError> {
    act(&state, &caller, &code, false, |room, seat, ch, now| {
        Ok(room.resign(seat, now, ch)?)
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DrawBody {
    action: DrawAction,
}

async fn draw(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
    JsonBody(body): JsonBody<DrawBody>,
) -> Result<Json<RoomView>, AppError> {
    act(&state, &caller, &code, false, |room, seat, ch, now| {
        Ok(room.draw(seat, body.action, now, ch)?)
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RematchBody {
    ready: bool,
    /// Start without the persons who left: their seats played by CPUs of this level
    /// (dames_room::room, "Away players").
    #[serde(default)]
    absent_cpu: Option<String>,
    /// The host's other choice: back to the lobby, the seats of those who left freed.
    #[serde(default)]
    absent_empty: bool,
}

async fn rematch(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
    JsonBody(body): JsonBody<RematchBody>,
) -> Result<Json<RoomView>, AppError> {
    let random = random_u64();
    let limits = &state.config.limits;
    act(&state, &caller, &code, false, |room, seat, ch, now| {
        if body.ready {
            (state.rooms).check_cpu_games(Some(room), caller.ip, &caller.client, limits)?;
        }
        match (&body.absent_cpu, body.absent_empty, body.ready) {
            (Some(_), true, _) => Err(AppError::Room(RoomError::BadJson(
                "absent_cpu and absent_empty: one or the other".into(),
            ))),
            (Some(level), false, true) => {
                let level = settings::level("absent_cpu", level)?;
                Ok(room.rematch_without_absent(seat, level, random, now, ch)?)
            }
            (None, true, true) => Ok(room.reopen_without_absent(seat, ch)?),
            (Some(_), false, false) | (None, true, false) => Err(AppError::Room(
                RoomError::BadJson("absent_cpu and absent_empty go with ready: true".into()),
            )),
            (None, false, ready) => Ok(room.rematch(seat, ready, random, now, ch)?),
        }
    })
    .await
}

/// Another player acts on a seat away on its turn (dames_room::room, "Away players").
async fn away(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
    JsonBody(body): JsonBody<AwayRequest>,
) -> Result<Json<RoomView>, AppError> {
    act(&state, &caller, &code, false, |room, seat, ch, now| {
        Ok(room.away(seat, &body, now, ch)?)
    })
    .await
}

async fn qr_svg(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
) -> Result<Response, AppError> {
    let cell = lookup(&state, &caller, &code).await?;
    let code = cell.room.lock().await.code.clone();
    let url = format!("{}/r/{code}", state.origin(caller.headers()));
    let svg = qr::svg(&url).map_err(|e| AppError::internal("QR code", e))?;
    // Without a public URL the link is made from the request's Host header: a shared cache must
    // not hand one client's QR code to another (a forged Host would poison it).
    let cache = if state.config.public_url.is_some() {
        "public, max-age=3600"
    } else {
        "private, max-age=3600"
    };
    let headers = [
        (header::CONTENT_TYPE, "image/svg+xml"),
        (header::CACHE_CONTROL, cache),
        (header::VARY, "Host"),
    ];
    Ok((headers, svg).into_response())
}

/// The `since` query parameter (absent: 0).
#[derive(Deserialize)]
pub struct Since {
    since: Option<String>,
}

impl Since {
    /// The version, or `bad_json` if it is not a number.
    pub fn version(&self) -> Result<i64, AppError> {
        match self.since.as_deref().map(str::trim) {
            None | Some("") => Ok(0),
            Some(v) => v.parse::<i64>().map(|v| v.max(0)).map_err(|_| {
                AppError::Room(RoomError::BadJson("since must be a version number".into()))
            }),
        }
    }
}

async fn events(
    State(state): State<AppState>,
    caller: Caller,
    Path(code): Path<String>,
    Query(q): Query<Since>,
) -> Result<Json<Value>, AppError> {
    let cell = lookup(&state, &caller, &code).await?;
    let (code, version, view) = {
        let room = cell.room.lock().await;
        (
            room.code.clone(),
            room.version,
            room.view(seat_in(&room, &caller)?, crate::live::now_ms()),
        )
    };
    let store = state.rooms.store().clone();
    let since = q.version()?;
    let rows = blocking(move || store.events_since(&code, since, version)).await?;
    let events: Vec<Numbered> = event::read_rows(&view.code, &rows)
        .into_iter()
        .map(|(version, event)| Numbered { version, event })
        .collect();
    Ok(Json(json!({"events": events, "room": view})))
}

async fn my_rooms(State(state): State<AppState>, caller: Caller) -> Result<Json<Value>, AppError> {
    let store = state.rooms.store().clone();
    let client = caller.client.clone();
    let rows = blocking(move || store.rooms_of_client(&client)).await?;
    let rooms: Vec<Value> = rows
        .into_iter()
        .map(|r| json!({"code": r.code, "seat": r.seat, "game": r.game, "status": r.status, "active_at": r.active_at}))
        .collect();
    Ok(Json(json!({"rooms": rooms})))
}
