//! Legal move generation with check and pin masks, generic over what is generated
//! (all, noisy, quiet) and where the moves go (a list, or a counter for perft).

use super::Position;
use crate::attacks::{
    between, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks, rook_rays, Built,
    Sliders,
};
use crate::castling::CastleSide;
use crate::{Color, Move, MoveList, Rank, Role, Square, SquareSet};

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    /// Every legal move.
    All,
    /// Captures (en passant included) and all promotions.
    Noisy,
    /// Everything else: quiet non-promoting moves and castling.
    Quiet,
}

const ALL: u8 = 0;
const NOISY: u8 = 1;
const QUIET: u8 = 2;

/// Receives generated moves. Implemented by [`MoveList`] and by the perft counter,
/// which counts whole target sets at once instead of building moves.
pub trait MoveSink {
    fn push(&mut self, m: Move);

    /// Normal moves from `from` to each square of `targets`.
    #[inline]
    fn push_set(&mut self, from: Square, targets: SquareSet) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }

    /// Pawn moves to each square of `targets`, from `to - delta` (delta in square indices).
    #[inline]
    fn push_pawns(&mut self, targets: SquareSet, delta: i8) {
        for to in targets {
            self.push(Move::normal(
                Square::from_index((to.index() as i8 - delta) as usize),
                to,
            ));
        }
    }

    /// The four promotions of each pawn move to `targets`, from `to - delta`.
    #[inline]
    fn push_promotions(&mut self, targets: SquareSet, delta: i8) {
        for to in targets {
            let from = Square::from_index((to.index() as i8 - delta) as usize);
            for role in Role::PROMOTIONS {
                self.push(Move::promotion(from, to, role));
            }
        }
    }
}

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// Counts moves without building them (perft's bulk counting).
#[derive(Default)]
pub(crate) struct Counter(pub u64);

