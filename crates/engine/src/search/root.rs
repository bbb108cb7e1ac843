//! The root move list and the rule that turns it into the move played.
//!
//! A search can end at any node: on the clock, on `stop`, on a node limit. What it has
//! then is a finished iteration (its lines kept as [`Line`]s) and an unfinished one, in
//! which some root moves have been searched completely and most have not. The move played
//! is always either the best move of the last completed iteration, or a move of the
//! unfinished iteration that was searched completely and proved better; the line
//! reported for it is the one of the search that chose it, with its bound. Scores of
//! earlier, shallower iterations never decide anything: they only order the moves.

use crate::line::Line;
use crate::report::Bound;
use crate::score::INFINITE;
use sable_chess::Move;

/// A root move with its results in the iteration under way.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    /// Score at the current depth; `-INFINITE` until the move has been searched
    /// completely at this depth and was either searched first or raised alpha (a move
    /// that fails low against the best so far learns nothing usable).
    pub score: i32,
    /// `score` of the previous iteration (`-INFINITE` if it failed low there): the
    /// aspiration window's centre.
    pub prev_score: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// What `score` is: exact, or a bound from an aspiration window that failed.
    pub bound: Bound,
    /// Nodes searched below this move over the whole search: the time manager's measure
    /// of how sure the search is of it.
    pub nodes: u64,
}

impl RootMove {
    pub fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            prev_score: -INFINITE,
            seldepth: 0,
            pv: vec![mv],
            bound: Bound::Exact,
            nodes: 0,
        }
    }

    /// Whether this move has a result at the current depth.
    pub fn searched(&self) -> bool {
        self.score != -INFINITE
    }

    /// This move's line at `depth`; it must have been searched at that depth.
    pub fn line(&self, depth: i32) -> Line {
        debug_assert!(self.searched());
        Line {
            mv: self.mv,
            score: self.score,
            bound: self.bound,
            depth,
            seldepth: self.seldepth,
            pv: self.pv.clone(),
        }
    }
}

/// Starts an iteration: every move forgets its result, keeping it as the previous score.
pub(crate) fn begin_iteration(root_moves: &mut [RootMove]) {
    for rm in root_moves.iter_mut() {
        rm.prev_score = rm.score;
        rm.score = -INFINITE;
        rm.bound = Bound::Exact;
    }
}

/// Orders root moves best first by their score at this depth. The sort is stable, so
/// the moves without a result keep the order they were searched in (the previous
/// iteration's ranking), which is what the next search should try first.
pub(crate) fn sort(root_moves: &mut [RootMove]) {
    root_moves.sort_by_key(|r| std::cmp::Reverse(r.score));
}

