//! The tree search: principal variation search with quiescence, and the pruning,
//! reduction and extension techniques, each in its own labelled block.
//!
//! Each block can be switched off alone (`technique`, the `ablation` feature) so that
//! `tools/ablation.sh` can measure what it is worth in games; the figures live in
//! `results/` (the first run: `results/2026-11-29/ablation.md`), not here, since they
//! change with every evaluation and every other block.

use super::technique::{on, Technique as T};
use super::{Worker, MAX_PLY};
use crate::correction::Slots;
use crate::history::{self, piece_to, PieceTo};
use crate::movepick::{is_noisy, Continuations, MovePicker};
use crate::report::{Bound, SearchEvent};
use crate::score::{
    clamp_eval, is_decisive, mate_in, mated_in, tb_loss_in, tb_win_in, DRAW, INFINITE, NONE,
    TB_BOUND,
};
use crate::see::see_ge;
use crate::tt::TtBound;
use crate::tunables as tp;
use sable_chess::{CheckInfo, Color, Move, Role, Undo};
use std::sync::OnceLock;

/// Late move reductions by depth and move number: `ln(depth) * ln(moves)` scaled.
#[cfg(not(feature = "tune"))]
fn reduction(depth: i32, move_count: usize) -> i32 {
    static TABLE: OnceLock<Vec<[i32; 64]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (m, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        *r = reduction_formula(d, m);
                    }
                }
                row
            })
            .collect()
    });
    table[depth.clamp(0, 63) as usize][move_count.min(63)]
}

/// The same with the current tunables: computed at each call from a table of
/// logarithms, since the options may change the formula between searches.
#[cfg(feature = "tune")]
fn reduction(depth: i32, move_count: usize) -> i32 {
    let (d, m) = (depth.clamp(0, 63) as usize, move_count.min(63));
    if d == 0 || m == 0 {
        return 0;
    }
    reduction_formula(d, m)
}

/// `lmr_base + ln(d) ln(m) / lmr_div` (both in hundredths), in whole plies; the
/// hundredths divide exactly to the decimals they replaced (80 / 100 is the double 0.8).
fn reduction_formula(d: usize, m: usize) -> i32 {
    static LN: OnceLock<[f64; 64]> = OnceLock::new();
    let ln = LN.get_or_init(|| std::array::from_fn(|i| (i as f64).ln()));
    let base = f64::from(tp::lmr_base()) / 100.0;
    let div = f64::from(tp::lmr_div()) / 100.0;
    (base + ln[d] * ln[m] / div) as i32
}

/// Quiet moves searched before late move pruning cuts the rest.
fn lmp_threshold(depth: i32, improving: bool) -> usize {
    let base = tp::lmp_base() + depth * depth;
    (if improving { base } else { base / 2 }) as usize
}

impl Worker {
    /// Plays `m` at `ply`: table prefetch, path key, node count, accumulator.
    #[inline]
    pub(super) fn make(&mut self, m: Move, ply: usize) -> Undo {
        // The child's bucket is fetched first, so that its load overlaps the
        // accumulator's delta and the move itself.
        self.ctx().tt.prefetch(self.pos.key_after(m));
        self.keys.push(self.pos.key());
        self.nodes += 1;
        if let Some(nnue) = self.nnue.as_mut() {
            nnue.push_move(&self.pos, m);
        }
        let undo = self.pos.make(m);
        // The accumulator's update now, while the bucket is still on its way, rather
        // than at the child's evaluation, after its probe has waited for it.
        if let Some(nnue) = self.nnue.as_mut() {
            nnue.compute_top();
        }
        self.stack[ply + 1].plies_from_null = self.stack[ply].plies_from_null + 1;
        undo
    }

    #[inline]
    pub(super) fn unmake(&mut self, m: Move, undo: &Undo) {
        self.pos.unmake(m, undo);
        if let Some(nnue) = self.nnue.as_mut() {
            nnue.pop();
        }
        self.keys.pop();
    }

