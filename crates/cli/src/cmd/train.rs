//! `sable train`: trains the NNUE network (`sable_train`) on game-record
//! files or `FEN | score | result` text, with a progress bar, a line per epoch
//! (training and validation loss), checkpoints and quantised nets in `--out-dir`, and
//! at the end the float vs quantised comparison. `--bench` instead measures the
//! trainer's gradient throughput against the dense single-threaded reference.

use super::{CliError, CliResult};
use indicatif::{ProgressBar, ProgressStyle};
use sable_train::checkpoint::Checkpoint;
use sable_train::data::{self, LoadStats};
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
    /// the validation positions).
    #[arg(long)]
    mirror: bool,
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
    let mut samples = Vec::new();
    let mut stats = LoadStats::default();
    for path in &args.inputs {
        data::load(path, &mut samples, &mut stats).map_err(fail)?;
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
    // The scale the games' results fit is worth knowing even when it is not used: with
    // `--wdl` above 0 a scale far from it pulls the net off the search's centipawns.
    let fitted = model::fit_scale(&train_set);
    if let Scale::Auto = args.scale {
        cfg.scale = fitted;
    }
    eprintln!(
        "score scale {:.0} cp (the results fit {fitted:.0} cp), wdl {}",
        cfg.scale, args.wdl
    );
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
    let state = match &args.resume {
        Some(path) => Checkpoint::load(path).map_err(fail)?,
        None => trainer::fresh(&cfg),
    };
    let bar = ProgressBar::new(train_set.len() as u64).with_style(
        ProgressStyle::with_template("epoch {prefix} {bar:40} {pos}/{len} {msg} [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let trained = trainer::train(&cfg, state, &train_set, &val_set, |e| match e {
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
            // Printed around the bar, not by it: a hidden bar (no terminal) prints nothing.
            bar.suspend(|| {
                println!(
                    "epoch {:>3}: train loss {:.6}, validation loss {:.6}, {:.0} pos/s, lr {:.2e}",
                    r.epoch, r.train_loss, r.val_loss, r.positions_per_s, r.lr
                )
            });
            bar.reset();
        }
    })
    .map_err(fail)?;
    bar.finish_and_clear();
    let net = args.out_dir.join("final.nnue");
    println!("wrote {}", net.display());
    super::nnue::compare_files(&net, &trained.state.params)
}
