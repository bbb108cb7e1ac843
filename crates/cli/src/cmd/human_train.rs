//! `sable human-train`: fits the limited levels' model of human move choice
//! (`sable_engine::strength::human`) on rated games with `sable_train::human`, prints the
//! held-out figures by rating band (the model's likeliest move against the quiescence
//! search's best move alone) for each model trained (`--hidden`, `--hidden-lr`, `--lr`
//! lists), and writes the best one's weights as the engine's generated source file and
//! its numbers (`weights.bin`).

use super::{CliError, CliResult};
use sable_train::human::{self, HumanConfig, Part};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// PGN files of rated games (WhiteElo and BlackElo tags).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Where to write the weights (the engine's `strength/human/weights.rs`; the numbers go
    /// beside it, with the extension `.bin`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Hold out every N-th game (the first, 0, and every N-th after it, counting all the
    /// games of the inputs in order) for measuring.
    #[arg(long, default_value_t = 10)]
    dev_every: usize,
    /// First ply sampled (the opening before it is book knowledge).
    #[arg(long, default_value_t = 10)]
    from_ply: usize,
    /// Keep every N-th eligible training position (1: all).
    #[arg(long, default_value_t = 1)]
    every: usize,
    #[arg(long, default_value_t = HumanConfig::default().epochs)]
    epochs: u32,
    #[arg(long, default_value_t = HumanConfig::default().batch)]
    batch: usize,
    /// Peak learning rate (cosine decay to a hundredth of it); several, comma-separated,
    /// train one model each on the same samples and keep the one with the lowest
    /// held-out loss.
    #[arg(long, value_delimiter = ',', default_value = "0.02")]
    lr: Vec<f32>,
    #[arg(long, default_value_t = HumanConfig::default().weight_decay)]
    weight_decay: f32,
    #[arg(long, default_value_t = HumanConfig::default().seed)]
    seed: u64,
    /// Which features to use: all, policy (without the quiescence loss) or engine (it
    /// alone); the parts alone are for measuring.
    #[arg(long, default_value = "all")]
    part: String,
    /// Hidden units of the board layer (0: the linear model alone); several,
    /// comma-separated, train one model each (with each learning rate) on the same samples,
    /// the one with the lowest held-out loss kept, and are compared band by band.
    #[arg(long, value_delimiter = ',', default_value = "64")]
    hidden: Vec<usize>,
    /// More decoupled weight decay for the hidden layer's weights (the board layer and
    /// the move embedding); several, comma-separated, train one model each.
    #[arg(long, value_delimiter = ',', default_value = "0")]
    hidden_decay: Vec<f32>,
    /// The hidden layer's learning rate as a share of `--lr`; several, comma-separated,
    /// train one model each.
    #[arg(long, value_delimiter = ',', default_value = "0.01")]
    hidden_lr: Vec<f32>,
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

