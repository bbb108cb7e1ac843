//! Syzygy endgame tablebases in play: opening the tables of `SyzygyPath`, WDL and DTZ
//! probes of Sable's positions, and the settings the search reads. The ranking of root
//! moves is in `root`, the conversion of positions in `convert`.
//!
//! The prober is `shakmaty-syzygy` (the reasons and the probe speed of the candidates are
//! in ARCHITECTURE.md): safe Rust, maintained with python-chess's `chess.syzygy` by the
//! same author, and a corrupt table is an error value rather than undefined behaviour.
//! Tables are opened lazily by the prober; here each file is checked for its magic bytes
//! when the folder is read, so that a stray or truncated file is named at once and left
//! out, and a table that fails later (a corruption past its header) makes that probe
//! answer "unknown": the search goes on as if the table were absent, and the first such
//! failure is kept for the engine to report.

mod convert;
mod root;

pub(crate) use convert::to_shakmaty;
pub use root::{MoveResult, RootTb};

use shakmaty::Chess;
use shakmaty_syzygy::{Tablebase, Wdl as SWdl};
use std::fs;
use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use sable_chess::Position;

/// `SyzygyProbeDepth`: (min, default, max). Nodes shallower than this are not probed
/// unless they have fewer pieces than the tables hold.
pub const PROBE_DEPTH: (i64, i64, i64) = (1, 1, 100);
/// `SyzygyProbeLimit`: (min, default, max) pieces. 0 turns probing off.
pub const PROBE_LIMIT: (i64, i64, i64) = (0, 7, 7);

/// The folder separator of `SyzygyPath`, as Stockfish reads it.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// A tablebase result for the side to move, in the context of the 50-move rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss = -2,
    /// A loss that the 50-move rule turns into a draw.
    BlessedLoss = -1,
    Draw = 0,
    /// A win that the 50-move rule turns into a draw.
    CursedWin = 1,
    Win = 2,
}

impl Wdl {
    fn from_syzygy(w: SWdl) -> Wdl {
        match w {
            SWdl::Loss => Wdl::Loss,
            SWdl::BlessedLoss => Wdl::BlessedLoss,
            SWdl::Draw => Wdl::Draw,
            SWdl::CursedWin => Wdl::CursedWin,
            SWdl::Win => Wdl::Win,
        }
    }

    /// The same result for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// -2 … 2, the numbers the Syzygy tools and python-chess print.
    pub fn value(self) -> i32 {
        self as i32
    }

    /// What the result is worth when the 50-move rule is ignored (`Syzygy50MoveRule`
    /// off): cursed wins are wins and blessed losses are losses.
    pub fn without_rule50(self) -> Wdl {
        match self {
            Wdl::CursedWin => Wdl::Win,
            Wdl::BlessedLoss => Wdl::Loss,
            w => w,
        }
    }

    /// A short English name.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed win",
            Wdl::Win => "win",
        }
    }
}

/// How the search uses the tables (the `Syzygy*` options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbSettings {
    /// `SyzygyProbeDepth`.
    pub probe_depth: i32,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses count as draws.
    pub rule50: bool,
    /// `SyzygyProbeLimit`: positions with more pieces are not probed.
    pub probe_limit: usize,
}

impl Default for TbSettings {
    fn default() -> Self {
        TbSettings {
            probe_depth: PROBE_DEPTH.1 as i32,
            rule50: true,
            probe_limit: PROBE_LIMIT.1 as usize,
        }
    }
}

/// How table files are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableIo {
    /// Memory maps: no system call per probe (the default).
    Mmap,
    /// One `pread` per block read (safe against files changed underneath).
    Pread,
}

/// Why no table at all could be used from a `SyzygyPath`.
#[derive(Debug, thiserror::Error)]
pub enum TbError {
    #[error("SyzygyPath names no folder")]
    Empty,
    #[error("no Syzygy table found in {path}{}", details(.problems))]
    NoTables { path: String, problems: Vec<String> },
}

