//! Opening names: lichess's chess-openings table (CC0; `crates/cli/data/eco.tsv`, see
//! `crates/cli/data/SOURCES.md`), compiled into the binary and indexed by the position
//! at the end of each named line, so that a game reaching that position by another move
//! order (a transposition) gets the name too. A game is named by the last of its
//! positions that the table knows (the longest line it followed), as the table's README
//! suggests.

use sable_chess::{Position, SanMode};
use std::collections::HashMap;
use std::sync::OnceLock;

const TABLE: &str = include_str!("../../data/eco.tsv");

/// Only the first this many plies of a game are looked up (the longest named line has
/// fewer).
pub const MAX_PLY: usize = 60;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub eco: String,
    pub name: String,
}

struct Index {
    /// Position key (Polyglot hash: board, side to move, castling, en passant) to the
    /// first line of the table that ends there.
    by_key: HashMap<u64, (&'static str, &'static str)>,
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut by_key = HashMap::new();
        for line in TABLE.lines().skip(1) {
            let mut cols = line.split('\t');
            let (Some(eco), Some(name), Some(pgn)) = (cols.next(), cols.next(), cols.next()) else {
                continue;
            };
            let mut pos = Position::startpos();
            let mut ok = true;
            for word in pgn.split_whitespace() {
                if word.ends_with('.') {
                    continue;
                }
                match pos.parse_san_with(word, SanMode::Strict) {
                    Ok(m) => {
                        pos.make(m);
                    }
                    Err(_) => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                by_key.entry(pos.key()).or_insert((eco, name));
            }
        }
        Index { by_key }
    })
}

/// The number of named positions in the table.
#[cfg(test)]
pub fn len() -> usize {
    index().by_key.len()
}

/// The opening of a game given its positions after each move (from the standard start),
/// or `None` when none is in the table.
pub fn classify<'a>(positions: impl IntoIterator<Item = &'a Position>) -> Option<Opening> {
    let index = index();
    let mut found = None;
    for pos in positions.into_iter().take(MAX_PLY) {
        if let Some(&(eco, name)) = index.by_key.get(&pos.key()) {
            found = Some((eco, name));
        }
    }
    found.map(|(eco, name)| Opening {
        eco: eco.to_string(),
        name: name.to_string(),
    })
}

/// The first name the table gives an ECO code (its family), for games that carry only an
/// `ECO` tag.
pub fn name_of_code(code: &str) -> Option<&'static str> {
    TABLE
        .lines()
        .skip(1)
        .find_map(|l| l.strip_prefix(code)?.strip_prefix('\t')?.split('\t').next())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &str) -> Vec<Position> {
        let mut pos = Position::startpos();
        let mut out = Vec::new();
        for san in moves.split_whitespace() {
            let m = pos.parse_san(san).unwrap();
            pos.make(m);
            out.push(pos.clone());
        }
        out
    }

    #[test]
    fn every_line_is_read() {
        // 3,807 named lines; a few end in the same position as another.
        assert!(len() > 3700, "{}", len());
    }

    #[test]
    fn longest_line_and_transpositions() {
        let o = classify(&after("e4 e5 Nf3 Nc6 Bb5 a6")).unwrap();
        assert_eq!(o.eco, "C70");
        assert_eq!(o.name, "Ruy Lopez: Morphy Defense");
        // The Queen's Gambit Declined reached through 1. c4.
        let a = classify(&after("d4 d5 c4 e6")).unwrap();
        let b = classify(&after("c4 e6 d4 d5")).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.eco, "D30");
        // Moves past the book keep the last name.
        let c = classify(&after("e4 e5 Nf3 Nc6 Bb5 a6 h4 h5 a4 a5")).unwrap();
        assert_eq!(c.eco, "C70");
        assert_eq!(classify(&after("")), None);
        assert_eq!(name_of_code("B00"), Some("Barnes Defense"));
    }
}
