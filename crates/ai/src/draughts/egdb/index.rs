//! Material signatures and the combinatorial index of their positions on the 10×10 board.
//!
//! A [`Material`] counts each side's men and kings. Its positions are numbered densely:
//! `side · per_side + ((wm · Nbm + bm) · Nwk + wk) · Nbk + bk`, where each group is the colex
//! rank of its squares as a combination:
//! - white men over their 45 legal squares (6–50: a man on its crowning row is a king),
//!   black men over theirs (1–45), independently (a white and a black man on one square make an
//!   unused slot: fewer than 0.1 % of the slots of any signature);
//! - white kings over the squares the men leave free, black kings over the squares the men and
//!   white kings leave free (dense).
//!
//! [`Material::index`] and [`Material::position`] are inverse on every valid slot (a proptest
//! checks it).

use draughts::{Board, Color, International, Piece, Position, Role, Square};

/// Dark squares of the 10×10 board.
pub const SQUARES: u32 = 50;
/// Squares a man may stand on (all but its crowning row).
const MAN_SQUARES: u32 = 45;
/// Most pieces of one signature the index supports (each group at most this many).
pub const MAX_PIECES: u32 = 6;

/// `BINOMIAL[n][k]` = C(n, k) for n ≤ 50, k ≤ MAX_PIECES.
const BINOMIAL: [[u64; MAX_PIECES as usize + 1]; SQUARES as usize + 1] = binomials();

const fn binomials() -> [[u64; MAX_PIECES as usize + 1]; SQUARES as usize + 1] {
    let mut t = [[0u64; MAX_PIECES as usize + 1]; SQUARES as usize + 1];
    let mut n = 0;
    while n <= SQUARES as usize {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES as usize {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}

/// C(n, k).
#[inline]
fn choose(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
}

/// The pieces of each kind: white men, white kings, black men, black kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White men.
    pub wm: u8,
    /// White kings.
    pub wk: u8,
    /// Black men.
    pub bm: u8,
    /// Black kings.
    pub bk: u8,
}

/// A position as four sets of squares (bit `s` = square `s + 1`) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Whose turn it is.
    pub side: Color,
    /// White men.
    pub wm: u64,
    /// White kings.
    pub wk: u64,
    /// Black men.
    pub bm: u64,
    /// Black kings.
    pub bk: u64,
}

impl Placement {
    /// The placement of a position on any board (only the 10×10 one is indexed).
    pub fn of<B: Board>(pos: &Position<B>) -> Placement {
        let set = |bits: B::Bits| -> u64 {
            draughts::bitboard::Bits::iter(bits)
                .map(|b| 1u64 << (B::square_of(b).number() - 1))
                .fold(0, |a, b| a | b)
        };
        Placement {
            side: pos.side_to_move(),
            wm: set(pos.men_of(Color::White)),
            wk: set(pos.kings_of(Color::White)),
            bm: set(pos.men_of(Color::Black)),
            bk: set(pos.kings_of(Color::Black)),
        }
    }

    /// The material of this placement.
    pub fn material(&self) -> Material {
        Material {
            wm: self.wm.count_ones() as u8,
            wk: self.wk.count_ones() as u8,
            bm: self.bm.count_ones() as u8,
            bk: self.bk.count_ones() as u8,
        }
    }

    /// The 10×10 position of this placement.
    pub fn to_position(&self) -> Position<International> {
        let mut pos = Position::<International>::empty(self.side);
        let groups = [
            (self.wm, Color::White, Role::Man),
            (self.wk, Color::White, Role::King),
            (self.bm, Color::Black, Role::Man),
            (self.bk, Color::Black, Role::King),
        ];
        for (mut set, color, role) in groups {
            while set != 0 {
                let s = set.trailing_zeros();
                set &= set - 1;
                pos = pos
                    .put(Square(s as u8 + 1), Piece { color, role })
                    .expect("a square of the board");
            }
        }
        pos
    }
}

