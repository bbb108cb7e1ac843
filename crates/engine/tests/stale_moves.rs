//! The move played when a search is cut short (issue: "the search under a clock plays
//! stale moves"). The played move must be the best move of the last completed
//! iteration, or a move of the unfinished iteration that was searched completely and
//! proved better; the last report before the result must describe it.
//!
//! The oracle for the completed iterations is an independent run: with one thread and
//! fresh tables a search is deterministic, so a search limited to N nodes is a prefix of
//! the search limited by depth. `go depth d` from scratch gives the best move of
//! iteration d and the number of nodes at which iteration d ends; a node limit that falls
//! between two such counts stops the search inside the next iteration, at a point chosen
//! by the test: before the first move has finished, during a re-search after a fail low,
//! or after another move has taken over.

use sable_chess::{CastlingMode, Move, Position};
use sable_engine::{Bound, Engine, SearchEvent, SearchInfo, SearchLimits, SearchResult};

/// The start position, the position from the issue (where `e1f1` was played from a
/// 2-ply search), and middlegames from the noob_3moves book and the usual perft set.
const POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqk1nr/p1ppppbp/1p4p1/1B6/3P4/4P3/PPP2PPP/RNBQK1NR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
];

fn engine(fen: &str, threads: i64, multipv: i64) -> Engine {
    let mut e = Engine::new();
    e.set_hash_mb(16).unwrap();
    e.set_threads(threads).unwrap();
    e.set_multipv(multipv).unwrap();
    e.set_position(Some(fen), &[]).unwrap();
    e
}

/// Runs a search with fresh tables; its reports and its result.
fn run(
    fen: &str,
    threads: i64,
    multipv: i64,
    limits: SearchLimits,
) -> (Vec<SearchInfo>, SearchResult) {
    let mut e = engine(fen, threads, multipv);
    let mut infos = Vec::new();
    let r = e
        .search(limits, |ev| {
            if let SearchEvent::Info(i) = ev {
                infos.push(i.clone());
            }
        })
        .unwrap();
    (infos, r)
}

/// For each depth 1..=max: the best move of a fresh `go depth d` and its node count.
fn completed_iterations(fen: &str, multipv: i64, max: u32) -> Vec<(Move, u64)> {
    (1..=max)
        .map(|d| {
            let (_, r) = run(fen, 1, multipv, SearchLimits::depth(d));
            (r.best.unwrap(), r.nodes)
        })
        .collect()
}

/// The reports with `multipv 1` describe the played move last, with the result's
/// score, depth and line.
fn check_final_report(fen: &str, infos: &[SearchInfo], r: &SearchResult) -> SearchInfo {
    let best = r.best.expect("a move");
    let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
    assert!(pos.is_legal(best), "{fen}: illegal {best:?}");
    let last = infos
        .iter()
        .rev()
        .find(|i| i.multipv == 1)
        .expect("a report")
        .clone();
    assert_eq!(
        last.pv.first(),
        Some(&best),
        "{fen}: last report {last:?}, played {best:?}"
    );
    assert_eq!(last.pv, r.pv, "{fen}");
    assert_eq!(
        (last.depth, last.score_value),
        (r.depth, r.score_value),
        "{fen}"
    );
    last
}

/// Node limits that stop the search at eight points inside each iteration from 4 on.
fn limits_inside_iterations(done: &[(Move, u64)]) -> Vec<(usize, u64)> {
    let mut out = Vec::new();
    for d in 3..done.len() - 1 {
        let (lo, hi) = (done[d].1, done[d + 1].1);
        for k in 1..8 {
            let n = lo + (hi - lo) * k / 8;
            if n > lo && n < hi {
                // Iteration d + 1 (1-based) has completed; the next is under way.
                out.push((d + 1, n));
            }
        }
    }
    out
}

