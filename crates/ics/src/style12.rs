//! The style-12 board line (`<12> ...`), the one machine-readable board FICS-style
//! servers send: parsed into [`Style12`], field by field, with a typed [`Style12Error`]
//! naming the field and quoting the line when it is malformed. Never panics, whatever
//! the input; the FEN of the board for resynchronising the game is built here too.

use sable_chess::{CastlingMode, Color, Piece, Position};

/// What the line says about the viewer's relation to the game (field 19).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// -3: an isolated position (`ref 3`, `sposition`).
    Isolated,
    /// -2: observing an examined game.
    ObservingExamined,
    /// 2: examining.
    Examiner,
    /// -1: playing, the opponent to move.
    PlayingTheirMove,
    /// 1: playing, our move.
    PlayingMyMove,
    /// 0: observing a played game.
    Observing,
}

impl Relation {
    fn from_code(code: i64) -> Option<Relation> {
        Some(match code {
            -3 => Relation::Isolated,
            -2 => Relation::ObservingExamined,
            2 => Relation::Examiner,
            -1 => Relation::PlayingTheirMove,
            1 => Relation::PlayingMyMove,
            0 => Relation::Observing,
            _ => return None,
        })
    }

    /// Whether the viewer is a player of the game.
    pub fn is_playing(self) -> bool {
        matches!(self, Relation::PlayingMyMove | Relation::PlayingTheirMove)
    }
}

/// The unit of the two clock fields: seconds, or milliseconds after `iset ms 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ClockUnit {
    #[default]
    Seconds,
    Milliseconds,
}

/// One parsed style-12 line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Style12 {
    /// The squares, a1 = 0 … h8 = 63.
    pub board: [Option<Piece>; 64],
    pub turn: Color,
    /// The file (0 = a) of a pawn that just moved two squares, if any.
    pub double_push_file: Option<u8>,
    /// White king side, white queen side, black king side, black queen side.
    pub castling: [bool; 4],
    /// Plies since the last capture or pawn move.
    pub halfmoves: u32,
    pub game: u32,
    pub white: String,
    pub black: String,
    pub relation: Relation,
    /// The initial time in minutes and the increment in seconds.
    pub initial_min: u32,
    pub increment_s: u32,
    pub white_material: i32,
    pub black_material: i32,
    /// Remaining clock times in milliseconds (negative when a flag has fallen).
    pub white_ms: i64,
    pub black_ms: i64,
    /// The number of the move about to be played.
    pub move_number: u32,
    /// The last move in FICS's verbose form (`P/e2-e4`, `o-o`), `None` before any move.
    pub verbose_move: Option<String>,
    /// The time the last move took, as written (`(0:02)`, `(0:02.345)`).
    pub move_time: String,
    /// The last move in SAN as the server writes it, `None` before any move.
    pub pretty_move: Option<String>,
    /// Whether the board is shown from Black's side.
    pub flip: bool,
    /// Whether the clock is running (newer servers only).
    pub ticking: Option<bool>,
    /// The lag the server charged for the last move, in ms (newer servers only).
    pub lag_ms: Option<u64>,
}

/// Why a style-12 line could not be read: the field and the line (cut to 120
/// characters so that a huge line does not flood the log).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Style12Error {
    #[error("style 12: not a <12> line: '{line}'")]
    NotStyle12 { line: String },
    #[error("style 12: {found} fields, at least 30 expected: '{line}'")]
    TooFewFields { found: usize, line: String },
    #[error("style 12: field {index} ({field}) is '{value}': {why}: '{line}'")]
    Field {
        index: usize,
        field: &'static str,
        value: String,
        why: &'static str,
        line: String,
    },
}

fn excerpt(line: &str) -> String {
    let mut s: String = line.chars().take(120).collect();
    if line.chars().nth(120).is_some() {
        s.push_str("...");
    }
    s
}

const FIELD_NAMES: [&str; 32] = [
    "rank 8",
    "rank 7",
    "rank 6",
    "rank 5",
    "rank 4",
    "rank 3",
    "rank 2",
    "rank 1",
    "side to move",
    "double pawn push file",
    "white castle short",
    "white castle long",
    "black castle short",
    "black castle long",
    "irreversible plies",
    "game number",
    "white name",
    "black name",
    "relation",
    "initial time",
    "increment",
    "white material",
    "black material",
    "white clock",
    "black clock",
    "move number",
    "verbose move",
    "move time",
    "pretty move",
    "flip",
    "clock ticking",
    "lag",
];

