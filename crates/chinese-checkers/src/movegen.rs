//! Move generation (RULES.md 1.3, 1.5, 1.6): steps, jump chains by flood fill, long jumps, king
//! row-jumps, swap moves, and the restrictions of the options.
//!
//! A move is identified by its start and end holes; of several jump paths to the same end, any
//! one is the move ([`Game::path`] gives one for animation). Generation works piece by piece:
//! each piece yields the [`Bitboard`] of its destinations, so that counting moves is a popcount.
//!
//! The default rules take a fast path (plain jumps only, a const-generic branch); kings and long
//! jumps take the general path, which walks rays.

use serde::{Deserialize, Serialize};

use crate::cell::{Bitboard, Bits, Cell, BOARD, JUMPS, JUMP_COUNT, NEIGHBOUR, NEIGHBOURS, NONE};
use crate::lattice::{self, Jumper};
use crate::position::Game;

/// A move: the piece on `from` goes to `to` (by a step or a jump chain; with the swap rule, the
/// opponent's piece on `to` goes to `from`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Move {
    /// Start hole.
    pub from: Cell,
    /// End hole.
    pub to: Cell,
}

impl Move {
    /// A move from `from` to `to`.
    pub const fn new(from: Cell, to: Cell) -> Move {
        Move { from, to }
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// Upper bound on the number of legal moves: `p` pieces of the mover can each reach at most the
/// `121 - p` other holes, and `p * (121 - p) <= 60 * 61`.
pub const MAX_MOVES: usize = 60 * 61;

/// An array-backed list of moves (no allocation).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        let nowhere = Cell::from_index(0).expect("hole 0 exists");
        MoveList {
            moves: [Move::new(nowhere, nowhere); MAX_MOVES],
            len: 0,
        }
    }

    /// Empties the list.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list already holds [`MAX_MOVES`] moves, which legal positions cannot reach.
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Iterates the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The jump components of the empty holes of one position: two empty holes are in the same
/// component when a chain of plain jumps links them. Jumps are symmetric (the jumped piece stays),
/// so the holes a piece reaches by chains are the union of the components of its first landings.
/// The mover's own hole never matters: it lies on another sublattice than the holes its chains
/// visit (a jump moves two holes along a line), so it is never jumped over, and being occupied it
/// is never landed on. Components are computed lazily and shared by all the pieces of the node.
pub(crate) struct Components {
    comps: [u128; Components::CAPACITY],
    len: usize,
    covered: u128,
}

impl Components {
    const CAPACITY: usize = 16;

    #[inline(always)]
    pub(crate) fn new() -> Components {
        Components {
            comps: [0; Components::CAPACITY],
            len: 0,
            covered: 0,
        }
    }

    /// Holes reachable by chains of plain jumps from `from`.
    #[inline(always)]
    pub(crate) fn reach(&mut self, from: u8, occupied: u128, landable: u128) -> u128 {
        let mut first = 0u128;
        for j in &JUMPS[from as usize][..JUMP_COUNT[from as usize] as usize] {
            if occupied & j.over_bit != 0 {
                first |= j.land_bit;
            }
        }
        let mut todo = first & landable;
        let mut reach = 0u128;
        while todo != 0 {
            let seed = todo & todo.wrapping_neg();
            let comp = if self.covered & seed != 0 {
                self.find(seed)
            } else {
                self.add(seed, occupied, landable)
            };
            reach |= comp;
            todo &= !reach;
        }
        reach
    }

    #[inline(always)]
    fn find(&self, seed: u128) -> u128 {
        self.comps[..self.len]
            .iter()
            .copied()
            .find(|c| c & seed != 0)
            .unwrap_or(0)
    }

