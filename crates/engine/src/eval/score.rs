//! The packed middlegame/endgame score pair every evaluation term produces.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A middlegame and an endgame value in one `i32` (endgame in the high half), so a
/// term costs one addition; both halves must stay within `i16`.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct S(i32);

impl S {
    pub const ZERO: S = S(0);

    #[inline]
    pub const fn new(mg: i32, eg: i32) -> S {
        S((eg << 16).wrapping_add(mg))
    }

    #[inline]
    pub const fn mg(self) -> i32 {
        self.0 as i16 as i32
    }

    #[inline]
    pub const fn eg(self) -> i32 {
        (self.0.wrapping_add(0x8000) >> 16) as i16 as i32
    }
}

impl std::fmt::Debug for S {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "S({}, {})", self.mg(), self.eg())
    }
}

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0.wrapping_add(o.0))
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0.wrapping_sub(o.0))
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(self.0.wrapping_neg())
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, n: i32) -> S {
        S(self.0.wrapping_mul(n))
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

#[cfg(test)]
mod tests {
    use super::S;

    #[test]
    fn halves_survive_arithmetic_with_mixed_signs() {
        for (a, b) in [(3, -7), (-300, 250), (0, -1), (-1, 0), (1200, -1500)] {
            let s = S::new(a, b);
            assert_eq!((s.mg(), s.eg()), (a, b));
            let t = s * 3 - S::new(1, 1);
            assert_eq!((t.mg(), t.eg()), (3 * a - 1, 3 * b - 1));
            assert_eq!(((-s).mg(), (-s).eg()), (-a, -b));
        }
    }
}
