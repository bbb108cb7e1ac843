//! The trainer of the human move-choice model (`sable_engine::strength::human`): reads
//! rated games (PGN with `WhiteElo`/`BlackElo`), turns every position from a given ply on
//! into the engine's features of each legal move and the move the person played, and fits
//! the softmax over moves by cross-entropy with AdamW. The features come from the
//! engine's own code ([`human::move_features`], [`human::move_values`]), so the trainer
//! and the levels cannot disagree about them.
//!
//! Games are split by game: every `dev_every`-th game (counting from 0, over all inputs
//! in order) is held out for measuring, never trained on. Accuracy is given by the
//! mover's rating band for the model's likeliest move and for the quiescence search's
//! best move alone (the engine-only baseline).

use crate::adamw::{cosine_lr, AdamW};
use crate::rng::Rng;
use crate::TrainError;
use sable_chess::{Move, Position, SanMode};
use sable_engine::eval::Evaluator;
use sable_engine::strength::human::{self, Context, BOARD_INPUTS, FEATURES, MAX_ACTIVE, MAX_BOARD};
use sable_formats::pgn::PgnReader;
use std::io::BufReader;
use std::path::Path;

/// A game as the trainer needs it: the ratings and the moves from the start.
pub struct RatedGame {
    pub white_elo: u16,
    pub black_elo: u16,
    pub start: Position,
    pub moves: Vec<Move>,
}

