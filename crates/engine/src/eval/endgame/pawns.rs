//! King and pawn endings, decided by the KPK bitbase: one pawn exactly, two pawns by
//! asking the bitbase about each pawn alone, one pawn each as a race of two KPK endings.

use super::kpk;
use super::util::{dist, for_strong, rank};
use super::{Verdict, KNOWN_WIN};
use sable_chess::{attacks, Color, Position, Rank, Role, Square};

fn relative_rank(sq: Square, c: Color) -> i32 {
    rank(sq.relative(c))
}

/// Whether `c` wins the KPK ending of its king, `pawn` and the other king, with any other
/// material ignored.
fn kpk_wins(pos: &Position, c: Color, pawn: Square) -> bool {
    kpk::probe(c, pos.king(c), pawn, pos.king(!c), pos.turn() == c)
}

/// KPK: exact by the bitbase (a won pawn is worth more the further it has gone).
pub fn kpk(pos: &Position, strong: Color) -> Verdict {
    let pawn = pos.pieces(strong, Role::Pawn).lsb();
    let score = if kpk_wins(pos, strong, pawn) {
        KNOWN_WIN - 100 + 20 * relative_rank(pawn, strong)
    } else {
        0
    };
    for_strong(pos, strong, score)
}

/// KPPK: a second pawn never spoils a KPK win, and two pawns on different files win
/// (the king cannot stop both, and one defends the other); doubled pawns that neither
/// win alone draw, as the rear pawn only blocks the king.
pub fn kppk(pos: &Position, strong: Color) -> Verdict {
    let pawns = pos.pieces(strong, Role::Pawn);
    let (a, b) = (pawns.lsb(), pawns.last().unwrap_or(pawns.lsb()));
    let advance = relative_rank(a, strong) + relative_rank(b, strong);
    let win = a.file() != b.file() || kpk_wins(pos, strong, a) || kpk_wins(pos, strong, b);
    let score = if win { KNOWN_WIN + 10 * advance } else { 20 };
    for_strong(pos, strong, score)
}

/// KPKP: each side's pawn is judged by KPK with the other pawn ignored, which is sound
/// when that pawn is passed (the other pawn cannot stop or take it on its way). When both
/// would win it is a race: the first queen wins if the other pawn is at least two plies
/// slower, or if it checks or guards the other queening square; else both queen and it
/// is a draw. With neither pawn passed, the king that wins the other pawn first wins.
pub fn kpkp(pos: &Position) -> Verdict {
    let pawn = |c| pos.pieces(c, Role::Pawn).lsb();
    let passed = |c: Color| {
        let (p, o) = (pawn(c), pawn(!c));
        p.file().index().abs_diff(o.file().index()) > 1
            || relative_rank(o, c) <= relative_rank(p, c)
    };
    // Plies until the pawn queens, counting the double step.
    let plies = |c: Color| {
        let r = relative_rank(pawn(c), c);
        let steps = 7 - r - i32::from(r == 1);
        2 * steps - i32::from(pos.turn() == c)
    };
    let wins = |c: Color| passed(c) && kpk_wins(pos, c, pawn(c));
    // The first new queen also wins a close race when it checks the other king or
    // guards the other pawn's queening square.
    let promotion = |c: Color| Square::from_coords(pawn(c).file(), Rank::EIGHTH.relative(c));
    let queen_stops = |c: Color| {
        let pawns = pos.pieces(Color::White, Role::Pawn) | pos.pieces(Color::Black, Role::Pawn);
        let occupied = (pos.occupied() - pawns).with(promotion(c));
        let seen = attacks::queen_attacks(promotion(c), occupied);
        seen.contains(promotion(!c)) || seen.contains(pos.king(!c))
    };
    let mut white = 0;
    for c in Color::ALL {
        let first = plies(c) < plies(!c);
        if wins(c) && (!wins(!c) || plies(!c) - plies(c) >= 2 || (first && queen_stops(c))) {
            white += c.sign() * (KNOWN_WIN - 100 + 20 * relative_rank(pawn(c), c));
        }
    }
    if white == 0 && !passed(Color::White) && !passed(Color::Black) {
        // Pawns that block or guard each other: the king three tempi sooner at the other
        // pawn wins it, and then has a KPK ending with the opposition to spare.
        let reach = |c: Color| dist(pos.king(c), pawn(!c)) - i32::from(pos.turn() == c);
        for c in Color::ALL {
            let lead = reach(!c) - reach(c);
            if lead >= 3 {
                white += c.sign() * (KNOWN_WIN - 300 + 20 * lead.min(5));
            }
        }
    }
    if white == 0 {
        // Drawn or unclear: only the pawns' progress counts a little.
        white = 5
            * (relative_rank(pawn(Color::White), Color::White)
                - relative_rank(pawn(Color::Black), Color::Black));
    }
    Verdict::Score(white * pos.turn().sign())
}
