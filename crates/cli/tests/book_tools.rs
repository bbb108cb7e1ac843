//! `sable book`: building (against Debian's `polyglot make-book`), probing (against
//! python-chess), merging, stats, learning, and bad files.

mod support;
use std::path::PathBuf;
use std::process::Command;
use support::{data, python, sable};

fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sable-book-tools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

fn lichess() -> String {
    data("pgn/lichess/lichess-user-export-3970-games.pgn")
}

/// The lichess games without the three that start from a FEN (which Polyglot cannot read).
fn lichess_without_fen() -> String {
    let text = std::fs::read_to_string(lichess()).unwrap();
    let mut out = String::new();
    for game in text.split("\n\n[Event ") {
        let game = if game.starts_with("[Event ") {
            game.to_string()
        } else {
            format!("[Event {game}")
        };
        if !game.contains("[FEN ") {
            out.push_str(game.trim_end());
            out.push_str("\n\n");
        }
    }
    let path = temp("lichess-no-fen.pgn");
    std::fs::write(&path, out).unwrap();
    path
}

/// Entries as (key, move, weight, learn).
fn entries(path: &str) -> Vec<(u64, u16, u16, u32)> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes
        .chunks_exact(16)
        .map(|c| {
            (
                u64::from_be_bytes(c[0..8].try_into().unwrap()),
                u16::from_be_bytes([c[8], c[9]]),
                u16::from_be_bytes([c[10], c[11]]),
                u32::from_be_bytes(c[12..16].try_into().unwrap()),
            )
        })
        .collect()
}

#[test]
fn build_probe_merge_stats_round_trip() {
    let a = temp("rt-a.bin");
    let (ok, out) = sable(&[
        "book",
        "build",
        &lichess(),
        "-o",
        &a,
        "--max-ply",
        "16",
        "-q",
    ]);
    assert!(ok, "{out}");
    assert!(out.contains("3970 games"), "FEN games count too: {out}");
    let book = entries(&a);
    assert!(book.windows(2).all(|w| w[0].0 <= w[1].0), "sorted by key");
    assert!(book.iter().all(|e| e.3 == 0 && e.2 > 0));

    let (ok, out) = sable(&["book", "probe", &a]);
    assert!(ok, "{out}");
    assert!(out.contains("key 463b96181691fc9c"), "{out}");
    assert!(
        out.contains("e4 ") && out.contains("e2e4") && out.contains('%'),
        "{out}"
    );

    // Two halves merged with the sum rule equal a book with the weights added.
    let b = temp("rt-b.bin");
    let (ok, out) = sable(&[
        "book",
        "build",
        &lichess(),
        "-o",
        &b,
        "--max-ply",
        "8",
        "-q",
    ]);
    assert!(ok, "{out}");
    let c = temp("rt-c.bin");
    let (ok, out) = sable(&["book", "merge", &a, &b, "-o", &c]);
    assert!(ok, "{out}");
    let (ea, eb, ec) = (entries(&a), entries(&b), entries(&c));
    for e in &ec {
        let wa = ea
            .iter()
            .find(|x| x.0 == e.0 && x.1 == e.1)
            .map_or(0, |x| x.2 as u32);
        let wb = eb
            .iter()
            .find(|x| x.0 == e.0 && x.1 == e.1)
            .map_or(0, |x| x.2 as u32);
        assert_eq!(e.2 as u32, (wa + wb).min(65535));
    }
    let distinct = |v: &[(u64, u16, u16, u32)]| {
        v.iter()
            .map(|e| (e.0, e.1))
            .collect::<std::collections::HashSet<_>>()
    };
    assert_eq!(distinct(&ec), &distinct(&ea) | &distinct(&eb));

    let (ok, out) = sable(&["book", "stats", &c]);
    assert!(ok, "{out}");
    assert!(out.contains(&format!("entries     {}", ec.len())), "{out}");
    assert!(out.contains("ply   0  1"), "{out}");

    // Filters: only White's wins; only the 600+0 games.
    let d = temp("rt-d.bin");
    let (ok, out) = sable(&[
        "book",
        "build",
        &lichess(),
        "-o",
        &d,
        "--results",
        "1-0",
        "--time-control",
        "600+0",
        "--min-elo",
        "1500",
        "--min-game",
        "1",
        "-q",
    ]);
    assert!(ok, "{out}");
    assert!(
        !entries(&d).is_empty() && entries(&d).len() < ea.len() * 10,
        "{out}"
    );
}

