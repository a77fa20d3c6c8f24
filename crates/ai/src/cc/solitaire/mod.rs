//! The crossing solver: the fewest moves that take ten pieces alone across the board
//! ([`Solitaire`], the « Défi solitaire »), found by depth-first searches pruned with an
//! admissible bound (the rows relaxation of [`rows`]) and a table of the positions already
//! searched.
//!
//! Two searches:
//! The bound: keep only how many pieces stand in each row (along each of the star's three axes)
//! and solve that relaxed puzzle exactly once for all spreads ([`rows`]); the largest of the
//! three distances.
//!
//! - [`Solver::symmetric`], from the standard start: a crossing read backwards and mirrored is a
//!   crossing (moves can be played back, and the mirror swaps the camps), so a crossing that is
//!   its own mirror image is settled by its first half. A crossing of `2k + 1` moves whose middle
//!   move takes a piece to its mirror hole is `k` moves to a position that is symmetric but for
//!   that piece; one of `2k` moves reaches a symmetric position in `k`. This bidirectional
//!   search (the two halves meet in the middle, one of them for free) searches only `k` moves
//!   deep, pruned with the rows distance to the near-symmetric spreads, and returns the shortest
//!   symmetric crossing. From the start it finds one of 27 moves, the optimum (Bell 2009).
//! - [`Solver::shortest`], from any position: IDA* with the rows distance to the goal, exact
//!   (it proves that nothing shorter exists) but exponential in the length: fast for the end of
//!   a crossing, out of reach for a whole one (`--prove` of `dames cc solve` can try).
//!
//! And the answer in seconds, not exhaustive: [`beam`] and [`pilot`] (the default of `dames cc
//! solve`, and Expert's plan alone on the board). Every search needs the rows tables, built
//! once per process ([`warm_up`]).

pub(crate) mod rows;

use chinese_checkers::{Bitboard, Move, Solitaire};

use rows::{RowTable, Spread, FAR, ROWS};

/// The rows bound along the three axes: across the crossing (`z`) and sideways (`x`, `y`), the
/// largest of the three relaxed distances (each admissible, so their maximum is).
#[derive(Clone, Copy)]
struct Bounds {
    across: &'static RowTable,
    sideways: &'static RowTable,
}

impl Bounds {
    fn new() -> Bounds {
        Bounds {
            across: rows::to_goal(),
            sideways: rows::to_goal_sideways(),
        }
    }

    /// At least this many moves from `position` to the goal ([`FAR`] if it cannot get there).
    fn to_goal(self, position: Solitaire) -> u8 {
        self.of_spreads(&rows::spreads(position))
    }

    /// The same from the position's [`rows::spreads`].
    fn of_spreads(self, s: &[Spread; 3]) -> u8 {
        let across = self.across.get(&s[rows::ACROSS]);
        let x = self.sideways.get(&s[0]);
        let y = self.sideways.get(&s[1]);
        across.max(x).max(y)
    }
}

/// At least this many moves from a position of spreads `s` to a target of `table` (targets
/// defined alike along every axis, such as the (near-)symmetric spreads), along the three axes.
fn on_every_axis(table: &RowTable, s: &[Spread; 3]) -> u8 {
    table.get(&s[0]).max(table.get(&s[1])).max(table.get(&s[2]))
}

/// A crossing found by the solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crossing {
    /// The moves, from the position searched to the goal.
    pub moves: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
}

/// Why a search gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsolved {
    /// No crossing within the move limit.
    TooLong,
    /// The node limit was reached first.
    OutOfNodes,
}

/// What a long search reports as it goes ([`Solver::on_progress`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Still searching for a crossing of `length` moves, `nodes` positions searched so far (every
    /// [`PROGRESS_EVERY`] positions).
    Searching {
        /// The crossing length being searched.
        length: u32,
        /// Positions searched since the search began.
        nodes: u64,
    },
    /// No crossing of `length` moves: the search goes on with one move more.
    Exhausted {
        /// The crossing length searched to the end.
        length: u32,
        /// Positions searched since the search began.
        nodes: u64,
    },
}

/// Positions between two [`Progress::Searching`] reports.
pub const PROGRESS_EVERY: u64 = 1 << 24;

/// Where a search reports its progress.
type Report = Option<Box<dyn FnMut(Progress) + Send>>;

/// The solver: the rows tables (built once, a few seconds) and the table of searched positions.
pub struct Solver {
    to_goal: Bounds,
    seen: Seen,
    nodes: u64,
    node_limit: u64,
    forward_only: bool,
    progress: Report,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver with a table of `2^22` searched positions and no node limit.
    pub fn new() -> Solver {
        Solver::with_table_bits(22)
    }

