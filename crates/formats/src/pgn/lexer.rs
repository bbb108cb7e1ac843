//! PGN tokens from any `BufRead`, one line in memory at a time (plus a comment that spans
//! lines): tag pairs, comments, move numbers, SAN, NAGs, parentheses and results.
//!
//! Lines that are not UTF-8 are read as Latin-1 (ISO-8859-1, the PGN standard's charset),
//! so tokens are always `&str`. A UTF-8 byte-order mark and `\r` are ignored; lines
//! starting with `%` are skipped, as the standard says.

use super::GameResult;
use std::io::BufRead;

/// A token; text is fetched from the lexer by range, so a token is plain data.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Tok {
    /// `[Name "value"]`: name range in the line; value in `Lexer::text`.
    Tag {
        name: (usize, usize),
    },
    /// `{...}` or `;...`: the text in `Lexer::text`.
    Comment,
    /// SAN (or whatever stands where a move should): a range in the line.
    San(usize, usize),
    Nag(u8),
    Open,
    Close,
    Result(GameResult),
    Eof,
}

/// Where a token starts (1-based line, byte offset into that line).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Mark {
    pub line: usize,
    pub offset: usize,
}

/// A syntax error found while lexing.
#[derive(Debug)]
pub(crate) enum LexError {
    Syntax(Mark, String),
    Io(std::io::Error),
}

pub(crate) struct Lexer<R> {
    src: R,
    raw: Vec<u8>,
    line: String,
    /// Byte offset of the next unread character in `line`.
    pos: usize,
    line_no: usize,
    eof: bool,
    /// Decoded tag value or comment of the last token.
    pub text: String,
    pub bytes: u64,
    /// Start of the last token.
    pub mark: Mark,
    /// Start of the line of the last token, kept for error columns.
    mark_line: String,
}

impl<R: BufRead> Lexer<R> {
    pub fn new(src: R) -> Lexer<R> {
        Lexer {
            src,
            raw: Vec::with_capacity(256),
            line: String::with_capacity(256),
            pos: 0,
            line_no: 0,
            eof: false,
            text: String::new(),
            bytes: 0,
            mark: Mark::default(),
            mark_line: String::new(),
        }
    }

    pub fn slice(&self, (a, b): (usize, usize)) -> &str {
        &self.line[a..b]
    }

    /// Character column (1-based) of a mark on the current line; a byte count otherwise.
    pub fn column(&self, mark: Mark) -> usize {
        let line = if mark.line == self.line_no {
            &self.line
        } else {
            &self.mark_line
        };
        match line.get(..mark.offset) {
            Some(prefix) => prefix.chars().count() + 1,
            None => mark.offset + 1,
        }
    }

    /// Lines read so far.
    pub fn lines_read(&self) -> usize {
        self.line_no
    }

    /// Puts the last token back (only a tag, which is never split across lines).
    pub fn unread(&mut self, mark: Mark) {
        debug_assert_eq!(mark.line, self.line_no);
        self.pos = mark.offset;
    }

    /// Reads the next line; false at the end of input.
    fn next_line(&mut self) -> Result<bool, LexError> {
        if self.eof {
            return Ok(false);
        }
        self.raw.clear();
        let n = match self.src.read_until(b'\n', &mut self.raw) {
            Ok(n) => n,
            // A read error ends the input: retrying would meet it again (reading a
            // directory fails the same way for ever), so it is reported once and the
            // reader stops there.
            Err(e) => {
                self.eof = true;
                self.line.clear();
                self.pos = 0;
                return Err(LexError::Io(e));
            }
        };
        if n == 0 {
            self.eof = true;
            self.line.clear();
            self.pos = 0;
            return Ok(false);
        }
        self.bytes += n as u64;
        self.line_no += 1;
        // The bytes become the line without a copy when they are UTF-8 (the two buffers
        // trade places, so neither is allocated again).
        let raw = std::mem::take(&mut self.raw);
        match String::from_utf8(raw) {
            Ok(line) => self.raw = std::mem::replace(&mut self.line, line).into_bytes(),
            Err(e) => {
                // Latin-1: every byte is the code point of the same value.
                self.raw = e.into_bytes();
                self.line.clear();
                self.line.extend(self.raw.iter().map(|&b| b as char));
            }
        }
        self.pos = if self.line_no == 1 && self.line.starts_with('\u{feff}') {
            3
        } else {
            0
        };
        if self.line[self.pos..].starts_with('%') {
            self.pos = self.line.len();
        }
        Ok(true)
    }

