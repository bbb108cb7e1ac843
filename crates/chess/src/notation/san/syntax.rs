//! The SAN token grammar: the canonical form, and the looser forms of real files.

use super::Parsed;
use crate::castling::CastleSide;
use crate::{File, Rank, Role, Square};

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
pub(super) fn parse_strict_syntax(s: &[u8]) -> Result<Parsed, &'static str> {
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
pub(super) fn parse_lenient_syntax(s: &[u8]) -> Result<Parsed, &'static str> {
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
