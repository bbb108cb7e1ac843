//! The engine playing from a book: UCI (`OwnBook`, `BookFile`, ...), xboard (`bk`,
//! options, learning on `result`), the console's `book`, and `sable match book=FILE`.

mod support;
use sable_chess::{CastlingMode, Position};
use sable_formats::book::{encode_move, write_book};
use sable_formats::BookEntry;
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
    let b = sable_formats::PolyglotBook::open(&book).unwrap();
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

/// The runner's book moves of every game in a match with `-srand seed`, in game order.
fn runner_book_lines(seed: u64) -> Vec<Vec<String>> {
    let pgn = temp(&format!("match-book-seed-{seed}.pgn"));
    let _ = std::fs::remove_file(&pgn); // -pgnout appends
    let mut args = vec!["match".to_string()];
    for name in ["booked", "alsobooked"] {
        args.extend([
            "-engine".to_string(),
            format!("cmd={}", env!("CARGO_BIN_EXE_sable")),
            format!("name={name}"),
            format!("book={}", performance()),
            "bookdepth=4".into(),
        ]);
    }
    let seed = seed.to_string();
    args.extend(
        [
            "-each",
            "depth=1",
            "-rounds",
            "3",
            "-games",
            "2",
            "-srand",
            &seed,
            "-pgnout",
            &pgn,
            "-noprogress",
        ]
        .map(String::from),
    );
    let (ok, out) = sable(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(ok, "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    text.split("[Event")
        .skip(1)
        .map(|game| {
            let words: Vec<&str> = game.split_whitespace().collect();
            words
                .windows(2)
                .filter(|w| w[1] == "{book}")
                .map(|w| w[0].to_string())
                .collect()
        })
        .collect()
}

#[test]
fn match_runner_book_picks_follow_the_seed() {
    // Both engines play from a book with several weighted moves a position, so every
    // game's first plies are random draws: the same -srand repeats them, game by game.
    let first = runner_book_lines(5);
    assert_eq!(first.len(), 6);
    assert!(first.iter().all(|g| g.len() >= 2), "{first:?}");
    assert_eq!(first, runner_book_lines(5), "same seed, same book lines");
    let others: Vec<_> = (6..9).map(runner_book_lines).collect();
    assert!(
        others.iter().any(|o| *o != first),
        "other seeds pick other lines: {first:?} {others:?}"
    );
}

/// The learn value of `uci`'s entry in the start position of `book`.
fn start_learn(book: &str, uci: &str) -> (u16, u32) {
    let b = sable_formats::PolyglotBook::open(book).unwrap();
    let start = Position::startpos();
    let e = b
        .entries(&start)
        .iter()
        .find(|e| e.raw_move == encode_move(start.parse_uci(uci).unwrap()))
        .copied()
        .unwrap();
    (e.weight, e.learn)
}

/// `position startpos moves MOVES` and a search to its `bestmove`.
fn search_after(s: &mut Session, moves: &str) {
    s.send(&format!("position startpos moves {moves}"));
    s.send("go depth 6");
    s.until(|l| l.starts_with("bestmove"));
}

/// `ucinewgame`, then everything up to `readyok`.
fn end_game(s: &mut Session) -> Vec<String> {
    s.send("ucinewgame");
    s.send("isready");
    s.until(|l| l == "readyok")
}

#[test]
fn uci_book_learning_infers_the_result_of_its_own_games() {
    let book = temp("uci-learn.bin");
    std::fs::copy(performance(), &book).unwrap();
    let before = start_learn(&book, "e2e4");
    // The hand-crafted evaluation, whose centipawns count material plainly (a queen
    // down reads about -800 at depth 6, where the net's, which compresses large leads,
    // reads -450 to -580 and moves with every net and search change): this test is
    // about inferring a result from the searches, not about the evaluation.
    let mut s = Session::uci(
        &book,
        &[
            "setoption name BookMode value best",
            "setoption name BookLearning value true",
            "setoption name UseNNUE value false",
        ],
    );
    // Game 1: White (the engine) opens from the book and is mated; the GUI's last
    // position is the mate itself.
    s.send("ucinewgame");
    s.send("position startpos");
    s.send("go depth 4");
    let lines = s.until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove e2e4", "{lines:?}");
    s.send("position startpos moves e2e4 b8c6 g1e2 c6e5 g2g3 e5f3");
    let lines = end_game(&mut s);
    assert!(
        lines.contains(&"info string book learned from 0-1: 1 entries".to_string()),
        "{lines:?}"
    );
    let after_mate = start_learn(&book, "e2e4");
    assert_ne!(before, after_mate);
    // Game 2: White gives its queen away and its own searches say it is lost; the game
    // ends without a mate on the board (the GUI adjudicated, or White resigned).
    let lost = "e2e4 e7e5 d1h5 b8c6 h5f7 e8f7";
    search_after(&mut s, lost);
    search_after(&mut s, &format!("{lost} g1f3 d7d6"));
    search_after(&mut s, &format!("{lost} g1f3 d7d6 f1c4 c8e6"));
    let lines = end_game(&mut s);
    // White's e4 and Black's e5 are both book moves of this game.
    assert!(
        lines.contains(&"info string book learned from 0-1: 2 entries".to_string()),
        "{lines:?}"
    );
    assert_ne!(after_mate, start_learn(&book, "e2e4"));
    // Game 3: a quiet position, no verdict: nothing is learned, and the engine says so.
    let unchanged = std::fs::read(&book).unwrap();
    search_after(&mut s, "e2e4 e7e5");
    let lines = end_game(&mut s);
    assert!(
        lines.iter().any(|l| l.contains("result is unknown")),
        "{lines:?}"
    );
    assert_eq!(unchanged, std::fs::read(&book).unwrap());
}
