//! One rate limiter for every action (issue 9), over real sockets: room actions per seat on the
//! WebSocket and over HTTP, answered `rate_limited` with the delay to wait, so that a script
//! toggling its rematch in a loop cannot grow the room's stored history without bound.

mod common;

use std::time::Instant;

use common::{Client, Server};
use serde_json::{json, Value};

/// The room's stored events, from the start.
async fn stored_events(client: &Client) -> usize {
    let code = client.code.clone().unwrap();
    let answer = client
        .get(&format!("/api/rooms/{code}/events?since=0"))
        .await;
    answer.body["events"].as_array().unwrap().len()
}

/// Ana and Bo, their draughts game over (Ana resigned): rematch toggles are allowed.
async fn finished_game(server: &Server) -> (Client, Client, Value) {
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    ana.start().await;
    let room = ana.act("resign", json!({})).await.ok();
    assert_eq!(room["status"], "finished");
    (ana, bo, room)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_rematch_toggles_on_a_websocket_store_a_bounded_history() {
    let server = Server::start_with(|c| c.limits.enabled = true).await;
    let (ana, _bo, room) = finished_game(&server).await;
    let before = stored_events(&ana).await;
    let mut ws = ana.ws(room["version"].as_i64().unwrap()).await;
    let started = Instant::now();
    for i in 0..1000 {
        let toggle = json!({"type": "rematch", "id": format!("t{i}"), "ready": i % 2 == 0});
        ws.send(toggle).await;
    }
    let (mut acks, mut limited) = (0, 0);
    while acks + limited < 1000 {
        let msg = ws.next().await;
        match msg["type"].as_str() {
            Some("ack") => acks += 1,
            Some("error") => {
                assert_eq!(msg["code"], "rate_limited", "{msg}");
                assert!(msg["retry_after"].as_u64() >= Some(1), "{msg}");
                limited += 1;
            }
            _ => {}
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let stored = stored_events(&ana).await - before;
    // A burst of 20, then 10 a second: one event per toggle let through.
    let bound = 20.0 + 10.0 * seconds + 1.0;
    assert!(
        (stored as f64) <= bound && stored == acks,
        "{stored} events stored for {acks} toggles let through in {seconds:.1} s"
    );
    assert!(limited >= 900, "{limited} refused");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_actions_are_limited_per_seat_with_a_retry_delay_unless_limits_are_off() {
    let server = Server::start_with(|c| c.limits.enabled = true).await;
    let (ana, bo, _) = finished_game(&server).await;
    let mut refused = None;
    for i in 0..60 {
        let answer = ana.act("rematch", json!({"ready": i % 2 == 0})).await;
        if answer.status == 429 {
            refused = Some(answer);
            break;
        }
    }
    let refused = refused.expect("refused within 60 toggles");
    refused.expect_error(429, "rate_limited");
    assert!(refused.headers.contains_key("retry-after"));
    assert!(refused.body["error"]["retry_after"].as_u64() >= Some(1));
    // Bo's seat has its own bucket.
    bo.act("rematch", json!({"ready": false})).await.ok();

    // `--no-rate-limits` (the load generator's): never refused.
    let server = Server::start().await;
    let (ana, _, _) = finished_game(&server).await;
    for i in 0..60 {
        ana.act("rematch", json!({"ready": i % 2 == 0})).await.ok();
    }
}
