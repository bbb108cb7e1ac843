//! Reading moves in UCI long algebraic notation (`e2e4`, `e7e8q`, `e1g1` or `e1h1`).

use crate::{Move, Position, Role, Square};

/// A UCI move that does not parse, or is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciMoveError {
    #[error("'{0}' is not a UCI move (expected from-square, to-square and an optional promotion letter, e.g. e2e4 or e7e8q)")]
    Syntax(String),
    #[error("illegal move '{text}' in position {fen}")]
    Illegal { text: String, fen: String },
}

impl Position {
    /// Parses a UCI move and checks it is legal here.
    ///
    /// Castling is accepted both as the king's two-square move (`e1g1`) and as
    /// king-takes-rook (`e1h1`) in standard chess; in Chess960 only king-takes-rook is
    /// castling, since a one-square king move to the castling square is also possible.
    ///
    /// ```
    /// let pos = sable_chess::Position::startpos();
    /// let m = pos.parse_uci("g1f3").unwrap();
    /// assert_eq!(m.to_uci(false).to_string(), "g1f3");
    /// assert!(pos.parse_uci("e2e5").is_err());
    /// ```
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciMoveError> {
        let syntax = || UciMoveError::Syntax(text.to_string());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax());
        }
        let from: Square = text[0..2].parse().map_err(|_| syntax())?;
        let to: Square = text[2..4].parse().map_err(|_| syntax())?;
        let promotion = match text.as_bytes().get(4) {
            None => None,
            Some(&c) => match Role::from_char(c as char) {
                Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => Some(r),
                _ => return Err(syntax()),
            },
        };
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| {
                m.from() == from
                    && m.promotion_role() == promotion
                    && (m.to() == to
                        || (m.is_castle() && !self.is_chess960() && m.castle_king_to() == to))
            })
            .ok_or_else(|| UciMoveError::Illegal {
                text: text.to_string(),
                fen: self.fen(),
            })
    }
}
