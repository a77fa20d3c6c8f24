//! Alpha-beta for Chinese checkers: with two players the usual PVS; with more, the paranoid
//! reduction (every opponent plays against the searching seat). Written in minimax form (scores
//! always for the root seat; the root seat's turns maximise, everyone else's minimise) so that
//! consecutive opponent turns and automatic passes need no special case. Iterative deepening,
//! transposition table, move ordering (TT move, killers, history, forward progress), late-move
//! reductions and pruning of backward moves near the leaves.

use chinese_checkers::{Game, Move, MoveList, Seat};

use super::eval::{self, tables, TEMPO};
use crate::time::Clock;
use crate::tt::{cutoff, Bound, Tt};
use crate::WIN;

/// Deepest ply a search reaches.
pub const MAX_PLY: usize = 48;
/// Beyond every score.
pub const INF: i32 = WIN + 1_000;
/// Moves this far back (centi-units of piece value) are not tried near the leaves.
const BACKWARD_PRUNE: i32 = -eval::PER_HOLE;
/// Moves after this many are reduced at depth 3 and more.
const LMR_AFTER: usize = 3;
/// Ordering bonuses.
const TT_MOVE: i32 = 1 << 24;
const KILLER: i32 = 1 << 20;

/// Encodes a move for the transposition table.
pub fn code(mv: Move) -> u16 {
    u16::from(mv.from.index()) << 8 | u16::from(mv.to.index())
}

/// One search: the root seat, the table, the ordering tables and per-ply move lists.
pub struct Searcher {
    pub root: Seat,
    pub clock: Clock,
    tt: Tt,
    lists: Vec<MoveList>,
    order: Vec<Vec<(i32, Move)>>,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Vec<i32>,
    pv: Vec<[Option<Move>; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Hashes of the positions on the current line, for repetitions.
    line: [u64; MAX_PLY + 1],
    players: u8,
    pieces: u8,
    /// Moves an opponent may answer with (its best by the ordering); `usize::MAX`: all.
    reply_beam: usize,
}

impl Searcher {
    pub fn new(root: &Game, clock: Clock, tt_nodes: u64, reply_beam: usize) -> Searcher {
        Searcher {
            root: root.to_move(),
            clock,
            tt: Tt::for_nodes(tt_nodes),
            lists: (0..MAX_PLY + 1).map(|_| MoveList::new()).collect(),
            order: (0..MAX_PLY + 1)
                .map(|_| Vec::with_capacity(chinese_checkers::MAX_MOVES))
                .collect(),
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; 128 * 128],
            pv: vec![[None; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            line: [0; MAX_PLY + 1],
            players: root.rules().players,
            reply_beam,
            pieces: root.rules().pieces,
        }
    }

    /// The principal variation of the last completed root search.
    pub fn pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }

    /// The static value for the root seat.
    fn evaluate(&self, game: &Game) -> i32 {
        let values = eval::values(game);
        let mut u = eval::utility(game, &values, self.root);
        if self.players == 2 {
            u += if game.to_move() == self.root {
                TEMPO
            } else {
                -TEMPO
            };
        }
        u
    }

    /// Value for the root seat of a position where its place is decided (or the game is over).
    fn terminal(&self, game: &Game, ply: usize) -> Option<i32> {
        let outcome = game.outcome();
        if outcome.is_some_and(|o| o.is_draw()) {
            return Some(0);
        }
        let place = game
            .place(self.root)
            .or_else(|| outcome.and_then(|o| o.place(self.root)))?;
        let (n, place, ply) = (i32::from(self.players), i32::from(place), ply as i32);
        Some(if place == 1 {
            WIN - ply
        } else if place >= n {
            -WIN + ply
        } else {
            // Between: a decided middle place, better than any undecided race.
            WIN / 2 - (place - 1) * (WIN / 8)
        })
    }

    /// Searches the root moves at `depth` (each root move's value goes to `scores`; with `exact`
    /// every value is exact, else only the best). Returns the best index, or `None` if stopped
    /// before the first move was searched.
    pub fn root(
        &mut self,
        game: &Game,
        moves: &[Move],
        depth: i32,
        exact: bool,
        scores: &mut [i32],
    ) -> Option<usize> {
        let mut alpha = -INF;
        let mut best = None;
        self.line[0] = game.hash();
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = *game;
            child.play_unchecked(mv);
            let score = if i == 0 || exact {
                self.search(&child, depth - 1, -INF, INF, 1)
            } else {
                let s = self.search(&child, depth - 1, alpha, alpha + 1, 1);
                if s > alpha && !self.clock.stopped() {
                    self.search(&child, depth - 1, alpha, INF, 1)
                } else {
                    s
                }
            };
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

    fn set_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][0] = Some(mv);
        let n = self.pv_len[ply + 1].min(MAX_PLY - 1);
        for k in 0..n {
            self.pv[ply][k + 1] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = n + 1;
    }

    /// Minimax value for the root seat, within `(alpha, beta)`.
    fn search(&mut self, game: &Game, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = 0;
        if let Some(v) = self.leaf(game, depth, ply) {
            return v;
        }
        let hash = game.hash();
        let hit = self.tt.probe(hash, ply as i32);
        if let Some(v) = hit.and_then(|h| cutoff(&h, depth, alpha, beta)) {
            return v;
        }
        let mut order = std::mem::take(&mut self.order[ply]);
        self.generate(game, hit.map(|h| h.mv), ply, &mut order);
        let result = if order.is_empty() {
            None
        } else {
            Some(self.moves(game, &mut order, depth, alpha, beta, ply))
        };
        self.order[ply] = order;
        let Some((best, best_move)) = result else {
            return self.evaluate(game);
        };
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
        let mv = best_move.map_or(0, code);
        self.tt.store(hash, depth, ply as i32, best, bound, mv);
        best
    }

