//! Standard algebraic notation: writing (with minimal disambiguation and `+`/`#` from the
//! rules core's `gives_check`) and reading, strictly (only the canonical text) or leniently
//! (what real files contain: `0-0`, `e8Q`, `exd6e.p.`, `Ng1-f3`, wrong check marks, ...).

use crate::attacks::{self, pawn_attacks};
use crate::castling::CastleSide;
use crate::{Color, File, Move, Position, Rank, Role, Square, SquareSet};
use std::fmt;

/// How strictly SAN is read.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum SanMode {
    /// Only the text [`Position::san`] writes (disambiguation, capture mark, `=Q`, `+`/`#`
    /// exactly as needed). A null move is `--`.
    #[default]
    Strict,
    /// Also `0-0`, `e8Q`, `e8=q`, `exd6e.p.`, missing or extra `+`/`#`, trailing `!?`,
    /// redundant disambiguation, long algebraic (`Ng1-f3`, `e2-e4`), UCI (`g1f3`) and the
    /// null moves `Z0` and `0000`.
    Lenient,
}

/// SAN that cannot be read in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    #[error("'{text}' is not a SAN move: {reason}")]
    Syntax { text: String, reason: &'static str },
    #[error("illegal move '{text}' in position {fen}: {reason}")]
    Illegal {
        text: String,
        fen: String,
        reason: String,
    },
    #[error("ambiguous move '{text}' in position {fen}: it could be {candidates}")]
    Ambiguous {
        text: String,
        fen: String,
        candidates: String,
    },
    #[error(
        "'{text}' is not strict SAN in position {fen}: {reason}; the move is written '{canonical}'"
    )]
    NotCanonical {
        text: String,
        fen: String,
        reason: &'static str,
        canonical: String,
    },
}

/// SAN text of one move, kept on the stack (at most 7 bytes, e.g. `exd8=Q#` or `Qa1xb2+`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SanText {
    buf: [u8; 8],
    len: u8,
}

impl SanText {
    const fn new() -> SanText {
        SanText {
            buf: [0; 8],
            len: 0,
        }
    }
    #[inline]
    fn push(&mut self, c: u8) {
        self.buf[self.len as usize] = c;
        self.len += 1;
    }
    fn push_str(&mut self, s: &str) {
        for &c in s.as_bytes() {
            self.push(c);
        }
    }
    #[inline]
    fn push_square(&mut self, sq: Square) {
        self.push(b'a' + sq.file().index() as u8);
        self.push(b'1' + sq.rank().index() as u8);
    }
    /// The text.
    pub fn as_str(&self) -> &str {
        // Only ASCII bytes are ever pushed.
        std::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or("")
    }
}

impl std::ops::Deref for SanText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for SanText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for SanText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

