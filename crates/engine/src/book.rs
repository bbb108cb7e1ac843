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
//! followed are updated by `sable_formats::book::edit::learn_game` (losing lines lose
//! weight) and the file is rewritten atomically.

use sable_chess::{Move, Position};
use sable_formats::book::edit::learn_game;
use sable_formats::pgn::GameResult;
use sable_formats::{BookError, PolyglotBook};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub use sable_formats::book::choose::{BookChoice, BookMode};

/// Option ranges: `BookDepth` in plies, `BookMinWeight`.
pub const BOOK_DEPTH: (u32, u32, u32) = (0, 40, 1024);
pub const BOOK_MIN_WEIGHT: (u16, u16, u16) = (0, 1, 65535);

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
    /// 0), in file order, with their shares ([`PolyglotBook::choices`]).
    pub fn choices(&self, pos: &Position, min_weight: u16) -> Vec<BookChoice> {
        self.book.choices(pos, min_weight)
    }

    /// Picks a move among `choices` (see [`BookMode`]), with the engine's own random
    /// draw for `Weighted`.
    pub fn pick(choices: &[BookChoice], mode: BookMode) -> Option<BookChoice> {
        BookChoice::pick(choices, mode, random())
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
