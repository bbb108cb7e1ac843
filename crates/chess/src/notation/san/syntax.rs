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

pub(super) fn piece_of(c: u8) -> Option<Role> {
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

/// The shapes that make up nearly every move of a real file (`e4`, `Nf3`, `exd5`, `Nbd7`,
/// `Qxe7+`, `e8=Q`, `O-O`), read without the lenient grammar's searches for separators,
/// suffixes and alternative spellings; `None` for anything else. Where it answers, it
/// answers as [`parse_lenient_syntax`] does (a test compares them on every short token):
/// reading games for a book spent a tenth of its time in the general grammar.
#[inline]
fn parse_common(s: &[u8]) -> Option<Parsed> {
    let body = match s {
        [b @ .., b'+' | b'#'] => b,
        b => b,
    };
    let square = |f: u8, r: u8| Some(Square::from_coords(file_of(f)?, rank_of(r)?));
    let piece_move = |role: Role, file: Option<File>, rank: Option<Rank>, to: Square| {
        Some(Parsed::Move {
            role: Some(role),
            file,
            rank,
            to,
            promotion: None,
        })
    };
    let pawn = |file: Option<File>, to: Square, promotion: Option<Role>| {
        Some(Parsed::Move {
            role: Some(Role::Pawn),
            file,
            rank: None,
            to,
            promotion,
        })
    };
    // Only the capital letters name a promotion here (the lenient reader also takes `=q`).
    let promoted = |p: u8| promotion_of(p).filter(|_| p.is_ascii_uppercase());
    match *body {
        [f, r] => pawn(None, square(f, r)?, None),
        [b'O', b'-', b'O'] => Some(Parsed::Castle(CastleSide::King)),
        [b'O', b'-', b'O', b'-', b'O'] => Some(Parsed::Castle(CastleSide::Queen)),
        [p, f, r] => piece_move(piece_of(p)?, None, None, square(f, r)?),
        [p, b'x', f, r] => match piece_of(p) {
            Some(role) => piece_move(role, None, None, square(f, r)?),
            None => pawn(Some(file_of(p)?), square(f, r)?, None),
        },
        [f, r, b'=', q] => pawn(None, square(f, r)?, Some(promoted(q)?)),
        // A piece move with a file or rank to tell it apart (`Nbd7`, `R1xe4`).
        [p, d, f, r] | [p, d, b'x', f, r] => {
            let role = piece_of(p)?;
            let to = square(f, r)?;
            match (file_of(d), rank_of(d)) {
                (Some(file), _) => piece_move(role, Some(file), None, to),
                (_, Some(rank)) => piece_move(role, None, Some(rank), to),
                _ => None,
            }
        }
        [c, b'x', f, r, b'=', q] => pawn(Some(file_of(c)?), square(f, r)?, Some(promoted(q)?)),
        _ => None,
    }
}

/// What real files contain; see [`SanMode::Lenient`].
pub(super) fn parse_lenient_syntax(s: &[u8]) -> Result<Parsed, &'static str> {
    match parse_common(s) {
        Some(parsed) => Ok(parsed),
        None => parse_lenient_general(s),
    }
}

/// The whole lenient grammar.
fn parse_lenient_general(s: &[u8]) -> Result<Parsed, &'static str> {
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

    /// Every token over `alphabet` of up to `max_len` bytes that the fast path reads is
    /// read the same way by the general grammar; returns how many the fast path read.
    fn compare_all(alphabet: &[u8], max_len: usize) -> u32 {
        fn walk(alphabet: &[u8], max_len: usize, token: &mut Vec<u8>, checked: &mut u32) {
            if let Some(fast) = parse_common(token) {
                assert_eq!(
                    Ok(fast),
                    parse_lenient_general(token),
                    "{:?}",
                    String::from_utf8_lossy(token)
                );
                *checked += 1;
            }
            if token.len() < max_len {
                for &c in alphabet {
                    token.push(c);
                    walk(alphabet, max_len, token, checked);
                    token.pop();
                }
            }
        }
        let mut checked = 0;
        walk(alphabet, max_len, &mut Vec::new(), &mut checked);
        checked
    }

    #[test]
    fn the_fast_path_agrees_with_the_general_grammar() {
        // Short tokens over SAN's alphabet and some strays (`P`, `q`, `0`, `:`)...
        let short = compare_all(b"NBRQKPaehx18=+#O-q0:", 5);
        // ...and the long shapes (promoting captures with a check mark) over fewer letters.
        let long = compare_all(b"exd8=Q+#O-", 7);
        assert!(
            short > 500 && long > 50,
            "fast path read {short} and {long} tokens"
        );
    }
}
