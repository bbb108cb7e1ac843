//! Polyglot opening books (`.bin`): 16-byte big-endian entries sorted by position key.
//!
//! * this module: the entry format, reading a book ([`PolyglotBook`]) with checks that
//!   name what is wrong with a bad file, and writing one atomically ([`write_book`]);
//! * [`make`]: building a book from games with the exact weights of Polyglot's
//!   `make-book`, in bounded memory (sorted runs spilled to disk and merged);
//! * [`edit`]: merging two books and learning from played games;
//! * [`choose`]: a position's usable book moves and a pick among them.

pub mod choose;
pub mod edit;
pub mod make;

use sable_chess::{File, Move, Position, Rank, Role, Square};
use std::io::Write;
use std::path::Path;

/// One book entry for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BookEntry {
    pub key: u64,
    /// The move as the book stores it (castling as king-takes-rook, e.g. `e1h1`).
    pub raw_move: u16,
    pub weight: u16,
    pub learn: u32,
}

impl BookEntry {
    /// The 16 bytes of the entry as stored in a file.
    pub fn to_bytes(&self) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }

    /// Reads an entry from its 16 bytes.
    pub fn from_bytes(c: &[u8; 16]) -> BookEntry {
        BookEntry {
            key: u64::from_be_bytes(c[0..8].try_into().expect("8 bytes")),
            raw_move: u16::from_be_bytes([c[8], c[9]]),
            weight: u16::from_be_bytes([c[10], c[11]]),
            learn: u32::from_be_bytes(c[12..16].try_into().expect("4 bytes")),
        }
    }
}

/// A Polyglot book held in memory.
#[derive(Clone, Debug, Default)]
pub struct PolyglotBook {
    entries: Vec<BookEntry>,
}

/// The file is not a Polyglot book (or could not be read or written).
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: is a directory, not a book file")]
    Directory { path: String },
    #[error("{path}: the file is empty (a book has at least one 16-byte entry)")]
    Empty { path: String },
    #[error("{path}: {len} bytes is not a whole number of 16-byte entries")]
    Length { path: String, len: usize },
    #[error("{path}: entries are not sorted by key (entry {index})")]
    Unsorted { path: String, index: usize },
    #[error("{path}: entry {index} holds {raw:#06x}, which is not a move (not a Polyglot book?)")]
    BadMove {
        path: String,
        index: usize,
        raw: u16,
    },
}

impl BookError {
    fn with_path(self, name: &str) -> BookError {
        let path = name.to_string();
        match self {
            BookError::Empty { .. } => BookError::Empty { path },
            BookError::Length { len, .. } => BookError::Length { path, len },
            BookError::Unsorted { index, .. } => BookError::Unsorted { path, index },
            BookError::BadMove { index, raw, .. } => BookError::BadMove { path, index, raw },
            other => other,
        }
    }
}

/// Whether a raw Polyglot move field can denote a move at all: two different squares
/// and a promotion code 0..=4 (no legality; that needs the position).
pub fn raw_move_is_plausible(raw: u16) -> bool {
    let to = raw & 63;
    let from = (raw >> 6) & 63;
    from != to && (raw >> 12) <= 4
}

/// The Polyglot encoding of a move: to-square bits 0–5, from-square bits 6–11, promotion
/// 12–14 (1 N, 2 B, 3 R, 4 Q). Castling is king-takes-rook, as Sable stores it.
pub fn encode_move(m: Move) -> u16 {
    let promo = match m.promotion_role() {
        None => 0,
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(_) => 4,
    };
    (m.to().index() as u16) | ((m.from().index() as u16) << 6) | (promo << 12)
}

