//! # sable_train
//!
//! The trainer behind `sable train`: float training of the `(768 -> H) x 2 -> 1` net
//! (optionally with horizontally mirrored inputs, [`TrainConfig::king_mirror`], and king
//! buckets with a factoriser, [`TrainConfig::king_buckets`]) on
//! positions from Sable's own games, with quantised export to the engine's net format
//! (`sable_engine::nnue`, the one format both sides share). It is a crate of its own so
//! that the engine that plays carries no trainer.
//!
//! Samples are held in memory ([`data`]), split once into training and validation sets
//! by whole games (seeded), and shuffled every epoch; data larger than memory is streamed
//! from its files instead ([`stream`]), with the same split and step count. The loss is the squared distance between
//! `sigmoid(output / scale)` and `wdl · result + (1 − wdl) · sigmoid(score / scale)`
//! ([`model::Objective`]: 400 cp by default, or what [`model::fit_scale`] finds). Each batch
//! is split across threads; each thread sums its samples' gradients (only the active
//! features' rows), and the partial sums are added in thread order, so a seed and a
//! thread count give the same weights bit for bit. AdamW steps once per batch, with
//! cosine decay; weights are clipped to what quantisation represents. After every epoch
//! a checkpoint (atomic) and a quantised net are written to the output folder, its output
//! bias calibrated on the training samples ([`Params::quantise_calibrated`]).

pub mod adamw;
pub mod checkpoint;
pub mod data;
pub mod dense;
pub mod human;
pub mod model;
pub mod stream;
/// The trainer's seeded randomness: the engine's SplitMix64, so that a random net made
/// here and one made by [`sable_engine::nnue::Network::random`] are the same net.
pub use sable_engine::nnue::rng;

use adamw::{cosine_lr, AdamW};
use checkpoint::{write_atomic, Checkpoint};
use data::Sample;
use model::{Objective, Params, Scratch};
use rng::Rng;
use sable_engine::nnue::Inputs;
use std::borrow::Borrow;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Why training stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    #[error("{path}: {message}")]
    Data { path: String, message: String },
    #[error("checkpoint {path}: {message}")]
    Checkpoint { path: String, message: String },
    #[error("{0}")]
    Config(String),
    #[error("quantised export: {0}")]
    Net(#[from] sable_engine::nnue::NetError),
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub hidden: usize,
    /// Output buckets by material ([`sable_engine::nnue::output_bucket`]); 1 is the plain net.
    pub buckets: usize,
    /// Horizontally mirrored inputs ([`Params::mirrored`]; `sable train --king-mirror`):
    /// each side sees its king on files a-d. Exported as net format version 3.
    pub king_mirror: bool,
    /// King buckets, one of [`Inputs::preset`]'s layouts (1: none; `sable train
    /// --king-buckets`); more than one needs `king_mirror`. Exported as format version 4.
    pub king_buckets: usize,
    /// Train king buckets with a shared block of rows ([`Params::factoriser`]), folded
    /// in at export.
    pub factoriser: bool,
    pub epochs: u32,
    /// Stop after this many epochs have been done in all (for training in sessions;
    /// the schedule still runs over `epochs`).
    pub stop_after: Option<u32>,
    pub batch: usize,
    pub lr: f32,
    /// Weight of the game result in the target (the rest is the score).
    pub wdl: f32,
    /// AdamW's decoupled weight decay ([`adamw::WEIGHT_DECAY`] by default).
    pub weight_decay: f32,
    /// Sigmoid scale of scores in centipawns ([`Objective`]); `sable train --scale auto`
    /// sets it to what [`model::fit_scale`] finds in the data.
    pub scale: f32,
    /// Fraction of the games held out for validation ([`split`]).
    pub val: f32,
    pub threads: usize,
    pub seed: u64,
    /// Where checkpoints and nets go; `None` writes nothing (tests).
    pub out_dir: Option<PathBuf>,
}

