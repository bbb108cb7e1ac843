//! The server's byte stream cut into what the client reads, [`Incoming`]: lines (a
//! prompt that waits without a newline too; an over-long line cut and reported) and, in
//! FICS's block mode (`iset block 1`), the replies to our commands. The server frames
//! each reply as `BLOCK_START id BLOCK_SEPARATOR code BLOCK_SEPARATOR output BLOCK_END`
//! (bytes 0x15, 0x16, 0x16, 0x17; `id` is the number we put before the command, `code`
//! says which command it was or why it failed, `output` is every line the command
//! caused, boards and game ends included). What the server sends on its own (the
//! opponent's boards, challenges, tells) comes between replies, unframed.
//! `BLOCK_POSE_START`/`BLOCK_POSE_END` (0x18, 0x19) mark items embedded in the output;
//! they end a line and are dropped.
//!
//! Framing that breaks is reported as [`Incoming::BadFrame`] and what the block held is
//! handed on as plain lines, so nothing the server said is lost: a block with no end
//! (the next block begins, or [`BLOCK_TIMEOUT`] passes, or it grows past [`MAX_BLOCK`]
//! bytes, which are dropped), a header without a numeric id and code, a separator or
//! end byte outside a block. No block control byte ever reaches a line. The framing is
//! always on: those bytes have no other use in the protocol, and a server that never
//! took block mode never sends them. Also the command codes' names, for the log.

use std::time::{Duration, Instant};

pub const BLOCK_START: u8 = 0x15;
pub const BLOCK_SEPARATOR: u8 = 0x16;
pub const BLOCK_END: u8 = 0x17;
pub const BLOCK_POSE_START: u8 = 0x18;
pub const BLOCK_POSE_END: u8 = 0x19;

/// The longest line kept; the rest of a longer one is dropped (and reported).
pub const MAX_LINE: usize = 64 * 1024;

/// The most a block may hold before it is taken for one whose end was lost.
pub const MAX_BLOCK: usize = 1 << 20;

/// How long a block may stay open. The server writes a reply at once, so a block still
/// open after this lost its end; the lines it swallowed (boards among them) are handed
/// on then rather than held until the next reply.
pub const BLOCK_TIMEOUT: Duration = Duration::from_secs(2);

/// The codes of the replies the client looks at (FICS's `help block_codes`).
pub const BLK_GAME_MOVE: u32 = 1;
pub const BLK_ERROR_NOSEQUENCE: u32 = 519;

/// The name of a reply code, for the log.
///
/// ```
/// assert_eq!(sable_ics::framing::code_name(513), "BLK_ERROR_BADPARAMS");
/// assert_eq!(sable_ics::framing::code_name(73), "BLK_MATCH");
/// ```
pub fn code_name(code: u32) -> &'static str {
    match code {
        0 => "BLK_NULL",
        1 => "BLK_GAME_MOVE",
        10 => "BLK_ABORT",
        11 => "BLK_ACCEPT",
        32 => "BLK_DATE",
        33 => "BLK_DECLINE",
        34 => "BLK_DRAW",
        38 => "BLK_FLAG",
        56 => "BLK_ISET",
        73 => "BLK_MATCH",
        97 => "BLK_QUIT",
        101 => "BLK_REFRESH",
        103 => "BLK_RESIGN",
        104 => "BLK_RESUME",
        109 => "BLK_SET",
        132 => "BLK_TELL",
        155 => "BLK_SEEK",
        156 => "BLK_UNSEEK",
        512 => "BLK_ERROR_BADCOMMAND",
        513 => "BLK_ERROR_BADPARAMS",
        514 => "BLK_ERROR_AMBIGUOUS",
        515 => "BLK_ERROR_RIGHTS",
        516 => "BLK_ERROR_OBSOLETE",
        517 => "BLK_ERROR_REMOVED",
        518 => "BLK_ERROR_NOTPLAYING",
        519 => "BLK_ERROR_NOSEQUENCE",
        520 => "BLK_ERROR_LENGTH",
        _ => "a command code",
    }
}

