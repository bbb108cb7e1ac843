//! `sable datagen`: self-play games at a fixed node count, played by Sable against itself
//! in process (no UCI round trips, one single-threaded engine per worker, a cleared table
//! and histories per game), each from a book opening and/or random plies, adjudicated the
//! way our gauntlets are so that hopeless endings do not cost minutes of node budget.
//!
//! Two outputs:
//! - text (`FEN | result`, the format `sable tune` reads): only positions a static
//!   evaluation can judge are kept: not in check, a quiet best move (no capture or
//!   promotion), no mate score. `--nodes` is a hard limit per move.
//! - binary game records (`sable_formats::record`; the default when the file name ends in
//!   `.bin`): every ply with its searched score, the whole game kept (training filters
//!   when reading). `--nodes` is a soft limit (no new iteration past it, `--hard-nodes`
//!   caps the last one). Each game is written and flushed as it finishes; `--append`
//!   continues a file, playing the game numbers it lacks from the lowest up.
//!
//! Every game is played from a seed derived from its number and `--seed`, so the set of
//! games of a run is reproducible whatever the thread count.

use super::{CliError, CliResult};
use indicatif::{ProgressBar, ProgressStyle};
use sable_arena::openings::{Book, BookSpec, Format, Order};
use sable_arena::rng::splitmix;
use sable_chess::{Color, Outcome, Position};
use sable_engine::limits::SearchLimits;
use sable_engine::score::{is_mate, MATE};
use sable_engine::Engine;
use sable_formats::record::{
    GameRecord, GameResult, Ply, RecordReader, RecordWriter, Score, Termination,
};
use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Where the games go: game records when the name ends in `.bin` (see --format),
    /// otherwise one `FEN | result` line per quiet position.
    out: String,
    /// Number of games (with --append: games to add).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Nodes per move: a hard limit for text output; for binary output a soft one (no
    /// new iteration once reached).
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Binary output: the most nodes any one move may take.
    #[arg(long, default_value_t = 1_000_000)]
    hard_nodes: u64,
    /// Output format: auto (binary for a .bin file, else text), text or bin.
    #[arg(long, default_value = "auto")]
    format: String,
    /// Binary output: continue the file (checked first; a cut-short last record is
    /// dropped) with the game numbers it lacks, from the lowest up. Without it an
    /// existing non-empty file is refused.
    #[arg(long)]
    append: bool,
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Opening book (EPD, or PGN when the name ends in .pgn); the start position if none.
    #[arg(long)]
    book: Option<String>,
    /// Random legal plies played after the book moves, for variety.
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    /// Openings whose searched score is further from zero than this (cp) are redrawn.
    #[arg(long, default_value_t = 300)]
    max_opening_score: i32,
    /// Hash per game, in MB.
    #[arg(long, default_value_t = 8)]
    hash: i64,
    /// Seed for the opening order and the random plies (each game's seed is derived from
    /// it and the game's number; runs with different seeds play different games).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play with this network (`UseNNUE` on) instead of the default evaluation: the next
    /// round's data comes from the newest net.
    #[arg(long)]
    eval_file: Option<String>,
    /// Play with the hand-crafted evaluation even when a network is embedded (how the
    /// first round's data, `nets/data/sable-gen1-*`, was played).
    #[arg(long, conflicts_with = "eval_file")]
    hce: bool,
    /// When standard error is not a terminal (a run under nohup, whose progress bar no one
    /// sees), print a progress line to standard output every this many games; 0 for none.
    #[arg(long, default_value_t = 1000)]
    report_every: u64,
}

/// Adjudication, as in `tools/gauntlet.sh`: a win once both sides agree the score is
/// beyond `WIN_CP` for `WIN_PLIES` plies; a draw after `DRAW_FROM_PLY` once it stays
/// within `DRAW_CP` for `DRAW_PLIES` plies; a draw at `MAX_PLIES`.
const WIN_CP: i32 = 1000;
const WIN_PLIES: u32 = 6;
const DRAW_FROM_PLY: usize = 80;
const DRAW_CP: i32 = 10;
const DRAW_PLIES: u32 = 10;
const MAX_PLIES: usize = 400;

