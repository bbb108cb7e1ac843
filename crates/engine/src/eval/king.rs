//! King safety: the pawn shelter in front of the king, enemy pawns storming it, and
//! the danger from enemy pieces attacking its zone.

use super::params::*;
use super::pawns::{ahead, file_mask};
use super::pieces::AttackInfo;
use super::sink::Sink;
use super::tuned::PARAMS;
use sable_chess::{attacks, CastleSide, Color, File, Position, Rank, Role, Square, SquareSet};

/// The shelter and storm pawns on the three files around `king`, as rank indices
/// (relative to `c`, 0 when the file has none).
fn shelter_ranks(pos: &Position, c: Color, king: Square) -> [(usize, usize); 3] {
    let kf = king.file().index().clamp(1, 6); // an edge king looks at the three nearest files
    let in_front = !ahead(!c, king); // the king's rank and everything ahead of it
    let own = pos.pieces(c, Role::Pawn) & in_front;
    let theirs = pos.pieces(!c, Role::Pawn) & in_front;
    let mut out = [(0, 0); 3];
    for (i, f) in (kf - 1..=kf + 1).enumerate() {
        let nearest = |set: SquareSet| {
            let s = set & file_mask(f);
            let sq = if c == Color::White {
                s.first()
            } else {
                s.last()
            };
            sq.map_or(0, |sq| sq.rank().relative(c).index())
        };
        out[i] = (nearest(own), nearest(theirs));
    }
    out
}

fn shelter_mg(ranks: &[(usize, usize); 3]) -> i32 {
    ranks
        .iter()
        .map(|&(s, t)| PARAMS[SHELTER + s].mg() + PARAMS[STORM + t].mg())
        .sum()
}

pub fn evaluate<T: Sink>(pos: &Position, info: &AttackInfo, sink: &mut T) {
    for c in Color::ALL {
        // A king that may still castle counts the better of its shelters.
        let mut ranks = shelter_ranks(pos, c, pos.king(c));
        for (side, file) in [(CastleSide::King, File::G), (CastleSide::Queen, File::C)] {
            if pos.castling().has(c, side) {
                let target = Square::from_coords(file, Rank::FIRST.relative(c));
                let other = shelter_ranks(pos, c, target);
                if shelter_mg(&other) > shelter_mg(&ranks) {
                    ranks = other;
                }
            }
        }
        for (shelter, storm) in ranks {
            sink.add(c, SHELTER + shelter, 1);
            sink.add(c, STORM + storm, 1);
        }
        // Danger to the enemy king from c's pieces: one attacker alone rarely mates.
        let us = c.index();
        let enemy_king = pos.king(!c);
        let occupied = pos.occupied();
        let safe = !(info.all[(!c).index()] | pos.by_color(c));
        let rook_lines = attacks::rook_attacks(enemy_king, occupied);
        let bishop_lines = attacks::bishop_attacks(enemy_king, occupied);
        let checks = [
            attacks::knight_attacks(enemy_king),
            bishop_lines,
            rook_lines,
            rook_lines | bishop_lines,
        ];
        for (i, from) in checks.iter().enumerate() {
            let n = (*from & info.by_role[us][i] & safe).count().min(3) as i32;
            if n > 0 {
                sink.add(c, SAFE_CHECK + i, n);
            }
        }
        if info.king_attackers[us] >= 2 {
            let units = (info.king_units[us] as usize).min(KING_DANGER_SIZE - 1);
            sink.add(c, KING_DANGER + units, 1);
        }
    }
}
