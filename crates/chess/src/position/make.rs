//! Make and unmake (execute and retract) a move, and the null move, with keys kept
//! incrementally.

use super::{Position, NO_PIECE};
use crate::attacks::pawn_attacks;
use crate::{zobrist, Color, Move, MoveKind, Piece, Role, Square, SquareSet};

/// What `make` changes that `unmake` cannot recompute.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    castling: u8,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
    pawn_key: u64,
    material_key: u64,
    non_pawn_keys: [u32; 2],
    checkers: SquareSet,
    pinned: SquareSet,
}

const _: () = assert!(std::mem::size_of::<Undo>() <= 64);

impl Position {
    /// Plays a legal move. The move must be legal in this position (from the generator or
    /// checked with [`Position::is_legal`]); anything else leaves the position corrupt.
    pub fn make(&mut self, m: Move) -> Undo {
        self.make_keyed::<true>(m)
    }

    /// [`Position::make`] that leaves the keys and the move counters as they were: for
    /// perft, which reads neither and takes every move back with
    /// [`Position::unmake_unkeyed`].
    #[inline(always)]
    pub(crate) fn make_unkeyed(&mut self, m: Move) -> Undo {
        self.make_keyed::<false>(m)
    }

    #[inline(always)]
    fn make_keyed<const KEYS: bool>(&mut self, m: Move) -> Undo {
        let undo = Undo {
            captured: NO_PIECE,
            castling: self.castling.bits(),
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            key: self.key,
            pawn_key: self.pawn_key,
            material_key: self.material_key,
            non_pawn_keys: self.non_pawn_keys,
            checkers: self.checkers,
            pinned: self.pinned,
        };
        let mut undo = undo;
        let us = self.turn;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let piece = Piece::from_index(self.board[from.index()] as usize);

        if KEYS {
            if let Some(ep) = self.ep_hashed() {
                self.key ^= zobrist::en_passant_file(ep.file().index());
            }
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.ep_square = None;

        match m.kind() {
            MoveKind::Castle => {
                let rook = Role::Rook.of(us);
                let (king_to, rook_to) = (m.castle_king_to(), m.castle_rook_to());
                // Remove both first: in Chess960 the king may land where the rook stood.
                self.remove_keyed::<KEYS>(piece, from);
                self.remove_keyed::<KEYS>(rook, to);
                self.put_keyed::<KEYS>(piece, king_to);
                self.put_keyed::<KEYS>(rook, rook_to);
            }
            kind => {
                let captured_sq = if kind == MoveKind::EnPassant {
                    Square::from_coords(to.file(), from.rank())
                } else {
                    to
                };
                let captured = self.board[captured_sq.index()];
                if captured != NO_PIECE {
                    let cp = Piece::from_index(captured as usize);
                    self.remove_keyed::<KEYS>(cp, captured_sq);
                    if KEYS {
                        self.material_key ^= zobrist::material(cp, self.count(them, cp.role()));
                        self.halfmoves = 0;
                    }
                    undo.captured = captured;
                }
                if let MoveKind::Promotion(role) = kind {
                    self.remove_keyed::<KEYS>(piece, from);
                    let promoted = role.of(us);
                    if KEYS {
                        self.material_key ^= zobrist::material(piece, self.count(us, Role::Pawn));
                        self.material_key ^= zobrist::material(promoted, self.count(us, role));
                    }
                    self.put_keyed::<KEYS>(promoted, to);
                } else {
                    self.shift_keyed::<KEYS>(piece, from, to);
                }
                if piece.role() == Role::Pawn {
                    if KEYS {
                        self.halfmoves = 0;
                    }
                    if from.index() ^ to.index() == 16 {
                        let ep = Square::from_index((from.index() + to.index()) / 2);
                        // Record the square only when an enemy pawn could take there, as
                        // Polyglot does, so that repetitions compare equal.
                        if (pawn_attacks(us, ep) & self.pieces(them, Role::Pawn)).any() {
                            self.ep_square = Some(ep);
                            if KEYS {
                                self.key ^= zobrist::en_passant_file(ep.file().index());
                            }
                        }
                    }
                }
            }
        }

        let old = self.castling.touch(from, to);
        if KEYS {
            if old != self.castling.bits() {
                self.key ^=
                    zobrist::castling_set(old) ^ zobrist::castling_set(self.castling.bits());
            }
            if us == Color::Black {
                // Counters from a FEN may be as large as u32 allows: they stop there, and
                // `unmake` restores them from the undo record rather than counting back.
                self.fullmoves = self.fullmoves.saturating_add(1);
            }
            self.key ^= zobrist::white_to_move();
        }
        self.turn = them;
        self.update_check_info();
        undo
    }

    /// Takes back `m`, which must be the last move made, with the `Undo` that `make` gave.
    pub fn unmake(&mut self, m: Move, undo: &Undo) {
        self.unmake_keyed::<true>(m, undo);
    }

    /// Takes back a move made with [`Position::make_unkeyed`], which left the keys and
    /// counters alone, so they are not restored either.
    #[inline(always)]
    pub(crate) fn unmake_unkeyed(&mut self, m: Move, undo: &Undo) {
        self.unmake_keyed::<false>(m, undo);
    }

    /// The pieces are moved back without key updates in either case: with KEYS the keys
    /// are restored from `undo`.
    #[inline(always)]
    fn unmake_keyed<const KEYS: bool>(&mut self, m: Move, undo: &Undo) {
        let them = self.turn;
        let us = !them;
        self.turn = us;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Castle => {
                let king = Role::King.of(us);
                let rook = Role::Rook.of(us);
                self.remove_keyed::<false>(king, m.castle_king_to());
                self.remove_keyed::<false>(rook, m.castle_rook_to());
                self.put_keyed::<false>(king, from);
                self.put_keyed::<false>(rook, to);
            }
            kind => {
                let moved = Piece::from_index(self.board[to.index()] as usize);
                if kind.is_promotion() {
                    self.remove_keyed::<false>(moved, to);
                    self.put_keyed::<false>(Role::Pawn.of(us), from);
                } else {
                    self.shift_keyed::<false>(moved, to, from);
                }
                if undo.captured != NO_PIECE {
                    let sq = if kind == MoveKind::EnPassant {
                        Square::from_coords(to.file(), from.rank())
                    } else {
                        to
                    };
                    self.put_keyed::<false>(Piece::from_index(undo.captured as usize), sq);
                }
            }
        }
        self.castling.set_bits(undo.castling);
        self.ep_square = undo.ep_square;
        if KEYS {
            self.fullmoves = undo.fullmoves;
            self.halfmoves = undo.halfmoves;
            self.key = undo.key;
            self.pawn_key = undo.pawn_key;
            self.material_key = undo.material_key;
            self.non_pawn_keys = undo.non_pawn_keys;
        }
        self.checkers = undo.checkers;
        self.pinned = undo.pinned;
    }

