//! Clocks (issue 20, docs/protocol.md "Clocks") over real sockets: each move charged to its
//! side, less the lag credit of its WebSocket (a client behind a proxy that delays every byte),
//! the increment added; the flag falling on the server's clock at its deadline; a move after the
//! time is out refused; the time kept across a reconnect, a restart on the same SQLite file (the
//! flag still falling at its moment after it) and a move made through another node of a cluster.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{Client, Server, Ws};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A TCP proxy to `target` that delays every byte by `delay` each way (order kept): a client
/// connected through it has a round trip of about twice `delay`.
async fn slow_proxy(target: SocketAddr, delay: Duration) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((inbound, _)) = listener.accept().await {
            let Ok(outbound) = TcpStream::connect(target).await else {
                continue;
            };
            let _ = (inbound.set_nodelay(true), outbound.set_nodelay(true));
            let (ri, wi) = inbound.into_split();
            let (ro, wo) = outbound.into_split();
            tokio::spawn(one_way(ri, wo, delay));
            tokio::spawn(one_way(ro, wi, delay));
        }
    });
    addr
}

/// Copies `from` to `to`, each chunk written `delay` after it was read.
async fn one_way(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    delay: Duration,
) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    tokio::spawn(async move {
        while let Some((at, bytes)) = rx.recv().await {
            tokio::time::sleep_until((at + delay).into()).await;
            if to.write_all(&bytes).await.is_err() {
                return;
            }
        }
    });
    let mut buf = vec![0; 16 * 1024];
    while let Ok(n) = from.read(&mut buf).await {
        if n == 0 || tx.send((Instant::now(), buf[..n].to_vec())).is_err() {
            return;
        }
    }
}

/// A draughts room of Ana (seat 0, White) and Bo with this Fischer clock, not started.
async fn table(server: &Server, base_ms: u64, increment_ms: u64) -> (Client, Client) {
    let clock = json!({"kind": "fischer", "base_ms": base_ms, "increment_ms": increment_ms});
    server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana", "settings": {"clock": clock}}))
        .await
}

/// The next state whose room satisfies `pred`, at once if the room followed already does.
async fn seen(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    match &ws.room {
        Some(room) if pred(room) => room.clone(),
        _ => ws.state_where(pred).await,
    }
}

/// Waits `time` while reading `ws` (the room it follows kept up to date): a client that reads
/// answers the server's pings at once, as a browser does, so its measured lag is the network's.
async fn idle(ws: &mut Ws, time: Duration) {
    let until = tokio::time::Instant::now() + time;
    while tokio::time::timeout_at(until, ws.next()).await.is_ok() {}
}

fn moves(room: &Value) -> usize {
    room["play"]["moves"].as_array().map_or(0, Vec::len)
}

/// The clock of a room view: (remaining per seat, running seat, the server's `now`).
fn clock(room: &Value) -> (Vec<i64>, Option<u64>, i64) {
    let c = &room["play"]["clock"];
    let remaining = c["remaining"]
        .as_array()
        .unwrap_or_else(|| panic!("no clock in {room}"))
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    (remaining, c["running"].as_u64(), c["now"].as_i64().unwrap())
}

