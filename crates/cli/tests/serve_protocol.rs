//! `sable serve` without a browser: the page's files, the WebSocket messages and their
//! errors, sessions freed when their socket closes, the session limit, the review's
//! judgements against `sable analyse`'s, which stops end a review, and the server's
//! memory with 10 sessions.

mod support;
use sable_chess::SanMode;
use sable_formats::pgn::PgnReader;
use serde_json::json;
use std::time::Duration;
use support::serve::{Client, Server};
use support::{data, python, sable};

/// A new session, past its greeting.
fn session(server: &Server) -> Client {
    let mut c = Client::connect(server);
    let hello = c.recv();
    assert_eq!(hello["t"], "hello", "{hello}");
    c
}

/// The error answering the last message (the next `error`).
fn error_text(c: &mut Client) -> String {
    c.until("error")["message"].as_str().unwrap().to_string()
}

/// The first game of a PGN file, as text.
fn first_game(rel: &str) -> String {
    let text = std::fs::read_to_string(data(rel)).unwrap();
    let second = text[1..].find("\n[Event ").map_or(text.len(), |i| i + 1);
    text[..second].trim_end().to_string() + "\n\n"
}

#[test]
fn the_page_is_served_whole_from_the_binary() {
    let server = Server::start(&[]);
    let (status, html) = server.get("/");
    assert!(status.contains("200"), "{status}");
    assert!(html.contains("/app.js") && html.contains("/app.css"));
    let (_, js) = server.get("/app.js");
    let (_, css) = server.get("/app.css");
    assert!(
        js.len() > 10_000 && js.contains("cg-board"),
        "the bundle holds chessground"
    );
    assert!(css.contains("cg-wrap") && css.contains("data:image/svg+xml"));
    // Offline: nothing is fetched from elsewhere.
    for (name, text) in [("index.html", &html), ("app.css", &css)] {
        assert!(
            !text.contains("http://") && !text.contains("https://"),
            "{name} names a remote URL"
        );
    }
    assert!(!js.contains("https://"), "app.js names a remote URL");
    // The committed build is that of the committed sources (the parts npm need not
    // rebuild to compare; `cd web && npm ci && npm run build` rebuilds app.js).
    let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src");
    let html_src = std::fs::read_to_string(web.join("index.html")).unwrap();
    let css_src = std::fs::read_to_string(web.join("style.css")).unwrap();
    assert_eq!(
        html, html_src,
        "rebuild the page: cd web && npm ci && npm run build"
    );
    assert!(
        css.ends_with(&css_src),
        "rebuild the page: cd web && npm ci && npm run build"
    );
    let (status, licences) = server.get("/third-party");
    assert!(
        status.contains("200")
            && licences.contains("chessground")
            && licences.contains("MIT License")
    );
    let (status, _) = server.get("/nothing-here");
    assert!(status.contains("404"), "{status}");
    // The session count starts at zero.
    assert_eq!(server.sessions(), 0);
}

