//! `sable epd` with the scripted fake engine (it plays its first legal move, so suites
//! of positions with a single legal move have known answers), and with Stockfish on a
//! few WAC positions (ignored unless asked for: `cargo test -- --include-ignored`, with
//! Debian's `stockfish` installed, as .ci/run does).

use std::path::Path;
use std::process::Command;

const SABLE: &str = env!("CARGO_BIN_EXE_sable");
mod support;

fn fake() -> &'static str {
    support::fake_engine()
}

fn suite(tag: &str, text: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("sable-epd-{}-{tag}.epd", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

fn epd(file: &Path, extra: &[&str]) -> (bool, String, String) {
    let out = Command::new(SABLE)
        .arg("epd")
        .arg(file)
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// White's only legal move is Kxb2.
const ONLY: &str = "k7/8/8/8/8/8/1r6/K7 w - -";

#[test]
fn solved_missed_and_points() {
    let text = format!(
        "{ONLY} bm Kxb2; id \"one\";\n{ONLY} am Kxb2; id \"two\";\n\
         {ONLY} bm Kxb2; id \"T.001\"; c0 \"Kxb2=7\";\n{ONLY} bm Kxb2; id \"T.002\"; c0 \"Kxb2=10\";\n"
    );
    let file = suite("basic", &text);
    let (ok, out, err) = epd(
        &file,
        &["--engine", fake(), "--depth", "1", "--concurrency", "2"],
    );
    let _ = std::fs::remove_file(&file);
    assert!(ok, "{err}");
    assert!(out.contains("ok   one: Kxb2 (bm Kxb2)"), "{out}");
    assert!(
        out.contains("Missed (1):\n  two: played Kxb2 (a1b2), expected am Kxb2"),
        "{out}"
    );
    assert!(out.contains("  T: 17/17 (2 positions)"), "{out}");
    assert!(out.contains("Solved: 3/4 (75.0 %)"), "{out}");
}

#[test]
fn errors_name_the_line() {
    let file = suite("bad", &format!("{ONLY} bm Kxb2;\n{ONLY} bm Qh5;\n"));
    let (ok, _, err) = epd(&file, &["--engine", fake()]);
    assert!(!ok);
    assert!(err.contains(":2: bm Qh5"), "{err}");
    let _ = std::fs::remove_file(&file);
    let file = suite("noengine", &format!("{ONLY} bm Kxb2;\n"));
    let (ok, _, err) = epd(&file, &["--engine", "/nonexistent/engine"]);
    let _ = std::fs::remove_file(&file);
    assert!(!ok);
    assert!(err.contains("/nonexistent/engine"), "{err}");
}

#[test]
fn a_crashing_engine_is_reported() {
    let file = suite("crash", &format!("{ONLY} bm Kxb2;\n"));
    let (ok, _, err) = epd(&file, &["--engine", &format!("{} --crash-at 1", fake())]);
    let _ = std::fs::remove_file(&file);
    assert!(!ok);
    assert!(err.contains("disconnected"), "{err}");
}

#[test]
#[ignore = "needs stockfish"]
fn stockfish_on_wac() {
    assert!(
        Path::new("/usr/games/stockfish").exists(),
        "/usr/games/stockfish is not installed (apt-get install stockfish)"
    );
    let file = sable_testdata::path("tactics/wacnew.epd");
    let (ok, out, err) = epd(
        &file,
        &[
            "--engine",
            "/usr/games/stockfish",
            "--nodes",
            "20000",
            "--max",
            "5",
            "--quiet",
        ],
    );
    assert!(ok, "{err}");
    assert!(out.contains("Solved: ") && out.contains("/5 ("), "{out}");
}