fn check_node_limited(multipv: i64, max_depth: u32) {
    let mut other_moves = 0;
    for fen in POSITIONS {
        let done = completed_iterations(fen, multipv, max_depth);
        for (depth, nodes) in limits_inside_iterations(&done) {
            let limits = SearchLimits {
                nodes: Some(nodes),
                ..SearchLimits::default()
            };
            let (infos, r) = run(fen, 1, multipv, limits);
            let last = check_final_report(fen, &infos, &r);
            let completed_best = done[depth - 1].0;
            let played = r.best.unwrap();
            if played == completed_best {
                // The completed choice, at its depth or re-searched deeper.
                assert!(
                    last.depth as usize >= depth,
                    "{fen} nodes {nodes}: {last:?}"
                );
            } else {
                // Another move: only one searched completely in the unfinished
                // iteration, proven better than the completed choice (or than the
                // window it failed against), never a fail low.
                other_moves += 1;
                assert_eq!(
                    last.depth as usize,
                    depth + 1,
                    "{fen} nodes {nodes}: played {played:?} from {last:?}, iteration {depth} chose {completed_best:?}"
                );
                assert_ne!(last.bound, Bound::Upper, "{fen} nodes {nodes}: {last:?}");
            }
        }
    }
    // The limits are dense enough to catch moves taking over mid-iteration.
    assert!(
        other_moves > 0,
        "no search was stopped after a change of mind"
    );
}

#[test]
fn node_limited_searches_play_completed_or_proven_moves() {
    check_node_limited(1, 11);
}

#[test]
fn multipv_searches_play_completed_or_proven_moves() {
    check_node_limited(3, 9);
}

/// The issue's own check: at fixed times, from the start position and book positions,
/// the played move is the one the deepest completed iteration reported, unless the last
/// report comes from deeper than every completed iteration.
#[test]
fn timed_searches_never_end_on_a_stale_line() {
    for threads in [1, 2] {
        for (i, fen) in POSITIONS.iter().enumerate() {
            let ms = 40 + 35 * i as u64;
            let limits = SearchLimits {
                movetime_ms: Some(ms),
                ..SearchLimits::default()
            };
            let (infos, r) = run(fen, threads, 1, limits);
            let last = check_final_report(fen, &infos, &r);
            if threads > 1 {
                // Another thread's line may be played; it is still reported last.
                continue;
            }
            let before = &infos[..infos.len() - 1];
            let deepest_exact = before
                .iter()
                .filter(|i| i.bound == Bound::Exact)
                .map(|i| i.depth)
                .max()
                .unwrap_or(0);
            if last.depth <= deepest_exact {
                let completed = before
                    .iter()
                    .rev()
                    .find(|i| i.bound == Bound::Exact && i.depth == last.depth)
                    .unwrap();
                assert_eq!(
                    completed.pv[0], last.pv[0],
                    "{fen} at {ms} ms: played {:?} at depth {}, but that iteration chose {:?}",
                    last.pv[0], last.depth, completed.pv[0]
                );
            }
        }
    }
}

/// `stop` at any moment of an infinite search: a legal move, described last.
#[test]
fn stop_mid_iteration_reports_what_is_played() {
    use std::sync::{Arc, Mutex};
    for (i, fen) in POSITIONS.iter().enumerate() {
        let mut e = engine(fen, 1 + (i % 2) as i64, 1);
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = events.clone();
        let limits = SearchLimits {
            infinite: true,
            ..SearchLimits::default()
        };
        e.go(limits, move |ev| sink.lock().unwrap().push(ev))
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(30 + 23 * i as u64));
        e.stop();
        e.wait();
        let events = events.lock().unwrap();
        let infos: Vec<SearchInfo> = events
            .iter()
            .filter_map(|ev| match ev {
                SearchEvent::Info(i) => Some(i.clone()),
                _ => None,
            })
            .collect();
        let result = match events.last() {
            Some(SearchEvent::Finished(r)) => r.clone(),
            other => panic!("{fen}: last event {other:?}"),
        };
        check_final_report(fen, &infos, &result);
    }
}
