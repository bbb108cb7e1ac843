//! `sable train`: trains the NNUE network (`sable_train`) on game-record
//! files or `FEN | score | result` text, with a progress bar, a line per epoch
//! (training and validation loss), checkpoints and quantised nets in `--out-dir`, and
//! at the end the float vs quantised comparison. `--bench` instead measures the
//! trainer's gradient throughput against the dense single-threaded reference.

use super::{CliError, CliResult};
use indicatif::{ProgressBar, ProgressStyle};
use sable_train::checkpoint::Checkpoint;
use sable_train::data::{self, LoadStats};
use sable_train::stream::{self, StreamConfig};
use sable_train::{self as trainer, dense, model, TrainConfig, TrainEvent};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Training files: game records (`sable_formats::record`) or `FEN | score | result` text.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Folder for `checkpoint.ckpt`, `epoch-NNN.nnue` and `final.nnue`.
    #[arg(long, default_value = "nnue-out")]
    out_dir: PathBuf,
    #[arg(long, default_value_t = TrainConfig::default().hidden)]
    hidden: usize,
    /// Output buckets by material (1 to 16; 8 gives bands of 4 pieces: 2-5, 6-9, ...,
    /// 30-32). 1 is the plain net.
    #[arg(long, default_value_t = TrainConfig::default().buckets)]
    output_buckets: usize,
    /// Horizontally mirrored inputs: each side's features have their files flipped when
    /// its own king stands on files e-h, so the net always sees its king on a-d and what
    /// it learns on one wing serves the other. The net is written as format version 3;
    /// a checkpoint resumed must have been trained with it too.
    #[arg(long)]
    king_mirror: bool,
    /// King buckets (with --king-mirror): each side reads its own block of 768 input
    /// rows by where its king stands. 1 (none); 2 (back rank or not); 4 (rank 1 a-b,
    /// rank 1 c-d, rank 2, ranks 3-8); 10 (a1, b1, c1, d1, rank 2 a-b and c-d, rank 3,
    /// rank 4, ranks 5-6, ranks 7-8). Written as format version 4.
    #[arg(long, default_value_t = TrainConfig::default().king_buckets)]
    king_buckets: usize,
    /// With king buckets: train one more block of rows shared by all buckets (each
    /// bucket learns how it differs from what holds everywhere), added into every
    /// bucket's rows at export; the net's size and speed are unchanged.
    #[arg(long)]
    factoriser: bool,
    #[arg(long, default_value_t = TrainConfig::default().epochs)]
    epochs: u32,
    /// Stop after this many epochs in all (resume later with --resume).
    #[arg(long)]
    stop_after: Option<u32>,
    #[arg(long, default_value_t = TrainConfig::default().batch)]
    batch: usize,
    /// Peak learning rate (cosine decay to a hundredth of it).
    #[arg(long, default_value_t = TrainConfig::default().lr)]
    lr: f32,
    /// Weight of the game result in the target; the rest is the score.
    #[arg(long, default_value_t = TrainConfig::default().wdl)]
    wdl: f32,
    /// AdamW's decoupled weight decay, in [0, 1]: every step shrinks each weight by
    /// the learning rate times this of itself (a regulariser against learning the
    /// training games by heart).
    #[arg(long, default_value_t = TrainConfig::default().weight_decay)]
    weight_decay: f32,
    /// Sigmoid scale of the scores in centipawns (the score at which a side is expected
    /// to make 73 %), or `auto`: fitted to the training positions' results.
    #[arg(long, default_value_t = Scale::Cp(TrainConfig::default().scale), value_parser = parse_scale)]
    scale: Scale,
    /// Fraction of the games held out for validation (whole games).
    #[arg(long, default_value_t = TrainConfig::default().val)]
    val: f32,
    #[arg(long, default_value_t = TrainConfig::default().threads)]
    threads: usize,
    #[arg(long, default_value_t = TrainConfig::default().seed)]
    seed: u64,
    /// Add the a-h mirror of every training position without castling rights (not of
    /// the validation positions). With --king-mirror a copy is the same inputs as its
    /// original, so this only weighs those positions double.
    #[arg(long)]
    mirror: bool,
    /// Positions held in memory at most (76 bytes each): data that fits is loaded whole
    /// and shuffled whole every epoch; more is streamed from the files, read again every
    /// epoch through a shuffle window of most of this, with the validation set capped at
    /// an eighth.
    #[arg(long, default_value_t = 16_000_000, value_parser = clap::value_parser!(u64).range(3..))]
    buffer: u64,
    /// Continue from this checkpoint (same data, seed and settings).
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Measure positions/s of the trainer and of the dense reference, then exit.
    #[arg(long)]
    bench: bool,
}