    fn error(&self, offset: usize, msg: String) -> LexError {
        LexError::Syntax(
            Mark {
                line: self.line_no,
                offset,
            },
            msg,
        )
    }

    /// The next token.
    pub fn next(&mut self) -> Result<Tok, LexError> {
        loop {
            let bytes = self.line.as_bytes();
            while self.pos < bytes.len() && is_space(bytes[self.pos]) {
                self.pos += 1;
            }
            if self.pos >= bytes.len() {
                if !self.next_line()? {
                    self.mark = Mark {
                        line: self.line_no + 1,
                        offset: 0,
                    };
                    return Ok(Tok::Eof);
                }
                continue;
            }
            let start = self.pos;
            self.mark = Mark {
                line: self.line_no,
                offset: start,
            };
            let c = bytes[start];
            match c {
                b'[' => return self.tag(),
                b'{' => return self.brace_comment(),
                b';' => {
                    self.text.clear();
                    self.text.push_str(self.line[start + 1..].trim_end());
                    self.pos = self.line.len();
                    return Ok(Tok::Comment);
                }
                b'(' => {
                    self.pos += 1;
                    return Ok(Tok::Open);
                }
                b')' => {
                    self.pos += 1;
                    return Ok(Tok::Close);
                }
                b'}' => {
                    self.pos += 1;
                    return Err(self.error(start, "'}' without a matching '{'".into()));
                }
                b']' => {
                    self.pos += 1;
                    return Err(self.error(start, "']' outside a tag pair".into()));
                }
                b'$' => return self.nag(),
                _ => {}
            }
            // A symbol: up to the next delimiter.
            let mut end = start;
            while end < bytes.len() && !is_delimiter(bytes[end]) {
                end += 1;
            }
            if c.is_ascii_digit() {
                let mut d = start;
                while d < end && bytes[d].is_ascii_digit() {
                    d += 1;
                }
                if d < end && bytes[d] == b'.' {
                    // A move number; what follows the dots (`12.Nf3`) is the next token.
                    while d < end && bytes[d] == b'.' {
                        d += 1;
                    }
                    self.pos = d;
                    continue;
                }
            }
            self.pos = end;
            let sym = &self.line[start..end];
            if matches!(c, b'0' | b'1' | b'*' | 0xc2) {
                if let Some(result) = GameResult::from_token(sym) {
                    return Ok(Tok::Result(result));
                }
            }
            // Dots alone, and `e.p.` written apart from its capture, carry no move.
            if sym.bytes().all(|b| b == b'.') || sym == "e.p." {
                continue;
            }
            // Suffix annotations (`e4!?`) become NAGs; put them back as their own token.
            if !matches!(bytes[end - 1], b'!' | b'?') {
                return Ok(Tok::San(start, end));
            }
            let body = sym.trim_end_matches(['!', '?']);
            if body.len() < sym.len() && !body.is_empty() {
                self.pos = start + body.len();
                return Ok(Tok::San(start, self.pos));
            }
            if body.is_empty() {
                return match suffix_nag(sym) {
                    Some(n) => Ok(Tok::Nag(n)),
                    None => Err(self.error(
                        start,
                        format!("'{sym}' is not a move annotation (!, ?, !!, ??, !? or ?!)"),
                    )),
                };
            }
            return Ok(Tok::San(start, end));
        }
    }

    fn nag(&mut self) -> Result<Tok, LexError> {
        let start = self.pos;
        let bytes = self.line.as_bytes();
        let mut end = start + 1;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        self.pos = end;
        match self.line[start + 1..end].parse::<u8>() {
            Ok(n) => Ok(Tok::Nag(n)),
            Err(_) => Err(self.error(
                start,
                format!("'{}' is not a NAG ($0 to $255)", &self.line[start..end]),
            )),
        }
    }

