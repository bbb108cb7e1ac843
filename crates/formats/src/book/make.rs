//! Building a Polyglot book from games, entry for entry as Polyglot's `make-book`
//! (Debian's `polyglot` 2.0.4) builds it:
//!
//! * every position of a game up to `max_ply` plies (0-based: plies `0..max_ply`) counts
//!   the move played there: `n += 1`, and `sum += 2` for a win of the side to move, `1`
//!   for a draw, `0` for a loss. Any result other than `1-0` or `0-1` (`1/2-1/2`, `*`)
//!   counts as a draw, as in Polyglot;
//! * when a move's `n` reaches 16384 every move of that position is halved
//!   (`n = (n + 1) / 2`, `sum = (sum + 1) / 2`), so both stay within 16 bits;
//! * an entry is kept when `n >= min_game`, `sum > 0`, `sum / n / 2 >= min_score`, and the
//!   side to move passes `only_white`/`only_black`; its weight is `sum` (`1` with
//!   `uniform`) and its learn field 0;
//! * entries are sorted by key, then by weight (heaviest first), then by when the move was
//!   first seen in the input (Polyglot sorts with glibc's stable merge sort).
//!
//! Where Sable differs, on input Polyglot cannot read at all: a game with a `FEN` tag
//! starts from that position (Polyglot stops with "illegal move"), plies counted from
//! it; a game with an unreadable or illegal move is left out whole and counted (Polyglot
//! stops); Chess960 games are left out. Games can also be filtered by Elo, result and
//! time control ([`GameFilter`]), which `make-book` cannot do.
//!
//! Memory is bounded: when the table outgrows its budget it is written to a temporary
//! file as a run sorted by key, and the runs are merged at the end. Halving depends on the
//! order of games, so a position whose counts are cut in one run or whose totals reach
//! 16384 after the merge is recounted exactly in a second pass over the input (only such
//! positions are kept in memory then; there are few of them).

use super::{encode_move, AtomicWriter, BookEntry, BookError};
use crate::pgn::{GameError, GameResult, PgnReader, StartPosition, Visitor};
use sable_chess::{Color, Position, SanMode};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Polyglot's `COUNT_MAX`: counts are halved when one reaches it.
pub const COUNT_MAX: u32 = 16384;

/// `make-book`'s options.
#[derive(Clone, Debug)]
pub struct MakeOptions {
    /// Positions at plies `0..max_ply` are counted (Polyglot's `-max-ply`, default 1024).
    pub max_ply: u32,
    /// Polyglot's `-min-game` (default 3).
    pub min_game: u32,
    /// Polyglot's `-min-score` as a fraction (`-min-score 50` is 0.5; default 0).
    pub min_score: f64,
    /// Keep only positions with White to move (`-only-white`).
    pub only_white: bool,
    /// Keep only positions with Black to move (`-only-black`).
    pub only_black: bool,
    /// Every weight 1 (`-uniform`).
    pub uniform: bool,
    /// Bytes the table may take before it is spilled to a temporary run.
    pub memory_bytes: usize,
    /// Where the runs go (default: the system's temporary folder).
    pub temp_dir: Option<PathBuf>,
    /// Threads reading games (the counting itself is one more, in input order); 1 reads
    /// on the calling thread.
    pub threads: usize,
}