    /// A solver with a table of `2^bits` searched positions (17 bytes each).
    pub fn with_table_bits(bits: u32) -> Solver {
        Solver {
            to_goal: Bounds::new(),
            seen: Seen::new(bits),
            nodes: 0,
            node_limit: u64::MAX,
            forward_only: false,
            progress: None,
        }
    }

    /// Calls `f` every [`PROGRESS_EVERY`] positions and after each length searched without a
    /// crossing (the exact searches can run for hours).
    pub fn on_progress(&mut self, f: impl FnMut(Progress) + Send + 'static) {
        self.progress = Some(Box::new(f));
    }

    fn report(&mut self, length: u32) {
        let nodes = self.nodes;
        if let Some(f) = &mut self.progress {
            f(Progress::Exhausted { length, nodes });
        }
    }

    /// Makes [`Solver::symmetric`] play no move that goes back a row in the first half: much
    /// faster, but no longer exhaustive (a crossing found is real, the shortest symmetric one
    /// is no longer guaranteed).
    pub fn set_forward_only(&mut self, forward_only: bool) {
        self.forward_only = forward_only;
    }

    /// Stops the searches after `nodes` positions (counted over all the bounds tried).
    pub fn set_node_limit(&mut self, nodes: u64) {
        self.node_limit = nodes;
    }

    /// A lower bound on the moves from `position` to the goal (the rows relaxation along the
    /// three axes).
    pub fn lower_bound(&self, position: Solitaire) -> u32 {
        u32::from(self.to_goal.to_goal(position))
    }

    /// The shortest crossing from the standard start that is its own mirror image read
    /// backwards, of `min_moves` to `max_moves` moves (the shortest overall if `min_moves` is at
    /// most the rows bound of the start).
    ///
    /// # Errors
    /// [`Unsolved`] if there is none within `max_moves` or the node limit was reached.
    pub fn symmetric(&mut self, min_moves: u32, max_moves: u32) -> Result<Crossing, Unsolved> {
        self.nodes = 0;
        let start = Solitaire::start();
        let mut tables: [Option<RowTable>; 2] = [None, None];
        for length in self.lower_bound(start).max(min_moves)..=max_moves {
            let odd = (length % 2) as usize;
            let middle = tables[odd].get_or_insert_with(|| {
                RowTable::build(if odd == 1 { near_symmetric } else { symmetric })
            });
            let half = length / 2;
            if u32::from(on_every_axis(middle, &rows::spreads(start))) > half {
                continue;
            }
            let mut search = Half {
                to_goal: self.to_goal,
                middle,
                length,
                half,
                odd: odd == 1,
                forward_only: self.forward_only,
                seen: &mut self.seen,
                nodes: &mut self.nodes,
                node_limit: self.node_limit,
                progress: &mut self.progress,
                path: Vec::with_capacity(half as usize),
                buffers: move_buffers(half),
            };
            search.seen.clear();
            if let Some(middle_move) = search.search(start, 0)? {
                let mut moves = search.path.clone();
                moves.extend(middle_move);
                moves.extend(search.path.iter().rev().map(|m| {
                    Move::new(Solitaire::mirror_cell(m.to), Solitaire::mirror_cell(m.from))
                }));
                return Ok(Crossing {
                    moves,
                    nodes: self.nodes,
                });
            }
            self.report(length);
        }
        Err(Unsolved::TooLong)
    }

    /// The shortest crossing from `position` (IDA*: exact, exponential in the length), of at
    /// most `max_moves` moves.
    ///
    /// # Errors
    /// [`Unsolved`] if there is none within `max_moves` or the node limit was reached.
    pub fn shortest(&mut self, position: Solitaire, max_moves: u32) -> Result<Crossing, Unsolved> {
        self.nodes = 0;
        let first = self.lower_bound(position);
        for bound in first..=max_moves {
            let mut search = Deepening {
                to_goal: self.to_goal,
                bound,
                seen: &mut self.seen,
                nodes: &mut self.nodes,
                node_limit: self.node_limit,
                progress: &mut self.progress,
                path: Vec::with_capacity(bound as usize),
                buffers: move_buffers(bound),
            };
            search.seen.clear();
            if search.search(position, 0)? {
                return Ok(Crossing {
                    moves: search.path,
                    nodes: self.nodes,
                });
            }
            self.report(bound);
        }
        Err(Unsolved::TooLong)
    }

