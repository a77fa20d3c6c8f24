//! Open tables, games to watch, phrases and reports (issue 20) against a real server over real
//! sockets: a public room is listed (HTTP and the live feed) while a seat is free, moves to the
//! games to watch once started, with its move number and spectators; a private room is never
//! listed; the lists carry names only; preset phrases are broadcast, unknown ones refused, and
//! limited per seat; a report is stored for the operator with the game's record and never
//! listed; and, with two nodes, the lists, spectators and phrases of one are the other's.

mod common;

use std::time::Duration;

use common::{random_draughts_move, Client, Lcg, Server};
use serde_json::{json, Value};

const ANA: &str = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";
const BO: &str = "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2";
const CY: &str = "c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3";

/// The live feed of the public lists, read event by event.
struct Feed {
    res: reqwest::Response,
    buf: String,
}

impl Feed {
    async fn open(client: &Client) -> Feed {
        let res = client
            .http
            .get(format!("{}/api/public/events", client.base))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(
            res.headers()["content-type"].to_str().unwrap(),
            "text/event-stream"
        );
        Feed {
            res,
            buf: String::new(),
        }
    }

    /// The next lists sent (heartbeats skipped), failing after 10 s.
    async fn next(&mut self) -> Value {
        loop {
            if let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                let mut name = "";
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event: ") {
                        name = if v == "lists" { "lists" } else { "other" };
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        data.push_str(v);
                    }
                }
                match name {
                    "" => continue,
                    "lists" => return serde_json::from_str(&data).unwrap(),
                    _ => panic!("an unknown event: {block}"),
                }
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), self.res.chunk())
                .await
                .expect("lists within 10 s")
                .unwrap()
                .expect("the feed is open");
            self.buf.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    /// The first lists that satisfy `pred`; every lists before them are checked by `each`.
    async fn until(&mut self, each: impl Fn(&Value), pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let lists = self.next().await;
            each(&lists);
            if pred(&lists) {
                return lists;
            }
        }
    }
}

fn codes(lists: &Value, which: &str) -> Vec<String> {
    lists[which]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap().to_owned())
        .collect()
}

fn entry<'a>(lists: &'a Value, which: &str, code: &str) -> Option<&'a Value> {
    lists[which]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["code"] == code)
}

/// Nothing in the lists that identifies a browser or a seat: no token, no browser id, no
/// address, and only the fields the protocol lists.
fn names_only(lists: &Value, secrets: &[&str]) {
    let text = lists.to_string();
    for secret in secrets {
        assert!(!text.contains(secret), "{secret} leaked into {text}");
    }
    for needle in ["token", "client", "127.0.0.1", "\"ip\""] {
        assert!(!text.contains(needle), "{needle} in {text}");
    }
    for list in ["open", "watch"] {
        for room in lists[list].as_array().unwrap() {
            for seat in room["seats"].as_array().unwrap() {
                let mut keys: Vec<&str> = seat
                    .as_object()
                    .unwrap()
                    .keys()
                    .map(|k| k.as_str())
                    .collect();
                keys.sort_unstable();
                let allowed: &[&[&str]] = &[
                    &["kind", "name", "seat"],
                    &["kind", "level", "seat"],
                    &["kind", "seat"],
                ];
                assert!(allowed.contains(&keys.as_slice()), "seat fields {keys:?}");
            }
        }
    }
}