impl PolyglotBook {
    /// Reads and checks a whole book file.
    pub fn open(path: impl AsRef<Path>) -> Result<PolyglotBook, BookError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        if path.is_dir() {
            return Err(BookError::Directory { path: name });
        }
        let bytes = std::fs::read(path).map_err(|source| BookError::Io {
            path: name.clone(),
            source,
        })?;
        PolyglotBook::from_bytes(&bytes).map_err(|e| e.with_path(&name))
    }

    /// Parses and checks the bytes of a book: a non-empty whole number of entries,
    /// sorted by key, each move field a possible move.
    pub fn from_bytes(bytes: &[u8]) -> Result<PolyglotBook, BookError> {
        let path = String::new();
        if bytes.is_empty() {
            return Err(BookError::Empty { path });
        }
        if !bytes.len().is_multiple_of(16) {
            return Err(BookError::Length {
                path,
                len: bytes.len(),
            });
        }
        let entries: Vec<BookEntry> = bytes
            .chunks_exact(16)
            .map(|c| BookEntry::from_bytes(c.try_into().expect("16 bytes")))
            .collect();
        PolyglotBook::from_entries(entries)
    }

    /// A book from entries already in file order (checked like a file).
    pub fn from_entries(entries: Vec<BookEntry>) -> Result<PolyglotBook, BookError> {
        let path = String::new();
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(BookError::Unsorted { path, index: i + 1 });
        }
        if let Some(i) = entries
            .iter()
            .position(|e| !raw_move_is_plausible(e.raw_move))
        {
            return Err(BookError::BadMove {
                path,
                index: i,
                raw: entries[i].raw_move,
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

    /// Every entry in file order.
    pub fn all_entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// Every entry, mutable (keys must stay sorted: only weights and learn values).
    pub fn entries_mut(&mut self) -> &mut [BookEntry] {
        &mut self.entries
    }

    /// The entries for a key, in file order.
    pub fn entries_for_key(&self, key: u64) -> &[BookEntry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The entries for this position, in file order.
    pub fn entries(&self, pos: &Position) -> &[BookEntry] {
        self.entries_for_key(pos.key())
    }

    /// The legal moves the book gives for this position with their entries, in file
    /// order. Entries whose move is not legal here (a key collision, a broken book) are
    /// skipped.
    pub fn legal_entries(&self, pos: &Position) -> Vec<(Move, BookEntry)> {
        self.entries(pos)
            .iter()
            .filter_map(|e| decode_move(pos, e.raw_move).map(|m| (m, *e)))
            .collect()
    }

    /// The legal moves the book gives for this position with their weights, in file order.
    /// Entries whose move is not legal here (a key collision, a broken book) are skipped.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, u16)> {
        self.legal_entries(pos)
            .into_iter()
            .map(|(m, e)| (m, e.weight))
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

    /// Writes the book to `path` atomically (see [`write_book`]).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), BookError> {
        write_book(path.as_ref(), self.entries.iter().copied())
    }
}

/// Writes entries (already in file order) to `path` atomically: into a temporary file in
/// the same folder, synced, then renamed over `path`, so a reader sees the old book or the
/// new one, never half of one.
pub fn write_book(
    path: &Path,
    entries: impl IntoIterator<Item = BookEntry>,
) -> Result<(), BookError> {
    let mut w = AtomicWriter::create(path)?;
    for e in entries {
        w.write_entry(&e)?;
    }
    w.commit()
}

/// A book file being written: entries go to `NAME.tmp-PID` beside the target, which
/// [`AtomicWriter::commit`] renames onto the target. Dropped without commit, the
/// temporary file is removed.
pub struct AtomicWriter {
    path: std::path::PathBuf,
    tmp: std::path::PathBuf,
    out: Option<std::io::BufWriter<std::fs::File>>,
    pub count: u64,
}

impl AtomicWriter {
    pub fn create(path: &Path) -> Result<AtomicWriter, BookError> {
        let name = path.display().to_string();
        if path.is_dir() {
            return Err(BookError::Directory { path: name });
        }
        let file_name = path.file_name().map(|n| n.to_string_lossy().to_string());
        let tmp = path.with_file_name(format!(
            ".{}.tmp-{}",
            file_name.unwrap_or_else(|| "book.bin".into()),
            std::process::id()
        ));
        let file = std::fs::File::create(&tmp).map_err(|source| BookError::Io {
            path: tmp.display().to_string(),
            source,
        })?;
        Ok(AtomicWriter {
            path: path.to_path_buf(),
            tmp,
            out: Some(std::io::BufWriter::with_capacity(1 << 16, file)),
            count: 0,
        })
    }

    fn io(&self, source: std::io::Error) -> BookError {
        BookError::Io {
            path: self.path.display().to_string(),
            source,
        }
    }

    pub fn write_entry(&mut self, e: &BookEntry) -> Result<(), BookError> {
        let out = self.out.as_mut().expect("open until commit");
        out.write_all(&e.to_bytes()).map_err(|err| BookError::Io {
            path: self.path.display().to_string(),
            source: err,
        })?;
        self.count += 1;
        Ok(())
    }

    /// Flushes, syncs and renames the temporary file onto the target.
    pub fn commit(mut self) -> Result<(), BookError> {
        let out = self.out.take().expect("open until commit");
        let file = out.into_inner().map_err(|e| self.io(e.into_error()))?;
        file.sync_all().map_err(|e| self.io(e))?;
        drop(file);
        std::fs::rename(&self.tmp, &self.path).map_err(|e| self.io(e))?;
        Ok(())
    }
}

impl Drop for AtomicWriter {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
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
