//! Connection timeouts and caps (issue 10 item 2, crate::net::limits), over raw sockets: slow
//! heads answered 408 and closed, idle connections closed, WebSockets per address capped, the
//! per-address and global caps answered with their status.

mod common;

use std::time::{Duration, Instant};

use common::Server;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Everything the server sends until it closes, or `None` if it is still open after `within`.
async fn until_closed(stream: &mut TcpStream, within: Duration) -> Option<String> {
    let mut got = Vec::new();
    let read = async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    };
    tokio::time::timeout(within, read).await.ok()?;
    Some(String::from_utf8_lossy(&got).into_owned())
}

fn short_timeouts(c: &mut dames_server::Config) {
    c.limits.enabled = true;
    c.network.header_timeout = Duration::from_millis(800);
    c.network.idle_timeout = Duration::from_millis(800);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_headers_are_answered_408_and_closed_within_the_timeout() {
    let server = Server::start_with(short_timeouts).await;
    let started = Instant::now();
    let mut slow = Vec::new();
    for _ in 0..20 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        s.write_all(b"GET /api/health HTTP/1.1\r\nHo")
            .await
            .unwrap();
        slow.push(s);
    }
    // A byte now and then never completes the head in time.
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        for s in &mut slow {
            let _ = s.write_all(b"s").await;
        }
    }
    for s in &mut slow {
        let answer = until_closed(s, Duration::from_secs(5))
            .await
            .expect("a slow head must be closed");
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains("\"timeout\""), "{answer}");
    }
    assert!(started.elapsed() < Duration::from_secs(4));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_and_idle_kept_alive_connections_are_closed() {
    let server = Server::start_with(short_timeouts).await;
    let mut silent = Vec::new();
    for _ in 0..20 {
        silent.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let mut kept = TcpStream::connect(server.addr).await.unwrap();
    kept.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 1024];
    let n = kept.read(&mut buf).await.unwrap();
    assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
    let idle_since = Instant::now();
    for s in &mut silent {
        let answer = until_closed(s, Duration::from_secs(5)).await;
        assert_eq!(answer.as_deref(), Some(""), "closed without a word");
    }
    assert_eq!(
        until_closed(&mut kept, Duration::from_secs(5))
            .await
            .as_deref(),
        Some("")
    );
    assert!(idle_since.elapsed() >= Duration::from_millis(700));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_outlive_the_idle_timeout_and_are_capped_per_address() {
    let server = Server::start_with(|c| {
        short_timeouts(c);
        c.network.max_websockets_per_ip = 3;
    })
    .await;
    let mut ana = server.client();
    ana.create(json!({"game": "cc", "name": "Ana"})).await;
    let mut open = Vec::new();
    for _ in 0..3 {
        let mut ws = ana.ws(0).await;
        ws.until("state").await;
        open.push(ws);
    }
    let code = ana.code.clone().unwrap();
    let url = format!("ws://{}/ws/rooms/{code}", server.addr);
    match tokio_tungstenite::connect_async(url.as_str()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => {
            assert_eq!(res.status(), 429);
            let body: serde_json::Value =
                serde_json::from_slice(res.body().as_deref().unwrap_or(b"{}")).unwrap();
            assert_eq!(body["error"]["code"], "too_many_connections");
        }
        other => panic!("a 4th WebSocket must be refused: {:?}", other.map(|_| ())),
    }
    // Past the idle timeout, an open WebSocket still answers.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    open[0].send(json!({"type": "ping"})).await;
    assert_eq!(open[0].until("pong").await.0["type"], "pong");
    // A closed one gives its place back.
    open.pop();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        match tokio_tungstenite::connect_async(url.as_str()).await {
            Ok(_) => break,
            Err(_) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            Err(err) => panic!("the place was not given back: {err}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_caps_get_429_or_503() {
    let server = Server::start_with(|c| {
        c.limits.enabled = true;
        c.network.max_connections_per_ip = 4;
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let mut extra = TcpStream::connect(server.addr).await.unwrap();
    let answer = until_closed(&mut extra, Duration::from_secs(5))
        .await
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(answer.contains("too_many_connections"), "{answer}");

    let server = Server::start_with(|c| c.network.max_connections = Some(3)).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let mut extra = TcpStream::connect(server.addr).await.unwrap();
    let answer = until_closed(&mut extra, Duration::from_secs(5))
        .await
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("\"overloaded\""), "{answer}");
    // Once one closes, a new connection is served.
    drop(held.pop());
    let deadline = Instant::now() + Duration::from_secs(5);
    let health = format!("{}/api/health", server.base);
    while reqwest::get(&health)
        .await
        .ok()
        .map(|r| r.status().as_u16())
        != Some(200)
    {
        assert!(Instant::now() < deadline, "the freed place was not reused");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
