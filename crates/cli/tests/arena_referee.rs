//! The referee against a scripted fake engine (`sable-fake-engine`): illegal moves,
//! time losses and the margin, crashes with and without `-recover`, stalls,
//! adjudication, the SPRT stopping a match, and Ctrl-C saving the PGN and summary.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

const SABLE: &str = env!("CARGO_BIN_EXE_sable");
mod support;

fn fake() -> &'static str {
    support::fake_engine()
}

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
    pgn: String,
}

fn pgn_path(tag: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("sable-arena-{}-{tag}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// `sable match` with two fake engines A and B (extra fake flags each) and more options.
fn run(tag: &str, a_flags: &str, b_flags: &str, options: &str) -> Run {
    let pgn = pgn_path(tag);
    let mut args: Vec<String> = Vec::new();
    for (name, flags) in [("A", a_flags), ("B", b_flags)] {
        args.push("-engine".into());
        args.push(format!("cmd={}", fake()));
        args.push(format!("name={name}"));
        for f in flags.split_whitespace() {
            args.push(format!("arg={f}"));
        }
    }
    args.extend(options.split_whitespace().map(str::to_string));
    args.extend([
        "-noprogress".into(),
        "-pgnout".into(),
        pgn.display().to_string(),
    ]);
    let out = Command::new(SABLE)
        .arg("match")
        .args(&args)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let _ = std::fs::remove_file(&pgn);
    Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        pgn: text,
    }
}

fn tags<'a>(pgn: &'a str, name: &str) -> Vec<&'a str> {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .filter_map(|l| l.strip_prefix(prefix.as_str()))
        .map(|l| l.trim_end_matches("\"]"))
        .collect()
}

#[test]
fn an_illegal_move_loses_and_is_counted() {
    let r = run("illegal", "", "--illegal-at 2", "-each depth=1 -games 1");
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(tags(&r.pgn, "Result"), ["1-0"]);
    assert_eq!(tags(&r.pgn, "Termination"), ["illegal move"]);
    assert!(
        r.pgn.contains("{Black makes an illegal move: a1a1} 1-0"),
        "{}",
        r.pgn
    );
    // Two moves each were asked: White's two and Black's first are in the game.
    assert_eq!(tags(&r.pgn, "PlyCount"), ["3"]);
    assert!(r.stdout.contains("  B: 0 / 1 / 0 / 0"), "{}", r.stdout);
    assert!(r.stdout.contains("  A: 0 / 0 / 0 / 0"), "{}", r.stdout);
}

#[test]
fn the_flag_falls_but_the_margin_is_honoured() {
    // 400 ms a move on a one-second clock: Black loses on time at its third move.
    let r = run("flag", "", "--delay-ms 400", "-each tc=1 -games 1");
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(tags(&r.pgn, "Termination"), ["time forfeit"]);
    assert_eq!(tags(&r.pgn, "Result"), ["1-0"]);
    assert!(r.pgn.contains("{Black loses on time} 1-0"));
    assert!(
        r.pgn.contains("[%clk 0:00:00."),
        "clock comments: {}",
        r.pgn
    );
    assert!(r.stdout.contains("  B: 1 / 0 / 0 / 0"), "{}", r.stdout);
    // 150 ms a move with st=0.1 is over the time, but within a 2 s margin.
    let r = run(
        "margin",
        "",
        "--delay-ms 150",
        "-each st=0.1 timemargin=2000 -games 1 -maxmoves 3",
    );
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(tags(&r.pgn, "Termination"), ["adjudication"]);
    assert_eq!(tags(&r.pgn, "Result"), ["1/2-1/2"]);
    assert!(r.stdout.contains("  B: 0 / 0 / 0 / 0"), "{}", r.stdout);
}

