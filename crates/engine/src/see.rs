//! Static exchange evaluation: whether the sequence of captures on one square that a move
//! starts wins at least a threshold, each side always recapturing with its least valuable
//! piece and free to stop when continuing would lose.

use sable_chess::attacks::{bishop_attacks, rook_attacks};
use sable_chess::{Move, MoveKind, Position, Role, SquareSet};

/// Piece values for exchanges (the king is priceless but may take last).
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

#[inline]
pub fn value(role: Role) -> i32 {
    SEE_VALUES[role.index()]
}

/// Whether the exchange started by the legal move `m` gains at least `threshold`.
/// Castling, en passant and promotions are counted as neutral exchanges.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.kind() != MoveKind::Normal {
        return threshold <= 0;
    }
    let (from, to) = (m.from(), m.to());
    let captured = pos.captured_role(m).map_or(0, value);
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    let Some(mover) = pos.role_at(from) else {
        return false;
    };
    swap = value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = pos.occupied() ^ SquareSet::from_square(from) ^ SquareSet::from_square(to);
    let mut stm = pos.turn();
    let mut attackers = pos.attackers_to(to, occupied);
    let diagonal = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let straight = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let mut res = 1;
    loop {
        stm = !stm;
        attackers &= occupied;
        let ours = attackers & pos.by_color(stm);
        if ours.is_empty() {
            break;
        }
        res ^= 1;
        let mut taker = None;
        for role in Role::ALL {
            let bb = ours & pos.by_role(role);
            if let Some(sq) = bb.first() {
                taker = Some((role, sq));
                break;
            }
        }
        let (role, sq) = taker.expect("an attacker exists");
        if role == Role::King {
            // The king may take only if nothing can take it back.
            return if (attackers & pos.by_color(!stm)).any() {
                res ^ 1 != 0
            } else {
                res != 0
            };
        }
        swap = value(role) - swap;
        if swap < res {
            break;
        }
        occupied ^= SquareSet::from_square(sq);
        // Sliders behind the piece that just took now see the square.
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
    }
    res != 0
}

/// The exchange value of `m` (the largest threshold `see_ge` accepts), by bisection;
/// for tests and tools, the search uses `see_ge`.
pub fn see(pos: &Position, m: Move) -> i32 {
    let (mut lo, mut hi) = (-30_000i32, 30_000i32);
    while lo < hi {
        let mid = (lo + hi + 1).div_euclid(2);
        if see_ge(pos, m, mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;
    use sable_chess::CastlingMode;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        see(&pos, m)
    }

    #[test]
    fn known_exchanges() {
        // Undefended pawn: win it.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Pawn defended by a pawn, taken by a rook: lose the exchange (R for P).
        assert_eq!(
            see_of("1k1r4/1pp4p/p4p2/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            -400
        );
        // Knight takes a pawn defended by a knight, with rooks and queens stacked behind:
        // NxP NxN then the batteries trade evenly; net +100 - 320 + 320 ... = -220.
        assert_eq!(
            see_of(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            -220
        );
        // Pawn takes a defended knight: +320 - 100.
        assert_eq!(see_of("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 220);
        // Queen takes a pawn defended by a pawn: loses the queen for a pawn.
        assert_eq!(see_of("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5"), -850);
        // Rook takes a rook defended only by the king, with our second rook behind:
        // RxR KxR is illegal in practice (the x-ray rook defends), so +500.
        assert_eq!(see_of("3rk3/8/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d8"), 500);
        // A quiet move to a safe square is neutral; to an attacked one loses the piece.
        assert_eq!(see_of("4k3/8/3p4/8/8/8/8/2B1K3 w - - 0 1", "c1e3"), 0);
        assert_eq!(see_of("4k3/8/5p2/8/8/8/8/2B1K3 w - - 0 1", "c1g5"), -330);
        // Castling and promotions are neutral.
        assert_eq!(see_of("4k3/P7/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), 0);
        assert_eq!(see_of("4k3/P7/8/8/8/8/8/4K2R w K - 0 1", "a7a8q"), 0);
    }

    #[test]
    fn thresholds_are_consistent() {
        let pos = Position::from_fen(
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            CastlingMode::Standard,
        )
        .unwrap();
        for m in pos.legal_moves().iter().copied() {
            let v = see(&pos, m);
            assert!(see_ge(&pos, m, v));
            assert!(!see_ge(&pos, m, v + 1));
        }
    }
}
