//! Hints (issue 5): `POST /api/rooms/{code}/hint` answers the AI's move as one of the caller's
//! `legal_moves`, only to the seated player to move, at most once every 2 s per seat, and not
//! at all when the room's `hints` setting is off.

mod common;

use common::{Client, Server};
use serde_json::{json, Value};

/// Ana creates a room of `game` with `settings`, Bo joins, Ana starts: (Ana, Bo, room view).
async fn two_players(server: &Server, game: &str, settings: Value) -> (Client, Client, Value) {
    let (ana, bo) = server
        .ana_and_bo(json!({"game": game, "name": "Ana", "settings": settings}))
        .await;
    let before = ana.act("hint", json!({})).await;
    if settings["hints"] == false {
        before.expect_error(403, "hints_off");
    } else {
        before.expect_error(409, "wrong_state");
    }
    let room = ana.start().await;
    (ana, bo, room)
}

/// The player to move and the other one.
async fn mover_and_other(ana: Client, bo: Client) -> (Client, Client) {
    let room = ana.room().await;
    if room["play"]["to_move"].as_u64() == ana.seat {
        (ana, bo)
    } else {
        (bo, ana)
    }
}

async fn hint_is_legal_and_private(game: &str) {
    // With the rate limits on: one hint per seat every 2 s.
    let server = Server::start_with(|c| c.limits.enabled = true).await;
    let (ana, bo, room) = two_players(&server, game, json!({})).await;
    assert_eq!(room["settings"]["hints"], true, "hints are on by default");
    let (mover, other) = mover_and_other(ana, bo).await;
    let version = mover.room().await["version"].clone();

    let answer = mover.act("hint", json!({})).await.ok();
    let mv = answer["move"].clone();
    let legal = mover.room().await["play"]["legal_moves"].clone();
    let legal = legal.as_array().unwrap();
    assert!(legal.contains(&mv), "{mv} not in {legal:?}");
    // Nothing stored or broadcast: the room is as it was.
    assert_eq!(mover.room().await["version"], version);

    // One hint per seat every 2 s.
    mover
        .act("hint", json!({}))
        .await
        .expect_error(429, "rate_limited");
    // Only the seat to move may ask; a spectator holds no seat.
    other
        .act("hint", json!({}))
        .await
        .expect_error(409, "not_your_turn");
    let mut spectator = server.client();
    spectator.code = mover.code.clone();
    spectator
        .act("hint", json!({}))
        .await
        .expect_error(403, "not_seated");
    spectator.code = Some("ZZZZZZ".into());
    spectator
        .act("hint", json!({}))
        .await
        .expect_error(404, "unknown_room");

    // The hint is a playable move; then the other player may ask for one.
    mover.play(mv).await.ok();
    let mv = other.act("hint", json!({})).await.ok()["move"].clone();
    let legal = other.room().await["play"]["legal_moves"].clone();
    assert!(
        legal.as_array().unwrap().contains(&mv),
        "{mv} not in {legal}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chinese_checkers_hint_is_one_of_the_legal_moves() {
    hint_is_legal_and_private("cc").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draughts_hint_is_one_of_the_legal_moves() {
    hint_is_legal_and_private("draughts").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_can_be_turned_off_by_the_host() {
    let server = Server::start().await;
    for game in ["cc", "draughts"] {
        let (ana, bo, room) = two_players(&server, game, json!({"hints": false})).await;
        assert_eq!(room["settings"]["hints"], false);
        let (mover, _) = mover_and_other(ana, bo).await;
        mover
            .act("hint", json!({}))
            .await
            .expect_error(403, "hints_off");
    }
    // The setting can be changed in the lobby, like any other.
    let mut ana = server.client();
    ana.create(json!({"game": "draughts", "name": "Ana"})).await;
    let room = ana.act("settings", json!({"hints": false})).await.ok();
    assert_eq!(room["settings"]["hints"], false, "{room}");
}
