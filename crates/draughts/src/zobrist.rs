//! Zobrist hashing: a 64-bit key per position, updated incrementally move by move.

use crate::bitboard::Bits;
use crate::board::{Board, Color};
use crate::moves::Move;
use crate::position::Position;

/// Keys for (white man, white king, black man, black king) on each padded bit (up to 128).
const KEYS: [[u64; 128]; 4] = make_keys();
/// Xored in when Black is to move.
const BLACK_TO_MOVE: u64 = 0x9e37_79b9_7f4a_7c15;

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn make_keys() -> [[u64; 128]; 4] {
    let mut keys = [[0; 128]; 4];
    let mut state = 0x005e_edd4_a6e5_u64;
    let mut p = 0;
    while p < 4 {
        let mut i = 0;
        while i < 128 {
            keys[p][i] = splitmix(&mut state);
            i += 1;
        }
        p += 1;
    }
    keys
}

#[inline(always)]
fn key(color: Color, king: bool, bit: u32) -> u64 {
    KEYS[color as usize * 2 + king as usize][bit as usize & 127]
}

/// The hash of every piece of `set`, all of one colour and role.
#[inline]
fn set_hash<T: Bits>(set: T, color: Color, king: bool) -> u64 {
    set.iter().fold(0, |h, bit| h ^ key(color, king, bit))
}

impl<B: Board> Position<B> {
    /// The Zobrist hash, computed from scratch.
    pub fn zobrist(&self) -> u64 {
        let mut h = if self.side == Color::Black {
            BLACK_TO_MOVE
        } else {
            0
        };
        for color in [Color::White, Color::Black] {
            let p = self.pieces(color);
            h ^= set_hash(p & !self.kings, color, false) ^ set_hash(p & self.kings, color, true);
        }
        h
    }

    /// What playing `mv` xors into the hash: `self.play_unchecked(mv).zobrist() ==
    /// self.zobrist() ^ self.zobrist_delta(mv)`.
    pub fn zobrist_delta(&self, mv: Move<B>) -> u64 {
        let side = self.side;
        let was_king = self.kings.has(mv.from_bit());
        let crowned = was_king || B::crown_row(side).has(mv.to_bit());
        let mut h =
            BLACK_TO_MOVE ^ key(side, was_king, mv.from_bit()) ^ key(side, crowned, mv.to_bit());
        let opp = side.opponent();
        let captured = mv.captured_bits();
        h ^= set_hash(captured & !self.kings, opp, false)
            ^ set_hash(captured & self.kings, opp, true);
        h
    }
}
