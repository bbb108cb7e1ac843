//! One search thread's state and its iterative deepening loop with aspiration windows
//! and MultiPV. The tree search is in `alphabeta`, its leaves in `quiescence`.

mod alphabeta;
mod quiescence;
pub mod technique;

use crate::eval::Evaluator;
use crate::history::{Histories, PieceTo};
use crate::report::{Bound, SearchEvent, SearchInfo};
use crate::score::{self, INFINITE, MATE, MAX_PLY, NONE};
use crate::threads::{Reporter, SearchContext};
use crate::time;
use sable_chess::{Move, Position};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use technique::{on, Technique};

/// Stack size of search threads: the recursion keeps move lists on the stack.
pub(crate) const STACK_SIZE: usize = 64 << 20;

/// Frames beyond `MAX_PLY` so that `ply + 2` is always in bounds.
const FRAMES: usize = MAX_PLY + 8;

/// A root move with its latest results.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    /// Score in the current iteration, `-INFINITE` until searched (or when it failed low).
    pub score: i32,
    /// Score in the previous iteration.
    pub prev_score: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// Bound of `score` relative to the window it was found with.
    pub bound: Bound,
}

impl RootMove {
    /// The most recent meaningful score.
    pub fn reported_score(&self) -> i32 {
        if self.score == -INFINITE {
            self.prev_score
        } else {
            self.score
        }
    }
}

/// Per-ply search state.
#[derive(Clone, Copy)]
pub(crate) struct Frame {
    pub static_eval: i32,
    pub killers: [Move; 2],
    /// The (piece, square) of the move made at this ply; `None` for a null move.
    pub piece_to: Option<PieceTo>,
    /// The move excluded by a singular-extension search at this ply.
    pub excluded: Move,
    /// Plies since the last null move (repetitions cannot cross it).
    pub plies_from_null: usize,
    pub double_extensions: u32,
}

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            static_eval: NONE,
            killers: [Move::NULL; 2],
            piece_to: None,
            excluded: Move::NULL,
            plies_from_null: 0,
            double_extensions: 0,
        }
    }
}

/// One thread's search.
pub(crate) struct Worker {
    pub id: usize,
    pos: Position,
    evaluator: Evaluator,
    hist: Histories,
    stack: Vec<Frame>,
    /// Keys of the game before the root, then of the tree path: repetition detection.
    keys: Vec<u64>,
    /// Triangular PV table, `(MAX_PLY + 1)` moves per ply.
    pv: Vec<Move>,
    pv_len: Vec<usize>,
    pub root_moves: Vec<RootMove>,
    pv_idx: usize,
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    pub completed_depth: i32,
    stopped: bool,
    /// Null move is disabled below this ply (during a verification search).
    nmp_min_ply: usize,
    best_move_changes: u32,
    ctx: Option<Arc<SearchContext>>,
    /// Held by the first thread during a search: where its reports go.
    pub reporter: Option<Reporter>,
}

impl Worker {
    pub fn new(id: usize) -> Worker {
        Worker {
            id,
            pos: Position::startpos(),
            evaluator: Evaluator::new(),
            hist: Histories::new(),
            stack: vec![Frame::default(); FRAMES],
            keys: Vec::with_capacity(1024),
            pv: vec![Move::NULL; (MAX_PLY + 2) * (MAX_PLY + 2)],
            pv_len: vec![0; MAX_PLY + 2],
            root_moves: Vec::new(),
            pv_idx: 0,
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            completed_depth: 0,
            stopped: false,
            nmp_min_ply: 0,
            best_move_changes: 0,
            ctx: None,
            reporter: None,
        }
    }

    /// Whether the last search was cut short (rather than reaching its depth).
    pub fn was_stopped(&self) -> bool {
        self.stopped
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.hist.clear();
        self.evaluator = Evaluator::new();
    }

