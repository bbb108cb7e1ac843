//! Material, piece-square tables, the game phase, the queen-against-minors imbalance
//! and the tempo bonus.

use super::params::*;
use super::sink::Sink;
use sable_chess::{Color, Position, Role};

/// Phase weight of all pieces at the start; 0 is a pawn (or bare-king) ending.
pub const MAX_PHASE: i32 = 24;

/// 0 (endgame) ..= 24 (all pieces on), from knights/bishops 1, rooks 2, queens 4.
pub fn phase(pos: &Position) -> i32 {
    let n = |r| pos.by_role(r).count() as i32;
    let p = n(Role::Knight) + n(Role::Bishop) + 2 * n(Role::Rook) + 4 * n(Role::Queen);
    p.min(MAX_PHASE)
}

pub fn evaluate<T: Sink>(pos: &Position, sink: &mut T) {
    for c in Color::ALL {
        for role in Role::ALL {
            let set = pos.pieces(c, role);
            if role != Role::King && set.any() {
                sink.add(c, MATERIAL + role.index(), set.count() as i32);
            }
            for sq in set {
                sink.add(c, PST + role.index() * 64 + sq.relative(c).index(), 1);
            }
        }
    }
    sink.add(pos.turn(), TEMPO, 1);
    queen_vs_minors(pos, sink);
}

/// A queen against three minor pieces, the rest equal; its worth depends on the rooks.
fn queen_vs_minors<T: Sink>(pos: &Position, sink: &mut T) {
    let count = |c, r| pos.count(c, r) as i32;
    let minors = |c| count(c, Role::Knight) + count(c, Role::Bishop);
    for c in Color::ALL {
        let queens = count(c, Role::Queen) - count(!c, Role::Queen);
        let minor_deficit = minors(!c) - minors(c);
        let rooks = count(c, Role::Rook);
        if queens == 1 && minor_deficit == 3 && rooks == count(!c, Role::Rook) && rooks <= 2 {
            sink.add(c, QUEEN_VS_MINORS + rooks as usize, 1);
        }
    }
}