struct Fields<'a> {
    words: Vec<&'a str>,
    line: &'a str,
}

impl Fields<'_> {
    fn err(&self, index: usize, why: &'static str) -> Style12Error {
        Style12Error::Field {
            index: index + 1,
            field: FIELD_NAMES[index],
            value: excerpt(self.words[index]),
            why,
            line: excerpt(self.line),
        }
    }

    fn int(&self, index: usize, min: i64, max: i64) -> Result<i64, Style12Error> {
        let v: i64 = self.words[index]
            .parse()
            .map_err(|_| self.err(index, "not a number"))?;
        if v < min || v > max {
            return Err(self.err(index, "out of range"));
        }
        Ok(v)
    }

    fn flag(&self, index: usize) -> Result<bool, Style12Error> {
        match self.words[index] {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(self.err(index, "expected 0 or 1")),
        }
    }

    fn name(&self, index: usize) -> Result<String, Style12Error> {
        let w = self.words[index];
        if w.len() > 64 || !w.chars().all(|c| c.is_ascii_graphic()) {
            return Err(self.err(index, "not a handle"));
        }
        Ok(w.to_string())
    }
}

/// The largest clock we accept, in ms (a year: beyond it a number is garbage).
const MAX_CLOCK_MS: i64 = 365 * 24 * 3_600_000;

impl Style12 {
    /// Parses a `<12>` line; `unit` says how the clocks are given.
    ///
    /// ```
    /// use sable_ics::style12::{ClockUnit, Style12};
    /// let line = "<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR \
    ///             B 4 1 1 1 1 0 7 Sable Guest -1 3 0 39 39 180 180 1 P/e2-e4 (0:00) e4 0";
    /// let s = Style12::parse(line, ClockUnit::Seconds).unwrap();
    /// assert_eq!(s.double_push_file, Some(4));
    /// assert_eq!(s.white_ms, 180_000);
    /// assert_eq!(s.pretty_move.as_deref(), Some("e4"));
    /// assert_eq!(
    ///     s.fen(),
    ///     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    /// );
    /// ```
    pub fn parse(line: &str, unit: ClockUnit) -> Result<Style12, Style12Error> {
        let trimmed = line.trim();
        let Some(rest) = trimmed.strip_prefix("<12>") else {
            return Err(Style12Error::NotStyle12 {
                line: excerpt(line),
            });
        };
        let words: Vec<&str> = rest.split_whitespace().take(40).collect();
        if words.len() < 30 {
            return Err(Style12Error::TooFewFields {
                found: words.len(),
                line: excerpt(line),
            });
        }
        let f = Fields {
            words,
            line: trimmed,
        };
        let mut board = [None; 64];
        for row in 0..8 {
            let text = f.words[row].as_bytes();
            if text.len() != 8 {
                return Err(f.err(row, "a rank has 8 squares"));
            }
            let rank = 7 - row;
            for (file, &c) in text.iter().enumerate() {
                board[rank * 8 + file] = match c {
                    b'-' => None,
                    _ => Some(
                        Piece::from_char(c as char)
                            .ok_or_else(|| f.err(row, "not a piece letter"))?,
                    ),
                };
            }
        }
        let turn = match f.words[8] {
            "W" => Color::White,
            "B" => Color::Black,
            _ => return Err(f.err(8, "expected W or B")),
        };
        let double_push_file = match f.int(9, -1, 7)? {
            -1 => None,
            v => Some(v as u8),
        };
        let castling = [f.flag(10)?, f.flag(11)?, f.flag(12)?, f.flag(13)?];
        let halfmoves = f.int(14, 0, 100_000)? as u32;
        let game = f.int(15, 0, 1_000_000_000)? as u32;
        let white = f.name(16)?;
        let black = f.name(17)?;
        let relation =
            Relation::from_code(f.int(18, -3, 2)?).ok_or_else(|| f.err(18, "unknown code"))?;
        let initial_min = f.int(19, 0, 100_000)? as u32;
        let increment_s = f.int(20, 0, 100_000)? as u32;
        let white_material = f.int(21, -1000, 1000)? as i32;
        let black_material = f.int(22, -1000, 1000)? as i32;
        let scale = match unit {
            ClockUnit::Seconds => 1000,
            ClockUnit::Milliseconds => 1,
        };
        let max = MAX_CLOCK_MS / scale;
        let white_ms = f.int(23, -max, max)? * scale;
        let black_ms = f.int(24, -max, max)? * scale;
        let move_number = f.int(25, 0, 100_000)? as u32;
        let verbose_move = match f.words[26] {
            "none" => None,
            m if m.len() <= 16 && m.is_ascii() => Some(m.to_string()),
            _ => return Err(f.err(26, "not a move")),
        };
        let move_time = f.words[27];
        if !(move_time.starts_with('(') && move_time.ends_with(')') && move_time.len() <= 24) {
            return Err(f.err(27, "expected (m:ss)"));
        }
        let pretty_move = match f.words[28] {
            "none" => None,
            m if m.len() <= 16 && m.is_ascii() => Some(m.to_string()),
            _ => return Err(f.err(28, "not a move")),
        };
        let flip = f.flag(29)?;
        let ticking = if f.words.len() > 30 {
            Some(f.flag(30)?)
        } else {
            None
        };
        let lag_ms = if f.words.len() > 31 {
            Some(f.int(31, 0, MAX_CLOCK_MS)? as u64)
        } else {
            None
        };
        Ok(Style12 {
            board,
            turn,
            double_push_file,
            castling,
            halfmoves,
            game,
            white,
            black,
            relation,
            initial_min,
            increment_s,
            white_material,
            black_material,
            white_ms,
            black_ms,
            move_number,
            verbose_move,
            move_time: move_time.to_string(),
            pretty_move,
            flip,
            ticking,
            lag_ms,
        })
    }

