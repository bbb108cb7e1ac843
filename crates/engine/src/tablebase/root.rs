//! The root in the tables: every legal move's result and distance to zeroing, and the
//! moves the search may choose from so that the tablebase result is kept.
//!
//! The rule (Stockfish's, made strict where the issue asks for it): a winning position
//! keeps only its DTZ-optimal moves (the fastest capture, pawn move or mate, which wins
//! under the 50-move rule whenever the position does); a drawn one keeps every drawing
//! move; a lost one keeps the moves that lose slowest; with `Syzygy50MoveRule`, a win
//! too slow for the rule (cursed) ranks below real wins and above draws, and a blessed
//! loss above real losses. The search then runs over the moves kept, so among equals the
//! engine plays the move its search likes.

use super::{Tablebases, Wdl};
use crate::score::{self, MAX_PLY};
use sable_chess::{Move, Position};

/// One legal move's result, from the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveResult {
    pub mv: Move,
    /// The result after this move, with the root's halfmove clock counted when
    /// `rule50` is on.
    pub wdl: Wdl,
    /// Plies to the next capture, pawn move or mate along this move, counting the move
    /// itself: positive when winning, negative when losing, 0 for a draw; `None` when
    /// only WDL tables are present.
    pub dtz: Option<i32>,
    /// The move mates at once.
    pub mate: bool,
}

impl MoveResult {
    /// Larger is better for the side to move: the result, then the distance (sooner
    /// when winning, later when losing).
    fn rank(&self) -> (Wdl, i32) {
        let tiebreak = match (self.mate, self.dtz) {
            (true, _) => i32::MAX,
            (false, None) => 0,
            (false, Some(d)) if d > 0 => -d,
            (false, Some(d)) => d.abs(),
        };
        (self.wdl, if self.wdl == Wdl::Draw { 0 } else { tiebreak })
    }
}

/// The root's result and the moves kept for the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootTb {
    /// The moves that keep the result (see the module comment).
    pub moves: Vec<Move>,
    pub wdl: Wdl,
    /// The best move's distance to zeroing, when DTZ tables are present.
    pub dtz: Option<i32>,
    /// The score to report for the root (a tablebase win or loss, or a draw).
    pub score: i32,
    /// Probes made.
    pub probes: u64,
}

impl Tablebases {
    /// Every move of `moves` (legal in `pos`) with its result; `None` when `pos` or any
    /// position after a move is not in the tables.
    pub fn move_results(
        &self,
        pos: &Position,
        moves: &[Move],
        rule50: bool,
    ) -> Option<Vec<MoveResult>> {
        if !pos.castling().is_empty() || pos.occupied().count() as usize > self.max_pieces() {
            return None;
        }
        let cnt50 = pos.halfmoves() as i32;
        let with_dtz = self.files().1 > 0;
        moves
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.make(mv);
                let (dtz, mate) = if child.count_legal() == 0 {
                    (if child.in_check() { 1 } else { 0 }, child.in_check())
                } else if child.halfmoves() == 0 || !with_dtz {
                    // A capture or pawn move resets the clock: the move itself zeroes,
                    // and the child's table result after zeroing decides.
                    let w = self.probe_wdl_after_zeroing(&child)?.flip();
                    let d = match w {
                        Wdl::Win => 1,
                        Wdl::CursedWin => 101,
                        Wdl::Draw => 0,
                        Wdl::BlessedLoss => -101,
                        Wdl::Loss => -1,
                    };
                    if !with_dtz && child.halfmoves() != 0 {
                        // WDL tables only: no distance, the result as stored.
                        let wdl = if rule50 { w } else { w.without_rule50() };
                        return Some(MoveResult {
                            mv,
                            wdl,
                            dtz: None,
                            mate: false,
                        });
                    }
                    (d, false)
                } else {
                    let d = self.probe_dtz(&child)?;
                    (
                        match d.signum() {
                            1 => -(d + 1),
                            -1 => -d + 1,
                            _ => 0,
                        },
                        false,
                    )
                };
                Some(MoveResult {
                    mv,
                    wdl: classify(dtz, cnt50, rule50),
                    dtz: Some(dtz),
                    mate,
                })
            })
            .collect()
    }

    /// Ranks the root moves by the tables (see the module comment); `None` when the
    /// root is not in the tables.
    pub fn rank_root(&self, pos: &Position, moves: &[Move], rule50: bool) -> Option<RootTb> {
        let results = self.move_results(pos, moves, rule50)?;
        let best = results.iter().map(MoveResult::rank).max()?;
        let keep_all_of_class = matches!(best.0, Wdl::Draw | Wdl::CursedWin | Wdl::BlessedLoss);
        let kept: Vec<&MoveResult> = results
            .iter()
            .filter(|r| {
                let rank = r.rank();
                rank == best || (keep_all_of_class && rank.0 == best.0)
            })
            .collect();
        let first = kept[0];
        let wdl = first.wdl;
        let dtz = kept.iter().filter(|r| r.rank() == best).find_map(|r| r.dtz);
        Some(RootTb {
            moves: kept.iter().map(|r| r.mv).collect(),
            wdl,
            dtz,
            score: root_score(wdl, dtz, first.mate),
            probes: results.len() as u64,
        })
    }
}

/// A move's result from its distance to zeroing and the root's halfmove clock: a win
/// whose zeroing move comes after the 50-move rule could be claimed is cursed.
fn classify(dtz: i32, cnt50: i32, rule50: bool) -> Wdl {
    match dtz.signum() {
        1 if !rule50 || dtz + cnt50 <= 100 => Wdl::Win,
        1 => Wdl::CursedWin,
        -1 if !rule50 || -dtz + cnt50 <= 100 => Wdl::Loss,
        -1 => Wdl::BlessedLoss,
        _ => Wdl::Draw,
    }
}

/// The score reported for a root in the tables: a tablebase win (or loss) in the band
/// below mate scores, nearer the top the sooner it zeroes; cursed wins and blessed
/// losses just off zero, as draws that are not quite equal.
fn root_score(wdl: Wdl, dtz: Option<i32>, mate: bool) -> i32 {
    let plies = dtz.map_or(MAX_PLY as i32 - 1, |d| d.abs().min(MAX_PLY as i32 - 1)) as usize;
    match wdl {
        Wdl::Win if mate => score::mate_in(1),
        Wdl::Win => score::tb_win_in(plies),
        Wdl::CursedWin => 1,
        Wdl::Draw => score::DRAW,
        Wdl::BlessedLoss => -1,
        Wdl::Loss => score::tb_loss_in(plies),
    }
}
