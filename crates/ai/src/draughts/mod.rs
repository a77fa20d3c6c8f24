//! The draughts players (RULES.md part 2) on every board size: [`choose`] for the server,
//! [`analyse`] for the evaluation and principal variation, [`analyse_of`] for one board type with
//! a report after every iteration (the Hub protocol's `info`), [`accepts_draw`] for a CPU's
//! answer to a draw offer.

pub mod egdb;
mod eval;
mod offer;
pub mod patterns;
pub mod review;
pub(crate) mod search;
mod weights;

pub use eval::{
    drawish_divisor, evaluate, evaluate_linear, evaluate_patterns, features, Feature, Features,
    PHASE_ONE,
};
pub use offer::accepts_draw;

use draughts::{Board, Game, GameOf, Move, MoveInfo, Position};

use crate::search::{deepen, Deepened, Setup};
use crate::tt::Tt;
use crate::{pick_noisy, Analysis, Budget, Level, Limits, Rng, Table};
use search::{Here, Searcher, MAX_PLY};

/// Plies per step of [`crate::Plan::max_depth`]: a move of each side (Facile looks 2 plies
/// ahead, Normal 4, both with capture quiescence on top).
const PLIES_PER_STEP: u32 = 2;

/// The evaluation's weights, `[opening, ending]` per [`Feature`] (what `dames tune` starts
/// from).
pub fn weights() -> &'static [[i16; 2]] {
    &weights::WEIGHTS
}

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

/// Searches a game on board `B`, calling `report` after every completed iteration.
pub fn analyse_of<B: Board>(
    game: &GameOf<B>,
    level: Level,
    limits: &Limits,
    budget: &Budget,
    report: &mut dyn FnMut(&Analysis<Move<B>>),
) -> Option<Analysis<Move<B>>> {
    analyse_in(game, level, limits, budget, None, report)
}

/// [`analyse_of`] with a transposition table kept between searches (`None`: one sized for this
/// search), probing the endgame tables installed for the process ([`egdb::installed`]).
pub fn analyse_in<B: Board>(
    game: &GameOf<B>,
    level: Level,
    limits: &Limits,
    budget: &Budget,
    table: Option<&mut Table>,
    report: &mut dyn FnMut(&Analysis<Move<B>>),
) -> Option<Analysis<Move<B>>> {
    analyse_with(
        game,
        level,
        limits,
        budget,
        table,
        egdb::installed(),
        report,
    )
}

/// [`analyse_in`] with the given endgame tables (`None`: none). At the levels without noise a
/// root position in the tables is played from them ([`egdb::root_choice`]); every level's
/// search scores the positions it reaches in them by their table value.
pub fn analyse_with<B: Board>(
    game: &GameOf<B>,
    level: Level,
    limits: &Limits,
    budget: &Budget,
    mut table: Option<&mut Table>,
    tables: Option<&'static egdb::Egdb>,
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
    let Setup {
        plan,
        clock,
        tt_nodes,
        max_depth,
    } = Setup::new(level, limits, budget, PLIES_PER_STEP, MAX_PLY as u32 / 2);
    if plan.noise == 0 {
        match tables.and_then(|t| egdb::root_choice(t, game, &moves)) {
            Some(egdb::RootChoice::Decided(best, score)) => {
                let a = Analysis {
                    best,
                    score,
                    depth: 0,
                    nodes: moves.len() as u64,
                    pv: vec![best],
                    elapsed: clock.elapsed(),
                };
                report(&a);
                return Some(a);
            }
            Some(egdb::RootChoice::Draws(draws)) => moves.retain(|m| draws.contains(m)),
            None => {}
        }
    }
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
    let tt = match table.as_deref_mut() {
        Some(t) => t.take(),
        None => Tt::for_nodes(tt_nodes),
    };
    let mut s = Searcher::<B>::new(
        clock,
        tt,
        game.reversible_history(),
        game.counters(),
        game.rules(),
        tables,
    );
    let root = Here {
        pos,
        hash: game.hash(),
    };
    let exact = plan.noise > 0;
    let Deepened {
        analysis,
        scores,
        moves,
    } = {
        let searched = deepen(&mut s, &root, &mut moves, max_depth, exact, report);
        if let Some(t) = table {
            t.put(std::mem::replace(&mut s.tt, Tt::new(0)));
        }
        searched?
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
