//! One test per rule and option of RULES.md part 1, on small hand-built positions.

use chinese_checkers::{Camp, Cell, Ending, Finished, Game, IllegalMove, Move, Rules, Seat};

type C = (i32, i32, i32);

/// The starting position for `players` with default rules, `first` to move.
fn start(players: u8, first: u8) -> Game {
    let rules = Rules {
        players,
        ..Rules::default()
    };
    Game::new(rules, Seat(first)).unwrap()
}

fn cell((x, y, z): C) -> Cell {
    Cell::from_cube(x, y, z).unwrap_or_else(|| panic!("({x},{y},{z}) is not a hole"))
}

fn mv(from: C, to: C) -> Move {
    Move::new(cell(from), cell(to))
}

fn json_cells(cells: &[C]) -> String {
    let items: Vec<String> = cells
        .iter()
        .map(|(x, y, z)| format!("[{x},{y},{z}]"))
        .collect();
    items.join(",")
}

/// A position: rules JSON, seat to move, the pieces of each seat (plain pieces of the first set).
fn position(rules: &str, to_move: u8, seats: &[&[C]]) -> Game {
    let seats: Vec<String> = seats
        .iter()
        .map(|s| format!("[{}]", json_cells(s)))
        .collect();
    let text = format!(
        r#"{{"rules":{rules},"to_move":{to_move},"seats":[{}]}}"#,
        seats.join(",")
    );
    Game::from_position_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn camp(n: u8, size: u8) -> Vec<C> {
    Camp::new(n).unwrap().cells(size).map(cube).collect()
}

fn cube(c: Cell) -> C {
    let [x, y, z] = c.to_cube();
    (x.into(), y.into(), z.into())
}

fn destinations(game: &Game, from: C) -> Vec<C> {
    let mut out: Vec<C> = game.destinations(cell(from)).map(cube).collect();
    out.sort();
    out
}

/// Camp 3 (seat 0's destination with 2 players) minus `hole`.
fn camp3_without(hole: C) -> Vec<C> {
    camp(3, 10).into_iter().filter(|&c| c != hole).collect()
}

#[test]
fn move_is_two_bytes() {
    assert_eq!(std::mem::size_of::<Move>(), 2);
    assert_eq!(std::mem::size_of::<Cell>(), 1);
}

#[test]
fn step_goes_to_any_adjacent_empty_hole() {
    let game = position("{}", 0, &[&[(0, 0, 0)], &[(-4, -4, 8)]]);
    assert_eq!(destinations(&game, (0, 0, 0)).len(), 6);
    assert_eq!(game.count_legal_moves(), 6);
}

#[test]
fn jump_chain_lists_each_destination_once_with_one_path() {
    // Own and opponent pieces are both jumped; (2,0,-2) and (0,2,-2) are reachable two ways.
    let game = position(
        "{}",
        0,
        &[
            &[(0, 0, 0), (1, 0, -1)],
            &[(0, 1, -1), (1, 1, -2), (3, 0, -3), (-4, -4, 8)],
        ],
    );
    let dests = destinations(&game, (0, 0, 0));
    assert_eq!(dests.len(), 4 + 3, "{dests:?}");
    for jump in [(2, 0, -2), (0, 2, -2), (4, 0, -4)] {
        assert!(dests.contains(&jump), "{jump:?}");
    }
    let path = game.path(mv((0, 0, 0), (4, 0, -4))).unwrap();
    assert_eq!(
        path,
        vec![cell((0, 0, 0)), cell((2, 0, -2)), cell((4, 0, -4))]
    );
    assert_eq!(game.path(mv((0, 0, 0), (0, 2, -2))).unwrap().len(), 2);
}

#[test]
fn chain_never_lands_back_on_its_start() {
    // Around a single piece a chain could come back to the start: it is not a move.
    let game = position(
        "{}",
        0,
        &[&[(0, 0, 0)], &[(1, 0, -1), (2, -1, -1), (-4, -4, 8)]],
    );
    assert!(!destinations(&game, (0, 0, 0)).contains(&(0, 0, 0)));
}

#[test]
fn illegal_move_leaves_game_untouched() {
    let mut game = Game::new(Rules::default(), Seat(0)).unwrap();
    let before = game;
    assert_eq!(
        game.play(mv((0, 0, 0), (1, -1, 0))),
        Err(IllegalMove::NotYourPiece(cell((0, 0, 0))))
    );
    let far = mv((4, 4, -8), (0, 0, 0));
    assert_eq!(game.play(far), Err(IllegalMove::Unreachable(far)));
    let theirs = mv((-4, -4, 8), (-3, -4, 7));
    assert_eq!(
        game.play(theirs),
        Err(IllegalMove::NotYourPiece(cell((-4, -4, 8))))
    );
    assert_eq!(game, before);
    game.abandon().unwrap();
    let after = game;
    assert_eq!(
        game.play(mv((1, 4, -5), (1, 3, -4))),
        Err(IllegalMove::GameOver)
    );
    assert_eq!(game, after);
}

#[test]
fn anti_blocking_finishes_with_opponent_piece_in_destination() {
    let last = (-1, -4, 5);
    let mut own = camp3_without(last);
    own.retain(|&c| c != (-4, -4, 8));
    own.push((-1, -3, 4));
    let mut game = position("{}", 0, &[&own, &[(-4, -4, 8), (4, 4, -8)]]);
    let events = game.play(mv((-1, -3, 4), last)).unwrap();
    assert_eq!(
        events.finished,
        vec![Finished {
            seat: Seat(0),
            place: 1
        }]
    );
    let outcome = game.outcome().unwrap();
    assert_eq!(
        (outcome.ending(), outcome.places()),
        (Ending::Finished, Some(&[1, 2][..]))
    );
    assert_eq!(outcome.winners(), vec![Seat(0)]);
}

#[test]
fn strict_finishing_without_anti_blocking_needs_own_pieces() {
    let last = (-1, -4, 5);
    let mut own = camp3_without(last);
    own.retain(|&c| c != (-4, -4, 8));
    own.push((-1, -3, 4));
    let mut game = position(
        r#"{"anti_blocking":false}"#,
        0,
        &[&own, &[(-4, -4, 8), (4, 4, -8)]],
    );
    let events = game.play(mv((-1, -3, 4), last)).unwrap();
    assert!(events.finished.is_empty() && !game.is_over());
}

#[test]
fn anti_blocking_finish_by_the_opponents_move() {
    // Seat 0 has 9 pieces home; seat 1 fills the last hole: seat 0 has finished.
    let last = (-1, -4, 5);
    let mut game = position("{}", 1, &[&camp3_without(last), &[(-1, -3, 4), (4, 4, -8)]]);
    let events = game.play(mv((-1, -3, 4), last)).unwrap();
    assert_eq!(
        events.finished,
        vec![Finished {
            seat: Seat(0),
            place: 1
        }]
    );
    assert_eq!(game.outcome().unwrap().place(Seat(0)), Some(1));
}

#[test]
fn swap_rule_swaps_on_a_step() {
    let rules = r#"{"swap_rule":true,"anti_blocking":false}"#;
    let mut game = position(rules, 0, &[&[(-1, -3, 4)], &[(-1, -4, 5), (4, 4, -8)]]);
    assert!(destinations(&game, (-1, -3, 4)).contains(&(-1, -4, 5)));
    let events = game.play(mv((-1, -3, 4), (-1, -4, 5))).unwrap();
    assert!(events.swapped);
    assert_eq!(
        game.piece_at(cell((-1, -3, 4))).unwrap().seat,
        Some(Seat(1))
    );
    assert_eq!(
        game.piece_at(cell((-1, -4, 5))).unwrap().seat,
        Some(Seat(0))
    );
    game.check_invariants().unwrap();
}

#[test]
fn swap_rule_swaps_on_last_jump() {
    let rules = r#"{"swap_rule":true,"anti_blocking":false}"#;
    let seats: [&[C]; 2] = [
        &[(1, -3, 2), (-2, -3, 5)],
        &[(0, -3, 3), (-3, -3, 6), (4, 4, -8)],
    ];
    let mut game = position(rules, 0, &seats);
    let swap = mv((1, -3, 2), (-3, -3, 6));
    assert_eq!(
        game.path(swap).unwrap(),
        vec![cell((1, -3, 2)), cell((-1, -3, 4)), cell((-3, -3, 6))]
    );
    assert!(game.play(swap).unwrap().swapped);
    assert_eq!(game.piece_at(cell((1, -3, 2))).unwrap().seat, Some(Seat(1)));
    // Without the swap rule the same move does not exist.
    let plain = position(r#"{"anti_blocking":false}"#, 0, &seats);
    assert!(!plain.is_legal(swap));
}

#[test]
fn swap_rule_only_into_own_destination() {
    let rules = r#"{"swap_rule":true,"anti_blocking":false}"#;
    let game = position(rules, 0, &[&[(0, 0, 0)], &[(1, -1, 0), (4, 4, -8)]]);
    assert!(!destinations(&game, (0, 0, 0)).contains(&(1, -1, 0)));
}

#[test]
fn forced_exit_requires_leaving_start_camp() {
    let front = [(4, 1, -5), (3, 2, -5), (2, 3, -5), (1, 4, -5)];
    let back: Vec<C> = camp(0, 10)
        .into_iter()
        .filter(|c| !front.contains(c))
        .collect();
    let mut own = front.to_vec();
    own.push((0, 0, 0));
    let mut theirs = back.clone();
    theirs.push((-4, -4, 8));
    // Anti-blocking off, else seat 1 would already have finished in camp 0.
    let forced = position(
        r#"{"forced_exit":true,"anti_blocking":false}"#,
        0,
        &[&own, &theirs],
    );
    let moves = forced.legal_moves_vec();
    assert!(!moves.is_empty());
    let camp0 = Camp::new(0).unwrap().cells(10);
    for m in &moves {
        assert!(camp0.contains(m.from) && !camp0.contains(m.to), "{m}");
    }
    let free = position(r#"{"anti_blocking":false}"#, 0, &[&own, &theirs]);
    assert!(free.count_legal_moves() > forced.count_legal_moves());
    assert!(!free.destinations(cell((0, 0, 0))).is_empty());
}

#[test]
fn forced_exit_needs_a_full_start_camp() {
    let own = [(4, 1, -5), (0, 0, 0)];
    let game = position(r#"{"forced_exit":true}"#, 0, &[&own, &[(-4, -4, 8)]]);
    assert!(!game.destinations(cell((0, 0, 0))).is_empty());
}

#[test]
fn king_jumps_whole_row() {
    let rules = r#"{"rule_set":"japanese","pieces":15}"#;
    let text = format!(
        r#"{{"rules":{rules},"seats":[[{{"at":[0,0,0],"king":true}},[1,-1,0]],[[2,-2,0],[3,-3,0],[-4,-4,8]]]}}"#
    );
    let game = Game::from_position_json(&text).unwrap();
    assert!(destinations(&game, (0, 0, 0)).contains(&(4, -4, 0)));
    assert_eq!(
        game.path(mv((0, 0, 0), (4, -4, 0))).unwrap(),
        vec![cell((0, 0, 0)), cell((4, -4, 0))]
    );
    // An ordinary piece in the same place only jumps a single piece.
    let plain = position(
        rules,
        0,
        &[
            &[(0, 0, 0), (1, -1, 0)],
            &[(2, -2, 0), (3, -3, 0), (-4, -4, 8)],
        ],
    );
    assert!(!destinations(&plain, (0, 0, 0)).contains(&(4, -4, 0)));
}

#[test]
fn no_piece_jumps_a_king() {
    let rules = r#"{"rule_set":"japanese","pieces":15}"#;
    let text = format!(
        r#"{{"rules":{rules},"seats":[[[0,0,0],{{"at":[0,2,-2],"king":true}}],[{{"at":[1,-1,0],"king":true}},[0,1,-1],[-4,-4,8]]]}}"#
    );
    let game = Game::from_position_json(&text).unwrap();
    let dests = destinations(&game, (0, 0, 0));
    assert!(!dests.contains(&(2, -2, 0)), "jumped the opponent's king");
    // The king at (0,2,-2) jumps the row (0,1,-1),(0,0,0): no king in it.
    assert!(destinations(&game, (0, 2, -2)).contains(&(0, -1, 1)));
    // A king's row may not contain a king.
    let text = format!(
        r#"{{"rules":{rules},"seats":[[{{"at":[0,0,0],"king":true}}],[[1,-1,0],{{"at":[2,-2,0],"king":true}},[-4,-4,8]]]}}"#
    );
    let kings = Game::from_position_json(&text).unwrap();
    assert!(!destinations(&kings, (0, 0, 0)).contains(&(3, -3, 0)));
}

#[test]
fn japanese_forbids_other_colour_camps() {
    // 3 players: seat 0 (camp 0 -> 3) may not land in camps 1, 2, 4, 5 (15 holes each).
    let seats: [&[C]; 3] = [&[(3, -1, -2)], &[(4, -8, 4)], &[(-8, 4, 4)]];
    let japanese = position(
        r#"{"players":3,"rule_set":"japanese","pieces":15}"#,
        0,
        &seats,
    );
    let dests = destinations(&japanese, (3, -1, -2));
    assert!(
        !dests.contains(&(4, -1, -3)) && !dests.contains(&(4, -2, -2)),
        "{dests:?}"
    );
    let international = position(r#"{"players":3,"pieces":15}"#, 0, &seats);
    assert!(destinations(&international, (3, -1, -2)).contains(&(4, -1, -3)));
}

#[test]
fn japanese_forbids_landing_in_other_camps_even_within_a_chain() {
    // The only way to (2,0,-2) goes through (4,-2,-2), in camp 1.
    let rules = r#"{"players":3,"rule_set":"japanese","pieces":15}"#;
    let seats: [&[C]; 3] = [
        &[(2, -2, 0), (3, -2, -1), (3, -1, -2)],
        &[(4, -8, 4)],
        &[(-8, 4, 4)],
    ];
    let game = position(rules, 0, &seats);
    assert!(!destinations(&game, (2, -2, 0)).contains(&(2, 0, -2)));
    let international = position(r#"{"players":3,"pieces":15}"#, 0, &seats);
    assert!(destinations(&international, (2, -2, 0)).contains(&(2, 0, -2)));
}

#[test]
fn japanese_kings_start_on_the_tips() {
    let game = Game::new(Rules::japanese(2), Seat(0)).unwrap();
    let kings: Vec<Cell> = game.kings().collect();
    assert_eq!(kings.len(), 2);
    assert!(
        kings.contains(&Camp::new(0).unwrap().tip())
            && kings.contains(&Camp::new(3).unwrap().tip())
    );
    assert_eq!(game.seat_pieces_of(Seat(0)).count(), 15);
}

#[test]
fn japanese_finish_needs_king_on_tip() {
    let home = camp(3, 15);
    let pieces = |king: C| {
        let items: Vec<String> = home
            .iter()
            .map(|&(x, y, z)| format!(r#"{{"at":[{x},{y},{z}],"king":{}}}"#, (x, y, z) == king))
            .collect();
        format!(
            r#"{{"rules":{{"rule_set":"japanese","pieces":15}},"seats":[[{}],[[4,4,-8]]]}}"#,
            items.join(",")
        )
    };
    let on_tip = Game::from_position_json(&pieces((-4, -4, 8))).unwrap();
    assert_eq!(on_tip.outcome().map(|o| o.place(Seat(0))), Some(Some(1)));
    let off_tip = Game::from_position_json(&pieces((-4, -3, 7))).unwrap();
    assert!(!off_tip.is_over());
}

#[test]
fn long_jump_lands_as_far_beyond() {
    let seats: [&[C]; 2] = [&[(0, 0, 0)], &[(2, -2, 0), (-4, -4, 8)]];
    let long = position(r#"{"long_jumps":true}"#, 0, &seats);
    assert!(destinations(&long, (0, 0, 0)).contains(&(4, -4, 0)));
    let plain = position("{}", 0, &seats);
    assert!(!destinations(&plain, (0, 0, 0)).contains(&(4, -4, 0)));
    let blocked = position(
        r#"{"long_jumps":true}"#,
        0,
        &[&[(0, 0, 0)], &[(2, -2, 0), (3, -3, 0), (-4, -4, 8)]],
    );
    assert!(!destinations(&blocked, (0, 0, 0)).contains(&(4, -4, 0)));
}

#[test]
fn no_resting_in_foreign_camps_allows_passing_through() {
    let seats: [&[C]; 2] = [&[(4, -2, -2)], &[(5, -2, -3), (5, -1, -4), (-4, -4, 8)]];
    let game = position(r#"{"no_resting_in_foreign_camps":true}"#, 0, &seats);
    let dests = destinations(&game, (4, -2, -2));
    assert!(!dests.contains(&(6, -2, -4)), "rested in camp 1");
    assert!(
        dests.contains(&(4, 0, -4)),
        "passing through camp 1 is allowed: {dests:?}"
    );
    let free = position("{}", 0, &seats);
    assert!(destinations(&free, (4, -2, -2)).contains(&(6, -2, -4)));
}

#[test]
fn no_leaving_destination() {
    let seats: [&[C]; 2] = [&[(-1, -4, 5)], &[(4, 4, -8)]];
    let game = position(r#"{"no_leaving_destination":true}"#, 0, &seats);
    let dests = destinations(&game, (-1, -4, 5));
    assert!(!dests.is_empty());
    let camp3 = camp(3, 10);
    assert!(dests.iter().all(|d| camp3.contains(d)), "{dests:?}");
    let free = position("{}", 0, &seats);
    assert!(destinations(&free, (-1, -4, 5)).contains(&(-1, -3, 4)));
}

/// Seat 1's only piece on the tip of camp 2, walled in.
fn walled_in_three_players(rules: &str) -> Game {
    position(
        rules,
        0,
        &[
            &[(0, 0, 0), (4, -7, 3), (3, -7, 4)],
            &[(4, -8, 4)],
            &[(4, -6, 2), (2, -6, 4), (-8, 4, 4)],
        ],
    )
}

#[test]
fn automatic_pass_when_no_legal_move() {
    let mut game = walled_in_three_players(r#"{"players":3}"#);
    let events = game.play(mv((0, 0, 0), (0, 1, -1))).unwrap();
    assert_eq!(events.passes, vec![Seat(1)]);
    assert_eq!(game.to_move(), Seat(2));
    assert_eq!(game.turns(Seat(1)), 1);
}

#[test]
fn finished_players_are_skipped() {
    let mut game = position(
        r#"{"players":3}"#,
        1,
        &[&camp(3, 10), &[(4, -8, 4)], &[(-8, 4, 4)]],
    );
    assert!(game.has_finished(Seat(0)));
    assert_eq!(game.place(Seat(0)), Some(1));
    game.play(mv((4, -8, 4), (4, -7, 3))).unwrap();
    assert_eq!(game.to_move(), Seat(2));
    game.play(mv((-8, 4, 4), (-7, 4, 3))).unwrap();
    assert_eq!(game.to_move(), Seat(1));
}

/// 3 players each one step from finishing (seat 2 is further off).
fn race(rules: &str) -> Game {
    let almost = |n: u8, last: C, outside: C| {
        let mut v: Vec<C> = camp(n, 10).into_iter().filter(|&c| c != last).collect();
        v.push(outside);
        v
    };
    let seat0 = almost(3, (-1, -4, 5), (-1, -3, 4));
    let seat1 = almost(5, (-1, 5, -4), (-1, 4, -3));
    let seat2: Vec<C> = camp(1, 10).into_iter().take(7).chain([(0, 0, 0)]).collect();
    position(rules, 0, &[&seat0, &seat1, &seat2])
}

#[test]
fn play_to_the_end_gives_every_place() {
    let mut game = race(r#"{"players":3}"#);
    let events = game.play(mv((-1, -3, 4), (-1, -4, 5))).unwrap();
    assert_eq!(
        events.finished,
        vec![Finished {
            seat: Seat(0),
            place: 1
        }]
    );
    assert!(!game.is_over());
    assert_eq!(game.to_move(), Seat(1));
    let events = game.play(mv((-1, 4, -3), (-1, 5, -4))).unwrap();
    assert_eq!(
        events.finished,
        vec![Finished {
            seat: Seat(1),
            place: 2
        }]
    );
    let outcome = events.outcome.unwrap();
    assert_eq!(
        (outcome.ending(), outcome.places()),
        (Ending::Finished, Some(&[1, 2, 3][..]))
    );
}

#[test]
fn play_to_the_end_off_ends_at_first_finisher() {
    let mut game = race(r#"{"players":3,"play_to_the_end":false}"#);
    let outcome = game
        .play(mv((-1, -3, 4), (-1, -4, 5)))
        .unwrap()
        .outcome
        .unwrap();
    assert_eq!(outcome.ending(), Ending::FirstFinished);
    assert_eq!(
        outcome.places(),
        Some(&[1, 2, 3][..]),
        "seat 1 has 9 pieces home, seat 2 only 7"
    );
}

#[test]
fn move_limit_draw() {
    let mut game = Game::new(
        Rules {
            move_limit: 2,
            ..Rules::default()
        },
        Seat(1),
    )
    .unwrap();
    for _ in 0..4 {
        assert!(!game.is_over());
        let m = game.legal_moves_vec()[0];
        game.play(m).unwrap();
    }
    let outcome = game.outcome().unwrap();
    assert_eq!(
        (outcome.ending(), outcome.places()),
        (Ending::MoveLimit, Some(&[1, 1][..]))
    );
    assert!(outcome.is_draw());
    assert_eq!((game.turns(Seat(0)), game.turns(Seat(1))), (2, 2));
}

#[test]
fn move_limit_shares_the_remaining_places() {
    let mut game = position(
        r#"{"players":3,"move_limit":1}"#,
        1,
        &[&camp(3, 10), &[(4, -8, 4)], &[(-8, 4, 4)]],
    );
    game.play(mv((4, -8, 4), (4, -7, 3))).unwrap();
    let outcome = game
        .play(mv((-8, 4, 4), (-7, 4, 3)))
        .unwrap()
        .outcome
        .unwrap();
    assert_eq!(
        (outcome.ending(), outcome.places()),
        (Ending::MoveLimit, Some(&[1, 2, 2][..]))
    );
}

#[test]
fn stagnation_ranks_by_pieces_then_distance() {
    // Each player steps away from home: nobody improves, and after one round the game ends.
    let seats: [&[C]; 3] = [
        &[(-4, -4, 8), (-4, -3, 7), (0, 0, 0)],
        &[(-4, 8, -4), (-2, 2, 0)],
        &[(8, -4, -4), (0, -2, 2)],
    ];
    let mut game = position(r#"{"players":3,"stagnation_rounds":1}"#, 0, &seats);
    game.play(mv((0, 0, 0), (0, 1, -1))).unwrap();
    game.play(mv((-2, 2, 0), (-1, 1, 0))).unwrap();
    assert!(!game.is_over());
    let outcome = game
        .play(mv((0, -2, 2), (-1, -1, 2)))
        .unwrap()
        .outcome
        .unwrap();
    assert_eq!(outcome.ending(), Ending::Stagnation);
    // Seat 0 has 2 pieces home; seats 1 and 2 one each, seat 1 nearer (4 against 6).
    assert_eq!(game.standing(Seat(1)).distance, 4);
    assert_eq!(game.standing(Seat(2)).distance, 6);
    assert_eq!(outcome.places(), Some(&[1, 2, 3][..]));
}

#[test]
fn stagnation_counter_resets_on_progress() {
    let mut game = Game::new(
        Rules {
            stagnation_rounds: 1,
            ..Rules::default()
        },
        Seat(0),
    )
    .unwrap();
    game.play(mv((1, 4, -5), (1, 3, -4))).unwrap();
    assert_eq!(game.quiet_turns(), 0);
    game.play(mv((-1, -4, 5), (-1, -3, 4))).unwrap();
    assert_eq!(game.quiet_turns(), 0);
    game.play(mv((1, 3, -4), (1, 4, -5))).unwrap();
    assert_eq!(game.quiet_turns(), 1);
    assert!(!game.is_over());
}

#[test]
fn equal_standings_share_a_place() {
    let seats: [&[C]; 3] = [&[(0, 0, 0)], &[(1, -2, 1)], &[(-2, 1, 1)]];
    let mut game = position(r#"{"players":3,"stagnation_rounds":1}"#, 0, &seats);
    game.play(mv((0, 0, 0), (0, 1, -1))).unwrap();
    game.play(mv((1, -2, 1), (2, -3, 1))).unwrap();
    let outcome = game.play(mv((-2, 1, 1), (-3, 2, 1))).unwrap().outcome;
    let outcome = outcome.unwrap();
    let places = outcome.places().unwrap();
    let standings: Vec<_> = (0..3).map(|s| game.standing(Seat(s))).collect();
    for a in 0..3 {
        for b in 0..3 {
            assert_eq!(
                standings[a] == standings[b],
                places[a] == places[b],
                "{standings:?} {places:?}"
            );
        }
    }
}

#[test]
fn resign_two_players_other_wins() {
    let mut game = Game::new(Rules::default(), Seat(0)).unwrap();
    let outcome = game.resign(Seat(0)).unwrap().outcome.unwrap();
    assert_eq!(
        (outcome.ending(), outcome.places()),
        (Ending::Resignation, Some(&[2, 1][..]))
    );
    assert_eq!(
        game.seat_pieces_of(Seat(0)).count(),
        10,
        "2 players: the board stays"
    );
    assert!(game.resign(Seat(1)).is_err());
}

#[test]
fn resign_three_players_removes_pieces_takes_last_place() {
    let mut game = start(3, 0);
    let events = game.resign(Seat(1)).unwrap();
    assert!(events.outcome.is_none());
    assert_eq!(game.place(Seat(1)), Some(3));
    assert!(game.seat_pieces_of(Seat(1)).is_empty());
    game.check_invariants().unwrap();
    assert_eq!(game.to_move(), Seat(0));
    let m = game.legal_moves_vec()[0];
    game.play(m).unwrap();
    assert_eq!(game.to_move(), Seat(2), "the resigner is skipped");
    let outcome = game.resign(Seat(2)).unwrap().outcome.unwrap();
    assert_eq!(
        (outcome.ending(), outcome.places()),
        (Ending::Resignation, Some(&[1, 3, 2][..]))
    );
}

#[test]
fn resign_of_the_side_to_move_passes_the_turn() {
    let mut game = start(4, 0);
    game.resign(Seat(0)).unwrap();
    assert_eq!(game.to_move(), Seat(1));
    assert_eq!(game.place(Seat(0)), Some(4));
}

#[test]
fn abandon_has_no_result() {
    let mut game = start(4, 0);
    let outcome = game.abandon().unwrap();
    assert_eq!(outcome.ending(), Ending::Abandoned);
    assert_eq!(outcome.places(), None);
    assert!(outcome.winners().is_empty());
    assert!(game.abandon().is_err());
    assert_eq!(
        serde_json::to_string(&outcome).unwrap(),
        r#"{"ending":"abandoned","places":null}"#
    );
}

#[test]
fn stop_ranks_the_players_still_playing_after_those_placed() {
    let mut game = start(3, 0);
    game.resign(Seat(0)).unwrap();
    let outcome = game.stop().unwrap();
    assert_eq!(outcome.ending(), Ending::Stopped);
    // The resigner keeps its last place; the two left share or split the first two places by
    // the stagnation ranking (level at the start: they share).
    assert_eq!(outcome.places(), Some(&[3, 1, 1][..]));
    assert!(game.is_over());
    assert!(game.stop().is_err());
    assert_eq!(
        serde_json::to_string(&outcome).unwrap(),
        r#"{"ending":"stopped","places":[3,1,1]}"#
    );
}

#[test]
fn filled_unused_camps_hold_inert_pieces() {
    let two = Game::new(
        Rules {
            unused_camps: chinese_checkers::UnusedCamps::Filled,
            ..Rules::default()
        },
        Seat(0),
    );
    let two = two.unwrap();
    assert_eq!(two.inert_pieces().count(), 40);
    let piece = two.piece_at(Camp::new(1).unwrap().tip()).unwrap();
    assert_eq!((piece.seat, piece.colour), (None, None));
    assert!(two
        .legal_moves_vec()
        .iter()
        .all(|m| !two.inert_pieces().contains(m.from)));
    let four = Rules {
        players: 4,
        unused_camps: chinese_checkers::UnusedCamps::Filled,
        ..Rules::default()
    };
    assert_eq!(Game::new(four, Seat(0)).unwrap().inert_pieces().count(), 20);
    let three = Rules {
        players: 3,
        unused_camps: chinese_checkers::UnusedCamps::Filled,
        ..Rules::default()
    };
    assert_eq!(
        Game::new(three, Seat(0)).unwrap().inert_pieces().count(),
        0,
        "every camp is used"
    );
}

#[test]
fn two_sets_finish_when_both_sets_finish() {
    // Seat 0 plays camps 0 and 1 towards 3 and 4: set 0 is home, set 1 one step short.
    let set1: Vec<String> = camp(4, 10)
        .into_iter()
        .filter(|&c| c != (-5, 4, 1))
        .chain([(-4, 4, 0)])
        .map(|(x, y, z)| format!(r#"{{"at":[{x},{y},{z}],"set":1}}"#))
        .collect();
    let text = format!(
        r#"{{"rules":{{"sets":2}},"seats":[[{},{}],[[4,4,-8]]]}}"#,
        json_cells(&camp(3, 10)),
        set1.join(",")
    );
    let mut game = Game::from_position_json(&text).unwrap();
    assert!(!game.is_over());
    let events = game.play(mv((-4, 4, 0), (-5, 4, 1))).unwrap();
    assert_eq!(
        events.finished,
        vec![Finished {
            seat: Seat(0),
            place: 1
        }]
    );
}

#[test]
fn fifteen_piece_camps_start_full() {
    let rules = Rules {
        pieces: 15,
        ..Rules::default()
    };
    let game = Game::new(rules, Seat(0)).unwrap();
    assert_eq!(
        game.seat_pieces_of(Seat(0)),
        Camp::new(0).unwrap().cells(15)
    );
    assert_eq!(
        game.count_legal_moves(),
        22,
        "as in variants.perft, confirmed by the reference"
    );
}

#[test]
fn hash_is_incremental_and_depends_on_side_to_move() {
    let mut game = Game::new(Rules::default(), Seat(0)).unwrap();
    let other_first = Game::new(Rules::default(), Seat(1)).unwrap();
    assert_ne!(game.hash(), other_first.hash());
    let start = game.hash();
    game.play(mv((1, 4, -5), (1, 3, -4))).unwrap();
    game.play(mv((-1, -4, 5), (-1, -3, 4))).unwrap();
    game.play(mv((1, 3, -4), (1, 4, -5))).unwrap();
    game.play(mv((-1, -3, 4), (-1, -4, 5))).unwrap();
    assert_eq!(game.hash(), start, "same pieces, same side to move");
    game.check_invariants().unwrap();
}

#[test]
fn first_seat_moves_first() {
    let game = start(3, 2);
    assert_eq!(game.to_move(), Seat(2));
    assert!(game
        .legal_moves_vec()
        .iter()
        .all(|m| game.seat_pieces_of(Seat(2)).contains(m.from)));
    assert!(Game::new(Rules::default(), Seat(2)).is_err());
}

#[test]
fn blocked_game_ends_when_nobody_can_move() {
    // Seat 1 has no piece left to move and seat 0's only piece is walled in on the tip of camp 2.
    let walled = [(4, -8, 4)];
    let wall: [C; 4] = [(4, -7, 3), (3, -7, 4), (4, -6, 2), (2, -6, 4)];
    let text = format!(
        r#"{{"rules":{{"players":2}},"seats":[[{}],[]],"inert":[{}]}}"#,
        json_cells(&walled),
        json_cells(&wall)
    );
    let game = Game::from_position_json(&text).unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.ending(), Ending::Blocked);
    // Ranked as for stagnation: no piece home on either side, and seat 1 has no distance left.
    assert_eq!(outcome.places(), Some(&[2, 1][..]));
}

#[test]
fn serde_forms_use_cube_coordinates() {
    let m = mv((1, 4, -5), (1, 3, -4));
    let json = serde_json::to_string(&m).unwrap();
    assert_eq!(json, r#"{"from":[1,4,-5],"to":[1,3,-4]}"#);
    assert_eq!(serde_json::from_str::<Move>(&json).unwrap(), m);
    assert!(serde_json::from_str::<Move>(r#"{"from":[9,9,-18],"to":[0,0,0]}"#).is_err());
    assert_eq!(serde_json::to_string(&Camp::new(4).unwrap()).unwrap(), "4");
    let mut game = Game::new(Rules::default(), Seat(0)).unwrap();
    let outcome = game.resign(Seat(1)).unwrap().outcome.unwrap();
    let json = serde_json::to_string(&outcome).unwrap();
    assert_eq!(json, r#"{"ending":"resignation","places":[1,2]}"#);
    assert_eq!(
        serde_json::from_str::<chinese_checkers::Outcome>(&json).unwrap(),
        outcome
    );
}

#[test]
fn resigning_twice_or_after_the_end_is_refused() {
    let mut game = start(3, 0);
    game.resign(Seat(2)).unwrap();
    assert_eq!(
        game.resign(Seat(2)),
        Err(chinese_checkers::ResignError::NotPlaying(Seat(2)))
    );
    assert_eq!(
        game.resign(Seat(7)),
        Err(chinese_checkers::ResignError::NotPlaying(Seat(7)))
    );
    game.resign(Seat(0)).unwrap();
    assert!(game.is_over());
    assert_eq!(
        game.resign(Seat(1)),
        Err(chinese_checkers::ResignError::GameOver)
    );
}

#[test]
fn several_passes_are_reported_in_turn_order() {
    // Seats 1 and 2 of 4 have no piece (nothing to move): both pass after seat 0.
    let mut game = position(
        r#"{"players":4}"#,
        0,
        &[&[(0, 0, 0)], &[], &[], &[(-8, 4, 4)]],
    );
    let events = game.play(mv((0, 0, 0), (0, 1, -1))).unwrap();
    assert_eq!(events.passes, vec![Seat(1), Seat(2)]);
    assert_eq!(game.to_move(), Seat(3));
}

#[test]
fn moves_grouped_by_piece_match_the_list() {
    let game = start(3, 0);
    let mut grouped = Vec::new();
    game.for_each_piece_move(|from, to| grouped.extend(to.map(|t| Move::new(from, t))));
    assert_eq!(grouped, game.legal_moves_vec());
}

#[test]
fn play_for_plays_a_seat_out_of_turn_then_the_turn_passes_on_from_it() {
    use chinese_checkers::{PlayForError, TurnError};
    let mut game = start(4, 0);
    let mut seat2 = game;
    seat2.give_turn(Seat(2)).unwrap();
    let m = seat2.legal_moves_vec()[0];
    let mut played = game;
    let events = played.play_for(Seat(2), m).unwrap();
    assert!(events.outcome.is_none());
    assert_eq!(
        played.to_move(),
        Seat(3),
        "the turn passes on from the seat that played"
    );
    assert_eq!(played.turns(Seat(2)), 1);
    assert_eq!(played.turns(Seat(0)), 0);
    played.check_invariants().unwrap();
    // The hash is the one of the same position reached in turn.
    let mut in_turn = start(4, 2);
    in_turn.play(m).unwrap();
    assert_eq!(played.hash(), in_turn.hash());
    // Seat 0's move is not seat 2's: refused, nothing changed.
    let own = game.legal_moves_vec()[0];
    let before = game;
    assert!(matches!(
        game.play_for(Seat(2), own),
        Err(PlayForError::Move(IllegalMove::NotYourPiece(_)))
    ));
    assert_eq!(game, before);
    assert_eq!(
        game.play_for(Seat(4), own),
        Err(PlayForError::Turn(TurnError::NotPlaying(Seat(4))))
    );
    assert_eq!(game, before);
}

#[test]
fn give_turn_refuses_a_seat_that_is_out_or_cannot_move() {
    use chinese_checkers::TurnError;
    let mut game = start(3, 0);
    game.resign(Seat(1)).unwrap();
    assert_eq!(game.give_turn(Seat(1)), Err(TurnError::NotPlaying(Seat(1))));
    game.give_turn(Seat(2)).unwrap();
    assert_eq!(game.to_move(), Seat(2));
    game.check_invariants().unwrap();
    // Seat 1 has no piece: it cannot be given the turn.
    let mut empty = position(r#"{"players":2}"#, 0, &[&[(0, 0, 0)], &[]]);
    let before = empty;
    assert_eq!(empty.give_turn(Seat(1)), Err(TurnError::NoMove(Seat(1))));
    assert_eq!(empty, before);
    empty.abandon().unwrap();
    assert_eq!(empty.give_turn(Seat(0)), Err(TurnError::GameOver));
}