    /// Positions searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// Builds the rows tables to the goal if no one has yet (about 11 s of one core, 10.6 MB kept
/// for the process): the solver, [`beam`] and Expert alone on the board need them, and build
/// them on first use otherwise. Blocking; other threads that need the tables meanwhile wait for
/// this build instead of starting their own.
pub fn warm_up() {
    rows::to_goal();
    rows::to_goal_sideways();
}

/// Whether the rows tables are built (a crossing can be planned at once).
pub fn is_warm() -> bool {
    rows::built()
}

/// Starts [`warm_up`] in a thread of its own, once per process (later calls do nothing).
pub fn warm_up_in_background() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        std::thread::Builder::new()
            .name("dames-ai warm-up".into())
            .spawn(warm_up)
            .map(drop)
            .unwrap_or_else(|_| warm_up());
    });
}

/// Waits until the rows tables are built, at most until `deadline` or until `cancelled` says
/// so (starting their build in the background if no one has); whether they are.
pub fn wait_warm(deadline: std::time::Instant, cancelled: impl Fn() -> bool) -> bool {
    if is_warm() {
        return true;
    }
    warm_up_in_background();
    while !is_warm() && !cancelled() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    is_warm()
}

/// The crossing puzzle seen in `game`, if the side to move is alone on the board: its ten
/// pieces are the only ones, it crosses from camp 0 to camp 3 (or from camp 3 to camp 0: then
/// the position is mirrored, and so must the moves be — the `bool`), and the rules give it the
/// puzzle's moves (international rules, no long jumps, no restriction on where a piece rests or
/// on leaving the destination).
pub fn from_game(game: &chinese_checkers::Game) -> Option<(Solitaire, bool)> {
    let rules = game.rules();
    if game.is_over()
        || rules.rule_set != chinese_checkers::RuleSet::International
        || rules.sets != 1
        || rules.pieces != 10
        || rules.long_jumps
        || rules.no_resting_in_foreign_camps
        || rules.no_leaving_destination
    {
        return None;
    }
    let seat = game.to_move();
    let pieces = game.seat_pieces_of(seat);
    if pieces != game.occupied() {
        return None;
    }
    let position = Solitaire::from_pieces(pieces).ok()?;
    match rules.seat_camps(seat) {
        [camp] if camp.index() == 0 => Some((position, false)),
        [camp] if camp.index() == 3 => Some((position.mirrored(), true)),
        _ => None,
    }
}

