//! `sable data`: the game-record files `sable datagen` writes (`sable_formats::record`):
//! statistics, merging, the `FEN | score | result` text, validation, and records made
//! from scored PGN games (OpenBench data generation, any match).
//!
//! Every tool reads each record through its checksums and replays its moves. A file cut
//! inside its last record (an interrupted run) loses that record with a message naming
//! its offset; `validate` counts it as an error. Any other damage is refused with the
//! file and byte offset named.

use super::{CliError, CliResult};
use sable_formats::pgn::{GameError, PgnReader};
use sable_formats::record::{
    from_pgn_tree, training_positions, Filter, GameRecord, GameResult, RecordError, RecordReader,
    RecordWriter, Termination,
};
use std::io::{BufRead, BufReader, BufWriter, Write};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Games, plies, training positions (after the filter), results, terminations, game
    /// lengths, a histogram of the scores, bytes per position.
    ///
    /// The first line of each file's report is `FILE: G games, P positions, T training
    /// positions, B bytes, X bytes/position` (tools/data-manifest.sh reads it).
    Stats {
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Concatenates record files into one, checking every record and move; a cut-short
    /// last record of an input is left out with a message, any other damage refused.
    Cat {
        #[arg(required = true)]
        files: Vec<String>,
        /// The merged file (must not exist yet, or be empty).
        #[arg(short, long)]
        out: String,
    },
    /// Writes the training positions as text, one `FEN | score | result` line each.
    ///
    /// score: the searched score for the side to move, in centipawns (with --all a mate
    /// is written as ±(32000 - plies to mate), positive when the side to move mates).
    /// result: the game's result from White's side, 1.0, 0.5 or 0.0 (as `sable tune`
    /// reads). Positions are those the training filter keeps (side to move not in check,
    /// best move neither a capture nor a promotion, no mate score) unless --all.
    ToText {
        file: String,
        #[arg(short, long)]
        out: String,
        /// Every ply, unfiltered.
        #[arg(long)]
        all: bool,
    },
    /// Replays every game: checksums, legal start position, every move legal, a game
    /// ended by the rules ending in mate or a draw with the result to match. Names every
    /// bad record by file and byte offset; exits non-zero on any error.
    Validate {
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Converts PGN games whose moves carry the engine's score in a comment (cutechess,
    /// fastchess, OpenBench's datagen PGNs: `{+0.35/12 0.1s}`) into a record file for
    /// `sable train`.
    ///
    /// Unscored moves before the first scored one are the opening; an unscored move
    /// later ends the game's record there. A game that cannot be converted (no result,
    /// no scores, an illegal move, a result the final position contradicts) is skipped
    /// with its file and game number named; the others are kept.
    FromPgn {
        #[arg(required = true)]
        files: Vec<String>,
        /// The record file (must not exist yet, or be empty).
        #[arg(short, long)]
        out: String,
    },
}

pub fn run(args: Args) -> CliResult {
    match args.command {
        Command::Stats { files } => {
            let mut total = Stats::default();
            for f in &files {
                let s = stats(f)?;
                s.print(f);
                total.add(&s);
            }
            if files.len() > 1 {
                total.print("all files");
            }
            Ok(())
        }
        Command::Cat { files, out } => cat(&files, &out),
        Command::ToText { file, out, all } => to_text(&file, &out, all),
        Command::Validate { files } => validate(&files),
        Command::FromPgn { files, out } => from_pgn(&files, &out),
    }
}

fn io(path: &str) -> impl FnOnce(std::io::Error) -> CliError + '_ {
    move |source| CliError::Io {
        path: path.to_string(),
        source,
    }
}

