//! Rook endings. A rook beats a pawn unless the pawn is far on with its king and the
//! rook's king is out of play; a rook against a minor piece is a draw unless the piece
//! strays (the knight) or the king is mated on the edge; KRKR without pawns is a draw
//! (`Kind::Even`). KRPKR knows the Philidor and back-rank defences, the Vancura
//! position and the Lucena win; KRPKB the rook pawn's fortresses.

use super::util::{
    closeness, dist, edge_distance, file, for_strong, push_to_edge, rank, rook_sees, same_colour,
    Frame,
};
use super::{Verdict, KNOWN_WIN, SCALE_NORMAL};
use sable_chess::{attacks, Color, Position, Role, Square, SquareSet};

fn sq(file: i32, rank: i32) -> Square {
    Square::from_index((rank * 8 + file) as usize)
}

/// KRKP. In the strong side's frame the pawn runs down to the first rank.
pub fn krkp(pos: &Position, strong: Color) -> Verdict {
    let weak = !strong;
    let pawn = pos.pieces(weak, Role::Pawn).lsb();
    let fr = Frame::new(strong, pawn);
    let (sk, wk, r, p) = (
        fr.sq(pos.king(strong)),
        fr.sq(pos.king(weak)),
        fr.sq(pos.pieces(strong, Role::Rook).lsb()),
        fr.sq(pawn),
    );
    let tempo = i32::from(pos.turn() == strong);
    let promote = sq(file(p), 0);
    let win = |bonus: i32| for_strong(pos, strong, KNOWN_WIN + bonus - 10 * dist(sk, p));
    // The pawn on the second rank queens at once where neither the rook nor the king
    // guards or blocks its square, and the queen then beats the rook.
    if rank(p) == 1 && tempo == 0 && dist(sk, promote) > 1 {
        let occupied = fr.set(pos.occupied());
        if !occupied.contains(promote) && !rook_sees(r, promote, occupied) {
            return for_strong(pos, strong, -(KNOWN_WIN - 300));
        }
    }
    // The rook's king in front of the pawn stops it for good.
    if file(sk) == file(p) && rank(sk) < rank(p) {
        return win(200);
    }
    // The pawn's king too far from the pawn and the rook: the rook wins the pawn alone.
    if dist(wk, p) >= 3 + (1 - tempo) && dist(wk, r) >= 3 {
        return win(200);
    }
    // A far pawn beside its king with the rook's king away: the rook must give itself up.
    if rank(wk) <= 2 && dist(wk, p) == 1 && rank(sk) >= 3 && dist(sk, p) > 2 + tempo {
        return for_strong(pos, strong, 80 - 8 * dist(sk, p));
    }
    // Otherwise a race: the rook's king to the square in front of the pawn against the
    // pawn's king and the pawn's steps to queen.
    let front = Square::from_index(p.index() - 8);
    let d = dist(sk, front) - dist(wk, front) - dist(p, promote) - tempo;
    if d <= -1 {
        return win(100 - 8 * d);
    }
    for_strong(pos, strong, 200 - 8 * d)
}

/// KRKB: a draw, as the king shelters in a corner the bishop does not cover, where
/// bishop checks and stalemate hold. In a corner of the bishop's colour with the other
/// king facing it, it is mated: the bishop cannot block the rook's checks there.
pub fn krkb(pos: &Position, strong: Color) -> Verdict {
    let (sk, wk) = (pos.king(strong), pos.king(!strong));
    let bishop = pos.pieces(!strong, Role::Bishop).lsb();
    let kings = dist(sk, wk);
    let wrong_corner = edge_distance(wk) == 0 && same_colour(wk, bishop);
    if wrong_corner && (kings == 2 || (kings == 3 && pos.turn() == strong)) {
        return for_strong(pos, strong, KNOWN_WIN - 200 + 10 * closeness(sk, wk));
    }
    for_strong(pos, strong, 20 + 8 * push_to_edge(wk))
}

