//! The float network the trainer optimises: the same `(768 -> H) x 2 -> 1` SCReLU net
//! as inference (with `B` output buckets, [`sable_engine::nnue::output_bucket`], and
//! optionally horizontally mirrored inputs with king buckets, [`Params::inputs`]), with
//! activations clamped to `[0, 1]` (1.0 = QA), its sparse forward and backward pass for
//! one sample, and quantisation into the engine's [`Network`].
//!
//! All parameters live in one flat vector, `[feature weights (768·K·H) | feature biases
//! (H) | output weights (2H per bucket) | output biases (B) | factoriser (768·H, if
//! any)]`, so the optimiser and checkpoints treat them as one array.
//!
//! **The factoriser** ([`Params::factoriser`]): with `K` king buckets each bucket's rows
//! see only the positions with the king in that bucket, a fraction of the data. A
//! factorised net adds one more block of 768 rows that every bucket shares: a feature's
//! weight is its bucket's row plus the shared row, so what holds whatever the king's
//! square is learnt from all positions, and the buckets learn only how they differ. At
//! export the shared rows are added into every bucket's ([`Params::quantise`]), so the
//! engine's net and its speed are those of a net without one.

use crate::data::Sample;
use crate::rng::Rng;
use sable_chess::Position;
use sable_engine::nnue::{check_buckets, output_bucket, Inputs, NetError, Network, INPUTS};
use sable_engine::nnue::{QA, QB, SCALE};

/// Largest |weight| of the feature transformer and the output layer. Output weights
/// become `round(w·QB)` and the SCReLU kernel multiplies `QA · w·QB` in 16 bits, so
/// |w| < 32767 / (255·64) ≈ 2.008; feature weights become `round(w·QA)` and at most 32
/// of them plus a bias are summed in `i16`, which allows 32767 / 255 / 33 ≈ 3.89. One
/// bound below both, the one bullet uses, keeps every quantised sum exact.
pub const CLIP: f32 = 1.98;

/// The net's output unit in centipawns: a raw output of 1.0 is `K` centipawns.
pub const K: f32 = SCALE as f32;

#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What the net is trained to predict: the expectation `sigmoid(cp / scale)` of its
/// output `cp`, against `wdl · result + (1 − wdl) · sigmoid(score / scale)`.
///
/// `scale` (centipawns) says how sure a score is: at `scale` the expectation is 73 %.
/// It must match the data. When the games turn scores into results more surely than
/// `scale` says, the result term pulls the net's outputs above the searched scores, and
/// the net speaks a larger centipawn than the search margins were tuned for. Sable's
/// own games (5,000 nodes a move) fit about 120 cp, not 400: a net trained with 400 and
/// `wdl` 0.25 gave 1.5 times the HCE's scores (against Stockfish's, 200 positions) and
/// lost about 300 Elo to the HCE. [`fit_scale`] finds the scale from the data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Objective {
    pub wdl: f32,
    pub scale: f32,
}

impl Objective {
    /// The target expectation for a sample.
    #[inline]
    pub fn target(&self, sample: &Sample) -> f32 {
        self.wdl * sample.result as f32 / 2.0
            + (1.0 - self.wdl) * sigmoid(sample.score as f32 / self.scale)
    }

    /// The raw output's factor inside the sigmoid: `sigmoid(out · slope)`.
    #[inline]
    pub fn slope(&self) -> f32 {
        K / self.scale
    }
}

