//! `sable random-games`: plays games of uniformly random legal moves and tabulates how
//! they end. A classic stress test of the rules code; `--verify` also checks, after every
//! move, that the incremental keys equal a recomputation and that unmake restores the
//! position exactly.
//!
//! Rule precedence is `Position::outcome`'s (the first that applies ends the game):
//! checkmate, stalemate, insufficient material, fifty moves (100 half-moves without
//! capture or pawn move, so a mate on the hundredth half-move still counts as mate),
//! threefold repetition.

use super::{CliError, CliResult};
use sable_arena::rng::splitmix;
use sable_chess::{DrawReason, KeyHistory, Outcome, Position};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Number of games.
    games: u64,
    /// Seed; the same seed gives the same games whatever the thread count.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Check keys and make/unmake after every move (slow).
    #[arg(long)]
    verify: bool,
}

const TERMINATIONS: [&str; 5] = [
    "checkmate",
    "fifty moves",
    "insufficient material",
    "threefold repetition",
    "stalemate",
];

/// Tallies per termination (indexed as `TERMINATIONS`) plus total plies.
#[derive(Default, Clone, Copy)]
struct Tally {
    ends: [u64; 5],
    plies: u64,
}

/// Plays one game; returns the termination index and its length in plies.
fn play(seed: u64, verify: bool) -> Result<(usize, u64), String> {
    let mut rng = seed;
    let mut pos = Position::startpos();
    let mut history = KeyHistory::new();
    let mut plies = 0;
    loop {
        if let Some(outcome) = pos.outcome(&history) {
            let end = match outcome {
                Outcome::Checkmate { .. } => 0,
                Outcome::Draw(DrawReason::FiftyMoves) => 1,
                Outcome::Draw(DrawReason::InsufficientMaterial) => 2,
                Outcome::Draw(DrawReason::Stalemate) => 4,
                Outcome::Draw(_) => 3,
            };
            return Ok((end, plies));
        }
        let moves = pos.legal_moves();
        let m = moves[(splitmix(&mut rng) % moves.len() as u64) as usize];
        history.push(pos.key());
        if verify {
            let before = pos.clone();
            let undo = pos.make(m);
            pos.validate_keys()
                .map_err(|e| format!("after {m:?} from {}: {e}", before.fen()))?;
            let after = pos.clone();
            pos.unmake(m, &undo);
            if pos != before {
                return Err(format!("unmake of {m:?} did not restore {}", before.fen()));
            }
            pos = after;
        } else {
            pos.make(m);
        }
        plies += 1;
    }
}

pub fn run(args: Args) -> CliResult {
    let threads = args.threads.max(1);
    let start = Instant::now();
    let results: Vec<Result<Tally, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads as u64)
            .map(|t| {
                let args = &args;
                s.spawn(move || {
                    let mut tally = Tally::default();
                    let mut game = t;
                    while game < args.games {
                        let mut seed = args.seed ^ game.wrapping_mul(0xD6E8_FEB8_6659_FD93);
                        let (end, plies) = play(splitmix(&mut seed), args.verify)?;
                        tally.ends[end] += 1;
                        tally.plies += plies;
                        game += threads as u64;
                    }
                    Ok(tally)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("worker panicked".into())))
            .collect()
    });
    let secs = start.elapsed().as_secs_f64();
    let mut total = Tally::default();
    for r in results {
        let t = r.map_err(CliError::Msg)?;
        for i in 0..5 {
            total.ends[i] += t.ends[i];
        }
        total.plies += t.plies;
    }
    let n = args.games.max(1) as f64;
    println!("{:<24}{:>10}{:>10}", "termination", "games", "share");
    for (name, count) in TERMINATIONS.iter().zip(total.ends) {
        println!("{name:<24}{count:>10}{:>9.2}%", 100.0 * count as f64 / n);
    }
    println!("average length: {:.1} plies", total.plies as f64 / n);
    println!(
        "{} games in {secs:.3} s: {:.0} games/second, {:.0} plies/second",
        args.games,
        args.games as f64 / secs.max(1e-9),
        total.plies as f64 / secs.max(1e-9)
    );
    if args.verify {
        println!(
            "verified: keys and make/unmake after every one of {} moves",
            total.plies
        );
    }
    Ok(())
}
