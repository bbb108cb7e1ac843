//! The measured reason for the AVX2 kernels: incremental updates plus evaluation along
//! 200 random games, per backend and hidden size, in nanoseconds; and the same with
//! mirrored inputs (whose king moves across the d/e line recompute the mover's side).
//!
//! `cargo run --release -p sable_engine --example nnue_speed` (on a CPU without AVX2 it
//! measures the portable kernels alone).

use sable_chess::{Move, Position};
use sable_engine::nnue::rng::Rng;
use sable_engine::nnue::{Backend, Network, NnueStack};
use std::sync::Arc;

fn random_net(hidden: usize, seed: u64, mirrored: bool) -> Network {
    Network::random(hidden, 1, seed)
        .unwrap()
        .with_mirrored_inputs(mirrored)
}

fn main() {
    let backends: Vec<Backend> = std::iter::once(Backend::Portable)
        .chain(Backend::avx2())
        .collect();
    let games: Vec<Vec<Move>> = (0..200)
        .map(|g| {
            let mut rng = Rng(g);
            let mut pos = Position::startpos();
            let mut line = Vec::new();
            for _ in 0..100 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.below(moves.len())];
                line.push(m);
                pos.make(m);
            }
            line
        })
        .collect();
    for (hidden, mirrored) in [(32, false), (64, false), (256, false), (256, true)] {
        let net = Arc::new(random_net(hidden, 1, mirrored));
        for &backend in &backends {
            let mut stack = NnueStack::new(net.clone(), 128);
            stack.set_backend(backend);
            let (mut n, mut sum) = (0u64, 0i64);
            let start = std::time::Instant::now();
            for _ in 0..5 {
                for line in &games {
                    let mut pos = Position::startpos();
                    stack.reset(&pos);
                    for &m in line {
                        stack.push_move(&pos, m);
                        pos.make(m);
                        sum += stack.evaluate(&pos) as i64;
                        n += 1;
                    }
                }
            }
            let secs = start.elapsed().as_secs_f64();
            let inputs = if mirrored { ", mirrored inputs" } else { "" };
            println!(
                "hidden {hidden}{inputs} {backend:?}: {:.0} ns per update+eval ({sum})",
                secs * 1e9 / n as f64
            );
        }
    }
}
