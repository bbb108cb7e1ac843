//! `SquareSet`: a bitboard, one bit per square, bit 0 = a1.

use crate::{File, Rank, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares held in one `u64`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SquareSet(pub u64);

impl SquareSet {
    pub const EMPTY: SquareSet = SquareSet(0);
    pub const FULL: SquareSet = SquareSet(!0);
    pub const DARK: SquareSet = SquareSet(0xAA55_AA55_AA55_AA55);
    pub const LIGHT: SquareSet = SquareSet(!0xAA55_AA55_AA55_AA55);
    /// The first and last ranks, where pawns cannot stand.
    pub const BACKRANKS: SquareSet = SquareSet(0xFF00_0000_0000_00FF);

    #[inline]
    pub const fn from_square(sq: Square) -> SquareSet {
        SquareSet(1 << sq.index())
    }
    #[inline]
    pub const fn from_file(file: File) -> SquareSet {
        SquareSet(0x0101_0101_0101_0101 << file.index())
    }
    #[inline]
    pub const fn from_rank(rank: Rank) -> SquareSet {
        SquareSet(0xFF << (8 * rank.index()))
    }
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// More than one square.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }
    #[inline]
    pub const fn with(self, sq: Square) -> SquareSet {
        SquareSet(self.0 | 1 << sq.index())
    }
    #[inline]
    pub const fn without(self, sq: Square) -> SquareSet {
        SquareSet(self.0 & !(1 << sq.index()))
    }
    #[inline]
    pub const fn toggled(self, sq: Square) -> SquareSet {
        SquareSet(self.0 ^ 1 << sq.index())
    }
    /// The lowest square (a1 first), if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as usize))
        }
    }
    /// The highest square (h8 first), if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(63 - self.0.leading_zeros() as usize))
        }
    }
    /// The only square, if there is exactly one.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }
    /// The lowest square of a set known to be non-empty.
    #[inline]
    pub const fn lsb(self) -> Square {
        Square::from_index(self.0.trailing_zeros() as usize)
    }
    #[inline]
    pub const fn intersects(self, other: SquareSet) -> bool {
        self.0 & other.0 != 0
    }
    /// Mirrors the set vertically.
    #[inline]
    pub const fn flip_vertical(self) -> SquareSet {
        SquareSet(self.0.swap_bytes())
    }
    /// Shifts every square one rank towards the opponent of `color`... i.e. "forward" for `color`.
    #[inline]
    pub const fn forward(self, white: bool) -> SquareSet {
        if white {
            SquareSet(self.0 << 8)
        } else {
            SquareSet(self.0 >> 8)
        }
    }
    pub const fn shift_west(self) -> SquareSet {
        SquareSet((self.0 >> 1) & !0x8080_8080_8080_8080)
    }
    pub const fn shift_east(self) -> SquareSet {
        SquareSet((self.0 << 1) & !0x0101_0101_0101_0101)
    }
    pub const fn iter(self) -> SquareSetIter {
        SquareSetIter(self.0)
    }
}

/// Iterates squares from a1 to h8, clearing the lowest bit each step.
#[derive(Clone, Copy, Debug)]
pub struct SquareSetIter(u64);

impl Iterator for SquareSetIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index(self.0.trailing_zeros() as usize);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SquareSetIter {}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareSetIter;
    #[inline]
    fn into_iter(self) -> SquareSetIter {
        SquareSetIter(self.0)
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> SquareSet {
        iter.into_iter().fold(SquareSet::EMPTY, SquareSet::with)
    }
}

impl From<Square> for SquareSet {
    #[inline]
    fn from(sq: Square) -> SquareSet {
        SquareSet::from_square(sq)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for SquareSet {
            type Output = SquareSet;
            #[inline]
            fn $f(self, rhs: SquareSet) -> SquareSet {
                SquareSet(self.0 $op rhs.0)
            }
        }
        impl $atr for SquareSet {
            #[inline]
            fn $af(&mut self, rhs: SquareSet) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for SquareSet {
    type Output = SquareSet;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 & !rhs.0)
    }
}

macro_rules! square_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr<Square> for SquareSet {
            type Output = SquareSet;
            #[inline]
            fn $f(self, rhs: Square) -> SquareSet {
                SquareSet(self.0 $op (1u64 << rhs.index()))
            }
        }
        impl $tr<Square> for Square {
            type Output = SquareSet;
            #[inline]
            fn $f(self, rhs: Square) -> SquareSet {
                SquareSet((1u64 << self.index()) $op (1u64 << rhs.index()))
            }
        }
    };
}
square_op!(BitOr, bitor, |);
square_op!(BitXor, bitxor, ^);

impl BitOrAssign<Square> for SquareSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: Square) {
        self.0 |= 1u64 << rhs.index();
    }
}

impl Sub<Square> for SquareSet {
    type Output = SquareSet;
    #[inline]
    fn sub(self, rhs: Square) -> SquareSet {
        self.without(rhs)
    }
}

impl BitOr<SquareSet> for Square {
    type Output = SquareSet;
    #[inline]
    fn bitor(self, rhs: SquareSet) -> SquareSet {
        rhs.with(self)
    }
}

impl Not for SquareSet {
    type Output = SquareSet;
    #[inline]
    fn not(self) -> SquareSet {
        SquareSet(!self.0)
    }
}

impl fmt::Debug for SquareSet {
    /// An 8x8 picture, rank 8 at the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "SquareSet({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::from_index(rank * 8 + file);
                f.write_str(if self.contains(sq) { "1" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_is_ascending() {
        let set: SquareSet = [Square::H8, Square::A1, Square::E4].into_iter().collect();
        let v: Vec<_> = set.iter().map(|s| s.to_string()).collect();
        assert_eq!(v, ["a1", "e4", "h8"]);
        assert_eq!(set.count(), 3);
        assert!(set.more_than_one());
        assert_eq!(
            SquareSet::from_square(Square::E1).single(),
            Some(Square::E1)
        );
    }

    #[test]
    fn shifts_do_not_wrap() {
        let a = SquareSet::from_file(File::A);
        assert!(a.shift_west().is_empty());
        assert_eq!(a.shift_east(), SquareSet::from_file(File::B));
        let h = SquareSet::from_file(File::H);
        assert!(h.shift_east().is_empty());
        assert_eq!(SquareSet::DARK.count(), 32);
        assert!(SquareSet::DARK.contains(Square::A1));
    }
}
