//! PGN reading and replaying speed, in one run: Sable (`sable_formats::pgn::PgnReader`
//! with a `Replayer` in strict SAN, the work of `sable pgn --validate`), pgn-reader with
//! shakmaty replaying every move, and python-chess (`chess.pgn.read_game` in a loop, by
//! `python_chess_speed.py`), on the same files, best of N rounds, with the ratios.
//!
//! ```sh
//! cargo run --release --manifest-path tools/pgn-reader-compare/Cargo.toml -- FILE...
//! ```
//!
//! Options: `--rounds N` (default 3), `--no-python`, `--python CMD` (default `python3`),
//! `--only sable|pgn-reader` (one Rust reader alone, no table: for a profiler).
//!
//! Every reader reads the file from memory and is timed by the CPU time of its thread
//! (wall time where the system does not tell it; see `clock`). The Rust readers run in
//! turns (Sable, then pgn-reader, each round) so that a busy machine slows both alike. A game with a `FEN` tag
//! starts from that position on both Rust sides (Chess960 when the standard reading of the
//! castling rights fails, as Sable does). pgn-reader skips variations (as its own
//! `validate` example does), Sable replays them; the move counts then differ and the table
//! says so. The counts of games, moves and broken games are printed for each reader so that
//! the same work can be checked.

use pgn_reader::{BufferedReader, RawHeader, SanPlus, Skip, Visitor as PgnVisitor};
use sable_chess::SanMode;
use sable_formats::pgn::{GameError, PgnReader, Replayer, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};
use std::process::Command;

/// What a reader did with a file, and its best time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Run {
    games: u64,
    moves: u64,
    errors: u64,
    seconds: f64,
}

impl Run {
    fn same_counts(&self, other: &Run) -> bool {
        (self.games, self.moves, self.errors) == (other.games, other.moves, other.errors)
    }
}

/// Sable: replays every move of every line, as `sable pgn --validate` does.
struct SableReplay {
    replay: Replayer,
    moves: u64,
}

impl Visitor for SableReplay {
    type Output = ();
    fn begin_game(&mut self) {
        self.replay.begin_game();
    }
    fn tag(&mut self, name: &str, value: &str) -> Result<(), GameError> {
        self.replay.tag(name, value)
    }
    fn end_tags(&mut self) -> Result<(), GameError> {
        self.replay.end_tags()
    }
    fn san(&mut self, san: &str) -> Result<(), GameError> {
        self.replay.play_san(san)?;
        self.moves += 1;
        Ok(())
    }
    fn begin_variation(&mut self) -> Result<(), GameError> {
        self.replay.begin_variation()
    }
    fn end_variation(&mut self) -> Result<(), GameError> {
        self.replay.end_variation()
    }
    fn end_game(&mut self) {}
}

fn run_sable(bytes: &[u8]) -> Run {
    let mut visitor = SableReplay {
        replay: Replayer::new(SanMode::Strict),
        moves: 0,
    };
    let mut reader = PgnReader::new(bytes);
    let (mut games, mut errors) = (0, 0);
    while let Some(result) = reader.read_game(&mut visitor) {
        games += 1;
        errors += u64::from(result.is_err());
    }
    Run {
        games,
        moves: visitor.moves,
        errors,
        seconds: 0.0,
    }
}

/// pgn-reader with shakmaty: every mainline SAN to a legal move, played.
#[derive(Default)]
struct ShakmatyReplay {
    pos: Chess,
    fen: Vec<u8>,
    broken: bool,
    moves: u64,
    errors: u64,
    games: u64,
}

impl PgnVisitor for ShakmatyReplay {
    type Result = ();
    fn begin_game(&mut self) {
        self.fen.clear();
        self.broken = false;
    }
    fn header(&mut self, key: &[u8], value: RawHeader<'_>) {
        if key == b"FEN" {
            self.fen.clear();
            self.fen.extend_from_slice(value.as_bytes());
        }
    }
    fn end_headers(&mut self) -> Skip {
        self.pos = if self.fen.is_empty() {
            Chess::default()
        } else {
            let setup = Fen::from_ascii(&self.fen).ok();
            let pos = setup.and_then(|fen| {
                fen.clone()
                    .into_position(CastlingMode::Standard)
                    .or_else(|_| fen.into_position(CastlingMode::Chess960))
                    .ok()
            });
            match pos {
                Some(pos) => pos,
                None => {
                    self.broken = true;
                    Chess::default()
                }
            }
        };
        Skip(false)
    }
    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }
    fn san(&mut self, san: SanPlus) {
        if self.broken {
            return;
        }
        match san.san.to_move(&self.pos) {
            Ok(m) => {
                self.pos.play_unchecked(&m);
                self.moves += 1;
            }
            Err(_) => self.broken = true,
        }
    }
    fn end_game(&mut self) {
        self.games += 1;
        self.errors += u64::from(self.broken);
    }
}

fn run_pgn_reader(bytes: &[u8]) -> Run {
    let mut visitor = ShakmatyReplay::default();
    BufferedReader::new(bytes)
        .read_all(&mut visitor)
        .expect("in-memory read");
    Run {
        games: visitor.games,
        moves: visitor.moves,
        errors: visitor.errors,
        seconds: 0.0,
    }
}