/// A short crossing from `position` found by a beam search: level by level, every move of the
/// `width` best positions of the level is tried, and the positions one move further are ranked
/// by the rows bound (the fewest moves they can still need), then by how far their pieces are
/// from the goal's tip (the most advanced first). Not exact, but fast (`width` × about 30
/// levels × the moves of a position) and deterministic; the first crossing reached is returned
/// (`None` if the beam dies out, which the bound makes very rare, or after `max_moves`).
pub fn beam(position: Solitaire, width: usize, max_moves: u32) -> Option<Crossing> {
    use std::collections::HashMap;

    let bounds = Bounds::new();
    if position.is_crossed() {
        return Some(Crossing {
            moves: Vec::new(),
            nodes: 0,
        });
    }
    // Every position reached, with the position and move it was first reached from.
    let mut parent: HashMap<u128, (u128, Move)> = HashMap::new();
    parent.insert(position.pieces().0, (0, Move::new(tip(), tip())));
    let mut level = vec![position];
    let mut nodes = 0u64;
    let mut moves = chinese_checkers::MoveList::new();
    let mut next: Vec<(u32, Solitaire)> = Vec::new();
    for _ in 0..max_moves {
        next.clear();
        for &p in &level {
            p.legal_moves(&mut moves);
            for &mv in moves.iter() {
                let mut child = p;
                child.play_unchecked(mv);
                nodes += 1;
                let key = child.pieces().0;
                if parent.contains_key(&key) {
                    continue;
                }
                parent.insert(key, (p.pieces().0, mv));
                if child.is_crossed() {
                    return Some(Crossing {
                        moves: path_to(&parent, key),
                        nodes,
                    });
                }
                let h = bounds.to_goal(child);
                if h != FAR {
                    next.push((u32::from(h) << 16 | spread_from_tip(child), child));
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        next.sort_unstable_by_key(|&(key, p)| (key, p.pieces().0));
        level.clear();
        level.extend(next.iter().take(width).map(|&(_, p)| p));
    }
    None
}

/// The pilot method over [`beam`]: follow the shortest crossing known so far one move at a
/// time, searching again with the beam from each position reached, and switch to a shorter
/// continuation whenever one is found. Never longer than the first beam's crossing; from the
/// start, a width of 1000 goes from 30 moves to 27, the optimum.
pub fn pilot(position: Solitaire, width: usize, max_moves: u32) -> Option<Crossing> {
    let mut best = beam(position, width, max_moves)?;
    let mut nodes = best.nodes;
    let mut at = position;
    let mut played = 0;
    while played < best.moves.len() {
        at.play_unchecked(best.moves[played]);
        played += 1;
        if at.is_crossed() {
            break;
        }
        let left = (best.moves.len() - played) as u32;
        if let Some(rest) = beam(at, width, left.saturating_sub(1)) {
            nodes += rest.nodes;
            if rest.moves.len() < best.moves.len() - played {
                best.moves.truncate(played);
                best.moves.extend(rest.moves);
            }
        }
    }
    Some(Crossing {
        moves: best.moves,
        nodes,
    })
}

/// The tip of camp 3 (`[-4, -4, 8]`).
fn tip() -> chinese_checkers::Cell {
    chinese_checkers::Cell::from_cube(-4, -4, 8).expect("the tip of camp 3")
}

/// The sum of the pieces' distances (in holes) to the tip of camp 3.
fn spread_from_tip(position: Solitaire) -> u32 {
    let [tx, ty, tz] = tip().to_cube().map(i32::from);
    position
        .pieces()
        .map(|c| {
            let [x, y, z] = c.to_cube().map(i32::from);
            (((x - tx).abs() + (y - ty).abs() + (z - tz).abs()) / 2) as u32
        })
        .sum()
}

/// The moves that first reached `key` from the beam's start.
fn path_to(parent: &std::collections::HashMap<u128, (u128, Move)>, mut key: u128) -> Vec<Move> {
    let mut path = Vec::new();
    while let Some(&(from, mv)) = parent.get(&key) {
        if from == 0 {
            break;
        }
        path.push(mv);
        key = from;
    }
    path.reverse();
    path
}

/// A spread symmetric about the middle row.
fn symmetric(spread: &Spread) -> bool {
    *spread == rows::mirrored(spread)
}

/// A spread that is symmetric but for one piece (the middle move of an odd crossing takes a
/// piece from row `r` to row `16 - r`; the other nine are symmetric).
fn near_symmetric(spread: &Spread) -> bool {
    (0..ROWS).any(|r| {
        let mut s = *spread;
        s[r] > 0 && {
            s[r] -= 1;
            symmetric(&s)
        }
    })
}

/// A move list for each depth of a search `depth` moves deep.
fn move_buffers(depth: u32) -> Vec<Vec<(i32, Move)>> {
    (0..=depth)
        .map(|_| Vec::with_capacity(chinese_checkers::MAX_MOVES))
        .collect()
}

/// The moves of `position`, most forward first (rows gained, then the row left: the back
/// pieces first).
fn ordered_moves(position: Solitaire, out: &mut Vec<(i32, Move)>) {
    out.clear();
    position.for_each_piece_move(|from, to| {
        let from_row = rows::row(from) as i32;
        for to in to {
            let gain = rows::row(to) as i32 - from_row;
            out.push((gain * 20 - from_row, Move::new(from, to)));
        }
    });
    out.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
}

/// The first half of a symmetric crossing of `length` moves.
struct Half<'a> {
    to_goal: Bounds,
    middle: &'a RowTable,
    length: u32,
    half: u32,
    odd: bool,
    forward_only: bool,
    seen: &'a mut Seen,
    nodes: &'a mut u64,
    node_limit: u64,
    progress: &'a mut Report,
    path: Vec<Move>,
    /// The move list of each depth, allocated once.
    buffers: Vec<Vec<(i32, Move)>>,
}

impl Half<'_> {
    /// Searches from `position`, `depth` moves from the start; `Some(middle move)` when the
    /// path in `self.path` ends the half (the middle move, for an odd length).
    fn search(
        &mut self,
        position: Solitaire,
        depth: u32,
    ) -> Result<Option<Option<Move>>, Unsolved> {
        count(self.nodes, self.node_limit, self.progress, self.length)?;
        if depth == self.half {
            return Ok(self.meets(position));
        }
        let mut moves = std::mem::take(&mut self.buffers[depth as usize]);
        ordered_moves(position, &mut moves);
        let result = self.children(position, depth, &moves);
        self.buffers[depth as usize] = moves;
        result
    }

    fn children(
        &mut self,
        position: Solitaire,
        depth: u32,
        moves: &[(i32, Move)],
    ) -> Result<Option<Option<Move>>, Unsolved> {
        for &(_, mv) in moves {
            if self.forward_only && rows::row(mv.to) < rows::row(mv.from) {
                continue;
            }
            let mut child = position;
            child.play_unchecked(mv);
            let d = depth + 1;
            let spreads = rows::spreads(child);
            if d + u32::from(on_every_axis(self.middle, &spreads)) > self.half
                || d + u32::from(self.to_goal.of_spreads(&spreads)) > self.length
                || !self.seen.first_visit(child, d)
            {
                continue;
            }
            self.path.push(mv);
            if let Some(found) = self.search(child, d)? {
                return Ok(Some(found));
            }
            self.path.pop();
        }
        Ok(None)
    }

    /// Whether the half ends at `position`: `Some(None)` if its mirror image is the same (even
    /// length), `Some(middle move)` if a piece going to its mirror hole makes it (odd length).
    fn meets(&self, position: Solitaire) -> Option<Option<Move>> {
        let differ = position.pieces().0 ^ position.mirrored().pieces().0;
        if !self.odd {
            return (differ == 0).then_some(None);
        }
        if differ.count_ones() != 2 {
            return None;
        }
        let from = Bitboard(differ & position.pieces().0).next()?;
        let to = Solitaire::mirror_cell(from);
        position
            .destinations(from)
            .contains(to)
            .then_some(Some(Move::new(from, to)))
    }
}

/// Counts a position searched for a crossing of `length` moves: an error past the node limit, a
/// report every [`PROGRESS_EVERY`] positions.
fn count(nodes: &mut u64, limit: u64, progress: &mut Report, length: u32) -> Result<(), Unsolved> {
    *nodes += 1;
    if *nodes > limit {
        return Err(Unsolved::OutOfNodes);
    }
    if *nodes % PROGRESS_EVERY == 0 {
        if let Some(f) = progress {
            f(Progress::Searching {
                length,
                nodes: *nodes,
            });
        }
    }
    Ok(())
}

/// One bound of IDA*.
struct Deepening<'a> {
    to_goal: Bounds,
    bound: u32,
    seen: &'a mut Seen,
    nodes: &'a mut u64,
    node_limit: u64,
    progress: &'a mut Report,
    path: Vec<Move>,
    /// The move list of each depth, allocated once.
    buffers: Vec<Vec<(i32, Move)>>,
}

