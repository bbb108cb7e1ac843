//! Training on more positions than memory holds: the files are read again every epoch,
//! in an order shuffled from the seed, by a reader thread that hands the trainer chunks
//! of a third of the buffer; the trainer shuffles each chunk (with the few samples the
//! last one left over) and steps through it batch by batch. At most about `buffer`
//! samples are in memory at once, whatever the data's size, and reading overlaps
//! training (each epoch reports how long training waited for it).
//!
//! A [`survey`] reads everything once first: it numbers the games as [`crate::data`]
//! does (so [`crate::held_out`] holds out the same games as the in-memory
//! [`crate::split`]), counts the training samples (the schedule's length), and keeps the
//! validation set (whole held-out games, up to a cap) and evenly spaced training samples
//! for the export's bias calibration.
//!
//! Why shuffle chunks and not the whole set: one game's positions lie together in a
//! file, and a batch of them would carry one result and one opening. A chunk holds the
//! positions of tens of thousands of games from one or two files; files come in a new
//! order each epoch, so every batch mixes many games.

use crate::checkpoint::Checkpoint;
use crate::data::{self, Sample};
use crate::{held_out, Stepper, TrainConfig, TrainError, TrainEvent, Trained};
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::time::Instant;

/// Training samples kept for the export's bias calibration (evenly spaced over the data;
/// the calibration itself reads at most 20,000 of them).
const CALIBRATION_MAX: usize = 40_000;

/// How the data streams.
#[derive(Clone, Debug)]
pub struct StreamConfig {
    /// Samples in memory at most (about): chunks are a third of it.
    pub buffer: usize,
    /// Add the a-h mirror of every training sample without castling rights.
    pub mirror: bool,
    /// Validation samples kept at most; held-out games past it are neither trained on
    /// nor validated on.
    pub val_max: usize,
}

impl StreamConfig {
    /// Samples a chunk holds (mirrored copies included).
    pub fn chunk(&self) -> usize {
        (self.buffer / 3).max(1)
    }
}

/// One input file as the survey read it: its size, the number of games before it, and
/// a digest of its samples, which every later reading must give again.
#[derive(Clone, Debug)]
pub struct Source {
    pub path: PathBuf,
    pub bytes: u64,
    pub games_before: u32,
    pub digest: u64,
}

impl Source {
    /// Refuses a file whose size is not what the survey saw: its samples (and the
    /// game numbers after them) would not be the ones counted.
    fn check(&self) -> Result<(), TrainError> {
        let bytes = std::fs::metadata(&self.path).map(|m| m.len());
        if bytes.as_ref().ok() == Some(&self.bytes) {
            return Ok(());
        }
        Err(self.changed(format!(
            "{} bytes then, {} now",
            self.bytes,
            bytes.map_or_else(|e| e.to_string(), |b| b.to_string())
        )))
    }

    fn changed(&self, how: String) -> TrainError {
        TrainError::Data {
            path: self.path.display().to_string(),
            message: format!("the file changed since training began ({how})"),
        }
    }
}

