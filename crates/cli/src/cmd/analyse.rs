//! `sable analyse` (alias `annotate`): reads a PGN file game by game, evaluates every
//! position of each mainline with Sable in process or a UCI engine, and writes the games
//! again with `[%eval]` comments, `?!`/`?`/`??` by lichess's rules, the engine's better
//! line at each judged move and the opening name; with `--report DIR`, an HTML page per
//! game (evaluation graph, accuracy, ACPL, critical moments on boards), the graph as SVG
//! and PNG,
//! and an index of the run. Games that cannot be read are reported with line and column
//! and skipped; each game is written and flushed when done, so Ctrl-C keeps them.

use super::{CliError, CliResult};
use crate::analyse::annotate;
use crate::analyse::eval::Eval;
use crate::analyse::pass::{self, analyse_game, Analyser, Assessment, InProcess, Stop};
use crate::analyse::report::{game_page, index_page, IndexRow};
use crate::analyse::svg::eval_graph;
use indicatif::{ProgressBar, ProgressStyle};
use sable_arena::engine::{Engine as UciEngine, EngineConfig, Protocol, Score, ThinkRequest};
use sable_arena::referee::DEFAULT_STALL;
use sable_arena::tc::Limits;
use sable_chess::{Move, Position, SanMode};
use sable_engine::SearchLimits;
use sable_formats::pgn::{PgnReader, TreeBuilder};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Nodes per position for Sable when no limit is given: about 0.1 s a position on one
/// core of a current machine (see the README for the measured rate).
pub const DEFAULT_NODES: u64 = 150_000;
/// The longest the index of a long run goes without being rewritten.
const INDEX_EVERY: Duration = Duration::from_secs(5);
/// Milliseconds per position for a UCI engine when no limit is given.
pub const DEFAULT_UCI_MOVETIME_MS: u64 = 100;

#[derive(clap::Args)]
pub struct Args {
    /// The PGN file (one game or many; read as a stream); `-` for standard input.
    file: String,
    /// Write the annotated PGN here (default: standard output).
    #[arg(short, long, value_name = "OUT.pgn")]
    output: Option<String>,
    /// Write a report per game (HTML, the graph as SVG and PNG) and index.html into DIR.
    #[arg(long, value_name = "DIR")]
    report: Option<String>,
    /// Analyse with this UCI engine (program and arguments) instead of Sable in process.
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// A UCI option for --engine, repeatable: `--option Hash=256`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Search threads (Sable; for --engine, sets its `Threads` option).
    #[arg(long)]
    threads: Option<usize>,
    /// Hash table in MB (Sable, default 64; for --engine, sets its `Hash` option).
    #[arg(long, value_name = "MB")]
    hash: Option<usize>,
    /// Time per position in milliseconds (the default for --engine: 100).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Nodes per position (default for Sable: 150000 when no limit is given).
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per position.
    #[arg(long)]
    depth: Option<u32>,
    /// Only the first N games of the file (broken ones count).
    #[arg(long, value_name = "N")]
    max_games: Option<usize>,
}

/// Sable's engine as the flags set it (one thread and 64 MB unless told).
fn in_process_engine(args: &Args) -> Result<sable_engine::Engine, CliError> {
    let mut engine = sable_engine::Engine::new();
    let fail = |e: sable_engine::EngineError| CliError::msg(e.to_string());
    engine
        .set_threads(args.threads.unwrap_or(1) as i64)
        .map_err(fail)?;
    engine
        .set_hash_mb(args.hash.unwrap_or(64) as i64)
        .map_err(fail)?;
    // No transmission delay in process: --movetime is the search's own time.
    engine.set_move_overhead(0).map_err(fail)?;
    Ok(engine)
}

/// The search of each position: the flags' limits, or [`DEFAULT_NODES`].
fn in_process_limits(args: &Args) -> SearchLimits {
    let mut limits = SearchLimits {
        movetime_ms: args.movetime,
        nodes: args.nodes,
        depth: args.depth,
        ..SearchLimits::default()
    };
    if limits.movetime_ms.is_none() && limits.nodes.is_none() && limits.depth.is_none() {
        limits.nodes = Some(DEFAULT_NODES);
    }
    limits
}

struct External {
    engine: UciEngine,
    config: EngineConfig,
    start_fen: String,
    chess960: bool,
}

