//! The evaluation-tuning tools: `sable datagen` writes labelled self-play positions and
//! `sable tune` fits the parameters to them.

use sable_chess::{CastlingMode, Position};

mod support;
use support::{data, sable};

fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sable-tuning-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name).to_string_lossy().into_owned()
}

fn datagen(out: &str, threads: &str) -> String {
    let book = data("books/noob_3moves.epd");
    let (ok, text) = sable(&[
        "datagen",
        out,
        "--games",
        "6",
        "--nodes",
        "800",
        "--threads",
        threads,
        "--book",
        &book,
        "--seed",
        "7",
    ]);
    assert!(ok, "{text}");
    text
}

fn sorted_lines(path: &str) -> Vec<String> {
    let mut lines: Vec<String> = std::fs::read_to_string(path)
        .expect("output written")
        .lines()
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

#[test]
fn datagen_writes_quiet_labelled_positions_reproducibly() {
    let one = temp("one.txt");
    let text = datagen(&one, "1");
    assert!(text.contains("6 games ("), "{text}");
    let lines = sorted_lines(&one);
    assert!(lines.len() > 100, "only {} positions: {text}", lines.len());
    for line in &lines {
        let (fen, result) = line.split_once(" | ").expect("`FEN | result`");
        assert!(["1.0", "0.5", "0.0"].contains(&result), "{line}");
        let pos = Position::from_fen(fen, CastlingMode::Standard).expect("a legal FEN");
        assert!(!pos.in_check(), "a position in check was kept: {line}");
        assert!(
            !pos.legal_moves().is_empty(),
            "a finished game was kept: {line}"
        );
    }
    // Games are seeded by their number, so the thread count changes only the order.
    let two = temp("two.txt");
    datagen(&two, "2");
    assert_eq!(lines, sorted_lines(&two));
}

#[test]
fn datagen_reports_bad_arguments() {
    let out = temp("bad.txt");
    let (ok, text) = sable(&["datagen", &out, "--book", "/no/such/book.epd"]);
    assert!(!ok);
    assert!(text.contains("/no/such/book.epd"), "{text}");
    let (ok, text) = sable(&["datagen", &out, "--games", "0"]);
    assert!(!ok);
    assert!(text.contains("--games"), "{text}");
}

fn loss_figures(text: &str) -> (f64, f64) {
    let line = text
        .lines()
        .find(|l| l.starts_with("Loss (training / validation)"))
        .unwrap_or_else(|| panic!("no loss line in {text}"));
    let number = |word: &str| -> f64 {
        let rest = &line[line.find(word).expect(word) + word.len()..];
        rest.split_whitespace()
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("no figure after {word} in {line}"))
    };
    (number("before"), number("after"))
}

#[test]
fn tune_lowers_the_loss_and_writes_the_parameter_table() {
    let positions = temp("tune-data.txt");
    datagen(&positions, "2");
    let out = temp("tuned.rs");
    let (ok, text) = sable(&[
        "tune",
        &positions,
        "--epochs",
        "200",
        "--rate",
        "2",
        "--min-count",
        "1",
        "--out",
        &out,
    ]);
    assert!(ok, "{text}");
    let (before, after) = loss_figures(&text);
    assert!(after < before, "the fit did not lower the loss: {text}");
    let source = std::fs::read_to_string(&out).expect("table written");
    assert!(
        source.contains("pub const PARAMS: [S; NUM_PARAMS]"),
        "{source}"
    );
    assert!(source.contains("Command: sable tune"), "{source}");
}

#[test]
fn tune_names_the_line_of_bad_data() {
    const E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let path = temp("broken.txt");
    // (file contents, what the error must say)
    let cases = [
        (
            format!("{E4} | 0.5\nnot a fen | 1.0\n"),
            format!("{path}:2"),
        ),
        (format!("{E4} | 2\n"), "bad result".to_string()),
    ];
    for (contents, expected) in cases {
        std::fs::write(&path, contents).unwrap();
        let (ok, text) = sable(&["tune", &path]);
        assert!(!ok);
        assert!(text.contains(&expected), "{text}");
    }
}
