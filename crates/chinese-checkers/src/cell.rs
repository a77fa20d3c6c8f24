//! The board of RULES.md 1.1: 121 holes, cube coordinates, directions, camps.
//!
//! Holes are indexed 0..121 row by row (by increasing `z`, then increasing `x`). Sets of holes are
//! [`Bitboard`]s (`u128`). Every table here is built at compile time.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Number of holes on the board.
pub const CELL_COUNT: usize = 121;
pub(crate) const NONE: u8 = u8::MAX;

/// The six directions as cube vectors, in the order of RULES.md 1.1. Direction `d` is opposite
/// direction `(d + 3) % 6`.
pub const DIRECTIONS: [[i8; 3]; 6] = [
    [1, -1, 0],
    [1, 0, -1],
    [0, 1, -1],
    [-1, 1, 0],
    [-1, 0, 1],
    [0, -1, 1],
];

/// Whether `(x, y, z)` is a hole. The ranges are checked before the sum: coordinates come from
/// clients (any `i32`), and `i32::MAX + 2` must be refused, not overflow.
const fn on_board(x: i32, y: i32, z: i32) -> bool {
    x >= -8
        && x <= 8
        && y >= -8
        && y <= 8
        && z >= -8
        && z <= 8
        && x + y + z == 0
        && ((x <= 4 && y <= 4 && z <= 4) || (x >= -4 && y >= -4 && z >= -4))
}

const fn build_coords() -> [[i8; 3]; CELL_COUNT] {
    let mut out = [[0i8; 3]; CELL_COUNT];
    let mut n = 0;
    let mut z = -8;
    while z <= 8 {
        let mut x = -8;
        while x <= 8 {
            let y = -x - z;
            if on_board(x, y, z) {
                out[n] = [x as i8, y as i8, z as i8];
                n += 1;
            }
            x += 1;
        }
        z += 1;
    }
    assert!(n == CELL_COUNT);
    out
}

/// Cube coordinates of each hole, by index.
pub(crate) const COORDS: [[i8; 3]; CELL_COUNT] = build_coords();

/// Index of the hole at `(x, z)` (offset by 8), or `NONE`.
const INDEX: [[u8; 17]; 17] = {
    let mut t = [[NONE; 17]; 17];
    let mut i = 0;
    while i < CELL_COUNT {
        let c = COORDS[i];
        t[(c[0] + 8) as usize][(c[2] + 8) as usize] = i as u8;
        i += 1;
    }
    t
};

const fn index_of(x: i32, y: i32, z: i32) -> u8 {
    if on_board(x, y, z) {
        INDEX[(x + 8) as usize][(z + 8) as usize]
    } else {
        NONE
    }
}

/// `NEIGHBOUR[c][d]`: the hole next to `c` in direction `d`, or `NONE`.
pub(crate) const NEIGHBOUR: [[u8; 6]; CELL_COUNT] = {
    let mut t = [[NONE; 6]; CELL_COUNT];
    let mut i = 0;
    while i < CELL_COUNT {
        let c = COORDS[i];
        let mut d = 0;
        while d < 6 {
            let v = DIRECTIONS[d];
            t[i][d] = index_of(
                (c[0] + v[0]) as i32,
                (c[1] + v[1]) as i32,
                (c[2] + v[2]) as i32,
            );
            d += 1;
        }
        i += 1;
    }
    t
};