#[test]
fn a_crash_loses_and_recover_restarts_the_engine() {
    let r = run(
        "crash",
        "",
        "--crash-at 2",
        "-each depth=1 -games 2 -recover",
    );
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(tags(&r.pgn, "Termination"), ["abandoned", "abandoned"]);
    // B is Black in game 1 and White in game 2; it loses both.
    assert_eq!(tags(&r.pgn, "Result"), ["1-0", "0-1"]);
    assert!(r.pgn.contains("{Black disconnects} 1-0"));
    assert!(r.pgn.contains("{White disconnects} 0-1"));
    assert!(r.stdout.contains("  B: 0 / 0 / 2 / 0"), "{}", r.stdout);
    // Without -recover the match stops after the crash, with the game saved.
    let r = run("crash-stop", "", "--crash-at 2", "-each depth=1 -games 2");
    assert!(!r.ok);
    assert!(
        r.stderr.contains("engine 'B' crashed or stalled"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("-recover"), "{}", r.stderr);
    assert_eq!(tags(&r.pgn, "Termination"), ["abandoned"]);
}

#[test]
fn a_silent_engine_is_a_stall() {
    let r = run(
        "stall",
        "",
        "--stall-at 2",
        "-each depth=1 stall=1 -games 1",
    );
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(tags(&r.pgn, "Termination"), ["stalled connection"]);
    assert!(r.pgn.contains("{Black's connection stalls} 1-0"));
    assert!(r.stdout.contains("  B: 0 / 0 / 0 / 1"), "{}", r.stdout);
    // An engine that never becomes ready is reported, not waited on forever.
    let r = run(
        "noready",
        "",
        "--no-readyok",
        "-each depth=1 stall=1 -games 1",
    );
    assert!(!r.ok);
    assert!(
        r.stderr.contains("engine 'B'") && r.stderr.contains("readyok"),
        "{}",
        r.stderr
    );
}

#[test]
fn adjudication_by_score() {
    let r = run(
        "draw",
        "--score 3",
        "--score -4",
        "-each depth=1 -games 1 -draw movenumber=3 movecount=2 score=10",
    );
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(tags(&r.pgn, "Termination"), ["adjudication"]);
    assert_eq!(tags(&r.pgn, "Result"), ["1/2-1/2"]);
    assert!(r.pgn.contains("{+0.03/1 "), "scores in comments: {}", r.pgn);
    let r = run(
        "resign",
        "--score 900",
        "--score -900",
        "-each depth=1 -games 2 -resign movecount=3 score=800",
    );
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(
        tags(&r.pgn, "Termination"),
        ["adjudication", "adjudication"]
    );
    // B resigns as Black in game 1 after its third move, and as White in game 2.
    assert_eq!(tags(&r.pgn, "Result"), ["1-0", "0-1"]);
    assert_eq!(tags(&r.pgn, "PlyCount"), ["6", "5"]);
    assert!(r.pgn.contains("{Black resigns (adjudication)} 1-0"));
    // Adjudication is not a fault.
    assert!(r.stdout.contains("  B: 0 / 0 / 0 / 0"), "{}", r.stdout);
}

#[test]
fn sprt_stops_the_match_when_a_bound_is_crossed() {
    let r = run(
        "sprt",
        "--random 5",
        "--illegal-at 1",
        "-each depth=1 -games 2 -repeat -rounds 500 -sprt elo0=0 elo1=20 -recover",
    );
    assert!(r.ok, "{}", r.stderr);
    assert!(r.stdout.contains("H1 was accepted"), "{}", r.stdout);
    let games = tags(&r.pgn, "Result").len();
    assert!(
        games < 100 && games.is_multiple_of(2),
        "{games} games: {}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains(&format!("Ptnml(0-2): [0, 0, 0, 0, {}]", games / 2)),
        "{}",
        r.stdout
    );
}

#[test]
fn strict_mode_fails_on_faults() {
    let r = run(
        "strict",
        "",
        "--illegal-at 1",
        "-each depth=1 -games 1 -strict",
    );
    assert!(!r.ok);
    assert!(r.stderr.contains("lost by engine faults"), "{}", r.stderr);
}

#[test]
fn bad_options_are_reported() {
    let r = run("bad", "", "", "-each depth=1 -games x");
    assert!(!r.ok);
    assert!(
        r.stderr.contains("-games: 'x' is not a valid number"),
        "{}",
        r.stderr
    );
    let r = run(
        "nofile",
        "",
        "",
        "-each depth=1 -openings file=/nonexistent.epd",
    );
    assert!(!r.ok);
    assert!(r.stderr.contains("/nonexistent.epd"), "{}", r.stderr);
}

#[test]
fn ctrl_c_saves_the_games_and_prints_the_summary() {
    let pgn = pgn_path("ctrlc");
    let mut child = Command::new(SABLE)
        .args([
            "match",
            "-engine",
            &format!("cmd={}", fake()),
            "name=A",
            "arg=--delay-ms",
            "arg=5",
        ])
        .args([
            "-engine",
            &format!("cmd={}", fake()),
            "name=B",
            "arg=--random",
            "arg=3",
        ])
        .args([
            "-each",
            "depth=1",
            "-maxmoves",
            "10",
            "-rounds",
            "1000",
            "-noprogress",
        ])
        .args(["-pgnout", &pgn.display().to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut finished = 0;
    let mut line = String::new();
    while finished < 3 {
        line.clear();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "match ended early"
        );
        if line.starts_with("Finished game") {
            finished += 1;
        }
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut reader, &mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    let text = std::fs::read_to_string(&pgn).unwrap();
    let _ = std::fs::remove_file(&pgn);
    let saved = tags(&text, "Result").len();
    let reported = finished + rest.matches("Finished game").count();
    assert_eq!(saved, reported, "{rest}");
    assert!(saved < 1000);
    assert!(
        rest.contains(&format!("Interrupted after {saved} games.")),
        "{rest}"
    );
    assert!(rest.contains("Results of A vs B:"), "{rest}");
    assert!(rest.contains(&format!("Games: {saved},")), "{rest}");
}

#[test]
fn gauntlet_plays_the_first_engine_against_each_other_and_ranks_them() {
    let out = Command::new(SABLE)
        .args(["match", "-engine", &format!("cmd={}", fake()), "name=Hero"])
        .args([
            "-engine",
            &format!("cmd={}", fake()),
            "name=R1",
            "arg=--random",
            "arg=1",
        ])
        .args([
            "-engine",
            &format!("cmd={}", fake()),
            "name=Bad",
            "arg=--illegal-at",
            "arg=3",
        ])
        .args([
            "-tournament",
            "gauntlet",
            "-each",
            "depth=1",
            "-games",
            "2",
            "-rounds",
            "2",
        ])
        .args(["-maxmoves", "30", "-noprogress"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Results of Hero vs R1:"), "{stdout}");
    assert!(stdout.contains("Results of Hero vs Bad:"), "{stdout}");
    assert!(!stdout.contains("Results of R1 vs Bad:"), "{stdout}");
    assert_eq!(stdout.matches("Finished game").count(), 8, "{stdout}");
    let table: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("Rank"))
        .skip(1)
        .take(3)
        .collect();
    assert!(
        table[0].contains("Hero") && table[0].contains(" 8 "),
        "{stdout}"
    );
    assert!(
        table[2].contains("Bad") && table[2].contains("0.0%"),
        "{stdout}"
    );
    assert!(stdout.contains("  Bad: 0 / 4 / 0 / 0"), "{stdout}");
}