/// Opens a record file, refusing what cannot hold records.
fn open(path: &str) -> Result<(RecordReader<BufReader<std::fs::File>>, u64), CliError> {
    let meta = std::fs::metadata(path).map_err(io(path))?;
    if meta.is_dir() {
        return Err(CliError::msg(format!(
            "{path}: is a directory, not a record file"
        )));
    }
    let file = std::fs::File::open(path).map_err(io(path))?;
    let mut file = BufReader::new(file);
    // Read, not judged by the length: some files (under /proc) report 0 bytes and yet
    // hold data, or fail to read.
    if file.fill_buf().map_err(io(path))?.is_empty() {
        return Err(CliError::msg(format!(
            "{path}: byte 0: the file is empty (no game records)"
        )));
    }
    Ok((RecordReader::new(file), meta.len()))
}

/// Reads every game of a file, replayed: `visit` gets each good game. A cut-short last
/// record is reported and skipped; any other error ends the read with the error.
fn each_game(
    path: &str,
    mut visit: impl FnMut(&GameRecord) -> Result<(), CliError>,
) -> Result<u64, CliError> {
    let (mut reader, len) = open(path)?;
    while let Some(r) = reader.next() {
        match r {
            Ok(game) => {
                game.replay(|_, _, _| {}).map_err(|source| {
                    let e = RecordError::Illegal {
                        offset: reader.record_offset(),
                        source,
                    };
                    CliError::msg(format!("{path}: {e}"))
                })?;
                visit(&game)?;
            }
            Err(e) if e.is_truncation() => {
                eprintln!("{path}: {e}; that game is left out");
            }
            Err(e) => return Err(CliError::msg(format!("{path}: {e}"))),
        }
    }
    Ok(len)
}

/// Score histogram buckets (centipawns, side to move): upper bounds, exclusive.
const BUCKETS: [i32; 12] = [
    -1000, -500, -200, -100, -50, -10, 11, 51, 101, 201, 501, 1001,
];
const BUCKET_NAMES: [&str; 15] = [
    "mated",
    "< -1000",
    "-1000..-501",
    "-500..-201",
    "-200..-101",
    "-100..-51",
    "-50..-11",
    "-10..10",
    "11..50",
    "51..100",
    "101..200",
    "201..500",
    "501..1000",
    "> 1000",
    "mating",
];

#[derive(Default)]
struct Stats {
    games: u64,
    plies: u64,
    kept: u64,
    bytes: u64,
    results: [u64; 3],
    terminations: [u64; 4],
    lengths: Vec<u32>,
    histogram: [u64; 15],
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.games += o.games;
        self.plies += o.plies;
        self.kept += o.kept;
        self.bytes += o.bytes;
        for i in 0..3 {
            self.results[i] += o.results[i];
        }
        for i in 0..4 {
            self.terminations[i] += o.terminations[i];
        }
        self.lengths.extend_from_slice(&o.lengths);
        for i in 0..15 {
            self.histogram[i] += o.histogram[i];
        }
    }

    fn print(&self, name: &str) {
        let per = |n: u64| n as f64 / self.plies.max(1) as f64;
        println!(
            "{name}: {} games, {} positions, {} training positions, {} bytes, {:.2} bytes/position",
            self.games,
            self.plies,
            self.kept,
            self.bytes,
            self.bytes as f64 / self.plies.max(1) as f64
        );
        println!(
            "  training positions {:.1} % of all (not in check, quiet best move, no mate score)",
            100.0 * per(self.kept)
        );
        println!(
            "  results for White: +{} ={} -{}; ended by the rules {}, win adjudication {}, draw adjudication {}, length {}",
            self.results[0],
            self.results[1],
            self.results[2],
            self.terminations[0],
            self.terminations[1],
            self.terminations[2],
            self.terminations[3]
        );
        let mut l = self.lengths.clone();
        l.sort_unstable();
        if !l.is_empty() {
            println!(
                "  plies per game: min {}, median {}, mean {:.1}, max {}",
                l[0],
                l[l.len() / 2],
                self.plies as f64 / l.len() as f64,
                l[l.len() - 1]
            );
        }
        println!("  scores for the side to move (cp), all plies:");
        let most = self.histogram.iter().copied().max().unwrap_or(0).max(1);
        for (name, &n) in BUCKET_NAMES.iter().zip(&self.histogram) {
            let bar = "#".repeat((n * 40).div_ceil(most) as usize);
            println!("    {name:>12} {n:>10} {:>5.1} % {bar}", 100.0 * per(n));
        }
    }
}