fn details(problems: &[String]) -> String {
    if problems.is_empty() {
        String::new()
    } else {
        format!(" ({})", problems.join("; "))
    }
}

const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// The opened tables, shared by every search thread.
pub struct Tablebases {
    tb: Tablebase<Chess>,
    path: String,
    wdl_files: usize,
    dtz_files: usize,
    /// Probes that failed on a present table (read error, corruption).
    failures: AtomicU64,
    first_failure: OnceLock<String>,
    /// Failures already reported by [`Tablebases::new_failures`].
    reported: AtomicU64,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("path", &self.path)
            .field("wdl_files", &self.wdl_files)
            .field("dtz_files", &self.dtz_files)
            .finish()
    }
}

impl Tablebases {
    /// Opens the tables of every folder in `spec` (separated by [`PATH_SEPARATOR`]).
    /// Returns the tables and notes on what was left out (a missing folder, a file that
    /// is not a table); an error when nothing usable was found.
    pub fn open(spec: &str) -> Result<(Tablebases, Vec<String>), TbError> {
        Tablebases::open_with(spec, TableIo::Mmap)
    }

    /// [`Tablebases::open`] with a choice of how the files are read.
    pub fn open_with(spec: &str, io: TableIo) -> Result<(Tablebases, Vec<String>), TbError> {
        let folders: Vec<&str> = spec
            .split(PATH_SEPARATOR)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        if folders.is_empty() {
            return Err(TbError::Empty);
        }
        let mut tb = match io {
            TableIo::Pread => Tablebase::new(),
            // SAFETY: the maps are read-only views of the table files; the contract is
            // that the files are not modified or truncated while the engine runs (the
            // same assumption as every engine that maps them). A file cut short before
            // it was opened is harmless: reads past its end are errors, not faults.
            // Measured reason: memory maps probe 14x (WDL) and 17x (DTZ) faster than one
            // `pread` per block on an idle machine, 27x and 24x on a loaded one
            // (`sable tb speed --compare` times both in one run).
            TableIo::Mmap => Tablebase::with_filesystem(Arc::new(unsafe {
                shakmaty_syzygy::filesystem::MmapFilesystem::new()
            })),
        };
        let mut notes = Vec::new();
        let (mut wdl_files, mut dtz_files) = (0, 0);
        for folder in &folders {
            let entries = match fs::read_dir(folder) {
                Ok(e) => e,
                Err(e) => {
                    notes.push(format!("folder {folder}: {e}"));
                    continue;
                }
            };
            let mut paths: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
            paths.sort();
            for path in paths {
                let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
                let magic = match ext {
                    "rtbw" => WDL_MAGIC,
                    "rtbz" => DTZ_MAGIC,
                    _ => continue,
                };
                if let Err(why) = check_file(&path, magic) {
                    notes.push(format!("{}: {why}; left out", path.display()));
                    continue;
                }
                match tb.add_file(&path) {
                    Ok(()) if ext == "rtbw" => wdl_files += 1,
                    Ok(()) => dtz_files += 1,
                    Err(e) => notes.push(format!("{}: {e}; left out", path.display())),
                }
            }
        }
        if wdl_files == 0 {
            return Err(TbError::NoTables {
                path: spec.to_string(),
                problems: notes,
            });
        }
        Ok((
            Tablebases {
                tb,
                path: spec.to_string(),
                wdl_files,
                dtz_files,
                failures: AtomicU64::new(0),
                first_failure: OnceLock::new(),
                reported: AtomicU64::new(0),
            },
            notes,
        ))
    }

    /// The folders these tables came from, as given.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The most pieces of any table present.
    pub fn max_pieces(&self) -> usize {
        self.tb.max_pieces()
    }

    /// WDL and DTZ files opened.
    pub fn files(&self) -> (usize, usize) {
        (self.wdl_files, self.dtz_files)
    }