/// `--scale`: fitted to the data, or given.
#[derive(Clone, Copy, Debug)]
enum Scale {
    Auto,
    Cp(f32),
}

impl std::fmt::Display for Scale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scale::Auto => write!(f, "auto"),
            Scale::Cp(v) => write!(f, "{v}"),
        }
    }
}

/// `auto` or a positive number of centipawns.
fn parse_scale(text: &str) -> Result<Scale, String> {
    if text == "auto" {
        return Ok(Scale::Auto);
    }
    match text.parse::<f32>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(Scale::Cp(v)),
        _ => Err(format!(
            "'{text}' is neither `auto` nor a positive number of centipawns"
        )),
    }
}

pub fn run(args: Args) -> CliResult {
    let fail = |e: trainer::TrainError| CliError::msg(e.to_string());
    // Every setting a run needs is checked before the data is read, which may take
    // minutes (`--bench` measures any width, loadable or not).
    let mut cfg = TrainConfig {
        hidden: args.hidden,
        buckets: args.output_buckets,
        king_mirror: args.king_mirror,
        king_buckets: args.king_buckets,
        factoriser: args.factoriser,
        epochs: args.epochs,
        stop_after: args.stop_after,
        batch: args.batch,
        lr: args.lr,
        wdl: args.wdl,
        weight_decay: args.weight_decay,
        scale: match args.scale {
            Scale::Cp(v) => v,
            // Fitted below, once the data is read.
            Scale::Auto => TrainConfig::default().scale,
        },
        val: args.val,
        threads: args.threads,
        seed: args.seed,
        out_dir: Some(args.out_dir.clone()),
    };
    if args.bench {
        cfg.check_settings().map_err(fail)?;
    } else {
        cfg.check().map_err(fail)?;
    }
    let buffer = usize::try_from(args.buffer).unwrap_or(usize::MAX);
    let stream = StreamConfig {
        buffer,
        mirror: args.mirror,
        val_max: buffer / 8,
    };
    // Loaded whole while it fits (mirrored copies may double it); past that, streamed.
    let per_sample = if args.mirror { 2 } else { 1 };
    let mut samples = Vec::new();
    let mut stats = LoadStats::default();
    let mut fits = true;
    for path in &args.inputs {
        data::load(path, &mut samples, &mut stats).map_err(fail)?;
        if samples.len().saturating_mul(per_sample) > buffer {
            fits = false;
            break;
        }
    }
    if !fits && !args.bench {
        drop(samples);
        return run_streaming(&args, cfg, &stream);
    }
    if !fits {
        samples.truncate(buffer / per_sample);
        eprintln!(
            "--bench: measuring on the first {} positions",
            samples.len()
        );
    }
    for t in &stats.truncated {
        eprintln!("warning: {t}");
    }
    let (mut train_set, val_set) = trainer::split(samples, args.val, args.seed);
    let mirrored = if args.mirror {
        data::add_mirrored(&mut train_set)
    } else {
        0
    };
    eprintln!(
        "{} positions from {} games: {} training ({mirrored} of them mirrored copies), {} validation",
        stats.samples,
        stats.games,
        train_set.len(),
        val_set.len()
    );
    set_scale(&args, &mut cfg, &train_set);
    if args.bench {
        let state = trainer::fresh(&cfg);
        let t = dense::measure(
            &state.params,
            &train_set,
            cfg.objective(),
            cfg.threads,
            cfg.batch,
        );
        println!(
            "hidden {}: sparse trainer {:.0} pos/s (1 thread), {:.0} pos/s ({} threads); \
             dense reference {:.0} pos/s (1 thread); sparse/dense {:.1}x",
            cfg.hidden,
            t.sparse_1,
            t.sparse_n,
            t.threads,
            t.dense_1,
            t.sparse_1 / t.dense_1
        );
        return Ok(());
    }
    let state = start_state(&args, &cfg)?;
    let bar = progress(train_set.len() as u64);
    let trained =
        trainer::train(&cfg, state, &train_set, &val_set, |e| report(&bar, e)).map_err(fail)?;
    finish(&args, &bar, &trained)
}

