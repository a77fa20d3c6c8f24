//! Cross-checks of the engine against the simple reference generator of `common/mod.rs`.

mod common;

use chinese_checkers::{Camp, Cell, Game, RuleSet, Rules, Seat, UnusedCamps};
use common::{cell, engine_moves, random_position, RefPosition, Rng};
use proptest::prelude::*;

/// Every perft case of the data files, depths 1–3, against the reference perft.
#[test]
fn variants_match_reference() {
    let files = [include_str!("start.perft"), include_str!("variants.perft")];
    for case in files.iter().flat_map(|f| common::load_perft(f)) {
        let mut reference = RefPosition::from_game(&case.game);
        for &(depth, count) in case.depths.iter().filter(|(d, n)| *d <= 3 && *n <= 150_000) {
            assert_eq!(
                reference.perft(depth),
                count,
                "{} perft {depth} (reference)",
                case.id
            );
        }
    }
}

fn arb_rules() -> impl Strategy<Value = Rules> {
    (
        2u8..=6,
        0u8..3,
        any::<bool>(),
        any::<bool>(),
        any::<[bool; 6]>(),
    )
        .prop_map(|(players, sets_pick, fifteen, japanese, opts)| {
            let max_sets = match players {
                2 => 3,
                3 => 2,
                _ => 1,
            };
            let sets = 1 + sets_pick % max_sets;
            let small = players <= 3 && sets == 1;
            let japanese = japanese && small;
            let [long, resting, leaving, forced, swap, filled] = opts;
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
                anti_blocking: !swap,
                swap_rule: swap,
                long_jumps: long,
                no_resting_in_foreign_camps: resting,
                no_leaving_destination: leaving,
                forced_exit: forced,
                ..Rules::default()
            }
        })
}

fn check_against_reference(game: &Game) {
    if game.is_over() {
        return;
    }
    let reference = RefPosition::from_game(game);
    let expected = reference.moves(game.to_move().index());
    let got = engine_moves(game);
    let missing: Vec<_> = expected.difference(&got).collect();
    let extra: Vec<_> = got.difference(&expected).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "moves differ\nmissing {missing:?}\nextra {extra:?}\nposition {}",
        game.to_position_json()
    );
    assert_eq!(game.count_legal_moves(), got.len() as u64);
    for mv in game.legal_moves_vec() {
        check_path(game, &reference, mv);
    }
}

fn check_path(game: &Game, reference: &RefPosition, mv: chinese_checkers::Move) {
    let path = game.path(mv).expect("a legal move has a path");
    let cube = |c: Cell| {
        let [x, y, z] = c.to_cube();
        (i32::from(x), i32::from(y), i32::from(z))
    };
    assert_eq!((path[0], *path.last().unwrap()), (mv.from, mv.to));
    if path.len() == 2 && mv.from.distance(mv.to) == 1 {
        return;
    }
    let king = game.kings().contains(mv.from);
    let from = cube(mv.from);
    for (i, hop) in path.windows(2).enumerate() {
        let (a, b) = (cube(hop[0]), cube(hop[1]));
        let last = i + 2 == path.len();
        let ok = reference.is_jump(a, b, from, king)
            || (last
                && game.occupied().contains(mv.to)
                && reference.is_swap_jump(a, b, from, king));
        assert!(
            ok,
            "path {path:?} of {mv}: {a:?} -> {b:?} is not a jump\n{}",
            game.to_position_json()
        );
    }
    let unique: std::collections::HashSet<_> = path.iter().collect();
    assert_eq!(unique.len(), path.len(), "path {path:?} revisits a hole");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// On random positions with random rules, the engine's moves are exactly the reference's, and
    /// every path is made of legal hops.
    #[test]
    fn random_positions_match_reference(rules in arb_rules(), seed in any::<u64>()) {
        if let Some(game) = random_position(rules, seed) {
            check_against_reference(&game);
        }
    }
}

/// The start positions of every rules combination match the reference after a few moves.
#[test]
fn short_games_match_reference() {
    let mut rng = Rng(0x5eed);
    for _ in 0..60 {
        let rules = arb_rules_sample(&mut rng);
        let Ok(mut game) = Game::new(rules, Seat(0)) else {
            continue;
        };
        for _ in 0..30 {
            check_against_reference(&game);
            let moves = game.legal_moves_vec();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.below(moves.len() as u64) as usize])
                .unwrap();
        }
    }
}

fn arb_rules_sample(rng: &mut Rng) -> Rules {
    let players = 2 + rng.below(5) as u8;
    let japanese = players <= 3 && rng.below(3) == 0;
    let swap = rng.below(3) == 0;
    Rules {
        players,
        pieces: if japanese { 15 } else { 10 },
        rule_set: if japanese {
            RuleSet::Japanese
        } else {
            RuleSet::International
        },
        long_jumps: rng.below(2) == 0,
        no_resting_in_foreign_camps: rng.below(3) == 0,
        no_leaving_destination: rng.below(3) == 0,
        forced_exit: rng.below(3) == 0,
        swap_rule: swap,
        anti_blocking: !swap,
        ..Rules::default()
    }
}

#[test]
fn reference_camps_agree_with_engine() {
    for camp in (0..6).map(|c| Camp::new(c).unwrap()) {
        for size in [10, 15] {
            let engine: Vec<Cell> = camp.cells(size).collect();
            let reference: Vec<Cell> = Cell::all()
                .filter(|&c| {
                    let [x, y, z] = c.to_cube();
                    common::in_camp((x.into(), y.into(), z.into()), camp.index().into(), size)
                })
                .collect();
            assert_eq!(engine, reference);
        }
    }
    let _ = cell((4, 4, -8));
}

/// The random positions are mostly usable (guards against a generator that tests nothing).
#[test]
fn random_positions_are_mostly_playable() {
    let mut rng = Rng(42);
    let (mut usable, mut japanese, mut swaps) = (0, 0, 0);
    for i in 0..300 {
        let rules = arb_rules_sample(&mut rng);
        if let Some(game) = random_position(rules, i * 7919 + 1) {
            if !game.is_over() {
                usable += 1;
                japanese +=
                    usize::from(rules.rule_set == RuleSet::Japanese && !game.kings().is_empty());
                swaps += usize::from(
                    rules.swap_rule
                        && game
                            .legal_moves_vec()
                            .iter()
                            .any(|m| game.occupied().contains(m.to)),
                );
            }
        }
    }
    assert!(usable > 200, "{usable}");
    assert!(
        japanese > 20 && swaps > 5,
        "japanese {japanese}, swaps {swaps}"
    );
}
