//! Geometry shared by the endgame modules: distances, edges and corners, and squares
//! seen from the strong side with the pawn folded onto files a-d.

use super::Verdict;
use sable_chess::{attacks, Color, Position, Role, Square, SquareSet};

/// Chebyshev distance as an `i32`.
#[inline]
pub fn dist(a: Square, b: Square) -> i32 {
    a.distance(b) as i32
}

pub fn file(sq: Square) -> i32 {
    sq.file().index() as i32
}

pub fn rank(sq: Square) -> i32 {
    sq.rank().index() as i32
}

/// Steps to the nearest file edge plus to the nearest rank edge: 0 in a corner, 6 in the
/// centre.
pub fn edge_distance(sq: Square) -> i32 {
    let (f, r) = (file(sq), rank(sq));
    f.min(7 - f) + r.min(7 - r)
}

/// 0 in the centre up to 6 in a corner: how far a king has been driven out.
pub fn push_to_edge(sq: Square) -> i32 {
    6 - edge_distance(sq)
}

/// 0 for kings far apart up to 6 for kings in opposition: mates need the kings close.
pub fn closeness(a: Square, b: Square) -> i32 {
    7 - dist(a, b)
}

/// Distance from `sq` to the nearer corner of the colour of `dark`.
pub fn corner_distance(sq: Square, dark: bool) -> i32 {
    let corners = if dark {
        [Square::A1, Square::H8]
    } else {
        [Square::H1, Square::A8]
    };
    dist(sq, corners[0]).min(dist(sq, corners[1]))
}

/// Material by the textbook values (pawn 100, knight 320, bishop 330, rook 500, queen 950).
pub fn nominal(pos: &Position, c: Color) -> i32 {
    let n = |r| pos.count(c, r) as i32;
    100 * n(Role::Pawn)
        + 320 * n(Role::Knight)
        + 330 * n(Role::Bishop)
        + 500 * n(Role::Rook)
        + 950 * n(Role::Queen)
}

/// A score for `strong` turned into one for the side to move.
pub fn for_strong(pos: &Position, strong: Color, score: i32) -> Verdict {
    Verdict::Score(if pos.turn() == strong { score } else { -score })
}

/// Squares seen from `strong`'s side (its pawns move up), mirrored onto files a-d when
/// `pawn` stands on files e-h, so one rule covers all eight files.
#[derive(Clone, Copy)]
pub struct Frame {
    strong: Color,
    flip_files: bool,
}

impl Frame {
    pub fn new(strong: Color, pawn: Square) -> Frame {
        Frame {
            strong,
            flip_files: pawn.file().index() >= 4,
        }
    }

    /// Seen from `strong`, files not folded (for pawnless or two-pawn endings).
    pub fn plain(strong: Color) -> Frame {
        Frame {
            strong,
            flip_files: false,
        }
    }

    pub fn sq(self, sq: Square) -> Square {
        let sq = sq.relative(self.strong);
        if self.flip_files {
            Square::from_index(sq.index() ^ 7)
        } else {
            sq
        }
    }

    pub fn set(self, set: SquareSet) -> SquareSet {
        set.iter()
            .fold(SquareSet::EMPTY, |acc, s| acc.with(self.sq(s)))
    }
}

/// The square on the eighth rank of `sq`'s file.
pub fn queening(sq: Square) -> Square {
    Square::from_index(56 + sq.file().index())
}

/// The squares in front of `sq` on its file, up to the eighth rank.
pub fn front_span(sq: Square) -> SquareSet {
    let mut set = SquareSet::EMPTY;
    let mut s = sq;
    while let Some(next) = s.offset(0, 1) {
        set = set.with(next);
        s = next;
    }
    set
}

/// Whether a bishop on `from` sees `to` with `occupied` in the way.
pub fn bishop_sees(from: Square, to: Square, occupied: SquareSet) -> bool {
    attacks::bishop_attacks(from, occupied).contains(to)
}

/// Whether a rook on `from` sees `to` with `occupied` in the way.
pub fn rook_sees(from: Square, to: Square, occupied: SquareSet) -> bool {
    attacks::rook_attacks(from, occupied).contains(to)
}

/// Whether two squares have the same colour.
pub fn same_colour(a: Square, b: Square) -> bool {
    a.is_dark() == b.is_dark()
}
