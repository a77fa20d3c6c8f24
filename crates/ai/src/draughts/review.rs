//! The review of a finished game (« Analyser », docs/ai.md "Game review"): every position of the
//! game searched with a fixed node budget, its score from White's point of view, the best move
//! and its line, and each move marked by what it lost (`?!`, `?`, `??`).
//!
//! Scores are hundredths of a man. The search speaks for the side to move; a review speaks for
//! White in every position ([`Scored::white`]), and a move is judged from its mover's side:
//! its loss is the mover's expected score before the move minus the mover's expected score after
//! it ([`expected_score`]: the evaluation's own logistic curve, fitted on games by `dames tune`).
//! A forced win or loss (a score near [`crate::WIN`]) is capped at ±[`CAP`] with the plies to the
//! end kept apart ([`Scored::mate`]).
//!
//! ```
//! use dames_ai::draughts::review::{review, Mark, ReviewBudget};
//! use draughts::{Game, Rules};
//!
//! let mut game = Game::new(Rules::default());
//! for mv in ["32-28", "19-23", "28x19", "14x23"] {
//!     game.play_notation(mv).unwrap();
//! }
//! let budget = ReviewBudget { nodes: 2_000, max_plies: 10 };
//! let r = review(&game, &budget, &Default::default(), &mut |_, _| {}).unwrap();
//! assert_eq!(r.positions.len(), 5);
//! assert_eq!(r.moves.len(), 4);
//! assert!(r.moves.iter().all(|m| m.mark.is_none() || m.mark >= Some(Mark::Dubious)));
//! ```

use std::time::Duration;

use draughts::{Board, Color, Game, GameOf, MoveInfo, Outcome};

use crate::{is_decisive, Budget, Level, Limits, Table, WIN};

/// Every score of a review lies within ±`CAP` (20 men): a forced win is `CAP`, a forced loss
/// `-CAP`, so that the graph and the losses stay finite.
pub const CAP: i32 = 2_000;

/// The scale of the expected score: `1 / (1 + e^(-score / SCALE))`, the evaluation's logistic
/// curve rounded from the 148.8 that `dames tune fit` found on 123 734 positions of games
/// (`weights.rs`): a man up (about 127) is an expected score of 0.70.
pub const SCALE: f64 = 150.0;

/// A move that loses at least this much expected score (from 0 to 1) is dubious, `?!`: about a
/// quarter of a man from an equal position.
pub const DUBIOUS: f64 = 0.06;
/// … a mistake, `?`: about half a man from an equal position.
pub const MISTAKE: f64 = 0.12;
/// … a blunder, `??`: about three quarters of a man from an equal position; a man given away
/// for nothing (0.20) is one.
pub const BLUNDER: f64 = 0.18;

/// Time cap of one position's search, should the machine be very slow or very busy: the node
/// budget is what bounds the work.
const POSITION_TIME: Duration = Duration::from_secs(60);

/// What a move lost, by its expected-score loss (see the thresholds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// `?!`: at least [`DUBIOUS`].
    Dubious,
    /// `?`: at least [`MISTAKE`].
    Mistake,
    /// `??`: at least [`BLUNDER`].
    Blunder,
}

impl Mark {
    /// The PDN move suffix: `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Dubious => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The mark of a move that lost `loss` of expected score, `None` under [`DUBIOUS`].
    pub fn from_loss(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= DUBIOUS {
            Some(Mark::Dubious)
        } else {
            None
        }
    }
}

/// The expected score (0: lost, 1: won) of a score in hundredths of a man, from the same side.
pub fn expected_score(score: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(score) / SCALE).exp())
}

/// The expected score a move lost, from the scores (its mover's side, capped) before and after
/// it; never negative (a move better than the search thought loses nothing).
pub fn loss(before: i32, after: i32) -> f64 {
    (expected_score(before) - expected_score(after)).max(0.0)
}

/// A search score for the side to move (`score`) as a capped score for White, and the plies to
/// a forced end (won by the side the sign of the score gives).
pub fn for_white(score: i32, side: Color) -> (i32, Option<u32>) {
    let white = if side == Color::White { score } else { -score };
    if is_decisive(white) {
        let plies = (WIN - white.abs()).unsigned_abs();
        (CAP * white.signum(), Some(plies))
    } else {
        (white.clamp(-CAP + 1, CAP - 1), None)
    }
}

/// How much one review may search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewBudget {
    /// Nodes searched for each position.
    pub nodes: u64,
    /// Moves reviewed at most (the first ones); the rest of a longer game is left out.
    pub max_plies: usize,
}

