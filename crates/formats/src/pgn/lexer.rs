//! PGN tokens from any `BufRead`: tag pairs, comments, move numbers, SAN, NAGs,
//! parentheses and results.
//!
//! The input is read in large chunks into one buffer that always holds the whole current
//! line; tokens are ranges of that buffer, borrowed rather than copied. Text is decoded
//! only where it is handed out: a line that is not UTF-8 is read as Latin-1 (ISO-8859-1,
//! the PGN standard's charset), so tokens are always `&str`; ASCII text (nearly all of a
//! real file) is borrowed as it stands. A UTF-8 byte-order mark and `\r` are ignored;
//! lines starting with `%` are skipped, as the standard says.

use super::GameResult;
use memchr::{memchr, memchr2};
use std::io::{BufRead, ErrorKind};

/// A token; its text is fetched from the lexer ([`Lexer::text`], [`Lexer::tag_name`]),
/// so a token is plain data.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Tok {
    /// `[Name "value"]`: the name in `Lexer::tag_name`, the value in `Lexer::text`.
    Tag,
    /// `{...}` or `;...`: the text in `Lexer::text`.
    Comment,
    /// SAN (or whatever stands where a move should): the text in `Lexer::text`.
    San,
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

/// Where the text of the last token is.
#[derive(Clone, Copy, Debug)]
enum Text {
    /// Bytes of the buffer that are valid UTF-8 as they stand (ASCII, or a slice of a
    /// UTF-8 line cut at ASCII characters).
    Buf(usize, usize),
    /// Decoded into `Lexer::decoded`.
    Decoded,
}

/// Bytes asked of the source at a time.
const CHUNK: usize = 1 << 16;

pub(crate) struct Lexer<R> {
    src: R,
    /// `buf[..filled]` holds input; the current line is `buf[line_start..line_end]`.
    buf: Vec<u8>,
    filled: usize,
    line_start: usize,
    /// Just past the current line's `\n` (or the end of the input).
    line_end: usize,
    /// Next unread byte (an index into `buf`, within the current line).
    pos: usize,
    /// Input bytes dropped from the front of `buf` so far.
    discarded: u64,
    line_no: usize,
    /// The source has nothing more (or failed).
    src_done: bool,
    /// The last line has been handed out.
    eof: bool,
    text: Text,
    /// Tag name of the last `Tok::Tag` (ASCII, in the current line).
    name: (usize, usize),
    /// Text that could not be borrowed: decoded from Latin-1, unescaped or joined.
    decoded: String,
    /// Start of the last token.
    pub mark: Mark,
    /// The line where the last multi-line comment started, kept for error columns.
    mark_line: Vec<u8>,
}

impl<R: BufRead> Lexer<R> {
    pub fn new(src: R) -> Lexer<R> {
        Lexer {
            src,
            buf: Vec::new(),
            filled: 0,
            line_start: 0,
            line_end: 0,
            pos: 0,
            discarded: 0,
            line_no: 0,
            src_done: false,
            eof: false,
            text: Text::Decoded,
            name: (0, 0),
            decoded: String::new(),
            mark: Mark::default(),
            mark_line: Vec::new(),
        }
    }

    /// The text of the last tag value, comment or SAN token.
    pub fn text(&self) -> &str {
        match self.text {
            Text::Buf(a, b) => {
                let bytes = &self.buf[a..b];
                debug_assert!(std::str::from_utf8(bytes).is_ok());
                // SAFETY: `Text::Buf` is only set for bytes found to be ASCII or to be a
                // slice, cut at ASCII characters, of a line that is valid UTF-8 (see
                // `set_text` and `next`), and `buf` does not change until the next token.
                // Checking again here took a tenth of the time of reading and replaying
                // comment-heavy files.
                unsafe { std::str::from_utf8_unchecked(bytes) }
            }
            Text::Decoded => &self.decoded,
        }
    }

    /// The name of the last tag pair.
    pub fn tag_name(&self) -> &str {
        let bytes = &self.buf[self.name.0..self.name.1];
        debug_assert!(bytes.iter().all(|&b| is_name(b)));
        // SAFETY: `tag` sets `name` to a run of ASCII letters, digits and '_' (see
        // `is_name`), which is UTF-8. Validating it again cost a tenth of the lexing
        // time of tag-heavy files.
        unsafe { std::str::from_utf8_unchecked(bytes) }
    }

    /// Bytes consumed so far: every line handed out, the current one included.
    pub fn bytes(&self) -> u64 {
        self.discarded + self.line_end as u64
    }