fn bucket(score: sable_formats::record::Score) -> usize {
    match (score.mate_plies(), score.as_cp()) {
        (Some(p), _) if p < 0 => 0,
        (Some(_), _) => 14,
        (_, Some(cp)) => 1 + BUCKETS.iter().take_while(|&&b| cp as i32 >= b).count(),
        _ => unreachable!("a score is centipawns or a mate"),
    }
}

fn stats(path: &str) -> Result<Stats, CliError> {
    let mut s = Stats::default();
    let filter = Filter::default();
    let mut kept = Vec::new();
    s.bytes = each_game(path, |g| {
        s.games += 1;
        s.plies += g.plies.len() as u64;
        s.results[g.result as usize] += 1;
        s.terminations[g.termination as usize] += 1;
        s.lengths.push(g.plies.len() as u32);
        for p in &g.plies {
            s.histogram[bucket(p.score)] += 1;
        }
        kept.clear();
        training_positions(g, &filter, &mut kept).expect("replayed already");
        s.kept += kept.len() as u64;
        Ok(())
    })?;
    Ok(s)
}

fn create_new(path: &str) -> Result<std::fs::File, CliError> {
    if std::fs::metadata(path).is_ok_and(|m| m.is_dir() || m.len() > 0) {
        return Err(CliError::msg(format!(
            "{path}: exists; not overwriting it (remove it first)"
        )));
    }
    std::fs::File::create(path).map_err(io(path))
}

fn same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

fn cat(files: &[String], out: &str) -> CliResult {
    if let Some(f) = files.iter().find(|f| same_file(f, out)) {
        return Err(CliError::msg(format!("{f}: is also the output")));
    }
    // Check everything before writing anything.
    for f in files {
        each_game(f, |_| Ok(()))?;
    }
    let mut w = RecordWriter::new(BufWriter::new(create_new(out)?));
    let mut plies = 0u64;
    for f in files {
        each_game(f, |g| {
            plies += g.plies.len() as u64;
            w.write(g).map_err(|e| CliError::msg(format!("{out}: {e}")))
        })?;
    }
    println!(
        "{} games, {plies} positions, {} bytes to {out}",
        w.games(),
        w.bytes()
    );
    Ok(())
}

fn to_text(file: &str, out: &str, all: bool) -> CliResult {
    let filter = if all { Filter::ALL } else { Filter::default() };
    open(file)?; // a bad input leaves no output behind
    let mut w = BufWriter::new(std::fs::File::create(out).map_err(io(out))?);
    let mut kept = Vec::new();
    let (mut games, mut lines) = (0u64, 0u64);
    each_game(file, |g| {
        games += 1;
        let label = match g.result {
            GameResult::WhiteWins => "1.0",
            GameResult::Draw => "0.5",
            GameResult::BlackWins => "0.0",
        };
        kept.clear();
        training_positions(g, &filter, &mut kept).expect("replayed already");
        for t in &kept {
            // The text format gives score and result from White's side; records keep
            // the mover's score.
            let white = match t.pos.turn() {
                sable_chess::Color::White => t.score,
                sable_chess::Color::Black => -t.score,
            };
            writeln!(w, "{} | {white} | {label}", t.pos.fen()).map_err(io(out))?;
            lines += 1;
        }
        Ok(())
    })?;
    w.flush().map_err(io(out))?;
    println!("{games} games, {lines} positions to {out}");
    Ok(())
}

/// What is wrong with a game whose moves are all legal, if anything.
fn check_end(g: &GameRecord, end: &sable_chess::Position) -> Option<String> {
    if g.termination != Termination::Rules || !end.legal_moves().is_empty() {
        return None;
    }
    let expected = match (end.in_check(), end.turn()) {
        (false, _) => GameResult::Draw,
        (true, sable_chess::Color::White) => GameResult::BlackWins,
        (true, sable_chess::Color::Black) => GameResult::WhiteWins,
    };
    (g.result != expected).then(|| {
        format!(
            "the game ends in {} ({}) but its result is {}",
            if end.in_check() { "mate" } else { "stalemate" },
            end.fen(),
            g.result.pgn()
        )
    })
}

