//! What goes out on the WebSocket (docs/protocol.md, "WebSocket"; issue 9): presence kept in
//! memory only and broadcast as its own message.

mod common;

use std::time::Duration;

use common::{Server, Ws};
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
