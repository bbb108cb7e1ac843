//! The engine's own opening book: a Polyglot book (read by `sable_chess`) consulted by
//! [`crate::Engine::go`] before it searches.
//!
//! The book is used when `OwnBook` is on, a book is loaded, the game is not Chess960,
//! the search is neither infinite nor pondering (those search, so that every `go` still
//! ends in one best move), and the move to play is within `BookDepth` plies of the game
//! (the move about to be played is ply `p`, White's first move being ply 1; the book is
//! used while `p <= BookDepth`). Entries lighter than `BookMinWeight` and of weight 0 are
//! ignored, and every entry's move is checked against the legal moves of the position, so
//! a wrong-keyed or corrupt book never makes an illegal move. `BookMode` picks the
//! heaviest move (`best`, the first on ties) or one at random in proportion to the
//! weights (`weighted`).
//!
//! Learning (`BookLearning`): after a game with a known result, the book moves the game
//! followed are updated by `sable_chess::book::edit::learn_game` (losing lines lose
//! weight) and the file is rewritten atomically.

use sable_chess::book::edit::learn_game;
use sable_chess::pgn::GameResult;
use sable_chess::{BookError, Move, PolyglotBook, Position};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// How the book move is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BookMode {
    /// The heaviest move (the first on ties).
    Best,
    /// A move at random, in proportion to the weights.
    #[default]
    Weighted,
}

impl BookMode {
    pub const NAMES: [&'static str; 2] = ["best", "weighted"];

    pub fn parse(text: &str) -> Option<BookMode> {
        match text.trim().to_ascii_lowercase().as_str() {
            "best" => Some(BookMode::Best),
            "weighted" => Some(BookMode::Weighted),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BookMode::Best => "best",
            BookMode::Weighted => "weighted",
        }
    }
}

/// Option ranges: `BookDepth` in plies, `BookMinWeight`.
pub const BOOK_DEPTH: (u32, u32, u32) = (0, 40, 1024);
pub const BOOK_MIN_WEIGHT: (u16, u16, u16) = (0, 1, 65535);

/// A book move with its weight and share of the weights of the usable moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookChoice {
    pub mv: Move,
    pub weight: u16,
    pub learn: u32,
    /// Percent of the total weight of the position's usable moves.
    pub percent: f64,
}

impl BookChoice {
    /// `book move e2e4 (weight 123, 41%)`.
    pub fn note(&self) -> String {
        format!(
            "book move {} (weight {}, {:.0}%)",
            self.mv.to_uci(false),
            self.weight,
            self.percent
        )
    }
}

/// A loaded book and where it came from.
#[derive(Clone, Debug)]
pub struct OpeningBook {
    pub path: PathBuf,
    pub book: PolyglotBook,
}

impl OpeningBook {
    pub fn open(path: &Path) -> Result<OpeningBook, BookError> {
        Ok(OpeningBook {
            path: path.to_path_buf(),
            book: PolyglotBook::open(path)?,
        })
    }

    /// The legal moves of `pos` in the book with weight at least `min_weight` (and above
    /// 0), in file order, with their shares.
    pub fn choices(&self, pos: &Position, min_weight: u16) -> Vec<BookChoice> {
        if pos.is_chess960() {
            return Vec::new();
        }
        let usable: Vec<_> = self
            .book
            .legal_entries(pos)
            .into_iter()
            .filter(|(_, e)| e.weight > 0 && e.weight >= min_weight)
            .collect();
        let total: u64 = usable.iter().map(|(_, e)| e.weight as u64).sum();
        usable
            .into_iter()
            .map(|(mv, e)| BookChoice {
                mv,
                weight: e.weight,
                learn: e.learn,
                percent: 100.0 * e.weight as f64 / total.max(1) as f64,
            })
            .collect()
    }

    /// Picks a move among `choices` (see [`BookMode`]), with the engine's own random
    /// draw for `Weighted`.
    pub fn pick(choices: &[BookChoice], mode: BookMode) -> Option<BookChoice> {
        Self::pick_with(choices, mode, random())
    }

    /// [`OpeningBook::pick`] with the random number given: a tool that must repeat its
    /// choices for a seed (the match runner's `-srand`) draws it from its own stream.
    pub fn pick_with(choices: &[BookChoice], mode: BookMode, draw: u64) -> Option<BookChoice> {
        match mode {
            BookMode::Best => {
                let mut best: Option<BookChoice> = None;
                for c in choices {
                    if best.is_none_or(|b| c.weight > b.weight) {
                        best = Some(*c);
                    }
                }
                best
            }
            BookMode::Weighted => {
                let total: u64 = choices.iter().map(|c| c.weight as u64).sum();
                if total == 0 {
                    return None;
                }
                let mut r = draw % total;
                for c in choices {
                    if r < c.weight as u64 {
                        return Some(*c);
                    }
                    r -= c.weight as u64;
                }
                None
            }
        }
    }

    /// Learns from one finished game and writes the book back (atomically); returns the
    /// number of entries changed.
    pub fn learn(
        &mut self,
        start: &Position,
        moves: &[Move],
        result: GameResult,
    ) -> Result<usize, BookError> {
        let learned = learn_game(&mut self.book, start, moves, result);
        if learned.entries > 0 {
            self.book.save(&self.path)?;
        }
        Ok(learned.entries)
    }
}

/// A SplitMix64 stream seeded from the clock: book variety, not cryptography.
fn random() -> u64 {
    static STATE: AtomicU64 = AtomicU64::new(0);
    let mut s = STATE.load(Ordering::Relaxed);
    if s == 0 {
        s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x9e37_79b9)
            | 1;
    }
    s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
    STATE.store(s, Ordering::Relaxed);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
