//! Sublattice bitboards: the fast path for counting jump chains.
//!
//! A jump moves a piece two holes along a line, so the holes a chain visits all have the same
//! parity of `(x, z)`: the board splits into four sublattices, each about 30 holes. In a
//! sublattice, with coarse coordinates `(i, j) = ((x + 8) / 2, (z + 8) / 2)` laid out row by row
//! with a stride of 10 (column 9 stays empty as padding), a jump in any of the six directions is
//! a uniform shift of the bitboard, and "the hole jumped over is occupied" is a shifted copy of
//! the occupancy of another sublattice. A whole jump chain is then a flood fill of a few shifts
//! per step, all pieces of a frontier at once.

use crate::cell::{CELL_COUNT, COORDS};

/// Coarse row stride.
const STRIDE: i32 = 10;

/// Sublattice of each hole: `(x + 8) & 1 | ((z + 8) & 1) << 1`.
pub(crate) const SUB: [u8; CELL_COUNT] = {
    let mut t = [0u8; CELL_COUNT];
    let mut i = 0;
    while i < CELL_COUNT {
        let c = COORDS[i];
        t[i] = (((c[0] + 8) & 1) | (((c[2] + 8) & 1) << 1)) as u8;
        i += 1;
    }
    t
};

const fn coarse_index(cell: usize) -> u32 {
    let c = COORDS[cell];
    let (i, j) = (((c[0] + 8) >> 1) as i32, ((c[2] + 8) >> 1) as i32);
    (i + STRIDE * j) as u32
}

/// The bit of each hole in its sublattice's bitboard.
pub(crate) const COARSE: [u128; CELL_COUNT] = {
    let mut t = [0u128; CELL_COUNT];
    let mut i = 0;
    while i < CELL_COUNT {
        t[i] = 1u128 << coarse_index(i);
        i += 1;
    }
    t
};

/// The bit of each hole in its sublattice's bitboard, as the four bitboards of a one-hole set
/// (lets a loop split a set of holes without a store-to-load dependency).
pub(crate) static COARSE_SPLIT: [[u128; 4]; CELL_COUNT] = {
    let mut t = [[0u128; 4]; CELL_COUNT];
    let mut i = 0;
    while i < CELL_COUNT {
        t[i][SUB[i] as usize] = COARSE[i];
        i += 1;
    }
    t
};

/// The holes of each sublattice.
pub(crate) const SUB_BOARD: [u128; 4] = {
    let mut t = [0u128; 4];
    let mut i = 0;
    while i < CELL_COUNT {
        t[SUB[i] as usize] |= COARSE[i];
        i += 1;
    }
    t
};

/// Direction `d` of [`crate::DIRECTIONS`] as `(dx, dz)`.
const DXZ: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// For sublattice `s` and direction `d`: the sublattice of the neighbouring holes and the coarse
/// offset from a hole to its neighbour's coarse position there.
const OVER: [[(usize, i32); 6]; 4] = {
    let mut t = [[(0usize, 0i32); 6]; 4];
    let mut s = 0;
    while s < 4 {
        let (sx, sz) = ((s & 1) as i32, (s >> 1) as i32);
        let mut d = 0;
        while d < 6 {
            let (vx, vz) = (sx + DXZ[d].0, sz + DXZ[d].1);
            let sub = ((vx & 1) | ((vz & 1) << 1)) as usize;
            t[s][d] = (sub, (vx >> 1) + STRIDE * (vz >> 1));
            d += 1;
        }
        s += 1;
    }
    t
};

#[inline(always)]
fn shift(bb: u128, by: i32) -> u128 {
    if by >= 0 {
        bb << by
    } else {
        bb >> -by
    }
}

/// The occupancy split by sublattice.
pub(crate) fn split(occupied: u128) -> [u128; 4] {
    let mut out = [0u128; 4];
    let mut bits = occupied;
    while bits != 0 {
        let c = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        out[SUB[c] as usize] |= COARSE[c];
    }
    out
}

/// Per-position masks for the jump flood of one sublattice.
#[derive(Clone, Copy)]
pub(crate) struct Jumper {
    /// `over[d]`: holes whose neighbour in direction `d` is occupied.
    over: [u128; 6],
    /// Empty holes of the sublattice.
    empty: u128,
}

impl Jumper {
    /// The masks of every sublattice for the occupancy `occ` (split by sublattice).
    #[inline(always)]
    pub(crate) fn all(occ: &[u128; 4]) -> [Jumper; 4] {
        let mut out = [Jumper {
            over: [0; 6],
            empty: 0,
        }; 4];
        for (s, jumper) in out.iter_mut().enumerate() {
            for (over, &(sub, offset)) in jumper.over.iter_mut().zip(&OVER[s]) {
                *over = shift(occ[sub], -offset);
            }
            jumper.empty = SUB_BOARD[s] & !occ[s];
        }
        out
    }