/// How a game ended, for the summary.
#[derive(Clone, Copy)]
enum End {
    Rules,
    WinAdjudicated,
    DrawAdjudicated,
    Length,
}

/// Game results from White's side as `sable tune` reads them, indexed by `Game::result`.
const LABELS: [&str; 3] = ["1.0", "0.5", "0.0"];
const WHITE_WINS: usize = 0;
const DRAW: usize = 1;
const BLACK_WINS: usize = 2;

struct Game {
    /// An index into `LABELS`.
    result: usize,
    /// Text output: the quiet positions.
    fens: Vec<String>,
    /// Binary output: the whole game.
    record: Option<GameRecord>,
    end: End,
    plies: usize,
}

/// What differs between the two outputs.
struct Plan {
    binary: bool,
    limits: SearchLimits,
    /// Book index step between redraws of game `n`'s opening.
    redraw_stride: u64,
}

impl Plan {
    fn new(args: &Args, binary: bool) -> Plan {
        let limits = if binary {
            SearchLimits {
                nodes: Some(args.hard_nodes.max(args.nodes)),
                soft_nodes: Some(args.nodes),
                ..SearchLimits::default()
            }
        } else {
            SearchLimits {
                nodes: Some(args.nodes),
                ..SearchLimits::default()
            }
        };
        Plan {
            binary,
            limits,
            // Text: as always (the tuning data's commands repeat); binary: independent
            // of --games, so an appending run plays the game a longer run would have.
            redraw_stride: if binary { 7919 } else { args.games },
        }
    }

    /// The random stream of game `n`.
    fn game_seed(&self, seed: u64, n: u64) -> u64 {
        if self.binary {
            let mut s = seed;
            let a = splitmix(&mut s);
            let mut t = a ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            splitmix(&mut t)
        } else {
            seed ^ n.wrapping_mul(0xA076_1D64_78BD_642F)
        }
    }
}

/// A searched score as a record stores it.
fn record_score(v: i32) -> Score {
    if is_mate(v) {
        Score::mate(if v > 0 { MATE - v } else { -(MATE + v) })
    } else {
        Score::cp(v)
    }
}

/// The start of game `n`: book moves, then random plies, redrawn (with a new random
/// stream) while the result is over or unbalanced. Returns the position as a FEN plus
/// the UCI moves to reach it, so the engine's repetition history includes them.
fn opening(
    engine: &mut Engine,
    book: Option<&Book>,
    args: &Args,
    plan: &Plan,
    n: u64,
) -> Result<(String, Vec<String>), String> {
    let mut rng = plan.game_seed(args.seed, n);
    for attempt in 0..100u64 {
        let (start, mut moves) = match book {
            Some(b) => {
                let (_, o) = b
                    .opening(n.wrapping_add(attempt.wrapping_mul(plan.redraw_stride)) as usize)
                    .map_err(|e| e.to_string())?;
                (o.start, o.moves)
            }
            None => (Position::startpos(), Vec::new()),
        };
        let mut pos = start.clone();
        for &m in &moves {
            pos.make(m);
        }
        let mut ok = true;
        for _ in 0..args.random_plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                ok = false;
                break;
            }
            let m = legal[(splitmix(&mut rng) % legal.len() as u64) as usize];
            pos.make(m);
            moves.push(m);
        }
        if !ok || pos.legal_moves().is_empty() {
            continue;
        }
        let fen = start.fen();
        let uci: Vec<String> = moves.iter().map(|m| m.to_uci(false).to_string()).collect();
        let refs: Vec<&str> = uci.iter().map(String::as_str).collect();
        engine
            .set_position(Some(&fen), &refs)
            .map_err(|e| e.to_string())?;
        let r = engine
            .search_quietly(plan.limits.clone())
            .map_err(|e| e.to_string())?;
        if r.score_value.abs() <= args.max_opening_score {
            return Ok((fen, uci));
        }
    }
    Err(format!(
        "game {n}: no balanced opening in 100 tries (--max-opening-score {})",
        args.max_opening_score
    ))
}