/// The sigmoid scale (centipawns) under which the searched scores best predict the
/// results (least squares, as Texel tuning fits its constant): a golden-section search
/// over 25..1600 cp on at most 200,000 evenly spaced samples.
pub fn fit_scale(samples: &[Sample]) -> f32 {
    let step = samples.len().div_ceil(200_000).max(1);
    let cost = |scale: f64| -> f64 {
        samples
            .iter()
            .step_by(step)
            .map(|s| {
                let p = 1.0 / (1.0 + (-(s.score as f64) / scale).exp());
                let d = s.result as f64 / 2.0 - p;
                d * d
            })
            .sum()
    };
    // In log space: the cost is flat over large scales.
    let (mut lo, mut hi) = (25f64.ln(), 1600f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if cost(a.exp()) < cost(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp() as f32
}

/// The parameters, flat (see the module comment).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub hidden: usize,
    /// Output buckets (1 for the plain net).
    pub buckets: usize,
    /// The input layout ([`Inputs`]): plain, horizontally mirrored (a perspective whose
    /// king stands on files e-h reads every file flipped; format version 3), or mirrored
    /// with king buckets (768 rows per bucket; format version 4).
    pub inputs: Inputs,
    /// A shared block of 768 rows added to every king bucket's (module comment).
    pub factoriser: bool,
    pub w: Vec<f32>,
}

/// Reusable per-thread space for one sample's activations.
pub struct Scratch {
    acc: [Vec<f32>; 2],
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            acc: [vec![0.0; hidden], vec![0.0; hidden]],
        }
    }
}

impl Params {
    /// Parameters of a net of plain inputs, hidden size `hidden` and `buckets` output
    /// buckets.
    pub fn len(hidden: usize, buckets: usize) -> usize {
        Params::len_with(&Inputs::PLAIN, false, hidden, buckets)
    }

    /// Parameters of a net of `inputs`, with or without a factoriser.
    pub fn len_with(inputs: &Inputs, factoriser: bool, hidden: usize, buckets: usize) -> usize {
        (inputs.rows() + INPUTS * factoriser as usize) * hidden
            + hidden
            + (2 * hidden + 1) * buckets
    }

    /// The output buckets of a net of `inputs` (with or without a factoriser) with `len`
    /// parameters and hidden size `hidden`, if `len` fits such a net (checkpoints store
    /// the sizes and the length, not the bucket count).
    pub fn buckets_of_len(
        inputs: &Inputs,
        factoriser: bool,
        hidden: usize,
        len: usize,
    ) -> Option<usize> {
        let out = len.checked_sub(Params::len_with(inputs, factoriser, hidden, 0))?;
        let b = out / (2 * hidden + 1);
        (out % (2 * hidden + 1) == 0 && check_buckets(b).is_ok()).then_some(b)
    }

    /// A plain net (one output bucket) of small random weights ([`Params::random_with`]).
    pub fn random(hidden: usize, rng: &mut Rng) -> Params {
        Params::random_with(hidden, 1, rng)
    }

    /// Small random weights: feature weights in ±0.1 (about 30 are active, so sums
    /// start well inside the clamp), output weights in ±1/sqrt(2H) (bucket by bucket,
    /// so that bucket 0 starts as a plain net of the same seed does), biases zero.
    pub fn random_with(hidden: usize, buckets: usize, rng: &mut Rng) -> Params {
        Params::random_with_inputs(Inputs::PLAIN, false, hidden, buckets, rng)
    }

    /// [`Params::random_with`] for a net of `inputs`: feature weights for every king
    /// bucket's rows in turn (as the engine's `Network::random_with_inputs` draws them),
    /// then the output weights; a factoriser starts at zero, so the net starts as the
    /// same net without one.
    pub fn random_with_inputs(
        inputs: Inputs,
        factoriser: bool,
        hidden: usize,
        buckets: usize,
        rng: &mut Rng,
    ) -> Params {
        let mut p = Params {
            hidden,
            buckets,
            inputs,
            factoriser,
            w: vec![0.0; Params::len_with(&inputs, factoriser, hidden, buckets)],
        };
        for w in &mut p.w[..inputs.rows() * hidden] {
            *w = 0.1 * rng.symmetric();
        }
        let o = p.out_w_at();
        let scale = 1.0 / ((2 * hidden) as f32).sqrt();
        for w in &mut p.w[o..o + 2 * hidden * buckets] {
            *w = scale * rng.symmetric();
        }
        p
    }