/// What the reader hands over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes: its first bytes and its length.
    Overlong {
        start: String,
        len: usize,
    },
    /// A command's reply in block mode.
    Reply(Reply),
    /// Block framing that broke, and how; what the block held follows as lines.
    BadFrame(String),
    /// The server closed the connection, or reading failed (the reason).
    Closed(String),
}

/// One block: the reply to the command we sent with `id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub id: u32,
    pub code: u32,
    /// The command sent with this id (the connection fills it in; `None`: an id we
    /// did not send, or one already answered).
    pub command: Option<String>,
    /// The command's output, [`Incoming::Line`]s and [`Incoming::Overlong`]s in order.
    pub body: Vec<Incoming>,
}

/// Whether a line held without its newline is a prompt waiting for us.
fn is_prompt(pending: &[u8]) -> bool {
    let text = String::from_utf8_lossy(pending);
    let t = text.trim_end();
    t.ends_with("login:")
        || t.ends_with("password:")
        || t.ends_with("fics%")
        || (t.contains("Press return") && t.ends_with("\":"))
}

/// Bytes to lines.
#[derive(Default)]
struct Lines {
    pending: Vec<u8>,
    /// Bytes of an over-long line thrown away so far.
    dropped: usize,
    /// Block control bytes dropped from the line being read.
    stray: usize,
}

impl Lines {
    fn push(&mut self, b: u8, out: &mut Vec<Incoming>) {
        match b {
            b'\n' | BLOCK_POSE_START | BLOCK_POSE_END => self.end_line(out, b == b'\n'),
            BLOCK_START | BLOCK_SEPARATOR | BLOCK_END => self.stray += 1,
            _ if self.pending.len() < MAX_LINE => self.pending.push(b),
            _ => self.dropped += 1,
        }
    }

    /// Hands on the line read so far (an empty one only at a newline).
    fn end_line(&mut self, out: &mut Vec<Incoming>, newline: bool) {
        if self.stray > 0 {
            out.push(Incoming::BadFrame(format!(
                "{} block control byte(s) where no block was open, dropped from a line",
                self.stray
            )));
            self.stray = 0;
        }
        if self.dropped > 0 {
            let start =
                String::from_utf8_lossy(&self.pending[..self.pending.len().min(80)]).into_owned();
            out.push(Incoming::Overlong {
                start,
                len: self.dropped + self.pending.len(),
            });
        } else if newline || !self.pending.is_empty() {
            let line = String::from_utf8_lossy(&self.pending)
                .trim_end_matches(['\r', '\n'])
                .to_string();
            out.push(Incoming::Line(line));
        }
        self.dropped = 0;
        self.pending.clear();
    }

    /// At the end of what the socket gave: a prompt that waits for us is handed on.
    fn flush_prompt(&mut self, out: &mut Vec<Incoming>) {
        if self.dropped == 0 && !self.pending.is_empty() && is_prompt(&self.pending) {
            self.end_line(out, false);
        }
    }

    /// Hands on whatever is held (the end of a block's output, text before a block);
    /// the `\r` of a `\n\r` line end is not a line.
    fn flush(&mut self, out: &mut Vec<Incoming>) {
        if self.pending.iter().all(|&b| b == b'\r') && self.dropped == 0 && self.stray == 0 {
            self.pending.clear();
            return;
        }
        self.end_line(out, false);
    }
}

/// A block being read: its bytes after `BLOCK_START`, and when it began.
struct Open {
    raw: Vec<u8>,
    since: Instant,
}

/// The lines of bytes that were to be a block's. A separator ends a line, so that a
/// board after a broken header is still a board.
fn loose(raw: &[u8]) -> Vec<Incoming> {
    let mut lines = Lines::default();
    let mut out = Vec::new();
    for &b in raw {
        if b == BLOCK_SEPARATOR {
            lines.flush(&mut out);
        } else {
            lines.push(b, &mut out);
        }
    }
    lines.flush(&mut out);
    out
}