    /// A one-line summary, e.g. `35 WDL and 35 DTZ tables, up to 4 pieces`.
    pub fn summary(&self) -> String {
        format!(
            "{} WDL and {} DTZ tables, up to {} pieces, from {}",
            self.wdl_files,
            self.dtz_files,
            self.max_pieces(),
            self.path
        )
    }

    /// The first probe that failed on a table present (not a missing table), if any,
    /// and how many have failed.
    pub fn failures(&self) -> (u64, Option<&str>) {
        (
            self.failures.load(Relaxed),
            self.first_failure.get().map(String::as_str),
        )
    }

    /// A message when probes failed since the last call (for the engine to pass on once,
    /// not after every search).
    pub fn new_failures(&self) -> Option<String> {
        let n = self.failures.load(Relaxed);
        let before = self.reported.swap(n, Relaxed);
        (n > before).then(|| {
            format!(
                "{} tablebase probes failed and were ignored (first: {})",
                n - before,
                self.first_failure.get().map_or("?", String::as_str)
            )
        })
    }

    fn note_failure(&self, what: String) {
        self.failures.fetch_add(1, Relaxed);
        let _ = self.first_failure.set(what);
    }

    /// Runs one probe; a missing table is `None` quietly, a failing one is recorded.
    fn probe<T>(
        &self,
        pos: &Chess,
        f: impl FnOnce(&Tablebase<Chess>, &Chess) -> Result<T, shakmaty_syzygy::SyzygyError>,
    ) -> Option<T> {
        use shakmaty_syzygy::SyzygyError as E;
        match catch_unwind(AssertUnwindSafe(|| f(&self.tb, pos))) {
            Ok(Ok(v)) => Some(v),
            Ok(Err(E::MissingTable { .. } | E::TooManyPieces | E::Castling)) => None,
            Ok(Err(e)) => {
                self.note_failure(e.to_string());
                None
            }
            Err(_) => {
                self.note_failure("the prober failed on a damaged table".to_string());
                None
            }
        }
    }

    /// The result of `pos` as the tables store it: exact when `pos` was reached by a
    /// capture or pawn move (its halfmove clock is 0); `None` when it is not in the
    /// tables. Needs only WDL tables: this is the probe inside the search.
    pub fn probe_wdl_after_zeroing(&self, pos: &Position) -> Option<Wdl> {
        let p = to_shakmaty(pos)?;
        self.probe(&p, |tb, p| tb.probe_wdl_after_zeroing(p))
            .map(Wdl::from_syzygy)
    }

    /// The result of `pos` counting its halfmove clock (so a win too slow for the
    /// 50-move rule is cursed); `None` when not in the tables or ambiguous (DTZ rounding
    /// right at the 50-move limit). Needs DTZ tables.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        let p = to_shakmaty(pos)?;
        self.probe(&p, |tb, p| tb.probe_wdl(p))?
            .unambiguous()
            .map(Wdl::from_syzygy)
    }

    /// Distance to zeroing in plies as the tables store it: positive when the side to
    /// move wins, negative when it loses, 0 for a draw (Syzygy's convention; some
    /// values are rounded, as the format allows). Needs DTZ tables.
    pub fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        let p = to_shakmaty(pos)?;
        self.probe(&p, |tb, p| tb.probe_dtz(p))
            .map(|d| d.ignore_rounding().0)
    }
}

/// A table file must be readable and start with its kind's magic bytes.
fn check_file(path: &Path, magic: [u8; 4]) -> Result<(), String> {
    let mut f = fs::File::open(path).map_err(|e| e.to_string())?;
    let mut head = [0u8; 4];
    f.read_exact(&mut head).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => "shorter than a table header".to_string(),
        _ => e.to_string(),
    })?;
    if head != magic {
        return Err("not a Syzygy table (wrong magic bytes)".to_string());
    }
    Ok(())
}
