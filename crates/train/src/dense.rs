//! The throughput yardstick for `sable train --bench`: the same network and loss
//! computed the straightforward way, single-threaded, with each perspective's input as
//! a dense vector of zeros and ones (768 per king bucket, and 768 more for a factoriser)
//! multiplied by the whole weight matrix, and the whole matrix's gradient accumulated. It gives the same gradients as the sparse pass
//! (a test checks), so the two speeds compare like with like.

// Plain index loops on purpose: this is the textbook matrix-vector code being measured.
#![allow(clippy::needless_range_loop)]

use crate::data::Sample;
use crate::model::{sigmoid, Objective, Params};
use sable_engine::nnue::INPUTS;

/// Adds one sample's gradient into `grad` the dense way; returns its loss.
pub fn backward_dense(p: &Params, sample: &Sample, obj: Objective, grad: &mut [f32]) -> f32 {
    let h = p.hidden;
    let b = p.bucket(sample.active());
    let (bias, ow, ob) = (p.ft_b_at(), p.out_w_of(b), p.out_b_at() + b);
    let (rows, fa) = (p.inputs.rows(), p.factor_at());
    // The bucket rows, then the factoriser's (zeros without one).
    let mut x = vec![vec![0.0f32; rows + INPUTS]; 2];
    for (side, x) in x.iter_mut().enumerate() {
        let view = sample.view(side, &p.inputs);
        for f in sample.features(side) {
            x[view.row(f)] = 1.0;
            x[rows + view.shared_row(f)] = p.factoriser as u8 as f32;
        }
    }
    // Where input `i`'s row of weights starts.
    let at = |i: usize| if i < rows { i * h } else { fa + (i - rows) * h };
    let used = if p.factoriser { rows + INPUTS } else { rows };
    let mut acc = vec![vec![0.0f32; h]; 2];
    let mut out = p.w[ob];
    for side in 0..2 {
        acc[side].copy_from_slice(&p.w[bias..bias + h]);
        for (i, xi) in x[side][..used].iter().enumerate() {
            for j in 0..h {
                acc[side][j] += xi * p.w[at(i) + j];
            }
        }
        for j in 0..h {
            let c = acc[side][j].clamp(0.0, 1.0);
            out += c * c * p.w[ow + side * h + j];
        }
    }
    let q = sigmoid(out * obj.slope());
    let target = obj.target(sample);
    let g = 2.0 * (q - target) * q * (1.0 - q) * obj.slope();
    grad[ob] += g;
    for side in 0..2 {
        let o = ow + side * h;
        let mut d = vec![0.0f32; h];
        for j in 0..h {
            let a = acc[side][j];
            let c = a.clamp(0.0, 1.0);
            grad[o + j] += g * c * c;
            d[j] = if a > 0.0 && a < 1.0 {
                g * p.w[o + j] * 2.0 * a
            } else {
                0.0
            };
            grad[bias + j] += d[j];
        }
        for (i, xi) in x[side][..used].iter().enumerate() {
            for j in 0..h {
                grad[at(i) + j] += xi * d[j];
            }
        }
    }
    (q - target) * (q - target)
}

/// Gradient throughput in positions per second, measured on the same samples in one run.
#[derive(Clone, Copy, Debug)]
pub struct Throughput {
    /// The trainer's sparse pass on one thread.
    pub sparse_1: f64,
    /// The trainer's sparse pass on `threads` threads.
    pub sparse_n: f64,
    pub threads: usize,
    /// This module's dense pass on one thread.
    pub dense_1: f64,
}

/// Times the gradient of every sample (in batches of `batch`, as training does, without
/// the optimiser step) by the sparse trainer and by the dense reference.
pub fn measure(
    p: &Params,
    samples: &[Sample],
    obj: Objective,
    threads: usize,
    batch: usize,
) -> Throughput {
    let n = p.w.len();
    let sparse = |threads: usize| {
        let mut grads = vec![vec![0.0f32; n]; threads];
        let mut scratch: Vec<_> = (0..threads)
            .map(|_| crate::Scratch::new(p.hidden))
            .collect();
        let mut grad = vec![0.0f32; n];
        let start = std::time::Instant::now();
        for chunk in samples.chunks(batch) {
            let refs: Vec<&Sample> = chunk.iter().collect();
            crate::batch_gradient(p, &refs, obj, &mut grads, &mut scratch, &mut grad);
        }
        samples.len() as f64 / start.elapsed().as_secs_f64().max(1e-9)
    };
    let sparse_1 = sparse(1);
    let sparse_n = sparse(threads.max(1));
    let mut grad = vec![0.0f32; n];
    let start = std::time::Instant::now();
    for chunk in samples.chunks(batch) {
        grad.fill(0.0);
        for s in chunk {
            backward_dense(p, s, obj, &mut grad);
        }
    }
    let dense_1 = samples.len() as f64 / start.elapsed().as_secs_f64().max(1e-9);
    Throughput {
        sparse_1,
        sparse_n,
        threads: threads.max(1),
        dense_1,
    }
}