#[test]
fn bad_books_give_clear_errors() {
    let dir = temp("dir.bin");
    std::fs::create_dir_all(&dir).unwrap();
    let (ok, out) = sable(&["book", "probe", &dir]);
    assert!(!ok && out.contains("is a directory"), "{out}");
    let empty = temp("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let (ok, out) = sable(&["book", "stats", &empty]);
    assert!(!ok && out.contains("empty"), "{out}");
    let odd = temp("odd.bin");
    std::fs::write(&odd, [7u8; 33]).unwrap();
    let (ok, out) = sable(&["book", "probe", &odd]);
    assert!(
        !ok && out.contains("33 bytes is not a whole number"),
        "{out}"
    );
    let (ok, out) = sable(&["book", "probe", "/nonexistent/x.bin"]);
    assert!(!ok && out.contains("/nonexistent/x.bin"), "{out}");
    let (ok, out) = sable(&["book", "merge", &odd, &empty, "-o", &temp("never.bin")]);
    assert!(!ok && out.contains("odd.bin"), "{out}");
    assert!(!PathBuf::from(temp("never.bin")).exists());
}

#[test]
fn learn_tool_writes_back_weights_from_results() {
    let pgn = temp("learn-src.pgn");
    let mut text = String::new();
    for _ in 0..4 {
        text.push_str("[Result \"1/2-1/2\"]\n\n1. d4 d5 2. c4 1/2-1/2\n\n");
        text.push_str("[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 1/2-1/2\n\n");
    }
    std::fs::write(&pgn, text).unwrap();
    let book = temp("learn.bin");
    let (ok, out) = sable(&["book", "build", &pgn, "-o", &book, "-q"]);
    assert!(ok, "{out}");
    let games = temp("learn-games.pgn");
    std::fs::write(
        &games,
        "[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nc6 0-1\n\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n\n",
    )
    .unwrap();
    let before = entries(&book);
    let (ok, out) = sable(&["book", "learn", &book, &games]);
    assert!(ok, "{out}");
    assert!(
        out.contains("2 games") && out.contains("5 entry updates"),
        "{out}"
    );
    let after = entries(&book);
    assert_eq!(before.len(), after.len());
    let (ok, out) = sable(&["book", "probe", &book]);
    assert!(ok, "{out}");
    let first = out.lines().nth(2).unwrap();
    assert!(first.starts_with("d4"), "d4 now leads: {out}");
    assert!(
        after.iter().any(|e| e.3 >> 16 == 2),
        "two games in a learn field"
    );
}

/// Runs `polyglot make-book` (Debian's package); panics if it is missing.
fn polyglot_make_book(pgn: &str, out: &str, extra: &[&str]) {
    let status = Command::new("polyglot")
        .args(["make-book", "-pgn", pgn, "-bin", out])
        .args(extra)
        .stdout(std::process::Stdio::null())
        .status()
        .or_else(|_| {
            Command::new("/usr/games/polyglot")
                .args(["make-book", "-pgn", pgn, "-bin", out])
                .args(extra)
                .stdout(std::process::Stdio::null())
                .status()
        })
        .expect("polyglot is installed (apt-get install polyglot)");
    assert!(status.success(), "polyglot make-book {extra:?} failed");
}

#[test]
#[ignore = "needs polyglot"]
fn build_equals_polyglot_make_book() {
    let pgn = lichess_without_fen();
    let cases: &[(&[&str], &[&str])] = &[
        (&[], &[]),
        (&["-max-ply", "16"], &["--max-ply", "16"]),
        (
            &["-max-ply", "20", "-min-game", "1"],
            &["--max-ply", "20", "--min-game", "1"],
        ),
        (
            &["-max-ply", "16", "-only-white"],
            &["--max-ply", "16", "--only-white"],
        ),
        (
            &["-max-ply", "16", "-only-black", "-min-game", "2"],
            &["--max-ply", "16", "--only-black", "--min-game", "2"],
        ),
        (
            &["-max-ply", "12", "-uniform", "-min-game", "1"],
            &["--max-ply", "12", "--uniform", "--min-game", "1"],
        ),
        (&["-min-score", "50"], &["--min-score", "50"]),
    ];
    for (i, (pg_args, our_args)) in cases.iter().enumerate() {
        let theirs = temp(&format!("polyglot-{i}.bin"));
        polyglot_make_book(&pgn, &theirs, pg_args);
        let ours = temp(&format!("sable-{i}.bin"));
        let mut args = vec!["book", "build", pgn.as_str(), "-o", ours.as_str(), "-q"];
        args.extend_from_slice(our_args);
        let (ok, out) = sable(&args);
        assert!(ok, "{out}");
        let (t, o) = (entries(&theirs), entries(&ours));
        assert!(!t.is_empty());
        assert_eq!(t.len(), o.len(), "entry count with {pg_args:?}");
        for (k, (a, b)) in t.iter().zip(&o).enumerate() {
            assert_eq!(a, b, "entry {k} with {pg_args:?}");
        }
        // The same again through the spill-and-merge path.
        let spilled = temp(&format!("sable-{i}-spilled.bin"));
        let mut args = vec![
            "book",
            "build",
            pgn.as_str(),
            "-o",
            spilled.as_str(),
            "-q",
            "--memory",
            "1",
        ];
        args.extend_from_slice(our_args);
        let (ok, out) = sable(&args);
        assert!(ok, "{out}");
        assert_eq!(entries(&spilled), t, "spilled build with {pg_args:?}");
    }
}

#[test]
#[ignore = "needs python-chess"]
fn probes_agree_with_python_chess() {
    // Positions: the start, SOURCES.md's castling and under-promotion cases, and the
    // heaviest line of performance.bin; plus every position of a book Sable built.
    let built = temp("py-built.bin");
    let (ok, out) = sable(&[
        "book",
        "build",
        &lichess(),
        "-o",
        &built,
        "--max-ply",
        "10",
        "-q",
    ]);
    assert!(ok, "{out}");
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqr1k1/pp1nbppp/2p2n2/3p2B1/3P4/2NBP3/PPQ1NPPP/R3K2R w KQ - 5 10",
        "r3k1nr/1pp1q1pp/p1pb1p2/4p3/3PP1b1/2P1BN2/PP1N1PPP/R2Q1RK1 b kq - 4 9",
        "1r1qr1k1/1b2bp1n/p2p2pB/1pnPp2p/P1p1P3/R1P2NNP/1PBQ1PP1/4R1K1 w - - 0 1",
        "rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    ];
    let books = [
        data("polyglot/performance.bin"),
        data("polyglot/lasker-trap.bin"),
        built,
    ];
    let script = r#"
import sys, chess, chess.polyglot
book, fens = sys.argv[1], sys.argv[2:]
with chess.polyglot.open_reader(book) as r:
    for fen in fens:
        b = chess.Board(fen)
        for e in r.find_all(b):
            print(fen, "|", e.move.uci(), e.weight, e.learn)
"#;
    for book in &books {
        let mut args = vec![book.as_str()];
        args.extend_from_slice(&fens);
        let theirs = python(script, &args, "");
        let mut ours = String::new();
        for fen in fens {
            let (ok, out) = sable(&["book", "probe", book, "--fen", fen]);
            assert!(ok, "{out}");
            for line in out.lines().skip(2) {
                let cols: Vec<&str> = line.split_whitespace().collect();
                if cols.len() == 5 {
                    ours.push_str(&format!("{fen} | {} {} {}\n", cols[1], cols[2], cols[4]));
                }
            }
        }
        assert_eq!(ours, theirs, "{book}");
        assert!(!theirs.is_empty());
    }
}
