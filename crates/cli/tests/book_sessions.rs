//! The engine playing from a book: UCI (`OwnBook`, `BookFile`, ...), xboard (`bk`,
//! options, learning on `result`), the console's `book`, and `sable match book=FILE`.

mod support;
use sable_chess::book::{encode_move, write_book};
use sable_chess::{BookEntry, CastlingMode, Position};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;
use support::session::Session;
use support::{data, sable};

impl Session {
    fn uci(book: &str, extra: &[&str]) -> Session {
        let mut s = Session::start(&[]);
        s.send("uci");
        s.until(|l| l == "uciok");
        s.send("setoption name OwnBook value true");
        s.send(&format!("setoption name BookFile value {book}"));
        for line in extra {
            s.send(line);
        }
        s
    }
}

fn performance() -> String {
    data("polyglot/performance.bin")
}

fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sable-book-sessions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

#[test]
fn uci_go_answers_a_book_move_with_an_info_string() {
    let mut s = Session::uci(&performance(), &["setoption name BookMode value best"]);
    s.send("uci");
    let opts = s.until(|l| l == "uciok").join("\n");
    for o in [
        "option name OwnBook type check default false",
        "option name BookFile type string",
        "option name BookDepth type spin",
        "option name BookMode type combo default weighted var best var weighted",
        "option name BookMinWeight type spin",
        "option name BookLearning type check default false",
    ] {
        assert!(opts.contains(o), "{o}: {opts}");
    }
    s.send("position startpos");
    s.send("go wtime 60000 btime 60000");
    let lines = s.until(|l| l.starts_with("bestmove"));
    assert_eq!(
        lines,
        [
            "info string book move e2e4 (weight 1, 33%)",
            "bestmove e2e4"
        ]
    );
    // Weighted: every move is one of the three.
    s.send("setoption name BookMode value weighted");
    for _ in 0..5 {
        s.send("go depth 20");
        let lines = s.until(|l| l.starts_with("bestmove"));
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        assert!(
            ["e2e4", "d2d4", "c2c4"].contains(&best.as_str()),
            "{lines:?}"
        );
        assert!(lines[0].starts_with(&format!("info string book move {best}")));
    }
    // Deeper than BookDepth: a search.
    s.send("setoption name BookDepth value 2");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go depth 3");
    let lines = s.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("book move")));
    // Infinite: a search, and one bestmove after stop.
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    s.send("stop");
    let lines = s.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("book move")));
    // Chess960: no book.
    s.send("setoption name UCI_Chess960 value true");
    s.send("position startpos");
    s.send("go depth 3");
    let lines = s.until(|l| l.starts_with("bestmove"));
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
}

#[test]
fn uci_missing_or_bad_book_file_is_an_error_and_the_engine_searches() {
    let bad = temp("bad.bin");
    std::fs::write(&bad, [1u8; 20]).unwrap();
    for file in ["/nonexistent/book.bin".to_string(), bad] {
        let mut s = Session::uci(&file, &[]);
        s.send("isready");
        let lines = s.until(|l| l == "readyok");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: BookFile") && l.contains(&file)),
            "{lines:?}"
        );
        s.send("position startpos");
        s.send("go depth 4");
        let lines = s.until(|l| l.starts_with("bestmove"));
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 4")),
            "{lines:?}"
        );
        assert!(!lines.iter().any(|l| l.contains("book move")));
    }
}

/// A book whose start-position entries are illegal there: moves of other positions
/// (Black's, a knight jumping to an occupied square, a rook through pawns, garbage).
fn colliding_book(with_legal: bool) -> String {
    let start = Position::startpos();
    let after_e4 = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        CastlingMode::Standard,
    )
    .unwrap();
    let raw = |uci_from: u16, uci_to: u16| uci_to | (uci_from << 6);
    let sq = |s: &str| {
        let b = s.as_bytes();
        ((b[0] - b'a') as u16) | (((b[1] - b'1') as u16) << 3)
    };
    let mut moves = vec![
        (encode_move(after_e4.parse_uci("e7e5").unwrap()), 60000),
        (raw(sq("g1"), sq("e2")), 50000),
        (raw(sq("a1"), sq("a5")), 40000),
        (raw(sq("e1"), sq("h1")), 30000),
        (raw(sq("e4"), sq("e5")), 20000),
    ];
    if with_legal {
        moves.push((encode_move(start.parse_uci("b2b3").unwrap()), 1));
    }
    let path = temp(if with_legal {
        "collide-legal.bin"
    } else {
        "collide.bin"
    });
    write_book(
        std::path::Path::new(&path),
        moves.into_iter().map(|(raw_move, weight)| BookEntry {
            key: start.key(),
            raw_move,
            weight,
            learn: 0,
        }),
    )
    .unwrap();
    path
}

