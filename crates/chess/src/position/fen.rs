//! FEN, X-FEN and Shredder-FEN: parse (`Setup`), validate into a `Position`, and write.
//!
//! Parsing is two steps, as in shakmaty: the text becomes a [`Setup`] (syntax errors,
//! [`FenError`]), and the setup becomes a [`Position`] only if it could arise in a game
//! ([`PositionError`]). Each error names the field and the text at fault.

use super::Position;
use crate::attacks::line;
use crate::castling::{CastleSide, Castling};
use crate::{Color, File, Piece, Rank, Role, Square, SquareSet};
use std::fmt;

/// How castling rights are read and written.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum CastlingMode {
    /// Standard chess: king on the e-file, castling rooks in the corners; `KQkq` written.
    #[default]
    Standard,
    /// Chess960: any king and rook files; written as Shredder-FEN letters (`HAha`).
    Chess960,
}

/// A FEN's six fields, parsed but not yet checked for legality.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub board: [Option<Piece>; 64],
    pub turn: Color,
    /// Castling field as written: each entry is a colour and either a rook file or,
    /// for `K`/`Q`/`k`/`q`, `None` with the side.
    pub castling: Vec<(Color, CastlingToken)>,
    pub ep_square: Option<Square>,
    pub halfmoves: u32,
    pub fullmoves: u32,
}

/// One letter of the castling field.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CastlingToken {
    /// `K`/`k` or `Q`/`q`: the outermost rook on that side of the king.
    Side(CastleSide),
    /// A Shredder/X-FEN file letter: the rook on that file.
    File(File),
}

/// The text is not well-formed FEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("FEN has {found} fields, expected 4 to 6 (board, side, castling, en passant, half-moves, full-moves)")]
    FieldCount { found: usize },
    #[error("board field: {found} ranks in '{text}', expected 8 separated by '/'")]
    RankCount { found: usize, text: String },
    #[error("board field: rank {rank} '{text}' covers {squares} squares, expected 8")]
    RankLength {
        rank: char,
        text: String,
        squares: usize,
    },
    #[error("board field: rank {rank} '{text}': '{found}' is not a piece letter (PNBRQK/pnbrqk) or a digit 1-8")]
    PieceLetter {
        rank: char,
        text: String,
        found: char,
    },
    #[error("side-to-move field '{0}': expected 'w' or 'b'")]
    Turn(String),
    #[error("castling field '{text}': '{found}' is not K, Q, k, q, a file letter A-H/a-h, or '-'")]
    CastlingLetter { text: String, found: char },
    #[error("en-passant field '{0}': expected '-' or a square on rank 3 or 6")]
    EnPassant(String),
    #[error("half-move clock '{0}': expected a whole number of at least 0")]
    Halfmoves(String),
    #[error("full-move number '{0}': expected a whole number of at least 1")]
    Fullmoves(String),
}

/// The setup is well-formed but could not arise in a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("board field: {0} has no king")]
    MissingKing(Color),
    #[error("board field: {color} has {count} kings, expected exactly one")]
    TooManyKings { color: Color, count: u32 },
    #[error("board field: {color} has {count} pawns, at most 8 are possible")]
    TooManyPawns { color: Color, count: u32 },
    #[error("board field: {color} has {count} pieces, at most 16 are possible")]
    TooManyPieces { color: Color, count: u32 },
    #[error("board field: pawn on {0}, pawns cannot stand on the first or last rank")]
    PawnOnBackRank(Square),
    #[error("side-to-move field: {0} is not to move but is in check")]
    OppositeCheck(Color),
    #[error("position: {count} pieces give check at once, which no move can produce")]
    TooManyCheckers { count: u32 },
    #[error("position: the checks by {first} and {second} could not both come from one move")]
    ImpossibleCheck { first: Square, second: Square },
    #[error("castling field '{text}': {reason}")]
    Castling { text: String, reason: String },
    #[error("en-passant field '{square}': {reason}")]
    EnPassant { square: Square, reason: String },
}

