//! Game records: self-play games stored compactly for training (about 4.5 bytes per
//! position), read back checked, and filtered into training positions.
//!
//! A record file is a plain sequence of game records, nothing before, between or after
//! them, so files concatenate and a writer appends. Every position of a game is stored
//! (the start position, then one move and score per ply); which positions to train on is
//! decided when reading ([`Filter`], [`TrainingPositions`]).
//!
//! # One game record (all integers little-endian)
//!
//! | offset | bytes | field |
//! | --- | --- | --- |
//! | 0 | 1 | magic `0xB5` |
//! | 1 | 1 | format version, 1 |
//! | 2 | 2 | `N`: the number of plies (`u16`) |
//! | 4 | 1 | bits 0-1: result from White's side (0 White won, 1 draw, 2 Black won); bits 2-3: [`Termination`] (0 rules, 1 win adjudicated, 2 draw adjudicated, 3 length); bits 4-7 zero |
//! | 5 | 1 | `P`: bytes of the packed start position (13 to 28) |
//! | 6 | 4 | the game's number in the run that played it (`u32`; `sable datagen` derives the game's seed from it) |
//! | 10 | 2 | header check: the low 16 bits of the CRC-32 of bytes 0-9 |
//! | 12 | `P` | the packed start position (below) |
//! | 12 + `P` | 4 `N` | per ply: the move (`u16`, [`Move::bits`](sable_chess::Move::bits): from 6 bits, to 6 bits, promotion role 2 bits, kind 2 bits, castling as king takes rook), then the score (`i16`, [`Score`]) of the side to move before the move |
//! | 12 + `P` + 4 `N` | 4 | CRC-32 ([`crc32`]) of bytes 0 to 11 + `P` + 4 `N` |
//!
//! A record takes `16 + P + 4N` bytes: a 100-ply game from a full board, 444 bytes
//! (4.44 bytes a position).
//! The header check lets a reader trust the length before reading the body, so a file
//! cut inside its last record is told apart from a corrupted one: the first is dropped
//! with its offset ([`RecordError::Truncated`]), the second refused with its offset.
//!
//! # The packed position ([`PackedPosition`])
//!
//! | offset | bytes | field |
//! | --- | --- | --- |
//! | 0 | 8 | occupancy (`u64`, bit `i` = square `i`, a1 = 0, h8 = 63) |
//! | 8 | ⌈n/2⌉ | a 4-bit code per occupied square, in square order, low nibble first (an odd count leaves the last high nibble 0): 0-5 White pawn, knight, bishop, rook, queen, king; 6-11 the same for Black; 12 a White rook with a castling right, 13 a Black one (so Chess960 rights cost nothing: the right is the rook's square) |
//! | 8 + ⌈n/2⌉ | 1 | flags: bit 0 Black to move, bit 1 Chess960, bit 2 an en-passant square, bits 3-5 its file (its rank follows from the side to move), bits 6-7 zero |
//! | 9 + ⌈n/2⌉ | 1 | half-move clock (`u8`) |
//! | 10 + ⌈n/2⌉ | 2 | full-move number (`u16`) |
//!
//! `n` is the number of pieces (2 to 32), so `P = 12 + ⌈n/2⌉`, at most 28.
//!
//! # Scores ([`Score`])
//!
//! For the side to move: centipawns clamped to ±30000; a mate as ±(32000 - plies to
//! mate), positive when the side to move mates; other values are refused.

mod crc;
mod error;
mod filter;
mod from_pgn;
mod game;
mod packed;
mod reader;
mod score;
mod writer;

pub use crc::crc32;
pub use error::{EncodeError, RecordError, ReplayError};
pub use filter::{training_positions, Filter, TrainingPosition, TrainingPositions};
pub use from_pgn::{from_pgn_tree, parse_score_comment, FromPgnError};
pub use game::{GameRecord, GameResult, Ply, Termination, HEADER_LEN, MAGIC, PLY_LEN, VERSION};
pub use packed::{PackedPosition, UnpackError};
pub use reader::RecordReader;
pub use score::Score;
pub use writer::{RecordWriter, WriteError};
