//! Match statistics: score, Elo difference with a 95% error bar (from the trinomial
//! results, or the pentanomial results of game pairs when openings are played twice),
//! likelihood of superiority, draw ratio, and normalized Elo.

/// Two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// `800 / ln 10`: normalized Elo per unit of t-value.
pub const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// Wins, draws and losses from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Counts of game pairs by the pair's points: 0, 0.5, 1, 1.5, 2 (index 0..5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u64; 5]);

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }

    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games() as f64
    }

    /// The outcome distribution as (score, count) pairs.
    fn pdf(&self) -> [(f64, f64); 3] {
        [
            (0.0, self.losses as f64),
            (0.5, self.draws as f64),
            (1.0, self.wins as f64),
        ]
    }
}

impl Penta {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    fn pdf(&self) -> [(f64, f64); 5] {
        std::array::from_fn(|i| (i as f64 / 4.0, self.0[i] as f64))
    }

    #[cfg(test)]
    pub fn flipped(&self) -> Penta {
        let mut p = self.0;
        p.reverse();
        Penta(p)
    }
}

/// Mean and variance of a distribution given as (value, weight) pairs.
pub fn mean_var(pdf: &[(f64, f64)]) -> (f64, f64) {
    let n: f64 = pdf.iter().map(|p| p.1).sum();
    let mu = pdf.iter().map(|(a, w)| a * w).sum::<f64>() / n;
    let var = pdf.iter().map(|(a, w)| w * (a - mu).powi(2)).sum::<f64>() / n;
    (mu, var)
}

/// Logistic Elo difference for an expected score.
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// An Elo estimate with its 95% error bar (half the width of the interval).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub error: f64,
}

fn estimate(mu: f64, var: f64, n: f64) -> EloEstimate {
    let stderr = (var / n).sqrt();
    // An interval reaching past 0 % or 100 % has an unbounded Elo side.
    let lo = elo((mu - Z95 * stderr).clamp(0.0, 1.0));
    let hi = elo((mu + Z95 * stderr).clamp(0.0, 1.0));
    EloEstimate {
        elo: elo(mu),
        error: (hi - lo) / 2.0,
    }
}

/// Elo from game results, each game an independent sample (as cutechess-cli).
pub fn elo_trinomial(r: &Wdl) -> EloEstimate {
    let (mu, var) = mean_var(&r.pdf());
    estimate(mu, var, r.games() as f64)
}

/// Elo from game-pair results: each pair one sample, which removes the variance the
/// opening adds and gives the honest (usually smaller) error bar.
pub fn elo_pentanomial(p: &Penta) -> EloEstimate {
    let (mu, var) = mean_var(&p.pdf());
    estimate(mu, var, p.pairs() as f64)
}

/// Normalized Elo and its 95% error bar, from pairs.
pub fn nelo_pentanomial(p: &Penta) -> EloEstimate {
    let (mu, var) = mean_var(&p.pdf());
    let sigma_game = (2.0 * var).sqrt();
    let n = p.pairs() as f64;
    EloEstimate {
        elo: (mu - 0.5) / sigma_game * NELO_SCALE,
        error: Z95 * NELO_SCALE / (2.0 * n).sqrt(),
    }
}

/// Normalized Elo and its 95% error bar, from games.
pub fn nelo_trinomial(r: &Wdl) -> EloEstimate {
    let (mu, var) = mean_var(&r.pdf());
    let n = r.games() as f64;
    EloEstimate {
        elo: (mu - 0.5) / var.sqrt() * NELO_SCALE,
        error: Z95 * NELO_SCALE / n.sqrt(),
    }
}

/// Likelihood of superiority: the probability that the side is stronger, from wins and
/// losses only (draws carry no information about who is stronger).
pub fn los(r: &Wdl) -> f64 {
    if r.wins + r.losses == 0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((r.wins as f64 - r.losses as f64) / (2.0 * (r.wins + r.losses) as f64).sqrt()))
}

/// The error function, to about 1e-13 (a series for small x, a continued fraction of
/// the complement beyond).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // erf x = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        for n in 1..200 {
            term *= -x2 / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        return sum * 2.0 / std::f64::consts::PI.sqrt();
    }
    // erfc x = exp(-x^2)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...)))) (Lentz).
    let tiny = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..300 {
        let a = k as f64 / 2.0;
        d = x + a * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = x + a / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    1.0 - (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} vs {b}");
    }

    #[test]
    fn erf_values() {
        // Reference values from Python's math.erf.
        close(erf(0.0), 0.0, 1e-15);
        close(erf(0.5), 0.5204998778130465, 1e-13);
        close(erf(1.0), 0.8427007929497149, 1e-13);
        close(erf(2.0), 0.9953222650189527, 1e-13);
        close(erf(2.4), 0.999311486103355, 1e-13);
        close(erf(3.0), 0.9999779095030014, 1e-13);
        close(erf(-1.5), -0.9661051464753108, 1e-13);
    }

    // Expected values below were computed independently in Python (a few lines with
    // the math module; see crates/cli/tests/arena_stats.py): score, Elo = -400 log10(1/s - 1), the
    // normal-approximation interval, LOS = (1 + erf((W-L)/sqrt(2(W+L))))/2.
    #[test]
    fn trinomial_elo_and_los() {
        let r = Wdl {
            wins: 120,
            draws: 200,
            losses: 80,
        };
        assert_eq!(r.score(), 0.55);
        let e = elo_trinomial(&r);
        close(e.elo, 34.86007028756008, 1e-9);
        close(e.error, 24.114195309073608, 1e-9);
        close(los(&r), 0.9976611325094764, 1e-12);
        close(r.draw_ratio(), 0.5, 0.0);
        let n = nelo_trinomial(&r);
        close(n.elo, 49.6336550746574, 1e-9);
        close(n.error, 34.048061728594234, 1e-9);
        let even = Wdl {
            wins: 5,
            draws: 0,
            losses: 5,
        };
        assert_eq!(los(&even), 0.5);
        let lopsided = Wdl {
            wins: 9,
            draws: 1,
            losses: 0,
        };
        assert_eq!(elo_trinomial(&lopsided).error, f64::INFINITY);
        assert_eq!(elo_trinomial(&even).elo, 0.0);
    }

    #[test]
    fn pentanomial_elo() {
        let p = Penta([10, 40, 100, 60, 20]);
        let e = elo_pentanomial(&p);
        close(e.elo, 30.288285575247322, 1e-9);
        close(e.error, 21.80105267778798, 1e-9);
        let n = nelo_pentanomial(&p);
        close(n.elo, 44.393690687484465, 1e-9);
        close(n.error, 31.749981273177134, 1e-9);
        assert_eq!(p.flipped().0, [20, 60, 100, 40, 10]);
    }
}
