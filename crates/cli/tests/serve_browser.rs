//! `sable serve` in a real browser: headless Debian chromium driven through
//! chromedriver, every move made by mouse clicks on the board. A whole game against a
//! level (its PGN checked by python-chess), the review of a pasted PGN with its graph
//! (judgements checked against `sable analyse`), a promotion, a takeback, a reload that
//! keeps the game, a premove, a flag, sound, a file opened from disk, the graph and the
//! saved PGN of an analysis, a review cut off by its server or ended by another game,
//! bad input, and a phone-sized window. Each test saves screenshots in
//! `$CARGO_TARGET_TMPDIR/serve-screenshots/`.

mod support;
use sable_chess::SanMode;
use sable_formats::pgn::PgnReader;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use support::serve::Server;
use support::webdriver::Browser;
use support::{data, python, sable};

/// One browser at a time: the machine has two cores.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const WAIT: Duration = Duration::from_secs(20);

fn lock() -> std::sync::MutexGuard<'static, ()> {
    ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the page shows of a review: its progress line, a message, the connection, the
/// button, the graph.
fn review_state(b: &Browser) -> Value {
    b.js(
        "const t = id => { const e = document.getElementById(id); return e ? e.textContent : null; }; \
         return {progress: t('review-progress'), message: document.getElementById('message').hidden ? null : t('message-text'), conn: t('conn'), button_disabled: document.getElementById('review').disabled, graph: !!document.querySelector('#graph-area')};",
        vec![],
    )
}

/// Clicks "review" and waits for the server's first progress ("reviewing: N/M
/// positions"). The page answers the click itself at once ("reviewing…"), so a click
/// lost while the page settles after a load is told apart from a slow server and made
/// again; a timeout then quotes the page.
fn start_review(b: &Browser) {
    b.click("#review");
    let started = || b.text("#review-progress").starts_with("reviewing");
    if !Browser::poll_until(Duration::from_secs(3), started) {
        b.click("#review");
    }
    b.wait_until_or(
        WAIT,
        "the server's first progress",
        || b.text("#review-progress").starts_with("reviewing:"),
        || format!("; the page: {}", review_state(b)),
    );
}

/// Waits for a game review's graph; fails at once, quoting the page, if the review failed
/// or stopped or an error shows, and quotes the page's state on a timeout.
fn wait_for_review(b: &Browser) {
    b.wait_until_or(
        Duration::from_secs(90),
        "the review's graph",
        || {
            let s = review_state(b);
            let progress = s["progress"].as_str().unwrap_or("");
            if progress.contains("failed")
                || progress.contains("stopped")
                || !s["message"].is_null()
            {
                panic!("the review did not finish: {s}");
            }
            s["graph"] == true
        },
        || format!("; the page: {}", review_state(b)),
    );
    b.wait_for("#graph-area", WAIT);
}

/// Waits for the board's animations to end, then saves a screenshot.
fn screenshot(b: &Browser, name: &str) {
    b.wait_until(WAIT, "the animations to end", || {
        b.js(
            "return document.querySelector('cg-board piece.anim, cg-board piece.fading') === null;",
            vec![],
        ) == true
    });
    b.save_screenshot(name);
}

/// The page's own account of its game (`window.sable.game()`).
fn game(b: &Browser) -> Value {
    b.js("return window.sable.game();", vec![])
}