impl External {
    fn start(args: &Args, command: &str, cancel: Arc<AtomicBool>) -> Result<External, CliError> {
        let engine_args = super::EngineArgs {
            engine: command.to_string(),
            proto: "uci".into(),
            options: args.options.clone(),
        };
        let super::EngineCommand {
            program,
            args: words,
            mut options,
            ..
        } = engine_args.command()?;
        if let Some(t) = args.threads {
            options.push(("Threads".into(), t.to_string()));
        }
        if let Some(h) = args.hash {
            options.push(("Hash".into(), h.to_string()));
        }
        let mut limits = Limits {
            movetime: args.movetime.map(Duration::from_millis),
            nodes: args.nodes,
            depth: args.depth,
            ..Limits::default()
        };
        if limits.is_unbounded() {
            limits.movetime = Some(Duration::from_millis(DEFAULT_UCI_MOVETIME_MS));
        }
        let config = EngineConfig {
            name: program.rsplit('/').next().unwrap_or(&program).to_string(),
            program: program.clone(),
            args: words,
            dir: None,
            protocol: Protocol::Uci,
            options,
            limits,
            margin: Duration::ZERO,
            stall: DEFAULT_STALL,
            debug: false,
            book: None,
        };
        let engine = UciEngine::start(&config, cancel)
            .map_err(|e| CliError::msg(format!("--engine '{command}': {e}")))?;
        Ok(External {
            engine,
            config,
            start_fen: String::new(),
            chess960: false,
        })
    }
}

impl Analyser for External {
    fn name(&self) -> String {
        let l = &self.config.limits;
        let mut s = self.config.name.clone();
        if let Some(n) = l.nodes {
            s.push_str(&format!(", {n} nodes"));
        }
        if let Some(t) = l.movetime {
            s.push_str(&format!(", {} ms", t.as_millis()));
        }
        if let Some(d) = l.depth {
            s.push_str(&format!(", depth {d}"));
        }
        s + " a position"
    }

    fn begin(&mut self, start: &Position) -> Result<(), String> {
        self.start_fen = start.fen();
        self.chess960 = start.is_chess960();
        self.engine
            .new_game(&self.start_fen, self.chess960)
            .map_err(|e| e.to_string())
    }

    fn assess(&mut self, moves: &[Move], pos: &Position) -> Result<Assessment, String> {
        let texts: Vec<String> = moves
            .iter()
            .map(|m| m.to_uci(self.chess960).to_string())
            .collect();
        let limit = self.config.limits.movetime.unwrap_or(Duration::ZERO);
        let request = ThinkRequest {
            start_fen: &self.start_fen,
            moves: &texts,
            raw_moves: moves,
            position: pos,
            chess960: self.chess960,
            clocks: None,
            deadline: Instant::now() + limit + self.config.stall,
        };
        let reply = self.engine.think(&request).map_err(|e| e.to_string())?;
        let score = reply
            .score
            .ok_or_else(|| format!("no score before 'bestmove {}'", reply.mv))?;
        let (cp, mate) = match score {
            Score::Cp(c) => (Some(c), None),
            Score::Mate(m) => (None, Some(m)),
        };
        let mut line = Vec::new();
        let mut p = pos.clone();
        for text in &reply.pv {
            match p.parse_uci(text) {
                Ok(m) => {
                    line.push(m);
                    p.make(m);
                }
                Err(_) => break,
            }
        }
        Ok(Assessment {
            eval: Eval::from_side_to_move(pos.turn(), cp, mate),
            line,
        })
    }
}

fn write_file(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), CliError> {
    std::fs::write(path, bytes).map_err(|source| CliError::Io {
        path: path.display().to_string(),
        source,
    })
}

