//! NNUE: a perspective network `(768 -> H) x 2 -> 1` with SCReLU, as an alternative to
//! the hand-crafted evaluation (its trainer is the `sable_train` crate).
//!
//! - `format`: the [`Network`] (quantised weights), its file layout, loading and saving.
//! - `inputs`: which input rows a perspective reads ([`Inputs`]: plain, mirrored, or
//!   mirrored with king buckets, each side reading the rows of its own king's bucket).
//! - `simd`: the integer kernels (accumulator update, SCReLU dot product), AVX2 chosen
//!   at run time with a portable fallback that gives bit-identical results.
//! - `accumulator`: the search's stack of accumulators, updated incrementally along the tree.
//! - `rng`: the seeded SplitMix64 behind random nets, shared with the trainer.
//!
//! A feature is (piece colour relative to the perspective, piece type, square seen from
//! that side, the rank flipped for Black): `(rel * 6 + role) * 64 + square`, 768 in all.
//! A net with horizontally mirrored inputs ([`Network::mirrored`], format version 3)
//! also flips the file (`square ^ 7`) of every feature of a perspective whose own king
//! stands on files e-h ([`king_flips`]): each side sees its king on files a-d, and what
//! the net learns on one wing serves the other. Each perspective flips on its own king
//! alone, so a king move across the d/e line changes all of its side's features at once;
//! the accumulator stack recomputes that side's sums then (see `accumulator`). A net with
//! king buckets (format version 4) has 768 rows per bucket and each side reads those of
//! the bucket its king stands in; a king move into another bucket is handled the same way.
//! The output is `(SCReLU(stm) · w0 + SCReLU(nstm) · w1) / QA + bias`, in units of
//! `QA * QB`, then times the net's output scale for centipawns ([`SCALE`] as trained,
//! bullet's convention). A net may have
//! several output layers ("output buckets"), one per band of material ([`output_bucket`]):
//! the accumulators are shared, and only the last `2H + 1` weights differ by bucket, so
//! an endgame is judged by weights fitted to endgames at no cost in speed.

mod accumulator;
mod embedded;
mod format;
mod inputs;
pub mod rng;
mod simd;

pub use accumulator::{Accumulator, NnueStack};
pub use embedded::EMBEDDED;
pub use format::{check_buckets, check_hidden, NetError, Network, HEADER_LEN, MAGIC, VERSION};
pub use inputs::{Inputs, View, MAX_KING_BUCKETS};
pub use simd::Backend;

use sable_chess::{Color, Piece, Position, Square};

/// Inputs of one perspective: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Quantisation of the feature transformer (accumulator units per 1.0).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per 1.0 of network output as trained (a net file may say otherwise:
/// [`Network::output_scale`]).
pub const SCALE: i32 = 400;
/// Output scales a net file may have: a quarter to four times the trained one.
pub const MIN_OUTPUT_SCALE: i32 = SCALE / 4;
pub const MAX_OUTPUT_SCALE: i32 = SCALE * 4;
/// Hidden sizes a net file may have.
pub const MIN_HIDDEN: usize = 16;
pub const MAX_HIDDEN: usize = 1024;
/// Pieces on a board: the most features one perspective can have active.
pub const MAX_ACTIVE: usize = 32;
/// Output buckets a net file may have.
pub const MAX_BUCKETS: usize = 16;

/// The output bucket of a position with `pieces` pieces (kings included) in a net of
/// `buckets` buckets: equal bands of `32 / buckets` pieces from two pieces up, the top
/// band taking what is left (8 buckets: 2-5 pieces, 6-9, ..., 30-32).
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    debug_assert!((1..=MAX_BUCKETS).contains(&buckets));
    (pieces.saturating_sub(2) / (MAX_ACTIVE / buckets)).min(buckets - 1)
}

/// The input index of `piece` on `sq` from `persp`'s side, its file flipped when `flip`
/// (a net with mirrored inputs, `persp`'s king on files e-h: [`Network::view`]).
#[inline]
pub fn feature(persp: Color, piece: Piece, sq: Square, flip: bool) -> usize {
    let rel = (piece.color() != persp) as usize;
    (rel * 6 + piece.role().index()) * 64 + (sq.relative(persp).index() ^ (7 * flip as usize))
}

/// Whether a side whose king stands on `king` sees the board with its files flipped, in
/// a net with mirrored inputs: the king on files e-h.
#[inline]
pub const fn king_flips(king: Square) -> bool {
    king.file().index() >= 4
}

/// The same (unflipped) feature seen from the other side (used by the trainer, which
/// stores one list). The file flip commutes with it: a flipped feature is `f ^ 7`.
#[inline]
pub fn mirror_feature(f: usize) -> usize {
    let rel = f / 384;
    ((1 - rel) * 384 + f % 384) ^ 56
}

/// The active features of `pos` from `persp`'s side, unflipped, in square order (xor each
/// with 7 for a flipped perspective).
pub fn active_features(pos: &Position, persp: Color, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let mut n = 0;
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_at(sq) {
            out[n] = feature(persp, p, sq, false) as u16;
            n += 1;
        }
    }
    n
}
