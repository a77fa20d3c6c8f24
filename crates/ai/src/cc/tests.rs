use super::*;
use chinese_checkers::{Camp, Cell, Ending, RuleSet, Rules, Seat, UnusedCamps};
use std::time::Duration;

fn limits(seed: u64) -> Limits {
    Limits {
        seed,
        time: Duration::from_secs(5),
        ..Limits::default()
    }
}

fn nodes(n: u64) -> Budget {
    Budget {
        nodes: Some(n),
        depth: None,
    }
}

fn cube(c: Cell) -> String {
    let [x, y, z] = c.to_cube();
    format!("[{x},{y},{z}]")
}

/// A 2-player position file from cube coordinates.
fn position(to_move: u8, seat0: &[[i32; 3]], seat1: &[[i32; 3]]) -> Game {
    let list = |cells: &[[i32; 3]]| {
        cells
            .iter()
            .map(|&[x, y, z]| cube(Cell::from_cube(x, y, z).expect("hole")))
            .collect::<Vec<_>>()
            .join(",")
    };
    let json = format!(
        r#"{{"to_move":{to_move},"seats":[[{}],[{}]]}}"#,
        list(seat0),
        list(seat1)
    );
    Game::from_position_json(&json).expect("valid position")
}

/// Every rule variant of RULES.md part 1 that changes the moves or the camps.
fn variants() -> Vec<Rules> {
    let base = Rules::default();
    let mut v = vec![base];
    for players in 3..=6 {
        v.push(Rules { players, ..base });
    }
    v.push(Rules { sets: 2, ..base });
    v.push(Rules { sets: 3, ..base });
    v.push(Rules {
        players: 3,
        sets: 2,
        ..base
    });
    v.push(Rules { pieces: 15, ..base });
    v.push(Rules::japanese(2));
    v.push(Rules::japanese(3));
    v.push(Rules {
        players: 4,
        unused_camps: UnusedCamps::Filled,
        ..base
    });
    v.push(Rules {
        no_resting_in_foreign_camps: true,
        ..base
    });
    v.push(Rules {
        players: 3,
        forced_exit: true,
        ..base
    });
    v.push(Rules {
        no_leaving_destination: true,
        ..base
    });
    v.push(Rules {
        swap_rule: true,
        anti_blocking: false,
        ..base
    });
    v.push(Rules {
        long_jumps: true,
        players: 3,
        ..base
    });
    v.push(Rules {
        players: 3,
        play_to_the_end: false,
        ..base
    });
    assert!(v.iter().all(|r| r.validate().is_ok()));
    assert!(v.iter().any(|r| r.rule_set == RuleSet::Japanese));
    v
}