    /// `[Name "value"]`, all on one line; `\"` and `\\` escapes in the value.
    fn tag(&mut self) -> Result<Tok, LexError> {
        let start = self.pos;
        let bytes = self.line.as_bytes();
        let mut i = start + 1;
        while i < bytes.len() && is_space(bytes[i]) {
            i += 1;
        }
        let name_start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        let name = (name_start, i);
        if name.0 == name.1 {
            self.pos = self.line.len();
            return Err(self.error(start, "a tag pair needs a name: [Name \"value\"]".into()));
        }
        while i < bytes.len() && is_space(bytes[i]) {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] != b'"' {
            self.pos = self.line.len();
            return Err(self.error(
                i.min(bytes.len()),
                format!(
                    "tag '{}': the value must be a quoted string: [Name \"value\"]",
                    &self.line[name.0..name.1]
                ),
            ));
        }
        i += 1;
        self.text.clear();
        let mut chunk = i;
        loop {
            if i >= bytes.len() {
                self.pos = self.line.len();
                return Err(self.error(
                    start,
                    format!(
                        "tag '{}': the value's closing '\"' is missing",
                        &self.line[name.0..name.1]
                    ),
                ));
            }
            match bytes[i] {
                b'"' => break,
                b'\\' if i + 1 < bytes.len() && matches!(bytes[i + 1], b'"' | b'\\') => {
                    self.text.push_str(&self.line[chunk..i]);
                    chunk = i + 1;
                    i += 2;
                }
                _ => i += 1,
            }
        }
        self.text.push_str(&self.line[chunk..i]);
        i += 1;
        let after_value = i;
        while i < bytes.len() && is_space(bytes[i]) {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] != b']' {
            self.pos = self.line.len();
            return Err(self.error(
                if i >= bytes.len() { after_value } else { i },
                format!(
                    "tag '{}': ']' expected after the value",
                    &self.line[name.0..name.1]
                ),
            ));
        }
        self.pos = i + 1;
        Ok(Tok::Tag { name })
    }

    /// `{...}`, possibly over several lines (joined with a space).
    fn brace_comment(&mut self) -> Result<Tok, LexError> {
        let start_mark = self.mark;
        self.text.clear();
        let mut from = self.pos + 1;
        loop {
            if let Some(close) = self.line[from..].find('}') {
                self.text.push_str(&self.line[from..from + close]);
                self.pos = from + close + 1;
                self.mark = start_mark;
                return Ok(Tok::Comment);
            }
            self.text
                .push_str(self.line[from..].trim_end_matches(['\n', '\r']));
            self.text.push('\n');
            if start_mark.line == self.line_no {
                self.mark_line.clone_from(&self.line);
            }
            if !self.next_line()? {
                self.mark = start_mark;
                return Err(LexError::Syntax(
                    start_mark,
                    "comment '{' is never closed by '}'".into(),
                ));
            }
            if looks_like_tag(&self.line) {
                // The next game has begun: recover there rather than swallow it.
                self.mark = start_mark;
                return Err(LexError::Syntax(
                    start_mark,
                    "comment '{' is not closed by '}' before the next game's tags".into(),
                ));
            }
            from = 0;
        }
    }
}

/// A line that starts with `[Name "`: a tag pair, not comment text.
fn looks_like_tag(line: &str) -> bool {
    let Some(rest) = line.strip_prefix('[') else {
        return false;
    };
    let name_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    name_len > 0
        && rest[name_len..]
            .trim_start_matches([' ', '\t'])
            .starts_with('"')
}

/// Byte classes, looked up once a byte: the token loops run over every byte of a file.
const SPACE: u8 = 1;
const DELIMITER: u8 = 2;
const CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    let spaces = [b' ', b'\t', b'\n', b'\r', 0x0b, 0x0c];
    let mut i = 0;
    while i < spaces.len() {
        class[spaces[i] as usize] = SPACE | DELIMITER;
        i += 1;
    }
    let delimiters = [b'{', b'}', b'(', b')', b';', b'[', b']', b'$'];
    let mut i = 0;
    while i < delimiters.len() {
        class[delimiters[i] as usize] = DELIMITER;
        i += 1;
    }
    class
};

#[inline]
fn is_space(b: u8) -> bool {
    CLASS[b as usize] & SPACE != 0
}

#[inline]
fn is_delimiter(b: u8) -> bool {
    CLASS[b as usize] & DELIMITER != 0
}

/// `!` = $1, `?` = $2, `!!` = $3, `??` = $4, `!?` = $5, `?!` = $6.
pub(crate) fn suffix_nag(s: &str) -> Option<u8> {
    Some(match s {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}
