//! Scripted xboard (CECP v2) sessions against `sable xboard`: send a command, expect a
//! line. Every engine move is checked for legality in a position the test tracks itself,
//! and no test depends on how fast the engine is except the clock test, which checks
//! the engine never oversteps the time it was given.

#[path = "xboard_protocol/harness.rs"]
mod harness;

use harness::{fen, is_thinking, Engine};
use sable::notation::parse_any_move;
use sable_chess::Position;
use std::time::{Duration, Instant};

#[test]
fn handshake_lists_the_features() {
    let mut e = Engine::start();
    let features = e.transcript.join(" ");
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "san=0",
        "time=1",
        "draw=1",
        "sigint=0",
        "sigterm=0",
        "reuse=1",
        "analyze=1",
        "colors=0",
        "memory=1",
        "smp=1",
        "variants=\"normal,fischerandom\"",
        "myname=\"Sable",
        "option=\"MoveOverhead -spin",
        "option=\"UseNNUE -check",
        "option=\"EvalFile -file",
        "done=1",
    ] {
        assert!(features.contains(f), "missing feature {f} in {features}");
    }
    assert!(e.transcript.iter().all(|l| l.starts_with("feature ")));
    for l in &e.transcript {
        assert_eq!(l.trim_end(), l, "trailing space in {l:?}");
    }
    e.send("accepted ping");
    e.send("rejected debug");
    assert!(e.sync().is_empty());
    e.quit();
}

#[test]
fn pings_answer_in_order_and_wait_for_the_move() {
    let mut e = Engine::start();
    e.send("new");
    e.send("force");
    let mut pos = Position::startpos();
    e.user_move(&mut pos, "e2e4");
    e.send("st 0.3");
    e.send("go");
    // The pong must follow the move: xboard may ping while the engine is on move.
    e.send("ping 1");
    e.send("ping 2");
    e.expect_move(&mut pos);
    let (_, before) = e.expect_with(|l| l == "pong 1");
    assert!(before.iter().all(|l| !l.starts_with("pong")), "{before:?}");
    e.expect(|l| l == "pong 2");
    // Idle: answered at once, in order.
    for n in 3..8 {
        e.send(&format!("ping {n}"));
    }
    for n in 3..8 {
        let want = format!("pong {n}");
        let (_, before) = e.expect_with(|l| l == want);
        assert!(before.is_empty(), "{before:?}");
    }
    e.quit();
}

#[test]
fn engine_plays_black_after_new_and_follows_the_game() {
    let mut e = Engine::start();
    e.send("new");
    e.send("sd 4");
    e.send("post");
    let mut pos = Position::startpos();
    for _ in 0..4 {
        let reply = pos.legal_moves()[0];
        let text = reply.to_uci(false).to_string();
        e.user_move(&mut pos, &text);
        e.expect_move(&mut pos);
    }
    let lines = e.sync();
    assert!(lines.iter().all(|l| !l.starts_with("move")));
    // Thinking output appeared (post) with depths at most the sd limit.
    let thinking: Vec<&String> = e.transcript.iter().filter(|l| is_thinking(l)).collect();
    assert!(!thinking.is_empty());
    for l in thinking {
        let depth: u32 = l.split_whitespace().next().unwrap().parse().unwrap();
        assert!(depth <= 4, "{l}");
        assert!(l.contains('\t'), "pv is tab-separated: {l}");
    }
    e.quit();
}

#[test]
fn force_mode_and_analysis_never_move() {
    let mut e = Engine::start();
    e.send("new");
    e.send("force");
    let mut pos = Position::startpos();
    for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        e.user_move(&mut pos, m);
    }
    e.send("post");
    e.send("analyze");
    let first = e.expect(is_thinking);
    // The PV is for the position after the moves given (White to move here).
    let pv_first = first
        .split('\t')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert!(parse_any_move(&pos, pv_first).is_ok(), "{first}");
    std::thread::sleep(Duration::from_millis(200));
    e.send(".");
    let stat = e.expect(|l| l.starts_with("stat01: "));
    let fields: Vec<&str> = stat.split_whitespace().collect();
    assert!(fields.len() >= 6, "{stat}");
    assert_eq!(fields[5].parse::<usize>().unwrap(), pos.legal_moves().len());
    // A move in analysis mode: analysis goes on from the new position.
    e.user_move(&mut pos, "f1b5");
    let after = e.sync();
    assert!(after.iter().all(|l| !l.starts_with("move")));
    std::thread::sleep(Duration::from_millis(200));
    let line = e.expect(|l| {
        is_thinking(l) && {
            let pv = l.split('\t').nth(1).unwrap_or("");
            pv.split_whitespace()
                .next()
                .is_some_and(|m| parse_any_move(&fen(&pos.fen()), m).is_ok())
        }
    });
    assert!(is_thinking(&line));
    e.send("undo");
    pos = fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    e.send("exit");
    e.sync();
    std::thread::sleep(Duration::from_millis(100));
    // After exit: in force mode; the position is the one after the undo.
    e.send("usermove f1c4");
    pos.make(pos.parse_uci("f1c4").unwrap());
    e.send("analyze");
    e.expect(|l| {
        is_thinking(l)
            && l.split('\t')
                .nth(1)
                .and_then(|pv| pv.split_whitespace().next())
                .is_some_and(|m| parse_any_move(&pos, m).is_ok())
    });
    e.send("exit");
    let rest = e.sync();
    assert!(rest.iter().all(|l| !l.starts_with("move")), "{rest:?}");
    assert!(e.transcript.iter().all(|l| !l.starts_with("move")));
    e.quit();
}

