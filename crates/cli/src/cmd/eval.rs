//! `sable eval`: the static evaluation of a position broken down by term for both
//! sides (middlegame, endgame, tapered) and, when a network is in use (the embedded one
//! or `--eval-file`), its output, the output bucket used and each piece's value to the
//! network (Stockfish's board of "NNUE derived piece values"); or with `--bench` the
//! hand-crafted evaluation's speed over the positions of an EPD/FEN file.

use super::{read_file, CliError, CliResult};
use sable_chess::{CastlingMode, Color, Position};
use sable_engine::eval::{Evaluator, Term, MAX_PHASE, S, SCALE_NORMAL};
use sable_engine::nnue::{Network, EMBEDDED};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Position to evaluate (FEN); default the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Instead, time the evaluation over every position of this file (FEN or EPD per
    /// line; text after `|` or `;` ignored).
    #[arg(long)]
    bench: Option<String>,
    /// With --bench: passes over the file.
    #[arg(long, default_value_t = 20)]
    passes: u32,
    /// Also show this network's evaluation (default: the embedded network, if any).
    #[arg(long)]
    eval_file: Option<String>,
}

pub fn run(args: Args) -> CliResult {
    if let Some(path) = &args.bench {
        return bench(path, args.passes);
    }
    let pos = match &args.fen {
        Some(fen) => parse_position(fen)?,
        None => Position::startpos(),
    };
    print_report(&pos);
    let net = match &args.eval_file {
        Some(path) => Some(
            Network::load(std::path::Path::new(path)).map_err(|e| CliError::msg(e.to_string()))?,
        ),
        None => EMBEDDED.and_then(|b| Network::from_bytes(b).ok()),
    };
    if let Some(net) = net {
        let raw = net.evaluate(&pos);
        let used = Evaluator::new().evaluate_net(&pos, &net);
        println!(
            "NNUE (hidden {}, output bucket {} of {}, output scale {} cp{}): network {raw:+} \
             cp, with endgame knowledge {used:+} cp, for the side to move",
            net.hidden(),
            net.bucket_of(&pos) + 1,
            net.buckets(),
            net.output_scale(),
            super::nnue::inputs_note(net.inputs())
        );
        print_piece_values(&pos, &net);
    }
    Ok(())
}

/// The network's value of each piece (Stockfish's "NNUE derived piece values"): a board
/// with each piece's letter and, below it, what lifting it off costs White, in pawns.
fn print_piece_values(pos: &Position, net: &Network) {
    let mut cells = [[None; 8]; 8];
    for (sq, _, cp) in net.piece_values(pos) {
        cells[sq.rank().index()][sq.file().index()] = Some(cp);
    }
    let line = "+-------".repeat(8) + "+";
    println!("network piece values (White's view, pawns; each piece lifted off in turn):");
    println!("{line}");
    for rank in (0..8).rev() {
        let mut names = String::new();
        let mut values = String::new();
        for (file, cell) in cells[rank].iter().enumerate() {
            let sq = sable_chess::Square::from_index(rank * 8 + file);
            let name = pos.piece_at(sq).map(|p| p.char()).unwrap_or(' ');
            names += &format!("|   {name}   ");
            values += &match cell {
                Some(cp) => format!("|{:^7}", format!("{:+.2}", *cp as f64 / 100.0)),
                None => "|       ".to_string(),
            };
        }
        println!("{names}|\n{values}|\n{line}");
    }
}

/// A FEN, or an EPD line's first four fields.
pub fn parse_position(text: &str) -> Result<Position, CliError> {
    let text = text.split(['|', ';']).next().unwrap_or("").trim();
    match Position::from_fen(text, CastlingMode::Standard) {
        Ok(pos) => Ok(pos),
        Err(e) => {
            let fields: Vec<&str> = text.split_whitespace().take(4).collect();
            Position::from_fen(&format!("{} 0 1", fields.join(" ")), CastlingMode::Standard)
                .map_err(|_| CliError::msg(format!("bad position {text:?}: {e}")))
        }
    }
}

fn taper(s: S, phase: i32, scale: i32) -> f64 {
    let eg = (s.eg() * scale / SCALE_NORMAL) as f64;
    (s.mg() as f64 * phase as f64 + eg * (MAX_PHASE - phase) as f64) / MAX_PHASE as f64
}

fn print_report(pos: &Position) {
    let mut evaluator = Evaluator::new();
    let r = evaluator.report(pos);
    println!("{}", pos.fen());
    println!(
        "{:<15} {:>7} {:>7} | {:>7} {:>7} | {:>7} {:>7} {:>8}",
        "term", "W mg", "W eg", "B mg", "B eg", "net mg", "net eg", "tapered"
    );
    let mut total = S::ZERO;
    for term in Term::ALL {
        let [w, b] = r.terms[term as usize];
        let net = w - b;
        total += net;
        println!(
            "{:<15} {:>7} {:>7} | {:>7} {:>7} | {:>7} {:>7} {:>8.1}",
            term.name(),
            w.mg(),
            w.eg(),
            b.mg(),
            b.eg(),
            net.mg(),
            net.eg(),
            taper(net, r.phase, r.scale)
        );
    }
    println!(
        "{:<15} {:>7} {:>7} | {:>7} {:>7} | {:>7} {:>7} {:>8.1}",
        "total",
        "",
        "",
        "",
        "",
        total.mg(),
        total.eg(),
        taper(total, r.phase, r.scale)
    );
    println!(
        "phase {}/{MAX_PHASE}, endgame scale {}/{SCALE_NORMAL}",
        r.phase, r.scale
    );
    if let Some(eg) = r.endgame {
        println!(
            "endgame module {:?} for {} (its score replaces the terms, or its scale factor applies)",
            eg.kind, eg.strong
        );
    }
    let stm = if pos.turn() == Color::White {
        r.white
    } else {
        -r.white
    };
    println!(
        "final: {:+} cp for White, {:+} cp for the side to move",
        r.white, stm
    );
}

fn bench(path: &str, passes: u32) -> CliResult {
    let text = read_file(path)?;
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let pos =
            parse_position(line).map_err(|e| CliError::msg(format!("{path}:{}: {e}", i + 1)))?;
        positions.push(pos);
    }
    if positions.is_empty() {
        return Err(CliError::msg(format!("{path}: no positions")));
    }
    let mut evaluator = Evaluator::new();
    let mut checksum = 0i64;
    let start = Instant::now();
    for _ in 0..passes.max(1) {
        for pos in &positions {
            checksum += evaluator.evaluate(pos) as i64;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = positions.len() as f64 * passes.max(1) as f64;
    println!(
        "{} positions x {} passes: {:.0} evals/s ({:.0} ns each), checksum {checksum}",
        positions.len(),
        passes.max(1),
        n / secs,
        secs * 1e9 / n
    );
    Ok(())
}
