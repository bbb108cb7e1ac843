//! Perft suites from testdata/perft: every position, at depths that keep the whole
//! file within a few minutes in release mode (deeper runs: `sable perft --suite`).

mod common;
use common::*;
use sable_chess::{parse_suite, perft, CastlingMode, PerftCase, Position};

fn suite(file: &str) -> Vec<PerftCase> {
    parse_suite(&read(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Checks every case up to `max_nodes` leaves per depth; returns how many (position, depth)
/// pairs were checked.
fn run(cases: &[PerftCase], mode: CastlingMode, max_nodes: u64) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in cases {
        let pos = Position::from_fen_relaxed(&case.fen, mode)
            .unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(depth, expected) in &case.counts {
            if expected > max_nodes {
                continue;
            }
            let got = perft(&pos, depth);
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "{} depth {depth}: got {got}, expected {expected}",
                    case.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    checked
}

#[test]
fn standard_suite() {
    let cases = suite("perft/standard.epd");
    assert_eq!(cases.len(), 128, "127 positions, one listed twice");
    let n = run(&cases, CastlingMode::Standard, 20_000_000);
    assert!(n > 600, "checked {n}");
}

#[test]
fn fischer_suite() {
    let cases = suite("perft/fischer.epd");
    assert_eq!(cases.len(), 960);
    let n = run(&cases, CastlingMode::Chess960, 2_000_000);
    assert!(n >= 960 * 3, "checked {n}");
}

#[test]
fn random_suite_all_6838_positions() {
    let cases = suite("perft/perft-random.epd");
    assert_eq!(cases.len(), 6838);
    let n = run(&cases, CastlingMode::Standard, 1_000_000);
    assert!(n >= 6838 * 3, "checked {n}");
}

#[test]
fn tricky_suites() {
    for file in [
        "perft/tricky-python-chess.perft",
        "perft/tricky-scalachess.perft",
    ] {
        let cases = suite(file);
        assert!(cases.len() >= 18, "{file}: {} cases", cases.len());
        assert!(cases.iter().all(|c| c.id.is_some() && !c.counts.is_empty()));
        run(&cases, CastlingMode::Chess960, 5_000_000);
    }
}

#[test]
fn chess960_scalachess_suite() {
    let cases = suite("perft/chess960-scalachess.perft");
    assert_eq!(cases.len(), 960);
    run(&cases, CastlingMode::Chess960, 20_000);
}
