//! The errors of the record format: writing ([`EncodeError`]), reading ([`RecordError`],
//! each naming the byte offset of the record at fault) and replaying ([`ReplayError`]).

/// A game that cannot be written in the format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("half-move clock {0} does not fit in a byte (at most 255)")]
    Halfmoves(u32),
    #[error("full-move number {0} does not fit in 16 bits (at most 65535)")]
    Fullmoves(u32),
    #[error("{0} plies do not fit in one record (at most 65535)")]
    TooManyPlies(usize),
}

/// A move of a record that is not legal where it is played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: move bits {bits:#06x} are not a legal move in {fen}")]
pub struct ReplayError {
    /// 0-based index of the ply in the record.
    pub ply: usize,
    pub bits: u16,
    pub fen: String,
}

/// A file of records that cannot be read. Every variant but `Io` names the byte offset
/// of the record at fault, counted from the start of the file.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("byte {offset}: {source}")]
    Io {
        offset: u64,
        #[source]
        source: std::io::Error,
    },
    /// The file ends inside a record: what an interrupted writer leaves.
    #[error("byte {offset}: the last record is cut short ({have} of {need} bytes; the file ends inside it)")]
    Truncated { offset: u64, have: u64, need: u64 },
    #[error(
        "byte {offset}: not a game record (first byte {found:#04x}, expected {expected:#04x})"
    )]
    Magic {
        offset: u64,
        found: u8,
        expected: u8,
    },
    #[error("byte {offset}: record format version {found}, this reader knows version {known}")]
    Version { offset: u64, found: u8, known: u8 },
    #[error(
        "byte {offset}: corrupted record header (check {stored:#06x}, computed {computed:#06x})"
    )]
    HeaderChecksum {
        offset: u64,
        stored: u16,
        computed: u16,
    },
    #[error("byte {offset}: corrupted record (CRC-32 {stored:#010x}, computed {computed:#010x})")]
    Checksum {
        offset: u64,
        stored: u32,
        computed: u32,
    },
    /// Well-formed and checksummed, yet not a valid game (written by a broken writer).
    #[error("byte {offset}: invalid record: {reason}")]
    Invalid { offset: u64, reason: String },
    #[error("byte {offset}: {source}")]
    Illegal {
        offset: u64,
        #[source]
        source: ReplayError,
    },
}

impl RecordError {
    /// The byte offset of the record at fault (for `Io`, where reading stopped).
    pub fn offset(&self) -> u64 {
        match self {
            RecordError::Io { offset, .. }
            | RecordError::Truncated { offset, .. }
            | RecordError::Magic { offset, .. }
            | RecordError::Version { offset, .. }
            | RecordError::HeaderChecksum { offset, .. }
            | RecordError::Checksum { offset, .. }
            | RecordError::Invalid { offset, .. }
            | RecordError::Illegal { offset, .. } => *offset,
        }
    }

    /// Whether this is the cut-short last record of an interrupted run, which readers
    /// drop with a message rather than refuse the file.
    pub fn is_truncation(&self) -> bool {
        matches!(self, RecordError::Truncated { .. })
    }
}
