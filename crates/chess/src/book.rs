//! Polyglot opening books (`.bin`): 16-byte big-endian entries sorted by position key.

use crate::{File, Move, Position, Rank, Role, Square};
use std::path::Path;

/// One book entry for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    pub key: u64,
    /// The move as the book stores it (castling as king-takes-rook, e.g. `e1h1`).
    pub raw_move: u16,
    pub weight: u16,
    pub learn: u32,
}

/// A Polyglot book held in memory.
#[derive(Clone, Debug, Default)]
pub struct PolyglotBook {
    entries: Vec<BookEntry>,
}

/// The file is not a Polyglot book.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {len} bytes is not a whole number of 16-byte entries")]
    Length { path: String, len: usize },
    #[error("{path}: entries are not sorted by key (entry {index})")]
    Unsorted { path: String, index: usize },
}

impl PolyglotBook {
    /// Reads a whole book file.
    pub fn open(path: impl AsRef<Path>) -> Result<PolyglotBook, BookError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| BookError::Io {
            path: name.clone(),
            source,
        })?;
        PolyglotBook::from_bytes(&bytes).map_err(|e| match e {
            BookError::Length { len, .. } => BookError::Length { path: name, len },
            BookError::Unsorted { index, .. } => BookError::Unsorted { path: name, index },
            other => other,
        })
    }

    /// Parses the bytes of a book.
    pub fn from_bytes(bytes: &[u8]) -> Result<PolyglotBook, BookError> {
        if !bytes.len().is_multiple_of(16) {
            return Err(BookError::Length {
                path: String::new(),
                len: bytes.len(),
            });
        }
        let entries: Vec<BookEntry> = bytes
            .chunks_exact(16)
            .map(|c| BookEntry {
                key: u64::from_be_bytes(c[0..8].try_into().expect("8 bytes")),
                raw_move: u16::from_be_bytes([c[8], c[9]]),
                weight: u16::from_be_bytes([c[10], c[11]]),
                learn: u32::from_be_bytes(c[12..16].try_into().expect("4 bytes")),
            })
            .collect();
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(BookError::Unsorted {
                path: String::new(),
                index: i + 1,
            });
        }
        Ok(PolyglotBook { entries })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries for this position, in file order.
    pub fn entries(&self, pos: &Position) -> &[BookEntry] {
        let key = pos.key();
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The legal moves the book gives for this position with their weights, in file order.
    /// Entries whose move is not legal here (a key collision, a broken book) are skipped.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, u16)> {
        self.entries(pos)
            .iter()
            .filter_map(|e| decode_move(pos, e.raw_move).map(|m| (m, e.weight)))
            .collect()
    }

    /// The move with the highest weight (the first on ties).
    pub fn best_move(&self, pos: &Position) -> Option<Move> {
        let mut best: Option<(Move, u16)> = None;
        for (m, w) in self.moves(pos) {
            if best.is_none_or(|(_, bw)| w > bw) {
                best = Some((m, w));
            }
        }
        best.map(|(m, _)| m)
    }

    /// A move chosen with probability proportional to its weight; `random` is any
    /// uniformly distributed number.
    pub fn weighted_move(&self, pos: &Position, random: u64) -> Option<Move> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|&(_, w)| w as u64).sum();
        if total == 0 {
            return moves.first().map(|&(m, _)| m);
        }
        let mut pick = random % total;
        for (m, w) in moves {
            if pick < w as u64 {
                return Some(m);
            }
            pick -= w as u64;
        }
        None
    }
}

/// Turns a book move into the legal move it denotes, if any. Polyglot writes castling as
/// the king taking its own rook (`e1h1`), which is also how Sable stores castling, so it
/// is castling exactly when such a castling move is legal; otherwise (the king is
/// elsewhere) `e1h1` is an ordinary move.
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    let sq = |file: u16, rank: u16| -> Option<Square> {
        Some(Square::from_coords(
            File::new(file as u8)?,
            Rank::new(rank as u8)?,
        ))
    };
    let to = sq(raw & 7, (raw >> 3) & 7)?;
    let from = sq((raw >> 6) & 7, (raw >> 9) & 7)?;
    let promotion = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| m.from() == from && m.to() == to && m.promotion_role() == promotion)
}
