//! Training on more positions than memory holds: the files are read again every epoch,
//! all at once, by a reader thread that draws runs of a few dozen positions from them
//! (seeded) and hands the trainer chunks of a sixteenth of the buffer. The trainer keeps
//! a shuffle window of the rest: once it is full, each new sample takes the place of one
//! drawn at random, which goes to the batch; at the epoch's end the window is emptied in
//! random order while the next epoch's reader refills the places it empties. At most
//! about `buffer` samples are in memory at once, whatever the data's size, and reading
//! overlaps training (each epoch reports how long training waited: only the first epoch
//! waits to fill the window).
//!
//! A [`survey`] reads everything once first: it numbers the games as [`crate::data`]
//! does (so [`crate::held_out`] holds out the same games as the in-memory
//! [`crate::split`]), counts the training samples (the schedule's length), keeps the
//! validation set (whole held-out games, up to a cap) and evenly spaced training samples
//! for the export's bias calibration, and a digest of each file that every later reading
//! must give again.
//!
//! Why draw from all files, and why a window: the files are rounds of data, each played
//! by another net, and one game's positions lie together. Read file after file, batches
//! would teach one round's play for thousands of steps; drawn from all of them, the
//! stream is a sample of the whole data. A sample stays in the window for about as many
//! draws as the window holds, so one game's positions reach the batches spread over that
//! many samples (shuffling chunks of a third of the buffer instead, measured on `r8`'s
//! data, ended its first epochs with a 4-5 % higher validation loss than in memory).

use crate::checkpoint::Checkpoint;
use crate::data::{self, Sample};
use crate::rng::Rng;
use crate::{held_out, Stepper, TrainConfig, TrainError, TrainEvent, Trained};
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TryRecvError};
use std::thread::Scope;
use std::time::Instant;

/// Training samples kept for the export's bias calibration (evenly spaced over the data;
/// the calibration itself reads at most 20,000 of them).
pub const CALIBRATION_MAX: usize = 40_000;

/// How the data streams.
#[derive(Clone, Debug)]
pub struct StreamConfig {
    /// Samples in memory at most (about): the shuffle window and two chunks.
    pub buffer: usize,
    /// Add the a-h mirror of every training sample without castling rights.
    pub mirror: bool,
    /// Validation samples kept at most; held-out games past it are neither trained on
    /// nor validated on.
    pub val_max: usize,
}

impl StreamConfig {
    /// Samples a chunk from the reader holds (mirrored copies included): a sixteenth of
    /// the buffer; one is being filled while another is handed over.
    pub fn chunk(&self) -> usize {
        (self.buffer / 16).max(1)
    }

    /// The shuffle window: the rest of the buffer.
    pub fn window(&self) -> usize {
        self.buffer.saturating_sub(2 * self.chunk()).max(1)
    }
}

/// One input file as the survey read it: its size, the number of games before it, and
/// a digest of its samples, which every later reading must give again.
#[derive(Clone, Debug)]
pub struct Source {
    pub path: PathBuf,
    pub bytes: u64,
    pub games_before: u32,
    /// Samples in it, held-out ones included.
    pub samples: u64,
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
    /// Evenly spaced training samples, at most [`CALIBRATION_MAX`].
    pub calibration: Vec<Sample>,
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
    let mut s = Survey::default();
    let mut originals = 0u64;
    // Every `stride`-th training sample is kept for calibration.
    let mut stride = 1u64;
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
            if originals.is_multiple_of(stride) {
                // Full: keep every other one and take half as many from now on, so
                // that the kept ones stay evenly spaced over all the data.
                if s.calibration.len() == CALIBRATION_MAX {
                    let mut i = 0u32;
                    s.calibration.retain(|_| {
                        i += 1;
                        !i.is_multiple_of(2)
                    });
                    stride *= 2;
                }
                if originals.is_multiple_of(stride) {
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
            samples: n as u64,
            digest: h,
        });
        s.samples += n as u64;
    }
    s.train = originals + s.mirrored;
    s.seconds = start.elapsed().as_secs_f64();
    Ok(s)
}

/// Positions read from one file before the next draw (half a game's or so), or an eighth
/// of a chunk where that is fewer.
pub const RUN: usize = 64;

/// Reads all the sources at once and sends their training samples (with mirrored copies
/// if asked) in chunks of `stream.chunk()`, the last one shorter: each run of up to
/// [`RUN`] samples comes from a file drawn (from `seed`) in proportion to the samples it
/// has left, so that every chunk mixes all the files and they all end together. Each
/// file must give the samples the survey counted (its digest); stops early when the
/// trainer hangs up.
pub fn read_chunks(
    survey: &Survey,
    seed: u64,
    cfg: &TrainConfig,
    stream: &StreamConfig,
    tx: SyncSender<Result<Vec<Sample>, TrainError>>,
) {
    if let Err(e) = read_mixed(survey, seed, cfg, stream, &tx) {
        let _ = tx.send(Err(e));
    }
}