fn play(
    engine: &mut Engine,
    book: Option<&Book>,
    args: &Args,
    plan: &Plan,
    n: u64,
) -> Result<Game, String> {
    engine.new_game().map_err(|e| e.to_string())?;
    let (fen, moves) = opening(engine, book, args, plan, n)?;
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    // The opening check searched this position already; start the game with a clean table.
    engine.new_game().map_err(|e| e.to_string())?;
    engine
        .set_position(Some(&fen), &refs)
        .map_err(|e| e.to_string())?;
    let start = engine.position().clone();
    let mut fens = Vec::new();
    let mut record_plies = Vec::new();
    let (mut winning, mut losing, mut quiet) = (0u32, 0u32, 0u32);
    let mut plies = 0;
    let (result, end) = loop {
        let pos = engine.position().clone();
        if let Some(outcome) = pos.outcome(engine.history()) {
            let r = match outcome {
                Outcome::Checkmate {
                    winner: Color::White,
                } => WHITE_WINS,
                Outcome::Checkmate {
                    winner: Color::Black,
                } => BLACK_WINS,
                Outcome::Draw(_) => DRAW,
            };
            break (r, End::Rules);
        }
        if plies >= MAX_PLIES {
            break (DRAW, End::Length);
        }
        let r = engine
            .search_quietly(plan.limits.clone())
            .map_err(|e| e.to_string())?;
        let best = r
            .best
            .ok_or_else(|| format!("game {n}: no move in {}", pos.fen()))?;
        let white = r.score_value * pos.turn().sign();
        if plan.binary {
            record_plies.push(Ply {
                mv: best,
                score: record_score(r.score_value),
            });
        } else if !pos.in_check()
            && !pos.is_capture(best)
            && !best.is_promotion()
            && !is_mate(r.score_value)
        {
            fens.push(pos.fen());
        }
        winning = if white >= WIN_CP { winning + 1 } else { 0 };
        losing = if white <= -WIN_CP { losing + 1 } else { 0 };
        quiet = if white.abs() <= DRAW_CP { quiet + 1 } else { 0 };
        engine.play(best).map_err(|e| e.to_string())?;
        plies += 1;
        if winning >= WIN_PLIES {
            break (WHITE_WINS, End::WinAdjudicated);
        }
        if losing >= WIN_PLIES {
            break (BLACK_WINS, End::WinAdjudicated);
        }
        if engine.moves().len() >= DRAW_FROM_PLY && quiet >= DRAW_PLIES {
            break (DRAW, End::DrawAdjudicated);
        }
    };
    let record = plan.binary.then(|| GameRecord {
        start,
        plies: record_plies,
        result: [
            GameResult::WhiteWins,
            GameResult::Draw,
            GameResult::BlackWins,
        ][result],
        termination: match end {
            End::Rules => Termination::Rules,
            End::WinAdjudicated => Termination::WinAdjudicated,
            End::DrawAdjudicated => Termination::DrawAdjudicated,
            End::Length => Termination::Length,
        },
        number: n as u32,
    });
    Ok(Game {
        result,
        fens,
        record,
        end,
        plies,
    })
}

fn load_book(args: &Args) -> Result<Option<Book>, CliError> {
    let Some(file) = &args.book else {
        return Ok(None);
    };
    let format = if file.to_ascii_lowercase().ends_with(".pgn") {
        Format::Pgn
    } else {
        Format::Epd
    };
    let spec = BookSpec {
        file: file.clone(),
        format,
        order: Order::Random,
        plies: None,
        start: 1,
    };
    // `Book::load` reads every opening, so a broken one is named before any game.
    let book = Book::load(spec, false, args.seed).map_err(|e| CliError::msg(e.to_string()))?;
    Ok(Some(book))
}

/// Where finished games go.
enum Sink {
    Text(std::io::BufWriter<std::fs::File>),
    Binary(RecordWriter<std::fs::File>),
}

fn io_error(path: &str) -> impl FnOnce(std::io::Error) -> CliError + '_ {
    move |source| CliError::Io {
        path: path.to_string(),
        source,
    }
}

