//! # sable_chess
//!
//! The rules of chess for the Sable engine and toolkit: squares and square sets,
//! magic-bitboard attacks, a [`Position`] with make/unmake and incremental Zobrist keys
//! (equal to Polyglot book keys), FEN/X-FEN/Shredder-FEN with validation, legal move
//! generation (all, noisy, quiet, evasions), `gives_check`, `is_legal`, game outcomes,
//! and perft. Standard chess and Chess960.
//!
//! The file formats built on these rules (PGN, EPD, Polyglot books, game records) are the
//! `sable_formats` crate beside this one.
//!
//! ```
//! use sable_chess::{Position, CastlingMode, perft};
//!
//! let kiwipete = Position::from_fen(
//!     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
//!     CastlingMode::Standard,
//! ).unwrap();
//! assert_eq!(perft(&kiwipete, 3), 97_862);
//! assert_eq!(Position::startpos().key(), 0x463b96181691fc9c); // the Polyglot key
//! ```

pub mod attacks;
mod castling;
mod color;
pub mod history;
mod moves;
pub mod notation;
mod outcome;
mod perft;
mod piece;
mod polyglot_random;
mod position;
mod square;
mod square_set;
mod uci;
pub mod zobrist;

pub use castling::{CastleSide, Castling};
pub use color::Color;
pub use history::KeyHistory;
pub use moves::{Move, MoveKind, MoveList, UciMove, MAX_MOVES};
pub use notation::{SanError, SanMode, SanText};
pub use outcome::{DrawReason, Outcome};
pub use perft::{divide, divide_until, parse_suite, perft, PerftCase, SuiteError};
pub use piece::{Piece, Role};
pub use position::{
    CastlingMode, CastlingToken, CheckInfo, FenError, GenType, MoveSink, ParseFenError, Position,
    PositionError, Setup, Undo,
};
pub use square::{File, ParseSquareError, Rank, Square};
pub use square_set::{SquareSet, SquareSetIter};
pub use uci::UciMoveError;

/// The standard starting position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