    /// Draw by the fifty-move rule, insufficient material or repetition: a position
    /// seen before on the path or in the game counts already at its second occurrence.
    pub(super) fn is_draw(&self, ply: usize) -> bool {
        let pos = &self.pos;
        if pos.halfmoves() >= 100 && (!pos.in_check() || pos.count_legal() > 0) {
            return true;
        }
        if pos.occupied().count() <= 4 && pos.is_insufficient_material() {
            return true;
        }
        let window = (pos.halfmoves() as usize).min(self.stack[ply].plies_from_null);
        let n = self.keys.len();
        let key = pos.key();
        let mut back = 4;
        while back <= window.min(n) {
            if self.keys[n - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    #[inline]
    pub(super) fn evaluate(&mut self) -> i32 {
        let eval = match self.nnue.as_mut() {
            Some(nnue) => self.evaluator.evaluate_nnue(&self.pos, nnue),
            None => self.evaluator.evaluate(&self.pos),
        };
        clamp_eval(eval)
    }

    /// `raw` (the side to move's static evaluation) corrected by what searches of
    /// positions alike found (`correction.rs`): what the search prunes and stands pat on.
    #[inline]
    pub(super) fn correct(&self, raw: i32, slots: &Slots) -> i32 {
        if !on(T::Correction) || is_decisive(raw) {
            return raw;
        }
        clamp_eval(raw + self.corr.correction(slots))
    }

    fn has_non_pawn_material(&self) -> bool {
        let pos = &self.pos;
        (pos.us() - pos.by_role(Role::Pawn) - pos.by_role(Role::King)).any()
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let w = MAX_PLY + 2;
        let child_len = self.pv_len[ply + 1];
        self.pv[ply * w] = m;
        for i in 0..child_len {
            self.pv[ply * w + 1 + i] = self.pv[(ply + 1) * w + i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    pub(super) fn continuations(&self, ply: usize) -> Continuations {
        Continuations {
            one: if ply >= 1 {
                self.stack[ply - 1].piece_to
            } else {
                None
            },
            two: if ply >= 2 {
                self.stack[ply - 2].piece_to
            } else {
                None
            },
        }
    }

    /// Principal variation search. `cut_node`: a fail high is expected here.
    pub(super) fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, pv_node);
        }
        self.pv_len[ply] = 0;
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply + 1);
        let in_check = self.pos.in_check();

        if !root {
            if self.is_draw(ply) {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { DRAW } else { self.evaluate() };
            }
            // Mate distance pruning: no line from here can beat a shorter mate found
            // already.
            if on(T::MateDistance) {
                alpha = alpha.max(mated_in(ply));
                beta = beta.min(mate_in(ply + 1));
                if alpha >= beta {
                    return alpha;
                }
            }
        }

        let excluded = self.stack[ply].excluded;
        let key = self.pos.key();
        let tt = if excluded.is_null() {
            self.ctx().tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = if root {
            self.root_moves[self.pv_idx].mv
        } else {
            tt.map_or(Move::NULL, |h| h.mv)
        };

        // Transposition table cutoff
        if let Some(h) = tt {
            let usable = match h.bound {
                TtBound::Exact => true,
                TtBound::Lower => h.score >= beta,
                TtBound::Upper => h.score <= alpha,
            };
            if !pv_node
                && h.depth >= depth
                && usable
                && self.pos.halfmoves() < 90
                && on(T::TtCutoff)
            {
                return h.score;
            }
        }

        // Tablebases: a capture or pawn move into the tables ends the search here when
        // their result (a win or a loss as a bound, a draw exactly) settles the window;
        // at a PV node an unsettled result still caps what the node may score.
        let mut tb_cap = INFINITE;
        if !root && excluded.is_null() && self.pos.halfmoves() == 0 {
            if let Some((value, bound)) = self.probe_tables(ply, depth) {
                let settled = match bound {
                    TtBound::Exact => true,
                    TtBound::Lower => value >= beta,
                    TtBound::Upper => value <= alpha,
                };
                if settled {
                    let stored_depth = (depth + tp::tb_store_depth()).min(MAX_PLY as i32 - 1);
                    self.ctx()
                        .tt
                        .store(key, Move::NULL, value, NONE, stored_depth, bound, ply);
                    return value;
                }
                if pv_node && bound == TtBound::Upper {
                    tb_cap = value;
                }
            }
        }

        // Static evaluation (raw in the table, corrected for the search), refined by a
        // table score that bounds it the right way.
        // The correction's slots only where it is read and learnt (not in check, not in
        // a singular search), since finding them costs a walk over the pieces.
        let cont = self.continuations(ply);
        let (raw_eval, static_eval, eval, slots) = if in_check {
            (NONE, NONE, NONE, None)
        } else if !excluded.is_null() {
            let e = self.stack[ply].static_eval;
            (NONE, e, e, None)
        } else {
            let slots = Slots::of(&self.pos, cont.one, cont.two);
            let raw = match tt {
                Some(h) if h.eval != NONE => h.eval,
                _ => self.evaluate(),
            };
            let se = self.correct(raw, &slots);
            let mut eval = se;
            if let Some(h) = tt {
                let tighter = match h.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => h.score > se,
                    TtBound::Upper => h.score < se,
                };
                if tighter && !is_decisive(h.score) {
                    eval = h.score;
                }
            }
            (raw, se, eval, Some(slots))
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NONE
            && static_eval > self.stack[ply - 2].static_eval;
        self.stack[ply + 2].killers = [Move::NULL; 2];
        self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;

        if !pv_node && !in_check && excluded.is_null() {
            // Reverse futility pruning: far above beta with little depth left, a quiet
            // position will not fall below it.
            if on(T::ReverseFutility)
                && depth <= tp::rfp_depth()
                && eval - tp::rfp_margin() * (depth - i32::from(improving)) >= beta
                && eval < TB_BOUND
                && beta > -TB_BOUND
            {
                return eval;
            }

            // Razoring: far below alpha near the leaves, trust quiescence.
            if on(T::Razoring)
                && depth <= tp::razor_depth()
                && eval + tp::razor_base() + tp::razor_per_depth() * depth <= alpha
            {
                let v = self.qsearch(alpha, alpha + 1, ply, false);
                if v <= alpha {
                    return v;
                }
            }

            // Null move pruning, not with only king and pawns (zugzwang) nor twice in a
            // row; verified by a reduced search without null moves at high depth.
            if on(T::NullMove)
                && depth >= tp::nmp_depth()
                && eval >= beta
                && static_eval >= beta
                && ply >= self.nmp_min_ply
                && ply >= 1
                && self.stack[ply - 1].piece_to.is_some()
                && beta > -TB_BOUND
                && self.has_non_pawn_material()
            {
                let r = tp::nmp_base()
                    + depth / tp::nmp_depth_div()
                    + ((eval - beta) / tp::nmp_eval_div()).min(tp::nmp_eval_max());
                self.stack[ply].piece_to = None;
                self.stack[ply].quiet_move = Move::NULL;
                self.keys.push(key);
                self.nodes += 1;
                let undo = self.pos.make_null();
                if let Some(nnue) = self.nnue.as_mut() {
                    nnue.push_null();
                }
                self.stack[ply + 1].plies_from_null = 0;
                let v = -self.search(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                if let Some(nnue) = self.nnue.as_mut() {
                    nnue.pop();
                }
                self.pos.unmake_null(&undo);
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= TB_BOUND { beta } else { v };
                    if depth < tp::nmp_verify_depth() || self.nmp_min_ply != 0 {
                        return v;
                    }
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
                    let w = self.search(beta - 1, beta, depth - r, ply, false);
                    self.nmp_min_ply = 0;
                    if w >= beta {
                        return v;
                    }
                }
            }
        }

        // Internal iterative reduction: without a table move this node is probably
        // new and badly ordered; search it shallower first.
        if on(T::Iir)
            && !root
            && depth >= tp::iir_depth()
            && tt_move.is_null()
            && excluded.is_null()
            && (pv_node || cut_node)
        {
            depth -= 1;
        }

        let original_alpha = alpha;
        let us = self.pos.turn();
        let killers = self.stack[ply].killers;
        let mut picker = MovePicker::new(&self.pos, tt_move, killers);
        let mut quiets_tried = [Move::NULL; 64];
        let mut n_quiets = 0;
        let mut captures_tried = [Move::NULL; 32];
        let mut n_captures = 0;
        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let mut move_count = 0usize;
        // Where each piece would give check, once for the node: each move's test is then
        // a lookup instead of two slider attacks from the enemy king.
        let check_info: CheckInfo = self.pos.check_info();
        let mut root_index = self.pv_idx;
        let has_material = self.has_non_pawn_material();

        loop {
            let m = if root {
                if root_index >= self.root_moves.len() {
                    break;
                }
                root_index += 1;
                self.root_moves[root_index - 1].mv
            } else {
                match picker.next(&self.pos, &self.hist, &cont) {
                    Some(m) => m,
                    None => break,
                }
            };
            if m == excluded {
                continue;
            }
            move_count += 1;
            let noisy = is_noisy(&self.pos, m);
            let gives_check = self.pos.gives_check_with(m, &check_info);
            let pt = piece_to(&self.pos, m);
            let hist_score = if noisy {
                self.pos
                    .captured_role(m)
                    .map_or(0, |r| self.hist.capture(pt, r))
            } else {
                self.hist.quiet(us, m)
                    + self.hist.continuation(cont.one, pt)
                    + self.hist.continuation(cont.two, pt)
            };

            if root && self.id == 0 && self.ctx().elapsed().as_millis() > 3000 {
                self.emit_currmove(m, move_count);
            }

            if !root && best > -TB_BOUND && has_material {
                let lmr_depth = (depth - 1 - reduction(depth, move_count)).max(0);
                if !noisy {
                    // Late move pruning
                    if on(T::LateMovePruning) && move_count >= lmp_threshold(depth, improving) {
                        picker.skip_quiets();
                        continue;
                    }
                    // Futility pruning
                    if on(T::Futility)
                        && !in_check
                        && !gives_check
                        && lmr_depth <= tp::fp_depth()
                        && static_eval + tp::fp_base() + tp::fp_per_depth() * lmr_depth <= alpha
                    {
                        picker.skip_quiets();
                        continue;
                    }
                    // SEE pruning of quiet moves
                    if on(T::SeeQuiets)
                        && lmr_depth <= tp::see_quiet_depth()
                        && !see_ge(
                            &self.pos,
                            m,
                            -tp::see_quiet_margin() * lmr_depth * lmr_depth,
                        )
                    {
                        continue;
                    }
                } else {
                    // SEE pruning of captures
                    if on(T::SeeCaptures)
                        && depth <= tp::see_capture_depth()
                        && !gives_check
                        && !see_ge(&self.pos, m, -tp::see_capture_margin() * depth)
                    {
                        continue;
                    }
                }
            }

            let mut extension = 0;
            if !root && ply < 2 * self.root_depth as usize {
                let singular_candidate = match tt {
                    Some(h) => {
                        on(T::Singular)
                            && depth >= tp::se_depth()
                            && m == tt_move
                            && excluded.is_null()
                            && h.bound != TtBound::Upper
                            && h.depth >= depth - tp::se_tt_slack()
                            && !is_decisive(h.score)
                    }
                    None => false,
                };
                if singular_candidate {
                    // Singular extension: extend the table move when every other move
                    // fails low against a margin below its score; cut when even the
                    // others beat beta (multi-cut).
                    let tt_score = tt.map_or(0, |h| h.score);
                    let s_beta = tt_score - tp::se_margin() * depth;
                    let s_depth = (depth - 1) / 2;
                    self.stack[ply].excluded = m;
                    let v = self.search(s_beta - 1, s_beta, s_depth, ply, cut_node);
                    self.stack[ply].excluded = Move::NULL;
                    if self.stopped {
                        return 0;
                    }
                    if v < s_beta {
                        extension = 1;
                        if !pv_node
                            && v < s_beta - tp::se_double_margin()
                            && self.stack[ply].double_extensions < tp::se_double_max() as u32
                        {
                            extension = 2;
                            self.stack[ply + 1].double_extensions =
                                self.stack[ply].double_extensions + 1;
                        }
                    } else if s_beta >= beta {
                        return s_beta;
                    } else if tt_score >= beta {
                        extension = -1;
                    }
                } else if gives_check && on(T::CheckExtension) {
                    // Check extension
                    extension = 1;
                }
            }
            let mut new_depth = depth - 1 + extension;

            self.stack[ply].piece_to = Some(pt);
            self.stack[ply].quiet_move = if noisy { Move::NULL } else { m };
            let nodes_before = self.nodes;
            let undo = self.make(m, ply);
            let mut v = -INFINITE;
            // Late move reductions: later moves in a well-ordered list rarely matter;
            // search them shallower and re-search only if they beat alpha.
            if on(T::Lmr)
                && depth >= 2
                && move_count > 1 + usize::from(root)
                && (!noisy || !pv_node)
            {
                // The adjustments in 1024ths of a ply, summed before they are cut to
                // whole plies (whole plies each by default).
                let mut adjust = 0;
                if !pv_node {
                    adjust += tp::lmr_non_pv();
                }
                if cut_node {
                    adjust += tp::lmr_cut_node();
                }
                if improving {
                    adjust -= tp::lmr_improving();
                }
                if gives_check {
                    adjust -= tp::lmr_gives_check();
                }
                if noisy {
                    adjust -= tp::lmr_noisy();
                }
                let r =
                    reduction(depth, move_count) + adjust / 1024 - hist_score / tp::lmr_hist_div();
                let d = if new_depth <= 1 {
                    new_depth
                } else {
                    (new_depth - r).clamp(1, new_depth)
                };
                v = -self.search(-alpha - 1, -alpha, d, ply + 1, true);
                if v > alpha && d < new_depth {
                    // Deeper or shallower re-search: a reduced move that beat the best so
                    // far by a wide margin earns one ply more; one that barely beat it,
                    // one ply less (its full-depth search is then cheaper).
                    if on(T::LmrResearchDepth) {
                        if v > best + tp::lmr_deeper_base() + tp::lmr_deeper_per_depth() * new_depth
                        {
                            new_depth += 1;
                        } else if v < best + tp::lmr_shallower_margin() {
                            new_depth -= 1;
                        }
                    }
                    if d < new_depth {
                        v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                    }
                }
            } else if !pv_node || (move_count > 1 && on(T::Pvs)) {
                // Principal variation search: after the first move only prove that the
                // others are worse, with a null window; re-search those that are not.
                v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            }
            let unsearched = v == -INFINITE;
            if pv_node && (unsearched || (v > alpha && (root || v < beta))) {
                v = -self.search(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.unmake(m, &undo);
            if self.stopped {
                return 0;
            }

            if root {
                let seldepth = self.seldepth;
                let w = MAX_PLY + 2;
                let child: Vec<Move> = self.pv[w..w + self.pv_len[1]].to_vec();
                let first = move_count == 1;
                let rm = self
                    .root_moves
                    .iter_mut()
                    .find(|r| r.mv == m)
                    .expect("root move");
                rm.nodes += self.nodes - nodes_before;
                if first || v > alpha {
                    rm.score = v;
                    rm.bound = if v >= beta {
                        Bound::Lower
                    } else if v <= alpha {
                        Bound::Upper
                    } else {
                        Bound::Exact
                    };
                    rm.seldepth = seldepth;
                    rm.pv.clear();
                    rm.pv.push(m);
                    rm.pv.extend_from_slice(&child);
                    if !first {
                        self.best_move_changes += 1;
                    }
                } else {
                    rm.score = -INFINITE;
                }
            }

            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    // Alpha-raise reduction: one move already beat the best so far here;
                    // the later ones, worse ordered, rarely beat it again, so they are
                    // searched shallower (not at the root, whose depth is the iteration's).
                    if on(T::AlphaRaise)
                        && !root
                        && (tp::ar_depth_min()..=tp::ar_depth_max()).contains(&depth)
                        && !is_decisive(v)
                    {
                        depth -= tp::ar_reduction();
                    }
                    alpha = v;
                }
            }
            if m != best_move {
                if !noisy && n_quiets < quiets_tried.len() {
                    quiets_tried[n_quiets] = m;
                    n_quiets += 1;
                } else if noisy && n_captures < captures_tried.len() {
                    captures_tried[n_captures] = m;
                    n_captures += 1;
                }
            }
        }

        if move_count == 0 {
            return if !excluded.is_null() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }

        // History, continuation history, capture history and killer updates on a fail
        // high.
        if best >= beta && !best_move.is_null() && on(T::Histories) {
            self.update_histories(
                ply,
                depth,
                best_move,
                &quiets_tried[..n_quiets],
                &captures_tried[..n_captures],
                &cont,
            );
        }

        // Prior countermove bonus: every move here failed low, so the opponent's quiet
        // move that led here refuted ours; teach its histories as if it had cut off.
        if best <= original_alpha
            && !root
            && excluded.is_null()
            && !self.stack[ply - 1].quiet_move.is_null()
            && on(T::Histories)
        {
            self.reward_prior_quiet(ply, depth);
        }

        // Fail-high score blending: a cutoff's score is only a bound, and the deeper the
        // node the more its margin over beta is worth; shallow ones are pulled toward
        // beta so that lucky overshoots do not spread through the table.
        if on(T::FailHighBlend)
            && best >= beta
            && !is_decisive(best)
            && !is_decisive(beta)
            && !is_decisive(alpha)
        {
            best = (best * depth + beta) / (depth + 1);
        }

        best = best.min(tb_cap);
        let bound = if best >= beta {
            TtBound::Lower
        } else if pv_node && !best_move.is_null() {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        if excluded.is_null() && !(root && self.pv_idx > 0) {
            self.ctx()
                .tt
                .store(key, best_move, best, raw_eval, depth, bound, ply);
        }

        // Correction history: where the search settled a quiet position's score on the
        // far side of its static evaluation, remember by how much. A bound says only
        // that the score is beyond it, so a fail high teaches only above the
        // evaluation, a fail low only below.
        if let Some(slots) = slots.filter(|_| {
            on(T::Correction)
                && (best_move.is_null() || !is_noisy(&self.pos, best_move))
                && !is_decisive(best)
                && !(bound == TtBound::Lower && best <= static_eval)
                && !(bound == TtBound::Upper && best >= static_eval)
        }) {
            self.corr.update(&slots, depth, best - static_eval);
        }
        best
    }

    /// The tables' result for this node (reached by a capture or pawn move), as a score
    /// and the bound it gives: `None` when the tables are off, the position has more
    /// pieces than they hold (or exactly as many, above `SyzygyProbeDepth`), castling
    /// rights, or no table answers.
    fn probe_tables(&mut self, ply: usize, depth: i32) -> Option<(i32, TtBound)> {
        use crate::tablebase::Wdl;
        let ctx = self.ctx();
        let pieces = self.pos.occupied().count() as usize;
        if pieces > ctx.tb_cardinality
            || (pieces == ctx.tb_cardinality && depth < ctx.tb_settings.probe_depth)
        {
            return None;
        }
        let wdl = ctx.tb.as_ref()?.probe_wdl_after_zeroing(&self.pos)?;
        ctx.tbhits
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let wdl = if ctx.tb_settings.rule50 {
            wdl
        } else {
            wdl.without_rule50()
        };
        Some(match wdl {
            Wdl::Win => (tb_win_in(ply), TtBound::Lower),
            Wdl::Loss => (tb_loss_in(ply), TtBound::Upper),
            // Drawn by the 50-move rule, but the side that "wins" keeps a chance if the
            // other errs: a hair off zero.
            Wdl::CursedWin => (DRAW + 1, TtBound::Exact),
            Wdl::BlessedLoss => (DRAW - 1, TtBound::Exact),
            Wdl::Draw => (DRAW, TtBound::Exact),
        })
    }

    /// Rewards the move that cut off and punishes the ones tried before it.
    fn update_histories(
        &mut self,
        ply: usize,
        depth: i32,
        best: Move,
        quiets: &[Move],
        captures: &[Move],
        cont: &Continuations,
    ) {
        let bonus = history::bonus(depth);
        let malus = history::malus(depth);
        if !is_noisy(&self.pos, best) {
            let k = &mut self.stack[ply].killers;
            if k[0] != best {
                k[1] = k[0];
                k[0] = best;
            }
            self.update_quiet(best, bonus, cont);
            for &q in quiets {
                self.update_quiet(q, -malus, cont);
            }
        } else if let Some(victim) = self.pos.captured_role(best) {
            let pt = piece_to(&self.pos, best);
            history::apply(self.hist.capture_mut(pt, victim), bonus);
        }
        for &c in captures {
            if let Some(victim) = self.pos.captured_role(c) {
                let pt = piece_to(&self.pos, c);
                history::apply(self.hist.capture_mut(pt, victim), -malus);
            }
        }
    }

    /// The bonus of a cutoff at `depth` for the quiet move made at `ply - 1`, by the
    /// side that made it, in the context of the two moves before it.
    fn reward_prior_quiet(&mut self, ply: usize, depth: i32) {
        let prior = &self.stack[ply - 1];
        let (m, Some(pt)) = (prior.quiet_move, prior.piece_to) else {
            return;
        };
        let cont = self.continuations(ply - 1);
        self.apply_quiet(!self.pos.turn(), m, pt, history::bonus(depth), &cont);
    }

    fn update_quiet(&mut self, m: Move, bonus: i32, cont: &Continuations) {
        let pt = piece_to(&self.pos, m);
        self.apply_quiet(self.pos.turn(), m, pt, bonus, cont);
    }

    /// Adds `bonus` to the quiet history of `side`'s move `m` (its piece landing as `pt`)
    /// and to its continuation histories after the moves of `cont`.
    fn apply_quiet(&mut self, side: Color, m: Move, pt: PieceTo, bonus: i32, cont: &Continuations) {
        history::apply(self.hist.quiet_mut(side, m), bonus);
        for e in [cont.one, cont.two].into_iter().flatten() {
            history::apply(self.hist.continuation_mut(e, pt), bonus);
        }
    }

    fn emit_currmove(&mut self, m: Move, number: usize) {
        let depth = self.root_depth.max(1) as u32;
        self.emit(SearchEvent::CurrMove {
            depth,
            mv: m,
            number: (number + self.pv_idx) as u32,
        });
    }
}
