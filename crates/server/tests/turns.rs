//! Turn-by-turn games (issue 6): the rhythm setting, "my games", Web Push to a local push
//! endpoint that decrypts the message (RFC 8291) and checks the VAPID signature (RFC 8292), a
//! gone subscription, and the 45-day rule across a restart.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine as _;
use common::{random_draughts_move, Client, Lcg, Server};
use hkdf::Hkdf;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use serde_json::{json, Value};
use sha2::Sha256;

/// A push received by the local endpoint, decrypted and checked.
#[derive(Clone, Debug)]
struct Received {
    /// The path (`/ok/a`, `/gone/b`…).
    path: String,
    /// The decrypted payload.
    payload: Value,
    /// The VAPID key the request was signed with (`k=`).
    vapid_key: String,
    /// JWT claims.
    claims: Value,
    ttl: Option<String>,
    urgency: Option<String>,
}

/// A browser's push subscription: its key pair and auth secret, as `pushManager.subscribe`
/// makes them.
struct Browser {
    secret: SecretKey,
    auth: [u8; 16],
}

impl Browser {
    fn new(seed: u8) -> Self {
        let mut bytes = [0u8; 32];
        getrandom_fill(&mut bytes, seed);
        Self {
            secret: SecretKey::from_slice(&bytes).unwrap(),
            auth: [seed; 16],
        }
    }

    fn public(&self) -> Vec<u8> {
        self.secret
            .public_key()
            .to_encoded_point(false)
            .as_bytes()
            .to_vec()
    }

    fn subscription(&self, endpoint: &str) -> Value {
        json!({"endpoint": endpoint, "expirationTime": null,
               "keys": {"p256dh": B64.encode(self.public()), "auth": B64.encode(self.auth)}})
    }

    /// RFC 8291 decryption of an `aes128gcm` body.
    fn decrypt(&self, body: &[u8]) -> Vec<u8> {
        let salt = &body[..16];
        let rs = u32::from_be_bytes(body[16..20].try_into().unwrap());
        assert!(rs >= 18);
        let idlen = body[20] as usize;
        assert_eq!(idlen, 65, "keyid is the sender's public key");
        let as_public = &body[21..21 + idlen];
        let ciphertext = &body[21 + idlen..];
        let sender = PublicKey::from_sec1_bytes(as_public).unwrap();
        let shared =
            p256::ecdh::diffie_hellman(self.secret.to_nonzero_scalar(), sender.as_affine());
        let mut info = b"WebPush: info\0".to_vec();
        info.extend_from_slice(&self.public());
        info.extend_from_slice(as_public);
        let mut ikm = [0u8; 32];
        Hkdf::<Sha256>::new(Some(&self.auth), shared.raw_secret_bytes())
            .expand(&info, &mut ikm)
            .unwrap();
        let prk = Hkdf::<Sha256>::new(Some(salt), &ikm);
        let mut cek = [0u8; 16];
        prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek)
            .unwrap();
        let mut nonce = [0u8; 12];
        prk.expand(b"Content-Encoding: nonce\0", &mut nonce)
            .unwrap();
        let mut plain = Aes128Gcm::new(&cek.into())
            .decrypt(Nonce::from_slice(&nonce), ciphertext)
            .expect("the payload decrypts");
        while plain.last() == Some(&0) {
            plain.pop();
        }
        assert_eq!(plain.pop(), Some(2), "last-record delimiter");
        plain
    }
}

/// Test keys that differ per seed (any 32 bytes below the group order are a key).
fn getrandom_fill(bytes: &mut [u8; 32], seed: u8) {
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = seed.wrapping_mul(31).wrapping_add(i as u8 * 7) | 1;
    }
    bytes[0] = 0x3f;
}

/// The subscriptions made so far: endpoint path and browser.
type Browsers = Arc<Mutex<Vec<(String, Arc<Browser>)>>>;

/// The local push service: `/ok/{name}` answers 201, `/gone/{name}` 410, `/slow/{name}` 201
/// after half a second (a push is counted received once answered).
#[derive(Clone)]
struct PushService {
    base: String,
    got: Arc<Mutex<Vec<Received>>>,
    browsers: Browsers,
}

