//! Slider geometry and the magic-number search.
//!
//! This file is compiled twice: by `build.rs`, which finds the magics and lays out the
//! attack table that the library embeds, and as `sable_chess::attacks::gen`, where
//! `sable magics` searches for denser tables and checks published ones. It therefore
//! depends on nothing but `core`: squares are plain `u8` (a1 = 0) and sets plain `u64`.

/// Which kind of slider.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Slider {
    Bishop,
    Rook,
}

impl Slider {
    const fn deltas(self) -> [(i8, i8); 4] {
        match self {
            Slider::Bishop => [(1, 1), (1, -1), (-1, 1), (-1, -1)],
            Slider::Rook => [(1, 0), (-1, 0), (0, 1), (0, -1)],
        }
    }
}

/// Attacks of a slider on `sq` given blockers `occupied`, by walking each ray.
pub const fn sliding_attacks(slider: Slider, sq: u8, occupied: u64) -> u64 {
    let deltas = slider.deltas();
    let mut attacks = 0u64;
    let mut i = 0;
    while i < 4 {
        let (df, dr) = deltas[i];
        let mut f = (sq & 7) as i8 + df;
        let mut r = (sq >> 3) as i8 + dr;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        i += 1;
    }
    attacks
}

/// The squares whose occupancy matters for a slider on `sq`: its empty-board attacks,
/// less the board edges that the ray would reach anyway.
pub const fn relevant_mask(slider: Slider, sq: u8) -> u64 {
    const RANK_1: u64 = 0xFF;
    const RANK_8: u64 = 0xFF << 56;
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let file = (sq & 7) as u32;
    let rank = (sq >> 3) as u32;
    let mut edges = 0;
    if rank != 0 {
        edges |= RANK_1;
    }
    if rank != 7 {
        edges |= RANK_8;
    }
    if file != 0 {
        edges |= FILE_A;
    }
    if file != 7 {
        edges |= FILE_H;
    }
    sliding_attacks(slider, sq, 0) & !edges
}

/// Every subset of `mask` (Carry-Rippler enumeration), in a fixed order.
pub fn subsets(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut subset = 0u64;
    loop {
        out.push(subset);
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            return out;
        }
    }
}

/// A small deterministic generator (xorshift64*), so that builds are reproducible.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A candidate magic with few bits set, which tends to succeed sooner.
    pub fn sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }
}

/// Why a magic fails to index a square's occupancies in the given number of bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Collision {
    /// Two occupancies (subsets of the mask) that land on the same slot…
    pub first: u64,
    pub second: u64,
    /// …at this index, although their attack sets differ.
    pub index: usize,
}

/// The slot a magic gives an occupancy.
#[inline]
pub const fn magic_index(occupied: u64, mask: u64, magic: u64, bits: u32) -> usize {
    ((occupied & mask).wrapping_mul(magic) >> (64 - bits)) as usize
}

/// Fills a `1 << bits` table for one square, or reports the first destructive collision
/// (two occupancies with different attacks on one slot; equal attacks may share a slot).
pub fn try_magic(
    occupancies: &[u64],
    attacks: &[u64],
    mask: u64,
    magic: u64,
    bits: u32,
    table: &mut Vec<u64>,
    owner: &mut Vec<u64>,
) -> Result<(), Collision> {
    table.clear();
    table.resize(1 << bits, 0);
    owner.clear();
    owner.resize(1 << bits, u64::MAX);
    for (&occ, &att) in occupancies.iter().zip(attacks) {
        let index = magic_index(occ, mask, magic, bits);
        if owner[index] == u64::MAX {
            owner[index] = occ;
            table[index] = att;
        } else if table[index] != att {
            return Err(Collision {
                first: owner[index],
                second: occ,
                index,
            });
        }
    }
    Ok(())
}

/// Checks a magic for `sq` in `bits` index bits, with the usual edge-less mask.
pub fn check_magic(slider: Slider, sq: u8, magic: u64, bits: u32) -> Result<(), Collision> {
    let mask = relevant_mask(slider, sq);
    let occupancies = subsets(mask);
    let attacks: Vec<u64> = occupancies
        .iter()
        .map(|&o| sliding_attacks(slider, sq, o))
        .collect();
    try_magic(
        &occupancies,
        &attacks,
        mask,
        magic,
        bits,
        &mut Vec::new(),
        &mut Vec::new(),
    )
}

/// Searches for a magic for `sq` in `bits` index bits, giving up after `tries` candidates.
pub fn find_magic(slider: Slider, sq: u8, bits: u32, tries: u64, rng: &mut Rng) -> Option<u64> {
    let mask = relevant_mask(slider, sq);
    let occupancies = subsets(mask);
    let attacks: Vec<u64> = occupancies
        .iter()
        .map(|&o| sliding_attacks(slider, sq, o))
        .collect();
    let (mut table, mut owner) = (Vec::new(), Vec::new());
    for i in 0..tries {
        // Mostly sparse candidates, which succeed soonest at the usual size; denser ones
        // now and then, which the constructive collisions of smaller tables need.
        let magic = match i % 4 {
            3 => rng.next_u64(),
            2 => rng.next_u64() & rng.next_u64(),
            _ => rng.sparse(),
        };
        // Candidates that spread the mask poorly into the top bits fail; skip them early.
        if bits >= 8 && (mask.wrapping_mul(magic) & 0xFF00_0000_0000_0000).count_ones() < 6 {
            continue;
        }
        if try_magic(
            &occupancies,
            &attacks,
            mask,
            magic,
            bits,
            &mut table,
            &mut owner,
        )
        .is_ok()
        {
            return Some(magic);
        }
    }
    None
}