#[test]
fn bad_input_gets_a_clear_error_and_the_session_goes_on() {
    let mut server = Server::start(&[]);
    let mut c = session(&server);
    c.send(json!({"t": "play", "id": 1, "moves": ["e2e4", "e7e5", "e1e3"]}));
    let e = error_text(&mut c);
    assert!(e.contains("e1e3") && e.contains("move 3"), "{e}");
    c.send(json!({"t": "analyse", "id": 2, "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}));
    let e = error_text(&mut c);
    assert!(e.contains("FEN"), "{e}");
    c.send(json!({"t": "load", "id": 3, "text": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1"}));
    let e = error_text(&mut c);
    assert!(e.starts_with("FEN:"), "{e}");
    c.send(
        json!({"t": "load", "id": 3, "text": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"}),
    );
    let e = error_text(&mut c);
    assert!(e.starts_with("FEN:"), "{e}");
    c.send_text("{not json".into());
    let e = error_text(&mut c);
    assert!(e.starts_with("bad message"), "{e}");
    c.send(json!({"t": "fly", "id": 4}));
    let e = error_text(&mut c);
    assert!(e.contains("fly"), "{e}");
    c.send(json!({"t": "analyse", "id": 5, "multipv": 9}));
    let e = error_text(&mut c);
    assert!(e.contains("multipv 9"), "{e}");
    c.send(json!({"t": "play", "id": 6, "elo": 99}));
    let e = error_text(&mut c);
    assert!(e.contains("UCI_Elo") && e.contains("99"), "{e}");
    c.send(json!({"t": "play", "id": 7, "clock": {"wtime": u64::MAX, "btime": 1000}}));
    let e = error_text(&mut c);
    assert!(e.contains("clock"), "{e}");
    c.send(json!({"t": "draw", "id": 8, "engine": "green"}));
    let e = error_text(&mut c);
    assert!(e.contains("green"), "{e}");
    // A PGN with an illegal move: named with its line and column.
    c.send(json!({"t": "load", "id": 9, "text": "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n"}));
    let e = error_text(&mut c);
    assert!(e.contains("line 3") && e.contains("Ke3"), "{e}");
    // A 10 MB PGN: refused with its size, at once.
    let big = "1. e4 e5 2. Nf3 Nc6 ".repeat(10 << 20 >> 4);
    c.send(json!({"t": "load", "id": 10, "text": big}));
    let e = error_text(&mut c);
    assert!(e.contains("MB") && e.contains("1 MiB"), "{e}");
    // A game that is over: no move to ask for.
    c.send(json!({"t": "play", "id": 11, "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]}));
    let e = error_text(&mut c);
    assert!(e.contains("game is over"), "{e}");
    c.ws.send(tungstenite::Message::binary(vec![1, 2, 3]))
        .unwrap();
    let e = error_text(&mut c);
    assert!(e.contains("binary"), "{e}");
    // After all that, the session still plays.
    c.send(json!({"t": "play", "id": 12, "moves": ["e2e4"], "elo": 1350}));
    let m = c.until("bestmove");
    assert_eq!(m["id"], 12);
    assert!(server.alive());
}

/// Python-chess replays the same text: the server's moves are its moves.
#[test]
#[ignore = "needs python-chess"]
fn a_loaded_pgn_is_python_chess_mainline() {
    let server = Server::start(&[]);
    let mut c = session(&server);
    let pgn = first_game("pgn/lichess/lichess-user-export-3970-games.pgn");
    c.send(json!({"t": "load", "id": 1, "text": pgn}));
    let loaded = c.until("loaded");
    let ours: Vec<String> = loaded["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            format!(
                "{} {}",
                m["uci"].as_str().unwrap(),
                m["san"].as_str().unwrap()
            )
        })
        .collect();
    let text = python(
        "import chess.pgn, sys\ng = chess.pgn.read_game(sys.stdin)\nb = g.board()\nfor m in g.mainline_moves():\n    print(m.uci(), b.san(m))\n    b.push(m)\nprint('FEN', b.fen())",
        &[],
        &pgn,
    );
    let theirs: Vec<&str> = text.lines().filter(|l| !l.starts_with("FEN")).collect();
    assert_eq!(ours, theirs);
    assert_eq!(loaded["tags"]["White"], "Bfx-de-Blr");
    // A FEN is a position with no moves.
    let fen = "8/P7/8/8/8/8/k7/4K3 w - - 0 1";
    c.send(json!({"t": "load", "id": 2, "text": fen}));
    let loaded = c.until("loaded");
    assert_eq!(loaded["fen"], fen);
    assert_eq!(loaded["moves"].as_array().unwrap().len(), 0);
}

#[test]
fn analysis_streams_multipv_lines_with_san() {
    let server = Server::start(&[]);
    let mut c = session(&server);
    c.send(json!({"t": "analyse", "id": 1, "moves": ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"], "multipv": 3}));
    let a = c.until("analysing");
    assert_eq!(a["opening"]["eco"], "C60", "{a}");
    let mut seen = [false; 3];
    while !seen.iter().all(|&s| s) {
        let v = c.until("info");
        assert_eq!(v["id"], 1);
        let k = v["multipv"].as_u64().unwrap() as usize;
        seen[k - 1] = true;
        assert_eq!(
            v["pv"].as_array().unwrap().len(),
            v["san"].as_array().unwrap().len()
        );
        let win = v["eval"]["win"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&win));
        // Black is to move after 3. Bb5: the line starts with "3..." on the page.
        assert_eq!(v["white"], false);
        assert_eq!(v["fullmove"], 3);
    }
    c.send(json!({"t": "stop"}));
    c.until("done");
}

/// A draw offer: Sable takes it when it is not better, whichever side it plays.
#[test]
fn a_draw_offer_is_taken_only_when_sable_is_not_better() {
    let server = Server::start(&["--review-nodes", "5000"]);
    let mut c = session(&server);
    // White has an extra queen.
    let fen = "4k3/8/8/8/8/8/3QK3/8 b - - 0 1";
    for (side, accepted) in [("black", true), ("white", false)] {
        c.send(json!({"t": "draw", "id": 1, "fen": fen, "engine": side}));
        let d = c.until("draw");
        assert_eq!(d["accepted"], accepted, "{side}: {d}");
        assert!(
            d["eval"]["cp"].as_i64().is_some_and(|cp| cp > 500)
                || d["eval"]["mate"].as_i64().is_some_and(|m| m > 0),
            "{d}"
        );
    }
}

#[test]
fn a_closed_socket_frees_its_engine_mid_search_and_mid_review() {
    let server = Server::start(&[]);
    let mut c = session(&server);
    server.wait_sessions(1, Duration::from_secs(5));
    c.send(json!({"t": "analyse", "id": 1}));
    c.until("info");
    drop(c);
    server.wait_sessions(0, Duration::from_secs(5));

    let mut c = session(&server);
    let pgn = first_game("pgn/lichess/lichess-user-export-3970-games.pgn");
    c.send(json!({"t": "review", "id": 1, "pgn": pgn}));
    c.until("progress");
    drop(c);
    server.wait_sessions(0, Duration::from_secs(5));

    // Closed politely this time, while the engine thinks on a move.
    let mut c = session(&server);
    c.send(json!({"t": "play", "id": 1, "clock": {"wtime": 600000, "btime": 600000}}));
    c.ws.close(None).unwrap();
    let _ = c.ws.flush();
    server.wait_sessions(0, Duration::from_secs(5));
}

#[test]
fn sessions_past_the_limit_are_refused_with_a_message() {
    let server = Server::start(&["--max-sessions", "2"]);
    let a = session(&server);
    let _b = session(&server);
    let mut c = Client::connect(&server);
    let e = c.recv();
    assert_eq!(e["t"], "error");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("too many open sessions (2"),
        "{e}"
    );
    drop(c);
    drop(a);
    server.wait_sessions(1, Duration::from_secs(5));
    let mut d = session(&server);
    d.send(json!({"t": "play", "id": 1, "elo": 1350}));
    d.until("bestmove");
}

/// The judgements of a review are those `sable analyse` writes for the same game at the
/// same nodes, hash and threads (a search of fixed nodes on one thread is repeatable).
#[test]
fn review_judges_as_sable_analyse() {
    const NODES: &str = "20000";
    let pgn = first_game("pgn/lichess/lichess-user-export-3970-games.pgn");
    let dir = std::env::temp_dir().join(format!("sable-serve-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("game.pgn");
    std::fs::write(&input, &pgn).unwrap();
    let (ok, annotated) = sable(&[
        "analyse",
        input.to_str().unwrap(),
        "--nodes",
        NODES,
        "--hash",
        "16",
        "--threads",
        "1",
    ]);
    assert!(ok, "{annotated}");
    let tree = PgnReader::new(annotated.as_bytes())
        .trees(SanMode::Strict)
        .next()
        .unwrap()
        .unwrap();
    let theirs: Vec<Option<&str>> = tree
        .root
        .moves
        .iter()
        .map(|n| {
            n.nags.iter().find_map(|&g| match g {
                6 => Some("Inaccuracy"),
                2 => Some("Mistake"),
                4 => Some("Blunder"),
                _ => None,
            })
        })
        .collect();

    let server = Server::start(&["--review-nodes", NODES]);
    let mut c = session(&server);
    c.send(json!({"t": "review", "id": 7, "pgn": pgn}));
    let r = c.until("review");
    let plies = r["plies"].as_array().unwrap();
    let ours: Vec<Option<&str>> = plies.iter().map(|p| p["judgement"].as_str()).collect();
    assert_eq!(ours, theirs);
    assert!(
        theirs.iter().any(Option::is_some),
        "the game has judged moves"
    );
    let counts: Vec<Vec<u64>> = serde_json::from_value(r["counts"].clone()).unwrap();
    let judged = ours.iter().filter(|j| j.is_some()).count() as u64;
    assert_eq!(counts.iter().flatten().sum::<u64>(), judged);
    assert!(
        r["opening"]["name"].as_str().is_some_and(|n| !n.is_empty()),
        "{}",
        r["opening"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `stop` with `review` ends the review under way and one still waiting its turn behind
/// it (asked for before the stop: the page has moved on from both); the server then
/// answers at once.
#[test]
fn a_stop_for_reviews_ends_the_one_under_way_and_the_one_waiting() {
    // Millions of nodes a position: the first review is far from done when stopped.
    let server = Server::start(&["--review-nodes", "5000000"]);
    let mut c = session(&server);
    let pgn = first_game("pgn/lichess/lichess-user-export-3970-games.pgn");
    c.send(json!({"t": "review", "id": 1, "pgn": pgn}));
    let p = c.until("progress");
    assert_eq!(p["id"], 1, "{p}");
    c.send(json!({"t": "review", "id": 2, "pgn": pgn}));
    c.send(json!({"t": "stop", "review": true}));
    c.send(json!({"t": "load", "id": 3, "text": "1. e4 e5 *"}));
    let mut cancelled = Vec::new();
    loop {
        let v = c.recv();
        match v["t"].as_str().unwrap() {
            "cancelled" => cancelled.push(v["id"].as_u64().unwrap()),
            "progress" => assert_eq!(v["id"], 1, "the waiting review began: {v}"),
            "loaded" => break,
            "review" | "error" => panic!("{v}"),
            _ => {}
        }
    }
    assert_eq!(cancelled, [1, 2]);
}

/// A stop ends a review inside a position's search, not after it: at a billion nodes
/// a position (minutes) the answer would miss the client's 60-second read timeout.
#[test]
fn a_stop_ends_a_review_inside_a_position() {
    let server = Server::start(&["--review-nodes", "1000000000"]);
    let mut c = session(&server);
    c.send(json!({"t": "review", "id": 1, "pgn": "1. e4 e5 2. Nf3 *\n"}));
    let p = c.until("progress");
    assert_eq!(
        (p["id"].as_u64(), p["done"].as_u64()),
        (Some(1), Some(0)),
        "{p}"
    );
    c.send(json!({"t": "stop", "review": true}));
    let v = c.until("cancelled");
    assert_eq!(v["id"], 1, "{v}");
    // The engine, stopped mid-search, searches the next request.
    c.send(json!({"t": "analyse", "id": 2}));
    assert_eq!(c.until("info")["id"], 2);
}

/// A plain `stop` (the page's live analysis switched off) leaves a review be.
#[test]
fn a_plain_stop_leaves_a_review_be() {
    let server = Server::start(&["--review-nodes", "300000"]);
    let mut c = session(&server);
    let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 *\n";
    c.send(json!({"t": "review", "id": 1, "pgn": pgn}));
    // The first progress comes before any search, the second after the first position.
    let p = c.until("progress");
    assert_eq!(
        (p["done"].as_u64(), p["total"].as_u64()),
        (Some(0), Some(13)),
        "{p}"
    );
    let p = c.until("progress");
    assert_eq!(
        (p["done"].as_u64(), p["total"].as_u64()),
        (Some(1), Some(13)),
        "{p}"
    );
    c.send(json!({"t": "stop"}));
    loop {
        let v = c.recv();
        match v["t"].as_str().unwrap() {
            "review" => {
                assert_eq!(v["id"], 1);
                assert_eq!(v["plies"].as_array().unwrap().len(), 12, "{v}");
                break;
            }
            "cancelled" | "error" => panic!("{v}"),
            _ => {}
        }
    }
}

/// Ten sessions, each with its engine and table used once: the server's resident memory.
#[test]
fn memory_of_ten_sessions() {
    let server = Server::start(&[]);
    let idle = server.rss_kib();
    let mut clients: Vec<Client> = (0..10).map(|_| session(&server)).collect();
    for (i, c) in clients.iter_mut().enumerate() {
        c.send(json!({"t": "analyse", "id": i, "multipv": 3}));
        c.until("info");
        c.send(json!({"t": "stop"}));
        c.until("done");
    }
    server.wait_sessions(10, Duration::from_secs(5));
    let ten = server.rss_kib();
    println!(
        "sable serve RSS: idle {} MiB, 10 sessions {} MiB ({:.1} MiB a session)",
        idle / 1024,
        ten / 1024,
        (ten - idle) as f64 / 10240.0
    );
    // Each session's table is 16 MB, touched as the search fills it: far below this.
    assert!(ten < 400 * 1024, "{ten} KiB");
    drop(clients);
    server.wait_sessions(0, Duration::from_secs(10));
    let closed = server.rss_kib();
    println!(
        "sable serve RSS after the 10 sessions closed: {} MiB",
        closed / 1024
    );
    // The tables are given back when their engines are dropped.
    assert!(
        closed < idle + 64 * 1024,
        "{closed} KiB after closing, {idle} KiB idle"
    );
}
