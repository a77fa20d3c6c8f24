//! A real server on a random port with a fresh database, and small HTTP and WebSocket clients.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use dames_server::{AppState, Config};
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::{client::IntoClientRequest, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A server running in this process on 127.0.0.1 with a random port.
pub struct Server {
    pub base: String,
    pub addr: std::net::SocketAddr,
    pub db: PathBuf,
    pub dir: Arc<tempfile::TempDir>,
    /// The key the server signs browser ids with (to make a known browser's cookie).
    pub client_key: Arc<str>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

/// The test configuration: a fresh database, no rate limits unless a test asks.
pub fn config(db: PathBuf) -> Config {
    let mut config = Config::new(db);
    config.limits.enabled = false;
    config
}

impl Server {
    /// A server with a fresh database and the test configuration.
    pub async fn start() -> Server {
        Self::start_with(|_| {}).await
    }

    /// A server with a fresh database and a changed configuration.
    pub async fn start_with(change: impl FnOnce(&mut Config)) -> Server {
        let dir = Arc::new(tempfile::tempdir().unwrap());
        let mut config = config(dir.path().join("dames.db"));
        change(&mut config);
        Self::run(dir, config).await
    }

    async fn run(dir: Arc<tempfile::TempDir>, config: Config) -> Server {
        let db = config.db_path.clone();
        let state = AppState::open(config).await.unwrap();
        let client_key = state.client_key.clone();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            dames_server::serve(listener, state, async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
        });
        Server {
            base: format!("http://{addr}"),
            addr,
            db,
            dir,
            client_key,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Stops the server (graceful shutdown, WebSockets closed).
    pub async fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            tokio::time::timeout(Duration::from_secs(10), task)
                .await
                .expect("shutdown in time")
                .unwrap();
        }
    }

    /// Stops this server and starts a new one on the same database file.
    pub async fn restart(mut self, change: impl FnOnce(&mut Config)) -> Server {
        self.stop().await;
        let mut config = config(self.db.clone());
        change(&mut config);
        Self::run(self.dir.clone(), config).await
    }

    /// An HTTP client without seat.
    /// Ana creates a room with `create` and Bo joins it by its code: the two players of most tests.
    pub async fn ana_and_bo(&self, create: Value) -> (Client, Client) {
        let mut ana = self.client();
        ana.create(create).await;
        let mut bo = self.client();
        bo.join(ana.code.as_deref().unwrap(), "Bo").await;
        (ana, bo)
    }

    pub fn client(&self) -> Client {
        Client {
            http: reqwest::Client::new(),
            base: self.base.clone(),
            token: None,
            code: None,
            seat: None,
        }
    }

    /// A client of the browser `id` (its `dames_client` cookie, as the server signs it, on
    /// every request).
    pub fn browser(&self, id: &str) -> Client {
        let mut headers = reqwest::header::HeaderMap::new();
        let signed = dames_server::http::client_cookie_value(&self.client_key, id);
        let cookie = format!("dames_client={signed}");
        headers.insert("cookie", cookie.parse().unwrap());
        let mut client = self.client();
        client.http = reqwest::Client::builder()
            .default_headers(headers)
            .build()
            .unwrap();
        client
    }
}

/// A player or a script: Bearer token of its seat once it has one.
#[derive(Clone)]
pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub token: Option<String>,
    pub code: Option<String>,
    pub seat: Option<u64>,
}

/// An answer: status, JSON body (Null if not JSON), headers.
pub struct Answer {
    pub status: StatusCode,
    pub body: Value,
    pub headers: reqwest::header::HeaderMap,
}

impl Answer {
    /// The error code of an error answer.
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }

    /// Asserts an error with this status and code.
    #[track_caller]
    pub fn expect_error(&self, status: u16, code: &str) {
        assert_eq!(
            (self.status.as_u16(), self.code()),
            (status, code),
            "{}",
            self.body
        );
        assert!(
            self.body["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{}",
            self.body
        );
    }

    /// Asserts success and returns the body.
    #[track_caller]
    pub fn ok(self) -> Value {
        assert!(self.status.is_success(), "{} {}", self.status, self.body);
        self.body
    }
}

impl Client {
    pub async fn send(&self, req: reqwest::RequestBuilder) -> Answer {
        let req = match &self.token {
            Some(t) => req.bearer_auth(t),
            None => req,
        };
        let res = req.send().await.unwrap();
        let status = res.status();
        let headers = res.headers().clone();
        let text = res.text().await.unwrap();
        Answer {
            status,
            body: serde_json::from_str(&text).unwrap_or(Value::Null),
            headers,
        }
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.send(self.http.get(format!("{}{path}", self.base)))
            .await
    }

    /// The raw response to a GET of `path` (pages and files, whose bodies are not JSON).
    pub async fn fetch(&self, path: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap()
    }

    pub async fn post(&self, path: &str, body: Value) -> Answer {
        self.send(self.http.post(format!("{}{path}", self.base)).json(&body))
            .await
    }

