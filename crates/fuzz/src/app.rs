//! The fuzz targets that go through the whole server in this process: HTTP requests handed to
//! the router ([`dames_server::app`], every middleware and extractor, the handlers, the rooms and an
//! in-memory store), and WebSocket client messages handed to a session's own reading and
//! handling code ([`dames_server::ws::answer_detached`]). The generator plays the game: it creates
//! rooms, joins them, starts them and plays the legal moves it is shown, so that the mutated
//! requests reach rooms in every state — lobby, games of both kinds in progress, finished,
//! rematches.
//!
//! Besides panics, an answer is a failure when it is an `internal` error (500) or an `/api`
//! error that is not the typed JSON error: bad input must always get a clear, typed error.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::Path;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::mutate::{mutate_bytes, mutate_string, mutated_json, Rng};
use crate::target::Target;
use dames_server::config::Config;
use dames_server::state::AppState;
use dames_store::SqliteStore;

/// Requests served before the server is made anew (memory stays flat, rooms stay few).
const FRESH_EVERY: u64 = 4000;
/// Rooms followed at most; older ones are forgotten.
const MAX_ROOMS: usize = 24;

/// A room the generator took part in.
#[derive(Clone, Debug)]
struct Known {
    code: String,
    /// Seat tokens the generator holds, by seat.
    tokens: Vec<(usize, String)>,
    /// The last view of the room (any seat's).
    view: Value,
}

/// The server under test and what the generator knows of it.
pub struct World {
    rt: tokio::runtime::Runtime,
    state: AppState,
    router: Router,
    rooms: Vec<Known>,
    served: u64,
    feedback: Vec<i64>,
    /// Answers that are not a typed error (500s, `/api` errors without the JSON error).
    pub failures: u64,
    /// The first of each kind, described.
    pub first_failure: Option<String>,
    kinds: Vec<String>,
    last: String,
    /// Answers by kind: `[success, client error]`, and moves applied, games finished.
    answered: [u64; 2],
    moves: u64,
    finished: u64,
    ws_acks: u64,
}

fn fresh(rt: &tokio::runtime::Runtime) -> (AppState, Router) {
    let mut config = Config::new(":memory:");
    // The fuzzer is one client sending as fast as it can: limits would refuse most inputs
    // before they reach the parsers.
    config.limits.enabled = false;
    config.cpu_workers = 1;
    let state = rt.block_on(async {
        let store = SqliteStore::open(Path::new(":memory:")).expect("an in-memory store");
        AppState::with_store(Arc::new(store), config)
            .await
            .expect("a fresh state")
    });
    let router = dames_server::app(state.clone());
    (state, router)
}

impl World {
    pub(crate) fn new() -> Self {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let (state, router) = fresh(&rt);
        Self {
            rt,
            state,
            router,
            rooms: Vec::new(),
            served: 0,
            feedback: Vec::new(),
            failures: 0,
            first_failure: None,
            kinds: Vec::new(),
            last: String::new(),
            answered: [0; 2],
            moves: 0,
            finished: 0,
            ws_acks: 0,
        }
    }

    fn maybe_refresh(&mut self) {
        self.served += 1;
        if self.served >= FRESH_EVERY {
            self.served = 0;
            let (state, router) = fresh(&self.rt);
            self.state.closing.send_replace(true);
            self.state = state;
            self.router = router;
            self.rooms.clear();
            self.feedback.clear();
        }
    }

    /// Counts a failure; keeps the first one of each kind (up to 8 kinds), described.
    fn fail(&mut self, kind: String, what: String) {
        self.failures += 1;
        let seen = self.kinds.contains(&kind);
        if !seen && self.kinds.len() < 8 {
            self.kinds.push(kind);
            let first = self.first_failure.get_or_insert_with(String::new);
            if !first.is_empty() {
                first.push_str("\n  ");
            }
            first.push_str(&what);
        }
    }

    /// Sends one request through the router; the status and the body read as JSON.
    fn send(&mut self, req: Request<Body>) -> (StatusCode, Value) {
        let router = self.router.clone();
        let api = req.uri().path().starts_with("/api/");
        let described = format!("{} {}", req.method(), req.uri());
        let (status, bytes) = self.rt.block_on(async move {
            let res = router.oneshot(req).await.expect("the router never fails");
            let status = res.status();
            let bytes = axum::body::to_bytes(res.into_body(), 1 << 22)
                .await
                .unwrap_or_default();
            (status, bytes)
        });
        let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        self.answered[usize::from(!status.is_success())] += 1;
        if status.is_success() && body["applied"] == true {
            self.moves += 1;
            let room = &body["room"];
            if room["status"] == "finished" {
                self.finished += 1;
            }
        }
        if status.is_server_error() {
            let kind = format!("{status} {}", body["error"]["code"]);
            self.fail(kind, format!("{described} {}: {}", self.last, body));
        } else if api && !status.is_success() && !body["error"]["code"].is_string() {
            let kind = format!("untyped {status}");
            self.fail(
                kind,
                format!("{described} {}: untyped error {status}", self.last),
            );
        }
        (status, body)
    }

