//! Quick pairing over real sockets (docs/protocol.md "Pools"): seekers on `/ws/pools` of a real
//! server are paired, seated with their own tokens in a started room, cancel, wait in several
//! pools, get CPUs after their wait, are kept apart by a block, wait longer after leaving games,
//! and get typed errors for bad requests.

mod common;

use std::time::Duration;

use common::{Client, Server};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{client::IntoClientRequest, Message};

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The browser id of a person of the tests (a signed id is 128 bits in hex).
fn id(name: &str) -> String {
    let n = name.bytes().fold(0xcbf2_9ce4_8422_2325_u128, |h, b| {
        (h ^ u128::from(b)).wrapping_mul(0x1000_0000_01b3)
    });
    format!("{n:032x}")
}

/// A browser on `/ws/pools`.
struct Seeker {
    ws: Socket,
    browser: String,
    /// The waiting list sent on connection.
    first_list: Value,
}

async fn seeker(server: &Server, browser: &str) -> Seeker {
    let host = server.base.trim_start_matches("http://");
    let mut req = format!("ws://{host}/ws/pools")
        .into_client_request()
        .unwrap();
    let signed = dames_server::http::client_cookie_value(&server.client_key, &id(browser));
    let cookie = format!("dames_client={signed}");
    req.headers_mut().insert("cookie", cookie.parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let mut s = Seeker {
        ws,
        browser: id(browser),
        first_list: Value::Null,
    };
    // The waiting list comes first.
    s.first_list = s.next().await;
    assert_eq!(s.first_list["type"], "waiting");
    s
}

impl Seeker {
    async fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).await.unwrap();
    }

    /// The next message that is not a waiting list.
    async fn next_within(&mut self, limit: Duration) -> Option<Value> {
        let until = tokio::time::Instant::now() + limit;
        loop {
            let msg = tokio::time::timeout_at(until, self.ws.next()).await.ok()?;
            let Message::Text(t) = msg.expect("socket open").unwrap() else {
                continue;
            };
            let v: Value = serde_json::from_str(&t).unwrap();
            assert!(!t.contains(&self.browser), "a browser id in {t}");
            return Some(v);
        }
    }

    async fn next(&mut self) -> Value {
        self.next_within(Duration::from_secs(10))
            .await
            .expect("a message within 10 s")
    }

    /// The next message other than a waiting list.
    async fn answer(&mut self) -> Value {
        loop {
            let v = self.next().await;
            if v["type"] != "waiting" {
                return v;
            }
        }
    }

    /// Seeks and expects `seeking`.
    async fn seek(&mut self, name: &str, pools: &[&str], cpu: Option<Value>) -> Value {
        let mut msg = json!({"type": "seek", "name": name, "pools": pools});
        if let Some(cpu) = cpu {
            msg["cpu"] = cpu;
        }
        self.send(msg).await;
        let v = self.answer().await;
        assert_eq!(v["type"], "seeking", "{v}");
        v
    }

    /// Expects `matched` within 10 s.
    async fn matched(&mut self) -> Value {
        let v = self.answer().await;
        assert_eq!(v["type"], "matched", "{v}");
        assert_eq!(v["token"].as_str().unwrap().len(), 32);
        v
    }

    /// Expects no match for `limit` (waiting lists only).
    async fn unmatched_for(&mut self, limit: Duration) {
        let until = tokio::time::Instant::now() + limit;
        while let Some(v) = self.next_within(until - tokio::time::Instant::now()).await {
            assert_eq!(v["type"], "waiting", "{v}");
        }
    }

    /// An error message of `code`.
    async fn error(&mut self, code: &str) {
        let v = self.answer().await;
        assert_eq!(
            (v["type"].as_str(), v["code"].as_str()),
            (Some("error"), Some(code)),
            "{v}"
        );
        assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
}

/// Ana's browser hosts a draughts room where Bo's browser holds the other seat: Ana's client
/// and the room's code.
async fn ana_and_bo_seated(server: &Server) -> (Client, String) {
    let mut host = server.browser(&id("ana"));
    host.create(json!({"game": "draughts", "name": "Ana"}))
        .await;
    let mut guest = server.browser(&id("bo"));
    guest.join(host.code.as_deref().unwrap(), "Bo").await;
    let code = host.code.clone().unwrap();
    (host, code)
}

