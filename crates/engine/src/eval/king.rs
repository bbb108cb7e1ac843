//! King safety: the pawn shelter in front of the king, enemy pawns storming it, and
//! the danger from enemy pieces attacking its zone.

use super::params::*;
use super::pawns::{ahead, file_mask};
use super::pieces::AttackInfo;
use super::sink::Sink;
use sable_chess::{Color, Position, Role};

pub fn evaluate<T: Sink>(pos: &Position, info: &AttackInfo, sink: &mut T) {
    for c in Color::ALL {
        let king = pos.king(c);
        let kf = king.file().index();
        let in_front = !ahead(!c, king); // the king's rank and everything ahead of it
        let own = pos.pieces(c, Role::Pawn) & in_front;
        let theirs = pos.pieces(!c, Role::Pawn) & in_front;
        for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
            let nearest = |set: sable_chess::SquareSet| {
                let s = set & file_mask(f);
                if c == Color::White {
                    s.first()
                } else {
                    s.last()
                }
            };
            let shelter = nearest(own).map_or(0, |sq| sq.rank().relative(c).index());
            sink.add(c, SHELTER + shelter, 1);
            let storm = nearest(theirs).map_or(0, |sq| sq.rank().relative(c).index());
            sink.add(c, STORM + storm, 1);
        }
        // Danger to the enemy king from c's pieces: one attacker alone rarely mates.
        let us = c.index();
        if info.king_attackers[us] >= 2 {
            let units = (info.king_units[us] as usize).min(KING_DANGER_SIZE - 1);
            sink.add(c, KING_DANGER + units, 1);
        }
    }
}