    fn remember(&mut self, body: &Value, status: StatusCode) {
        let (Some(code), Some(seat), Some(token)) = (
            body["code"].as_str(),
            body["seat"].as_u64(),
            body["token"].as_str(),
        ) else {
            return;
        };
        if !status.is_success() {
            return;
        }
        let seat = seat as usize;
        match self.rooms.iter_mut().find(|r| r.code == code) {
            Some(known) => {
                known.tokens.retain(|(s, _)| *s != seat);
                known.tokens.push((seat, token.to_owned()));
                known.view = body["room"].clone();
            }
            None => {
                if self.rooms.len() >= MAX_ROOMS {
                    self.rooms.remove(0);
                }
                self.rooms.push(Known {
                    code: code.to_owned(),
                    tokens: vec![(seat, token.to_owned())],
                    view: body["room"].clone(),
                });
            }
        }
    }

    fn depth(&self) -> String {
        format!(
            "{} HTTP answers 2xx, {} typed errors; {} HTTP moves applied ({} ending a game); {} \
             WebSocket actions acknowledged",
            self.answered[0], self.answered[1], self.moves, self.finished, self.ws_acks
        )
    }

    /// Keeps the latest view of a room from an answer that carries one.
    fn update_view(&mut self, code: &str, body: &Value) {
        let view = if body["room"].is_object() {
            &body["room"]
        } else if body["seats"].is_array() {
            body
        } else {
            return;
        };
        if let Some(known) = self.rooms.iter_mut().find(|r| r.code == code) {
            known.view = view.clone();
        }
    }
}

/// A peer address: a few IPv4 and IPv6 clients, loopback (a proxy) among them.
fn peer(rng: &mut Rng) -> SocketAddr {
    let ip = match rng.below(5) {
        0 => IpAddr::V4(Ipv4Addr::LOCALHOST),
        1 => IpAddr::V4(Ipv4Addr::new(203, 0, 113, rng.below(4) as u8)),
        2 => IpAddr::V6(Ipv6Addr::new(
            0x2001,
            0xdb8,
            0,
            1,
            0,
            0,
            0,
            rng.below(3) as u16,
        )),
        3 => IpAddr::V6(Ipv4Addr::new(198, 51, 100, 9).to_ipv6_mapped()),
        _ => IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)),
    };
    SocketAddr::new(ip, 40000 + rng.below(1000) as u16)
}

const LEVELS: &[&str] = &["facile", "normal", "difficile", "expert"];

/// What one request is for.
#[derive(Clone, Copy, Debug)]
enum Op {
    Create,
    Join,
    View,
    Settings,
    Seat,
    Start,
    Move,
    Hint,
    Resign,
    Draw,
    Rematch,
    Away,
    Transfer,
    Leave,
    PushOn,
    PushOff,
    Feedback,
    FeedbackList,
    FeedbackDelete,
    Position,
    Conduct,
    Misc,
}

const OPS: &[(Op, usize)] = &[
    (Op::Create, 8),
    (Op::Join, 9),
    (Op::View, 8),
    (Op::Settings, 6),
    (Op::Seat, 5),
    (Op::Start, 7),
    (Op::Move, 28),
    (Op::Hint, 1),
    (Op::Resign, 2),
    (Op::Draw, 3),
    (Op::Rematch, 4),
    (Op::Away, 3),
    (Op::Transfer, 2),
    (Op::Leave, 2),
    (Op::PushOn, 3),
    (Op::PushOff, 1),
    (Op::Feedback, 4),
    (Op::FeedbackList, 1),
    (Op::FeedbackDelete, 1),
    (Op::Position, 2),
    (Op::Conduct, 3),
    (Op::Misc, 4),
];

/// Draughts positions to import or to start a room from (FEN and PDN; mutated by the caller).
const POSITIONS: &[&str] = &[
    "W:W31,32,33:B18,19,K2",
    "B:W28:B19",
    "[GameType \"26\"]\n1. 22-18 11-15 2. 18x11 8x15 *",
    "[FEN \"W:W31,32:B1,K2\"]\n1. 32-28 *",
    "1. 32-28 19-23 2. 28x19 14x23 *",
];

/// An `away` request (« Confier à un CPU », « Réclamer la victoire »): any seat, any action.
fn away_body(rng: &mut Rng) -> Value {
    let seat = rng.below(7);
    match rng.below(4) {
        0 => json!({"seat": seat, "action": "claim"}),
        1 => json!({"seat": seat, "action": "cpu"}),
        2 => json!({"seat": seat, "action": "cpu", "level": *rng.pick(&["facile", "expert", "?"])}),
        _ => json!({"seat": seat, "action": *rng.pick(&["nap", "", "CPU"])}),
    }
}

fn pick_op(rng: &mut Rng) -> Op {
    let total: usize = OPS.iter().map(|(_, w)| w).sum();
    let mut n = rng.below(total);
    for (op, w) in OPS {
        if n < *w {
            return *op;
        }
        n -= w;
    }
    Op::Misc
}