    /// Character column (1-based) of a mark on the current line; a byte count otherwise.
    pub fn column(&self, mark: Mark) -> usize {
        let line = if mark.line == self.line_no {
            &self.buf[self.line_start..self.line_end]
        } else {
            &self.mark_line[..]
        };
        match line.get(..mark.offset) {
            // A UTF-8 line counts characters; a Latin-1 line has one per byte.
            Some(prefix) if std::str::from_utf8(line).is_ok() => {
                match std::str::from_utf8(prefix) {
                    Ok(prefix) => prefix.chars().count() + 1,
                    Err(_) => mark.offset + 1,
                }
            }
            _ => mark.offset + 1,
        }
    }

    /// Lines read so far.
    pub fn lines_read(&self) -> usize {
        self.line_no
    }

    /// Puts the last token back (only a tag, which is never split across lines).
    pub fn unread(&mut self, mark: Mark) {
        debug_assert_eq!(mark.line, self.line_no);
        self.pos = self.line_start + mark.offset;
    }

    /// Moves to the next line, reading more input when the buffer has no whole line
    /// left; false at the end of input.
    fn next_line(&mut self) -> Result<bool, LexError> {
        if self.eof {
            return Ok(false);
        }
        let mut start = self.line_end;
        let mut scan = start;
        let end = loop {
            if let Some(i) = memchr(b'\n', &self.buf[scan..self.filled]) {
                break scan + i + 1;
            }
            if self.src_done {
                if start == self.filled {
                    // The last line stays in view for error columns.
                    self.eof = true;
                    self.pos = self.line_end;
                    return Ok(false);
                }
                break self.filled;
            }
            // Keep the partial line, drop what is before it, and read more.
            self.buf.copy_within(start..self.filled, 0);
            self.discarded += start as u64;
            self.filled -= start;
            scan = self.filled;
            start = 0;
            self.line_start = 0;
            self.line_end = 0;
            self.pos = 0;
            if self.buf.len() < self.filled + CHUNK {
                self.buf.resize(self.filled + CHUNK, 0);
            }
            match self.src.read(&mut self.buf[self.filled..]) {
                Ok(0) => self.src_done = true,
                Ok(n) => self.filled += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                // A read error ends the input: retrying would meet it again (reading a
                // directory fails the same way for ever), so it is reported once and
                // the reader stops there; the part of a line before it is dropped.
                Err(e) => {
                    self.filled = 0;
                    self.src_done = true;
                    self.eof = true;
                    return Err(LexError::Io(e));
                }
            }
        };
        self.line_start = start;
        self.line_end = end;
        self.line_no += 1;
        self.pos = start;
        let line = &self.buf[start..end];
        if self.line_no == 1
            && line.starts_with("\u{feff}".as_bytes())
            && std::str::from_utf8(line).is_ok()
        {
            self.pos += 3;
        }
        if self.buf[self.pos..end].first() == Some(&b'%') {
            self.pos = end;
        }
        Ok(true)
    }

    fn error(&self, at: usize, msg: String) -> LexError {
        LexError::Syntax(
            Mark {
                line: self.line_no,
                offset: at - self.line_start,
            },
            msg,
        )
    }

    /// Whether the current line is UTF-8 (else it is read as Latin-1).
    fn line_is_utf8(&self) -> bool {
        std::str::from_utf8(&self.buf[self.line_start..self.line_end]).is_ok()
    }

    /// Makes `buf[a..b]` (of the current line, cut at ASCII characters) the token text:
    /// borrowed when it is ASCII or the line is UTF-8, decoded from Latin-1 otherwise.
    fn set_text(&mut self, a: usize, b: usize) {
        if self.buf[a..b].is_ascii() || self.line_is_utf8() {
            self.text = Text::Buf(a, b);
        } else {
            self.decoded.clear();
            push_latin1(&mut self.decoded, &self.buf[a..b]);
            self.text = Text::Decoded;
        }
    }

    /// Appends `buf[a..b]` of the current line, decoded, to `decoded`.
    fn push_decoded(&mut self, a: usize, b: usize) {
        let bytes = &self.buf[a..b];
        match std::str::from_utf8(bytes) {
            Ok(s) if bytes.is_ascii() || self.line_is_utf8() => self.decoded.push_str(s),
            _ => push_latin1(&mut self.decoded, bytes),
        }
    }

