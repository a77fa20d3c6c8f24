//! The move at the root from the tables: when the position to play is in them, the tables pick
//! the move outright (a win's shortest way out of its zone, a loss's longest), so that a won
//! ending is converted within the draw rules and a drawn one is never lost; only a choice
//! between several drawing moves is left to the search.

use draughts::{Board, GameOf, Move};

use super::{Egdb, Wdl, Zone};

/// Score of a position the tables call won (minus its plies): above every evaluation, below
/// the scores of a win seen on the board ([`crate::WIN`] minus the plies).
pub const TABLE_WIN: i32 = crate::WIN - 2_000;

/// What the tables say at the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootChoice<B: Board> {
    /// The move to play and its score.
    Decided(Move<B>, i32),
    /// The moves that keep the draw (the search picks among them).
    Draws(Vec<Move<B>>),
}

/// The tables' choice among `moves` of `game`, or `None` if its position is not in them.
pub fn root_choice<B: Board>(
    tables: &Egdb,
    game: &GameOf<B>,
    moves: &[Move<B>],
) -> Option<RootChoice<B>> {
    let pos = game.position();
    let rules = game.rules();
    let root = tables.probe(pos, &game.counters(), &rules)?;
    let mut best_win: Option<(u32, Move<B>)> = None;
    let mut longest_loss: Option<(u32, Move<B>)> = None;
    let mut draws = Vec::new();
    for &mv in moves {
        match outcome_after(tables, game, mv, root.zone)? {
            (Wdl::Win, rank) if !matches!(best_win, Some((r, _)) if r <= rank) => {
                best_win = Some((rank, mv))
            }
            (Wdl::Loss, rank) if !matches!(longest_loss, Some((r, _)) if r >= rank) => {
                longest_loss = Some((rank, mv))
            }
            (Wdl::Draw, _) => draws.push(mv),
            _ => {}
        }
    }
    if let Some((rank, mv)) = best_win {
        return Some(RootChoice::Decided(mv, TABLE_WIN - rank as i32));
    }
    if !draws.is_empty() {
        return Some(RootChoice::Draws(draws));
    }
    let (rank, mv) = longest_loss?;
    Some(RootChoice::Decided(mv, -TABLE_WIN + rank as i32))
}

/// The value of `mv` for the side playing it, with its rank: the plies the win or loss still
/// takes inside the root's zone (0 when the move ends the game or leaves the zone).
fn outcome_after<B: Board>(
    tables: &Egdb,
    game: &GameOf<B>,
    mv: Move<B>,
    zone: Zone,
) -> Option<(Wdl, u32)> {
    let pos = game.position();
    let after = pos.play_unchecked(mv);
    if !after.has_any_move() {
        return Some((Wdl::Win, 0));
    }
    let mut counters = game.counters();
    counters.update(pos, mv, &after);
    let hash = game.hash() ^ pos.zobrist_delta(mv);
    let repeated = pos.is_reversible(mv)
        && game
            .reversible_history()
            .iter()
            .filter(|&&h| h == hash)
            .count()
            >= 2;
    if repeated || counters.draw(&game.rules()).is_some() {
        return Some((Wdl::Draw, 0));
    }
    let p = tables.probe(&after, &counters, &game.rules())?;
    let rank = if p.zone == zone { p.distance } else { 0 };
    Some(match p.wdl {
        Wdl::Win => (Wdl::Loss, rank),
        Wdl::Draw => (Wdl::Draw, 0),
        Wdl::Loss => (Wdl::Win, rank),
    })
}
