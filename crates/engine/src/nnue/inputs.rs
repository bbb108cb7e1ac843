//! Which of a net's input rows a perspective reads: [`Inputs`], the layout (plain,
//! horizontally mirrored, or mirrored with king buckets), and [`View`], what one
//! perspective's king makes of it in one position.
//!
//! A feature (`super::feature`, 768 of them) is a piece on a square seen from one side.
//! A plain net has one row per feature. A mirrored net reads the file flipped (`^ 7`)
//! when the perspective's own king stands on files e-h, so that it only ever sees its
//! king on files a-d. A net with **king buckets** also has one block of 768 rows per
//! bucket, and a perspective reads the block of the bucket its own king stands in
//! (after the flip): the same piece on the same square can then mean one thing with the
//! king castled short and another with it in the centre. The buckets are a table over
//! the 32 squares of files a-d (from the perspective's side, rank 1 its back rank), so
//! any layout loads without a change of code; [`Inputs::preset`] names the usual ones.
//!
//! A perspective's view changes only when its own king moves into another bucket or
//! across the d/e line; the accumulators then recompute that side from the board
//! (`super::accumulator`).

use super::{NetError, INPUTS};
use sable_chess::Square;

/// The most king buckets a net may have.
pub const MAX_KING_BUCKETS: usize = 16;

/// How a net's inputs are laid out (see the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Inputs {
    mirrored: bool,
    /// The bucket of each square of files a-d, index `rank * 4 + file` (from the
    /// perspective's side); all zero for one bucket.
    table: [u8; 32],
    buckets: u8,
}

/// One perspective's reading of the inputs in one position: the block of rows its
/// king's bucket selects and whether its files are flipped. Equal views read the same
/// rows, so a move that leaves a side's view unchanged can be applied as a delta.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    base: u32,
    xor: u32,
}

impl View {
    /// The row a feature (`super::feature`, unflipped) selects under this view.
    #[inline]
    pub fn row(self, feature: usize) -> usize {
        self.base as usize + (feature ^ self.xor as usize)
    }

    /// The row a feature selects in the same layout without king buckets (the file flip
    /// alone): the trainer's shared rows (its factoriser) are indexed so.
    #[inline]
    pub fn shared_row(self, feature: usize) -> usize {
        feature ^ self.xor as usize
    }

    /// Whether the files are flipped.
    #[inline]
    pub fn flipped(self) -> bool {
        self.xor != 0
    }
}

impl Inputs {
    /// One row per feature.
    pub const PLAIN: Inputs = Inputs {
        mirrored: false,
        table: [0; 32],
        buckets: 1,
    };

    /// One row per feature, read with the files flipped when the perspective's king
    /// stands on files e-h.
    pub const MIRRORED: Inputs = Inputs {
        mirrored: true,
        table: [0; 32],
        buckets: 1,
    };

    /// Mirrored inputs with king buckets: `table[rank * 4 + file]` is the bucket of the
    /// king on that square of files a-d (rank 0 the perspective's back rank). The
    /// buckets must be numbered from 0 with none skipped, at most [`MAX_KING_BUCKETS`].
    pub fn king_buckets(table: [u8; 32]) -> Result<Inputs, NetError> {
        let buckets = table.iter().max().map_or(0, |&m| m as usize + 1);
        if buckets > MAX_KING_BUCKETS {
            return Err(NetError::Range(format!(
                "{buckets} king buckets, at most {MAX_KING_BUCKETS}"
            )));
        }
        if let Some(b) = (0..buckets as u8).find(|b| !table.contains(b)) {
            return Err(NetError::Range(format!(
                "king bucket {b} has no square (buckets are numbered from 0 with none skipped)"
            )));
        }
        Ok(Inputs {
            mirrored: true,
            table,
            buckets: buckets as u8,
        })
    }

    /// The king-bucket layouts `sable train --king-buckets N` offers, all mirrored (files
    /// a-d, rank 1 the perspective's back rank), after those public engines report:
    /// - 1: no buckets (mirrored inputs alone);
    /// - 2: the king on its back rank, or off it;
    /// - 4: rank 1 files a-b, rank 1 files c-d, rank 2, ranks 3-8 (akimbo's);
    /// - 10: a1, b1, c1, d1 each, rank 2 a-b, rank 2 c-d, rank 3, rank 4, ranks 5-6,
    ///   ranks 7-8 (bullet's example of input buckets).
    pub fn preset(buckets: usize) -> Option<Inputs> {
        let of = |f: &dyn Fn(usize, usize) -> u8| -> [u8; 32] {
            std::array::from_fn(|i| f(i / 4, i % 4))
        };
        let table = match buckets {
            1 => return Some(Inputs::MIRRORED),
            2 => of(&|rank, _| (rank > 0) as u8),
            4 => of(&|rank, file| match rank {
                0 => (file >= 2) as u8,
                1 => 2,
                _ => 3,
            }),
            10 => of(&|rank, file| match rank {
                0 => file as u8,
                1 => 4 + (file >= 2) as u8,
                2 => 6,
                3 => 7,
                4 | 5 => 8,
                _ => 9,
            }),
            _ => return None,
        };
        Inputs::king_buckets(table).ok()
    }

    /// Whether a perspective whose king stands on files e-h reads the files flipped.
    pub fn mirrored(&self) -> bool {
        self.mirrored
    }

    /// The number of king buckets (1 without).
    pub fn buckets(&self) -> usize {
        self.buckets as usize
    }

    /// The king-bucket table (`rank * 4 + file`, files a-d).
    pub fn table(&self) -> &[u8; 32] {
        &self.table
    }

    /// The input rows: 768 per king bucket.
    pub fn rows(&self) -> usize {
        self.buckets() * INPUTS
    }

    /// The view of a perspective whose own king stands on `king`, given from that side
    /// (rank-flipped for Black, as features are).
    #[inline]
    pub fn view(&self, king: Square) -> View {
        // Only mirrored layouts have buckets (and the flipped king is then on files a-d).
        if !self.mirrored {
            return View::default();
        }
        let flip = super::king_flips(king);
        let sq = king.index() ^ (7 * flip as usize);
        let bucket = self.table[(sq / 8) * 4 + sq % 8] as u32;
        View {
            base: bucket * INPUTS as u32,
            xor: 7 * flip as u32,
        }
    }
}
