//! Max^n for three to six players: every seat maximises its own utility (its value minus the
//! best unfinished opponent's). No alpha-beta applies, so each node keeps a beam of its best
//! moves by forward progress.

use chinese_checkers::{Game, Move, MoveList};

use super::eval;
use super::search::MAX_PLY;
use crate::search::Deepened;
use crate::time::Clock;
use crate::{Analysis, WIN};

/// Moves searched per node below the root.
const BEAM: usize = 10;

struct MaxN {
    clock: Clock,
    lists: Vec<MoveList>,
    order: Vec<Vec<(i32, Move)>>,
}

pub(super) fn analyse(
    game: &Game,
    moves: &mut [Move],
    clock: Clock,
    max_depth: u32,
) -> Option<Deepened<Move>> {
    let me = game.to_move().index();
    let mut s = MaxN {
        clock,
        lists: (0..MAX_PLY).map(|_| MoveList::new()).collect(),
        order: (0..MAX_PLY).map(|_| Vec::with_capacity(512)).collect(),
    };
    let mut result = None;
    for depth in 1..=max_depth.min(MAX_PLY as u32 - 1) {
        let mut scores = vec![0; moves.len()];
        let mut best: Option<usize> = None;
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = *game;
            child.play_unchecked(mv);
            let v = s.search(&child, depth as i32 - 1, 1);
            if s.clock.stopped() {
                break;
            }
            scores[i] = v[me];
            if best.map_or(true, |b| scores[i] > scores[b]) {
                best = Some(i);
            }
        }
        let completed = !s.clock.stopped();
        if let Some(b) = best.filter(|_| completed || result.is_none()) {
            moves[..=b].rotate_right(1);
            scores[..=b].rotate_right(1);
            result = Some(Deepened {
                analysis: Analysis {
                    best: moves[0],
                    score: scores[0],
                    depth,
                    nodes: s.clock.nodes,
                    pv: vec![moves[0]],
                    elapsed: s.clock.elapsed(),
                },
                scores: scores.clone(),
                moves: moves.to_vec(),
            });
        }
        if !completed || s.clock.check() {
            break;
        }
    }
    result.map(|mut r: Deepened<Move>| {
        r.analysis.nodes = s.clock.nodes;
        r.analysis.elapsed = s.clock.elapsed();
        r
    })
}

impl MaxN {
    fn utilities(&self, game: &Game, ply: usize) -> [i32; 6] {
        let mut u = [0; 6];
        let values = eval::values(game);
        let outcome = game.outcome();
        for seat in game.rules().seats() {
            let place = game
                .place(seat)
                .or_else(|| outcome.and_then(|o| o.place(seat)));
            u[seat.index()] = match place {
                Some(p) => WIN / 2 - i32::from(p) * (WIN / 16) - ply as i32,
                None => eval::utility(game, &values, seat),
            };
        }
        u
    }

    fn search(&mut self, game: &Game, depth: i32, ply: usize) -> [i32; 6] {
        if self.clock.tick() {
            return [0; 6];
        }
        if depth <= 0 || game.is_over() || ply >= MAX_PLY - 1 {
            return self.utilities(game, ply);
        }
        let me = game.to_move().index();
        let mut order = std::mem::take(&mut self.order[ply]);
        self.generate(game, ply, &mut order);
        let mut best: Option<[i32; 6]> = None;
        for &(_, mv) in order.iter().take(BEAM) {
            let mut child = *game;
            child.play_unchecked(mv);
            let v = self.search(&child, depth - 1, ply + 1);
            if self.clock.stopped() {
                break;
            }
            if best.map_or(true, |b| v[me] > b[me]) {
                best = Some(v);
            }
        }
        self.order[ply] = order;
        best.unwrap_or_else(|| self.utilities(game, ply))
    }

    fn generate(&mut self, game: &Game, ply: usize, out: &mut Vec<(i32, Move)>) {
        let list = &mut self.lists[ply];
        game.legal_moves(list);
        let gain = super::progress_gain(game);
        out.clear();
        out.extend(list.iter().map(|&mv| (gain(mv), mv)));
        out.sort_unstable_by_key(|&(g, mv)| (std::cmp::Reverse(g), mv));
    }
}
