//! Issue 10, security hardening, seen from a client: names, headers, cross-site requests, seat
//! tokens, traces left on disk. (Connections: tests/connections.rs; push endpoints:
//! tests/ssrf.rs.)

mod common;

use common::Server;
use serde_json::json;

#[tokio::test]
async fn names_with_bidi_overrides_invisible_characters_or_cpu_names_are_refused() {
    let server = Server::start().await;
    let client = server.client();
    for (name, reason) in [
        ("Ana\u{202E}gnp.exe", "invisible"),
        ("A\u{200B}na", "invisible"),
        ("Za\u{301}\u{300}\u{302}\u{303}\u{304}\u{306}lgo", "marks"),
        ("CPU Expert", "reserved"),
        ("Ordinateur", "reserved"),
    ] {
        let answer = client
            .post("/api/rooms", json!({"game": "cc", "name": name}))
            .await;
        answer.expect_error(400, "invalid_name");
        assert_eq!(answer.body["error"]["field"], "name", "{name:?}");
        assert_eq!(answer.body["error"]["detail"]["reason"], reason, "{name:?}");
    }
    // A name typed with a combining accent is stored in its composed form.
    let mut ana = server.client();
    let room = ana
        .create(json!({"game": "cc", "name": "Rene\u{301}"}))
        .await;
    assert_eq!(room["seats"][0]["name"], "René");
    let bo = server.client();
    let code = ana.code.clone().unwrap();
    bo.post(
        &format!("/api/rooms/{code}/join"),
        json!({"name": "C.P.U."}),
    )
    .await
    .expect_error(400, "invalid_name");
}

#[tokio::test]
async fn feedback_texts_with_bidi_overrides_are_refused() {
    let server = Server::start().await;
    let client = server.client();
    let answer = client
        .post(
            "/api/feedback",
            json!({"kind": "request", "text": "Voir \u{202E}gnp.exe"}),
        )
        .await;
    answer.expect_error(400, "invalid_input");
    let answer = client
        .post(
            "/api/feedback",
            json!({"kind": "request", "text": "Bravo", "name": "CPU"}),
        )
        .await;
    answer.expect_error(400, "invalid_name");
}

#[tokio::test]
async fn a_wrong_method_gets_the_typed_json_error() {
    let server = Server::start().await;
    let client = server.client();
    // An API route with another method, and a page or file with POST.
    for answer in [
        client
            .send(client.http.delete(format!("{}/api/rooms", server.base)))
            .await,
        client
            .send(client.http.put(format!("{}/api/health", server.base)))
            .await,
        client.post_raw("/", "{}").await,
    ] {
        answer.expect_error(405, "method_not_allowed");
    }
    let answer = client
        .send(client.http.delete(format!("{}/api/rooms", server.base)))
        .await;
    assert!(answer.headers.contains_key("allow"));
}

#[tokio::test]
async fn https_public_url_sends_strict_transport_security_and_http_does_not() {
    let server = Server::start_with(|c| c.public_url = Some("https://dames.example".into())).await;
    let res = server.client().fetch("/").await;
    let hsts = res.headers()["strict-transport-security"].to_str().unwrap();
    assert!(hsts.starts_with("max-age="), "{hsts}");
    let plain = Server::start().await;
    let res = plain.client().fetch("/api/health").await;
    assert!(!res.headers().contains_key("strict-transport-security"));
}