/// The lines to report and play, best first, at most `multipv` of them.
///
/// `completed` holds the lines of the last completed iteration. `current` is the root
/// move list sorted by [`sort`]; when `aborted` is false it is the completed iteration
/// itself. When the iteration at `depth` was cut short while searching line `pv_idx`,
/// the lines above `pv_idx` are finished results at `depth`; line `pv_idx` is the best
/// move searched completely at `depth` if there is one (it is the previous best, or a
/// move that beat it or the window), and otherwise the completed iteration's line; the
/// remaining lines come from the completed iteration. A fail low (an upper bound) proves
/// nothing better, so it stands only for the completed iteration's move of that line:
/// a move that failed high in one window and low in the wider re-search does not.
pub(crate) fn result_lines(
    current: &[RootMove],
    completed: &[Line],
    aborted: bool,
    pv_idx: usize,
    depth: i32,
    multipv: usize,
) -> Vec<Line> {
    let multipv = multipv.clamp(1, current.len().max(1));
    if !aborted {
        return completed.iter().take(multipv).cloned().collect();
    }
    let mut lines: Vec<Line> = Vec::with_capacity(multipv);
    for (i, rm) in current.iter().take(pv_idx + 1).enumerate() {
        let unproven = rm.bound == Bound::Upper && completed.get(i).is_some_and(|l| l.mv != rm.mv);
        if rm.searched() && !unproven {
            lines.push(rm.line(depth));
        }
    }
    for line in completed {
        if lines.len() >= multipv {
            break;
        }
        if lines.iter().all(|l| l.mv != line.mv) {
            lines.push(line.clone());
        }
    }
    // No completed iteration (a search stopped in its very first one): the first move
    // in search order, with no score to claim.
    if lines.is_empty() {
        if let Some(rm) = current.first() {
            lines.push(Line {
                mv: rm.mv,
                score: rm.score.max(-INFINITE + 1),
                bound: Bound::Upper,
                depth: 0,
                seldepth: 0,
                pv: vec![rm.mv],
            });
        }
    }
    lines.truncate(multipv);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use sable_chess::{CastlingMode, Position};

    fn moves(ucis: &[&str]) -> Vec<Move> {
        let pos = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            CastlingMode::Standard,
        )
        .unwrap();
        ucis.iter().map(|u| pos.parse_uci(u).unwrap()).collect()
    }

    fn line(mv: Move, score: i32, depth: i32) -> Line {
        Line {
            mv,
            score,
            bound: Bound::Exact,
            depth,
            seldepth: depth as usize + 4,
            pv: vec![mv],
        }
    }

    /// Root moves after iteration 13 chose e2e4 (29) over d2d3, whose best score (35)
    /// came from iteration 2 and which failed low ever since.
    fn start_of_iteration_14() -> (Vec<RootMove>, Vec<Line>) {
        let m = moves(&["e2e4", "g1f3", "d2d3"]);
        let mut rms: Vec<RootMove> = m.iter().map(|&mv| RootMove::new(mv)).collect();
        rms[0].score = 29;
        rms[1].score = -INFINITE;
        rms[2].score = -INFINITE;
        rms[2].prev_score = 35;
        let completed = vec![line(m[0], 29, 13)];
        begin_iteration(&mut rms);
        (rms, completed)
    }

    #[test]
    fn an_iteration_stopped_before_its_first_move_plays_the_completed_choice() {
        let (mut rms, completed) = start_of_iteration_14();
        sort(&mut rms);
        let lines = result_lines(&rms, &completed, true, 0, 14, 1);
        assert_eq!(lines, completed);
        // A stale score never reorders the moves: e2e4 stays first to be searched.
        assert_eq!(rms[0].mv, completed[0].mv);
    }

    #[test]
    fn a_move_that_beat_the_previous_best_is_played_with_its_line() {
        let (mut rms, completed) = start_of_iteration_14();
        // e2e4 searched first at depth 14 (20), then g1f3 raised alpha (31).
        rms[0].score = 20;
        rms[1].score = 31;
        rms[1].pv = moves(&["g1f3"]);
        sort(&mut rms);
        let lines = result_lines(&rms, &completed, true, 0, 14, 1);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].mv, rms[0].mv);
        assert_eq!((lines[0].score, lines[0].depth), (31, 14));
        assert_eq!(lines[0].bound, Bound::Exact);
    }

    #[test]
    fn a_fail_low_being_re_searched_keeps_the_move_with_its_bound() {
        let (mut rms, completed) = start_of_iteration_14();
        // e2e4 failed low (at most 5); nothing else raised alpha; the wider re-search
        // was stopped before e2e4 finished again.
        rms[0].score = 5;
        rms[0].bound = Bound::Upper;
        sort(&mut rms);
        let lines = result_lines(&rms, &completed, true, 0, 14, 1);
        assert_eq!(lines[0].mv, completed[0].mv);
        assert_eq!(
            (lines[0].score, lines[0].bound, lines[0].depth),
            (5, Bound::Upper, 14)
        );
    }

    #[test]
    fn a_move_that_failed_high_then_low_does_not_replace_the_completed_choice() {
        let (mut rms, completed) = start_of_iteration_14();
        // g1f3 failed high in the first window and went first; the wider re-search
        // found it failing low and was stopped before anything else finished.
        rms[1].score = -115;
        rms[1].bound = Bound::Upper;
        sort(&mut rms);
        assert_eq!(rms[0].mv, moves(&["g1f3"])[0]);
        let lines = result_lines(&rms, &completed, true, 0, 14, 1);
        assert_eq!(lines, vec![completed[0].clone()]);
    }

    #[test]
    fn a_fail_high_is_played_as_a_lower_bound() {
        let (mut rms, completed) = start_of_iteration_14();
        rms[0].score = 20;
        rms[2].score = 60;
        rms[2].bound = Bound::Lower;
        sort(&mut rms);
        let lines = result_lines(&rms, &completed, true, 0, 14, 1);
        assert_eq!(lines[0].mv, moves(&["d2d3"])[0]);
        assert_eq!(lines[0].bound, Bound::Lower);
    }

    #[test]
    fn multipv_keeps_finished_lines_and_fills_from_the_completed_iteration() {
        let m = moves(&["e2e4", "d2d4", "g1f3", "c2c4"]);
        let completed = vec![line(m[0], 30, 9), line(m[1], 25, 9), line(m[2], 20, 9)];
        let mut rms: Vec<RootMove> = m.iter().map(|&mv| RootMove::new(mv)).collect();
        // Iteration 10: line 1 finished (d2d4 now best), line 2 under way with nothing
        // finished.
        rms[1].score = 33;
        sort(&mut rms);
        let lines = result_lines(&rms, &completed, true, 1, 10, 3);
        let got: Vec<(Move, i32)> = lines.iter().map(|l| (l.mv, l.depth)).collect();
        assert_eq!(got, vec![(m[1], 10), (m[0], 9), (m[2], 9)]);
    }

    #[test]
    fn a_completed_search_reports_its_lines() {
        let m = moves(&["e2e4"]);
        let completed = vec![line(m[0], 30, 9)];
        let rms = vec![RootMove::new(m[0])];
        assert_eq!(result_lines(&rms, &completed, false, 0, 9, 1), completed);
    }
}
