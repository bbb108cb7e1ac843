//! Perft: counting the leaves of the legal move tree, the standard test of a move
//! generator. Leaves are counted in bulk (the legal-move count at depth 1).

use crate::{Move, MoveList, Position};

/// Leaf count of the tree of legal moves `depth` plies deep.
///
/// ```
/// let pos = sable_chess::Position::startpos();
/// assert_eq!(sable_chess::perft(&pos, 4), 197_281);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut pos = pos.clone();
    perft_inner(&mut pos, depth)
}

fn perft_inner(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let moves = pos.legal_moves();
            let mut nodes = 0;
            for &m in moves.iter() {
                let undo = pos.make(m);
                nodes += perft_inner(pos, depth - 1);
                pos.unmake(m, &undo);
            }
            nodes
        }
    }
}

/// Leaf counts below each legal move (Stockfish's `go perft` divide), in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut pos = pos.clone();
    let moves: MoveList = pos.legal_moves();
    moves
        .iter()
        .map(|&m| {
            let undo = pos.make(m);
            let n = if depth <= 1 {
                1
            } else {
                perft_inner(&mut pos, depth - 1)
            };
            pos.unmake(m, &undo);
            (m, n)
        })
        .collect()
}
