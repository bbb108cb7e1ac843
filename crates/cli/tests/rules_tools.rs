//! The rules-core tools of the `sable` binary: perft, perft suites, random games, magics.

mod support;
use support::{data, sable};

#[test]
fn perft_divide_prints_like_stockfish() {
    let (ok, out) = sable(&["perft", "3", "--divide"]);
    assert!(ok, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20 + 1 + 2, "{out}");
    assert!(lines.contains(&"e2e4: 600"), "{out}");
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 8902");
    assert!(lines[22].starts_with("Time: "));
    assert!(out.lines().all(|l| l == l.trim_end()), "no trailing spaces");
}

#[test]
fn perft_threads_and_chess960_castling_notation() {
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (ok, out) = sable(&["perft", "4", "--fen", kiwi, "--threads", "2"]);
    assert!(ok && out.contains("Nodes searched: 4085603"), "{out}");
    let (ok, out) = sable(&["perft", "1", "--fen", kiwi, "--divide", "--chess960"]);
    assert!(
        ok && out.contains("e1h1: 1") && out.contains("e1a1: 1"),
        "{out}"
    );
    let (ok, out) = sable(&["perft", "1", "--fen", kiwi, "--divide"]);
    assert!(
        ok && out.contains("e1g1: 1") && out.contains("e1c1: 1"),
        "{out}"
    );
    // Shredder-FEN letters read without --chess960.
    let (ok, out) = sable(&[
        "perft",
        "2",
        "--fen",
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
    ]);
    assert!(ok && out.contains("Nodes searched: 568"), "{out}");
}

#[test]
fn perft_reports_bad_input() {
    let (ok, out) = sable(&["perft", "2", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert!(!ok && out.contains("has no king"), "{out}");
    let (ok, out) = sable(&["perft"]);
    assert!(!ok && out.contains("DEPTH"), "{out}");
}

#[test]
fn perft_suite_summary() {
    let (ok, out) = sable(&[
        "perft",
        "--suite",
        &data("perft/standard.epd"),
        "--max-nodes",
        "20000",
    ]);
    assert!(ok, "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
    // A wrong count is reported and fails the run.
    let dir = std::env::temp_dir().join(format!("sable-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.epd");
    std::fs::write(
        &bad,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id start; perft 2 401;\n",
    )
    .unwrap();
    let (ok, out) = sable(&["perft", "--suite", bad.to_str().unwrap()]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("got 400, expected 401") && out.contains("0 passed, 1 failed"),
        "{out}"
    );
}

#[test]
fn random_games_table_and_verify() {
    let (ok, out) = sable(&[
        "random-games",
        "200",
        "--seed",
        "3",
        "--threads",
        "2",
        "--verify",
    ]);
    assert!(ok, "{out}");
    for name in [
        "checkmate",
        "fifty moves",
        "insufficient material",
        "threefold repetition",
        "stalemate",
    ] {
        assert!(out.contains(name), "{out}");
    }
    let total: u64 = out
        .lines()
        .skip(1)
        .take(5)
        .map(|l| {
            l.split_whitespace()
                .rev()
                .nth(1)
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    assert_eq!(total, 200, "{out}");
    assert!(out.contains("verified"), "{out}");
    // The same seed gives the same games whatever the thread count.
    let (_, one) = sable(&["random-games", "100", "--seed", "9"]);
    let (_, two) = sable(&["random-games", "100", "--seed", "9", "--threads", "2"]);
    let table = |s: &str| s.lines().take(7).collect::<Vec<_>>().join("\n");
    assert_eq!(table(&one), table(&two));
}

#[test]
fn magics_check_of_the_published_dense_table() {
    let (ok, out) = sable(&["magics", "--check"]);
    assert!(ok, "{out}");
    // Checked independently by tools/check_magics.py (plain Python, its own masks and ray
    // walking; .ci/run runs it and compares): only the b2 entry collides destructively.
    assert!(out.contains("22 of 23 hold, 1 fail"), "{out}");
    let b2 = out.lines().find(|l| l.starts_with("b2")).unwrap();
    assert!(
        b2.contains("FAILS") && b2.contains("attack different squares"),
        "{b2}"
    );
}

#[test]
fn a_closed_pipe_ends_a_tool_quietly() {
    use std::process::{Command, Stdio};
    // The reader goes away at once, before perft has counted anything (as `| head -0`
    // would): the first line printed meets a closed pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sable"))
        .args(["perft", "5", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(141), "{stderr}");
}
