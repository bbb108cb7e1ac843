//! [`PackedPosition`]: a position in 13 to 28 bytes (layout in the module documentation
//! of [`crate::record`]).

use super::error::EncodeError;
use sable_chess::{
    CastleSide, CastlingMode, CastlingToken, Color, File, Piece, Position, PositionError, Rank,
    Role, Setup, Square,
};

/// Piece codes 12 and 13: a White / Black rook that still has a castling right.
const CASTLING_ROOK: u8 = 12;
/// Flags byte: side to move is Black, Chess960, en-passant square present, its file.
const FLAG_BLACK: u8 = 1;
const FLAG_960: u8 = 2;
const FLAG_EP: u8 = 4;
const EP_FILE_SHIFT: u8 = 3;

/// Why bytes are not a packed position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnpackError {
    #[error("packed position needs {need} bytes, {have} given")]
    Short { need: usize, have: usize },
    #[error("packed position has {0} pieces, at most 32 are possible")]
    TooManyPieces(u32),
    #[error("packed position: piece code {code} on {square} is not a piece")]
    PieceCode { square: Square, code: u8 },
    #[error("packed position: unused bits set (flags {flags:#04x} or the last nibble)")]
    UnusedBits { flags: u8 },
    #[error("packed position: full-move number 0 (the first move is number 1)")]
    FullmoveZero,
    #[error("packed position: a rook marked as castling stands on {0}, off its back rank")]
    CastlingRook(Square),
    #[error("packed position: {0}")]
    Position(#[from] PositionError),
}

/// A position packed for a game record: occupancy, 4-bit piece codes (castling rooks
/// marked, so Chess960 rights need no extra bytes), flags, and the two move counters.
///
/// ```
/// use sable_chess::{CastlingMode, Position};
/// use sable_formats::record::PackedPosition;
///
/// let pos = Position::startpos();
/// let packed = PackedPosition::pack(&pos).unwrap();
/// assert_eq!(packed.as_bytes().len(), 8 + 16 + 4);
/// assert_eq!(packed.unpack().unwrap(), pos);
///
/// let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
/// let chess960 = Position::from_fen(fen, CastlingMode::Chess960).unwrap();
/// let bytes = PackedPosition::pack(&chess960).unwrap().as_bytes().to_vec();
/// let back = PackedPosition::from_bytes(&bytes).unwrap().unpack().unwrap();
/// assert_eq!(back.fen(), fen);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PackedPosition {
    bytes: [u8; PackedPosition::MAX_LEN],
    len: u8,
}

impl PackedPosition {
    /// The most bytes a packed position takes (32 pieces).
    pub const MAX_LEN: usize = 8 + 16 + 4;
    /// The fewest (two kings).
    pub const MIN_LEN: usize = 8 + 1 + 4;

    /// The length of a packed position whose occupancy has `pieces` squares.
    pub const fn len_for(pieces: u32) -> usize {
        8 + (pieces as usize).div_ceil(2) + 4
    }

    /// Packs a position. Fails only for counters beyond the format (half-move clock
    /// over 255, full-move number over 65535).
    pub fn pack(pos: &Position) -> Result<PackedPosition, EncodeError> {
        let halfmoves =
            u8::try_from(pos.halfmoves()).map_err(|_| EncodeError::Halfmoves(pos.halfmoves()))?;
        let fullmoves =
            u16::try_from(pos.fullmoves()).map_err(|_| EncodeError::Fullmoves(pos.fullmoves()))?;
        let mut bytes = [0u8; PackedPosition::MAX_LEN];
        let occupied = pos.occupied();
        bytes[..8].copy_from_slice(&occupied.bits().to_le_bytes());
        let castling = pos.castling();
        let mut i = 0;
        for sq in occupied.iter() {
            let piece = pos.piece_at(sq).expect("occupied square");
            let castles = Color::ALL.iter().any(|&c| {
                CastleSide::ALL
                    .iter()
                    .any(|&s| castling.rook(c, s) == Some(sq))
            });
            let code = if castles {
                CASTLING_ROOK + piece.color() as u8
            } else {
                piece.index() as u8
            };
            bytes[8 + i / 2] |= code << (4 * (i % 2));
            i += 1;
        }
        let mut at = 8 + i.div_ceil(2);
        let mut flags = 0;
        if pos.turn() == Color::Black {
            flags |= FLAG_BLACK;
        }
        if pos.is_chess960() {
            flags |= FLAG_960;
        }
        if let Some(ep) = pos.ep_square() {
            flags |= FLAG_EP | (ep.file().index() as u8) << EP_FILE_SHIFT;
        }
        bytes[at] = flags;
        bytes[at + 1] = halfmoves;
        bytes[at + 2..at + 4].copy_from_slice(&fullmoves.to_le_bytes());
        at += 4;
        Ok(PackedPosition {
            bytes,
            len: at as u8,
        })
    }

