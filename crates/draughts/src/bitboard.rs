//! Bit sets over the padded square layout (see [`crate::board`]).
//!
//! A [`Bits`] value is a set of squares of one board: `u64` for the 8×8 and 10×10 boards, `u128`
//! for 12×12. Bit `i` is the padded index of a square; the ghost bits between every two rows and
//! the bits past the last square are never set in a valid position.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// An unsigned integer used as a set of squares.
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// The set holding only bit `index`.
    fn bit(index: u32) -> Self;
    /// The lowest set bit's index; the type's width when empty.
    fn lowest(self) -> u32;
    /// The highest set bit's index; undefined (but no panic) when empty.
    fn highest(self) -> u32;
    /// The number of set bits.
    fn count(self) -> u32;
    /// Converts from a `u128` holding the same bits (used to build constant tables).
    fn from_u128(x: u128) -> Self;

    /// Whether no bit is set.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// Whether bit `index` is set.
    #[inline(always)]
    fn has(self, index: u32) -> bool {
        self & Self::bit(index) != Self::ZERO
    }
    /// Iterates over the indices of the set bits, lowest first.
    #[inline(always)]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn bit(index: u32) -> Self {
                1 << index
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn highest(self) -> u32 {
                (<$t>::BITS - 1).wrapping_sub(self.leading_zeros())
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
        }
    };
}

impl_bits!(u64);
impl_bits!(u128);

/// Iterator over the set bits of a [`Bits`] value, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct BitIter<T>(T);

impl<T: Bits> Iterator for BitIter<T> {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            return None;
        }
        let i = self.0.lowest();
        self.0 &= !T::bit(i);
        Some(i)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<T: Bits> ExactSizeIterator for BitIter<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_lowest_first() {
        let x: u128 = (1 << 3) | (1 << 70) | 1;
        assert_eq!(x.iter().collect::<Vec<_>>(), vec![0, 3, 70]);
        assert_eq!(x.highest(), 70);
        assert_eq!(0b1010u64.highest(), 3);
    }
}