/// Opens a record file for writing: a new one, or with `--append` an existing one after
/// reading it through (a cut-short last record is cut off, any other damage refused).
/// Returns the writer and the game numbers already in the file.
fn open_records(args: &Args) -> Result<(RecordWriter<std::fs::File>, HashSet<u32>), CliError> {
    let path = &args.out;
    let mut numbers = HashSet::new();
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            return Err(CliError::msg(format!("{path}: is a directory")));
        }
        Ok(m) if m.len() > 0 && !args.append => {
            return Err(CliError::msg(format!(
                "{path}: exists ({} bytes); pass --append to continue it, or remove it",
                m.len()
            )));
        }
        Ok(m) if m.len() > 0 => {
            let file = std::fs::File::open(path).map_err(io_error(path))?;
            let mut reader = RecordReader::new(std::io::BufReader::new(file));
            while let Some(r) = reader.next() {
                match r {
                    Ok(g) => {
                        numbers.insert(g.number);
                    }
                    Err(e) if e.is_truncation() => {
                        eprintln!(
                            "{path}: {e}; dropping it (the file is cut back to {} bytes)",
                            reader.good_len()
                        );
                    }
                    Err(e) => {
                        return Err(CliError::msg(format!(
                            "{path}: {e}; not appending to a damaged file (`sable data validate` lists what is wrong)"
                        )))
                    }
                }
            }
            let good = reader.good_len();
            if good < m.len() {
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(io_error(path))?;
                f.set_len(good).map_err(io_error(path))?;
            }
        }
        _ => {}
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_error(path))?;
    Ok((RecordWriter::new(file), numbers))
}

/// The lowest `count` game numbers not in `taken`.
fn numbers_to_play(taken: &HashSet<u32>, count: u64) -> Result<Vec<u64>, CliError> {
    let mut out = Vec::with_capacity(count as usize);
    let mut n: u64 = 0;
    while (out.len() as u64) < count {
        if n > u32::MAX as u64 {
            return Err(CliError::msg("game numbers beyond 2^32 in one file"));
        }
        if !taken.contains(&(n as u32)) {
            out.push(n);
        }
        n += 1;
    }
    Ok(out)
}

/// Hash and evaluation for one datagen thread's engine.
fn setup(engine: &mut Engine, args: &Args) -> Result<(), sable_engine::EngineError> {
    engine.set_hash_mb(args.hash)?;
    if let Some(path) = &args.eval_file {
        engine.set_eval_file(path)?;
        engine.set_use_nnue(true)?;
    } else if args.hce {
        engine.set_use_nnue(false)?;
    }
    Ok(())
}