/// More data than `--buffer` holds: one reading to survey it, then training streams it.
fn run_streaming(args: &Args, mut cfg: TrainConfig, stream: &StreamConfig) -> CliResult {
    let fail = |e: trainer::TrainError| CliError::msg(e.to_string());
    eprintln!(
        "more than --buffer {} positions: streaming from the files",
        stream.buffer
    );
    let survey = stream::survey(&args.inputs, &cfg, stream).map_err(fail)?;
    for t in &survey.truncated {
        eprintln!("warning: {t}");
    }
    eprintln!(
        "{} positions from {} games, read in {:.1} s ({:.0} positions/s): {} training a \
         epoch ({} of them mirrored copies) through a shuffle window of {}, {} validation \
         ({} held-out positions past the cap of {} left out)",
        survey.samples,
        survey.games,
        survey.seconds,
        survey.samples as f64 / survey.seconds.max(1e-9),
        survey.train,
        survey.mirrored,
        stream.window(),
        survey.val.len(),
        survey.val_dropped,
        stream.val_max
    );
    // Fitted on the evenly spaced calibration samples: one number needs no more.
    set_scale(args, &mut cfg, &survey.calibration);
    let state = start_state(args, &cfg)?;
    let bar = progress(survey.train);
    let trained = stream::train(&cfg, stream, state, &survey, |e| report(&bar, e)).map_err(fail)?;
    finish(args, &bar, &trained)
}

/// The scale the games' results fit in `samples`, printed, and taken for `--scale auto`.
/// It is worth knowing even when it is not used: with `--wdl` above 0 a scale far from it
/// pulls the net off the search's centipawns.
fn set_scale(args: &Args, cfg: &mut TrainConfig, samples: &[data::Sample]) {
    let fitted = model::fit_scale(samples);
    if let Scale::Auto = args.scale {
        cfg.scale = fitted;
    }
    eprintln!(
        "score scale {:.0} cp (the results fit {fitted:.0} cp), wdl {}",
        cfg.scale, args.wdl
    );
}

fn start_state(args: &Args, cfg: &TrainConfig) -> Result<Checkpoint, CliError> {
    match &args.resume {
        Some(path) => Checkpoint::load(path).map_err(|e| CliError::msg(e.to_string())),
        None => Ok(trainer::fresh(cfg)),
    }
}

fn progress(len: u64) -> ProgressBar {
    ProgressBar::new(len).with_style(
        ProgressStyle::with_template("epoch {prefix} {bar:40} {pos}/{len} {msg} [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    )
}

fn report(bar: &ProgressBar, e: &TrainEvent) {
    match e {
        TrainEvent::Batch {
            epoch,
            done,
            positions_per_s,
            ..
        } => {
            bar.set_prefix(epoch.to_string());
            bar.set_position(*done as u64);
            bar.set_message(format!("{positions_per_s:.0} pos/s"));
        }
        TrainEvent::Epoch(r) => {
            // Streamed, the time training waited for reading (0: it never did).
            let waited = if r.waited_s > 0.0 {
                format!(", waited {:.1} s for data", r.waited_s)
            } else {
                String::new()
            };
            // Printed around the bar, not by it: a hidden bar (no terminal) prints nothing.
            bar.suspend(|| {
                println!(
                    "epoch {:>3}: train loss {:.6}, validation loss {:.6}, {:.0} pos/s, lr {:.2e}{waited}",
                    r.epoch, r.train_loss, r.val_loss, r.positions_per_s, r.lr
                )
            });
            bar.reset();
        }
    }
}

fn finish(args: &Args, bar: &ProgressBar, trained: &trainer::Trained) -> CliResult {
    bar.finish_and_clear();
    let net = args.out_dir.join("final.nnue");
    println!("wrote {}", net.display());
    super::nnue::compare_files(&net, &trained.state.params)
}