/// KRKN: a draw while the knight stays by its king. A knight six or more king steps
/// away with the rook to move is cut off and lost; a king in the corner (or next to it,
/// the rook to move) with the other king close is mated, as the knight cannot cover
/// the checking squares in time.
pub fn krkn(pos: &Position, strong: Color) -> Verdict {
    let (sk, wk) = (pos.king(strong), pos.king(!strong));
    let knight = pos.pieces(!strong, Role::Knight).lsb();
    let apart = dist(wk, knight);
    let to_move = pos.turn() == strong;
    let cornered =
        dist(sk, wk) <= 3 && (edge_distance(wk) == 0 || (edge_distance(wk) == 1 && to_move));
    if (apart >= 6 && to_move) || cornered {
        return for_strong(
            pos,
            strong,
            KNOWN_WIN - 200 + 10 * apart + 8 * push_to_edge(wk),
        );
    }
    for_strong(pos, strong, 20 + 8 * push_to_edge(wk) + 10 * apart)
}

/// KRPKR, after Stockfish's rules (squares in the pawn side's frame, pawn on files a-d).
pub fn krpkr(pos: &Position, strong: Color) -> Verdict {
    let weak = !strong;
    let pawn = pos.pieces(strong, Role::Pawn).lsb();
    let fr = Frame::new(strong, pawn);
    let (sk, wk, sr, wr, p) = (
        fr.sq(pos.king(strong)),
        fr.sq(pos.king(weak)),
        fr.sq(pos.pieces(strong, Role::Rook).lsb()),
        fr.sq(pos.pieces(weak, Role::Rook).lsb()),
        fr.sq(pawn),
    );
    let (f, r) = (file(p), rank(p));
    let queen_sq = sq(f, 7);
    let tempo = i32::from(pos.turn() == strong);
    let draw = Verdict::Scale(0);
    let file_dist = |a: Square, b: Square| (file(a) - file(b)).abs();
    // Philidor: the king on the queening square and the rook on the third rank (the
    // pawn's sixth) until the pawn advances, then checks from behind.
    if r <= 4
        && dist(wk, queen_sq) <= 1
        && rank(sk) <= 4
        && (rank(wr) == 5 || (r <= 2 && rank(sr) != 5))
    {
        return draw;
    }
    // The pawn on the sixth with the king in front: checks from behind (or from a
    // distance on the side) hold, since the king has no shelter.
    if r == 5
        && dist(wk, queen_sq) <= 1
        && rank(sk) + tempo <= 5
        && (rank(wr) == 0 || (tempo == 0 && file_dist(wr, p) >= 3))
    {
        return draw;
    }
    // Back-rank defence: the king on the queening square, the rook on the first rank.
    if r >= 5 && wk == queen_sq && rank(wr) == 0 && (tempo == 0 || dist(sk, p) >= 2) {
        return draw;
    }
    // a7 with the rook in front on a8: the king on g7/h7 and the rook behind the pawn
    // draw, as the rook cannot leave a8 without losing the pawn.
    if p == Square::A7
        && sr == Square::A8
        && (wk == Square::H7 || wk == Square::G7)
        && file(wr) == 0
        && (rank(wr) <= 2 || file(sk) >= 3 || rank(sk) <= 4)
    {
        return draw;
    }
    // Vancura: a rook pawn on the sixth, its rook in front, attacked from the side by the
    // defending rook while the defending king waits on g7/h7.
    if f == 0
        && r == 5
        && file(sr) == 0
        && rank(sr) > r
        && rank(wr) == r
        && file(wk) >= 5
        && rank(wk) >= 5
    {
        return draw;
    }
    // The defending king blocks the pawn and the attacking king is far.
    if r <= 4 && wk == sq(f, r + 1) && dist(sk, p) - tempo >= 2 && dist(sk, wr) - tempo >= 2 {
        return draw;
    }
    // Lucena: pawn on the seventh (not a rook pawn), its king on the queening square, the
    // defending king cut off by at least one file by the rook: building a bridge wins.
    if r == 6 && f != 0 && sk == queen_sq && file_dist(wk, p) >= 2 {
        let (lo, hi) = (f.min(file(wk)), f.max(file(wk)));
        if file(sr) > lo && file(sr) < hi {
            return for_strong(pos, strong, KNOWN_WIN + 200 - 10 * dist(sk, wk).min(4));
        }
    }
    // Pawn on the seventh supported by the rook from behind, the king closer: usually won.
    if r == 6
        && f != 0
        && file(sr) == f
        && sr != queen_sq
        && dist(sk, queen_sq) < dist(wk, queen_sq) - 2 + tempo
        && dist(sk, queen_sq) < dist(wk, sr) + tempo
    {
        return Verdict::Scale(2 * SCALE_NORMAL - 2 * dist(sk, queen_sq));
    }
    // The same with the pawn further back.
    let above = sq(f, (r + 1).min(7));
    if f != 0
        && file(sr) == f
        && rank(sr) < r
        && dist(sk, queen_sq) < dist(wk, queen_sq) - 2 + tempo
        && dist(sk, above) < dist(wk, above) - 2 + tempo
        && (dist(wk, sr) + tempo >= 3
            || (dist(sk, queen_sq) < dist(wk, sr) + tempo && dist(sk, above) < dist(wk, p) + tempo))
    {
        return Verdict::Scale(2 * SCALE_NORMAL - 8 * dist(p, queen_sq) - 2 * dist(sk, queen_sq));
    }
    // A pawn not far on with the defending king in its path: probably a draw.
    if r <= 3 && wk.index() > p.index() {
        if file(wk) == f {
            return Verdict::Scale(10);
        }
        if file_dist(wk, p) == 1 && dist(sk, wk) > 2 {
            return Verdict::Scale(24 - 2 * dist(sk, wk));
        }
    }
    Verdict::Scale(SCALE_NORMAL)
}