/// Takes the seat a match gave, as the page does: `join` with the token.
async fn take_seat(server: &Server, browser: &str, matched: &Value) -> (Client, Value) {
    let mut client = server.browser(&id(browser));
    let code = matched["code"].as_str().unwrap();
    client.token = Some(matched["token"].as_str().unwrap().to_owned());
    let body = client
        .post(
            &format!("/api/rooms/{code}/join"),
            json!({"name": "ignored"}),
        )
        .await
        .ok();
    assert_eq!(body["seat"], matched["seat"]);
    client.code = Some(code.to_owned());
    (client, body["room"].clone())
}

#[tokio::test]
async fn two_seekers_pair_and_both_get_their_own_seat_in_a_started_room() {
    let server = Server::start().await;
    let mut ana = seeker(&server, "ana-browser").await;
    let mut bo = seeker(&server, "bo-browser").await;
    let seeking = ana.seek("Ana", &["draughts10-live"], None).await;
    assert_eq!(seeking["pools"], json!(["draughts10-live"]));
    assert_eq!(seeking["penalty_ms"], 0);
    bo.seek("Bo", &["draughts10-live"], None).await;
    let (a, b) = (ana.matched().await, bo.matched().await);
    assert_eq!(a["code"], b["code"]);
    assert_ne!(a["seat"], b["seat"]);
    assert_ne!(a["token"], b["token"]);
    let (ana_client, room) = take_seat(&server, "ana-browser", &a).await;
    assert_eq!(room["status"], "playing");
    assert_eq!(room["you"], a["seat"]);
    assert_eq!(room["settings"]["rhythm"], "live");
    assert_eq!(room["settings"]["rules"]["variant"], "international");
    let names: Vec<&str> = (room["seats"].as_array().unwrap().iter())
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"Ana") && names.contains(&"Bo"), "{names:?}");
    let (_, room) = take_seat(&server, "bo-browser", &b).await;
    assert_eq!(room["you"], b["seat"]);
    // Ana's token is Ana's seat: the room's own endpoints know her by it.
    assert_eq!(ana_client.room().await["you"], a["seat"]);
    // A token of the match presented by someone else is that seat, not a new one: it is
    // never sent to anyone but its seeker.
}

#[tokio::test]
async fn a_cancelled_seek_is_paired_with_nobody() {
    let server = Server::start().await;
    let mut ana = seeker(&server, "ana").await;
    let mut bo = seeker(&server, "bo").await;
    let mut cy = seeker(&server, "cy").await;
    ana.seek("Ana", &["draughts8-turn"], None).await;
    ana.send(json!({"type": "cancel"})).await;
    assert_eq!(ana.answer().await["type"], "cancelled");
    bo.seek("Bo", &["draughts8-turn"], None).await;
    bo.unmatched_for(Duration::from_millis(800)).await;
    cy.seek("Cy", &["draughts8-turn"], None).await;
    let (b, c) = (bo.matched().await, cy.matched().await);
    assert_eq!(b["code"], c["code"]);
    let (_, room) = take_seat(&server, "cy", &c).await;
    assert_eq!(room["settings"]["rhythm"], "turn");
    assert_eq!(room["settings"]["rules"]["variant"], "brazilian");
    ana.unmatched_for(Duration::from_millis(300)).await;
}

#[tokio::test]
async fn a_seek_in_several_pools_ends_at_its_first_match_and_a_closed_socket_cancels() {
    let server = Server::start().await;
    let mut ana = seeker(&server, "ana").await;
    let mut bo = seeker(&server, "bo").await;
    let mut cy = seeker(&server, "cy").await;
    ana.seek(
        "Ana",
        &["draughts10-live", "draughts12-live", "cc2-jp-live"],
        None,
    )
    .await;
    bo.seek("Bo", &["draughts12-live"], None).await;
    let (a, _) = (ana.matched().await, bo.matched().await);
    let (_, room) = take_seat(&server, "ana", &a).await;
    assert_eq!(room["settings"]["rules"]["variant"], "canadian");
    // Ana's other pools were left with the match: Cy waits alone.
    cy.seek("Cy", &["draughts10-live"], None).await;
    cy.unmatched_for(Duration::from_millis(800)).await;
    // A socket that closes takes its seek with it.
    let mut dee = seeker(&server, "dee").await;
    dee.seek("Dee", &["cc2-jp-live"], None).await;
    drop(dee);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut eve = seeker(&server, "eve").await;
    eve.seek("Eve", &["cc2-jp-live"], None).await;
    eve.unmatched_for(Duration::from_millis(600)).await;
    let waiting = server.client().get("/api/pools").await.ok();
    assert_eq!(waiting["pools"].as_array().unwrap().len(), 18);
}

