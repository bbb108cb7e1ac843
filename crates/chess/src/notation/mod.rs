//! Move notation as people and programs write it: SAN (standard algebraic notation, with a
//! strict and a lenient reader). UCI notation lives with `Move::to_uci` and
//! `Position::parse_uci`; [`uci_move`] adds the mode-flag form used by game records. EPD
//! records are a file format, in `sable_formats::epd`.

mod san;

pub use san::{SanError, SanMode, SanText};

use crate::{Move, Position};

/// Writes `m` in UCI notation for `pos`: castling as king-takes-rook (`e1h1`) when
/// `chess960` is set, as the king's two-square move (`e1g1`) otherwise.
///
/// ```
/// use sable_chess::{notation::uci_move, Position};
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", Default::default()).unwrap();
/// let castle = pos.parse_san("O-O").unwrap();
/// assert_eq!(uci_move(castle, false), "e1g1");
/// assert_eq!(uci_move(castle, true), "e1h1");
/// ```
pub fn uci_move(m: Move, chess960: bool) -> String {
    m.to_uci(chess960).to_string()
}

/// Reads a UCI move in either castling form (whatever `pos.parse_uci` accepts), or the
/// null move `0000`, which comes back as `Move::NULL`.
pub fn parse_uci_or_null(pos: &Position, text: &str) -> Result<Move, crate::UciMoveError> {
    if text == "0000" {
        return Ok(Move::NULL);
    }
    pos.parse_uci(text)
}