fn name(rng: &mut Rng) -> String {
    (*rng.pick(&["Ana", "Bo", "Cy", "Di", "\u{c9}lodie", "\u{674e}"])).to_owned()
}

fn settings_template(rng: &mut Rng, game: &str) -> Value {
    let rules = match game {
        "cc" => json!({"players": *rng.pick(&[2, 2, 3, 4, 6]),
                       "rule_set": *rng.pick(&["international", "japanese"])}),
        _ => json!({"variant": *rng.pick(&["international", "brazilian", "canadian"])}),
    };
    json!({"rules": rules, "cpu_ms": 20, "rhythm": *rng.pick(&["live", "turn"]),
           "hints": rng.one_in(2)})
}

/// A browser's push subscription (a valid P-256 key and auth secret).
fn subscription(rng: &mut Rng) -> Value {
    const P256DH: &str =
        "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U";
    let endpoint = *rng.pick(&[
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://updates.push.services.mozilla.com/wpush/v2/x",
        "https://[::ffff:127.0.0.1]:9/x",
        "https://localhost./x",
    ]);
    json!({"endpoint": endpoint, "expirationTime": null,
           "keys": {"p256dh": P256DH, "auth": "tBHItJI5svbpez7KI4CCXg"}})
}

/// Keeps CPU think times short: a mutated `cpu_ms` of 30 s would stall the run, not find bugs
/// (its parsing is fuzzed without playing by the settings target).
fn short_cpu(body: &mut Value) {
    let clamp = |v: &mut Value| {
        if v.as_u64().is_some_and(|ms| ms > 50) {
            *v = json!(50);
        }
    };
    if let Some(v) = body.get_mut("cpu_ms") {
        clamp(v);
    }
    if let Some(v) = body.get_mut("settings").and_then(|s| s.get_mut("cpu_ms")) {
        clamp(v);
    }
}

impl World {
    /// A room, a seat token of it (when the generator has one) and its last view.
    fn some_room(
        &self,
        rng: &mut Rng,
        want_seat: Option<usize>,
    ) -> Option<(String, Option<String>, Value)> {
        if self.rooms.is_empty() {
            return None;
        }
        let known = rng.pick(&self.rooms);
        let token = match want_seat {
            Some(seat) => known.tokens.iter().find(|(s, _)| *s == seat),
            None => known.tokens.get(rng.below(known.tokens.len())),
        }
        .or_else(|| known.tokens.first())
        .map(|(_, t)| t.clone());
        Some((known.code.clone(), token, known.view.clone()))
    }