#[tokio::test]
async fn three_persons_and_a_cpu_fill_a_four_player_pool_after_the_wait() {
    let server = Server::start_with(|c| c.pools.cpu_after = (1, 300, 60)).await;
    // Every socket is open before anyone seeks, and the three seeks go out together: Ana's wait
    // (2 s) runs from her seek, so a slow connection of Cy's on a loaded machine cannot let the
    // fill start with Ana and Bo alone (it did, about one run in eight, when each seeker
    // connected and sought in turn after a 1 s wait).
    let mut seekers = Vec::new();
    for name in ["Ana", "Bo", "Cy"] {
        seekers.push(seeker(&server, name).await);
    }
    for (s, name) in seekers.iter_mut().zip(["Ana", "Bo", "Cy"]) {
        let mut msg = json!({"type": "seek", "name": name, "pools": ["cc4-intl-live"]});
        if name == "Ana" {
            msg["cpu"] = json!({"level": "facile", "after": 2});
        }
        s.send(msg).await;
    }
    let started = std::time::Instant::now();
    for s in &mut seekers {
        assert_eq!(s.answer().await["type"], "seeking");
    }
    let mut matches = Vec::new();
    for s in &mut seekers {
        matches.push(s.matched().await);
    }
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(1500) && waited < Duration::from_secs(6),
        "the CPUs came after {waited:?}, not after the 2 s asked"
    );
    assert!(matches.iter().all(|m| m["code"] == matches[0]["code"]));
    let (_, room) = take_seat(&server, "Ana", &matches[0]).await;
    assert_eq!(room["status"], "playing");
    let kinds: Vec<&str> = (room["seats"].as_array().unwrap().iter())
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "human").count(),
        3,
        "{kinds:?}"
    );
    assert_eq!(
        kinds.iter().filter(|k| **k == "cpu").count(),
        1,
        "{kinds:?}"
    );
    assert_eq!(
        room["seats"][0]["kind"], "human",
        "the host's seat is a person's"
    );
}

#[tokio::test]
async fn without_the_cpu_fill_or_before_its_time_nobody_plays_cpus() {
    let server = Server::start_with(|c| c.pools.cpu_after = (1, 300, 60)).await;
    let mut ana = seeker(&server, "ana").await;
    ana.seek("Ana", &["cc3-intl-turn"], None).await;
    let mut bo = seeker(&server, "bo").await;
    bo.seek(
        "Bo",
        &["cc3-intl-turn"],
        Some(json!({"level": "normal", "after": 30})),
    )
    .await;
    ana.unmatched_for(Duration::from_millis(1500)).await;
    // A 2-player pool never fills with CPUs.
    let mut cy = seeker(&server, "cy").await;
    cy.seek(
        "Cy",
        &["cc2-intl-live"],
        Some(json!({"level": "normal", "after": 1})),
    )
    .await;
    cy.unmatched_for(Duration::from_millis(1500)).await;
}