    #[inline(always)]
    fn add(&mut self, seed: u128, occupied: u128, landable: u128) -> u128 {
        let comp = flood(seed, occupied, landable);
        if self.len < Components::CAPACITY {
            self.comps[self.len] = comp;
            self.len += 1;
            self.covered |= comp;
        }
        comp
    }
}

/// The jump component of the empty hole `seed`.
#[inline(always)]
fn flood(seed: u128, occupied: u128, landable: u128) -> u128 {
    let mut reached = seed;
    let mut frontier = seed;
    while frontier != 0 {
        let c = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        for j in &JUMPS[c][..JUMP_COUNT[c] as usize] {
            if occupied & j.over_bit != 0 && landable & !reached & j.land_bit != 0 {
                reached |= j.land_bit;
                frontier |= j.land_bit;
            }
        }
    }
    reached
}

/// What a single jump may do in the general path.
#[derive(Clone, Copy)]
pub(crate) struct JumpKind {
    /// The jumping piece is a king: it may jump a whole row of contiguous pieces.
    pub king: bool,
    /// Long jumps are allowed.
    pub long: bool,
}

/// Holes of `targets` reachable from `c` by one jump (of the general kind), `occupied` being the
/// pieces that may be jumped or block, `kings` those that may not be jumped.
pub(crate) fn jump_targets(
    c: u8,
    occupied: u128,
    kings: u128,
    kind: JumpKind,
    targets: u128,
) -> u128 {
    let mut out = 0u128;
    for d in 0..6 {
        out |= row_jump(c, d, occupied, kings, kind.king, targets);
        if kind.long {
            out |= long_jump(c, d, occupied, kings, targets);
        }
    }
    out
}

fn occupied_at(bb: u128, c: u8) -> bool {
    (bb >> c) & 1 != 0
}

/// A plain jump, or (for a king) a jump over a row of contiguous pieces, none of them a king.
/// Also yields occupied `targets` at the end of a shorter row (for the swap rule).
fn row_jump(c: u8, d: usize, occupied: u128, kings: u128, king: bool, targets: u128) -> u128 {
    let mut over = NEIGHBOUR[c as usize][d];
    let mut out = 0;
    while over != NONE && occupied_at(occupied, over) && !occupied_at(kings, over) {
        let next = NEIGHBOUR[over as usize][d];
        if next == NONE {
            break;
        }
        if occupied_at(targets, next) {
            out |= 1u128 << next;
        }
        if !king || !occupied_at(occupied, next) {
            break;
        }
        over = next;
    }
    out
}

/// A long jump over the single piece `m` holes away, landing `m` holes beyond it, every hole in
/// between empty (`m >= 2`; `m = 1` is the plain jump).
fn long_jump(c: u8, d: usize, occupied: u128, kings: u128, targets: u128) -> u128 {
    let mut over = NEIGHBOUR[c as usize][d];
    let mut m = 1;
    while over != NONE && !occupied_at(occupied, over) {
        over = NEIGHBOUR[over as usize][d];
        m += 1;
    }
    if over == NONE || m == 1 || occupied_at(kings, over) {
        return 0;
    }
    let mut land = over;
    for _ in 1..m {
        land = NEIGHBOUR[land as usize][d];
        if land == NONE || occupied_at(occupied, land) {
            return 0;
        }
    }
    land = NEIGHBOUR[land as usize][d];
    if land != NONE && occupied_at(targets, land) {
        1u128 << land
    } else {
        0
    }
}

/// Holes reachable from `from` by chains of general jumps over `landable` holes.
pub(crate) fn general_reach(
    from: u8,
    occupied: u128,
    kings: u128,
    kind: JumpKind,
    landable: u128,
) -> u128 {
    let occupied = occupied & !(1u128 << from);
    let landable = landable & !(1u128 << from);
    let mut reached = 0u128;
    let mut frontier = 1u128 << from;
    while frontier != 0 {
        let c = frontier.trailing_zeros() as u8;
        frontier &= frontier - 1;
        let new = jump_targets(c, occupied, kings, kind, landable) & !reached;
        reached |= new;
        frontier |= new;
    }
    reached
}

impl Game {
    /// Calls `f(from, destinations)` for every piece of `seat` that has a legal move, applying
    /// every rule including forced exit.
    #[inline]
    pub(crate) fn for_each_piece_moves<F: FnMut(u8, u128)>(&self, seat: u8, mut f: F) {
        let forced = if self.rules().forced_exit {
            self.forced_exit_camps(seat)
        } else {
            0
        };
        if forced == 0 {
            return self.for_each_piece_raw(seat, f);
        }
        let mut exit_exists = false;
        self.for_each_piece_raw(seat, |from, to| {
            exit_exists |=
                to & !self.forced_camp_of(forced, from) != 0 && self.in_forced(forced, from);
        });
        self.for_each_piece_raw(seat, |from, to| {
            if !exit_exists {
                f(from, to);
            } else if self.in_forced(forced, from) {
                let out = to & !self.forced_camp_of(forced, from);
                if out != 0 {
                    f(from, out);
                }
            }
        });
    }

    fn in_forced(&self, forced: u8, from: u8) -> bool {
        self.forced_camp_of(forced, from) != 0
    }

    /// The forced camp (among the camps of the bit set `forced`) holding `from`, or 0.
    fn forced_camp_of(&self, forced: u8, from: u8) -> u128 {
        Bits(u128::from(forced))
            .map(|c| self.camp_mask(c))
            .find(|m| (m >> from) & 1 != 0)
            .unwrap_or(0)
    }