    /// The request of `op`: method, path, body and seat token, all valid.
    fn request(
        &mut self,
        rng: &mut Rng,
        op: Op,
    ) -> (Method, String, Option<Value>, Option<String>, String) {
        let room = |w: &Self, rng: &mut Rng, seat: Option<usize>| {
            w.some_room(rng, seat)
                .unwrap_or_else(|| ("K7M2QX".into(), None, Value::Null))
        };
        let post = Method::POST;
        match op {
            Op::Create => {
                let game = *rng.pick(&["cc", "draughts"]);
                let mut body = json!({"game": game, "name": name(rng)});
                if rng.one_in(2) {
                    body["settings"] = settings_template(rng, game);
                }
                if rng.one_in(5) {
                    body["cpu"] = json!({"level": *rng.pick(&LEVELS[..2])});
                }
                if game == "draughts" && rng.one_in(4) {
                    body["start"] = json!(*rng.pick(POSITIONS));
                }
                (post, "/api/rooms".into(), Some(body), None, String::new())
            }
            Op::Join => {
                let (code, token, view) = room(self, rng, None);
                let mut body = json!({"name": name(rng)});
                if rng.one_in(2) {
                    let seats = view["seats"].as_array().map_or(2, Vec::len);
                    body["seat"] = json!(rng.below(seats + 1));
                }
                // Mostly a new person; sometimes a seat holder coming back.
                let token = token.filter(|_| rng.one_in(5));
                (
                    post,
                    format!("/api/rooms/{code}/join"),
                    Some(body),
                    token,
                    code,
                )
            }
            Op::View => {
                let (code, token, _) = room(self, rng, None);
                (Method::GET, format!("/api/rooms/{code}"), None, token, code)
            }
            Op::Settings => {
                let (code, token, view) = room(self, rng, Some(0));
                let game = view["game"].as_str().unwrap_or("cc").to_owned();
                let body = settings_template(rng, &game);
                (
                    post,
                    format!("/api/rooms/{code}/settings"),
                    Some(body),
                    token,
                    code,
                )
            }
            Op::Seat => {
                let (code, token, view) = room(self, rng, Some(0));
                let seats = view["seats"].as_array().map_or(2, Vec::len);
                let body = match rng.below(3) {
                    0 => json!({"cpu": *rng.pick(&LEVELS[..2])}),
                    1 => json!({"cpu": null}),
                    _ => json!({"kick": true}),
                };
                let seat = 1 + rng.below(seats.max(2));
                (
                    post,
                    format!("/api/rooms/{code}/seats/{seat}"),
                    Some(body),
                    token,
                    code,
                )
            }
            Op::Start => {
                let (code, token, _) = room(self, rng, Some(0));
                (
                    post,
                    format!("/api/rooms/{code}/start"),
                    Some(json!({})),
                    token,
                    code,
                )
            }
            Op::Move => {
                let (code, token, _, body) = self.move_request(rng);
                (
                    post,
                    format!("/api/rooms/{code}/move"),
                    Some(body),
                    token,
                    code,
                )
            }
            Op::Hint => {
                let to_move = self
                    .rooms
                    .first()
                    .and_then(|r| r.view["play"]["to_move"].as_u64());
                let (code, token, _) = room(self, rng, to_move.map(|s| s as usize));
                (
                    post,
                    format!("/api/rooms/{code}/hint"),
                    Some(json!({})),
                    token,
                    code,
                )
            }
            Op::Resign => {
                let (code, token, _) = room(self, rng, None);
                (
                    post,
                    format!("/api/rooms/{code}/resign"),
                    Some(json!({})),
                    token,
                    code,
                )
            }
            Op::Draw => {
                let (code, token, _) = room(self, rng, None);
                let action = *rng.pick(&["offer", "accept", "decline"]);
                (
                    post,
                    format!("/api/rooms/{code}/draw"),
                    Some(json!({"action": action})),
                    token,
                    code,
                )
            }
            Op::Rematch => {
                let (code, token, _) = room(self, rng, None);
                let ready = !rng.one_in(4);
                // Without the persons who left: CPUs in their seats, or (the host) empty seats.
                let body = match rng.below(6) {
                    0 => {
                        json!({"ready": ready, "absent_cpu": *rng.pick(&["facile", "expert", "x"])})
                    }
                    1 => json!({"ready": ready, "absent_empty": true}),
                    2 => json!({"ready": ready, "absent_empty": true, "absent_cpu": "normal"}),
                    _ => json!({"ready": ready}),
                };
                (
                    post,
                    format!("/api/rooms/{code}/rematch"),
                    Some(body),
                    token,
                    code,
                )
            }
            Op::Away => {
                let (code, token, _) = room(self, rng, None);
                (
                    post,
                    format!("/api/rooms/{code}/away"),
                    Some(away_body(rng)),
                    token,
                    code,
                )
            }
            Op::Transfer => {
                let (code, token, _) = room(self, rng, None);
                let (path, body) = if rng.one_in(2) {
                    (format!("/api/rooms/{code}/transfer"), json!({}))
                } else {
                    let forged = format!("{:016x}{:016x}", rng.next_u64(), rng.next_u64());
                    let token = *rng.pick(&[forged.as_str(), "", "zz", "0"]);
                    (
                        format!("/api/rooms/{code}/transfer/claim"),
                        json!({"token": token}),
                    )
                };
                (post, path, Some(body), token, code)
            }
            Op::Leave => {
                let (code, token, _) = room(self, rng, None);
                (
                    post,
                    format!("/api/rooms/{code}/leave"),
                    Some(json!({})),
                    token,
                    code,
                )
            }
            Op::PushOn => {
                let (code, token, _) = room(self, rng, None);
                (
                    post,
                    format!("/api/rooms/{code}/push"),
                    Some(subscription(rng)),
                    token,
                    code,
                )
            }
            Op::PushOff => {
                let (code, token, _) = room(self, rng, None);
                (
                    Method::DELETE,
                    format!("/api/rooms/{code}/push"),
                    None,
                    token,
                    code,
                )
            }
            Op::Feedback => {
                let kind = *rng.pick(&["review", "request", "problem", "rule"]);
                let mut body = json!({"kind": kind, "text": "Tr\u{e8}s bien, merci !"});
                if kind == "review" || rng.one_in(4) {
                    body["game"] = json!(*rng.pick(&["cc", "draughts"]));
                    body["stars"] = json!(1 + rng.below(5));
                }
                if rng.one_in(2) {
                    body["name"] = json!(name(rng));
                }
                (
                    post,
                    "/api/feedback".into(),
                    Some(body),
                    None,
                    String::new(),
                )
            }
            Op::FeedbackList => (
                Method::GET,
                "/api/feedback".into(),
                None,
                None,
                String::new(),
            ),
            Op::FeedbackDelete => {
                let id = self.feedback.last().copied().unwrap_or(1);
                (
                    Method::DELETE,
                    format!("/api/feedback/{id}"),
                    None,
                    None,
                    String::new(),
                )
            }
            Op::Position => {
                let mut body = json!({"text": *rng.pick(POSITIONS)});
                if rng.one_in(2) {
                    body["variant"] = json!(*rng.pick(&["international", "brazilian", "canadian"]));
                }
                (
                    post,
                    "/api/draughts/position".into(),
                    Some(body),
                    None,
                    String::new(),
                )
            }
            // « Jouer en ligne »: blocks, reports, the pools and the public lists.
            Op::Conduct => {
                let (code, token, _) = room(self, rng, None);
                let seat = rng.below(7);
                match rng.below(5) {
                    0 => (
                        post,
                        "/api/me/blocks".into(),
                        Some(json!({"room": code, "seat": seat})),
                        token,
                        String::new(),
                    ),
                    1 => (Method::DELETE, "/api/me/blocks".into(), None, token, code),
                    2 => {
                        let reason =
                            *rng.pick(&["name", "stalling", "leaving", "cheating", "other", "x"]);
                        let mut body = json!({"seat": seat, "reason": reason});
                        if rng.one_in(2) {
                            body["note"] = json!(name(rng));
                        }
                        let path = format!("/api/rooms/{code}/reports");
                        (post, path, Some(body), token, String::new())
                    }
                    3 => (Method::GET, "/api/pools".into(), None, None, String::new()),
                    _ => (Method::GET, "/api/public".into(), None, None, String::new()),
                }
            }
            Op::Misc => {
                let (code, token, _) = room(self, rng, None);
                let since = *rng.pick(&["0", "3", "-1", "", "x", "99999999999999999999"]);
                let path = match rng.below(10) {
                    8 => format!("/api/rooms/{code}/record"),
                    9 => format!("/api/rooms/{code}/download"),
                    0 => "/api/me/games".to_owned(),
                    1 => "/api/me/rooms".to_owned(),
                    2 => "/api/push/key".to_owned(),
                    3 => format!("/api/rooms/{code}/events?since={since}"),
                    4 => format!("/api/rooms/{code}/qr.svg"),
                    5 => "/api/health".to_owned(),
                    6 => format!("/r/{code}"),
                    _ => "/api/nothing".to_owned(),
                };
                (Method::GET, path, None, token, code)
            }
        }
    }

