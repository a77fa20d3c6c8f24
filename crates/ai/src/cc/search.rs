//! Alpha-beta for Chinese checkers: with two players the usual PVS; with more, the paranoid
//! reduction (every opponent plays against the searching seat). Written in minimax form (scores
//! always for the root seat; the root seat's turns maximise, everyone else's minimise) so that
//! consecutive opponent turns and automatic passes need no special case. Driven by the shared
//! driver (`crate::search`: iterative deepening, root loop, PVS step); transposition table, move ordering (TT move, killers, history, forward progress), late-move
//! reductions and pruning of backward moves near the leaves.

use chinese_checkers::{Game, Move, MoveList, Seat};

use super::eval::{self, tables};
use crate::search::{pick, pvs, Pv, Step, Tree};
use crate::time::Clock;
use crate::tt::{cutoff, Bound, Tt};
use crate::WIN;

/// Deepest ply a search reaches.
pub const MAX_PLY: usize = 48;
use crate::search::INF;
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
    pv: Pv<Move>,
    /// Hashes of the positions on the current line, for repetitions.
    line: [u64; MAX_PLY + 1],
    players: u8,
    pieces: u8,
    /// Moves an opponent may answer with (its best by the ordering); `usize::MAX`: all.
    reply_beam: usize,
    /// Best-Reply Search: at the opponents' turn, every opponent's moves are tried as the one
    /// reply, and the searching seat moves again after it.
    best_reply: bool,
    /// No other seat has a piece (the crossing puzzle): a repeated position is a waste of
    /// moves, worth what it was worth before, not a draw.
    alone: bool,
}

impl Searcher {
    pub fn new(
        root: &Game,
        clock: Clock,
        tt_nodes: u64,
        reply_beam: usize,
        best_reply: bool,
    ) -> Searcher {
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
            pv: Pv::new(MAX_PLY),
            line: [0; MAX_PLY + 1],
            players: root.rules().players,
            reply_beam,
            pieces: root.rules().pieces,
            best_reply: best_reply && root.rules().players > 2,
            alone: root
                .rules()
                .seats()
                .all(|s| s == root.to_move() || root.seat_pieces_of(s).is_empty()),
        }
    }

    /// The static value for the root seat.
    fn evaluate(&self, game: &Game) -> i32 {
        let values = eval::values(game);
        let mut u = eval::utility(game, &values, self.root);
        if self.players == 2 {
            let tempo = tables().weights.tempo;
            u += if game.to_move() == self.root {
                tempo
            } else {
                -tempo
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

    /// Minimax value for the root seat, within `(alpha, beta)`.
    fn search(&mut self, game: &Game, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv.clear(ply);
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
            return Some(if self.alone { self.evaluate(game) } else { 0 });
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
            let child = self.play(game, mv, ply + 1);
            let step = Step {
                depth,
                ply,
                first: i == 0,
                reduce: reduction(depth, i, key),
                maximising,
            };
            let score = pvs(self, &child, step, alpha, beta);
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
                self.pv.set(ply, mv);
            }
            if alpha >= beta {
                self.reward(mv, ply, depth);
                break;
            }
        }
        (best, best_move)
    }

    /// The legal moves with their ordering keys: of the side to move, or in Best-Reply Search
    /// at the opponents' turn, of every opponent that can move.
    pub(super) fn generate(
        &mut self,
        game: &Game,
        tt: Option<u16>,
        ply: usize,
        out: &mut Vec<(i32, Move)>,
    ) {
        out.clear();
        if self.best_reply && game.to_move() != self.root {
            for seat in game.rules().seats() {
                let mut turn = *game;
                if seat != self.root && turn.give_turn(seat).is_ok() {
                    self.generate_for(&turn, tt, ply, out);
                }
            }
        } else {
            self.generate_for(game, tt, ply, out);
        }
    }

    /// Appends the moves of the side to move with their ordering keys.
    fn generate_for(
        &mut self,
        game: &Game,
        tt: Option<u16>,
        ply: usize,
        out: &mut Vec<(i32, Move)>,
    ) {
        let list = &mut self.lists[ply];
        game.legal_moves(list);
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

impl Tree for Searcher {
    type Move = Move;
    type Node = Game;

    fn clock(&mut self) -> &mut Clock {
        &mut self.clock
    }

    fn pv(&mut self) -> &mut Pv<Move> {
        &mut self.pv
    }

    fn start(&mut self, root: &Game, _: i32) {
        self.line[0] = root.hash();
    }

    /// In Best-Reply Search, an opponent's move is played for the seat it belongs to, and the
    /// searching seat moves next (if it still can).
    fn play(&mut self, game: &Game, mv: Move, _: usize) -> Game {
        let mut child = *game;
        if self.best_reply && game.to_move() != self.root {
            let seat = game.piece_at(mv.from).and_then(|p| p.seat);
            if let Some(seat) = seat.filter(|&s| s != child.to_move()) {
                child
                    .give_turn(seat)
                    .expect("a generated reply's seat can move");
            }
            child.play_unchecked(mv);
            if !child.is_over() && child.to_move() != self.root {
                // Fails only if the root seat is out or blocked: the turn then goes on as usual.
                let _ = child.give_turn(self.root);
            }
        } else {
            child.play_unchecked(mv);
        }
        child
    }

    /// The line is recorded by [`Searcher::leaf`], nothing to undo.
    fn unplay(&mut self, _: usize) {}

    /// Minimax form: values and windows are for the root seat at every node.
    fn value(&mut self, child: &Game, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.search(child, depth, alpha, beta, ply)
    }
}
