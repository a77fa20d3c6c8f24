//! The search driver shared by both games: the budget of a level ([`Setup`]), iterative
//! deepening over the root moves ([`deepen`]), the root move loop and the principal-variation
//! search step of one child ([`pvs`]), generic over the small [`Tree`] trait that each game's
//! searcher implements (its node type, how a move is played and how a child is valued).
//!
//! Values are in the frame of the mover at the parent: a negamax searcher (draughts) negates
//! its child's value and window; a minimax searcher (Chinese checkers, where scores stay for the
//! root seat so that passes and 3–6 players need no special case) passes them through and says
//! whether the parent maximises.

use std::time::Duration;

use crate::time::Clock;
use crate::{Analysis, Budget, Level, Limits, Plan, WIN};

/// Beyond every score.
pub(crate) const INF: i32 = WIN + 1_000;

/// A game's searcher, as the driver sees it.
pub(crate) trait Tree {
    /// A move.
    type Move: Copy;
    /// A position being searched (with whatever the searcher keeps beside it, e.g. its hash).
    type Node;

    /// The search clock.
    fn clock(&mut self) -> &mut Clock;
    /// The principal-variation table.
    fn pv(&mut self) -> &mut Pv<Self::Move>;
    /// Called before each root iteration.
    fn start(&mut self, root: &Self::Node, depth: i32);
    /// The child of `node` after `mv`, entered on the searched line at `ply`.
    fn play(&mut self, node: &Self::Node, mv: Self::Move, ply: usize) -> Self::Node;
    /// Leaves the child entered at `ply` (the line goes back to its parent).
    fn unplay(&mut self, ply: usize);
    /// The value of `child` (at `ply`) searched to `depth`, within the window `(alpha, beta)`,
    /// all in the frame of the mover at its parent.
    fn value(&mut self, child: &Self::Node, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32;
}

/// How one child is searched by [`pvs`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    /// The parent's depth.
    pub depth: i32,
    /// The parent's ply.
    pub ply: usize,
    /// The first move of the node: searched with the full window.
    pub first: bool,
    /// Plies taken off the null-window search of a late move (0: none).
    pub reduce: i32,
    /// Whether the parent's mover maximises the values (always, in negamax form).
    pub maximising: bool,
}

/// Principal variation search of one child (already entered with [`Tree::play`]): the first
/// move with the full window; the others with a null window, reduced by `step.reduce`, searched
/// again unreduced and then with the full window while they may improve it.
pub(crate) fn pvs<T: Tree>(t: &mut T, child: &T::Node, step: Step, alpha: i32, beta: i32) -> i32 {
    let (d, ply) = (step.depth - 1, step.ply + 1);
    if step.first {
        return t.value(child, d, alpha, beta, ply);
    }
    let (na, nb) = if step.maximising {
        (alpha, alpha + 1)
    } else {
        (beta - 1, beta)
    };
    let promising = |s: i32| {
        if step.maximising {
            s > alpha
        } else {
            s < beta
        }
    };
    let mut s = t.value(child, d - step.reduce, na, nb, ply);
    if step.reduce > 0 && promising(s) && !t.clock().stopped() {
        s = t.value(child, d, na, nb, ply);
    }
    if s > alpha && s < beta && !t.clock().stopped() {
        s = t.value(child, d, alpha, beta, ply);
    }
    s
}

/// Searches the root moves at `depth` (the root's mover maximises): every root move's value
/// goes to `scores` (exact for all with `exact`, else only for the best). Returns the best
/// index, or `None` if stopped before the first move was searched.
pub(crate) fn root<T: Tree>(
    t: &mut T,
    node: &T::Node,
    moves: &[T::Move],
    depth: i32,
    exact: bool,
    scores: &mut [i32],
) -> Option<usize> {
    t.start(node, depth);
    let mut alpha = -INF;
    let mut best = None;
    for (i, &mv) in moves.iter().enumerate() {
        let child = t.play(node, mv, 1);
        let step = Step {
            depth,
            ply: 0,
            first: i == 0 || exact,
            reduce: 0,
            maximising: true,
        };
        let window = if step.first { -INF } else { alpha };
        let score = pvs(t, &child, step, window, INF);
        t.unplay(1);
        if t.clock().stopped() {
            break;
        }
        scores[i] = score;
        if best.is_none() || score > alpha {
            alpha = score;
            best = Some(i);
            t.pv().set(0, mv);
        }
    }
    best
}

/// The result of [`deepen`]: the analysis, and the root moves with their scores of the last
/// completed iteration (best first), for the levels that pick among them.
pub(crate) struct Deepened<M> {
    pub analysis: Analysis<M>,
    pub scores: Vec<i32>,
    pub moves: Vec<M>,
}

