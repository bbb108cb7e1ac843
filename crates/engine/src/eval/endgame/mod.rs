//! Endgame knowledge keyed by material signature: `pos.material_key()` picks a module
//! (iCE's design), in one probe of a small open-addressed table. A module answers with a
//! [`Verdict`]: a score that replaces the evaluation, or a scale factor for the endgame
//! half of the normal evaluation when that favours the module's strong side. Positions
//! without a module get the generic [`scale_factor`] rules (`scale.rs`).
//!
//! 47 signatures (strong side first; each also with the colours reversed):
//!
//! | family | file | signatures |
//! | --- | --- | --- |
//! | known draws (7) | `mod.rs` | KK, KNK, KBK, KNNK, KNKN, KBKN, KBKB |
//! | mate drivers (11) | `mates.rs` | KQK, KRK, KQQK, KQRK, KRRK, KQBK, KQNK, KRBK, KRNK, KBBK, KBNK |
//! | pawn endings (3) | `pawns.rs` | KPK (bitbase), KPPK, KPKP |
//! | queen endings (6) | `queens.rs` | KQKR, KQKB, KQKN, KQKP, KQKQ, KQPKQ |
//! | rook endings (7) | `rooks.rs` | KRKP, KRKB, KRKN, KRKR, KRPKR, KRPKB, KRPPKR |
//! | minor pieces (6) | `minors.rs` | KBPK, KNPK, KBPKP, KBPKB, KBPKN, KNNKP |
//! | pawnless, less than a rook up (7) | `scale.rs` | KRBKR, KRNKR, KBBKB, KBNKB, KBNKN, KNNKB, KNNKN |
//!
//! Score verdicts follow one convention, which `tests/endgames.rs` reads: a won ending
//! scores at least `KNOWN_WIN / 2` for the winner (mostly in the band above
//! [`KNOWN_WIN`], with a gradient that drives progress), a drawn one less than that.
//! Rook and queen endings with more pawns, opposite-coloured bishops and the wrong
//! rook-pawn bishop with more pawns are scaled by material shape in `scale.rs`.

mod mates;
mod minors;
mod pawns;
mod queens;
mod rooks;
mod scale;
mod util;

pub use scale::scale_factor;

use super::kpk;
use sable_chess::{zobrist, Color, Piece, Position, Role};
use std::sync::OnceLock;

/// Score of an ending the stronger side wins by technique, below any mate score.
pub const KNOWN_WIN: i32 = 1000;

/// Full scale of a scale factor.
pub const SCALE_NORMAL: i32 = 64;

/// The module a signature picks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Neither side can force mate.
    Draw,
    /// A queen or a rook each and nothing else: drawn unless a tactic wins the piece at
    /// once, which the search sees (`queens.rs`, `rooks.rs`).
    Even,
    /// A lone king against mating material without pawns: drive it to the edge.
    Kxk,
    Kbnk,
    Kbbk,
    Kpk,
    Kppk,
    Kpkp,
    Kqkr,
    /// Queen against a lone minor piece.
    Kqkm,
    Kqkp,
    Kqpkq,
    Krkp,
    Krkb,
    Krkn,
    Krpkr,
    Krpkb,
    Krppkr,
    Kbpk,
    Knpk,
    Kbpkp,
    Kbpkb,
    Kbpkn,
    Knnkp,
    /// Pawnless, the strong side less than a rook up.
    Pawnless,
}

/// One recognised signature, with the side that has the extra material.
#[derive(Clone, Copy, Debug)]
pub struct Endgame {
    pub kind: Kind,
    pub strong: Color,
}

/// What a module says about one position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// This score, for the side to move, replaces the evaluation.
    Score(i32),
    /// The evaluation stands; its endgame half is scaled by this (out of
    /// [`SCALE_NORMAL`]) when it favours the module's strong side.
    Scale(i32),
}