/// One file being read: its samples still to come and the digest so far.
struct Open<'a> {
    source: &'a Source,
    samples: data::Samples,
    left: u64,
    digest: u64,
}

/// [`read_chunks`]'s work; `Ok` also when the trainer hung up.
fn read_mixed(
    survey: &Survey,
    seed: u64,
    cfg: &TrainConfig,
    stream: &StreamConfig,
    tx: &SyncSender<Result<Vec<Sample>, TrainError>>,
) -> Result<(), TrainError> {
    let held = held_out(cfg.val, cfg.seed);
    let size = stream.chunk();
    let run = RUN.min(size / 8).max(1);
    let mut open = Vec::with_capacity(survey.sources.len());
    for source in &survey.sources {
        source.check()?;
        open.push(Open {
            source,
            samples: data::Samples::open(&source.path, source.games_before)?,
            left: source.samples,
            digest: 0,
        });
    }
    let mut left: u64 = open.iter().map(|o| o.left).sum();
    let mut rng = Rng(seed);
    let mut chunk = Vec::with_capacity(size + 1);
    while left > 0 {
        let mut r = rng.next_u64() % left;
        let k = open
            .iter()
            .position(|o| {
                let here = r < o.left;
                r = r.saturating_sub(o.left);
                here
            })
            .expect("the draw is below the samples left");
        let o = &mut open[k];
        for _ in 0..run.min(o.left as usize) {
            let x = match o.samples.next() {
                Some(x) => x?,
                None => return Err(o.source.changed("fewer samples".into())),
            };
            o.left -= 1;
            left -= 1;
            o.digest = digest(o.digest, &x);
            if held(x.game) {
                continue;
            }
            chunk.push(x);
            if stream.mirror && x.mirrorable {
                chunk.push(x.mirrored());
            }
            if chunk.len() >= size {
                let full = std::mem::replace(&mut chunk, Vec::with_capacity(size + 1));
                if tx.send(Ok(full)).is_err() {
                    return Ok(());
                }
            }
        }
        if o.left == 0 {
            // Any difference from the survey fails the run here, before the epoch ends.
            if o.samples.next().is_some() || o.digest != o.source.digest {
                return Err(o.source.changed("other samples".into()));
            }
            open.swap_remove(k);
        }
    }
    if !chunk.is_empty() {
        let _ = tx.send(Ok(chunk));
    }
    Ok(())
}

/// One epoch's samples as the reader hands them over, one at a time.
struct Incoming {
    chunks: Receiver<Result<Vec<Sample>, TrainError>>,
    pending: std::vec::IntoIter<Sample>,
    /// A reading error met by [`Incoming::ready`], kept for the epoch that reads it.
    failed: Option<TrainError>,
}

impl Incoming {
    /// Starts a reader of the epoch whose files are drawn from `seed`.
    fn start<'scope>(
        scope: &'scope Scope<'scope, '_>,
        survey: &'scope Survey,
        seed: u64,
        cfg: &'scope TrainConfig,
        stream: &'scope StreamConfig,
    ) -> Incoming {
        // A rendezvous channel: the reader fills the next chunk while this one trains.
        let (tx, chunks) = sync_channel(0);
        scope.spawn(move || read_chunks(survey, seed, cfg, stream, tx));
        Incoming {
            chunks,
            pending: Vec::new().into_iter(),
            failed: None,
        }
    }

    /// The next sample, waiting for the reader if need be (the wait is added to
    /// `waited`); `None` at the epoch's end.
    fn next(&mut self, waited: &mut f64) -> Result<Option<Sample>, TrainError> {
        loop {
            if let Some(x) = self.pending.next() {
                return Ok(Some(x));
            }
            if let Some(e) = self.failed.take() {
                return Err(e);
            }
            let wait = Instant::now();
            let chunk = self.chunks.recv();
            *waited += wait.elapsed().as_secs_f64();
            match chunk {
                Ok(chunk) => self.pending = chunk?.into_iter(),
                Err(_) => return Ok(None),
            }
        }
    }

    /// The next sample if the reader has one ready, without waiting. An error is kept
    /// for [`Incoming::next`], so that it fails the epoch that reads it, after the
    /// checkpoint of the epoch before.
    fn ready(&mut self) -> Option<Sample> {
        loop {
            if let Some(x) = self.pending.next() {
                return Some(x);
            }
            if self.failed.is_some() {
                return None;
            }
            match self.chunks.try_recv() {
                Ok(Ok(chunk)) => self.pending = chunk.into_iter(),
                Ok(Err(e)) => self.failed = Some(e),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return None,
            }
        }
    }
}

