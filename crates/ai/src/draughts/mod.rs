//! The draughts players (RULES.md part 2) on every board size: [`choose`] for the server,
//! [`analyse`] for the evaluation and principal variation, [`analyse_of`] for one board type with
//! a report after every iteration (the Hub protocol's `info`).

mod eval;
pub(crate) mod search;

pub use eval::evaluate;

use draughts::{Board, Game, GameOf, Move, MoveInfo, Position};

use crate::time::Clock;
use crate::{pick_noisy, Analysis, Budget, Level, Limits, Rng};
use search::Searcher;

/// The move to play for the side to move, or `None` if there is none or the search was
/// cancelled.
pub fn choose(game: &Game, level: Level, limits: &Limits) -> Option<MoveInfo> {
    analyse(game, level, limits, &Budget::default()).map(|a| a.best)
}

/// Searches `game` for the side to move at `level`: the move, its evaluation (hundredths of a
/// man, for the side to move) and the principal variation, as [`MoveInfo`]s. `None` if the game
/// is over, there is no legal move, or the search was cancelled.
pub fn analyse(
    game: &Game,
    level: Level,
    limits: &Limits,
    budget: &Budget,
) -> Option<Analysis<MoveInfo>> {
    match game {
        Game::Brazilian(g) => infos(g, analyse_of(g, level, limits, budget, &mut |_| {})?),
        Game::International(g) => infos(g, analyse_of(g, level, limits, budget, &mut |_| {})?),
        Game::Canadian(g) => infos(g, analyse_of(g, level, limits, budget, &mut |_| {})?),
    }
}

/// The moves of an analysis as [`MoveInfo`] (paths and notation).
fn infos<B: Board>(g: &GameOf<B>, a: Analysis<Move<B>>) -> Option<Analysis<MoveInfo>> {
    let root = *g.position();
    Some(Analysis {
        best: root.move_info(a.best),
        score: a.score,
        depth: a.depth,
        nodes: a.nodes,
        pv: pv_infos(&root, &a.pv),
        elapsed: a.elapsed,
    })
}

/// The principal variation `pv` from `root` as [`MoveInfo`]s (stops at the first illegal move).
pub fn pv_infos<B: Board>(root: &Position<B>, pv: &[Move<B>]) -> Vec<MoveInfo> {
    let mut pos = *root;
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !pos.is_legal(mv) {
            break;
        }
        out.push(pos.move_info(mv));
        pos = pos.play_unchecked(mv);
    }
    out
}

/// How deep the shallow levels look, in plies (quiescence comes on top).
fn depth_of(level: Level) -> u32 {
    match level {
        Level::Facile => 2,
        Level::Normal => 4,
        _ => crate::MAX_DEPTH,
    }
}

/// An analysis with the root moves and their scores of the last completed iteration.
type Searched<B> = (Analysis<Move<B>>, Vec<i32>, Vec<Move<B>>);

/// Searches a game on board `B`, calling `report` after every completed iteration.
pub fn analyse_of<B: Board>(
    game: &GameOf<B>,
    level: Level,
    limits: &Limits,
    budget: &Budget,
    report: &mut dyn FnMut(&Analysis<Move<B>>),
) -> Option<Analysis<Move<B>>> {
    if game.outcome().is_some() || limits.cancelled() {
        return None;
    }
    let pos = *game.position();
    let mut moves: Vec<Move<B>> = game.legal_moves().into_iter().collect();
    if moves.is_empty() {
        return None;
    }
    let mut rng = Rng::new(limits.seed ^ game.hash());
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i + 1));
    }
    let plan = level.plan();
    let share = u64::from(plan.share);
    let nodes = budget.nodes.map(|n| (n / share).max(1));
    let time = limits.budget() / plan.share;
    let clock = Clock::new(Some(time), nodes, limits.cancel.clone());
    if moves.len() == 1 {
        let a = Analysis {
            best: moves[0],
            score: evaluate(&pos),
            depth: 0,
            nodes: 1,
            pv: vec![moves[0]],
            elapsed: clock.elapsed(),
        };
        report(&a);
        return Some(a);
    }
    let max_depth = budget.depth.unwrap_or_else(|| depth_of(level)).max(1);
    let exact = plan.noise > 0;
    let mut s = Searcher::<B>::new(
        clock,
        crate::table_nodes(time, nodes),
        game.reversible_history(),
    );
    let mut scores = vec![0; moves.len()];
    let mut result: Option<Searched<B>> = None;
    for depth in 1..=max_depth.min(search::MAX_PLY as u32 / 2) {
        let best = s.root(&pos, game.hash(), &moves, depth as i32, exact, &mut scores);
        let completed = !s.clock.stopped();
        if let Some(i) = best {
            moves[..=i].rotate_right(1);
            scores[..=i].rotate_right(1);
            let a = Analysis {
                best: moves[0],
                score: scores[0],
                depth: if completed { depth } else { depth - 1 },
                nodes: s.clock.nodes,
                pv: s.pv(),
                elapsed: s.clock.elapsed(),
            };
            if completed {
                report(&a);
            }
            let keep = match (&result, completed) {
                (Some((_, sc, mv)), false) => (sc.clone(), mv.clone()),
                _ => (scores.clone(), moves.clone()),
            };
            result = Some((a, keep.0, keep.1));
        }
        if !completed || crate::is_decisive(scores[0]) || s.clock.check() {
            break;
        }
    }
    let (analysis, scores, moves) = match result {
        Some(r) => r,
        None if !s.clock.cancelled() => {
            let a = Analysis {
                best: moves[0],
                score: 0,
                depth: 0,
                nodes: s.clock.nodes,
                pv: vec![moves[0]],
                elapsed: s.clock.elapsed(),
            };
            (a, vec![0], vec![moves[0]])
        }
        None => return None,
    };
    let analysis = Analysis {
        nodes: s.clock.nodes,
        elapsed: s.clock.elapsed(),
        ..analysis
    };
    let best = if plan.noise > 0 {
        moves[pick_noisy(&scores, plan.noise * 5 / 3, &mut rng)?]
    } else {
        analysis.best
    };
    Some(Analysis { best, ..analysis })
}

#[cfg(test)]
mod tests;