    pub async fn post_raw(&self, path: &str, body: impl Into<reqwest::Body>) -> Answer {
        let req = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body);
        self.send(req).await
    }

    fn room_path(&self, rest: &str) -> String {
        format!(
            "/api/rooms/{}{rest}",
            self.code.as_deref().expect("in a room")
        )
    }

    /// Creates a room and takes seat 0.
    pub async fn create(&mut self, body: Value) -> Value {
        let answer = self.post("/api/rooms", body).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
        self.take_seat(&answer.body);
        answer.body["room"].clone()
    }

    fn take_seat(&mut self, body: &Value) {
        self.token = Some(body["token"].as_str().unwrap().to_owned());
        self.code = Some(body["room"]["code"].as_str().unwrap().to_owned());
        self.seat = body["seat"].as_u64();
        assert_eq!(body["token"].as_str().unwrap().len(), 32);
    }

    /// Joins room `code` (as typed) with `name`.
    pub async fn join(&mut self, code: &str, name: &str) -> Value {
        let body = self
            .post(&format!("/api/rooms/{code}/join"), json!({"name": name}))
            .await
            .ok();
        self.take_seat(&body);
        body["room"].clone()
    }

    pub async fn room(&self) -> Value {
        self.get(&self.room_path("")).await.ok()
    }

    /// Asks for a link moving this seat to another browser: the link's one-time token (its
    /// fragment).
    pub async fn transfer_token(&self) -> String {
        let link = self.act("transfer", serde_json::json!({})).await.ok();
        let url = link["url"].as_str().unwrap();
        let (_, token) = url
            .split_once("#transfer=")
            .expect("the token in the fragment");
        token.to_owned()
    }

    /// Opens a link moving a seat here with its `token`: the seat is now this client's (its
    /// new seat token kept). Returns the answer (`seat`, `token`, `room`).
    pub async fn claim_transfer(&mut self, token: &str) -> Value {
        let answer = (self
            .act("transfer/claim", serde_json::json!({"token": token}))
            .await)
            .ok();
        self.token = answer["token"].as_str().map(str::to_owned);
        answer
    }

    pub async fn act(&self, action: &str, body: Value) -> Answer {
        self.post(&self.room_path(&format!("/{action}")), body)
            .await
    }

    pub async fn start(&self) -> Value {
        self.act("start", json!({})).await.ok()
    }

    pub async fn play(&self, mv: Value) -> Answer {
        self.act("move", json!({"move": mv})).await
    }

    /// A WebSocket to the room, with `since`.
    pub async fn ws(&self, since: i64) -> Ws {
        let host = self.base.trim_start_matches("http://");
        let url = format!(
            "ws://{host}/ws/rooms/{}?since={since}",
            self.code.as_deref().unwrap()
        );
        let mut req = url.into_client_request().unwrap();
        if let Some(t) = &self.token {
            let cookie = format!("dames_seat_{}={t}", self.code.as_deref().unwrap());
            req.headers_mut().insert("cookie", cookie.parse().unwrap());
        }
        let (stream, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        Ws {
            stream,
            room: None,
            pending: std::collections::VecDeque::new(),
        }
    }
}

/// A WebSocket client. It follows the room as the page does (web/js/delta.js): [`Ws::next`]
/// gives every `delta` as the `event` messages of its events followed by a `state` of the room
/// it leads to (with the legal moves of the `turn` that follows it for the seat to move), as the
/// server sent before deltas; [`Ws::next_raw`] gives the messages as they came.
pub struct Ws {
    pub stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The room as followed from the messages (the server's JSON).
    pub room: Option<Value>,
    pending: std::collections::VecDeque<Value>,
}

impl Ws {
    pub async fn send(&mut self, msg: Value) {
        self.stream
            .send(Message::text(msg.to_string()))
            .await
            .unwrap();
    }

    pub async fn send_text(&mut self, text: String) {
        self.stream.send(Message::text(text)).await.unwrap();
    }

