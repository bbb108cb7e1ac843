//! Shared helpers for the evaluation tests: reading the data, a colour-flipping
//! mirror, and a pool of varied positions.
#![allow(dead_code)]

use sable_chess::{CastlingMode, Position};

/// A data file as text (`testdata/` at the repository root, or `$SABLE_DATA`).
pub fn read(rel: &str) -> String {
    sable_testdata::read_to_string(rel)
}

pub fn fen(s: &str) -> Position {
    Position::from_fen(s, CastlingMode::Standard).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The same position with the colours exchanged: board upside down, pieces recoloured,
/// the other side to move, castling rights and en passant square mirrored.
pub fn mirror(pos: &Position) -> Position {
    let f = pos.fen();
    let fields: Vec<&str> = f.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = fields[0].split('/').rev().map(swap).collect();
    let turn = if fields[1] == "w" { "b" } else { "w" };
    let castling = if fields[2] == "-" {
        "-".to_string()
    } else {
        let swapped = swap(fields[2]);
        let mut v: Vec<char> = swapped.chars().collect();
        v.sort_by_key(|c| (c.is_ascii_lowercase(), "KQkq".find(*c).unwrap_or(9)));
        v.into_iter().collect()
    };
    let ep = if fields[3] == "-" {
        "-".to_string()
    } else {
        let b = fields[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    let text = format!(
        "{} {turn} {castling} {ep} {} {}",
        board.join("/"),
        fields[4],
        fields[5]
    );
    fen(&text)
}

/// A small deterministic generator, so failures reproduce.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Positions from the perft suites plus random games played to their end (so every
/// stage of the game, endings with few pieces included, is represented).
pub fn position_pool() -> Vec<Position> {
    let mut out = Vec::new();
    for (file, step) in [("perft/standard.epd", 1), ("perft/perft-random.epd", 7)] {
        for line in read(file).lines().step_by(step) {
            let fields: Vec<&str> = line
                .split(';')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .take(6)
                .collect();
            if fields.len() < 4 {
                continue;
            }
            let text = if fields.len() == 6 && fields[4].parse::<u32>().is_ok() {
                fields.join(" ")
            } else {
                format!("{} 0 1", fields[..4].join(" "))
            };
            if let Ok(p) = Position::from_fen(&text, CastlingMode::Standard) {
                out.push(p);
            }
        }
    }
    let mut rng = Lcg(42);
    for _ in 0..300 {
        let mut pos = Position::startpos();
        for _ in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures so games reach endings with few pieces.
            let captures: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| pos.is_capture(*m))
                .collect();
            let m = if !captures.is_empty() && !rng.next().is_multiple_of(3) {
                captures[rng.next() as usize % captures.len()]
            } else {
                moves[rng.next() as usize % moves.len()]
            };
            pos.make(m);
            if rng.next().is_multiple_of(4) {
                out.push(pos.clone());
            }
            if pos.occupied().count() <= 3 {
                break;
            }
        }
    }
    out
}