    /// The value of a node that is not searched further: stopped, decided, repeated on the
    /// line, or at the horizon. Records the node on the line otherwise.
    fn leaf(&mut self, game: &Game, depth: i32, ply: usize) -> Option<i32> {
        if self.clock.tick() {
            return Some(0);
        }
        if let Some(v) = self.terminal(game, ply) {
            return Some(v);
        }
        let hash = game.hash();
        if self.line[..ply].contains(&hash) {
            return Some(0);
        }
        self.line[ply] = hash;
        (depth <= 0 || ply >= MAX_PLY).then(|| self.evaluate(game))
    }

    /// Searches the ordered moves of a node: the best value and move (the mover maximises when
    /// it is the root seat, minimises otherwise; opponents try their `reply_beam` best moves).
    fn moves(
        &mut self,
        game: &Game,
        order: &mut [(i32, Move)],
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> (i32, Option<Move>) {
        let maximising = game.to_move() == self.root;
        let mut best = if maximising { -INF } else { INF };
        let mut best_move = None;
        let width = if maximising {
            order.len()
        } else {
            order.len().min(self.reply_beam)
        };
        for i in 0..width {
            let (key, mv) = pick(order, i);
            if i > 0 && depth <= 2 && key < BACKWARD_PRUNE {
                break; // the rest are further back still
            }
            let mut child = *game;
            child.play_unchecked(mv);
            let reduce = reduction(depth, i, key);
            let score =
                self.child_value(&child, depth, reduce, alpha, beta, ply, i == 0, maximising);
            if self.clock.stopped() {
                break;
            }
            if (maximising && score > best) || (!maximising && score < best) {
                best = score;
                best_move = Some(mv);
                if maximising {
                    alpha = alpha.max(score);
                } else {
                    beta = beta.min(score);
                }
                self.set_pv(ply, mv);
            }
            if alpha >= beta {
                self.reward(mv, ply, depth);
                break;
            }
        }
        (best, best_move)
    }

    /// PVS for one child: the first move with the full window, the others with a null window
    /// (reduced if late), re-searched when they might improve.
    #[allow(clippy::too_many_arguments)]
    fn child_value(
        &mut self,
        child: &Game,
        depth: i32,
        reduce: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        first: bool,
        maximising: bool,
    ) -> i32 {
        let d = depth - 1;
        if first {
            return self.search(child, d, alpha, beta, ply + 1);
        }
        let (na, nb) = if maximising {
            (alpha, alpha + 1)
        } else {
            (beta - 1, beta)
        };
        let mut s = self.search(child, d - reduce, na, nb, ply + 1);
        let promising = |s: i32| {
            if maximising {
                s > alpha
            } else {
                s < beta
            }
        };
        if reduce > 0 && promising(s) && !self.clock.stopped() {
            s = self.search(child, d, na, nb, ply + 1);
        }
        if promising(s) && (s > alpha && s < beta) && !self.clock.stopped() {
            s = self.search(child, d, alpha, beta, ply + 1);
        }
        s
    }

    /// The legal moves with their ordering keys.
    fn generate(&mut self, game: &Game, tt: Option<u16>, ply: usize, out: &mut Vec<(i32, Move)>) {
        let list = &mut self.lists[ply];
        game.legal_moves(list);
        out.clear();
        let t = tables();
        let seat = game.to_move();
        let camps = game.rules().seat_camps(seat);
        let killers = self.killers[ply];
        for &mv in list.iter() {
            let colour = camps
                .iter()
                .find(|c| game.set_pieces(**c).contains(mv.from))
                .map_or(0, |c| c.index());
            let gain = t.piece(self.pieces, colour, mv.to) - t.piece(self.pieces, colour, mv.from);
            let mut key = gain;
            if Some(code(mv)) == tt {
                key += TT_MOVE;
            } else if killers.contains(&Some(mv)) {
                key += KILLER;
            } else if gain >= 0 {
                key += self.history[code_index(mv)].min(KILLER / 2 - 1) >> 4;
            }
            out.push((key, mv));
        }
    }

    fn reward(&mut self, mv: Move, ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let h = &mut self.history[code_index(mv)];
        *h = (*h + depth * depth).min(1 << 22);
    }
}

/// Late-move reduction of the `i`-th move (ordering key `key`) at `depth`.
fn reduction(depth: i32, i: usize, key: i32) -> i32 {
    if depth >= 3 && i >= LMR_AFTER && key < KILLER {
        1 + i32::from(i >= 4 * LMR_AFTER)
    } else {
        0
    }
}

fn code_index(mv: Move) -> usize {
    usize::from(mv.from.index()) << 7 | usize::from(mv.to.index())
}

/// Selection step: brings the best remaining move to `i` and returns it.
fn pick(order: &mut [(i32, Move)], i: usize) -> (i32, Move) {
    let mut best = i;
    for j in i + 1..order.len() {
        if order[j].0 > order[best].0 {
            best = j;
        }
    }
    order.swap(i, best);
    order[i]
}
