//! What OpenBench asks of the engine: `sable tune-params` (its SPSA input, parsed back
//! against the table), and `genfens` run as OpenBench's client runs it, with the
//! commands as arguments (`sable "genfens N seed S book B" quit`): reproducible for a
//! seed, every FEN legal with moves to play, distinct, and from the book when one is
//! given; bad commands answered by name while the engine goes on.

mod support;

use sable_chess::{CastlingMode, Position};
use sable_engine::tunables::{self, TUNABLES};
use std::collections::HashSet;
use support::{data, sable};

#[test]
fn tune_params_is_the_table_in_openbenchs_spsa_format() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sable"))
        .arg("tune-params")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), TUNABLES.len(), "{text}");
    for (line, t) in lines.iter().zip(TUNABLES) {
        // OpenBench: `name, dtype, value, min, max, c_end, r_end`, split at commas.
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        assert_eq!(f.len(), 7, "{line}");
        assert_eq!(f[0], t.name);
        assert_eq!(f[1], "int");
        let n: Vec<i32> = f[2..6].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(n, [t.default, t.min, t.max, t.step], "{line}");
        assert_eq!(f[6].parse::<f64>().unwrap(), tunables::R_END);
        assert!(
            t.min <= t.default && t.default <= t.max && t.step > 0,
            "{line}"
        );
    }
}

/// The `info string genfens` lines of a run, as OpenBench's client reads them.
fn genfens(command: &str) -> (Vec<String>, String) {
    let (ok, text) = sable(&[command, "quit"]);
    assert!(ok, "{text}");
    let fens = text
        .lines()
        .filter_map(|l| l.strip_prefix("info string genfens "))
        .map(str::to_string)
        .collect();
    (fens, text)
}

/// Every FEN reads back, has six fields, has legal moves; all are distinct.
fn check_fens(fens: &[String], mode: CastlingMode) {
    let mut keys = HashSet::new();
    for fen in fens {
        assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
        let pos = Position::from_fen(fen, mode).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(!pos.legal_moves().is_empty(), "{fen}: no legal move");
        assert!(keys.insert(pos.key()), "{fen} twice");
    }
}

#[test]
fn genfens_from_the_start_is_reproducible_legal_and_distinct() {
    let (a, text) = genfens("genfens 24 seed 12345 book None");
    assert_eq!(a.len(), 24, "{text}");
    check_fens(&a, CastlingMode::Standard);
    // Random plies from the start: 8 or 9 of them, so both sides to move.
    for fen in &a {
        let full: u32 = fen.split_whitespace().nth(5).unwrap().parse().unwrap();
        assert_eq!(full, 5, "{fen}");
    }
    assert!(a.iter().any(|f| f.contains(" w ")) && a.iter().any(|f| f.contains(" b ")));
    let (b, _) = genfens("genfens 24 seed 12345 book None");
    assert_eq!(a, b, "the same seed gives the same openings");
    let (c, _) = genfens("genfens 24 seed 54321 book None");
    assert_ne!(a, c);
    // OpenBench appends its per-engine extra arguments; they are ignored, said so.
    let (d, text) = genfens("genfens 24 seed 12345 book None extra words");
    assert_eq!(a, d);
    assert!(
        text.contains("extra arguments 'extra words' ignored"),
        "{text}"
    );
}

/// Every position within `plies` moves of `start`.
fn reachable(start: &Position, plies: u32, keys: &mut HashSet<u64>) {
    keys.insert(start.key());
    if plies == 0 {
        return;
    }
    for &m in start.legal_moves().as_slice() {
        let mut next = start.clone();
        next.make(m);
        reachable(&next, plies - 1, keys);
    }
}

#[test]
fn genfens_from_an_epd_book_plays_on_from_its_positions() {
    let dir = std::env::temp_dir().join(format!("sable-genfens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("small.epd");
    let positions = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4",
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    ];
    let text = format!(
        "{}\n# a comment\nnot a position\n{} hmvc 1; fmvn 5;\n",
        positions[0],
        &positions[1][..positions[1].len() - 4]
    );
    std::fs::write(&book, text).unwrap();
    let command = format!("genfens 12 seed 9 book {}", book.display());
    let (fens, out) = genfens(&command);
    assert_eq!(fens.len(), 12, "{out}");
    check_fens(&fens, CastlingMode::Standard);
    // The malformed line is named (file and line) and skipped.
    assert!(out.contains("small.epd' line 3"), "{out}");
    let mut near = HashSet::new();
    for p in positions {
        reachable(
            &Position::from_fen(p, CastlingMode::Standard).unwrap(),
            4,
            &mut near,
        );
    }
    for fen in &fens {
        let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
        assert!(
            near.contains(&pos.key()),
            "{fen} is not 2-4 plies from the book"
        );
    }
    assert_eq!(genfens(&command).0, fens);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn genfens_from_a_pgn_book_starts_after_its_moves() {
    let book = data("books/8moves_v3.pgn");
    let (fens, out) = genfens(&format!("genfens 16 seed 3 book {book}"));
    assert_eq!(fens.len(), 16, "{out}");
    check_fens(&fens, CastlingMode::Standard);
    // Eight moves of book, then two to four random plies.
    for fen in &fens {
        let full: u32 = fen.split_whitespace().nth(5).unwrap().parse().unwrap();
        assert!((9..=11).contains(&full), "{fen}");
    }
}

#[test]
fn bad_genfens_commands_are_named_and_the_engine_goes_on() {
    for (command, says) in [
        ("genfens", "expected 'genfens N seed S book <None|FILE>'"),
        ("genfens x seed 1 book None", "N must be a whole number"),
        (
            "genfens 5 seed -x book None",
            "the seed must be a whole number, got '-x'",
        ),
        (
            "genfens 5 seed 1 book /no/such/book.epd",
            "book '/no/such/book.epd'",
        ),
    ] {
        let (ok, text) = sable(&[command, "isready", "quit"]);
        assert!(ok, "{text}");
        assert!(
            text.contains("info string error: ") && text.contains(says),
            "{command}: {text}"
        );
        assert!(!text.contains("info string genfens "), "{command}: {text}");
        assert!(text.contains("readyok"), "{command}: {text}");
    }
}

/// OpenBench's `ENGINE bench` is the subcommand; the same as a UCI command runs too.
#[test]
fn bench_runs_as_a_command_argument() {
    let (ok, text) = sable(&["bench 2", "quit"]);
    assert!(ok, "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.ends_with(" nps") && last.contains(" nodes "), "{text}");
}