pub fn run(args: Args) -> CliResult {
    let part = match args.part.as_str() {
        "all" => Part::All,
        "policy" => Part::Policy,
        "engine" => Part::Engine,
        p => return Err(CliError::Msg(format!("--part: {p}: all, policy or engine"))),
    };
    let t = Instant::now();
    let (games, skipped) =
        human::read_games(&args.inputs).map_err(|e| CliError::Msg(e.to_string()))?;
    let (mut train_games, mut dev_games) = (Vec::new(), Vec::new());
    for (i, g) in games {
        if args.dev_every > 0 && i.is_multiple_of(args.dev_every) {
            dev_games.push(g);
        } else {
            train_games.push(g);
        }
    }
    eprintln!(
        "{} training games, {} held out, {skipped} skipped ({:.1}s)",
        train_games.len(),
        dev_games.len(),
        t.elapsed().as_secs_f64()
    );
    let train = human::samples_parallel(&train_games, args.from_ply, args.every, args.threads);
    let dev = human::samples_parallel(&dev_games, args.from_ply, 1, args.threads);
    eprintln!(
        "{} training positions, {} held out ({:.1}s)",
        train.len(),
        dev.len(),
        t.elapsed().as_secs_f64()
    );
    let inputs: Vec<String> = args
        .inputs
        .iter()
        .map(|p| {
            p.file_name()
                .map_or(String::new(), |f| f.to_string_lossy().into_owned())
        })
        .collect();
    // Every model trained: hidden size, its decay, learning rate, held-out loss, weights.
    let mut models: Vec<(usize, f32, f32, f32, f64, Vec<f32>)> = Vec::new();
    let mut variants: Vec<(usize, f32, f32)> = Vec::new();
    for &h in &args.hidden {
        // The linear model has no hidden weights to decay or learn.
        if h == 0 {
            variants.push((0, 0.0, 1.0));
            continue;
        }
        for &d in &args.hidden_decay {
            for &l in &args.hidden_lr {
                variants.push((h, d, l));
            }
        }
    }
    for &(hidden, hidden_decay, hidden_lr) in &variants {
        if hidden > sable_engine::strength::human::MAX_HIDDEN {
            return Err(CliError::Msg(format!(
                "--hidden {hidden}: at most {}",
                sable_engine::strength::human::MAX_HIDDEN
            )));
        }
        for &lr in &args.lr {
            let cfg = HumanConfig {
                epochs: args.epochs,
                batch: args.batch,
                lr,
                weight_decay: args.weight_decay,
                seed: args.seed,
                part,
                hidden,
                hidden_decay,
                hidden_lr,
            };
            println!(
                "hidden {hidden}, hidden decay {hidden_decay}, hidden lr {hidden_lr}, \
                 learning rate {lr}"
            );
            let w = human::train(&train, &dev, &cfg, |r, _| {
                println!(
                    "epoch {:>2}  train loss {:.4}  held-out loss {:.4}  accuracy {:.2}%  ({:.0}s)",
                    r.epoch,
                    r.train_loss,
                    r.dev_loss,
                    100.0 * r.dev_accuracy,
                    t.elapsed().as_secs_f64()
                );
            });
            let (loss, _) = human::evaluate(&dev, &w, part);
            models.push((hidden, hidden_decay, hidden_lr, lr, loss, w));
        }
    }
    let Some(kept) = models
        .iter()
        .enumerate()
        .min_by(|a, b| a.1 .4.total_cmp(&b.1 .4))
        .map(|(i, _)| i)
    else {
        return Err(CliError::Msg("--lr, --hidden: no model".into()));
    };
    let (hidden, hidden_decay, hidden_lr, lr, _, ref w) = models[kept];
    if let Some(out) = &args.out {
        let provenance = format!(
            "Inputs: {}; every {}-th game held out; from ply {}; every {} position(s);\n\
             {} epochs, batch {}, hidden {}, hidden decay {}, hidden lr {} and lr {} (lowest\n\
             held-out loss of hidden {:?}, hidden decay {:?}, hidden lr {:?}, lr {:?}),\n\
             weight decay {}, seed {}; {} training positions.",
            inputs.join(", "),
            args.dev_every,
            args.from_ply,
            args.every,
            args.epochs,
            args.batch,
            hidden,
            hidden_decay,
            hidden_lr,
            lr,
            args.hidden,
            args.hidden_decay,
            args.hidden_lr,
            args.lr,
            args.weight_decay,
            args.seed,
            train.len()
        );
        // The numbers beside the source, as `weights.bin` beside `weights.rs`.
        let bin = out.with_extension("bin");
        let bin_name = bin
            .file_name()
            .map_or(String::new(), |f| f.to_string_lossy().into_owned());
        sable_train::checkpoint::write_atomic(&bin, &human::weights_bytes(w))
            .map_err(|e| CliError::Msg(e.to_string()))?;
        let src = human::weights_source(w, &provenance, &bin_name);
        sable_train::checkpoint::write_atomic(out, src.as_bytes())
            .map_err(|e| CliError::Msg(e.to_string()))?;
    }
    println!(
        "kept hidden {hidden}, hidden decay {hidden_decay}, hidden lr {hidden_lr}, learning \
         rate {lr}; held out, by the mover's rating: positions, the quiescence search's best \
         move, each model's likeliest move (hidden/hidden decay/hidden lr/lr)"
    );
    let tables: Vec<_> = models
        .iter()
        .map(|(_, _, _, _, _, w)| human::by_band(&dev, w, part))
        .collect();
    let mut head = format!("{:>9} {:>7} {:>7}", "band", "pos", "quick");
    for (h, d, hl, l, _, _) in &models {
        head.push_str(&format!(" {:>15}", format!("{h}/{d}/{hl}/{l}")));
    }
    println!("{head}");
    let bands = tables[0].len();
    let mut totals = vec![0usize; models.len()];
    let (mut n, mut e) = (0, 0);
    for b in 0..bands {
        let (band, c) = &tables[0][b];
        let pct = |x: usize| 100.0 * x as f64 / c.positions.max(1) as f64;
        let mut line = format!("{band:>9} {:>7} {:>6.1}%", c.positions, pct(c.engine_hits));
        for (m, t) in tables.iter().enumerate() {
            line.push_str(&format!(" {:>14.2}%", pct(t[b].1.model_hits)));
            totals[m] += t[b].1.model_hits;
        }
        println!("{line}");
        n += c.positions;
        e += c.engine_hits;
    }
    let pct = |x: usize| 100.0 * x as f64 / n.max(1) as f64;
    let mut line = format!("{:>9} {n:>7} {:>6.1}%", "all", pct(e));
    for t in &totals {
        line.push_str(&format!(" {:>14.2}%", pct(*t)));
    }
    println!("{line}");
    let mut line = format!("{:>9} {:>7} {:>7}", "loss", "", "");
    for (_, _, _, _, loss, _) in &models {
        line.push_str(&format!(" {loss:>15.4}"));
    }
    println!("{line}");
    Ok(())
}