    /// The next token.
    pub fn next(&mut self) -> Result<Tok, LexError> {
        loop {
            let end_of_line = self.line_end;
            let mut pos = self.pos;
            while pos < end_of_line && is_space(self.buf[pos]) {
                pos += 1;
            }
            self.pos = pos;
            if pos >= end_of_line {
                if !self.next_line()? {
                    self.mark = Mark {
                        line: self.line_no + 1,
                        offset: 0,
                    };
                    return Ok(Tok::Eof);
                }
                continue;
            }
            let start = pos;
            self.mark = Mark {
                line: self.line_no,
                offset: start - self.line_start,
            };
            let c = self.buf[start];
            match c {
                b'[' => return self.tag(),
                b'{' => return self.brace_comment(),
                b';' => {
                    let end = self.line_end;
                    self.set_text(start + 1, end);
                    let trimmed = self.text().trim_end().len();
                    match self.text {
                        Text::Buf(a, _) => self.text = Text::Buf(a, a + trimmed),
                        Text::Decoded => self.decoded.truncate(trimmed),
                    }
                    self.pos = end;
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
            let mut high = 0u8;
            while end < end_of_line && !is_delimiter(self.buf[end]) {
                high |= self.buf[end];
                end += 1;
            }
            if c.is_ascii_digit() {
                let bytes = &self.buf[..end];
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
            if high >= 0x80 {
                return self.non_ascii_symbol(start, end);
            }
            let sym = &self.buf[start..end];
            if matches!(c, b'0' | b'1' | b'*') {
                if let Some(result) = result_token(sym) {
                    return Ok(Tok::Result(result));
                }
            }
            // Dots alone, and `e.p.` written apart from its capture, carry no move.
            if (c == b'.' && sym.iter().all(|&b| b == b'.')) || (c == b'e' && sym == b"e.p.") {
                continue;
            }
            // Suffix annotations (`e4!?`) become NAGs; put them back as their own token.
            let mut body_end = end;
            while body_end > start && matches!(self.buf[body_end - 1], b'!' | b'?') {
                body_end -= 1;
            }
            if body_end == start {
                return self.suffix_nag_token(start, end);
            }
            self.pos = body_end;
            self.text = Text::Buf(start, body_end);
            return Ok(Tok::San);
        }
    }

    /// A symbol with bytes above ASCII: decoded first, then read as an ASCII one is.
    #[cold]
    fn non_ascii_symbol(&mut self, start: usize, end: usize) -> Result<Tok, LexError> {
        self.decoded.clear();
        self.push_decoded(start, end);
        let sym = self.decoded.as_str();
        if let Some(result) = GameResult::from_token(sym) {
            return Ok(Tok::Result(result));
        }
        // Suffix annotations are ASCII: as long in the input as in the text.
        let body_len = sym.trim_end_matches(['!', '?']).len();
        if body_len == 0 {
            return self.suffix_nag_token(start, end);
        }
        self.pos = end - (sym.len() - body_len);
        self.decoded.truncate(body_len);
        self.text = Text::Decoded;
        Ok(Tok::San)
    }

    /// A symbol of `!` and `?` alone: a NAG, or an error.
    fn suffix_nag_token(&self, start: usize, end: usize) -> Result<Tok, LexError> {
        // `!` and `?` only: ASCII.
        let sym = std::str::from_utf8(&self.buf[start..end]).unwrap_or("");
        match suffix_nag(sym) {
            Some(n) => Ok(Tok::Nag(n)),
            None => Err(self.error(
                start,
                format!("'{sym}' is not a move annotation (!, ?, !!, ??, !? or ?!)"),
            )),
        }
    }

    fn nag(&mut self) -> Result<Tok, LexError> {
        let start = self.pos;
        let bytes = &self.buf[..self.line_end];
        let mut end = start + 1;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        self.pos = end;
        // `$` and digits: ASCII.
        let digits = std::str::from_utf8(&bytes[start + 1..end]).unwrap_or("");
        match digits.parse::<u8>() {
            Ok(n) => Ok(Tok::Nag(n)),
            Err(_) => Err(self.error(start, format!("'${digits}' is not a NAG ($0 to $255)"))),
        }
    }

    /// `[Name "value"]`, all on one line; `\"` and `\\` escapes in the value.
    fn tag(&mut self) -> Result<Tok, LexError> {
        let start = self.pos;
        let line_end = self.line_end;
        let bytes = &self.buf[..line_end];
        let mut i = start + 1;
        while i < line_end && is_space(bytes[i]) {
            i += 1;
        }
        let name_start = i;
        while i < line_end && is_name(bytes[i]) {
            i += 1;
        }
        self.name = (name_start, i);
        if name_start == i {
            self.pos = line_end;
            return Err(self.error(start, "a tag pair needs a name: [Name \"value\"]".into()));
        }
        while i < line_end && is_space(bytes[i]) {
            i += 1;
        }
        if i >= line_end || bytes[i] != b'"' {
            self.pos = line_end;
            return Err(self.error(
                i.min(line_end),
                format!(
                    "tag '{}': the value must be a quoted string: [Name \"value\"]",
                    self.tag_name()
                ),
            ));
        }
        i += 1;
        let value_start = i;
        let mut escaped = false;
        loop {
            // Values run to tens of bytes: a vector search beats a byte loop.
            let Some(at) = memchr2(b'"', b'\\', &bytes[i..]) else {
                self.pos = line_end;
                return Err(self.error(
                    start,
                    format!(
                        "tag '{}': the value's closing '\"' is missing",
                        self.tag_name()
                    ),
                ));
            };
            i += at;
            match bytes[i] {
                b'"' => break,
                _ if i + 1 < line_end && matches!(bytes[i + 1], b'"' | b'\\') => {
                    escaped = true;
                    i += 2;
                }
                _ => i += 1,
            }
        }
        let value_end = i;
        i += 1;
        let after_value = i;
        while i < line_end && is_space(bytes[i]) {
            i += 1;
        }
        if i >= line_end || bytes[i] != b']' {
            self.pos = line_end;
            return Err(self.error(
                if i >= line_end { after_value } else { i },
                format!("tag '{}': ']' expected after the value", self.tag_name()),
            ));
        }
        self.pos = i + 1;
        if !escaped {
            self.set_text(value_start, value_end);
        } else {
            self.decoded.clear();
            let mut chunk = value_start;
            let mut j = value_start;
            while j < value_end {
                if self.buf[j] == b'\\' && matches!(self.buf[j + 1], b'"' | b'\\') {
                    self.push_decoded(chunk, j);
                    chunk = j + 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            self.push_decoded(chunk, value_end);
            self.text = Text::Decoded;
        }
        Ok(Tok::Tag)
    }

    /// `{...}`, possibly over several lines (joined with a newline).
    fn brace_comment(&mut self) -> Result<Tok, LexError> {
        let start_mark = self.mark;
        let from = self.pos + 1;
        if let Some(close) = memchr(b'}', &self.buf[from..self.line_end]) {
            self.set_text(from, from + close);
            self.pos = from + close + 1;
            return Ok(Tok::Comment);
        }
        self.decoded.clear();
        let mut from = from;
        loop {
            let end = self.line_end;
            if let Some(close) = memchr(b'}', &self.buf[from..end]) {
                self.push_decoded(from, from + close);
                self.pos = from + close + 1;
                self.mark = start_mark;
                self.text = Text::Decoded;
                return Ok(Tok::Comment);
            }
            let mut content_end = end;
            while content_end > from && matches!(self.buf[content_end - 1], b'\n' | b'\r') {
                content_end -= 1;
            }
            self.push_decoded(from, content_end);
            self.decoded.push('\n');
            if start_mark.line == self.line_no {
                self.mark_line.clear();
                self.mark_line
                    .extend_from_slice(&self.buf[self.line_start..self.line_end]);
            }
            self.pos = end;
            if !self.next_line()? {
                self.mark = start_mark;
                return Err(LexError::Syntax(
                    start_mark,
                    "comment '{' is never closed by '}'".into(),
                ));
            }
            if looks_like_tag(&self.buf[self.line_start..self.line_end]) {
                // The next game has begun: recover there rather than swallow it.
                self.mark = start_mark;
                return Err(LexError::Syntax(
                    start_mark,
                    "comment '{' is not closed by '}' before the next game's tags".into(),
                ));
            }
            from = self.line_start;
        }
    }
}

/// A termination marker in ASCII (`1-0`, `0-1`, `1/2-1/2`, `*`).
fn result_token(sym: &[u8]) -> Option<GameResult> {
    Some(match sym {
        b"1-0" => GameResult::WhiteWins,
        b"0-1" => GameResult::BlackWins,
        b"1/2-1/2" => GameResult::Draw,
        b"*" => GameResult::Unknown,
        _ => return None,
    })
}

/// Appends Latin-1 bytes: every byte is the code point of the same value.
fn push_latin1(out: &mut String, bytes: &[u8]) {
    out.extend(bytes.iter().map(|&b| b as char));
}

/// A line that starts with `[Name "`: a tag pair, not comment text.
fn looks_like_tag(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"[") else {
        return false;
    };
    let name_len = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    name_len > 0
        && rest[name_len..]
            .iter()
            .find(|b| !matches!(b, b' ' | b'\t'))
            .is_some_and(|&b| b == b'"')
}

/// Byte classes, looked up once a byte: the token loops run over every byte of a file.
const SPACE: u8 = 1;
const DELIMITER: u8 = 2;
/// Letters, digits and `_`: what a tag name is made of.
const NAME: u8 = 4;
const CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        if (b as u8).is_ascii_alphanumeric() || b == b'_' as usize {
            class[b] = NAME;
        }
        b += 1;
    }
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
fn is_name(b: u8) -> bool {
    CLASS[b as usize] & NAME != 0
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