/// One position of the game, searched.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    /// The side to move.
    pub to_move: Color,
    /// The score for White, hundredths of a man, within ±[`CAP`] (±`CAP`: a forced end).
    pub white: i32,
    /// A forced end: the plies to it, won by the side the sign of `white` gives.
    pub mate: Option<u32>,
    /// The best move, `None` when the game is over here.
    pub best: Option<MoveInfo>,
    /// The principal variation from here (starts with `best`).
    pub pv: Vec<MoveInfo>,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

impl Scored {
    /// The score for the side to move.
    pub fn for_mover(&self) -> i32 {
        match self.to_move {
            Color::White => self.white,
            Color::Black => -self.white,
        }
    }
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The move as played.
    pub played: MoveInfo,
    /// The expected score it lost for its mover (0–1).
    pub loss: f64,
    /// Its mark, if it lost enough.
    pub mark: Option<Mark>,
}

/// A game reviewed: `positions[i]` is the position before move `i` (the last one after the last
/// move reviewed), `moves[i]` the move played from `positions[i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The positions, one more than the moves.
    pub positions: Vec<Scored>,
    /// The moves reviewed.
    pub moves: Vec<Judged>,
    /// Whether the game had more moves than [`ReviewBudget::max_plies`].
    pub truncated: bool,
}

/// Reviews the moves of `game` from its start: each position searched at Expert with
/// `budget.nodes` nodes (one transposition table kept from position to position), each move
/// judged ([`judge`]). `progress(done, total)` is called after each position. Deterministic for
/// a game and a budget (`limits.seed`). `None` if `limits.cancel` was set meanwhile.
pub fn review(
    game: &Game,
    budget: &ReviewBudget,
    limits: &Limits,
    progress: &mut dyn FnMut(usize, usize),
) -> Option<Review> {
    match game {
        Game::Brazilian(g) => review_of(g, budget, limits, progress),
        Game::International(g) => review_of(g, budget, limits, progress),
        Game::Canadian(g) => review_of(g, budget, limits, progress),
    }
}

fn review_of<B: Board>(
    game: &GameOf<B>,
    budget: &ReviewBudget,
    limits: &Limits,
    progress: &mut dyn FnMut(usize, usize),
) -> Option<Review> {
    let played = game.moves();
    let plies = played.len().min(budget.max_plies);
    let mut here = GameOf::<B>::from_position(game.rules(), *game.start());
    let mut table = Table::new(TABLE_MIB);
    let mut positions = Vec::with_capacity(plies + 1);
    for (i, &mv) in played.iter().take(plies).enumerate() {
        positions.push(score(&here, budget.nodes, &mut table, limits)?);
        progress(i + 1, plies + 1);
        here.play(mv).ok()?;
    }
    positions.push(score(&here, budget.nodes, &mut table, limits)?);
    progress(plies + 1, plies + 1);
    let infos = game.move_infos();
    let moves = (0..plies)
        .map(|i| judge(&positions[i], &positions[i + 1], &infos[i]))
        .collect();
    Some(Review {
        positions,
        moves,
        truncated: played.len() > plies,
    })
}

/// The transposition table of a review, kept from one position to the next (consecutive
/// positions share most of their trees).
const TABLE_MIB: usize = 16;

/// The move `played` from `before` to `after`, as its mover (`before.to_move`) saw it: the
/// engine's own choice loses nothing (a search after the move may see further than the one
/// before it), any other move what the mover's expected score fell by.
pub fn judge(before: &Scored, after: &Scored, played: &MoveInfo) -> Judged {
    let engine_choice = before
        .best
        .as_ref()
        .is_some_and(|b| b.path == played.path && b.captures == played.captures);
    let loss = if engine_choice {
        0.0
    } else {
        let sign = if before.to_move == Color::White {
            1
        } else {
            -1
        };
        loss(sign * before.white, sign * after.white)
    };
    Judged {
        played: played.clone(),
        loss,
        mark: Mark::from_loss(loss),
    }
}

/// Forced moves followed at most, in a row, before a position is searched anyway.
const FORCED_CHAIN: usize = 8;

/// Searches one position of a game at Expert with a node budget; a forced move (the only legal
/// one, often a capture) is scored by the position after it, whose static value would mislead.
fn score<B: Board>(
    game: &GameOf<B>,
    nodes: u64,
    table: &mut Table,
    limits: &Limits,
) -> Option<Scored> {
    let to_move = game.position().side_to_move();
    if let Some(outcome) = game.outcome() {
        return Some(ended(outcome, to_move));
    }
    let mut forced = Vec::new();
    let mut line = game.clone();
    while forced.len() < FORCED_CHAIN && line.outcome().is_none() {
        let moves = line.legal_moves();
        if moves.len() != 1 {
            break;
        }
        forced.push(line.position().move_info(moves[0]));
        line.play(moves[0]).ok()?;
    }
    let mut scored = match line.outcome() {
        Some(outcome) => ended(outcome, line.position().side_to_move()),
        None => search(&line, nodes, table, limits)?,
    };
    if !forced.is_empty() {
        // The forced moves count in the plies to a forced end.
        let plies = forced.len() as u32;
        scored.mate = scored.mate.map(|m| m + plies);
        forced.append(&mut scored.pv);
        scored.best = forced.first().cloned();
        scored.pv = forced;
        scored.to_move = to_move;
    }
    Some(scored)
}