/// Trains from `state` (fresh or resumed) until `cfg.epochs` (or `cfg.stop_after`),
/// streaming the files `survey` read. A seed and thread count give the same weights, as
/// in memory; the schedule has as many steps as [`crate::train`] would on the same
/// samples. A file that changed since the survey (another size, or other samples) is an
/// error.
///
/// Each epoch fills the window before its first step. So that this costs no wait (it
/// was 4.5 s an epoch on `r12`'s data, a tenth of its time), the next epoch's reader
/// starts as soon as this epoch's window begins to drain (its seed is the draw the next
/// epoch makes, the generator read ahead on a copy), and its samples take the drained
/// places in order: at the next epoch's start the window holds what it would have filled
/// with, and the weights are those of reading one epoch after the other.
pub fn train(
    cfg: &TrainConfig,
    stream: &StreamConfig,
    mut state: Checkpoint,
    survey: &Survey,
    mut on_event: impl FnMut(&TrainEvent),
) -> Result<Trained, TrainError> {
    let mut stepper = Stepper::new(cfg, &state, survey.train)?;
    let total = survey.train as usize;
    let cap = stream.window();
    let mut window: Vec<Sample> = Vec::with_capacity(cap);
    let mut batch: Vec<Sample> = Vec::with_capacity(cfg.batch);
    let mut reports = Vec::new();
    std::thread::scope(|scope| -> Result<(), TrainError> {
        // The reader of the epoch to come, started during this one's drain.
        let mut started: Option<Incoming> = None;
        while state.epochs_done < stepper.last {
            let epoch = state.epochs_done + 1;
            let another_follows = epoch < stepper.last;
            let start = Instant::now();
            let seed = state.rng.next_u64();
            let mut incoming = match started.take() {
                Some(incoming) => incoming,
                None => {
                    window.clear();
                    Incoming::start(scope, survey, seed, cfg, stream)
                }
            };
            let (mut loss_sum, mut done, mut waited) = (0.0, 0usize, 0.0);
            batch.clear();
            // A full batch (or, at the epoch's end, the short last one) makes a step.
            let mut step = |batch: &mut Vec<Sample>, state: &mut Checkpoint, last: bool| {
                if batch.len() == cfg.batch || (last && !batch.is_empty()) {
                    loss_sum += stepper.step(cfg, state, batch);
                    done += batch.len();
                    on_event(&TrainEvent::Batch {
                        epoch,
                        done,
                        total,
                        positions_per_s: done as f64 / start.elapsed().as_secs_f64().max(1e-9),
                    });
                    batch.clear();
                }
            };
            // The window fills first; then each new sample takes the place of one drawn
            // at random, which goes to the batch. The draws are random places in a
            // gigabyte, so a copy of the generator runs `PREFETCH_AHEAD` draws ahead and
            // asks for each place's memory before its turn.
            let mut peek = None;
            while let Some(x) = incoming.next(&mut waited)? {
                if window.len() < cap {
                    window.push(x);
                    continue;
                }
                let ahead = peek.get_or_insert_with(|| {
                    let mut ahead = state.rng;
                    for _ in 0..crate::PREFETCH_AHEAD {
                        crate::prefetch(&window[ahead.below(cap)]);
                    }
                    ahead
                });
                crate::prefetch(&window[ahead.below(cap)]);
                let j = state.rng.below(cap);
                batch.push(std::mem::replace(&mut window[j], x));
                step(&mut batch, &mut state, false);
            }
            // The epoch's end: what the window still holds, in random order, each place
            // taken as it empties by the next epoch's samples as they come.
            state.rng.shuffle(&mut window);
            let mut next = another_follows.then(|| {
                let mut ahead = state.rng;
                Incoming::start(scope, survey, ahead.next_u64(), cfg, stream)
            });
            let mut placed = 0;
            for i in 0..window.len() {
                batch.push(window[i]);
                step(&mut batch, &mut state, false);
                if let Some(next) = next.as_mut() {
                    while placed <= i {
                        let Some(x) = next.ready() else { break };
                        window[placed] = x;
                        placed += 1;
                    }
                }
            }
            window.truncate(placed);
            step(&mut batch, &mut state, true);
            // The reader checked every file's count and digest against the survey's.
            debug_assert_eq!(done, total);
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
            started = next;
        }
        Ok(())
    })?;
    crate::finish(cfg, state, &survey.calibration, reports)
}