/// The `name=value` of the `Set-Cookie` headers of `res` whose name starts with `prefix`, with
/// their attributes.
fn set_cookies(res: &reqwest::Response, prefix: &str) -> Vec<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter(|v| v.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn a_browser_id_the_server_did_not_issue_is_refused_and_replaced() {
    let server = Server::start().await;
    let planted = "dames_client=c0ffee0000000000000000000000cafe";
    let http = reqwest::Client::new();
    let res = http
        .post(format!("{}/api/rooms", server.base))
        .header("cookie", planted)
        .json(&json!({"game": "cc", "name": "Ana"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    // A fresh, signed id replaces the planted one…
    let issued = set_cookies(&res, "dames_client=");
    assert_eq!(issued.len(), 1, "{issued:?}");
    let issued = issued[0].split(';').next().unwrap().to_owned();
    assert!(!issued.contains("c0ffee"), "{issued}");
    assert!(issued.contains('.'), "{issued}");
    // …and the room is that browser's, not the planted id's: whoever planted it reads nothing.
    let rooms = |cookie: String| {
        let req = http
            .get(format!("{}/api/me/rooms", server.base))
            .header("cookie", cookie);
        async move {
            req.send()
                .await
                .unwrap()
                .json::<serde_json::Value>()
                .await
                .unwrap()
        }
    };
    assert_eq!(rooms(planted.into()).await["rooms"], json!([]));
    assert_eq!(
        rooms(issued.clone()).await["rooms"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // A signed id with a changed digit is refused as well.
    let mut forged = issued.into_bytes();
    let last = forged.len() - 1;
    forged[last] = if forged[last] == b'0' { b'1' } else { b'0' };
    let forged = String::from_utf8(forged).unwrap();
    assert_eq!(rooms(forged).await["rooms"], json!([]));
}

#[tokio::test]
async fn over_https_the_cookies_carry_the_host_prefix_and_only_those_are_read() {
    let server = Server::start_with(|c| c.public_url = Some("https://dames.example".into())).await;
    let http = reqwest::Client::new();
    let res = http
        .post(format!("{}/api/rooms", server.base))
        .json(&json!({"game": "cc", "name": "Ana"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let client = set_cookies(&res, "__Host-dames_client=");
    let seat = set_cookies(&res, "__Host-dames_seat_");
    assert_eq!((client.len(), seat.len()), (1, 1), "{client:?} {seat:?}");
    for cookie in [&client[0], &seat[0]] {
        let attributes: Vec<&str> = cookie.split(';').map(str::trim).collect();
        assert!(attributes.contains(&"Secure"), "{cookie}");
        assert!(attributes.contains(&"Path=/"), "{cookie}");
        assert!(attributes.contains(&"HttpOnly"), "{cookie}");
        assert!(!cookie.to_lowercase().contains("domain="), "{cookie}");
    }
    assert!(
        set_cookies(&res, "dames_").is_empty(),
        "no unprefixed cookie"
    );
    let body: serde_json::Value = res.json().await.unwrap();
    let code = body["room"]["code"].as_str().unwrap().to_owned();
    let cookies = format!(
        "{}; {}",
        client[0].split(';').next().unwrap(),
        seat[0].split(';').next().unwrap()
    );
    // The prefixed seat cookie proves the seat: the host may start the game's settings change.
    let mine = http
        .get(format!("{}/api/rooms/{code}", server.base))
        .header("cookie", &cookies)
        .send()
        .await
        .unwrap()
        .json::<serde_json::Value>()
        .await
        .unwrap();
    assert_eq!(mine["you"], 0, "{mine}");
    // The browser id without the prefix (as a sibling subdomain could set it) is not read: a
    // fresh one is issued. A seat cookie of the old name still proves its seat (seats taken
    // before the prefix keep working; a seat token cannot be chosen).
    let unprefixed = cookies.replace("__Host-", "");
    let res = http
        .get(format!("{}/api/rooms/{code}", server.base))
        .header("cookie", &unprefixed)
        .send()
        .await
        .unwrap();
    let fresh = set_cookies(&res, "__Host-dames_client=");
    assert_eq!(fresh.len(), 1);
    assert_ne!(fresh[0].split(';').next(), client[0].split(';').next());
    let theirs = res.json::<serde_json::Value>().await.unwrap();
    assert_eq!(theirs["you"], 0, "{theirs}");
}

#[tokio::test]
async fn the_qr_code_made_from_the_host_header_is_never_cached_publicly() {
    let server = Server::start().await;
    let mut ana = server.client();
    ana.create(json!({"game": "cc", "name": "Ana"})).await;
    let code = ana.code.clone().unwrap();
    let res = ana
        .http
        .get(format!("{}/api/rooms/{code}/qr.svg", server.base))
        .header("host", "evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let cache = res.headers()["cache-control"].to_str().unwrap().to_owned();
    let vary = res.headers()["vary"].to_str().unwrap().to_lowercase();
    assert!(cache.starts_with("private"), "{cache}");
    assert!(vary.contains("host"), "{vary}");
    // With a public URL the code does not depend on the request: it may be cached by anyone.
    let server = Server::start_with(|c| c.public_url = Some("https://dames.example".into())).await;
    let mut ana = server.client();
    ana.create(json!({"game": "cc", "name": "Ana"})).await;
    let code = ana.code.clone().unwrap();
    let res = ana.fetch(&format!("/api/rooms/{code}/qr.svg")).await;
    let cache = res.headers()["cache-control"].to_str().unwrap();
    assert!(cache.starts_with("public"), "{cache}");
}

/// Whether `needle` appears in the database file or its WAL.
fn on_disk(db: &std::path::Path, needle: &str) -> bool {
    let wal = db.with_extension("db-wal");
    [db.to_path_buf(), wal].iter().any(|path| {
        std::fs::read(path)
            .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleted_names_are_gone_from_the_database_file_and_its_wal_after_a_sweep() {
    let server = Server::start_with(|c| {
        c.retention.lobby = std::time::Duration::from_secs(1);
        c.retention.feedback = std::time::Duration::from_secs(1);
        c.retention.sweep_every = std::time::Duration::from_millis(300);
    })
    .await;
    let (host, guest) = ("Zanzibarina", "Quetzalcoatla");
    let mut ana = server.client();
    ana.create(json!({"game": "draughts", "name": host})).await;
    let mut bo = server.client();
    bo.join(ana.code.as_deref().unwrap(), guest).await;
    ana.post(
        "/api/feedback",
        json!({"kind": "request", "text": "Plus de variantes", "name": "Xylophonique"}),
    )
    .await
    .ok();
    assert!(
        on_disk(&server.db, host),
        "the test must see the name first"
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while [host, guest, "Xylophonique"]
        .iter()
        .any(|name| on_disk(&server.db, name))
    {
        assert!(
            std::time::Instant::now() < deadline,
            "a deleted name is still readable in the database or its WAL"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    ana.get(&format!("/api/rooms/{}", ana.code.as_deref().unwrap()))
        .await
        .expect_error(404, "unknown_room");
}

#[tokio::test]
async fn state_changing_requests_from_another_site_are_refused() {
    let server = Server::start().await;
    let client = server.client();
    let create = json!({"game": "cc", "name": "Ana"});
    let port = server.addr.port();
    for (header, value) in [
        ("origin", "http://evil.example".to_owned()),
        // Another port of the same host, a sibling subdomain: the same *site*, not the same origin.
        (
            "origin",
            format!("http://127.0.0.1:{}", port.wrapping_add(1)),
        ),
        ("origin", "null".to_owned()),
        ("sec-fetch-site", "cross-site".to_owned()),
        ("sec-fetch-site", "same-site".to_owned()),
    ] {
        let req = client
            .http
            .post(format!("{}/api/rooms", server.base))
            .header(header, value.clone())
            .json(&create);
        client.send(req).await.expect_error(403, "cross_site");
    }
    let host = client
        .http
        .post(format!("{}/api/rooms", server.base))
        .header("host", "dames.example")
        .header("origin", "http://a.dames.example")
        .json(&create);
    client.send(host).await.expect_error(403, "cross_site");
    // The page's own origin passes.
    let own = client
        .http
        .post(format!("{}/api/rooms", server.base))
        .header("origin", server.base.clone())
        .header("sec-fetch-site", "same-origin")
        .json(&create);
    assert_eq!(client.send(own).await.status, 201);
}

#[tokio::test]
async fn bodies_must_be_declared_json() {
    let server = Server::start().await;
    let client = server.client();
    let body = r#"{"game":"cc","name":"Ana"}"#;
    for content_type in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let req = client
            .http
            .post(format!("{}/api/rooms", server.base))
            .header("content-type", content_type)
            .body(body);
        client.send(req).await.expect_error(415, "not_json");
    }
    let req = client
        .http
        .post(format!("{}/api/rooms", server.base))
        .body(body);
    client.send(req).await.expect_error(415, "not_json");
    let req = client
        .http
        .post(format!("{}/api/rooms", server.base))
        .header("content-type", "application/json; charset=utf-8")
        .body(body);
    assert_eq!(client.send(req).await.status, 201);
}

#[tokio::test]
async fn the_position_import_takes_json_from_this_site_only() {
    let server = Server::start().await;
    let client = server.client();
    let url = format!("{}/api/draughts/position", server.base);
    let body = r#"{"text":"W:W31,32:B1,K2"}"#;
    for content_type in ["text/plain", "application/x-www-form-urlencoded"] {
        let req = client
            .http
            .post(&url)
            .header("content-type", content_type)
            .body(body);
        client.send(req).await.expect_error(415, "not_json");
    }
    let foreign = client
        .http
        .post(&url)
        .header("origin", "https://evil.example")
        .header("content-type", "application/json")
        .body(body);
    client.send(foreign).await.expect_error(403, "cross_site");
    let own = client
        .http
        .post(&url)
        .header("origin", server.base.clone())
        .header("sec-fetch-site", "same-origin")
        .header("content-type", "application/json")
        .body(body);
    let answer = client.send(own).await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    assert_eq!(answer.body["fen"], "W:W31,32:B1,K2");
    // A room started from a position follows the same rules as any other creation.
    let create = r#"{"game":"draughts","name":"Ana","start":"W:W31,32:B1,K2"}"#;
    let form = client
        .http
        .post(format!("{}/api/rooms", server.base))
        .header("content-type", "text/plain")
        .body(create);
    client.send(form).await.expect_error(415, "not_json");
}

#[tokio::test]
async fn a_websocket_upgrade_from_another_site_is_refused() {
    use tokio_tungstenite::tungstenite::{client::IntoClientRequest, Error};
    let server = Server::start().await;
    let mut ana = server.client();
    ana.create(json!({"game": "cc", "name": "Ana"})).await;
    let code = ana.code.clone().unwrap();
    let url = format!("ws://{}/ws/rooms/{code}", server.addr);
    let mut req = url.clone().into_client_request().unwrap();
    req.headers_mut()
        .insert("origin", "https://evil.example".parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Err(Error::Http(res)) => assert_eq!(res.status(), 403),
        other => panic!("a foreign upgrade must be refused: {:?}", other.map(|_| ())),
    }
    let mut req = url.into_client_request().unwrap();
    req.headers_mut()
        .insert("origin", server.base.parse().unwrap());
    tokio_tungstenite::connect_async(req).await.unwrap();
}

#[tokio::test]
async fn the_seat_token_is_never_returned_to_a_caller_known_only_by_its_cookie() {
    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    let code = ana.code.clone().unwrap();
    let token = bo.token.clone().unwrap();
    // Bo's browser comes back to the room: only the HttpOnly cookie is sent.
    let req = bo
        .http
        .post(format!("{}/api/rooms/{code}/join", server.base))
        .header("cookie", format!("dames_seat_{code}={token}"))
        .json(&json!({"name": "Bo"}));
    let back = req.send().await.unwrap();
    assert_eq!(back.status(), 200);
    let body: serde_json::Value = back.json().await.unwrap();
    assert_eq!(body["seat"], 1);
    assert!(body.get("token").is_none(), "{body}");
    // A script that authenticates with the header knows its token already: it gets it.
    let again = bo
        .post(&format!("/api/rooms/{code}/join"), json!({"name": "Bo"}))
        .await
        .ok();
    assert_eq!(again["token"], token.as_str());
}

#[tokio::test]
async fn behind_a_trusted_proxy_rate_limits_count_the_forwarded_client_per_ipv6_64() {
    let rate = dames_server::Rate {
        burst: 2,
        per_minute: 1,
    };
    let create = |server: &Server, forwarded_for: &str| {
        let client = server.client();
        let req = client
            .http
            .post(format!("{}/api/rooms", server.base))
            .header("x-forwarded-for", forwarded_for)
            .json(&json!({"game": "cc", "name": "Ana"}));
        async move { client.send(req).await.status.as_u16() }
    };
    let server = Server::start_with(|c| {
        c.limits.enabled = true;
        c.limits.create = rate;
        c.network.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    // Each browser is new (no cookie): only the address counts.
    for _ in 0..2 {
        assert_eq!(create(&server, "203.0.113.5").await, 201);
    }
    assert_eq!(create(&server, "203.0.113.5").await, 429);
    assert_eq!(create(&server, "203.0.113.6").await, 201, "another client");
    // One IPv6 /64 is one client; the next /64 is another.
    for _ in 0..2 {
        assert_eq!(create(&server, "2001:db8:1:2::1").await, 201);
    }
    assert_eq!(create(&server, "2001:db8:1:2:ffff::9").await, 429);
    assert_eq!(create(&server, "2001:db8:1:3::1").await, 201);
    // A forwarding header from a peer that is not a trusted proxy is not believed.
    let server = Server::start_with(|c| {
        c.limits.enabled = true;
        c.limits.create = rate;
    })
    .await;
    for (i, spoof) in ["198.51.100.1", "198.51.100.2"].iter().enumerate() {
        assert_eq!(create(&server, spoof).await, 201, "{i}");
    }
    assert_eq!(create(&server, "198.51.100.3").await, 429);
}

/// Whether a WebSocket message or an HTTP body is what the protocol promises for bad input: an
/// event, a state, an ack, a pong, a presence, or a typed error that is not `internal`.
fn typed(msg: &serde_json::Value) -> bool {
    match msg["type"].as_str() {
        Some("error") => msg["code"].as_str().is_some_and(|c| c != "internal"),
        Some(kind) => ["state", "event", "ack", "pong", "presence"].contains(&kind),
        None => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutated_messages_and_bodies_over_real_sockets_get_typed_answers() {
    use dames_fuzz::mutate::{mutated_json, Rng};
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;

    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    ana.start().await;
    let mut sockets = [ana.ws(0).await, bo.ws(0).await];
    for ws in &mut sockets {
        ws.until("state").await;
    }
    let players = [&ana, &bo];
    let mut rng = Rng::new(10);
    let mut lcg = common::Lcg(5);
    let mut moved = 0;
    for i in 0..150 {
        let room = ana.room().await;
        let to_move = room["play"]["to_move"].as_u64().unwrap_or(0) as usize;
        let seat_view = players[to_move].room().await;
        let mv = match seat_view["play"]["legal_moves"].as_array() {
            Some(legal) if !legal.is_empty() => common::random_draughts_move(&seat_view, &mut lcg),
            _ => json!({"notation": "32-28"}),
        };
        let template = match rng.below(6) {
            0..=3 => json!({"type": "move", "id": format!("f{i}"), "move": mv}),
            4 => json!({"type": "draw", "id": "d", "action": "offer"}),
            _ => json!({"type": "ping", "id": "p"}),
        };
        let bytes = mutated_json(&mut rng, &template, 3);
        let ws = &mut sockets[to_move];
        let frame = match String::from_utf8(bytes) {
            Ok(text) => Message::text(text),
            Err(e) => Message::binary(e.into_bytes()),
        };
        ws.stream.send(frame).await.unwrap();
        ws.send(json!({"type": "ping"})).await;
        let (_, before) = ws.until("pong").await;
        for msg in &before {
            assert!(typed(msg), "message {i}: {msg}");
            moved += usize::from(msg["type"] == "ack" && msg["applied"] == true);
        }
        // A mutated HTTP body to the same game, from the other player now and then.
        if i % 3 == 0 {
            let body = mutated_json(&mut rng, &json!({"id": format!("h{i}"), "move": mv}), 3);
            let answer = players[to_move]
                .post_raw(
                    &format!("/api/rooms/{}/move", ana.code.as_deref().unwrap()),
                    body,
                )
                .await;
            assert!(answer.status.as_u16() < 500, "{}", answer.body);
            if !answer.status.is_success() {
                assert!(answer.body["error"]["code"].is_string(), "{}", answer.body);
            }
        }
    }
    assert!(moved > 10, "valid moves went through too ({moved})");
    ana.get("/api/health").await.ok();
}