impl Default for TrainConfig {
    /// Small batches and many epochs, because Sable's data sets are small; `wdl` 0 (the
    /// searched score alone, at the output's own scale), because a result term at a
    /// scale the games do not fit inflates the net's centipawns. The runs that chose
    /// these are in `results/2026-12-01/README.md` and `results/2026-12-02/README.md`.
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: 32,
            buckets: 1,
            king_mirror: false,
            king_buckets: 1,
            factoriser: false,
            epochs: 40,
            stop_after: None,
            batch: 4_096,
            lr: 0.005,
            wdl: 0.0,
            weight_decay: adamw::WEIGHT_DECAY,
            scale: sable_engine::nnue::SCALE as f32,
            val: 0.02,
            threads: 1,
            seed: 1,
            out_dir: None,
        }
    }
}

impl TrainConfig {
    /// Refuses settings no run can use: [`check_sizes`](Self::check_sizes) and
    /// [`check_settings`](Self::check_settings). Callers check before reading any data;
    /// [`train`] checks again.
    pub fn check(&self) -> Result<(), TrainError> {
        self.check_sizes()?;
        self.check_settings()
    }

    /// Refuses a hidden size or bucket count the engine cannot load, now rather than after
    /// the run at export (`sable train --bench` measures any width, so it skips this).
    pub fn check_sizes(&self) -> Result<(), TrainError> {
        sable_engine::nnue::check_hidden(self.hidden)?;
        sable_engine::nnue::check_buckets(self.buckets)?;
        self.inputs()?;
        Ok(())
    }

    /// The input layout these settings ask for; refuses king buckets without mirrored
    /// inputs, a bucket count with no layout, and a factoriser without king buckets.
    pub fn inputs(&self) -> Result<Inputs, TrainError> {
        let Some(preset) = Inputs::preset(self.king_buckets) else {
            return Err(TrainError::Config(format!(
                "{} king buckets: the layouts are 1, 2, 4 and 10",
                self.king_buckets
            )));
        };
        if self.king_buckets > 1 && !self.king_mirror {
            return Err(TrainError::Config(
                "king buckets need mirrored inputs (--king-mirror)".into(),
            ));
        }
        if self.factoriser && self.king_buckets == 1 {
            return Err(TrainError::Config(
                "a factoriser needs king buckets (--king-buckets 2 or more)".into(),
            ));
        }
        Ok(if self.king_mirror {
            preset
        } else {
            Inputs::PLAIN
        })
    }

    /// Refuses an empty batch, no thread, or a result weight, validation fraction, scale,
    /// learning rate or decay out of range, each by name.
    pub fn check_settings(&self) -> Result<(), TrainError> {
        if self.batch == 0 || self.threads == 0 {
            return Err(TrainError::Config(format!(
                "a batch needs at least one position and a run at least one thread, not batch {} and {} threads",
                self.batch, self.threads
            )));
        }
        let positive = |x: f32| x.is_finite() && x > 0.0;
        // (in range, what the setting must be, its value); a NaN is in no range.
        let ranges = [
            // The target blends the search's score (0) and the game's result (1).
            (
                (0.0..=1.0).contains(&self.wdl),
                "the result weight wdl must be in [0, 1]",
                self.wdl,
            ),
            // Holding out every game would leave nothing to train on.
            (
                (0.0..1.0).contains(&self.val),
                "the validation fraction must be in [0, 1)",
                self.val,
            ),
            (
                positive(self.scale),
                "the score scale must be a positive number of centipawns",
                self.scale,
            ),
            (
                positive(self.lr),
                "the learning rate must be a positive number",
                self.lr,
            ),
            // Each step shrinks a weight by lr · decay of itself: past 1 that is no decay.
            (
                (0.0..=1.0).contains(&self.weight_decay),
                "the weight decay must be in [0, 1]",
                self.weight_decay,
            ),
        ];
        match ranges.iter().find(|(ok, ..)| !ok) {
            Some((_, what, value)) => Err(TrainError::Config(format!("{what}, not {value}"))),
            None => Ok(()),
        }
    }

    /// The loss's target and scale.
    pub fn objective(&self) -> Objective {
        Objective {
            wdl: self.wdl,
            scale: self.scale,
        }
    }
}

/// What the trainer tells while it runs.
#[derive(Clone, Debug)]
pub enum TrainEvent {
    /// After each batch.
    Batch {
        epoch: u32,
        done: usize,
        total: usize,
        positions_per_s: f64,
    },
    Epoch(EpochReport),
}

