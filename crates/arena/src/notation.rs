//! Standard algebraic notation for the arena: one function each to write and to read a
//! move, delegating to the rules core (`Position::san`, `Position::parse_san_lenient`).
//! Books and engines write SAN loosely (`0-0`, `e8Q`, `Ng1f3`), hence the lenient reader.

use sable_chess::{Move, Position, SanError};

/// The move in SAN, with `+` or `#`.
pub fn san(pos: &Position, m: Move) -> String {
    pos.san(m)
}

/// Reads a SAN move as found in real files.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, SanError> {
    pos.parse_san_lenient(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_books_contain() {
        let pos = Position::startpos();
        let m = parse_san(&pos, "Nf3").unwrap();
        assert_eq!(san(&pos, m), "Nf3");
        assert_eq!(parse_san(&pos, "Ng1f3"), Ok(m));
        assert!(parse_san(&pos, "Nf4").is_err());
    }
}
