//! The sequential probability ratio test on normalized Elo, as fishtest and OpenBench
//! run it: the log-likelihood ratio of H1 (nElo = elo1) against H0 (nElo = elo0) is
//! computed from the results' distribution with each hypothesis' maximum-likelihood
//! distribution (M. Van den Bergh, "Normalized Elo", practical section), from
//! pentanomial pair counts when games are paired and trinomial counts otherwise.

use super::stats::{Penta, Wdl, NELO_SCALE};

/// `-sprt elo0=.. elo1=.. alpha=.. beta=..` (Elo values are normalized Elo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSpec {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H1 accepted: the change is at least elo1.
    Accept,
    /// H0 accepted: the change is at most elo0.
    Reject,
    Continue,
}

impl SprtSpec {
    /// Lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn decide(&self, llr: f64) -> Decision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Decision::Accept
        } else if llr <= lo {
            Decision::Reject
        } else {
            Decision::Continue
        }
    }

    /// The LLR from pair counts.
    pub fn llr_pentanomial(&self, p: &Penta) -> f64 {
        let pdf: Vec<(f64, f64)> = (0..5).map(|i| (i as f64 / 4.0, p.0[i] as f64)).collect();
        // Pairs have half a game's spread: the t-values scale by sqrt 2.
        llr_normalized(&pdf, self.elo0, self.elo1, std::f64::consts::SQRT_2)
    }

    /// The LLR from game counts.
    pub fn llr_trinomial(&self, r: &Wdl) -> f64 {
        let pdf = [
            (0.0, r.losses as f64),
            (0.5, r.draws as f64),
            (1.0, r.wins as f64),
        ];
        llr_normalized(&pdf, self.elo0, self.elo1, 1.0)
    }
}

/// Zero counts get this weight so that every outcome stays possible (as fishtest).
const REGULARIZE: f64 = 1e-3;

fn llr_normalized(counts: &[(f64, f64)], elo0: f64, elo1: f64, t_scale: f64) -> f64 {
    let counts: Vec<(f64, f64)> = counts
        .iter()
        .map(|&(a, c)| (a, c.max(REGULARIZE)))
        .collect();
    let n: f64 = counts.iter().map(|c| c.1).sum();
    let pdf: Vec<(f64, f64)> = counts.iter().map(|&(a, c)| (a, c / n)).collect();
    let t0 = elo0 / NELO_SCALE * t_scale;
    let t1 = elo1 / NELO_SCALE * t_scale;
    let p0 = mle_tvalue(&pdf, 0.5, t0);
    let p1 = mle_tvalue(&pdf, 0.5, t1);
    n * pdf
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(&(_, p), (&q0, &q1))| p * (q1.ln() - q0.ln()))
        .sum::<f64>()
}

/// The distribution on the same outcomes, closest (maximum likelihood) to `pdf`, whose
/// t-value `(mu - reference) / sigma` equals `t`.
fn mle_tvalue(pdf: &[(f64, f64)], reference: f64, t: f64) -> Vec<f64> {
    let n = pdf.len();
    let mut q = vec![1.0 / n as f64; n];
    for _ in 0..50 {
        let (mu, var) = {
            let mu: f64 = pdf.iter().zip(&q).map(|((a, _), p)| a * p).sum();
            let var: f64 = pdf
                .iter()
                .zip(&q)
                .map(|((a, _), p)| p * (a - mu).powi(2))
                .sum();
            (mu, var)
        };
        let sigma = var.sqrt();
        let shifted: Vec<f64> = pdf
            .iter()
            .map(|&(a, _)| a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0)
            .collect();
        let x = secular(&shifted, pdf);
        let next: Vec<f64> = pdf
            .iter()
            .zip(&shifted)
            .map(|(&(_, p), v)| p / (1.0 + x * v))
            .collect();
        let change = next
            .iter()
            .zip(&q)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        q = next;
        if change < 1e-12 {
            break;
        }
    }
    q
}

/// Solves `sum p_i v_i / (1 + x v_i) = 0` for x with every `1 + x v_i > 0`.
fn secular(v: &[f64], pdf: &[(f64, f64)]) -> f64 {
    let f = |x: f64| -> f64 {
        v.iter()
            .zip(pdf)
            .map(|(vi, &(_, p))| p * vi / (1.0 + x * vi))
            .sum()
    };
    let hi_v = v.iter().cloned().fold(f64::MIN, f64::max);
    let lo_v = v.iter().cloned().fold(f64::MAX, f64::min);
    if hi_v <= 0.0 || lo_v >= 0.0 {
        return 0.0; // degenerate: no sign change, leave the distribution as it is
    }
    let eps = 1e-9;
    // f decreases from +inf at -1/hi_v to -inf at -1/lo_v.
    let (mut lo, mut hi) = (-1.0 / hi_v + eps, -1.0 / lo_v - eps);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-15 {
            break;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} vs {b}");
    }

    fn spec(elo0: f64, elo1: f64) -> SprtSpec {
        SprtSpec {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    #[test]
    fn bounds() {
        let (lo, hi) = spec(0.0, 5.0).bounds();
        close(lo, -2.944_438_979_166_44, 1e-12);
        close(hi, 2.944_438_979_166_44, 1e-12);
        assert_eq!(spec(0.0, 5.0).decide(3.0), Decision::Accept);
        assert_eq!(spec(0.0, 5.0).decide(-3.0), Decision::Reject);
        assert_eq!(spec(0.0, 5.0).decide(0.1), Decision::Continue);
    }

    // Expected LLRs come from an independent Python implementation of fishtest's
    // LLRcalc (crates/cli/tests/arena_stats.py, scipy's brentq for the secular equation).
    #[test]
    fn pentanomial_llr() {
        close(
            spec(0.0, 5.0).llr_pentanomial(&Penta([10, 40, 100, 60, 20])),
            0.7834243417236973,
            1e-7,
        );
        close(
            spec(-1.0, 3.0).llr_pentanomial(&Penta([0, 12, 30, 25, 8])),
            0.5323128812403615,
            1e-7,
        );
        // Degenerate: every pair won twice (zeros regularized).
        close(
            spec(0.0, 20.0).llr_pentanomial(&Penta([0, 0, 0, 0, 50])),
            3.900843930561482,
            1e-6,
        );
        close(
            spec(0.0, 2.0).llr_pentanomial(&Penta([3, 150, 700, 140, 2])),
            -0.2080180530191024,
            1e-7,
        );
    }

    #[test]
    fn trinomial_llr() {
        let r = Wdl {
            wins: 120,
            draws: 200,
            losses: 80,
        };
        close(spec(0.0, 5.0).llr_trinomial(&r), 0.7728612220674912, 1e-7);
    }

    #[test]
    fn llr_sign_follows_the_results() {
        let good = Penta([5, 20, 50, 40, 15]);
        let bad = good.flipped();
        assert!(spec(0.0, 10.0).llr_pentanomial(&good) > 0.0);
        assert!(spec(0.0, 10.0).llr_pentanomial(&bad) < 0.0);
        // No games: nothing is known.
        close(
            spec(0.0, 10.0).llr_pentanomial(&Penta::default()),
            0.0,
            1e-4,
        );
    }
}