#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: u32,
    pub train_loss: f64,
    pub val_loss: f64,
    pub positions_per_s: f64,
    pub lr: f32,
    /// Seconds the epoch's training waited for data to be read (0 in memory): above 0,
    /// reading is slower than training.
    pub waited_s: f64,
    /// The quantised net written after this epoch, if any.
    pub net: Option<PathBuf>,
}

/// The result of a run.
pub struct Trained {
    pub state: Checkpoint,
    pub reports: Vec<EpochReport>,
}

/// Splits `samples` into training and validation sets by whole games ([`Sample::game`]):
/// each game is held out with probability `val`, drawn from the seed and its number.
///
/// Why by game: positions of one game share most of their pieces and their result, so a
/// validation position whose neighbours were trained on rewards memorising games. Split
/// by position (before 12-02), a hidden-256 net had the lowest validation loss of all
/// and lost to the hidden-128 one in games.
pub fn split(samples: Vec<Sample>, val: f32, seed: u64) -> (Vec<Sample>, Vec<Sample>) {
    let held = held_out(val, seed);
    let (val_set, train_set) = samples.into_iter().partition(|s| held(s.game));
    (train_set, val_set)
}

/// Whether game number `game` is held out for validation, for [`split`] and the
/// streaming trainer alike: a draw from the seed and the game's number alone, so that
/// any reading order holds out the same games.
pub fn held_out(val: f32, seed: u64) -> impl Fn(u32) -> bool {
    let cut = (val.clamp(0.0, 1.0) as f64 * u64::MAX as f64) as u64;
    move |game| Rng(seed ^ 0x5EED_5A17 ^ (u64::from(game) << 20)).next_u64() < cut
}

/// The starting state for `cfg`: random weights from the seed. (Inputs that
/// [`TrainConfig::check`] refuses start as plain ones, which [`train`] then refuses.)
pub fn fresh(cfg: &TrainConfig) -> Checkpoint {
    let inputs = cfg.inputs().unwrap_or(Inputs::PLAIN);
    let mut rng = Rng(cfg.seed);
    let params =
        Params::random_with_inputs(inputs, cfg.factoriser, cfg.hidden, cfg.buckets, &mut rng);
    let opt = AdamW::new(params.w.len());
    Checkpoint {
        params,
        opt,
        epochs_done: 0,
        rng,
    }
}

/// Mean loss over `samples`, split across threads (summed in thread order).
pub fn mean_loss(params: &Params, samples: &[Sample], obj: Objective, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let sums: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut scratch = Scratch::new(params.hidden);
                    part.iter()
                        .map(|x| params.loss(x, obj, &mut scratch) as f64)
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread"))
            .collect()
    });
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// How many samples ahead [`batch_gradient`] (and the streaming window's draws) ask
/// for the next one's memory.
pub(crate) const PREFETCH_AHEAD: usize = 4;

/// Hints the processor to load `s` (every cache line it touches) ahead of its turn. A batch's
/// samples are scattered over a shuffle window of a gigabyte or more, so each one missed
/// every cache and the TLB: the trainer ran at 60 % of its speed on a small file
/// (`results/2026-12-08/trainer-prefetch.md`).
#[inline]
pub(crate) fn prefetch(s: &Sample) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = (s as *const Sample).cast::<i8>();
        const LAST: usize = std::mem::size_of::<Sample>() - 1;
        // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault. All three
        // addresses are inside `s` (76 bytes, 4-aligned, so over two or three lines:
        // its first byte, byte 64 and its last byte reach each of them), and SSE is part
        // of the x86-64 baseline.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p);
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64));
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(LAST));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = s;
}

