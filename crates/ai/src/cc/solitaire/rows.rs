//! The rows relaxation: an admissible bound on the moves left in the crossing puzzle.
//!
//! Forget where a piece stands in its row (the holes of equal `z`, across the direction of the
//! crossing) and keep only how many pieces each of the 17 rows holds. A real move becomes a move
//! of this relaxed puzzle: a step goes to the next row up or down (or stays), a jump goes two
//! rows up or down over a row holding a piece (or stays in its row), a chain is a sequence of
//! jumps, and no row ever holds more pieces than it has holes. The relaxed puzzle is small
//! (at most `C(26, 10)` = 5 311 735 ways to spread ten pieces on 17 rows), so a breadth-first
//! search gives the exact relaxed distance of every spread to a set of target spreads, and that
//! distance never exceeds the real one: a lower bound for A*-like pruning.

use chinese_checkers::{Cell, Solitaire};

/// Rows across the crossing, by `z + 8`.
pub(crate) const ROWS: usize = 17;

/// Holes of each row.
pub(crate) const CAPACITY: [u8; ROWS] = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];

/// Pieces of the puzzle.
const PIECES: usize = 10;

/// Spreads of ten pieces on 17 rows: `C(26, 10)`.
pub(crate) const SPREADS: usize = 5_311_735;

/// Pieces per row.
pub(crate) type Spread = [u8; ROWS];

/// Not reached by the search.
pub(crate) const FAR: u8 = u8::MAX;