async fn lists(client: &Client) -> Value {
    client.get("/api/public").await.ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_table_is_listed_until_full_then_watched_and_a_private_room_never() {
    let server = Server::start().await;
    let mut ana = server.browser(ANA);
    ana.create(json!({"game": "draughts", "name": "Ana", "settings": {"public": true, "rules": {"variant": "brazilian"}}}))
        .await;
    let code = ana.code.clone().unwrap();
    let mut cy = server.browser(CY);
    cy.create(json!({"game": "draughts", "name": "Cy"})).await;
    let private = cy.code.clone().unwrap();
    let never_private = |l: &Value| {
        let text = l.to_string();
        assert!(!text.contains(&private), "a private room listed: {text}");
    };
    let watcher = server.client();
    let mut feed = Feed::open(&watcher).await;

    // Open: game, the rules that differ, pace, host, seats taken and free; names only.
    let now = lists(&watcher).await;
    never_private(&now);
    let table = entry(&now, "open", &code).expect("the public room is an open table");
    assert_eq!(
        (
            &table["game"],
            &table["rules"],
            &table["rhythm"],
            &table["host"]
        ),
        (
            &json!("draughts"),
            &json!({"variant": "brazilian"}),
            &json!("live"),
            &json!("Ana")
        )
    );
    assert_eq!((&table["taken"], &table["free"]), (&json!(1), &json!(1)));
    names_only(&now, &[ANA, ana.token.as_deref().unwrap(), CY]);
    let first = feed.next().await;
    assert_eq!(codes(&first, "open"), vec![code.clone()]);
    never_private(&first);

    // Full: no longer open, not yet watched.
    let mut bo = server.browser(BO);
    bo.join(&code, "Bo").await;
    let full = feed
        .until(never_private, |l| entry(l, "open", &code).is_none())
        .await;
    assert!(codes(&full, "watch").is_empty(), "{full}");

    // Started: a game to watch, with its players and move number.
    ana.start().await;
    let watched = feed
        .until(never_private, |l| entry(l, "watch", &code).is_some())
        .await;
    let game = entry(&watched, "watch", &code).unwrap();
    assert_eq!(game["moves"], 0);
    assert_eq!(game["spectators"], 0);
    assert_eq!(watched["featured"], code.as_str());
    let names: Vec<&Value> = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["name"])
        .collect();
    assert_eq!(names, [&json!("Ana"), &json!("Bo")]);
    names_only(
        &watched,
        &[
            ANA,
            BO,
            CY,
            ana.token.as_deref().unwrap(),
            bo.token.as_deref().unwrap(),
        ],
    );

    // A move: the move number follows, in the feed and in the answer of GET.
    let (ra, rb) = (ana.room().await, bo.room().await);
    let (mover, room) = if ra["play"]["to_move"] == ra["you"] {
        (&ana, ra)
    } else {
        (&bo, rb)
    };
    mover
        .play(random_draughts_move(&room, &mut Lcg(7)))
        .await
        .ok();
    feed.until(never_private, |l| {
        entry(l, "watch", &code).is_some_and(|g| g["moves"] == 1)
    })
    .await;
    assert_eq!(
        entry(&lists(&watcher).await, "watch", &code).unwrap()["moves"],
        1
    );

    // The private room started too is still nowhere.
    let mut dee = server.client();
    dee.join(&private, "Dee").await;
    cy.start().await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    never_private(&lists(&watcher).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_made_public_or_private_in_the_lobby_comes_and_goes() {
    let server = Server::start().await;
    let mut ana = server.client();
    ana.create(json!({"game": "cc", "name": "Ana"})).await;
    let code = ana.code.clone().unwrap();
    let watcher = server.client();
    assert!(entry(&lists(&watcher).await, "open", &code).is_none());
    ana.act("settings", json!({"public": true})).await.ok();
    assert_eq!(ana.room().await["settings"]["public"], true);
    assert!(entry(&lists(&watcher).await, "open", &code).is_some());
    ana.act("settings", json!({"public": false})).await.ok();
    assert!(entry(&lists(&watcher).await, "open", &code).is_none());
    // A wrong type is refused by name, as every setting.
    let a = ana.act("settings", json!({"public": "yes"})).await;
    a.expect_error(400, "invalid_settings");
    assert_eq!(a.body["error"]["field"], "public");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_are_counted_while_their_socket_is_open() {
    let server = Server::start().await;
    let (ana, _bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana", "settings": {"public": true}}))
        .await;
    ana.start().await;
    let code = ana.code.clone().unwrap();
    let watcher = server.client();
    let spectators = |l: &Value| entry(l, "watch", &code).unwrap()["spectators"].clone();
    // The players' own sockets are not spectators.
    let _ana_ws = ana.ws(0).await;
    assert_eq!(spectators(&lists(&watcher).await), 0);
    let look = Client {
        code: Some(code.clone()),
        ..server.client()
    };
    let mut one = look.ws(0).await;
    let state = one.next().await;
    assert_eq!(state["room"]["you"], Value::Null);
    let mut two = look.ws(0).await;
    two.next().await;
    assert_eq!(spectators(&lists(&watcher).await), 2);
    drop(one);
    let mut left = Value::Null;
    for _ in 0..50 {
        left = spectators(&lists(&watcher).await);
        if left == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(left, 1);
    drop(two);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn phrases_are_broadcast_unknown_ones_refused_and_each_seat_limited() {
    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana", "settings": {"public": true}}))
        .await;
    let mut a = ana.ws(0).await;
    a.next().await;
    let mut b = bo.ws(0).await;
    b.next().await;
    let look = Client {
        code: ana.code.clone(),
        ..server.client()
    };
    let mut s = look.ws(0).await;
    s.next().await;

    a.send(json!({"type": "phrase", "id": "m1", "phrase": "hello"}))
        .await;
    let (ack, _) = a.until("ack").await;
    assert_eq!(ack, json!({"type": "ack", "id": "m1", "applied": true}));
    let said = json!({"type": "phrase", "seat": 0, "phrase": "hello"});
    assert_eq!(b.until("phrase").await.0, said);
    assert_eq!(s.until("phrase").await.0, said);

    // An unknown phrase, free text, a spectator: typed errors, nothing broadcast.
    a.send(json!({"type": "phrase", "id": "m2", "phrase": "you are bad"}))
        .await;
    let (err, _) = a.until("error").await;
    assert_eq!(
        (&err["id"], &err["code"]),
        (&json!("m2"), &json!("unknown_phrase"))
    );
    s.send(json!({"type": "phrase", "id": "m3", "phrase": "thanks"}))
        .await;
    let (err, _) = s.until("error").await;
    assert_eq!(
        (&err["id"], &err["code"]),
        (&json!("m3"), &json!("not_seated"))
    );

    // Three in ten seconds per seat: the fourth waits, the other seat is not counted with it.
    for (n, phrase) in ["good_game", "well_played"].iter().enumerate() {
        a.send(json!({"type": "phrase", "id": format!("a{n}"), "phrase": phrase}))
            .await;
        assert_eq!(a.until("ack").await.0["applied"], true);
    }
    a.send(json!({"type": "phrase", "id": "a9", "phrase": "oops"}))
        .await;
    let (err, _) = a.until("error").await;
    assert_eq!(
        (&err["id"], &err["code"]),
        (&json!("a9"), &json!("rate_limited"))
    );
    assert!(
        (1..=10).contains(&err["retry_after"].as_u64().unwrap()),
        "{err}"
    );
    b.send(json!({"type": "phrase", "id": "b1", "phrase": "rematch"}))
        .await;
    assert_eq!(b.until("ack").await.0["applied"], true);
    // Bo heard Ana's three phrases, not the refused ones, then his own.
    let mut heard = Vec::new();
    while heard.len() < 3 {
        let (msg, _) = s.until("phrase").await;
        heard.push((msg["seat"].clone(), msg["phrase"].clone()));
    }
    assert_eq!(
        heard,
        [
            (json!(0), json!("good_game")),
            (json!(0), json!("well_played")),
            (json!(1), json!("rematch"))
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_is_stored_for_the_operator_with_the_record_and_never_listed() {
    let server = Server::start().await;
    let mut ana = server.browser(ANA);
    ana.create(json!({"game": "draughts", "name": "Ana", "settings": {"public": true}}))
        .await;
    let code = ana.code.clone().unwrap();
    let mut bo = server.browser(BO);
    bo.join(&code, "Bo").await;
    ana.start().await;
    let path = format!("/api/rooms/{code}/reports");

    // Refusals: an unknown reason, one's own seat, an empty seat, free text too long.
    bo.post(&path, json!({"seat": 0, "reason": "ugly"}))
        .await
        .expect_error(400, "invalid_input");
    bo.post(&path, json!({"seat": 1, "reason": "name"}))
        .await
        .expect_error(400, "invalid_input");
    bo.post(&path, json!({"seat": 5, "reason": "name"}))
        .await
        .expect_error(400, "invalid_input");
    let long = "x".repeat(301);
    bo.post(&path, json!({"seat": 0, "reason": "name", "note": long}))
        .await
        .expect_error(400, "invalid_input");

    let a = bo
        .post(
            &path,
            json!({"seat": 0, "reason": "stalling", "note": "waits for ever"}),
        )
        .await;
    assert_eq!(a.status.as_u16(), 201, "{}", a.body);
    assert_eq!(a.body, json!({"reported": true}));
    // A spectator may report too.
    let look = server.browser(CY);
    assert_eq!(
        look.post(&path, json!({"seat": 1, "reason": "name"}))
            .await
            .status
            .as_u16(),
        201
    );

    // Never in the public reviews; in the operator's table, with the room and the record.
    let reviews = bo.get("/api/feedback").await.ok();
    assert_eq!(reviews["entries"], json!([]));
    let db = rusqlite::Connection::open(&server.db).unwrap();
    let mut stmt = db
        .prepare("SELECT kind, game, body, client FROM feedback ORDER BY id")
        .unwrap();
    let rows: Vec<(String, String, String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows.len(), 2);
    let (kind, game, body, client) = &rows[0];
    assert_eq!(
        (kind.as_str(), game.as_str(), client.as_str()),
        ("report", "draughts", BO)
    );
    assert!(body.contains("Report: stalling"), "{body}");
    assert!(body.contains(&format!("Room: {code}")), "{body}");
    assert!(body.contains("seat 0, named \"Ana\""), "{body}");
    assert!(body.contains("waits for ever"), "{body}");
    assert!(
        body.contains("[White \"Ana\"]") || body.contains("[Black \"Ana\"]"),
        "the PDN record: {body}"
    );
    assert!(rows[1].2.contains("By: a spectator"), "{}", rows[1].2);

    // Five an hour per browser.
    for _ in 0..4 {
        assert_eq!(
            bo.post(&path, json!({"seat": 0, "reason": "other"}))
                .await
                .status
                .as_u16(),
            201
        );
    }
    bo.post(&path, json!({"seat": 0, "reason": "other"}))
        .await
        .expect_error(429, "rate_limited");
}

/// Two nodes on one PostgreSQL database and one Redis (docs/cluster.md).
async fn two_nodes(db: &dames_store::ScratchDatabase) -> (Server, Server) {
    let redis =
        std::env::var("DAMES_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    let prefix = format!(
        "dames-test:public-{}:",
        db.url().rsplit('/').next().unwrap()
    );
    let node = || {
        let (url, redis, prefix) = (db.url(), redis.clone(), prefix.clone());
        Server::start_with(move |c| {
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
async fn two_nodes_share_the_lists_the_spectators_and_the_phrases() {
    let db = dames_store::ScratchDatabase::create().unwrap();
    let (one, two) = two_nodes(&db).await;
    let mut feed_two = Feed::open(&two.client()).await;
    assert!(codes(&feed_two.next().await, "open").is_empty());
    // A public table made on the first node is in the second node's feed.
    let mut ana = one.client();
    ana.create(json!({"game": "draughts", "name": "Ana", "settings": {"public": true}}))
        .await;
    let code = ana.code.clone().unwrap();
    feed_two
        .until(|_| {}, |l| entry(l, "open", &code).is_some())
        .await;
    // Bo joins through the second node; the game starts on the first.
    let mut bo = Client {
        base: two.base.clone(),
        ..two.client()
    };
    bo.join(&code, "Bo").await;
    ana.start().await;
    feed_two
        .until(|_| {}, |l| entry(l, "watch", &code).is_some())
        .await;
    // A spectator on the second node is counted by the first.
    let look = Client {
        code: Some(code.clone()),
        ..two.client()
    };
    let mut s = look.ws(0).await;
    s.next().await;
    let watcher = one.client();
    let mut seen = Value::Null;
    for _ in 0..100 {
        seen = entry(&lists(&watcher).await, "watch", &code).unwrap()["spectators"].clone();
        if seen == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(seen, 1);
    // Ana's phrase on the first node reaches the spectator on the second.
    let mut a = ana.ws(0).await;
    a.next().await;
    a.send(json!({"type": "phrase", "id": "p1", "phrase": "good_game"}))
        .await;
    assert_eq!(a.until("ack").await.0["applied"], true);
    let (said, _) = s.until("phrase").await;
    assert_eq!(
        said,
        json!({"type": "phrase", "seat": 0, "phrase": "good_game"})
    );
    drop(bo);
}

#[tokio::test]
async fn the_lists_carry_the_clocks_of_the_live_pools_as_the_operator_set_them() {
    use dames_room::clock::ClockSettings;
    let server = Server::start_with(|c| {
        c.pools.clocks.draughts = ClockSettings::Fischer {
            base_ms: 180_000,
            increment_ms: 2_000,
        };
    })
    .await;
    let clocks = lists(&server.client()).await["pool_clocks"].clone();
    assert_eq!(
        clocks,
        json!({
            "draughts": {"kind": "fischer", "base_ms": 180_000, "increment_ms": 2_000},
            "cc": {"kind": "per_move", "move_ms": 30_000, "reserve_ms": 60_000},
        })
    );
    let pools = server.client().get("/api/pools").await.ok();
    let live = (pools["pools"].as_array().unwrap().iter())
        .find(|p| p["id"] == "draughts10-live")
        .unwrap();
    assert_eq!(live["clock"], clocks["draughts"]);
    let turn = (pools["pools"].as_array().unwrap().iter())
        .find(|p| p["id"] == "draughts10-turn")
        .unwrap();
    assert_eq!(turn["clock"], json!({"kind": "none"}));
}