    /// Camps (bit set by camp number) from which forced exit (RULES.md 1.5) obliges `seat` to move
    /// a piece out.
    fn forced_exit_camps(&self, seat: u8) -> u8 {
        let mut forced = 0u8;
        let mine = self.seat_pieces(seat);
        for colour in Bits(u128::from(self.colours_of(seat))) {
            let start = self.camp_mask(colour);
            if start & !self.occupied != 0 || start & mine == 0 {
                continue;
            }
            // Q: the unfinished player whose destination is this camp.
            let Some(q) = self.owner_of((colour + 3) % 6) else {
                continue;
            };
            if q == seat || !self.is_active(q) {
                continue;
            }
            let mut q_enters = false;
            self.for_each_piece_raw(q, |_, to| q_enters |= to & start != 0);
            if !q_enters {
                forced |= 1 << colour;
            }
        }
        forced
    }

    /// Like [`Game::for_each_piece_moves`] without forced exit.
    #[inline]
    pub(crate) fn for_each_piece_raw<F: FnMut(u8, u128)>(&self, seat: u8, f: F) {
        if self.rules().plain_jumps() {
            self.generate::<true, F>(seat, f)
        } else {
            self.generate::<false, F>(seat, f)
        }
    }

    #[inline(always)]
    fn generate<const PLAIN: bool, F: FnMut(u8, u128)>(&self, seat: u8, mut f: F) {
        let occupied = self.occupied;
        let landable = !occupied & BOARD & !self.forbidden_landing(seat);
        let rules = self.rules();
        let kind = JumpKind {
            king: false,
            long: rules.long_jumps,
        };
        let mut components = Components::new();
        for colour in Bits(u128::from(self.colours_of(seat))) {
            let end_ok = self.end_ok(colour);
            let dest = self.camp_mask((colour + 3) % 6);
            let swap_targets = if rules.swap_rule {
                dest & occupied & !self.seat_pieces(seat) & !self.inert
            } else {
                0
            };
            for from in Bits(self.pieces[colour as usize]) {
                let steps = NEIGHBOURS[from as usize] & landable;
                let reached = if PLAIN {
                    components.reach(from, occupied, landable)
                } else {
                    let kind = JumpKind {
                        king: occupied_at(self.kings, from),
                        ..kind
                    };
                    general_reach(from, occupied, self.kings, kind, landable)
                };
                let mut to = steps | reached;
                if swap_targets != 0 {
                    to |= self.swaps(from, reached, swap_targets, kind);
                }
                let mut end = end_ok;
                if rules.no_leaving_destination && occupied_at(dest, from) {
                    end &= dest;
                }
                to &= end;
                if to != 0 {
                    f(from, to);
                }
            }
        }
    }

    /// Swap-rule destinations of the piece on `from`: a step, or the last jump of a chain through
    /// `reached`, into an opponent-held hole of `targets`.
    fn swaps(&self, from: u8, reached: u128, targets: u128, kind: JumpKind) -> u128 {
        let kind = JumpKind {
            king: occupied_at(self.kings, from),
            ..kind
        };
        let occupied = self.occupied & !(1u128 << from);
        let mut out = NEIGHBOURS[from as usize] & targets;
        for c in Bits(reached | (1u128 << from)) {
            out |= jump_targets(c, occupied, self.kings, kind, targets);
        }
        out
    }

    /// Whether `seat` has at least one legal move.
    pub(crate) fn has_legal_move(&self, seat: u8) -> bool {
        if self.plain_count {
            return Bits(self.seat_pieces(seat)).any(|p| self.free_neighbours.get(p as usize) != 0)
                || self.count_plain(seat) != 0;
        }
        // A step that every option allows is enough; this settles nearly every position.
        let landable = !self.occupied & BOARD & !self.forbidden_landing(seat);
        for colour in Bits(u128::from(self.colours_of(seat))) {
            let dest = self.camp_mask((colour + 3) % 6);
            for from in Bits(self.pieces[colour as usize]) {
                let mut end = self.end_ok(colour);
                if self.rules().no_leaving_destination && occupied_at(dest, from) {
                    end &= dest;
                }
                if NEIGHBOURS[from as usize] & landable & end != 0 {
                    return true;
                }
            }
        }
        let mut any = false;
        self.for_each_piece_raw(seat, |_, _| any = true);
        any
    }

    /// Writes the legal moves of the side to move into `moves` (cleared first). Empty when the game
    /// is over.
    pub fn legal_moves(&self, moves: &mut MoveList) {
        moves.clear();
        if self.is_over() {
            return;
        }
        self.for_each_piece_moves(self.to_move().0, |from, to| {
            let from = Cell::from_index(from).expect("generated hole");
            for to in Bitboard(to) {
                moves.push(Move::new(from, to));
            }
        });
    }

