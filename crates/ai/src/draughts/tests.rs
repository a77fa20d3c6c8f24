use super::*;
use draughts::{Rules, Variant};
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

#[test]
fn every_variant_gets_a_legal_move_in_random_positions() {
    for variant in Variant::ALL {
        let mut rng = Rng::new(variant as u64);
        for playout in 0..4 {
            let mut game = Game::new(Rules::new(variant));
            for _ in 0..(15 * playout) {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                game.play_notation(&moves[rng.below(moves.len())].notation)
                    .unwrap();
            }
            if game.outcome().is_some() {
                continue;
            }
            for level in Level::ALL {
                let a = analyse(&game, level, &limits(playout), &nodes(2_000)).unwrap();
                assert!(
                    game.legal_moves().contains(&a.best),
                    "{variant:?} {level:?}"
                );
                assert!(!a.pv.is_empty());
            }
        }
    }
}

#[test]
fn a_single_legal_move_is_played_at_once() {
    // The capture 28x19 is forced.
    let game = Game::from_fen(Rules::new(Variant::International), "W:W28,46:B23,5").unwrap();
    assert_eq!(game.legal_moves().len(), 1);
    let a = analyse(&game, Level::Expert, &limits(0), &Budget::default()).unwrap();
    assert_eq!(a.best.notation, "28x19");
    assert!(a.elapsed < Duration::from_millis(50));
}

#[test]
fn it_finds_a_two_for_one_shot() {
    // 32-28! 23x32 forced, then 37x28x17 takes Black's last two men.
    let game = Game::from_fen(Rules::new(Variant::International), "W:W32,33,37,41:B22,23").unwrap();
    let a = analyse(&game, Level::Expert, &limits(0), &nodes(200_000)).unwrap();
    let pvs: Vec<&str> = a.pv.iter().map(|m| m.notation.as_str()).collect();
    assert_eq!(a.best.notation, "32-28", "{pvs:?} {}", a.score);
    assert!(crate::is_decisive(a.score) && a.score > 0, "{a:?}");
    let pv: Vec<&str> = a.pv.iter().map(|m| m.notation.as_str()).collect();
    assert_eq!(&pv[..3], &["32-28", "23x32", "37x28x17"], "{pv:?}");
}

#[test]
fn it_finds_a_won_ending() {
    // Two kings against a lone man: the man cannot escape.
    let game = Game::from_fen(Rules::new(Variant::Brazilian), "W:WK29,K30:B5").unwrap();
    let a = analyse(&game, Level::Expert, &limits(0), &nodes(400_000)).unwrap();
    assert!(a.score > 200, "{a:?}");
}

#[test]
fn the_search_is_deterministic_for_a_seed_and_node_budget() {
    let mut game = Game::new(Rules::new(Variant::International));
    for n in ["32-28", "19-23", "28x19", "14x23"] {
        game.play_notation(n).unwrap();
    }
    for level in Level::ALL {
        let a = analyse(&game, level, &limits(3), &nodes(20_000)).unwrap();
        let b = analyse(&game, level, &limits(3), &nodes(20_000)).unwrap();
        assert_eq!(
            (a.best, a.score, a.pv, a.nodes),
            (b.best, b.score, b.pv, b.nodes)
        );
    }
}

#[test]
fn the_time_budget_is_respected() {
    let game = Game::new(Rules::new(Variant::International));
    let budget = Duration::from_millis(200);
    let l = Limits {
        time: budget,
        ..Limits::default()
    };
    let a = analyse(&game, Level::Expert, &l, &Budget::default()).unwrap();
    assert!(a.elapsed < budget * 3 / 2, "{:?}", a.elapsed);
    assert!(a.elapsed > budget * 8 / 10, "{:?}", a.elapsed);
}

#[test]
fn repetitions_are_draws_in_the_search() {
    // Kings only, level material: the search sees no progress and scores near zero.
    let game = Game::from_fen(Rules::new(Variant::International), "W:WK47,K50:BK1,K4").unwrap();
    let a = analyse(&game, Level::Expert, &limits(0), &nodes(50_000)).unwrap();
    assert!(a.score.abs() < 50, "{a:?}");
}

