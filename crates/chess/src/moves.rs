//! `Move`, a 16-bit encoded move, and `MoveList`, a fixed-capacity list of them.

use crate::{Role, Square};
use std::fmt;
use std::mem::MaybeUninit;

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum MoveKind {
    Normal,
    Promotion(Role),
    EnPassant,
    /// Castling, encoded as the king "capturing" its own rook: `to` is the rook's square,
    /// which makes Chess960 castling unambiguous.
    Castle,
}

/// A move in 16 bits: `from` (6), `to` (6), promotion role (2), kind (2).
///
/// Castling is stored king-takes-rook; [`Move::to_uci`] prints the standard form (`e1g1`)
/// unless asked for Chess960 notation (`e1h1`). `Move::NULL` (all zero) is never legal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const _: () = assert!(std::mem::size_of::<Move>() == 2);

const KIND_NORMAL: u16 = 0;
const KIND_PROMOTION: u16 = 1 << 14;
const KIND_EN_PASSANT: u16 = 2 << 14;
const KIND_CASTLE: u16 = 3 << 14;

impl Move {
    /// The empty move (also used for a null move in search). Never a legal move.
    pub const NULL: Move = Move(0);

    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | KIND_NORMAL)
    }
    /// `role` must be a knight, bishop, rook or queen.
    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move(
            from.index() as u16
                | (to.index() as u16) << 6
                | ((role as u16 - 1) & 3) << 12
                | KIND_PROMOTION,
        )
    }
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | KIND_EN_PASSANT)
    }
    /// Castling with the king on `king` and the rook on `rook`.
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move(king.index() as u16 | (rook.index() as u16) << 6 | KIND_CASTLE)
    }
    /// The raw 16 bits (for hash tables).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }
    /// Rebuilds a move from [`Move::bits`]; the result must be checked with
    /// `Position::is_legal` before it is played.
    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }
    /// Whether the bits are the ones the constructors produce (promotion bits are zero
    /// unless the move is a promotion). Hash-table moves that are not are rejected.
    #[inline]
    pub const fn is_canonical(self) -> bool {
        self.is_promotion() || self.0 & (3 << 12) == 0
    }
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as usize)
    }
    /// The destination; for castling, the rook's square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 6 & 63) as usize)
    }
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 & (3 << 14) {
            KIND_NORMAL => MoveKind::Normal,
            KIND_PROMOTION => {
                MoveKind::Promotion(Role::from_index((self.0 >> 12 & 3) as usize + 1))
            }
            KIND_EN_PASSANT => MoveKind::EnPassant,
            _ => MoveKind::Castle,
        }
    }
    #[inline]
    pub const fn promotion_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & (3 << 14) == KIND_PROMOTION
    }
    #[inline]
    pub const fn is_castle(self) -> bool {
        self.0 & (3 << 14) == KIND_CASTLE
    }
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 & (3 << 14) == KIND_EN_PASSANT
    }

    /// Where the king lands when castling (g- or c-file of its rank).
    #[inline]
    pub const fn castle_king_to(self) -> Square {
        let rank = self.from().index() & 56;
        if self.to().index() > self.from().index() {
            Square::from_index(rank + 6)
        } else {
            Square::from_index(rank + 2)
        }
    }
    /// Where the rook lands when castling (f- or d-file of its rank).
    #[inline]
    pub const fn castle_rook_to(self) -> Square {
        let rank = self.from().index() & 56;
        if self.to().index() > self.from().index() {
            Square::from_index(rank + 5)
        } else {
            Square::from_index(rank + 3)
        }
    }

    /// UCI long algebraic notation. Castling prints as the king's two-square move
    /// (`e1g1`) unless `chess960`, where it prints as king-takes-rook (`e1h1`).
    pub fn to_uci(self, chess960: bool) -> UciMove {
        UciMove { mv: self, chess960 }
    }
}

/// Displays a move in UCI notation; see [`Move::to_uci`].
#[derive(Clone, Copy)]
pub struct UciMove {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.mv;
        if m.is_null() {
            return f.write_str("0000");
        }
        let to = if m.is_castle() && !self.chess960 {
            m.castle_king_to()
        } else {
            m.to()
        };
        write!(f, "{}{}", m.from(), to)?;
        if let Some(role) = m.promotion_role() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci(true))?;
        match self.kind() {
            MoveKind::Castle => f.write_str("(castle)"),
            MoveKind::EnPassant => f.write_str("(ep)"),
            _ => Ok(()),
        }
    }
}

/// The most legal moves any chess position has is 218; 256 leaves room.
pub const MAX_MOVES: usize = 256;

/// A stack-allocated list of moves: generation never touches the heap.
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        // Built from an uninitialised whole with only `len` written: a struct literal
        // with `[MaybeUninit::uninit(); MAX_MOVES]` lets LLVM merge the zero `len`s of
        // lists made together (the search's move picker holds two) into one memset over
        // the arrays between them, 2 KB at every node.
        let mut list = MaybeUninit::<MoveList>::uninit();
        // SAFETY: `len` is written through a raw pointer to the field (no reference to
        // uninitialised memory is made), and `moves`, the only other field, is an array
        // of `MaybeUninit`, which needs no initialisation.
        unsafe {
            (&raw mut (*list.as_mut_ptr()).len).write(0);
            list.assume_init()
        }
    }
    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        // Indexing keeps this safe; the bound check is cheap next to generation.
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`, and `MaybeUninit<Move>`
        // has the same layout as `Move`. Measured: zero-initialising the array cost 6% of
        // perft speed.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
    /// Keeps the moves for which `f` is true, in order.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if f(m) {
                self.moves[kept] = MaybeUninit::new(m);
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        let e2: Square = "e2".parse().unwrap();
        let e4: Square = "e4".parse().unwrap();
        let m = Move::normal(e2, e4);
        assert_eq!((m.from(), m.to(), m.kind()), (e2, e4, MoveKind::Normal));
        for role in Role::PROMOTIONS {
            let p = Move::promotion(e2, e4, role);
            assert_eq!(p.promotion_role(), Some(role));
        }
        let c = Move::castle(Square::E1, Square::H1);
        assert_eq!(c.to_uci(false).to_string(), "e1g1");
        assert_eq!(c.to_uci(true).to_string(), "e1h1");
        assert_eq!(
            Move::castle(Square::E8, Square::A8)
                .to_uci(false)
                .to_string(),
            "e8c8"
        );
        assert_eq!(Move::NULL.to_uci(false).to_string(), "0000");
    }
}
