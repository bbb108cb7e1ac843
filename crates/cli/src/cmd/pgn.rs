//! `sable pgn`: reads a PGN file game by game, optionally replaying every move
//! (`--validate`), reports each broken game with its line and column as it goes, and ends
//! with a summary line (games, plies, errors, throughput). `--to-epd` writes the mainline
//! positions; `--stats` tabulates results, annotations and errors.

use super::{CliError, CliResult};
use indicatif::{ProgressBar, ProgressStyle};
use sable_chess::SanMode;
use sable_formats::pgn::{GameError, GameResult, PgnReader, Replayer, Visitor};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// The PGN file (UTF-8 or Latin-1).
    file: String,
    /// Replay every move (variations too) and check it is legal.
    #[arg(long)]
    validate: bool,
    /// Accept lenient SAN (`0-0`, `Ng1-f3`, `e8Q`, missing `+`, ...); implies --validate.
    #[arg(long)]
    lenient: bool,
    /// Print counts of results, annotations and error kinds.
    #[arg(long)]
    stats: bool,
    /// Write every mainline position as EPD to this file; implies --validate.
    #[arg(long, value_name = "OUT")]
    to_epd: Option<String>,
}

/// Files larger than this get a progress bar.
const PROGRESS_BYTES: u64 = 4 << 20;

#[derive(Default)]
struct Stats {
    plies: u64,
    results: [u64; 4],
    no_result: u64,
    comments: u64,
    nags: u64,
    variations: u64,
    chess960: u64,
}

/// Counts and optionally replays a game; writes positions when asked.
struct Checker<W> {
    replay: Option<Replayer>,
    stats: Stats,
    epd: Option<W>,
    game: u64,
    mainline_ply: u64,
    result_seen: bool,
    /// Variation depth, kept here too so that syntax-only runs count mainline plies.
    depth: usize,
}

impl<W: Write> Visitor for Checker<W> {
    type Output = ();

    fn begin_game(&mut self) {
        self.game += 1;
        self.mainline_ply = 0;
        self.result_seen = false;
        self.depth = 0;
        if let Some(r) = &mut self.replay {
            r.begin_game();
        }
    }
    fn tag(&mut self, name: &str, value: &str) -> Result<(), GameError> {
        match &mut self.replay {
            Some(r) => r.tag(name, value),
            None => Ok(()),
        }
    }
    fn end_tags(&mut self) -> Result<(), GameError> {
        if let Some(r) = &mut self.replay {
            r.end_tags()?;
            if r.start_position().is_chess960() {
                self.stats.chess960 += 1;
            }
            self.write_epd()?;
        }
        Ok(())
    }
    fn san(&mut self, san: &str) -> Result<(), GameError> {
        if let Some(r) = &mut self.replay {
            r.play_san(san)?;
        }
        if self.depth == 0 {
            self.stats.plies += 1;
            self.mainline_ply += 1;
            self.write_epd()?;
        }
        Ok(())
    }
    fn nag(&mut self, _nag: u8) -> Result<(), GameError> {
        self.stats.nags += 1;
        Ok(())
    }
    fn comment(&mut self, _text: &str) -> Result<(), GameError> {
        self.stats.comments += 1;
        Ok(())
    }
    fn begin_variation(&mut self) -> Result<(), GameError> {
        self.stats.variations += 1;
        self.depth += 1;
        match &mut self.replay {
            Some(r) => r.begin_variation(),
            None => Ok(()),
        }
    }
    fn end_variation(&mut self) -> Result<(), GameError> {
        self.depth = self.depth.saturating_sub(1);
        match &mut self.replay {
            Some(r) => r.end_variation(),
            None => Ok(()),
        }
    }
    fn result(&mut self, result: GameResult) -> Result<(), GameError> {
        if let Some(r) = &self.replay {
            if r.depth() > 0 {
                return Err(GameError::Syntax(format!(
                    "the result {result} comes inside a variation"
                )));
            }
        }
        self.result_seen = true;
        self.stats.results[result as usize] += 1;
        Ok(())
    }
    fn end_game(&mut self) {
        if !self.result_seen {
            self.stats.no_result += 1;
        }
    }
}

impl<W: Write> Checker<W> {
    fn write_epd(&mut self) -> Result<(), GameError> {
        let (Some(out), Some(r)) = (&mut self.epd, &self.replay) else {
            return Ok(());
        };
        if r.depth() > 0 {
            return Ok(());
        }
        let pos = r.position();
        writeln!(
            out,
            "{} hmvc {}; fmvn {}; id \"game {} ply {}\";",
            pos.epd(),
            pos.halfmoves(),
            pos.fullmoves(),
            self.game,
            self.mainline_ply
        )
        .map_err(GameError::Io)
    }
}

