//! Reading SAN: the one legal move a token names, with errors that say why not.

use super::syntax::{parse_lenient_syntax, parse_strict_syntax, piece_of};
use super::{piece_attacks, Parsed, SanError, SanMode};
use crate::attacks::pawn_attacks;
use crate::castling::CastleSide;
use crate::{Color, File, Move, MoveKind, Position, Rank, Role, Square, SquareSet, Undo};

impl Position {
    /// Reads strict SAN (see [`SanMode::Strict`]): the text must be exactly what
    /// [`Position::san`] writes. `--` gives `Move::NULL` (play it with `make_null`).
    ///
    /// ```
    /// let pos = sable_chess::Position::startpos();
    /// let m = pos.parse_san("Nf3").unwrap();
    /// assert_eq!(m.to_uci(false).to_string(), "g1f3");
    /// assert!(pos.parse_san("Ngf3").is_err()); // over-disambiguated
    /// assert!(pos.parse_san("Nf4").is_err()); // illegal
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        self.parse_san_with(text, SanMode::Strict)
    }

    /// Reads SAN as found in real files (see [`SanMode::Lenient`]).
    ///
    /// ```
    /// let pos = sable_chess::Position::startpos();
    /// for text in ["Nf3", "Ng1f3", "Ng1-f3", "g1f3", "Nf3!?", "Nf3+"] {
    ///     assert_eq!(pos.parse_san_lenient(text).unwrap(), pos.parse_san("Nf3").unwrap());
    /// }
    /// ```
    pub fn parse_san_lenient(&self, text: &str) -> Result<Move, SanError> {
        self.parse_san_with(text, SanMode::Lenient)
    }

    /// Reads SAN in the given mode.
    pub fn parse_san_with(&self, text: &str, mode: SanMode) -> Result<Move, SanError> {
        match mode {
            SanMode::Strict => self.parse_strict(text),
            SanMode::Lenient => self.parse_lenient(text),
        }
    }

    /// Reads SAN as [`Position::parse_san_with`] does, with the same errors, and plays
    /// the move: returns it (`Move::NULL` for a null move, played with `make_null`) and
    /// what takes it back. On an error the position is unchanged.
    ///
    /// Cheaper than reading then making: strict SAN's check mark is checked against the
    /// position after the move, which `make` has already worked out, rather than by
    /// testing whether the move gives check beforehand.
    ///
    /// ```
    /// use sable_chess::{Position, SanMode};
    /// let mut pos = Position::startpos();
    /// let (m, undo) = pos.make_san("e4", SanMode::Strict).unwrap();
    /// assert!(pos.make_san("Nf3", SanMode::Strict).is_err()); // Black to move
    /// pos.unmake(m, &undo);
    /// assert!(pos == Position::startpos());
    /// ```
    pub fn make_san(&mut self, text: &str, mode: SanMode) -> Result<(Move, Undo), SanError> {
        let m = match mode {
            SanMode::Lenient => self.parse_lenient(text)?,
            SanMode::Strict => return self.make_strict(text),
        };
        let undo = if m.is_null() {
            self.make_null()
        } else {
            self.make(m)
        };
        Ok((m, undo))
    }

    /// `parse_strict` and `make` in one.
    fn make_strict(&mut self, text: &str) -> Result<(Move, Undo), SanError> {
        if let Some(played) = self.make_strict_common(text.as_bytes()) {
            return Ok(played);
        }
        self.make_strict_full(text)
    }

    /// The strict SAN of nearly every move of a game (`e4`, `exd5`, `e8=Q`, `Nf3`,
    /// `Nbxd7`, `Qh4+`, ...) read and played the short way: the move is resolved from
    /// the named piece's attacks on the target square and a pin-and-check test, the
    /// disambiguation is compared with what the other legal candidates require, and the
    /// check mark with the position after the move; no error is built on the way.
    /// `None`, with the position unchanged, for whatever it does not settle (castling,
    /// null moves, any text that is not the right SAN): the full reading then gives the
    /// move or the error, so both ways answer alike (`make_san_reads_as_parse_san_does`
    /// in the SAN tests holds them to it).
    #[inline]
    fn make_strict_common(&mut self, text: &[u8]) -> Option<(Move, Undo)> {
        let (body, mark) = match text {
            [body @ .., mark @ (b'+' | b'#')] => (body, Some(*mark)),
            body => (body, None),
        };
        let square = |f: u8, r: u8| {
            (f.wrapping_sub(b'a') < 8 && r.wrapping_sub(b'1') < 8)
                .then(|| Square::from_index(usize::from((r - b'1') * 8 + (f - b'a'))))
        };
        let us = self.turn();
        let m = match *body {
            [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), ref rest @ ..] => {
                let role = piece_of(p)?;
                let (head, capture, to) = match *rest {
                    [ref head @ .., b'x', f, r] => (head, true, square(f, r)?),
                    [ref head @ .., f, r] => (head, false, square(f, r)?),
                    _ => return None,
                };
                let (file, rank) = match *head {
                    [] => (None, None),
                    [c] if c.wrapping_sub(b'a') < 8 => (Some(c - b'a'), None),
                    [c] if c.wrapping_sub(b'1') < 8 => (None, Some(c - b'1')),
                    [f, r] if f.wrapping_sub(b'a') < 8 && r.wrapping_sub(b'1') < 8 => {
                        (Some(f - b'a'), Some(r - b'1'))
                    }
                    _ => return None,
                };
                if capture != self.them().contains(to) {
                    return None;
                }
                let (_, legal) = self.piece_movers(role, to);
                let mut matching = legal;
                if let Some(f) = file {
                    matching &= SquareSet::from_file(File::new(f)?);
                }
                if let Some(r) = rank {
                    matching &= SquareSet::from_rank(Rank::new(r)?);
                }
                let from = matching.first()?;
                if matching.more_than_one() {
                    return None;
                }
                // The disambiguation `Position::san` writes: none when no other piece
                // of the kind can go there, else the file if that tells them apart,
                // else the rank, else both.
                let others = legal - from;
                let (need_file, need_rank) = if others.is_empty() {
                    (false, false)
                } else if (others & SquareSet::from_file(from.file())).is_empty() {
                    (true, false)
                } else if (others & SquareSet::from_rank(from.rank())).is_empty() {
                    (false, true)
                } else {
                    (true, true)
                };
                if file.is_some() != need_file || rank.is_some() != need_rank {
                    return None;
                }
                Move::normal(from, to)
            }
            _ => {
                let (from_file, to, promotion) = match *body {
                    [f, r] => (None, square(f, r)?, None),
                    [f, r, b'=', p] => (None, square(f, r)?, Some(p)),
                    [c, b'x', f, r] => (Some(c), square(f, r)?, None),
                    [c, b'x', f, r, b'=', p] => (Some(c), square(f, r)?, Some(p)),
                    _ => return None,
                };
                let promotion = match promotion {
                    None => None,
                    Some(b'N') => Some(Role::Knight),
                    Some(b'B') => Some(Role::Bishop),
                    Some(b'R') => Some(Role::Rook),
                    Some(b'Q') => Some(Role::Queen),
                    Some(_) => return None,
                };
                let last_rank = Rank::EIGHTH.relative(us);
                if (to.rank() == last_rank) != promotion.is_some() || Some(to) == self.ep_square() {
                    return None;
                }
                let pawns = self.pieces(us, Role::Pawn);
                let back: i8 = if us == Color::White { -1 } else { 1 };
                let from = match from_file {
                    None => {
                        if self.occupied().contains(to) {
                            return None;
                        }
                        let one = to.offset(0, back)?;
                        if pawns.contains(one) {
                            one
                        } else {
                            let two = one.offset(0, back)?;
                            if to.rank() != Rank::FOURTH.relative(us)
                                || self.occupied().contains(one)
                                || !pawns.contains(two)
                            {
                                return None;
                            }
                            two
                        }
                    }
                    Some(c) => {
                        let from = Square::from_coords(File::new(c.wrapping_sub(b'a'))?, to.rank())
                            .offset(0, back)?;
                        if !(pawn_attacks(us, from).contains(to)
                            && pawns.contains(from)
                            && self.them().contains(to))
                        {
                            return None;
                        }
                        from
                    }
                };
                if !self.keeps_king_safe(self.king(us), from, to) {
                    return None;
                }
                match promotion {
                    Some(role) => Move::promotion(from, to, role),
                    None => Move::normal(from, to),
                }
            }
        };
        let undo = self.make(m);
        let right_mark = match mark {
            None => !self.in_check(),
            Some(mark) => self.in_check() && (mark == b'#') == self.is_mated(),
        };
        if !right_mark {
            self.unmake(m, &undo);
            return None;
        }
        Some((m, undo))
    }

    /// `make_strict` for every text, with the errors.
    fn make_strict_full(&mut self, text: &str) -> Result<(Move, Undo), SanError> {
        let parsed = parse_strict_syntax(text.as_bytes()).map_err(|reason| SanError::Syntax {
            text: text.to_string(),
            reason,
        })?;
        let (m, rivals) = self.find_move(text, parsed)?;
        if m.is_null() {
            self.parse_strict(text)?;
            return Ok((m, self.make_null()));
        }
        let (body, mark) = match text.as_bytes() {
            [body @ .., mark @ (b'+' | b'#')] => (body, Some(*mark)),
            body => (body, None),
        };
        if !self.is_canonical_body(m, parsed, rivals, body.contains(&b'x')) {
            return Err(self.not_canonical(text, m, rivals));
        }
        let undo = self.make(m);
        let right_mark = match mark {
            None => !self.in_check(),
            Some(mark) => self.in_check() && (mark == b'#') == self.is_mated(),
        };
        if !right_mark {
            self.unmake(m, &undo);
            return Err(self.not_canonical(text, m, rivals));
        }
        Ok((m, undo))
    }

    /// Whether SAN that the strict grammar read as `parsed` (with a capture mark or not)
    /// and that names the legal move `m` is what [`Position::san`] writes for it, check
    /// mark aside: the same capture mark and disambiguation (the syntax and the move search
    /// have settled the rest). `rivals`: as `find_move` gives them.
    fn is_canonical_body(
        &self,
        m: Move,
        parsed: Parsed,
        rivals: Option<SquareSet>,
        capture_mark: bool,
    ) -> bool {
        let Parsed::Move {
            role: Some(role),
            file,
            rank,
            ..
        } = parsed
        else {
            // Castling is written one way; a null move never comes here.
            return matches!(parsed, Parsed::Castle(_));
        };
        if capture_mark != self.is_capture(m) {
            return false;
        }
        let (need_file, need_rank) = match role {
            // The file of a capture, which the search has matched.
            Role::Pawn => (capture_mark, false),
            Role::King => (false, false),
            _ => {
                let from = m.from();
                let others = rivals.unwrap_or(SquareSet::EMPTY);
                if others.is_empty() {
                    (false, false)
                } else if (others & SquareSet::from_file(from.file())).is_empty() {
                    (true, false)
                } else if (others & SquareSet::from_rank(from.rank())).is_empty() {
                    (false, true)
                } else {
                    (true, true)
                }
            }
        };
        file.is_some() == need_file && rank.is_some() == need_rank
    }

    /// The error for `text` that names the legal move `m` in other words.
    #[cold]
    fn not_canonical(&self, text: &str, m: Move, rivals: Option<SquareSet>) -> SanError {
        let canonical = self.san_text_with(m, rivals);
        SanError::NotCanonical {
            text: text.to_string(),
            fen: self.fen(),
            reason: not_canonical_reason(text, canonical.as_str()),
            canonical: canonical.to_string(),
        }
    }

    fn parse_strict(&self, text: &str) -> Result<Move, SanError> {
        let parsed = parse_strict_syntax(text.as_bytes()).map_err(|reason| SanError::Syntax {
            text: text.to_string(),
            reason,
        })?;
        let (m, rivals) = self.find_move(text, parsed)?;
        if m.is_null() {
            // The syntax allows a check mark after any move; a null move never has one.
            if text != "--" {
                return Err(SanError::NotCanonical {
                    text: text.to_string(),
                    fen: self.fen(),
                    reason: "a null move gives no check, so it has no check mark",
                    canonical: "--".to_string(),
                });
            }
            return Ok(m);
        }
        if self.san_text_with(m, rivals).as_str() != text {
            return Err(self.not_canonical(text, m, rivals));
        }
        Ok(m)
    }

    fn parse_lenient(&self, text: &str) -> Result<Move, SanError> {
        let parsed = parse_lenient_syntax(text.as_bytes()).map_err(|reason| SanError::Syntax {
            text: text.to_string(),
            reason,
        })?;
        self.find_move(text, parsed).map(|(m, _)| m)
    }

    /// The one legal move that `parsed` describes, and for a piece move the other pieces
    /// of its kind that could legally go to the same square.
    fn find_move(&self, text: &str, parsed: Parsed) -> Result<(Move, Option<SquareSet>), SanError> {
        let us = self.turn();
        match parsed {
            Parsed::Null => {
                if self.in_check() {
                    return Err(self.illegal(text, "a null move is not allowed in check".into()));
                }
                Ok((Move::NULL, None))
            }
            Parsed::Castle(side) => {
                let Some(rook) = self.castling().rook(us, side) else {
                    return Err(self.illegal(
                        text,
                        format!("{us} has no right to castle {}", side_name(side)),
                    ));
                };
                let m = Move::castle(self.king(us), rook);
                if self.is_legal(m) {
                    Ok((m, None))
                } else {
                    Err(self.illegal(
                        text,
                        format!(
                            "{us} cannot castle {} now (path blocked, or the king is in or passes through check)",
                            side_name(side)
                        ),
                    ))
                }
            }
            Parsed::Move {
                role,
                file,
                rank,
                to,
                promotion,
            } => match role {
                Some(Role::Pawn) => self
                    .find_pawn_move(text, file, rank, to, promotion)
                    .map(|m| (m, None)),
                Some(role) if promotion.is_none() => {
                    self.find_piece_move(text, role, file, rank, to)
                }
                Some(role) => {
                    Err(self.illegal(text, format!("a {} cannot promote", role_name(role))))
                }
                None => self
                    .find_any_move(text, file, rank, to, promotion)
                    .map(|m| (m, None)),
            },
        }
    }

    /// Our pieces of `role` (not pawns) that attack `to`, and those of them that may
    /// legally go there: what both SAN readers resolve a piece move from. Always
    /// inlined: left as a call it slows PGN replay measurably (see its commit).
    #[inline(always)]
    fn piece_movers(&self, role: Role, to: Square) -> (SquareSet, SquareSet) {
        let reach = piece_attacks(role, to, self.occupied()) & self.pieces(self.turn(), role);
        let mut legal = SquareSet::EMPTY;
        for from in reach {
            if self.piece_move_is_legal(role, from, to) {
                legal |= from;
            }
        }
        (reach, legal)
    }

    fn find_piece_move(
        &self,
        text: &str,
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
    ) -> Result<(Move, Option<SquareSet>), SanError> {
        let (reach, legal) = self.piece_movers(role, to);
        let mut candidates = reach;
        let mut matching = legal;
        if let Some(f) = file {
            candidates &= SquareSet::from_file(f);
            matching &= SquareSet::from_file(f);
        }
        if let Some(r) = rank {
            candidates &= SquareSet::from_rank(r);
            matching &= SquareSet::from_rank(r);
        }
        let found = matching.first().map(|from| Move::normal(from, to));
        match (found, matching.count()) {
            (Some(m), 1) => Ok((m, Some(legal - m.from()))),
            (Some(_), _) => Err(self.ambiguous(text, |m| {
                self.role_at(m.from()) == Some(role) && m.to() == to && !m.is_castle()
            })),
            (None, _) => Err(self.explain_illegal(text, role, candidates, to)),
        }
    }

    fn find_pawn_move(
        &self,
        text: &str,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    ) -> Result<Move, SanError> {
        let us = self.turn();
        let pawns = self.pieces(us, Role::Pawn);
        let last_rank = Rank::new(7).map(|r| r.relative(us));
        let promotes = Some(to.rank()) == last_rank;
        if promotes && promotion.is_none() {
            return Err(self.illegal(
                text,
                "a pawn reaching the last rank must promote (e.g. =Q)".into(),
            ));
        }
        if !promotes && promotion.is_some() {
            return Err(self.illegal(
                text,
                format!("a pawn can only promote on the last rank, not on {to}"),
            ));
        }
        let make = |from: Square| match promotion {
            Some(r) => Move::promotion(from, to, r),
            None if Some(to) == self.ep_square() && from.file() != to.file() => {
                Move::en_passant(from, to)
            }
            None => Move::normal(from, to),
        };
        let mut sources = pawn_attacks(!us, to) & pawns;
        let forward: i8 = if us == Color::White { -1 } else { 1 };
        if self.piece_at(to).is_none() {
            if let Some(one) = to.offset(0, forward) {
                sources |= SquareSet::from_square(one) & pawns;
                if self.piece_at(one).is_none() && to.rank() == Rank::new(3).unwrap().relative(us) {
                    if let Some(two) = one.offset(0, forward) {
                        sources |= SquareSet::from_square(two) & pawns;
                    }
                }
            }
        }
        if let Some(f) = file {
            sources &= SquareSet::from_file(f);
        }
        if let Some(r) = rank {
            sources &= SquareSet::from_rank(r);
        }
        // The sources are pawns that reach `to` by construction (a push to an empty
        // square, or a diagonal step), so what is left of `is_legal` is whether a
        // diagonal step takes something and whether our king stays safe.
        let king = self.king(us);
        let legal = |from: Square, m: Move| {
            if m.kind() == MoveKind::EnPassant {
                self.ep_is_legal(from, to)
            } else {
                (from.file() == to.file() || self.them().contains(to))
                    && self.keeps_king_safe(king, from, to)
            }
        };
        let mut found = None;
        let mut count = 0;
        for from in sources {
            let m = make(from);
            let ok = legal(from, m);
            debug_assert_eq!(ok, self.is_legal(m), "{} {m:?}", self.fen());
            if ok {
                count += 1;
                found.get_or_insert(m);
            }
        }
        match (found, count) {
            (Some(m), 1) => Ok(m),
            (Some(_), _) => Err(self.ambiguous(text, |m| {
                self.role_at(m.from()) == Some(Role::Pawn)
                    && m.to() == to
                    && m.promotion_role() == promotion
            })),
            (None, _) => Err(self.explain_illegal(text, Role::Pawn, sources, to)),
        }
    }

    /// Lenient long algebraic / UCI without a piece letter: any piece from the square.
    fn find_any_move(
        &self,
        text: &str,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    ) -> Result<Move, SanError> {
        let chess960 = self.is_chess960();
        let matches = |m: &Move| {
            let target_ok =
                m.to() == to || (m.is_castle() && !chess960 && m.castle_king_to() == to);
            target_ok
                && file.is_none_or(|f| m.from().file() == f)
                && rank.is_none_or(|r| m.from().rank() == r)
                && m.promotion_role() == promotion
        };
        let legal = self.legal_moves();
        let mut it = legal.iter().copied().filter(matches);
        match (it.next(), it.next()) {
            (Some(m), None) => Ok(m),
            (Some(_), Some(_)) => Err(self.ambiguous(text, |m| matches(&m))),
            (None, _) => Err(self.illegal(
                text,
                format!(
                    "no legal move of {}{} goes to {to}",
                    file.map_or(String::new(), |f| f.to_string()),
                    rank.map_or(String::new(), |r| r.to_string())
                ),
            )),
        }
    }

    fn illegal(&self, text: &str, reason: String) -> SanError {
        SanError::Illegal {
            text: text.to_string(),
            fen: self.fen(),
            reason,
        }
    }

    fn ambiguous(&self, text: &str, filter: impl Fn(Move) -> bool) -> SanError {
        let names: Vec<String> = self
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| filter(m))
            .map(|m| self.san(m))
            .collect();
        SanError::Ambiguous {
            text: text.to_string(),
            fen: self.fen(),
            candidates: names.join(" or "),
        }
    }

    /// Why no `role` of the side to move from `sources` can go to `to`.
    fn explain_illegal(&self, text: &str, role: Role, sources: SquareSet, to: Square) -> SanError {
        let us = self.turn();
        if self.pieces(us, role).is_empty() {
            return self.illegal(text, format!("{us} has no {}", role_name(role)));
        }
        if let Some(p) = self.piece_at(to) {
            if p.color() == us {
                return self.illegal(text, format!("{to} holds a {us} {}", role_name(p.role())));
            }
        }
        let role = role_name(role);
        let reason = match sources.first() {
            None => format!("no {us} {role} can reach {to}"),
            Some(_) if role == "king" => {
                format!("the {us} king cannot go to {to}: the square is attacked")
            }
            Some(from) if self.in_check() => {
                format!("{us} is in check and the {role} on {from} to {to} does not answer it")
            }
            Some(from) => format!(
                "the {role} on {from} is pinned: moving it to {to} would expose the {us} king"
            ),
        };
        self.illegal(text, reason)
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn side_name(side: CastleSide) -> &'static str {
    match side {
        CastleSide::King => "king side",
        CastleSide::Queen => "queen side",
    }
}

fn not_canonical_reason(text: &str, canonical: &str) -> &'static str {
    let strip = |s: &str| s.trim_end_matches(['+', '#']).to_string();
    if strip(text) == strip(canonical) {
        if canonical.ends_with('#') {
            "the move mates, so it needs '#'"
        } else if canonical.ends_with('+') {
            "the move gives check, so it needs '+'"
        } else {
            "the move does not give check"
        }
    } else if text.contains('x') != canonical.contains('x') {
        if canonical.contains('x') {
            "a capture needs 'x'"
        } else {
            "the move captures nothing"
        }
    } else if strip(text).len() > strip(canonical).len() {
        "needless disambiguation"
    } else {
        "disambiguation differs"
    }
}
