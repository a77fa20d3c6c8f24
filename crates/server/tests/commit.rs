//! The commit path over a real server and a real SQLite file: group commit (one transaction for
//! the changes of many rooms, each room's changes in order), "acknowledged and broadcast only
//! after commit" with the writer held, a move writing no seat row, the `played` rows written by
//! the commit that ends a game, and idle rooms leaving memory and coming back.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{random_draughts_move, Client, Lcg, Server, Ws};
use dames_server::live::CommitProbe;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// A server whose writer `probe` sees (and can hold); rooms leave memory after `evict_after`.
async fn server_with(probe: &Arc<CommitProbe>, evict_after: Duration) -> Server {
    let probe = probe.clone();
    Server::start_with(move |c| {
        c.commit.probe = Some(probe);
        c.commit.evict_after = evict_after;
    })
    .await
}

/// The text messages arriving on `ws` within `wait` (pings skipped).
async fn messages_within(ws: &mut Ws, wait: Duration) -> Vec<Value> {
    let deadline = tokio::time::Instant::now() + wait;
    let mut out = Vec::new();
    while let Ok(Some(msg)) = tokio::time::timeout_at(deadline, ws.stream.next()).await {
        if let Message::Text(t) = msg.unwrap() {
            out.push(serde_json::from_str(&t).unwrap());
        }
    }
    out
}

