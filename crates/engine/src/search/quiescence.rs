//! Quiescence search: resolves captures until the position is quiet enough for the
//! static evaluation to be trusted; in check it searches evasions, quiet ones only until
//! the side to move is known not to be mated.

use super::technique::{on, Technique as T};
use super::{Worker, MAX_PLY};
use crate::correction::Slots;
use crate::history::piece_to;
use crate::movepick::{is_noisy, MovePicker};
use crate::score::{is_decisive, mated_in, DRAW, INFINITE, NONE, TB_BOUND};
use crate::see::{see_ge, value};
use crate::tt::TtBound;
use crate::tunables as tp;
use sable_chess::Move;

impl Worker {
    /// Quiescence search: captures and queen promotions until the position is quiet;
    /// evasions when in check.
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, pv_node: bool) -> i32 {
        self.pv_len[ply] = 0;
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply + 1);
        if self.is_draw(ply) {
            return DRAW;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate() };
        }
        let key = self.pos.key();
        let tt = self.ctx().tt.probe(key, ply);
        if let Some(h) = tt {
            let usable = match h.bound {
                TtBound::Exact => true,
                TtBound::Lower => h.score >= beta,
                TtBound::Upper => h.score <= alpha,
            };
            if !pv_node && usable {
                return h.score;
            }
        }

        // The table keeps the raw evaluation; the search works with the corrected one.
        let (raw_eval, static_eval);
        let mut best;
        let cont = self.continuations(ply);
        if in_check {
            (raw_eval, static_eval) = (NONE, NONE);
            best = -INFINITE;
        } else {
            raw_eval = match tt {
                Some(h) if h.eval != NONE => h.eval,
                _ => self.evaluate(),
            };
            static_eval = self.correct(raw_eval, &Slots::of(&self.pos, cont.one, cont.two));
            best = static_eval;
            if let Some(h) = tt {
                let tighter = match h.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => h.score > best,
                    TtBound::Upper => h.score < best,
                };
                if tighter && !is_decisive(h.score) {
                    best = h.score;
                }
            }
            // Stand pat: the side to move need not capture.
            if best >= beta {
                if tt.is_none() {
                    self.ctx()
                        .tt
                        .store(key, Move::NULL, best, raw_eval, -1, TtBound::Lower, ply);
                }
                return best;
            }
            alpha = alpha.max(best);
        }

        let tt_move = tt.map_or(Move::NULL, |h| h.mv);
        let mut picker = MovePicker::new_quiescence(&self.pos, tt_move);
        let mut best_move = Move::NULL;
        let mut move_count = 0;
        let mut quiet_evasions = 0;
        let futility_base = static_eval + tp::qs_futility();
        while let Some(m) = picker.next(&self.pos, &self.hist, &cont) {
            move_count += 1;
            // Out of check the picker yields noisy moves only.
            let quiet_evasion = in_check && !is_noisy(&self.pos, m);
            if best > -TB_BOUND {
                // Futility pruning in quiescence: even winning the victim for free
                // cannot reach alpha.
                // The check test, the dearest part, runs only for a move that would be
                // pruned.
                if on(T::QsFutility) && !in_check && !m.is_promotion() {
                    let gain = self.pos.captured_role(m).map_or(0, value);
                    if futility_base + gain <= alpha && !self.pos.gives_check(m) {
                        best = best.max(futility_base + gain);
                        continue;
                    }
                }
                // Quiet evasions: once one move is known to escape mate, two quiet
                // evasions (the best by history) are enough to estimate the position;
                // the others are not searched.
                if on(T::QsEvasions) && quiet_evasion && quiet_evasions >= 2 {
                    continue;
                }
                // SEE pruning in quiescence: skip moves that lose material (in check
                // too, once mate is ruled out).
                if on(T::QsSee) && !see_ge(&self.pos, m, -tp::qs_see_margin()) {
                    continue;
                }
            }
            quiet_evasions += usize::from(quiet_evasion);
            self.stack[ply].piece_to = Some(piece_to(&self.pos, m));
            let undo = self.make(m, ply);
            let v = -self.qsearch(-beta, -alpha, ply + 1, pv_node);
            self.unmake(m, &undo);
            if self.stopped {
                return 0;
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
                    alpha = v;
                }
            }
        }
        if in_check && move_count == 0 {
            return mated_in(ply);
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else {
            TtBound::Upper
        };
        self.ctx()
            .tt
            .store(key, best_move, best, raw_eval, 0, bound, ply);
        best
    }
}