pub fn run(args: Args) -> CliResult {
    let (input, total_bytes): (Box<dyn BufRead>, u64) = if args.file == "-" {
        (Box::new(BufReader::new(std::io::stdin())), 0)
    } else {
        let file = File::open(&args.file).map_err(|source| CliError::Io {
            path: args.file.clone(),
            source,
        })?;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        (Box::new(BufReader::new(file)), len)
    };
    let mut reader = PgnReader::new(input);
    // A file cut short must not pass its last game off as whole.
    reader.require_results(true);
    let cancel = super::cancel_on_ctrlc("sable analyse");
    let mut own_engine = None;
    let mut analyser: Box<dyn Analyser> = match &args.engine {
        Some(cmd) => Box::new(External::start(&args, cmd, cancel.clone())?),
        None => Box::new(InProcess {
            engine: own_engine.insert(in_process_engine(&args)?),
            limits: in_process_limits(&args),
            cancel: &cancel,
        }),
    };
    let engine_name = analyser.name();
    if let Some(path) = &args.output {
        let same = |a: &str, b: &str| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if same(path, &args.file) {
            return Err(CliError::msg(format!(
                "-o {path}: that is the input file; write the annotated games elsewhere"
            )));
        }
    }
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(BufWriter::new(File::create(path).map_err(|source| {
            CliError::Io {
                path: path.clone(),
                source,
            }
        })?)),
        None => Box::new(std::io::stdout().lock()),
    };
    let out_name = args
        .output
        .clone()
        .unwrap_or_else(|| "standard output".into());
    let report_dir = args.report.as_ref().map(PathBuf::from);
    if let Some(dir) = &report_dir {
        std::fs::create_dir_all(dir).map_err(|source| CliError::Io {
            path: dir.display().to_string(),
            source,
        })?;
    }
    let pb = if std::io::stderr().is_terminal() && total_bytes > 0 {
        let pb = ProgressBar::new(total_bytes);
        pb.set_style(
            ProgressStyle::with_template("{bar:30} {bytes}/{total_bytes} {elapsed_precise} {msg}")
                .expect("a valid template"),
        );
        pb
    } else if std::io::stderr().is_terminal() {
        let pb = ProgressBar::new_spinner();
        pb.set_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                .expect("a valid template"),
        );
        pb
    } else {
        ProgressBar::hidden()
    };

    let started = Instant::now();
    let mut builder = TreeBuilder::new(SanMode::Lenient);
    let mut rows: Vec<IndexRow> = Vec::new();
    let mut last_index = Instant::now();
    let mut skipped: Vec<String> = Vec::new();
    let (mut games_read, mut analysed, mut plies_done, mut positions_done) = (0usize, 0, 0, 0u64);
    let mut failure = None;
    while let Some(item) = reader.read_game(&mut builder) {
        games_read += 1;
        if args.max_games.is_some_and(|m| games_read > m) {
            break;
        }
        let mut tree = match item {
            Ok(t) => t,
            Err(e) => {
                let msg = format!("{}: {e}", args.file);
                pb.suspend(|| eprintln!("sable analyse: {msg}; game skipped"));
                skipped.push(msg);
                continue;
            }
        };
        if tree.root.moves.iter().any(|n| n.mv.is_null()) {
            let msg = format!(
                "{}: game {games_read}: a null move in the mainline",
                args.file
            );
            pb.suspend(|| eprintln!("sable analyse: {msg}; game skipped"));
            skipped.push(msg);
            continue;
        }
        annotate::strip(&mut tree);
        let mut count = || {
            positions_done += 1;
        };
        let pass_result = match analyse_game(analyser.as_mut(), &tree, &cancel, &mut count) {
            Ok(r) => r,
            Err(Stop::Cancelled) => break,
            Err(Stop::Engine(e)) => {
                failure = Some(format!(
                    "engine {engine_name}: {e} in game {games_read} of {}",
                    args.file
                ));
                break;
            }
        };
        // Everything after the search is this program's own code: a bug in it costs the
        // game, not the run.
        let finished = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let report = pass::report(games_read, &tree, &pass_result);
            annotate::apply(&mut tree, &report);
            let pages = report_dir.is_some().then(|| {
                (
                    eval_graph(&report),
                    crate::analyse::png::eval_graph_png(&report),
                    game_page(&report, &engine_name),
                )
            });
            (tree.to_pgn(), report, pages)
        }));
        let Ok((pgn, report, pages)) = finished else {
            let msg = format!(
                "{}: game {games_read}: internal error while annotating (see above)",
                args.file
            );
            pb.suspend(|| eprintln!("sable analyse: {msg}; game skipped"));
            skipped.push(msg);
            continue;
        };
        let written = out.write_all(pgn.as_bytes()).and_then(|()| out.flush());
        if let Err(source) = written {
            return Err(CliError::Io {
                path: out_name,
                source,
            });
        }
        plies_done += report.plies.len();
        analysed += 1;
        if let (Some(dir), Some((svg, png, html))) = (&report_dir, pages) {
            let stem = format!("game-{games_read:04}");
            write_file(&dir.join(format!("{stem}-graph.svg")), svg)?;
            write_file(&dir.join(format!("{stem}-graph.png")), png)?;
            write_file(&dir.join(format!("{stem}.html")), html)?;
            rows.push(IndexRow::new(&report, format!("{stem}.html")));
            // Rewritten as it grows, but at most every few seconds for long runs.
            if rows.len() <= 50 || last_index.elapsed() > INDEX_EVERY {
                write_file(
                    &dir.join("index.html"),
                    index_page(&args.file, &rows, &skipped, &engine_name),
                )?;
                last_index = Instant::now();
            }
        }
        pb.set_position(reader.bytes_read());
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        pb.set_message(format!(
            "{} games, {:.1} moves/s",
            analysed,
            plies_done as f64 / secs
        ));
    }
    pb.finish_and_clear();
    if let Some(dir) = &report_dir {
        write_file(
            &dir.join("index.html"),
            index_page(&args.file, &rows, &skipped, &engine_name),
        )?;
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "sable analyse: {analysed} games analysed, {} skipped, {plies_done} moves ({positions_done} positions searched) in {secs:.1} s: {:.1} moves/s with {engine_name}{}",
        skipped.len(),
        plies_done as f64 / secs.max(1e-9),
        if cancel.load(Ordering::SeqCst) { " (interrupted)" } else { "" }
    );
    match failure {
        Some(f) => Err(CliError::msg(f)),
        // The games that could be read are written; the exit status still tells a script
        // that the file was not read whole.
        None if !skipped.is_empty() => Err(CliError::msg(format!(
            "{}: {} game{} could not be read (named above) and {} skipped",
            args.file,
            skipped.len(),
            if skipped.len() == 1 { "" } else { "s" },
            if skipped.len() == 1 { "was" } else { "were" },
        ))),
        None if analysed == 0 && !cancel.load(Ordering::SeqCst) => {
            Err(CliError::msg(format!("{}: no games to analyse", args.file)))
        }
        None => Ok(()),
    }
}
