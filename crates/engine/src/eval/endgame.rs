//! Endgame knowledge keyed by material signature: `pos.material_key()` looks up a
//! specialised evaluation (mate drivers for KQK, KRK and KBNK, the KPK bitbase, known
//! draws), and [`scale_factor`] shrinks the endgame score where the stronger side
//! cannot win (no pawns and too little extra, wrong rook-pawn bishop, opposite bishops).

use super::kpk;
use sable_chess::{zobrist, Color, Piece, Position, Role, Square, SquareSet};
use std::sync::OnceLock;

/// Score of an ending the stronger side wins by technique, below any mate score.
pub const KNOWN_WIN: i32 = 1000;

/// Full scale of [`scale_factor`].
pub const SCALE_NORMAL: i32 = 64;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Neither side can win (KK, KNK, KBK, KNNK, one minor each).
    Draw,
    /// A lone king against a queen or rook (and more, no pawns): drive it to the edge.
    Kxk,
    Kbnk,
    Kpk,
}

/// One recognised signature, with the side that has the extra material.
#[derive(Clone, Copy, Debug)]
pub struct Endgame {
    pub kind: Kind,
    pub strong: Color,
}

static TABLE: OnceLock<Vec<(u64, Endgame)>> = OnceLock::new();

const SIGNATURES: [(&str, Kind); 14] = [
    ("KK", Kind::Draw),
    ("KNK", Kind::Draw),
    ("KBK", Kind::Draw),
    ("KNNK", Kind::Draw),
    ("KNKN", Kind::Draw),
    ("KBKN", Kind::Draw),
    ("KBKB", Kind::Draw),
    ("KQK", Kind::Kxk),
    ("KRK", Kind::Kxk),
    ("KQQK", Kind::Kxk),
    ("KQRK", Kind::Kxk),
    ("KRRK", Kind::Kxk),
    ("KBNK", Kind::Kbnk),
    ("KPK", Kind::Kpk),
];

/// The material key of a signature such as "KBNK" (strong side first) with `strong` owning the first part.
pub fn signature_key(sig: &str, strong: Color) -> u64 {
    let mut counts = [0u32; 12];
    let weak_start = sig[1..].find('K').map(|i| i + 1).unwrap_or(sig.len());
    for (i, ch) in sig.chars().enumerate() {
        let color = if i < weak_start { strong } else { !strong };
        if let Some(role) = Role::from_char(ch) {
            counts[Piece::new(color, role).index()] += 1;
        }
    }
    zobrist::material_of(&counts)
}

fn build() -> Vec<(u64, Endgame)> {
    let mut table = Vec::new();
    for (sig, kind) in SIGNATURES {
        for strong in Color::ALL {
            let key = signature_key(sig, strong);
            if !table.iter().any(|(k, _)| *k == key) {
                table.push((key, Endgame { kind, strong }));
            }
        }
    }
    table.sort_by_key(|e| e.0);
    table
}

pub fn init() {
    TABLE.get_or_init(build);
    kpk::init();
}

/// The specialised endgame for `pos`'s material, if there is one.
#[inline]
pub fn probe(pos: &Position) -> Option<Endgame> {
    let table = TABLE.get_or_init(build);
    let key = pos.material_key();
    table
        .binary_search_by_key(&key, |e| e.0)
        .ok()
        .map(|i| table[i].1)
}

fn edge_distance(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    f.min(7 - f) + r.min(7 - r)
}

fn nominal(pos: &Position, c: Color) -> i32 {
    let n = |r| pos.count(c, r) as i32;
    100 * n(Role::Pawn)
        + 320 * n(Role::Knight)
        + 330 * n(Role::Bishop)
        + 500 * n(Role::Rook)
        + 950 * n(Role::Queen)
}

/// The specialised score, from the side to move's point of view.
pub fn evaluate(pos: &Position, eg: Endgame) -> i32 {
    let strong = eg.strong;
    let weak = !strong;
    let sk = pos.king(strong);
    let wk = pos.king(weak);
    let closeness = 7 - sk.distance(wk) as i32;
    let score = match eg.kind {
        Kind::Draw => 0,
        Kind::Kxk => {
            KNOWN_WIN + nominal(pos, strong) + 40 * (6 - edge_distance(wk)) + 10 * closeness
        }
        Kind::Kbnk => {
            // Mate happens only in a corner of the bishop's colour.
            let dark = pos.pieces(strong, Role::Bishop).intersects(SquareSet::DARK);
            let corners = if dark {
                [Square::A1, Square::H8]
            } else {
                [Square::H1, Square::A8]
            };
            let corner = corners
                .iter()
                .map(|c| c.distance(wk) as i32)
                .min()
                .unwrap_or(7);
            KNOWN_WIN
                + nominal(pos, strong)
                + 50 * (7 - corner)
                + 10 * (6 - edge_distance(wk))
                + 10 * closeness
        }
        Kind::Kpk => {
            let pawn = pos.pieces(strong, Role::Pawn).lsb();
            if kpk::probe(strong, sk, pawn, wk, pos.turn() == strong) {
                KNOWN_WIN - 100 + 20 * pawn.rank().relative(strong).index() as i32
            } else {
                0
            }
        }
    };
    if pos.turn() == strong {
        score
    } else {
        -score
    }
}

fn non_pawn(pos: &Position, c: Color) -> i32 {
    nominal(pos, c) - 100 * pos.count(c, Role::Pawn) as i32
}

/// How much of the endgame score `strong` (the side it favours) can hope to convert,
/// out of [`SCALE_NORMAL`].
pub fn scale_factor(pos: &Position, strong: Color) -> i32 {
    let weak = !strong;
    let strong_pawns = pos.count(strong, Role::Pawn);
    let (npm_s, npm_w) = (non_pawn(pos, strong), non_pawn(pos, weak));
    if strong_pawns == 0 && npm_s - npm_w <= 330 {
        return if npm_s < 500 {
            0
        } else if npm_w <= 330 {
            4
        } else {
            14
        };
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
        let bishops_only = npm_s == 330 && npm_w == 330;
        if bishops_only {
            let extra = strong_pawns as i32 - pos.count(weak, Role::Pawn) as i32;
            return if extra <= 1 { 10 } else { 24 };
        }
        return 46;
    }
    SCALE_NORMAL
}

/// Bishop and rook pawns (all on one file) whose queening corner the bishop does not
/// cover: a draw once the defending king gets to the corner, whatever pawns it has.
fn wrong_bishop(pos: &Position, strong: Color) -> Option<i32> {
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
    let queening = Square::from_coords(file, sable_chess::Rank::EIGHTH.relative(strong));
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
    let king_dist = wk.distance(queening) as i32 - i32::from(pos.turn() == weak);
    if king_dist <= 1 {
        return Some(0);
    }
    let pawn_dist = front.distance(queening) as i32;
    let strong_king_dist = pos.king(strong).distance(queening) as i32;
    if king_dist < pawn_dist && king_dist <= strong_king_dist {
        return Some(2);
    }
    None
}
