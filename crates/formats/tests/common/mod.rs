//! Shared helpers for the integration tests: reading the data, random numbers, Chess960.
#![allow(dead_code)]

/// A data file as text (`testdata/` at the repository root, or `$SABLE_DATA`).
pub fn read(rel: &str) -> String {
    sable_testdata::read_to_string(rel)
}

/// A small deterministic generator (xorshift64*), so random tests repeat exactly.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// The Chess960 start position number `n` (0..960) as Shredder-FEN (518 is the normal start).
pub fn chess960_fen(n: usize) -> String {
    sable_chess::Position::chess960_start(n as u32)
        .expect("n < 960")
        .fen()
}