/// Either kind of FEN error, for callers that go straight from text to a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    #[error("invalid FEN: {0}")]
    Syntax(#[from] FenError),
    #[error("illegal position: {0}")]
    Position(#[from] PositionError),
}

impl std::str::FromStr for Setup {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount {
                found: fields.len(),
            });
        }
        let board = parse_board(fields[0])?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Turn(other.to_string())),
        };
        let mut castling = Vec::new();
        if fields[2] != "-" {
            for c in fields[2].chars() {
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let token = match c.to_ascii_lowercase() {
                    'k' => CastlingToken::Side(CastleSide::King),
                    'q' => CastlingToken::Side(CastleSide::Queen),
                    f @ 'a'..='h' => CastlingToken::File(File::from_char(f).expect("a-h")),
                    _ => {
                        return Err(FenError::CastlingLetter {
                            text: fields[2].to_string(),
                            found: c,
                        })
                    }
                };
                castling.push((color, token));
            }
        }
        let ep_square = match fields[3] {
            "-" => None,
            s => match s.parse::<Square>() {
                Ok(sq) if sq.rank() == Rank::THIRD || sq.rank() == Rank::SIXTH => Some(sq),
                _ => return Err(FenError::EnPassant(s.to_string())),
            },
        };
        let halfmoves = match fields.get(4) {
            None => 0,
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| FenError::Halfmoves(s.to_string()))?,
        };
        let fullmoves = match fields.get(5) {
            None => 1,
            // Some programs write 0; read it as the first move.
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| FenError::Fullmoves(s.to_string()))?
                .max(1),
        };
        Ok(Setup {
            board,
            turn,
            castling,
            ep_square,
            halfmoves,
            fullmoves,
        })
    }
}

fn parse_board(text: &str) -> Result<[Option<Piece>; 64], FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount {
            found: ranks.len(),
            text: text.to_string(),
        });
    }
    let mut board = [None; 64];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u8).expect("eight ranks");
        let mut file = 0usize;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else if let Some(p) = Piece::from_char(c) {
                if file < 8 {
                    board[rank.index() * 8 + file] = Some(p);
                }
                file += 1;
            } else {
                return Err(FenError::PieceLetter {
                    rank: rank.char(),
                    text: rank_text.to_string(),
                    found: c,
                });
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank.char(),
                text: rank_text.to_string(),
                squares: file,
            });
        }
    }
    Ok(board)
}

impl Position {
    /// Parses and validates a FEN (4 to 6 fields; missing counters default to 0 and 1).
    ///
    /// ```
    /// use sable_chess::{Position, CastlingMode};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", CastlingMode::Standard).unwrap();
    /// assert_eq!(pos.legal_moves().len(), 15);
    /// assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0", CastlingMode::Standard).is_ok());
    /// let err = Position::from_fen("4k3/8/8/8/8/8/8/4K2X w - - 0 1", CastlingMode::Standard).unwrap_err();
    /// assert!(err.to_string().contains("'X' is not a piece letter"));
    /// ```
    pub fn from_fen(fen: &str, mode: CastlingMode) -> Result<Position, ParseFenError> {
        let setup: Setup = fen.parse()?;
        Ok(Position::from_setup(&setup, mode)?)
    }

    /// Validates a setup into a position.
    pub fn from_setup(setup: &Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        Position::build(setup, mode, true)
    }

    /// Like [`Position::from_fen`], but accepts checks that no legal move could have
    /// produced (two checkers aligned with the king, checks an en-passant push cannot
    /// explain). Such positions are still well defined, and perft suites test
    /// generators on them; everything else is validated as usual.
    pub fn from_fen_relaxed(fen: &str, mode: CastlingMode) -> Result<Position, ParseFenError> {
        let setup: Setup = fen.parse()?;
        Ok(Position::build(&setup, mode, false)?)
    }

