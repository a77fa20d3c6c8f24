//! Perft: the number of move sequences of a given length, the standard test of a move generator.
//!
//! Moves with the same start, end and captured set count once (as in the published tables; see
//! `tests/data/*.perft`).

use crate::board::Board;
use crate::moves::MoveList;
use crate::position::Position;

/// Counts the leaves `depth` plies below `pos`. With `bulk`, the last ply is counted without
/// listing or playing its moves; without it every leaf move is generated and played.
pub fn perft<B: Board>(pos: &Position<B>, depth: u32, bulk: bool) -> u64 {
    let mut lists: Vec<MoveList<B>> = (0..=depth).map(|_| MoveList::new()).collect();
    if bulk {
        perft_bulk(pos, depth, &mut lists)
    } else {
        perft_full(pos, depth, &mut lists)
    }
}

/// [`perft`] split by first move: each legal move with its count.
pub fn divide<B: Board>(pos: &Position<B>, depth: u32) -> Vec<(crate::moves::Move<B>, u64)> {
    let moves = pos.legal_moves();
    let mut lists: Vec<MoveList<B>> = (0..=depth).map(|_| MoveList::new()).collect();
    moves
        .iter()
        .map(|&mv| {
            let next = pos.play_unchecked(mv);
            let n = if depth <= 1 {
                1
            } else {
                perft_bulk(&next, depth - 1, &mut lists)
            };
            (mv, n)
        })
        .collect()
}

fn perft_bulk<B: Board>(pos: &Position<B>, depth: u32, lists: &mut [MoveList<B>]) -> u64 {
    let Some((list, rest)) = lists.split_first_mut() else {
        return 0;
    };
    match depth {
        0 => 1,
        1 => pos.count_moves(list) as u64,
        _ => {
            pos.generate_moves(list);
            list.iter()
                .map(|&mv| perft_bulk(&pos.play_unchecked(mv), depth - 1, rest))
                .sum()
        }
    }
}

fn perft_full<B: Board>(pos: &Position<B>, depth: u32, lists: &mut [MoveList<B>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((list, rest)) = lists.split_first_mut() else {
        return 0;
    };
    pos.generate_moves(list);
    if depth == 1 {
        // Play every leaf move; `black_box` keeps the optimiser from skipping it.
        return list
            .iter()
            .map(|&mv| {
                std::hint::black_box(pos.play_unchecked(mv));
                1
            })
            .sum();
    }
    list.iter()
        .map(|&mv| perft_full(&pos.play_unchecked(mv), depth - 1, rest))
        .sum()
}