pub fn run(args: Args) -> CliResult {
    let io_err = |source| CliError::Io {
        path: args.file.clone(),
        source,
    };
    let file = File::open(&args.file).map_err(io_err)?;
    let size = file.metadata().map_err(io_err)?.len();
    let validate = args.validate || args.lenient || args.to_epd.is_some();
    let mode = if args.lenient {
        SanMode::Lenient
    } else {
        SanMode::Strict
    };
    let epd = match &args.to_epd {
        Some(path) => Some(BufWriter::new(File::create(path).map_err(|source| {
            CliError::Io {
                path: path.clone(),
                source,
            }
        })?)),
        None => None,
    };
    let mut checker = Checker {
        replay: validate.then(|| Replayer::new(mode)),
        stats: Stats::default(),
        epd,
        game: 0,
        mainline_ply: 0,
        result_seen: false,
        depth: 0,
    };
    let progress = if size >= PROGRESS_BYTES {
        let bar = ProgressBar::new(size);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .expect("valid template"),
        );
        Some(bar)
    } else {
        None
    };
    let mut reader = PgnReader::new(BufReader::with_capacity(1 << 16, file));
    // The last game of a file cut short ends without its result: an error here.
    reader.require_results(true);
    let start = Instant::now();
    let (mut games, mut errors) = (0u64, 0u64);
    let mut error_kinds = [0u64; 6];
    while let Some(result) = reader.read_game(&mut checker) {
        games += 1;
        if let Err(e) = result {
            errors += 1;
            error_kinds[kind_index(&e.error)] += 1;
            let line = format!("{}: {e}", args.file);
            match &progress {
                Some(bar) => bar.suspend(|| println!("{line}")),
                None => println!("{line}"),
            }
        }
        if let Some(bar) = &progress {
            if games % 512 == 0 {
                bar.set_position(reader.bytes_read());
            }
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if let Some(mut out) = checker.epd.take() {
        out.flush().map_err(|source| CliError::Io {
            path: args.to_epd.clone().unwrap_or_default(),
            source,
        })?;
    }
    if args.stats {
        print_stats(&checker.stats, &error_kinds);
    }
    let mb = reader.bytes_read() as f64 / 1e6;
    println!(
        "{games} games, {} plies, {errors} errors, {:.1} MB/s, {:.0} games/s{}",
        checker.stats.plies,
        mb / elapsed.max(1e-9),
        games as f64 / elapsed.max(1e-9),
        if validate {
            ""
        } else {
            " (syntax only; --validate replays the moves)"
        }
    );
    if errors > 0 {
        return Err(CliError::msg(format!(
            "{}: {errors} of {games} games could not be read",
            args.file
        )));
    }
    if games == 0 {
        return Err(CliError::msg(format!(
            "{}: no games in the file",
            args.file
        )));
    }
    Ok(())
}

fn kind_index(e: &GameError) -> usize {
    match e {
        GameError::Syntax(_) => 0,
        GameError::Move(_) => 1,
        GameError::Fen { .. } => 2,
        GameError::Variant(_) => 3,
        GameError::Visitor(_) => 4,
        GameError::Io(_) => 5,
    }
}

fn print_stats(s: &Stats, kinds: &[u64; 6]) {
    let r = &s.results;
    let [w, b, d, u] = [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Unknown,
    ]
    .map(|g| r[g as usize]);
    println!(
        "results: 1-0 {w}, 0-1 {b}, 1/2-1/2 {d}, * {u}, none {}",
        s.no_result
    );
    println!(
        "annotations: {} comments, {} NAGs, {} variations; {} Chess960 games",
        s.comments, s.nags, s.variations, s.chess960
    );
    println!(
        "errors: {} syntax, {} moves, {} FEN, {} variant, {} other, {} read",
        kinds[0], kinds[1], kinds[2], kinds[3], kinds[4], kinds[5]
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use sable_formats::Epd;

    fn check(text: &str, validate: bool, epd: bool) -> (Checker<Vec<u8>>, u64) {
        let mut checker = Checker {
            replay: validate.then(|| Replayer::new(SanMode::Strict)),
            stats: Stats::default(),
            epd: epd.then(Vec::new),
            game: 0,
            mainline_ply: 0,
            result_seen: false,
            depth: 0,
        };
        let mut reader = PgnReader::new(text.as_bytes());
        let mut errors = 0;
        while let Some(r) = reader.read_game(&mut checker) {
            errors += u64::from(r.is_err());
        }
        (checker, errors)
    }

    const GAMES: &str = "[Event \"a\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 {x} Nc6 $1 1-0\n\n\
                         1. d4 d5 2. c4 *\n\n1. e4 e5 2. Ke3 *\n";

    #[test]
    fn counts_mainline_plies_with_or_without_replay() {
        let (syntax, syntax_errors) = check(GAMES, false, false);
        let (replayed, replay_errors) = check(GAMES, true, false);
        assert_eq!(syntax_errors, 0, "syntax alone cannot see the illegal Ke3");
        assert_eq!(replay_errors, 1);
        assert_eq!(syntax.stats.plies, 4 + 3 + 3);
        assert_eq!(replayed.stats.plies, 4 + 3 + 2);
        assert_eq!(replayed.stats.variations, 1);
        assert_eq!((replayed.stats.comments, replayed.stats.nags), (1, 1));
        assert_eq!(replayed.stats.results[GameResult::WhiteWins as usize], 1);
    }

    #[test]
    fn epd_output_reads_back_as_the_replayed_positions() {
        let (checker, _) = check(GAMES, true, true);
        let text = String::from_utf8(checker.epd.unwrap()).unwrap();
        let records: Vec<Epd> = text.lines().map(|l| l.parse().unwrap()).collect();
        // Start position plus one per mainline move of the two good games, and the
        // broken game's positions up to its illegal move.
        assert_eq!(records.len(), 5 + 4 + 3);
        assert_eq!(records[0].position, sable_chess::Position::startpos());
        assert_eq!(records[4].id(), Some("game 1 ply 4"));
        assert_eq!(
            records[4].position.fen(),
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
        );
    }
}
