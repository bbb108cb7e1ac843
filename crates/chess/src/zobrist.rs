//! Zobrist keys: the Polyglot table for the position and pawn keys, and a generated
//! table for the material key (a signature of which pieces, how many of each).

use crate::polyglot_random::POLYGLOT;
use crate::{Color, Piece, Square};

/// Polyglot's piece index: black pawn 0, white pawn 1, black knight 2, …
#[inline]
const fn polyglot_kind(piece: Piece) -> usize {
    2 * piece.role().index() + (piece.color() as usize ^ 1)
}

#[inline]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    POLYGLOT[64 * polyglot_kind(piece) + sq.index()]
}

/// Index 0 White king side, 1 White queen side, 2 Black king side, 3 Black queen side.
#[inline]
pub fn castling(index: usize) -> u64 {
    POLYGLOT[768 + index]
}

#[inline]
pub fn en_passant_file(file: usize) -> u64 {
    POLYGLOT[772 + file]
}

/// Xored in when White is to move (Polyglot's convention).
#[inline]
pub fn white_to_move() -> u64 {
    POLYGLOT[780]
}

/// Keys of each castling-rights nibble, so a change of rights is one xor.
static CASTLING_SETS: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut set = 0;
    while set < 16 {
        let mut bit = 0;
        while bit < 4 {
            if set >> bit & 1 != 0 {
                t[set] ^= POLYGLOT[768 + bit];
            }
            bit += 1;
        }
        set += 1;
    }
    t
};

#[inline]
pub fn castling_set(rights: u8) -> u64 {
    CASTLING_SETS[(rights & 15) as usize]
}

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// `MATERIAL[piece][n]` is xored in when the `n`-th piece of that kind (0-based) arrives.
static MATERIAL: [[u64; 16]; 12] = {
    let mut t = [[0u64; 16]; 12];
    let mut state = 0x5AB1_E000_0000_0001;
    let mut p = 0;
    while p < 12 {
        let mut n = 0;
        while n < 16 {
            let (s, v) = splitmix(state);
            state = s;
            t[p][n] = v;
            n += 1;
        }
        p += 1;
    }
    t
};

/// The material-key term for the `count`-th piece (0-based) of this kind.
#[inline]
pub fn material(piece: Piece, count: u32) -> u64 {
    MATERIAL[piece.index()][(count & 15) as usize]
}

/// Material key of a set of piece counts (index by `Piece::index`).
pub fn material_of(counts: &[u32; 12]) -> u64 {
    let mut key = 0;
    for (i, &n) in counts.iter().enumerate() {
        for k in 0..n {
            key ^= material(Piece::from_index(i), k);
        }
    }
    key
}

#[inline]
pub fn side(color: Color) -> u64 {
    match color {
        Color::White => white_to_move(),
        Color::Black => 0,
    }
}
