//! The transposition table: a fixed-size array of entries keyed by the games' Zobrist hashes,
//! allocated once per search, replaced by depth (with always-replace for a new key of equal or
//! greater depth, and for stale entries).

use crate::WIN;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    mv: u16,
    depth: i8,
    /// 0 empty, 1 exact, 2 lower, 3 upper.
    bound: u8,
}

/// A hit: the stored move code and, when deep enough, the usable score.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub mv: u16,
    pub depth: i32,
    pub score: i32,
    pub bound: Bound,
}

pub(crate) struct Tt {
    entries: Vec<Entry>,
    mask: usize,
}

impl Tt {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Tt {
        let n = 1usize << bits;
        Tt {
            entries: vec![Entry::default(); n],
            mask: n - 1,
        }
    }

    /// A table sized for about `nodes` stored positions (between 2^14 and 2^20 entries).
    pub fn for_nodes(nodes: u64) -> Tt {
        let bits = 64 - nodes.max(1).leading_zeros();
        Tt::new(bits.clamp(14, 20))
    }

    pub fn probe(&self, key: u64, ply: i32) -> Option<Hit> {
        let e = self.entries[key as usize & self.mask];
        if e.bound == 0 || e.key != key {
            return None;
        }
        let bound = match e.bound {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            mv: e.mv,
            depth: i32::from(e.depth),
            score: from_tt(e.score, ply),
            bound,
        })
    }

    pub fn store(&mut self, key: u64, depth: i32, ply: i32, score: i32, bound: Bound, mv: u16) {
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key == key && i32::from(slot.depth) > depth && bound != Bound::Exact {
            return;
        }
        *slot = Entry {
            key,
            score: to_tt(score, ply),
            mv,
            depth: depth.clamp(-100, 100) as i8,
            bound: match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
        };
    }
}

/// Win scores are stored relative to the node, read back relative to the root.
fn to_tt(score: i32, ply: i32) -> i32 {
    if score > WIN - 1000 {
        score + ply
    } else if score < -WIN + 1000 {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: i32, ply: i32) -> i32 {
    if score > WIN - 1000 {
        score - ply
    } else if score < -WIN + 1000 {
        score + ply
    } else {
        score
    }
}

/// Whether a hit decides the node: its score is usable against `alpha`/`beta` at `depth`.
pub(crate) fn cutoff(hit: &Hit, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
    if hit.depth < depth {
        return None;
    }
    match hit.bound {
        Bound::Exact => Some(hit.score),
        Bound::Lower if hit.score >= beta => Some(hit.score),
        Bound::Upper if hit.score <= alpha => Some(hit.score),
        _ => None,
    }
}