impl MoveSink for Counter {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline]
    fn push_set(&mut self, _: Square, targets: SquareSet) {
        self.0 += targets.count() as u64;
    }
    #[inline]
    fn push_pawns(&mut self, targets: SquareSet, _: i8) {
        self.0 += targets.count() as u64;
    }
    #[inline]
    fn push_promotions(&mut self, targets: SquareSet, _: i8) {
        self.0 += 4 * targets.count() as u64;
    }
}

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<ALL, _, _>(&mut list, Built);
        list
    }

    /// Appends all legal moves to `list`.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        self.generate::<ALL, _, _>(list, Built);
    }

    /// Appends the legal moves of the given type to `list`.
    pub fn generate_into(&self, gen: GenType, list: &mut MoveList) {
        match gen {
            GenType::All => self.generate::<ALL, _, _>(list, Built),
            GenType::Noisy => self.generate::<NOISY, _, _>(list, Built),
            GenType::Quiet => self.generate::<QUIET, _, _>(list, Built),
        }
    }

    /// Legal captures and promotions.
    pub fn noisy_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<NOISY, _, _>(&mut list, Built);
        list
    }

    /// Legal quiet moves (no capture, no promotion), castling included.
    pub fn quiet_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<QUIET, _, _>(&mut list, Built);
        list
    }

    /// Legal moves out of check. Empty when not in check.
    pub fn evasions(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.in_check() {
            self.generate::<ALL, _, _>(&mut list, Built);
        }
        list
    }

    /// Number of legal moves, counted without building them.
    pub fn count_legal(&self) -> u64 {
        self.count_legal_inline()
    }

    /// `count_legal` with the given slider lookups, inlined into callers compiled with
    /// extra target features.
    #[inline(always)]
    pub(crate) fn count_legal_with<A: Sliders>(&self, sliders: A) -> u64 {
        let mut c = Counter(0);
        self.generate::<ALL, _, A>(&mut c, sliders);
        c.0
    }

    /// `count_legal`, inlined into callers compiled with extra target features.
    #[inline(always)]
    pub(crate) fn count_legal_inline(&self) -> u64 {
        self.count_legal_with(Built)
    }

    /// `legal_moves_into` with the given slider lookups, inlined.
    #[inline(always)]
    pub(crate) fn legal_moves_into_with<A: Sliders>(&self, list: &mut MoveList, sliders: A) {
        self.generate::<ALL, _, A>(list, sliders);
    }

    /// Feeds every legal move of type `GEN` into `sink`.
    pub fn generate_with<S: MoveSink>(&self, gen: GenType, sink: &mut S) {
        match gen {
            GenType::All => self.generate::<ALL, _, _>(sink, Built),
            GenType::Noisy => self.generate::<NOISY, _, _>(sink, Built),
            GenType::Quiet => self.generate::<QUIET, _, _>(sink, Built),
        }
    }

    #[inline(always)]
    fn generate<const GEN: u8, S: MoveSink, A: Sliders>(&self, sink: &mut S, sliders: A) {
        let us = self.turn;
        let king = self.king(us);
        let mine = self.us();
        let theirs = self.them();
        let occupied = mine | theirs;
        let kind_mask = match GEN {
            ALL => !mine,
            NOISY => theirs,
            _ => !occupied,
        };

        // King moves: the squares that enemy pawns, knights and the enemy king attack go
        // first, as sets; the rest are tested against the sliders square by square, with
        // the king lifted off the board so that a slider's ray through its square counts.
        let candidates = king_attacks(king) & kind_mask;
        if candidates.any() {
            let safe = candidates - self.leaper_attacks(!us);
            let without_king = occupied - king;
            let diagonal = self.diagonal_sliders() & theirs;
            let orthogonal = self.line_sliders() & theirs;
            for to in safe {
                let hit = ((bishop_rays(to) & diagonal).any()
                    && (sliders.bishop(to, without_king) & diagonal).any())
                    || ((rook_rays(to) & orthogonal).any()
                        && (sliders.rook(to, without_king) & orthogonal).any());
                if !hit {
                    sink.push(Move::normal(king, to));
                }
            }
        }
        if self.checkers.more_than_one() {
            return;
        }
        let check_mask = match self.checkers.first() {
            Some(checker) => between(king, checker) | checker,
            None => SquareSet::FULL,
        };
        let target = kind_mask & check_mask;
        let pinned = self.pinned;

        for from in self.pieces(us, Role::Knight) - pinned {
            sink.push_set(from, knight_attacks(from) & target);
        }
        for from in mine & self.diagonal_sliders() {
            let mut t = sliders.bishop(from, occupied) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            sink.push_set(from, t);
        }
        for from in mine & self.line_sliders() {
            let mut t = sliders.rook(from, occupied) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            sink.push_set(from, t);
        }

        self.generate_pawns::<GEN, S, A>(sink, check_mask, sliders);

        if GEN != NOISY && self.checkers.is_empty() && self.castling.has_any(us) {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling.rook(us, side) {
                    // The emptiness of the path first: it settles nearly every case.
                    if !occupied.intersects(self.castling.path(us, side))
                        && self.castle_path_safe(side, rook, sliders)
                    {
                        sink.push(Move::castle(king, rook));
                    }
                }
            }
        }
    }

    /// Squares attacked by the pawns, knights and king of `color`.
    #[inline(always)]
    fn leaper_attacks(&self, color: Color) -> SquareSet {
        let white = color == Color::White;
        let pawns = self.pieces(color, Role::Pawn);
        let mut attacked = pawns.shift_west().forward(white)
            | pawns.shift_east().forward(white)
            | king_attacks(self.king(color));
        for from in self.pieces(color, Role::Knight) {
            attacked |= knight_attacks(from);
        }
        attacked
    }

    /// Pawn moves, compiled once per colour so that every shift goes one known way.
    #[inline(always)]
    fn generate_pawns<const GEN: u8, S: MoveSink, A: Sliders>(
        &self,
        sink: &mut S,
        check_mask: SquareSet,
        sliders: A,
    ) {
        if self.turn == Color::White {
            self.generate_pawns_of::<GEN, S, A, true>(sink, check_mask, sliders);
        } else {
            self.generate_pawns_of::<GEN, S, A, false>(sink, check_mask, sliders);
        }
    }

    #[inline(always)]
    fn generate_pawns_of<const GEN: u8, S: MoveSink, A: Sliders, const WHITE: bool>(
        &self,
        sink: &mut S,
        check_mask: SquareSet,
        sliders: A,
    ) {
        let white = WHITE;
        let us = if WHITE { Color::White } else { Color::Black };
        let king = self.king(us);
        let theirs = self.them();
        let empty = !self.occupied();
        let pawns = self.pieces(us, Role::Pawn);
        let rank7 = SquareSet::from_rank(Rank::SEVENTH.relative(us));
        let rank3 = SquareSet::from_rank(Rank::THIRD.relative(us));
        let up: i8 = if white { 8 } else { -8 };
        let free = pawns - self.pinned;

        // Captures toward the a-file (west) and the h-file (east).
        let west = |s: SquareSet| s.shift_west().forward(white);
        let east = |s: SquareSet| s.shift_east().forward(white);

        if GEN != QUIET {
            let low = free - rank7;
            sink.push_pawns(west(low) & theirs & check_mask, up - 1);
            sink.push_pawns(east(low) & theirs & check_mask, up + 1);
            let high = free & rank7;
            if high.any() {
                sink.push_promotions(high.forward(white) & empty & check_mask, up);
                sink.push_promotions(west(high) & theirs & check_mask, up - 1);
                sink.push_promotions(east(high) & theirs & check_mask, up + 1);
            }
            if let Some(ep) = self.ep_square {
                for from in pawn_attacks(!us, ep) & pawns {
                    if self.ep_is_legal_with(from, ep, sliders) {
                        sink.push(Move::en_passant(from, ep));
                    }
                }
            }
        }
        if GEN != NOISY {
            let single = (free - rank7).forward(white) & empty;
            let double = (single & rank3).forward(white) & empty;
            sink.push_pawns(single & check_mask, up);
            sink.push_pawns(double & check_mask, 2 * up);
        }

        // Pinned pawns move only along their pin, and never while in check.
        if self.checkers.is_empty() {
            for from in pawns & self.pinned {
                let along = line(king, from);
                let promotes = rank7.contains(from);
                if GEN != QUIET {
                    for to in pawn_attacks(us, from) & theirs & along {
                        if promotes {
                            for role in Role::PROMOTIONS {
                                sink.push(Move::promotion(from, to, role));
                            }
                        } else {
                            sink.push(Move::normal(from, to));
                        }
                    }
                }
                let push = SquareSet::from_square(from).forward(white) & empty & along;
                if promotes {
                    if GEN != QUIET {
                        for to in push {
                            for role in Role::PROMOTIONS {
                                sink.push(Move::promotion(from, to, role));
                            }
                        }
                    }
                } else if GEN != NOISY {
                    sink.push_set(from, push);
                    let double = (push & rank3).forward(white) & empty;
                    sink.push_set(from, double);
                }
            }
        }
    }
}