#[test]
fn move_now_and_undo_during_a_search() {
    let mut e = Engine::start();
    e.send("new");
    e.send("force");
    let mut pos = Position::startpos();
    e.user_move(&mut pos, "d2d4");
    e.send("st 1000");
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send("?");
    e.expect_move(&mut pos);
    assert!(asked.elapsed() < Duration::from_secs(10));
    // White to move; start a long search for White, then take a move back mid-search.
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    e.send("undo");
    let lines = e.sync();
    assert!(lines.iter().all(|l| !l.starts_with("move")), "{lines:?}");
    std::thread::sleep(Duration::from_millis(300));
    assert!(e.sync().iter().all(|l| !l.starts_with("move")));
    // The undo took back Black's reply: Black is on move again after 1.d4.
    let mut pos = Position::startpos();
    pos.make(pos.parse_uci("d2d4").unwrap());
    e.send("st 0.2");
    e.send("go");
    e.expect_move(&mut pos);
    // remove: two moves back, the engine keeps its side (Black) and waits.
    e.send("remove");
    assert!(e.sync().is_empty());
    let mut pos = Position::startpos();
    e.user_move(&mut pos, "c2c4");
    e.expect_move(&mut pos);
    e.quit();
}

#[test]
fn playother_white_black_and_result() {
    let mut e = Engine::start();
    e.send("new");
    e.send("force");
    e.send("st 0.1");
    let mut pos = Position::startpos();
    e.user_move(&mut pos, "e2e4");
    e.send("playother");
    assert!(e.sync().is_empty(), "waits for Black's move");
    e.user_move(&mut pos, "e7e5");
    e.expect_move(&mut pos);
    e.send("result 1/2-1/2 {Draw agreed}");
    let mv = pos.legal_moves()[0].to_uci(false).to_string();
    e.user_move(&mut pos, &mv);
    // After result the engine is in force mode: no reply.
    assert!(e.sync().iter().all(|l| !l.starts_with("move")));
    // Obsolete commands are tolerated silently.
    e.send("white");
    e.send("black");
    e.send("random");
    e.send("computer");
    assert!(e.sync().is_empty());
    e.quit();
}

#[test]
fn bad_input_gets_errors_and_changes_nothing() {
    let mut e = Engine::start();
    e.send("new");
    e.send("force");
    e.send("e2e5");
    e.expect(|l| l == "Illegal move: e2e5");
    e.send("usermove Nf6");
    e.expect(|l| l.starts_with("Illegal move") && l.ends_with("Nf6"));
    e.send("xyzzy");
    e.expect(|l| l == "Error (unknown command): xyzzy");
    e.send("level 40");
    e.expect(|l| l.starts_with("Error (") && l.ends_with("level 40"));
    e.send("sd deep");
    e.expect(|l| l.starts_with("Error (") && l.contains("sd deep"));
    e.send("option Bogus=3");
    e.expect(|l| l.starts_with("Error (unknown option)"));
    e.send("option Move Overhead=-5");
    e.expect(|l| l.starts_with("Error (") && l.contains("Move Overhead"));
    e.send("variant crazyhouse");
    e.expect(|l| l == "Error (unsupported variant): crazyhouse");
    e.send("undo");
    e.expect(|l| l.starts_with("Error (") && l.ends_with("undo"));
    // SAN and coordinates are both accepted from the user.
    e.send("usermove Nf3");
    e.send("usermove e7e5");
    assert!(e.sync().is_empty());
    // Illegal FEN: an error to show the user; moves illegal until a new position.
    e.send("setboard 8/8/8/8/8/8/8/8 w - - 0 1");
    e.expect(|l| l.starts_with("tellusererror Illegal position"));
    e.send("setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 zz");
    e.expect(|l| l.starts_with("tellusererror Illegal position"));
    e.send("usermove e2e4");
    e.expect(|l| l.starts_with("Illegal move") && l.ends_with("e2e4"));
    e.send("go");
    e.expect(|l| l.starts_with("Error (") && l.ends_with("go"));
    let mut pos = fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
    e.send(&format!("setboard {}", pos.fen()));
    e.send("st 0.1");
    e.send("go");
    e.expect_move(&mut pos);
    e.quit();
}

