//! Opening books: EPD files (one position per line) and PGN files (games whose first
//! moves are played from their start position), read sequentially or in a seeded random
//! order, optionally cut to a number of plies; plus Chess960 start positions.
//!
//! A book is split into entries when loaded and each entry is parsed when first used,
//! so a 150,000-line EPD book costs nothing for a ten-game match.

use crate::rng::splitmix;
use sable_chess::{CastlingMode, Move, Position, STARTPOS_FEN};

use super::notation::parse_san;

/// Where games start: a position, then book moves played from it.
#[derive(Clone, Debug)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Epd,
    Pgn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sequential,
    Random,
}

/// `-openings file=... format=epd|pgn order=random|sequential plies=N start=K`
#[derive(Clone, Debug)]
pub struct BookSpec {
    pub file: String,
    pub format: Format,
    pub order: Order,
    pub plies: Option<usize>,
    /// 1-based index of the first opening used.
    pub start: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    #[error("{file}: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
    #[error("{file}: no openings in the file")]
    Empty { file: String },
    #[error("{file}, opening {index} (line {line}): {why}")]
    Bad {
        file: String,
        index: usize,
        line: usize,
        why: String,
    },
}

/// A loaded book.
pub struct Book {
    spec: BookSpec,
    chess960: bool,
    /// Raw text of each entry with the line it starts on.
    entries: Vec<(usize, String)>,
    /// Order of use (a permutation of entry indices).
    order: Vec<usize>,
}

/// A seeded Fisher-Yates shuffle.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut s = seed;
    for i in (1..items.len()).rev() {
        let j = (splitmix(&mut s) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// Splits PGN text into games, each with the line it starts on.
pub fn split_pgn(text: &str) -> Vec<(usize, String)> {
    let mut games = Vec::new();
    let mut current = String::new();
    let mut start = 1;
    let mut in_moves = false;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') && in_moves {
            games.push((start, std::mem::take(&mut current)));
            in_moves = false;
        }
        if current.trim().is_empty() {
            start = n + 1;
        }
        if !t.is_empty() && !t.starts_with('[') && !t.starts_with('%') {
            in_moves = true;
        }
        current.push_str(line);
        current.push('\n');
    }
    if !current.trim().is_empty() {
        games.push((start, current));
    }
    games
}

/// Reads one PGN game: its start position (the `FEN` tag or the standard start) and
/// its main-line moves. Comments, variations, NAGs and move numbers are skipped.
pub fn read_pgn_game(text: &str, chess960: bool) -> Result<Opening, String> {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let mut fen = None;
    let mut movetext = String::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(tag) = t.strip_prefix('[') {
            if let Some(rest) = tag.strip_prefix("FEN ") {
                fen = Some(
                    rest.trim_end_matches(']')
                        .trim()
                        .trim_matches('"')
                        .to_string(),
                );
            }
        } else if !t.starts_with('%') {
            movetext.push_str(t.split(';').next().unwrap_or(""));
            movetext.push(' ');
        }
    }
    let mut pos = match &fen {
        Some(f) => Position::from_fen(f, mode).map_err(|e| e.to_string())?,
        None if chess960 => return Err("a Chess960 game needs a FEN tag".into()),
        None => Position::startpos(),
    };
    let start = pos.clone();
    let mut moves = Vec::new();
    let (mut brace, mut paren) = (false, 0u32);
    let mut token = String::new();
    let mut flush = |token: &mut String, pos: &mut Position| -> Result<bool, String> {
        let t = std::mem::take(token);
        if matches!(t.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            return Ok(false);
        }
        let t = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if t.is_empty() || t.starts_with('$') {
            return Ok(true);
        }
        let m = parse_san(pos, t).map_err(|e| e.to_string())?;
        pos.make(m);
        moves.push(m);
        Ok(true)
    };
    let mut ended = false;
    for c in movetext.chars() {
        match c {
            '{' if paren == 0 => brace = true,
            '}' if brace => brace = false,
            _ if brace => {}
            '(' => paren += 1,
            ')' => paren = paren.saturating_sub(1),
            _ if paren > 0 => {}
            c if c.is_whitespace() => {
                if !flush(&mut token, &mut pos)? {
                    ended = true;
                    break;
                }
            }
            c => token.push(c),
        }
    }
    if !ended && flush(&mut token, &mut pos)? {
        // Every game ends in its result (`*` when there is none): without one, the file
        // was most likely cut short in this game, and its last move may be cut too.
        return Err(
            "the game has no result (1-0, 0-1, 1/2-1/2 or *): is the file cut short?".into(),
        );
    }
    Ok(Opening { start, moves })
}

