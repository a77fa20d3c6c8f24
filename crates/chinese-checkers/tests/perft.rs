//! Perft cases from the data files `tests/*.perft` (format described in `start.perft`).

mod common;

use chinese_checkers::{perft, perft_full};

/// Counts up to this run in every test run; larger ones are `--ignored`.
const QUICK_LIMIT: u64 = 5_000_000;

fn run(text: &str, quick: bool) {
    for case in common::load_perft(text) {
        for &(depth, count) in &case.depths {
            if (count <= QUICK_LIMIT) == quick {
                assert_eq!(perft(&case.game, depth), count, "{} perft {depth}", case.id);
            }
        }
    }
}

#[test]
fn start_positions_quick() {
    run(include_str!("start.perft"), true);
}

#[test]
#[ignore = "deep perft, run with --ignored (or see the benchmark)"]
fn start_positions_deep() {
    run(include_str!("start.perft"), false);
}

#[test]
fn variants_quick() {
    run(include_str!("variants.perft"), true);
}

#[test]
#[ignore = "deep perft, run with --ignored"]
fn variants_deep() {
    run(include_str!("variants.perft"), false);
}

/// Bulk counting and playing every last move agree (checks `play_unchecked` and the counting).
#[test]
fn bulk_counting_equals_playing_every_move() {
    for case in common::load_perft(include_str!("variants.perft")) {
        assert_eq!(
            perft(&case.game, 3),
            perft_full(&case.game, 3),
            "{}",
            case.id
        );
    }
}
