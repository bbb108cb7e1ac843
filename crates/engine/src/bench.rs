//! `bench`: a fixed set of positions searched to a fixed depth by one thread with fresh
//! tables, so that the node count identifies the search and evaluation exactly.

use crate::engine::Engine;
use crate::limits::SearchLimits;
use std::time::Duration;

/// Default depth of `sable bench`.
pub const DEFAULT_DEPTH: u32 = 12;

/// 40 middlegame and endgame positions (every 60th castling-free line of cozy-chess's
/// `valid.sfens` test data, MIT) and 10 openings (every 15,000th line of Stockfish's
/// `noob_3moves.epd` book, CC0): 50 in all.
pub const POSITIONS: [&str; 50] = [
    "8/3pk2p/5p1N/2Bb1Pp1/4n3/8/P1r1P3/4K3 b - - 1 27",
    "1k2r1q1/1p1p2pp/ppr1np2/1N6/4P1PP/QBP2P2/1P1P4/1K2R3 w - - 2 19",
    "2k5/pp6/2p3np/2Ppb1p1/1P4P1/2B2PN1/P3K3/8 w - - 0 29",
    "4k3/pK4p1/1p2r3/5r2/2P5/1P5R/P7/2R5 b - - 8 34",
    "7r/pkrp4/1p3P1b/4PN2/3P4/1R1K2p1/8/5RB1 w - - 4 35",
    "8/5p1p/4r3/2k1n3/1pp5/6P1/P1R2PKP/2R5 b - - 3 36",
    "3n4/6p1/1k1b1p1p/1p1Pp2P/1P1pP1P1/1K1B1P2/8/2B5 w - - 8 49",
    "8/7k/p5p1/2PQ1p2/3b4/P2r2P1/1P2rPK1/8 w - - 1 34",
    "k5r1/8/8/3b4/Pp1p3P/5RP1/1P3P2/2K5 w - - 0 33",
    "8/R6p/p2k4/8/8/2P5/P3nKPP/8 b - - 6 41",
    "8/p2p4/2p5/2p2k2/1PP3p1/4r3/P1K5/5B2 w - - 0 30",
    "2kB4/2b4p/pp6/2p5/8/1P1B4/P1PP4/2KbR3 b - - 0 25",
    "3r3r/p4k1p/1pp2pp1/8/P2Pp1P1/2P5/1P5Q/2KR2BR w - - 0 29",
    "8/p7/3p2k1/7q/1p1n1K2/1P3nP1/8/8 w - - 7 43",
    "qr4kn/p4ppp/1p2r3/2pp4/2P5/1P6/PQ3PPP/1R1BR1K1 w - - 0 16",
    "8/8/p1bk1p1p/4pPpP/1PP1P1P1/8/1K6/4R3 w - - 1 47",
    "6k1/p1q3p1/7p/pP1p4/2r1p3/1N2P1PP/3Q1P2/6K1 b - - 1 35",
    "2k2r2/p6b/1p2pB2/4P2B/1KpN4/7P/PP3PP1/2r5 w - - 0 28",
    "8/pp2k3/5p2/2P5/5KNp/8/2P3r1/8 b - - 1 43",
    "8/8/8/8/8/pK6/1b6/2k5 b - - 3 75",
    "1k5r/1p1b2Qp/p1p5/3p4/N3r1pN/bP3q2/P1PR3P/1K1R4 b - - 0 26",
    "1kr4r/p2p1p2/8/1qpNP2p/1P3P2/2QP1pPn/3K3P/1R6 w - - 1 31",
    "r4r1k/1pqn2p1/3nbpB1/p2p4/3b4/2P2P2/PPQNN1PP/2KR3R w - - 0 17",
    "5R2/8/4pkp1/8/4p1r1/4K3/8/8 b - - 1 45",
    "8/pk6/1p1p4/7n/P1Q1P1q1/1P1P1N2/2P4P/2KR4 w - - 6 28",
    "3k4/pp2p2p/2p1Ppp1/5n2/2P3N1/1P5P/2K2PP1/8 w - - 0 30",
    "8/R1br1k1p/2b1q1p1/1pB1p3/1Pp5/2P2P2/2Q3PP/3R2K1 b - - 0 32",
    "8/7n/8/5p1K/5k2/R7/p5r1/8 w - - 0 68",
    "2rk1q2/1p4pp/1Prp1b2/4pN2/QP2P3/5P2/P2P2PP/5RK1 w - - 1 24",
    "1bnr1qk1/p2p2pp/1pp1p1n1/8/3PP3/2PN4/PP2Q1PP/B1KR3N w - - 0 12",
    "1b4k1/pPpb1n2/3p1q2/3Pp2Q/PP2Pp2/5N1p/7K/1B6 b - - 5 37",
    "4k3/8/3Qp3/3pB2P/3P2P1/1P3K2/8/8 w - - 3 47",
    "1r1nqr2/pkp2n2/1pb4b/4p2p/3pPp1P/1P1P1P1B/PNP1QNRK/BR6 b - - 5 17",
    "5k2/2pQrbpp/1pB2p2/p3qP2/2P5/1P2rP1P/P5P1/1R3R1K w - - 3 24",
    "r1q2rk1/1pp2ppp/1pnp1n2/4p3/2P1P3/PPN2N2/2P2PPP/R1Q2RK1 b - - 0 12",
    "8/2r2p2/5Kp1/7p/1R3P2/p5P1/8/k7 w - - 2 49",
    "8/6p1/8/2K2k2/8/2n2P2/8/8 w - - 5 51",
    "1k3r2/2pb3p/1p1p2pq/K2Np3/2PnP2P/B2PN3/PP1Q4/R7 w - - 0 24",
    "2k5/2p1p3/p5p1/1bK1PpPp/5P1P/8/8/8 b - - 1 32",
    "2krr3/ppp2qpp/1n1p1pb1/3P4/4nQ1P/1N1B2N1/PPP3P1/2KRR3 w - - 0 16",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 4",
    "rnbqkb1r/1ppppp1p/p4np1/8/1P1P4/4P3/P1P2PPP/RNBQKBNR w KQkq - 0 4",
    "r1bqkbnr/pppp2pp/2n1p3/5p2/P7/5N1P/1PPPPPP1/RNBQKB1R w KQkq - 0 4",
    "r1bqkbnr/ppp2ppp/2npp3/8/8/3P2PN/PPP1PP1P/RNBQKB1R w KQkq - 0 4",
    "rnbqkb1r/ppppp2p/5np1/5p2/1PP5/P7/3PPPPP/RNBQKBNR w KQkq - 0 4",
    "rnbqk1nr/ppppppbp/6p1/8/8/3PP3/PPP1BPPP/RNBQK1NR w KQkq - 0 4",
    "rnbqkbnr/pp1p1p1p/2p1p1p1/8/3P4/1P2P3/P1P2PPP/RNBQKBNR w KQkq - 0 4",
    "rn1qkbnr/ppp1pp1p/4b1p1/3p4/8/2N1P3/PPPPBPPP/R1BQK1NR w KQkq - 0 4",
    "rnbqk1nr/ppp1ppbp/3p2p1/8/3P4/1PP5/P3PPPP/RNBQKBNR w KQkq - 0 4",
    "rnbqkb1r/pppp2pp/5n2/4pp2/1PP5/6P1/P2PPP1P/RNBQKBNR w KQkq - 0 4",
];

/// What a bench run measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub time: Duration,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000 / self.time.as_micros().max(1)) as u64
    }
}

/// Searches every bench position to `depth`; `progress` sees each position's index and
/// node count as it completes.
pub fn run(depth: u32, progress: impl FnMut(usize, u64)) -> BenchResult {
    run_with(&mut Engine::new(), depth, progress)
}

/// [`run`] with an engine whose options (the network) the caller set.
pub fn run_with(
    engine: &mut Engine,
    depth: u32,
    mut progress: impl FnMut(usize, u64),
) -> BenchResult {
    let mut nodes = 0;
    // Only search time counts: clearing the tables between positions is not speed.
    let mut time = Duration::ZERO;
    for (i, fen) in POSITIONS.iter().enumerate() {
        engine.new_game().expect("idle engine");
        engine
            .set_position(Some(fen), &[])
            .expect("bench positions are valid");
        let result = engine
            .search_quietly(SearchLimits::depth(depth))
            .expect("idle engine");
        nodes += result.nodes;
        time += result.time;
        progress(i, result.nodes);
    }
    BenchResult { nodes, time }
}
