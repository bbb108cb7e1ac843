//! Shared helpers for the integration tests: where the data lives, perft-file parsing.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared/data` beside the checkout, or `$SABLE_DATA`.
pub fn data_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("SABLE_DATA") {
        return PathBuf::from(dir);
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.join("../../../shared/data")
}

pub fn read(rel: &str) -> String {
    let path = data_dir().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
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