    /// A move of a room in play: a legal move of the seat to move, with its token.
    fn move_request(&mut self, rng: &mut Rng) -> (String, Option<String>, Value, Value) {
        let playing: Vec<&Known> = self
            .rooms
            .iter()
            .filter(|r| r.view["status"] == "playing")
            .collect();
        let id = json!(format!("m{}", rng.next_u64() % 100_000));
        let Some(known) = playing.get(rng.below(playing.len().max(1))).copied() else {
            let body = json!({"id": id, "move": {"notation": "32-28"}});
            return ("K7M2QX".into(), None, Value::Null, body);
        };
        let to_move = known.view["play"]["to_move"].as_u64().map(|s| s as usize);
        let token = to_move
            .and_then(|seat| known.tokens.iter().find(|(s, _)| *s == seat))
            .or_else(|| known.tokens.first())
            .map(|(_, t)| t.clone());
        let legal = known.view["play"]["legal_moves"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let mv = match legal.is_empty() {
            true => json!({"notation": "32-28"}),
            false => rng.pick(&legal).clone(),
        };
        let mv = match (rng.below(3), mv.get("notation")) {
            (0, _) => mv,
            (_, Some(n)) => json!({"notation": n}),
            (_, None) => json!({"from": mv["from"], "to": mv["to"]}),
        };
        let body = match rng.one_in(6) {
            true => json!({"move": mv}),
            false => json!({"id": id, "move": mv}),
        };
        (known.code.clone(), token, known.view.clone(), body)
    }

    /// The view a seat holder gets, so that the next moves are the legal ones of the seat to
    /// move.
    fn look(&mut self, code: &str, token: Option<String>) {
        let mut req = Request::builder()
            .method(Method::GET)
            .uri(format!("/api/rooms/{code}"));
        if let Some(token) = token {
            req = req.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let Ok(mut req) = req.body(Body::empty()) else {
            return;
        };
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 1))));
        let (status, body) = self.send(req);
        if status.is_success() {
            self.update_view(code, &body);
        }
    }

    /// The token of the seat to move in a known room, for a look at its legal moves.
    /// The seat to move (if any) looks at the room, to be shown its legal moves.
    fn look_as_mover(&mut self, code: &str) {
        let token = self.token_to_move(code);
        if token.is_some() {
            self.look(code, token);
        }
    }

    fn token_to_move(&self, code: &str) -> Option<String> {
        let known = self.rooms.iter().find(|r| r.code == code)?;
        let seat = known.view["play"]["to_move"].as_u64()? as usize;
        known
            .tokens
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, t)| t.clone())
    }
}

/// HTTP requests of every API route, valid ones (so games progress) and mutated ones: body
/// (structure and bytes), path (code, seat number, junk), method, content type, `Origin` and
/// `Sec-Fetch-Site`, seat token (altered, or a cookie that disagrees), forwarding headers.
pub struct Http {
    world: World,
}

impl Http {
    pub(crate) fn new() -> Self {
        Self {
            world: World::new(),
        }
    }
}

const CONTENT_TYPES: &[&str] = &[
    "text/plain",
    "application/x-www-form-urlencoded",
    "APPLICATION/JSON",
    "application/json; charset=utf-8",
    "application/jsonx",
    "",
];