/// `NEIGHBOURS[c]`: the holes adjacent to `c`.
pub(crate) const NEIGHBOURS: [u128; CELL_COUNT] = {
    let mut t = [0u128; CELL_COUNT];
    let mut i = 0;
    while i < CELL_COUNT {
        let mut d = 0;
        while d < 6 {
            if NEIGHBOUR[i][d] != NONE {
                t[i] |= 1u128 << NEIGHBOUR[i][d];
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// A single jump from a hole: the hole jumped over and the landing hole, as bits (bits avoid
/// variable `u128` shifts in the hot loop).
#[derive(Clone, Copy)]
pub(crate) struct Jump {
    pub over_bit: u128,
    pub land_bit: u128,
}

/// `JUMPS[c]`: the plain jumps from `c` (only the directions where both holes exist), and
/// `JUMP_COUNT[c]` how many there are.
pub(crate) static JUMPS: [[Jump; 6]; CELL_COUNT] = {
    let mut t = [[Jump {
        over_bit: 0,
        land_bit: 0,
    }; 6]; CELL_COUNT];
    let mut i = 0;
    while i < CELL_COUNT {
        let mut n = 0;
        let mut d = 0;
        while d < 6 {
            let over = NEIGHBOUR[i][d];
            if over != NONE && NEIGHBOUR[over as usize][d] != NONE {
                let land = NEIGHBOUR[over as usize][d];
                t[i][n] = Jump {
                    over_bit: 1u128 << over,
                    land_bit: 1u128 << land,
                };
                n += 1;
            }
            d += 1;
        }
        i += 1;
    }
    t
};

pub(crate) const JUMP_COUNT: [u8; CELL_COUNT] = {
    let mut t = [0u8; CELL_COUNT];
    let mut i = 0;
    while i < CELL_COUNT {
        let mut d = 0;
        while d < 6 {
            let over = NEIGHBOUR[i][d];
            if over != NONE && NEIGHBOUR[over as usize][d] != NONE {
                t[i] += 1;
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// Every hole.
pub const BOARD: u128 = (1u128 << CELL_COUNT) - 1;

const fn mask_where(kind: u8, camp: usize) -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < CELL_COUNT {
        let c = COORDS[i];
        let (x, y, z) = (c[0] as i32, c[1] as i32, c[2] as i32);
        // Camp `k` is "coordinate axis `k % 3` beyond 4", with sign alternating.
        let v = match camp {
            0 => -z,
            1 => x,
            2 => -y,
            3 => z,
            4 => -x,
            _ => y,
        };
        let hex = x.abs() <= 4 && y.abs() <= 4 && z.abs() <= 4;
        let inside = match kind {
            0 => hex,
            10 => v > 4,
            _ => v > 4 || (v == 4 && hex),
        };
        if inside {
            m |= 1u128 << i;
        }
        i += 1;
    }
    m
}

/// The central hexagon (61 holes).
pub const HEXAGON: u128 = mask_where(0, 0);
/// The 10-hole camps (the points of the star), by camp number.
pub const CAMPS_10: [u128; 6] = [
    mask_where(10, 0),
    mask_where(10, 1),
    mask_where(10, 2),
    mask_where(10, 3),
    mask_where(10, 4),
    mask_where(10, 5),
];
/// The 15-hole camps (point plus the hexagon edge row facing it), by camp number.
pub const CAMPS_15: [u128; 6] = [
    mask_where(15, 0),
    mask_where(15, 1),
    mask_where(15, 2),
    mask_where(15, 3),
    mask_where(15, 4),
    mask_where(15, 5),
];

/// Tip (the far corner) of each camp.
pub(crate) const TIPS: [u8; 6] = [
    index_of(4, 4, -8),
    index_of(8, -4, -4),
    index_of(4, -8, 4),
    index_of(-4, -4, 8),
    index_of(-8, 4, 4),
    index_of(-4, 8, -4),
];

const fn distance_index(a: usize, b: usize) -> u8 {
    let (p, q) = (COORDS[a], COORDS[b]);
    let dx = (p[0] - q[0]).unsigned_abs();
    let dy = (p[1] - q[1]).unsigned_abs();
    let dz = (p[2] - q[2]).unsigned_abs();
    let m = if dx > dy { dx } else { dy };
    if m > dz {
        m
    } else {
        dz
    }
}

/// A hole of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The hole with this index (0..121), if any.
    pub const fn from_index(index: u8) -> Option<Cell> {
        if (index as usize) < CELL_COUNT {
            Some(Cell(index))
        } else {
            None
        }
    }

    /// The hole at cube coordinates `(x, y, z)`, if it is on the board (`x + y + z == 0` and inside
    /// the star).
    pub const fn from_cube(x: i32, y: i32, z: i32) -> Option<Cell> {
        let i = index_of(x, y, z);
        if i == NONE {
            None
        } else {
            Some(Cell(i))
        }
    }

    /// Index of the hole (0..121).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Cube coordinates `[x, y, z]`.
    pub const fn to_cube(self) -> [i8; 3] {
        COORDS[self.0 as usize]
    }

    /// The neighbouring hole in direction `d` (0..6, see [`DIRECTIONS`]), if any.
    pub fn neighbour(self, d: usize) -> Option<Cell> {
        NEIGHBOUR[self.0 as usize]
            .get(d)
            .copied()
            .filter(|&n| n != NONE)
            .map(Cell)
    }

    /// Hex distance (number of steps) between two holes.
    pub const fn distance(self, other: Cell) -> u8 {
        distance_index(self.0 as usize, other.0 as usize)
    }

    /// Every hole, by index.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELL_COUNT as u8).map(Cell)
    }

    pub(crate) const fn bit(self) -> u128 {
        1u128 << self.0
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x, y, z] = self.to_cube();
        write!(f, "[{x},{y},{z}]")
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_cube().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        let [x, y, z] = <[i32; 3]>::deserialize(d)?;
        Cell::from_cube(x, y, z).ok_or_else(|| {
            serde::de::Error::custom(format_args!("[{x},{y},{z}] is not a hole of the board"))
        })
    }
}

/// One of the six camps (points of the star), numbered 0..6 round the star (RULES.md 1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Camp(u8);

impl Camp {
    /// Camp number `n` (0..6).
    pub const fn new(n: u8) -> Option<Camp> {
        if n < 6 {
            Some(Camp(n))
        } else {
            None
        }
    }

    pub(crate) const fn new_unchecked(n: u8) -> Camp {
        Camp(n % 6)
    }

    /// The camp number, 0..6.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The opposite camp (`(n + 3) % 6`): the destination of a set starting here.
    pub const fn opposite(self) -> Camp {
        Camp((self.0 + 3) % 6)
    }

    /// The tip of the camp (where a Japanese king starts and must finish).
    pub const fn tip(self) -> Cell {
        Cell(TIPS[self.0 as usize])
    }

    /// The holes of the camp: the 10-hole point, or the 15-hole triangle when `pieces == 15`.
    pub const fn cells(self, pieces: u8) -> Bitboard {
        Bitboard(self.mask(pieces))
    }

    pub(crate) const fn mask(self, pieces: u8) -> u128 {
        if pieces == 15 {
            CAMPS_15[self.0 as usize]
        } else {
            CAMPS_10[self.0 as usize]
        }
    }
}

impl TryFrom<u8> for Camp {
    type Error = String;
    fn try_from(n: u8) -> Result<Camp, String> {
        Camp::new(n).ok_or_else(|| format!("camp {n} does not exist (0..5)"))
    }
}

impl From<Camp> for u8 {
    fn from(c: Camp) -> u8 {
        c.0
    }
}

/// A set of holes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// Whether `cell` is in the set.
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 & cell.bit() != 0
    }

    /// Number of holes in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl Iterator for Bitboard {
    type Item = Cell;
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Cell(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

/// Iterates the indices of the set bits of `bb`.
pub(crate) struct Bits(pub u128);

impl Iterator for Bits {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_has_121_holes_and_camps_of_10_and_15() {
        assert_eq!(BOARD.count_ones(), 121);
        assert_eq!(HEXAGON.count_ones(), 61);
        for c in 0..6 {
            assert_eq!(CAMPS_10[c].count_ones(), 10, "camp {c}");
            assert_eq!(CAMPS_15[c].count_ones(), 15, "camp {c}");
            assert_eq!(CAMPS_10[c] & HEXAGON, 0);
            assert_ne!(CAMPS_10[c] & (1u128 << TIPS[c]), 0);
        }
        let all = CAMPS_10.iter().fold(HEXAGON, |a, m| a | m);
        assert_eq!(all, BOARD);
    }

    #[test]
    fn adjacent_15_hole_camps_share_a_corner() {
        for c in 0..6 {
            assert_eq!((CAMPS_15[c] & CAMPS_15[(c + 1) % 6]).count_ones(), 1);
            assert_eq!(CAMPS_15[c] & CAMPS_15[(c + 2) % 6], 0);
        }
    }

    #[test]
    fn coordinates_far_off_the_board_are_no_hole_and_do_not_overflow() {
        for (x, y, z) in [
            (2, i32::MAX, 4),
            (i32::MAX, i32::MAX, 2),
            (i32::MIN, i32::MIN, 0),
            (i32::MAX, i32::MIN, 1),
            (9, -9, 0),
        ] {
            assert_eq!(Cell::from_cube(x, y, z), None, "{x} {y} {z}");
        }
    }

    #[test]
    fn cube_round_trip_and_neighbours_are_symmetric() {
        for cell in Cell::all() {
            let [x, y, z] = cell.to_cube();
            assert_eq!(Cell::from_cube(x.into(), y.into(), z.into()), Some(cell));
            for d in 0..6 {
                if let Some(n) = cell.neighbour(d) {
                    assert_eq!(n.neighbour((d + 3) % 6), Some(cell));
                    assert_eq!(cell.distance(n), 1);
                }
            }
        }
        assert_eq!(Cell::from_cube(5, 5, -10), None);
        assert_eq!(Cell::from_cube(1, 1, 1), None);
    }

    #[test]
    fn camp_zero_is_below_z_minus_four() {
        for cell in Camp::new(0).unwrap().cells(10) {
            assert!(cell.to_cube()[2] < -4);
        }
        assert_eq!(Camp::new(0).unwrap().tip().to_cube(), [4, 4, -8]);
        assert_eq!(Camp::new(3).unwrap().tip().to_cube(), [-4, -4, 8]);
    }
}