    /// Sets up for a search of `ctx.root` over `root_moves`.
    pub fn prepare(&mut self, ctx: Arc<SearchContext>, root_moves: &[Move]) {
        self.pos = ctx.root.clone();
        self.keys.clear();
        self.keys.extend_from_slice(&ctx.game_keys);
        self.root_moves = root_moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                seldepth: 0,
                pv: vec![mv],
                bound: Bound::Exact,
            })
            .collect();
        self.stack.fill(Frame::default());
        self.stack[0].plies_from_null = self.pos.halfmoves() as usize;
        self.nodes = 0;
        self.seldepth = 0;
        self.completed_depth = 0;
        self.stopped = false;
        self.nmp_min_ply = 0;
        self.best_move_changes = 0;
        self.pv_idx = 0;
        self.ctx = Some(ctx);
    }

    #[inline]
    fn ctx(&self) -> &SearchContext {
        self.ctx.as_ref().expect("prepared")
    }

    /// Polled at every node: the shared stop flag, and for the first thread the node
    /// limit (exactly) and the hard time limit (every 1024 nodes).
    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let ctx = self.ctx.as_ref().expect("prepared");
        if ctx.control.stop.load(Relaxed) {
            self.stopped = true;
            return true;
        }
        if self.nodes & 1023 == 0 {
            ctx.nodes[self.id].0.store(self.nodes, Relaxed);
        }
        if self.id == 0 {
            if let Some(limit) = ctx.limits.nodes {
                // One thread counts exactly; several count together, the helpers as of
                // their last publication (each at most 1023 nodes behind).
                let reached = if ctx.nodes.len() == 1 {
                    self.nodes >= limit
                } else {
                    self.nodes & 1023 == 0 && ctx.total_nodes() >= limit
                };
                if reached {
                    ctx.control.stop.store(true, Relaxed);
                    self.stopped = true;
                    return true;
                }
            }
            if self.nodes & 1023 == 0 && ctx.clock_runs() {
                if let Some(b) = ctx.budget {
                    if ctx.clock_ms() >= b.hard_ms {
                        ctx.control.stop.store(true, Relaxed);
                        self.stopped = true;
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Sends an event if this thread reports.
    pub(crate) fn emit(&mut self, event: SearchEvent) {
        if let Some(r) = self.reporter.as_mut() {
            r(event);
        }
    }

    /// Iterative deepening. Only the thread holding the reporter reports and keeps time.
    pub fn iterate(&mut self) {
        let ctx = self.ctx.clone().expect("prepared");
        let max_depth = ctx.limits.depth.map_or(MAX_PLY as i32 - 8, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 8)
        });
        let multipv = ctx.multipv.clamp(1, self.root_moves.len());
        let mut last_best = Move::NULL;
        let mut stable_iterations = 0;
        let mut prev_best_score = -INFINITE;
        for depth in 1..=max_depth {
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                if rm.score != -INFINITE {
                    rm.prev_score = rm.score;
                }
                rm.score = -INFINITE;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(depth);
                // Keep the lines above this one in order.
                self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(sort_key(r)));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            ctx.nodes[self.id].0.store(self.nodes, Relaxed);
            if self.reporter.is_none() {
                continue;
            }
            for i in 0..multipv {
                let info = self.info_for(&self.root_moves[i], depth, i + 1, &ctx);
                self.emit(SearchEvent::Info(info));
            }

            // Stop conditions of the first thread.
            let best = &self.root_moves[0];
            let score = best.score;
            if let Some(n) = ctx.limits.mate {
                if score >= MATE - (2 * n as i32 - 1) {
                    break;
                }
            }
            if best.mv == last_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            last_best = best.mv;
            let drop = if prev_best_score == -INFINITE {
                0
            } else {
                prev_best_score - score
            };
            prev_best_score = score;
            if ctx
                .limits
                .soft_nodes
                .is_some_and(|soft| ctx.total_nodes().max(self.nodes) >= soft)
            {
                break;
            }
            if let (Some(b), true) = (ctx.budget, ctx.clock_runs()) {
                // A fixed time per move is used in full; only clock budgets flex.
                let scale = if ctx.limits.movetime_ms.is_some() {
                    100
                } else {
                    time::stability_scale(self.best_move_changes, drop, stable_iterations)
                };
                self.best_move_changes /= 2;
                let mut soft = b.soft_ms * scale / 100;
                // A single legal move needs no thought.
                if self.root_moves.len() == 1 {
                    soft = soft.min(b.soft_ms / 8);
                }
                if ctx.clock_ms() >= soft.min(b.hard_ms) {
                    break;
                }
            }
        }
        if self.reporter.is_some() && ctx.control.stop.load(Relaxed) {
            // Aborted mid-iteration: the root moves are sorted by what is known.
            self.root_moves
                .sort_by_key(|r| std::cmp::Reverse(sort_key(r)));
        }
        ctx.nodes[self.id].0.store(self.nodes, Relaxed);
    }

    /// One root search at `depth` for line `pv_idx`, widening the window on failure.
    fn aspiration(&mut self, depth: i32) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = 18;
        // Aspiration windows
        // (+127 ± 82 Elo, 60 games at 1+0.01)
        let (mut alpha, mut beta) = if on(Technique::Aspiration)
            && depth >= 4
            && prev != -INFINITE
            && !score::is_mate(prev)
        {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let value = self.search(alpha, beta, depth, 0, false);
            let pv_idx = self.pv_idx;
            self.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(sort_key(r)));
            if self.stopped {
                return;
            }
            let bound = if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITE);
                Bound::Upper
            } else if value >= beta {
                beta = (value + delta).min(INFINITE);
                Bound::Lower
            } else {
                return;
            };
            self.root_moves[pv_idx].bound = bound;
            if self.reporter.is_some() {
                let ctx = self.ctx.clone().expect("prepared");
                if ctx.elapsed().as_millis() > 500 {
                    let info = self.info_for(&self.root_moves[pv_idx], depth, pv_idx + 1, &ctx);
                    self.emit(SearchEvent::Info(info));
                }
            }
            self.root_moves[pv_idx].bound = Bound::Exact;
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// A report of one root line.
    pub fn info_for(
        &self,
        rm: &RootMove,
        depth: i32,
        multipv: usize,
        ctx: &SearchContext,
    ) -> SearchInfo {
        let value = rm.reported_score();
        let nodes = ctx.total_nodes().max(self.nodes);
        let time = ctx.elapsed();
        let nps = (nodes as u128 * 1_000_000 / time.as_micros().max(1)) as u64;
        SearchInfo {
            depth: depth.max(1) as u32,
            seldepth: rm.seldepth.max(1) as u32,
            multipv: multipv as u32,
            score_value: value,
            score: score::report(value),
            bound: rm.bound,
            wdl: score::wdl(value),
            nodes,
            nps,
            hashfull: ctx.tt.hashfull(),
            time,
            pv: rm.pv.clone(),
        }
    }
}

/// Root moves sort by this iteration's score, ties (unsearched moves) by the last one.
fn sort_key(r: &RootMove) -> (i32, i32) {
    (r.score, r.prev_score)
}