    /// Empty holes one jump away from the holes of `from`.
    #[inline(always)]
    fn landings(&self, from: u128) -> u128 {
        self.jumps(from) & self.empty
    }

    /// Holes one jump away from the holes of `from`, were they empty.
    #[inline(always)]
    fn jumps(&self, from: u128) -> u128 {
        let o = &self.over;
        ((from & o[0]) << 1)
            | ((from & o[1]) >> (STRIDE - 1))
            | ((from & o[2]) >> STRIDE)
            | ((from & o[3]) >> 1)
            | ((from & o[4]) << (STRIDE - 1))
            | ((from & o[5]) << STRIDE)
    }

    /// The number of (piece, destination) pairs of jump chains for the `pieces` of this
    /// sublattice (coarse bits).
    ///
    /// The empty holes split into jump components (chains link holes both ways, since the
    /// jumped piece stays), and a piece reaches exactly the components next to it by one jump
    /// (its own hole, on this sublattice, is never jumped over, and never landed on since it
    /// is occupied). So the count is the sum over components of their size times the number
    /// of pieces next to them, each component found once by a flood fill.
    #[inline(always)]
    pub(crate) fn count_chains(&self, pieces: u128) -> u32 {
        let mut seeds = self.landings(pieces);
        let mut n = 0;
        while seeds != 0 {
            let seed = seeds & seeds.wrapping_neg();
            let mut frontier = self.landings(seed);
            if frontier == 0 {
                // A lone hole (the common case): one destination per piece next to it.
                n += (self.jumps(seed) & pieces).count_ones();
                seeds ^= seed;
                continue;
            }
            let mut component = seed | frontier;
            while frontier != 0 {
                frontier = self.landings(frontier) & !component;
                component |= frontier;
            }
            let next_to = self.jumps(component) & pieces;
            n += component.count_ones() * next_to.count_ones();
            seeds &= !component;
        }
        n
    }

    /// Holes reachable by chains of plain jumps from the hole `from` (its coarse bit), in coarse
    /// coordinates (the tests check it against the table flood and the component count).
    #[cfg(test)]
    pub(crate) fn reach(&self, from: u128) -> u128 {
        let mut reach = self.landings(from);
        let mut frontier = reach;
        while frontier != 0 {
            frontier = self.landings(frontier) & !reach;
            reach |= frontier;
        }
        reach
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sublattices_partition_the_board() {
        let total: u32 = SUB_BOARD.iter().map(|b| b.count_ones()).sum();
        assert_eq!(total as usize, CELL_COUNT);
        for b in SUB_BOARD {
            assert_eq!(b & (1u128 << 9), 0, "column 9 is padding");
            assert!(b >> 90 == 0);
        }
    }

    #[test]
    fn component_count_equals_sum_of_reaches() {
        let mut seed = 0x0bad_cafe_1234_5678u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occupied =
                (u128::from(seed) | (u128::from(seed.rotate_left(23)) << 64)) & crate::cell::BOARD;
            let occupied = occupied & (occupied >> 2 | occupied << 5);
            let split_occ = split(occupied);
            let jumpers = Jumper::all(&split_occ);
            let mover = occupied & (u128::from(seed.rotate_left(7)) * 0x9e37_79b9_7f4a_7c15);
            let by_sub = split(mover);
            let expected: u32 = crate::cell::Bits(mover)
                .map(|p| {
                    jumpers[SUB[p as usize] as usize]
                        .reach(COARSE[p as usize])
                        .count_ones()
                })
                .sum();
            let counted: u32 = (0..4).map(|s| jumpers[s].count_chains(by_sub[s])).sum();
            assert_eq!(counted, expected);
        }
    }

    #[test]
    fn lattice_reach_equals_table_flood() {
        use crate::movegen::Components;
        let mut seed = 0x1234_5678_9abc_def1u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occupied =
                (u128::from(seed) | (u128::from(seed.rotate_left(29)) << 64)) & crate::cell::BOARD;
            let occupied = occupied & (occupied >> 1 | occupied << 3);
            let jumpers = Jumper::all(&split(occupied));
            for p in crate::cell::Bits(occupied) {
                let s = SUB[p as usize] as usize;
                let coarse = jumpers[s].reach(COARSE[p as usize]);
                let fine = Components::new().reach(p, occupied, !occupied & crate::cell::BOARD);
                assert_eq!(coarse.count_ones(), fine.count_ones());
                assert_eq!(split(fine)[s], coarse);
            }
        }
    }
}
