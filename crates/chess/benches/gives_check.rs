//! `cargo bench -p sable_chess --bench gives_check`: marking the checking moves of many
//! positions with `gives_check` against doing it by make / in_check / unmake, in one run.

use sable_chess::{CastlingMode, Position};
use std::hint::black_box;
use std::time::Instant;

fn positions() -> Vec<Position> {
    // Positions from a fixed random playout of each suite-style start.
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ];
    let mut out = Vec::new();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for fen in starts {
        for _ in 0..200 {
            let mut pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
            for _ in 0..40 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                out.push(pos.clone());
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.make(moves[(seed % moves.len() as u64) as usize]);
            }
        }
    }
    out
}

fn main() {
    let positions = positions();
    let lists: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
    let total: usize = lists.iter().map(|l| l.len()).sum();
    let mut best = [f64::MAX; 3];
    let mut checks = [0usize; 3];
    for _ in 0..5 {
        let t = Instant::now();
        let mut n = 0;
        for (pos, moves) in positions.iter().zip(&lists) {
            for &m in moves.iter() {
                n += pos.gives_check(black_box(m)) as usize;
            }
        }
        best[0] = best[0].min(t.elapsed().as_secs_f64());
        checks[0] = n;

        let t = Instant::now();
        let mut n = 0;
        for (pos, moves) in positions.iter().zip(&lists) {
            let info = pos.check_info();
            for &m in moves.iter() {
                n += pos.gives_check_with(black_box(m), &info) as usize;
            }
        }
        best[2] = best[2].min(t.elapsed().as_secs_f64());
        checks[2] = n;

        let t = Instant::now();
        let mut n = 0;
        for (pos, moves) in positions.iter().zip(&lists) {
            let mut pos = pos.clone();
            for &m in moves.iter() {
                let undo = pos.make(black_box(m));
                n += pos.in_check() as usize;
                pos.unmake(m, &undo);
            }
        }
        best[1] = best[1].min(t.elapsed().as_secs_f64());
        checks[1] = n;
    }
    assert_eq!(checks[0], checks[1]);
    assert_eq!(checks[2], checks[1]);
    let ns = |t: f64| t * 1e9 / total as f64;
    println!(
        "{} positions, {total} moves, {} of them checks",
        positions.len(),
        checks[0]
    );
    println!(
        "make/in_check/unmake            {:6.1} ns/move",
        ns(best[1])
    );
    println!(
        "gives_check                     {:6.1} ns/move  {:.1}x faster",
        ns(best[0]),
        best[1] / best[0]
    );
    println!(
        "check_info + gives_check_with   {:6.1} ns/move  {:.1}x faster",
        ns(best[2]),
        best[1] / best[2]
    );
}
