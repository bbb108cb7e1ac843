//! Squares, files and ranks, numbered a1 = 0 … h8 = 63 (little-endian rank-file).

use crate::Color;
use std::fmt;
use std::str::FromStr;

/// A file, `a` (0) to `h` (7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct File(u8);

/// A rank, `1` (0) to `8` (7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Rank(u8);

impl File {
    pub const A: File = File(0);
    pub const B: File = File(1);
    pub const C: File = File(2);
    pub const D: File = File(3);
    pub const E: File = File(4);
    pub const F: File = File(5);
    pub const G: File = File(6);
    pub const H: File = File(7);
    pub const ALL: [File; 8] = [
        File(0),
        File(1),
        File(2),
        File(3),
        File(4),
        File(5),
        File(6),
        File(7),
    ];

    /// `None` unless `index < 8`.
    #[inline]
    pub const fn new(index: u8) -> Option<File> {
        if index < 8 {
            Some(File(index))
        } else {
            None
        }
    }
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }
    /// Moves `delta` files, `None` off the board.
    pub const fn offset(self, delta: i8) -> Option<File> {
        let f = self.0 as i8 + delta;
        if f >= 0 && f < 8 {
            Some(File(f as u8))
        } else {
            None
        }
    }
}

impl Rank {
    pub const FIRST: Rank = Rank(0);
    pub const SECOND: Rank = Rank(1);
    pub const THIRD: Rank = Rank(2);
    pub const FOURTH: Rank = Rank(3);
    pub const FIFTH: Rank = Rank(4);
    pub const SIXTH: Rank = Rank(5);
    pub const SEVENTH: Rank = Rank(6);
    pub const EIGHTH: Rank = Rank(7);
    pub const ALL: [Rank; 8] = [
        Rank(0),
        Rank(1),
        Rank(2),
        Rank(3),
        Rank(4),
        Rank(5),
        Rank(6),
        Rank(7),
    ];

    #[inline]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank(index))
        } else {
            None
        }
    }
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }
    /// The rank as seen from `color`'s side (rank 1 for White is rank 8 for Black).
    #[inline]
    pub const fn relative(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
}

/// One of the 64 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// `None` unless `index < 64`.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `index & 63`: total, for callers that already know the index is in range.
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        Square((index & 63) as u8)
    }

    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }
    /// Mirrors the square vertically (a1 <-> a8).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(self.0 ^ 56)
    }
    /// The square as seen from `color`'s side.
    #[inline]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }
    /// Steps `df` files and `dr` ranks, `None` off the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = (self.0 & 7) as i8 + df;
        let r = (self.0 >> 3) as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square((r * 8 + f) as u8))
        } else {
            None
        }
    }
    /// True for the dark squares (a1 is dark).
    #[inline]
    pub const fn is_dark(self) -> bool {
        ((self.0 >> 3) ^ self.0) & 1 == 0
    }
    /// Chebyshev (king-step) distance.
    pub const fn distance(self, other: Square) -> u8 {
        let df = (self.0 & 7).abs_diff(other.0 & 7);
        let dr = (self.0 >> 3).abs_diff(other.0 >> 3);
        if df > dr {
            df
        } else {
            dr
        }
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

#[rustfmt::skip]
impl Square {
    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A2: Square = Square(8);
    pub const B2: Square = Square(9);
    pub const C2: Square = Square(10);
    pub const D2: Square = Square(11);
    pub const E2: Square = Square(12);
    pub const F2: Square = Square(13);
    pub const G2: Square = Square(14);
    pub const H2: Square = Square(15);
    pub const A3: Square = Square(16);
    pub const B3: Square = Square(17);
    pub const C3: Square = Square(18);
    pub const D3: Square = Square(19);
    pub const E3: Square = Square(20);
    pub const F3: Square = Square(21);
    pub const G3: Square = Square(22);
    pub const H3: Square = Square(23);
    pub const A4: Square = Square(24);
    pub const B4: Square = Square(25);
    pub const C4: Square = Square(26);
    pub const D4: Square = Square(27);
    pub const E4: Square = Square(28);
    pub const F4: Square = Square(29);
    pub const G4: Square = Square(30);
    pub const H4: Square = Square(31);
    pub const A5: Square = Square(32);
    pub const B5: Square = Square(33);
    pub const C5: Square = Square(34);
    pub const D5: Square = Square(35);
    pub const E5: Square = Square(36);
    pub const F5: Square = Square(37);
    pub const G5: Square = Square(38);
    pub const H5: Square = Square(39);
    pub const A6: Square = Square(40);
    pub const B6: Square = Square(41);
    pub const C6: Square = Square(42);
    pub const D6: Square = Square(43);
    pub const E6: Square = Square(44);
    pub const F6: Square = Square(45);
    pub const G6: Square = Square(46);
    pub const H6: Square = Square(47);
    pub const A7: Square = Square(48);
    pub const B7: Square = Square(49);
    pub const C7: Square = Square(50);
    pub const D7: Square = Square(51);
    pub const E7: Square = Square(52);
    pub const F7: Square = Square(53);
    pub const G7: Square = Square(54);
    pub const H7: Square = Square(55);
    pub const A8: Square = Square(56);
    pub const B8: Square = Square(57);
    pub const C8: Square = Square(58);
    pub const D8: Square = Square(59);
    pub const E8: Square = Square(60);
    pub const F8: Square = Square(61);
    pub const G8: Square = Square(62);
    pub const H8: Square = Square(63);
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// The text was not a square name such as `e4`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square '{0}' (expected a file a-h and a rank 1-8, e.g. e4)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(f), Some(r)) => Ok(Square::from_coords(f, r)),
                _ => Err(ParseSquareError(s.to_string())),
            },
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
        }
        assert_eq!("e4".parse::<Square>().unwrap().index(), 28);
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
    }

    #[test]
    fn colours_of_squares() {
        assert!(Square::A1.is_dark());
        assert!(!Square::H1.is_dark());
        assert!(Square::H8.is_dark());
    }
}