#[test]
fn clock_is_never_overstepped_at_level_0_1_0() {
    let mut e = Engine::start();
    e.send("new");
    e.send("level 0 1 0");
    e.send("post");
    let mut pos = Position::startpos();
    // Late in a one-minute game: 3 seconds left. The test keeps the engine's clock.
    let mut left_ms: i64 = 3_000;
    for _ in 0..12 {
        let Some(&reply) = pos.legal_moves().first() else {
            break;
        };
        e.send(&format!("time {}", left_ms / 10));
        e.send("otim 3000");
        let started = Instant::now();
        let text = reply.to_uci(false).to_string();
        e.user_move(&mut pos, &text);
        e.expect_move(&mut pos);
        left_ms -= started.elapsed().as_millis() as i64;
        assert!(left_ms > 0, "flag fell: {}", e.transcript.join("\n"));
        if pos.outcome(&sable_chess::KeyHistory::new()).is_some() {
            break;
        }
    }
    e.quit();
}

#[test]
fn repeating_control_and_fixed_depth() {
    let mut e = Engine::start();
    e.send("new");
    e.send("level 40 0:30 0");
    e.send("time 3000");
    e.send("otim 3000");
    e.send("sd 3");
    e.send("post");
    let mut pos = Position::startpos();
    e.user_move(&mut pos, "g1f3");
    e.expect_move(&mut pos);
    let deepest = e
        .transcript
        .iter()
        .filter(|l| is_thinking(l))
        .map(|l| l.split_whitespace().next().unwrap().parse::<u32>().unwrap())
        .max()
        .unwrap();
    assert_eq!(deepest, 3);
    // nps: a node budget instead of wall-clock time still moves.
    e.send("nps 20000");
    e.send("st 1");
    e.send("sd 30");
    e.user_move(&mut pos, "d2d4");
    e.expect_move(&mut pos);
    let nodes: u64 = e
        .transcript
        .iter()
        .rev()
        .find(|l| is_thinking(l))
        .map(|l| l.split_whitespace().nth(3).unwrap().parse().unwrap())
        .unwrap();
    assert!(nodes <= 20_000 + 5_000, "node budget overstepped: {nodes}");
    e.quit();
}