#[tokio::test]
async fn a_blocked_browser_is_never_paired_with_its_blocker() {
    let server = Server::start().await;
    let (host, code) = ana_and_bo_seated(&server).await;
    // Refusals first: one's own seat, no such seat, a caller without a seat.
    let own = host
        .post("/api/me/blocks", json!({"room": code, "seat": 0}))
        .await;
    own.expect_error(400, "not_blockable");
    let none = host
        .post("/api/me/blocks", json!({"room": code, "seat": 7}))
        .await;
    none.expect_error(400, "not_blockable");
    let outsider = server.browser(&id("cy"));
    let answer = outsider
        .post("/api/me/blocks", json!({"room": code, "seat": 1}))
        .await;
    answer.expect_error(403, "not_seated");
    let bad = host.post("/api/me/blocks", json!({"room": code})).await;
    bad.expect_error(400, "bad_json");
    let blocked = host
        .post("/api/me/blocks", json!({"room": code, "seat": 1}))
        .await
        .ok();
    assert_eq!(blocked, json!({"blocked": true}));

    let mut ana = seeker(&server, "ana").await;
    let mut bo = seeker(&server, "bo").await;
    // Ana's seek is older than Bo's, even within one millisecond (each seek of a node is
    // strictly younger than the one before).
    ana.seek("Ana", &["draughts10-turn"], None).await;
    bo.seek("Bo", &["draughts10-turn"], None).await;
    ana.unmatched_for(Duration::from_millis(800)).await;
    // Someone else pairs with the oldest of them; the blocked one keeps waiting.
    let mut cy = seeker(&server, "cy").await;
    cy.seek("Cy", &["draughts10-turn"], None).await;
    let (a, c) = (ana.matched().await, cy.matched().await);
    assert_eq!(a["code"], c["code"]);
    bo.unmatched_for(Duration::from_millis(300)).await;
    // Clearing the list: Ana and Bo may meet again, from their next seeks.
    let cleared = host
        .send(host.http.delete(format!("{}/api/me/blocks", host.base)))
        .await;
    assert_eq!(cleared.ok(), json!({"cleared": 1}));
    bo.seek("Bo", &["draughts10-turn"], None).await;
    let mut ana = seeker(&server, "ana").await;
    ana.seek("Ana", &["draughts10-turn"], None).await;
    let (a, b) = (ana.matched().await, bo.matched().await);
    assert_eq!(a["code"], b["code"]);
}