/// Reads one EPD line: the four FEN fields, move counters if present (as two numbers or
/// `hmvc`/`fmvn` operations), operations ignored.
pub fn read_epd_line(line: &str, chess960: bool) -> Result<Position, String> {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err("fewer than four FEN fields".into());
    }
    let mut half = "0".to_string();
    let mut full = "1".to_string();
    match (fields.get(4), fields.get(5)) {
        (Some(h), Some(f))
            if h.chars().all(|c| c.is_ascii_digit()) && f.chars().all(|c| c.is_ascii_digit()) =>
        {
            half = h.to_string();
            full = f.to_string();
        }
        _ => {
            let ops = fields[4..].join(" ");
            for op in ops.split(';') {
                let mut w = op.split_whitespace();
                match (w.next(), w.next()) {
                    (Some("hmvc"), Some(v)) => half = v.to_string(),
                    (Some("fmvn"), Some(v)) => full = v.to_string(),
                    _ => {}
                }
            }
        }
    }
    let fen = format!("{} {half} {full}", fields[..4].join(" "));
    Position::from_fen(&fen, mode).map_err(|e| e.to_string())
}

impl Book {
    pub fn load(spec: BookSpec, chess960: bool, seed: u64) -> Result<Book, OpeningError> {
        let text = std::fs::read_to_string(&spec.file).map_err(|source| OpeningError::Io {
            file: spec.file.clone(),
            source,
        })?;
        let entries: Vec<(usize, String)> = match spec.format {
            Format::Pgn => split_pgn(&text),
            Format::Epd => text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .map(|(n, l)| (n + 1, l.to_string()))
                .collect(),
        };
        if entries.is_empty() {
            return Err(OpeningError::Empty { file: spec.file });
        }
        let n = entries.len();
        let first = (spec.start.max(1) - 1) % n;
        let mut order: Vec<usize> = (0..n).collect();
        if spec.order == Order::Random {
            shuffle(&mut order, seed);
        }
        order.rotate_left(first);
        let book = Book {
            spec,
            chess960,
            entries,
            order,
        };
        // Every opening is read now, so that a broken one (a file cut short, a bad move)
        // is named before the first game rather than when, or if, its turn comes.
        for index in 0..book.entries.len() {
            book.entry(index)?;
        }
        Ok(book)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Never true for a book that opened: an empty file is refused.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `k`-th opening to play (wrapping round the book), and its entry index.
    pub fn opening(&self, k: usize) -> Result<(usize, Opening), OpeningError> {
        let index = self.order[k % self.order.len()];
        Ok((index, self.entry(index)?))
    }

    /// The opening of entry `index` (file order).
    fn entry(&self, index: usize) -> Result<Opening, OpeningError> {
        let (line, text) = &self.entries[index];
        let bad = |why: String| OpeningError::Bad {
            file: self.spec.file.clone(),
            index: index + 1,
            line: *line,
            why,
        };
        let mut opening = match self.spec.format {
            Format::Epd => Opening {
                start: read_epd_line(text, self.chess960).map_err(bad)?,
                moves: Vec::new(),
            },
            Format::Pgn => read_pgn_game(text, self.chess960).map_err(bad)?,
        };
        if let Some(p) = self.spec.plies {
            opening.moves.truncate(p);
        }
        let mut end = opening.start.clone();
        for &m in &opening.moves {
            end.make(m);
        }
        if end.legal_moves().is_empty() {
            return Err(bad("the game is already over in this opening".into()));
        }
        Ok(opening)
    }
}

/// The standard start position with no book moves.
pub fn startpos() -> Opening {
    Opening {
        start: Position::from_fen(STARTPOS_FEN, CastlingMode::Standard).expect("start position"),
        moves: Vec::new(),
    }
}

/// Chess960 start position number `n` (0..960) in the Scharnagl numbering.
pub fn chess960_position(n: u32) -> Position {
    Position::chess960_start(n % 960).expect("n % 960 is a start position number")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scharnagl_numbers() {
        assert_eq!(
            chess960_position(518).board_fen(),
            Position::startpos().board_fen()
        );
        assert_eq!(
            chess960_position(0).board_fen(),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR"
        );
        let all: std::collections::HashSet<String> =
            (0..960).map(|n| chess960_position(n).board_fen()).collect();
        assert_eq!(all.len(), 960);
    }

    #[test]
    fn pgn_games_with_comments_and_variations() {
        let text = "[Event \"x\"]\n[White \"a\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6\n3. Bb5 a6 1/2-1/2\n\n\
[Event \"y\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n\n1... Kd7 2. e4 *\n";
        let games = split_pgn(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].0, 7);
        let g = read_pgn_game(&games[0].1, false).unwrap();
        let ucis: Vec<String> = g
            .moves
            .iter()
            .map(|m| m.to_uci(false).to_string())
            .collect();
        assert_eq!(ucis, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
        let g = read_pgn_game(&games[1].1, false).unwrap();
        assert_eq!(g.start.fen(), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
        assert_eq!(g.moves.len(), 2);
        let err = read_pgn_game("1. e4 e4 *", false).unwrap_err();
        assert!(err.contains("'e4'"), "{err}");
        // A game cut short (no result), even after a whole move, is refused.
        let err = read_pgn_game("1. e4 e5 2. Nf3", false).unwrap_err();
        assert!(err.contains("cut short"), "{err}");
    }

    #[test]
    fn epd_lines() {
        let p = read_epd_line(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            false,
        )
        .unwrap();
        assert_eq!((p.halfmoves(), p.fullmoves()), (2, 3));
        let p = read_epd_line(
            "4k3/8/8/8/8/8/4P3/4K3 b - - bm Kd7; hmvc 4; fmvn 30;",
            false,
        )
        .unwrap();
        assert_eq!((p.halfmoves(), p.fullmoves()), (4, 30));
        assert!(read_epd_line("4k3/8/8 w", false).is_err());
        assert!(read_epd_line("4k3/8/8/8/8/8/8/8 w - -", false).is_err());
    }

    #[test]
    fn the_shared_books_load() {
        let spec = |file: &str, format| BookSpec {
            file: sable_testdata::path(&format!("books/{file}"))
                .to_string_lossy()
                .into_owned(),
            format,
            order: Order::Sequential,
            plies: None,
            start: 1,
        };
        let book = Book::load(spec("8moves_v3.pgn", Format::Pgn), false, 1).unwrap();
        assert_eq!(book.len(), 34_700);
        for k in [0, 1, 17_000, 34_699] {
            let (_, o) = book.opening(k).unwrap();
            assert_eq!(o.moves.len(), 16, "opening {k}");
        }
        let (_, first) = book.opening(0).unwrap();
        assert_eq!(first.moves[0].to_uci(false).to_string(), "g1f3");
        let book = Book::load(spec("noob_3moves.epd", Format::Epd), false, 1).unwrap();
        assert_eq!(book.len(), 150_932);
        let (_, o) = book.opening(150_931).unwrap();
        assert_eq!(o.start.turn(), sable_chess::Color::White);
        // Random order is a seeded permutation, and start= rotates it.
        let mut s = spec("noob_3moves.epd", Format::Epd);
        s.order = Order::Random;
        let a = Book::load(s.clone(), false, 7).unwrap();
        let b = Book::load(s.clone(), false, 7).unwrap();
        assert_eq!(a.opening(5).unwrap().0, b.opening(5).unwrap().0);
        s.start = 3;
        let c = Book::load(s, false, 7).unwrap();
        assert_eq!(c.opening(0).unwrap().0, a.opening(2).unwrap().0);
    }
}