/// The start of a block's bytes, printable, for the log.
fn excerpt(raw: &[u8]) -> String {
    String::from_utf8_lossy(&raw[..raw.len().min(40)])
        .chars()
        .map(|c| if c.is_control() { '|' } else { c })
        .collect()
}

/// A whole block (the bytes between `BLOCK_START` and `BLOCK_END`) read.
fn close(raw: &[u8]) -> Vec<Incoming> {
    let mut parts = raw.splitn(3, |&b| b == BLOCK_SEPARATOR);
    let number = |p: Option<&[u8]>| {
        p.and_then(|p| std::str::from_utf8(p).ok())
            .filter(|s| !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|s| s.parse::<u32>().ok())
    };
    let (id, code, body) = (number(parts.next()), number(parts.next()), parts.next());
    let (Some(id), Some(code), Some(body)) = (id, code, body) else {
        let mut out = vec![Incoming::BadFrame(format!(
            "a block without a numeric id and code ('{}'); its lines are read as plain text",
            excerpt(raw)
        ))];
        out.extend(loose(raw));
        return out;
    };
    let mut lines = Lines::default();
    let mut items = Vec::new();
    for &b in body {
        lines.push(b, &mut items);
    }
    lines.flush(&mut items);
    // A stray separator in the output is reported by the lines as a BadFrame: it goes
    // before the reply, which keeps only lines.
    let (bad, body): (Vec<_>, Vec<_>) = items
        .into_iter()
        .partition(|i| matches!(i, Incoming::BadFrame(_)));
    let mut out: Vec<Incoming> = bad
        .into_iter()
        .map(|_| {
            Incoming::BadFrame(format!(
                "block #{id}: a stray control byte in its output, dropped"
            ))
        })
        .collect();
    out.push(Incoming::Reply(Reply {
        id,
        code,
        command: None,
        body,
    }));
    out
}

/// The stream's state: the text between blocks, and the block being read.
#[derive(Default)]
pub struct Framer {
    text: Lines,
    block: Option<Open>,
}

impl Framer {
    /// Reads what the socket gave at `now`.
    ///
    /// ```
    /// use sable_ics::framing::{Framer, Incoming};
    /// let mut f = Framer::default();
    /// let out = f.feed(b"\x157\x1673\x16Issuing a match.\n\r\x17\nfics% ", std::time::Instant::now());
    /// match &out[0] {
    ///     Incoming::Reply(r) => {
    ///         assert_eq!((r.id, r.code), (7, 73));
    ///         assert_eq!(r.body, vec![Incoming::Line("Issuing a match.".into())]);
    ///     }
    ///     other => panic!("{other:?}"),
    /// }
    /// assert_eq!(out[2], Incoming::Line("fics% ".into()));
    /// ```
    pub fn feed(&mut self, data: &[u8], now: Instant) -> Vec<Incoming> {
        let mut out = Vec::new();
        for &b in data {
            match &mut self.block {
                None if b == BLOCK_START => {
                    // A prompt the server printed before the reply.
                    self.text.flush(&mut out);
                    self.block = Some(Open {
                        raw: Vec::new(),
                        since: now,
                    });
                }
                None => self.text.push(b, &mut out),
                Some(open) if b == BLOCK_END => {
                    out.extend(close(&open.raw));
                    self.block = None;
                }
                Some(open) if b == BLOCK_START => {
                    out.push(Incoming::BadFrame(format!(
                        "a block ('{}') had no end before the next began; its lines are read as plain text",
                        excerpt(&open.raw)
                    )));
                    out.extend(loose(&open.raw));
                    open.raw.clear();
                    open.since = now;
                }
                Some(open) if open.raw.len() >= MAX_BLOCK => {
                    out.push(Incoming::BadFrame(format!(
                        "a block ('{}') of over {MAX_BLOCK} bytes with no end; dropped",
                        excerpt(&open.raw)
                    )));
                    self.block = None;
                    self.text.push(b, &mut out);
                }
                Some(open) => open.raw.push(b),
            }
        }
        if self.block.is_none() {
            self.text.flush_prompt(&mut out);
        }
        out
    }