impl Default for MakeOptions {
    fn default() -> Self {
        MakeOptions {
            max_ply: 1024,
            min_game: 3,
            min_score: 0.0,
            only_white: false,
            only_black: false,
            uniform: false,
            memory_bytes: 512 << 20,
            temp_dir: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// Which games count. Every field `None` (the default) takes every game.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Both `WhiteElo` and `BlackElo` at least this (a game without them is left out).
    pub min_elo: Option<u32>,
    /// Only games with one of these results (from the `Result` tag, else the marker).
    pub results: Option<Vec<GameResult>>,
    /// Only games whose `TimeControl` tag is one of these (as written, e.g. `300+0`).
    pub time_controls: Option<Vec<String>>,
}

/// What a build read and wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MakeReport {
    /// Games whose moves were counted.
    pub games: u64,
    /// Games left out by the filter or as Chess960.
    pub filtered: u64,
    /// Games that could not be read (a bad or illegal move, a bad FEN, …).
    pub errors: u64,
    /// The first few read errors, as text.
    pub error_samples: Vec<String>,
    /// Distinct (position, move) pairs counted.
    pub counted: u64,
    /// Entries written.
    pub entries: u64,
    /// Temporary runs spilled to disk.
    pub runs: u64,
    /// Positions recounted in a second pass (halving across runs).
    pub recounted: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum MakeError {
    #[error(transparent)]
    Book(#[from] BookError),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// The games gave no entry (an empty book is no Polyglot book: nothing is written).
    #[error(
        "{files}: no book entries ({games} games counted, {errors} unreadable{}); nothing written",
        first_error.as_ref().map(|e| format!("; first: {e}")).unwrap_or_default()
    )]
    NoEntries {
        files: String,
        games: u64,
        errors: u64,
        first_error: Option<String>,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> MakeError + '_ {
    move |source| MakeError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// One (position, move) and its counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    key: u64,
    /// Number of the event that created it (input order).
    first: u64,
    /// Times counted; 0 marks an empty place in the [`Table`] (a counted move has
    /// `n >= 1`, and halving keeps it so).
    n: u32,
    sum: u32,
    mv: u16,
    white: bool,
    /// Counts of this position were halved (in this run).
    halved: bool,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 32);

/// Counts per (position, move), with Polyglot's halving: an open-addressing table,
/// probed linearly from a place chosen by the position's key alone (Zobrist keys need no
/// further hashing). One lookup is then usually one cache line, where a map from
/// (key, move) to an index into a vector of counts cost three misses (a profile of
/// building from the lichess games gave it 41 % of the time); and, as nothing is ever
/// deleted, every move of a position lies between its home place and the next empty
/// one, which is all that halving has to walk.
#[derive(Default)]
struct Table {
    slots: Vec<Slot>,
    len: usize,
}

const EMPTY: Slot = Slot {
    key: 0,
    first: 0,
    n: 0,
    sum: 0,
    mv: 0,
    white: false,
    halved: false,
};

impl Table {
    /// Whether one more move needs a bigger table: it is kept at most half full, so
    /// probe runs stay short.
    fn full(&self) -> bool {
        2 * (self.len + 1) > self.slots.len()
    }

    /// Whether one more move would make the table grow past `budget` bytes.
    fn would_outgrow(&self, budget: usize) -> bool {
        self.full() && 2 * self.bytes() > budget
    }

    /// Bytes allocated (the memory budget counts these).
    fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Starts loading the home place of `key` into the cache: the counting thread knows
    /// a chunk's moves in advance, and without this each add waits for a cache miss.
    #[inline]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(s) = self
            .slots
            .get(key as usize & self.slots.len().wrapping_sub(1))
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: `prefetch` is part of SSE, which every x86-64 processor has, and
            // it only hints the cache: it reads nothing and cannot fault (the address
            // is a live element of `slots` in any case).
            unsafe { _mm_prefetch::<_MM_HINT_T0>((s as *const Slot).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The place of (`key`, `mv`): where it is, or the empty place where it goes.
    #[inline]
    fn find(&self, key: u64, mv: u16) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let s = &self.slots[i];
            if s.n == 0 || (s.key == key && s.mv == mv) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    fn add(&mut self, key: u64, white: bool, mv: u16, score: u32, event: u64) {
        if self.full() {
            self.grow();
        }
        let i = self.find(key, mv);
        let s = &mut self.slots[i];
        if s.n == 0 {
            *s = Slot {
                key,
                first: event,
                mv,
                white,
                ..EMPTY
            };
            self.len += 1;
        }
        s.n += 1;
        s.sum += score;
        if s.n >= COUNT_MAX {
            self.halve(key);
        }
    }

    /// Halves every move of position `key`.
    fn halve(&mut self, key: u64) {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        while self.slots[i].n != 0 {
            let s = &mut self.slots[i];
            if s.key == key {
                s.n = s.n.div_ceil(2);
                s.sum = s.sum.div_ceil(2);
                s.halved = true;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let places = (2 * self.slots.len()).max(4);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; places]);
        for s in old.into_iter().filter(|s| s.n != 0) {
            let i = self.find(s.key, s.mv);
            self.slots[i] = s;
        }
    }

    /// Every counted move, in no particular order; the table is left empty.
    fn take(&mut self) -> Vec<Slot> {
        self.len = 0;
        let mut all = std::mem::take(&mut self.slots);
        all.retain(|s| s.n != 0);
        all
    }

    /// Everything, sorted by key then move (for a run); the table is left empty.
    fn drain_sorted(&mut self) -> Vec<Slot> {
        let mut all = self.take();
        all.sort_unstable_by_key(|s| (s.key, s.mv));
        all
    }
}

/// Reads games and feeds the counted (position, move) pairs to `sink`.
struct GameCounter<'a, F: FnMut(u64, bool, u16, u32)> {
    max_ply: u32,
    filter: &'a GameFilter,
    sink: F,
    start: StartPosition,
    pos: Position,
    skip: bool,
    depth: u32,
    ply: u32,
    tag_result: Option<GameResult>,
    marker: Option<GameResult>,
    elo: [Option<u32>; 2],
    time_control: Option<String>,
    plies: Vec<(u64, bool, u16)>,
}

impl<'a, F: FnMut(u64, bool, u16, u32)> GameCounter<'a, F> {
    fn new(max_ply: u32, filter: &'a GameFilter, sink: F) -> Self {
        GameCounter {
            max_ply,
            filter,
            sink,
            start: StartPosition::default(),
            pos: Position::startpos(),
            skip: false,
            depth: 0,
            ply: 0,
            tag_result: None,
            marker: None,
            elo: [None, None],
            time_control: None,
            plies: Vec::new(),
        }
    }
}

/// How a game read ended.
enum Counted {
    Yes,
    Filtered,
}

impl<F: FnMut(u64, bool, u16, u32)> Visitor for GameCounter<'_, F> {
    type Output = Counted;

    fn begin_game(&mut self) {
        self.start.clear();
        self.skip = false;
        self.depth = 0;
        self.ply = 0;
        self.tag_result = None;
        self.marker = None;
        self.elo = [None, None];
        self.time_control = None;
        self.plies.clear();
    }

    fn tag(&mut self, name: &str, value: &str) -> Result<(), GameError> {
        match name {
            "Result" => self.tag_result = GameResult::from_token(value.trim()),
            "WhiteElo" => self.elo[0] = value.trim().parse().ok(),
            "BlackElo" => self.elo[1] = value.trim().parse().ok(),
            "TimeControl" if self.filter.time_controls.is_some() => {
                self.time_control = Some(value.trim().to_string())
            }
            _ => self.start.tag(name, value)?,
        }
        Ok(())
    }

    fn end_tags(&mut self) -> Result<(), GameError> {
        let f = self.filter;
        if let Some(min) = f.min_elo {
            if !self.elo.iter().all(|e| e.is_some_and(|e| e >= min)) {
                self.skip = true;
            }
        }
        if let Some(tcs) = &f.time_controls {
            if !self
                .time_control
                .as_ref()
                .is_some_and(|tc| tcs.iter().any(|t| t == tc))
            {
                self.skip = true;
            }
        }
        if !self.skip {
            self.pos = self.start.position()?;
            if self.pos.is_chess960() {
                self.skip = true;
            }
        }
        Ok(())
    }

    fn san(&mut self, san: &str) -> Result<(), GameError> {
        if self.skip || self.depth > 0 || self.ply >= self.max_ply {
            return Ok(());
        }
        let m = self.pos.parse_san_with(san, SanMode::Lenient)?;
        if m.is_null() {
            return Err(GameError::Visitor(format!("null move '{san}'")));
        }
        self.plies.push((
            self.pos.key(),
            self.pos.turn() == Color::White,
            encode_move(m),
        ));
        self.pos.make(m);
        self.ply += 1;
        Ok(())
    }

    fn begin_variation(&mut self) -> Result<(), GameError> {
        self.depth += 1;
        Ok(())
    }

    fn end_variation(&mut self) -> Result<(), GameError> {
        self.depth = self.depth.saturating_sub(1);
        Ok(())
    }

    fn result(&mut self, result: GameResult) -> Result<(), GameError> {
        self.marker = Some(result);
        Ok(())
    }

    fn end_game(&mut self) -> Counted {
        let result = self
            .tag_result
            .or(self.marker)
            .unwrap_or(GameResult::Unknown);
        if self.skip
            || self
                .filter
                .results
                .as_ref()
                .is_some_and(|rs| !rs.contains(&result))
        {
            return Counted::Filtered;
        }
        // Polyglot: +1 White won, -1 Black won, 0 anything else.
        let white = match result {
            GameResult::WhiteWins => 2,
            GameResult::BlackWins => 0,
            _ => 1,
        };
        for &(key, is_white, mv) in &self.plies {
            (self.sink)(key, is_white, mv, if is_white { white } else { 2 - white });
        }
        Counted::Yes
    }
}

/// Reads every game of `inputs` through a [`GameCounter`]; `progress` gets the bytes
/// read so far over all inputs. With `opts.threads > 1` the input is cut into chunks at
/// game boundaries ([`last_game_start`]) and the chunks are read on worker threads; their
/// counted moves reach `sink` chunk by chunk in input order, so the result is the same as
/// reading on one thread (a profile gave the reading about three quarters of the time).
fn count_games(
    inputs: &[PathBuf],
    opts: &MakeOptions,
    filter: &GameFilter,
    report: &mut MakeReport,
    progress: &mut dyn FnMut(u64),
    sink: &mut dyn FnMut(&[Counts]),
) -> Result<(), MakeError> {
    let mut done = 0;
    for path in inputs {
        let file = std::fs::File::open(path).map_err(io_err(path))?;
        if opts.threads > 1 {
            done = count_parallel(path, file, opts, filter, report, done, progress, sink)?;
            continue;
        }
        let mut counter =
            GameCounter::new(opts.max_ply, filter, |k, w, m, s| sink(&[(k, w, m, s)]));
        let mut reader = PgnReader::new(BufReader::with_capacity(1 << 16, file));
        let mut last = 0;
        while let Some(game) = reader.read_game(&mut counter) {
            tally(game, path, report, 0, 0)?;
            let bytes = reader.bytes_read();
            if bytes - last >= 1 << 20 {
                last = bytes;
                progress(done + bytes);
            }
        }
        done += reader.bytes_read();
        progress(done);
    }
    Ok(())
}

/// Counts one game's outcome in `report`; `games` and `lines` are those of the chunks
/// before this game's (read errors name the place in the whole file).
fn tally(
    game: Result<Counted, crate::pgn::PgnError>,
    path: &Path,
    report: &mut MakeReport,
    games: usize,
    lines: usize,
) -> Result<(), MakeError> {
    match game {
        Ok(Counted::Yes) => report.games += 1,
        Ok(Counted::Filtered) => report.filtered += 1,
        Err(mut e) => {
            if let GameError::Io(source) = e.error {
                return Err(MakeError::Io {
                    path: path.display().to_string(),
                    source,
                });
            }
            report.errors += 1;
            if report.error_samples.len() < 5 {
                e.game += games;
                e.line += lines;
                report
                    .error_samples
                    .push(format!("{}: {e}", path.display()));
            }
        }
    }
    Ok(())
}

/// How many moves ahead of the one being counted the table is prefetched.
const PREFETCH: usize = 8;

/// Bytes of PGN handed to a worker at a time. (Smaller chunks for small files were
/// tried: the per-chunk costs outweighed the shorter tail, 94 ms against 78 ms on 3.2 MB.)
const CHUNK: usize = 1 << 20;

/// One counted move: position key, White to move, move, score (2 won, 1 drawn, 0 lost
/// for the side to move).
type Counts = (u64, bool, u16, u32);

/// A chunk read on a worker: its counted moves in order and each game's outcome.
struct ChunkDone {
    moves: Vec<Counts>,
    games: Vec<Result<Counted, crate::pgn::PgnError>>,
    /// The chunk's text, handed back so that its buffer is used again.
    text: Vec<u8>,
    /// Lines in the text (read errors after this chunk are numbered past them).
    lines: usize,
}

/// [`count_games`] for one file on `opts.threads` workers; returns `done` plus the
/// file's bytes.
#[allow(clippy::too_many_arguments)]
fn count_parallel(
    path: &Path,
    mut file: std::fs::File,
    opts: &MakeOptions,
    filter: &GameFilter,
    report: &mut MakeReport,
    done: u64,
    progress: &mut dyn FnMut(u64),
    sink: &mut dyn FnMut(&[Counts]),
) -> Result<u64, MakeError> {
    use std::sync::{mpsc, Mutex};
    let workers = opts.threads;
    // Work: a chunk's number, its text, and an empty vector for its moves. Buffers go
    // round between this thread and the workers instead of being allocated per chunk
    // (fresh pages cost a page fault each).
    let (work_tx, work_rx) = mpsc::sync_channel::<(usize, Vec<u8>, Vec<Counts>)>(workers);
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, ChunkDone)>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (work_rx, done_tx) = (&work_rx, done_tx.clone());
            scope.spawn(move || loop {
                let next = work_rx.lock().map(|rx| rx.recv());
                let Ok(Ok((seq, text, mut moves))) = next else {
                    return;
                };
                moves.clear();
                let mut games = Vec::new();
                {
                    let mut counter = GameCounter::new(opts.max_ply, filter, |k, w, m, s| {
                        moves.push((k, w, m, s))
                    });
                    let mut reader = PgnReader::new(text.as_slice());
                    while let Some(game) = reader.read_game(&mut counter) {
                        games.push(game);
                    }
                }
                let lines = memchr::memchr_iter(b'\n', &text).count();
                let chunk = ChunkDone {
                    moves,
                    games,
                    text,
                    lines,
                };
                if done_tx.send((seq, chunk)).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);
        // This thread cuts the file into chunks and feeds the results to `sink` in order;
        // at most 2 * workers chunks are out at once (bounded memory).
        let mut pending = std::collections::BTreeMap::new();
        let (mut sent, mut next, mut bytes) = (0usize, 0usize, done);
        let (mut games_before, mut lines_before) = (0usize, 0usize);
        let mut carry: Vec<u8> = Vec::new();
        let (mut spare_text, mut spare_moves): (Vec<Vec<u8>>, Vec<Vec<Counts>>) =
            Default::default();
        let mut eof = false;
        let mut work_tx = Some(work_tx);
        let mut result = Ok(());
        loop {
            while !eof && sent - next < 2 * workers && result.is_ok() {
                let mut buf = std::mem::take(&mut carry);
                let have = buf.len();
                buf.resize(have + CHUNK, 0);
                let n = match read_full(&mut file, &mut buf[have..]) {
                    Ok(n) => n,
                    Err(e) => {
                        result = Err(io_err(path)(e));
                        break;
                    }
                };
                buf.truncate(have + n);
                eof = n == 0;
                let cut = if eof {
                    buf.len()
                } else {
                    match last_game_start(&buf) {
                        Some(c) if c > 0 => c,
                        // No boundary yet (one huge game): read more before cutting.
                        _ => {
                            carry = buf;
                            continue;
                        }
                    }
                };
                carry = spare_text.pop().unwrap_or_default();
                carry.clear();
                carry.extend_from_slice(&buf[cut..]);
                buf.truncate(cut);
                if buf.is_empty() {
                    spare_text.push(buf);
                    continue;
                }
                if let Some(tx) = &work_tx {
                    let moves = spare_moves.pop().unwrap_or_default();
                    if tx.send((sent, buf, moves)).is_err() {
                        break;
                    }
                }
                sent += 1;
            }
            if eof || result.is_err() {
                work_tx = None; // workers finish what was sent, then stop
            }
            if next == sent {
                break;
            }
            let chunk = loop {
                if let Some(c) = pending.remove(&next) {
                    break Some(c);
                }
                match done_rx.recv() {
                    Ok((seq, chunk)) => {
                        pending.insert(seq, chunk);
                    }
                    Err(_) => break None,
                }
            };
            let Some(chunk) = chunk else {
                // Every worker is gone with chunks outstanding: one of them panicked.
                return Err(MakeError::Io {
                    path: path.display().to_string(),
                    source: std::io::Error::other("a thread reading games stopped"),
                });
            };
            if result.is_ok() {
                sink(&chunk.moves);
                let n_games = chunk.games.len();
                for game in chunk.games {
                    if let Err(e) = tally(game, path, report, games_before, lines_before) {
                        result = Err(e);
                        break;
                    }
                }
                games_before += n_games;
                lines_before += chunk.lines;
                bytes += chunk.text.len() as u64;
                progress(bytes);
                spare_moves.push(chunk.moves);
                spare_text.push(chunk.text);
            }
            next += 1;
        }
        result.map(|()| bytes)
    })
}