    /// Calls `f(from, destinations)` for every piece of the side to move that has a legal move:
    /// the moves grouped by piece, without a list (what a client highlights, or a search that
    /// wants to order by piece). Nothing when the game is over.
    pub fn for_each_piece_move(&self, mut f: impl FnMut(Cell, Bitboard)) {
        if self.is_over() {
            return;
        }
        self.for_each_piece_moves(self.to_move().0, |from, to| {
            f(
                Cell::from_index(from).expect("generated hole"),
                Bitboard(to),
            );
        });
    }

    /// The legal moves of the side to move, as a `Vec` (convenience for non-hot code).
    pub fn legal_moves_vec(&self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.to_vec()
    }

    /// The legal destinations of the piece on `from` for the side to move (empty if it is not
    /// theirs or cannot move): what a client highlights after a piece is picked.
    pub fn destinations(&self, from: Cell) -> Bitboard {
        let mut out = 0;
        if !self.is_over() {
            self.for_each_piece_moves(self.to_move().0, |f, to| {
                if f == from.index() {
                    out = to;
                }
            });
        }
        Bitboard(out)
    }

    /// Number of legal moves of the side to move (0 when the game is over), without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        if self.is_over() {
            return 0;
        }
        if self.plain_count {
            return self.count_plain(self.to_move().0);
        }
        let mut n = 0u64;
        self.for_each_piece_moves(self.to_move().0, |_, to| n += u64::from(to.count_ones()));
        n
    }

    /// Counts the moves of `seat` when no option restricts them: steps by popcount, jump chains
    /// by flood fills on the sublattice bitboards (steps and jumps never share a destination:
    /// a step changes the sublattice, a jump does not).
    #[inline]
    fn count_plain(&self, seat: u8) -> u64 {
        let jumpers = Jumper::all(&self.sub_occupied);
        let mut n = 0u32;
        let mut by_sublattice = [0; 4];
        for from in Bits(self.seat_pieces(seat)) {
            n += self.free_neighbours.get(from as usize);
            let bits = &lattice::COARSE_SPLIT[from as usize];
            for (acc, bit) in by_sublattice.iter_mut().zip(bits) {
                *acc |= bit;
            }
        }
        for (jumper, pieces) in jumpers.iter().zip(by_sublattice) {
            if pieces != 0 {
                n += jumper.count_chains(pieces);
            }
        }
        u64::from(n)
    }

    /// Whether `mv` is legal for the side to move.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.destinations(mv.from).contains(mv.to)
    }

    /// One path of `mv` for animation: every hole the piece stands on, from `from` to `to`
    /// (two holes for a step), or `None` if the move is not legal.
    pub fn path(&self, mv: Move) -> Option<Vec<Cell>> {
        if !self.is_legal(mv) {
            return None;
        }
        self.path_unchecked(mv)
    }

    /// [`Game::path`] of a move known to be legal (one the move generator just listed),
    /// without generating the moves again to check it: listing every legal move with its path
    /// costs one generation, not one per move.
    ///
    /// A move that is not legal gives `None` or a path that means nothing.
    pub fn path_unchecked(&self, mv: Move) -> Option<Vec<Cell>> {
        debug_assert!(self.is_legal(mv), "{mv} is not legal");
        let (from, to) = (mv.from.index(), mv.to.index());
        if NEIGHBOURS[from as usize] & mv.to.bit() != 0 {
            return Some(vec![mv.from, mv.to]);
        }
        let kind = JumpKind {
            king: occupied_at(self.kings, from),
            long: self.rules().long_jumps,
        };
        let occupied = self.occupied & !(1u128 << from);
        let landable = !self.occupied & BOARD & !self.forbidden_landing(self.to_move().0);
        let mut parent = [NONE; 121];
        let mut seen = 1u128 << from;
        // Breadth first, each hole queued once: at most the 121 holes, no allocation.
        let mut queue = [NONE; 121];
        let (mut head, mut tail) = (0, 1);
        queue[0] = from;
        while head < tail {
            let c = queue[head];
            head += 1;
            if jump_targets(c, occupied, self.kings, kind, mv.to.bit()) != 0 {
                let mut path = vec![mv.to];
                let mut cur = c;
                while cur != NONE {
                    path.push(Cell::from_index(cur).expect("hole"));
                    cur = parent[cur as usize];
                }
                path.reverse();
                return Some(path);
            }
            for n in Bits(jump_targets(c, occupied, self.kings, kind, landable) & !seen) {
                seen |= 1u128 << n;
                parent[n as usize] = c;
                queue[tail] = n;
                tail += 1;
            }
        }
        debug_assert!(false, "legal move {mv} without a path (to = {to})");
        None
    }
}