/// Seconds of CPU time this thread has used, where the system tells it (Linux on 64-bit
/// targets), else of wall time since the first call. A run takes tens of milliseconds:
/// on a machine shared with other work its wall time is mostly the scheduler's doing,
/// while its CPU time moves little (the perft script compares CPU time for the same
/// reason).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn clock() -> f64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `clock_gettime` writes one `struct timespec` (two 64-bit fields on these
    // targets) to the pointer, which points at `t`.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    t.sec as f64 + t.nsec as f64 * 1e-9
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn clock() -> f64 {
    use std::time::Instant;
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// What `clock` measures, for the table's footnote.
const CLOCK_NAME: &str = if cfg!(all(target_os = "linux", target_pointer_width = "64")) {
    "CPU time of the reading thread"
} else {
    "wall time"
};

fn timed(f: impl Fn(&[u8]) -> Run, bytes: &[u8], best: &mut Run) {
    let start = clock();
    let mut run = f(bytes);
    run.seconds = clock() - start;
    if best.seconds == 0.0 || run.seconds < best.seconds {
        *best = run;
    }
}

fn run_python(python: &str, path: &str, rounds: u32) -> Result<Run, String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/python_chess_speed.py");
    let out = Command::new(python)
        .arg(script)
        .arg(path)
        .arg(rounds.to_string())
        .output()
        .map_err(|e| format!("{python}: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let fields: Vec<&str> = text.split_whitespace().collect();
    let parse = |i: usize| -> Result<f64, String> {
        fields
            .get(i)
            .and_then(|f| f.parse().ok())
            .ok_or_else(|| format!("python-chess printed {text:?}"))
    };
    Ok(Run {
        games: parse(0)? as u64,
        moves: parse(1)? as u64,
        errors: parse(2)? as u64,
        seconds: parse(3)?,
    })
}

fn rate(count: u64, run: &Run) -> String {
    let per_second = count as f64 / run.seconds;
    if per_second >= 1e6 {
        format!("{:.2}M", per_second / 1e6)
    } else {
        format!("{:.0}k", per_second / 1e3)
    }
}

fn main() {
    let mut rounds = 3u32;
    let mut python = Some("python3".to_string());
    let mut files = vec![];
    let mut only = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .expect("--rounds N")
            }
            "--no-python" => python = None,
            "--only" => only = Some(args.next().expect("--only sable|pgn-reader")),
            "--python" => python = Some(args.next().expect("--python CMD")),
            _ => files.push(arg),
        }
    }
    if files.is_empty() {
        eprintln!("usage: pgn-reader-compare [--rounds N] [--no-python] [--python CMD] FILE...");
        std::process::exit(2);
    }
    if let Some(which) = only {
        let f = match which.as_str() {
            "sable" => run_sable,
            "pgn-reader" => run_pgn_reader,
            _ => panic!("--only sable|pgn-reader"),
        };
        for path in &files {
            let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let mut best = Run::default();
            for _ in 0..rounds {
                timed(f, &bytes, &mut best);
            }
            println!("{path}: {which}: {best:?}");
        }
        return;
    }
    println!(
        "| file | MB | games | moves | Sable games/s | Sable moves/s | pgn-reader+shakmaty moves/s | python-chess moves/s | Sable / pgn-reader | Sable / python-chess |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut notes = vec![];
    for path in &files {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        let (mut sable, mut theirs) = (Run::default(), Run::default());
        for _ in 0..rounds {
            timed(run_sable, &bytes, &mut sable);
            timed(run_pgn_reader, &bytes, &mut theirs);
        }
        let py = python.as_deref().map(|p| run_python(p, path, rounds));
        if !sable.same_counts(&theirs) {
            notes.push(format!(
                "{name}: counts differ: Sable {} games, {} moves, {} broken; pgn-reader {} games, {} moves, {} broken",
                sable.games, sable.moves, sable.errors, theirs.games, theirs.moves, theirs.errors
            ));
        }
        let (py_rate, py_ratio) = match &py {
            Some(Ok(p)) => {
                if !sable.same_counts(p) {
                    notes.push(format!(
                        "{name}: counts differ: Sable {} games, {} moves, {} broken; python-chess {} games, {} moves, {} broken",
                        sable.games, sable.moves, sable.errors, p.games, p.moves, p.errors
                    ));
                }
                (
                    rate(p.moves, p),
                    format!("{:.0}x", p.seconds / sable.seconds),
                )
            }
            Some(Err(e)) => {
                notes.push(format!("{name}: python-chess failed: {}", e.trim()));
                ("-".into(), "-".into())
            }
            None => ("-".into(), "-".into()),
        };
        println!(
            "| {name} | {:.1} | {} | {} | {} | {} | {} | {py_rate} | {:.2}x | {py_ratio} |",
            bytes.len() as f64 / 1e6,
            sable.games,
            sable.moves,
            rate(sable.games, &sable),
            rate(sable.moves, &sable),
            rate(theirs.moves, &theirs),
            theirs.seconds / sable.seconds,
        );
    }
    println!(
        "\nBest of {rounds} rounds each, in memory, timed by {CLOCK_NAME} (python-chess: CPU time of its process). Ratios are of times for the whole file (higher: Sable faster)."
    );
    for note in &notes {
        println!("note: {note}");
    }
}
