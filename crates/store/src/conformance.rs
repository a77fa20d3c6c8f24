//! The contract of the store traits, written once and run against every backend: each test
//! below is a function over any [`Store`], and `conformance!` makes a `#[test]` of each for a
//! backend (at the end of this file). A backend passes when it behaves as these say; the room
//! layer relies on nothing else.

use crate::error::StoreError;
use crate::feedback::FeedbackRow;
use crate::push::PushSub;
use crate::rooms::{Commit, Cutoffs, PlayedRow, RoomWrite};
use crate::Store;
use dames_room::rows::{ActionRow, EventRow, GameRow, RoomRow, RoomState, SeatRow};

pub(super) fn room(code: &str, status: &str, at: i64) -> RoomRow {
    RoomRow {
        code: code.into(),
        game: "cc".into(),
        settings: "{}".into(),
        start_fen: None,
        created_at: at,
        state: RoomState {
            status: status.into(),
            version: 1,
            game_no: 1,
            first_seat: 0,
            draw_offer: None,
            draw_declined: None,
            cpu_by: None,
            active_at: at,
            last_move_at: Some(at),
            finished_at: (status == "finished").then_some(at),
            clock: (status == "playing")
                .then(|| format!(r#"{{"remaining":[{at},1],"running":0,"since":{at}}}"#)),
        },
    }
}

pub(super) fn seat(n: i64, client: &str) -> SeatRow {
    SeatRow {
        seat: n,
        kind: "human".into(),
        name: Some("Ana".into()),
        level: None,
        token_hash: Some(vec![7; 32]),
        client: Some(client.into()),
        ready: false,
        away_since: None,
        transfer_hash: None,
        transfer_expires_at: None,
    }
}

pub(super) fn action(seq: i64, client_id: Option<&str>) -> ActionRow {
    ActionRow {
        game_no: 1,
        seq,
        seat: Some(0),
        kind: "move".into(),
        data: Some("{}".into()),
        client_id: client_id.map(Into::into),
        at: 10 + seq,
        // The clocks after the move (issue 20): kept as written.
        clock: Some(format!("[{seq},60000]")),
    }
}

pub(super) fn event(version: i64) -> EventRow {
    EventRow {
        version,
        event: format!("{{\"kind\":\"moves\",\"n\":{version}}}"),
        at: 10 + version,
    }
}

fn game(game_no: i64, started_at: i64, finished_at: Option<i64>) -> GameRow {
    GameRow {
        game_no,
        settings: "{}".into(),
        seats: Some("[]".into()),
        first_seat: 0,
        start_fen: None,
        started_at: Some(started_at),
        finished_at,
        outcome: finished_at.map(|_| "{}".into()),
    }
}

/// A new room with these seats.
pub(super) fn create(store: &dyn Store, r: &RoomRow, seats: Vec<SeatRow>) {
    store.commit(&Commit::new_room(r.clone(), seats)).unwrap();
}

/// A move of a stored room, computed from version `version - 1`: its log entry, its event,
/// the room's new version.
pub(super) fn a_move(code: &str, version: i64, client_id: Option<&str>) -> Commit {
    let mut state = room(code, "playing", 10).state;
    state.version = version;
    Commit {
        code: code.into(),
        room: RoomWrite::State {
            from: version - 1,
            state,
        },
        seats: None,
        // Made at one moment, as the server makes them: the store may keep the event in the
        // entry's row (SQLite, migration 0013).
        actions: vec![ActionRow {
            at: event(version).at,
            ..action(version - 2, client_id)
        }],
        events: vec![event(version)],
        game: None,
        played: Vec::new(),
    }
}

pub(super) fn a_commit_round_trips(store: &dyn Store) {
    let mut r = room("AAAAAA", "playing", 10);
    r.start_fen = Some("W:W31:B20".into());
    let c = Commit {
        actions: vec![action(0, Some("m1"))],
        events: vec![event(1)],
        ..Commit::new_room(r.clone(), vec![seat(0, "c"), seat(1, "d")])
    };
    store.commit(&c).unwrap();
    let loaded = store.load("AAAAAA").unwrap().unwrap();
    assert_eq!(loaded.room, r);
    assert_eq!(loaded.seats, vec![seat(0, "c"), seat(1, "d")]);
    assert_eq!(loaded.actions, vec![action(0, Some("m1"))]);
    assert_eq!(loaded.client_ids, vec!["m1".to_string()]);
    assert!(store.exists("AAAAAA").unwrap());
    assert!(!store.exists("ZZZZZZ").unwrap());
    assert!(store.load("ZZZZZZ").unwrap().is_none());
    assert_eq!(store.live_codes().unwrap(), vec!["AAAAAA".to_string()]);
    let mine = store.rooms_of_client("c").unwrap();
    assert_eq!(mine.len(), 1);
    assert_eq!((mine[0].code.as_str(), mine[0].seat), ("AAAAAA", 0));
    assert_eq!(
        (mine[0].game.as_str(), mine[0].status.as_str()),
        ("cc", "playing")
    );
}

pub(super) fn versions_reads_the_stored_version_of_each_room_that_exists(store: &dyn Store) {
    create(store, &room("AAAAAA", "playing", 10), vec![seat(0, "c")]);
    create(store, &room("BBBBBB", "lobby", 10), vec![seat(0, "c")]);
    store.commit(&a_move("AAAAAA", 2, Some("m1"))).unwrap();
    let codes = ["AAAAAA", "ZZZZZZ", "BBBBBB"].map(String::from);
    let mut found = store.versions(&codes).unwrap();
    found.sort();
    assert_eq!(found, vec![("AAAAAA".into(), 2), ("BBBBBB".into(), 1)]);
    assert!(store.versions(&[]).unwrap().is_empty());
}

pub(super) fn a_state_write_changes_only_the_play_columns(store: &dyn Store) {
    let r = room("AAAAAA", "playing", 10);
    create(store, &r, vec![seat(0, "c")]);
    store.commit(&a_move("AAAAAA", 2, Some("m1"))).unwrap();
    let loaded = store.load("AAAAAA").unwrap().unwrap();
    assert_eq!(loaded.room.state.version, 2);
    assert_eq!(
        (loaded.room.settings.as_str(), loaded.room.created_at),
        ("{}", 10)
    );
    // The seats stay when a change does not write them.
    assert_eq!(loaded.seats, vec![seat(0, "c")]);
    // A play-columns write needs its room.
    assert!(store.commit(&a_move("ZZZZZZ", 2, None)).is_err());
    assert!(!store.exists("ZZZZZZ").unwrap());
    // A whole row over an existing room (new settings) keeps its game kind and creation time.
    let mut again = r.clone();
    (again.game, again.created_at, again.settings) = ("draughts".into(), 99, "{\"a\":1}".into());
    again.state.version = 3;
    store
        .commit(&Commit {
            code: "AAAAAA".into(),
            room: RoomWrite::Row {
                from: 2,
                row: again,
            },
            seats: None,
            actions: Vec::new(),
            events: Vec::new(),
            game: None,
            played: Vec::new(),
        })
        .unwrap();
    let loaded = store.load("AAAAAA").unwrap().unwrap();
    assert_eq!(
        (loaded.room.game.as_str(), loaded.room.created_at),
        ("cc", 10)
    );
    assert_eq!(
        (loaded.room.settings.as_str(), loaded.room.state.version),
        ("{\"a\":1}", 3)
    );
    assert_eq!(loaded.seats.len(), 1);
}

pub(super) fn a_repeated_move_id_log_entry_or_event_is_refused(store: &dyn Store) {
    create(store, &room("BBBBBB", "playing", 10), Vec::new());
    store.commit(&a_move("BBBBBB", 2, Some("same"))).unwrap();
    // The same client move id again (another log entry, another event).
    assert!(store.commit(&a_move("BBBBBB", 3, Some("same"))).is_err());
    // The same log entry again; the same event again.
    let mut entry = a_move("BBBBBB", 3, None);
    entry.actions[0].seq = 0;
    assert!(store.commit(&entry).is_err());
    let mut event = a_move("BBBBBB", 3, None);
    event.events[0].version = 2;
    assert!(store.commit(&event).is_err());
    // Nothing of the failed changes was written.
    let loaded = store.load("BBBBBB").unwrap().unwrap();
    assert_eq!(loaded.room.state.version, 2);
    assert_eq!(loaded.actions.len(), 1);
    assert_eq!(store.events_since("BBBBBB", 0, 10).unwrap().len(), 1);
    // The same move id in another room is another move.
    create(store, &room("CCCCCC", "playing", 10), Vec::new());
    store.commit(&a_move("CCCCCC", 2, Some("same"))).unwrap();
}

pub(super) fn the_running_rooms_are_the_games_with_a_clock_a_cpu_or_a_stand_in(store: &dyn Store) {
    let untimed = |code: &str, status: &str| {
        let mut r = room(code, status, 10);
        r.state.clock = None;
        r
    };
    let cpu = SeatRow {
        kind: "cpu".into(),
        name: None,
        level: Some("normal".into()),
        token_hash: None,
        client: None,
        ..seat(1, "")
    };
    let stand_in = SeatRow {
        level: Some("expert".into()),
        ..seat(1, "b")
    };
    // A clock running, a CPU seat, a CPU standing in for a person: they go on by themselves.
    // People only, no clock; a lobby with a CPU seat; a finished game against a CPU: they wait.
    let rooms = [
        (room("CLOCK1", "playing", 10), seat(1, "b")),
        (untimed("CPU001", "playing"), cpu.clone()),
        (untimed("STAND1", "playing"), stand_in),
        (untimed("PEOPLE", "playing"), seat(1, "b")),
        (untimed("LOBBY1", "lobby"), cpu.clone()),
        (untimed("FINIS1", "finished"), cpu),
    ];
    for (row, second) in rooms {
        create(store, &row, vec![seat(0, "a"), second]);
    }
    let mut running = store.running_codes().unwrap();
    running.sort();
    assert_eq!(running, ["CLOCK1", "CPU001", "STAND1"]);
    let mut live = store.live_codes().unwrap();
    live.sort();
    assert_eq!(live, ["CLOCK1", "CPU001", "LOBBY1", "PEOPLE", "STAND1"]);
}

pub(super) fn of_two_changes_from_one_version_only_the_first_applies(store: &dyn Store) {
    create(store, &room("AAAAAA", "playing", 10), Vec::new());
    // Two changes computed from version 1 (two nodes, or a stale copy): the first applies...
    store.commit(&a_move("AAAAAA", 2, Some("x"))).unwrap();
    // ... the second is a conflict, whatever its move id, and writes nothing.
    for id in ["y", "x"] {
        let err = store.commit(&a_move("AAAAAA", 2, Some(id))).unwrap_err();
        assert!(
            matches!(&err, StoreError::Conflict { code, expected: Some(1) } if code == "AAAAAA"),
            "{err:?}"
        );
    }
    let loaded = store.load("AAAAAA").unwrap().unwrap();
    assert_eq!(loaded.room.state.version, 2);
    assert_eq!(loaded.client_ids, vec!["x".to_string()]);
    // A whole-row change is checked the same way.
    let stale = Commit {
        room: RoomWrite::Row {
            from: 1,
            row: room("AAAAAA", "playing", 10),
        },
        ..a_move("AAAAAA", 2, None)
    };
    assert!(matches!(
        store.commit(&stale),
        Err(StoreError::Conflict { .. })
    ));
    // A new room whose code is taken, a change of a room that is not there: conflicts too.
    let taken = store.commit(&Commit::new_room(room("AAAAAA", "lobby", 20), Vec::new()));
    assert!(
        matches!(taken, Err(StoreError::Conflict { expected: None, .. })),
        "{taken:?}"
    );
    assert_eq!(
        store.load("AAAAAA").unwrap().unwrap().room.state.status,
        "playing"
    );
    assert!(matches!(
        store.commit(&a_move("ZZZZZZ", 2, None)),
        Err(StoreError::Conflict { .. })
    ));
    // In a batch, the conflict fails the batch (the writer then retries change by change).
    create(store, &room("BBBBBB", "playing", 10), Vec::new());
    let batch = [a_move("BBBBBB", 2, None), a_move("AAAAAA", 2, None)];
    assert!(matches!(
        store.commit_batch(&batch),
        Err(StoreError::Conflict { .. })
    ));
    assert_eq!(store.load("BBBBBB").unwrap().unwrap().room.state.version, 1);
}

pub(super) fn a_batch_is_all_or_nothing(store: &dyn Store) {
    create(store, &room("AAAAAA", "playing", 10), Vec::new());
    create(store, &room("BBBBBB", "playing", 10), Vec::new());
    // B's second move repeats its first's log entry: the batch fails, A's move with it.
    let batch = [
        a_move("AAAAAA", 2, Some("a")),
        a_move("BBBBBB", 2, Some("b")),
        a_move("BBBBBB", 2, Some("b2")),
    ];
    assert!(store.commit_batch(&batch).is_err());
    for code in ["AAAAAA", "BBBBBB"] {
        let loaded = store.load(code).unwrap().unwrap();
        assert_eq!((loaded.room.state.version, loaded.actions.len()), (1, 0));
    }
    // Without it, the batch commits, in order.
    store.commit_batch(&batch[..2]).unwrap();
    store
        .commit_batch(&[a_move("BBBBBB", 3, None), a_move("BBBBBB", 4, None)])
        .unwrap();
    let b = store.load("BBBBBB").unwrap().unwrap();
    assert_eq!((b.room.state.version, b.actions.len()), (4, 3));
    assert_eq!(store.load("AAAAAA").unwrap().unwrap().room.state.version, 2);
}

pub(super) fn events_since_reads_a_range_in_order(store: &dyn Store) {
    create(store, &room("AAAAAA", "playing", 10), Vec::new());
    for v in 2..=6 {
        store.commit(&a_move("AAAAAA", v, None)).unwrap();
    }
    let versions = |since, up_to| -> Vec<i64> {
        let rows = store.events_since("AAAAAA", since, up_to).unwrap();
        rows.iter().map(|e| e.version).collect()
    };
    assert_eq!(versions(0, 100), vec![2, 3, 4, 5, 6]);
    assert_eq!(versions(3, 5), vec![4, 5]);
    assert!(versions(6, 100).is_empty());
    assert_eq!(store.events_since("AAAAAA", 3, 4).unwrap(), vec![event(4)]);
    assert!(store.events_since("ZZZZZZ", 0, 100).unwrap().is_empty());
    // A change of one entry and two events (a move that ends the game), then a move: the
    // range reads alike whichever table keeps each event.
    let mut two = Commit {
        events: vec![event(7), event(8)],
        ..a_move("AAAAAA", 8, None)
    };
    if let RoomWrite::State { from, .. } = &mut two.room {
        *from = 6;
    }
    store.commit(&two).unwrap();
    store.commit(&a_move("AAAAAA", 9, None)).unwrap();
    assert_eq!(versions(5, 100), vec![6, 7, 8, 9]);
    assert_eq!(
        store.events_since("AAAAAA", 6, 9).unwrap(),
        vec![event(7), event(8), event(9)]
    );
}

pub(super) fn retention_finds_what_is_due_and_delete_takes_everything(store: &dyn Store) {
    for (code, status, at) in [
        ("LOBBY1", "lobby", 5),
        ("LOBBY2", "lobby", 50),
        ("FINIS1", "finished", 5),
        ("PLAYS1", "playing", 5),
        ("PLAYS2", "playing", 50),
    ] {
        store
            .commit(&Commit {
                events: vec![event(1)],
                game: Some(game(1, at, None)),
                ..Commit::new_room(room(code, status, at), vec![seat(0, "c")])
            })
            .unwrap();
    }
    let due = store
        .due(Cutoffs {
            lobby_active_before: 10,
            finished_before: 10,
            idle_before: 10,
        })
        .unwrap();
    let mut delete = due.delete.clone();
    delete.sort();
    assert_eq!(delete, vec!["FINIS1".to_string(), "LOBBY1".to_string()]);
    assert_eq!(due.abandon, vec!["PLAYS1".to_string()]);
    let mut live = store.live_codes().unwrap();
    live.sort();
    assert_eq!(live, ["LOBBY1", "LOBBY2", "PLAYS1", "PLAYS2"]);
    let sub = PushSub {
        code: "LOBBY1".into(),
        seat: 0,
        endpoint: "https://push.example/1".into(),
        p256dh: "k".into(),
        auth: "a".into(),
    };
    store.save_push(&sub, 5).unwrap();
    store.delete("LOBBY1").unwrap();
    assert!(!store.exists("LOBBY1").unwrap());
    assert!(store.events_since("LOBBY1", 0, 10).unwrap().is_empty());
    assert!(store.games("LOBBY1", None, 100).unwrap().is_empty());
    assert!(store.push_of("LOBBY1", 0).unwrap().is_none());
    assert_eq!(store.rooms_of_client("c").unwrap().len(), 4);
    assert!(store.exists("LOBBY2").unwrap());
    store.scrub().unwrap();
    assert!(store.exists("LOBBY2").unwrap());
}

pub(super) fn games_are_paged_newest_first_and_a_room_keeps_a_bounded_number(store: &dyn Store) {
    let mut r = room("DDDDDD", "playing", 10);
    create(store, &r, Vec::new());
    let last = crate::GAMES_KEPT_PER_ROOM + 5;
    // Every game written in one batch of changes (one transaction: quick on every backend).
    let commits: Vec<Commit> = (1..=last)
        .map(|n| {
            r.state.version += 1;
            r.state.game_no = n;
            Commit {
                room: RoomWrite::State {
                    from: r.state.version - 1,
                    state: r.state.clone(),
                },
                actions: vec![ActionRow {
                    game_no: n,
                    seq: 0,
                    seat: Some(0),
                    kind: "resign".into(),
                    data: None,
                    client_id: None,
                    at: n,
                    clock: None,
                }],
                events: Vec::new(),
                game: Some(game(n, n, Some(n))),
                ..a_move("DDDDDD", r.state.version, None)
            }
        })
        .collect();
    store.commit_batch(&commits).unwrap();
    let numbers = |before, limit| -> Vec<i64> {
        let page = store.games("DDDDDD", before, limit).unwrap();
        page.iter().map(|g| g.game_no).collect()
    };
    // The newest first; the next page from below the last one seen.
    assert_eq!(numbers(None, 3), vec![last, last - 1, last - 2]);
    assert_eq!(numbers(Some(last - 2), 2), vec![last - 3, last - 4]);
    // Only the newest GAMES_KEPT_PER_ROOM are kept, their logs with them.
    let kept = numbers(None, 1000);
    assert_eq!(kept.len() as i64, crate::GAMES_KEPT_PER_ROOM);
    assert_eq!(kept.last(), Some(&6));
    assert!(store.game("DDDDDD", 5).unwrap().is_none());
    assert_eq!(store.game("DDDDDD", 6).unwrap().unwrap().1.len(), 1);
    assert_eq!(numbers(Some(7), 10), vec![6]);
    assert!(numbers(Some(1), 10).is_empty());
}

pub(super) fn a_game_row_keeps_its_start_and_old_games_go_with_retention(store: &dyn Store) {
    let mut r = room("CCCCCC", "playing", 10);
    create(store, &r, Vec::new());
    // Each change takes the room one version further.
    let commit = |r: &mut RoomRow, g: GameRow, actions: Vec<ActionRow>| {
        r.state.version += 1;
        store
            .commit(&Commit {
                room: RoomWrite::State {
                    from: r.state.version - 1,
                    state: r.state.clone(),
                },
                actions,
                events: Vec::new(),
                game: Some(g),
                ..a_move("CCCCCC", r.state.version, None)
            })
            .unwrap();
    };
    let resign = |game_no, at| ActionRow {
        game_no,
        seq: 0,
        seat: Some(0),
        kind: "resign".into(),
        data: None,
        client_id: None,
        at,
        clock: None,
    };
    commit(&mut r, game(1, 10, None), Vec::new());
    // Its end: the start time of the first write stays.
    commit(&mut r, game(1, 20, Some(20)), vec![resign(1, 20)]);
    assert_eq!(
        store.games("CCCCCC", None, 100).unwrap(),
        vec![game(1, 10, Some(20))]
    );
    // The rematch: game 2 on. Game 1 goes once it ended before the cut-off, game 2 stays.
    r.state.game_no = 2;
    commit(&mut r, game(2, 30, None), Vec::new());
    let (row, log) = store.game("CCCCCC", 1).unwrap().unwrap();
    assert_eq!((row, log), (game(1, 10, Some(20)), vec![resign(1, 20)]));
    assert!(store.load("CCCCCC").unwrap().unwrap().actions.is_empty());
    assert_eq!(store.delete_old_games(20).unwrap(), 0);
    assert_eq!(store.delete_old_games(21).unwrap(), 1);
    assert!(store.game("CCCCCC", 1).unwrap().is_none());
    assert_eq!(
        store.games("CCCCCC", None, 100).unwrap(),
        vec![game(2, 30, None)]
    );
    // The last game of a room goes only with its room.
    r.state.status = "finished".into();
    commit(&mut r, game(2, 30, Some(40)), vec![resign(2, 40)]);
    assert_eq!(store.delete_old_games(100).unwrap(), 0);
    assert_eq!(store.game("CCCCCC", 2).unwrap().unwrap().1.len(), 1);
    assert!(store.game("CCCCCC", 3).unwrap().is_none());
    store.delete("CCCCCC").unwrap();
    assert!(store.games("CCCCCC", None, 100).unwrap().is_empty());
}

fn review(client: &str, at: i64) -> FeedbackRow {
    FeedbackRow {
        id: 0,
        kind: "review".into(),
        game: Some("cc".into()),
        stars: Some(5),
        body: format!("bien {at}"),
        name: None,
        status: "ignored: the store sets new".into(),
        client: client.into(),
        created_at: at,
    }
}

pub(super) fn feedback_is_listed_newest_first_and_deleted_by_its_author(store: &dyn Store) {
    let a = store.add_feedback(&review("c1", 10)).unwrap();
    let b = store.add_feedback(&review("c2", 20)).unwrap();
    let c = store.add_feedback(&review("c1", 20)).unwrap();
    assert!(a != b && b != c && a != c);
    let ids = |rows: Vec<FeedbackRow>| rows.iter().map(|r| r.id).collect::<Vec<_>>();
    // Newest first; at the same time, the later entry first.
    let list = store.feedback(10).unwrap();
    assert_eq!(ids(list.clone()), vec![c, b, a]);
    assert_eq!(
        list[2],
        FeedbackRow {
            id: a,
            status: "new".into(),
            ..review("c1", 10)
        }
    );
    assert_eq!(ids(store.feedback(2).unwrap()), vec![c, b]);
    // Only its author deletes an entry.
    assert!(!store.delete_feedback(a, "c2").unwrap());
    assert!(store.delete_feedback(a, "c1").unwrap());
    assert!(!store.delete_feedback(a, "c1").unwrap());
    assert!(store.set_feedback_status(b, "planned").unwrap());
    assert!(!store.set_feedback_status(a, "planned").unwrap());
    assert_eq!(store.feedback(1).unwrap()[0].status, "new");
    assert_eq!(store.feedback(2).unwrap()[1].status, "planned");
    // Retention: what is older than the cut-off goes.
    assert_eq!(store.sweep_feedback(20).unwrap(), 0);
    assert_eq!(store.sweep_feedback(21).unwrap(), 2);
    assert!(store.feedback(10).unwrap().is_empty());
}

pub(super) fn reports_are_counted_for_their_author_and_never_listed(store: &dyn Store) {
    let report = FeedbackRow {
        kind: "report".into(),
        game: None,
        stars: None,
        body: "room ABCDEF, seat 1: rude_name".into(),
        ..review("c1", 30)
    };
    let r = store.add_feedback(&report).unwrap();
    let a = store.add_feedback(&review("c1", 40)).unwrap();
    // The public list leaves the reports out; the operator finds them by kind.
    let ids: Vec<i64> = store.feedback(10).unwrap().iter().map(|f| f.id).collect();
    assert_eq!(ids, vec![a]);
    assert_ne!(r, a);
    assert_eq!(store.count_feedback("c1", "report", 29).unwrap(), 1);
    assert_eq!(store.count_feedback("c1", "report", 30).unwrap(), 0);
    assert_eq!(store.count_feedback("c2", "report", 0).unwrap(), 0);
    assert_eq!(store.count_feedback("c1", "review", 0).unwrap(), 1);
}

/// A room of `status` whose settings say `public`, with these seat kinds.
fn public_room(store: &dyn Store, code: &str, status: &str, public: bool, kinds: &[&str], at: i64) {
    let mut r = room(code, status, at);
    r.settings = format!(r#"{{"hints":true,"public":{public}}}"#);
    let seats = kinds
        .iter()
        .enumerate()
        .map(|(n, kind)| SeatRow {
            kind: (*kind).into(),
            name: (*kind == "human").then(|| format!("P{n}")),
            level: (*kind == "cpu").then(|| "normal".into()),
            client: (*kind == "human").then(|| format!("client-{n}")),
            ..seat(n as i64, "")
        })
        .collect();
    create(store, &r, seats);
}

pub(super) fn a_seats_away_clock_and_transfer_link_are_kept_and_written_alone(store: &dyn Store) {
    // Written with a change…
    let with_memory = SeatRow {
        away_since: Some(1_500),
        transfer_hash: Some(vec![9; 32]),
        transfer_expires_at: Some(600_000),
        ..seat(0, "c")
    };
    let r = room("SEATMM", "playing", 10);
    create(store, &r, vec![with_memory.clone(), seat(1, "d")]);
    let loaded = store.load("SEATMM").unwrap().unwrap();
    assert_eq!(loaded.seats, vec![with_memory.clone(), seat(1, "d")]);
    // …or alone, between changes: the room's version and the other columns stay.
    let cleared = SeatRow {
        away_since: None,
        transfer_hash: None,
        transfer_expires_at: None,
        ..with_memory.clone()
    };
    let away = SeatRow {
        away_since: Some(2_000),
        ..seat(1, "d")
    };
    store
        .save_seat_memory("SEATMM", &[cleared.clone(), away.clone()])
        .unwrap();
    let loaded = store.load("SEATMM").unwrap().unwrap();
    assert_eq!(loaded.seats, vec![cleared, away.clone()]);
    assert_eq!(loaded.room.state.version, r.state.version);
    // A write for a seat taken by someone else since (another token) changes nothing.
    let stale = SeatRow {
        token_hash: Some(vec![1; 32]),
        away_since: Some(9_999),
        ..seat(1, "d")
    };
    store.save_seat_memory("SEATMM", &[stale]).unwrap();
    assert_eq!(store.load("SEATMM").unwrap().unwrap().seats[1], away);
    // An unknown room: nothing to do, no error.
    store.save_seat_memory("NOROOM", &[seat(0, "c")]).unwrap();
}

pub(super) fn public_rooms_lists_only_public_rooms_of_a_status(store: &dyn Store) {
    public_room(store, "PUBAAA", "lobby", true, &["human", "empty"], 100);
    public_room(store, "PUBBBB", "lobby", true, &["human", "cpu"], 110); // full: not open
    public_room(store, "PRIVAA", "lobby", false, &["human", "empty"], 120);
    public_room(store, "PUBCCC", "playing", true, &["human", "human"], 130);
    public_room(
        store,
        "PUBDDD",
        "lobby",
        true,
        &["human", "empty", "empty"],
        140,
    );
    public_room(store, "PUBOLD", "lobby", true, &["human", "empty"], 5);
    store.commit(&a_move("PUBCCC", 2, None)).unwrap();
    let codes =
        |rows: &[crate::PublicRoom]| rows.iter().map(|r| r.code.clone()).collect::<Vec<_>>();
    let open = store.public_rooms("lobby", 50, 10).unwrap();
    assert_eq!(codes(&open), vec!["PUBDDD", "PUBAAA"]);
    assert_eq!(
        open[1].seats,
        vec![
            crate::PublicSeat {
                seat: 0,
                kind: "human".into(),
                name: Some("P0".into()),
                level: None
            },
            crate::PublicSeat {
                seat: 1,
                kind: "empty".into(),
                name: None,
                level: None
            },
        ]
    );
    assert_eq!(
        codes(&store.public_rooms("lobby", 50, 1).unwrap()),
        vec!["PUBDDD"]
    );
    let playing = store.public_rooms("playing", 0, 10).unwrap();
    assert_eq!(codes(&playing), vec!["PUBCCC"]);
    assert_eq!((playing[0].moves, playing[0].game_no), (1, 1));
    assert!(store.public_rooms("finished", 0, 10).unwrap().is_empty());
}

pub(super) fn who_played_a_game_is_known_from_the_commit_that_finished_it(store: &dyn Store) {
    assert!(!store.has_played("c", "cc").unwrap());
    // A room in play does not count; the commit that finishes it writes the `played` rows.
    create(store, &room("AAAAAA", "playing", 10), vec![seat(0, "c")]);
    assert!(!store.has_played("c", "cc").unwrap());
    let mut end = a_move("AAAAAA", 2, None);
    if let RoomWrite::State { state: s, .. } = &mut end.room {
        (s.status, s.finished_at) = ("finished".into(), Some(12));
    }
    end.played = vec![PlayedRow {
        client: "c".into(),
        game: "cc".into(),
        at: 12,
    }];
    store.commit(&end).unwrap();
    assert!(store.has_played("c", "cc").unwrap());
    assert!(!store.has_played("c", "draughts").unwrap());
    assert!(!store.has_played("d", "cc").unwrap());
    // The record outlives the room, until retention.
    store.delete("AAAAAA").unwrap();
    assert!(store.has_played("c", "cc").unwrap());
    assert_eq!(store.sweep_feedback(13).unwrap(), 1);
    assert!(!store.has_played("c", "cc").unwrap());
    // A room still kept whose game this browser finished counts too (rows from before the
    // `played` records).
    create(store, &room("BBBBBB", "finished", 10), vec![seat(0, "e")]);
    assert!(store.has_played("e", "cc").unwrap());
}

pub(super) fn push_subscriptions_are_one_per_seat(store: &dyn Store) {
    let sub = |code: &str, seat, endpoint: &str| PushSub {
        code: code.into(),
        seat,
        endpoint: endpoint.into(),
        p256dh: "key".into(),
        auth: "auth".into(),
    };
    // Its room must exist.
    assert!(store
        .save_push(&sub("ZZZZZZ", 0, "https://p/z"), 1)
        .is_err());
    create(store, &room("AAAAAA", "playing", 10), Vec::new());
    create(store, &room("BBBBBB", "finished", 10), Vec::new());
    store
        .save_push(&sub("AAAAAA", 0, "https://p/1"), 1)
        .unwrap();
    store
        .save_push(&sub("AAAAAA", 0, "https://p/2"), 2)
        .unwrap();
    store
        .save_push(&sub("AAAAAA", 1, "https://p/3"), 2)
        .unwrap();
    store
        .save_push(&sub("BBBBBB", 0, "https://p/4"), 2)
        .unwrap();
    // Replaced, not added.
    assert_eq!(
        store.push_of("AAAAAA", 0).unwrap(),
        Some(sub("AAAAAA", 0, "https://p/2"))
    );
    assert!(store.push_of("AAAAAA", 2).unwrap().is_none());
    store.delete_push_endpoint("https://p/2").unwrap();
    assert!(store.push_of("AAAAAA", 0).unwrap().is_none());
    store.delete_push_seat("AAAAAA", 1).unwrap();
    assert!(store.push_of("AAAAAA", 1).unwrap().is_none());
    store
        .save_push(&sub("AAAAAA", 1, "https://p/3"), 3)
        .unwrap();
    store.delete_push_room("AAAAAA").unwrap();
    assert!(store.push_of("AAAAAA", 1).unwrap().is_none());
    // Retention: the subscriptions of rooms whose game finished before the cut-off.
    store
        .save_push(&sub("AAAAAA", 1, "https://p/3"), 3)
        .unwrap();
    assert_eq!(store.sweep_push(10).unwrap(), 0);
    assert_eq!(store.sweep_push(11).unwrap(), 1);
    assert!(store.push_of("BBBBBB", 0).unwrap().is_none());
    assert!(store.push_of("AAAAAA", 1).unwrap().is_some());
}

pub(super) fn the_first_server_key_is_kept(store: &dyn Store) {
    assert!(store.server_key("vapid_private").unwrap().is_none());
    assert_eq!(
        store.init_server_key("vapid_private", "one").unwrap(),
        "one"
    );
    assert_eq!(
        store.init_server_key("vapid_private", "two").unwrap(),
        "one"
    );
    assert_eq!(
        store.server_key("vapid_private").unwrap().as_deref(),
        Some("one")
    );
    assert!(store.server_key("other").unwrap().is_none());
}

pub(super) fn blocks_go_both_ways_and_are_cleared_by_their_author(store: &dyn Store) {
    store.block("ana", "bob", 1).unwrap();
    store.block("ana", "bob", 2).unwrap();
    store.block("cy", "ana", 3).unwrap();
    store.block("bob", "dee", 4).unwrap();
    assert_eq!(store.avoided("ana").unwrap(), ["bob", "cy"]);
    assert_eq!(store.avoided("bob").unwrap(), ["ana", "dee"]);
    assert!(store.avoided("eve").unwrap().is_empty());
    assert_eq!(store.clear_blocks("ana").unwrap(), 1);
    // Cy's block of Ana is Cy's: Ana clearing her list keeps it.
    assert_eq!(store.avoided("ana").unwrap(), ["cy"]);
    assert_eq!(store.avoided("bob").unwrap(), ["dee"]);
}

pub(super) fn a_leave_counts_once_and_ages_out(store: &dyn Store) {
    let leave = |code: &str, seat: i64, at: i64| crate::LeaveRow {
        code: code.into(),
        game_no: 1,
        seat,
        client: "ana".into(),
        at,
    };
    assert!(store.record_leave(&leave("AAAAAA", 0, 100)).unwrap());
    assert!(!store.record_leave(&leave("AAAAAA", 0, 150)).unwrap());
    assert!(store.record_leave(&leave("BBBBBB", 1, 200)).unwrap());
    assert_eq!(store.leaves_since("ana", 0).unwrap(), 2);
    assert_eq!(store.leaves_since("ana", 150).unwrap(), 1);
    assert_eq!(store.leaves_since("bob", 0).unwrap(), 0);
    assert_eq!(store.sweep_leaves(150).unwrap(), 1);
    assert_eq!(store.leaves_since("ana", 0).unwrap(), 1);
}

pub(super) fn an_analysis_is_kept_with_its_game_and_goes_with_it(store: &dyn Store) {
    let mut r = room("DDDDDD", "playing", 10);
    create(store, &r, Vec::new());
    let mut commit = |g: GameRow| {
        r.state.version += 1;
        r.state.game_no = g.game_no;
        store
            .commit(&Commit {
                room: RoomWrite::State {
                    from: r.state.version - 1,
                    state: r.state.clone(),
                },
                actions: Vec::new(),
                events: Vec::new(),
                game: Some(g),
                ..a_move("DDDDDD", r.state.version, None)
            })
            .unwrap();
    };
    commit(game(1, 10, Some(20)));
    commit(game(2, 30, Some(40)));
    commit(game(3, 50, None));
    assert!(store.analysis("DDDDDD", 1).unwrap().is_none());
    assert!(store.save_analysis("DDDDDD", 1, "{\"a\":1}", 60).unwrap());
    assert!(store.save_analysis("DDDDDD", 2, "{\"b\":2}", 60).unwrap());
    // A second one replaces the first.
    assert!(store.save_analysis("DDDDDD", 1, "{\"a\":2}", 70).unwrap());
    assert_eq!(
        store.analysis("DDDDDD", 1).unwrap().as_deref(),
        Some("{\"a\":2}")
    );
    // No such game, no such room: nothing stored, no error.
    assert!(!store.save_analysis("DDDDDD", 9, "{}", 60).unwrap());
    assert!(!store.save_analysis("ZZZZZZ", 1, "{}", 60).unwrap());
    assert!(store.analysis("DDDDDD", 9).unwrap().is_none());
    assert!(store.analysis("ZZZZZZ", 1).unwrap().is_none());
    // Retention takes the old games and their analyses; the room takes the rest.
    assert_eq!(store.delete_old_games(25).unwrap(), 1);
    assert!(store.analysis("DDDDDD", 1).unwrap().is_none());
    assert!(store.analysis("DDDDDD", 2).unwrap().is_some());
    store.delete("DDDDDD").unwrap();
    assert!(store.analysis("DDDDDD", 2).unwrap().is_none());
}

/// A `#[test]` of every function above for one backend: `$make` gives `(store, guard)`, the
/// guard kept until the test ends (a temporary directory, a database dropped after).
macro_rules! conformance {
    ($backend:ident, $make:expr) => {
        mod $backend {
            #[allow(unused_imports)]
            use super::*;

            conformance!(@tests $make;
                a_commit_round_trips,
                a_state_write_changes_only_the_play_columns,
                versions_reads_the_stored_version_of_each_room_that_exists,
                a_repeated_move_id_log_entry_or_event_is_refused,
                of_two_changes_from_one_version_only_the_first_applies,
                the_running_rooms_are_the_games_with_a_clock_a_cpu_or_a_stand_in,
                a_batch_is_all_or_nothing,
                events_since_reads_a_range_in_order,
                retention_finds_what_is_due_and_delete_takes_everything,
                a_game_row_keeps_its_start_and_old_games_go_with_retention,
                games_are_paged_newest_first_and_a_room_keeps_a_bounded_number,
                feedback_is_listed_newest_first_and_deleted_by_its_author,
                reports_are_counted_for_their_author_and_never_listed,
                public_rooms_lists_only_public_rooms_of_a_status,
                a_seats_away_clock_and_transfer_link_are_kept_and_written_alone,
                who_played_a_game_is_known_from_the_commit_that_finished_it,
                push_subscriptions_are_one_per_seat,
                the_first_server_key_is_kept,
                blocks_go_both_ways_and_are_cleared_by_their_author,
                a_leave_counts_once_and_ages_out,
                an_analysis_is_kept_with_its_game_and_goes_with_it,
            );
        }
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                let (store, _guard) = $make;
                crate::conformance::$name(&store);
            }
        )*
    };
}

conformance!(memory, (crate::MemoryStore::default(), ()));

conformance!(sqlite, {
    let dir = tempfile::tempdir().unwrap();
    let store = crate::SqliteStore::open(&dir.path().join("t.db")).unwrap();
    (store, dir)
});

conformance!(postgres, {
    let db = crate::ScratchDatabase::create().unwrap();
    let store = crate::PostgresStore::open(&db.url()).unwrap();
    // The store goes before its database.
    (store, db)
});