fn moves_of(g: &Value) -> Vec<String> {
    g["moves"]
        .as_array()
        .map(|a| a.iter().map(|m| m.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

fn fen(b: &Browser) -> String {
    b.js("return window.sable.fen();", vec![])
        .as_str()
        .unwrap()
        .to_string()
}

/// The centre of a square on the screen, as the board is oriented now.
fn square_point(b: &Browser, square: &str) -> (f64, f64) {
    let v = b.js(
        "const r = document.querySelector('cg-board').getBoundingClientRect(); return [r.left, r.top, r.width, window.sable.orientation()];",
        vec![],
    );
    let (left, top, width) = (
        v[0].as_f64().unwrap(),
        v[1].as_f64().unwrap(),
        v[2].as_f64().unwrap(),
    );
    let s = width / 8.0;
    let file = (square.as_bytes()[0] - b'a') as f64;
    let rank = (square.as_bytes()[1] - b'1') as f64;
    if v[3] == "white" {
        (left + (file + 0.5) * s, top + (7.0 - rank + 0.5) * s)
    } else {
        (left + (7.0 - file + 0.5) * s, top + (rank + 0.5) * s)
    }
}

/// Plays a UCI move by clicking its two squares (and the piece of a promotion).
fn click_move(b: &Browser, uci: &str) {
    let (x, y) = square_point(b, &uci[0..2]);
    b.click_at(x, y);
    let (x, y) = square_point(b, &uci[2..4]);
    b.click_at(x, y);
    if let Some(p) = uci.chars().nth(4) {
        let role = match p {
            'q' => "queen",
            'r' => "rook",
            'b' => "bishop",
            _ => "knight",
        };
        b.wait_for("#promotion piece", WAIT);
        b.click(&format!("#promotion piece[data-role={role}]"));
    }
}

/// Starts a game on the page: side, level (`full` or an Elo), clock (`""`: none).
fn start_game(b: &Browser, side: &str, level: &str, clock: &str) {
    b.wait_for("#start", WAIT);
    b.wait_until(WAIT, "the levels", || b.find("#level option").is_some());
    b.select("#side", side);
    b.select("#level", level);
    b.select("#clock", clock);
    b.click("#start");
    b.wait_for("#game", WAIT);
}

/// Waits until the page's game has `n` moves and the engine is not thinking.
fn wait_moves(b: &Browser, n: usize) -> Value {
    let mut last = Value::Null;
    b.wait_until(WAIT, &format!("{n} moves in the game"), || {
        last = game(b);
        moves_of(&last).len() == n && last["thinking"] == false
    });
    last
}

/// Sable itself over UCI at full strength: the player the test plays with.
struct Oracle {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Oracle {
    fn start() -> Oracle {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sable"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let mut o = Oracle { child, out };
        o.say("uci\nsetoption name Hash value 16\nisready");
        o.until("readyok");
        o
    }

    fn say(&mut self, text: &str) {
        writeln!(self.child.stdin.as_mut().unwrap(), "{text}").unwrap();
    }

    fn until(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.out.read_line(&mut line).unwrap() > 0,
                "the oracle ended"
            );
            if line.starts_with(prefix) {
                return line.trim().to_string();
            }
        }
    }

    fn best(&mut self, moves: &[String]) -> String {
        self.say(&format!(
            "position startpos moves {}\ngo nodes 20000",
            moves.join(" ")
        ));
        let line = self.until("bestmove");
        line.split_whitespace().nth(1).unwrap().to_string()
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Python-chess replays a PGN: its Result tag, the result it finds itself, whether the
/// last position is checkmate, and any errors it met.
fn python_chess_verdict(pgn: &str) -> String {
    let script = "import chess.pgn, sys\n\
g = chess.pgn.read_game(sys.stdin)\n\
b = g.board()\n\
for m in g.mainline_moves():\n    b.push(m)\n\
o = b.outcome(claim_draw=True)\n\
print(g.headers['Result'], o.result() if o else '*', b.is_checkmate(), len(g.errors), len(list(g.mainline_moves())))\n";
    python(script, &[], pgn).trim().to_string()
}

#[test]
#[ignore = "needs chromium"]
fn a_whole_game_by_clicks_against_a_level() {
    let _one = lock();
    let server = Server::start(&[]);
    let b = Browser::start(1100, 760);
    b.goto(&server.url());
    start_game(&b, "white", "1350", "");
    screenshot(&b, "play-start");
    let mut oracle = Oracle::start();
    let started = Instant::now();
    let mut played = 0;
    loop {
        let g = game(&b);
        if !g["result"].is_null() {
            break;
        }
        let moves = moves_of(&g);
        assert!(moves.len() < 300, "no end after 150 moves");
        assert!(
            started.elapsed() < Duration::from_secs(150),
            "the game takes too long"
        );
        let mv = oracle.best(&moves);
        click_move(&b, &mv);
        played += 1;
        if played == 12 {
            screenshot(&b, "play-middlegame");
        }
        // The click is a move of the page's game, then the engine answers (or it ended).
        b.wait_until(WAIT, &format!("the move {mv} and its answer"), || {
            let g = game(&b);
            let n = moves_of(&g).len();
            !g["result"].is_null() || (n == moves.len() + 2 && g["thinking"] == false)
        });
        assert_eq!(
            moves_of(&game(&b))[moves.len()],
            mv,
            "the page played the clicked move"
        );
    }
    let g = game(&b);
    let result = g["result"].as_str().unwrap().to_string();
    let reason = g["reason"].as_str().unwrap().to_string();
    b.wait_for("#status[data-result]", WAIT);
    assert!(b.text("#status").contains(&result));
    b.click("#pgn-save");
    b.wait_for("#pgn-out", WAIT);
    let pgn = b.text("#pgn-out");
    screenshot(&b, "play-end");
    let verdict = python_chess_verdict(&pgn);
    let n = moves_of(&g).len();
    // The page's result is the one the rules give; the PGN has every move, no error.
    let expect_mate = reason.ends_with("mates");
    assert_eq!(
        verdict,
        format!(
            "{result} {result} {} 0 {n}",
            if expect_mate { "True" } else { "False" }
        ),
        "{reason}\n{pgn}"
    );
    println!(
        "game over after {n} plies: {result} ({reason}) in {:?}",
        started.elapsed()
    );
}

/// The judgements `sable analyse` writes for a PGN at `nodes`: one per mainline move.
fn sable_analyse_judgements(pgn: &str, nodes: &str) -> Vec<Option<&'static str>> {
    let dir = std::env::temp_dir().join(format!("sable-serve-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("game.pgn");
    std::fs::write(&input, pgn).unwrap();
    let (ok, annotated) = sable(&[
        "analyse",
        input.to_str().unwrap(),
        "--nodes",
        nodes,
        "--hash",
        "16",
        "--threads",
        "1",
    ]);
    assert!(ok, "{annotated}");
    let _ = std::fs::remove_dir_all(&dir);
    let tree = PgnReader::new(annotated.as_bytes())
        .trees(SanMode::Strict)
        .next()
        .unwrap()
        .unwrap();
    tree.root
        .moves
        .iter()
        .map(|n| {
            n.nags.iter().find_map(|&g| match g {
                6 => Some("inaccuracy"),
                2 => Some("mistake"),
                4 => Some("blunder"),
                _ => None,
            })
        })
        .collect()
}

fn first_game(rel: &str) -> String {
    let text = std::fs::read_to_string(data(rel)).unwrap();
    let second = text[1..].find("\n[Event ").map_or(text.len(), |i| i + 1);
    text[..second].trim_end().to_string() + "\n"
}

/// Opens the analysis board, pastes the first game of the lichess export (67 moves) and
/// waits for its tree; returns the game's PGN.
fn open_lichess_game(b: &Browser, server: &Server) -> String {
    b.goto(&format!("{}#analysis", server.url()));
    let pgn = first_game("pgn/lichess/lichess-user-export-3970-games.pgn");
    b.type_into("#paste", &pgn);
    b.click("#load");
    b.wait_until(WAIT, "the game's 67 moves in the tree", || {
        b.js(
            "return document.querySelectorAll('#tree .mv').length;",
            vec![],
        ) == 67
    });
    pgn
}

#[test]
#[ignore = "needs chromium"]
fn analysis_of_a_pasted_pgn_with_its_graph() {
    let _one = lock();
    const NODES: &str = "20000";
    let server = Server::start(&["--review-nodes", NODES]);
    let b = Browser::start(1100, 800);
    let pgn = open_lichess_game(&b, &server);
    // Live lines: three, with a depth, and an evaluation bar.
    b.wait_until(WAIT, "three engine lines", || {
        b.js(
            "return document.querySelectorAll('#pvs .pv').length;",
            vec![],
        ) == 3
    });
    assert!(b.text("#depth").starts_with("depth "));
    assert!(!b.text("#evaltext").is_empty());
    // Keys: three moves on, one back.
    for _ in 0..3 {
        b.key("\u{E014}");
    }
    b.key("\u{E012}");
    assert_eq!(
        fen(&b),
        "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
    );
    b.wait_until(WAIT, "the opening name", || {
        b.text("#opening").contains("Alekhine")
    });
    // A move of our own there branches into a variation.
    click_move(&b, "b1c3");
    b.wait_until(WAIT, "a variation", || b.text("#tree .var").contains("Nc3"));
    assert_eq!(
        b.js(
            "return document.querySelectorAll('#tree .mv').length;",
            vec![]
        ),
        68
    );
    // The review: the graph, and the judgements of sable analyse.
    b.key("\u{E013}");
    b.click("#review");
    wait_for_review(&b);
    b.wait_for("#summary table", WAIT);
    let ours: Vec<Option<String>> = serde_json::from_value(b.js(
        "const out = []; for (let n = document.querySelector('#tree .mv'); n; ) { out.push(['inaccuracy','mistake','blunder'].find(c => n.classList.contains(c)) || null); let next = n.nextElementSibling; while (next && !(next.classList.contains('mv'))) next = next.nextElementSibling; n = next; } return out;",
        vec![],
    ))
    .unwrap();
    let theirs = sable_analyse_judgements(&pgn, NODES);
    let theirs: Vec<Option<String>> = theirs.iter().map(|j| j.map(String::from)).collect();
    assert_eq!(ours, theirs, "the page's judgements are sable analyse's");
    let dots = b.js(
        "return document.querySelectorAll('#graph circle.judged').length;",
        vec![],
    );
    assert_eq!(
        dots.as_u64().unwrap() as usize,
        theirs.iter().filter(|j| j.is_some()).count()
    );
    screenshot(&b, "analysis-review");

    // A click on the graph goes to that move: the position after it, as python-chess
    // plays the pasted game.
    const PLY: usize = 20;
    let rect = b.js(
        "const r = document.querySelector('#graph-svg').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];",
        vec![],
    );
    let r: Vec<f64> = serde_json::from_value(rect).unwrap();
    b.click_at(r[0] + r[2] * PLY as f64 / 67.0, r[1] + r[3] / 2.0);
    let expected = python(
        "import chess.pgn, io, sys\ng = chess.pgn.read_game(io.StringIO(sys.stdin.read()))\nb = g.board()\nfor m in list(g.mainline_moves())[:int(sys.argv[1])]: b.push(m)\nprint(b.fen())",
        &[&PLY.to_string()],
        &pgn,
    );
    b.wait_until(WAIT, "the position of the clicked move", || {
        fen(&b) == expected.trim()
    });

    // Save PGN writes the tree: python-chess reads the game's mainline and the variation.
    b.click("#a-pgn");
    b.wait_until(WAIT, "the saved PGN", || !b.text("#a-pgn-out").is_empty());
    let saved = b.text("#a-pgn-out");
    let verdict = python(
        "import chess.pgn, io, sys\ntexts = sys.stdin.read().split('\\x00')\nsaved = chess.pgn.read_game(io.StringIO(texts[0]))\norig = chess.pgn.read_game(io.StringIO(texts[1]))\nassert not saved.errors, saved.errors\nsame = [m.uci() for m in saved.mainline_moves()] == [m.uci() for m in orig.mainline_moves()]\nnode = saved.next().next()\nalts = [v.move.uci() for v in node.variations]\nprint(same, alts)",
        &[],
        &format!("{saved}\0{pgn}"),
    );
    assert_eq!(
        verdict.trim(),
        "True ['e4e5', 'b1c3']",
        "the saved PGN: {saved}"
    );
}

#[test]
#[ignore = "needs chromium"]
fn a_pgn_file_is_opened_from_disk() {
    let _one = lock();
    let server = Server::start(&[]);
    let b = Browser::start(1100, 800);
    b.goto(&format!("{}#analysis", server.url()));
    let pgn = first_game("pgn/lichess/lichess-user-export-3970-games.pgn");
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("serve-open-file.pgn");
    std::fs::write(&path, &pgn).unwrap();
    b.choose_file("#file", &path);
    b.wait_until(WAIT, "the file's 67 moves in the tree", || {
        b.js(
            "return document.querySelectorAll('#tree .mv').length;",
            vec![],
        ) == 67
    });
}

#[test]
#[ignore = "needs chromium"]
fn a_flag_loses_on_time() {
    let _one = lock();
    let server = Server::start(&[]);
    let b = Browser::start(1000, 760);
    b.goto(&server.url());
    start_game(&b, "white", "1350", "1+0");
    click_move(&b, "e2e4");
    wait_moves(&b, 2);
    click_move(&b, "g1f3");
    wait_moves(&b, 4);
    // Our clock runs; rather than wait a minute, the saved game is given 1.5 s left
    // and the page reloaded: the clock runs out and the flag loses.
    b.js(
        "const g = JSON.parse(localStorage.getItem('sable.game')); g.times[0] = 1500; g.turnStart = Date.now(); localStorage.setItem('sable.game', JSON.stringify(g)); return 0;",
        vec![],
    );
    b.refresh();
    b.wait_until(WAIT, "the flag", || b.text("#status").starts_with("0-1"));
    assert_eq!(b.text("#status"), "0-1 · White loses on time");
    assert_eq!(b.text("#clock-bottom"), "0:00.0");
    screenshot(&b, "flag");
    // The game is over: the board takes no more moves.
    let before = moves_of(&game(&b));
    click_move(&b, "d2d4");
    assert_eq!(moves_of(&game(&b)), before);
}

#[test]
#[ignore = "needs chromium"]
fn a_promotion_asks_for_the_piece() {
    let _one = lock();
    let server = Server::start(&[]);
    let b = Browser::start(1000, 760);
    b.goto(&format!("{}#analysis", server.url()));
    b.type_into("#paste", "8/P7/8/8/8/8/k7/4K3 w - - 0 1");
    b.click("#load");
    b.wait_until(WAIT, "the position", || fen(&b).starts_with("8/P7/"));
    let (x, y) = square_point(&b, "a7");
    b.click_at(x, y);
    let (x, y) = square_point(&b, "a8");
    b.click_at(x, y);
    b.wait_for("#promotion piece[data-role=knight]", WAIT);
    screenshot(&b, "promotion-choice");
    b.click("#promotion piece[data-role=knight]");
    b.wait_until(WAIT, "the knight on a8", || fen(&b).starts_with("N7/"));
    assert_eq!(b.text("#tree .mv"), "a8=N");
    screenshot(&b, "promotion-done");
}

#[test]
#[ignore = "needs chromium"]
fn a_takeback_and_a_resignation() {
    let _one = lock();
    let server = Server::start(&[]);
    let b = Browser::start(1000, 760);
    b.goto(&server.url());
    start_game(&b, "white", "1500", "5+3");
    click_move(&b, "e2e4");
    wait_moves(&b, 2);
    click_move(&b, "g1f3");
    wait_moves(&b, 4);
    b.click("#takeback");
    let g = wait_moves(&b, 2);
    assert_eq!(moves_of(&g)[0], "e2e4");
    screenshot(&b, "takeback");
    b.click("#takeback");
    wait_moves(&b, 0);
    assert_eq!(fen(&b), START_FEN);
    assert_eq!(b.text("#status"), "Your move");
    // The game goes on after it, with sound: a tone for each move (counted where the
    // page makes them, since a headless browser has no speakers).
    b.js(
        "window.tones = []; const make = AudioContext.prototype.createOscillator; AudioContext.prototype.createOscillator = function () { const o = make.call(this); window.tones.push(o); return o; }; return 0;",
        vec![],
    );
    b.click("#sound");
    click_move(&b, "d2d4");
    wait_moves(&b, 2);
    assert_eq!(
        b.js("return window.tones.map(o => o.frequency.value);", vec![]),
        json!([520, 520]),
        "one tone for our move and one for Sable's"
    );
    b.click("#resign");
    b.wait_until(WAIT, "the result", || b.text("#status").starts_with("0-1"));
}

#[test]
#[ignore = "needs chromium"]
fn a_reload_keeps_the_game() {
    let _one = lock();
    let server = Server::start(&[]);
    let b = Browser::start(1000, 760);
    b.goto(&server.url());
    start_game(&b, "black", "1350", "10+5");
    // Sable moves first, then two moves of ours.
    wait_moves(&b, 1);
    assert_eq!(b.js("return window.sable.orientation();", vec![]), "black");
    // Legal after any first move of White.
    click_move(&b, "g8f6");
    let before = wait_moves(&b, 3);
    let fen_before = fen(&b);
    b.refresh();
    b.wait_until(WAIT, "the game after the reload", || {
        b.js(
            "return document.querySelectorAll('#play-moves .mv').length;",
            vec![],
        ) == 3
    });
    let after = game(&b);
    assert_eq!(moves_of(&after), moves_of(&before));
    assert_eq!(after["player"], "black");
    assert_eq!(fen(&b), fen_before);
    screenshot(&b, "reload");
    // And it goes on: a move of ours, the engine's answer.
    click_move(&b, "b8c6");
    wait_moves(&b, 5);
}

#[test]
#[ignore = "needs chromium"]
fn a_review_cut_off_with_its_server_is_started_again_on_reconnection() {
    let _one = lock();
    // Slow enough (millions of nodes a position) to be under way when its server goes.
    let first = Server::start(&["--review-nodes", "5000000"]);
    let port = first.port;
    let b = Browser::start(1100, 800);
    open_lichess_game(&b, &first);
    // "reviewing: N/M positions" comes from the server, so its review has begun.
    start_review(&b);
    drop(first);
    b.wait_until(WAIT, "the page to see its server gone", || {
        b.text("#conn") != "engine connected"
    });
    let _second = Server::start_on(port, &["--review-nodes", "2000"]);
    b.wait_until(WAIT, "the page to reconnect", || {
        b.text("#conn") == "engine connected"
    });
    wait_for_review(&b);
    assert_eq!(b.text("#review-progress"), "review done");
    b.wait_for("#summary table", WAIT);
}

/// Another game loaded while a review runs: the review stops (the server would
/// otherwise finish it before reading the new game), the new game shows at once with
/// nothing of the old review, and its own review starts straight away.
#[test]
#[ignore = "needs chromium"]
fn another_game_loaded_during_a_review_ends_that_review() {
    let _one = lock();
    // Millions of nodes a position: minutes for the 68 positions of the first game.
    let server = Server::start(&["--review-nodes", "5000000"]);
    let b = Browser::start(1100, 800);
    open_lichess_game(&b, &server);
    start_review(&b);
    b.js(
        "document.querySelector('#paste').value = arguments[0];",
        vec![json!("1. d4 d5 2. c4 e6 3. Nc3 Nf6 *\n")],
    );
    b.click("#load");
    b.wait_until(WAIT, "the new game's 6 moves in the tree", || {
        b.js(
            "return document.querySelectorAll('#tree .mv').length;",
            vec![],
        ) == 6
    });
    let state = b.js(
        "return {progress: document.getElementById('review-progress').textContent, disabled: document.getElementById('review').disabled, graph: !!document.querySelector('#graph-area')};",
        vec![],
    );
    assert_eq!(
        state,
        json!({"progress": "", "disabled": false, "graph": false})
    );
    // The new game's review is the one the server works on now (7 positions).
    b.click("#review");
    b.wait_until(WAIT, "the new review's progress", || {
        b.text("#review-progress").ends_with("/7 positions")
    });
}

#[test]
#[ignore = "needs chromium"]
fn bad_input_shows_a_message_in_the_page() {
    let _one = lock();
    let mut server = Server::start(&[]);
    let b = Browser::start(1000, 760);
    b.goto(&format!("{}#analysis", server.url()));
    b.wait_for("#paste", WAIT);
    b.wait_until(WAIT, "the connection", || {
        b.text("#conn") == "engine connected"
    });
    // A 10 MB PGN, pasted.
    b.js(
        "document.querySelector('#paste').value = '1. e4 e5 2. Nf3 Nc6 '.repeat(655360);",
        vec![],
    );
    b.click("#load");
    b.wait_for("#message", WAIT);
    let m = b.text("#message-text");
    assert!(m.contains("13.1 MB") && m.contains("1 MiB"), "{m}");
    b.click("#message-close");
    // A bad FEN, and a PGN with an illegal move: the server's words.
    b.js(
        "document.querySelector('#paste').value = arguments[0];",
        vec![json!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1")],
    );
    b.click("#load");
    b.wait_for("#message", WAIT);
    assert!(
        b.text("#message-text").starts_with("FEN"),
        "{}",
        b.text("#message-text")
    );
    b.click("#message-close");
    b.js(
        "document.querySelector('#paste').value = arguments[0];",
        vec![json!("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n")],
    );
    b.click("#load");
    b.wait_for("#message", WAIT);
    let m = b.text("#message-text");
    assert!(m.contains("line 3") && m.contains("Ke3"), "{m}");
    screenshot(&b, "bad-input");
    // Many tabs: the server stays up and each page has its session.
    for _ in 0..3 {
        b.js("window.open(arguments[0]);", vec![json!(server.url())]);
    }
    server.wait_sessions(4, WAIT);
    assert!(server.alive());
}

#[test]
#[ignore = "needs chromium"]
fn a_phone_sized_window_stacks_board_and_panel() {
    let _one = lock();
    let server = Server::start(&[]);
    let b = Browser::start_phone(390, 844);
    b.goto(&server.url());
    start_game(&b, "white", "1350", "3+2");
    click_move(&b, "e2e4");
    wait_moves(&b, 2);
    let v = b.js(
        "const r = document.querySelector('cg-board').getBoundingClientRect(); const p = document.querySelector('#panel').getBoundingClientRect(); return [r.left, r.right, r.bottom, p.top, document.documentElement.clientWidth, document.documentElement.scrollWidth];",
        vec![],
    );
    let f = |i: usize| v[i].as_f64().unwrap();
    assert!(f(0) >= 0.0 && f(1) <= f(4), "the board fits the width: {v}");
    assert!(f(3) >= f(2), "the panel is below the board: {v}");
    assert!(f(5) <= f(4), "no sideways scrolling: {v}");
    assert!(f(1) - f(0) > 300.0, "the board is not tiny: {v}");
    screenshot(&b, "phone");
}

#[test]
#[ignore = "needs chromium"]
fn a_premove_is_played_when_the_engine_has_moved() {
    let _one = lock();
    let server = Server::start(&[]);
    let b = Browser::start(1000, 760);
    b.goto(&server.url());
    // Full strength with no clock thinks a second a move: time to premove.
    start_game(&b, "white", "full", "");
    click_move(&b, "e2e4");
    b.wait_until(WAIT, "Sable thinking", || {
        let g = game(&b);
        moves_of(&g).len() == 1 && g["thinking"] == true
    });
    click_move(&b, "g1f3");
    // Chessground draws at the next animation frame: wait for it, not for the click.
    b.wait_until(WAIT, "the premove shown", || {
        b.find("square.current-premove").is_some()
    });
    screenshot(&b, "premove");
    b.wait_until(WAIT, "the premove played", || {
        moves_of(&game(&b)).len() >= 3
    });
    assert_eq!(moves_of(&game(&b))[2], "g1f3");
}
