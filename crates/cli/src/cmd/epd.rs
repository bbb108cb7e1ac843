//! `sable epd`: runs a UCI (or xboard) engine over an EPD test suite with `bm`/`am`
//! solutions, a time, node or depth limit per position, several positions at once with
//! `--concurrency`; reports solved/total with the positions missed and, for suites with
//! points in `c0` (the Strategic Test Suite), the point score per theme.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use super::{read_file, CliError, CliResult};
use sable_arena::engine::{Engine, EngineConfig, ThinkRequest};
use sable_arena::notation::san;
use sable_arena::referee::DEFAULT_STALL;
use sable_arena::suite::{read_entry, SuiteEntry};
use sable_arena::tc::Limits;

#[derive(clap::Args)]
pub struct Args {
    /// EPD file with `bm` and/or `am` operations (and `id`, STS points in `c0`).
    file: String,
    #[command(flatten)]
    engine: super::EngineArgs,
    /// Time per position in milliseconds (the default when no limit is given: 1000).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Nodes per position.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per position.
    #[arg(long)]
    depth: Option<u32>,
    /// Positions searched at once (one engine process each).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Only the first N positions.
    #[arg(long, value_name = "N")]
    max: Option<usize>,
    /// Seconds an engine may stay silent past the limit before it counts as stalled.
    #[arg(long, default_value_t = DEFAULT_STALL.as_secs_f64())]
    stall: f64,
    /// Print only the summary, not every position.
    #[arg(long)]
    quiet: bool,
}

/// An engine's answer to one position.
struct Answer {
    mv: String,
    san: String,
    solved: bool,
    points: (u32, u32),
}

pub fn run(args: Args) -> CliResult {
    let text = read_file(&args.file)?;
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let e = read_entry(line, i + 1)
            .map_err(|e| CliError::msg(format!("{}:{}: {e}", args.file, i + 1)))?;
        entries.push(e);
    }
    if let Some(max) = args.max {
        entries.truncate(max);
    }
    if entries.is_empty() {
        return Err(CliError::msg(format!("{}: no positions", args.file)));
    }
    if args.concurrency == 0 || !(0.0..1e6).contains(&args.stall) {
        return Err(CliError::msg(
            "--concurrency must be at least 1 and --stall a number of seconds",
        ));
    }
    let super::EngineCommand {
        program,
        args: words,
        options,
        protocol,
    } = args.engine.command()?;
    let mut limits = Limits {
        movetime: args.movetime.map(Duration::from_millis),
        nodes: args.nodes,
        depth: args.depth,
        ..Limits::default()
    };
    if limits.is_unbounded() {
        limits.movetime = Some(Duration::from_millis(1000));
    }
    let config = EngineConfig {
        name: program.rsplit('/').next().unwrap_or(&program).to_string(),
        program: program.clone(),
        args: words,
        dir: None,
        protocol,
        options,
        limits,
        margin: Duration::ZERO,
        stall: Duration::from_secs_f64(args.stall),
        debug: false,
        book: None,
    };

    let cancel = super::cancel_on_ctrlc("sable epd");
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let answers: Mutex<Vec<Option<Answer>>> =
        Mutex::new((0..entries.len()).map(|_| None).collect());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let pb = ProgressBar::new(entries.len() as u64);
    pb.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} positions {elapsed_precise} {msg}")
            .expect("a valid template"),
    );
    let solved_so_far = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency.min(entries.len()) {
            scope.spawn(|| {
                let mut engine = match Engine::start(&config, cancel.clone()) {
                    Ok(e) => e,
                    Err(e) => {
                        failure
                            .lock()
                            .unwrap()
                            .get_or_insert(format!("{}: {e}", config.program));
                        cancel.store(true, Ordering::SeqCst);
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= entries.len() || cancel.load(Ordering::SeqCst) {
                        break;
                    }
                    match solve(&mut engine, &config, &entries[i]) {
                        Ok(a) => {
                            if a.solved {
                                solved_so_far.fetch_add(1, Ordering::SeqCst);
                            }
                            answers.lock().unwrap()[i] = Some(a);
                        }
                        Err(e) => {
                            if !cancel.load(Ordering::SeqCst) {
                                failure.lock().unwrap().get_or_insert(format!(
                                    "{} ({}): {e}",
                                    entries[i].id, config.program
                                ));
                                cancel.store(true, Ordering::SeqCst);
                            }
                            break;
                        }
                    }
                    pb.inc(1);
                    pb.set_message(format!("solved {}", solved_so_far.load(Ordering::SeqCst)));
                }
                engine.quit();
            });
        }
    });
    pb.finish_and_clear();
    let answers = answers.into_inner().unwrap();
    report(&args, &entries, &answers, started.elapsed());
    if let Some(f) = failure.into_inner().unwrap() {
        return Err(CliError::msg(f));
    }
    Ok(())
}

