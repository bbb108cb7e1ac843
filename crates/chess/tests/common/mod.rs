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

/// One perft case: FEN and (depth, nodes) pairs.
#[derive(Debug, Clone)]
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// Reads `FEN ;D1 n ;D2 n` lines (standard.epd, fischer.epd).
pub fn parse_d_suite(text: &str) -> Vec<PerftCase> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut it = p.split_whitespace();
                    let d = it.next().unwrap().trim_start_matches('D').parse().unwrap();
                    let n = it.next().unwrap().parse().unwrap();
                    (d, n)
                })
                .collect();
            PerftCase { fen, counts }
        })
        .collect()
}

/// Reads `EPD id x; perft d n;` lines (perft-random.epd), grouping depths per position.
pub fn parse_random_suite(text: &str) -> Vec<PerftCase> {
    let mut cases: Vec<PerftCase> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = fields[..4].join(" ");
        let p = fields.iter().position(|&f| f == "perft").unwrap();
        let d: u32 = fields[p + 1].parse().unwrap();
        let n: u64 = fields[p + 2].trim_end_matches(';').parse().unwrap();
        match cases.last_mut() {
            Some(c) if c.fen == fen => c.counts.push((d, n)),
            _ => cases.push(PerftCase {
                fen,
                counts: vec![(d, n)],
            }),
        }
    }
    cases
}

/// Reads the python-chess/scalachess `.perft` block format.
pub fn parse_block_suite(text: &str) -> Vec<(String, PerftCase)> {
    let mut out = Vec::new();
    let mut id = String::new();
    let mut current: Option<PerftCase> = None;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if let Some(c) = current.take() {
                out.push((id.clone(), c));
            }
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => id = rest.to_string(),
            "epd" => {
                current = Some(PerftCase {
                    fen: rest.to_string(),
                    counts: Vec::new(),
                })
            }
            "perft" => {
                let mut it = rest.split_whitespace();
                let d = it.next().unwrap().parse().unwrap();
                let n = it.next().unwrap().parse().unwrap();
                current.as_mut().unwrap().counts.push((d, n));
            }
            _ => {}
        }
    }
    if let Some(c) = current.take() {
        out.push((id, c));
    }
    out
}