    /// Passes the turn (for null-move pruning). Not allowed in check.
    pub fn make_null(&mut self) -> Undo {
        debug_assert!(!self.in_check());
        let undo = Undo {
            captured: NO_PIECE,
            castling: self.castling.bits(),
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            key: self.key,
            pawn_key: self.pawn_key,
            material_key: self.material_key,
            non_pawn_keys: self.non_pawn_keys,
            checkers: self.checkers,
            pinned: self.pinned,
        };
        if let Some(ep) = self.ep_hashed() {
            self.key ^= zobrist::en_passant_file(ep.file().index());
        }
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        self.turn = !self.turn;
        self.key ^= zobrist::white_to_move();
        self.update_check_info();
        undo
    }

    pub fn unmake_null(&mut self, undo: &Undo) {
        self.turn = !self.turn;
        self.ep_square = undo.ep_square;
        self.halfmoves = undo.halfmoves;
        self.key = undo.key;
        self.checkers = undo.checkers;
        self.pinned = undo.pinned;
    }

    /// The key the position will have after `m`, without making it (for prefetching).
    /// Exact except for en passant rights the move creates.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return self.key;
        };
        let mut key = self.key ^ zobrist::white_to_move();
        if let Some(ep) = self.ep_hashed() {
            key ^= zobrist::en_passant_file(ep.file().index());
        }
        match m.kind() {
            MoveKind::Castle => {
                let rook = Role::Rook.of(us);
                key ^= zobrist::piece_square(piece, from)
                    ^ zobrist::piece_square(piece, m.castle_king_to())
                    ^ zobrist::piece_square(rook, to)
                    ^ zobrist::piece_square(rook, m.castle_rook_to());
            }
            kind => {
                if let Some(cap) = self.piece_at(to) {
                    key ^= zobrist::piece_square(cap, to);
                }
                if kind == MoveKind::EnPassant {
                    let sq = Square::from_coords(to.file(), from.rank());
                    key ^= zobrist::piece_square(Role::Pawn.of(!us), sq);
                }
                let placed = m.promotion_role().map_or(piece, |r| r.of(us));
                key ^= zobrist::piece_square(piece, from) ^ zobrist::piece_square(placed, to);
            }
        }
        let mut castling = self.castling;
        let old = castling.touch(from, to);
        key ^ zobrist::castling_set(old) ^ zobrist::castling_set(castling.bits())
    }
}

impl MoveKind {
    #[inline]
    pub const fn is_promotion(self) -> bool {
        matches!(self, MoveKind::Promotion(_))
    }
}