fn validate(files: &[String]) -> CliResult {
    let mut bad_files = 0;
    for path in files {
        let mut errors = 0u64;
        let (mut games, mut plies) = (0u64, 0u64);
        match open(path) {
            Err(e) => {
                println!("{e}");
                errors += 1;
            }
            Ok((mut reader, _)) => {
                while let Some(r) = reader.next() {
                    let at = reader.record_offset();
                    match r {
                        Ok(g) => match g.replay(|_, _, _| {}) {
                            Ok(end) => match check_end(&g, &end) {
                                None => {
                                    games += 1;
                                    plies += g.plies.len() as u64;
                                }
                                Some(why) => {
                                    println!("{path}: byte {at}: {why}");
                                    errors += 1;
                                }
                            },
                            Err(source) => {
                                let e = RecordError::Illegal { offset: at, source };
                                println!("{path}: {e}");
                                errors += 1;
                            }
                        },
                        Err(e) => {
                            println!("{path}: {e}");
                            errors += 1;
                        }
                    }
                }
            }
        }
        if errors == 0 {
            println!("{path}: {games} games, {plies} positions, all valid");
        } else {
            println!("{path}: {games} games valid, {errors} bad");
            bad_files += 1;
        }
    }
    if bad_files > 0 {
        return Err(CliError::msg(format!(
            "{bad_files} of {} files have errors",
            files.len()
        )));
    }
    Ok(())
}

/// At most this many skipped games are named one by one; the rest are only counted.
const SKIPS_SHOWN: u64 = 20;

fn from_pgn(files: &[String], out: &str) -> CliResult {
    if let Some(f) = files.iter().find(|f| same_file(f, out)) {
        return Err(CliError::msg(format!("{f}: is also the output")));
    }
    for f in files {
        if std::fs::metadata(f).map_err(io(f))?.is_dir() {
            return Err(CliError::msg(format!(
                "{f}: is a directory, not a PGN file"
            )));
        }
    }
    let mut w = RecordWriter::new(BufWriter::new(create_new(out)?));
    let (mut plies, mut skipped) = (0u64, 0u64);
    for f in files {
        let file = std::fs::File::open(f).map_err(io(f))?;
        let reader = PgnReader::new(BufReader::new(file));
        for (index, tree) in reader.trees(sable_chess::SanMode::Lenient).enumerate() {
            let number = index + 1;
            let why = match tree {
                // A file that cannot be read stops the run: what it holds is unknown.
                Err(e) if matches!(e.error, GameError::Io(_)) => {
                    return Err(CliError::msg(format!("{f}: {e}")));
                }
                Err(e) => e.to_string(),
                Ok(tree) => match from_pgn_tree(&tree, w.games() as u32) {
                    Ok(g) => {
                        plies += g.plies.len() as u64;
                        w.write(&g)
                            .map_err(|e| CliError::msg(format!("{out}: {e}")))?;
                        continue;
                    }
                    Err(e) => e.to_string(),
                },
            };
            skipped += 1;
            if skipped <= SKIPS_SHOWN {
                eprintln!("skipped: {f}: game {number}: {why}");
            }
        }
    }
    if skipped > SKIPS_SHOWN {
        eprintln!("skipped: {} more games", skipped - SKIPS_SHOWN);
    }
    let games = w.games();
    let bytes = w.bytes();
    w.into_inner().flush().map_err(io(out))?;
    println!("{games} games, {plies} positions, {bytes} bytes to {out}; {skipped} games skipped");
    if games == 0 {
        return Err(CliError::msg(format!(
            "no game could be converted; {out} holds no records"
        )));
    }
    Ok(())
}
