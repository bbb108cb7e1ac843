//! [`Line`]: one principal variation as it is reported and played, the result of one
//! search. Its own module because the search makes lines, the strength levels choose
//! among them and the threads vote on them, and none of those should depend on another
//! for it.

use crate::report::Bound;
use sable_chess::Move;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    pub mv: Move,
    pub score: i32,
    pub bound: Bound,
    /// The iteration that produced it.
    pub depth: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
}