/// `BINOMIAL[n][k]` for `n <= 26`, `k <= 10`.
static BINOMIAL: [[u32; PIECES + 1]; ROWS + PIECES] = {
    let mut t = [[0u32; PIECES + 1]; ROWS + PIECES];
    let mut n = 0;
    while n < ROWS + PIECES {
        t[n][0] = 1;
        let mut k = 1;
        while k <= PIECES && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The row of each hole along each axis: by `x + 8`, `y + 8` and `z + 8` (the rows across the
/// crossing are those of equal `z`; the star has the same rows along its three axes).
static ROW_ON: [[u8; 121]; 3] = {
    let mut t = [[0u8; 121]; 3];
    let mut i = 0;
    while i < 121 {
        let cell = match Cell::from_index(i as u8) {
            Some(c) => c,
            None => panic!("121 holes"),
        };
        let cube = cell.to_cube();
        let mut axis = 0;
        while axis < 3 {
            t[axis][i] = (cube[axis] + 8) as u8;
            axis += 1;
        }
        i += 1;
    }
    t
};

/// The axis across the crossing (`z`).
pub(crate) const ACROSS: usize = 2;

/// The row of `cell` across the crossing.
pub(crate) fn row(cell: Cell) -> usize {
    ROW_ON[ACROSS][cell.index() as usize] as usize
}

/// The spread of a position across the crossing.
pub(crate) fn spread(position: Solitaire) -> Spread {
    spread_on(position, ACROSS)
}

/// The spreads of a position along the three axes (`x`, `y`, `z`).
pub(crate) fn spreads(position: Solitaire) -> [Spread; 3] {
    let mut s = [[0u8; ROWS]; 3];
    let mut bits = position.pieces().0;
    while bits != 0 {
        let hole = bits.trailing_zeros() as usize;
        for (axis, spread) in s.iter_mut().enumerate() {
            spread[ROW_ON[axis][hole] as usize] += 1;
        }
        bits &= bits - 1;
    }
    s
}

/// The spread of a position along `axis` (0: `x`, 1: `y`, 2: `z`).
pub(crate) fn spread_on(position: Solitaire, axis: usize) -> Spread {
    let rows = &ROW_ON[axis];
    let mut s = [0u8; ROWS];
    let mut bits = position.pieces().0;
    while bits != 0 {
        s[rows[bits.trailing_zeros() as usize] as usize] += 1;
        bits &= bits - 1;
    }
    s
}

/// The index of a spread in `0..SPREADS` (the combinatorial number system on the sorted rows,
/// `b_i = row_i + i` strictly increasing).
pub(crate) fn rank(spread: &Spread) -> usize {
    let mut rank = 0;
    let mut i = 0;
    for (r, &n) in spread.iter().enumerate() {
        for _ in 0..n {
            rank += BINOMIAL[r + i][i + 1];
            i += 1;
        }
    }
    rank as usize
}

/// The spread of index `rank`.
pub(crate) fn unrank(rank: usize) -> Spread {
    let mut rest = rank as u32;
    let mut spread = [0u8; ROWS];
    let mut top = ROWS + PIECES - 1;
    for i in (0..PIECES).rev() {
        while BINOMIAL[top][i + 1] > rest {
            top -= 1;
        }
        rest -= BINOMIAL[top][i + 1];
        spread[top - i] += 1;
    }
    spread
}

/// The spread seen from the other side: row `r` becomes row `16 - r`.
pub(crate) fn mirrored(spread: &Spread) -> Spread {
    let mut m = *spread;
    m.reverse();
    m
}

/// Calls `f` with every spread one relaxed move away from `spread` (some more than once).
pub(crate) fn for_each_neighbour(spread: &Spread, mut f: impl FnMut(&Spread)) {
    for from in 0..ROWS {
        if spread[from] == 0 {
            continue;
        }
        let mut rest = *spread;
        rest[from] -= 1;
        let free = |r: usize, s: &Spread| s[r] < CAPACITY[r];
        // Rows reached by jump chains: a flood over rows two apart.
        let mut reached = 1u32 << from;
        let mut frontier = reached;
        while frontier != 0 {
            let r = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            if r + 2 < ROWS && rest[r + 1] > 0 && free(r + 2, &rest) && reached >> (r + 2) & 1 == 0
            {
                reached |= 1 << (r + 2);
                frontier |= 1 << (r + 2);
            }
            if r >= 2 && rest[r - 1] > 0 && free(r - 2, &rest) && reached >> (r - 2) & 1 == 0 {
                reached |= 1 << (r - 2);
                frontier |= 1 << (r - 2);
            }
        }
        if from + 1 < ROWS && free(from + 1, &rest) {
            reached |= 1 << (from + 1);
        }
        if from >= 1 && free(from - 1, &rest) {
            reached |= 1 << (from - 1);
        }
        reached &= !(1 << from);
        while reached != 0 {
            let to = reached.trailing_zeros() as usize;
            reached &= reached - 1;
            let mut next = rest;
            next[to] += 1;
            f(&next);
        }
    }
}

/// The table of [`to_goal`], once built.
static TO_GOAL: std::sync::OnceLock<RowTable> = std::sync::OnceLock::new();
/// The table of [`to_goal_sideways`], once built.
static TO_GOAL_SIDEWAYS: std::sync::OnceLock<RowTable> = std::sync::OnceLock::new();

/// Whether both tables to the goal are built (so that [`to_goal`] and [`to_goal_sideways`]
/// answer at once).
pub(crate) fn built() -> bool {
    TO_GOAL.get().is_some() && TO_GOAL_SIDEWAYS.get().is_some()
}

/// The relaxed distances to the goal (ten pieces in the destination camp, rows 13–16), built
/// once (about 5 MB) and shared by the solver and the race term of the evaluation.
pub(crate) fn to_goal() -> &'static RowTable {
    TO_GOAL.get_or_init(|| {
        let goal = spread(Solitaire::goal());
        RowTable::build(|s| *s == goal)
    })
}

/// The relaxed distances to the goal along the two other axes (`x` and `y`: camps 0 and 3 both
/// lie across them, in rows 9–12 and 4–7; the goal has the same spread along both, so one table
/// serves both): a second bound, as admissible as the first, that sees the pieces' sideways
/// shifts. The bound of a position is the largest of the three.
pub(crate) fn to_goal_sideways() -> &'static RowTable {
    TO_GOAL_SIDEWAYS.get_or_init(|| {
        let goal = spread_on(Solitaire::goal(), 0);
        debug_assert_eq!(goal, spread_on(Solitaire::goal(), 1));
        RowTable::build(|s| *s == goal)
    })
}

/// Relaxed distances of every spread to a set of target spreads.
pub(crate) struct RowTable {
    distance: Vec<u8>,
}

impl RowTable {
    /// Breadth-first search from every spread for which `target` holds (relaxed moves can be
    /// played back, so the distance from a spread to the targets is the distance from them).
    pub(crate) fn build(target: impl Fn(&Spread) -> bool) -> RowTable {
        let mut distance = vec![FAR; SPREADS];
        let mut frontier: Vec<u32> = Vec::new();
        for (r, d) in distance.iter_mut().enumerate() {
            let s = unrank(r);
            if fits(&s) && target(&s) {
                *d = 0;
                frontier.push(r as u32);
            }
        }
        let mut level = 0u8;
        let mut next = Vec::new();
        while !frontier.is_empty() {
            level += 1;
            for &r in &frontier {
                for_each_neighbour(&unrank(r as usize), |n| {
                    let i = rank(n);
                    if distance[i] == FAR {
                        distance[i] = level;
                        next.push(i as u32);
                    }
                });
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        RowTable { distance }
    }

    /// The relaxed distance of `spread` to the targets ([`FAR`] if none can be reached).
    pub(crate) fn get(&self, spread: &Spread) -> u8 {
        self.distance[rank(spread)]
    }
}

/// Whether no row holds more pieces than it has holes.
fn fits(spread: &Spread) -> bool {
    spread.iter().zip(&CAPACITY).all(|(n, c)| n <= c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_number_the_spreads() {
        assert_eq!(BINOMIAL[26][10] as usize, SPREADS);
        for r in (0..SPREADS).step_by(997).chain([0, SPREADS - 1]) {
            let s = unrank(r);
            assert_eq!(s.iter().map(|&n| n as usize).sum::<usize>(), PIECES);
            assert_eq!(rank(&s), r);
        }
    }

    #[test]
    fn the_rows_of_the_camps() {
        let start = spread(Solitaire::start());
        assert_eq!(&start[..4], &[1, 2, 3, 4]);
        assert_eq!(spread(Solitaire::goal()), mirrored(&start));
        let board: u32 = (0..121u8)
            .map(|i| row(Cell::from_index(i).unwrap()))
            .fold([0u32; ROWS], |mut c, r| {
                c[r] += 1;
                c
            })
            .iter()
            .zip(&CAPACITY)
            .map(|(a, &b)| u32::from(*a == u32::from(b)))
            .sum();
        assert_eq!(board, ROWS as u32, "CAPACITY counts the holes of each row");
    }
}
