//! `Position`: the board (bitboards plus mailbox), side to move, castling, en passant,
//! counters and incrementally kept Zobrist keys; the queries that search and
//! notation need (attacks, checkers, pins, `gives_check`, `is_legal`).
//!
//! Make/unmake live in `make.rs`, legal move generation in `movegen.rs`, FEN in `fen.rs`.

mod chess960;
mod fen;
mod make;
mod movegen;

pub use fen::{CastlingMode, CastlingToken, FenError, ParseFenError, PositionError, Setup};
pub use make::Undo;

pub use movegen::{GenType, MoveSink};

use crate::attacks::{
    self, between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks,
    rook_attacks, rook_rays, Built, Sliders,
};
use crate::castling::{CastleSide, Castling};
use crate::{zobrist, Color, Move, MoveKind, Piece, Role, Square, SquareSet};

const NO_PIECE: u8 = 12;

/// Where each kind of piece would give check, and which of our pieces would discover a
/// check by moving off their line; see [`Position::check_info`].
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    king: Square,
    squares: [SquareSet; 6],
    discoverers: SquareSet,
}

impl CheckInfo {
    /// The direct checks, as [`Position::check_squares`] gives them.
    #[inline]
    pub fn squares(&self) -> &[SquareSet; 6] {
        &self.squares
    }
}

/// A chess position (standard or Chess960).
///
/// Invariants, checked by [`Position::validate_keys`] in tests and `random-games --verify`:
/// the bitboards and the mailbox agree; each side has one king; the side not to move is
/// not in check; `key`, `pawn_key`, `material_key` and the non-pawn keys equal a fresh
/// recomputation; `checkers` and `pinned` describe the side to move.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    by_role: [SquareSet; 6],
    by_color: [SquareSet; 2],
    board: [u8; 64],
    turn: Color,
    castling: Castling,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
    pawn_key: u64,
    material_key: u64,
    /// Low halves of each colour's non-pawn key (see [`Position::non_pawn_key`]).
    non_pawn_keys: [u32; 2],
    checkers: SquareSet,
    pinned: SquareSet,
    chess960: bool,
}

