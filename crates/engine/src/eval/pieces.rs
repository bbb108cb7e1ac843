//! Piece activity: mobility, rooks and queens on open files, the bishop pair; it also
//! gathers the attack maps that king safety and threats read.

use super::params::*;
use super::pawns::{adjacent_files, ahead, PawnEntry};
use super::sink::Sink;
use sable_chess::{attacks, Color, Position, Role, SquareSet};

/// Attack maps and king-attack tallies per side, filled by [`evaluate`].
#[derive(Default)]
pub struct AttackInfo {
    pub all: [SquareSet; 2],
    pub minors: [SquareSet; 2],
    pub rooks: [SquareSet; 2],
    pub king: [SquareSet; 2],
    /// Squares attacked by the side's knights, bishops, rooks, queens.
    pub by_role: [[SquareSet; 4]; 2],
    /// How many of the side's pieces attack the enemy king's zone, and their weight.
    pub king_attackers: [i32; 2],
    pub king_units: [i32; 2],
}

/// King-attack weight of a piece reaching the enemy king's zone (knight..queen).
const ATTACK_WEIGHT: [i32; 5] = [0, 2, 2, 3, 5];

pub fn king_zone(pos: &Position, color: Color) -> SquareSet {
    let k = pos.king(color);
    attacks::king_attacks(k) | k
}

/// A square on the opponent's side, guarded by a pawn, that no enemy pawn can ever attack.
fn outpost(pos: &Position, pawns: &PawnEntry, c: Color, sq: sable_chess::Square) -> bool {
    let rank = sq.rank().relative(c).index();
    (3..=5).contains(&rank)
        && pawns.attacks[c.index()].contains(sq)
        && !pos
            .pieces(!c, Role::Pawn)
            .intersects(adjacent_files(sq.file().index()) & ahead(c, sq))
}

pub fn evaluate<T: Sink>(pos: &Position, pawns: &PawnEntry, sink: &mut T) -> AttackInfo {
    let mut info = AttackInfo::default();
    let occupied = pos.occupied();
    for c in Color::ALL {
        let us = c.index();
        let them_zone = king_zone(pos, !c);
        let area = !(pos.pieces(c, Role::Pawn) | pos.king(c) | pawns.attacks[(!c).index()]);
        let king_att = attacks::king_attacks(pos.king(c));
        info.king[us] = king_att;
        info.all[us] = pawns.attacks[us] | king_att;
        let open = pawns.no_pawns[0] & pawns.no_pawns[1];
        let semi_open = pawns.no_pawns[us];
        for (role, mob_base) in [
            (Role::Knight, MOB_KNIGHT),
            (Role::Bishop, MOB_BISHOP),
            (Role::Rook, MOB_ROOK),
            (Role::Queen, MOB_QUEEN),
        ] {
            for sq in pos.pieces(c, role) {
                let att = attacks::attacks(role, c, sq, occupied);
                sink.add(c, mob_base + (att & area).count() as usize, 1);
                info.all[us] |= att;
                info.by_role[us][role.index() - 1] |= att;
                match role {
                    Role::Knight | Role::Bishop => info.minors[us] |= att,
                    Role::Rook => info.rooks[us] |= att,
                    _ => {}
                }
                if att.intersects(them_zone) {
                    info.king_attackers[us] += 1;
                    info.king_units[us] += ATTACK_WEIGHT[role.index()];
                }
                if matches!(role, Role::Knight | Role::Bishop) && outpost(pos, pawns, c, sq) {
                    sink.add(c, OUTPOST + role.index() - 1, 1);
                }
                if matches!(role, Role::Rook | Role::Queen) {
                    let file = 1u8 << sq.file().index();
                    let (open_param, semi_param) = if role == Role::Rook {
                        (ROOK_OPEN, ROOK_SEMI_OPEN)
                    } else {
                        (QUEEN_OPEN, QUEEN_SEMI_OPEN)
                    };
                    if open & file != 0 {
                        sink.add(c, open_param, 1);
                    } else if semi_open & file != 0 {
                        sink.add(c, semi_param, 1);
                    }
                }
            }
        }
        let bishops = pos.pieces(c, Role::Bishop);
        if bishops.intersects(SquareSet::DARK) && bishops.intersects(SquareSet::LIGHT) {
            sink.add(c, BISHOP_PAIR, 1);
        }
    }
    for c in Color::ALL {
        let zone = king_zone(pos, !c);
        info.king_units[c.index()] += (info.all[c.index()] & zone).count() as i32;
    }
    info
}