/// `digest` moved on by `s` (its game, score, result and features, in order): what a
/// reading of a file must reproduce.
fn digest(mut h: u64, s: &Sample) -> u64 {
    let mut mix = |x: u64| {
        h = (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    };
    mix(u64::from(s.game) << 32 | u64::from(s.score as u16) << 8 | u64::from(s.result));
    for &f in s.active() {
        mix(u64::from(f));
    }
    h
}

/// What one reading of all the files found.
#[derive(Clone, Debug, Default)]
pub struct Survey {
    pub sources: Vec<Source>,
    /// All samples in the files.
    pub samples: u64,
    pub games: u32,
    /// Training samples per epoch, mirrored copies included.
    pub train: u64,
    /// Of which mirrored copies.
    pub mirrored: u64,
    /// The validation set: samples of held-out games, in file order, at most `val_max`.
    pub val: Vec<Sample>,
    /// Held-out samples past `val_max`.
    pub val_dropped: u64,
    /// Evenly spaced training samples (every `calibration_stride`-th), at most
    /// [`CALIBRATION_MAX`].
    pub calibration: Vec<Sample>,
    pub calibration_stride: u64,
    /// Record files that ended inside their last record.
    pub truncated: Vec<String>,
    /// Seconds the reading took.
    pub seconds: f64,
}

/// Reads `paths` once; see the module comment.
pub fn survey(
    paths: &[PathBuf],
    cfg: &TrainConfig,
    stream: &StreamConfig,
) -> Result<Survey, TrainError> {
    let start = Instant::now();
    let held = held_out(cfg.val, cfg.seed);
    let mut s = Survey {
        calibration_stride: 1,
        ..Survey::default()
    };
    let mut originals = 0u64;
    for path in paths {
        let bytes = std::fs::metadata(path)
            .map_err(|e| TrainError::Io {
                path: path.display().to_string(),
                message: e.to_string(),
            })?
            .len();
        let games_before = s.games;
        let mut h = 0;
        let n = data::read(path, &mut s.games, &mut s.truncated, |x| {
            h = digest(h, &x);
            if held(x.game) {
                if s.val.len() < stream.val_max {
                    s.val.push(x);
                } else {
                    s.val_dropped += 1;
                }
                return;
            }
            if originals.is_multiple_of(s.calibration_stride) {
                // Full: keep every other one and take half as many from now on, so
                // that the kept ones stay evenly spaced over all the data.
                if s.calibration.len() == CALIBRATION_MAX {
                    let mut i = 0u32;
                    s.calibration.retain(|_| {
                        i += 1;
                        !i.is_multiple_of(2)
                    });
                    s.calibration_stride *= 2;
                }
                if originals.is_multiple_of(s.calibration_stride) {
                    s.calibration.push(x);
                }
            }
            originals += 1;
            if stream.mirror && x.mirrorable {
                s.mirrored += 1;
            }
        })?;
        s.sources.push(Source {
            path: path.clone(),
            bytes,
            games_before,
            digest: h,
        });
        s.samples += n as u64;
    }
    s.train = originals + s.mirrored;
    s.seconds = start.elapsed().as_secs_f64();
    Ok(s)
}

/// Reads the sources in `order` and sends their training samples (with mirrored copies
/// if asked) in chunks of `stream.chunk()`, the last one shorter; stops early when the
/// trainer hangs up.
pub fn read_chunks(
    survey: &Survey,
    order: &[usize],
    cfg: &TrainConfig,
    stream: &StreamConfig,
    tx: SyncSender<Result<Vec<Sample>, TrainError>>,
) {
    let held = held_out(cfg.val, cfg.seed);
    let size = stream.chunk();
    let mut chunk = Vec::with_capacity(size + 1);
    for &i in order {
        let source = &survey.sources[i];
        if let Err(e) = source.check() {
            let _ = tx.send(Err(e));
            return;
        }
        let mut games = source.games_before;
        let mut discard = Vec::new();
        let mut hung_up = false;
        let mut h = 0;
        let read = data::read(&source.path, &mut games, &mut discard, |x| {
            h = digest(h, &x);
            if hung_up || held(x.game) {
                return;
            }
            chunk.push(x);
            if stream.mirror && x.mirrorable {
                chunk.push(x.mirrored());
            }
            if chunk.len() >= size {
                let full = std::mem::replace(&mut chunk, Vec::with_capacity(size + 1));
                hung_up = tx.send(Ok(full)).is_err();
            }
        });
        if hung_up {
            return;
        }
        // Any difference from the survey fails the run here, before the epoch ends.
        let read = read.and_then(|_| match h == source.digest {
            true => Ok(()),
            false => Err(source.changed("other samples".into())),
        });
        if let Err(e) = read {
            let _ = tx.send(Err(e));
            return;
        }
    }
    if !chunk.is_empty() {
        let _ = tx.send(Ok(chunk));
    }
}

/// Trains from `state` (fresh or resumed) until `cfg.epochs` (or `cfg.stop_after`),
/// streaming the files `survey` read. A seed and thread count give the same weights, as
/// in memory; the schedule has as many steps as [`crate::train`] would on the same
/// samples. A file that changed since the survey (another size, or other samples) is an
/// error.
pub fn train(
    cfg: &TrainConfig,
    stream: &StreamConfig,
    mut state: Checkpoint,
    survey: &Survey,
    mut on_event: impl FnMut(&TrainEvent),
) -> Result<Trained, TrainError> {
    let mut stepper = Stepper::new(cfg, &state, survey.train)?;
    let total = survey.train as usize;
    let mut pending: Vec<Sample> = Vec::with_capacity(stream.chunk() + cfg.batch + 1);
    let mut order: Vec<usize> = Vec::with_capacity(survey.sources.len());
    let mut reports = Vec::new();
    while state.epochs_done < stepper.last {
        let epoch = state.epochs_done + 1;
        let start = Instant::now();
        order.clear();
        order.extend(0..survey.sources.len());
        state.rng.shuffle(&mut order);
        let mut loss_sum = 0.0;
        let mut done = 0usize;
        let mut waited = 0.0;
        pending.clear();
        std::thread::scope(|scope| -> Result<(), TrainError> {
            // A rendezvous channel: the reader fills the next chunk while this one trains.
            let (tx, rx) = sync_channel(0);
            let order = &order;
            scope.spawn(move || read_chunks(survey, order, cfg, stream, tx));
            loop {
                let wait = Instant::now();
                let next = rx.recv();
                waited += wait.elapsed().as_secs_f64();
                let last = next.is_err();
                if let Ok(chunk) = next {
                    pending.extend(chunk?);
                }
                if done + pending.len() > total {
                    return Err(changed(survey));
                }
                // The leftover of the last chunk is shuffled in with this one; at the end
                // of the epoch, the short batch goes too.
                state.rng.shuffle(&mut pending);
                let full = if last {
                    pending.len()
                } else {
                    pending.len() / cfg.batch * cfg.batch
                };
                // One allocation a chunk, not a batch: it borrows this chunk's samples.
                let mut batch: Vec<&Sample> = Vec::with_capacity(cfg.batch);
                for part in pending[..full].chunks(cfg.batch) {
                    batch.clear();
                    batch.extend(part);
                    loss_sum += stepper.step(cfg, &mut state, &batch);
                    done += part.len();
                    on_event(&TrainEvent::Batch {
                        epoch,
                        done,
                        total,
                        positions_per_s: done as f64 / start.elapsed().as_secs_f64().max(1e-9),
                    });
                }
                pending.drain(..full);
                if last {
                    return Ok(());
                }
            }
        })?;
        if done != total {
            return Err(changed(survey));
        }
        let report = stepper.end_epoch(
            cfg,
            &mut state,
            &survey.calibration,
            &survey.val,
            loss_sum,
            start,
            waited,
        )?;
        on_event(&TrainEvent::Epoch(report.clone()));
        reports.push(report);
    }
    crate::finish(cfg, state, &survey.calibration, reports)
}

fn changed(survey: &Survey) -> TrainError {
    TrainError::Data {
        path: survey
            .sources
            .iter()
            .map(|s| s.path.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        message: format!(
            "the files no longer hold the {} training samples they held when training began",
            survey.train
        ),
    }
}
