//! Writing SAN: the text of a legal move, with the fewest disambiguation characters and
//! a check or mate mark.

use super::{piece_attacks, SanText};
use crate::attacks;
use crate::{Move, Position, Role, Square, SquareSet};

impl Position {
    /// The SAN of a legal move, with `+` or `#`.
    ///
    /// Check comes from `gives_check` (no move is made); only a checking move is played
    /// on a copy to test for mate. Castling is `O-O`/`O-O-O` in Chess960 too.
    ///
    /// ```
    /// use sable_chess::{CastlingMode, Position};
    /// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
    /// let m = pos.parse_uci("a1a8").unwrap();
    /// assert_eq!(pos.san(m), "Rxa8+");
    /// assert_eq!(pos.san(pos.parse_uci("e1c1").unwrap()), "O-O-O");
    /// ```
    pub fn san(&self, m: Move) -> String {
        self.san_text(m).as_str().to_string()
    }

    /// [`Position::san`] without touching the heap.
    pub fn san_text(&self, m: Move) -> SanText {
        self.san_text_with(m, None)
    }

    /// `san_text` given the legal rivals of a piece move, when the caller knows them.
    pub(super) fn san_text_with(&self, m: Move, rivals: Option<SquareSet>) -> SanText {
        let mut s = self.san_without_suffix(m, rivals);
        if !m.is_null() && self.gives_check(m) {
            let mut after = self.clone();
            after.make(m);
            s.push(if after.is_mated() { b'#' } else { b'+' });
        }
        s
    }

    /// SAN without the check mark.
    fn san_without_suffix(&self, m: Move, rivals: Option<SquareSet>) -> SanText {
        let mut s = SanText::new();
        if m.is_null() {
            s.push_str("--");
            return s;
        }
        let (from, to) = (m.from(), m.to());
        if m.is_castle() {
            s.push_str(if to.index() > from.index() {
                "O-O"
            } else {
                "O-O-O"
            });
            return s;
        }
        let role = self.role_at(from).unwrap_or(Role::Pawn);
        let capture = self.is_capture(m);
        if role == Role::Pawn {
            if capture {
                s.push(b'a' + from.file().index() as u8);
                s.push(b'x');
            }
            s.push_square(to);
            if let Some(p) = m.promotion_role() {
                s.push(b'=');
                s.push(p.upper_char() as u8);
            }
            return s;
        }
        s.push(role.upper_char() as u8);
        if role != Role::King {
            let others = rivals.unwrap_or_else(|| self.rivals(role, from, to));
            if others.any() {
                let same_file = others & SquareSet::from_file(from.file());
                let same_rank = others & SquareSet::from_rank(from.rank());
                if same_file.is_empty() {
                    s.push(b'a' + from.file().index() as u8);
                } else if same_rank.is_empty() {
                    s.push(b'1' + from.rank().index() as u8);
                } else {
                    s.push_square(from);
                }
            }
        }
        if capture {
            s.push(b'x');
        }
        s.push_square(to);
        s
    }

    /// Whether the side to move, in check, has no legal move. Most checks can be met by
    /// a king step, found without generating moves; only the rest go to the generator.
    pub(super) fn is_mated(&self) -> bool {
        let us = self.turn();
        let king = self.king(us);
        let occupied = self.occupied() - king;
        for sq in attacks::king_attacks(king) - self.us() {
            if !self.is_attacked(sq, !us, occupied) {
                return false;
            }
        }
        self.count_legal() == 0
    }

    /// Other pieces of the mover's `role` that could legally move to `to` as well.
    fn rivals(&self, role: Role, from: Square, to: Square) -> SquareSet {
        let us = self.turn();
        let candidates = piece_attacks(role, to, self.occupied()) & self.pieces(us, role);
        let mut rivals = SquareSet::EMPTY;
        for sq in candidates - from {
            if self.is_legal(Move::normal(sq, to)) {
                rivals |= sq;
            }
        }
        rivals
    }
}
