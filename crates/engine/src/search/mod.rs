//! One search thread's state and its iterative deepening loop with aspiration windows
//! and MultiPV. The tree search is in `alphabeta`, its leaves in `quiescence`.

mod alphabeta;
mod quiescence;
mod root;
pub mod technique;

use crate::context::{Reporter, SearchContext};
use crate::correction::Corrections;
use crate::eval::Evaluator;
use crate::history::{Histories, PieceTo};
use crate::line::Line;
use crate::nnue::NnueStack;
use crate::report::{SearchEvent, SearchInfo};
use crate::score::{self, INFINITE, MATE, MAX_PLY, NONE};
use crate::time;
use crate::tunables as tp;
use sable_chess::{Move, Position};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use technique::{on, Technique};

pub(crate) use root::RootMove;

/// Stack size of search threads: the recursion keeps move lists on the stack.
pub(crate) const STACK_SIZE: usize = 64 << 20;

/// Frames beyond `MAX_PLY` so that `ply + 2` is always in bounds.
const FRAMES: usize = MAX_PLY + 8;

/// Per-ply search state.
#[derive(Clone, Copy)]
pub(crate) struct Frame {
    pub static_eval: i32,
    pub killers: [Move; 2],
    /// The (piece, square) of the move made at this ply; `None` for a null move.
    pub piece_to: Option<PieceTo>,
    /// The move made at this ply when it was quiet (the prior countermove bonus of the
    /// node below reads it); null otherwise. Set by the main search only: quiescence
    /// never calls it, so no main-search node reads a stale one.
    pub quiet_move: Move,
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
            quiet_move: Move::NULL,
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
    /// The network's accumulators when the search uses one.
    nnue: Option<NnueStack>,
    hist: Histories,
    /// Correction history: what searches found of the static evaluation.
    corr: Corrections,
    stack: Vec<Frame>,
    /// Keys of the game before the root, then of the tree path: repetition detection.
    keys: Vec<u64>,
    /// Triangular PV table, `(MAX_PLY + 1)` moves per ply.
    pv: Vec<Move>,
    pv_len: Vec<usize>,
    pub root_moves: Vec<RootMove>,
    /// The lines of the last completed iteration, best first.
    completed_lines: Vec<Line>,
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
            nnue: None,
            hist: Histories::new(),
            corr: Corrections::new(),
            stack: vec![Frame::default(); FRAMES],
            keys: Vec::with_capacity(1024),
            pv: vec![Move::NULL; (MAX_PLY + 2) * (MAX_PLY + 2)],
            pv_len: vec![0; MAX_PLY + 2],
            root_moves: Vec::new(),
            completed_lines: Vec::new(),
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
        self.corr.clear();
        self.evaluator = Evaluator::new();
    }

    /// Sets up for a search of `ctx.root` over `root_moves`.
    pub fn prepare(&mut self, ctx: Arc<SearchContext>, root_moves: &[Move]) {
        self.pos = ctx.root.clone();
        match &ctx.net {
            Some(net) => {
                // A new stack only when the network changed: it allocates.
                if !self
                    .nnue
                    .as_ref()
                    .is_some_and(|s| Arc::ptr_eq(s.net(), net))
                {
                    self.nnue = Some(NnueStack::new(net.clone(), FRAMES + 1));
                }
                if let Some(stack) = self.nnue.as_mut() {
                    stack.reset(&self.pos);
                }
            }
            None => self.nnue = None,
        }
        self.keys.clear();
        self.keys.extend_from_slice(&ctx.game_keys);
        self.root_moves = root_moves.iter().map(|&mv| RootMove::new(mv)).collect();
        self.completed_lines.clear();
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
        if self.nodes & 1023 == 0 {
            ctx.nodes[self.id].0.store(self.nodes, Relaxed);
        }
        // The first iteration always finishes (in well under a millisecond), so that
        // every search has a completed line to play, whatever stopped it.
        if self.root_depth <= 1 {
            return false;
        }
        if ctx.control.stop.load(Relaxed) {
            self.stopped = true;
            return true;
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
            if skips_depth(self.id, depth) {
                continue;
            }
            self.root_depth = depth;
            let iteration_start_ms = ctx.clock_ms();
            root::begin_iteration(&mut self.root_moves);
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(depth);
                if self.stopped {
                    break;
                }
                // Keep the lines above this one in order.
                root::sort(&mut self.root_moves[..=pv_idx]);
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            self.completed_lines = self.root_moves[..multipv]
                .iter()
                .map(|rm| rm.line(depth))
                .collect();
            ctx.nodes[self.id].0.store(self.nodes, Relaxed);
            if self.reporter.is_none() {
                continue;
            }
            for i in 0..multipv.min(ctx.report_multipv) {
                let info = self.info_for(&self.completed_lines[i], i + 1, &ctx);
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
            // A level plays a proven win as found (`Level::choose_move`), so it need not
            // search on: full strength, its mate found, runs through the remaining depths
            // in a few nodes, while a level's capped depth and several lines would keep it
            // thinking longer than full strength did (results/2026-12-06/calibration.md).
            if ctx.level.is_some() && score >= score::TB_BOUND {
                break;
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
                    let stability =
                        time::stability_scale(self.best_move_changes, drop, stable_iterations);
                    // Effort speaks of one best move; several lines share the nodes.
                    let effort = if multipv == 1 {
                        time::effort_scale(best.nodes, self.nodes)
                    } else {
                        100
                    };
                    time::combined_scale(stability, effort)
                };
                self.best_move_changes /= 2;
                let mut soft = b.soft_ms * scale / 100;
                // A single legal move needs no thought.
                if self.root_moves.len() == 1 {
                    soft = soft.min(b.soft_ms / 8);
                }
                // A limited strength thinks less when one move stands out, and never
                // stretches its time when its best move keeps changing (several lines on
                // a weaker search change it more often than full strength's one).
                if let Some(level) = ctx.level {
                    soft = soft.min(b.soft_ms) * level.time_percent(&self.completed_lines) / 100;
                    // Nor does it start an iteration it cannot finish by then, the next
                    // one taking at least as long as this one: an iteration over several
                    // lines is long, and one run past the limit made a level slower than
                    // full strength. (An iteration begun before `ponderhit` started on a
                    // clock since reset: hence the saturation.)
                    soft = soft.saturating_sub(ctx.clock_ms().saturating_sub(iteration_start_ms));
                }
                if ctx.clock_ms() >= soft.min(b.hard_ms) {
                    break;
                }
            }
        }
        ctx.nodes[self.id].0.store(self.nodes, Relaxed);
    }

    /// What this thread would play and report, best line first: see [`root::result_lines`].
    pub fn result_lines(&self) -> Vec<Line> {
        let multipv = self.ctx().multipv;
        root::result_lines(
            &self.root_moves,
            &self.completed_lines,
            self.stopped,
            self.pv_idx,
            self.root_depth,
            multipv,
        )
    }

    /// One root search at `depth` for line `pv_idx`, widening the window on failure.
    fn aspiration(&mut self, depth: i32) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = tp::asp_delta();
        // Aspiration windows
        let (mut alpha, mut beta) = if on(Technique::Aspiration)
            && depth >= tp::asp_min_depth()
            && prev != -INFINITE
            && !score::is_decisive(prev)
        {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let value = self.search(alpha, beta, depth, 0, false);
            let pv_idx = self.pv_idx;
            root::sort(&mut self.root_moves[pv_idx..]);
            if self.stopped {
                return;
            }
            if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITE);
            } else if value >= beta {
                beta = (value + delta).min(INFINITE);
            } else {
                return;
            }
            // The first line after a failure is the bound just proven (the root marked
            // it), shown once the search has run long enough for a GUI to care.
            if self.reporter.is_some()
                && pv_idx < self.ctx().report_multipv
                && self.root_moves[pv_idx].searched()
            {
                let ctx = self.ctx.clone().expect("prepared");
                if ctx.elapsed().as_millis() > 500 {
                    let line = self.root_moves[pv_idx].line(depth);
                    let info = self.info_for(&line, pv_idx + 1, &ctx);
                    self.emit(SearchEvent::Info(info));
                }
            }
            delta += delta * tp::asp_growth_pct() / 100;
            if delta > tp::asp_max() {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// A report of one root line.
    pub fn info_for(&self, line: &Line, multipv: usize, ctx: &SearchContext) -> SearchInfo {
        let (value, bound) = ctx.reported(line.score, line.bound);
        let nodes = ctx.total_nodes().max(self.nodes);
        let time = ctx.elapsed();
        let nps = (nodes as u128 * 1_000_000 / time.as_micros().max(1)) as u64;
        SearchInfo {
            depth: line.depth.max(1) as u32,
            seldepth: line.seldepth.max(1) as u32,
            multipv: multipv as u32,
            score_value: value,
            score: score::report(value),
            bound,
            wdl: score::wdl(value),
            nodes,
            nps,
            hashfull: ctx.tt.hashfull(),
            tbhits: ctx.tbhits.load(Relaxed),
            time,
            pv: line.pv.clone(),
        }
    }
}

/// Lazy SMP's staggered depths: helper threads skip some iterations in blocks whose
/// size and phase depend on the thread, so that at any moment the threads are spread
/// over neighbouring depths rather than all searching the same one (the scheme of
/// Stockfish 9). The first thread, which keeps the clock, searches every depth, and no
/// thread skips the first iteration.
fn skips_depth(id: usize, depth: i32) -> bool {
    const SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    if id == 0 || depth <= 1 {
        return false;
    }
    let i = (id - 1) % SIZE.len();
    ((depth + PHASE[i]) / SIZE[i]) % 2 == 1
}
