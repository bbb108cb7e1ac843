//! The trainer tests' fixture: positions of random games scored by the hand-crafted
//! evaluation, as samples or as a text data file.
#![allow(dead_code)] // each test file uses its own part

use sable_chess::{Color, Position};
use sable_engine::eval::Evaluator;
use sable_engine::nnue::rng::Rng;
use sable_train::data::Sample;
use sable_train::TrainConfig;
use std::path::{Path, PathBuf};

/// Positions of random games, scored by the hand-crafted evaluation; the "result" is
/// what that score predicts (won above 200 cp, lost below -200, else drawn).
pub fn fixture(n: usize, seed: u64) -> Vec<(Position, i16, f32)> {
    let mut rng = Rng(seed);
    let mut eval = Evaluator::new();
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::startpos();
        for _ in 0..rng.below(80) + 4 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves.as_slice()[rng.below(moves.len())]);
        }
        if pos.in_check() || pos.legal_moves().is_empty() {
            continue;
        }
        let cp = eval.evaluate(&pos).clamp(-3000, 3000) as i16;
        let result = if cp > 200 {
            1.0
        } else if cp < -200 {
            0.0
        } else {
            0.5
        };
        out.push((pos, cp, result));
    }
    out
}

pub fn samples(n: usize, seed: u64) -> Vec<Sample> {
    fixture(n, seed)
        .iter()
        .enumerate()
        .map(|(i, (p, s, r))| Sample::new(p, *s, *r).in_game(i as u32 / 8))
        .collect()
}

/// `n` fixture positions of seed `seed` as a `FEN | score | result` file (both from
/// White's side, as the format has them): each line is a game of its own when read.
pub fn text_file(path: &Path, n: usize, seed: u64) -> PathBuf {
    let mut text = String::new();
    for (pos, cp, result) in fixture(n, seed) {
        let (cp, result) = match pos.turn() {
            Color::White => (cp, result),
            Color::Black => (-cp, 1.0 - result),
        };
        text.push_str(&format!("{} | {cp} | {result:.1}\n", pos.fen()));
    }
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

/// A small, quick training setting: hidden 16, four epochs of batches of 128.
pub fn config() -> TrainConfig {
    TrainConfig {
        hidden: 16,
        epochs: 4,
        batch: 128,
        lr: 0.01,
        wdl: 0.25,
        val: 0.1,
        threads: 2,
        seed: 3,
        ..TrainConfig::default()
    }
}
