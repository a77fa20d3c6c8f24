//! Game records, files and imported positions over real sockets (docs/protocol.md, "Game
//! records"): `GET /api/rooms/{code}/record`, `GET /api/rooms/{code}/download` (PDN for draughts,
//! the text format of docs/notation.md for Chinese checkers), `POST /api/draughts/position`, and
//! rooms created from an imported position.

mod common;

use chinese_checkers::{Cell, Move};
use common::{greedy_cc_move, random_draughts_move, Client, Lcg, Server};
use serde_json::{json, Value};

/// Plays `n` moves (fewer if the game ends), each player moving when it is their turn.
async fn play_moves(players: &[&Client], n: usize, mut pick: impl FnMut(&Value) -> Value) {
    let mut done = 0;
    while done < n {
        let mut moved = false;
        for p in players {
            let room = p.room().await;
            if room["status"] != "playing" {
                return;
            }
            if room["play"]["to_move"] == json!(p.seat) && done < n {
                p.play(pick(&room)).await.ok();
                done += 1;
                moved = true;
            }
        }
        assert!(moved, "nobody could move");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draughts_record_lists_every_entry_and_its_pdn_replays_to_the_same_position() {
    let server = Server::start().await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    let code = ana.code.clone().unwrap();
    // Before the start there is no game to record.
    ana.get(&format!("/api/rooms/{code}/record"))
        .await
        .expect_error(409, "wrong_state");
    ana.start().await;
    let mut rng = Lcg(11);
    play_moves(&[&ana, &bo], 12, |room| {
        random_draughts_move(room, &mut rng)
    })
    .await;
    bo.act("resign", json!({})).await.ok();
    let room = ana.room().await;
    assert_eq!(room["status"], "finished");

    // Anybody with the code may look at it again (a spectator here).
    let spectator = server.client();
    let record = spectator
        .get(&format!("/api/rooms/{code}/record"))
        .await
        .ok();
    assert_eq!(record["code"], json!(code));
    assert_eq!(record["game"], "draughts");
    assert_eq!(record["game_no"], 1);
    assert_eq!(record["status"], "finished");
    assert_eq!(record["first_seat"], 0);
    assert_eq!(record["board"], room["play"]["board"]);
    assert_eq!(record["outcome"], room["play"]["outcome"]);
    assert_eq!(record["seats"][1]["name"], "Bo");
    let log = record["log"].as_array().unwrap();
    let moves = room["play"]["moves"].as_array().unwrap();
    assert_eq!(log.len(), moves.len() + 1);
    for (entry, rec) in log.iter().zip(moves) {
        assert_eq!(entry["kind"], "move");
        assert_eq!(entry["move"], rec["move"]);
        assert_eq!(entry["seat"], rec["seat"]);
        assert_eq!(entry["notation"], rec["move"]["notation"]);
        assert!(entry["at"].as_i64().unwrap() > 0);
    }
    assert_eq!(log.last().unwrap()["kind"], "resign");
    assert_eq!(log.last().unwrap()["seat"], 1);
    let start = draughts::Game::new(draughts::Rules::default());
    assert_eq!(record["start"]["fen"], json!(start.fen()));

    let res = spectator
        .fetch(&format!("/api/rooms/{}/download", code.to_lowercase()))
        .await;
    assert_eq!(res.status(), 200);
    let headers = res.headers().clone();
    assert!(headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/x-draughts-pdn"));
    assert_eq!(
        headers["content-disposition"],
        format!("attachment; filename=\"dames-{code}-1.pdn\"").as_str()
    );
    let pdn = res.text().await.unwrap();
    for tag in [
        format!("[Event \"Dames {code}\"]"),
        format!("[Site \"{}/r/{code}\"]", server.base),
        "[Round \"1\"]".to_owned(),
        "[White \"Ana\"]".to_owned(),
        "[Black \"Bo\"]".to_owned(),
        "[Result \"2-0\"]".to_owned(),
        "[GameType \"20\"]".to_owned(),
    ] {
        assert!(pdn.contains(&tag), "{tag} missing in\n{pdn}");
    }
    assert!(pdn.contains("[Date \"20"), "{pdn}");
    assert!(
        !pdn.contains("[FEN"),
        "a game from the usual start has no FEN tag:\n{pdn}"
    );
    let games = draughts::read_pdn(&pdn).unwrap();
    let back = draughts::Game::from_pdn(&games[0], draughts::Rules::default()).unwrap();
    assert_eq!(json!(back.fen()), room["play"]["board"]["fen"]);
    assert_eq!(back.ply(), moves.len());
    assert_eq!(
        back.outcome().map(|o| o.pdn_result()),
        Some("2-0"),
        "the resignation is in the result"
    );

    // An unknown room has no record.
    spectator
        .get("/api/rooms/ZZZZZZ/record")
        .await
        .expect_error(404, "unknown_room");
    assert_eq!(
        spectator.fetch("/api/rooms/ZZZZZZ/download").await.status(),
        404
    );
}

/// The hole of a number of the text format (1–121).
fn hole(n: &str) -> Cell {
    let n: u8 = n.parse().unwrap();
    Cell::from_index(n - 1).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chinese_checkers_game_downloads_as_text_that_replays_through_the_engine() {
    let server = Server::start().await;
    let mut ana = server.client();
    ana.create(json!({"game": "cc", "name": "Ana", "settings": {"rules": {"players": 3}}}))
        .await;
    let code = ana.code.clone().unwrap();
    let mut bo = server.client();
    bo.join(&code, "Bo").await;
    let mut cy = server.client();
    cy.join(&code, "Cy").await;
    ana.start().await;
    let mut rng = Lcg(5);
    play_moves(&[&ana, &bo, &cy], 14, |room| greedy_cc_move(room, &mut rng)).await;
    // Cy resigns in the middle: with three players the others go on, Cy's pieces leave.
    cy.act("resign", json!({})).await.ok();
    play_moves(&[&ana, &bo], 4, |room| greedy_cc_move(room, &mut rng)).await;
    let room = ana.room().await;
    assert_eq!(room["status"], "playing");

    let record = bo.get(&format!("/api/rooms/{code}/record")).await.ok();
    assert_eq!(record["board"], room["play"]["board"]);
    let log = record["log"].as_array().unwrap();
    assert_eq!(log.len(), 14 + 1 + 4);
    assert_eq!(
        log[14],
        json!({"kind": "resign", "seat": 2, "at": log[14]["at"]})
    );
    // Readable notation: the hole numbers of the path.
    for entry in log.iter().filter(|e| e["kind"] == "move") {
        let path = entry["move"]["path"].as_array().unwrap();
        let numbers: Vec<String> = path
            .iter()
            .map(|c| {
                let c: Vec<i32> = c
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_i64().unwrap() as i32)
                    .collect();
                (Cell::from_cube(c[0], c[1], c[2]).unwrap().index() + 1).to_string()
            })
            .collect();
        assert_eq!(entry["notation"], json!(numbers.join("-")));
    }

    let res = bo.fetch(&format!("/api/rooms/{code}/download")).await;
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    assert_eq!(
        res.headers()["content-disposition"],
        format!("attachment; filename=\"dames-chinoises-{code}-1.txt\"").as_str()
    );
    let text = res.text().await.unwrap();
    let tag = |name: &str| {
        let prefix = format!("[{name} \"");
        text.lines()
            .find_map(|l| l.strip_prefix(prefix.as_str()))
            .map(|v| v.trim_end_matches("\"]").replace("\\\"", "\""))
            .unwrap_or_else(|| panic!("no {name} tag in\n{text}"))
    };
    assert_eq!(tag("Game"), "Chinese checkers");
    assert_eq!(tag("P1"), "Ana");
    assert_eq!(tag("P3"), "Cy");
    assert_eq!(tag("P2Camps"), "2");
    assert_eq!(tag("First"), "P1");
    assert_eq!(tag("Result"), "*");
    // Replay the file's moves through the engine: the same position as the server's.
    let rules: chinese_checkers::Rules = serde_json::from_str(&tag("Rules")).unwrap();
    let mut game = chinese_checkers::Game::new(rules, chinese_checkers::Seat(0)).unwrap();
    let mut lines = 0;
    for line in text.lines().skip_while(|l| !l.is_empty()).skip(1) {
        let mut words = line.split_whitespace();
        let Some(number) = words.next() else { continue };
        if !number.ends_with('.') {
            assert_eq!(line, "*", "the result closes the file");
            continue;
        }
        lines += 1;
        let who = words.next().unwrap();
        let what = words.next().unwrap();
        let seat: u8 = who.trim_start_matches('P').parse::<u8>().unwrap() - 1;
        if what == "resigns" {
            game.resign(chinese_checkers::Seat(seat)).unwrap();
            continue;
        }
        assert_eq!(game.to_move().index(), usize::from(seat), "{line}");
        let holes: Vec<&str> = what.split('-').collect();
        game.play(Move::new(hole(holes[0]), hole(holes[holes.len() - 1])))
            .unwrap();
    }
    assert_eq!(lines, log.len());
    for piece in room["play"]["board"]["pieces"].as_array().unwrap() {
        let at: Vec<i32> = piece["at"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap() as i32)
            .collect();
        let cell = Cell::from_cube(at[0], at[1], at[2]).unwrap();
        let found = game.piece_at(cell).and_then(|p| p.seat).map(|s| s.index());
        assert_eq!(found, piece["seat"].as_u64().map(|s| s as usize));
    }
    let pieces = room["play"]["board"]["pieces"].as_array().unwrap().len();
    assert_eq!(game.occupied().0.count_ones() as usize, pieces);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_are_read_from_pdn_or_fen_and_bad_ones_refused_with_their_reason() {
    let server = Server::start().await;
    let c = server.client();
    let read = |body: Value| {
        let c = c.clone();
        async move { c.post("/api/draughts/position", body).await }
    };
    let got = read(json!({"text": "W:W31,32,K45:B1,2"})).await.ok();
    assert_eq!(got["variant"], "international");
    assert_eq!(got["fen"], "W:W31,32,K45:B1,2");
    assert_eq!(got["to_move"], "white");
    assert_eq!(got["initial"], false);
    assert_eq!(got["plies"], 0);
    assert_eq!(got["board"]["size"], 10);
    assert_eq!(got["board"]["pieces"].as_array().unwrap().len(), 5);
    let pdn = "[Event \"x\"]\n[GameType \"26\"]\n1. 22-18 11-15 2. 18x11 8x15 {a comment} 2-0";
    let got = read(json!({"text": pdn, "variant": "canadian"})).await.ok();
    assert_eq!(got["variant"], "brazilian");
    assert_eq!(got["plies"], 4);
    assert_eq!(got["board"]["size"], 8);
    let start = read(json!({"text": "1. *"})).await;
    start.expect_error(400, "invalid_position");
    assert_eq!(start.body["error"]["detail"]["reason"], "empty");
    for (text, reason) in [
        ("", "empty"),
        ("W:W51:B1", "fen"),
        ("[GameType \"21\"] 1. 11-15 *", "game_type"),
        ("[Event \"x\"\n1. 32-28", "tag"),
        ("1. 32-28 {open", "unterminated"),
        ("W:W1:B", "no_pieces"),
        ("W:W3:B30", "no_moves"),
    ] {
        let answer = read(json!({"text": text})).await;
        answer.expect_error(400, "invalid_position");
        assert_eq!(answer.body["error"]["detail"]["reason"], reason, "{text}");
    }
    let answer = read(json!({"text": "1. 32-28 19-23 2. 32-28 *"})).await;
    answer.expect_error(400, "invalid_position");
    assert_eq!(
        answer.body["error"]["detail"],
        json!({"reason": "move", "ply": 3, "move": "32-28"})
    );
    read(json!({"text": "W:W31:B1", "variant": "russian"}))
        .await
        .expect_error(400, "bad_json");
    read(json!({"text": "1. 32-28 ".repeat(1500)}))
        .await
        .expect_error(400, "invalid_position");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_plays_from_an_imported_position_and_keeps_it_across_a_restart() {
    let server = Server::start().await;
    // Black to move: the host plays Black and moves first.
    let fen = "B:W28,33,K46:B14,19";
    let mut ana = server.client();
    let room = ana
        .create(
            json!({"game": "draughts", "name": "Ana", "start": format!("[FEN \"{fen}\"] *"),
            "settings": {"rules": {"variant": "international"}}}),
        )
        .await;
    assert_eq!(room["seats"][0]["color"], "black");
    assert_eq!(room["seats"][1]["color"], "white");
    // The board cannot change under the imported position.
    ana.act("settings", json!({"rules": {"variant": "brazilian"}}))
        .await
        .expect_error(400, "invalid_settings");
    let mut bo = server.client();
    bo.join(ana.code.as_deref().unwrap(), "Bo").await;
    let room = ana.start().await;
    assert_eq!(room["play"]["board"]["fen"], fen);
    assert_eq!(room["play"]["to_move"], 0);
    assert_eq!(room["seats"][0]["color"], "black");
    let mv = room["play"]["legal_moves"][0]["notation"].clone();
    ana.play(json!({"notation": mv})).await.ok();
    let before = ana.room().await;

    let server = server.restart(|_| {}).await;
    let mut again = server.client();
    again.token.clone_from(&ana.token);
    again.code.clone_from(&ana.code);
    again.seat = ana.seat;
    let after = again.room().await;
    assert_eq!(after["play"]["board"], before["play"]["board"]);
    assert_eq!(after["seats"][0]["color"], "black");
    let record = again
        .get(&format!(
            "/api/rooms/{}/record",
            ana.code.as_deref().unwrap()
        ))
        .await
        .ok();
    assert_eq!(record["start"]["fen"], fen);
    let pdn = again
        .fetch(&format!(
            "/api/rooms/{}/download",
            ana.code.as_deref().unwrap()
        ))
        .await
        .text()
        .await
        .unwrap();
    assert!(pdn.contains(&format!("[FEN \"{fen}\"]")), "{pdn}");
    assert!(
        pdn.contains("[White \"Bo\"]") && pdn.contains("[Black \"Ana\"]"),
        "{pdn}"
    );
    assert!(pdn.contains("1... "), "Black moved first:\n{pdn}");

    // Against the CPU from a position; a bad one changes nothing; none for Chinese checkers.
    let mut solo = server.client();
    let room = solo
        .create(
            json!({"game": "draughts", "name": "Di", "cpu": {"level": "facile"},
            "start": "W:W28:B19,K1", "settings": {"rules": {"variant": "brazilian"}}}),
        )
        .await;
    assert_eq!(room["status"], "playing");
    assert_eq!(room["settings"]["rules"]["variant"], "brazilian");
    assert_eq!(room["play"]["board"]["size"], 8);
    let bad = server
        .client()
        .post(
            "/api/rooms",
            json!({"game": "draughts", "name": "Di", "start": "W:W99:B1"}),
        )
        .await;
    bad.expect_error(400, "invalid_position");
    assert_eq!(bad.body["error"]["detail"]["reason"], "fen");
    server
        .client()
        .post(
            "/api/rooms",
            json!({"game": "cc", "name": "Di", "start": "W:W31:B1"}),
        )
        .await
        .expect_error(400, "invalid_settings");
}

/// The PDN of a game file, replayed: the final position's FEN and the number of moves.
fn pdn_final(pdn: &str) -> (String, usize) {
    let games = draughts::read_pdn(pdn).unwrap();
    let game = draughts::Game::from_pdn(&games[0], draughts::Rules::default()).unwrap();
    (game.fen(), game.ply())
}

/// Plays `n` random moves then `loser` resigns; returns the room after.
async fn play_then_resign(ana: &Client, bo: &Client, rng: &mut Lcg, n: usize, loser: &Client) {
    play_moves(&[ana, bo], n, |room| random_draughts_move(room, rng)).await;
    loser.act("resign", json!({})).await.ok();
    assert_eq!(ana.room().await["status"], "finished");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_of_a_room_keeps_its_own_record_and_file_after_a_rematch() {
    let server = Server::start().await;
    // Ana keeps her `dames_client` cookie, like a browser: "my games" knows her.
    let mut ana = server.browser("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    ana.create(json!({"game": "draughts", "name": "Ana"})).await;
    let code = ana.code.clone().unwrap();
    let mut bo = server.client();
    bo.join(&code, "Bo").await;
    let games = ana.get(&format!("/api/rooms/{code}/games")).await.ok();
    assert_eq!(
        games,
        json!({"code": code, "current": 0, "games": [], "next_before": null})
    );
    ana.start().await;
    let mut rng = Lcg(5);
    play_then_resign(&ana, &bo, &mut rng, 8, &bo).await;
    let first = ana.room().await;
    let spectator = server.client();
    let record1 = spectator
        .get(&format!("/api/rooms/{code}/games/1"))
        .await
        .ok();
    assert_eq!(
        record1,
        spectator
            .get(&format!("/api/rooms/{code}/record"))
            .await
            .ok()
    );
    let pdn1 = spectator
        .fetch(&format!("/api/rooms/{code}/games/1/download"))
        .await
        .text()
        .await
        .unwrap();

    // The rematch: the first move passes to Bo, who plays White; Ana resigns this one.
    ana.act("rematch", json!({"ready": true})).await.ok();
    bo.act("rematch", json!({"ready": true})).await.ok();
    let room = ana.room().await;
    assert_eq!(
        (room["status"].clone(), room["game_no"].clone()),
        (json!("playing"), json!(2))
    );
    // While game 2 is on, game 1 is unchanged and game 2 is listed as being played.
    assert_eq!(
        spectator
            .get(&format!("/api/rooms/{code}/games/1"))
            .await
            .ok(),
        record1
    );
    let listed = spectator
        .get(&format!("/api/rooms/{code}/games"))
        .await
        .ok();
    assert_eq!(listed["current"], 2);
    // Newest first.
    assert_eq!(listed["games"][0]["status"], "playing");
    assert!(listed["games"][0]["outcome"].is_null());
    play_then_resign(&ana, &bo, &mut rng, 5, &ana).await;
    let second = ana.room().await;

    // Game 1 as it was: its moves, its colours, its result, its file.
    let again1 = spectator
        .get(&format!("/api/rooms/{code}/games/1"))
        .await
        .ok();
    assert_eq!(again1, record1);
    assert_eq!(again1["game_no"], 1);
    assert_eq!(again1["board"], first["play"]["board"]);
    assert_eq!(again1["outcome"], first["play"]["outcome"]);
    assert_eq!(again1["seats"][0]["color"], "white");
    assert_eq!(again1["log"].as_array().unwrap().last().unwrap()["seat"], 1);
    let record2 = spectator
        .get(&format!("/api/rooms/{code}/games/2"))
        .await
        .ok();
    assert_eq!(record2["game_no"], 2);
    assert_eq!(record2["first_seat"], 1);
    assert_eq!(record2["seats"][0]["color"], "black");
    assert_eq!(record2["board"], second["play"]["board"]);
    assert_eq!(record2["outcome"], second["play"]["outcome"]);
    assert_ne!(record2["log"], record1["log"]);
    // The room's record is its current game's.
    assert_eq!(
        spectator
            .get(&format!("/api/rooms/{code}/record"))
            .await
            .ok(),
        record2
    );

    let res = spectator
        .fetch(&format!(
            "/api/rooms/{}/games/1/download",
            code.to_lowercase()
        ))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers()["content-disposition"],
        format!("attachment; filename=\"dames-{code}-1.pdn\"").as_str()
    );
    let again_pdn1 = res.text().await.unwrap();
    assert_eq!(again_pdn1, pdn1, "the same file for the same game");
    for tag in [
        "[Round \"1\"]",
        "[White \"Ana\"]",
        "[Black \"Bo\"]",
        "[Result \"2-0\"]",
    ] {
        assert!(pdn1.contains(tag), "{tag} missing in\n{pdn1}");
    }
    let moves1 = first["play"]["moves"].as_array().unwrap().len();
    assert_eq!(
        pdn_final(&pdn1),
        (
            first["play"]["board"]["fen"].as_str().unwrap().to_owned(),
            moves1
        )
    );
    let pdn2 = spectator
        .fetch(&format!("/api/rooms/{code}/games/2/download"))
        .await
        .text()
        .await
        .unwrap();
    // Bo played White in game 2; Ana (Black) resigned: White wins.
    for tag in [
        "[Round \"2\"]",
        "[White \"Bo\"]",
        "[Black \"Ana\"]",
        "[Result \"2-0\"]",
    ] {
        assert!(pdn2.contains(tag), "{tag} missing in\n{pdn2}");
    }
    let moves2 = second["play"]["moves"].as_array().unwrap().len();
    assert_eq!(
        pdn_final(&pdn2),
        (
            second["play"]["board"]["fen"].as_str().unwrap().to_owned(),
            moves2
        )
    );

    // The list of the room's games, and "my games" pointing to the earlier one.
    let listed = spectator
        .get(&format!("/api/rooms/{code}/games"))
        .await
        .ok();
    assert_eq!(listed["current"], 2);
    let items = listed["games"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    for (item, n, first_seat, room) in [(&items[1], 1, 0, &first), (&items[0], 2, 1, &second)] {
        assert_eq!(item["game_no"], n);
        assert_eq!(item["status"], "finished");
        assert_eq!(item["first_seat"], first_seat);
        assert_eq!(item["outcome"], room["play"]["outcome"]);
        assert!(item["started_at"].as_i64().unwrap() <= item["finished_at"].as_i64().unwrap());
    }
    // A page of one, then the next from where it stopped.
    let page = spectator
        .get(&format!("/api/rooms/{code}/games?limit=1"))
        .await
        .ok();
    assert_eq!(page["games"][0]["game_no"], 2);
    assert_eq!(page["next_before"], 2);
    let next = spectator
        .get(&format!("/api/rooms/{code}/games?before=2&limit=1"))
        .await
        .ok();
    assert_eq!(next["games"][0]["game_no"], 1);
    assert_eq!(next["next_before"], json!(null));
    for bad in ["limit=0", "limit=101", "before=x", "before=-1"] {
        spectator
            .get(&format!("/api/rooms/{code}/games?{bad}"))
            .await
            .expect_error(400, "invalid_input");
    }
    let mine = ana.get("/api/me/games").await.ok();
    assert_eq!(mine["next_offset"], json!(null));
    for bad in ["limit=0", "limit=101", "offset=-1", "offset=x"] {
        ana.get(&format!("/api/me/games?{bad}"))
            .await
            .expect_error(400, "invalid_input");
    }
    assert_eq!(mine["games"][0]["code"], json!(code));
    assert_eq!(mine["games"][0]["earlier_games"], json!([1]));

    // Games that do not exist: typed errors, nothing else.
    for bad in ["3", "0", "-1", "x", "+1", "99999999999999999999"] {
        spectator
            .get(&format!("/api/rooms/{code}/games/{bad}"))
            .await
            .expect_error(404, "unknown_game");
        assert_eq!(
            spectator
                .fetch(&format!("/api/rooms/{code}/games/{bad}/download"))
                .await
                .status(),
            404
        );
    }
    spectator
        .get("/api/rooms/ZZZZZZ/games/1")
        .await
        .expect_error(404, "unknown_room");

    // Both survive a restart of the server.
    let server = server.restart(|_| {}).await;
    let later = server.client();
    assert_eq!(
        later.get(&format!("/api/rooms/{code}/games/1")).await.ok(),
        record1
    );
    assert_eq!(
        later.get(&format!("/api/rooms/{code}/games/2")).await.ok(),
        record2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retention_deletes_an_earlier_game_while_its_room_plays_on() {
    let server = Server::start_with(|c| {
        c.retention.finished = std::time::Duration::from_secs(2);
        c.retention.sweep_every = std::time::Duration::from_millis(200);
    })
    .await;
    let (ana, bo) = server
        .ana_and_bo(json!({"game": "draughts", "name": "Ana"}))
        .await;
    let code = ana.code.clone().unwrap();
    ana.start().await;
    let mut rng = Lcg(9);
    play_then_resign(&ana, &bo, &mut rng, 4, &bo).await;
    ana.act("rematch", json!({"ready": true})).await.ok();
    bo.act("rematch", json!({"ready": true})).await.ok();
    // Game 2 goes on (a move now and then keeps it far from any limit); game 1 ended 2 s ago.
    ana.get(&format!("/api/rooms/{code}/games/1")).await.ok();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let answer = ana.get(&format!("/api/rooms/{code}/games/1")).await;
        if answer.status == 404 {
            answer.expect_error(404, "unknown_game");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "game 1 was never deleted"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let listed = ana.get(&format!("/api/rooms/{code}/games")).await.ok();
    assert_eq!(listed["games"].as_array().unwrap().len(), 1);
    assert_eq!(listed["games"][0]["game_no"], 2);
    assert_eq!(ana.room().await["status"], "playing");
    let record = ana.get(&format!("/api/rooms/{code}/record")).await.ok();
    assert_eq!(record["game_no"], 2);
    // The game on is still played as usual.
    play_moves(&[&ana, &bo], 2, |room| random_draughts_move(room, &mut rng)).await;
}
