//! Minor piece endings with pawns. A minor and a pawn beat the lone king unless the pawn
//! is a rook pawn whose corner the piece cannot help: the wrong bishop (the queening
//! square not of its colour) or the knight against a king in the corner. Against a
//! defending minor one pawn wins only if the defender can neither blockade it with the
//! king nor sacrifice the piece for it; two knights win against a pawn only if it is
//! blockaded behind the Troitzky line.

use super::scale::wrong_bishop;
use super::util::{
    bishop_sees, closeness, dist, file, for_strong, front_span, push_to_edge, queening, rank,
    same_colour, Frame,
};
use super::{Verdict, KNOWN_WIN, SCALE_NORMAL};
use sable_chess::{Color, Position, Role, Square};

/// KBPK: a win unless the wrong rook-pawn bishop meets a king that reaches the corner.
pub fn kbpk(pos: &Position, strong: Color) -> Verdict {
    let pawn = pos.pieces(strong, Role::Pawn).lsb();
    if wrong_bishop(pos, strong).is_some() {
        return for_strong(pos, strong, 10);
    }
    let rel = rank(pawn.relative(strong));
    let score = KNOWN_WIN + 100 + 20 * rel + 5 * closeness(pos.king(strong), pawn);
    for_strong(pos, strong, score)
}

/// KNPK: a win, except a rook pawn on the seventh with the king on or beside the
/// queening square (the knight cannot drive it out without stalemate), or with its own
/// king shut in on the queening square.
pub fn knpk(pos: &Position, strong: Color) -> Verdict {
    let pawn = pos.pieces(strong, Role::Pawn).lsb();
    let f = Frame::new(strong, pawn);
    let (p, wk) = (f.sq(pawn), f.sq(pos.king(!strong)));
    if file(p) == 0 && rank(p) == 6 && dist(wk, queening(p)) <= 1 {
        return for_strong(pos, strong, 10);
    }
    // The king on a8 in front of its a7-pawn, shut in by the other king on c7 or c8:
    // the knight cannot free it.
    let sk = f.sq(pos.king(strong));
    let shut_in = [Square::C7, Square::C8]
        .iter()
        .map(|&s| dist(wk, s))
        .min()
        .unwrap_or(7)
        - i32::from(pos.turn() != strong);
    if file(p) == 0 && rank(p) == 6 && sk == queening(p) && shut_in <= 0 {
        return for_strong(pos, strong, 10);
    }
    let score = KNOWN_WIN + 100 + 20 * rank(p) + 5 * closeness(pos.king(strong), pawn);
    for_strong(pos, strong, score)
}

/// KBPKP: the wrong rook-pawn bishop draws whatever the defender's pawn does (the king
/// in the corner cannot be driven out); otherwise the normal evaluation.
pub fn kbpkp(pos: &Position, strong: Color) -> Verdict {
    Verdict::Scale(wrong_bishop(pos, strong).unwrap_or(SCALE_NORMAL))
}

/// KBPKB: a king on the pawn's path that no check can drive away (it stands on the
/// other colour than the bishop, or is not yet on the last two ranks) holds; with
/// opposite bishops the defending bishop also holds by watching the path from afar, and
/// a pawn not past the fifth never gets through.
pub fn kbpkb(pos: &Position, strong: Color) -> Verdict {
    let weak = !strong;
    let pawn = pos.pieces(strong, Role::Pawn).lsb();
    let f = Frame::new(strong, pawn);
    let (p, wk, sb, wb) = (
        f.sq(pawn),
        f.sq(pos.king(weak)),
        f.sq(pos.pieces(strong, Role::Bishop).lsb()),
        f.sq(pos.pieces(weak, Role::Bishop).lsb()),
    );
    let path = front_span(p);
    if path.contains(wk) && (!same_colour(wk, sb) || rank(wk) <= 5) {
        return Verdict::Scale(0);
    }
    if !same_colour(sb, wb) {
        let occupied = f.set(pos.occupied());
        let watches = path.iter().any(|s| bishop_sees(wb, s, occupied)) && dist(wb, p) >= 3;
        if rank(p) <= 4 || path.contains(wk) || watches {
            return Verdict::Scale(0);
        }
    }
    Verdict::Scale(SCALE_NORMAL)
}

/// KBPKN: the king on the pawn's path holds unless the bishop can drive it away (it
/// stands on the bishop's colour on the seventh or eighth rank).
pub fn kbpkn(pos: &Position, strong: Color) -> Verdict {
    let pawn = pos.pieces(strong, Role::Pawn).lsb();
    let f = Frame::new(strong, pawn);
    let (p, wk, sb) = (
        f.sq(pawn),
        f.sq(pos.king(!strong)),
        f.sq(pos.pieces(strong, Role::Bishop).lsb()),
    );
    if front_span(p).contains(wk) && (!same_colour(wk, sb) || rank(wk) <= 5) {
        return Verdict::Scale(0);
    }
    Verdict::Scale(SCALE_NORMAL)
}

/// Per file, the furthest the defender's pawn may have advanced (ranks counted from its
/// own side, 1 = unmoved) for two knights to win: the Troitzky line a4, b6, c5, d4, e4,
/// f5, g6, h4 for a Black pawn. One knight blockades the pawn while the king and the
/// other knight build the mate, which the pawn's moves then cannot stalemate.
const TROITZKY: [i32; 8] = [4, 2, 3, 4, 4, 3, 2, 4];

/// KNNKP: winning chances behind the Troitzky line (a long win, so not the known-win
/// band), otherwise a draw.
pub fn knnkp(pos: &Position, strong: Color) -> Verdict {
    let weak = !strong;
    let pawn = pos.pieces(weak, Role::Pawn).lsb();
    let advanced = rank(pawn.relative(weak));
    let wk = pos.king(weak);
    if advanced <= TROITZKY[pawn.file().index()] {
        return for_strong(pos, strong, 300 + 10 * push_to_edge(wk) - 10 * advanced);
    }
    for_strong(pos, strong, 5 * push_to_edge(wk))
}
