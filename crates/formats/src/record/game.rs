//! [`GameRecord`]: one game as stored — start position, (move, score) per ply, result —
//! and its encoding (layout in the module documentation of [`crate::record`]).

use super::crc::crc32;
use super::error::{EncodeError, RecordError, ReplayError};
use super::packed::PackedPosition;
use super::score::Score;
use sable_chess::{Color, Move, Position};

/// First byte of every record.
pub const MAGIC: u8 = 0xB5;
/// The format version this code writes and reads.
pub const VERSION: u8 = 1;
/// Bytes before the packed start position.
pub const HEADER_LEN: usize = 12;
/// Bytes per ply: the move and the score.
pub const PLY_LEN: usize = 4;

/// The game's result, from White's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum GameResult {
    WhiteWins = 0,
    Draw = 1,
    BlackWins = 2,
}

impl GameResult {
    /// 1.0, 0.5 or 0.0 for `side`.
    ///
    /// ```
    /// use sable_chess::Color;
    /// use sable_formats::record::GameResult;
    /// assert_eq!(GameResult::WhiteWins.score_for(Color::Black), 0.0);
    /// assert_eq!(GameResult::Draw.score_for(Color::White), 0.5);
    /// ```
    pub fn score_for(self, side: Color) -> f32 {
        match (self, side) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }

    /// PGN's `1-0`, `1/2-1/2`, `0-1`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::BlackWins => "0-1",
        }
    }
}

/// How the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Termination {
    /// Mate, stalemate or a draw by rule.
    Rules = 0,
    WinAdjudicated = 1,
    DrawAdjudicated = 2,
    /// A draw at the length limit.
    Length = 3,
}

/// One ply: the move played and the searching side's score before it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ply {
    pub mv: Move,
    /// For the side to move in the position before `mv`.
    pub score: Score,
}

/// One game: where it started, every ply with its score, and how it ended.
///
/// ```
/// use sable_formats::record::{GameRecord, GameResult, Ply, Score, Termination};
/// use sable_chess::Position;
///
/// let start = Position::startpos();
/// let e4 = start.parse_uci("e2e4").unwrap();
/// let game = GameRecord {
///     start,
///     plies: vec![Ply { mv: e4, score: Score::cp(30) }],
///     result: GameResult::Draw,
///     termination: Termination::Length,
///     number: 7,
/// };
/// let mut bytes = Vec::new();
/// game.encode(&mut bytes).unwrap();
/// assert_eq!(bytes.len(), 12 + 28 + 4 + 4);
/// let (back, used) = GameRecord::decode(&bytes, 0).unwrap();
/// assert_eq!((back, used), (game, bytes.len()));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    pub start: Position,
    pub plies: Vec<Ply>,
    pub result: GameResult,
    pub termination: Termination,
    /// The game's number in the run that played it (`sable datagen` derives the game's
    /// seed from it, and an appending run fills the numbers a file lacks).
    pub number: u32,
}

/// What the header says about the record that follows it.
pub(crate) struct Header {
    pub plies: usize,
    pub result: GameResult,
    pub termination: Termination,
    pub packed_len: usize,
    pub number: u32,
}

impl Header {
    /// Total record length.
    pub fn record_len(&self) -> usize {
        HEADER_LEN + self.packed_len + PLY_LEN * self.plies + 4
    }

    /// Checks the header bytes of the record at `offset`.
    pub fn parse(h: &[u8; HEADER_LEN], offset: u64) -> Result<Header, RecordError> {
        if h[0] != MAGIC {
            return Err(RecordError::Magic {
                offset,
                found: h[0],
                expected: MAGIC,
            });
        }
        let stored = u16::from_le_bytes([h[10], h[11]]);
        let computed = crc32(&h[..10]) as u16;
        if stored != computed {
            return Err(RecordError::HeaderChecksum {
                offset,
                stored,
                computed,
            });
        }
        if h[1] != VERSION {
            return Err(RecordError::Version {
                offset,
                found: h[1],
                known: VERSION,
            });
        }
        let invalid = |reason: String| RecordError::Invalid { offset, reason };
        let result = match h[4] & 3 {
            0 => GameResult::WhiteWins,
            1 => GameResult::Draw,
            2 => GameResult::BlackWins,
            _ => return Err(invalid("result code 3".into())),
        };
        let termination = match h[4] >> 2 & 3 {
            0 => Termination::Rules,
            1 => Termination::WinAdjudicated,
            2 => Termination::DrawAdjudicated,
            _ => Termination::Length,
        };
        if h[4] >> 4 != 0 {
            return Err(invalid(format!(
                "result byte {:#04x} has unused bits",
                h[4]
            )));
        }
        let packed_len = h[5] as usize;
        if !(PackedPosition::MIN_LEN..=PackedPosition::MAX_LEN).contains(&packed_len) {
            return Err(invalid(format!("packed position of {packed_len} bytes")));
        }
        Ok(Header {
            plies: u16::from_le_bytes([h[2], h[3]]) as usize,
            result,
            termination,
            packed_len,
            number: u32::from_le_bytes([h[6], h[7], h[8], h[9]]),
        })
    }
}

