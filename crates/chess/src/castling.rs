//! Castling rights, general enough for Chess960: each right names its rook's square.

use crate::attacks::between;
use crate::{Color, File, Rank, Square, SquareSet};

/// The two ways to castle: towards the h-file (king side) or the a-file (queen side).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum CastleSide {
    King = 0,
    Queen = 1,
}

impl CastleSide {
    pub const ALL: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    /// The file the king lands on: g or c.
    pub const fn king_to_file(self) -> File {
        match self {
            CastleSide::King => File::G,
            CastleSide::Queen => File::C,
        }
    }
    /// The file the rook lands on: f or d.
    pub const fn rook_to_file(self) -> File {
        match self {
            CastleSide::King => File::F,
            CastleSide::Queen => File::D,
        }
    }
}

/// Which castling moves are still allowed, and with which rooks.
///
/// Rights are bits `2 * color + side` (the Polyglot order: White king side, White queen
/// side, Black king side, Black queen side).
///
/// Two values are equal when they grant the same rights with the same rooks: what is
/// kept for rights already lost (their rooks, paths and touch bits) does not count, so
/// a position reached by moves equals the same position read from its FEN.
#[derive(Clone, Copy, Debug)]
pub struct Castling {
    rights: u8,
    rooks: [Square; 4],
    /// The rights lost when a move starts or ends on a square (king or castling rook).
    touch: [u8; 64],
    /// Per right: squares that must be empty (both pieces' paths, less the two pieces).
    path: [SquareSet; 4],
    /// Per right: squares the king crosses or lands on, which must not be attacked.
    king_path: [SquareSet; 4],
}

impl PartialEq for Castling {
    fn eq(&self, other: &Castling) -> bool {
        let rights = self.rights;
        rights == other.rights
            && (0..4).filter(|b| rights >> b & 1 != 0).all(|b| {
                self.rooks[b] == other.rooks[b]
                    && self.path[b] == other.path[b]
                    && self.king_path[b] == other.king_path[b]
            })
            && (0..64).all(|sq| self.touch[sq] & rights == other.touch[sq] & rights)
    }
}

impl Eq for Castling {}

#[inline]
const fn bit(color: Color, side: CastleSide) -> usize {
    2 * color as usize + side as usize
}

impl Castling {
    pub const NONE: Castling = Castling {
        rights: 0,
        rooks: [Square::H1, Square::A1, Square::H8, Square::A8],
        touch: [0; 64],
        path: [SquareSet::EMPTY; 4],
        king_path: [SquareSet::EMPTY; 4],
    };

    /// Grants a right: `king` and `rook` are the squares of the castling pieces.
    pub(crate) fn grant(&mut self, color: Color, side: CastleSide, king: Square, rook: Square) {
        let b = bit(color, side);
        self.rights |= 1 << b;
        self.rooks[b] = rook;
        self.touch[rook.index()] |= 1 << b;
        self.touch[king.index()] |= 1 << b;
        let back = Castling::back_rank(color);
        let king_to = Square::from_coords(side.king_to_file(), back);
        let rook_to = Square::from_coords(side.rook_to_file(), back);
        self.king_path[b] = between(king, king_to) | king_to;
        self.path[b] = (self.king_path[b] | between(rook, rook_to) | rook_to) - king - rook;
    }

    /// Squares that must be empty to castle on this side.
    #[inline]
    pub(crate) fn path(&self, color: Color, side: CastleSide) -> SquareSet {
        self.path[bit(color, side)]
    }

    /// Squares the king passes or lands on when castling on this side.
    #[inline]
    pub(crate) fn king_path(&self, color: Color, side: CastleSide) -> SquareSet {
        self.king_path[bit(color, side)]
    }

    /// The rights as a 4-bit set (bit order as in the type's documentation).
    #[inline]
    pub const fn bits(&self) -> u8 {
        self.rights
    }
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.rights == 0
    }
    #[inline]
    pub const fn has(&self, color: Color, side: CastleSide) -> bool {
        self.rights >> bit(color, side) & 1 != 0
    }
    #[inline]
    pub const fn has_any(&self, color: Color) -> bool {
        self.rights >> (2 * color as usize) & 3 != 0
    }
    /// The rook that castles on this side, if the right remains.
    #[inline]
    pub const fn rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        if self.has(color, side) {
            Some(self.rooks[bit(color, side)])
        } else {
            None
        }
    }
    /// Drops the rights that a move from `from` to `to` takes away; returns the old bits.
    #[inline]
    pub(crate) fn touch(&mut self, from: Square, to: Square) -> u8 {
        let old = self.rights;
        self.rights &= !(self.touch[from.index()] | self.touch[to.index()]);
        old
    }
    #[inline]
    pub(crate) fn set_bits(&mut self, bits: u8) {
        self.rights = bits;
    }
    /// The back rank of `color`.
    pub const fn back_rank(color: Color) -> Rank {
        Rank::FIRST.relative(color)
    }
}
