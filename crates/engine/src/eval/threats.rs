//! Threats: pieces attacked by pawns, by minors and rooks (by victim), by the king,
//! and pieces hanging (attacked and not defended).

use super::params::*;
use super::pieces::AttackInfo;
use super::sink::Sink;
use sable_chess::{Color, Position, Role};

const VICTIMS: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

pub fn evaluate<T: Sink>(
    pos: &Position,
    info: &AttackInfo,
    pawn_attacks: &[sable_chess::SquareSet; 2],
    sink: &mut T,
) {
    for c in Color::ALL {
        let (us, them) = (c.index(), (!c).index());
        let their_pieces =
            pos.by_color(!c) - pos.pieces(!c, Role::Pawn) - pos.pieces(!c, Role::King);
        let by_pawn = (their_pieces & pawn_attacks[us]).count() as i32;
        if by_pawn > 0 {
            sink.add(c, THREAT_BY_PAWN, by_pawn);
        }
        for (i, role) in VICTIMS.iter().enumerate() {
            let victims = pos.pieces(!c, *role);
            let n = (victims & info.minors[us]).count() as i32;
            if n > 0 {
                sink.add(c, THREAT_BY_MINOR + i, n);
            }
            let n = (victims & info.rooks[us]).count() as i32;
            if n > 0 {
                sink.add(c, THREAT_BY_ROOK + i, n);
            }
        }
        let undefended = (pos.by_color(!c) - pos.pieces(!c, Role::King)) - info.all[them];
        if (undefended & info.king[us]).any() {
            sink.add(c, THREAT_BY_KING, 1);
        }
        let hanging = (their_pieces & undefended & info.all[us]).count() as i32;
        if hanging > 0 {
            sink.add(c, HANGING, hanging);
        }
    }
}