fn solve(engine: &mut Engine, config: &EngineConfig, e: &SuiteEntry) -> Result<Answer, String> {
    let fen = e.position.fen();
    engine.new_game(&fen, false).map_err(|e| e.to_string())?;
    let limit = config.limits.movetime.unwrap_or(Duration::ZERO);
    let request = ThinkRequest {
        start_fen: &fen,
        moves: &[],
        raw_moves: &[],
        position: &e.position,
        chess960: false,
        clocks: None,
        deadline: Instant::now() + limit + config.stall,
    };
    let reply = engine.think(&request).map_err(|e| e.to_string())?;
    let (san_text, solved, points) = match e.position.parse_uci(&reply.mv) {
        Ok(m) => (san(&e.position, m), e.solved_by(m), e.points_for(m)),
        Err(_) => (
            format!("illegal {}", reply.mv),
            false,
            (0, e.points_for(sable_chess::Move::NULL).1),
        ),
    };
    Ok(Answer {
        mv: reply.mv,
        san: san_text,
        solved,
        points,
    })
}

fn report(args: &Args, entries: &[SuiteEntry], answers: &[Option<Answer>], elapsed: Duration) {
    let mut solved = 0;
    let mut done = 0;
    let mut missed = Vec::new();
    let mut themes: BTreeMap<String, (u32, u32, u32)> = BTreeMap::new();
    let has_points = entries.iter().any(|e| !e.points.is_empty());
    for (e, a) in entries.iter().zip(answers) {
        let Some(a) = a else { continue };
        done += 1;
        if a.solved {
            solved += 1;
        } else {
            missed.push(format!(
                "  {}: played {} ({}), expected {}",
                e.id, a.san, a.mv, e.solution_text
            ));
        }
        if !args.quiet {
            let mark = if a.solved { "ok  " } else { "miss" };
            println!("{mark} {}: {} ({})", e.id, a.san, e.solution_text);
        }
        if has_points {
            let t = themes.entry(e.theme().to_string()).or_default();
            t.0 += a.points.0;
            t.1 += a.points.1;
            t.2 += 1;
        }
    }
    if !missed.is_empty() {
        println!("Missed ({}):", missed.len());
        for m in &missed {
            println!("{m}");
        }
    }
    if has_points {
        println!("Points by theme:");
        let (mut got, mut max) = (0, 0);
        for (theme, (g, m, n)) in &themes {
            println!("  {theme}: {g}/{m} ({n} positions)");
            got += g;
            max += m;
        }
        println!(
            "Points: {got}/{max} ({:.1} %)",
            100.0 * got as f64 / max.max(1) as f64
        );
    }
    if done < entries.len() {
        println!(
            "Interrupted: {done} of {} positions searched.",
            entries.len()
        );
    }
    println!(
        "Solved: {solved}/{done} ({:.1} %) in {:.1}s",
        100.0 * solved as f64 / done.max(1) as f64,
        elapsed.as_secs_f64()
    );
}
