//! Three `dames serve` nodes on one PostgreSQL and one Redis (docs/cluster.md): players on
//! different nodes play together live and a spectator on a third node follows; a node killed with
//! SIGKILL loses no acknowledged move and its clients go on with another node; the same move sent
//! to two nodes at once is applied once; a seat-transfer link made through one node moves the
//! seat through another.
#![cfg(feature = "server")]

mod common;

use serde_json::{json, Value};

use common::client::{greedy_cc_move, random_draughts_move, Client, Lcg, Ws};
use common::cluster::Cluster;

/// The number of moves of a room (the server's JSON).
fn moves(room: &Value) -> usize {
    room["play"]["moves"].as_array().map_or(0, Vec::len)
}

/// A client of node `i` following the room of `of` (same seat, if any).
fn on_node(cluster: &Cluster, i: usize, of: &Client) -> Client {
    let mut c = of.clone();
    c.base = cluster.node(i).base.clone();
    c
}

/// Ana on node 0 and Bo on node 1 seated in a started room made with `create`, a spectator on
/// node 2; each with a socket.
async fn table(cluster: &Cluster, create: Value) -> ([Client; 3], [Ws; 3]) {
    let mut ana = cluster.client(0);
    ana.create(create).await;
    let code = ana.code.clone().unwrap();
    let mut ana_ws = ana.ws(0).await;
    let mut bo = cluster.client(1);
    bo.join(&code, "Bo").await;
    // Ana starts once her page shows Bo seated (told by node 1 through node 0).
    ana_ws.state_where(|r| r["seats"][1]["name"] == "Bo").await;
    ana.start().await;
    let mut spectator = cluster.client(2);
    spectator.code = Some(code);
    let sockets = [ana_ws, bo.ws(0).await, spectator.ws(0).await];
    ([ana, bo, spectator], sockets)
}

/// The room as `ws` shows it once it satisfies `pred` (at once if it already does).
async fn seen(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    match &ws.room {
        Some(room) if pred(room) => room.clone(),
        _ => ws.state_where(pred).await,
    }
}

