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
/// The decoupled weight decay every net up to `r5` was trained with (`sable train
/// --weight-decay`): each step shrinks a weight by `lr · decay` of itself.
pub const WEIGHT_DECAY: f32 = 0.01;

impl AdamW {
    pub fn new(len: usize) -> AdamW {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            step: 0,
        }
    }

    /// One step on `params` with gradient `grad`, learning rate `lr` and decoupled weight
    /// decay `decay` ([`WEIGHT_DECAY`] by default).
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32, decay: f32) {
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
            *p -= lr * (update + decay * *p);
        }
    }
}

/// Cosine decay from `lr` at step 0 to `lr / 100` at `total` steps.
pub fn cosine_lr(lr: f32, step: u64, total: u64) -> f32 {
    let min = lr / 100.0;
    let x = (step as f64 / total.max(1) as f64).min(1.0);
    min + 0.5 * (lr - min) * (1.0 + (std::f64::consts::PI * x).cos()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With no gradient Adam's update is zero, so only the decay acts: after `n` steps a
    /// weight is `w · (1 − lr · decay)^n`, the closed form of Loshchilov & Hutter's rule.
    #[test]
    fn decay_alone_shrinks_weights_geometrically() {
        for decay in [0.0f32, 0.01, 0.1] {
            let mut opt = AdamW::new(2);
            let mut w = [0.5f32, -1.5];
            let lr = 0.01;
            for _ in 0..100 {
                opt.step(&mut w, &[0.0, 0.0], lr, decay);
            }
            let f = (1.0 - lr * decay).powi(100);
            // f32 rounding over 100 steps: a few parts in a million.
            assert!(
                (w[0] / (0.5 * f) - 1.0).abs() < 1e-5,
                "decay {decay}: {}",
                w[0]
            );
            assert!(
                (w[1] / (-1.5 * f) - 1.0).abs() < 1e-5,
                "decay {decay}: {}",
                w[1]
            );
        }
    }
}
