//! Where evaluation terms go. The same term code feeds the fast total the search
//! uses, the per-term breakdown of `sable eval` and the coefficient trace `sable tune`
//! fits; generics make the fast path cost nothing extra.

use super::params::{Term, NUM_PARAMS};
use super::score::S;
use super::tuned::PARAMS;
use sable_chess::Color;

pub trait Sink {
    /// Whether this sink may take cached pawn-structure totals instead of the terms.
    const CACHED: bool;
    /// Parameter `index` counts `n` times in `color`'s favour.
    fn add(&mut self, color: Color, index: usize, n: i32);
    /// A cached White-minus-Black total (only called when `CACHED`).
    fn add_total(&mut self, _s: S) {}
}

/// White minus Black, the fast path.
#[derive(Default)]
pub struct Total(pub S);

impl Sink for Total {
    const CACHED: bool = true;

    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, n: i32) {
        self.0 += PARAMS[index] * (n * color.sign());
    }

    #[inline(always)]
    fn add_total(&mut self, s: S) {
        self.0 += s;
    }
}

/// Per term and side, for `sable eval`.
#[derive(Default, Clone, Copy, Debug)]
pub struct Breakdown {
    pub terms: [[S; 2]; Term::ALL.len()],
}

impl Sink for Breakdown {
    const CACHED: bool = false;

    fn add(&mut self, color: Color, index: usize, n: i32) {
        self.terms[Term::of(index) as usize][color.index()] += PARAMS[index] * n;
    }
}

/// How many times each parameter counts, White minus Black: the evaluation's
/// middlegame and endgame halves are this vector's dot product with the parameters.
pub struct Trace {
    pub coeffs: Vec<i32>,
}

impl Default for Trace {
    fn default() -> Trace {
        Trace {
            coeffs: vec![0; NUM_PARAMS],
        }
    }
}

impl Sink for Trace {
    const CACHED: bool = false;

    fn add(&mut self, color: Color, index: usize, n: i32) {
        self.coeffs[index] += n * color.sign();
    }
}