    fn build(
        setup: &Setup,
        mode: CastlingMode,
        check_checkers: bool,
    ) -> Result<Position, PositionError> {
        let mut pos = Position::empty();
        pos.chess960 = mode == CastlingMode::Chess960;
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                pos.put(p, sq);
            }
        }
        pos.turn = setup.turn;
        pos.halfmoves = setup.halfmoves;
        // As in FEN text, a full-move number of 0 is read as the first move.
        pos.fullmoves = setup.fullmoves.max(1);

        for color in Color::ALL {
            let kings = pos.count(color, Role::King);
            if kings == 0 {
                return Err(PositionError::MissingKing(color));
            }
            if kings > 1 {
                return Err(PositionError::TooManyKings {
                    color,
                    count: kings,
                });
            }
            let pawns = pos.count(color, Role::Pawn);
            if pawns > 8 {
                return Err(PositionError::TooManyPawns {
                    color,
                    count: pawns,
                });
            }
            let pieces = pos.by_color(color).count();
            if pieces > 16 {
                return Err(PositionError::TooManyPieces {
                    color,
                    count: pieces,
                });
            }
        }
        if let Some(sq) = (pos.by_role(Role::Pawn) & SquareSet::BACKRANKS).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        let them = !pos.turn;
        if pos.is_attacked(pos.king(them), pos.turn, pos.occupied()) {
            return Err(PositionError::OppositeCheck(them));
        }

        pos.castling = parse_castling(&pos, setup, mode)?;
        pos.ep_square = match setup.ep_square {
            Some(ep) => Some(validate_ep(&pos, ep)?),
            None => None,
        };
        pos.update_check_info();
        if check_checkers {
            validate_checkers(&pos)?;
        }
        pos.set_fresh_keys();
        Ok(pos)
    }

    /// The FEN: X-FEN castling (`KQkq`, a file letter only where needed) in standard
    /// mode, Shredder-FEN letters (`HAha`) in Chess960 mode.
    pub fn fen(&self) -> String {
        let mut s = self.board_fen();
        s.push(' ');
        s.push(self.turn.char());
        s.push(' ');
        s.push_str(&self.castling_fen(self.chess960));
        s.push(' ');
        match self.ep_square {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmoves, self.fullmoves));
        s
    }

    /// The first four fields of the FEN (as in EPD).
    pub fn epd(&self) -> String {
        let fen = self.fen();
        fen.rsplitn(3, ' ').nth(2).unwrap_or(&fen).to_string()
    }

    /// The board field alone.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(72);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, *rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if *rank != Rank::FIRST {
                s.push('/');
            }
        }
        s
    }

    /// The castling field: Shredder letters if `shredder`, else X-FEN.
    pub fn castling_fen(&self, shredder: bool) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                let Some(rook) = self.castling.rook(color, side) else {
                    continue;
                };
                let c = if shredder || !self.is_outermost_rook(color, side, rook) {
                    rook.file().char()
                } else if side == CastleSide::King {
                    'k'
                } else {
                    'q'
                };
                s.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    fn is_outermost_rook(&self, color: Color, side: CastleSide, rook: Square) -> bool {
        let back = SquareSet::from_rank(Castling::back_rank(color));
        let rooks = self.pieces(color, Role::Rook) & back;
        let outer = match side {
            CastleSide::King => rooks.last(),
            CastleSide::Queen => rooks.first(),
        };
        outer == Some(rook)
    }

    /// The setup this position would be written as.
    pub fn to_setup(&self) -> Setup {
        self.fen().parse().expect("own FEN parses")
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, rank) in Rank::ALL.iter().rev().enumerate() {
            let mut empty = 0;
            for file in File::ALL {
                match self.board[Square::from_coords(file, *rank).index()] {
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if i < 7 {
                f.write_str("/")?;
            }
        }
        write!(f, " {} ", self.turn.char())?;
        if self.castling.is_empty() {
            f.write_str("-")?;
        }
        for (color, token) in &self.castling {
            let c = match token {
                CastlingToken::Side(CastleSide::King) => 'k',
                CastlingToken::Side(CastleSide::Queen) => 'q',
                CastlingToken::File(file) => file.char(),
            };
            write!(
                f,
                "{}",
                if *color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            )?;
        }
        match self.ep_square {
            Some(ep) => write!(f, " {ep}")?,
            None => f.write_str(" -")?,
        }
        write!(f, " {} {}", self.halfmoves, self.fullmoves)
    }
}

fn castling_text(setup: &Setup) -> String {
    let s = setup.to_string();
    s.split(' ').nth(2).unwrap_or("-").to_string()
}

