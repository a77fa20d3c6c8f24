//! Settings, names and « Contre le CPU » against a real server: every refusal names its field and
//! why (`field`, `detail`), over HTTP and the WebSocket; the limits the server enforces are the
//! ones `GET /api/settings` serves; a level per CPU seat.

mod common;

use common::Server;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_setting_names_its_field_and_the_room_keeps_the_stored_value() {
    let server = Server::start().await;
    let mut ana = server.client();
    ana.create(json!({"game": "cc", "name": "Ana"})).await;
    let a = ana
        .act("settings", json!({"rules": {"move_limit": -5}}))
        .await;
    a.expect_error(400, "invalid_settings");
    assert_eq!(a.body["error"]["field"], "rules.move_limit");
    assert_eq!(
        a.body["error"]["detail"],
        json!({"reason": "out_of_range", "min": 0, "max": 1000})
    );
    assert_eq!(ana.room().await["settings"]["rules"]["move_limit"], 200);

    let a = ana
        .act(
            "settings",
            json!({"rules": {"swap_rule": true, "anti_blocking": true}}),
        )
        .await;
    assert_eq!(
        (&a.body["error"]["field"], &a.body["error"]["detail"]),
        (
            &json!("rules.swap_rule"),
            &json!({"reason": "conflict", "with": "rules.anti_blocking"})
        )
    );
    let a = ana.act("settings", json!({"show_legal_moves": 1})).await;
    assert_eq!(a.body["error"]["detail"]["expected"], "boolean");
    // A state error has a reason too, and no field.
    let mut bo = server.client();
    bo.join(ana.code.as_deref().unwrap(), "Bo").await;
    ana.start().await;
    let a = ana.act("settings", json!({"cpu_ms": 300})).await;
    a.expect_error(409, "wrong_state");
    assert_eq!(a.body["error"]["detail"]["reason"], "started");
    assert!(a.body["error"].get("field").is_none(), "{}", a.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_limits_served_to_clients_are_the_ones_enforced() {
    let server = Server::start().await;
    let c = server.client();
    let schema = c.get("/api/settings").await.ok();
    for game in ["cc", "draughts"] {
        let fields = schema["games"][game]["fields"].as_object().unwrap();
        for (path, accepts) in fields {
            if accepts["type"] != "int" {
                continue;
            }
            let (min, max) = (
                accepts["min"].as_i64().unwrap(),
                accepts["max"].as_i64().unwrap(),
            );
            let settings = |v: i64| match path.strip_prefix("rules.") {
                Some(rule) => json!({"rules": {rule: v}}),
                None => json!({path.as_str(): v}),
            };
            let create = |v: i64| json!({"game": game, "name": "Ana", "settings": settings(v)});
            // Chinese checkers' players: 5 needs allow_five_players (default on), fine.
            for ok in [min, max] {
                let a = c.post("/api/rooms", create(ok)).await;
                assert_eq!(a.status, 201, "{game} {path}={ok}: {}", a.body);
            }
            for bad in [min - 1, max + 1] {
                let a = c.post("/api/rooms", create(bad)).await;
                a.expect_error(400, "invalid_settings");
                assert_eq!(a.body["error"]["field"], json!(path), "{}", a.body);
            }
        }
        // The defaults served are a new room's settings.
        let room = c
            .post("/api/rooms", json!({"game": game, "name": "Ana"}))
            .await
            .ok();
        assert_eq!(room["room"]["settings"], schema["games"][game]["defaults"]);
    }
    assert_eq!(schema["name"], json!({"min": 1, "max": 24}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_say_what_is_wrong_with_them() {
    let server = Server::start().await;
    let c = server.client();
    for (name, reason) in [
        ("", "length"),
        ("   ", "length"),
        ("abcdefghijklmnopqrstuvwxy", "length"),
        ("a\u{7}b", "control"),
        ("CPU", "reserved"),
    ] {
        let a = c
            .post("/api/rooms", json!({"game": "cc", "name": name}))
            .await;
        a.expect_error(400, "invalid_name");
        assert_eq!(
            (
                &a.body["error"]["field"],
                &a.body["error"]["detail"]["reason"]
            ),
            (&json!("name"), &json!(reason)),
            "{name:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn against_the_cpu_with_a_level_per_cpu_seat() {
    let server = Server::start().await;
    let mut ana = server.client();
    let room = ana
        .create(
            json!({"game": "cc", "name": "Ana", "settings": {"rules": {"players": 3}, "cpu_ms": 0},
            "cpu": {"levels": ["facile", "expert"]}}),
        )
        .await;
    assert_eq!(room["status"], "playing");
    let levels: Vec<&Value> = room["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["level"])
        .collect();
    assert_eq!(levels, [&Value::Null, &json!("facile"), &json!("expert")]);
    // The old form still fills every other seat with one level.
    let mut bo = server.client();
    let room = bo
        .create(json!({"game": "draughts", "name": "Bo", "cpu": {"level": "difficile"}}))
        .await;
    assert_eq!(room["seats"][1]["level"], "difficile");
    let c = server.client();
    let wrong = |cpu: Value| json!({"game": "cc", "name": "Cy", "settings": {"rules": {"players": 3}}, "cpu": cpu});
    let a = c
        .post("/api/rooms", wrong(json!({"levels": ["facile"]})))
        .await;
    a.expect_error(400, "invalid_settings");
    assert_eq!(
        (&a.body["error"]["field"], &a.body["error"]["detail"]),
        (
            &json!("cpu.levels"),
            &json!({"reason": "wrong_length", "expected": 2})
        )
    );
    let a = c
        .post(
            "/api/rooms",
            wrong(json!({"levels": ["facile", "godlike"]})),
        )
        .await;
    assert_eq!(a.body["error"]["field"], "cpu.levels.1");
    assert_eq!(a.body["error"]["detail"]["reason"], "not_allowed");
    let a = c
        .post(
            "/api/rooms",
            wrong(json!({"level": "normal", "levels": ["facile", "normal"]})),
        )
        .await;
    a.expect_error(400, "invalid_settings");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_errors_carry_the_field_and_detail_too() {
    let server = Server::start().await;
    let (ana, _bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    let mut ws = ana.ws(0).await;
    ws.until("state").await;
    ws.send(json!({"type": "draw", "id": "d1", "action": "offer"}))
        .await;
    let (err, _) = ws.until("error").await;
    assert_eq!(
        (&err["id"], &err["code"], &err["detail"]["reason"]),
        (&json!("d1"), &json!("wrong_state"), &json!("not_started"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_address_gets_the_sites_page_with_status_404() {
    let server = Server::start().await;
    let c = server.client();
    for path in [
        "/nimporte-quoi",
        "/regles",
        "/r/K7M2QX/extra",
        "/r/K7M2QX/0",
        "/r/K7M2QX/1/x",
    ] {
        let res = c
            .http
            .get(format!("{}{path}", server.base))
            .header("accept", "text/html,application/xhtml+xml")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 404, "{path}");
        assert!(res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
        assert!(res.text().await.unwrap().contains("<header"), "{path}");
    }
    // A game of a room is a page (the client says whether the room has that game).
    for path in ["/r/K7M2QX/1", "/r/k7m2qx/12"] {
        let res = c.fetch(path).await;
        assert_eq!(res.status(), 200, "{path}");
        assert!(res.text().await.unwrap().contains("<header"), "{path}");
    }
    // A script or a missing file asked without HTML gets a bare 404.
    assert_eq!(c.fetch("/nope.js").await.status(), 404);
    assert_eq!(c.get("/api/nimporte-quoi").await.code(), "not_found");
}
