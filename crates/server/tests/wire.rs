//! What goes out on the WebSocket (docs/protocol.md, "WebSocket"; issue 9): presence kept in
//! memory only and broadcast as its own message; changes sent as deltas that the client's own
//! code (web/js/delta.js, run by node) turns back into the full state.

mod common;

use std::time::Duration;

use common::{Client, Lcg, Server, Ws};
use serde_json::{json, Value};

/// The room's stored events, from the start.
async fn stored_events(client: &common::Client) -> Vec<Value> {
    let code = client.code.clone().unwrap();
    let answer = client
        .get(&format!("/api/rooms/{code}/events?since=0"))
        .await;
    answer.body["events"].as_array().unwrap().clone()
}

/// The next `presence` message of `ws` about seat 1 (other messages are skipped: a socket
/// also hears of its own seat coming online).
async fn presence(ws: &mut Ws) -> Value {
    loop {
        let msg = ws.until("presence").await.0;
        if msg["seat"] == 1 {
            return msg;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_is_broadcast_never_stored_and_costs_no_version() {
    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    ana.start().await;
    let mut ws_ana = ana.ws(0).await;
    ws_ana.until("state").await;
    let version = ana.room().await["version"].as_i64().unwrap();
    let events = stored_events(&ana).await;
    for round in 0..20 {
        let mut ws_bo = bo.ws(version).await;
        let (state, before) = ws_bo.until("state").await;
        assert!(before.is_empty(), "round {round}: {before:?}");
        assert_eq!(state["version"], version);
        assert_eq!(
            presence(&mut ws_ana).await,
            json!({"type": "presence", "seat": 1, "online": true})
        );
        drop(ws_bo);
        assert_eq!(
            presence(&mut ws_ana).await,
            json!({"type": "presence", "seat": 1, "online": false})
        );
    }
    // A second socket of the same seat changes nothing for the others: still online until the
    // last one closes.
    let ws_1 = bo.ws(version).await;
    let mut ws_2 = bo.ws(version).await;
    ws_2.until("state").await;
    assert_eq!(presence(&mut ws_ana).await["online"], true);
    drop(ws_1);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(ana.room().await["seats"][1]["online"], true);
    drop(ws_2);
    assert_eq!(presence(&mut ws_ana).await["online"], false);
    let room = ana.room().await;
    assert_eq!(room["version"], version, "presence is no version");
    assert_eq!(room["seats"][1]["online"], false);
    assert_eq!(
        stored_events(&ana).await,
        events,
        "presence is never stored"
    );
    // After a restart every client comes back: still no version, no event.
    drop(ws_ana);
    let server = server.restart(|_| {}).await;
    let (mut ana, mut bo) = (ana, bo);
    ana.base = server.base.clone();
    bo.base = server.base.clone();
    let mut ws_ana = ana.ws(version).await;
    let (state, before) = ws_ana.until("state").await;
    assert!(before.is_empty(), "{before:?}");
    assert_eq!(state["room"]["seats"][0]["online"], true);
    let mut ws_bo = bo.ws(version).await;
    ws_bo.until("state").await;
    assert_eq!(presence(&mut ws_ana).await["online"], true);
    let room = ana.room().await;
    assert_eq!(room["version"], version);
    assert_eq!(stored_events(&ana).await, events);
}

/// A socket that records every message from its first state on, following the room's version
/// (tests/common `apply_delta`, the Rust twin of web/js/delta.js, only to know when it has
/// caught up).
struct Recorder {
    ws: Ws,
    messages: Vec<Value>,
    version: i64,
    you: Value,
}

impl Recorder {
    async fn open(client: &Client) -> Recorder {
        let mut ws = client.ws(0).await;
        let (state, _) = ws.until("state").await;
        Recorder {
            ws,
            version: state["version"].as_i64().unwrap(),
            you: state["room"]["you"].clone(),
            messages: vec![state],
        }
    }

    /// Records until the room's version `version` is reached (and the `turn` of a seat to move
    /// that is this socket's).
    async fn catch_up(&mut self, room: &Value) {
        let version = room["version"].as_i64().unwrap();
        let turn = room["status"] == "playing"
            && !self.you.is_null()
            && room["play"]["to_move"] == self.you;
        let mut turned = false;
        while self.version < version || (turn && !turned) {
            let msg = self.ws.next_raw().await;
            match msg["type"].as_str().unwrap() {
                "state" | "delta" => self.version = msg["version"].as_i64().unwrap(),
                "turn" => turned = msg["version"] == version,
                _ => {}
            }
            self.messages.push(msg);
        }
    }
}

/// What web/js/delta.js makes of `messages` (the first a `state`), run by node.
fn apply_in_node(messages: &[Value]) -> Option<Value> {
    let module = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/js/delta.js");
    let module = module.canonicalize().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("messages.json");
    std::fs::write(&input, serde_json::to_vec(messages).unwrap()).unwrap();
    let script = format!(
        r#"import {{ apply }} from {module};
import {{ readFileSync }} from 'node:fs';
let room = null;
for (const msg of JSON.parse(readFileSync({input}, 'utf8'))) {{
  room = apply(room, msg);
  if (room === null) throw new Error('gap at ' + JSON.stringify(msg).slice(0, 200));
}}
process.stdout.write(JSON.stringify(room));"#,
        module = serde_json::to_string(&format!("file://{}", module.display())).unwrap(),
        input = serde_json::to_string(&input.display().to_string()).unwrap(),
    );
    let out = match std::process::Command::new("node")
        .args(["--input-type=module", "-e", &script])
        .output()
    {
        Ok(out) => out,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return None,
        Err(err) => panic!("node: {err}"),
    };
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

/// A random legal move of the player to move, as its `MoveInput`.
fn random_move(room: &Value, rng: &mut Lcg) -> Value {
    let moves = room["play"]["legal_moves"].as_array().unwrap();
    let m = &moves[rng.below(moves.len())];
    match m.get("notation") {
        Some(n) => json!({"notation": n}),
        None => json!({"from": m["from"], "to": m["to"]}),
    }
}

/// Plays `n` random moves (fewer if the game ends), each by the seat to move over HTTP.
async fn random_moves(players: &[Client], n: usize, rng: &mut Lcg) {
    for _ in 0..n {
        let room = players[0].room().await;
        if room["status"] != "playing" {
            return;
        }
        let seat = room["play"]["to_move"].as_u64().unwrap() as usize;
        let mover = &players[seat];
        let room = mover.room().await;
        mover.play(random_move(&room, rng)).await.ok();
    }
}

/// The full state a new connection of `client` gets.
async fn fresh_state(client: &Client) -> Value {
    let mut ws = client.ws(0).await;
    ws.until("state").await.0["room"].clone()
}

/// Checks that the initial state and every message each recorder saw, applied by web/js/delta.js,
/// give the full state a new connection gets now.
async fn check(recorders: &mut [(Recorder, &Client)], what: &str) -> bool {
    let room = recorders[0].1.room().await;
    for (recorder, client) in recorders.iter_mut() {
        recorder.catch_up(&room).await;
        // A presence (no version) may still be on its way: a few more messages, briefly.
        for attempt in 0.. {
            let Some(followed) = apply_in_node(&recorder.messages) else {
                eprintln!("SKIPPED: node is not installed; the client's delta code was not run");
                return false;
            };
            let full = fresh_state(client).await;
            if followed == full || attempt == 10 {
                assert_eq!(
                    followed,
                    full,
                    "{what}: the deltas of {} messages do not give the full state",
                    recorder.messages.len()
                );
                break;
            }
            if let Ok(msg) =
                tokio::time::timeout(Duration::from_millis(300), recorder.ws.next_raw()).await
            {
                recorder.messages.push(msg);
            }
        }
    }
    true
}

/// One random game of `kind` with `players` people (Ana, the host, and others), with what can
/// happen around it: joins, a CPU put and removed, settings, presence, draw offers,
/// resignations, a rematch.
async fn deltas_rebuild_the_state(kind: &str, players: usize, seed: u64) {
    let server = Server::start().await;
    let mut rng = Lcg(seed);
    let mut ana = server.client();
    let rules = if kind == "cc" {
        json!({"players": players})
    } else {
        json!({})
    };
    ana.create(json!({"game": kind, "name": "Ana", "settings": {"rules": rules}}))
        .await;
    let code = ana.code.clone().unwrap();
    let spectator = {
        let mut s = server.client();
        s.code = Some(code.clone());
        s
    };
    let mut recorders = vec![
        (Recorder::open(&ana).await, &ana),
        (Recorder::open(&spectator).await, &spectator),
    ];
    let what = format!("{kind} with {players} players, seed {seed}");
    let mut clients = vec![ana.clone()];
    ana.act("seats/1", json!({"cpu": "normal"})).await.ok();
    ana.act("settings", json!({"show_legal_moves": false}))
        .await
        .ok();
    ana.act("seats/1", json!({"cpu": null})).await.ok();
    for n in 1..players {
        let mut c = server.client();
        c.join(&code, &format!("P{n}")).await;
        clients.push(c);
    }
    if !check(&mut recorders, &what).await {
        return;
    }
    ana.start().await;
    // Someone comes and goes: presence, not versions.
    let ws = clients[1].ws(0).await;
    random_moves(&clients, 6 + rng.below(20), &mut rng).await;
    drop(ws);
    check(&mut recorders, &what).await;
    if kind == "draughts" {
        let room = ana.room().await;
        let offerer = &clients[room["play"]["to_move"].as_u64().unwrap() as usize];
        offerer.act("draw", json!({"action": "offer"})).await.ok();
        let other = &clients[1 - offerer.seat.unwrap() as usize];
        other.act("draw", json!({"action": "decline"})).await.ok();
        random_moves(&clients, 1, &mut rng).await;
    } else if players > 2 {
        clients[players - 1].act("resign", json!({})).await.ok();
    }
    random_moves(&clients, 5 + rng.below(30), &mut rng).await;
    check(&mut recorders, &what).await;
    // The game ends, and the next one starts.
    for c in &clients[1..] {
        c.act("resign", json!({})).await;
    }
    let room = ana.room().await;
    if room["status"] == "playing" {
        ana.act("resign", json!({})).await.ok();
    }
    check(&mut recorders, &what).await;
    for c in &clients {
        c.act("rematch", json!({"ready": true})).await.ok();
    }
    random_moves(&clients, 3 + rng.below(10), &mut rng).await;
    check(&mut recorders, &what).await;
    // Changes came as deltas; the legal moves only to the seat to move (Ana), never to the
    // spectator; a full state only on connection.
    let count =
        |messages: &[Value], kind: &str| messages.iter().filter(|m| m["type"] == kind).count();
    let (seated, watching) = (&recorders[0].0.messages, &recorders[1].0.messages);
    assert!(
        count(seated, "delta") > 10 && count(watching, "delta") > 10,
        "{what}"
    );
    assert!(count(seated, "turn") > 0, "{what}");
    assert_eq!(count(watching, "turn"), 0, "{what}");
    assert_eq!(
        (count(seated, "state"), count(watching, "state")),
        (1, 1),
        "{what}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deltas_rebuild_the_full_state_in_the_client_draughts() {
    for seed in 1..=3 {
        deltas_rebuild_the_state("draughts", 2, seed).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deltas_rebuild_the_full_state_in_the_client_chinese_checkers() {
    for (players, seed) in [(2, 4), (3, 5), (4, 6), (6, 7)] {
        deltas_rebuild_the_state("cc", players, seed).await;
    }
}
