//! Perft: the number of leaf move sequences of a given length, moves counted by distinct
//! (from, to). Automatic passes are not plies; a finished game has no moves.

use crate::cell::Bits;
use crate::movegen::Move;
use crate::position::Game;
use crate::Cell;

/// Perft with bulk counting: the last ply is counted by popcount, without playing the moves.
pub fn perft(game: &Game, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_legal_moves(),
        _ => {
            let mut total = 0;
            for_each_move(game, |mv| {
                let mut child = *game;
                child.play_unchecked(mv);
                total += perft(&child, depth - 1);
            });
            total
        }
    }
}

/// Perft that plays every move including those of the last ply (slower; checks `play_unchecked`).
pub fn perft_full(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for_each_move(game, |mv| {
        let mut child = *game;
        child.play_unchecked(mv);
        total += perft_full(&child, depth - 1);
    });
    total
}

/// Perft split by first move: `(move, count)` in generation order.
pub fn perft_divide(game: &Game, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    for_each_move(game, |mv| {
        let mut child = *game;
        child.play_unchecked(mv);
        out.push((mv, perft(&child, depth - 1)));
    });
    out
}

fn for_each_move(game: &Game, mut f: impl FnMut(Move)) {
    if game.is_over() {
        return;
    }
    game.for_each_piece_moves(game.to_move().0, |from, to| {
        for to in Bits(to) {
            f(Move::new(cell(from), cell(to)));
        }
    });
}

fn cell(i: u8) -> Cell {
    Cell::from_index(i).expect("generated hole")
}
