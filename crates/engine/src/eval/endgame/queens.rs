//! Queen endings. A queen beats a rook or a minor piece (drive the king to the edge, keep
//! the kings close: the defender's piece falls to a fork or the king is mated) and beats a
//! pawn unless the pawn is about to queen with its king beside it on a rook or bishop
//! file (stalemate and the threat to queen hold the draw). KQKQ without pawns is a draw
//! (`Kind::Even`); with one extra pawn, KQPKQ is mostly drawn by perpetual check.

use super::util::{closeness, dist, file, for_strong, push_to_edge, rank, Frame};
use super::{Verdict, KNOWN_WIN, SCALE_NORMAL};
use sable_chess::{attacks, Color, Position, Role};

/// KQKR: a win; the gradient drives the king to the edge, where the rook gets lost.
/// The one static exception is the skewer: a rook check along a line with the queen
/// behind the king wins the queen, a draw if the king can recapture the rook, else a
/// won KRK for the rook.
pub fn kqkr(pos: &Position, strong: Color) -> Verdict {
    if let Some(score) = rook_skewer(pos, strong) {
        return for_strong(pos, strong, score);
    }
    // The technique: the defending king to the edge, our king close to it (the queen
    // alone cannot win the rook), and the rook driven away from its king, where checks
    // and forks pick it up.
    let (sk, wk) = (pos.king(strong), pos.king(!strong));
    let r = pos.pieces(!strong, Role::Rook).lsb();
    let score = KNOWN_WIN + 450 + 40 * push_to_edge(wk) + 25 * closeness(sk, wk) + 10 * dist(wk, r);
    for_strong(pos, strong, score)
}

/// The queen's side's score after a rook skewer, if one is on the board (the queen's
/// side in check with the queen behind its king) or one move away (the rook's side to
/// move, checking from a square neither the queen nor the king can take it on).
fn rook_skewer(pos: &Position, strong: Color) -> Option<i32> {
    let weak = !strong;
    let (k, wk) = (pos.king(strong), pos.king(weak));
    let q = pos.pieces(strong, Role::Queen).lsb();
    let r = pos.pieces(weak, Role::Rook).lsb();
    let lost = |king_to_queen: i32| {
        if king_to_queen <= 2 {
            0
        } else {
            -(KNOWN_WIN - 300)
        }
    };
    if pos.turn() == strong {
        let skewered = pos.checkers().contains(r) && attacks::between(r, q).contains(k);
        return skewered.then(|| lost(dist(k, q)));
    }
    let occupied = pos.occupied();
    for t in attacks::rook_attacks(r, occupied) - occupied {
        let after = occupied.without(r).with(t);
        let checks = attacks::rook_attacks(t, after).contains(k);
        if !checks || !attacks::between(t, q).contains(k) {
            continue;
        }
        let taken = attacks::queen_attacks(q, after).contains(t) || dist(k, t) <= 1;
        if !taken || dist(wk, t) <= 1 {
            return Some(lost(dist(k, q)));
        }
    }
    None
}

/// KQKB, KQKN: a win; the minor piece far from its king is lost sooner.
pub fn kqkm(pos: &Position, strong: Color) -> Verdict {
    let (sk, wk) = (pos.king(strong), pos.king(!strong));
    let minor = (pos.by_color(!strong) - pos.pieces(!strong, Role::King)).lsb();
    let score =
        KNOWN_WIN + 620 + 40 * push_to_edge(wk) + 10 * closeness(sk, wk) + 5 * dist(wk, minor);
    for_strong(pos, strong, score)
}

/// KQKP. Seen from the queen's side the pawn runs down to the first rank.
pub fn kqkp(pos: &Position, strong: Color) -> Verdict {
    let weak = !strong;
    let pawn = pos.pieces(weak, Role::Pawn).lsb();
    let f = Frame::new(strong, pawn);
    let (sk, wk, q, p) = (
        f.sq(pos.king(strong)),
        f.sq(pos.king(weak)),
        f.sq(pos.pieces(strong, Role::Queen).lsb()),
        f.sq(pawn),
    );
    let promote = sable_chess::Square::from_index(file(p) as usize);
    let weak_to_move = pos.turn() == weak;
    let near = closeness(sk, wk) + closeness(sk, promote);
    if rank(p) == 1 && weak_to_move {
        // A rook or bishop pawn on the seventh with its king beside it: taking the pawn
        // or approaching gives stalemate (rook pawn) or lets the king hide behind it
        // (bishop pawn), so the queen cannot gain the tempi her king needs.
        let rook_or_bishop_file = matches!(file(p), 0 | 2);
        if rook_or_bishop_file && dist(wk, p) == 1 {
            return for_strong(pos, strong, 40 + 5 * near);
        }
        // The pawn queens at once where nothing guards or blocks its square.
        let occupied = f.set(pos.occupied());
        let guarded = attacks::queen_attacks(q, occupied).contains(promote)
            || dist(sk, promote) <= 1
            || occupied.contains(promote);
        if !guarded {
            return for_strong(pos, strong, 40 + 5 * near);
        }
    }
    // Otherwise the queen stops the pawn: the further back it is, the sooner.
    let score = KNOWN_WIN + 800 + 10 * near + 10 * rank(p);
    for_strong(pos, strong, score)
}

/// KQPKQ: the defending queen usually gives perpetual check; the further the pawn, the
/// better the winning chances.
pub fn kqpkq(pos: &Position, strong: Color) -> Verdict {
    let pawn = pos.pieces(strong, Role::Pawn).lsb();
    let r = rank(pawn.relative(strong));
    Verdict::Scale((8 * r).clamp(16, SCALE_NORMAL - 8))
}