#[tokio::test]
async fn a_browser_that_left_games_waits_its_penalty() {
    let server = Server::start().await;
    {
        let store = dames_store::SqliteStore::open(&server.db).unwrap();
        for (n, code) in ["AAAAAA", "BBBBBB"].iter().enumerate() {
            use dames_store::PairingStore;
            let leave = dames_store::LeaveRow {
                code: (*code).into(),
                game_no: 1,
                seat: 0,
                client: id("ana"),
                at: dames_server::live::now_ms() - 1000 * n as i64,
            };
            assert!(store.record_leave(&leave).unwrap());
        }
    }
    let mut ana = seeker(&server, "ana").await;
    let seeking = ana.seek("Ana", &["draughts10-live"], None).await;
    assert_eq!(seeking["penalty_ms"], 30_000);
    let mut bo = seeker(&server, "bo").await;
    bo.seek("Bo", &["draughts10-live"], None).await;
    bo.unmatched_for(Duration::from_millis(800)).await;
    // Ana still shows as waiting, by name only.
    let list = seeker(&server, "watcher").await.first_list;
    let names: Vec<&str> = list["pools"][0]["waiting"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ana", "Bo"], "{list}");
}

#[tokio::test]
async fn bad_requests_get_typed_errors_and_change_nothing() {
    let server = Server::start().await;
    let mut ana = seeker(&server, "ana").await;
    ana.send(json!({"type": "seek", "name": "Ana", "pools": ["cc5-intl-live"]}))
        .await;
    ana.error("unknown_pool").await;
    ana.send(json!({"type": "seek", "name": "Ana", "pools": []}))
        .await;
    ana.error("invalid_input").await;
    let nine: Vec<&str> = ["draughts10-live"; 9].to_vec();
    ana.send(json!({"type": "seek", "name": "Ana", "pools": nine}))
        .await;
    ana.error("invalid_input").await;
    let cpu = json!({"level": "grandmaster", "after": 60});
    ana.send(json!({"type": "seek", "name": "Ana", "pools": ["cc4-intl-live"], "cpu": cpu}))
        .await;
    ana.error("invalid_settings").await;
    let cpu = json!({"level": "normal", "after": 3});
    ana.send(json!({"type": "seek", "name": "Ana", "pools": ["cc4-intl-live"], "cpu": cpu}))
        .await;
    ana.error("invalid_settings").await;
    ana.send(json!({"type": "seek", "name": "", "pools": ["cc4-intl-live"]}))
        .await;
    ana.error("invalid_name").await;
    ana.send(json!({"type": "seek", "name": "Ana", "pools": ["cc4-intl-live"], "x": 1}))
        .await;
    ana.error("bad_json").await;
    ana.ws.send(Message::text("x".repeat(3000))).await.unwrap();
    ana.error("too_large").await;
    // One seek per browser: a second socket of Ana's browser is refused while the first seeks.
    ana.seek("Ana", &["cc6-intl-turn"], None).await;
    let mut again = seeker(&server, "ana").await;
    again
        .send(json!({"type": "seek", "name": "Ana", "pools": ["cc6-intl-turn"]}))
        .await;
    again.error("too_many_seeks").await;
    // None of it put anyone but Ana's one seek in the pools (the list of the last tick).
    tokio::time::sleep(Duration::from_millis(400)).await;
    let list = seeker(&server, "watcher").await.first_list;
    assert_eq!(list["pools"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["pools"][0]["pool"], "cc6-intl-turn");
    assert_eq!(list["pools"][0]["count"], 1);
}

#[tokio::test]
async fn seeking_is_rate_limited() {
    let server = Server::start_with(|c| {
        c.limits.enabled = true;
        c.limits.seek.burst = 2;
        c.limits.seek.per_minute = 1;
    })
    .await;
    let mut ana = seeker(&server, "ana").await;
    ana.seek("Ana", &["draughts8-live"], None).await;
    ana.seek("Ana", &["draughts12-live"], None).await;
    ana.send(json!({"type": "seek", "name": "Ana", "pools": ["draughts10-live"]}))
        .await;
    ana.error("rate_limited").await;
}

#[tokio::test]
async fn a_cpu_fill_is_a_game_against_cpus_under_the_same_caps() {
    let server = Server::start_with(|c| {
        c.pools.cpu_after = (1, 300, 60);
        c.limits.enabled = true;
        c.limits.cpu_games_per_client = 1;
    })
    .await;
    // Ana alone asks for CPUs after 1 s: her game against CPUs, and she is its host.
    let mut ana = seeker(&server, "ana").await;
    let cpu = json!({"level": "facile", "after": 1});
    ana.seek("Ana", &["cc3-intl-live"], Some(cpu.clone())).await;
    let matched = ana.matched().await;
    assert_eq!(
        matched["seat"], 0,
        "the seat of the one who asked for the CPUs"
    );
    let (client, room) = take_seat(&server, "ana", &matched).await;
    let kinds: Vec<&str> = (room["seats"].as_array().unwrap().iter())
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["human", "cpu", "cpu"]);
    // It counts: at her cap, another game against CPUs is refused, by the home page's button
    // and by the pools alike.
    let create = json!({"game": "draughts", "name": "Ana", "cpu": {"level": "facile"}});
    let refused = client.post("/api/rooms", create).await;
    refused.expect_error(429, "too_many_cpu_games");
    ana.send(json!({"type": "seek", "name": "Ana", "pools": ["cc4-intl-live"], "cpu": cpu}))
        .await;
    ana.error("too_many_cpu_games").await;
    // Seeking people only is still open to her.
    ana.seek("Ana", &["cc4-intl-live"], None).await;
}

#[tokio::test]
async fn a_block_made_while_waiting_reaches_the_seek_already_waiting() {
    let server = Server::start().await;
    let (host, code) = ana_and_bo_seated(&server).await;
    // Ana waits first; then, from her other tab, she blocks Bo.
    let mut ana = seeker(&server, "ana").await;
    ana.seek("Ana", &["draughts12-turn"], None).await;
    let blocked = host
        .post("/api/me/blocks", json!({"room": code, "seat": 1}))
        .await
        .ok();
    assert_eq!(blocked, json!({"blocked": true}));
    let mut bo = seeker(&server, "bo").await;
    bo.seek("Bo", &["draughts12-turn"], None).await;
    ana.unmatched_for(Duration::from_millis(800)).await;
    let mut cy = seeker(&server, "cy").await;
    cy.seek("Cy", &["draughts12-turn"], None).await;
    let (a, c) = (ana.matched().await, cy.matched().await);
    assert_eq!(a["code"], c["code"]);
    bo.unmatched_for(Duration::from_millis(300)).await;
}
