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

/// The Chess960 start position number `n` (0..960) as Shredder-FEN, by the standard
/// numbering (518 is the normal start).
pub fn chess960_fen(n: usize) -> String {
    let mut rank = [' '; 8];
    let mut n = n;
    let free = |rank: &[char; 8]| -> Vec<usize> { (0..8).filter(|&i| rank[i] == ' ').collect() };
    rank[(n % 4) * 2 + 1] = 'B';
    n /= 4;
    rank[(n % 4) * 2] = 'B';
    n /= 4;
    let f = free(&rank);
    rank[f[n % 6]] = 'Q';
    n /= 6;
    let knights = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = knights[n];
    let f = free(&rank);
    rank[f[a]] = 'N';
    rank[f[b]] = 'N';
    let f = free(&rank);
    rank[f[0]] = 'R';
    rank[f[1]] = 'K';
    rank[f[2]] = 'R';
    let white: String = rank.iter().collect();
    let files: String = [f[2], f[0]]
        .iter()
        .map(|&i| (b'A' + i as u8) as char)
        .collect();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {files}{} - 0 1",
        white.to_lowercase(),
        files.to_lowercase()
    )
}
