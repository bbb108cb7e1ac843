//! `cargo bench -p sable_chess --bench perft`: perft speed of sable_chess against
//! cozy-chess (the fastest Rust move generator) on the six standard perft positions of the
//! Chess Programming Wiki in the same run, both bulk-counting leaves. Positions may be
//! named to run only those (`-- kiwipete "position 3"`); `--quick` runs two plies less.
//! Prints nodes/second for each and the ratio; the best of three runs counts, to damp
//! noise from other processes.
//!
//! `-- --cozy DEPTH FEN` counts one position with cozy-chess alone and prints
//! `Nodes searched: N` as `sable perft` does: `tools/perft-vs-stockfish.sh` times it
//! beside Stockfish and Sable.

use cozy_chess::Board;
use sable_chess::{perft, CastlingMode, Position};
use std::time::Instant;

fn cozy_perft(board: &Board, depth: u8) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

fn best_of<F: FnMut() -> u64>(runs: usize, mut f: F) -> (u64, f64) {
    let mut best = f64::MAX;
    let mut nodes = 0;
    for _ in 0..runs {
        let t = Instant::now();
        nodes = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (nodes, best)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = args.iter().position(|a| a == "--cozy") {
        let (Some(depth), Some(fen)) = (args.get(at + 1), args.get(at + 2)) else {
            panic!("--cozy DEPTH FEN");
        };
        let depth: u8 = depth.parse().expect("--cozy DEPTH FEN: depth");
        let board: Board = fen.parse().expect("--cozy DEPTH FEN: FEN");
        let nodes = if depth == 0 {
            1
        } else {
            cozy_perft(&board, depth)
        };
        println!("Nodes searched: {nodes}");
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let names: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let cases = [
        (
            "startpos",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            6u8,
        ),
        (
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            5,
        ),
        ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
        (
            "position 4",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            5,
        ),
        (
            "position 5",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            5,
        ),
        (
            "position 6",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            5,
        ),
    ];
    println!(
        "{:<12}{:>6}{:>14}{:>12}{:>12}{:>8}",
        "position", "depth", "nodes", "sable Mn/s", "cozy Mn/s", "ratio"
    );
    for (name, fen, depth) in cases {
        if !names.is_empty() && !names.iter().any(|n| *n == name) {
            continue;
        }
        let depth = if quick { depth - 2 } else { depth };
        let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
        let board: Board = fen.parse().unwrap();
        let (ours, t_ours) = best_of(3, || perft(&pos, depth as u32));
        let (theirs, t_theirs) = best_of(3, || cozy_perft(&board, depth));
        assert_eq!(ours, theirs, "{name}: node counts differ");
        println!(
            "{name:<12}{depth:>6}{ours:>14}{:>12.1}{:>12.1}{:>7.2}x",
            ours as f64 / t_ours / 1e6,
            theirs as f64 / t_theirs / 1e6,
            t_theirs / t_ours
        );
    }
}
