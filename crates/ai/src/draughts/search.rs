//! Negamax PVS for draughts on every board size (generic over the board, so each size compiles
//! to its own code): iterative deepening from the caller, transposition table on the rules
//! engine's incremental Zobrist hash, capture quiescence (captures are forced, so a position with
//! a capture is never evaluated statically), single-reply extension, killers and history, late
//! move reductions, and repetitions scored as draws.

use draughts::{Board, Move, MoveList, Position};

use super::eval::evaluate;
use crate::time::Clock;
use crate::tt::{cutoff, Bound, Tt};
use crate::WIN;

/// Deepest ply (quiescence included).
pub const MAX_PLY: usize = 96;
/// Beyond every score.
pub const INF: i32 = WIN + 1_000;
const TT_MOVE: i32 = 1 << 28;
const CAPTURE: i32 = 1 << 24;
const KILLER: i32 = 1 << 20;
const LMR_AFTER: usize = 3;

/// One search over positions of board `B`.
pub(crate) struct Searcher<B: Board> {
    pub clock: Clock,
    tt: Tt,
    lists: Vec<MoveList<B>>,
    order: Vec<Vec<(i32, Move<B>)>>,
    killers: Vec<[Option<Move<B>>; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<Option<Move<B>>>>,
    pv_len: [usize; MAX_PLY + 1],
    /// Hashes from the last irreversible move of the game to the current node.
    path: Vec<u64>,
    /// Per ply: index in `path` from which positions can repeat.
    floor: [usize; MAX_PLY + 1],
    root_depth: i32,
}

/// A node being searched.
struct Node<'a, B: Board> {
    pos: &'a Position<B>,
    hash: u64,
    depth: i32,
    ply: usize,
}

/// Index of a move in the table-move encoding: its place in the generated list.
fn index_of<B: Board>(list: &[Move<B>], mv: Move<B>) -> u16 {
    list.iter()
        .position(|&m| m == mv)
        .map_or(u16::MAX, |i| i as u16)
}

impl<B: Board> Searcher<B> {
    pub fn new(clock: Clock, tt_nodes: u64, history: &[u64]) -> Self {
        let mut path = Vec::with_capacity(history.len() + MAX_PLY + 2);
        path.extend_from_slice(history);
        Searcher {
            clock,
            tt: Tt::for_nodes(tt_nodes),
            lists: (0..=MAX_PLY).map(|_| MoveList::new()).collect(),
            order: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 128 * 128],
            pv: vec![vec![None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            path,
            floor: [0; MAX_PLY + 1],
            root_depth: 1,
        }
    }

    /// The principal variation of the last root search.
    pub fn pv(&self) -> Vec<Move<B>> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }

    /// Searches the root moves (`path` ends with the root's hash).
    pub fn root(
        &mut self,
        pos: &Position<B>,
        hash: u64,
        moves: &[Move<B>],
        depth: i32,
        exact: bool,
        scores: &mut [i32],
    ) -> Option<usize> {
        self.root_depth = depth;
        let base = self.path.len();
        let mut alpha = -INF;
        let mut best = None;
        for (i, &mv) in moves.iter().enumerate() {
            let child = pos.play_unchecked(mv);
            let h = hash ^ pos.zobrist_delta(mv);
            self.push(pos, mv, h, 1);
            let score = if i == 0 || exact {
                -self.search(&child, h, depth - 1, -INF, INF, 1)
            } else {
                let s = -self.search(&child, h, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && !self.clock.stopped() {
                    -self.search(&child, h, depth - 1, -INF, -alpha, 1)
                } else {
                    s
                }
            };
            self.path.truncate(base);
            if self.clock.stopped() {
                break;
            }
            scores[i] = score;
            if best.is_none() || score > alpha {
                alpha = score;
                best = Some(i);
                self.set_pv(0, mv);
            }
        }
        best
    }

    fn push(&mut self, pos: &Position<B>, mv: Move<B>, hash: u64, ply: usize) {
        self.floor[ply] = if pos.is_reversible(mv) {
            self.floor[ply - 1]
        } else {
            self.path.len()
        };
        self.path.push(hash);
    }

    fn repeated(&self, ply: usize) -> bool {
        let n = self.path.len();
        let floor = self.floor[ply];
        n >= floor + 5 && {
            let h = self.path[n - 1];
            (floor..n - 1)
                .rev()
                .skip(1)
                .step_by(2)
                .any(|j| self.path[j] == h)
        }
    }

    fn set_pv(&mut self, ply: usize, mv: Move<B>) {
        self.pv[ply][0] = Some(mv);
        let n = self.pv_len[ply + 1].min(MAX_PLY - 1);
        for k in 0..n {
            self.pv[ply][k + 1] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = n + 1;
    }

    /// Negamax value for the side to move, within `(alpha, beta)`; at `depth <= 0` only
    /// positions with captures are searched on (quiescence).
    fn search(
        &mut self,
        pos: &Position<B>,
        hash: u64,
        mut depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if let Some(v) = self.leaf(pos, depth, ply) {
            return v;
        }
        let quiescence = depth <= 0;
        let hit = self.tt.probe(hash, ply as i32);
        if let Some(v) = hit.and_then(|h| cutoff(&h, depth.max(0), alpha, beta)) {
            if beta - alpha == 1 || quiescence {
                return v;
            }
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        pos.generate_moves(&mut list);
        if list.is_empty() {
            self.lists[ply] = list;
            return -WIN + ply as i32;
        }
        if list.len() == 1 && !quiescence && ply < 2 * self.root_depth as usize + 4 {
            depth += 1; // single reply
        }
        let mut order = std::mem::take(&mut self.order[ply]);
        self.score_moves(&list, hit.map(|h| h.mv), ply, &mut order);
        let node = Node {
            pos,
            hash,
            depth,
            ply,
        };
        let (best, best_move) = self.moves(&node, &mut order, alpha, beta);
        let best_index = best_move.map_or(u16::MAX, |mv| index_of(&list, mv));
        self.lists[ply] = list;
        self.order[ply] = order;
        if self.clock.stopped() {
            return 0;
        }
        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt
            .store(hash, depth.max(0), ply as i32, best, bound, best_index);
        best
    }

    /// The value of a node not searched further: stopped, repeated, too deep, or quiet at the
    /// horizon (lost if the side to move cannot move).
    fn leaf(&mut self, pos: &Position<B>, depth: i32, ply: usize) -> Option<i32> {
        if self.clock.tick() || self.repeated(ply) {
            return Some(0);
        }
        if ply >= MAX_PLY {
            return Some(evaluate(pos));
        }
        if depth <= 0 && !pos.has_captures() {
            if !pos.has_any_move() {
                return Some(-WIN + ply as i32);
            }
            return Some(evaluate(pos));
        }
        None
    }

    /// Searches the ordered moves of a node: the best value and move.
    fn moves(
        &mut self,
        node: &Node<'_, B>,
        order: &mut [(i32, Move<B>)],
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<Move<B>>) {
        let mut best = -INF;
        let mut best_move = None;
        let base = self.path.len();
        for i in 0..order.len() {
            let (key, mv) = pick(order, i);
            let score = self.child(node, mv, i, key, alpha, beta);
            self.path.truncate(base);
            if self.clock.stopped() {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.set_pv(node.ply, mv);
                }
            }
            if alpha >= beta {
                if !mv.is_capture() {
                    self.reward(mv, node.ply, node.depth);
                }
                break;
            }
        }
        (best, best_move)
    }

    /// PVS for the `i`-th move: full window first, then a null window (reduced when late and
    /// quiet), re-searched when it may improve.
    fn child(
        &mut self,
        node: &Node<'_, B>,
        mv: Move<B>,
        i: usize,
        key: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (pos, ply, depth) = (node.pos, node.ply, node.depth);
        let child = pos.play_unchecked(mv);
        let h = node.hash ^ pos.zobrist_delta(mv);
        self.push(pos, mv, h, ply + 1);
        let d = depth - 1;
        if i == 0 {
            return -self.search(&child, h, d, -beta, -alpha, ply + 1);
        }
        let reduce = i32::from(depth >= 3 && i >= LMR_AFTER && key < KILLER);
        let mut s = -self.search(&child, h, d - reduce, -alpha - 1, -alpha, ply + 1);
        if reduce > 0 && s > alpha && !self.clock.stopped() {
            s = -self.search(&child, h, d, -alpha - 1, -alpha, ply + 1);
        }
        if s > alpha && s < beta && !self.clock.stopped() {
            s = -self.search(&child, h, d, -beta, -alpha, ply + 1);
        }
        s
    }

    fn score_moves(
        &self,
        list: &[Move<B>],
        tt: Option<u16>,
        ply: usize,
        out: &mut Vec<(i32, Move<B>)>,
    ) {
        out.clear();
        let killers = self.killers[ply];
        for (i, &mv) in list.iter().enumerate() {
            let key = if Some(i as u16) == tt {
                TT_MOVE
            } else if mv.is_capture() {
                CAPTURE + mv.capture_count() as i32
            } else if killers.contains(&Some(mv)) {
                KILLER
            } else {
                self.history[history_index(mv)].min(KILLER - 1)
            };
            out.push((key, mv));
        }
    }

    fn reward(&mut self, mv: Move<B>, ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let h = &mut self.history[history_index(mv)];
        *h = (*h + depth * depth).min(KILLER - 1);
    }
}

fn history_index<B: Board>(mv: Move<B>) -> usize {
    (mv.from_bit() as usize & 127) << 7 | (mv.to_bit() as usize & 127)
}

fn pick<M: Copy>(order: &mut [(i32, M)], i: usize) -> (i32, M) {
    let mut best = i;
    for j in i + 1..order.len() {
        if order[j].0 > order[best].0 {
            best = j;
        }
    }
    order.swap(i, best);
    order[i]
}