/// Colex rank of the squares of `set`, each first mapped by `map`.
#[inline]
fn rank(mut set: u64, map: impl Fn(u32) -> u32) -> u64 {
    let mut r = 0;
    let mut k = 1;
    while set != 0 {
        let s = set.trailing_zeros();
        set &= set - 1;
        r += choose(map(s), k);
        k += 1;
    }
    r
}

/// The `k` indices (ascending) of colex rank `r`.
fn unrank(mut r: u64, k: u32, out: &mut [u32]) {
    let mut n = SQUARES;
    for i in (1..=k).rev() {
        while choose(n, i) > r {
            n -= 1;
        }
        r -= choose(n, i);
        out[i as usize - 1] = n;
    }
}

/// Rank of square `s` among the squares not in `taken`.
#[inline]
fn free_rank(s: u32, taken: u64) -> u32 {
    s - (taken & ((1u64 << s) - 1)).count_ones()
}

/// The `c`-th square (0-based) not in `taken`.
fn nth_free(c: u32, taken: u64) -> u32 {
    let mut free = !taken & ((1u64 << SQUARES) - 1);
    for _ in 0..c {
        free &= free - 1;
    }
    free.trailing_zeros()
}

impl Material {
    /// The material of a placement's code, `wm·125 + wk·25 + bm·5 + bk` (each count ≤ 4).
    pub const CODES: usize = 625;

    /// This material's dense code (each count below 5).
    pub fn code(&self) -> usize {
        usize::from(self.wm) * 125
            + usize::from(self.wk) * 25
            + usize::from(self.bm) * 5
            + usize::from(self.bk)
    }

    /// Total pieces.
    pub fn pieces(&self) -> u32 {
        u32::from(self.wm + self.wk + self.bm + self.bk)
    }

    /// Total men.
    pub fn men(&self) -> u32 {
        u32::from(self.wm + self.bm)
    }

    /// `color`'s (men, kings).
    pub fn of(&self, color: Color) -> (u8, u8) {
        match color {
            Color::White => (self.wm, self.wk),
            Color::Black => (self.bm, self.bk),
        }
    }

