//! [`RecordWriter`]: appends game records to a stream, one whole record per write.

use super::error::EncodeError;
use super::game::GameRecord;
use std::io::Write;

/// Why a record was not written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error(transparent)]
    Encode(#[from] EncodeError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Writes each game as one `write_all` of its whole record, then flushes, so a killed
/// writer leaves at most one cut-short record (which readers detect and drop).
///
/// ```
/// use sable_formats::record::{GameRecord, GameResult, RecordReader, RecordWriter, Termination};
/// use sable_chess::Position;
///
/// let game = GameRecord { start: Position::startpos(), plies: vec![],
///                         result: GameResult::WhiteWins, termination: Termination::Rules, number: 0 };
/// let mut w = RecordWriter::new(Vec::new());
/// w.write(&game).unwrap();
/// assert_eq!((w.games(), w.bytes()), (1, 44));
/// let bytes = w.into_inner();
/// let games: Vec<_> = RecordReader::new(&bytes[..]).collect::<Result<_, _>>().unwrap();
/// assert_eq!(games, vec![game]);
/// ```
pub struct RecordWriter<W: Write> {
    inner: W,
    buf: Vec<u8>,
    games: u64,
    bytes: u64,
}

impl<W: Write> RecordWriter<W> {
    pub fn new(inner: W) -> RecordWriter<W> {
        RecordWriter {
            inner,
            buf: Vec::new(),
            games: 0,
            bytes: 0,
        }
    }

    /// Encodes, writes and flushes one game.
    pub fn write(&mut self, game: &GameRecord) -> Result<(), WriteError> {
        self.buf.clear();
        game.encode(&mut self.buf)?;
        self.write_encoded()
    }

    fn write_encoded(&mut self) -> Result<(), WriteError> {
        self.inner.write_all(&self.buf)?;
        self.inner.flush()?;
        self.games += 1;
        self.bytes += self.buf.len() as u64;
        Ok(())
    }

    /// Games written by this writer.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Bytes written by this writer.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn into_inner(self) -> W {
        self.inner
    }
}
