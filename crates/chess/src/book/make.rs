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
use crate::{Color, Position, SanMode};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
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
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> MakeError + '_ {
    move |source| MakeError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Keys are Zobrist keys already: hash them as they are, mixing in the move.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only keys and moves")
    }
    fn write_u64(&mut self, k: u64) {
        self.0 ^= k;
    }
    fn write_u16(&mut self, m: u16) {
        self.0 ^= (m as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type Hash = BuildHasherDefault<KeyHasher>;

/// One (position, move) and its counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    key: u64,
    /// Number of the event that created it (input order).
    first: u64,
    n: u32,
    sum: u32,
    mv: u16,
    white: bool,
    /// Counts of this position were halved (in this run).
    halved: bool,
}

/// Counts per (position, move), with Polyglot's halving.
#[derive(Default)]
struct Table {
    slots: Vec<Slot>,
    index: HashMap<(u64, u16), u32, Hash>,
    /// The slots of each position whose counts were halved (found by one scan when it
    /// first happens, then kept up to date), so halving again is cheap.
    halving: HashMap<u64, Vec<u32>, Hash>,
}

/// Bytes per slot in the table and its index, for the memory budget.
const SLOT_BYTES: usize = 64;

impl Table {
    fn with_capacity(n: usize) -> Table {
        Table {
            slots: Vec::with_capacity(n),
            index: HashMap::with_capacity_and_hasher(n, Hash::default()),
            halving: HashMap::default(),
        }
    }

    fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    fn add(&mut self, key: u64, white: bool, mv: u16, score: u32, event: u64) {
        let next = self.slots.len() as u32;
        let i = *self.index.entry((key, mv)).or_insert(next) as usize;
        if i == self.slots.len() {
            self.slots.push(Slot {
                key,
                first: event,
                n: 0,
                sum: 0,
                mv,
                white,
                halved: false,
            });
            if !self.halving.is_empty() {
                if let Some(list) = self.halving.get_mut(&key) {
                    list.push(i as u32);
                }
            }
        }
        let s = &mut self.slots[i];
        s.n += 1;
        s.sum += score;
        if s.n >= COUNT_MAX {
            let slots = &self.slots;
            let list = self.halving.entry(key).or_insert_with(|| {
                (0..slots.len() as u32)
                    .filter(|&j| slots[j as usize].key == key)
                    .collect()
            });
            for &j in list.iter() {
                let s = &mut self.slots[j as usize];
                s.n = s.n.div_ceil(2);
                s.sum = s.sum.div_ceil(2);
                s.halved = true;
            }
        }
    }

    /// Everything, sorted by key then move (for a run).
    fn drain_sorted(&mut self) -> Vec<Slot> {
        self.index.clear();
        self.halving.clear();
        let mut all = std::mem::take(&mut self.slots);
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
/// read so far over all inputs.
fn count_games(
    inputs: &[PathBuf],
    opts: &MakeOptions,
    filter: &GameFilter,
    report: &mut MakeReport,
    progress: &mut dyn FnMut(u64),
    sink: &mut dyn FnMut(u64, bool, u16, u32),
) -> Result<(), MakeError> {
    let mut counter = GameCounter {
        max_ply: opts.max_ply,
        filter,
        sink: |k, w, m, s| sink(k, w, m, s),
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
    };
    let mut done = 0;
    for path in inputs {
        let file = std::fs::File::open(path).map_err(io_err(path))?;
        let mut reader = PgnReader::new(BufReader::with_capacity(1 << 16, file));
        let mut last = 0;
        while let Some(game) = reader.read_game(&mut counter) {
            match game {
                Ok(Counted::Yes) => report.games += 1,
                Ok(Counted::Filtered) => report.filtered += 1,
                Err(e) => {
                    if let GameError::Io(source) = e.error {
                        return Err(MakeError::Io {
                            path: path.display().to_string(),
                            source,
                        });
                    }
                    report.errors += 1;
                    if report.error_samples.len() < 5 {
                        report
                            .error_samples
                            .push(format!("{}: {e}", path.display()));
                    }
                }
            }
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
    let run_path = |i: usize| temp_dir.join(format!("sable-book-{}-{i}.run", std::process::id()));
    // About one new (position, move) per 12 bytes of PGN when every ply counts.
    let input_bytes: u64 = inputs
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let hint = (input_bytes as usize / 12)
        .min(opts.max_ply as usize * (input_bytes as usize / 500 + 1))
        .min(opts.memory_bytes / SLOT_BYTES);
    let mut runs = Runs(Vec::new());
    let mut table = Table::with_capacity(hint);
    let mut event = 0u64;
    let mut spill_error = None;
    {
        let runs = &mut runs;
        let table = &mut table;
        let mut sink = |key: u64, white: bool, mv: u16, score: u32| {
            table.add(key, white, mv, score, event);
            event += 1;
            if table.bytes() > opts.memory_bytes && spill_error.is_none() {
                let path = run_path(runs.0.len());
                runs.0.push(path.clone());
                if let Err(e) = write_run(path, table) {
                    spill_error = Some(e);
                }
            }
        };
        count_games(inputs, opts, filter, &mut report, progress, &mut sink)?;
    }
    if let Some(e) = spill_error {
        return Err(e);
    }
    let mut out = AtomicWriter::create(output)?;
    if runs.0.is_empty() {
        report.counted = table.slots.len() as u64;
        let mut kept: Vec<Slot> = table
            .slots
            .iter()
            .filter(|s| keep(s, opts))
            .copied()
            .collect();
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
        count_games(
            inputs,
            opts,
            filter,
            &mut again,
            progress,
            &mut |key, white, mv, score| {
                if hot.contains(&key) {
                    exact.add(key, white, mv, score, event);
                }
                event += 1;
            },
        )?;
    }
    let mut recounted: HashMap<u64, Vec<Slot>> = HashMap::new();
    for s in exact.slots {
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
