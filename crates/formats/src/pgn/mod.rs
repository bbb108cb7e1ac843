//! PGN: a streaming reader with a visitor API ([`PgnReader`], [`Visitor`]), a replayer
//! that turns SAN into legal moves from the game's start position ([`Replayer`]), a game
//! tree ([`GameTree`]: mainline, variations, comments, NAGs) and an export-format
//! writer ([`PgnWriter`], 80-column lines).

mod error;
mod lexer;
mod reader;
mod replay;
mod tree;
mod writer;

pub use error::{GameError, PgnError};
pub use reader::{PgnReader, Visitor};
pub use replay::{Replayer, StartPosition};
pub use tree::{GameTree, Line, MoveNode, Tags, TreeBuilder, Trees};
pub use writer::{write_moves, PgnWriter};

use std::fmt;

/// A game's termination marker.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: unfinished, unknown or abandoned.
    Unknown,
}

impl GameResult {
    /// The token as written in export format.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a termination marker (also `½-½`, seen in Latin-1 files).
    pub fn from_token(s: &str) -> Option<GameResult> {
        Some(match s {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "\u{bd}-\u{bd}" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }

    /// A win for `side`.
    ///
    /// ```
    /// use sable_chess::Color;
    /// use sable_formats::pgn::GameResult;
    /// assert_eq!(GameResult::win_for(Color::Black), GameResult::BlackWins);
    /// ```
    pub fn win_for(side: sable_chess::Color) -> GameResult {
        match side {
            sable_chess::Color::White => GameResult::WhiteWins,
            sable_chess::Color::Black => GameResult::BlackWins,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<sable_chess::Outcome> for GameResult {
    fn from(o: sable_chess::Outcome) -> GameResult {
        o.winner().map_or(GameResult::Draw, GameResult::win_for)
    }
}