    /// Gives up on a block that stayed open past [`BLOCK_TIMEOUT`] (called when the
    /// socket has been quiet a while, and with every read).
    pub fn tick(&mut self, now: Instant) -> Vec<Incoming> {
        match &self.block {
            Some(open) if now.saturating_duration_since(open.since) >= BLOCK_TIMEOUT => {
                let mut out = vec![Incoming::BadFrame(format!(
                    "a block ('{}') had no end after {} ms; its lines are read as plain text",
                    excerpt(&open.raw),
                    BLOCK_TIMEOUT.as_millis()
                ))];
                out.extend(loose(&open.raw));
                self.block = None;
                out
            }
            _ => Vec::new(),
        }
    }

    /// Whether a block is being read.
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(items: &[Incoming]) -> Vec<String> {
        items
            .iter()
            .filter_map(|i| match i {
                Incoming::Line(l) => Some(l.clone()),
                _ => None,
            })
            .collect()
    }

    fn bad(items: &[Incoming]) -> usize {
        items
            .iter()
            .filter(|i| matches!(i, Incoming::BadFrame(_)))
            .count()
    }

    fn no_control_bytes(items: &[Incoming]) {
        let check = |s: &str| {
            assert!(
                !s.bytes()
                    .any(|b| (BLOCK_START..=BLOCK_POSE_END).contains(&b)),
                "{s:?}"
            )
        };
        for i in items {
            match i {
                Incoming::Line(l) => check(l),
                Incoming::Overlong { start, .. } => check(start),
                Incoming::Reply(r) => no_control_bytes(&r.body),
                _ => {}
            }
        }
    }

    const BOARD: &str = "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 5 A B 1 1 0 39 39 60 60 1 none (0:00) none 0 0 0";

