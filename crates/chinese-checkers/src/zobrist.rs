//! Zobrist keys: one per (colour, hole) for the six sets and the inert pieces, one per hole for
//! kings, one per seat to move. Built at compile time from a fixed seed, so hashes are stable
//! across runs and machines (the AI may store them).

use crate::cell::CELL_COUNT;

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix(seed.wrapping_add((i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)));
        i += 1;
    }
    out
}

/// Colour 0..6 is the set starting from that camp, colour 6 the inert pieces.
pub(crate) const PIECE: [[u64; CELL_COUNT]; 7] = [
    keys(1),
    keys(2),
    keys(3),
    keys(4),
    keys(5),
    keys(6),
    keys(7),
];
pub(crate) const KING: [u64; CELL_COUNT] = keys(8);
pub(crate) const TO_MOVE: [u64; 6] = keys(9);

/// Hash of a set of pieces of colour `colour`.
pub(crate) fn hash_bits(colour: usize, mut bits: u128, table: &[[u64; CELL_COUNT]; 7]) -> u64 {
    let mut h = 0;
    while bits != 0 {
        h ^= table[colour][bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    h
}

pub(crate) fn hash_kings(mut bits: u128) -> u64 {
    let mut h = 0;
    while bits != 0 {
        h ^= KING[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    h
}
