//! Scale factors: how much of the endgame half of the evaluation the side it favours can
//! hope to convert, out of [`SCALE_NORMAL`]. The `Pawnless` module names the pawnless
//! signatures less than a rook up; [`scale_factor`] applies the same rule by material
//! shape to every position without a module, with the wrong rook-pawn bishop, opposite
//! bishops, and rook or queen endings with pawns.

use super::util::{dist, nominal};
use super::{Verdict, SCALE_NORMAL};
use sable_chess::{Color, Position, Rank, Role, Square, SquareSet};

fn non_pawn(pos: &Position, c: Color) -> i32 {
    nominal(pos, c) - 100 * pos.count(c, Role::Pawn) as i32
}

/// Without pawns, less than a rook up cannot force mate but in rare positions: one minor
/// never mates, two minors against a minor only by the defender's blunder, a rook and a
/// minor against a rook only by long technique (KRBKR's Philidor position).
fn pawnless_scale(npm_strong: i32, npm_weak: i32) -> i32 {
    if npm_strong < 500 {
        0
    } else if npm_weak <= 330 {
        4
    } else {
        14
    }
}

/// The `Pawnless` module: KRBKR, KRNKR, KBBKB, KBNKB, KBNKN, KNNKB, KNNKN.
pub fn pawnless(pos: &Position, strong: Color) -> Verdict {
    Verdict::Scale(pawnless_scale(
        non_pawn(pos, strong),
        non_pawn(pos, !strong),
    ))
}

/// The generic scale factor for `strong` (the side the endgame half favours).
pub fn scale_factor(pos: &Position, strong: Color) -> i32 {
    let weak = !strong;
    let strong_pawns = pos.count(strong, Role::Pawn) as i32;
    let weak_pawns = pos.count(weak, Role::Pawn) as i32;
    let (npm_s, npm_w) = (non_pawn(pos, strong), non_pawn(pos, weak));
    if strong_pawns == 0 && npm_s - npm_w <= 330 {
        return pawnless_scale(npm_s, npm_w);
    }
    if let Some(sf) = wrong_bishop(pos, strong) {
        return sf;
    }
    let (bs, bw) = (
        pos.pieces(strong, Role::Bishop),
        pos.pieces(weak, Role::Bishop),
    );
    if bs.count() == 1
        && bw.count() == 1
        && bs.intersects(SquareSet::DARK) != bw.intersects(SquareSet::DARK)
    {
        // Opposite bishops: the defender's bishop blockades on squares the other never
        // attacks, so even two extra pawns often draw when nothing else is left.
        let bishops_only = npm_s == 330 && npm_w == 330;
        if bishops_only {
            return if strong_pawns - weak_pawns <= 1 {
                10
            } else {
                24
            };
        }
        return 46;
    }
    let extra = strong_pawns - weak_pawns;
    if npm_s == npm_w && extra <= 1 && weak_pawns > 0 {
        if npm_s == 500 && pos.count(strong, Role::Rook) == 1 && one_wing(pos) {
            // A rook each and all pawns on one wing: one extra pawn rarely wins, as the
            // defending king stands in front of the pawns and the rook checks.
            return 36;
        }
        if npm_s == 950 && pos.count(strong, Role::Queen) == 1 {
            // A queen each: the defender's perpetual check saves many a pawn-down ending.
            return 48;
        }
    }
    SCALE_NORMAL
}

/// Whether every pawn stands on files a-d, or every pawn on files e-h.
fn one_wing(pos: &Position) -> bool {
    const QUEENSIDE: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let pawns = pos.by_role(Role::Pawn).bits();
    pawns & QUEENSIDE == 0 || pawns & !QUEENSIDE == 0
}

/// Bishop and rook pawns (all on one file) whose queening corner the bishop does not
/// cover: a draw once the defending king gets to the corner, whatever pawns it has.
pub fn wrong_bishop(pos: &Position, strong: Color) -> Option<i32> {
    let weak = !strong;
    let bishops = pos.pieces(strong, Role::Bishop);
    let pawns = pos.pieces(strong, Role::Pawn);
    let others = pos.by_color(strong) - bishops - pawns - pos.king(strong);
    let weak_pieces = pos.by_color(weak) - pos.pieces(weak, Role::Pawn) - pos.king(weak);
    if bishops.is_empty() || pawns.is_empty() || others.any() || weak_pieces.any() {
        return None;
    }
    let file = pawns.lsb().file();
    let rook_file = SquareSet::from_file(file);
    if !(file.index() == 0 || file.index() == 7) || !(pawns - rook_file).is_empty() {
        return None;
    }
    let queening = Square::from_coords(file, Rank::EIGHTH.relative(strong));
    let covers = if queening.is_dark() {
        bishops.intersects(SquareSet::DARK)
    } else {
        bishops.intersects(SquareSet::LIGHT)
    };
    if covers {
        return None;
    }
    let front = if strong == Color::White {
        pawns.last()
    } else {
        pawns.first()
    }?;
    let wk = pos.king(weak);
    let king_dist = dist(wk, queening) - i32::from(pos.turn() == weak);
    if king_dist <= 1 {
        return Some(0);
    }
    let pawn_dist = dist(front, queening);
    let strong_king_dist = dist(pos.king(strong), queening);
    if king_dist < pawn_dist && king_dist <= strong_king_dist {
        return Some(2);
    }
    None
}