/// Reads until `buf` is full or the input ends; the bytes read.
fn read_full(file: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The offset of the last line of `text` that starts a game: a line beginning with `[`
/// after a blank line (or at the very start),
/// outside `{...}` and `;` comments and `%` escape lines. Everything before it is whole
/// games, so text can be cut there and the parts read on their own. It runs on the thread
/// that also counts, ahead of the readers, so it jumps from one interesting byte to the
/// next with `memchr` (a byte-by-byte loop took a tenth of a build's time).
fn last_game_start(text: &[u8]) -> Option<usize> {
    use memchr::{memchr, memchr3, memrchr};
    let mut last = None;
    // The start of the line being scanned, and where scanning goes on.
    let (mut line, mut i) = (0, 0);
    let mut blank_before = true;
    loop {
        // At the start of a line, outside any comment.
        match text.get(line) {
            Some(b'[') if blank_before => last = Some(line),
            Some(b'%') => i = memchr(b'\n', &text[line..]).map_or(text.len(), |p| line + p),
            None => break,
            _ => {}
        }
        // The end of this line, jumping over comments on the way.
        let end = loop {
            let Some(p) = memchr3(b'\n', b'{', b';', &text[i..]).map(|p| i + p) else {
                break None;
            };
            match text[p] {
                b'\n' => break Some(p),
                b';' => i = memchr(b'\n', &text[p..]).map_or(text.len(), |q| p + q),
                _ => {
                    // A brace comment: on to its end, which may be lines further on.
                    let Some(close) = memchr(b'}', &text[p..]).map(|q| p + q) else {
                        break None;
                    };
                    if let Some(nl) = memrchr(b'\n', &text[p..close]) {
                        line = p + nl + 1;
                    }
                    i = close + 1;
                }
            }
        };
        let Some(end) = end else { break };
        blank_before = text[line..end].trim_ascii().is_empty();
        line = end + 1;
        i = line;
    }
    last
}

/// A sorted run on disk: fixed records `key, first, n, sum, move, flags` (little-endian),
/// sorted by key then move.
const RECORD: usize = 27;

fn record(s: &Slot) -> [u8; RECORD] {
    let mut b = [0u8; RECORD];
    b[0..8].copy_from_slice(&s.key.to_le_bytes());
    b[8..16].copy_from_slice(&s.first.to_le_bytes());
    b[16..20].copy_from_slice(&s.n.to_le_bytes());
    b[20..24].copy_from_slice(&s.sum.to_le_bytes());
    b[24..26].copy_from_slice(&s.mv.to_le_bytes());
    b[26] = s.white as u8 | (s.halved as u8) << 1;
    b
}

fn write_run(path: PathBuf, table: &mut Table) -> Result<PathBuf, MakeError> {
    let file = std::fs::File::create(&path).map_err(io_err(&path))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    for s in table.drain_sorted() {
        out.write_all(&record(&s)).map_err(io_err(&path))?;
    }
    out.flush().map_err(io_err(&path))?;
    Ok(path)
}

struct RunReader {
    path: PathBuf,
    input: BufReader<std::fs::File>,
}

impl RunReader {
    fn next(&mut self) -> Result<Option<Slot>, MakeError> {
        let mut b = [0u8; RECORD];
        match self.input.read_exact(&mut b) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(io_err(&self.path)(e)),
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        Ok(Some(Slot {
            key: u64::from_le_bytes(b[0..8].try_into().expect("8 bytes")),
            first: u64::from_le_bytes(b[8..16].try_into().expect("8 bytes")),
            n: u32_at(16),
            sum: u32_at(20),
            mv: u16::from_le_bytes([b[24], b[25]]),
            white: b[26] & 1 != 0,
            halved: b[26] & 2 != 0,
        }))
    }
}

/// Removes the temporary runs however the build ends.
struct Runs(Vec<PathBuf>);

impl Drop for Runs {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Whether `make-book` keeps this entry.
fn keep(s: &Slot, opts: &MakeOptions) -> bool {
    s.key != 0
        && s.n >= opts.min_game
        && s.sum > 0
        && (s.sum as f64 / s.n as f64) / 2.0 >= opts.min_score
        && (s.white || !opts.only_white)
        && (!s.white || !opts.only_black)
}

fn weight(s: &Slot, opts: &MakeOptions) -> u16 {
    if opts.uniform {
        1
    } else {
        s.sum.min(u16::MAX as u32) as u16
    }
}

/// `make-book`'s order: key, then weight (heaviest first), then first seen.
fn book_order(a: &Slot, b: &Slot, opts: &MakeOptions) -> std::cmp::Ordering {
    a.key
        .cmp(&b.key)
        .then(weight(b, opts).cmp(&weight(a, opts)))
        .then(a.first.cmp(&b.first))
}

fn write_slot(s: &Slot, opts: &MakeOptions, out: &mut AtomicWriter) -> Result<(), BookError> {
    out.write_entry(&BookEntry {
        key: s.key,
        raw_move: s.mv,
        weight: weight(s, opts),
        learn: 0,
    })
}

/// Builds a book from the games in `inputs` and writes it atomically to `output`.
/// `progress` gets the bytes of input read so far (a second pass, if one is needed,
/// counts again from 0).
pub fn make_book(
    inputs: &[PathBuf],
    output: &Path,
    opts: &MakeOptions,
    filter: &GameFilter,
    progress: &mut dyn FnMut(u64),
) -> Result<MakeReport, MakeError> {
    let mut report = MakeReport::default();
    let temp_dir = opts.temp_dir.clone().unwrap_or_else(std::env::temp_dir);
    // Named by process and by build, so that builds running at once in one process (a
    // library user's threads, the tests) never share a run file.
    static BUILDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let build = BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let run_path =
        |i: usize| temp_dir.join(format!("sable-book-{}-{build}-{i}.run", std::process::id()));
    // The table starts small and doubles: sizing it from the input's length up front
    // (one move per 12 bytes) filled a table four times too big for repeated games, and
    // writing its empty places took the counting thread longer than growing does.
    let mut runs = Runs(Vec::new());
    let mut table = Table::default();
    let mut event = 0u64;
    let mut spill_error = None;
    {
        let runs = &mut runs;
        let table = &mut table;
        let mut sink = |batch: &[Counts]| {
            for (i, &(key, white, mv, score)) in batch.iter().enumerate() {
                if let Some(ahead) = batch.get(i + PREFETCH) {
                    table.prefetch(ahead.0);
                }
                if table.would_outgrow(opts.memory_bytes) && spill_error.is_none() {
                    let path = run_path(runs.0.len());
                    runs.0.push(path.clone());
                    if let Err(e) = write_run(path, table) {
                        spill_error = Some(e);
                    }
                }
                table.add(key, white, mv, score, event);
                event += 1;
            }
        };
        count_games(inputs, opts, filter, &mut report, progress, &mut sink)?;
    }
    if let Some(e) = spill_error {
        return Err(e);
    }
    let mut out = AtomicWriter::create(output)?;
    if runs.0.is_empty() {
        report.counted = table.len() as u64;
        let mut kept = table.take();
        kept.retain(|s| keep(s, opts));
        kept.sort_unstable_by(|a, b| book_order(a, b, opts));
        for s in &kept {
            write_slot(s, opts, &mut out)?;
        }
    } else {
        // The rest of the table is the last run.
        let path = run_path(runs.0.len());
        runs.0.push(path.clone());
        write_run(path, &mut table)?;
        drop(table);
        report.runs = runs.0.len() as u64;
        compact_runs(&mut runs, &run_path)?;
        merge_runs(
            &runs.0,
            inputs,
            opts,
            filter,
            &mut report,
            progress,
            &mut out,
        )?;
    }
    report.entries = out.count;
    if report.entries == 0 {
        // Dropped uncommitted: any earlier book at `output` stays.
        return Err(MakeError::NoEntries {
            files: inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            games: report.games,
            errors: report.errors,
            first_error: report.error_samples.first().cloned(),
        });
    }
    out.commit()?;
    Ok(report)
}

/// At most this many runs are merged at once (open files).
const FAN_IN: usize = 64;

/// Merges runs `FAN_IN` at a time into bigger ones until at most `FAN_IN` are left.
fn compact_runs(runs: &mut Runs, run_path: &dyn Fn(usize) -> PathBuf) -> Result<(), MakeError> {
    let mut next = runs.0.len();
    while runs.0.len() > FAN_IN {
        let group: Vec<PathBuf> = runs.0.drain(..FAN_IN).collect();
        let path = run_path(next);
        next += 1;
        runs.0.push(path.clone());
        let file = std::fs::File::create(&path).map_err(io_err(&path))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        merge_keys(&group, &mut |_, slots| {
            for s in slots {
                out.write_all(&record(s)).map_err(io_err(&path))?;
            }
            Ok(())
        })?;
        out.flush().map_err(io_err(&path))?;
        for p in group {
            let _ = std::fs::remove_file(p);
        }
    }
    Ok(())
}

/// Merges the sorted runs into the book; positions that need exact halving are recounted.
fn merge_runs(
    runs: &[PathBuf],
    inputs: &[PathBuf],
    opts: &MakeOptions,
    filter: &GameFilter,
    report: &mut MakeReport,
    progress: &mut dyn FnMut(u64),
    out: &mut AtomicWriter,
) -> Result<(), MakeError> {
    // First pass over the runs: which positions must be recounted.
    let mut hot: HashSet<u64> = HashSet::new();
    merge_keys(runs, &mut |key, slots| {
        if slots.iter().any(|s| s.halved || s.n >= COUNT_MAX) {
            hot.insert(key);
        }
        Ok(())
    })?;
    let mut exact = Table::default();
    if !hot.is_empty() {
        report.recounted = hot.len() as u64;
        let mut event = 0u64;
        let mut again = MakeReport::default();
        count_games(inputs, opts, filter, &mut again, progress, &mut |batch| {
            for &(key, white, mv, score) in batch {
                if hot.contains(&key) {
                    exact.add(key, white, mv, score, event);
                }
                event += 1;
            }
        })?;
    }
    let mut recounted: HashMap<u64, Vec<Slot>> = HashMap::new();
    for s in exact.take() {
        recounted.entry(s.key).or_default().push(s);
    }
    merge_keys(runs, &mut |key, slots| {
        let slots = recounted.get(&key).map(Vec::as_slice).unwrap_or(slots);
        report.counted += slots.len() as u64;
        let mut kept: Vec<Slot> = slots.iter().filter(|s| keep(s, opts)).copied().collect();
        kept.sort_by(|a, b| book_order(a, b, opts));
        for s in &kept {
            write_slot(s, opts, out)?;
        }
        Ok(())
    })
}

/// Receives one position's merged moves.
type KeyVisitor<'a> = dyn FnMut(u64, &[Slot]) -> Result<(), MakeError> + 'a;

/// Calls `f` once per position over all runs in key order, with each move's counts
/// summed over the runs.
fn merge_keys(runs: &[PathBuf], f: &mut KeyVisitor<'_>) -> Result<(), MakeError> {
    let mut readers = Vec::with_capacity(runs.len());
    for p in runs {
        let file = std::fs::File::open(p).map_err(io_err(p))?;
        readers.push(RunReader {
            path: p.clone(),
            input: BufReader::with_capacity(1 << 20, file),
        });
    }
    let mut heads: Vec<Option<Slot>> = Vec::with_capacity(readers.len());
    let mut heap = BinaryHeap::new();
    for (i, r) in readers.iter_mut().enumerate() {
        let head = r.next()?;
        if let Some(s) = &head {
            heap.push(Reverse((s.key, s.mv, i)));
        }
        heads.push(head);
    }
    let mut group: Vec<Slot> = Vec::new();
    while let Some(Reverse((key, mv, i))) = heap.pop() {
        let s = heads[i].take().expect("a head per heap entry");
        heads[i] = readers[i].next()?;
        if let Some(h) = &heads[i] {
            heap.push(Reverse((h.key, h.mv, i)));
        }
        if group.first().is_some_and(|g| g.key != key) {
            f(group[0].key, &group)?;
            group.clear();
        }
        match group.last_mut() {
            Some(last) if last.mv == mv => {
                last.n += s.n;
                last.sum += s.sum;
                last.first = last.first.min(s.first);
                last.halved |= s.halved;
            }
            _ => group.push(s),
        }
    }
    if let Some(g) = group.first() {
        f(g.key, &group)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::last_game_start;

    #[test]
    fn games_are_cut_apart_only_between_games() {
        // A comment holding a blank line and a '[' line, and a ';' comment with a
        // brace: neither may be taken for the start of a game.
        let text = "[Event \"a\"]\n\n1. e4 {a comment\n\n[not a tag]} e5 1-0\n\n\
                    [Event \"b\"]\n\n1. d4 ; a { that never closes\nd5 0-1\r\n\r\n\
                    [Event \"c\"]\n\n1. c4 *\n";
        let at = |s: &str| text.find(s).unwrap();
        assert_eq!(last_game_start(text.as_bytes()), Some(at("[Event \"c\"]")));
        let before_c = &text[..at("[Event \"c\"]")];
        assert_eq!(
            last_game_start(before_c.as_bytes()),
            Some(at("[Event \"b\"]"))
        );
        let inside_comment = &text[..at("e5 1-0")];
        assert_eq!(last_game_start(inside_comment.as_bytes()), Some(0));
        // Tags straight after movetext with no blank line are no safe cut.
        assert_eq!(
            last_game_start(b"[Event \"a\"]\n\n1. e4 *\n[Event \"b\"]\n"),
            Some(0)
        );
    }
}
