//! Negamax PVS for draughts on every board size (generic over the board, so each size compiles
//! to its own code), driven by the shared driver (`crate::search`: iterative deepening, root
//! loop, PVS step): transposition table on the rules engine's incremental Zobrist hash, capture
//! quiescence (captures are forced, so a position with a capture is never evaluated
//! statically), single-reply extension, killers and history, late move reductions, and the
//! draw rules tracked along the line: repetitions, and the FMJD move counters (25 king moves
//! each, three pieces or two against a lone king) scored as draws where the game would end.

use draughts::{Board, DrawCounters, Move, MoveList, Position, Rules};

use super::egdb::{Egdb, Wdl, TABLE_WIN};
use super::eval::evaluate;
use crate::search::{pick, pvs, Pv, Step, Tree, INF};
use crate::time::Clock;
use crate::tt::{cutoff, Bound, Tt};
use crate::WIN;

/// Deepest ply (quiescence included).
pub const MAX_PLY: usize = 96;
const TT_MOVE: i32 = 1 << 28;
const CAPTURE: i32 = 1 << 24;
const KILLER: i32 = 1 << 20;
const LMR_AFTER: usize = 3;

/// One search over positions of board `B`.
pub(crate) struct Searcher<B: Board> {
    pub clock: Clock,
    pub tt: Tt,
    lists: Vec<MoveList<B>>,
    order: Vec<Vec<(i32, Move<B>)>>,
    killers: Vec<[Option<Move<B>>; 2]>,
    history: Vec<i32>,
    pv: Pv<Move<B>>,
    /// Hashes from the last irreversible move of the game to the current node.
    path: Vec<u64>,
    /// Per ply: index in `path` from which positions can repeat.
    floor: [usize; MAX_PLY + 1],
    /// Per ply: the draw rules' move counters (the game's at the root).
    counters: [DrawCounters; MAX_PLY + 1],
    rules: Rules,
    /// Endgame tables to score the positions they hold.
    egdb: Option<&'static Egdb>,
    root_depth: i32,
}

/// A position on the searched line and its hash.
pub(crate) struct Here<B: Board> {
    pub pos: Position<B>,
    pub hash: u64,
}

/// A node being searched.
struct Node<'a, B: Board> {
    here: &'a Here<B>,
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
    /// A searcher from a game's reversible history, draw counters and rules.
    pub fn new(
        clock: Clock,
        tt: Tt,
        history: &[u64],
        counters: DrawCounters,
        rules: Rules,
        egdb: Option<&'static Egdb>,
    ) -> Self {
        let mut path = Vec::with_capacity(history.len() + MAX_PLY + 2);
        path.extend_from_slice(history);
        Searcher {
            clock,
            tt,
            lists: (0..=MAX_PLY).map(|_| MoveList::new()).collect(),
            order: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 128 * 128],
            pv: Pv::new(MAX_PLY),
            path,
            floor: [0; MAX_PLY + 1],
            counters: [counters; MAX_PLY + 1],
            rules,
            egdb,
            root_depth: 1,
        }
    }

    fn push(&mut self, pos: &Position<B>, mv: Move<B>, after: &Position<B>, hash: u64, ply: usize) {
        self.floor[ply] = if pos.is_reversible(mv) {
            self.floor[ply - 1]
        } else {
            self.path.len()
        };
        self.path.push(hash);
        let mut counters = self.counters[ply - 1];
        counters.update(pos, mv, after);
        self.counters[ply] = counters;
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
        self.pv.clear(ply);
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
        let here = Here { pos: *pos, hash };
        let node = Node {
            here: &here,
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
        if ply > 0 && self.counters[ply].draw(&self.rules).is_some() {
            // The game ends here, unless the side to move has no move (a loss comes first).
            return Some(if pos.has_any_move() {
                0
            } else {
                -WIN + ply as i32
            });
        }
        if let Some(v) = self.table_value(pos, ply) {
            return Some(v);
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

    /// The endgame tables' value of a position below the root, if they hold it: won or lost
    /// (sooner is better) under the line's draw counters, or drawn.
    fn table_value(&self, pos: &Position<B>, ply: usize) -> Option<i32> {
        if ply == 0 {
            return None;
        }
        let probe = self.egdb?.probe(pos, &self.counters[ply], &self.rules)?;
        let won = TABLE_WIN - ply as i32 - probe.distance as i32;
        Some(match probe.wdl {
            Wdl::Win => won,
            Wdl::Draw => 0,
            Wdl::Loss => -won,
        })
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
        for i in 0..order.len() {
            let (key, mv) = pick(order, i);
            let child = self.play(node.here, mv, node.ply + 1);
            let step = Step {
                depth: node.depth,
                ply: node.ply,
                first: i == 0,
                reduce: i32::from(node.depth >= 3 && i >= LMR_AFTER && key < KILLER),
                maximising: true,
            };
            let score = pvs(self, &child, step, alpha, beta);
            self.unplay(node.ply + 1);
            if self.clock.stopped() {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.pv.set(node.ply, mv);
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

impl<B: Board> Tree for Searcher<B> {
    type Move = Move<B>;
    type Node = Here<B>;

    fn clock(&mut self) -> &mut Clock {
        &mut self.clock
    }

    fn pv(&mut self) -> &mut Pv<Move<B>> {
        &mut self.pv
    }

    fn start(&mut self, _: &Here<B>, depth: i32) {
        self.root_depth = depth;
    }

    fn play(&mut self, here: &Here<B>, mv: Move<B>, ply: usize) -> Here<B> {
        let hash = here.hash ^ here.pos.zobrist_delta(mv);
        let pos = here.pos.play_unchecked(mv);
        self.push(&here.pos, mv, &pos, hash, ply);
        Here { pos, hash }
    }

    fn unplay(&mut self, _: usize) {
        self.path.pop();
    }

    fn value(&mut self, child: &Here<B>, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        -self.search(&child.pos, child.hash, depth, -beta, -alpha, ply)
    }
}
