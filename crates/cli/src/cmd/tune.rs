//! `sable tune`: Texel tuning. Every evaluation parameter is fitted so that
//! `sigmoid(K * eval)` predicts the results of the games the labelled positions come
//! from (lines `FEN | result`, result 1.0 / 0.5 / 0.0 for White, e.g. from
//! `tools/texel_positions.py`). The evaluation is linear in its parameters apart from
//! the phase blend and the endgame scale, so each position is traced once into
//! coefficients and the fit runs Adam on the mean squared error over those.

use super::eval::parse_position;
use super::{read_file, CliError, CliResult};
use indicatif::{ProgressBar, ProgressStyle};
use sable_engine::eval::{params, seed, trace, MAX_PHASE, SCALE_NORMAL};

#[derive(clap::Args)]
pub struct Args {
    /// Labelled positions, one `FEN | result` per line.
    data: String,
    /// Passes of gradient descent over all positions.
    #[arg(long, default_value_t = 3000)]
    epochs: u32,
    /// Adam step size, in centipawns.
    #[arg(long, default_value_t = 0.5)]
    rate: f64,
    /// Start from the hand-set seed values instead of the committed parameters.
    #[arg(long)]
    from_seed: bool,
    /// Sigmoid scale K; fitted to the starting parameters when not given.
    #[arg(long)]
    k: Option<f64>,
    /// Write the tuned parameters as Rust source here (e.g. crates/engine/src/eval/tuned.rs).
    #[arg(long)]
    out: Option<String>,
    /// Use at most this many positions.
    #[arg(long)]
    limit: Option<usize>,
    /// Ridge weight pulling each value towards its starting point (per centipawn squared):
    /// game results from club blitz are noisy and many terms are nearly collinear.
    #[arg(long, default_value_t = 1e-8)]
    lambda: f64,
    /// Parameters used by fewer training positions than this keep their starting value.
    #[arg(long, default_value_t = 300)]
    min_count: usize,
    /// Threads computing the gradient (the result does not depend on it beyond rounding).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// The traced positions, flattened: `coeffs[start[i]..start[i + 1]]` is position i's.
struct Data {
    coeffs: Vec<(u16, i16)>,
    start: Vec<usize>,
    phase: Vec<f64>,
    scale: Vec<[f64; 2]>,
    result: Vec<f64>,
    /// Every tenth position is held out to check the fit generalises.
    validation: Vec<bool>,
}

impl Data {
    fn len(&self) -> usize {
        self.result.len()
    }
}

fn load(path: &str, limit: Option<usize>) -> Result<(Data, usize), CliError> {
    let text = read_file(path)?;
    let mut d = Data {
        coeffs: Vec::new(),
        start: vec![0],
        phase: Vec::new(),
        scale: Vec::new(),
        result: Vec::new(),
        validation: Vec::new(),
    };
    let mut skipped = 0;
    let lines = text.lines().filter(|l| !l.trim().is_empty());
    let bar = ProgressBar::new(text.lines().count() as u64).with_style(style("tracing"));
    for (i, line) in lines.enumerate() {
        bar.inc(1);
        if limit.is_some_and(|n| d.len() >= n) {
            break;
        }
        let (fen, result) = line
            .split_once('|')
            .ok_or_else(|| CliError::msg(format!("{path}:{}: expected `FEN | result`", i + 1)))?;
        let result: f64 = result
            .trim()
            .parse()
            .ok()
            .filter(|r: &f64| (0.0..=1.0).contains(r))
            .ok_or_else(|| {
                CliError::msg(format!("{path}:{}: bad result {:?}", i + 1, result.trim()))
            })?;
        let pos =
            parse_position(fen).map_err(|e| CliError::msg(format!("{path}:{}: {e}", i + 1)))?;
        let Some(t) = trace(&pos) else {
            skipped += 1;
            continue;
        };
        d.coeffs.extend_from_slice(&t.coeffs);
        d.start.push(d.coeffs.len());
        d.phase.push(t.phase as f64 / MAX_PHASE as f64);
        d.scale.push([
            t.scale[0] as f64 / SCALE_NORMAL as f64,
            t.scale[1] as f64 / SCALE_NORMAL as f64,
        ]);
        d.result.push(result);
        d.validation.push(d.result.len().is_multiple_of(10));
    }
    bar.finish_and_clear();
    Ok((d, skipped))
}

fn style(what: &str) -> ProgressStyle {
    ProgressStyle::with_template(&format!(
        "{what} {{bar:40}} {{pos}}/{{len}} {{msg}} [{{elapsed}}<{{eta}}]"
    ))
    .unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// White's evaluation of position `i` under `p` (mg, eg interleaved), with the parts
/// the gradient needs: the mg and eg weights.
fn eval(d: &Data, p: &[f64], i: usize) -> (f64, f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(k, c) in &d.coeffs[d.start[i]..d.start[i + 1]] {
        mg += c as f64 * p[2 * k as usize];
        eg += c as f64 * p[2 * k as usize + 1];
    }
    let phase = d.phase[i];
    let scale = if eg > 0.0 {
        d.scale[i][0]
    } else if eg < 0.0 {
        d.scale[i][1]
    } else {
        1.0
    };
    let (wm, we) = (phase, (1.0 - phase) * scale);
    (mg * wm + eg * we, wm, we)
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared error over the training (false) or validation (true) positions.
fn loss(d: &Data, p: &[f64], k: f64, validation: bool) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for i in 0..d.len() {
        if d.validation[i] == validation {
            let r = d.result[i] - sigmoid(k, eval(d, p, i).0);
            sum += r * r;
            n += 1;
        }
    }
    sum / n.max(1) as f64
}

/// The K that minimises the training loss for fixed parameters (golden-section search).
fn fit_k(d: &Data, p: &[f64]) -> f64 {
    let (mut a, mut b) = (0.1f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let e = a + g * (b - a);
        if loss(d, p, c, false) < loss(d, p, e, false) {
            b = e;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// The gradient of the training loss over positions `range`, added into `grad`.
fn gradient_part(d: &Data, p: &[f64], k: f64, range: std::ops::Range<usize>, grad: &mut [f64]) {
    let ln10 = std::f64::consts::LN_10;
    for i in range {
        if d.validation[i] {
            continue;
        }
        let (e, wm, we) = eval(d, p, i);
        let s = sigmoid(k, e);
        let de = -2.0 * (d.result[i] - s) * s * (1.0 - s) * k * ln10 / 400.0;
        for &(idx, c) in &d.coeffs[d.start[i]..d.start[i + 1]] {
            grad[2 * idx as usize] += de * c as f64 * wm;
            grad[2 * idx as usize + 1] += de * c as f64 * we;
        }
    }
}

/// The gradient of the mean training loss, the positions split over `threads`.
fn gradient(d: &Data, p: &[f64], k: f64, threads: usize, grad: &mut [f64]) {
    grad.iter_mut().for_each(|g| *g = 0.0);
    let chunk = d.len().div_ceil(threads.max(1));
    let parts: Vec<Vec<f64>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|t| {
                let range = (t * chunk).min(d.len())..((t + 1) * chunk).min(d.len());
                s.spawn(move || {
                    let mut g = vec![0.0; p.len()];
                    gradient_part(d, p, k, range, &mut g);
                    g
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("gradient thread"))
            .collect()
    });
    for part in parts {
        for (g, x) in grad.iter_mut().zip(part) {
            *g += x;
        }
    }
    let n = d.validation.iter().filter(|v| !**v).count().max(1) as f64;
    grad.iter_mut().for_each(|g| *g /= n);
}

/// How many training positions use each parameter (mg and eg alike).
fn usage(d: &Data) -> Vec<usize> {
    let mut count = vec![0; params::NUM_PARAMS];
    for i in 0..d.len() {
        if !d.validation[i] {
            for &(k, _) in &d.coeffs[d.start[i]..d.start[i + 1]] {
                count[k as usize] += 1;
            }
        }
    }
    count
}

/// Moves the average of each piece's piece-square and mobility tables into its
/// material value. Every piece counts exactly one entry of each, so no evaluation
/// changes; the material values just read as what a piece is worth on average.
fn normalise(v: &mut [(i32, i32)]) {
    use params::*;
    let tables: [(usize, usize, usize); 9] = [
        (0, PST + 8, 48), // pawns stand on ranks 2-7 only
        (1, PST + 64, 64),
        (2, PST + 128, 64),
        (3, PST + 192, 64),
        (4, PST + 256, 64),
        (1, MOB_KNIGHT, 9),
        (2, MOB_BISHOP, 14),
        (3, MOB_ROOK, 15),
        (4, MOB_QUEEN, 28),
    ];
    for (role, start, len) in tables {
        let (sm, se) = v[start..start + len]
            .iter()
            .fold((0, 0), |a, x| (a.0 + x.0, a.1 + x.1));
        let (mm, me) = (sm / len as i32, se / len as i32);
        for x in &mut v[start..start + len] {
            x.0 -= mm;
            x.1 -= me;
        }
        v[MATERIAL + role].0 += mm;
        v[MATERIAL + role].1 += me;
    }
}

pub fn run(args: Args) -> CliResult {
    let start: Vec<(i32, i32)> = if args.from_seed {
        seed::seed()
    } else {
        sable_engine::eval::current_params()
    };
    let (data, skipped) = load(&args.data, args.limit)?;
    if data.len() < 100 {
        return Err(CliError::msg(format!(
            "{}: only {} usable positions",
            args.data,
            data.len()
        )));
    }
    eprintln!(
        "{} positions traced ({} held out for validation), {} left out (specialised endgames), {} parameters",
        data.len(),
        data.validation.iter().filter(|v| **v).count(),
        skipped,
        params::NUM_PARAMS
    );
    let mut p: Vec<f64> = start
        .iter()
        .flat_map(|&(m, e)| [m as f64, e as f64])
        .collect();
    let k = args.k.unwrap_or_else(|| fit_k(&data, &p));
    let before = (loss(&data, &p, k, false), loss(&data, &p, k, true));
    eprintln!(
        "K = {k:.4}; loss before: training {:.6}, validation {:.6}",
        before.0, before.1
    );

    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; p.len()];
    let mut v = vec![0.0; p.len()];
    let mut grad = vec![0.0; p.len()];
    let start_values = p.clone();
    let frozen: Vec<bool> = usage(&data).iter().map(|&c| c < args.min_count).collect();
    eprintln!(
        "{} parameters used by fewer than {} positions keep their values",
        frozen.iter().filter(|f| **f).count(),
        args.min_count
    );
    let bar = ProgressBar::new(args.epochs as u64).with_style(style("tuning"));
    for epoch in 1..=args.epochs {
        gradient(&data, &p, k, args.threads, &mut grad);
        for j in 0..p.len() {
            if frozen[j / 2] {
                continue;
            }
            grad[j] += 2.0 * args.lambda * (p[j] - start_values[j]);
            m[j] = b1 * m[j] + (1.0 - b1) * grad[j];
            v[j] = b2 * v[j] + (1.0 - b2) * grad[j] * grad[j];
            let mh = m[j] / (1.0 - b1.powi(epoch as i32));
            let vh = v[j] / (1.0 - b2.powi(epoch as i32));
            p[j] -= args.rate * mh / (vh.sqrt() + eps);
        }
        if epoch % 50 == 0 {
            bar.set_message(format!("loss {:.6}", loss(&data, &p, k, false)));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();

    let mut tuned: Vec<(i32, i32)> = p
        .chunks(2)
        .map(|c| {
            (
                c[0].round().clamp(-30000.0, 30000.0) as i32,
                c[1].round().clamp(-30000.0, 30000.0) as i32,
            )
        })
        .collect();
    normalise(&mut tuned);
    seed::anchor_queen_vs_minors(&mut tuned);
    let rounded: Vec<f64> = tuned
        .iter()
        .flat_map(|&(m, e)| [m as f64, e as f64])
        .collect();
    let after = (
        loss(&data, &rounded, k, false),
        loss(&data, &rounded, k, true),
    );
    let summary = format!(
        "{} positions from {}, K = {k:.4}, {} epochs at rate {}, lambda {}{}.\nLoss (training / validation): before {:.6} / {:.6}, after {:.6} / {:.6}.",
        data.len(),
        args.data.rsplit('/').next().unwrap_or(&args.data),
        args.epochs,
        args.rate,
        args.lambda,
        if args.from_seed { ", from the seed values" } else { "" },
        before.0,
        before.1,
        after.0,
        after.1
    );
    let command: Vec<String> = std::env::args().skip(1).collect();
    let summary = format!("{summary}\nCommand: sable {}", command.join(" "));
    eprintln!("{summary}");
    if let Some(out) = &args.out {
        std::fs::write(out, params::to_source(&tuned, &summary)).map_err(|source| {
            CliError::Io {
                path: out.clone(),
                source,
            }
        })?;
        eprintln!("wrote {out}");
    }
    Ok(())
}