/// Iterative deepening from depth 1 to `max_depth` over the root `moves` (reordered: the best
/// of each iteration first), until the clock stops or a win or loss is proven. `report` gets the
/// analysis of every completed iteration. A partial iteration only settles the best move (its
/// other scores are bounds). `None` only if cancelled before one move was searched; stopped by
/// the time or nodes before that, the first move is played.
pub(crate) fn deepen<T: Tree>(
    t: &mut T,
    node: &T::Node,
    moves: &mut [T::Move],
    max_depth: u32,
    exact: bool,
    report: &mut dyn FnMut(&Analysis<T::Move>),
) -> Option<Deepened<T::Move>> {
    let mut result: Option<Deepened<T::Move>> = None;
    let mut scores = vec![0; moves.len()];
    for depth in 1..=max_depth {
        let best = root(t, node, moves, depth as i32, exact, &mut scores);
        let completed = !t.clock().stopped();
        if let Some(i) = best {
            moves[..=i].rotate_right(1);
            scores[..=i].rotate_right(1);
            let analysis = Analysis {
                best: moves[0],
                score: scores[0],
                depth: if completed { depth } else { depth - 1 },
                nodes: t.clock().nodes,
                pv: t.pv().line(),
                elapsed: t.clock().elapsed(),
            };
            if completed {
                report(&analysis);
            }
            let (kept_scores, kept_moves) = match (result, completed) {
                (Some(r), false) => (r.scores, r.moves),
                _ => (scores.clone(), moves.to_vec()),
            };
            result = Some(Deepened {
                analysis,
                scores: kept_scores,
                moves: kept_moves,
            });
        }
        if !completed || crate::is_decisive(scores[0]) || t.clock().check() {
            break;
        }
    }
    if result.is_none() && !t.clock().cancelled() {
        // Not even one move searched: play the best-ordered one.
        result = Some(Deepened {
            analysis: Analysis {
                best: moves[0],
                score: 0,
                depth: 0,
                nodes: 0,
                pv: vec![moves[0]],
                elapsed: Duration::ZERO,
            },
            scores: vec![0],
            moves: vec![moves[0]],
        });
    }
    let (nodes, elapsed) = (t.clock().nodes, t.clock().elapsed());
    result.map(|mut r| {
        r.analysis.nodes = nodes;
        r.analysis.elapsed = elapsed;
        r
    })
}

/// What a level may spend on one search.
pub(crate) struct Setup {
    pub plan: Plan,
    /// The clock of the level's share of the time and node budget.
    pub clock: Clock,
    /// Positions the transposition table is sized for.
    pub tt_nodes: u64,
    /// Deepest iteration: the budget's depth cap, else the level's [`Plan::max_depth`] in the
    /// game's unit, at most `deepest`.
    pub max_depth: u32,
}

impl Setup {
    /// The level's share of the limits and budget; `unit` is how many plies one step of
    /// [`Plan::max_depth`] is worth in the game, `deepest` the game's deepest iteration.
    pub fn new(level: Level, limits: &Limits, budget: &Budget, unit: u32, deepest: u32) -> Setup {
        let plan = level.plan();
        let time = limits.budget() / plan.share;
        let nodes = budget.nodes.map(|n| (n / u64::from(plan.share)).max(1));
        let max_depth = budget
            .depth
            .unwrap_or_else(|| plan.max_depth.saturating_mul(unit))
            .clamp(1, deepest);
        Setup {
            plan,
            clock: Clock::new(Some(time), nodes, limits.cancel.clone()),
            tt_nodes: crate::table_nodes(time, nodes),
            max_depth,
        }
    }
}

/// The principal-variation table: per ply, the best line found from that ply.
pub(crate) struct Pv<M> {
    lines: Vec<Vec<Option<M>>>,
    len: Vec<usize>,
}

impl<M: Copy> Pv<M> {
    /// A table for lines of up to `max_ply` moves.
    pub fn new(max_ply: usize) -> Self {
        Pv {
            lines: vec![vec![None; max_ply + 1]; max_ply + 1],
            len: vec![0; max_ply + 2],
        }
    }

    /// Forgets the line from `ply` (a node is entered).
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// The line from `ply` is `mv` followed by the line from `ply + 1`.
    pub fn set(&mut self, ply: usize, mv: M) {
        let max = self.lines.len() - 1;
        let n = self.len[ply + 1].min(max - 1);
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[0] = Some(mv);
        line[1..=n].copy_from_slice(&tail[0][..n]);
        self.len[ply] = n + 1;
    }

