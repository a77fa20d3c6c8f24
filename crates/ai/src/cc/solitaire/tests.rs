use super::*;
use chinese_checkers::{MoveList, Seat};

/// A position `n` moves or fewer from the goal: `n` random moves from the start, mirrored (the
/// mirror swaps the start and the goal and keeps the moves).
fn moves_before_the_goal(n: usize, seed: u64) -> Solitaire {
    let mut position = Solitaire::start();
    let mut rng = crate::Rng::new(seed);
    let mut moves = MoveList::new();
    for _ in 0..n {
        position.legal_moves(&mut moves);
        position.play_unchecked(moves[rng.below(moves.len())]);
    }
    position.mirrored()
}

/// Replays `moves` from `from` in the rules engine: seat 0 must finish on the last one.
fn replays(from: Solitaire, moves: &[Move]) {
    let mut game = from.to_game();
    for (i, mv) in moves.iter().enumerate() {
        assert!(!game.is_over(), "over before move {i}");
        game.play(*mv)
            .unwrap_or_else(|e| panic!("move {i} ({mv}) refused: {e}"));
    }
    assert!(
        game.has_finished(Seat(0)),
        "not across after {} moves",
        moves.len()
    );
    assert_eq!(usize::from(game.turns(Seat(0))), moves.len());
}

#[test]
fn the_rows_bound_is_admissible_and_ida_star_finds_the_shortest_end() {
    let mut solver = Solver::with_table_bits(16);
    assert_eq!(solver.lower_bound(Solitaire::start()), 19);
    assert_eq!(solver.lower_bound(Solitaire::goal()), 0);
    for seed in 1..=6 {
        let position = moves_before_the_goal(5, seed);
        let crossing = solver.shortest(position, 5).expect("at most 5 moves away");
        replays(position, &crossing.moves);
        let n = crossing.moves.len() as u32;
        assert!(solver.lower_bound(position) <= n);
        // Exact: nothing shorter exists.
        if n > 0 {
            assert_eq!(solver.shortest(position, n - 1), Err(Unsolved::TooLong));
        }
    }
}

#[test]
fn a_node_limit_stops_the_search() {
    let mut solver = Solver::with_table_bits(12);
    solver.set_node_limit(1_000);
    assert_eq!(
        solver.shortest(Solitaire::start(), 40),
        Err(Unsolved::OutOfNodes)
    );
}

#[test]
fn the_pilot_beam_finds_a_27_move_crossing_the_optimum() {
    // Bell (2009) proved that no crossing is shorter than 27 moves.
    let first = beam(Solitaire::start(), 1_000, 40).expect("a crossing");
    replays(Solitaire::start(), &first.moves);
    let crossing = pilot(Solitaire::start(), 1_000, 40).expect("a crossing");
    replays(Solitaire::start(), &crossing.moves);
    assert!(crossing.moves.len() <= first.moves.len());
    assert_eq!(crossing.moves.len(), 27);
    // The rows bound (three axes) never exceeds the moves left along it.
    let solver = Solver::with_table_bits(10);
    let mut at = Solitaire::start();
    for (done, mv) in crossing.moves.iter().enumerate() {
        assert!(solver.lower_bound(at) as usize <= 27 - done);
        at.play(*mv).unwrap();
    }
    assert!(at.is_crossed());
}