async fn wait_until(what: &str, check: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Whether `msg` tells of a move (an event, or a state with more moves than `moves_before`).
fn tells_move(msg: &Value, moves_before: usize) -> bool {
    let is_move = |e: &Value| e["kind"] == "move";
    (msg["type"] == "event" && is_move(&msg["event"]))
        || (msg["type"] == "delta"
            && msg["events"]
                .as_array()
                .is_some_and(|es| es.iter().any(|e| is_move(&e["event"]))))
        || (msg["type"] == "state"
            && msg["room"]["play"]["moves"]
                .as_array()
                .is_some_and(|m| m.len() > moves_before))
}

/// A started draughts game between Ana and Bo; returns (player to move, other).
async fn draughts_game(server: &Server) -> (Client, Client) {
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    let room = ana.start().await;
    if room["play"]["to_move"] == json!(ana.seat) {
        (ana, bo)
    } else {
        (bo, ana)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_is_neither_acknowledged_nor_broadcast_before_the_writer_commits_it() {
    let probe = Arc::new(CommitProbe::default());
    let server = server_with(&probe, Duration::from_secs(300)).await;
    let (mover, other) = draughts_game(&server).await;
    let mut ws_mover = mover.ws(0).await;
    let mut ws_other = other.ws(0).await;
    // Whatever connecting sends (states, presence) has arrived.
    messages_within(&mut ws_mover, Duration::from_millis(300)).await;
    messages_within(&mut ws_other, Duration::from_millis(300)).await;
    let before = mover.room().await;
    let version = before["version"].as_i64().unwrap();
    let moves_before = before["play"]["moves"].as_array().unwrap().len();
    let mv = random_draughts_move(&before, &mut Lcg(3));

    probe.pause();
    ws_mover
        .send(json!({"type": "move", "id": "held", "move": mv}))
        .await;
    wait_until("the move to reach the writer", || probe.pending() == 1).await;
    let early_mover = messages_within(&mut ws_mover, Duration::from_millis(400)).await;
    let early_other = messages_within(&mut ws_other, Duration::from_millis(100)).await;
    assert!(
        early_mover.is_empty() && early_other.is_empty(),
        "nothing is sent before the commit: {early_mover:?} {early_other:?}"
    );

    probe.resume();
    let (ack, before_ack) = ws_mover.until("ack").await;
    assert_eq!(
        (ack["id"].as_str(), ack["applied"].as_bool()),
        (Some("held"), Some(true))
    );
    let mut seen_by_mover: Vec<Value> = before_ack;
    seen_by_mover.extend(messages_within(&mut ws_mover, Duration::from_millis(300)).await);
    assert!(
        seen_by_mover.iter().any(|m| tells_move(m, moves_before)),
        "the mover's connection gets the move too: {seen_by_mover:?}"
    );
    let mut seen_by_other = Vec::new();
    while !seen_by_other.iter().any(|m| tells_move(m, moves_before)) {
        seen_by_other.push(ws_other.next().await);
    }
    // The versions the opponent sees only go up, by one per event.
    let versions: Vec<i64> = seen_by_other
        .iter()
        .filter(|m| m["type"] == "event")
        .filter_map(|m| m["version"].as_i64())
        .collect();
    assert!(
        versions.windows(2).all(|w| w[1] == w[0] + 1),
        "{versions:?}"
    );
    assert!(versions.iter().all(|v| *v > version), "{versions:?}");
    let after = mover.room().await;
    assert_eq!(
        after["play"]["moves"].as_array().unwrap().len(),
        moves_before + 1
    );
    assert!(after["version"].as_i64().unwrap() > version);
}

/// The moves stored for a room, as played (the `data` column), in `seq` order.
fn stored_moves(db: &std::path::Path, code: &str) -> Vec<(i64, String)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare("SELECT seq, data FROM actions WHERE code = ?1 AND kind = 'move' ORDER BY seq")
        .unwrap();
    stmt.query_map([code], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_rooms_commit_together_in_order_and_come_back_exactly_after_a_restart() {
    const ROOMS: usize = 24;
    const MOVES: usize = 10;
    let probe = Arc::new(CommitProbe::default());
    let server = server_with(&probe, Duration::from_secs(300)).await;
    let mut games = Vec::new();
    for _ in 0..ROOMS {
        games.push(draughts_game(&server).await);
    }

    // The writer held: one move in every room waits; let go, they are committed together.
    probe.pause();
    let batches_before = probe.batches();
    let mut first = Vec::new();
    for (i, (mover, _)) in games.iter().enumerate() {
        let mover = mover.clone();
        first.push(tokio::spawn(async move {
            let room = mover.room().await;
            let mv = random_draughts_move(&room, &mut Lcg(i as u64 + 1));
            mover
                .act("move", json!({"id": format!("r{i}-0"), "move": mv}))
                .await
                .ok();
            mv
        }));
    }
    wait_until("a move of every room to wait for the writer", || {
        probe.pending() == ROOMS as u64
    })
    .await;
    assert_eq!(
        probe.batches(),
        batches_before,
        "nothing committed while held"
    );
    probe.resume();
    let mut sent: Vec<Vec<Value>> = Vec::new();
    for task in first {
        sent.push(vec![task.await.unwrap()]);
    }
    assert!(
        probe.largest_batch() >= ROOMS as u64,
        "the {ROOMS} waiting moves went in one transaction (largest: {})",
        probe.largest_batch()
    );

    // Then every room plays on at once, the two players in turn.
    let mut tasks = Vec::new();
    for (i, (a, b)) in games.iter().enumerate() {
        let (a, b) = (a.clone(), b.clone());
        tasks.push(tokio::spawn(async move {
            let mut rng = Lcg(100 + i as u64);
            let mut moves = Vec::new();
            for n in 1..MOVES {
                let p = if n % 2 == 0 { &a } else { &b };
                let room = p.room().await;
                if room["play"]["outcome"].is_object() {
                    break;
                }
                let mv = random_draughts_move(&room, &mut rng);
                p.act("move", json!({"id": format!("r{i}-{n}"), "move": mv}))
                    .await
                    .ok();
                moves.push(mv);
            }
            moves
        }));
    }
    for (i, task) in tasks.into_iter().enumerate() {
        sent[i].extend(task.await.unwrap());
    }
    assert!(
        probe.changes() > probe.batches(),
        "some transactions held several changes ({} changes in {} transactions)",
        probe.changes(),
        probe.batches()
    );

    // Each room's stored log is its moves in the order they were acknowledged.
    let mut before = Vec::new();
    for (i, (a, _)) in games.iter().enumerate() {
        let code = a.code.as_deref().unwrap();
        let stored = stored_moves(&server.db, code);
        let seqs: Vec<i64> = stored.iter().map(|(s, _)| *s).collect();
        assert_eq!(
            seqs,
            (0..sent[i].len() as i64).collect::<Vec<_>>(),
            "room {code}"
        );
        for ((_, data), mv) in stored.iter().zip(&sent[i]) {
            let data: Value = serde_json::from_str(data).unwrap();
            assert_eq!(data["notation"], mv["notation"], "room {code}");
        }
        before.push(a.room().await);
    }

    // A restart brings every room back exactly as it was.
    let server = server.restart(|_| {}).await;
    for (i, (a, _)) in games.iter_mut().enumerate() {
        a.base = server.base.clone();
        let after = a.room().await;
        for key in ["version", "status", "game_no", "settings"] {
            assert_eq!(
                after[key],
                before[i][key],
                "{key} of room {}",
                a.code.as_deref().unwrap()
            );
        }
        for key in ["moves", "board", "to_move", "outcome", "legal_moves"] {
            assert_eq!(
                after["play"][key],
                before[i]["play"][key],
                "{key} of room {}",
                a.code.as_deref().unwrap()
            );
        }
        let names = |r: &Value| -> Vec<Value> {
            r["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["name"].clone())
                .collect()
        };
        assert_eq!(names(&after), names(&before[i]));
    }
}

/// Counts every write to the `seats` table (triggers made by another connection: the server's
/// own statements are what is counted).
fn count_seat_writes(db: &std::path::Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute_batch(
        "CREATE TABLE seat_writes (n INTEGER NOT NULL);
         INSERT INTO seat_writes VALUES (0);
         CREATE TRIGGER seat_inserted AFTER INSERT ON seats BEGIN UPDATE seat_writes SET n = n + 1; END;
         CREATE TRIGGER seat_updated AFTER UPDATE ON seats BEGIN UPDATE seat_writes SET n = n + 1; END;
         CREATE TRIGGER seat_deleted AFTER DELETE ON seats BEGIN UPDATE seat_writes SET n = n + 1; END;",
    )
    .unwrap();
}

fn seat_writes(db: &std::path::Path) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("SELECT n FROM seat_writes", [], |r| r.get(0))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_writes_no_seat_row_and_the_end_of_a_game_records_who_played_it() {
    let probe = Arc::new(CommitProbe::default());
    let server = server_with(&probe, Duration::from_secs(300)).await;
    let mut ana = server.browser("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    ana.create(json!({"game": "draughts", "name": "Ana"})).await;
    let mut bo = server.browser("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    bo.join(ana.code.as_deref().unwrap(), "Bo").await;
    ana.start().await;
    count_seat_writes(&server.db);

    let mut rng = Lcg(5);
    for n in 0..8 {
        let room = ana.room().await;
        let p = if room["play"]["to_move"] == json!(ana.seat) {
            &ana
        } else {
            &bo
        };
        let room = p.room().await;
        let mv = random_draughts_move(&room, &mut rng);
        p.act("move", json!({"id": format!("m{n}"), "move": mv}))
            .await
            .ok();
    }
    assert_eq!(
        stored_moves(&server.db, ana.code.as_deref().unwrap()).len(),
        8
    );
    assert_eq!(seat_writes(&server.db), 0, "8 moves, no seat row written");

    // Nobody has played a finished game yet; Bo resigns: both browsers have, at once, written by
    // the commit that ended the game (no worker involved).
    let played = |client: &str| -> bool {
        let conn = rusqlite::Connection::open(&server.db).unwrap();
        conn.query_row(
            "SELECT count(*) FROM played WHERE client = ?1 AND game = 'draughts'",
            [client],
            |r| r.get::<_, i64>(0),
        )
        .unwrap()
            == 1
    };
    assert!(!played("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
    bo.act("resign", json!({})).await.ok();
    assert!(played("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
    assert!(played("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"));
    // A seat change is written: Ana readies for a rematch.
    ana.act("rematch", json!({"ready": true})).await.ok();
    assert!(seat_writes(&server.db) > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_room_leaves_memory_and_plays_on_but_not_while_a_connection_is_open() {
    let probe = Arc::new(CommitProbe::default());
    let server = server_with(&probe, Duration::from_millis(40)).await;
    let (mover, other) = draughts_game(&server).await;
    let mut rng = Lcg(11);
    let room = mover.room().await;
    mover
        .act(
            "move",
            json!({"id": "e1", "move": random_draughts_move(&room, &mut rng)}),
        )
        .await
        .ok();

    // Nobody connected: the room goes.
    wait_until("the idle room to leave memory", || probe.evicted() >= 1).await;
    // ... and comes back on the next request, where it was.
    let room = other.room().await;
    assert_eq!(room["play"]["moves"].as_array().unwrap().len(), 1);
    let version = room["version"].as_i64().unwrap();

    // A connection kept open keeps it, however long it is quiet.
    let mut ws = other.ws(version).await;
    let evicted = probe.evicted();
    messages_within(&mut ws, Duration::from_millis(400)).await;
    assert_eq!(probe.evicted(), evicted, "a room with a connection stays");
    // It plays on, and the connection (which asked for events since `version`) sees the move.
    other
        .act(
            "move",
            json!({"id": "e2", "move": random_draughts_move(&room, &mut rng)}),
        )
        .await
        .ok();
    let mut seen = Vec::new();
    while !seen.iter().any(|m| tells_move(m, 1)) {
        seen.push(ws.next().await);
    }
    drop(ws);

    // Gone again once the connection closed; a reconnection with `since` gets only what it
    // missed, from the reloaded room.
    wait_until("the room to leave memory again", || {
        probe.evicted() > evicted
    })
    .await;
    let mut ws = mover.ws(version).await;
    let mut seen = Vec::new();
    while !seen.iter().any(|m: &Value| m["type"] == "state") {
        seen.push(ws.next().await);
    }
    let state = seen.iter().find(|m| m["type"] == "state").unwrap();
    assert_eq!(state["room"]["play"]["moves"].as_array().unwrap().len(), 2);
    assert!(state["version"].as_i64().unwrap() > version);
    for event in seen.iter().filter(|m| m["type"] == "event") {
        assert!(event["version"].as_i64().unwrap() > version, "{event}");
    }
    let room = mover.room().await;
    mover
        .act(
            "move",
            json!({"id": "e3", "move": random_draughts_move(&room, &mut rng)}),
        )
        .await
        .ok();
    assert_eq!(
        stored_moves(&server.db, mover.code.as_deref().unwrap()).len(),
        3
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declined_draw_shows_the_same_after_the_room_left_memory_and_after_a_restart() {
    let probe = Arc::new(CommitProbe::default());
    let server = server_with(&probe, Duration::from_millis(40)).await;
    let (ana, bo) = draughts_game(&server).await;
    ana.act("draw", json!({"action": "offer"})).await.ok();
    bo.act("draw", json!({"action": "decline"})).await.ok();
    let before = ana.room().await;
    assert_eq!(before["play"]["draw_declined"], json!(bo.seat), "{before}");
    assert_eq!(before["play"]["draw_offer"], Value::Null);

    // Evicted and reloaded from the store: the same room, the refusal included.
    wait_until("the idle room to leave memory", || probe.evicted() >= 1).await;
    assert_eq!(ana.room().await, before);

    // Restarted on the same file: the same again.
    let server = server.restart(|_| {}).await;
    let (mut ana, mut bo) = (ana, bo);
    ana.base.clone_from(&server.base);
    bo.base.clone_from(&server.base);
    assert_eq!(ana.room().await, before);
    assert_eq!(bo.room().await["play"]["draw_declined"], json!(bo.seat));

    // A new offer is allowed as before the restart, and replaces the refusal.
    let offered = ana.act("draw", json!({"action": "offer"})).await.ok();
    assert_eq!(offered["play"]["draw_offer"], json!(ana.seat), "{offered}");
    assert_eq!(offered["play"]["draw_declined"], Value::Null);
    // A move clears it for good.
    let room = bo.act("draw", json!({"action": "decline"})).await.ok();
    assert_eq!(room["play"]["draw_declined"], json!(bo.seat));
    let room = ana.room().await;
    ana.play(random_draughts_move(&room, &mut Lcg(5)))
        .await
        .ok();
    let server = server.restart(|_| {}).await;
    ana.base.clone_from(&server.base);
    assert_eq!(ana.room().await["play"]["draw_declined"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_with_an_unused_link_to_move_a_seat_stays_in_memory_until_the_link_is_used() {
    let probe = Arc::new(CommitProbe::default());
    let server = server_with(&probe, Duration::from_millis(40)).await;
    // The seat not to move: once it is moved, nothing else keeps the room (the time a seat to
    // move left would, docs/protocol.md "Away players").
    let (_mover, ana) = draughts_game(&server).await;
    let code = ana.code.clone().unwrap();
    let link = ana.act("transfer", json!({})).await.ok();
    let (_, token) = link["url"]
        .as_str()
        .unwrap()
        .split_once("#transfer=")
        .unwrap();
    // The link exists only in memory: the idle room stays while it is valid.
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        probe.evicted(),
        0,
        "the room with a pending link left memory"
    );
    let mut phone = server.browser("0123456789abcdef0123456789abcdef");
    phone.code = Some(code);
    let answer = phone
        .act("transfer/claim", json!({"token": token}))
        .await
        .ok();
    assert_eq!(answer["seat"], json!(ana.seat));
    // Used: nothing holds the room any more.
    wait_until("the room to leave memory", || probe.evicted() >= 1).await;
}