#[test]
fn every_rule_variant_gets_a_legal_move_in_random_positions() {
    for (i, rules) in variants().into_iter().enumerate() {
        let mut rng = Rng::new(i as u64);
        for playout in 0..3 {
            let mut game = Game::new(rules, Seat(0)).unwrap();
            let plies = 10 + 25 * playout;
            for _ in 0..plies {
                if game.is_over() {
                    break;
                }
                let moves = game.legal_moves_vec();
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
            if game.is_over() {
                continue;
            }
            for level in Level::ALL {
                let a = analyse(&game, level, &limits(playout), &nodes(800)).unwrap();
                assert!(game.is_legal(a.best), "{rules:?} {level:?}: {}", a.best);
            }
            if rules.players > 2 {
                for multi in [MultiSearch::MaxN, MultiSearch::BestReply] {
                    let a =
                        analyse_with(&game, Level::Expert, &limits(1), &nodes(800), multi).unwrap();
                    assert!(game.is_legal(a.best), "{multi:?}, {rules:?}");
                }
            }
        }
    }
}

#[test]
fn a_single_legal_move_is_played_at_once() {
    // Seat 0's only piece stands on its destination's tip: one step out, the jump is blocked.
    let game = position(0, &[[-4, -4, 8]], &[[-3, -4, 7], [-2, -4, 6], [0, 0, 0]]);
    assert_eq!(game.legal_moves_vec().len(), 1);
    let a = analyse(&game, Level::Expert, &limits(0), &Budget::default()).unwrap();
    assert_eq!(a.best, game.legal_moves_vec()[0]);
    assert!(a.elapsed < Duration::from_millis(50));
}

#[test]
fn a_forced_pass_is_searched_through() {
    // Seat 1's only piece is walled in on its start tip: it passes, seat 0 moves again.
    let game = position(
        1,
        &[
            [-4, -3, 7],
            [-3, -4, 7],
            [-4, -2, 6],
            [-2, -4, 6],
            [0, 1, -1],
        ],
        &[[-4, -4, 8]],
    );
    assert_eq!(game.to_move(), Seat(0), "seat 1 passed");
    for level in Level::ALL {
        let mv = analyse(&game, level, &limits(2), &nodes(3_000))
            .unwrap()
            .best;
        assert!(game.is_legal(mv));
    }
    let mut g = game;
    for k in 0..6 {
        let Some(mv) = analyse(&g, Level::Expert, &limits(k), &nodes(3_000)) else {
            break;
        };
        g.play(mv.best).unwrap();
    }
}

#[test]
fn near_the_move_limit_it_still_plays_legal_moves() {
    let rules = Rules {
        move_limit: 6,
        ..Rules::default()
    };
    let mut game = Game::new(rules, Seat(0)).unwrap();
    let mut plies = 0;
    while !game.is_over() {
        let mv = analyse(&game, Level::Expert, &limits(plies), &nodes(2_000))
            .unwrap()
            .best;
        game.play(mv).unwrap();
        plies += 1;
    }
    assert_eq!(plies, 12);
    assert_eq!(game.outcome().unwrap().ending(), Ending::MoveLimit);
}

/// Seat 0 has 9 pieces home and one piece two steps from the last hole.
fn finish_in_two() -> Game {
    let dest = Camp::new(3).unwrap().cells(10);
    let hole = Cell::from_cube(-2, -3, 5).unwrap();
    let mut seat0: Vec<[i32; 3]> = dest
        .filter(|&c| c != hole)
        .map(|c| c.to_cube().map(i32::from))
        .collect();
    seat0.push([-2, -1, 3]);
    let seat1 = [
        [4, -4, 0],
        [4, -3, -1],
        [3, -3, 0],
        [4, -2, -2],
        [3, -2, -1],
        [4, 0, -4],
        [3, 0, -3],
        [4, -1, -3],
        [3, -1, -2],
        [2, -2, 0],
    ];
    position(0, &seat0, &seat1)
}

#[test]
fn it_finds_a_finish_in_two() {
    let game = finish_in_two();
    let a = analyse(&game, Level::Expert, &limits(0), &nodes(50_000)).unwrap();
    assert!(crate::is_decisive(a.score) && a.score > 0, "{a:?}");
    let mut g = game;
    for k in 0..3 {
        if g.is_over() {
            break;
        }
        let mv = analyse(&g, Level::Expert, &limits(k), &nodes(50_000))
            .unwrap()
            .best;
        g.play(mv).unwrap();
    }
    assert_eq!(g.outcome().unwrap().winners(), vec![Seat(0)]);
}

#[test]
fn the_search_is_deterministic_for_a_seed_and_node_budget() {
    let mut game = Game::new(
        Rules {
            players: 3,
            ..Rules::default()
        },
        Seat(0),
    )
    .unwrap();
    for _ in 0..9 {
        let mv = greedy(&game, 4).unwrap();
        game.play(mv).unwrap();
    }
    for level in Level::ALL {
        let a = analyse(&game, level, &limits(9), &nodes(5_000)).unwrap();
        let b = analyse(&game, level, &limits(9), &nodes(5_000)).unwrap();
        assert_eq!(
            (a.best, a.score, a.pv, a.nodes),
            (b.best, b.score, b.pv, b.nodes)
        );
    }
}

#[test]
fn the_time_budget_is_respected() {
    let game = Game::new(Rules::default(), Seat(0)).unwrap();
    let budget = Duration::from_millis(200);
    let l = Limits {
        time: budget,
        ..Limits::default()
    };
    let a = analyse(&game, Level::Expert, &l, &Budget::default()).unwrap();
    // 10 % is the target (see docs/ai.md for the measured figure); slack for loaded CI machines.
    assert!(a.elapsed < budget * 3 / 2, "{:?}", a.elapsed);
    assert!(
        a.elapsed > budget * 8 / 10,
        "Expert uses its budget: {:?}",
        a.elapsed
    );
}

#[test]
fn a_cancelled_search_returns_nothing() {
    let game = Game::new(Rules::default(), Seat(0)).unwrap();
    let l = limits(1);
    l.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(choose(&game, Level::Expert, &l), None);
}

#[test]
fn the_greedy_player_takes_the_longest_forward_move() {
    let game = Game::new(Rules::default(), Seat(0)).unwrap();
    let mv = greedy(&game, 1).unwrap();
    let tip = Camp::new(0).unwrap().opposite().tip();
    let gain = |m: Move| i32::from(m.from.distance(tip)) - i32::from(m.to.distance(tip));
    let best = game.legal_moves_vec().into_iter().map(gain).max().unwrap();
    assert_eq!(gain(mv), best);
}

#[test]
fn two_experts_finish_a_game_without_shuffling() {
    let mut game = Game::new(Rules::default(), Seat(0)).unwrap();
    let mut plies = 0;
    while !game.is_over() {
        let mv = analyse(&game, Level::Expert, &limits(plies), &nodes(4_000))
            .unwrap()
            .best;
        game.play(mv).unwrap();
        plies += 1;
    }
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.ending(), Ending::Finished, "after {plies} plies");
    assert!(plies < 200, "{plies} plies");
}

