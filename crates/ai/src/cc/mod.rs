//! The Chinese checkers players (RULES.md part 1): [`choose`] for the server, [`analyse`] for the
//! evaluation and principal variation, [`greedy`] as the reference baseline.
//!
//! Two players: iterative-deepening PVS (`search`). Three to six: the focused paranoid search
//! by default, or plain paranoid, or max^n ([`MultiSearch`]); all use the evaluation of
//! [`eval`], which reads each seat's real destination camps from the rules, so every rule option
//! (sets, 15 pieces, Japanese king, swaps …) is handled by the rules engine's move generator and
//! the camps it reports.
//!
//! [`solitaire`] solves the crossing puzzle (one set alone, the fewest moves across).

pub mod eval;
mod maxn;
pub(crate) mod search;
pub mod solitaire;

use chinese_checkers::{Game, Move};

use crate::search::{deepen, Setup};
use crate::time::Clock;
use crate::{pick_best, pick_noisy, Analysis, Budget, Level, Limits, Rng};
use search::Searcher;

/// Replies an opponent may play in the focused paranoid search.
const REPLY_BEAM: usize = 4;

/// Which search plays three to six players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MultiSearch {
    /// Paranoid with plausible replies: every opponent plays against the searching seat, but
    /// only with one of its few best moves by the ordering (its own progress first), so that
    /// the search is not lost in blocking moves nobody would play. The default (docs/ai.md).
    #[default]
    Focused,
    /// Every opponent plays against the searching seat with any move (alpha-beta applies).
    Paranoid,
    /// Each seat maximises its own value (no deep pruning; a beam of the best moves per node).
    MaxN,
    /// Best-Reply Search (Schadd and Winands, 2011): the searching seat's turns alternate with
    /// one reply, the most dangerous move of any single opponent; the other opponents do not
    /// move. More depth for one's own moves, less pessimism than paranoid.
    BestReply,
}

/// The move to play in `game` for the side to move, or `None` if the game is over, there is no
/// legal move, or the search was cancelled.
pub fn choose(game: &Game, level: Level, limits: &Limits) -> Option<Move> {
    analyse(game, level, limits, &Budget::default()).map(|a| a.best)
}

/// Searches `game` for the side to move at `level`: the move, its evaluation and the principal
/// variation. `None` if the game is over, there is no legal move, or the search was cancelled.
pub fn analyse(
    game: &Game,
    level: Level,
    limits: &Limits,
    budget: &Budget,
) -> Option<Analysis<Move>> {
    analyse_with(game, level, limits, budget, MultiSearch::default())
}

/// [`analyse`] with a choice of multi-player search (ignored with two players).
pub fn analyse_with(
    game: &Game,
    level: Level,
    limits: &Limits,
    budget: &Budget,
    multi: MultiSearch,
) -> Option<Analysis<Move>> {
    if game.is_over() || limits.cancelled() {
        return None;
    }
    let mut moves = game.legal_moves_vec();
    if moves.is_empty() {
        return None;
    }
    let waited;
    let mut limits = limits;
    if level == Level::Expert {
        match alone(game, limits) {
            Alone::Planned(a) => return Some(a),
            Alone::NotReady(rest) => {
                waited = rest;
                limits = &waited;
            }
            Alone::No => {}
        }
    }
    let mut rng = Rng::new(limits.seed ^ game.hash());
    order_root(game, &mut moves, &mut rng);
    let Setup {
        plan,
        clock,
        tt_nodes,
        max_depth,
    } = Setup::new(level, limits, budget, 1, search::MAX_PLY as u32);
    if moves.len() == 1 {
        return Some(single(game, moves[0], &clock));
    }
    let analysis = if game.rules().players > 2 && multi == MultiSearch::MaxN {
        maxn::analyse(game, &mut moves, clock, max_depth)
    } else {
        let beam = match multi {
            MultiSearch::Focused if game.rules().players > 2 && plan.focused => REPLY_BEAM,
            _ => usize::MAX,
        };
        let best_reply = multi == MultiSearch::BestReply;
        let mut s = Searcher::new(game, clock, tt_nodes, beam, best_reply);
        deepen(
            &mut s,
            game,
            &mut moves,
            max_depth,
            plan.noise > 0,
            &mut |_| {},
        )
    }?;
    let best = if plan.noise > 0 {
        let (scores, moves) = (&analysis.scores, &analysis.moves);
        // Mistakes, not aimless play: among forward moves when there are some.
        let gain = progress_gain(game);
        let forward: Vec<i32> = scores
            .iter()
            .zip(moves)
            .map(|(&s, &mv)| if gain(mv) > 0 { s } else { s - 1_000 })
            .collect();
        let pool = if moves.iter().any(|&mv| gain(mv) > 0) {
            &forward
        } else {
            scores
        };
        moves[pick_noisy(pool, plan.noise / 2, &mut rng)?]
    } else {
        analysis.analysis.best
    };
    Some(Analysis {
        best,
        ..analysis.analysis
    })
}