impl Target for Http {
    fn name(&self) -> &'static str {
        "HTTP requests (router)"
    }

    fn one(&mut self, rng: &mut Rng) {
        let w = &mut self.world;
        w.maybe_refresh();
        let op = pick_op(rng);
        let (mut method, mut path, body, token, code) = w.request(rng, op);
        let valid = rng.one_in(3);
        let mut bytes = match &body {
            None => Vec::new(),
            Some(body) if valid => serde_json::to_vec(body).unwrap_or_default(),
            Some(body) => {
                let mut body = body.clone();
                let mut bytes = mutated_json(rng, &body, 4);
                if let Ok(mut v) = serde_json::from_slice::<Value>(&bytes) {
                    short_cpu(&mut v);
                    body = v;
                    bytes = serde_json::to_vec(&body).unwrap_or_default();
                }
                bytes
            }
        };
        if !valid {
            if rng.one_in(10) {
                path = mutate_string(rng, &path);
            }
            if rng.one_in(40) {
                method = rng
                    .pick(&[
                        Method::GET,
                        Method::PUT,
                        Method::PATCH,
                        Method::DELETE,
                        Method::POST,
                    ])
                    .clone();
            }
            if body.is_none() && rng.one_in(10) {
                bytes = mutated_json(rng, &json!({}), 2);
            }
            if rng.one_in(200) {
                bytes = vec![b' '; 20_000];
                mutate_bytes(rng, &mut bytes);
            }
        }
        // A path that is not a URI is refused before the server (by the client or hyper).
        let Ok(uri) = path.parse::<axum::http::Uri>() else {
            return;
        };
        let mut req = Request::builder().method(method).uri(uri);
        if body.is_some() || !bytes.is_empty() {
            let content_type = match !valid && rng.one_in(12) {
                true => *rng.pick(CONTENT_TYPES),
                false => "application/json",
            };
            if !content_type.is_empty() {
                req = req.header(header::CONTENT_TYPE, content_type);
            }
        }
        if let Some(token) = &token {
            let token = match !valid && rng.one_in(12) {
                true => mutate_string(rng, token),
                false => token.clone(),
            };
            match rng.below(3) {
                0 if !code.is_empty() => {
                    req = req.header(header::COOKIE, format!("dames_seat_{code}={token}"));
                }
                _ => req = req.header(header::AUTHORIZATION, format!("Bearer {token}")),
            }
            if !valid && rng.one_in(20) {
                req = req.header(header::COOKIE, format!("dames_seat_{code}=0123"));
            }
        }
        if !valid {
            if rng.one_in(15) {
                let origin = *rng.pick(&[
                    "https://evil.example",
                    "null",
                    "http://localhost",
                    "http://127.0.0.1:1",
                ]);
                req = req.header(header::ORIGIN, origin);
            }
            if rng.one_in(20) {
                let site = *rng.pick(&["cross-site", "same-site", "same-origin", "none", "\u{e9}"]);
                req = req.header("sec-fetch-site", site);
            }
            if rng.one_in(20) {
                let hops = mutate_string(rng, "203.0.113.9, 10.0.0.1");
                req = req.header("x-forwarded-for", hops);
            }
            if rng.one_in(20) {
                req = req.header(header::HOST, mutate_string(rng, "dames.example:8080"));
            }
        }
        let Ok(mut req) = req.body(Body::from(bytes.clone())) else {
            return;
        };
        req.extensions_mut().insert(ConnectInfo(peer(rng)));
        w.last = format!("{:?} body {:?}", op, String::from_utf8_lossy(&bytes));
        let (status, answer) = w.send(req);
        match op {
            Op::Create | Op::Join => w.remember(&answer, status),
            Op::Feedback if status.is_success() => {
                if let Some(id) = answer["id"].as_i64() {
                    w.feedback.push(id);
                }
            }
            _ if status.is_success() && !code.is_empty() => w.update_view(&code, &answer),
            _ => {}
        }
        // The seat to move looks at the room now and then, to be shown its legal moves.
        if !code.is_empty() && rng.one_in(2) {
            w.look_as_mover(&code);
        }
    }

    fn last_input(&self) -> String {
        self.world.last.clone()
    }

    fn failures(&self) -> (u64, Option<String>) {
        (self.world.failures, self.world.first_failure.clone())
    }

    fn depth(&self) -> String {
        self.world.depth()
    }
}

/// WebSocket client messages (`move`, `resign`, `draw`, `rematch`, `away`, `ping`), valid and mutated,
/// answered by a session of a seat of a room in play ([`dames_server::ws::answer_detached`]); the
/// rooms come from HTTP requests of the same world (created, joined, started).
pub struct Ws {
    world: World,
}

impl Ws {
    pub(crate) fn new() -> Self {
        Self {
            world: World::new(),
        }
    }