/// Every key of a position, recomputed from its board (`Position::fresh_keys`).
pub(crate) struct FreshKeys {
    key: u64,
    pawn: u64,
    material: u64,
    non_pawn: [u32; 2],
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(crate::STARTPOS_FEN, CastlingMode::Standard).expect("valid start FEN")
    }

    fn empty() -> Position {
        Position {
            by_role: [SquareSet::EMPTY; 6],
            by_color: [SquareSet::EMPTY; 2],
            board: [NO_PIECE; 64],
            turn: Color::White,
            castling: Castling::NONE,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            key: 0,
            pawn_key: 0,
            material_key: 0,
            non_pawn_keys: [0; 2],
            checkers: SquareSet::EMPTY,
            pinned: SquareSet::EMPTY,
            chess960: false,
        }
    }

    // ---- Board queries -------------------------------------------------------------

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let p = self.board[sq.index()];
        if p == NO_PIECE {
            None
        } else {
            Some(Piece::from_index(p as usize))
        }
    }
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.piece_at(sq).map(Piece::role)
    }
    #[inline]
    pub fn occupied(&self) -> SquareSet {
        self.by_color[0] | self.by_color[1]
    }
    #[inline]
    pub fn by_color(&self, color: Color) -> SquareSet {
        self.by_color[color.index()]
    }
    #[inline]
    pub fn by_role(&self, role: Role) -> SquareSet {
        self.by_role[role.index()]
    }
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> SquareSet {
        self.by_color[color.index()] & self.by_role[role.index()]
    }
    #[inline]
    pub fn us(&self) -> SquareSet {
        self.by_color(self.turn)
    }
    #[inline]
    pub fn them(&self) -> SquareSet {
        self.by_color(!self.turn)
    }
    /// Bishops and queens.
    #[inline]
    pub fn diagonal_sliders(&self) -> SquareSet {
        self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]
    }
    /// Rooks and queens.
    #[inline]
    pub fn line_sliders(&self) -> SquareSet {
        self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]
    }
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).lsb()
    }
    #[inline]
    pub fn castling(&self) -> &Castling {
        &self.castling
    }
    /// The en-passant target square as set by the last move or the FEN.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }
    /// The Zobrist key; equal to the Polyglot book key of the position.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }
    /// A key of the pawns alone (both colours).
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// A key of `color`'s pieces other than pawns, king included: the low 32 bits of the
    /// Zobrist sum of those pieces alone, kept up to date by `make` and `unmake`. Enough
    /// to index a table by piece placement (correction history); too short to identify
    /// positions, which is what [`Position::key`] is for.
    ///
    /// ```
    /// use sable_chess::{Color, Position};
    /// let start = Position::startpos();
    /// // A pawn move leaves both keys; a knight move changes its side's alone.
    /// let mut pawn = start.clone();
    /// pawn.make(pawn.parse_uci("e2e4").unwrap());
    /// let mut knight = start.clone();
    /// knight.make(knight.parse_uci("g1f3").unwrap());
    /// for color in [Color::White, Color::Black] {
    ///     assert_eq!(pawn.non_pawn_key(color), start.non_pawn_key(color));
    /// }
    /// assert_ne!(knight.non_pawn_key(Color::White), start.non_pawn_key(Color::White));
    /// assert_eq!(knight.non_pawn_key(Color::Black), start.non_pawn_key(Color::Black));
    /// ```
    #[inline]
    pub fn non_pawn_key(&self, color: Color) -> u32 {
        self.non_pawn_keys[color.index()]
    }
    /// A key of the material signature: equal for positions with the same piece counts.
    #[inline]
    pub fn material_key(&self) -> u64 {
        self.material_key
    }
    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> SquareSet {
        self.checkers
    }
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }
    /// Pieces of the side to move pinned to their own king.
    #[inline]
    pub fn pinned(&self) -> SquareSet {
        self.pinned
    }
    /// Whether this position uses Chess960 notation (castling as king-takes-rook in UCI,
    /// Shredder/X-FEN castling letters).
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }
    pub fn set_chess960(&mut self, chess960: bool) {
        self.chess960 = chess960;
    }
    /// How many pieces of this kind stand on the board.
    #[inline]
    pub fn count(&self, color: Color, role: Role) -> u32 {
        self.pieces(color, role).count()
    }

    // ---- Attacks -------------------------------------------------------------------

    /// All pieces of either colour attacking `sq`, given occupancy `occupied`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: SquareSet) -> SquareSet {
        (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
            | (knight_attacks(sq) & self.by_role(Role::Knight))
            | (king_attacks(sq) & self.by_role(Role::King))
            | (bishop_attacks(sq, occupied) & self.diagonal_sliders())
            | (rook_attacks(sq, occupied) & self.line_sliders())
    }

    /// Whether `by` attacks `sq` given occupancy `occupied`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: SquareSet) -> bool {
        self.is_attacked_with(sq, by, occupied, Built)
    }

    #[inline(always)]
    fn is_attacked_with<A: Sliders>(
        &self,
        sq: Square,
        by: Color,
        occupied: SquareSet,
        sliders: A,
    ) -> bool {
        let them = self.by_color(by);
        (pawn_attacks(!by, sq) & them & self.by_role(Role::Pawn)).any()
            || (knight_attacks(sq) & them & self.by_role(Role::Knight)).any()
            || (king_attacks(sq) & them & self.by_role(Role::King)).any()
            || (sliders.bishop(sq, occupied) & them & self.diagonal_sliders()).any()
            || (sliders.rook(sq, occupied) & them & self.line_sliders()).any()
    }

    /// Pieces of `color` that stand alone between `king_sq` and an enemy slider aiming at it.
    pub fn blockers(&self, king_sq: Square, color: Color) -> SquareSet {
        let enemy = self.by_color(!color);
        let snipers = ((rook_rays(king_sq) & self.line_sliders())
            | (bishop_rays(king_sq) & self.diagonal_sliders()))
            & enemy;
        self.lone_blockers(king_sq, snipers) & self.by_color(color)
    }

    /// Pieces (of either colour) that stand alone between `king_sq` and one of `snipers`.
    #[inline(always)]
    fn lone_blockers(&self, king_sq: Square, snipers: SquareSet) -> SquareSet {
        let occupied = self.occupied();
        let mut blockers = SquareSet::EMPTY;
        for sniper in snipers {
            let b = between(king_sq, sniper) & occupied;
            if !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// Recomputes `checkers` and `pinned` for the side to move. One walk over the enemy
    /// sliders that aim at the king along an empty board finds both the sliders that
    /// check (nothing between) and the pins (one piece of ours between). Kings are left
    /// out of the checkers: in a legal position a king never gives check.
    #[inline]
    fn update_check_info(&mut self) {
        let us = self.turn;
        let king = self.king(us);
        let occupied = self.occupied();
        let theirs = self.by_color(!us);
        let mut checkers = ((pawn_attacks(us, king) & self.by_role(Role::Pawn))
            | (knight_attacks(king) & self.by_role(Role::Knight)))
            & theirs;
        let snipers = ((bishop_rays(king) & self.diagonal_sliders())
            | (rook_rays(king) & self.line_sliders()))
            & theirs;
        let mut blockers = SquareSet::EMPTY;
        for sniper in snipers {
            let b = between(king, sniper) & occupied;
            if b.is_empty() {
                checkers |= sniper;
            } else if !b.more_than_one() {
                blockers |= b;
            }
        }
        self.checkers = checkers;
        self.pinned = blockers & self.by_color(us);
    }

    /// Pinned pieces of the side to move that have no legal move at all.
    pub fn frozen(&self) -> SquareSet {
        let mut moves = crate::MoveList::new();
        self.legal_moves_into(&mut moves);
        let movable: SquareSet = moves.iter().map(|m| m.from()).collect();
        self.pinned - movable
    }

    // ---- Move properties -----------------------------------------------------------

    /// The piece that moves (the king, for castling).
    #[inline]
    pub fn moved_piece(&self, m: Move) -> Option<Piece> {
        self.piece_at(m.from())
    }

    /// Whether the move takes a piece (en passant included; castling never does).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castle => false,
            _ => self.them().contains(m.to()),
        }
    }

    /// The role taken by the move, if any.
    #[inline]
    pub fn captured_role(&self, m: Move) -> Option<Role> {
        match m.kind() {
            MoveKind::EnPassant => Some(Role::Pawn),
            MoveKind::Castle => None,
            _ => self
                .role_at(m.to())
                .filter(|_| self.them().contains(m.to())),
        }
    }

    /// What `gives_check_with` needs about the enemy king, computed once per position.
    pub fn check_info(&self) -> CheckInfo {
        let king = self.king(!self.turn);
        CheckInfo {
            king,
            squares: self.check_squares(),
            discoverers: self.discoverers(king),
        }
    }

    /// For each role (by [`Role::index`]), the squares from which a piece of the side to
    /// move would attack the enemy king: the direct checks, without the discovered ones
    /// that [`Position::check_info`] adds (a cheaper test where ordering moves is all).
    ///
    /// ```
    /// use sable_chess::{CastlingMode, Position, Role, Square};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1", CastlingMode::Standard).unwrap();
    /// let rook = pos.check_squares()[Role::Rook.index()];
    /// assert!(rook.contains(Square::E1) && rook.contains(Square::H8));
    /// assert!(pos.check_squares()[Role::King.index()].is_empty());
    /// ```
    pub fn check_squares(&self) -> [SquareSet; 6] {
        let us = self.turn;
        let king = self.king(!us);
        let occupied = self.occupied();
        let diagonal = bishop_attacks(king, occupied);
        let orthogonal = rook_attacks(king, occupied);
        [
            pawn_attacks(!us, king),
            knight_attacks(king),
            diagonal,
            orthogonal,
            diagonal | orthogonal,
            SquareSet::EMPTY,
        ]
    }

    /// Our pieces whose move off the line would uncover a check by our own slider.
    fn discoverers(&self, their_king: Square) -> SquareSet {
        let us = self.us();
        let snipers = ((rook_rays(their_king) & self.line_sliders())
            | (bishop_rays(their_king) & self.diagonal_sliders()))
            & us;
        self.lone_blockers(their_king, snipers) & us
    }

    /// `gives_check` with the per-position part precomputed: the way to mark checks for a
    /// whole move list (about twice as fast again as `gives_check` alone).
    #[inline]
    pub fn gives_check_with(&self, m: Move, info: &CheckInfo) -> bool {
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Normal => {
                let role = self.board[from.index()] as usize % 6;
                info.squares[role].contains(to)
                    || (info.discoverers.contains(from) && !line(from, to).contains(info.king))
            }
            MoveKind::Promotion(role) => {
                (info.discoverers.contains(from) && !line(from, to).contains(info.king))
                    || attacks::attacks(role, self.turn, to, self.occupied() - from)
                        .contains(info.king)
            }
            MoveKind::EnPassant | MoveKind::Castle => self.gives_check(m),
        }
    }

    /// Whether a legal move gives check, without making it.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.turn;
        let their_king = self.king(!us);
        let from = m.from();
        let mine = self.us();
        let mut diag = self.diagonal_sliders() & mine;
        let mut orth = self.line_sliders() & mine;
        let (role, to, occupied) = match m.kind() {
            MoveKind::Castle => {
                let (king_to, rook_to) = (m.castle_king_to(), m.castle_rook_to());
                let occ = (self.occupied() - from - m.to()) | king_to | rook_to;
                orth = (orth - m.to()) | rook_to;
                let check = (rook_attacks(their_king, occ) & orth).any()
                    || (bishop_attacks(their_king, occ) & diag).any();
                return check;
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(m.to().file(), from.rank());
                (
                    Role::Pawn,
                    m.to(),
                    (self.occupied() - from - captured) | m.to(),
                )
            }
            MoveKind::Promotion(r) => (r, m.to(), (self.occupied() - from) | m.to()),
            MoveKind::Normal => {
                let Some(p) = self.piece_at(from) else {
                    return false;
                };
                (p.role(), m.to(), (self.occupied() - from) | m.to())
            }
        };
        diag = diag - from;
        orth = orth - from;
        match role {
            Role::Pawn => {
                if pawn_attacks(us, to).contains(their_king) {
                    return true;
                }
            }
            Role::Knight => {
                if knight_attacks(to).contains(their_king) {
                    return true;
                }
            }
            Role::Bishop => diag |= to,
            Role::Rook => orth |= to,
            Role::Queen => {
                diag |= to;
                orth |= to;
            }
            Role::King => {}
        }
        // Captured pieces are theirs, so `to` holding an enemy piece changes nothing here.
        (bishop_attacks(their_king, occupied) & diag).any()
            || (rook_attacks(their_king, occupied) & orth).any()
    }

    /// Whether an arbitrary move (for example from a hash table) is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        if m.is_null() || !m.is_canonical() {
            return false;
        }
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if piece.color() != us {
            return false;
        }
        let occupied = self.occupied();
        let king = self.king(us);
        match m.kind() {
            MoveKind::Castle => {
                if piece.role() != Role::King {
                    return false;
                }
                let side = if to > from {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                self.castling.rook(us, side) == Some(to) && self.can_castle(side)
            }
            MoveKind::EnPassant => {
                piece.role() == Role::Pawn
                    && self.ep_square == Some(to)
                    && pawn_attacks(us, from).contains(to)
                    && self.ep_is_legal(from, to)
            }
            kind => {
                if self.us().contains(to) {
                    return false;
                }
                let last_rank = SquareSet::from_rank(crate::Rank::EIGHTH.relative(us));
                if piece.role() == Role::Pawn {
                    if matches!(kind, MoveKind::Promotion(_)) != last_rank.contains(to) {
                        return false;
                    }
                    let up: i8 = if us == Color::White { 1 } else { -1 };
                    let ok = if pawn_attacks(us, from).contains(to) {
                        self.them().contains(to)
                    } else if from.offset(0, up) == Some(to) {
                        !occupied.contains(to)
                    } else if from.rank() == crate::Rank::SECOND.relative(us)
                        && from.offset(0, 2 * up) == Some(to)
                    {
                        !occupied.contains(to)
                            && !occupied
                                .contains(Square::from_index((from.index() + to.index()) / 2))
                    } else {
                        false
                    };
                    if !ok {
                        return false;
                    }
                } else {
                    if matches!(kind, MoveKind::Promotion(_)) {
                        return false;
                    }
                    if !attacks::attacks(piece.role(), us, from, occupied).contains(to) {
                        return false;
                    }
                    if piece.role() == Role::King {
                        return !self.is_attacked(to, !us, occupied - from);
                    }
                }
                self.keeps_king_safe(king, from, to)
            }
        }
    }

    /// Whether moving our non-king piece from `from` to `to` (not en passant) leaves our
    /// king, on `king`, out of check: it answers any single check and leaves no pin.
    #[inline]
    pub(crate) fn keeps_king_safe(&self, king: Square, from: Square, to: Square) -> bool {
        if self.checkers.more_than_one() {
            return false;
        }
        if let Some(checker) = self.checkers.first() {
            if !(between(king, checker) | checker).contains(to) {
                return false;
            }
        }
        !self.pinned.contains(from) || line(king, from).contains(to)
    }

    /// Whether our non-pawn piece of `role` on `from`, which attacks `to`, may go there:
    /// [`Position::is_legal`] for a move already known to be a piece's reach (the SAN
    /// reader finds its candidates that way), without looking up the piece and its
    /// attacks again.
    #[inline]
    pub(crate) fn piece_move_is_legal(&self, role: Role, from: Square, to: Square) -> bool {
        debug_assert!(self.pieces(self.turn, role).contains(from) && role != Role::Pawn);
        let us = self.turn;
        if self.us().contains(to) {
            return false;
        }
        if role == Role::King {
            return !self.is_attacked(to, !us, self.occupied() - from);
        }
        self.keeps_king_safe(self.king(us), from, to)
    }

    /// Whether en passant from `from` to the ep square `to` leaves our king safe.
    pub(crate) fn ep_is_legal(&self, from: Square, to: Square) -> bool {
        self.ep_is_legal_with(from, to, Built)
    }

    #[inline(always)]
    pub(crate) fn ep_is_legal_with<A: Sliders>(
        &self,
        from: Square,
        to: Square,
        sliders: A,
    ) -> bool {
        let us = self.turn;
        let king = self.king(us);
        let captured = Square::from_coords(to.file(), from.rank());
        if let Some(checker) = self.checkers.first() {
            if self.checkers.more_than_one() {
                return false;
            }
            if checker != captured && !between(king, checker).contains(to) {
                return false;
            }
        }
        let occupied = (self.occupied() - from - captured) | to;
        let them = self.them();
        (sliders.rook(king, occupied) & them & self.line_sliders()).is_empty()
            && (sliders.bishop(king, occupied) & them & self.diagonal_sliders()).is_empty()
    }

    /// Whether castling on `side` is legal now (rights, empty path, no attacked square).
    pub(crate) fn can_castle(&self, side: CastleSide) -> bool {
        let us = self.turn;
        let Some(rook) = self.castling.rook(us, side) else {
            return false;
        };
        self.checkers.is_empty()
            && !self.occupied().intersects(self.castling.path(us, side))
            && self.castle_path_safe(side, rook, Built)
    }

    /// The last test of [`Position::can_castle`], once the right, the empty path and
    /// the absence of check are known: no square the king crosses is attacked.
    #[inline(always)]
    pub(crate) fn castle_path_safe<A: Sliders>(
        &self,
        side: CastleSide,
        rook: Square,
        sliders: A,
    ) -> bool {
        let us = self.turn;
        // The rook is lifted too: in Chess960 it may shield the king's destination.
        let without = self.occupied() - self.king(us) - rook;
        self.castling
            .king_path(us, side)
            .into_iter()
            .all(|sq| !self.is_attacked_with(sq, !us, without, sliders))
    }

    // ---- Keys ----------------------------------------------------------------------

    /// Whether the en-passant square enters the key: only when a pawn of the side to move
    /// could capture there (Polyglot's rule), so that equal positions get equal keys.
    #[inline]
    pub(crate) fn ep_hashed(&self) -> Option<Square> {
        self.ep_square
            .filter(|&ep| (pawn_attacks(!self.turn, ep) & self.pieces(self.turn, Role::Pawn)).any())
    }

    /// (key, pawn key, material key) recomputed from scratch.
    pub fn compute_keys(&self) -> (u64, u64, u64) {
        let k = self.fresh_keys();
        (k.key, k.pawn, k.material)
    }

    /// Every key recomputed from the board in one walk over its pieces.
    pub(crate) fn fresh_keys(&self) -> FreshKeys {
        let mut k = FreshKeys {
            key: 0,
            pawn: 0,
            material: 0,
            non_pawn: [0; 2],
        };
        let mut counts = [0u32; 12];
        for sq in self.occupied() {
            let p = self.piece_at(sq).expect("occupied square has a piece");
            let z = zobrist::piece_square(p, sq);
            k.key ^= z;
            if p.role() == Role::Pawn {
                k.pawn ^= z;
            } else {
                k.non_pawn[p.color().index()] ^= z as u32;
            }
            counts[p.index()] += 1;
        }
        k.key ^= zobrist::castling_set(self.castling.bits());
        if let Some(ep) = self.ep_hashed() {
            k.key ^= zobrist::en_passant_file(ep.file().index());
        }
        k.key ^= zobrist::side(self.turn);
        k.material = zobrist::material_of(&counts);
        k
    }

    /// Sets every key from a recomputation (after a position is built square by square).
    pub(crate) fn set_fresh_keys(&mut self) {
        let k = self.fresh_keys();
        self.key = k.key;
        self.pawn_key = k.pawn;
        self.material_key = k.material;
        self.non_pawn_keys = k.non_pawn;
    }

    /// Checks every derived field against a recomputation from the board; `Err` names
    /// the first mismatch. Used by tests and `random-games --verify`.
    pub fn validate_keys(&self) -> Result<(), String> {
        for sq in Square::all() {
            let p = self.piece_at(sq);
            for role in Role::ALL {
                if self.by_role(role).contains(sq) != (p.map(|p| p.role()) == Some(role)) {
                    return Err(format!("role bitboard and mailbox disagree on {sq}"));
                }
            }
            for color in Color::ALL {
                if self.by_color(color).contains(sq) != (p.map(|p| p.color()) == Some(color)) {
                    return Err(format!("colour bitboard and mailbox disagree on {sq}"));
                }
            }
        }
        let fresh = self.fresh_keys();
        if fresh.key != self.key {
            return Err(format!(
                "key {:016x} != recomputed {:016x}",
                self.key, fresh.key
            ));
        }
        if fresh.pawn != self.pawn_key {
            return Err("pawn key differs from recomputation".into());
        }
        if fresh.material != self.material_key {
            return Err("material key differs from recomputation".into());
        }
        if fresh.non_pawn != self.non_pawn_keys {
            return Err("non-pawn keys differ from recomputation".into());
        }
        let mut fresh = self.clone();
        fresh.update_check_info();
        if fresh.checkers != self.checkers || fresh.pinned != self.pinned {
            return Err("checkers or pins differ from recomputation".into());
        }
        Ok(())
    }

    // ---- Piece placement (keys kept up to date unless KEYS is false) -----------------

    #[inline]
    fn put(&mut self, piece: Piece, sq: Square) {
        self.put_keyed::<true>(piece, sq);
    }

    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        self.remove_keyed::<true>(piece, sq);
    }

    /// Toggles `piece`'s Zobrist numbers `z` in the position key and in its pawn or
    /// non-pawn key.
    #[inline(always)]
    fn xor_piece_keys(&mut self, piece: Piece, z: u64) {
        self.key ^= z;
        if piece.role() == Role::Pawn {
            self.pawn_key ^= z;
        } else {
            self.non_pawn_keys[piece.color().index()] ^= z as u32;
        }
    }

    #[inline(always)]
    fn put_keyed<const KEYS: bool>(&mut self, piece: Piece, sq: Square) {
        let bit = SquareSet::from_square(sq);
        self.by_role[piece.role().index()] |= bit;
        self.by_color[piece.color().index()] |= bit;
        self.board[sq.index()] = piece.index() as u8;
        if KEYS {
            self.xor_piece_keys(piece, zobrist::piece_square(piece, sq));
        }
    }

    #[inline(always)]
    fn remove_keyed<const KEYS: bool>(&mut self, piece: Piece, sq: Square) {
        let bit = SquareSet::from_square(sq);
        self.by_role[piece.role().index()] ^= bit;
        self.by_color[piece.color().index()] ^= bit;
        self.board[sq.index()] = NO_PIECE;
        if KEYS {
            self.xor_piece_keys(piece, zobrist::piece_square(piece, sq));
        }
    }

    #[inline(always)]
    fn shift_keyed<const KEYS: bool>(&mut self, piece: Piece, from: Square, to: Square) {
        let bits = SquareSet::from_square(from) | SquareSet::from_square(to);
        self.by_role[piece.role().index()] ^= bits;
        self.by_color[piece.color().index()] ^= bits;
        self.board[from.index()] = NO_PIECE;
        self.board[to.index()] = piece.index() as u8;
        if KEYS {
            let z = zobrist::piece_square(piece, from) ^ zobrist::piece_square(piece, to);
            self.xor_piece_keys(piece, z);
        }
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl std::fmt::Display for Position {
    /// An ASCII diagram, rank 8 at the top, then the FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in crate::Rank::ALL.iter().rev() {
            write!(f, "{} ", rank.char())?;
            for file in crate::File::ALL {
                let c = self
                    .piece_at(Square::from_coords(file, *rank))
                    .map_or('.', Piece::char);
                if file == crate::File::H {
                    writeln!(f, "{c}")?;
                } else {
                    write!(f, "{c} ")?;
                }
            }
        }
        writeln!(f, "  a b c d e f g h")?;
        write!(f, "{}", self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::attacks;

    /// `piece_move_is_legal` answers as `is_legal` for every piece's every attacked
    /// square, in every position two plies from positions full of pins, checks, double
    /// checks and castling (the perft suite's Kiwipete and positions 3 to 5).
    #[test]
    fn piece_move_is_legal_agrees_with_is_legal() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        let mut compared = 0;
        let mut check = |pos: &Position| {
            let us = pos.turn();
            for role in [
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ] {
                for from in pos.pieces(us, role) {
                    for to in attacks(role, us, from, pos.occupied()) {
                        assert_eq!(
                            pos.piece_move_is_legal(role, from, to),
                            pos.is_legal(Move::normal(from, to)),
                            "{} {from}{to}",
                            pos.fen()
                        );
                        compared += 1;
                    }
                }
            }
        };
        for fen in fens {
            let root = Position::from_fen(fen, crate::CastlingMode::Standard).unwrap();
            walk(&root, 2, &mut check);
        }
        assert!(compared > 100_000, "{compared}");
    }

    /// Perft's make and unmake without keys agree with the keyed pair on everything but
    /// the keys and counters, and take the position back exactly, two plies deep from
    /// positions with castling, en passant, promotions, checks and pins.
    #[test]
    fn unkeyed_make_matches_make() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        let mut checked = 0;
        let mut check = |pos: &Position| {
            for &m in pos.legal_moves().iter() {
                let mut keyed = pos.clone();
                keyed.make(m);
                let mut bare = pos.clone();
                let undo = bare.make_unkeyed(m);
                assert_eq!(bare.by_role, keyed.by_role, "{} {m:?}", pos.fen());
                assert_eq!(bare.by_color, keyed.by_color);
                assert_eq!(bare.board, keyed.board);
                assert_eq!(bare.turn, keyed.turn);
                assert_eq!(bare.castling.bits(), keyed.castling.bits());
                assert_eq!(bare.ep_square, keyed.ep_square);
                assert_eq!(bare.checkers, keyed.checkers);
                assert_eq!(bare.pinned, keyed.pinned);
                bare.unmake_unkeyed(m, &undo);
                assert_eq!(&bare, pos, "{} {m:?}", pos.fen());
                assert_eq!(bare.key(), pos.key());
                checked += 1;
            }
        };
        for fen in fens {
            let root = Position::from_fen(fen, crate::CastlingMode::Standard).unwrap();
            walk(&root, 1, &mut check);
        }
        assert!(checked > 4_000, "{checked}");
    }

    /// Calls `f` on `pos` and on every position up to `plies` legal moves after it.
    fn walk(pos: &Position, plies: u32, f: &mut impl FnMut(&Position)) {
        f(pos);
        if plies > 0 {
            for &m in pos.legal_moves().iter() {
                let mut next = pos.clone();
                next.make(m);
                walk(&next, plies - 1, f);
            }
        }
    }
}
