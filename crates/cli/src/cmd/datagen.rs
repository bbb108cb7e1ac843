//! `sable datagen`: self-play games at a fixed node count, written as labelled positions
//! (`FEN | result`, the format `sable tune` reads). Each game starts from a book
//! opening and/or random plies, is played by Sable against itself in process (no UCI
//! round trips, one single-threaded engine per worker), and is adjudicated the way our
//! gauntlets are so that hopeless endings do not cost minutes of node budget.
//!
//! Only positions a static evaluation can judge are kept: not in check and with a quiet
//! best move (no capture or promotion), and no mate score. Every game is played from a
//! seed derived from its number, so a run is reproducible whatever the thread count.

use super::{CliError, CliResult};
use crate::arena::openings::{Book, BookSpec, Format, Order};
use crate::rng::splitmix;
use indicatif::{ProgressBar, ProgressStyle};
use sable_chess::{Color, Outcome, Position};
use sable_engine::limits::SearchLimits;
use sable_engine::score::is_mate;
use sable_engine::Engine;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Where the labelled positions go (one `FEN | result` per line).
    out: String,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
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
    /// Seed for the opening order and the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
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
    fens: Vec<String>,
    end: End,
    plies: usize,
}

fn limits(nodes: u64) -> SearchLimits {
    SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    }
}

/// The start of game `n`: book moves, then random plies, redrawn (with a new random
/// stream) while the result is over or unbalanced. Returns the position as a FEN plus
/// the UCI moves to reach it, so the engine's repetition history includes them.
fn opening(
    engine: &mut Engine,
    book: Option<&Book>,
    args: &Args,
    n: u64,
) -> Result<(String, Vec<String>), String> {
    let mut rng = args.seed ^ n.wrapping_mul(0xA076_1D64_78BD_642F);
    for attempt in 0..100u64 {
        let (start, mut moves) = match book {
            Some(b) => {
                let (_, o) = b
                    .opening((n + attempt * args.games) as usize)
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
            .search(limits(args.nodes), |_| {})
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

fn play(engine: &mut Engine, book: Option<&Book>, args: &Args, n: u64) -> Result<Game, String> {
    engine.new_game().map_err(|e| e.to_string())?;
    let (fen, moves) = opening(engine, book, args, n)?;
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    // The opening check searched this position already; start the game with a clean table.
    engine.new_game().map_err(|e| e.to_string())?;
    engine
        .set_position(Some(&fen), &refs)
        .map_err(|e| e.to_string())?;
    let mut fens = Vec::new();
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
            .search(limits(args.nodes), |_| {})
            .map_err(|e| e.to_string())?;
        let best = r
            .best
            .ok_or_else(|| format!("game {n}: no move in {}", pos.fen()))?;
        let white = r.score_value * pos.turn().sign();
        if !pos.in_check()
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
    Ok(Game {
        result,
        fens,
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
    Book::load(spec, false, args.seed)
        .map(Some)
        .map_err(|e| CliError::msg(e.to_string()))
}

pub fn run(args: Args) -> CliResult {
    if args.games == 0 || args.nodes == 0 {
        return Err(CliError::msg("--games and --nodes must be at least 1"));
    }
    let book = load_book(&args)?;
    let file = std::fs::File::create(&args.out).map_err(|source| CliError::Io {
        path: args.out.clone(),
        source,
    })?;
    let mut out = std::io::BufWriter::new(file);
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
    let mut failure = None;
    std::thread::scope(|s| {
        for _ in 0..args.threads.max(1) {
            let tx = tx.clone();
            let (args, book, next, cancel) = (&args, book.as_ref(), &next, &cancel);
            s.spawn(move || {
                let mut engine = Engine::new();
                if let Err(e) = engine.set_hash_mb(args.hash) {
                    let _ = tx.send(Err(e.to_string()));
                    return;
                }
                while !cancel.load(Ordering::SeqCst) {
                    let n = next.fetch_add(1, Ordering::SeqCst);
                    if n >= args.games {
                        break;
                    }
                    let game = play(&mut engine, book, args, n);
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
            for fen in &game.fens {
                if let Err(e) = writeln!(out, "{fen} | {label}") {
                    failure.get_or_insert(format!("{}: {e}", args.out));
                    cancel.store(true, Ordering::SeqCst);
                }
            }
            tally[game.result] += 1;
            ends[game.end as usize] += 1;
            positions += game.fens.len() as u64;
            plies += game.plies as u64;
            games += 1;
            bar.set_message(format!("{positions} positions"));
            bar.inc(1);
        }
    });
    bar.finish_and_clear();
    out.flush().map_err(|source| CliError::Io {
        path: args.out.clone(),
        source,
    })?;
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
    Ok(())
}