#[test]
fn best_reply_search_lets_any_one_opponent_reply_then_the_searcher_moves() {
    let mut game = Game::new(
        Rules {
            players: 3,
            ..Rules::default()
        },
        Seat(0),
    )
    .unwrap();
    let first = game.legal_moves_vec()[0];
    game.play(first).unwrap();
    assert_eq!(game.to_move(), Seat(1));
    let clock = crate::time::Clock::new(Some(Duration::from_secs(5)), None, Default::default());
    let mut s = search::Searcher::new(&game, clock, 1 << 14, usize::MAX, true);
    s.root = Seat(0);
    let mut replies = Vec::new();
    s.generate(&game, None, 1, &mut replies);
    let seat_of = |mv: Move| game.piece_at(mv.from).and_then(|p| p.seat).unwrap();
    let mut seats: Vec<Seat> = replies.iter().map(|&(_, mv)| seat_of(mv)).collect();
    seats.dedup();
    assert_eq!(
        seats,
        vec![Seat(1), Seat(2)],
        "both opponents' moves, nobody else's"
    );
    let mut of_seat_2 = game;
    of_seat_2.give_turn(Seat(2)).unwrap();
    assert_eq!(
        replies.len(),
        game.legal_moves_vec().len() + of_seat_2.legal_moves_vec().len()
    );
    // Seat 2 replies out of turn; seat 1 does not move, and seat 0 is to move again.
    let reply = replies
        .iter()
        .map(|&(_, mv)| mv)
        .find(|&mv| seat_of(mv) == Seat(2))
        .unwrap();
    let child = crate::search::Tree::play(&mut s, &game, reply, 2);
    assert_eq!(child.to_move(), Seat(0));
    assert!(child.piece_at(reply.to).is_some() && child.piece_at(reply.from).is_none());
    assert_eq!(child.seat_pieces_of(Seat(1)), game.seat_pieces_of(Seat(1)));
}

#[test]
fn expert_crosses_alone_without_shuffling() {
    // The crossing puzzle (optimum 27, Bell 2009) as a game of the rules engine. Alone, Expert
    // plans the whole crossing (`solitaire::beam`) instead of searching: 27 moves, the optimum
    // (36 with the search, which shuffled for ever before repetitions were scored alone; issue
    // 12 asks for 30 at most). The planner's tables are built first, as a server does at start
    // (`crate::warm_up`), so that no move falls back to the search while they are built.
    crate::warm_up();
    let mut game = chinese_checkers::Solitaire::start().to_game();
    let mut moves = 0;
    while !game.is_over() && moves < 60 {
        let a = analyse(&game, Level::Expert, &limits(moves), &nodes(40_000)).unwrap();
        game.play(a.best).unwrap();
        moves += 1;
    }
    eprintln!("Expert alone: across in {moves} moves");
    assert!(game.has_finished(Seat(0)), "not across in {moves} moves");
    assert!(moves <= 30, "{moves} moves");
}

#[test]
fn expert_alone_plans_the_crossing_from_either_side_and_only_alone() {
    use chinese_checkers::position_file::PieceEntry;
    use chinese_checkers::{PositionFile, Solitaire};
    // Seat 1 alone, from camp 3 to camp 0: the mirrored puzzle; its plan is played back mirrored.
    crate::warm_up();
    let pieces = |p: Solitaire| -> Vec<PieceEntry> { p.pieces().map(PieceEntry::At).collect() };
    let file = |seats: Vec<Vec<PieceEntry>>, to_move: u8, rules: Rules| PositionFile {
        rules,
        to_move,
        seats,
        inert: None,
        state: None,
    };
    let game = file(
        vec![Vec::new(), pieces(Solitaire::goal())],
        1,
        Rules::default(),
    )
    .to_game()
    .unwrap();
    let (position, mirrored) = solitaire::from_game(&game).unwrap();
    assert!(mirrored);
    assert_eq!(position, Solitaire::start());
    let a = analyse(&game, Level::Expert, &limits(0), &nodes(40_000)).unwrap();
    assert!(game.legal_moves_vec().contains(&a.best));
    assert!(a.pv.len() <= 30, "{} moves planned", a.pv.len());
    let mut replay = game;
    for mv in &a.pv {
        replay.play(*mv).unwrap();
    }
    assert!(replay.has_finished(Seat(1)));
    // Not alone (an opponent's piece stands on the board), or rules with other moves: the
    // ordinary search.
    let mut crowded = pieces(Solitaire::goal());
    crowded.truncate(9);
    let game = file(
        vec![pieces(Solitaire::start()), crowded],
        0,
        Rules::default(),
    )
    .to_game()
    .unwrap();
    assert!(solitaire::from_game(&game).is_none());
    let long = Rules {
        long_jumps: true,
        ..Rules::default()
    };
    let game = file(vec![pieces(Solitaire::start()), Vec::new()], 0, long)
        .to_game()
        .unwrap();
    assert!(solitaire::from_game(&game).is_none());
}
