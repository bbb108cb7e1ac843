//! `sable analyse`: annotated PGN out of a PGN in, with HTML reports; run as a user would.

mod support;
use sable_chess::SanMode;
use sable_formats::pgn::{GameTree, PgnReader};
use std::path::{Path, PathBuf};
use support::{data, sable};

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sable-analyse-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The first game of a PGN file, as text.
fn first_game(rel: &str) -> String {
    let text = std::fs::read_to_string(data(rel)).unwrap();
    let second = text[1..].find("\n[Event ").map_or(text.len(), |i| i + 1);
    text[..second].trim_end().to_string() + "\n\n"
}

/// A lichess blitz game (67 plies, ECO tag, no Opening tag), a game with an illegal move
/// (the `Ke3` on line 27, column 13), a short game that ends in mate, and a game with
/// a person's comments, NAG and variation and lichess-style clock comments.
fn input(dir: &Path) -> String {
    let mut text = first_game("pgn/lichess/lichess-user-export-3970-games.pgn");
    assert_eq!(text.lines().count(), 21, "the first game's text changed");
    // Lines 22-...: the broken game.
    text.push_str("[Event \"broken\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n");
    text.push_str(&first_game("pgn/python-chess/molinari-bordais-1979.pgn"));
    text.push_str(
        "[Event \"commented\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n\
         1. d4 { [%clk 0:05:00] } 1... d5 { [%clk 0:05:00] } 2. c4 $1 { The gambit. } \
         ( 2. Nf3 { quieter } ) 2... dxc4 { [%clk 0:04:50] } \
         3. e3 $2 { [%eval -0.9] } { (0.20 → -0.90) Mistake. Nf3 was best. } ( 3. Nf3 Nf6 ) \
         3... b5 4. a4 c6 5. axb5 cxb5 6. Qf3 *\n\n",
    );
    let path = dir.join("in.pgn");
    std::fs::write(&path, &text).unwrap();
    path.to_string_lossy().into_owned()
}

fn read_games(text: &str) -> Vec<GameTree> {
    PgnReader::new(text.as_bytes())
        .trees(SanMode::Strict)
        .map(|g| g.expect("the annotated PGN reads back"))
        .collect()
}

/// The value of the `[%eval ...]` in a move's comments: centipawns, or ±100000 for
/// mates (`#0` counts as a mate for the side that just moved).
fn eval_of(comments: &[String], white_moved: bool) -> Option<i32> {
    let mut found = None;
    for c in comments {
        let mut rest = c.as_str();
        while let Some(i) = rest.find("[%eval ") {
            assert!(found.is_none(), "two evals: {comments:?}");
            let v = &rest[i + 7..];
            let v = &v[..v.find(']').unwrap()];
            found = Some(match v.strip_prefix('#') {
                Some("0") => 100_000 * if white_moved { 1 } else { -1 },
                Some(m) => 100_000 * m.parse::<i32>().unwrap().signum(),
                None => (v.parse::<f64>().unwrap() * 100.0).round() as i32,
            });
            rest = &rest[i + 7..];
        }
    }
    found
}

/// lichess's judgement, computed here independently of the tool's code: winning chances
/// 2/(1+exp(-0.00368208 cp))-1, losses of 0.1/0.2/0.3 (centipawn evaluations only).
fn expected_nag(before: i32, after: i32, white_moved: bool) -> Option<u8> {
    if before.abs() >= 100_000 || after.abs() >= 100_000 {
        return None;
    }
    let wc = |cp: i32| 2.0 / (1.0 + (-0.00368208 * cp as f64).exp()) - 1.0;
    let loss = (wc(before) - wc(after)) * if white_moved { 1.0 } else { -1.0 };
    if loss >= 0.3 {
        Some(4)
    } else if loss >= 0.2 {
        Some(2)
    } else if loss >= 0.1 {
        Some(6)
    } else {
        Some(0)
    }
}

/// `sable analyse PGN --nodes 4000 -o OUT --report DIR`: success and the output.
fn analyse_with_report(pgn: &str, out: &Path, report: &Path) -> (bool, String) {
    sable(&[
        "analyse",
        pgn,
        "--nodes",
        "4000",
        "-o",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ])
}

