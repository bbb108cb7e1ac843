//! Correction history: how far searches ended from the static evaluation, remembered by
//! features of the position the evaluation misjudges in the same way, and added back to
//! the evaluation of the next position that shares them.
//!
//! Four tables, each by side to move: the pawn structure (the pawn key), each side's
//! pieces other than pawns (a key of their squares, so a misjudged piece placement is
//! recognised whatever the pawns do), and the last two moves (a continuation: what the
//! opponent's reply usually does to the evaluation). Each entry is a running average in
//! 1/`GRAIN` centipawns; the correction is their weighted sum (`tunables::corr_*`).

use crate::history::{PieceTo, PIECE_TO};
use crate::tunables as tp;
use sable_chess::{Color, Position};

/// Entries per side in each keyed table (indexed by the low bits of the key).
pub const SIZE: usize = 16_384;
/// Entries count in 1/`GRAIN` centipawns.
const GRAIN: i32 = 256;
/// An entry stays within plus or minus this (64 cp).
const LIMIT: i32 = 64 * GRAIN;
/// Weights are in 1/`WEIGHT_ONE`.
const WEIGHT_ONE: i32 = 128;

/// Where a position's entries are: computed once per node, used to read and to update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slots {
    side: usize,
    pawn: usize,
    non_pawn: [usize; 2],
    /// `(move two plies back, last move)` as an index into the continuation table.
    cont: Option<usize>,
}

impl Slots {
    /// The slots of `pos`, reached by `one` (the last move) after `two`.
    #[inline]
    pub fn of(pos: &Position, one: Option<PieceTo>, two: Option<PieceTo>) -> Slots {
        let slot = |key: u64| (key % SIZE as u64) as usize;
        Slots {
            side: pos.turn().index(),
            pawn: slot(pos.pawn_key()),
            non_pawn: [
                slot(u64::from(pos.non_pawn_key(Color::White))),
                slot(u64::from(pos.non_pawn_key(Color::Black))),
            ],
            cont: match (one, two) {
                (Some(a), Some(b)) => Some(b * PIECE_TO + a),
                _ => None,
            },
        }
    }
}

/// The correction tables of one search thread.
pub struct Corrections {
    pawn: Vec<[i16; SIZE]>,
    /// Indexed `[side][color]`.
    non_pawn: Vec<[[i16; SIZE]; 2]>,
    /// Indexed `[side][two plies back × PIECE_TO + last]`.
    cont: Vec<Vec<i16>>,
}

impl Default for Corrections {
    fn default() -> Self {
        Corrections::new()
    }
}

/// The gravity update of history tables, at this table's scale.
#[inline]
fn apply(entry: &mut i16, bonus: i32) {
    let e = i32::from(*entry);
    *entry = (e + bonus - e * bonus.abs() / LIMIT).clamp(-LIMIT, LIMIT) as i16;
}

impl Corrections {
    pub fn new() -> Corrections {
        Corrections {
            pawn: vec![[0; SIZE]; 2],
            non_pawn: vec![[[0; SIZE]; 2]; 2],
            cont: vec![vec![0; PIECE_TO * PIECE_TO]; 2],
        }
    }

    pub fn clear(&mut self) {
        self.pawn.iter_mut().for_each(|t| t.fill(0));
        self.non_pawn.iter_mut().flatten().for_each(|t| t.fill(0));
        self.cont.iter_mut().for_each(|t| t.fill(0));
    }

    /// The correction in centipawns for the position at `s`.
    #[inline]
    pub fn correction(&self, s: &Slots) -> i32 {
        let side = s.side;
        let mut sum = tp::corr_pawn() * i32::from(self.pawn[side][s.pawn]);
        for c in 0..2 {
            sum += tp::corr_non_pawn() * i32::from(self.non_pawn[side][c][s.non_pawn[c]]);
        }
        if let Some(i) = s.cont {
            sum += tp::corr_cont() * i32::from(self.cont[side][i]);
        }
        sum / (WEIGHT_ONE * GRAIN)
    }

    /// Records that a search to `depth` of the position at `s` ended `error`
    /// centipawns from its corrected evaluation (positive: better than it looked).
    pub fn update(&mut self, s: &Slots, depth: i32, error: i32) {
        let bonus = (error * GRAIN * depth / tp::corr_depth_div()).clamp(-LIMIT / 4, LIMIT / 4);
        let side = s.side;
        apply(&mut self.pawn[side][s.pawn], bonus);
        for c in 0..2 {
            apply(&mut self.non_pawn[side][c][s.non_pawn[c]], bonus);
        }
        if let Some(i) = s.cont {
            apply(&mut self.cont[side][i], bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sable_chess::CastlingMode;

    fn fen(f: &str) -> Position {
        Position::from_fen(f, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn learns_its_own_side_within_bounds_and_clears() {
        let mut corr = Corrections::new();
        let pos = Position::startpos();
        let s = Slots::of(&pos, Some(3), Some(700));
        assert_eq!(corr.correction(&s), 0);
        // Searches that keep finding the position 100 cp better than it looks pull the
        // correction towards +100, never past the weighted sum of the entries' limits.
        for _ in 0..500 {
            let error = 100 - corr.correction(&s);
            corr.update(&s, 10, error);
        }
        let c = corr.correction(&s);
        let cap = (tp::corr_pawn() + 2 * tp::corr_non_pawn() + tp::corr_cont()) * 64 / 128;
        assert!(c > 90 && c <= 100.min(cap), "{c}");
        // Black to move in the same position has entries of its own.
        let black = fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(corr.correction(&Slots::of(&black, Some(3), Some(700))), 0);
        // Without the continuation, only its part is missing.
        let no_cont = corr.correction(&Slots::of(&pos, None, None));
        assert!(no_cont > 0 && no_cont < c, "{no_cont} {c}");
        // Errors of the other sign bring it below zero.
        for _ in 0..500 {
            corr.update(&s, 10, -300);
        }
        let c = corr.correction(&s);
        assert!(c < 0 && c >= -cap, "{c}");
        corr.clear();
        assert_eq!(corr.correction(&s), 0);
    }
}