    /// The same weights read with (or without) mirrored inputs (a net of one king
    /// bucket; one with king buckets is mirrored by its layout and stays as it is).
    pub fn with_mirrored_inputs(mut self, mirrored: bool) -> Params {
        if self.inputs.buckets() == 1 {
            self.inputs = if mirrored {
                Inputs::MIRRORED
            } else {
                Inputs::PLAIN
            };
        }
        self
    }

    /// Whether the inputs are horizontally mirrored.
    pub fn mirrored(&self) -> bool {
        self.inputs.mirrored()
    }

    #[inline]
    pub fn ft_b_at(&self) -> usize {
        self.inputs.rows() * self.hidden
    }
    #[inline]
    pub fn out_w_at(&self) -> usize {
        self.ft_b_at() + self.hidden
    }
    /// Where the output biases start (bucket `b`'s is at `out_b_at() + b`).
    #[inline]
    pub fn out_b_at(&self) -> usize {
        self.out_w_at() + 2 * self.hidden * self.buckets
    }
    /// Where the factoriser's 768 rows start (the end of the vector without one).
    #[inline]
    pub fn factor_at(&self) -> usize {
        self.out_b_at() + self.buckets
    }

    /// The bucket of a sample with these active features (one per piece).
    #[inline]
    pub fn bucket(&self, active: &[u16]) -> usize {
        output_bucket(active.len(), self.buckets)
    }

    /// Where bucket `b`'s output weights start.
    #[inline]
    pub fn out_w_of(&self, b: usize) -> usize {
        self.out_w_at() + 2 * self.hidden * b
    }

    /// Clamps to what quantisation represents exactly ([`CLIP`]; the output biases are
    /// free). A factoriser's rows are clamped alike; a folded weight may then reach twice
    /// the bound, and the export's range check refuses a net whose sums could leave
    /// `i16` ([`Params::quantise`]).
    pub fn clip(&mut self) {
        let (ob, fa) = (self.out_b_at(), self.factor_at());
        let (head, factor) = self.w.split_at_mut(fa);
        for w in head[..ob].iter_mut().chain(factor) {
            *w = w.clamp(-CLIP, CLIP);
        }
    }

