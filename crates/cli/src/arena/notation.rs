//! Standard algebraic notation for the arena, until the notation crate lands on main:
//! [`san`] writes a move, [`parse_san`] reads one. Each is one function so that switching
//! to `pos.san(m)` / the notation crate's `parse_san` is a one-line change.

use sable_chess::{File, Move, Position, Rank, Role, Square};

/// A SAN move that is malformed, illegal or ambiguous here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a legal SAN move in {fen}: {why}")]
pub struct SanError {
    pub text: String,
    pub fen: String,
    pub why: &'static str,
}

/// The move in SAN, with `+` or `#`.
pub fn san(pos: &Position, m: Move) -> String {
    let mut s = String::new();
    if m.is_castle() {
        s.push_str(if m.to().file().index() > m.from().file().index() {
            "O-O"
        } else {
            "O-O-O"
        });
    } else {
        let role = pos.role_at(m.from()).unwrap_or(Role::Pawn);
        let capture = pos.is_capture(m);
        if role == Role::Pawn {
            if capture {
                s.push(m.from().file().char());
                s.push('x');
            }
            s.push_str(&m.to().to_string());
            if let Some(r) = m.promotion_role() {
                s.push('=');
                s.push(r.upper_char());
            }
        } else {
            s.push(role.upper_char());
            let rivals: Vec<Square> = pos
                .legal_moves()
                .iter()
                .filter(|o| {
                    !o.is_castle()
                        && o.to() == m.to()
                        && o.from() != m.from()
                        && pos.role_at(o.from()) == Some(role)
                })
                .map(|o| o.from())
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|r| r.file() == m.from().file());
                let same_rank = rivals.iter().any(|r| r.rank() == m.from().rank());
                if !same_file {
                    s.push(m.from().file().char());
                } else if !same_rank {
                    s.push(m.from().rank().char());
                } else {
                    s.push_str(&m.from().to_string());
                }
            }
            if capture {
                s.push('x');
            }
            s.push_str(&m.to().to_string());
        }
    }
    let mut after = pos.clone();
    after.make(m);
    if after.in_check() {
        s.push(if after.legal_moves().is_empty() {
            '#'
        } else {
            '+'
        });
    }
    s
}

/// Reads a SAN move (tolerating `0-0`, a missing `=`, and trailing `+#!?`).
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, SanError> {
    let err = |why| SanError {
        text: text.to_string(),
        fen: pos.fen(),
        why,
    };
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    let legal = pos.legal_moves();
    let castle = match t {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(king_side) = castle {
        return legal
            .iter()
            .copied()
            .find(|m| {
                m.is_castle() && (m.to().file().index() > m.from().file().index()) == king_side
            })
            .ok_or_else(|| err("castling is not legal"));
    }
    let b = t.as_bytes();
    if b.len() < 2 || !b.is_ascii() {
        return Err(err("too short"));
    }
    let (role, mut body) = match Role::from_char(b[0] as char) {
        Some(r) if b[0].is_ascii_uppercase() && r != Role::Pawn => (r, &t[1..]),
        _ => (Role::Pawn, t),
    };
    let mut promotion = None;
    if let Some(last) = body.chars().last() {
        if "NBRQ".contains(last) {
            promotion = Role::from_char(last);
            body = body[..body.len() - 1].trim_end_matches('=');
        }
    }
    if body.len() < 2 {
        return Err(err("no destination square"));
    }
    let to: Square = body[body.len() - 2..]
        .parse()
        .map_err(|_| err("bad destination square"))?;
    let hint = body[..body.len() - 2].trim_end_matches(['x', ':', '-']);
    let (mut hint_file, mut hint_rank) = (None, None);
    for c in hint.chars() {
        if let Some(f) = File::from_char(c) {
            hint_file = Some(f);
        } else if let Some(r) = Rank::from_char(c) {
            hint_rank = Some(r);
        } else {
            return Err(err("unexpected character"));
        }
    }
    let mut found = None;
    for &m in legal.iter() {
        if m.is_castle()
            || m.to() != to
            || pos.role_at(m.from()) != Some(role)
            || m.promotion_role() != promotion
            || hint_file.is_some_and(|f| m.from().file() != f)
            || hint_rank.is_some_and(|r| m.from().rank() != r)
        {
            continue;
        }
        if found.is_some() {
            return Err(err("ambiguous"));
        }
        found = Some(m);
    }
    found.ok_or_else(|| err("no such legal move"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sable_chess::CastlingMode;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn every_legal_move_round_trips() {
        // Positions with promotions, castling, en passant, and disambiguation by file,
        // rank and square.
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/8/8/3pP3/8/8/8/k1K5 w - d6 0 1",
            "7k/8/8/1Q1Q4/8/1Q1Q4/8/K7 w - - 0 1",
            "R6R/8/8/8/8/1k6/8/R5K1 w - - 0 1",
        ] {
            let p = pos(fen);
            let mut seen = std::collections::HashSet::new();
            for &m in p.legal_moves().iter() {
                let s = san(&p, m);
                assert!(seen.insert(s.clone()), "{fen}: duplicate SAN {s}");
                assert_eq!(parse_san(&p, &s), Ok(m), "{fen}: {s}");
            }
        }
    }

    #[test]
    fn known_spellings() {
        let p = pos("7k/8/8/1Q1Q4/8/1Q1Q4/8/K7 w - - 0 1");
        let m = parse_san(&p, "Qb5c4").unwrap();
        assert_eq!(san(&p, m), "Qb5c4");
        let p = pos("R6R/8/8/8/8/1k6/8/R5K1 w - - 0 1");
        assert_eq!(san(&p, parse_san(&p, "Rhd8").unwrap()), "Rhd8");
        assert_eq!(san(&p, parse_san(&p, "R1a4").unwrap()), "R1a4");
        assert_eq!(san(&p, parse_san(&p, "Rb1").unwrap()), "Rb1+");
        let p = pos("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1");
        assert_eq!(san(&p, parse_san(&p, "gxf1=Q").unwrap()), "gxf1=Q+");
        assert_eq!(san(&p, parse_san(&p, "gxf1Q").unwrap()), "gxf1=Q+");
        let p = Position::startpos();
        assert!(parse_san(&p, "e5").is_err());
        assert!(parse_san(&p, "Nd2").is_err());
        assert!(parse_san(&p, "O-O").is_err());
        assert!(parse_san(&p, "Zz9").is_err());
        assert!(parse_san(&p, "").is_err());
        let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(san(&p, p.parse_uci("a1a8").unwrap()), "Ra8#");
    }
}