    /// A room with two people and a started game, through HTTP.
    fn new_game(&mut self, rng: &mut Rng) {
        let w = &mut self.world;
        let game = *rng.pick(&["cc", "draughts"]);
        let mut create = json!({"game": game, "name": "Ana"});
        if rng.one_in(2) {
            create["settings"] = settings_template(rng, game);
        }
        let (status, body) = w.send(json_request(Method::POST, "/api/rooms", &create, None));
        w.remember(&body, status);
        let Some(code) = body["code"].as_str().map(str::to_owned) else {
            return;
        };
        let seats = body["room"]["seats"].as_array().map_or(2, Vec::len);
        for i in 1..seats {
            let path = format!("/api/rooms/{code}/join");
            let join = json!({"name": format!("P{i}")});
            let (status, body) = w.send(json_request(Method::POST, &path, &join, None));
            w.remember(&body, status);
        }
        let host = w
            .rooms
            .last()
            .and_then(|r| r.tokens.first())
            .map(|(_, t)| t.clone());
        let path = format!("/api/rooms/{code}/start");
        let (status, body) = w.send(json_request(Method::POST, &path, &json!({}), host));
        if status.is_success() {
            w.update_view(&code, &body);
        }
    }
}

/// The messages of `/ws/pools` (quick pairing), through the seeking socket's own code
/// (`DetachedSeeker`): seeks of a few browsers in real, unknown and too many pools, with or
/// without the CPU fill, mutated or oversized; cancels; pings. Every answer is a typed frame
/// (`seeking`, `cancelled`, `pong`, `matched`, or an error with its code, never `internal`);
/// seekers come and go (a closed socket), and the pools pair them meanwhile.
pub struct PoolsWs {
    world: World,
    seekers: Vec<Option<dames_server::http::pools::DetachedSeeker>>,
    /// Answers by kind: seeking, matched, typed errors.
    seeking: u64,
    matched: u64,
    errors: u64,
}

impl PoolsWs {
    pub(crate) fn new() -> Self {
        Self {
            world: World::new(),
            seekers: (0..4).map(|_| None).collect(),
            seeking: 0,
            matched: 0,
            errors: 0,
        }
    }

    fn message(rng: &mut Rng) -> Value {
        const POOLS: &[&str] = &[
            "draughts10-live",
            "draughts8-turn",
            "cc3-intl-live",
            "cc4-intl-turn",
            "cc2-jp-live",
            "cc6-intl-live",
            "cc5-intl-live",
            "",
        ];
        match rng.below(8) {
            0 => json!({"type": "cancel"}),
            1 => json!({"type": "ping"}),
            _ => {
                let n = if rng.one_in(20) { 9 } else { 1 + rng.below(3) };
                let pools: Vec<&str> = (0..n).map(|_| *rng.pick(POOLS)).collect();
                let mut seek = json!({"type": "seek", "name": name(rng), "pools": pools});
                if rng.one_in(3) {
                    let level = *rng.pick(&["facile", "normal", "expert", "god"]);
                    let after = *rng.pick(&[10, 60, 300, 3, 100_000]);
                    seek["cpu"] = json!({"level": level, "after": after});
                }
                seek
            }
        }
    }
}

impl Target for PoolsWs {
    fn name(&self) -> &'static str {
        "pool messages (seeking socket)"
    }

    fn one(&mut self, rng: &mut Rng) {
        self.world.maybe_refresh();
        if self.world.served == 0 {
            // A fresh world: the seekers of the old one go with it.
            self.seekers.iter_mut().for_each(|s| *s = None);
        }
        let i = rng.below(self.seekers.len());
        if rng.one_in(40) {
            self.seekers[i] = None;
            return;
        }
        let w = &mut self.world;
        if self.seekers[i].is_none() {
            let ip = IpAddr::V4(Ipv4Addr::new(203, 0, 113, 10 + i as u8));
            let client = format!("{:032x}", 0xf00d_0000 + i);
            match dames_server::http::pools::DetachedSeeker::new(&w.state, ip, &client) {
                Ok(s) => self.seekers[i] = Some(s),
                Err(err) => {
                    let what = format!("a seeking socket refused: {err}");
                    w.fail("pools socket".into(), what);
                    return;
                }
            }
        }
        let body = Self::message(rng);
        let mut bytes = match rng.one_in(3) {
            true => serde_json::to_vec(&body).unwrap_or_default(),
            false => mutated_json(rng, &body, 3),
        };
        if rng.one_in(200) {
            bytes = vec![b'{'; 3000];
        }
        w.last = format!("seeker {i} message {:?}", String::from_utf8_lossy(&bytes));
        let Some(seeker) = self.seekers[i].as_mut() else {
            return;
        };
        let answers = w.rt.block_on(async {
            let answers = seeker.answer(&bytes).await;
            // The matcher runs between messages, as it would between a socket's frames.
            for _ in 0..4 {
                tokio::task::yield_now().await;
            }
            answers
        });
        for answer in answers {
            let kind = answer["type"].as_str().unwrap_or("");
            match kind {
                "seeking" => self.seeking += 1,
                "matched" => self.matched += 1,
                "error" => self.errors += 1,
                _ => {}
            }
            let typed = matches!(kind, "seeking" | "cancelled" | "pong" | "matched")
                || (kind == "error" && answer["code"].is_string());
            if !typed || answer["code"] == "internal" {
                let what = format!("{}: {answer}", w.last);
                w.fail(format!("pools {}", answer["code"]), what);
            }
        }
    }

    fn last_input(&self) -> String {
        self.world.last.clone()
    }

    fn failures(&self) -> (u64, Option<String>) {
        (self.world.failures, self.world.first_failure.clone())
    }

    fn depth(&self) -> String {
        format!(
            "{} seeks taken, {} typed errors, {} matches told",
            self.seeking, self.errors, self.matched
        )
    }
}