/// KRPKB: usually won, but a rook pawn gives the bishop fortresses: on the fifth on the
/// bishop's colour with the king near the corner, or on the sixth with the bishop
/// guarding the square in front from a distance.
pub fn krpkb(pos: &Position, strong: Color) -> Verdict {
    let weak = !strong;
    let pawn = pos.pieces(strong, Role::Pawn).lsb();
    let fr = Frame::new(strong, pawn);
    let (sk, wk, b, p) = (
        fr.sq(pos.king(strong)),
        fr.sq(pos.king(weak)),
        fr.sq(pos.pieces(weak, Role::Bishop).lsb()),
        fr.sq(pawn),
    );
    if file(p) == 0 {
        let r = rank(p);
        if r == 4 && same_colour(b, p) {
            let d = dist(sq(0, 7), wk);
            let trapped = d == 0 && sk.offset(0, 2) == Some(wk);
            return Verdict::Scale(if d <= 2 && !trapped { 24 } else { 48 });
        }
        if r == 5
            && dist(sq(0, 7), wk) <= 1
            && attacks::bishop_attacks(b, SquareSet::EMPTY).contains(sq(0, 6))
            && file(b) >= 2
        {
            return Verdict::Scale(8);
        }
    }
    Verdict::Scale(SCALE_NORMAL)
}

/// KRPPKR: two pawns usually win, but doubled pawns are little more than one, and a king
/// blockading both pawns early holds often.
pub fn krppkr(pos: &Position, strong: Color) -> Verdict {
    let pawns = pos.pieces(strong, Role::Pawn);
    let fr = Frame::plain(strong);
    let (a, b) = (
        fr.sq(pawns.lsb()),
        fr.sq(pawns.last().unwrap_or(pawns.lsb())),
    );
    let wk = fr.sq(pos.king(!strong));
    if file(a) == file(b) {
        return Verdict::Scale(24);
    }
    let blocks = |p: Square| rank(wk) > rank(p) && (file(wk) - file(p)).abs() <= 1;
    if (file(a) - file(b)).abs() == 1 && blocks(a) && blocks(b) && rank(a).max(rank(b)) <= 4 {
        return Verdict::Scale(32);
    }
    Verdict::Scale(SCALE_NORMAL)
}