pub fn run(args: Args) -> CliResult {
    if let Some(path) = &args.eval_file {
        // A bad net is refused before any game starts, not once per thread.
        sable_engine::nnue::Network::load(std::path::Path::new(path))
            .map_err(|e| CliError::msg(e.to_string()))?;
    }
    if args.games == 0 || args.nodes == 0 {
        return Err(CliError::msg("--games and --nodes must be at least 1"));
    }
    let binary = match args.format.as_str() {
        "auto" => args.out.to_ascii_lowercase().ends_with(".bin"),
        "bin" | "binary" => true,
        "text" => false,
        f => {
            return Err(CliError::msg(format!(
                "--format '{f}': expected auto, text or bin"
            )))
        }
    };
    if args.append && !binary {
        return Err(CliError::msg(
            "--append continues binary game records only (a .bin file or --format bin)",
        ));
    }
    let plan = Plan::new(&args, binary);
    let book = load_book(&args)?;
    let (mut sink, numbers) = if binary {
        let (writer, taken) = open_records(&args)?;
        if !taken.is_empty() {
            println!("{}: {} games already there", args.out, taken.len());
        }
        (Sink::Binary(writer), numbers_to_play(&taken, args.games)?)
    } else {
        let file = std::fs::File::create(&args.out).map_err(io_error(&args.out))?;
        (
            Sink::Text(std::io::BufWriter::new(file)),
            (0..args.games).collect(),
        )
    };
    let cancel: Arc<AtomicBool> = super::cancel_on_ctrlc("sable datagen");
    let next = AtomicU64::new(0);
    let started = Instant::now();
    let bar = ProgressBar::new(args.games).with_style(
        ProgressStyle::with_template("games {bar:40} {pos}/{len} {msg} [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (tx, rx) = mpsc::channel::<Result<Game, String>>();
    let mut tally = [0u64; 3]; // by `Game::result`
    let mut ends = [0u64; 4];
    let (mut positions, mut plies, mut games) = (0u64, 0u64, 0u64);
    let report_every = if std::io::stderr().is_terminal() {
        0
    } else {
        args.report_every
    };
    let mut failure = None;
    std::thread::scope(|s| {
        for _ in 0..args.threads.max(1) {
            let tx = tx.clone();
            let (args, book, next, cancel) = (&args, book.as_ref(), &next, &cancel);
            let (plan, numbers) = (&plan, &numbers);
            s.spawn(move || {
                let mut engine = Engine::new();
                if let Err(e) = setup(&mut engine, args) {
                    let _ = tx.send(Err(e.to_string()));
                    return;
                }
                while !cancel.load(Ordering::SeqCst) {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&n) = numbers.get(i as usize) else {
                        break;
                    };
                    let game = play(&mut engine, book, args, plan, n);
                    let failed = game.is_err();
                    if tx.send(game).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for game in rx {
            let game = match game {
                Ok(g) => g,
                Err(e) => {
                    failure.get_or_insert(e);
                    cancel.store(true, Ordering::SeqCst);
                    continue;
                }
            };
            let label = LABELS[game.result];
            let written = match (&mut sink, &game.record) {
                (Sink::Text(out), _) => game
                    .fens
                    .iter()
                    .try_for_each(|fen| writeln!(out, "{fen} | {label}"))
                    .map_err(|e| e.to_string()),
                (Sink::Binary(w), Some(record)) => w.write(record).map_err(|e| e.to_string()),
                (Sink::Binary(_), None) => Err("a game without its record".into()),
            };
            if let Err(e) = written {
                failure.get_or_insert(format!("{}: {e}", args.out));
                cancel.store(true, Ordering::SeqCst);
            }
            tally[game.result] += 1;
            ends[game.end as usize] += 1;
            positions += if binary {
                game.plies as u64
            } else {
                game.fens.len() as u64
            };
            plies += game.plies as u64;
            games += 1;
            bar.set_message(format!("{positions} positions"));
            bar.inc(1);
            if report_every > 0 && games.is_multiple_of(report_every) {
                println!(
                    "{games} games, {positions} positions, {:.0} positions/hour",
                    positions as f64 * 3600.0 / started.elapsed().as_secs_f64().max(1e-9)
                );
            }
        }
    });
    bar.finish_and_clear();
    let bytes = match &mut sink {
        Sink::Text(out) => {
            out.flush().map_err(io_error(&args.out))?;
            None
        }
        Sink::Binary(w) => Some(w.bytes()),
    };
    if let Some(e) = failure {
        return Err(CliError::msg(e));
    }
    let secs = started.elapsed().as_secs_f64();
    if games < args.games {
        println!("Interrupted after {games} games.");
    }
    println!(
        "{games} games (+{} ={} -{} for White), {positions} positions to {}",
        tally[0], tally[1], tally[2], args.out
    );
    println!(
        "ended by the rules {}, win adjudication {}, draw adjudication {}, length {}; {:.1} plies per game, {:.1} games/s",
        ends[End::Rules as usize],
        ends[End::WinAdjudicated as usize],
        ends[End::DrawAdjudicated as usize],
        ends[End::Length as usize],
        plies as f64 / games.max(1) as f64,
        games as f64 / secs.max(1e-9)
    );
    if let Some(bytes) = bytes {
        println!(
            "{bytes} bytes, {:.2} bytes per position, {:.0} positions/hour",
            bytes as f64 / positions.max(1) as f64,
            positions as f64 * 3600.0 / secs.max(1e-9)
        );
    }
    Ok(())
}