    /// The raw output (1.0 = [`SCALE`] centipawns) for the side to move of `sample`,
    /// from its active features. Leaves the accumulators in `s`.
    pub fn forward(&self, sample: &Sample, s: &mut Scratch) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (detected just above).
            return unsafe { self.forward_avx2(sample, s) };
        }
        self.forward_body(sample, s)
    }

    /// [`Params::forward`] compiled for AVX2 (see [`Params::backward_avx2`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn forward_avx2(&self, sample: &Sample, s: &mut Scratch) -> f32 {
        self.forward_body(sample, s)
    }

    #[inline(always)]
    fn forward_body(&self, sample: &Sample, s: &mut Scratch) -> f32 {
        let h = self.hidden;
        let b = self.bucket(sample.active());
        let (bias, ow) = (self.ft_b_at(), self.out_w_of(b));
        let mut out = self.w[self.out_b_at() + b];
        let fa = self.factor_at();
        for (side, acc) in s.acc.iter_mut().enumerate() {
            acc.copy_from_slice(&self.w[bias..bias + h]);
            let view = sample.view(side, &self.inputs);
            for f in sample.features(side) {
                let r = view.row(f);
                for (a, w) in acc.iter_mut().zip(&self.w[r * h..(r + 1) * h]) {
                    *a += w;
                }
                if self.factoriser {
                    let r = fa + view.shared_row(f) * h;
                    for (a, w) in acc.iter_mut().zip(&self.w[r..r + h]) {
                        *a += w;
                    }
                }
            }
            let weights = &self.w[ow + side * h..ow + (side + 1) * h];
            for (a, w) in acc.iter().zip(weights) {
                let c = a.clamp(0.0, 1.0);
                out += c * c * w;
            }
        }
        out
    }

    /// Adds one sample's loss gradient into `grad` (same layout); returns its loss.
    /// Only the rows of its active features are touched.
    pub fn backward(
        &self,
        sample: &Sample,
        obj: Objective,
        grad: &mut [f32],
        s: &mut Scratch,
    ) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (detected just above).
            return unsafe { self.backward_avx2(sample, obj, grad, s) };
        }
        self.backward_baseline(sample, obj, grad, s)
    }

    /// [`Params::backward`] compiled for AVX2: the row sums and the gradient rows run 8
    /// floats at a time instead of the baseline's 4. The same operations in the same
    /// order (element-wise; no multiply-add is fused without FMA and no float sum is
    /// reordered), so the weights are the same bits on either path (a test checks). Why
    /// `unsafe`: 6-20 % more positions a second (`sable train --bench`, hidden 128 on
    /// one and two threads; `results/2026-12-06/trainer-avx2.md`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn backward_avx2(
        &self,
        sample: &Sample,
        obj: Objective,
        grad: &mut [f32],
        s: &mut Scratch,
    ) -> f32 {
        self.backward_baseline(sample, obj, grad, s)
    }

    /// [`Params::backward`]'s body, compiled for the baseline when called directly
    /// (public for the test that both paths give the same bits).
    #[doc(hidden)]
    #[inline(always)]
    pub fn backward_baseline(
        &self,
        sample: &Sample,
        obj: Objective,
        grad: &mut [f32],
        s: &mut Scratch,
    ) -> f32 {
        let h = self.hidden;
        let active = sample.active();
        let out = self.forward_body(sample, s);
        let p = sigmoid(out * obj.slope());
        let err = p - obj.target(sample);
        let g = 2.0 * err * p * (1.0 - p) * obj.slope();
        let b = self.bucket(active);
        let (bias, ow, ob) = (self.ft_b_at(), self.out_w_of(b), self.out_b_at() + b);
        grad[ob] += g;
        for (side, acc) in s.acc.iter_mut().enumerate() {
            let o = ow + side * h;
            for i in 0..h {
                let a = acc[i];
                let c = a.clamp(0.0, 1.0);
                grad[o + i] += g * c * c;
                // d/da of clamp(a)^2 is 2a inside (0, 1), else 0; reuse `acc` for it.
                acc[i] = if a > 0.0 && a < 1.0 {
                    g * self.w[o + i] * 2.0 * a
                } else {
                    0.0
                };
            }
            for (gb, d) in grad[bias..bias + h].iter_mut().zip(acc.iter()) {
                *gb += d;
            }
            let view = sample.view(side, &self.inputs);
            let fa = self.factor_at();
            for f in sample.features(side) {
                let r = view.row(f);
                for (gw, d) in grad[r * h..(r + 1) * h].iter_mut().zip(acc.iter()) {
                    *gw += d;
                }
                if self.factoriser {
                    let r = fa + view.shared_row(f) * h;
                    for (gw, d) in grad[r..r + h].iter_mut().zip(acc.iter()) {
                        *gw += d;
                    }
                }
            }
        }
        err * err
    }

    /// The loss of one sample without gradients.
    pub fn loss(&self, sample: &Sample, obj: Objective, s: &mut Scratch) -> f32 {
        let p = sigmoid(self.forward(sample, s) * obj.slope());
        let target = obj.target(sample);
        (p - target) * (p - target)
    }

    /// Centipawns for the side to move of `pos`, in floating point.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let mut s = Scratch::new(self.hidden);
        self.forward(&Sample::new(pos, 0, 0.5), &mut s) * K
    }

    /// The engine's integer network: feature weights (a factoriser's shared rows added
    /// into every king bucket's) and biases times QA, output weights times QB, output
    /// bias times QA·QB, rounded.
    pub fn quantise(&self) -> Result<Network, NetError> {
        let q = |w: &[f32], m: i32| -> Vec<i16> {
            w.iter()
                .map(|&x| {
                    (x * m as f32)
                        .round()
                        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
                })
                .collect()
        };
        let (bias, ow, ob, fa) = (
            self.ft_b_at(),
            self.out_w_at(),
            self.out_b_at(),
            self.factor_at(),
        );
        Network::from_parts_with_inputs(
            self.inputs,
            self.hidden,
            q(&self.folded()[..], QA),
            q(&self.w[bias..ow], QA),
            q(&self.w[ow..ob], QB),
            self.w[ob..fa]
                .iter()
                .map(|&x| (x * (QA * QB) as f32).round() as i32)
                .collect(),
        )
    }

    /// The feature weights with a factoriser's shared rows added into every king
    /// bucket's: what the engine's rows are.
    pub fn folded(&self) -> Vec<f32> {
        let rows = &self.w[..self.ft_b_at()];
        if !self.factoriser {
            return rows.to_vec();
        }
        let shared = &self.w[self.factor_at()..];
        let block = INPUTS * self.hidden;
        rows.chunks(block)
            .flat_map(|bucket| bucket.iter().zip(shared).map(|(w, f)| w + f))
            .collect()
    }

    /// [`Params::quantise`], then each bucket's output bias moved by the mean gap between
    /// the float and the integer outputs over the bucket's samples among (at most 20,000
    /// evenly spaced of) `samples`; a bucket without samples moves by the mean of all.
    ///
    /// Why: output weights rounded to 1/QB (= 1/64) leave each net with its own constant
    /// offset of several centipawns, the same sign in nearly every position (one hidden-32
    /// net of 12-02 read 6.8 cp high on average, 7.7 cp rms, over the bench positions). A
    /// constant for the side to move acts as a tempo term the search never asked for;
    /// moving the bias removes it and leaves only the rounding noise.
    pub fn quantise_calibrated(&self, samples: &[Sample]) -> Result<Network, NetError> {
        let net = self.quantise()?;
        if samples.is_empty() {
            return Ok(net);
        }
        // The integer net computes what its weights divided back compute in floats, up to
        // the truncation of one division (under 0.03 cp), so the gap is measured in floats.
        let rounded = Params::dequantised(&net);
        let step = samples.len().div_ceil(20_000);
        let mut scratch = Scratch::new(self.hidden);
        let mut gaps = vec![(0.0f64, 0usize); self.buckets];
        for s in samples.iter().step_by(step) {
            let float = self.forward(s, &mut scratch);
            let gap = &mut gaps[self.bucket(s.active())];
            gap.0 += (float - rounded.forward(s, &mut scratch)) as f64;
            gap.1 += 1;
        }
        let all =
            gaps.iter().map(|g| g.0).sum::<f64>() / gaps.iter().map(|g| g.1).sum::<usize>() as f64;
        let biases = net.out_bias().iter().zip(&gaps).map(|(&bias, &(gap, n))| {
            let mean = if n > 0 { gap / n as f64 } else { all };
            bias.saturating_add((mean * (QA * QB) as f64).round() as i32)
        });
        Network::from_parts_with_inputs(
            self.inputs,
            self.hidden,
            net.ft_weights().to_vec(),
            net.ft_bias().to_vec(),
            net.out_weights().to_vec(),
            biases.collect(),
        )
    }

    /// The float net with the quantised net's weights (divided back): the reference the
    /// integer inference is compared against.
    pub fn dequantised(net: &Network) -> Params {
        let (h, buckets, inputs) = (net.hidden(), net.buckets(), *net.inputs());
        let mut w = Vec::with_capacity(Params::len_with(&inputs, false, h, buckets));
        w.extend(net.ft_weights().iter().map(|&x| x as f32 / QA as f32));
        w.extend(net.ft_bias().iter().map(|&x| x as f32 / QA as f32));
        w.extend(net.out_weights().iter().map(|&x| x as f32 / QB as f32));
        w.extend(net.out_bias().iter().map(|&x| x as f32 / (QA * QB) as f32));
        Params {
            hidden: h,
            buckets,
            inputs,
            factoriser: false,
            w,
        }
    }
}