fn json_request(method: Method, path: &str, body: &Value, token: Option<String>) -> Request<Body> {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(token) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let mut req = req
        .body(Body::from(serde_json::to_vec(body).unwrap_or_default()))
        .expect("a valid request");
    req.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 2))));
    req
}

impl Target for Ws {
    fn name(&self) -> &'static str {
        "WebSocket messages (session)"
    }

    fn one(&mut self, rng: &mut Rng) {
        self.world.maybe_refresh();
        let playing = self
            .world
            .rooms
            .iter()
            .filter(|r| r.view["status"] != "lobby")
            .count();
        if playing < 3 || rng.one_in(300) {
            self.new_game(rng);
        }
        let w = &mut self.world;
        let (code, mut token, body) = match rng.below(10) {
            0..=5 => {
                let (code, token, _, body) = w.move_request(rng);
                (
                    code,
                    token,
                    json!({"type": "move", "id": body["id"], "move": body["move"]}),
                )
            }
            6 => {
                let (code, token, _) = w.some_room(rng, None).unwrap_or_default();
                (code, token, json!({"type": "resign", "id": "r1"}))
            }
            7 => {
                let (code, token, _) = w.some_room(rng, None).unwrap_or_default();
                let action = *rng.pick(&["offer", "accept", "decline"]);
                (
                    code,
                    token,
                    json!({"type": "draw", "id": "d1", "action": action}),
                )
            }
            8 => {
                let (code, token, _) = w.some_room(rng, None).unwrap_or_default();
                (code, token, json!({"type": "rematch", "ready": true}))
            }
            9 if rng.one_in(3) => {
                let (code, token, _) = w.some_room(rng, None).unwrap_or_default();
                let phrase = *rng.pick(&[
                    "hello",
                    "good_game",
                    "well_played",
                    "thanks",
                    "oops",
                    "rematch",
                    "insult",
                ]);
                (
                    code,
                    token,
                    json!({"type": "phrase", "id": "s1", "phrase": phrase}),
                )
            }
            9 if rng.one_in(2) => {
                let (code, token, _) = w.some_room(rng, None).unwrap_or_default();
                let mut body = away_body(rng);
                body["type"] = json!("away");
                body["id"] = json!("a1");
                (code, token, body)
            }
            _ => {
                let (code, token, _) = w.some_room(rng, None).unwrap_or_default();
                (code, token, json!({"type": "ping", "id": "p"}))
            }
        };
        if code.is_empty() {
            return;
        }
        let mut bytes = match rng.one_in(3) {
            true => serde_json::to_vec(&body).unwrap_or_default(),
            false => mutated_json(rng, &body, 3),
        };
        if rng.one_in(300) {
            bytes = vec![b'['; 5000];
        }
        if rng.one_in(15) {
            token = token.map(|t| mutate_string(rng, &t));
        }
        w.last = format!("room {code} message {:?}", String::from_utf8_lossy(&bytes));
        let state = w.state.clone();
        let ip = peer(rng).ip();
        let answer =
            w.rt.block_on(dames_server::ws::answer_detached(
                &state, &code, token, ip, &bytes,
            ))
            .map(|a| {
                a.and_then(|m| serde_json::to_value(m).ok())
                    .unwrap_or(Value::Null)
            });
        match answer {
            Ok(Value::Null) => {}
            Ok(answer) => {
                let kind = answer["type"].as_str().unwrap_or("");
                if kind == "ack" && answer["applied"] == true {
                    w.ws_acks += 1;
                }
                let typed = matches!(kind, "ack" | "pong" | "state")
                    || (kind == "error" && answer["code"].is_string());
                if !typed || answer["code"] == "internal" {
                    let what = format!("{}: {answer}", w.last);
                    w.fail(format!("ws {}", answer["code"]), what);
                }
            }
            Err(err) => {
                if err.is_internal() {
                    let what = format!("{}: {err}", w.last);
                    w.fail("ws internal".into(), what);
                }
            }
        }
        if rng.one_in(2) {
            w.look_as_mover(&code);
        }
    }

    fn last_input(&self) -> String {
        self.world.last.clone()
    }

    fn failures(&self) -> (u64, Option<String>) {
        (self.world.failures, self.world.first_failure.clone())
    }

    fn depth(&self) -> String {
        self.world.depth()
    }
}