/// Every signature and its module (strong side first).
pub const SIGNATURES: [(&str, Kind); 47] = [
    // Draws: no mate can be forced (a lone minor, two knights, a minor each).
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
    ("KQBK", Kind::Kxk),
    ("KQNK", Kind::Kxk),
    ("KRBK", Kind::Kxk),
    ("KRNK", Kind::Kxk),
    ("KBBK", Kind::Kbbk),
    ("KBNK", Kind::Kbnk),
    ("KPK", Kind::Kpk),
    ("KPPK", Kind::Kppk),
    ("KPKP", Kind::Kpkp),
    ("KQKR", Kind::Kqkr),
    ("KQKB", Kind::Kqkm),
    ("KQKN", Kind::Kqkm),
    ("KQKP", Kind::Kqkp),
    ("KQKQ", Kind::Even),
    ("KQPKQ", Kind::Kqpkq),
    ("KRKP", Kind::Krkp),
    ("KRKB", Kind::Krkb),
    ("KRKN", Kind::Krkn),
    ("KRKR", Kind::Even),
    ("KRPKR", Kind::Krpkr),
    ("KRPKB", Kind::Krpkb),
    ("KRPPKR", Kind::Krppkr),
    ("KBPK", Kind::Kbpk),
    ("KNPK", Kind::Knpk),
    ("KBPKP", Kind::Kbpkp),
    ("KBPKB", Kind::Kbpkb),
    ("KBPKN", Kind::Kbpkn),
    ("KNNKP", Kind::Knnkp),
    ("KRBKR", Kind::Pawnless),
    ("KRNKR", Kind::Pawnless),
    ("KBBKB", Kind::Pawnless),
    ("KBNKB", Kind::Pawnless),
    ("KBNKN", Kind::Pawnless),
    ("KNNKB", Kind::Pawnless),
    ("KNNKN", Kind::Pawnless),
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

/// Slots of the open-addressed table: a power of two, about six times the 88 keys, so
/// that a probe mostly ends at its first slot (8 KiB).
const SLOTS: usize = 512;

/// Material keys and their modules, open-addressed: a key sits in slot `key % SLOTS` or
/// the next free one after it, so a probe stops at its key or at an empty slot (most
/// positions have no module and stop at the first).
struct Table {
    slots: Vec<(u64, Option<Endgame>)>,
}

static TABLE: OnceLock<Table> = OnceLock::new();

fn build() -> Table {
    let mut slots = vec![(0u64, None); SLOTS];
    for (sig, kind) in SIGNATURES {
        for strong in Color::ALL {
            let key = signature_key(sig, strong);
            let mut i = key as usize % SLOTS;
            // Symmetric signatures (KQKQ) give one key for both colours: keep the first.
            while slots[i].1.is_some() && slots[i].0 != key {
                i = (i + 1) % SLOTS;
            }
            if slots[i].1.is_none() {
                slots[i] = (key, Some(Endgame { kind, strong }));
            }
        }
    }
    Table { slots }
}

pub fn init() {
    TABLE.get_or_init(build);
    kpk::init();
}

/// The module for `pos`'s material, if there is one.
#[inline]
pub fn probe(pos: &Position) -> Option<Endgame> {
    let slots = &TABLE.get_or_init(build).slots;
    let key = pos.material_key();
    let mut i = key as usize % SLOTS;
    loop {
        match slots[i] {
            (k, eg @ Some(_)) if k == key => return eg,
            (_, None) => return None,
            _ => i = (i + 1) % SLOTS,
        }
    }
}

/// The module's verdict on `pos`.
pub fn verdict(pos: &Position, eg: Endgame) -> Verdict {
    let s = eg.strong;
    match eg.kind {
        Kind::Draw | Kind::Even => Verdict::Score(0),
        Kind::Kxk => mates::kxk(pos, s),
        Kind::Kbnk => mates::kbnk(pos, s),
        Kind::Kbbk => mates::kbbk(pos, s),
        Kind::Kpk => pawns::kpk(pos, s),
        Kind::Kppk => pawns::kppk(pos, s),
        Kind::Kpkp => pawns::kpkp(pos),
        Kind::Kqkr => queens::kqkr(pos, s),
        Kind::Kqkm => queens::kqkm(pos, s),
        Kind::Kqkp => queens::kqkp(pos, s),
        Kind::Kqpkq => queens::kqpkq(pos, s),
        Kind::Krkp => rooks::krkp(pos, s),
        Kind::Krkb => rooks::krkb(pos, s),
        Kind::Krkn => rooks::krkn(pos, s),
        Kind::Krpkr => rooks::krpkr(pos, s),
        Kind::Krpkb => rooks::krpkb(pos, s),
        Kind::Krppkr => rooks::krppkr(pos, s),
        Kind::Kbpk => minors::kbpk(pos, s),
        Kind::Knpk => minors::knpk(pos, s),
        Kind::Kbpkp => minors::kbpkp(pos, s),
        Kind::Kbpkb => minors::kbpkb(pos, s),
        Kind::Kbpkn => minors::kbpkn(pos, s),
        Kind::Knnkp => minors::knnkp(pos, s),
        Kind::Pawnless => scale::pawnless(pos, s),
    }
}
