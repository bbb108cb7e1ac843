//! Search scores: centipawns, exact mate distances and draws in one `i32`, their
//! adjustment by ply for the transposition table, and their translation for reports.

use crate::report::{ScoreReport, Wdl};

/// Deepest ply the search reaches; arrays indexed by ply have this many entries (plus slack).
pub const MAX_PLY: usize = 128;
/// Checkmate at the root: mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Larger than any score: the initial window.
pub const INFINITE: i32 = 32_001;
/// Scores at least this large (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// A tablebase win at the root: the band `TB_BOUND..=TB_WIN` lies just below the mate
/// scores, so a proven win by the tables outranks any evaluation and loses only to a mate.
pub const TB_WIN: i32 = MATE_BOUND - 1 - MAX_PLY as i32;
/// Scores at least this large (in absolute value) are tablebase wins or mates: decided.
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// Tablebase wins are reported as this many centipawns less their distance in plies
/// (200 pawns: far above any evaluation, below what GUIs show as mate).
pub const TB_REPORT_CP: i32 = 20_000;
/// A draw.
pub const DRAW: i32 = 0;
/// Marks "no static evaluation" (in check).
pub const NONE: i32 = 32_002;

/// Score for the side to move, mated at `ply`.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Score for the side to move, mating at `ply`.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// A tablebase win found at `ply` (the nearer, the higher).
#[inline]
pub const fn tb_win_in(ply: usize) -> i32 {
    TB_WIN - ply as i32
}

/// A tablebase loss found at `ply`.
#[inline]
pub const fn tb_loss_in(ply: usize) -> i32 {
    -TB_WIN + ply as i32
}

/// Whether a score is decided: a mate or a tablebase win for either side. Pruning that
/// trusts an estimate never returns such a score.
#[inline]
pub const fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_BOUND
}

/// Whether a score is a mate score for either side.
#[inline]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Converts a search score at `ply` into the form stored in the table: mate (and
/// tablebase win) distances are counted from the stored node, not from the root, so that
/// a transposition at another ply reads back the right distance.
#[inline]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`]: a stored score read back at `ply`.
#[inline]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score - ply as i32
    } else if score <= -TB_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Clamps a static evaluation out of the decided (mate and tablebase) range.
#[inline]
pub fn clamp_eval(v: i32) -> i32 {
    v.clamp(-TB_BOUND + 1, TB_BOUND - 1)
}

/// The score as a report: centipawns or signed mate distance in moves; a tablebase win
/// as [`TB_REPORT_CP`] less its distance in plies.
pub fn report(score: i32) -> ScoreReport {
    if score >= MATE_BOUND {
        ScoreReport::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        ScoreReport::Mate(-(MATE + score) / 2)
    } else if score >= TB_BOUND {
        ScoreReport::Cp(TB_REPORT_CP - (TB_WIN - score))
    } else if score <= -TB_BOUND {
        ScoreReport::Cp(-TB_REPORT_CP + (TB_WIN + score))
    } else {
        ScoreReport::Cp(score)
    }
}

/// A rough win/draw/loss estimate in permille, from a logistic curve of the score.
/// The curve's constants are a plain guess, not fitted to our games.
pub fn wdl(score: i32) -> Wdl {
    if score >= TB_BOUND {
        return Wdl {
            win: 1000,
            draw: 0,
            loss: 0,
        };
    }
    if score <= -TB_BOUND {
        return Wdl {
            win: 0,
            draw: 0,
            loss: 1000,
        };
    }
    let curve = |cp: f64| 1000.0 / (1.0 + (-(cp - 150.0) / 70.0).exp());
    let win = curve(score as f64).round() as u32;
    let loss = curve(-score as f64).round() as u32;
    let win = win.min(1000);
    let loss = loss.min(1000 - win);
    Wdl {
        win,
        draw: 1000 - win - loss,
        loss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_reports_count_moves() {
        assert_eq!(report(mate_in(1)), ScoreReport::Mate(1));
        assert_eq!(report(mate_in(3)), ScoreReport::Mate(2));
        assert_eq!(report(mate_in(5)), ScoreReport::Mate(3));
        assert_eq!(report(mated_in(2)), ScoreReport::Mate(-1));
        assert_eq!(report(mated_in(4)), ScoreReport::Mate(-2));
        assert_eq!(report(mated_in(0)), ScoreReport::Mate(0));
        assert_eq!(report(37), ScoreReport::Cp(37));
        assert_eq!(report(-TB_BOUND + 1), ScoreReport::Cp(-TB_BOUND + 1));
        assert_eq!(report(tb_win_in(3)), ScoreReport::Cp(TB_REPORT_CP - 3));
        assert_eq!(report(tb_loss_in(4)), ScoreReport::Cp(-TB_REPORT_CP + 4));
    }

    #[test]
    fn tt_adjustment_round_trips_and_rebases() {
        // A mate found 7 plies below a node stored at ply 3 is "mate in 7 from here".
        let at_root = mate_in(10);
        let stored = to_tt(at_root, 3);
        assert_eq!(stored, mate_in(7));
        assert_eq!(from_tt(stored, 3), at_root);
        // Read back by a transposition at ply 5 it is mate at ply 12 from the root.
        assert_eq!(from_tt(stored, 5), mate_in(12));
        // The same for being mated.
        let lost = mated_in(9);
        let stored = to_tt(lost, 4);
        assert_eq!(stored, mated_in(5));
        assert_eq!(from_tt(stored, 4), lost);
        assert_eq!(from_tt(stored, 1), mated_in(6));
        // Plain scores and draws pass through unchanged.
        for s in [-TB_BOUND + 1, -250, DRAW, 1, 999, TB_BOUND - 1] {
            for ply in [0, 1, 17, MAX_PLY - 1] {
                assert_eq!(to_tt(s, ply), s);
                assert_eq!(from_tt(s, ply), s);
            }
        }
        // Every mate score round-trips at every ply.
        for d in 0..MAX_PLY {
            for ply in 0..=d {
                assert_eq!(from_tt(to_tt(mate_in(d), ply), ply), mate_in(d));
                assert_eq!(from_tt(to_tt(mated_in(d), ply), ply), mated_in(d));
                assert_eq!(from_tt(to_tt(tb_win_in(d), ply), ply), tb_win_in(d));
                assert_eq!(from_tt(to_tt(tb_loss_in(d), ply), ply), tb_loss_in(d));
            }
        }
        // The tablebase band stays below mates and above any evaluation.
        assert!(tb_win_in(MAX_PLY) >= TB_BOUND && TB_WIN < MATE_BOUND);
    }

    #[test]
    fn wdl_sums_to_thousand_and_is_monotone() {
        let mut last_win = 0;
        for cp in (-2000..=2000).step_by(50) {
            let w = wdl(cp);
            assert_eq!(w.win + w.draw + w.loss, 1000, "at {cp}");
            assert!(w.win >= last_win);
            last_win = w.win;
        }
        let even = wdl(0);
        assert_eq!(even.win, even.loss);
    }
}
