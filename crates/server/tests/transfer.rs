//! Continue on another device (issue 11 item 1) over real sockets: a seated player's one-time
//! link moves the seat to another browser, which plays on; the old token stops working at once
//! (its socket is told `seat_moved` and becomes a spectator's); the link works once.

mod common;

use common::{random_draughts_move, Lcg, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_time_link_moves_the_seat_and_the_old_token_stops_working() {
    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    let code = ana.code.clone().unwrap();
    ana.start().await;
    let mut old_ws = ana.ws(0).await;
    old_ws.until("state").await;

    let link = ana.act("transfer", json!({})).await.ok();
    let url = link["url"].as_str().unwrap();
    let (path, token) = url
        .split_once("#transfer=")
        .expect("the token in the fragment");
    assert!(path.ends_with(&format!("/r/{code}")), "{url}");
    assert!(dames_room::token::is_hex128(token));
    assert!(link["qr"].as_str().unwrap().contains("<svg"));
    let left = link["expires_at"].as_i64().unwrap() - dames_server::live::now_ms();
    assert!((590_000..=600_000).contains(&left), "{left}");
    // Only a seated person gets one.
    let mut spectator = server.client();
    spectator.code = Some(code.clone());
    spectator
        .act("transfer", json!({}))
        .await
        .expect_error(403, "not_seated");

    // The other browser: a wrong token, then the link.
    let mut phone = server.browser("0123456789abcdef0123456789abcdef");
    phone.code = Some(code.clone());
    phone
        .act(
            "transfer/claim",
            json!({"token": "0123456789abcdef0123456789abcdef"}),
        )
        .await
        .expect_error(410, "invalid_transfer");
    phone
        .act("transfer/claim", json!({"token": "not hex"}))
        .await
        .expect_error(410, "invalid_transfer");
    let answer = phone
        .act("transfer/claim", json!({"token": token}))
        .await
        .ok();
    assert_eq!(answer["seat"], 0);
    assert_eq!(answer["room"]["you"], 0);
    let fresh = answer["token"].as_str().unwrap().to_owned();
    assert_ne!(Some(fresh.as_str()), ana.token.as_deref());
    phone.token = Some(fresh);

    // The old page is told, and speaks as a spectator.
    let (told, _) = old_ws.until("error").await;
    assert_eq!(told["code"], "seat_moved");
    let room = old_ws.state_where(|r| r["you"].is_null()).await;
    assert_eq!(
        room["seats"][0]["name"], "Ana",
        "still Ana's seat, elsewhere"
    );
    // The old token is worthless; the new browser plays on.
    let mut rng = Lcg(5);
    let view = phone.room().await;
    assert_eq!(view["you"], 0);
    let mv = random_draughts_move(&view, &mut rng);
    ana.play(mv.clone()).await.expect_error(403, "not_seated");
    assert_eq!(phone.play(mv).await.ok()["applied"], true);
    assert_eq!(ana.room().await["you"], serde_json::Value::Null);

    // The link worked once; a browser holding another seat cannot take this one.
    phone
        .act("transfer/claim", json!({"token": token}))
        .await
        .expect_error(410, "invalid_transfer");
    let token2 = phone.transfer_token().await;
    let taken = bo.act("transfer/claim", json!({"token": token2})).await;
    taken.expect_error(409, "wrong_state");
    assert_eq!(taken.body["error"]["detail"]["reason"], "already_seated");
    assert_eq!(
        phone.room().await["you"],
        0,
        "the refused claim changed nothing"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_made_before_a_restart_moves_the_seat_after_it_and_only_once() {
    let server = Server::start().await;
    let (ana, _bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    let code = ana.code.clone().unwrap();
    ana.start().await;
    let token = ana.transfer_token().await;
    let server = server.restart(|_| {}).await;
    let mut phone = server.browser("0123456789abcdef0123456789abcdef");
    phone.code = Some(code.clone());
    assert_eq!(phone.claim_transfer(&token).await["seat"], 0);
    // Used: refused, after another restart too.
    let server = server.restart(|_| {}).await;
    let mut again = server.browser("fedcba9876543210fedcba9876543210");
    again.code = Some(code);
    again
        .act("transfer/claim", json!({"token": token}))
        .await
        .expect_error(410, "invalid_transfer");
}
