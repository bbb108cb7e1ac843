//! `sable ics`, the real binary with the engine, against the ICS stand-in server
//! (crates/ics/tests/support/standin.rs) on 127.0.0.1: whole games accepted and
//! challenged, guest and registered logins, a real clock with no move cap, hostile
//! server input and a cut connection, a silent server, bad flags and config files;
//! pondering against a stand-in that replies with a short search of its own (so that
//! the expected reply often comes), and games that end while the engine ponders. The
//! stand-in checks every move; the PGN file is re-read and compared with its record.

#[path = "../../ics/tests/support/standin.rs"]
mod standin;
mod support;

use sable_chess::{Move, Position, SanMode};
use sable_engine::{Engine, SearchLimits};
use sable_formats::pgn::{GameResult, PgnReader};
use standin::{End, Hostile, Offer, Reply, Report, Script, StandIn};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::run_with_input;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sable-cli-ics-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sable_ics(args: &[String], limit: Duration) -> support::Output {
    let mut all = vec!["ics".to_string()];
    all.extend(args.iter().cloned());
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let out = run_with_input(&refs, "", Some(limit));
    assert!(!out.timed_out, "sable ics hung:\n{}", out.text());
    assert!(!out.text().contains("panicked"), "{}", out.text());
    out
}

fn base_args(port: u16, dir: &Path) -> Vec<String> {
    [
        "--host",
        "127.0.0.1",
        "--port",
        &port.to_string(),
        "--handle",
        "Sable",
        "--pgn",
        dir.join("games.pgn").to_str().unwrap(),
        "--log",
        dir.join("ics.log").to_str().unwrap(),
        "--option",
        "Hash=16",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The PGN file's games replayed: UCI moves and result.
fn pgn_games(path: &Path) -> Vec<(Vec<String>, GameResult)> {
    let file = std::fs::File::open(path).expect("the PGN file exists");
    PgnReader::new(std::io::BufReader::new(file))
        .trees(SanMode::Strict)
        .map(|t| {
            let t = t.expect("each game replays");
            let moves = t
                .mainline()
                .iter()
                .map(|m| m.to_uci(false).to_string())
                .collect();
            (moves, t.result.unwrap_or(GameResult::Unknown))
        })
        .collect()
}

/// The client numbered its commands when the stand-in took block mode (the stand-in
/// keeps any that came without a number), and stayed in plain mode otherwise.
fn check_mode(report: &Report, dir: &Path, block: bool) {
    assert!(report.unnumbered.is_empty(), "{:?}", report.unnumbered);
    assert_eq!(!report.block_ids.is_empty(), block);
    let log = std::fs::read_to_string(dir.join("ics.log")).unwrap();
    let expect = if block {
        "block mode on"
    } else {
        "did not take it"
    };
    assert!(log.contains(expect), "{log}");
}

fn check(report: &Report, dir: &Path, games: usize) {
    assert!(
        report.illegal.is_empty(),
        "illegal moves: {:?}",
        report.illegal
    );
    assert_eq!(report.client_flagged, 0, "lost on time");
    let finished: Vec<_> = report.games.iter().filter(|g| g.result != "*").collect();
    assert_eq!(finished.len(), games);
    let pgn = pgn_games(&dir.join("games.pgn"));
    assert_eq!(pgn.len(), games, "games in the PGN file");
    for (seen, (moves, result)) in finished.iter().zip(&pgn) {
        assert_eq!(&seen.moves, moves, "game {}", seen.number);
        assert_eq!(seen.result, result.as_str());
    }
}

#[test]
fn the_engine_plays_whole_games_on_accepted_challenges() {
    for block in [false, true] {
        let dir = temp(&format!("accept-{block}"));
        let server = StandIn::start(Script {
            block,
            games: vec![End::Natural, End::Resign(20), End::Flag(14)],
            seed: 7,
            ..Script::default()
        });
        let mut args = base_args(server.port, &dir);
        args.extend(words(&["--accept", "--games", "3", "--max-move-ms", "40"]));
        let out = sable_ics(&args, Duration::from_secs(240));
        let report = server.report();
        check_mode(&report, &dir, block);
        assert!(out.ok(), "{}", out.text());
        check(&report, &dir, 3);
        // Against random moves the engine mates: an independent sign that the moves sent
        // are the search's.
        let first = &report.games[0];
        assert!(first.reason.contains("checkmated"), "{first:?}");
        let won = if first.client_white { "1-0" } else { "0-1" };
        assert_eq!(first.result, won);
        assert!(
            out.text().contains("ics: 3 games (+3 =0 -0)"),
            "{}",
            out.text()
        );
        let log = std::fs::read_to_string(dir.join("ics.log")).unwrap();
        assert!(log.contains("accepting StandIn's challenge"));
        assert!(log.contains("ratings seen"));
    }
}

#[test]
fn a_registered_handle_challenges_on_a_real_clock() {
    for block in [false, true] {
        let dir = temp(&format!("challenge-{block}"));
        let server = StandIn::start(Script {
            block,
            password: Some("pw-42".into()),
            offer: Offer::AwaitMatch,
            games: vec![End::Resign(50)],
            clock_ms: 8_000,
            increment_s: 0,
            ..Script::default()
        });
        std::fs::write(dir.join("pw"), "pw-42\n").unwrap();
        let mut args = base_args(server.port, &dir);
        args.extend(words(&[
            "--password-file",
            dir.join("pw").to_str().unwrap(),
            "--challenge",
            "StandIn",
            "--tc",
            "1+0",
            "--rated",
            "--games",
            "1",
        ]));
        let out = sable_ics(&args, Duration::from_secs(120));
        let report = server.report();
        check_mode(&report, &dir, block);
        assert!(out.ok(), "{}", out.text());
        check(&report, &dir, 1);
        assert!(report.lines.iter().any(|l| l == "match StandIn 1 0 rated"));
        let log = std::fs::read_to_string(dir.join("ics.log")).unwrap();
        assert!(!log.contains("pw-42") && !out.text().contains("pw-42"));
    }
}

#[test]
fn hostile_input_and_a_cut_connection() {
    for block in [false, true] {
        let dir = temp(&format!("hostile-{block}"));
        let server = StandIn::start(Script {
            block,
            games: vec![End::Resign(30), End::Resign(30)],
            hostile: vec![
                Hostile::Garbage(2),
                Hostile::MalformedBoard(3),
                Hostile::TruncatedBoard(5),
                Hostile::HugeLine(6),
                Hostile::Cut(9),
                Hostile::DropBoard(13),
            ],
            ..Script::default()
        });
        let mut args = base_args(server.port, &dir);
        args.extend(words(&["--accept", "--games", "2", "--max-move-ms", "30"]));
        let out = sable_ics(&args, Duration::from_secs(180));
        let report = server.report();
        check_mode(&report, &dir, block);
        assert!(out.ok(), "{}", out.text());
        assert!(report.illegal.is_empty(), "{:?}", report.illegal);
        assert_eq!(report.client_flagged, 0);
        assert_eq!(report.logins, 2, "reconnected once");
        assert_eq!(report.games.len(), 2);
        assert_eq!(pgn_games(&dir.join("games.pgn")).len(), 2, "no game lost");
        let log = std::fs::read_to_string(dir.join("ics.log")).unwrap();
        assert!(log.contains("reconnecting in"));
        assert!(log.contains("resumed"));
        assert!(log.contains("error: style 12"));
        assert!(log.contains("-byte line from the server, dropped"));
    }
}

#[test]
fn a_silent_server_ends_in_a_clean_error() {
    let dir = temp("silent");
    let server = StandIn::start(Script {
        silent: true,
        deadline: Duration::from_secs(10),
        ..Script::default()
    });
    std::fs::write(
        dir.join("ics.toml"),
        "[reconnect]\ntimeout_ms = 300\ninitial_delay_ms = 50\nmax_attempts = 2\n",
    )
    .unwrap();
    let mut args = base_args(server.port, &dir);
    args.extend(words(&["--config", dir.join("ics.toml").to_str().unwrap()]));
    let out = sable_ics(&args, Duration::from_secs(30));
    assert_eq!(out.code, Some(1), "{}", out.text());
    assert!(out.text().contains("gave up after 2"), "{}", out.text());
    drop(server);
}

#[test]
fn bad_flags_and_config_files_are_named() {
    let dir = temp("bad");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (words(&["--tc", "3+0"]), "--tc and --rated go with"),
        (words(&["--challenge", "Ann"]), "--challenge needs --tc"),
        (words(&["--challenge", "Ann", "--tc", "3"]), "MIN+INC"),
        (words(&["--handle", "not a handle"]), "handle"),
        (
            words(&["--config", dir.join("missing.toml").to_str().unwrap()]),
            "missing.toml",
        ),
        (words(&["--option", "Hash=999999999"]), "engine option Hash"),
        (words(&["--option", "NoSuch=1"]), "NoSuch"),
        (words(&["--ponder", "--no-ponder"]), "contradict"),
    ];
    for (args, expect) in cases {
        let out = sable_ics(&args, Duration::from_secs(20));
        assert_eq!(out.code, Some(1), "{args:?}: {}", out.text());
        assert!(out.text().contains(expect), "{args:?}: {}", out.text());
    }
    std::fs::write(
        dir.join("typo.toml"),
        "port = 5000\n[accept]\nenabeld = true\n",
    )
    .unwrap();
    let out = sable_ics(
        &words(&["--config", dir.join("typo.toml").to_str().unwrap()]),
        Duration::from_secs(20),
    );
    assert_eq!(out.code, Some(1));
    assert!(
        out.text().contains("enabeld") && out.text().contains("typo.toml"),
        "{}",
        out.text()
    );
    let out = sable_ics(
        &words(&[
            "--password-file",
            dir.join("nope").to_str().unwrap(),
            "--port",
            "1",
        ]),
        Duration::from_secs(20),
    );
    assert_eq!(out.code, Some(1));
    assert!(out.text().contains("nope"), "{}", out.text());
}

/// The stand-in's move: a depth-4 search of an engine of its own (one per stand-in
/// thread), a reasonable reply that Sable's principal variation often predicts.
fn searched_reply(pos: &Position) -> Move {
    thread_local! {
        static ENGINE: RefCell<Engine> = RefCell::new(Engine::new());
    }
    ENGINE.with(|e| {
        let mut e = e.borrow_mut();
        e.set_position(Some(&pos.fen()), &[])
            .expect("the stand-in's position");
        let r = e.search(SearchLimits::depth(4), |_| {}).expect("a search");
        r.best.expect("a move in a position the game goes on in")
    })
}

fn log_lines(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("ics.log"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// No search may outlive the position it was started for: the player says so when it
/// finds one still running, and the engine refuses a new game or position then.
fn assert_no_stray_search(log: &[String]) {
    for bad in [
        "still running",
        "error: new game",
        "error: pondering",
        "error: the ponder",
        "Busy",
        "busy",
    ] {
        assert!(
            !log.iter().any(|l| l.contains(bad)),
            "'{bad}' in the log:\n{}",
            log.join("\n")
        );
    }
}

#[test]
fn the_engine_ponders_and_takes_up_the_expected_reply() {
    for block in [false, true] {
        let dir = temp(&format!("ponder-{block}"));
        let server = StandIn::start(Script {
            block,
            // About a reply in four is the one expected: 35 replies make a game without a
            // hit a chance in 20,000.
            games: vec![End::Resign(70)],
            offer: Offer::AwaitMatch,
            reply: Reply::With(searched_reply),
            reply_delay_ms: 100,
            clock_ms: 15_000,
            increment_s: 0,
            ..Script::default()
        });
        let mut args = base_args(server.port, &dir);
        // A real clock (15 s for the game): after a hit the search's time runs from the hit.
        args.extend(words(&[
            "--challenge",
            "StandIn",
            "--tc",
            "1+0",
            "--games",
            "1",
            "--ponder",
        ]));
        let out = sable_ics(&args, Duration::from_secs(180));
        let report = server.report();
        check_mode(&report, &dir, block);
        assert!(out.ok(), "{}", out.text());
        check(&report, &dir, 1);
        let log = log_lines(&dir);
        assert_no_stray_search(&log);
        let count = |s: &str| log.iter().filter(|l| l.contains(s)).count();
        assert!(count("ponderhit ") >= 1, "{}", log.join("\n"));
        assert!(count("ponder: expecting ") >= count("ponderhit "));
        // Each hit names the move the stand-in then played.
        let played = &report.games[0].moves;
        for l in log.iter().filter(|l| l.contains("ponderhit ")) {
            let mv = l
                .split("ponderhit ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            assert!(played.iter().any(|m| m == mv), "{l}");
        }
        assert!(
            log.iter()
                .any(|l| l.contains(" sable ics: ") && l.ends_with(", pondering")),
            "the start line says so"
        );
    }
}

#[test]
fn games_that_end_while_the_engine_ponders_leave_no_search_running() {
    for block in [false, true] {
        let dir = temp(&format!("ponder-ends-{block}"));
        let server = StandIn::start(Script {
            block,
            // The stand-in thinks 400 ms on each turn: the client ponders when the first
            // game ends by resignation and when the connection is cut in the second (where
            // the stand-in is White, on move at even plies).
            games: vec![End::Resign(7), End::Resign(16)],
            hostile: vec![Hostile::CutOnTurn(10)],
            reply: Reply::With(searched_reply),
            reply_delay_ms: 400,
            ..Script::default()
        });
        let mut args = base_args(server.port, &dir);
        args.extend(words(&["--accept", "--games", "2", "--max-move-ms", "50"]));
        let out = sable_ics(&args, Duration::from_secs(180));
        let report = server.report();
        check_mode(&report, &dir, block);
        assert!(out.ok(), "{}", out.text());
        check(&report, &dir, 2);
        assert_eq!(report.logins, 2, "reconnected once");
        let log = log_lines(&dir);
        assert_no_stray_search(&log);
        let count = |s: &str| log.iter().filter(|l| l.contains(s)).count();
        assert_eq!(count("ponder stopped (game over)"), 2, "{}", log.join("\n"));
        assert_eq!(count("ponder stopped (the connection was lost)"), 1);
        // The games after each stop were played: moves of ours after the end of the first
        // game, and after the reconnection.
        let second = report.games[1].moves.len();
        assert!(second >= 16, "{second}");

        // With --no-ponder the engine never ponders.
        let dir = temp(&format!("no-ponder-{block}"));
        let server = StandIn::start(Script {
            block,
            games: vec![End::Resign(8)],
            ..Script::default()
        });
        let mut args = base_args(server.port, &dir);
        args.extend(words(&[
            "--accept",
            "--games",
            "1",
            "--max-move-ms",
            "30",
            "--no-ponder",
        ]));
        let out = sable_ics(&args, Duration::from_secs(60));
        let report = server.report();
        check_mode(&report, &dir, block);
        assert!(out.ok(), "{}", out.text());
        check(&report, &dir, 1);
        let log = log_lines(&dir);
        assert!(
            !log.iter().any(|l| l.contains("ponder")),
            "{}",
            log.join("\n")
        );
    }
}