impl Deepening<'_> {
    fn search(&mut self, position: Solitaire, depth: u32) -> Result<bool, Unsolved> {
        count(self.nodes, self.node_limit, self.progress, self.bound)?;
        if position.is_crossed() {
            return Ok(true);
        }
        let mut moves = std::mem::take(&mut self.buffers[depth as usize]);
        ordered_moves(position, &mut moves);
        let result = self.children(position, depth, &moves);
        self.buffers[depth as usize] = moves;
        result
    }

    fn children(
        &mut self,
        position: Solitaire,
        depth: u32,
        moves: &[(i32, Move)],
    ) -> Result<bool, Unsolved> {
        for &(_, mv) in moves {
            let mut child = position;
            child.play_unchecked(mv);
            let d = depth + 1;
            let h = self.to_goal.to_goal(child);
            if h == FAR || d + u32::from(h) > self.bound || !self.seen.first_visit(child, d) {
                continue;
            }
            self.path.push(mv);
            if self.search(child, d)? {
                return Ok(true);
            }
            self.path.pop();
        }
        Ok(false)
    }
}

/// The positions already searched within the current bound, with the fewest moves they were
/// reached in: a position reached again in as many moves or more has nothing new to give.
/// A fixed table, the newest entry replacing an older one of the same slot.
struct Seen {
    keys: Vec<u128>,
    depth: Vec<u8>,
    mask: usize,
}

impl Seen {
    fn new(bits: u32) -> Seen {
        let size = 1usize << bits;
        Seen {
            keys: vec![0; size],
            depth: vec![u8::MAX; size],
            mask: size - 1,
        }
    }

    fn clear(&mut self) {
        self.keys.fill(0);
        self.depth.fill(u8::MAX);
    }

    /// Records `position` at `depth`; false if it was already searched at that depth or less.
    fn first_visit(&mut self, position: Solitaire, depth: u32) -> bool {
        let key = position.pieces().0;
        let hash = ((key as u64) ^ ((key >> 64) as u64).rotate_left(29))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = (hash >> 20) as usize & self.mask;
        let depth = depth as u8;
        if self.keys[slot] == key && self.depth[slot] <= depth {
            return false;
        }
        self.keys[slot] = key;
        self.depth[slot] = depth;
        true
    }
}

#[cfg(test)]
mod tests;