#[test]
fn a_cancelled_search_returns_nothing() {
    let game = Game::new(Rules::new(Variant::International));
    let l = limits(1);
    l.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(choose(&game, Level::Expert, &l), None);
}

#[test]
fn two_players_finish_a_game() {
    let mut game = Game::new(Rules::new(Variant::Brazilian));
    let mut n = 0;
    while game.outcome().is_none() {
        let level = if n % 2 == 0 {
            Level::Expert
        } else {
            Level::Normal
        };
        let mv = analyse(&game, level, &limits(n), &nodes(3_000))
            .unwrap()
            .best;
        game.play_notation(&mv.notation).unwrap();
        n += 1;
        assert!(n < 2000);
    }
}

#[test]
fn a_table_kept_between_searches_saves_work() {
    use draughts::{GameOf, International};
    let game = GameOf::<International>::new(Rules::new(Variant::International));
    let depth = Budget {
        nodes: None,
        depth: Some(6),
    };
    let mut table = crate::Table::new(4);
    let fresh = analyse_of(&game, Level::Expert, &limits(0), &depth, &mut |_| {}).unwrap();
    let first = analyse_in(
        &game,
        Level::Expert,
        &limits(0),
        &depth,
        Some(&mut table),
        &mut |_| {},
    );
    let again = analyse_in(
        &game,
        Level::Expert,
        &limits(0),
        &depth,
        Some(&mut table),
        &mut |_| {},
    );
    let (first, again) = (first.unwrap(), again.unwrap());
    assert_eq!((first.best, first.score), (fresh.best, fresh.score));
    assert_eq!(again.depth, 6);
    assert!(
        again.nodes * 2 < first.nodes,
        "{} then {}",
        first.nodes,
        again.nodes
    );
}

/// Kings only, two ahead, after `plies` non-capturing king moves without a repetition and
/// with nothing ever attacked (random walks, the first that gets there): a game that the
/// 25-move rule is about to end.
fn kings_walk(plies: usize) -> GameOf<draughts::International> {
    let start: draughts::Position<draughts::International> =
        draughts::parse_fen("W:WK46,K47,K48,K49:BK3,K5").unwrap();
    'walk: for seed in 0.. {
        let mut rng = Rng::new(seed);
        let mut game = GameOf::from_position(Rules::default(), start);
        let mut seen = std::collections::HashSet::from([game.hash()]);
        for _ in 0..plies {
            let pos = *game.position();
            let quiet: Vec<_> = game
                .legal_moves()
                .into_iter()
                .filter(|&mv| {
                    let after = pos.play_unchecked(mv);
                    !mv.is_capture()
                        && !after.has_captures()
                        && !after.with_side_to_move(pos.side_to_move()).has_captures()
                        && !seen.contains(&after.zobrist())
                })
                .collect();
            if quiet.is_empty() {
                continue 'walk;
            }
            game.play(quiet[rng.below(quiet.len())]).unwrap();
            seen.insert(game.hash());
        }
        assert!(game.outcome().is_none());
        return game;
    }
    unreachable!()
}

#[test]
fn the_25_king_move_draw_is_seen_in_the_search() {
    // 24 moves each played: Black's next reply ends the game drawn unless a capture comes
    // first (nothing is attacked now, so only a king offered by White can reset the count). The
    // search sees it: the position is worth 0, or the line offers a king; with the counter
    // fresh, four kings against two are worth a lot.
    let late = kings_walk(48);
    let budget = nodes(20_000);
    let a = analyse_of(&late, Level::Expert, &limits(0), &budget, &mut |_| {}).unwrap();
    let resets = a.pv.iter().take(2).any(|mv| mv.is_capture());
    assert!(a.score == 0 || resets, "{a:?}");
    let fresh = GameOf::from_position(Rules::default(), *late.position());
    let b = analyse_of(&fresh, Level::Expert, &limits(0), &budget, &mut |_| {}).unwrap();
    assert!(b.score > 300, "{b:?}");
    assert!(a.score < b.score - 300, "{a:?} {b:?}");
}