fn parse_castling(
    pos: &Position,
    setup: &Setup,
    mode: CastlingMode,
) -> Result<Castling, PositionError> {
    let mut castling = Castling::NONE;
    let err = |reason: String| PositionError::Castling {
        text: castling_text(setup),
        reason,
    };
    for &(color, token) in &setup.castling {
        let back = Castling::back_rank(color);
        let king = pos.king(color);
        if king.rank() != back {
            return Err(err(format!(
                "{color} has castling rights but its king is on {king}, not on its back rank"
            )));
        }
        let rooks = pos.pieces(color, Role::Rook) & SquareSet::from_rank(back);
        let (side, rook) = match token {
            CastlingToken::Side(side) => {
                let candidates = match side {
                    CastleSide::King => rooks.into_iter().filter(|r| r.file() > king.file()).last(),
                    CastleSide::Queen => rooks.into_iter().find(|r| r.file() < king.file()),
                };
                match candidates {
                    Some(r) => (side, r),
                    None => {
                        return Err(err(format!(
                            "{color} has no rook on the {} side of its king",
                            if side == CastleSide::King {
                                "h-file"
                            } else {
                                "a-file"
                            }
                        )))
                    }
                }
            }
            CastlingToken::File(file) => {
                let sq = Square::from_coords(file, back);
                if !rooks.contains(sq) {
                    return Err(err(format!("{color} has no rook on {sq} to castle with")));
                }
                let side = if file > king.file() {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                (side, sq)
            }
        };
        if mode == CastlingMode::Standard
            && (king.file() != File::E || (rook.file() != File::A && rook.file() != File::H))
        {
            return Err(err(format!(
                "standard chess castles only with the king on the e-file and rooks in the corners ({color} king on {king}, rook on {rook}); use Chess960 mode"
            )));
        }
        if castling.has(color, side) {
            return Err(err(format!("{color} has two castling rights on one side")));
        }
        castling.grant(color, side, king, rook);
    }
    Ok(castling)
}

fn validate_ep(pos: &Position, ep: Square) -> Result<Square, PositionError> {
    let us = pos.turn;
    let err = |reason: &str| PositionError::EnPassant {
        square: ep,
        reason: reason.to_string(),
    };
    if ep.rank() != Rank::SIXTH.relative(us) {
        return Err(err(&format!(
            "with {us} to move the en-passant square must be on rank {}",
            Rank::SIXTH.relative(us).char()
        )));
    }
    let forward: i8 = if us == Color::White { 1 } else { -1 };
    let pushed = ep.offset(0, -forward).expect("rank 6 has a square below");
    let origin = ep.offset(0, forward).expect("rank 6 has a square above");
    if pos.piece_at(pushed) != Some(Role::Pawn.of(!us)) {
        return Err(err(&format!(
            "no {} pawn on {pushed} that could just have moved two squares",
            !us
        )));
    }
    if pos.occupied().contains(ep) || pos.occupied().contains(origin) {
        return Err(err(&format!(
            "{ep} and {origin} must be empty after a double pawn push"
        )));
    }
    Ok(ep)
}

fn validate_checkers(pos: &Position) -> Result<(), PositionError> {
    let checkers = pos.checkers;
    let count = checkers.count();
    if count > 2 {
        return Err(PositionError::TooManyCheckers { count });
    }
    let king = pos.king(pos.turn);
    if let Some(ep) = pos.ep_square {
        // After a double push, the only checks possible come from that pawn or are
        // discovered by its move.
        let forward: i8 = if pos.turn == Color::White { 1 } else { -1 };
        let pushed = ep.offset(0, -forward).expect("valid ep");
        let origin = ep.offset(0, forward).expect("valid ep");
        let before = (pos.occupied() - pushed) | origin;
        if count > 1 {
            let first = checkers.lsb();
            return Err(PositionError::ImpossibleCheck {
                first,
                second: (checkers - first).lsb(),
            });
        }
        if let Some(checker) = checkers.first() {
            if checker != pushed {
                let mut earlier = pos.clone();
                earlier.remove(Role::Pawn.of(!pos.turn), pushed);
                earlier.put(Role::Pawn.of(!pos.turn), origin);
                if earlier.is_attacked(king, !pos.turn, before) {
                    return Err(PositionError::EnPassant {
                        square: ep,
                        reason: format!(
                            "the check by {checker} was already there before the double push"
                        ),
                    });
                }
            }
        }
    } else if count == 2 {
        let first = checkers.lsb();
        let second = (checkers - first).lsb();
        if line(first, second).contains(king) {
            return Err(PositionError::ImpossibleCheck { first, second });
        }
    }
    Ok(())
}