/// When the running seat's flag falls, from a view's clock (Fischer): its time at `now`, plus
/// the 300 ms of lag allowance.
fn flag_due(room: &Value) -> i64 {
    let (remaining, running, now) = clock(room);
    now + remaining[running.unwrap() as usize] + 300
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_move_is_charged_to_its_side_less_the_lag_credit_and_earns_the_increment() {
    const DELAY: u64 = 150;
    const THINK: u64 = 400;
    let server = Server::start().await;
    let (ana, bo) = table(&server, 60_000, 2_000).await;
    // Ana plays through a link with 150 ms each way; Bo is direct.
    let proxy = slow_proxy(server.addr, Duration::from_millis(DELAY)).await;
    let ana_far = Client {
        base: format!("http://{proxy}"),
        ..ana.clone()
    };
    let mut ana_ws = ana_far.ws(0).await;
    ana_ws.until("state").await;
    let mut bo_ws = bo.ws(0).await;
    bo_ws.until("state").await;
    // The server pings each socket as it opens: wait for Ana's round trip to be measured.
    let wait = Duration::from_millis(3 * DELAY);
    tokio::join!(idle(&mut ana_ws, wait), idle(&mut bo_ws, wait));
    let room = ana.start().await;
    assert_eq!(
        (room["play"]["to_move"].as_u64(), room["you"].as_u64()),
        (Some(0), Some(0))
    );
    let (remaining, running, _) = clock(&room);
    assert_eq!((remaining[1], running), (60_000, Some(0)));
    assert!(
        remaining[0] > 59_800,
        "Ana's runs from the start: {remaining:?}"
    );

    // Ana sees the start 150 ms late, thinks 400 ms, her move takes 150 ms to arrive: the server
    // counts 700 ms, less her lag credit (half her round trip, 150 ms): 550 ms.
    seen(&mut ana_ws, |r| r["status"] == "playing").await;
    let think = Duration::from_millis(THINK);
    tokio::join!(idle(&mut ana_ws, think), idle(&mut bo_ws, think));
    let mv = json!({"type": "move", "id": "a1", "move": {"notation": "32-28"}});
    ana_ws.send(mv).await;
    let after = seen(&mut bo_ws, |r| moves(r) == 1).await;
    let (remaining, running, _) = clock(&after);
    let charged = 62_000 - remaining[0];
    let expected = (DELAY + THINK) as i64;
    println!("charged {charged} ms for {expected} ms of thinking and one-way delay");
    assert!(
        (expected - 30..=expected + 150).contains(&charged),
        "charged {charged} ms for {expected} ms behind a {DELAY} ms link"
    );
    assert!(
        charged < expected + DELAY as i64 - 50,
        "the lag credit was given"
    );
    assert_eq!(running, Some(1), "Bo's clock runs now");
    assert!(
        remaining[1] > 59_900,
        "Bo charged nothing for Ana's move: {remaining:?}"
    );

    // Bo answers directly after 300 ms: charged about that, increment added; Ana's time stays.
    idle(&mut bo_ws, Duration::from_millis(300)).await;
    bo.play(json!({"notation": "19-23"})).await.ok();
    let after = seen(&mut bo_ws, |r| moves(r) == 2).await;
    let (remaining2, running, _) = clock(&after);
    assert!(
        (61_600..=61_720).contains(&remaining2[1]),
        "Bo: {remaining2:?}"
    );
    assert!(remaining2[0] <= remaining[0] && remaining2[0] > remaining[0] - 50);
    assert_eq!(running, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_flag_falls_at_its_deadline_on_the_servers_clock_and_a_late_move_is_refused() {
    let server = Server::start().await;
    let (ana, bo) = table(&server, 1_000, 0).await;
    let mut bo_ws = bo.ws(0).await;
    bo_ws.until("state").await;
    let room = ana.start().await;
    let due = flag_due(&room);
    let started = Instant::now();
    // Out of time (1 s) but before the flag falls (300 ms later): a move over HTTP, which has no
    // lag credit, is refused, and nothing changes.
    tokio::time::sleep_until((started + Duration::from_millis(1_120)).into()).await;
    let late = ana.play(json!({"notation": "32-28"})).await;
    late.expect_error(409, "wrong_state");
    assert_eq!(late.body["error"]["detail"]["reason"], "time_out");
    // The flag falls on time: the change's clock is stamped by the server when it is sent.
    let over = seen(&mut bo_ws, |r| r["status"] == "finished").await;
    let (remaining, running, now) = clock(&over);
    println!("the flag fell {} ms after its deadline", now - due);
    assert!(
        (now - due).abs() <= 50,
        "the flag fell at {now}, due at {due}"
    );
    assert_eq!((remaining[0], running), (0, None));
    let outcome = &over["play"]["outcome"];
    assert_eq!(
        (outcome["kind"].as_str(), outcome["reason"].as_str()),
        (Some("win"), Some("time"))
    );
    assert_eq!(outcome["places"], json!([2, 1]));
    assert_eq!(moves(&over), 0);
    // The event says whose flag fell, and is stored with the game.
    let events = bo
        .get(&format!(
            "/api/rooms/{}/events?since=0",
            bo.code.as_deref().unwrap()
        ))
        .await
        .ok();
    let flag = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"]["kind"] == "flag")
        .cloned()
        .expect("a flag event");
    assert_eq!(
        flag["event"],
        json!({"kind": "flag", "seat": 0, "then": "lost"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_is_kept_across_a_reconnect_and_a_restart_and_the_flag_still_falls() {
    let server = Server::start().await;
    let (ana, bo) = table(&server, 3_000, 0).await;
    let mut bo_ws = bo.ws(0).await;
    bo_ws.until("state").await;
    ana.start().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    ana.play(json!({"notation": "32-28"})).await.ok();
    let moved = seen(&mut bo_ws, |r| moves(r) == 1).await;
    let (before, running, then) = clock(&moved);
    assert_eq!(running, Some(1));
    let due = flag_due(&moved);

    // Bo's page reconnects: the same clocks, Bo's counted down since.
    drop(bo_ws);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (state, _) = bo.ws(0).await.until("state").await;
    let (again, running, now) = clock(&state["room"]);
    assert_eq!((again[0], running), (before[0], Some(1)));
    assert!(
        ((before[1] - (now - then)) - again[1]).abs() <= 5,
        "{before:?} → {again:?}"
    );

    // A restart on the same file: the same clocks from the store, and the timer set again.
    let server = server.restart(|_| {}).await;
    let bo = Client {
        base: server.base.clone(),
        ..bo
    };
    let mut bo_ws = bo.ws(0).await;
    let (state, _) = bo_ws.until("state").await;
    let (restarted, running, now) = clock(&state["room"]);
    assert_eq!((restarted[0], running), (before[0], Some(1)));
    assert!(((before[1] - (now - then)) - restarted[1]).abs() <= 5);
    let over = seen(&mut bo_ws, |r| r["status"] == "finished").await;
    let (_, _, fell) = clock(&over);
    println!("the flag fell {} ms after its deadline", fell - due);
    assert!(
        (fell - due).abs() <= 50,
        "the flag fell at {fell}, due at {due}"
    );
    assert_eq!(over["play"]["outcome"]["places"], json!([1, 2]));
}

/// Two nodes on one PostgreSQL database and one Redis (docs/cluster.md).
async fn two_nodes(db: &dames_store::ScratchDatabase) -> (Server, Server) {
    let redis =
        std::env::var("DAMES_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    let prefix = format!("dames-test:clock-{}:", db.url().rsplit('/').next().unwrap());
    let node = || {
        let (url, redis, prefix) = (db.url(), redis.clone(), prefix.clone());
        Server::start_with(move |c| {
            c.database = Some(url);
            c.redis = Some(redis);
            c.redis_prefix = prefix;
        })
    };
    (node().await, node().await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_through_another_node_keeps_the_clocks_and_the_flag_falls_once() {
    let db = dames_store::ScratchDatabase::create().unwrap();
    let (one, two) = two_nodes(&db).await;
    let (ana, bo) = table(&one, 2_000, 1_000).await;
    let mut ana_ws = ana.ws(0).await;
    ana_ws.until("state").await;
    ana.start().await;
    // Bo's browser reaches the second node, which loads the room (and sets its own timer).
    let bo_two = Client {
        base: two.base.clone(),
        ..bo
    };
    let mut bo_ws = bo_two.ws(0).await;
    bo_ws.until("state").await;
    let wait = Duration::from_millis(300);
    tokio::join!(idle(&mut ana_ws, wait), idle(&mut bo_ws, wait));
    ana.play(json!({"notation": "32-28"})).await.ok();
    let on_two = seen(&mut bo_ws, |r| moves(r) == 1).await;
    let (after_ana, running, _) = clock(&on_two);
    assert_eq!(running, Some(1));
    assert!((2_600..=2_720).contains(&after_ana[0]), "{after_ana:?}");
    // Bo moves through the second node: charged there; node one sees the same clocks.
    let wait = Duration::from_millis(400);
    tokio::join!(idle(&mut ana_ws, wait), idle(&mut bo_ws, wait));
    bo_ws
        .send(json!({"type": "move", "id": "b1", "move": {"notation": "19-23"}}))
        .await;
    let on_one = seen(&mut ana_ws, |r| moves(r) == 2).await;
    let (after_bo, running, _) = clock(&on_one);
    assert_eq!(running, Some(0));
    assert!((2_500..=2_620).contains(&after_bo[1]), "{after_bo:?}");
    assert!((after_bo[0] - after_ana[0]).abs() <= 30);
    // Ana does not move: both nodes hold the room and its timer; the flag falls once, on time.
    let due = flag_due(&on_one);
    let over = seen(&mut bo_ws, |r| r["status"] == "finished").await;
    let (_, _, fell) = clock(&over);
    println!("the flag fell {} ms after its deadline", fell - due);
    assert!(
        (fell - due).abs() <= 50,
        "the flag fell at {fell}, due at {due}"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let events = ana
        .get(&format!(
            "/api/rooms/{}/events?since=0",
            ana.code.as_deref().unwrap()
        ))
        .await
        .ok();
    let kinds: Vec<&str> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["event"]["kind"].as_str())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "flag").count(),
        1,
        "{kinds:?}"
    );
    assert_eq!(kinds.iter().filter(|k| **k == "finished").count(), 1);
}