/// Positions a level of the crossing planner keeps (`solitaire::beam`).
const ALONE_BEAM: usize = 1_000;

/// What Expert does alone on the board.
enum Alone {
    /// Not alone (or no plan): the ordinary search.
    No,
    /// The first move of the planned crossing.
    Planned(Analysis<Move>),
    /// The planner's tables were not built within half the budget (they are being built in
    /// the background): the ordinary search, with these limits (what is left of the time).
    NotReady(Limits),
}

/// Expert alone on the board (the crossing puzzle, « Défi solitaire »): the first move of a short
/// crossing planned to the end (`solitaire::beam`), instead of a search whose horizon ends long
/// before the goal (docs/ai.md, "The crossing puzzle"). The planner needs the rows tables (about
/// 11 s to build, once per process: [`crate::warm_up`]); if they are not built yet, their build
/// starts in the background and the move waits for it half its budget at most, then searches.
fn alone(game: &Game, limits: &Limits) -> Alone {
    let started = std::time::Instant::now();
    let Some((position, mirrored)) = solitaire::from_game(game) else {
        return Alone::No;
    };
    if !solitaire::wait_warm(started + limits.budget() / 2, || limits.cancelled()) {
        let left = limits.budget().saturating_sub(started.elapsed());
        return Alone::NotReady(Limits {
            time: left.max(std::time::Duration::from_millis(1)),
            ..limits.clone()
        });
    }
    if limits.cancelled() {
        return Alone::No;
    }
    match plan(game, position, mirrored, started) {
        Some(a) => Alone::Planned(a),
        None => Alone::No,
    }
}

/// The first move of a crossing planned from `position` (the puzzle as `game` shows it,
/// `mirrored` if its moves must be mirrored back).
fn plan(
    game: &Game,
    position: chinese_checkers::Solitaire,
    mirrored: bool,
    started: std::time::Instant,
) -> Option<Analysis<Move>> {
    let crossing = solitaire::beam(position, ALONE_BEAM, 60)?;
    let unmirror = |m: Move| {
        if mirrored {
            Move::new(
                chinese_checkers::Solitaire::mirror_cell(m.from),
                chinese_checkers::Solitaire::mirror_cell(m.to),
            )
        } else {
            m
        }
    };
    let pv: Vec<Move> = crossing.moves.iter().map(|&m| unmirror(m)).collect();
    let values = eval::values(game);
    Some(Analysis {
        best: *pv.first()?,
        score: eval::utility(game, &values, game.to_move()),
        depth: pv.len() as u32,
        nodes: crossing.nodes,
        pv,
        elapsed: started.elapsed(),
    })
}

fn single(game: &Game, mv: Move, clock: &Clock) -> Analysis<Move> {
    let values = eval::values(game);
    Analysis {
        best: mv,
        score: eval::utility(game, &values, game.to_move()),
        depth: 0,
        nodes: 1,
        pv: vec![mv],
        elapsed: clock.elapsed(),
    }
}

/// Root order: random among equals (seeded), then by forward progress.
fn order_root(game: &Game, moves: &mut [Move], rng: &mut Rng) {
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i + 1));
    }
    let gain = progress_gain(game);
    moves.sort_by_key(|&mv| std::cmp::Reverse(gain(mv)));
}

/// The change of the moved piece's value (see [`eval`]) for moves of the side to move.
fn progress_gain(game: &Game) -> impl Fn(Move) -> i32 + '_ {
    let t = eval::tables();
    let pieces = game.rules().pieces;
    let camps = game.rules().seat_camps(game.to_move());
    move |mv: Move| {
        let colour = camps
            .iter()
            .find(|c| game.set_pieces(**c).contains(mv.from))
            .map_or(0, |c| c.index());
        t.piece(pieces, colour, mv.to) - t.piece(pieces, colour, mv.from)
    }
}

/// The reference greedy player: one ply, the move that most reduces the total distance of the
/// mover's pieces to their destination (the tip of each set's destination camp); ties at random.
pub fn greedy(game: &Game, seed: u64) -> Option<Move> {
    let moves = game.legal_moves_vec();
    let t = eval::tables();
    let camps = game.rules().seat_camps(game.to_move());
    let scores: Vec<i64> = moves
        .iter()
        .map(|mv| {
            let colour = camps
                .iter()
                .find(|c| game.set_pieces(**c).contains(mv.from))
                .map_or(0, |c| c.index());
            i64::from(t.tip(colour, mv.from)) - i64::from(t.tip(colour, mv.to))
        })
        .collect();
    let mut rng = Rng::new(seed ^ game.hash());
    pick_best(&scores, &mut rng).map(|i| moves[i])
}

#[cfg(test)]
mod tests;
