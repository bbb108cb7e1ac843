//! A UCI and an xboard session full of bad input, run under valgrind's memcheck: every
//! line is answered as usual (`readyok`, `bestmove`, `pong`, `move`) and valgrind finds
//! no invalid read or write, no use of uninitialised memory and no bad free. Leaks are
//! not counted: the process ends with its threads parked, as every engine does.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// Runs `sable` under memcheck with `script`: a line is sent, and when it is paired with
/// a pattern, the reply starting with that pattern is awaited (a generous deadline:
/// valgrind runs the engine some 50 times slower). Returns the transcript and
/// valgrind's report.
fn under_valgrind(protocol: &str, script: &[(&str, Option<&str>)]) -> (String, String) {
    let log = std::env::temp_dir().join(format!(
        "sable-valgrind-{protocol}-{}.log",
        std::process::id()
    ));
    let mut child = Command::new("valgrind")
        .args([
            "--tool=memcheck",
            "--error-exitcode=99",
            "--leak-check=no",
            "--track-origins=yes",
        ])
        .arg(format!("--log-file={}", log.display()))
        .arg(env!("CARGO_BIN_EXE_sable"))
        .arg(protocol)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("valgrind runs (apt-get install valgrind)");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut transcript = String::new();
    let wait_for = |rx: &Receiver<String>, transcript: &mut String, prefix: &str| {
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    transcript.push_str(&format!("< {line}\n"));
                    if line.starts_with(prefix) {
                        return;
                    }
                }
                Err(_) => panic!("no '{prefix}' came:\n{transcript}"),
            }
        }
    };
    for &(line, reply) in script {
        transcript.push_str(&format!("> {line}\n"));
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        if let Some(prefix) = reply {
            wait_for(&rx, &mut transcript, prefix);
        }
    }
    drop(stdin);
    let status = child.wait().unwrap();
    while let Ok(line) = rx.try_recv() {
        transcript.push_str(&format!("< {line}\n"));
    }
    let report = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    assert!(
        status.code() != Some(99),
        "valgrind found errors:\n{report}\n{transcript}"
    );
    (transcript, report)
}

fn assert_clean(report: &str, transcript: &str) {
    assert!(
        report.contains("ERROR SUMMARY: 0 errors"),
        "valgrind's report:\n{report}\ntranscript:\n{transcript}"
    );
}

#[test]
#[ignore = "needs valgrind"]
fn a_hostile_uci_session_is_clean_under_valgrind() {
    let missing = std::env::temp_dir().join("sable-no-such-file.nnue");
    let evalfile = format!("setoption name EvalFile value {}", missing.display());
    let script: Vec<(&str, Option<&str>)> = vec![
        ("uci", Some("uciok")),
        ("setoption name Hash value 99999999999999", None),
        ("setoption name Threads value -3", None),
        ("setoption name MultiPV value 2", None),
        (&evalfile, None),
        ("setoption name BookFile value /proc/self/mem", None),
        ("setoption name SyzygyPath value /dev/null", None),
        ("setoption name NoSuchOption value 1", None),
        ("isready", Some("readyok")),
        ("position fen this is not a fen", None),
        ("position startpos moves e2e4 e7e5 z9z9", None),
        ("go depth 3", Some("bestmove")),
        ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", None),
        ("go depth 2", Some("bestmove")),
        (
            "position fen 4k3/8/8/8/8/8/8/4K2R w K - 4294967295 4294967295",
            None,
        ),
        (
            "go wtime -100 btime 99999999999999999999999 winc -5",
            Some("bestmove"),
        ),
        ("position startpos", None),
        (
            "go nodes 18446744073709551615 movetime 200",
            Some("bestmove"),
        ),
        ("go perft 3", None),
        ("stop", None),
        ("isready", Some("readyok")),
        ("go infinite", None),
        ("stop", Some("bestmove")),
        ("ucinewgame", None),
        ("frobnicate the engine", None),
        ("isready", Some("readyok")),
        ("quit", None),
    ];
    let (transcript, report) = under_valgrind("uci", &script);
    assert_clean(&report, &transcript);
    assert!(
        transcript.contains("info string"),
        "errors are reported as info strings:\n{transcript}"
    );
}

#[test]
#[ignore = "needs valgrind"]
fn a_hostile_xboard_session_is_clean_under_valgrind() {
    let script: Vec<(&str, Option<&str>)> = vec![
        ("xboard", None),
        ("protover 2", Some("feature done=1")),
        ("level 99999999999 99999999999:999999999 1e300", None),
        ("level 40 1 0", None),
        ("time -5", None),
        ("otim 99999999999999999999999", None),
        ("st 0.2", None),
        ("sd 3", None),
        ("setboard not a fen", None),
        ("usermove z9z9", None),
        ("new", None),
        ("usermove e2e4", Some("move")),
        ("option EvalFile=/proc/self/mem", None),
        ("option NoSuch=3", None),
        ("undo", None),
        ("remove", None),
        ("ping 7", Some("pong 7")),
        ("quit", None),
    ];
    let (transcript, report) = under_valgrind("xboard", &script);
    assert_clean(&report, &transcript);
}