/// Plays from the room as it is until it ends (or `limit` moves were played), each move by the
/// seat to move on its own node, chosen by `pick`; every socket must see every move.
async fn play_on(
    players: &[Client; 3],
    sockets: &mut [Ws; 3],
    limit: usize,
    pick: &mut impl FnMut(&Value) -> Value,
) -> Value {
    let mut played = 0;
    loop {
        let room = seen(&mut sockets[2], |r| r["status"] != "lobby").await;
        let room = if room["status"] == "playing" {
            room
        } else {
            return room;
        };
        let seat = room["play"]["to_move"].as_u64().unwrap() as usize;
        let n = moves(&room);
        // The mover's own view of that room, with its legal moves (from the `turn`).
        let mine = seen(&mut sockets[seat], |r| {
            moves(r) == n
                && r["play"]["legal_moves"]
                    .as_array()
                    .is_some_and(|m| !m.is_empty())
        })
        .await;
        let mv = pick(&mine);
        let answer = players[seat]
            .act("move", json!({"id": format!("m{n}"), "move": mv}))
            .await
            .ok();
        assert_eq!(answer["applied"], true, "{answer}");
        // Everyone sees it live, whichever node they are on.
        for socket in sockets.iter_mut() {
            socket
                .state_where(|r| moves(r) > n || r["status"] != "playing")
                .await;
        }
        played += 1;
        if played == limit {
            return sockets[2].room.clone().unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_nodes_play_a_whole_game_of_each_kind_live_and_a_third_node_follows() {
    let cluster = Cluster::start(3);
    let mut rng = Lcg(13);
    let (players, mut sockets) = table(&cluster, json!({"game": "draughts", "name": "Ana"})).await;
    let end = play_on(&players, &mut sockets, usize::MAX, &mut |r| {
        random_draughts_move(r, &mut rng)
    })
    .await;
    assert_eq!(end["status"], "finished", "{end}");
    assert_eq!(
        players[1].room().await["play"]["moves"],
        end["play"]["moves"]
    );

    let mut rng = Lcg(7);
    let (players, mut sockets) = table(&cluster, json!({"game": "cc", "name": "Ana"})).await;
    let end = play_on(&players, &mut sockets, usize::MAX, &mut |r| {
        greedy_cc_move(r, &mut rng)
    })
    .await;
    assert_eq!(end["status"], "finished", "{end}");
    common::client::assert_decided(&end);
    assert!(moves(&end) > 20, "{end}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_transfer_link_made_through_one_node_moves_the_seat_through_another() {
    let cluster = Cluster::start(2);
    let mut ana = cluster.client(0);
    ana.create(json!({"game": "draughts", "name": "Ana"})).await;
    let code = ana.code.clone().unwrap();
    let mut bo = cluster.client(1);
    bo.join(&code, "Bo").await;
    ana.start().await;
    // Node 1 holds the room too (Bo plays through it) when Ana asks node 0 for a link.
    assert_eq!(bo.room().await["status"], "playing");
    let token = ana.transfer_token().await;
    let mut phone = cluster.client(1);
    phone.code = Some(code.clone());
    assert_eq!(phone.claim_transfer(&token).await["seat"], 0);
    // The seat is the phone's on both nodes; Ana's old token is nobody's.
    let moved = on_node(&cluster, 0, &phone).room().await;
    assert_eq!(moved["you"], 0);
    assert_eq!(ana.room().await["you"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_killed_mid_game_loses_no_acknowledged_move_and_its_player_goes_on_elsewhere() {
    let mut cluster = Cluster::start(3);
    let mut rng = Lcg(5);
    let (mut players, mut sockets) =
        table(&cluster, json!({"game": "draughts", "name": "Ana"})).await;
    let mid = play_on(&players, &mut sockets, 6, &mut |r| {
        random_draughts_move(r, &mut rng)
    })
    .await;
    assert_eq!(moves(&mid), 6);

    // Bo's node dies: Bo comes back through node 2 with the last version he saw.
    cluster.kill9(1);
    let since = sockets[1].room.as_ref().unwrap()["version"]
        .as_i64()
        .unwrap();
    players[1] = on_node(&cluster, 2, &players[1]);
    sockets[1] = players[1].ws(since).await;
    let room = sockets[1].state_where(|_| true).await;
    assert_eq!(room["play"]["moves"], mid["play"]["moves"]);
    let end = play_on(&players, &mut sockets, 6, &mut |r| {
        random_draughts_move(r, &mut rng)
    })
    .await;
    assert_eq!(moves(&end), 12, "{end}");

    // A node started again on the same database has all of them.
    cluster.restart(1);
    let after = on_node(&cluster, 1, &players[0]).room().await;
    assert_eq!(after["play"]["moves"], end["play"]["moves"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_move_sent_to_two_nodes_at_once_is_applied_once() {
    let cluster = Cluster::start(3);
    let mut rng = Lcg(3);
    for round in 0..5 {
        let (players, _sockets) = table(&cluster, json!({"game": "draughts", "name": "Ana"})).await;
        let room = players[0].room().await;
        let mv = random_draughts_move(&room, &mut rng);
        let body = json!({"id": format!("same{round}"), "move": mv});
        let twins = [
            on_node(&cluster, 0, &players[0]),
            on_node(&cluster, 1, &players[0]),
        ];
        let (a, b) = tokio::join!(
            twins[0].act("move", body.clone()),
            twins[1].act("move", body.clone())
        );
        for (twin, answer) in twins.iter().zip([a, b]) {
            // A node that lost the race (or had not caught up with the start yet) answers
            // `conflict`: the client sends the move again there, with the same id.
            let mut answer = answer;
            for _ in 0..5 {
                if answer.status != 409 {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                answer = twin.act("move", body.clone()).await;
            }
            assert!(answer.status.is_success(), "{}", answer.body);
        }
        for twin in &twins {
            assert_eq!(moves(&twin.room().await), 1);
        }
    }
}

/// Waits until `ws` shows seat `seat` online (or offline); how long it took.
async fn online(ws: &mut Ws, seat: usize, want: bool) -> std::time::Duration {
    let start = std::time::Instant::now();
    while ws
        .room
        .as_ref()
        .map(|r| r["seats"][seat]["online"].as_bool())
        != Some(Some(want))
    {
        ws.next().await;
        assert!(
            start.elapsed() < std::time::Duration::from_secs(15),
            "seat {seat} not online={want}"
        );
    }
    start.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_is_cluster_wide_and_a_killed_node_stops_counting_within_seconds() {
    let mut cluster = Cluster::start(3);
    let mut ana = cluster.client(0);
    ana.create(json!({"game": "draughts", "name": "Ana", "settings": {"away_after": 5}}))
        .await;
    let code = ana.code.clone().unwrap();
    let mut ana_ws = ana.ws(0).await;
    let mut bo = cluster.client(1);
    bo.join(&code, "Bo").await;
    ana_ws.state_where(|r| r["seats"][1]["name"] == "Bo").await;
    assert_eq!(online(&mut ana_ws, 1, false).await.as_secs(), 0);

    // Bo connects to node 1: Ana, on node 0, sees him online; then offline when he leaves.
    let bo_ws = bo.ws(0).await;
    online(&mut ana_ws, 1, true).await;
    drop(bo_ws);
    online(&mut ana_ws, 1, false).await;

    // Back again; a spectator arriving on node 2 sees both online.
    let _bo_ws = bo.ws(0).await;
    online(&mut ana_ws, 1, true).await;
    let mut spectator = cluster.client(2);
    spectator.code = Some(code.clone());
    let mut spectator_ws = spectator.ws(0).await;
    spectator_ws.state_where(|_| true).await;
    online(&mut spectator_ws, 1, true).await;
    online(&mut spectator_ws, 0, true).await;

    // Bo to move, connected to node 1: node 0 does not take him for away.
    ana.start().await;
    let room = ana_ws
        .state_where(|r| r["status"] == "playing" && r["play"]["to_move"] == 0)
        .await;
    let mv = random_draughts_move(&room, &mut Lcg(1));
    ana.act("move", json!({"id": "a1", "move": mv})).await.ok();
    let claim = json!({"seat": 1, "action": "claim"});
    let refused = ana.act("away", claim.clone()).await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert_eq!(
        refused.body["error"]["detail"]["reason"], "present",
        "{}",
        refused.body
    );

    // Node 1 dies: Bo is offline for the others within a few seconds, and away from then.
    cluster.kill9(1);
    let took = online(&mut ana_ws, 1, false).await;
    online(&mut spectator_ws, 1, false).await;
    assert!(took < std::time::Duration::from_secs(8), "{took:?}");
    eprintln!("a killed node's seat went offline after {took:?}");
    let early = ana.act("away", claim).await;
    assert_eq!(
        early.body["error"]["detail"]["reason"], "too_early",
        "{}",
        early.body
    );
    // The survivors noticed the death: they check the rooms they hold against the database (the
    // dead node may have committed a change it never announced).
    for i in [0, 2] {
        let lines = cluster.node(i).stderr.clone();
        common::eventually(std::time::Duration::from_secs(10), "node gone", || {
            let seen = lines.lock().unwrap().iter().any(|l| l.contains("is gone"));
            async move { seen }
        })
        .await;
    }
}