impl GameRecord {
    /// Appends the record's bytes to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let plies = u16::try_from(self.plies.len())
            .map_err(|_| EncodeError::TooManyPlies(self.plies.len()))?;
        let packed = PackedPosition::pack(&self.start)?;
        let begin = out.len();
        out.push(MAGIC);
        out.push(VERSION);
        out.extend_from_slice(&plies.to_le_bytes());
        out.push(self.result as u8 | (self.termination as u8) << 2);
        out.push(packed.as_bytes().len() as u8);
        out.extend_from_slice(&self.number.to_le_bytes());
        let check = crc32(&out[begin..begin + 10]) as u16;
        out.extend_from_slice(&check.to_le_bytes());
        out.extend_from_slice(packed.as_bytes());
        for p in &self.plies {
            out.extend_from_slice(&p.mv.bits().to_le_bytes());
            out.extend_from_slice(&p.score.raw().to_le_bytes());
        }
        let crc = crc32(&out[begin..]);
        out.extend_from_slice(&crc.to_le_bytes());
        Ok(())
    }

    /// Decodes the record at the start of `bytes` (which sits at byte `offset` of its
    /// file, for the errors); returns it and its length. Checks the checksums, the start
    /// position and the scores, not the moves (see [`GameRecord::replay`]).
    pub fn decode(bytes: &[u8], offset: u64) -> Result<(GameRecord, usize), RecordError> {
        let truncated = |need: usize| RecordError::Truncated {
            offset,
            have: bytes.len() as u64,
            need: need as u64,
        };
        let h: &[u8; HEADER_LEN] = bytes
            .get(..HEADER_LEN)
            .ok_or(truncated(HEADER_LEN))?
            .try_into()
            .expect("header length");
        let header = Header::parse(h, offset)?;
        let len = header.record_len();
        let rec = bytes.get(..len).ok_or(truncated(len))?;
        Ok((GameRecord::decode_checked_len(&header, rec, offset)?, len))
    }

    /// `rec` is exactly the record `header` describes.
    pub(crate) fn decode_checked_len(
        header: &Header,
        rec: &[u8],
        offset: u64,
    ) -> Result<GameRecord, RecordError> {
        let body = &rec[..rec.len() - 4];
        let stored = u32::from_le_bytes(rec[rec.len() - 4..].try_into().expect("4"));
        let computed = crc32(body);
        if stored != computed {
            return Err(RecordError::Checksum {
                offset,
                stored,
                computed,
            });
        }
        let invalid = |reason: String| RecordError::Invalid { offset, reason };
        let packed_bytes = &body[HEADER_LEN..HEADER_LEN + header.packed_len];
        let packed =
            PackedPosition::from_bytes(packed_bytes).map_err(|e| invalid(e.to_string()))?;
        if packed.as_bytes().len() != header.packed_len {
            return Err(invalid(format!(
                "header says the start position takes {} bytes, its occupancy says {}",
                header.packed_len,
                packed.as_bytes().len()
            )));
        }
        let start = packed.unpack().map_err(|e| invalid(e.to_string()))?;
        let mut plies = Vec::with_capacity(header.plies);
        for (i, c) in body[HEADER_LEN + header.packed_len..]
            .chunks_exact(PLY_LEN)
            .enumerate()
        {
            let mv = Move::from_bits(u16::from_le_bytes([c[0], c[1]]));
            let raw = i16::from_le_bytes([c[2], c[3]]);
            let score =
                Score::from_raw(raw).ok_or_else(|| invalid(format!("ply {i}: score {raw}")))?;
            plies.push(Ply { mv, score });
        }
        Ok(GameRecord {
            start,
            plies,
            result: header.result,
            termination: header.termination,
            number: header.number,
        })
    }

    /// Plays the game from its start, calling `visit` with the position before each ply
    /// (and the ply's index); every move is checked to be legal before it is played.
    /// Returns the final position.
    ///
    /// ```
    /// use sable_formats::record::{GameRecord, GameResult, Ply, Score, Termination};
    /// use sable_chess::{Move, Position};
    ///
    /// let mut game = GameRecord {
    ///     start: Position::startpos(),
    ///     plies: vec![],
    ///     result: GameResult::Draw,
    ///     termination: Termination::Rules,
    ///     number: 0,
    /// };
    /// let e4 = game.start.parse_uci("e2e4").unwrap();
    /// game.plies.push(Ply { mv: e4, score: Score::cp(20) });
    /// assert!(game.replay(|_, _, _| {}).is_ok());
    /// game.plies.push(Ply { mv: e4, score: Score::cp(20) }); // e2e4 again: illegal
    /// assert_eq!(game.replay(|_, _, _| {}).unwrap_err().ply, 1);
    /// ```
    pub fn replay(
        &self,
        mut visit: impl FnMut(usize, &Position, &Ply),
    ) -> Result<Position, ReplayError> {
        let mut pos = self.start.clone();
        for (i, ply) in self.plies.iter().enumerate() {
            if !ply.mv.is_canonical() || !pos.is_legal(ply.mv) {
                return Err(ReplayError {
                    ply: i,
                    bits: ply.mv.bits(),
                    fen: pos.fen(),
                });
            }
            visit(i, &pos, ply);
            pos.make(ply.mv);
        }
        Ok(pos)
    }

    /// The encoded length in bytes.
    pub fn encoded_len(&self) -> usize {
        let pieces = self.start.occupied().count();
        HEADER_LEN + PackedPosition::len_for(pieces) + PLY_LEN * self.plies.len() + 4
    }
}