    #[test]
    fn replies_and_unframed_lines_between_them() {
        let t0 = Instant::now();
        let stream = format!(
            "{BOARD}\n\rfics% \x155\x161\x16{BOARD}\n\r\x17\n\rfics% Ann tells you: hi\n\r\x156\x16512\x16foo: Command not found.\n\r\x17\n\rfics% "
        );
        // Whatever the chunks the socket cuts it into, the same items come out.
        let whole = Framer::default().feed(stream.as_bytes(), t0);
        for cut in 1..stream.len() {
            let mut f = Framer::default();
            let mut got = f.feed(&stream.as_bytes()[..cut], t0);
            got.extend(f.feed(&stream.as_bytes()[cut..], t0));
            // A prompt that ends a chunk is handed on by itself: compare the text.
            let strip = |v: &[Incoming]| {
                v.iter()
                    .filter_map(|i| match i {
                        Incoming::Line(l) => {
                            let t = crate::messages::clean(l).trim();
                            (!t.is_empty()).then(|| Incoming::Line(t.to_string()))
                        }
                        other => Some(other.clone()),
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(strip(&got), strip(&whole), "cut at {cut}");
        }
        let replies: Vec<&Reply> = whole
            .iter()
            .filter_map(|i| match i {
                Incoming::Reply(r) => Some(r),
                _ => None,
            })
            .collect();
        assert_eq!(replies.len(), 2);
        assert_eq!((replies[0].id, replies[0].code), (5, BLK_GAME_MOVE));
        assert_eq!(lines(&replies[0].body)[0], BOARD);
        assert_eq!((replies[1].id, replies[1].code), (6, 512));
        assert_eq!(lines(&replies[1].body)[0], "foo: Command not found.");
        let text = lines(&whole);
        assert_eq!(text[0], BOARD);
        assert!(text.iter().any(|l| l.contains("Ann tells you: hi")));
        assert_eq!(bad(&whole), 0);
        no_control_bytes(&whole);
    }

    #[test]
    fn a_block_without_its_end_is_given_up_and_its_lines_kept() {
        let t0 = Instant::now();
        // The next block begins: the first is reported and its lines handed on.
        let mut f = Framer::default();
        let out = f.feed(
            format!("\x153\x161\x16{BOARD}\n\x154\x16109\x16style set.\n\x17\n").as_bytes(),
            t0,
        );
        assert_eq!(bad(&out), 1, "{out:?}");
        assert!(lines(&out).iter().any(|l| l == BOARD), "{out:?}");
        assert!(out
            .iter()
            .any(|i| matches!(i, Incoming::Reply(r) if r.id == 4)));
        no_control_bytes(&out);
        // Nothing follows: the clock gives it up.
        let mut f = Framer::default();
        let out = f.feed(format!("\x153\x161\x16{BOARD}\nmore\n").as_bytes(), t0);
        assert!(out.is_empty() && f.in_block());
        assert!(f.tick(t0 + BLOCK_TIMEOUT / 2).is_empty());
        let out = f.tick(t0 + BLOCK_TIMEOUT);
        assert_eq!(bad(&out), 1);
        // The header's parts come as lines of their own, before the board.
        assert!(lines(&out).ends_with(&[BOARD.to_string(), "more".into()]));
        assert!(!f.in_block());
        // A megabyte with no end: dropped and reported, and the stream goes on.
        let mut f = Framer::default();
        let mut stream = b"\x159\x161\x16".to_vec();
        stream.extend(std::iter::repeat_n(b'x', MAX_BLOCK + 10));
        stream.extend_from_slice(format!("\n{BOARD}\n").as_bytes());
        let out = f.feed(&stream, t0);
        assert_eq!(bad(&out), 1, "{:?}", &out[..1]);
        assert_eq!(lines(&out).last().unwrap(), BOARD);
        assert!(!f.in_block());
        no_control_bytes(&out);
    }

    #[test]
    fn bad_headers_and_stray_bytes_are_reported_and_stripped() {
        let t0 = Instant::now();
        for stream in [
            format!("\x15x7\x161\x16{BOARD}\n\x17\n"),
            format!("\x157\x16\x16{BOARD}\n\x17\n"),
            format!("\x15{BOARD}\n\x17\n"),
            format!("\x1599999999999\x161\x16{BOARD}\n\x17\n"),
        ] {
            let out = Framer::default().feed(stream.as_bytes(), t0);
            assert_eq!(bad(&out), 1, "{stream:?}: {out:?}");
            assert!(lines(&out).iter().any(|l| l == BOARD), "{out:?}");
            assert!(!out.iter().any(|i| matches!(i, Incoming::Reply(_))));
            no_control_bytes(&out);
        }
        // A separator or an end byte mid-line outside a block: dropped, the line read.
        let stream = BOARD.replacen(" W ", " \x17W \x16", 1) + "\n";
        let out = Framer::default().feed(stream.as_bytes(), t0);
        assert_eq!(bad(&out), 1);
        assert_eq!(lines(&out), vec![BOARD.to_string()]);
        // Inside a block's output: the reply stands, the byte is reported.
        let out = Framer::default().feed(b"\x152\x16109\x16a\x16b\n\x17", t0);
        assert_eq!(bad(&out), 1);
        match out.last() {
            Some(Incoming::Reply(r)) => assert_eq!(lines(&r.body), vec!["ab"]),
            other => panic!("{other:?}"),
        }
        // Pose markers end a line and vanish.
        let out = Framer::default().feed(b"one\x18two\x19three\n", t0);
        assert_eq!(lines(&out), vec!["one", "two", "three"]);
        assert_eq!(bad(&out), 0);
    }

    #[test]
    fn never_panics_on_any_bytes() {
        let t0 = Instant::now();
        let alphabet = [
            b'1',
            b'\n',
            b'x',
            BLOCK_START,
            BLOCK_SEPARATOR,
            BLOCK_END,
            BLOCK_POSE_START,
            0xff,
        ];
        let mut seed = 7u64;
        for _ in 0..2000 {
            let mut f = Framer::default();
            let mut bytes = Vec::new();
            for _ in 0..40 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                bytes.push(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            let mut out = f.feed(&bytes, t0);
            out.extend(f.tick(t0 + BLOCK_TIMEOUT));
            no_control_bytes(&out);
        }
    }
}