/// Reads the rated games of PGN files: those with numeric `WhiteElo` and `BlackElo`,
/// each with its number among all the games read (skipped ones included, counting on
/// across the files in order), so that a split by that number is a split by the files'
/// games; games that fail to parse or have no ratings are skipped (the second value).
pub fn read_games(
    paths: &[impl AsRef<Path>],
) -> Result<(Vec<(usize, RatedGame)>, usize), TrainError> {
    let mut games = Vec::new();
    let mut skipped = 0;
    let mut index = 0;
    for path in paths {
        let path = path.as_ref();
        let file = std::fs::File::open(path).map_err(|e| TrainError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        for tree in PgnReader::new(BufReader::new(file)).trees(SanMode::Lenient) {
            index += 1;
            let Ok(tree) = tree else {
                skipped += 1;
                continue;
            };
            let elo = |tag| {
                tree.tags
                    .get(tag)
                    .and_then(|v| v.trim().parse::<u16>().ok())
            };
            let (Some(white_elo), Some(black_elo)) = (elo("WhiteElo"), elo("BlackElo")) else {
                skipped += 1;
                continue;
            };
            games.push((
                index - 1,
                RatedGame {
                    white_elo,
                    black_elo,
                    start: tree.start.clone(),
                    moves: tree.mainline(),
                },
            ));
        }
    }
    Ok((games, skipped))
}

/// Positions with the features of each legal move, flattened.
#[derive(Default)]
pub struct Samples {
    /// The mover's rating.
    pub rating: Vec<u16>,
    /// The index of the move played among the position's moves.
    pub played: Vec<u16>,
    /// The index of the move the quiescence search values most (the first such).
    pub engine_best: Vec<u16>,
    /// Per position, where its moves start in `move_start` (one more entry at the end).
    pub pos_start: Vec<u32>,
    /// Per move, where its features start in `features` (one more entry at the end).
    pub move_start: Vec<u32>,
    pub features: Vec<u16>,
    /// Per position, where its board inputs start in `board` (one more entry at the end).
    pub board_start: Vec<u32>,
    /// The active board inputs ([`human::board_features`]).
    pub board: Vec<u16>,
}

impl Samples {
    pub fn len(&self) -> usize {
        self.rating.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rating.is_empty()
    }

    fn append(&mut self, other: Samples) {
        let moves = self.move_start.len().saturating_sub(1) as u32;
        let feats = self.features.len() as u32;
        let boards = self.board.len() as u32;
        if self.pos_start.is_empty() {
            self.pos_start.push(0);
            self.move_start.push(0);
            self.board_start.push(0);
        }
        self.rating.extend(other.rating);
        self.played.extend(other.played);
        self.engine_best.extend(other.engine_best);
        self.pos_start
            .extend(other.pos_start.iter().skip(1).map(|s| s + moves));
        self.move_start
            .extend(other.move_start.iter().skip(1).map(|s| s + feats));
        self.features.extend(other.features);
        self.board_start
            .extend(other.board_start.iter().skip(1).map(|s| s + boards));
        self.board.extend(other.board);
    }

    /// The active board inputs of position `i`.
    pub fn board_of(&self, i: usize) -> &[u16] {
        &self.board[self.board_start[i] as usize..self.board_start[i + 1] as usize]
    }

    /// The moves of position `i`, each as its feature indices.
    fn moves(&self, i: usize) -> impl Iterator<Item = &[u16]> {
        let (a, b) = (self.pos_start[i] as usize, self.pos_start[i + 1] as usize);
        (a..b).map(move |j| {
            &self.features[self.move_start[j] as usize..self.move_start[j + 1] as usize]
        })
    }
}

/// The samples of `games`: every position from ply `from_ply` on with at least two legal
/// moves, every `every`-th of them (1: all).
pub fn samples(games: &[RatedGame], from_ply: usize, every: usize) -> Samples {
    let mut out = Samples {
        pos_start: vec![0],
        move_start: vec![0],
        board_start: vec![0],
        ..Samples::default()
    };
    let mut board = [0u16; MAX_BOARD];
    let mut ev = Evaluator::new();
    let mut values = [0i32; sable_chess::MAX_MOVES];
    let mut active = [0u16; MAX_ACTIVE];
    let mut counter = 0usize;
    for g in games {
        let mut pos = g.start.clone();
        let mut last = None;
        for (ply, &played) in g.moves.iter().enumerate() {
            if played.is_null() || !pos.is_legal(played) {
                break;
            }
            let eligible = ply >= from_ply && {
                counter += 1;
                counter.is_multiple_of(every.max(1))
            };
            let moves = pos.legal_moves();
            if eligible && moves.len() >= 2 {
                let moves = moves.as_slice();
                let values = &mut values[..moves.len()];
                human::move_values(&pos, &mut ev, moves, values);
                let best = values.iter().copied().max().unwrap_or(0);
                let wp_best = human::win_probability(best);
                let cx = Context::new(&pos, last, best);
                let rating = if pos.turn() == sable_chess::Color::White {
                    g.white_elo
                } else {
                    g.black_elo
                };
                out.rating.push(rating);
                out.played
                    .push(moves.iter().position(|&m| m == played).unwrap_or(0) as u16);
                out.engine_best
                    .push(values.iter().position(|&v| v == best).unwrap_or(0) as u16);
                for (&m, &v) in moves.iter().zip(values.iter()) {
                    let loss = wp_best - human::win_probability(v);
                    let n = human::move_features(&pos, &cx, m, loss, v == best, &mut active);
                    out.features.extend_from_slice(&active[..n]);
                    out.move_start.push(out.features.len() as u32);
                }
                out.pos_start.push(out.move_start.len() as u32 - 1);
                let nb = human::board_features(&pos, &mut board);
                out.board.extend_from_slice(&board[..nb]);
                out.board_start.push(out.board.len() as u32);
            }
            pos.make(played);
            last = Some(played);
        }
    }
    out
}

/// [`samples`] over `threads` threads, each a share of the games, joined in order (so the
/// result does not depend on the thread count).
pub fn samples_parallel(
    games: &[RatedGame],
    from_ply: usize,
    every: usize,
    threads: usize,
) -> Samples {
    let chunk = games.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Samples> = std::thread::scope(|s| {
        let handles: Vec<_> = games
            .chunks(chunk)
            .map(|c| s.spawn(move || samples(c, from_ply, every)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("sample thread"))
            .collect()
    });
    let mut all = Samples::default();
    for p in parts {
        all.append(p);
    }
    if all.pos_start.is_empty() {
        all.pos_start.push(0);
        all.move_start.push(0);
        all.board_start.push(0);
    }
    all
}

/// Which features a model may use: all, or one part alone (for measuring each part).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    All,
    /// Everything but the quiescence loss.
    Policy,
    /// The quiescence loss alone.
    Engine,
}

impl Part {
    fn keeps(self, i: u16) -> bool {
        let engine = human::LOSS_FEATURES
            .iter()
            .any(|r| r.contains(&(i as usize)));
        match self {
            Part::All => true,
            Part::Policy => !engine,
            Part::Engine => engine,
        }
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct HumanConfig {
    pub epochs: u32,
    pub batch: usize,
    pub lr: f32,
    pub weight_decay: f32,
    pub seed: u64,
    pub part: Part,
    /// Hidden units of the board layer (0: the linear model alone).
    pub hidden: usize,
    /// More decoupled weight decay for the board layer's and the embedding's weights
    /// (not the hidden biases), on top of `weight_decay`: they see whole boards, which
    /// a model can learn games by.
    pub hidden_decay: f32,
    /// The hidden layer's learning rate (board layer, biases, embedding) as a share of
    /// `lr`: with `lr` alone its weights grow large and its units saturate.
    pub hidden_lr: f32,
}

impl Default for HumanConfig {
    fn default() -> Self {
        HumanConfig {
            epochs: 8,
            batch: 256,
            lr: 0.02,
            weight_decay: 1e-4,
            seed: 1,
            part: Part::All,
            hidden: 0,
            hidden_decay: 0.0,
            hidden_lr: 1.0,
        }
    }
}

/// The logits of position `i`'s moves under `weights` (of any hidden size, see
/// [`human::weights_len`]), into `z` (cleared first): the engine's [`human::logit`] with
/// the features of `part`.
pub fn position_logits(s: &Samples, i: usize, weights: &[f32], part: Part, z: &mut Vec<f32>) {
    let mut h = [0f32; human::MAX_HIDDEN];
    let h = &mut h[..human::hidden_size(weights.len())];
    logits_and_hidden(s, i, weights, part, z, h);
}

/// [`position_logits`], also giving the position's hidden layer in `h`.
fn logits_and_hidden(
    s: &Samples,
    i: usize,
    weights: &[f32],
    part: Part,
    z: &mut Vec<f32>,
    h: &mut [f32],
) {
    z.clear();
    let r = human::rating_scale(f64::from(s.rating[i]));
    human::hidden_layer(weights, s.board_of(i), r, h);
    let mut kept = [0u16; MAX_ACTIVE];
    for f in s.moves(i) {
        let mut n = 0;
        for &x in f.iter().filter(|&&x| part.keeps(x)) {
            kept[n] = x;
            n += 1;
        }
        z.push(human::logit(weights, &kept[..n], r, h));
    }
}

/// Adds `scale` times the gradient of position `i`'s cross-entropy under `weights` to
/// `grad` (same layout); returns the cross-entropy. `z` is scratch.
///
/// With `p` the softmax and `y` the move played, `dL/dz_j = p_j - [j = y]`; a move's
/// linear features get that (times `r` for the slopes), its embedding rows that times
/// `h`, and `h` gets `Σ_j dz_j e_j`, which passes the clipped ReLU where `0 < h < 1` to
/// the biases, the rating's row (times `r`) and the rows of the position's board inputs.
pub fn position_gradient(
    s: &Samples,
    i: usize,
    weights: &[f32],
    part: Part,
    scale: f32,
    grad: &mut [f32],
    z: &mut Vec<f32>,
) -> f32 {
    let hidden = human::hidden_size(weights.len());
    let mut h = [0f32; human::MAX_HIDDEN];
    let h = &mut h[..hidden];
    logits_and_hidden(s, i, weights, part, z, h);
    let y = s.played[i] as usize;
    let zy = z[y];
    let lse = softmax(z);
    let r = human::rating_scale(f64::from(s.rating[i]));
    let (w1, b1, e) = human::layout(hidden);
    let mut dh = [0f32; human::MAX_HIDDEN];
    let dh = &mut dh[..hidden];
    for (j, f) in s.moves(i).enumerate() {
        let c = (z[j] - f32::from(u8::from(j == y))) * scale;
        for &x in f.iter().filter(|&&x| part.keeps(x)) {
            let x = x as usize;
            grad[x] += c;
            grad[FEATURES + x] += c * r;
            if hidden > 0 {
                if let Some(row) = human::embed_row(x) {
                    let at = e + row * hidden;
                    for k in 0..hidden {
                        grad[at + k] += c * h[k];
                        dh[k] += c * weights[at + k];
                    }
                }
            }
        }
    }
    if hidden > 0 {
        for k in 0..hidden {
            if h[k] <= 0.0 || h[k] >= 1.0 {
                dh[k] = 0.0;
            }
        }
        for k in 0..hidden {
            grad[b1 + k] += dh[k];
            grad[w1 + BOARD_INPUTS * hidden + k] += dh[k] * r;
        }
        for &x in s.board_of(i) {
            let at = w1 + x as usize * hidden;
            for k in 0..hidden {
                grad[at + k] += dh[k];
            }
        }
    }
    lse - zy
}

/// The starting weights of a model with `hidden` units: zero but for the board layer,
/// small and random (uniform within ±0.1), and the hidden biases, 0.5, so that most units
/// start within the clipped ReLU's slope; the embedding starts at zero, so the model
/// starts as the linear one.
pub fn initial_weights(hidden: usize, seed: u64) -> Vec<f32> {
    let mut w = vec![0.0f32; human::weights_len(hidden)];
    let (w1, b1, _) = human::layout(hidden);
    let mut rng = Rng(seed ^ 0x4849_4444_454E);
    for v in &mut w[w1..b1] {
        *v = 0.1 * rng.symmetric();
    }
    for v in &mut w[b1..b1 + hidden] {
        *v = 0.5;
    }
    w
}

/// Softmax of `z` in place; returns the log of the normaliser (so `log p_j = z_j - lse`
/// with the original `z`).
fn softmax(z: &mut [f32]) -> f32 {
    let top = z.iter().copied().fold(f32::MIN, f32::max);
    let mut sum = 0.0;
    for v in z.iter_mut() {
        *v = (*v - top).exp();
        sum += *v;
    }
    for v in z.iter_mut() {
        *v /= sum;
    }
    top + sum.ln()
}

/// Mean cross-entropy and the share of positions whose likeliest move is the one played.
pub fn evaluate(s: &Samples, weights: &[f32], part: Part) -> (f64, f64) {
    let mut z = Vec::new();
    let (mut loss, mut hits) = (0.0f64, 0usize);
    for i in 0..s.len() {
        position_logits(s, i, weights, part, &mut z);
        let y = s.played[i] as usize;
        let zy = z[y];
        let arg = argmax(&z);
        hits += usize::from(arg == y);
        let lse = softmax(&mut z);
        loss += f64::from(lse - zy);
    }
    let n = s.len().max(1) as f64;
    (loss / n, hits as f64 / n)
}

fn argmax(z: &[f32]) -> usize {
    let mut best = 0;
    for (j, &v) in z.iter().enumerate() {
        if v > z[best] {
            best = j;
        }
    }
    best
}

/// One line of the table by rating band: positions, the engine-only baseline's hits and
/// the model's hits.
#[derive(Clone, Copy, Debug, Default)]
pub struct BandCount {
    pub positions: usize,
    pub engine_hits: usize,
    pub model_hits: usize,
}

/// Hits by rating band: below 1100, 100-wide bands up to 2200, 2200 and above.
pub fn by_band(s: &Samples, weights: &[f32], part: Part) -> Vec<(String, BandCount)> {
    let names: Vec<String> = std::iter::once("<1100".to_string())
        .chain((11..22).map(|b| format!("{}-{}", b * 100, b * 100 + 99)))
        .chain(std::iter::once(">=2200".to_string()))
        .collect();
    let mut counts = vec![BandCount::default(); names.len()];
    let mut z = Vec::new();
    for i in 0..s.len() {
        let band = (usize::from(s.rating[i] / 100)).clamp(10, 22) - 10;
        position_logits(s, i, weights, part, &mut z);
        let y = s.played[i] as usize;
        let c = &mut counts[band];
        c.positions += 1;
        c.engine_hits += usize::from(s.engine_best[i] as usize == y);
        c.model_hits += usize::from(argmax(&z) == y);
    }
    names.into_iter().zip(counts).collect()
}

/// What training reports after each epoch.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: u32,
    pub train_loss: f64,
    pub dev_loss: f64,
    pub dev_accuracy: f64,
}

/// Fits the model on `train` from zero weights, reporting on `dev` after each epoch
/// (`on_epoch` also gets the weights, to save them). Deterministic for a seed.
pub fn train(
    train: &Samples,
    dev: &Samples,
    cfg: &HumanConfig,
    mut on_epoch: impl FnMut(&EpochReport, &[f32]),
) -> Vec<f32> {
    let mut w = initial_weights(cfg.hidden, cfg.seed);
    let mut grad = vec![0.0f32; w.len()];
    // The linear weights and the hidden layer's, each with its own learning rate.
    let split = 2 * FEATURES;
    let mut opt = AdamW::new(split);
    let mut opt_hidden = AdamW::new(w.len() - split);
    let mut rng = Rng(cfg.seed);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let batch = cfg.batch.max(1);
    let total = (cfg.epochs as u64) * order.len().div_ceil(batch) as u64;
    let mut z = Vec::new();
    for epoch in 1..=cfg.epochs {
        rng.shuffle(&mut order);
        let mut train_loss = 0.0f64;
        for chunk in order.chunks(batch) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            let scale = 1.0 / chunk.len() as f32;
            for &i in chunk {
                train_loss += f64::from(position_gradient(
                    train, i as usize, &w, cfg.part, scale, &mut grad, &mut z,
                ));
            }
            let lr = cosine_lr(cfg.lr, opt.step, total);
            opt.step(&mut w[..split], &grad[..split], lr, cfg.weight_decay);
            if cfg.hidden > 0 {
                let lr = lr * cfg.hidden_lr;
                opt_hidden.step(&mut w[split..], &grad[split..], lr, cfg.weight_decay);
            }
            if cfg.hidden > 0 && cfg.hidden_decay > 0.0 {
                let (w1, b1, e) = human::layout(cfg.hidden);
                let shrink = 1.0 - lr * cfg.hidden_decay;
                w[w1..b1].iter_mut().for_each(|p| *p *= shrink);
                w[e..].iter_mut().for_each(|p| *p *= shrink);
            }
        }
        let (dev_loss, dev_accuracy) = evaluate(dev, &w, cfg.part);
        let report = EpochReport {
            epoch,
            train_loss: train_loss / train.len().max(1) as f64,
            dev_loss,
            dev_accuracy,
        };
        on_epoch(&report, &w);
    }
    w
}

/// The weights as the engine's generated source file `strength/human/weights.rs`, with
/// `provenance` (how they were made) in its top comment; the numbers themselves are in
/// the file `bin` next to it ([`weights_bytes`]), which it includes.
pub fn weights_source(weights: &[f32], provenance: &str, bin: &str) -> String {
    let mut out = String::new();
    out.push_str(
        "//! The fitted weights of the human move-choice model (see `super`), generated by\n",
    );
    out.push_str(
        "//! `sable human-train`; do not edit. The numbers are in the binary file included\n",
    );
    out.push_str(
        "//! below: each `f32` as 4 bytes, little-endian, laid out as `super::weights_len`\n",
    );
    out.push_str(
        "//! says (a weight per feature, a rating slope per feature, then the board layer,\n",
    );
    out.push_str("//! the hidden biases and the move embedding of the `HIDDEN` units).\n//!\n");
    for line in provenance.lines() {
        out.push_str("//! ");
        out.push_str(line);
        out.push('\n');
    }
    let hidden = human::hidden_size(weights.len());
    out.push_str(&format!("\npub const HIDDEN: usize = {hidden};\n"));
    out.push_str(&format!(
        "\npub static WEIGHTS: [f32; super::weights_len(HIDDEN)] =\n    \
         super::decode_weights(include_bytes!(\"{bin}\"));\n"
    ));
    out
}

/// The weights as the bytes of `weights.bin` (see [`weights_source`]).
pub fn weights_bytes(weights: &[f32]) -> Vec<u8> {
    weights.iter().flat_map(|w| w.to_le_bytes()).collect()
}
