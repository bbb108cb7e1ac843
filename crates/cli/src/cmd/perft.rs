//! `sable perft`: leaf counts of the legal move tree, per root move with `--divide`,
//! over several threads, or over a whole suite file.

use super::{read_file, CliError, CliResult};
use sable_chess::{divide, parse_suite, perft, CastlingMode, Move, Position};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies (with --suite: the deepest depth to run; default all).
    depth: Option<u32>,
    /// Position to count from (FEN, X-FEN or Shredder-FEN); default the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Read castling as Chess960 and print castling moves as king-takes-rook.
    #[arg(long)]
    chess960: bool,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads (root moves are shared out).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Run an EPD/perft suite file instead (`;D1 20` or `perft 3 8902` forms).
    #[arg(long)]
    suite: Option<String>,
    /// With --suite: skip expected counts above this many nodes.
    #[arg(long)]
    max_nodes: Option<u64>,
}

pub fn run(args: Args) -> CliResult {
    if let Some(path) = &args.suite {
        return run_suite(path, &args);
    }
    let depth = args
        .depth
        .ok_or_else(|| CliError::msg("perft needs a DEPTH (or --suite FILE)"))?;
    let mode = if args.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen, mode)
            .or_else(|e| Position::from_fen(fen, CastlingMode::Chess960).map_err(|_| e))?,
        None => Position::startpos(),
    };
    let chess960 = args.chess960 || pos.is_chess960();
    let start = Instant::now();
    let results = if args.threads > 1 && depth > 1 {
        parallel_divide(&pos, depth, args.threads)
    } else if args.divide {
        divide(&pos, depth)
    } else {
        vec![(Move::NULL, perft(&pos, depth))]
    };
    let elapsed = start.elapsed();
    let total: u64 = results.iter().map(|r| r.1).sum();
    if args.divide {
        for (m, n) in &results {
            println!("{}: {n}", m.to_uci(chess960));
        }
        println!();
    }
    println!("Nodes searched: {total}");
    let secs = elapsed.as_secs_f64();
    println!(
        "Time: {:.3} s, {:.0} nodes/second",
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// Shares the root moves among `threads` workers; results keep generation order.
fn parallel_divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let next = AtomicUsize::new(0);
    let mut counts = vec![0u64; moves.len()];
    let slots: Vec<std::sync::Mutex<u64>> = (0..moves.len()).map(|_| Default::default()).collect();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= moves.len() {
                    break;
                }
                let mut child = pos.clone();
                child.make(moves[i]);
                *slots[i].lock().expect("no panics while counting") = perft(&child, depth - 1);
            });
        }
    });
    for (c, slot) in counts.iter_mut().zip(slots) {
        *c = slot.into_inner().expect("no panics while counting");
    }
    moves.iter().copied().zip(counts).collect()
}

fn run_suite(path: &str, args: &Args) -> CliResult {
    let text = read_file(path)?;
    let cases = parse_suite(&text).map_err(|e| CliError::msg(format!("{path}: {e}")))?;
    if cases.is_empty() {
        return Err(CliError::msg(format!("{path}: no perft positions")));
    }
    let mode = if args.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let (mut passed, mut failed, mut nodes) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    for case in &cases {
        let name = case.id.as_deref().unwrap_or(&case.fen);
        // Suites test generators on odd positions too (impossible checks), so only the
        // basic validity rules apply; Shredder letters are read as Chess960.
        let pos = match Position::from_fen_relaxed(&case.fen, mode)
            .or_else(|_| Position::from_fen_relaxed(&case.fen, CastlingMode::Chess960))
        {
            Ok(p) => p,
            Err(e) => {
                println!("FAIL {name}: {e}");
                failed += 1;
                continue;
            }
        };
        for &(depth, expected) in &case.counts {
            if args.depth.is_some_and(|d| depth > d) || args.max_nodes.is_some_and(|m| expected > m)
            {
                continue;
            }
            let got = if args.threads > 1 && depth > 1 {
                parallel_divide(&pos, depth, args.threads)
                    .iter()
                    .map(|r| r.1)
                    .sum()
            } else {
                perft(&pos, depth)
            };
            nodes += got;
            if got == expected {
                passed += 1;
            } else {
                failed += 1;
                println!("FAIL {name} depth {depth}: got {got}, expected {expected}");
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} positions, {nodes} nodes in {secs:.2} s ({:.0} nodes/second)",
        cases.len(),
        nodes as f64 / secs.max(1e-9)
    );
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        return Err(CliError::msg(format!("{failed} perft counts wrong")));
    }
    Ok(())
}
