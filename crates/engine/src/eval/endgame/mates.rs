//! Mate drivers against a lone king: the stronger side wins by technique, and the score
//! rises as the lone king goes to the edge (or the right corner) and the kings close in,
//! because every mate with these pieces happens there.

use super::util::{closeness, corner_distance, edge_distance, for_strong, nominal, push_to_edge};
use super::{Verdict, KNOWN_WIN};
use sable_chess::{Color, Position, Role, SquareSet};

/// A queen or rook (with anything): mate on any edge square.
pub fn kxk(pos: &Position, strong: Color) -> Verdict {
    let (sk, wk) = (pos.king(strong), pos.king(!strong));
    let score = KNOWN_WIN + nominal(pos, strong) + 40 * push_to_edge(wk) + 10 * closeness(sk, wk);
    for_strong(pos, strong, score)
}

/// Bishop and knight: mate happens only in a corner of the bishop's colour.
pub fn kbnk(pos: &Position, strong: Color) -> Verdict {
    let (sk, wk) = (pos.king(strong), pos.king(!strong));
    let dark = pos.pieces(strong, Role::Bishop).intersects(SquareSet::DARK);
    let score = KNOWN_WIN
        + nominal(pos, strong)
        + 50 * (7 - corner_distance(wk, dark))
        + 10 * (6 - edge_distance(wk))
        + 10 * closeness(sk, wk);
    for_strong(pos, strong, score)
}

/// Two bishops on opposite colours mate in any corner (bishops on one colour never do:
/// `is_insufficient_material` answers those before the table is probed).
pub fn kbbk(pos: &Position, strong: Color) -> Verdict {
    let (sk, wk) = (pos.king(strong), pos.king(!strong));
    let bishops = pos.pieces(strong, Role::Bishop);
    if !bishops.intersects(SquareSet::DARK) || !bishops.intersects(SquareSet::LIGHT) {
        return Verdict::Score(0);
    }
    let corner = corner_distance(wk, true).min(corner_distance(wk, false));
    let score = KNOWN_WIN
        + nominal(pos, strong)
        + 40 * (7 - corner)
        + 10 * push_to_edge(wk)
        + 10 * closeness(sk, wk);
    for_strong(pos, strong, score)
}