/// The parts of a SAN token, before they are matched against the position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Parsed {
    Null,
    Castle(CastleSide),
    Move {
        /// `None` when the lenient reader saw a bare from-square (UCI or `e2-e4`), which
        /// may name any piece.
        role: Option<Role>,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    },
}

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
        let mut s = self.san_without_suffix(m);
        if !m.is_null() && self.gives_check(m) {
            let mut after = self.clone();
            after.make(m);
            s.push(if after.count_legal() == 0 { b'#' } else { b'+' });
        }
        s
    }

    /// SAN without the check mark.
    fn san_without_suffix(&self, m: Move) -> SanText {
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
            let others = self.rivals(role, from, to);
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

    /// Other pieces of the mover's `role` that could legally move to `to` as well.
    fn rivals(&self, role: Role, from: Square, to: Square) -> SquareSet {
        let us = self.turn();
        let candidates = attacks::attacks(role, !us, to, self.occupied()) & self.pieces(us, role);
        let mut rivals = SquareSet::EMPTY;
        for sq in candidates - from {
            if self.is_legal(Move::normal(sq, to)) {
                rivals |= sq;
            }
        }
        rivals
    }

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

    fn parse_strict(&self, text: &str) -> Result<Move, SanError> {
        let parsed = parse_strict_syntax(text.as_bytes()).map_err(|reason| SanError::Syntax {
            text: text.to_string(),
            reason,
        })?;
        let m = self.find_move(text, parsed)?;
        if m.is_null() {
            return Ok(m);
        }
        let canonical = self.san_text(m);
        if canonical.as_str() != text {
            return Err(SanError::NotCanonical {
                text: text.to_string(),
                fen: self.fen(),
                reason: not_canonical_reason(text, canonical.as_str()),
                canonical: canonical.to_string(),
            });
        }
        Ok(m)
    }

    fn parse_lenient(&self, text: &str) -> Result<Move, SanError> {
        let parsed = parse_lenient_syntax(text.as_bytes()).map_err(|reason| SanError::Syntax {
            text: text.to_string(),
            reason,
        })?;
        self.find_move(text, parsed)
    }

    /// The one legal move that `parsed` describes.
    fn find_move(&self, text: &str, parsed: Parsed) -> Result<Move, SanError> {
        let us = self.turn();
        match parsed {
            Parsed::Null => {
                if self.in_check() {
                    return Err(self.illegal(text, "a null move is not allowed in check".into()));
                }
                Ok(Move::NULL)
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
                    Ok(m)
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
                Some(Role::Pawn) => self.find_pawn_move(text, file, rank, to, promotion),
                Some(role) if promotion.is_none() => {
                    self.find_piece_move(text, role, file, rank, to)
                }
                Some(role) => {
                    Err(self.illegal(text, format!("a {} cannot promote", role_name(role))))
                }
                None => self.find_any_move(text, file, rank, to, promotion),
            },
        }
    }

    fn find_piece_move(
        &self,
        text: &str,
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
    ) -> Result<Move, SanError> {
        let us = self.turn();
        let mut candidates =
            attacks::attacks(role, !us, to, self.occupied()) & self.pieces(us, role);
        if let Some(f) = file {
            candidates &= SquareSet::from_file(f);
        }
        if let Some(r) = rank {
            candidates &= SquareSet::from_rank(r);
        }
        let mut found = None;
        let mut count = 0;
        for from in candidates {
            let m = Move::normal(from, to);
            if self.is_legal(m) {
                count += 1;
                if found.is_none() {
                    found = Some(m);
                }
            }
        }
        match (found, count) {
            (Some(m), 1) => Ok(m),
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
        let mut found = None;
        let mut count = 0;
        for from in sources {
            let m = make(from);
            if self.is_legal(m) {
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

fn file_of(c: u8) -> Option<File> {
    (b'a'..=b'h')
        .contains(&c)
        .then(|| File::new(c - b'a'))
        .flatten()
}

fn rank_of(c: u8) -> Option<Rank> {
    (b'1'..=b'8')
        .contains(&c)
        .then(|| Rank::new(c - b'1'))
        .flatten()
}

fn piece_of(c: u8) -> Option<Role> {
    match c {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        _ => None,
    }
}

fn promotion_of(c: u8) -> Option<Role> {
    match c.to_ascii_uppercase() {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        _ => None,
    }
}

/// Canonical SAN syntax only: `[NBRQK][file][rank][x]square`, pawn moves, `=Q`, castling,
/// `--`, then at most one `+` or `#`. Whether the marks are right is checked afterwards.
fn parse_strict_syntax(s: &[u8]) -> Result<Parsed, &'static str> {
    let body = match s.last() {
        Some(b'+' | b'#') => &s[..s.len() - 1],
        _ => s,
    };
    match body {
        b"" => return Err("empty"),
        b"--" => return Ok(Parsed::Null),
        b"O-O" => return Ok(Parsed::Castle(CastleSide::King)),
        b"O-O-O" => return Ok(Parsed::Castle(CastleSide::Queen)),
        _ => {}
    }
    let (role, rest) = match piece_of(body[0]) {
        Some(r) => (r, &body[1..]),
        None => (Role::Pawn, body),
    };
    let (rest, promotion) = match rest {
        [head @ .., b'=', p] if role == Role::Pawn => (
            head,
            Some(
                promotion_of(*p)
                    .filter(|_| p.is_ascii_uppercase())
                    .ok_or("'=' must be followed by N, B, R or Q")?,
            ),
        ),
        _ => (rest, None),
    };
    let [head @ .., f, r] = rest else {
        return Err("expected a destination square such as e4");
    };
    let to = Square::from_coords(
        file_of(*f).ok_or("expected a destination square such as e4")?,
        rank_of(*r).ok_or("expected a destination square such as e4")?,
    );
    let head = match head {
        [h @ .., b'x'] => h,
        h => h,
    };
    let (file, rank) = match (role, head) {
        (Role::Pawn, []) => (None, None),
        (Role::Pawn, [f]) if rest.len() == 4 => (
            Some(file_of(*f).ok_or("a pawn capture starts with its file, e.g. exd5")?),
            None,
        ),
        (Role::Pawn, _) => return Err("a pawn move is a square (e4) or a capture (exd5)"),
        (_, []) => (None, None),
        (_, [c]) => match (file_of(*c), rank_of(*c)) {
            (Some(f), _) => (Some(f), None),
            (_, Some(r)) => (None, Some(r)),
            _ => return Err("disambiguation must be a file, a rank or a square"),
        },
        (_, [f, r]) => (
            Some(file_of(*f).ok_or("disambiguation must be a file, a rank or a square")?),
            Some(rank_of(*r).ok_or("disambiguation must be a file, a rank or a square")?),
        ),
        _ => return Err("too many characters before the destination square"),
    };
    // A pawn capture without `x` ("ed5") is not SAN.
    if role == Role::Pawn && file.is_some() && !rest.contains(&b'x') {
        return Err("a pawn capture needs 'x', e.g. exd5");
    }
    Ok(Parsed::Move {
        role: Some(role),
        file,
        rank,
        to,
        promotion,
    })
}

/// What real files contain; see [`SanMode::Lenient`].
fn parse_lenient_syntax(s: &[u8]) -> Result<Parsed, &'static str> {
    let mut end = s.len();
    while end > 0 && matches!(s[end - 1], b'+' | b'#' | b'!' | b'?') {
        end -= 1;
    }
    let mut body = &s[..end];
    for suffix in [&b"e.p."[..], b"ep"] {
        if body.len() > suffix.len() + 1 && body.ends_with(suffix) {
            body = &body[..body.len() - suffix.len()];
        }
    }
    match body {
        b"" => return Err("empty"),
        b"--" | b"Z0" | b"0000" | b"@@@@" => return Ok(Parsed::Null),
        b"O-O" | b"0-0" | b"o-o" | b"OO" | b"00" => return Ok(Parsed::Castle(CastleSide::King)),
        b"O-O-O" | b"0-0-0" | b"o-o-o" | b"OOO" | b"000" => {
            return Ok(Parsed::Castle(CastleSide::Queen))
        }
        _ => {}
    }
    // Drop separators, keeping at most 8 meaningful bytes.
    let mut buf = [0u8; 8];
    let mut n = 0;
    for &c in body {
        if matches!(c, b'x' | b'X' | b':' | b'-' | b'=' | b'/' | b'(' | b')') {
            continue;
        }
        if n == buf.len() {
            return Err("too long for a move");
        }
        buf[n] = c;
        n += 1;
    }
    let mut t = &buf[..n];
    let mut role = None;
    if let Some(&c) = t.first() {
        if c == b'P' {
            role = Some(Role::Pawn);
            t = &t[1..];
        } else if let Some(r) = piece_of(c) {
            role = Some(r);
            t = &t[1..];
        }
    }
    let mut promotion = None;
    if let [head @ .., r, p] = t {
        if rank_of(*r).is_some() {
            if let Some(pr) = promotion_of(*p) {
                promotion = Some(pr);
                t = &t[..head.len() + 1];
            }
        }
    }
    let [head @ .., f, r] = t else {
        return Err("expected a destination square such as e4");
    };
    let to = Square::from_coords(
        file_of(*f).ok_or("expected a destination square such as e4")?,
        rank_of(*r).ok_or("expected a destination square such as e4")?,
    );
    let (file, rank) = match head {
        [] => (None, None),
        [c] => match (file_of(*c), rank_of(*c)) {
            (Some(f), _) => (Some(f), None),
            (_, Some(r)) => (None, Some(r)),
            _ => return Err("disambiguation must be a file, a rank or a square"),
        },
        [f, r] => (
            Some(file_of(*f).ok_or("disambiguation must be a file, a rank or a square")?),
            Some(rank_of(*r).ok_or("disambiguation must be a file, a rank or a square")?),
        ),
        _ => return Err("too many characters before the destination square"),
    };
    if role.is_none() {
        if rank.is_some() && file.is_none() {
            return Err("a pawn move is a square (e4) or a capture (exd5)");
        }
        // A bare file is a pawn capture; a full square is long algebraic or UCI.
        if rank.is_none() {
            role = Some(Role::Pawn);
        }
    }
    Ok(Parsed::Move {
        role,
        file,
        rank,
        to,
        promotion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_text_holds_the_longest_san() {
        let pos =
            Position::from_fen("1r5k/P7/8/8/8/8/8/Q3K2Q w - - 0 1", Default::default()).unwrap();
        let m = pos.parse_uci("a7b8q").unwrap();
        assert_eq!(pos.san(m), "axb8=Q+");
        let m = pos.parse_uci("h1a8").unwrap();
        assert_eq!(pos.san(m), "Qha8");
    }
}