/// The position searched: `None` if cancelled.
fn search<B: Board>(
    game: &GameOf<B>,
    nodes: u64,
    table: &mut Table,
    limits: &Limits,
) -> Option<Scored> {
    let to_move = game.position().side_to_move();
    let limits = Limits {
        time: POSITION_TIME,
        ..limits.clone()
    };
    let budget = Budget {
        nodes: Some(nodes.max(1)),
        depth: None,
    };
    let a = super::analyse_in(
        game,
        Level::Expert,
        &limits,
        &budget,
        Some(table),
        &mut |_| {},
    )?;
    let (white, mate) = for_white(a.score, to_move);
    let root = *game.position();
    Some(Scored {
        to_move,
        white,
        mate,
        best: Some(root.move_info(a.best)),
        pv: super::pv_infos(&root, &a.pv),
        depth: a.depth,
        nodes: a.nodes,
    })
}

/// A position where the game is over (the side to move cannot move, or a draw rule ended it).
fn ended(outcome: Outcome, to_move: Color) -> Scored {
    let (white, mate) = match outcome {
        Outcome::Win {
            winner: Color::White,
            ..
        } => (CAP, Some(0)),
        Outcome::Win { .. } => (-CAP, Some(0)),
        Outcome::Draw { .. } => (0, None),
    };
    Scored {
        to_move,
        white,
        mate,
        best: None,
        pv: Vec::new(),
        depth: 0,
        nodes: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(to_move: Color, white: i32, best: Option<MoveInfo>) -> Scored {
        Scored {
            to_move,
            white,
            mate: None,
            best,
            pv: Vec::new(),
            depth: 1,
            nodes: 1,
        }
    }

    fn a_move(notation: &str) -> MoveInfo {
        let game = Game::new(draughts::Rules::default());
        game.legal_moves()
            .into_iter()
            .find(|m| m.notation == notation)
            .unwrap()
    }

    #[test]
    fn the_thresholds_mark_the_expected_score_lost() {
        assert_eq!(Mark::from_loss(0.0), None);
        assert_eq!(Mark::from_loss(DUBIOUS - 1e-9), None);
        assert_eq!(Mark::from_loss(DUBIOUS), Some(Mark::Dubious));
        assert_eq!(Mark::from_loss(MISTAKE - 1e-9), Some(Mark::Dubious));
        assert_eq!(Mark::from_loss(MISTAKE), Some(Mark::Mistake));
        assert_eq!(Mark::from_loss(BLUNDER - 1e-9), Some(Mark::Mistake));
        assert_eq!(Mark::from_loss(BLUNDER), Some(Mark::Blunder));
        assert_eq!(Mark::from_loss(1.0), Some(Mark::Blunder));
        let symbols: Vec<_> = [Mark::Dubious, Mark::Mistake, Mark::Blunder]
            .map(Mark::symbol)
            .into();
        assert_eq!(symbols, ["?!", "?", "??"]);
    }

    #[test]
    fn from_an_equal_position_a_man_given_away_is_a_blunder_and_a_quarter_man_is_dubious() {
        assert_eq!(Mark::from_loss(loss(0, -127)), Some(Mark::Blunder));
        assert_eq!(Mark::from_loss(loss(0, -40)), Some(Mark::Dubious));
        assert_eq!(Mark::from_loss(loss(0, -80)), Some(Mark::Mistake));
        assert_eq!(Mark::from_loss(loss(0, -15)), None);
        // Five men up, a man more or less changes little: not a blunder any more.
        assert_eq!(Mark::from_loss(loss(635, 508)), None);
        // A forced win let go (capped) is a blunder.
        assert_eq!(Mark::from_loss(loss(CAP, 0)), Some(Mark::Blunder));
        // Better than expected loses nothing.
        assert_eq!(loss(-50, 30), 0.0);
    }

    #[test]
    fn scores_for_black_to_move_are_turned_to_whites_point_of_view() {
        assert_eq!(for_white(120, Color::White), (120, None));
        assert_eq!(for_white(120, Color::Black), (-120, None));
        assert_eq!(for_white(-5_000, Color::White), (-(CAP - 1), None));
        // Black to move wins in 7 plies: White is lost, capped.
        assert_eq!(for_white(WIN - 7, Color::Black), (-CAP, Some(7)));
        assert_eq!(for_white(-(WIN - 4), Color::Black), (CAP, Some(4)));
        assert_eq!(scored(Color::Black, -300, None).for_mover(), 300);
    }

    #[test]
    fn a_move_is_judged_from_its_movers_side() {
        let mv = a_move("32-28");
        // Black moved from -0.2 (good for Black) to +1.0 (good for White): Black lost.
        let j = judge(
            &scored(Color::Black, -20, None),
            &scored(Color::White, 100, None),
            &mv,
        );
        assert_eq!(j.mark, Some(Mark::Blunder), "{j:?}");
        // The same scores with White moving: White gained.
        let j = judge(
            &scored(Color::White, -20, None),
            &scored(Color::Black, 100, None),
            &mv,
        );
        assert_eq!((j.loss, j.mark), (0.0, None));
        // The engine's own choice is never marked.
        let j = judge(
            &scored(Color::White, 100, Some(mv.clone())),
            &scored(Color::Black, -100, None),
            &mv,
        );
        assert_eq!(j.mark, None);
    }

    #[test]
    fn a_man_given_away_is_found_and_marked() {
        // White to move: 29-24 keeps the men level, 29-23?? walks into 18x29.
        let mut game = Game::from_fen(draughts::Rules::default(), "W:W29,47:B18,3").unwrap();
        for mv in ["29-23", "18x29"] {
            game.play_notation(mv).unwrap();
        }
        let budget = ReviewBudget {
            nodes: 20_000,
            max_plies: 10,
        };
        let r = review(&game, &budget, &Limits::default(), &mut |_, _| {}).unwrap();
        assert_eq!(r.positions.len(), 3);
        assert_eq!(r.moves[0].played.notation, "29-23");
        assert_eq!(r.moves[0].mark, Some(Mark::Blunder), "{r:#?}");
        assert_ne!(r.positions[0].best.as_ref().unwrap().notation, "29-23");
        assert!(r.positions[2].white < -60, "{:?}", r.positions[2]);
        // The capture was forced: never marked.
        assert_eq!(r.moves[1].mark, None);
    }

    #[test]
    fn a_review_is_deterministic_and_reports_its_progress() {
        let mut game = Game::new(draughts::Rules::default());
        for mv in ["32-28", "19-23", "28x19", "14x23", "37-32"] {
            game.play_notation(mv).unwrap();
        }
        let budget = ReviewBudget {
            nodes: 3_000,
            max_plies: 3,
        };
        let mut seen = Vec::new();
        let a = review(&game, &budget, &Limits::default(), &mut |d, t| {
            seen.push((d, t))
        })
        .unwrap();
        let b = review(&game, &budget, &Limits::default(), &mut |_, _| {}).unwrap();
        assert_eq!(a, b);
        assert_eq!(seen, [(1, 4), (2, 4), (3, 4), (4, 4)]);
        assert!(a.truncated);
        assert_eq!(a.moves.len(), 3);
        // 28x19 was forced: scored by the position after it, never marked.
        assert_eq!(a.moves[2].mark, None);
        assert_eq!(a.positions[2].best.as_ref().unwrap().notation, "28x19");
    }

    #[test]
    fn a_forced_move_is_scored_by_what_follows_and_counts_in_the_plies_to_the_end() {
        // After 29-23, Black's only move is 18x29, and it wins: two men against one.
        let mut game = Game::from_fen(draughts::Rules::default(), "W:W29,47:B18,3").unwrap();
        game.play_notation("29-23").unwrap();
        let budget = ReviewBudget {
            nodes: 20_000,
            max_plies: 5,
        };
        let r = review(&game, &budget, &Limits::default(), &mut |_, _| {}).unwrap();
        let forced = &r.positions[1];
        assert_eq!(forced.to_move, Color::Black);
        assert_eq!(forced.best.as_ref().unwrap().notation, "18x29");
        assert_eq!(forced.pv[0].notation, "18x29");
        assert!(forced.white < 0, "{forced:?}");
        if let Some(plies) = forced.mate {
            assert!(plies >= 1, "the forced move counts: {forced:?}");
        }
    }

    #[test]
    fn a_cancelled_review_gives_nothing() {
        let game = Game::new(draughts::Rules::default());
        let limits = Limits::default();
        limits
            .cancel
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let budget = ReviewBudget {
            nodes: 1_000,
            max_plies: 10,
        };
        assert!(review(&game, &budget, &limits, &mut |_, _| {}).is_none());
    }
}
