//! Piece kinds (`Role`) and coloured pieces (`Piece`).

use crate::Color;
use std::fmt;

/// What a piece is, without its colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Knight, Role::Rook, Role::Bishop];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(i: usize) -> Role {
        match i {
            0 => Role::Pawn,
            1 => Role::Knight,
            2 => Role::Bishop,
            3 => Role::Rook,
            4 => Role::Queen,
            _ => Role::King,
        }
    }

    /// The lower-case letter, `p n b r q k`.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The upper-case letter used in SAN (`N`, `B`, …).
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Reads a letter of either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    #[inline]
    pub const fn of(self, color: Color) -> Piece {
        Piece::new(color, self)
    }
}

/// A coloured piece, packed as `color * 6 + role` (0..12) so it indexes tables directly.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece(color as u8 * 6 + role as u8)
    }
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 >= 6 {
            Color::Black
        } else {
            Color::White
        }
    }
    #[inline]
    pub const fn role(self) -> Role {
        Role::from_index((self.0 % 6) as usize)
    }
    /// 0..12, White's pawn to Black's king.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub const fn from_index(i: usize) -> Piece {
        Piece((i % 12) as u8)
    }
    /// FEN letter: upper case for White.
    pub const fn char(self) -> char {
        match self.color() {
            Color::White => self.role().upper_char(),
            Color::Black => self.role().char(),
        }
    }
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece::new(
                if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                },
                role,
            )),
            None => None,
        }
    }
    /// The Unicode chess symbol.
    pub const fn symbol(self) -> char {
        const S: [char; 12] = ['♙', '♘', '♗', '♖', '♕', '♔', '♟', '♞', '♝', '♜', '♛', '♚'];
        S[self.0 as usize]
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