#[test]
fn a_colliding_book_never_makes_an_illegal_move() {
    let mut s = Session::uci(
        &colliding_book(false),
        &["setoption name BookMode value best"],
    );
    s.send("position startpos");
    s.send("go depth 3");
    let lines = s.until(|l| l.starts_with("bestmove"));
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(Position::startpos().parse_uci(best).is_ok(), "{best}");

    for mode in ["best", "weighted"] {
        let mut s = Session::uci(
            &colliding_book(true),
            &[&format!("setoption name BookMode value {mode}")],
        );
        for _ in 0..3 {
            s.send("position startpos");
            s.send("go depth 3");
            let lines = s.until(|l| l.starts_with("bestmove"));
            assert_eq!(
                lines,
                [
                    "info string book move b2b3 (weight 1, 100%)",
                    "bestmove b2b3"
                ]
            );
        }
    }
}

#[test]
fn xboard_bk_options_and_learning_on_result() {
    let book = temp("xboard-learn.bin");
    std::fs::copy(performance(), &book).unwrap();
    let before = std::fs::read(&book).unwrap();
    let mut s = Session::start(&["xboard"]);
    s.send("xboard");
    s.send("protover 2");
    let features = s.until(|l| l == "feature done=1").join("\n");
    for f in [
        "OwnBook -check 0",
        "BookFile -file",
        "BookMode -combo",
        "BookLearning -check 0",
    ] {
        assert!(features.contains(f), "{f}: {features}");
    }
    s.send("bk");
    let lines = s.until(|l| l.is_empty());
    assert!(lines[0].contains("no opening book"), "{lines:?}");
    s.send(&format!("option BookFile={book}"));
    s.send("option BookMode=best");
    s.send("option OwnBook=1");
    s.send("option BookLearning=1");
    s.send("new");
    s.send("bk");
    let lines = s.until(|l| l.is_empty());
    assert_eq!(
        lines,
        [
            " e4 33% (weight 1)",
            " d4 33% (weight 1)",
            " c4 33% (weight 1)",
            ""
        ]
    );
    s.send("sd 4");
    s.send("go");
    let lines = s.until(|l| l.starts_with("move "));
    assert_eq!(lines.last().unwrap(), "move e2e4", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("book move e2e4")),
        "{lines:?}"
    );
    // The engine lost this game: its e4 loses weight, written back to the file.
    s.send("force");
    s.send("e7e5");
    s.send("result 0-1 {White resigns}");
    s.send("ping 7");
    let lines = s.until(|l| l == "pong 7");
    assert!(
        lines.iter().any(|l| l.contains("book learned")),
        "{lines:?}"
    );
    let after = std::fs::read(&book).unwrap();
    assert_eq!(before.len(), after.len());
    assert_ne!(before, after);
    let b = sable_chess::PolyglotBook::open(&book).unwrap();
    let e4 = b.entries(&Position::startpos())[0];
    assert_eq!((e4.weight, e4.learn >> 16), (0, 1 + (486_544_384u32 >> 16)));
    // A bad book file is an error; bk says there is none.
    s.send("option BookFile=/nonexistent.bin");
    s.send("bk");
    let lines = s.until(|l| l.is_empty());
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Error") && l.contains("/nonexistent.bin")),
        "{lines:?}"
    );
}

#[test]
fn console_book_command_shows_and_uses_the_book() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sable"))
        .arg("console")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let script = format!(
        "book\nbook {}\nbook best\ngo depth 2\nbook\nbook off\nexit\n",
        performance()
    );
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("no book loaded"), "{text}");
    assert!(text.contains("92954 entries"), "{text}");
    assert!(text.contains("book move e2e4 (weight 1, 33%)"), "{text}");
    assert!(text.contains("Sable plays e4"), "{text}");
    assert!(
        text.contains("e5 ") || text.contains("c5 "),
        "Black's book moves: {text}"
    );
}

#[test]
fn match_runner_plays_book_moves_for_an_engine() {
    let exe = env!("CARGO_BIN_EXE_sable");
    let pgn = temp("match-book.pgn");
    let (ok, out) = sable(&[
        "match",
        "-engine",
        &format!("cmd={exe}"),
        "name=booked",
        &format!("book={}", performance()),
        "bookdepth=3",
        "-engine",
        &format!("cmd={exe}"),
        "name=plain",
        "-each",
        "depth=2",
        "-rounds",
        "1",
        "-games",
        "2",
        "-pgnout",
        &pgn,
        "-noprogress",
    ]);
    assert!(ok, "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    // booked plays from the book (up to 3 moves, while the book has the position), as
    // White and as Black; plain never does.
    assert!(text.matches("{book}").count() >= 2, "{text}");
    let first_game = text.split("[Event").nth(1).unwrap();
    assert!(first_game.contains("[White \"booked\"]"));
    assert!(
        first_game.contains("1. ")
            && first_game
                .split("1. ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .nth(1)
                == Some("{book}"),
        "{first_game}"
    );
    let (ok, out) = sable(&[
        "match",
        "-engine",
        &format!("cmd={exe}"),
        "book=/nonexistent.bin",
        "-engine",
        &format!("cmd={exe}"),
        "-each",
        "depth=1",
    ]);
    assert!(!ok && out.contains("/nonexistent.bin"), "{out}");
}