/// One batch's gradient (mean over the batch) into `grad`, split across `grads.len()`
/// threads; returns the batch's summed loss.
fn batch_gradient<T: Borrow<Sample> + Sync>(
    params: &Params,
    batch: &[T],
    obj: Objective,
    grads: &mut [Vec<f32>],
    scratch: &mut [Scratch],
    grad: &mut [f32],
) -> f64 {
    let chunk = batch.len().div_ceil(grads.len());
    let losses: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = batch
            .chunks(chunk)
            .zip(grads.iter_mut().zip(scratch.iter_mut()))
            .map(|(part, (g, sc))| {
                s.spawn(move || {
                    g.fill(0.0);
                    let mut loss = 0.0f64;
                    for (i, x) in part.iter().enumerate() {
                        if let Some(ahead) = part.get(i + PREFETCH_AHEAD) {
                            prefetch(ahead.borrow());
                        }
                        loss += params.backward(x.borrow(), obj, g, sc) as f64;
                    }
                    loss
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("gradient thread"))
            .collect()
    });
    let used = batch.len().div_ceil(chunk);
    grad.copy_from_slice(&grads[0]);
    for g in &grads[1..used] {
        for (a, b) in grad.iter_mut().zip(g) {
            *a += b;
        }
    }
    let scale = 1.0 / batch.len() as f32;
    for a in grad.iter_mut() {
        *a *= scale;
    }
    losses.iter().sum()
}

/// Trains from `state` (fresh or resumed) until `cfg.epochs` (or `cfg.stop_after`), on
/// samples held in memory and shuffled whole every epoch.
pub fn train(
    cfg: &TrainConfig,
    mut state: Checkpoint,
    train_set: &[Sample],
    val_set: &[Sample],
    mut on_event: impl FnMut(&TrainEvent),
) -> Result<Trained, TrainError> {
    let mut stepper = Stepper::new(cfg, &state, train_set.len() as u64)?;
    let mut order: Vec<u32> = Vec::with_capacity(train_set.len());
    let mut batch: Vec<&Sample> = Vec::with_capacity(cfg.batch);
    let mut reports = Vec::new();
    while state.epochs_done < stepper.last {
        let epoch = state.epochs_done + 1;
        let start = Instant::now();
        order.clear();
        order.extend(0..train_set.len() as u32);
        state.rng.shuffle(&mut order);
        let mut loss_sum = 0.0;
        for (b, idx) in order.chunks(cfg.batch).enumerate() {
            batch.clear();
            batch.extend(idx.iter().map(|&i| &train_set[i as usize]));
            loss_sum += stepper.step(cfg, &mut state, &batch);
            let done = ((b + 1) * cfg.batch).min(train_set.len());
            on_event(&TrainEvent::Batch {
                epoch,
                done,
                total: train_set.len(),
                positions_per_s: done as f64 / start.elapsed().as_secs_f64().max(1e-9),
            });
        }
        let report =
            stepper.end_epoch(cfg, &mut state, train_set, val_set, loss_sum, start, 0.0)?;
        on_event(&TrainEvent::Epoch(report.clone()));
        reports.push(report);
    }
    finish(cfg, state, train_set, reports)
}

/// What one batch step needs, shared by [`train`] and [`stream::train`]: the per-thread
/// gradients and scratch, and the schedule's length.
pub(crate) struct Stepper {
    grads: Vec<Vec<f32>>,
    scratch: Vec<Scratch>,
    grad: Vec<f32>,
    /// Training samples per epoch.
    per_epoch: u64,
    total_steps: u64,
    /// The epoch this run stops after.
    pub(crate) last: u32,
    lr: f32,
}

impl Stepper {
    /// Checks `cfg` against `state` and makes the output folder.
    pub(crate) fn new(
        cfg: &TrainConfig,
        state: &Checkpoint,
        per_epoch: u64,
    ) -> Result<Stepper, TrainError> {
        if (state.params.hidden, state.params.buckets) != (cfg.hidden, cfg.buckets) {
            return Err(TrainError::Config(format!(
                "the checkpoint has hidden size {} and {} output bucket(s), not {} and {}",
                state.params.hidden, state.params.buckets, cfg.hidden, cfg.buckets
            )));
        }
        cfg.check()?;
        let inputs = |p: (Inputs, bool)| {
            format!(
                "{} inputs{}{}",
                if p.0.mirrored() { "mirrored" } else { "plain" },
                match p.0.buckets() {
                    1 => String::new(),
                    k => format!(" with {k} king buckets"),
                },
                if p.1 { " and a factoriser" } else { "" }
            )
        };
        let (theirs, ours) = (
            (state.params.inputs, state.params.factoriser),
            (cfg.inputs()?, cfg.factoriser),
        );
        if theirs != ours {
            return Err(TrainError::Config(format!(
                "the checkpoint's net has {}, this run's (--king-mirror, --king-buckets, --factoriser) {}",
                inputs(theirs),
                inputs(ours)
            )));
        }
        if per_epoch == 0 {
            return Err(TrainError::Config(
                "nothing to train on: no training positions".into(),
            ));
        }
        if let Some(dir) = &cfg.out_dir {
            std::fs::create_dir_all(dir).map_err(|e| TrainError::Io {
                path: dir.display().to_string(),
                message: e.to_string(),
            })?;
        }
        let n = state.params.w.len();
        Ok(Stepper {
            grads: vec![vec![0.0f32; n]; cfg.threads],
            scratch: (0..cfg.threads).map(|_| Scratch::new(cfg.hidden)).collect(),
            grad: vec![0.0f32; n],
            per_epoch,
            total_steps: per_epoch.div_ceil(cfg.batch as u64) * cfg.epochs as u64,
            last: cfg.stop_after.unwrap_or(cfg.epochs).min(cfg.epochs),
            lr: cfg.lr,
        })
    }

    /// One AdamW step on `batch`'s mean gradient; returns the batch's summed loss.
    pub(crate) fn step<T: Borrow<Sample> + Sync>(
        &mut self,
        cfg: &TrainConfig,
        state: &mut Checkpoint,
        batch: &[T],
    ) -> f64 {
        let loss = batch_gradient(
            &state.params,
            batch,
            cfg.objective(),
            &mut self.grads,
            &mut self.scratch,
            &mut self.grad,
        );
        self.lr = cosine_lr(cfg.lr, state.opt.step, self.total_steps);
        state
            .opt
            .step(&mut state.params.w, &self.grad, self.lr, cfg.weight_decay);
        state.params.clip();
        loss
    }

    /// Closes an epoch begun at `start`: the checkpoint and the quantised net (its bias
    /// calibrated on `calibration`), and the report.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn end_epoch(
        &self,
        cfg: &TrainConfig,
        state: &mut Checkpoint,
        calibration: &[Sample],
        val_set: &[Sample],
        loss_sum: f64,
        start: Instant,
        waited_s: f64,
    ) -> Result<EpochReport, TrainError> {
        let positions_per_s = self.per_epoch as f64 / start.elapsed().as_secs_f64().max(1e-9);
        state.epochs_done += 1;
        let net = match &cfg.out_dir {
            Some(dir) => Some(save_epoch(dir, state, calibration)?),
            None => None,
        };
        Ok(EpochReport {
            epoch: state.epochs_done,
            train_loss: loss_sum / self.per_epoch as f64,
            val_loss: mean_loss(&state.params, val_set, cfg.objective(), cfg.threads),
            positions_per_s,
            lr: self.lr,
            waited_s,
            net,
        })
    }
}

/// Writes `final.nnue` (its bias calibrated on `calibration`) and returns the run.
pub(crate) fn finish(
    cfg: &TrainConfig,
    state: Checkpoint,
    calibration: &[Sample],
    reports: Vec<EpochReport>,
) -> Result<Trained, TrainError> {
    if let Some(dir) = &cfg.out_dir {
        write_atomic(
            &dir.join("final.nnue"),
            &state.params.quantise_calibrated(calibration)?.to_bytes(),
        )?;
    }
    Ok(Trained { state, reports })
}

/// The checkpoint and the quantised net (its bias calibrated on `samples`) after an
/// epoch; returns the net's path.
fn save_epoch(dir: &Path, state: &Checkpoint, samples: &[Sample]) -> Result<PathBuf, TrainError> {
    state.save(&dir.join("checkpoint.ckpt"))?;
    let net = dir.join(format!("epoch-{:03}.nnue", state.epochs_done));
    write_atomic(&net, &state.params.quantise_calibrated(samples)?.to_bytes())?;
    Ok(net)
}