impl PushService {
    async fn start() -> Self {
        let service = PushService {
            base: String::new(),
            got: Arc::default(),
            browsers: Arc::default(),
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let service = PushService { base, ..service };
        let app = axum::Router::new()
            .route("/{status}/{name}", axum::routing::post(receive))
            .with_state(service.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        service
    }

    /// A new browser subscription whose endpoint is `/{status}/{name}`.
    fn subscribe(&self, status: &str, name: &str, seed: u8) -> Value {
        let browser = Arc::new(Browser::new(seed));
        let endpoint = format!("{}/{status}/{name}", self.base);
        let sub = browser.subscription(&endpoint);
        self.browsers
            .lock()
            .unwrap()
            .push((format!("/{status}/{name}"), browser));
        sub
    }

    fn received(&self, path: &str) -> Vec<Received> {
        self.got
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.path == path)
            .cloned()
            .collect()
    }
}

async fn receive(
    State(service): State<PushService>,
    Path((status, name)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let path = format!("/{status}/{name}");
    if status == "slow" {
        // A push service taking its time: the delivery is still in flight a while.
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let header = |n: &str| {
        headers
            .get(n)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    assert_eq!(header("content-encoding").as_deref(), Some("aes128gcm"));
    // Authorization: vapid t=<JWT>, k=<public key>; the JWT is signed ES256 by that key.
    let auth = header("authorization").expect("an Authorization header");
    let rest = auth.strip_prefix("vapid ").expect("vapid scheme");
    let mut t = None;
    let mut k = None;
    for part in rest.split(',') {
        let part = part.trim();
        if let Some(v) = part.strip_prefix("t=") {
            t = Some(v.to_owned());
        } else if let Some(v) = part.strip_prefix("k=") {
            k = Some(v.to_owned());
        }
    }
    let (jwt, k) = (t.expect("t="), k.expect("k="));
    let parts: Vec<&str> = jwt.split('.').collect();
    assert_eq!(parts.len(), 3);
    let head: Value = serde_json::from_slice(&B64.decode(parts[0]).unwrap()).unwrap();
    assert_eq!(head["alg"], "ES256");
    let claims: Value = serde_json::from_slice(&B64.decode(parts[1]).unwrap()).unwrap();
    let key = VerifyingKey::from_sec1_bytes(&B64.decode(&k).unwrap()).unwrap();
    let signature = Signature::from_slice(&B64.decode(parts[2]).unwrap()).unwrap();
    key.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature)
        .expect("the VAPID JWT signature verifies");
    let browser = service
        .browsers
        .lock()
        .unwrap()
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, b)| b.clone())
        .expect("a known subscription");
    let payload: Value = serde_json::from_slice(&browser.decrypt(&body)).unwrap();
    service.got.lock().unwrap().push(Received {
        path,
        payload,
        vapid_key: k,
        claims,
        ttl: header("ttl"),
        urgency: header("urgency"),
    });
    if status == "gone" {
        StatusCode::GONE
    } else {
        StatusCode::CREATED
    }
}

async fn wait_until<F: std::future::Future<Output = bool>>(what: &str, check: impl Fn() -> F) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !check().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A turn-by-turn draughts game between two browsers; returns (host, guest).
async fn turn_game(server: &Server) -> (Client, Client) {
    let mut a = server.browser("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    let room = a
        .create(json!({"game": "draughts", "name": "Ana", "settings": {"rhythm": "turn"}}))
        .await;
    assert_eq!(room["settings"]["rhythm"], "turn");
    assert_eq!(
        room["settings"]["confirm_move"], true,
        "confirm move is on by default for turn-by-turn games"
    );
    let mut b = server.browser("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    b.join(a.code.as_deref().unwrap(), "Bo").await;
    let room = a.start().await;
    assert!(room["play"]["turn_since"].as_i64().is_some());
    (a, b)
}

/// Plays one random legal move for whoever is to move; returns the seat that moved.
async fn play_one(a: &Client, b: &Client, rng: &mut Lcg) -> u64 {
    let room = a.room().await;
    let to_move = room["play"]["to_move"].as_u64().unwrap();
    let mover = if Some(to_move) == a.seat { a } else { b };
    let view = mover.room().await;
    mover.play(random_draughts_move(&view, rng)).await.ok();
    to_move
}

#[tokio::test]
async fn a_move_sends_one_push_to_the_player_to_move_and_a_gone_subscription_is_removed() {
    let push = PushService::start().await;
    let server = Server::start_with(|c| c.push.allow_loopback_http = true).await;
    let (a, b) = turn_game(&server).await;
    let code = a.code.clone().unwrap();
    let key = a.get("/api/push/key").await.ok()["key"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(B64.decode(&key).unwrap().len(), 65);

    // Bad subscriptions are refused: not https, a spectator, broken keys.
    let spectator = server.client();
    spectator
        .post(
            &format!("/api/rooms/{code}/push"),
            push.subscribe("ok", "x", 9),
        )
        .await
        .expect_error(403, "not_seated");
    let mut bad = push.subscribe("ok", "y", 8);
    bad["endpoint"] = json!("http://push.example/x");
    a.act("push", bad).await.expect_error(400, "invalid_input");
    let mut bad = push.subscribe("ok", "z", 7);
    bad["keys"]["p256dh"] = json!("AAAA");
    a.act("push", bad).await.expect_error(400, "invalid_input");

    // Ana's browser keeps its subscription, Bo's push service says it is gone.
    a.act("push", push.subscribe("ok", "ana", 1)).await.ok();
    b.act("push", push.subscribe("gone", "bo", 2)).await.ok();

    let mut rng = Lcg(7);
    let mut turns_of = [0usize; 2];
    for _ in 0..4 {
        let moved = play_one(&a, &b, &mut rng).await;
        turns_of[1 - moved as usize] += 1;
        // Let the delivery happen before the next move.
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let ana_seat = a.seat.unwrap() as usize;
    // The turns given by a move (ply 1 on). The start's push (ply 0) may reach Ana too: its job
    // can load the subscription made just after the start.
    let to_ana = || {
        let mut got = push.received("/ok/ana");
        got.retain(|r| r.payload["ply"] != 0);
        got
    };
    wait_until("Ana's pushes", || async {
        to_ana().len() >= turns_of[ana_seat]
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let to_ana = to_ana();
    assert_eq!(
        to_ana.len(),
        turns_of[ana_seat],
        "exactly one push per move that gives Ana the turn"
    );
    for r in &to_ana {
        assert_eq!(r.payload["kind"], "turn");
        assert_eq!(r.payload["url"], format!("/r/{code}"));
        assert_eq!(r.payload["code"], code);
        assert_eq!(r.payload["seat"], ana_seat);
        assert_eq!(r.vapid_key, key, "signed with the server's VAPID key");
        assert_eq!(r.claims["aud"], push.base);
        assert!(r.claims["exp"].as_i64().unwrap() > 0);
        assert!(r.claims["sub"].as_str().unwrap().starts_with("mailto:"));
        assert!(r.ttl.is_some() && r.urgency.is_some());
    }
    // Bo's endpoint answered 410 the first time: it was deleted, nothing more went there.
    assert_eq!(turns_of[1 - ana_seat], 2);
    assert_eq!(push.received("/gone/bo").len(), 1);

    // My games: the game is listed for both, with whose turn it is.
    let mine = a.get("/api/me/games").await.ok();
    let game = &mine["games"][0];
    assert_eq!(game["code"], code);
    assert_eq!(game["rhythm"], "turn");
    assert_eq!(game["status"], "playing");
    let a_turn = game["your_turn"].as_bool().unwrap();
    assert_eq!(mine["your_turn"], u64::from(a_turn));
    let theirs = b.get("/api/me/games").await.ok();
    assert_eq!(theirs["games"][0]["your_turn"], !a_turn);
    assert!(game["turn_since"].as_i64().is_some());

    // The game ends (Bo resigns): Ana is told, then the subscriptions are deleted.
    let before = push.received("/ok/ana").len();
    b.act("resign", json!({})).await.ok();
    wait_until("the end push", || async {
        push.received("/ok/ana").len() > before
    })
    .await;
    let last = push.received("/ok/ana").pop().unwrap();
    assert_eq!(last.payload["kind"], "finished");
    let conn = rusqlite::Connection::open(&server.db).unwrap();
    wait_until("subscriptions deleted", || async {
        let n: i64 = conn
            .query_row(
                "SELECT count(*) FROM push_subscriptions WHERE code = ?1",
                [&code],
                |r| r.get(0),
            )
            .unwrap();
        n == 0
    })
    .await;
}

#[tokio::test]
async fn a_turn_pushed_just_before_a_graceful_stop_is_delivered_before_the_server_exits() {
    let push = PushService::start().await;
    let mut server = Server::start_with(|c| c.push.allow_loopback_http = true).await;
    let (a, b) = turn_game(&server).await;
    a.act("push", push.subscribe("slow", "ana", 3)).await.ok();
    let mut rng = Lcg(3);
    // Bo moves, giving Ana the turn (Ana first if she starts)...
    if play_one(&a, &b, &mut rng).await == a.seat.unwrap() {
        play_one(&a, &b, &mut rng).await;
    }
    // ... and the server is stopped at once, the push queued or on its way.
    server.stop().await;
    let got = push.received("/slow/ana");
    assert_eq!(
        got.len(),
        1,
        "the push reached the push service before the exit"
    );
    assert_eq!(got[0].payload["kind"], "turn");
    assert_eq!(got[0].payload["seat"], a.seat.unwrap());
}

#[tokio::test]
async fn an_idle_turn_game_ends_with_no_result_across_a_restart_and_players_are_told() {
    let push = PushService::start().await;
    let idle = |c: &mut dames_server::Config| {
        c.push.allow_loopback_http = true;
        c.retention.idle = Duration::from_secs(3);
        c.retention.sweep_every = Duration::from_millis(200);
    };
    let server = Server::start_with(idle).await;
    let (a, b) = turn_game(&server).await;
    a.act("push", push.subscribe("ok", "ana", 3)).await.ok();
    b.act("push", push.subscribe("ok", "bo", 4)).await.ok();
    play_one(&a, &b, &mut Lcg(3)).await;
    let moved_at = Instant::now();
    let version = a.room().await["version"].as_i64().unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    // One push for the turn the move gave (the start's may also have reached Ana, whose
    // subscription was made just after the start).
    let moves_pushed = ["/ok/ana", "/ok/bo"]
        .iter()
        .flat_map(|who| push.received(who))
        .filter(|r| r.payload["ply"] == 1)
        .count();
    assert_eq!(moves_pushed, 1);

    // The server stops before the limit and a new one opens the same database.
    let server = server.restart(idle).await;
    assert!(
        moved_at.elapsed() < Duration::from_secs(3),
        "restarted in time"
    );
    let mut a = a;
    a.base = server.base.clone();
    let mut ws = a.ws(version).await;
    let (event, _) = loop {
        let msg = ws.next().await;
        if msg["type"] == "event" && msg["event"]["kind"] == "finished" {
            break (msg, ());
        }
    };
    assert!(moved_at.elapsed() >= Duration::from_millis(2900));
    assert_eq!(
        event["event"]["outcome"],
        json!({"kind": "abandoned", "reason": "abandoned", "places": [null, null]})
    );
    let room = a.room().await;
    assert_eq!(room["status"], "finished");
    // Both players are told by a push.
    let finished = |who: &str| {
        push.received(who)
            .iter()
            .filter(|r| r.payload["kind"] == "finished")
            .count()
    };
    wait_until("both told", || async {
        finished("/ok/ana") == 1 && finished("/ok/bo") == 1
    })
    .await;
    for who in ["/ok/ana", "/ok/bo"] {
        let last = push.received(who).pop().unwrap();
        assert_eq!(last.payload["kind"], "finished");
        assert_eq!(last.payload["outcome"]["kind"], "abandoned");
    }
}

#[tokio::test]
async fn a_review_needs_a_finished_game_and_requests_are_limited_and_kept_as_text() {
    let server = Server::start_with(|c| c.limits.enabled = true).await;
    let (a, b) = turn_game(&server).await;
    let review = json!({"kind": "review", "game": "draughts", "stars": 5, "text": "Très bien"});
    // Before a finished game: refused.
    a.post("/api/feedback", review.clone())
        .await
        .expect_error(403, "not_played");
    let list = a.get("/api/feedback").await.ok();
    assert_eq!(list["can_review"], json!({"cc": false, "draughts": false}));
    b.act("resign", json!({})).await.ok();
    wait_until("the game is recorded", || async {
        a.get("/api/feedback").await.ok()["can_review"]["draughts"] == true
    })
    .await;
    let created = a.post("/api/feedback", review).await;
    assert_eq!(created.status, 201, "{}", created.body);
    // Only the kind of game played, and stars 1–5.
    a.post(
        "/api/feedback",
        json!({"kind": "review", "game": "cc", "stars": 4, "text": "x"}),
    )
    .await
    .expect_error(403, "not_played");
    a.post(
        "/api/feedback",
        json!({"kind": "review", "game": "draughts", "stars": 6, "text": "x"}),
    )
    .await
    .expect_error(400, "invalid_input");
    // A spectator's browser may send requests; text limits; HTML is kept as plain text.
    let c = server.browser("cccccccccccccccccccccccccccccccc");
    c.post(
        "/api/feedback",
        json!({"kind": "request", "text": "x".repeat(2001)}),
    )
    .await
    .expect_error(400, "invalid_input");
    c.post("/api/feedback", json!({"kind": "request", "text": "  "}))
        .await
        .expect_error(400, "invalid_input");
    c.post("/api/feedback", json!({"kind": "wish", "text": "x"}))
        .await
        .expect_error(400, "invalid_input");
    let html = "<img src=x onerror=alert(1)> & <b>gras</b>";
    let answer = c
        .post(
            "/api/feedback",
            json!({"kind": "rule", "text": html, "name": "<i>Zoé</i>"}),
        )
        .await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    assert_eq!(
        answer.headers["content-type"].to_str().unwrap(),
        "application/json"
    );
    for n in 0..4 {
        let answer = c
            .post(
                "/api/feedback",
                json!({"kind": "problem", "text": format!("bug {n}")}),
            )
            .await;
        assert_eq!(answer.status, 201, "{}", answer.body);
    }
    // Five per hour per browser.
    c.post(
        "/api/feedback",
        json!({"kind": "problem", "text": "one more"}),
    )
    .await
    .expect_error(429, "rate_limited");
    let list = c.get("/api/feedback").await.ok();
    let entries = list["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 6);
    let rule = entries.iter().find(|e| e["kind"] == "rule").unwrap();
    assert_eq!(rule["text"], html, "stored and given back as plain text");
    assert_eq!(rule["status"], "new");
    assert_eq!(rule["mine"], true);
    let review = entries.iter().find(|e| e["kind"] == "review").unwrap();
    assert_eq!(review["mine"], false);
    assert_eq!(review["stars"], 5);
    assert!(
        review.get("client").is_none(),
        "the author's id is never shown"
    );
    // An author deletes their own entry, not someone else's.
    let id = review["id"].as_i64().unwrap();
    let del = c
        .send(c.http.delete(format!("{}/api/feedback/{id}", c.base)))
        .await;
    del.expect_error(404, "not_found");
    let del = a
        .send(a.http.delete(format!("{}/api/feedback/{id}", a.base)))
        .await;
    assert!(del.status.is_success());
}

#[tokio::test]
async fn a_live_game_pushes_only_to_a_player_with_no_open_page_and_a_seat_left_forgets_its_subscription(
) {
    let push = PushService::start().await;
    let server = Server::start_with(|c| c.push.allow_loopback_http = true).await;
    let mut a = server.browser("dddddddddddddddddddddddddddddddd");
    let room = a.create(json!({"game": "draughts", "name": "Ana"})).await;
    assert_eq!(room["settings"]["rhythm"], "live");
    assert_eq!(room["settings"]["confirm_move"], false);
    let code = a.code.clone().unwrap();
    // A guest subscribes in the lobby, then leaves the seat: the subscription goes too.
    let mut c = server.browser("eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee");
    c.join(&code, "Cy").await;
    c.act("push", push.subscribe("ok", "cy", 5)).await.ok();
    c.act("leave", json!({})).await.ok();
    let conn = rusqlite::Connection::open(&server.db).unwrap();
    let subs = |conn: &rusqlite::Connection| -> i64 {
        conn.query_row(
            "SELECT count(*) FROM push_subscriptions WHERE code = ?1",
            [&code],
            |r| r.get(0),
        )
        .unwrap()
    };
    wait_until("the subscription of a seat left is deleted", || async {
        subs(&conn) == 0
    })
    .await;

    let mut b = server.browser("ffffffffffffffffffffffffffffffff");
    b.join(&code, "Bo").await;
    a.start().await;
    a.act("push", push.subscribe("ok", "ana", 6)).await.ok();
    b.act("push", push.subscribe("ok", "bo", 7)).await.ok();
    // Ana has the room open, Bo does not.
    let mut ws = a.ws(0).await;
    ws.state_where(|r| r["seats"][a.seat.unwrap() as usize]["online"] == true)
        .await;
    let mut rng = Lcg(11);
    let mut turns_of = [0usize; 2];
    for _ in 0..4 {
        let moved = play_one(&a, &b, &mut rng).await;
        turns_of[1 - moved as usize] += 1;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let bo_seat = b.seat.unwrap() as usize;
    wait_until("Bo's pushes", || async {
        push.received("/ok/bo").len() >= turns_of[bo_seat]
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(push.received("/ok/bo").len(), turns_of[bo_seat]);
    assert_eq!(
        push.received("/ok/ana").len(),
        0,
        "an open page needs no push"
    );
    drop(ws);
}

/// Two nodes on one PostgreSQL database and one Redis (docs/cluster.md), pushing to `push`.
async fn two_nodes(db: &dames_store::ScratchDatabase) -> (Server, Server) {
    let redis =
        std::env::var("DAMES_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    let prefix = format!("dames-test:turns-{}:", db.url().rsplit('/').next().unwrap());
    let node = || {
        let (url, redis, prefix) = (db.url(), redis.clone(), prefix.clone());
        Server::start_with(move |c| {
            c.push.allow_loopback_http = true;
            c.database = Some(url);
            c.redis = Some(redis);
            c.redis_prefix = prefix;
        })
    };
    let one = node().await;
    let two = node().await;
    (one, two)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_seen_by_two_nodes_is_pushed_once() {
    let push = PushService::start().await;
    let db = dames_store::ScratchDatabase::create().unwrap();
    let (one, two) = two_nodes(&db).await;
    let (a, b) = turn_game(&one).await;
    a.act("push", push.subscribe("ok", "ana", 1)).await.ok();
    b.act("push", push.subscribe("ok", "bo", 2)).await.ok();
    // Bo's browser also reaches the second node, which loads the room as it is now.
    let b_two = Client {
        base: two.base.clone(),
        ..b.clone()
    };
    b_two.room().await;
    // A move on the first node: the player now to move is told, by that node.
    let moved = play_one(&a, &b, &mut Lcg(3)).await;
    let told = if moved == a.seat.unwrap() {
        "/ok/bo"
    } else {
        "/ok/ana"
    };
    wait_until("the turn's push", || async {
        !push.received(told).is_empty()
    })
    .await;
    // The second node catches up on the move (fan-out) and publishes it to its connections and
    // observers: it pushes nothing (a change made elsewhere; the first node claimed it anyway).
    wait_until("the second node has the move", || async {
        b_two.room().await["play"]["moves"]
            .as_array()
            .is_some_and(|m| m.len() == 1)
    })
    .await;
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    // The turn after the first move (ply 1). The start's push (ply 0) may also reach the first
    // player: its job can load the subscription made just after the start.
    let after_move = |path: &str| {
        push.received(path)
            .into_iter()
            .filter(|r| r.payload["ply"] == 1)
            .count()
    };
    assert_eq!(after_move(told), 1, "one push for one turn");
    let other = if told == "/ok/bo" {
        "/ok/ana"
    } else {
        "/ok/bo"
    };
    assert_eq!(after_move(other), 0, "no push to the player who just moved");
    assert!(
        push.received(other).iter().all(|r| r.payload["ply"] == 0),
        "at most the start's push: {:?}",
        push.received(other)
            .iter()
            .map(|r| &r.payload)
            .collect::<Vec<_>>()
    );
}
