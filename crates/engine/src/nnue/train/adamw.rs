//! AdamW: Adam with decoupled weight decay (Loshchilov & Hutter), bias-corrected, and
//! the learning-rate schedule (cosine decay to a hundredth of the starting rate).

/// The optimiser's state for a flat parameter vector.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    /// Steps taken (for bias correction and the schedule).
    pub step: u64,
}

pub const BETA1: f32 = 0.9;
pub const BETA2: f32 = 0.999;
pub const EPS: f32 = 1e-8;
pub const WEIGHT_DECAY: f32 = 0.01;

impl AdamW {
    pub fn new(len: usize) -> AdamW {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            step: 0,
        }
    }

    /// One step on `params` with gradient `grad` and learning rate `lr`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.step += 1;
        let t = self.step as i32;
        let c1 = 1.0 - BETA1.powi(t);
        let c2 = 1.0 - BETA2.powi(t);
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let update = (*m / c1) / ((*v / c2).sqrt() + EPS);
            *p -= lr * (update + WEIGHT_DECAY * *p);
        }
    }
}

/// Cosine decay from `lr` at step 0 to `lr / 100` at `total` steps.
pub fn cosine_lr(lr: f32, step: u64, total: u64) -> f32 {
    let min = lr / 100.0;
    let x = (step as f64 / total.max(1) as f64).min(1.0);
    min + 0.5 * (lr - min) * (1.0 + (std::f64::consts::PI * x).cos()) as f32
}
