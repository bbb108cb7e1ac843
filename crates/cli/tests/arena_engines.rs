//! Real games between Debian engines: Stockfish over UCI against Fairy-Max over xboard
//! (a PGN book, a clock), Stockfish against itself in Chess960 (FEN start positions,
//! king-takes-rook castling) and from an EPD book. Every game must end by the rules or
//! by adjudication: `-strict` fails the run on any time loss, illegal move, crash or
//! stall. The tests that need the Debian packages `stockfish` and `fairymax` are ignored
//! unless asked for (`cargo test -- --include-ignored`, as .ci/run does after installing
//! them); asked for without them, they fail.

use std::path::Path;
use std::process::Command;

const SABLE: &str = env!("CARGO_BIN_EXE_sable");
const STOCKFISH: &str = "/usr/games/stockfish";
const FAIRYMAX: &str = "/usr/games/fairymax";

/// Fails the test, naming what to install, unless every engine is there.
fn require(engines: &[&str]) {
    let missing: Vec<&&str> = engines.iter().filter(|e| !Path::new(e).exists()).collect();
    assert!(
        missing.is_empty(),
        "{missing:?} not installed (apt-get install stockfish fairymax)"
    );
}

/// Runs `sable match` with `-strict -noprogress` and a PGN file; returns stdout and PGN.
fn play(tag: &str, args: &[&str]) -> (String, String) {
    let pgn = std::env::temp_dir().join(format!("sable-engines-{}-{tag}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let out = Command::new(SABLE)
        .arg("match")
        .args(args)
        .args([
            "-strict",
            "-noprogress",
            "-pgnout",
            &pgn.display().to_string(),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let _ = std::fs::remove_file(&pgn);
    assert!(
        out.status.success(),
        "sable match failed:\n{}\n{stdout}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    (stdout, text)
}

fn tag_values<'a>(pgn: &'a str, name: &str) -> Vec<&'a str> {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .filter_map(|l| l.strip_prefix(prefix.as_str()))
        .map(|l| l.trim_end_matches("\"]"))
        .collect()
}

fn check_games(pgn: &str, n: usize) {
    let results = tag_values(pgn, "Result");
    assert_eq!(results.len(), n, "{pgn}");
    for t in tag_values(pgn, "Termination") {
        assert!(
            t == "normal" || t == "adjudication",
            "termination {t}:\n{pgn}"
        );
    }
    for r in results {
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&r));
    }
}

#[test]
#[ignore = "needs stockfish and fairymax"]
fn stockfish_uci_against_fairymax_xboard() {
    require(&[STOCKFISH, FAIRYMAX]);
    let book = sable_testdata::path("books/8moves_v3.pgn");
    let (stdout, pgn) = play(
        "sf-fmax",
        &[
            "-engine",
            &format!("cmd={STOCKFISH}"),
            "name=Stockfish",
            "option.Hash=16",
            "option.Threads=1",
            "-engine",
            &format!("cmd={FAIRYMAX}"),
            "proto=xboard",
            "name=Fairy-Max",
            "-each",
            "tc=1+0.05",
            "timemargin=200",
            "-openings",
            &format!("file={}", book.display()),
            "order=random",
            "-srand",
            "42",
            "-games",
            "2",
            "-repeat",
            "-maxmoves",
            "40",
        ],
    );
    check_games(&pgn, 2);
    // Both games start with the same 16 book plies, colours swapped.
    assert_eq!(tag_values(&pgn, "White"), ["Stockfish", "Fairy-Max"]);
    assert_eq!(pgn.matches("{book}").count(), 32, "{pgn}");
    assert!(pgn.contains("[%clk "), "{pgn}");
    assert!(stdout.contains("Ptnml(0-2): "), "{stdout}");
    assert!(stdout.contains("  Stockfish: 0 / 0 / 0 / 0"), "{stdout}");
    assert!(stdout.contains("  Fairy-Max: 0 / 0 / 0 / 0"), "{stdout}");
}

#[test]
#[ignore = "needs fairymax"]
fn fairymax_against_itself_over_xboard() {
    require(&[FAIRYMAX]);
    let (_, pgn) = play(
        "fmax-fmax",
        &[
            "-engine",
            &format!("cmd={FAIRYMAX}"),
            "name=fm1",
            "-engine",
            &format!("cmd={FAIRYMAX}"),
            "name=fm2",
            "-each",
            "proto=xboard",
            "st=0.05",
            "timemargin=300",
            "-maxmoves",
            "30",
            "-games",
            "2",
        ],
    );
    check_games(&pgn, 2);
}

#[test]
#[ignore = "needs stockfish"]
fn stockfish_chess960_and_epd_openings() {
    require(&[STOCKFISH]);
    let (_, pgn) = play(
        "sf960",
        &[
            "-engine",
            &format!("cmd={STOCKFISH}"),
            "name=a",
            "-engine",
            &format!("cmd={STOCKFISH}"),
            "name=b",
            "-each",
            "depth=3",
            "-variant",
            "fischerandom",
            "-srand",
            "9",
            "-games",
            "2",
            "-repeat",
            "-rounds",
            "2",
            "-maxmoves",
            "60",
        ],
    );
    check_games(&pgn, 4);
    assert_eq!(tag_values(&pgn, "Variant"), ["Chess960"; 4]);
    let epd = sable_testdata::path("books/noob_3moves.epd");
    let (_, pgn) = play(
        "sf-epd",
        &[
            "-engine",
            &format!("cmd={STOCKFISH}"),
            "name=a",
            "-engine",
            &format!("cmd={STOCKFISH}"),
            "name=b",
            "-each",
            "nodes=2000",
            "-openings",
            &format!("file={}", epd.display()),
            "format=epd",
            "start=100",
            "-games",
            "2",
            "-maxmoves",
            "60",
        ],
    );
    check_games(&pgn, 2);
    assert_eq!(tag_values(&pgn, "SetUp"), ["1", "1"]);
}

/// The CI smoke test of our own engine: `sable` with no arguments speaks UCI. Two short
/// games against itself from the PGN book must end without any engine fault.
#[test]
fn sable_engine_smoke_match() {
    let book = sable_testdata::path("books/8moves_v3.pgn");
    let (stdout, pgn) = play(
        "sable-smoke",
        &[
            "-engine",
            &format!("cmd={SABLE}"),
            "name=SableA",
            "-engine",
            &format!("cmd={SABLE}"),
            "name=SableB",
            "-each",
            "tc=1+0.05",
            "timemargin=200",
            "option.Hash=8",
            "-openings",
            &format!("file={}", book.display()),
            "start=7",
            "-games",
            "2",
            "-repeat",
            "-maxmoves",
            "40",
        ],
    );
    check_games(&pgn, 2);
    assert!(stdout.contains("  SableA: 0 / 0 / 0 / 0"), "{stdout}");
    assert!(stdout.contains("  SableB: 0 / 0 / 0 / 0"), "{stdout}");
}