#[test]
fn annotates_reports_and_is_idempotent() {
    let dir = scratch("main");
    let pgn = input(&dir);
    let out1 = dir.join("out1.pgn");
    let report = dir.join("report");
    let (ok, log) = analyse_with_report(&pgn, &out1, &report);
    // The broken game: reported with its line and column, skipped; the others are
    // written, and the exit status says that the file was not read whole.
    assert!(!ok, "{log}");
    assert!(
        log.contains("game 2, line 27, column 13") && log.contains("skipped"),
        "{log}"
    );
    assert!(log.contains("3 games analysed, 1 skipped"), "{log}");
    assert!(log.contains("1 game could not be read"), "{log}");
    let text = std::fs::read_to_string(&out1).unwrap();
    let games = read_games(&text);
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].root.moves.len(), 67);
    assert_eq!(games[1].root.moves.len(), 10);

    let mut judged = 0;
    for g in &games {
        let mut prev: Option<i32> = None;
        for (i, node) in g.root.moves.iter().enumerate() {
            let white_moved = i % 2 == 0;
            let eval = eval_of(&node.comments, white_moved)
                .unwrap_or_else(|| panic!("move {} has no eval: {:?}", node.san, node.comments));
            let nag = node.nags.iter().copied().find(|n| [2, 4, 6].contains(n));
            if let Some(before) = prev {
                if let Some(want) = expected_nag(before, eval, white_moved) {
                    assert_eq!(
                        nag.unwrap_or(0),
                        want,
                        "{} after {before} -> {eval}",
                        node.san
                    );
                }
            }
            if nag.is_some() {
                judged += 1;
                let c = node.comments.join(" | ");
                assert!(
                    c.contains("Inaccuracy.") || c.contains("Mistake.") || c.contains("Blunder."),
                    "{c}"
                );
                if c.contains("Better was") {
                    assert!(!node.variations.is_empty(), "{c}");
                }
            }
            prev = Some(eval);
        }
    }
    assert!(
        judged > 0,
        "a blitz game at 4000 nodes has some judged move"
    );
    // The mate: `#0` after Nd3#.
    let last = games[1].root.moves.last().unwrap();
    assert!(
        last.comments[0].contains("[%eval #0]"),
        "{:?}",
        last.comments
    );
    // Opening names: the table (and the file's ECO tag kept), the Opening tag otherwise.
    assert_eq!(games[0].tags.get("ECO"), Some("B03"));
    assert!(
        games[0]
            .tags
            .get("Opening")
            .unwrap()
            .starts_with("Alekhine Defense"),
        "{:?}",
        games[0].tags.get("Opening")
    );
    assert_eq!(games[1].tags.get("ECO"), Some("B20"));
    // A person's comment, NAG, variation and clocks stay.
    let c = &games[2].root.moves;
    assert!(
        c[0].comments[0].starts_with("[%eval ") && c[0].comments[0].ends_with("[%clk 0:05:00]")
    );
    assert!(c[2].nags.contains(&1));
    assert!(c[2].comments.iter().any(|x| x == "The gambit."));
    assert_eq!(c[2].variations[0].moves[0].san.as_str(), "Nf3");
    // lichess's engine comment, its NAG, eval and variation are gone (a judgement of
    // Sable's own may take their place, and its evaluations may be -0.90 too, so the
    // test looks for lichess's spellings: one decimal, no sign on a positive score).
    for gone in ["Nf3 was best", "[%eval -0.9]", "(0.20 → -0.90)"] {
        assert!(!text.contains(gone), "{gone} is still in {text}");
    }
    assert!(
        c[4].variations.len() <= 1 && c[4].nags.len() <= 1,
        "{:?}",
        c[4]
    );
    if c[4].nags.is_empty() {
        assert!(c[4].variations.is_empty(), "{:?}", c[4]);
    }

    // The reports.
    for f in [
        "index.html",
        "game-0001.html",
        "game-0001-graph.svg",
        "game-0003.html",
        "game-0004.html",
    ] {
        assert!(report.join(f).exists(), "{f}");
    }
    assert!(!report.join("game-0002.html").exists());
    let page = std::fs::read_to_string(report.join("game-0001.html")).unwrap();
    assert!(page.contains("<svg") && page.contains("<polygon"), "graph");
    assert!(page.contains("Accuracy") && page.contains("ACPL"));
    assert!(page.contains("Alekhine Defense"));
    assert!(
        !page.contains("http://") || !page.contains("src=\"http"),
        "no network"
    );
    let index = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(index.contains("href=\"game-0001.html\"") && index.contains("Skipped games"));
    let svg = std::fs::read_to_string(report.join("game-0001-graph.svg")).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    let png = std::fs::read(report.join("game-0001-graph.png")).unwrap();
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() < 20_000,
        "{}",
        png.len()
    );

    // Annotating the annotated file gives it back unchanged.
    let out2 = dir.join("out2.pgn");
    let (ok, log) = sable(&[
        "annotate",
        out1.to_str().unwrap(),
        "--nodes",
        "4000",
        "-o",
        out2.to_str().unwrap(),
    ]);
    assert!(ok, "{log}");
    let again = std::fs::read_to_string(&out2).unwrap();
    assert_eq!(again, text, "a second run changed the annotations");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn uci_engines_and_their_failures() {
    let dir = scratch("uci");
    let pgn = dir.join("one.pgn");
    std::fs::write(
        &pgn,
        first_game("pgn/python-chess/molinari-bordais-1979.pgn"),
    )
    .unwrap();
    let pgn = pgn.to_str().unwrap();
    let fake = support::fake_engine();
    let engine = format!("{fake} --score 30");
    let (ok, out) = sable(&["analyse", pgn, "--engine", &engine, "--movetime", "5"]);
    assert!(ok, "{out}");
    let games = read_games(&out[..out.find("sable analyse:").unwrap()]);
    // The fake engine says +0.30 for the side to move: White's view alternates.
    let first = &games[0].root.moves[0].comments[0];
    assert_eq!(first, "[%eval -0.30]");
    assert!(out.contains("1 games analysed"), "{out}");

    let crashing = format!("{fake} --crash-at 4");
    let (ok, out) = sable(&["analyse", pgn, "--engine", &crashing, "--movetime", "5"]);
    assert!(!ok, "{out}");
    assert!(out.contains("disconnected"), "{out}");

    let (ok, out) = sable(&["analyse", pgn, "--engine", "/nonexistent/engine"]);
    assert!(!ok && out.contains("cannot start"), "{out}");
    // The input is never overwritten.
    let (ok, out) = sable(&["analyse", pgn, "-o", pgn]);
    assert!(!ok && out.contains("that is the input file"), "{out}");
    assert!(std::fs::read_to_string(pgn).unwrap().contains("Nd3#"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C (SIGINT) stops the run; the games written so far are whole.
#[test]
fn interrupted_run_keeps_whole_games() {
    let dir = scratch("sigint");
    let out = dir.join("out.pgn");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_sable"))
        .args([
            "analyse",
            &data("pgn/lichess/lichess-user-export-3970-games.pgn"),
        ])
        .args(["--nodes", "2000", "-o", out.to_str().unwrap()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&out).map_or(0, |t| t.matches("[Event ").count()) < 2 {
        assert!(started.elapsed().as_secs() < 120, "no game written");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let result = child.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&result.stderr);
    assert!(log.contains("(interrupted)"), "{log}");
    let text = std::fs::read_to_string(&out).unwrap();
    let games = read_games(&text);
    assert!(games.len() >= 2 && games.len() < 3970, "{}", games.len());
    for g in &games {
        for (i, node) in g.root.moves.iter().enumerate() {
            assert!(
                eval_of(&node.comments, i % 2 == 0).is_some(),
                "{}",
                node.san
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A real UCI engine: Stockfish's line is read back as the variation, and it sees the
/// mate in one that 5. g3 allows.
#[test]
#[ignore = "needs stockfish"]
fn stockfish_annotates() {
    let stockfish = "/usr/games/stockfish";
    assert!(
        Path::new(stockfish).exists(),
        "{stockfish} is not installed (apt-get install stockfish)"
    );
    let dir = scratch("stockfish");
    let pgn = dir.join("one.pgn");
    std::fs::write(
        &pgn,
        first_game("pgn/python-chess/molinari-bordais-1979.pgn"),
    )
    .unwrap();
    let (ok, out) = sable(&[
        "analyse",
        pgn.to_str().unwrap(),
        "--engine",
        stockfish,
        "--movetime",
        "100",
    ]);
    assert!(ok, "{out}");
    let games = read_games(&out[..out.find("sable analyse:").unwrap()]);
    let g3 = &games[0].root.moves[8];
    assert_eq!(g3.san.as_str(), "g3");
    assert_eq!(g3.nags, vec![4], "{g3:?}");
    assert!(g3.comments[0] == "[%eval #-1]", "{g3:?}");
    assert!(
        g3.comments[1].contains("Checkmate is now unavoidable. Better was "),
        "{g3:?}"
    );
    assert!(!g3.variations[0].moves.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Renders a report with headless Chromium and checks the screenshot is not blank.
#[test]
#[ignore = "needs chromium"]
fn report_renders_in_chromium() {
    let dir = scratch("chromium");
    let pgn = input(&dir);
    let report = dir.join("report");
    let out = dir.join("out.pgn");
    // The input's broken game makes the run fail; the three others are reported.
    let (_, log) = analyse_with_report(&pgn, &out, &report);
    assert!(log.contains("3 games analysed"), "{log}");
    let shot = dir.join("game.png");
    let status = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,1600",
            &format!("file://{}", report.join("game-0001.html").display()),
        ])
        .output()
        .expect("chromium runs");
    assert!(status.status.success(), "{status:?}");
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    // A blank page compresses to a few kilobytes; the report has a graph and boards.
    assert!(
        png.len() > 30_000,
        "the screenshot looks blank: {} bytes",
        png.len()
    );
    if let Ok(keep) = std::env::var("SABLE_KEEP_SCREENSHOT") {
        std::fs::copy(&shot, keep).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