    /// The piece placement as in a FEN.
    pub fn board_fen(&self) -> String {
        let mut out = String::with_capacity(72);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.board[rank * 8 + file] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(p.char());
                    }
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// The whole position as a FEN. Castling rights are kept only where the king and
    /// rook stand on their squares (a server may keep a right whose rook was captured
    /// unmoved), so the FEN is one `Position::from_fen` accepts.
    pub fn fen(&self) -> String {
        let at = |sq: usize| self.board[sq].map(|p| p.char());
        let mut castling = String::new();
        let rights = [
            (self.castling[0], 4, 7, 'K'),
            (self.castling[1], 4, 0, 'Q'),
            (self.castling[2], 60, 63, 'k'),
            (self.castling[3], 60, 56, 'q'),
        ];
        for (on, king, rook, c) in rights {
            let (k, r) = if c.is_ascii_uppercase() {
                ('K', 'R')
            } else {
                ('k', 'r')
            };
            if on && at(king) == Some(k) && at(rook) == Some(r) {
                castling.push(c);
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let ep = match self.double_push_file {
            Some(f) => {
                let rank = if self.turn == Color::White { '6' } else { '3' };
                format!("{}{rank}", char::from(b'a' + f))
            }
            None => "-".to_string(),
        };
        let side = if self.turn == Color::White { 'w' } else { 'b' };
        format!(
            "{} {side} {castling} {ep} {} {}",
            self.board_fen(),
            self.halfmoves.min(999),
            self.move_number.max(1)
        )
    }

    /// The position, for resynchronising: the FEN, or, if the server's en-passant file
    /// is not one the rules accept, the same without it.
    pub fn position(&self) -> Result<Position, String> {
        let fen = self.fen();
        match Position::from_fen(&fen, CastlingMode::Standard) {
            Ok(p) => Ok(p),
            Err(first) => {
                let mut parts: Vec<&str> = fen.split(' ').collect();
                parts[3] = "-";
                Position::from_fen(&parts.join(" "), CastlingMode::Standard)
                    .map_err(|_| format!("the board is not a legal position ({first}): {fen}"))
            }
        }
    }

    /// Whether `pos` shows the same board with the same side to move.
    pub fn same_board(&self, pos: &Position) -> bool {
        pos.turn() == self.turn && pos.board_fen() == self.board_fen()
    }

    /// The clock of `side` in ms.
    pub fn clock_ms(&self, side: Color) -> i64 {
        match side {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        }
    }

    /// The color of `handle` in this game, if it plays (names compared without case,
    /// as servers do).
    pub fn color_of(&self, handle: &str) -> Option<Color> {
        if self.white.eq_ignore_ascii_case(handle) {
            Some(Color::White)
        } else if self.black.eq_ignore_ascii_case(handle) {
            Some(Color::Black)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 12 Sable Opp 1 1 0 39 39 60 60 1 none (0:00) none 0 0 0";

    #[test]
    fn start_position() {
        let s = Style12::parse(START, ClockUnit::Seconds).unwrap();
        assert_eq!(s.fen(), sable_chess::STARTPOS_FEN);
        assert_eq!(s.relation, Relation::PlayingMyMove);
        assert_eq!(s.game, 12);
        assert_eq!(s.ticking, Some(false));
        assert_eq!(s.lag_ms, Some(0));
        assert!(s.same_board(&Position::startpos()));
        assert_eq!(s.color_of("sable"), Some(Color::White));
    }

    #[test]
    fn millisecond_clocks() {
        let line = START.replace(" 60 60 1 none", " 59876 60000 1 none");
        let s = Style12::parse(&line, ClockUnit::Milliseconds).unwrap();
        assert_eq!((s.white_ms, s.black_ms), (59_876, 60_000));
    }

    #[test]
    fn lost_castling_rook_is_dropped() {
        let line = "<12> rnbqkbn- pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 1 A B 0 1 0 39 34 60 60 5 none (0:00) none 0";
        let s = Style12::parse(line, ClockUnit::Seconds).unwrap();
        assert!(s.fen().contains(" w KQq - "));
        assert!(s.position().is_ok());
    }

    #[test]
    fn errors_name_the_field() {
        let bad = START.replace(" W -1 ", " X -1 ");
        let e = Style12::parse(&bad, ClockUnit::Seconds).unwrap_err();
        assert!(e.to_string().contains("side to move"), "{e}");
        let bad = START.replace("PPPPPPPP RNBQKBNR", "PPPPPPPP RNBQKBN");
        let e = Style12::parse(&bad, ClockUnit::Seconds).unwrap_err();
        assert!(e.to_string().contains("rank 1"), "{e}");
        let bad = START.replace(" 60 60 ", " 60 sixty ");
        let e = Style12::parse(&bad, ClockUnit::Seconds).unwrap_err();
        assert!(e.to_string().contains("black clock"), "{e}");
        let bad = START.replace(" 60 60 ", " 60 99999999999999999999 ");
        assert!(Style12::parse(&bad, ClockUnit::Seconds).is_err());
    }

    #[test]
    fn every_truncation_is_an_error_or_a_board_never_a_panic() {
        for cut in 0..=START.len() {
            let _ = Style12::parse(&START[..cut], ClockUnit::Seconds);
        }
        let words: Vec<&str> = START.split(' ').collect();
        for n in 0..words.len() {
            let r = Style12::parse(&words[..n].join(" "), ClockUnit::Seconds);
            assert_eq!(r.is_ok(), n >= 31, "{n} words");
        }
    }

    #[test]
    fn garbage_and_huge_lines() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let alphabet = b"<12> -PpNnBbRrQqKk0123456789WB()/:.none\xff";
        for _ in 0..5000 {
            let mut s = String::from("<12> ");
            for _ in 0..(seed % 200) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push(alphabet[(seed % alphabet.len() as u64) as usize] as char);
            }
            let _ = Style12::parse(&s, ClockUnit::Seconds);
        }
        // Fields past the lag are for newer servers: ignored, however long.
        let huge = format!("{START} {}", "x".repeat(1 << 20));
        assert!(Style12::parse(&huge, ClockUnit::Seconds).is_ok());
        let huge = format!("<12> {}", "-".repeat(1 << 20));
        let e = Style12::parse(&huge, ClockUnit::Seconds).unwrap_err();
        assert!(e.to_string().len() < 400);
    }
}
