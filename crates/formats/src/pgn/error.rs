//! Errors of PGN reading: what went wrong in a game ([`GameError`]) and where
//! ([`PgnError`]: game number, line and column).

use sable_chess::{ParseFenError, SanError};
use std::fmt;

/// What went wrong in one game.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The text breaks PGN syntax.
    #[error("{0}")]
    Syntax(String),
    /// A move that cannot be played (illegal, ambiguous, or not SAN).
    #[error("{0}")]
    Move(#[from] SanError),
    /// The `FEN` tag does not give a legal position.
    #[error("FEN tag '{fen}': {error}")]
    Fen { fen: String, error: ParseFenError },
    /// A `Variant` tag naming a game other than standard chess or Chess960.
    #[error("unsupported variant '{0}' (only standard chess and Chess960 are read)")]
    Variant(String),
    /// An error raised by a visitor for its own reasons.
    #[error("{0}")]
    Visitor(String),
    #[error("read error: {0}")]
    Io(#[from] std::io::Error),
}

/// A game that could not be read, and where: the reader has moved on to the next game.
#[derive(Debug)]
pub struct PgnError {
    /// 1-based number of the game in the file (games and broken games both count).
    pub game: usize,
    /// 1-based line of the offending text.
    pub line: usize,
    /// 1-based column (in characters) of the offending text.
    pub column: usize,
    pub error: GameError,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {}: {}",
            self.game, self.line, self.column, self.error
        )
    }
}

impl std::error::Error for PgnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}
