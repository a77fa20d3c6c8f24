//! Sublattice bitboards: the fast path for counting jump chains.
//!
//! A jump moves a piece two holes along a line, so the holes a chain visits all have the same
//! parity of `(x, z)`: the board splits into four sublattices of 28 to 37 holes. In a
//! sublattice, with coarse coordinates `(i, j) = ((x + 8) / 2, (z + 8) / 2)`, each hole is bit
//! `(i + 8 j) mod 64` of a `u64` (a [`Lane`]). A jump in any of the six directions is then a
//! rotation of the lane, and "the hole jumped over is occupied" is a rotated copy of the occupancy
//! of another sublattice. The wrap-around is harmless: no hole's off-board neighbour or landing
//! falls on the bit of a real hole (`embedding_separates_holes_from_the_outside` checks it), so a
//! whole jump chain is a flood fill of a few single-instruction rotations per step, all pieces of
//! a frontier at once. (Before: `u128` lanes with a row stride of 10 and a padding column, where
//! every shift and mask costs two or three instructions.)

use crate::cell::{CELL_COUNT, COORDS};

/// The holes of one sublattice, one bit each.
pub(crate) type Lane = u64;

/// Coarse row stride.
const STRIDE: i32 = 8;

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

/// The bit of coarse position `(i, j)` (any integers: off-board positions included).
const fn coarse_bit(i: i32, j: i32) -> u32 {
    (i + STRIDE * j).rem_euclid(64) as u32
}

const fn coarse_of(cell: usize) -> (i32, i32) {
    let c = COORDS[cell];
    (((c[0] + 8) >> 1) as i32, ((c[2] + 8) >> 1) as i32)
}

/// The bit of each hole in its sublattice's lane.
pub(crate) const COARSE: [Lane; CELL_COUNT] = {
    let mut t = [0; CELL_COUNT];
    let mut i = 0;
    while i < CELL_COUNT {
        let (ci, cj) = coarse_of(i);
        t[i] = 1 << coarse_bit(ci, cj);
        i += 1;
    }
    t
};

/// The bit of each hole in its sublattice's lane, as the four lanes of a one-hole set (lets a
/// loop split a set of holes without a store-to-load dependency).
pub(crate) static COARSE_SPLIT: [[Lane; 4]; CELL_COUNT] = {
    let mut t = [[0; 4]; CELL_COUNT];
    let mut i = 0;
    while i < CELL_COUNT {
        t[i][SUB[i] as usize] = COARSE[i];
        i += 1;
    }
    t
};

/// The holes of each sublattice.
pub(crate) const SUB_BOARD: [Lane; 4] = {
    let mut t = [0; 4];
    let mut i = 0;
    while i < CELL_COUNT {
        t[SUB[i] as usize] |= COARSE[i];
        i += 1;
    }
    t
};

/// Direction `d` of [`crate::DIRECTIONS`] as `(dx, dz)`.
const DXZ: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// For sublattice `s` and direction `d`: the sublattice of the neighbouring holes and the
/// rotation (left, in bits) from a hole to its neighbour's bit there.
const OVER: [[(usize, u32); 6]; 4] = {
    let mut t = [[(0usize, 0u32); 6]; 4];
    let mut s = 0;
    while s < 4 {
        let (sx, sz) = ((s & 1) as i32, (s >> 1) as i32);
        let mut d = 0;
        while d < 6 {
            let (vx, vz) = (sx + DXZ[d].0, sz + DXZ[d].1);
            let sub = ((vx & 1) | ((vz & 1) << 1)) as usize;
            t[s][d] = (sub, coarse_bit(vx >> 1, vz >> 1));
            d += 1;
        }
        s += 1;
    }
    t
};

/// The rotation (left, in bits) of a jump in direction `d`: one coarse step.
const JUMP: [u32; 6] = {
    let mut t = [0; 6];
    let mut d = 0;
    while d < 6 {
        t[d] = coarse_bit(DXZ[d].0, DXZ[d].1);
        d += 1;
    }
    t
};

/// The occupancy split by sublattice.
pub(crate) fn split(occupied: u128) -> [Lane; 4] {
    let mut out = [0; 4];
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
    over: [Lane; 6],
    /// Empty holes of the sublattice.
    empty: Lane,
}

impl Jumper {
    /// The masks of every sublattice for the occupancy `occ` (split by sublattice).
    #[inline(always)]
    pub(crate) fn all(occ: &[Lane; 4]) -> [Jumper; 4] {
        let mut out = [Jumper {
            over: [0; 6],
            empty: 0,
        }; 4];
        for (s, jumper) in out.iter_mut().enumerate() {
            for (over, &(sub, rotation)) in jumper.over.iter_mut().zip(&OVER[s]) {
                *over = occ[sub].rotate_right(rotation);
            }
            jumper.empty = SUB_BOARD[s] & !occ[s];
        }
        out
    }

    /// Empty holes one jump away from the holes of `from`.
    #[inline(always)]
    fn landings(&self, from: Lane) -> Lane {
        self.jumps(from) & self.empty
    }

    /// Holes one jump away from the holes of `from`, were they empty.
    #[inline(always)]
    fn jumps(&self, from: Lane) -> Lane {
        let o = &self.over;
        (from & o[0]).rotate_left(JUMP[0])
            | (from & o[1]).rotate_left(JUMP[1])
            | (from & o[2]).rotate_left(JUMP[2])
            | (from & o[3]).rotate_left(JUMP[3])
            | (from & o[4]).rotate_left(JUMP[4])
            | (from & o[5]).rotate_left(JUMP[5])
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
    pub(crate) fn count_chains(&self, pieces: Lane) -> u32 {
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
    pub(crate) fn reach(&self, from: Lane) -> Lane {
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
        assert_eq!(
            total as usize, CELL_COUNT,
            "two holes of a sublattice share a bit"
        );
    }

    /// The wrap-around of the rotations never lands on a real hole: every off-board neighbour
    /// (a jumped-over hole) and off-board landing of a hole has a bit that no hole of its
    /// sublattice uses.
    #[test]
    fn embedding_separates_holes_from_the_outside() {
        let fine = |x: i32, z: i32| (((x + 8) & 1) | (((z + 8) & 1) << 1)) as usize;
        for c in COORDS {
            let (x, z) = (i32::from(c[0]), i32::from(c[2]));
            for (dx, dz) in DXZ {
                for k in 1..=2 {
                    let (vx, vz) = (x + k * dx, z + k * dz);
                    let on_board = COORDS
                        .iter()
                        .any(|h| (i32::from(h[0]), i32::from(h[2])) == (vx, vz));
                    let bit = 1 << coarse_bit((vx + 8) >> 1, (vz + 8) >> 1);
                    assert_eq!(SUB_BOARD[fine(vx, vz)] & bit != 0, on_board, "{vx}, {vz}");
                }
            }
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
