//! `GET /api/me/events` (issue 11 item 6): a browser's stream of changes to the rooms it is
//! seated in, over a real socket — told within a second of a move made in another browser,
//! silent about rooms it is not in, capped per browser, and its place given back when closed.

mod common;

use std::time::Duration;

use common::{random_draughts_move, Client, Lcg, Server};
use serde_json::{json, Value};

const ANA: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const BO: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const CY: &str = "cccccccccccccccccccccccccccccccc";

/// An open event stream, read event by event.
struct Events {
    res: reqwest::Response,
    buf: String,
}

impl Events {
    async fn open(client: &Client) -> Events {
        let res = client
            .http
            .get(format!("{}/api/me/events", client.base))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(
            res.headers()["content-type"].to_str().unwrap(),
            "text/event-stream"
        );
        let mut events = Events {
            res,
            buf: String::new(),
        };
        assert_eq!(events.next().await.0, "ready");
        events
    }

    /// The next event (name, data), heartbeat comments skipped.
    async fn next(&mut self) -> (String, Value) {
        loop {
            if let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                let mut name = String::new();
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event: ") {
                        name = v.to_owned();
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        data.push_str(v);
                    }
                }
                if name.is_empty() {
                    continue; // a heartbeat
                }
                return (name, serde_json::from_str(&data).unwrap());
            }
            let chunk = self.res.chunk().await.unwrap().expect("the stream is open");
            self.buf.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    /// The next event within `wait`, if any.
    async fn within(&mut self, wait: Duration) -> Option<(String, Value)> {
        tokio::time::timeout(wait, self.next()).await.ok()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_in_another_browser_reaches_my_stream_within_a_second() {
    let server = Server::start().await;
    let mut ana = server.browser(ANA);
    ana.create(json!({"game": "draughts", "name": "Ana"})).await;
    let code = ana.code.clone().unwrap();
    let mut bo = server.browser(BO);
    bo.join(&code, "Bo").await;
    ana.start().await;
    // Cy plays elsewhere: Ana's stream hears nothing of it.
    let mut cy = server.browser(CY);
    cy.create(json!({"game": "draughts", "name": "Cy"})).await;

    let mut events = Events::open(&ana).await;
    let mut rng = Lcg(3);
    let room = ana.room().await;
    ana.play(random_draughts_move(&room, &mut rng)).await.ok();
    let (name, data) = events.within(Duration::from_secs(1)).await.expect("told");
    assert_eq!(name, "games");
    assert_eq!(data["code"], code.as_str());
    let version = data["version"].as_i64().unwrap();

    // Bo's move, in his own browser: Ana's list says it is her turn within a second.
    let room = bo.room().await;
    bo.play(random_draughts_move(&room, &mut rng)).await.ok();
    let (_, data) = events.within(Duration::from_secs(1)).await.expect("told");
    assert_eq!(data["code"], code.as_str());
    assert!(data["version"].as_i64().unwrap() > version);
    let games = ana.get("/api/me/games").await.ok();
    assert_eq!(games["your_turn"], 1);

    cy.act("settings", json!({"rhythm": "turn"})).await.ok();
    assert!(
        events.within(Duration::from_millis(500)).await.is_none(),
        "a room Ana is not in"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_are_capped_per_browser_and_given_back_when_closed() {
    let server = Server::start().await;
    let ana = server.browser(ANA);
    let mut open = Vec::new();
    for _ in 0..dames_server::live::streams::PER_CLIENT {
        open.push(Events::open(&ana).await);
    }
    let refused = ana.get("/api/me/events").await;
    refused.expect_error(429, "too_many_connections");
    // Another browser is not counted with Ana's.
    let bo = Events::open(&server.browser(BO)).await;
    drop(bo);
    // A tab closes: its place comes back once the server notices (at once here, the
    // connection closes).
    drop(open.pop());
    let mut reopened = None;
    for _ in 0..50 {
        let res = ana
            .http
            .get(format!("{}/api/me/events", ana.base))
            .send()
            .await
            .unwrap();
        if res.status() == 200 {
            reopened = Some(res);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(reopened.is_some(), "the closed stream's place came back");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_end_when_the_server_stops() {
    let mut server = Server::start().await;
    let ana = server.browser(ANA);
    let mut events = Events::open(&ana).await;
    server.stop().await;
    let end = tokio::time::timeout(Duration::from_secs(5), events.res.chunk())
        .await
        .expect("the stream ends");
    assert!(matches!(end, Ok(None) | Err(_)));
}