    /// Every signature with 2 to `pieces` pieces and at least one piece a side, in build
    /// order: a capture leads to fewer pieces and a promotion to fewer men, both earlier.
    pub fn all(pieces: u32) -> Vec<Material> {
        let mut out = Vec::new();
        let n = pieces.min(4) as u8;
        for wm in 0..=n {
            for wk in 0..=n - wm {
                for bm in 0..=n - wm - wk {
                    for bk in 0..=n - wm - wk - bm {
                        let m = Material { wm, wk, bm, bk };
                        if wm + wk > 0 && bm + bk > 0 {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }

    /// The signatures a position of this material can reach (captures, promotions), itself
    /// included, in build order.
    pub fn closure(&self) -> Vec<Material> {
        let mut out = vec![*self];
        let mut i = 0;
        while i < out.len() {
            let m = out[i];
            let mut next = Vec::new();
            let fields = [m.wm, m.wk, m.bm, m.bk];
            for (f, &n) in fields.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let mut less = fields;
                less[f] -= 1; // a capture
                next.push(less);
                if f == 0 || f == 2 {
                    let mut crowned = fields;
                    crowned[f] -= 1;
                    crowned[f + 1] += 1; // a promotion
                    next.push(crowned);
                }
            }
            for [wm, wk, bm, bk] in next {
                let n = Material { wm, wk, bm, bk };
                if wm + wk > 0 && bm + bk > 0 && !out.contains(&n) {
                    out.push(n);
                }
            }
            i += 1;
        }
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }

    fn groups(&self) -> [u64; 4] {
        let men = u32::from(self.wm + self.bm);
        [
            choose(MAN_SQUARES, self.wm.into()),
            choose(MAN_SQUARES, self.bm.into()),
            choose(SQUARES - men, self.wk.into()),
            choose(SQUARES - men - u32::from(self.wk), self.bk.into()),
        ]
    }

    /// Slots for one side to move.
    pub fn per_side(&self) -> u64 {
        self.groups().iter().product()
    }

    /// Slots for both sides to move.
    pub fn slots(&self) -> u64 {
        2 * self.per_side()
    }

    /// The slot of a placement of this material.
    #[inline]
    pub fn index(&self, p: &Placement) -> u64 {
        debug_assert_eq!(p.material(), *self);
        let [_, nbm, nwk, nbk] = self.groups();
        let men = p.wm | p.bm;
        let wm = rank(p.wm, |s| s - 5);
        let bm = rank(p.bm, |s| s);
        let wk = rank(p.wk, |s| free_rank(s, men));
        let bk = rank(p.bk, |s| free_rank(s, men | p.wk));
        let side = u64::from(p.side == Color::Black);
        side * self.per_side() + ((wm * nbm + bm) * nwk + wk) * nbk + bk
    }

    /// The placement of a slot, or `None` for an unused slot (two men on one square).
    pub fn placement(&self, index: u64) -> Option<Placement> {
        let [_, nbm, nwk, nbk] = self.groups();
        let per = self.per_side();
        let side = if index >= per {
            Color::Black
        } else {
            Color::White
        };
        let mut r = index % per;
        let bk = r % nbk;
        r /= nbk;
        let wk = r % nwk;
        r /= nwk;
        let bm = r % nbm;
        let wm = r / nbm;
        let mut sq = [0u32; MAX_PIECES as usize];
        let mut set = |rank: u64, k: u8, map: &dyn Fn(u32) -> u32| -> u64 {
            unrank(rank, k.into(), &mut sq);
            sq[..usize::from(k)]
                .iter()
                .fold(0u64, |a, &c| a | 1u64 << map(c))
        };
        let wm = set(wm, self.wm, &|c| c + 5);
        let bm = set(bm, self.bm, &|c| c);
        if wm & bm != 0 {
            return None;
        }
        let men = wm | bm;
        let wk = set(wk, self.wk, &|c| nth_free(c, men));
        let bk = set(bk, self.bk, &|c| nth_free(c, men | wk));
        Some(Placement {
            side,
            wm,
            wk,
            bm,
            bk,
        })
    }

    /// The position of a slot (see [`Material::placement`]).
    pub fn position(&self, index: u64) -> Option<Position<International>> {
        self.placement(index).map(|p| p.to_position())
    }

    /// A short name: `w` then white's men and kings, `b` then black's (`w01b01`: a king each).
    pub fn name(&self) -> String {
        format!("w{}{}b{}{}", self.wm, self.wk, self.bm, self.bk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn men_are_indexed_only_off_their_crowning_rows() {
        let m = Material {
            wm: 1,
            wk: 0,
            bm: 1,
            bk: 0,
        };
        assert_eq!(m.per_side(), 45 * 45);
        let first = m.placement(0).unwrap();
        assert_eq!(first.wm, 1 << 5, "white's first man square is 6");
        assert_eq!(first.bm, 1, "black's first man square is 1");
    }

    #[test]
    fn the_build_order_puts_every_successor_signature_first() {
        let all = Material::all(4);
        for (i, m) in all.iter().enumerate() {
            for n in m.closure() {
                if n != *m {
                    assert!(all.iter().position(|x| *x == n).unwrap() < i, "{m:?} {n:?}");
                }
            }
        }
        assert_eq!(all.len(), 41, "2, 3 and 4 pieces, at least one a side");
    }

    fn material() -> impl Strategy<Value = Material> {
        (0u8..=2, 0u8..=2, 0u8..=2, 0u8..=2)
            .prop_filter("a piece a side", |(a, b, c, d)| a + b > 0 && c + d > 0)
            .prop_map(|(wm, wk, bm, bk)| Material { wm, wk, bm, bk })
    }

    proptest! {
        #[test]
        fn every_valid_slot_round_trips_through_its_position(m in material(), seed in any::<u64>()) {
            let index = seed % m.slots();
            if let Some(p) = m.placement(index) {
                prop_assert_eq!(p.material(), m);
                let pos = p.to_position();
                let back = Placement::of(&pos);
                prop_assert_eq!(back, p);
                prop_assert_eq!(m.index(&back), index);
            }
        }
    }
}
