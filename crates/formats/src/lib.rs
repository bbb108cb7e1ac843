//! # sable_formats
//!
//! The chess file formats, on top of the rules of `sable_chess` (as pgn-reader sits
//! beside shakmaty): a program that only wants legal moves compiles none of this.
//!
//! * [`pgn`]: a streaming PGN reader with a visitor API, a replayer from SAN to legal
//!   moves, a game tree with variations and comments, and an export-format writer;
//! * [`epd`]: EPD records with their operations (`bm`, `am`, `id`, `perft`, ...);
//! * [`book`]: Polyglot opening books: read with checks, built exactly as Polyglot's
//!   `make-book` builds them (in bounded memory), merged, learned from results;
//! * [`record`]: compact game records for training data (about 4.5 bytes a position),
//!   checked by CRC and replayed on reading;
//! * [`game`]: a game being played, with its claims, its end and its PGN.
//!
//! ```
//! use sable_formats::pgn::PgnReader;
//!
//! let mut games = PgnReader::new("1. e4 e5 2. Nf3 Nc6 *".as_bytes());
//! let tree = games.read_tree().unwrap().unwrap();
//! assert_eq!(tree.mainline().len(), 4);
//! ```

pub mod book;
pub mod epd;
pub mod game;
pub mod pgn;
pub mod record;

pub use book::{BookEntry, BookError, PolyglotBook};
pub use epd::{Epd, EpdError, Operand, Operation};
pub use game::Game;
