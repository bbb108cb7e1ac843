//! What a `go` asks for: clocks, fixed depth/nodes/time, mate search, infinite and ponder
//! modes, and a restriction of the root moves.

use sable_chess::{Color, Move};

/// One side's clock in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_ms: u64,
    pub inc_ms: u64,
}

/// Limits of one search. The default is "no limit at all" (as `go infinite` but ending
/// on its own at the maximum depth).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Clocks indexed by [`Color::index`].
    pub clocks: [Option<Clock>; 2],
    /// Moves until the next time control; `None` is sudden death.
    pub moves_to_go: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// No new iteration once this many nodes are searched (the iteration under way
    /// finishes, up to `nodes`); for data generation, where each move gets a similar effort.
    pub soft_nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub movetime_ms: Option<u64>,
    /// Never stop on its own: report the result only after `stop`.
    pub infinite: bool,
    /// Think on the opponent's time: no clock runs and no result is reported before
    /// `ponderhit` (which switches to the clock limits) or `stop`.
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub search_moves: Vec<Move>,
}

impl SearchLimits {
    /// Fixed depth, nothing else.
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        }
    }

    /// The clock of `side`, if one was given.
    pub fn clock(&self, side: Color) -> Option<Clock> {
        self.clocks[side.index()]
    }

    /// Whether time, rather than depth or nodes alone, ends the search.
    pub fn is_timed(&self) -> bool {
        self.movetime_ms.is_some() || self.clocks.iter().any(Option::is_some)
    }
}