    /// The line from the root.
    pub fn line(&self) -> Vec<M> {
        self.lines[0][..self.len[0]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }
}

/// Selection step of a move loop: brings the best-keyed remaining move to `i` and returns it.
pub(crate) fn pick<M: Copy>(order: &mut [(i32, M)], i: usize) -> (i32, M) {
    let mut best = i;
    for j in i + 1..order.len() {
        if order[j].0 > order[best].0 {
            best = j;
        }
    }
    order.swap(i, best);
    order[i]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A uniform tree of `width` moves per node and leaves valued by a hash of their path, in
    /// negamax form, counting the nodes visited.
    struct Toy {
        clock: Clock,
        pv: Pv<u8>,
        width: u8,
    }

    impl Tree for Toy {
        type Move = u8;
        type Node = u64;

        fn clock(&mut self) -> &mut Clock {
            &mut self.clock
        }
        fn pv(&mut self) -> &mut Pv<u8> {
            &mut self.pv
        }
        fn start(&mut self, _: &u64, _: i32) {}
        fn play(&mut self, node: &u64, mv: u8, _: usize) -> u64 {
            node.wrapping_mul(31).wrapping_add(u64::from(mv) + 1)
        }
        fn unplay(&mut self, _: usize) {}
        fn value(&mut self, child: &u64, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
            -self.negamax(*child, depth, -beta, -alpha, ply)
        }
    }

    impl Toy {
        fn negamax(&mut self, node: u64, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
            self.pv.clear(ply);
            if self.clock.tick() {
                return 0;
            }
            if depth <= 0 {
                let mut r = crate::Rng::new(node);
                return (r.next_u64() % 201) as i32 - 100;
            }
            let mut best = -INF;
            for mv in 0..self.width {
                let child = self.play(&node, mv, ply + 1);
                let step = Step {
                    depth,
                    ply,
                    first: mv == 0,
                    reduce: 0,
                    maximising: true,
                };
                let s = pvs(self, &child, step, alpha, beta);
                if s > best {
                    best = s;
                    if s > alpha {
                        alpha = s;
                        self.pv.set(ply, mv);
                    }
                }
                if alpha >= beta {
                    break;
                }
            }
            best
        }

        /// Plain minimax, for reference.
        fn minimax(&self, node: u64, depth: i32) -> i32 {
            if depth <= 0 {
                let mut r = crate::Rng::new(node);
                return (r.next_u64() % 201) as i32 - 100;
            }
            (0..self.width)
                .map(|mv| {
                    -self.minimax(
                        node.wrapping_mul(31).wrapping_add(u64::from(mv) + 1),
                        depth - 1,
                    )
                })
                .max()
                .unwrap()
        }
    }

    fn toy(width: u8, nodes: Option<u64>) -> Toy {
        Toy {
            clock: Clock::new(None, nodes, Arc::default()),
            pv: Pv::new(16),
            width,
        }
    }

    #[test]
    fn deepening_finds_the_minimax_value_and_its_line() {
        for seed in 1..6u64 {
            let mut t = toy(4, None);
            let mut moves: Vec<u8> = (0..4).collect();
            let mut reported = Vec::new();
            let d = deepen(&mut t, &seed, &mut moves, 5, false, &mut |a| {
                reported.push(a.depth)
            })
            .unwrap();
            assert_eq!(reported, [1, 2, 3, 4, 5]);
            assert_eq!(d.analysis.score, t.minimax(seed, 5), "seed {seed}");
            assert_eq!(d.analysis.pv.len(), 5);
            assert_eq!(d.analysis.pv[0], d.analysis.best);
            // The line's leaf has the root's value.
            let leaf = d.analysis.pv.iter().fold(seed, |n, &mv| t.play(&n, mv, 0));
            let mut r = crate::Rng::new(leaf);
            let sign = if d.analysis.pv.len() % 2 == 0 { 1 } else { -1 };
            assert_eq!(sign * ((r.next_u64() % 201) as i32 - 100), d.analysis.score);
        }
    }

    #[test]
    fn exact_root_scores_are_every_moves_value() {
        let mut t = toy(3, None);
        let mut moves: Vec<u8> = (0..3).collect();
        let d = deepen(&mut t, &7, &mut moves, 4, true, &mut |_| {}).unwrap();
        for (&mv, &s) in d.moves.iter().zip(&d.scores) {
            let child = t.play(&7, mv, 0);
            assert_eq!(s, -t.minimax(child, 3));
        }
    }

    #[test]
    fn a_stopped_search_still_plays_and_a_depth_cap_holds() {
        let mut t = toy(8, Some(1));
        let mut moves: Vec<u8> = (0..8).collect();
        let d = deepen(&mut t, &3, &mut moves, 40, false, &mut |_| {}).unwrap();
        assert!(d.analysis.depth <= 1);
        assert!(moves.contains(&d.analysis.best));
        let limits = Limits::default();
        let budget = Budget::default();
        let facile = Setup::new(Level::Facile, &limits, &budget, 2, 40);
        assert_eq!(facile.max_depth, 2 * Level::Facile.plan().max_depth);
        assert_eq!(
            Setup::new(Level::Expert, &limits, &budget, 2, 40).max_depth,
            40
        );
        let capped = Budget {
            depth: Some(3),
            ..budget
        };
        assert_eq!(
            Setup::new(Level::Expert, &limits, &capped, 2, 40).max_depth,
            3
        );
    }
}
