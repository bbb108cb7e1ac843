//! [`RecordReader`]: the games of a record file, one at a time, each checked.

use super::error::RecordError;
use super::game::{GameRecord, Header, HEADER_LEN};
use std::io::Read;

/// Reads game records from a byte stream (a file: wrap it in a `BufReader`).
///
/// Yields `Ok(game)` per record. At the end of a file cut inside a record it yields one
/// [`RecordError::Truncated`] (naming the record's offset) and stops, so an interrupted
/// writer's last game is dropped, never read as garbage. A record whose checksum fails
/// yields [`RecordError::Checksum`]; reading then goes on with the next record, since the
/// (separately checked) header gave the length. Any other error ends the iteration: after
/// a broken header nothing that follows can be trusted.
///
/// ```
/// use sable_formats::record::{GameRecord, GameResult, RecordReader, Termination};
/// use sable_chess::Position;
///
/// let game = GameRecord { start: Position::startpos(), plies: vec![],
///                         result: GameResult::Draw, termination: Termination::Rules, number: 0 };
/// let mut bytes = Vec::new();
/// game.encode(&mut bytes).unwrap();
/// game.encode(&mut bytes).unwrap();
/// let whole = bytes.len();
/// bytes.truncate(whole - 1); // the second record is cut short
/// let mut reader = RecordReader::new(&bytes[..]);
/// assert_eq!(reader.next().unwrap().unwrap(), game);
/// let err = reader.next().unwrap().unwrap_err();
/// assert!(err.is_truncation());
/// assert_eq!(err.offset(), (whole / 2) as u64);
/// assert!(reader.next().is_none());
/// assert_eq!(reader.good_len(), (whole / 2) as u64);
/// ```
pub struct RecordReader<R> {
    inner: R,
    /// Bytes consumed so far.
    offset: u64,
    /// Where the last record returned (or refused) starts.
    record_offset: u64,
    /// The end of the last good record: where an appending writer should continue.
    good_len: u64,
    buf: Vec<u8>,
    done: bool,
}

impl<R: Read> RecordReader<R> {
    pub fn new(inner: R) -> RecordReader<R> {
        RecordReader {
            inner,
            offset: 0,
            record_offset: 0,
            good_len: 0,
            buf: Vec::new(),
            done: false,
        }
    }

    /// The byte offset of the record most recently returned (or refused).
    pub fn record_offset(&self) -> u64 {
        self.record_offset
    }

    /// The end of the last record read without error (0 before any).
    pub fn good_len(&self) -> u64 {
        self.good_len
    }

    /// Bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.offset
    }

    /// Fills `buf` as far as the stream allows; the count read.
    fn fill(&mut self, from: usize, to: usize) -> Result<usize, RecordError> {
        let mut n = from;
        while n < to {
            match self.inner.read(&mut self.buf[n..to]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(RecordError::Io {
                        offset: self.offset + n as u64,
                        source,
                    })
                }
            }
        }
        Ok(n)
    }

    fn read_one(&mut self) -> Option<Result<GameRecord, RecordError>> {
        let offset = self.offset;
        self.record_offset = offset;
        self.buf.resize(HEADER_LEN, 0);
        let got = match self.fill(0, HEADER_LEN) {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        if got == 0 {
            return None;
        }
        let truncated = |have: usize, need: usize| RecordError::Truncated {
            offset,
            have: have as u64,
            need: need as u64,
        };
        if got < HEADER_LEN {
            self.offset += got as u64;
            return Some(Err(truncated(got, HEADER_LEN)));
        }
        let h: [u8; HEADER_LEN] = self.buf[..HEADER_LEN].try_into().expect("header");
        let header = match Header::parse(&h, offset) {
            Ok(h) => h,
            Err(e) => return Some(Err(e)),
        };
        let len = header.record_len();
        self.buf.resize(len, 0);
        let got = match self.fill(HEADER_LEN, len) {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        self.offset += got as u64;
        if got < len {
            return Some(Err(truncated(got, len)));
        }
        let r = GameRecord::decode_checked_len(&header, &self.buf[..len], offset);
        if r.is_ok() {
            self.good_len = self.offset;
        }
        Some(r)
    }
}

impl<R: Read> Iterator for RecordReader<R> {
    type Item = Result<GameRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let r = self.read_one();
        match &r {
            None => self.done = true,
            Some(Err(RecordError::Checksum { .. })) | Some(Ok(_)) => {}
            Some(Err(_)) => self.done = true,
        }
        r
    }
}
