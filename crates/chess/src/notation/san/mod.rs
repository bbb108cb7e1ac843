//! Standard algebraic notation: writing (`write.rs`: minimal disambiguation, `+`/`#` from
//! the rules core's `gives_check`) and reading (`read.rs`, over the token grammar in
//! `syntax.rs`), strictly (only the canonical text) or leniently (what real files contain:
//! `0-0`, `e8Q`, `exd6e.p.`, `Ng1-f3`, wrong check marks, ...).

mod read;
mod syntax;
mod write;

use crate::attacks;
use crate::castling::CastleSide;
use crate::{File, Rank, Role, Square, SquareSet};
use std::fmt;

/// How strictly SAN is read.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum SanMode {
    /// Only the text [`Position::san`](crate::Position::san) writes (disambiguation,
    /// capture mark, `=Q`, `+`/`#` exactly as needed). A null move is `--`.
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

/// The squares a piece of `role` on `sq` attacks (not for pawns, whose attacks depend
/// on colour). Inlined here: the generic `attacks::attacks` showed up in profiles.
#[inline]
fn piece_attacks(role: Role, sq: Square, occupied: SquareSet) -> SquareSet {
    match role {
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, occupied),
        Role::Rook => attacks::rook_attacks(sq, occupied),
        Role::Queen => attacks::queen_attacks(sq, occupied),
        Role::King => attacks::king_attacks(sq),
        Role::Pawn => SquareSet::EMPTY,
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    #[test]
    fn stack_text_holds_the_longest_san() {
        let fen = "1r5k/P5pp/8/8/8/Q7/1n6/Q1Q1K3 w - - 0 1";
        let pos = Position::from_fen(fen, Default::default()).unwrap();
        let m = pos.parse_uci("a7b8q").unwrap();
        assert_eq!(pos.san(m), "axb8=Q#");
        let m = pos.parse_uci("a1b2").unwrap();
        assert_eq!(pos.san(m), "Qa1xb2");
        assert_eq!(pos.parse_san("Qa1xb2"), Ok(m));
    }
}