#[test]
fn claims_mates_and_draws_with_reasons() {
    let mut e = Engine::start();
    // Engine (White) mates in one and claims it, with a mate score in xboard form.
    e.send("new");
    e.send("force");
    let mut pos = fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send(&format!("setboard {}", pos.fen()));
    e.send("post");
    e.send("sd 4");
    e.send("go");
    assert_eq!(e.expect_move(&mut pos), "d1d8");
    e.expect(|l| l == "1-0 {White mates}");
    assert!(e
        .transcript
        .iter()
        .any(|l| is_thinking(l) && l.split_whitespace().nth(1) == Some("100001")));
    // The user mates the engine.
    e.send("new");
    let mut pos = fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send(&format!("setboard {}", pos.fen()));
    e.user_move(&mut pos, "d1d8");
    e.expect(|l| l == "1-0 {White mates}");
    // Stalemate by the user.
    e.send("new");
    let mut pos = fen("7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    e.send(&format!("setboard {}", pos.fen()));
    e.user_move(&mut pos, "g6f7");
    e.expect(|l| l == "1/2-1/2 {Stalemate}");
    // Threefold repetition, then go.
    e.send("new");
    e.send("force");
    let mut pos = Position::startpos();
    for m in [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ] {
        e.user_move(&mut pos, m);
    }
    e.send("go");
    e.expect(|l| l == "1/2-1/2 {Draw by repetition}");
    assert!(e.sync().iter().all(|l| !l.starts_with("move")));
    e.quit();
}

#[test]
fn resigns_and_answers_draw_offers_by_the_score() {
    let mut e = Engine::start();
    e.send("new");
    e.send("option ResignScore=0");
    e.send("sd 6");
    // Black (the engine) has a bare king against a queen: hopeless.
    let mut pos = fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    e.send(&format!("setboard {}", pos.fen()));
    e.user_move(&mut pos, "d1d2");
    e.expect_move(&mut pos);
    e.send("draw");
    e.expect(|l| l == "offer draw");
    // With resigning on after one bad move, the next reply is a resignation.
    e.send("option Resign Score=500");
    e.send("option ResignMoves=1");
    let king = pos.king(sable_chess::Color::White);
    let m = pos
        .legal_moves()
        .iter()
        .find(|m| m.from() == king)
        .unwrap()
        .to_uci(false)
        .to_string();
    e.user_move(&mut pos, &m);
    e.expect(|l| l == "resign");
    // An even position: a draw offer is declined (nothing is sent).
    e.send("new");
    e.send("st 0.2");
    let mut pos = Position::startpos();
    e.user_move(&mut pos, "e2e4");
    e.expect_move(&mut pos);
    e.send("draw");
    assert!(e.sync().iter().all(|l| l != "offer draw"));
    e.quit();
    // Without any time control from the GUI a fresh engine still moves (40 moves in 5
    // minutes is assumed; the clock says 5 seconds are left).
    let mut e = Engine::start();
    e.send("new");
    e.send("time 500");
    let mut pos = Position::startpos();
    e.user_move(&mut pos, "d2d4");
    e.expect_move(&mut pos);
    e.quit();
}

#[test]
fn pondering_hint_and_book() {
    let mut e = Engine::start();
    e.send("new");
    e.send("hard");
    e.send("st 0.2");
    let mut pos = Position::startpos();
    e.user_move(&mut pos, "e2e4");
    e.expect_move(&mut pos);
    let hint = e.expect(|l| l.starts_with("Hint: "));
    let guess = hint.strip_prefix("Hint: ").unwrap().to_string();
    assert!(parse_any_move(&pos, &guess).is_ok(), "{hint}");
    // Ponder hit: the guessed move; the engine answers.
    e.user_move(&mut pos, &guess);
    e.expect_move(&mut pos);
    let hint = e.expect(|l| l.starts_with("Hint: "));
    let guess = hint.strip_prefix("Hint: ").unwrap().to_string();
    // Ponder miss: any other move.
    let other = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(false).to_string())
        .find(|m| *m != guess)
        .unwrap();
    e.user_move(&mut pos, &other);
    e.expect_move(&mut pos);
    e.send("easy");
    e.sync();
    e.send("hint");
    let hint = e.expect(|l| l.starts_with("Hint: "));
    assert!(parse_any_move(&pos, hint.strip_prefix("Hint: ").unwrap()).is_ok());
    e.send("bk");
    let line = e.expect(|_| true);
    assert!(line.starts_with(' '), "{line:?}");
    e.expect(|l| l.is_empty());
    e.send("memory 8");
    e.send("cores 1");
    e.send("option Clear Hash");
    e.send("option Move Overhead=30");
    assert!(e.sync().is_empty());
    e.quit();
}

#[test]
fn chess960_castling_in_both_directions() {
    let mut e = Engine::start();
    e.send("new");
    e.send("variant fischerandom");
    e.send("force");
    let fen960 = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
    let mut pos =
        sable_chess::Position::from_fen(fen960, sable_chess::CastlingMode::Chess960).unwrap();
    e.send(&format!("setboard {fen960}"));
    // O-O from the user, then the engine must write castling as O-O/O-O-O if it castles.
    e.send("usermove O-O");
    let m = parse_any_move(&pos, "O-O").unwrap();
    pos.make(m);
    assert!(e.sync().is_empty());
    e.send("st 0.1");
    e.send("go");
    e.expect_move(&mut pos);
    e.quit();
}

#[test]
fn egtpath_syzygy_loads_the_tables_and_the_engine_plays_by_them() {
    let mut e = Engine::start();
    let features = e.transcript.join(" ");
    assert!(features.contains("egt=\"syzygy\""), "{features}");
    assert!(features.contains("option=\"SyzygyPath -path"), "{features}");
    let tables = sable_testdata::folder("syzygy/tables");
    e.send(&format!("egtpath syzygy {}", tables.display()));
    let said = e.sync();
    assert!(
        said.iter().any(|l| l.contains("35 WDL and 35 DTZ tables")),
        "{said:?}"
    );
    e.send("egtpath syzygy /no/such/folder");
    let said = e.sync();
    assert!(
        said.iter()
            .any(|l| l.starts_with("Error") && l.contains("/no/such/folder")),
        "{said:?}"
    );
    // Gaviota paths and other kinds are not ours: ignored quietly.
    e.send("egtpath gaviota /somewhere");
    assert!(e.sync().is_empty());
    e.send("new");
    e.send("force");
    e.send("setboard 8/8/8/8/4k3/8/6r1/K2Q4 w - - 0 1");
    let mut pos = fen("8/8/8/8/4k3/8/6r1/K2Q4 w - - 0 1");
    e.send("sd 6");
    e.send("go");
    let played = e.expect_move(&mut pos);
    assert_eq!(played, "d1h1", "Qh1 is the only move with DTZ 51");
    e.quit();
}
