//! What the threads of one search share ([`SearchContext`]: the table, the limits, the
//! clock, the stop flag, the root and its tables, the node counters) and the signals
//! between the protocol side and a running search ([`Control`]). The engine builds it,
//! the threads run on it and each worker reads it; it is a module of its own so that the
//! search and the thread pool both depend on it instead of on each other.

use crate::limits::SearchLimits;
use crate::report::{Bound, SearchEvent};
use crate::score;
use crate::tablebase::{RootTb, Tablebases, TbSettings};
use crate::time::TimeBudget;
use crate::tt::TranspositionTable;
use sable_chess::{Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Signals between the protocol side and the running search; lives as long as the engine.
#[derive(Default)]
pub(crate) struct Control {
    /// Every search thread polls this at every node.
    pub stop: AtomicBool,
    /// Set while in ponder mode; `ponderhit` clears it.
    pub pondering: AtomicBool,
    /// Milliseconds after the start at which `ponderhit` arrived: the clock starts there.
    pub ponderhit_ms: AtomicU64,
    /// Set just before the final result is reported.
    pub finished: AtomicBool,
}

/// A node counter on its own cache line, written by one thread and read by the reporter.
#[repr(align(64))]
#[derive(Default)]
pub(crate) struct NodeCounter(pub AtomicU64);

/// Everything the threads of one search share.
pub(crate) struct SearchContext {
    pub control: Arc<Control>,
    pub tt: Arc<TranspositionTable>,
    pub limits: SearchLimits,
    pub budget: Option<TimeBudget>,
    /// Lines searched: the user's `MultiPV`, or more at a limited strength.
    pub multipv: usize,
    /// Lines reported: the user's `MultiPV`.
    pub report_multipv: usize,
    /// The limited strength of this search; `None` at full strength.
    pub level: Option<crate::strength::Level>,
    pub start: Instant,
    pub nodes: Vec<NodeCounter>,
    pub root: Position,
    /// The move that led to the root, when the game's moves are known.
    pub last_move: Option<Move>,
    pub game_keys: Vec<u64>,
    /// The network to evaluate with; `None` for the hand-crafted evaluation.
    pub net: Option<Arc<crate::nnue::Network>>,
    /// The Syzygy tables, when `SyzygyPath` found some.
    pub tb: Option<Arc<Tablebases>>,
    pub tb_settings: TbSettings,
    /// Positions with at most this many pieces are probed (0: none).
    pub tb_cardinality: usize,
    /// Successful table probes of all threads.
    pub tbhits: AtomicU64,
    /// The root's tablebase ranking, when the root is in the tables (set before the
    /// threads start).
    pub root_tb: OnceLock<RootTb>,
}

impl SearchContext {
    /// Nodes of all threads (the others' as of their last publication).
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(Relaxed)).sum()
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Milliseconds on our own clock: since `go`, or since `ponderhit` after pondering.
    pub fn clock_ms(&self) -> u64 {
        let e = self.start.elapsed().as_millis() as u64;
        e.saturating_sub(self.control.ponderhit_ms.load(Relaxed))
    }

    /// The score and bound to report for a root line: the tables' verdict when the root
    /// is in them and the search found no mate (its own scores there are estimates).
    pub fn reported(&self, score: i32, bound: Bound) -> (i32, Bound) {
        match self.root_tb.get() {
            Some(t) if !score::is_mate(score) => (t.score, Bound::Exact),
            _ => (score, bound),
        }
    }

    /// Whether time may end the search now (not in infinite mode, not while pondering).
    pub fn clock_runs(&self) -> bool {
        !self.limits.infinite && !self.control.pondering.load(Relaxed)
    }
}

pub(crate) type Reporter = Box<dyn FnMut(SearchEvent) + Send>;