    /// The next JSON message as the server sent it (skipping pings), failing after 10 s.
    pub async fn next_raw(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.stream.next())
                .await
                .expect("a message within 10 s")
                .expect("socket open")
                .unwrap();
            match msg {
                Message::Text(t) => return serde_json::from_str(&t).unwrap(),
                Message::Close(_) => panic!("socket closed"),
                _ => continue,
            }
        }
    }

    /// The next message, deltas given as events and a state (see [`Ws`]).
    pub async fn next(&mut self) -> Value {
        loop {
            if let Some(msg) = self.pending.pop_front() {
                return msg;
            }
            let msg = self.next_raw().await;
            match msg["type"].as_str().unwrap_or("") {
                "state" => {
                    self.room = Some(msg["room"].clone());
                    return msg;
                }
                "delta" => {
                    for e in msg["events"].as_array().unwrap() {
                        let mut event = e.clone();
                        event["type"] = "event".into();
                        self.pending.push_back(event);
                    }
                    // A test that read the state from `stream` itself gets the events only.
                    let Some(room) = self.room.as_ref() else {
                        continue;
                    };
                    let next = apply_delta(room, &msg).expect("deltas without a gap");
                    let awaits_turn = next["status"] == "playing"
                        && !next["you"].is_null()
                        && next["play"]["to_move"] == next["you"];
                    if !awaits_turn {
                        self.pending.push_back(
                            json!({"type": "state", "version": next["version"], "room": next}),
                        );
                    }
                    self.room = Some(next);
                }
                "turn" => {
                    let room = self.room.as_mut().expect("a turn after a state");
                    assert_eq!(
                        msg["version"], room["version"],
                        "a turn for the room's version"
                    );
                    room["play"]["legal_moves"] = msg["legal_moves"].clone();
                    let state = json!({"type": "state", "version": room["version"], "room": room});
                    self.pending.push_back(state);
                }
                "presence" => {
                    if let Some(room) = self.room.as_mut() {
                        let seat = msg["seat"].as_u64().unwrap() as usize;
                        room["seats"][seat]["online"] = msg["online"].clone();
                    }
                    return msg;
                }
                _ => return msg,
            }
        }
    }

    /// Messages until one of type `kind` (returned with the ones before it).
    pub async fn until(&mut self, kind: &str) -> (Value, Vec<Value>) {
        let mut before = Vec::new();
        loop {
            let msg = self.next().await;
            if msg["type"] == kind {
                return (msg, before);
            }
            before.push(msg);
        }
    }

    /// The next `state` message whose room satisfies `pred`.
    pub async fn state_where(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let msg = self.next().await;
            if msg["type"] == "state" && pred(&msg["room"]) {
                return msg["room"].clone();
            }
        }
    }
}

/// `room` (the server's JSON) after the `delta` message `msg`, as web/js/delta.js applies it;
/// `None` on a gap in the versions.
pub fn apply_delta(room: &Value, msg: &Value) -> Option<Value> {
    let events = msg["events"].as_array()?;
    if events.first()?["version"].as_i64()? != room["version"].as_i64()? + 1 {
        return None;
    }
    let mut moves = room["play"]["moves"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for e in events {
        let event = &e["event"];
        match event["kind"].as_str() {
            Some("started") => moves.clear(),
            Some("move") => {
                let mut record = event.clone();
                record.as_object_mut().unwrap().remove("kind");
                moves.push(record);
            }
            _ => {}
        }
    }
    let shared = &msg["room"];
    let mut next = room.clone();
    next["version"] = msg["version"].clone();
    for key in ["status", "game_no", "seats"] {
        next[key] = shared[key].clone();
    }
    if let Some(settings) = shared.get("settings") {
        next["settings"] = settings.clone();
    }
    next["play"] = match &shared["play"] {
        Value::Null => Value::Null,
        play => {
            let mut play = play.clone();
            play["moves"] = Value::Array(moves);
            play["legal_moves"] = json!([]);
            play
        }
    };
    Some(next)
}

/// A tiny deterministic generator for the scripted players.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The tip hole of camp `c` (RULES.md 1.1 numbering) in cube coordinates.
pub fn tip(camp: u64) -> [i64; 3] {
    [
        [4, 4, -8],
        [8, -4, -4],
        [4, -8, 4],
        [-4, -4, 8],
        [-8, 4, 4],
        [-4, 8, -4],
    ][camp as usize]
}

fn cube(v: &Value) -> [i64; 3] {
    let a = v.as_array().unwrap();
    [
        a[0].as_i64().unwrap(),
        a[1].as_i64().unwrap(),
        a[2].as_i64().unwrap(),
    ]
}

fn distance(a: [i64; 3], b: [i64; 3]) -> i64 {
    (0..3).map(|i| (a[i] - b[i]).abs()).max().unwrap()
}

/// A Chinese checkers move for the seat to move of `room` (which must be ours): the legal move
/// that gains most towards the destination tip of the moved piece's camp, ties at random.
pub fn greedy_cc_move(room: &Value, rng: &mut Lcg) -> Value {
    let play = &room["play"];
    let moves = play["legal_moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "no legal move offered: {room}");
    let camp_at = |at: &Value| {
        play["board"]["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| &p["at"] == at)
            .map(|p| p["camp"].as_u64().unwrap())
            .unwrap()
    };
    let gain = |m: &Value| {
        let target = tip((camp_at(&m["from"]) + 3) % 6);
        distance(cube(&m["from"]), target) - distance(cube(&m["to"]), target)
    };
    let best = moves.iter().map(gain).max().unwrap();
    let best_moves: Vec<&Value> = moves.iter().filter(|m| gain(m) == best).collect();
    let m = best_moves[rng.below(best_moves.len())];
    json!({"from": m["from"], "to": m["to"]})
}

/// A random legal draughts move of `room`, as a `MoveInput`.
pub fn random_draughts_move(room: &Value, rng: &mut Lcg) -> Value {
    let moves = room["play"]["legal_moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "no legal move offered: {room}");
    json!({"notation": moves[rng.below(moves.len())]["notation"]})
}

/// Asserts that the game of `room` ended with a result: a win (or places) or a draw.
pub fn assert_decided(room: &Value) {
    let outcome = &room["play"]["outcome"];
    assert!(
        ["win", "draw"].contains(&outcome["kind"].as_str().unwrap()),
        "{outcome}"
    );
}
