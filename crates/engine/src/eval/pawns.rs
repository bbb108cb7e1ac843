//! Pawn structure: passed, connected, isolated, doubled and backward pawns, cached in
//! a pawn hash table keyed by `pos.pawn_key()` together with the facts other terms
//! reuse (passed pawns, pawn attacks, files without pawns).

use super::params::*;
use super::score::S;
use super::sink::{Sink, Total};
use sable_chess::{attacks, Color, Position, Role, Square, SquareSet};

/// What the pawn table keeps for a pawn structure.
#[derive(Clone, Copy, Default)]
pub struct PawnEntry {
    key: u64,
    /// White minus Black structure score (valid only from the table path).
    score: S,
    pub passed: SquareSet,
    pub attacks: [SquareSet; 2],
    /// Bit f set when the side has no pawn on file f.
    pub no_pawns: [u8; 2],
}

const TABLE_SIZE: usize = 1 << 14;

/// One thread's pawn hash table (allocated once, in `Evaluator::new`).
pub struct PawnTable {
    entries: Box<[PawnEntry]>,
}

impl Default for PawnTable {
    fn default() -> PawnTable {
        PawnTable {
            entries: vec![PawnEntry::default(); TABLE_SIZE].into_boxed_slice(),
        }
    }
}

impl PawnTable {
    /// The entry for `pos`'s pawns, adding its terms to `sink` (from the table when it may).
    #[inline]
    pub fn probe<T: Sink>(&mut self, pos: &Position, sink: &mut T) -> PawnEntry {
        if !T::CACHED {
            return compute(pos, sink);
        }
        // A zero key would match the empty slots; positions without pawns then skip the table.
        let key = pos.pawn_key() | 1;
        let slot = &mut self.entries[(key as usize) & (TABLE_SIZE - 1)];
        if slot.key != key {
            let mut total = Total::default();
            *slot = compute(pos, &mut total);
            slot.score = total.0;
            slot.key = key;
        }
        sink.add_total(slot.score);
        *slot
    }
}

/// All squares on ranks strictly ahead of `sq` from `color`'s side.
#[inline]
pub fn ahead(color: Color, sq: Square) -> SquareSet {
    let r = sq.rank().index() as u32;
    SquareSet(match color {
        Color::White => (!0u64).checked_shl(8 * (r + 1)).unwrap_or(0),
        Color::Black => (1u64 << (8 * r)) - 1,
    })
}

#[inline]
pub fn file_mask(file: usize) -> SquareSet {
    SquareSet(0x0101_0101_0101_0101 << file)
}

#[inline]
pub fn adjacent_files(file: usize) -> SquareSet {
    let f = file_mask(file);
    f.shift_west() | f.shift_east()
}

/// Squares attacked by `color`'s pawns in `pawns`.
#[inline]
pub fn pawn_attacks(color: Color, pawns: SquareSet) -> SquareSet {
    let f = pawns.forward(color == Color::White);
    f.shift_west() | f.shift_east()
}

pub fn compute<T: Sink>(pos: &Position, sink: &mut T) -> PawnEntry {
    let mut e = PawnEntry::default();
    for c in Color::ALL {
        let own = pos.pieces(c, Role::Pawn);
        let theirs = pos.pieces(!c, Role::Pawn);
        let their_attacks = pawn_attacks(!c, theirs);
        e.attacks[c.index()] = pawn_attacks(c, own);
        for f in 0..8 {
            if !own.intersects(file_mask(f)) {
                e.no_pawns[c.index()] |= 1 << f;
            }
        }
        for sq in own {
            let file = sq.file().index();
            let rank = sq.rank().relative(c).index();
            let front = ahead(c, sq);
            let adjacent = adjacent_files(file);
            let same_file_ahead = front & file_mask(file);
            if (own & adjacent).is_empty() {
                sink.add(c, ISOLATED, 1);
            } else {
                // Backward: every neighbour is ahead, and the stop square is covered by a pawn.
                let level_or_behind = !front;
                let stop = sq.offset(0, if c == Color::White { 1 } else { -1 });
                if (own & adjacent & level_or_behind).is_empty()
                    && stop.is_some_and(|s| their_attacks.contains(s))
                {
                    sink.add(c, BACKWARD, 1);
                }
            }
            if own.intersects(same_file_ahead) {
                sink.add(c, DOUBLED, 1);
            }
            let supported = own.intersects(attacks::pawn_attacks(!c, sq));
            let phalanx = own.intersects(adjacent & SquareSet::from_rank(sq.rank()));
            if supported || phalanx {
                sink.add(c, CONNECTED + rank, 1);
            }
            let blockers = (same_file_ahead | (front & adjacent)) & theirs;
            if blockers.is_empty() && !own.intersects(same_file_ahead) {
                e.passed |= sq;
                sink.add(c, PASSED + rank, 1);
            }
        }
    }
    e
}

/// The passed-pawn terms that depend on the pieces (so not cached): a free stop square
/// and the distances of both kings to it.
pub fn passed_extras<T: Sink>(pos: &Position, entry: &PawnEntry, sink: &mut T) {
    for c in Color::ALL {
        for sq in entry.passed & pos.pieces(c, Role::Pawn) {
            let rank = sq.rank().relative(c).index();
            let Some(stop) = sq.offset(0, if c == Color::White { 1 } else { -1 }) else {
                continue;
            };
            if !pos.occupied().contains(stop) {
                sink.add(c, PASSED_FREE + rank, 1);
            }
            sink.add(c, PASSED_OWN_KING + pos.king(c).distance(stop) as usize, 1);
            sink.add(
                c,
                PASSED_THEIR_KING + pos.king(!c).distance(stop) as usize,
                1,
            );
        }
    }
}
