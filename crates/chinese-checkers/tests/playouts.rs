//! Property tests over random playouts with random rules (issue 2): every generated move is
//! accepted by `play`, no hole holds two pieces, piece counts never change except on resignation,
//! the incremental hash equals the recomputed one, every generated move has a path from its start
//! to its end, the game always ends by the move limit, and replaying the moves (or reloading the
//! saved game) gives the same game.

mod common;

use chinese_checkers::{Ending, Game, RuleSet, Rules, Seat, UnusedCamps};
use common::Rng;
use proptest::prelude::*;

fn arb_rules() -> impl Strategy<Value = Rules> {
    (2u8..=6, 0u8..3, any::<[bool; 10]>(), 1u16..40, 0u16..4).prop_map(
        |(players, sets_pick, flags, move_limit, stagnation_rounds)| {
            let max_sets = match players {
                2 => 3,
                3 => 2,
                _ => 1,
            };
            let sets = 1 + sets_pick % max_sets;
            let small = players <= 3 && sets == 1;
            let [fifteen, japanese, long, resting, leaving, forced, swap, filled, to_end, anti] =
                flags;
            let japanese = japanese && small;
            Rules {
                players,
                sets,
                pieces: if japanese || (fifteen && small) {
                    15
                } else {
                    10
                },
                rule_set: if japanese {
                    RuleSet::Japanese
                } else {
                    RuleSet::International
                },
                unused_camps: if filled {
                    UnusedCamps::Filled
                } else {
                    UnusedCamps::Empty
                },
                anti_blocking: anti && !swap,
                swap_rule: swap,
                long_jumps: long,
                no_resting_in_foreign_camps: resting,
                no_leaving_destination: leaving,
                forced_exit: forced,
                play_to_the_end: to_end,
                move_limit,
                stagnation_rounds,
                ..Rules::default()
            }
        },
    )
}

fn piece_counts(game: &Game) -> Vec<u32> {
    chinese_checkers::Camp::new(0)
        .into_iter()
        .chain((1..6).filter_map(chinese_checkers::Camp::new))
        .map(|c| game.set_pieces(c).count())
        .chain([game.inert_pieces().count()])
        .collect()
}

enum Action {
    Move(chinese_checkers::Move),
    Resign(Seat),
}

fn playout(rules: Rules, seed: u64) {
    let mut rng = Rng(seed | 1);
    let first = Seat(rng.below(u64::from(rules.players)) as u8);
    let mut game = Game::new(rules, first).unwrap();
    let mut actions = Vec::new();
    let mut counts = piece_counts(&game);
    let max_turns = usize::from(rules.move_limit) * usize::from(rules.players);
    while !game.is_over() {
        let moves_played = actions
            .iter()
            .filter(|a| matches!(a, Action::Move(_)))
            .count();
        assert!(
            moves_played <= max_turns,
            "the game outlived the move limit"
        );
        let moves = game.legal_moves_vec();
        assert!(
            !moves.is_empty(),
            "the side to move has no move\n{}",
            game.to_position_json()
        );
        assert_eq!(game.count_legal_moves(), moves.len() as u64);
        if rng.below(8) == 0 {
            for &m in &moves {
                let path = game
                    .path_unchecked(m)
                    .unwrap_or_else(|| panic!("generated move {m} without a path"));
                assert_eq!((path[0], path[path.len() - 1]), (m.from, m.to), "{m}");
            }
        }
        if rng.below(60) == 0 {
            let seat = Seat(rng.below(u64::from(rules.players)) as u8);
            if game.resign(seat).is_ok() {
                actions.push(Action::Resign(seat));
                counts = piece_counts(&game);
            }
        } else {
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let before = game;
            let events = game
                .play(mv)
                .unwrap_or_else(|e| panic!("generated move {mv} refused: {e}"));
            assert_ne!(game, before);
            assert_eq!(events.outcome, game.outcome());
            actions.push(Action::Move(mv));
            assert_eq!(piece_counts(&game), counts, "piece counts changed");
        }
        game.check_invariants().unwrap();
        if rng.below(10) == 0 {
            let reloaded = Game::from_position_json(&game.to_position_json()).unwrap();
            assert_eq!(reloaded, game, "saved game reloads differently");
        }
    }
    let outcome = game.outcome().unwrap();
    let places = outcome.places().unwrap();
    assert_eq!(places.len(), usize::from(rules.players));
    assert!(places.iter().all(|&p| p >= 1 && p <= rules.players));
    if outcome.ending() == Ending::MoveLimit {
        assert!(rules.seats().any(|s| game.turns(s) >= rules.move_limit));
    }
    let mut replay = Game::new(rules, first).unwrap();
    for action in &actions {
        match *action {
            Action::Move(mv) => drop(replay.play(mv).unwrap()),
            Action::Resign(seat) => drop(replay.resign(seat).unwrap()),
        }
    }
    assert_eq!(replay, game, "replaying the moves gives another game");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_the_invariants(rules in arb_rules(), seed in any::<u64>()) {
        playout(rules, seed);
    }
}

/// A full-length game with the default rules also ends (by finishing or the limits).
#[test]
fn default_games_end() {
    for seed in 1..6 {
        playout(
            Rules {
                players: (seed % 5 + 2) as u8,
                ..Rules::default()
            },
            seed,
        );
    }
}
