//! Move-ordering statistics learnt during the search: quiet history (butterfly, by side
//! and from/to), capture history (by piece, target square and captured role) and
//! continuation history (by the piece and square of the move one or two plies earlier
//! and of this move). All entries saturate by the "gravity" update.

use crate::tunables as tp;
use sable_chess::{Color, Move, Position, Role};

/// Entries stay within plus or minus this.
pub const HISTORY_MAX: i32 = 16_384;

/// Index of a (piece, target square) pair: 12 * 64 values.
pub type PieceTo = usize;
pub const PIECE_TO: usize = 12 * 64;

/// The (piece, target) index of a move about to be made in `pos`.
#[inline]
pub fn piece_to(pos: &Position, m: Move) -> PieceTo {
    let piece = pos.moved_piece(m).map_or(0, |p| p.index());
    piece * 64 + m.to().index()
}

/// Saturating update: large bonuses move an entry less the nearer it is to the limit.
#[inline]
pub fn apply(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let e = i32::from(*entry);
    *entry = (e + bonus - e * bonus.abs() / HISTORY_MAX) as i16;
}

/// The bonus for the move that cut off at this remaining depth.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (tp::hist_bonus_mul() * depth - tp::hist_bonus_base()).clamp(0, tp::hist_bonus_max())
}

/// The malus (to be subtracted) for the moves tried before it.
#[inline]
pub fn malus(depth: i32) -> i32 {
    (tp::hist_malus_mul() * depth - tp::hist_malus_base()).clamp(0, tp::hist_malus_max())
}

/// All tables of one search thread.
pub struct Histories {
    /// Indexed `[color][from * 64 + to]`.
    pub quiet: Vec<[i16; 4096]>,
    /// Indexed `[piece_to][captured role]`.
    pub capture: Vec<[i16; 6]>,
    /// Indexed `[earlier piece_to * PIECE_TO + this piece_to]`.
    pub continuation: Vec<i16>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories::new()
    }
}

impl Histories {
    pub fn new() -> Histories {
        Histories {
            quiet: vec![[0; 4096]; 2],
            capture: vec![[0; 6]; PIECE_TO],
            continuation: vec![0; PIECE_TO * PIECE_TO],
        }
    }

    pub fn clear(&mut self) {
        self.quiet.iter_mut().for_each(|t| t.fill(0));
        self.capture.iter_mut().for_each(|t| t.fill(0));
        self.continuation.fill(0);
    }

    #[inline]
    pub fn quiet(&self, side: Color, m: Move) -> i32 {
        i32::from(self.quiet[side.index()][m.from().index() * 64 + m.to().index()])
    }

    #[inline]
    pub fn quiet_mut(&mut self, side: Color, m: Move) -> &mut i16 {
        &mut self.quiet[side.index()][m.from().index() * 64 + m.to().index()]
    }

    #[inline]
    pub fn capture(&self, pt: PieceTo, captured: Role) -> i32 {
        i32::from(self.capture[pt][captured.index()])
    }

    #[inline]
    pub fn capture_mut(&mut self, pt: PieceTo, captured: Role) -> &mut i16 {
        &mut self.capture[pt][captured.index()]
    }

    #[inline]
    pub fn continuation(&self, earlier: Option<PieceTo>, pt: PieceTo) -> i32 {
        earlier.map_or(0, |e| i32::from(self.continuation[e * PIECE_TO + pt]))
    }

    #[inline]
    pub fn continuation_mut(&mut self, earlier: PieceTo, pt: PieceTo) -> &mut i16 {
        &mut self.continuation[earlier * PIECE_TO + pt]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_saturates() {
        let mut e = 0i16;
        for _ in 0..1000 {
            apply(&mut e, bonus(20));
        }
        assert!(i32::from(e) <= HISTORY_MAX && e > 15_000);
        for _ in 0..1000 {
            apply(&mut e, -bonus(20));
        }
        assert!(i32::from(e) >= -HISTORY_MAX && e < -15_000);
    }
}