    /// Reads a packed position from the start of `bytes` (its length follows from the
    /// occupancy; the rest of `bytes` is ignored). Checks the length only; [`unpack`]
    /// checks the contents.
    ///
    /// [`unpack`]: PackedPosition::unpack
    pub fn from_bytes(bytes: &[u8]) -> Result<PackedPosition, UnpackError> {
        let short = |need| UnpackError::Short {
            need,
            have: bytes.len(),
        };
        let occ = u64::from_le_bytes(bytes.get(..8).ok_or(short(8))?.try_into().expect("8"));
        let pieces = occ.count_ones();
        if pieces > 32 {
            return Err(UnpackError::TooManyPieces(pieces));
        }
        let len = PackedPosition::len_for(pieces);
        let src = bytes.get(..len).ok_or(short(len))?;
        let mut out = [0u8; PackedPosition::MAX_LEN];
        out[..len].copy_from_slice(src);
        Ok(PackedPosition {
            bytes: out,
            len: len as u8,
        })
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// The position, validated as [`Position::from_setup`] validates a FEN.
    pub fn unpack(&self) -> Result<Position, UnpackError> {
        let b = self.as_bytes();
        let occ = u64::from_le_bytes(b[..8].try_into().expect("8"));
        let n = occ.count_ones() as usize;
        let mut board = [None; 64];
        let mut castling = Vec::new();
        for (i, sq) in sable_chess::SquareSet(occ).iter().enumerate() {
            let code = b[8 + i / 2] >> (4 * (i % 2)) & 15;
            board[sq.index()] = Some(match code {
                0..=11 => Piece::from_index(code as usize),
                12 | 13 => {
                    let color = if code == 12 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    // Only a rook on its back rank can castle; elsewhere its file would
                    // name another rook, and the position would pack differently.
                    if sq.rank() != Rank::FIRST.relative(color) {
                        return Err(UnpackError::CastlingRook(sq));
                    }
                    castling.push((color, CastlingToken::File(sq.file())));
                    Piece::new(color, Role::Rook)
                }
                _ => return Err(UnpackError::PieceCode { square: sq, code }),
            });
        }
        let at = 8 + n.div_ceil(2);
        let flags = b[at];
        if flags >> 6 != 0 || (n % 2 == 1 && b[at - 1] >> 4 != 0) {
            return Err(UnpackError::UnusedBits { flags });
        }
        let turn = if flags & FLAG_BLACK != 0 {
            Color::Black
        } else {
            Color::White
        };
        let ep_square = (flags & FLAG_EP != 0).then(|| {
            let file = File::new(flags >> EP_FILE_SHIFT & 7).expect("3 bits");
            Square::from_coords(file, Rank::SIXTH.relative(turn))
        });
        if flags & FLAG_EP == 0 && flags >> EP_FILE_SHIFT & 7 != 0 {
            return Err(UnpackError::UnusedBits { flags });
        }
        let fullmoves = u16::from_le_bytes([b[at + 2], b[at + 3]]);
        if fullmoves == 0 {
            // `pack` never writes it, and a position cannot hold it: one encoding each.
            return Err(UnpackError::FullmoveZero);
        }
        let setup = Setup {
            board,
            turn,
            castling,
            ep_square,
            halfmoves: b[at + 1] as u32,
            fullmoves: fullmoves as u32,
        };
        let mode = if flags & FLAG_960 != 0 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        Ok(Position::from_setup(&setup, mode)?)
    }
}
