//! UCI sessions with the `sable` binary over pipes: what a GUI sends, what it must read
//! back, including bad input, infinite and ponder searches and `stop` while searching.

mod support;
use sable_chess::{CastlingMode, Position};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::session::Session;

impl Session {
    fn ready(&mut self) {
        self.send("isready");
        self.until_within(|l| l == "readyok", 10_000);
    }
    fn bestmove(&mut self, timeout_ms: u64) -> (Vec<String>, String) {
        let lines = self.until_within(|l| l.starts_with("bestmove"), timeout_ms);
        let last = lines.last().unwrap().clone();
        (lines, last)
    }
    fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until_within(|l| l.starts_with("info string fen "), 5000);
        lines.last().unwrap()["info string fen ".len()..].to_string()
    }
}

fn best_of(line: &str) -> &str {
    line.split_whitespace().nth(1).unwrap()
}

#[test]
fn handshake_lists_every_option() {
    let mut s = Session::start(&[]);
    s.send("uci");
    let lines = s.until_within(|l| l == "uciok", 5000);
    assert!(lines[0].starts_with("id name Sable"));
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Move Overhead",
        "Clear Hash",
        "UCI_Chess960",
        "UCI_ShowWDL",
        "UseNNUE",
        "EvalFile",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(lines.iter().any(|l| l.starts_with(&prefix)), "{name}");
    }
    s.ready();
    // Resizing, clearing and more threads, then a search that fills the table.
    s.send("setoption name Hash value 64");
    s.send("setoption name Clear Hash");
    s.send("setoption name Threads value 3");
    s.send("setoption name Move Overhead value 50");
    s.send("setoption name Hash value 2");
    s.send("position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8");
    s.send("go depth 10");
    let (lines, _) = s.bestmove(30_000);
    assert!(
        lines.iter().all(|l| !l.starts_with("info string")),
        "{lines:?}"
    );
    let hashfull: Vec<u32> = lines
        .iter()
        .filter_map(|l| l.split(" hashfull ").nth(1))
        .map(|r| r.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(hashfull.iter().all(|&h| h <= 1000));
    assert!(*hashfull.last().unwrap() > 0, "{hashfull:?}");
}

#[test]
fn search_reports_and_plays_a_legal_move() {
    let mut s = Session::start(&[]);
    s.send("uci");
    s.until_within(|l| l == "uciok", 5000);
    s.send("setoption name UCI_ShowWDL value true");
    s.send("ucinewgame");
    s.send("position startpos moves e2e4 e7e5 g1f3");
    s.send("go depth 6");
    let (lines, best) = s.bestmove(20_000);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(infos.len() >= 6);
    let last = infos.last().unwrap();
    for field in [
        "info depth 6 ",
        " seldepth ",
        " multipv 1 ",
        " score ",
        " wdl ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(last.contains(field), "{field} missing in {last}");
    }
    let mut pos = Position::startpos();
    for m in ["e2e4", "e7e5", "g1f3"] {
        let m = pos.parse_uci(m).unwrap();
        pos.make(m);
    }
    let bm = best_of(&best);
    assert!(pos.parse_uci(bm).is_ok(), "{best}");
    // The PV starts with the best move and is legal throughout.
    let pv: Vec<&str> = last.split(" pv ").nth(1).unwrap().split(' ').collect();
    assert_eq!(pv[0], bm);
    let mut p = pos.clone();
    for m in pv {
        let m = p.parse_uci(m).unwrap();
        p.make(m);
    }
    if let Some(ponder) = best.split(" ponder ").nth(1) {
        let mut p = pos.clone();
        p.make(p.parse_uci(bm).unwrap());
        assert!(p.parse_uci(ponder).is_ok());
    }
}

#[test]
fn a_refused_eval_file_is_reported_and_the_previous_net_stays() {
    let dir = std::env::temp_dir().join(format!("sable-uci-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.nnue");
    let made = Command::new(env!("CARGO_BIN_EXE_sable"))
        .args(["nnue", "random", "--hidden", "32", "--out"])
        .arg(&good)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let bytes = std::fs::read(&good).unwrap();
    let mut flipped = bytes.clone();
    flipped[777] ^= 1;
    let bad = dir.join("bad.nnue");
    std::fs::write(&bad, flipped).unwrap();
    let short = dir.join("short.nnue");
    std::fs::write(&short, &bytes[..bytes.len() - 100]).unwrap();
    let missing = dir.join("missing.nnue");

    let mut s = Session::start(&[]);
    s.load_net(&good.display().to_string());
    for (file, reason) in [
        (&bad, "bad checksum"),
        (&short, "wrong size"),
        (&missing, "cannot read"),
    ] {
        s.send(&format!("setoption name EvalFile value {}", file.display()));
        let got = s.until_within(|l| l.starts_with("info string"), 5000);
        let line = got.last().unwrap();
        assert!(
            line.contains(reason) && line.contains("previous network stays"),
            "{line}"
        );
    }
    // The good net still searches.
    s.send("position startpos moves e2e4");
    s.send("go depth 5");
    let (_, best) = s.bestmove(20_000);
    let mut pos = Position::startpos();
    pos.make(pos.parse_uci("e2e4").unwrap());
    assert!(pos.parse_uci(best_of(&best)).is_ok(), "{best}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let mut s = Session::start(&[]);
    s.send("position startpos moves e2e4");
    let fen = s.fen();
    let bad = [
        "xyzzy",
        "position startpos moves e7e5 e7e5",
        "position fen 8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5 e1e3",
        "position sideways",
        "position fen",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999",
        "setoption name Threads value lots",
        "setoption name MultiPV value 999",
        "setoption name Move Overhead value -5",
        "setoption name UCI_Chess960 value maybe",
        "setoption name Nonsense value 1",
        "setoption Hash 16",
    ];
    for line in bad {
        s.send(line);
        let got = s.until_within(|l| l.starts_with("info string"), 5000);
        assert_eq!(got.len(), 1, "{line}: {got:?}");
    }
    // A `go` with a bad part says so, drops that part and still searches.
    for line in ["go depth x", "go sideways depth 2", "go mate 0 depth 2"] {
        s.send(line);
        let got = s.until_within(|l| l.starts_with("info string"), 5000);
        assert_eq!(got.len(), 1, "{line}: {got:?}");
        if line == "go depth x" {
            s.send("stop");
        }
        s.bestmove(10_000);
    }
    s.ready();
    assert_eq!(s.fen(), fen);
    s.send("go depth 4");
    let (_, best) = s.bestmove(20_000);
    let pos = Position::from_fen(&fen, CastlingMode::Standard).unwrap();
    assert!(pos.parse_uci(best_of(&best)).is_ok());
}

#[test]
fn infinite_search_waits_for_stop_and_answers_isready() {
    let mut s = Session::start(&[]);
    s.send("position startpos");
    // The depth limit ends the search quickly, but the result must wait for `stop`.
    s.send("go infinite depth 3");
    let early = s.for_ms(600);
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    s.send("isready");
    s.until_within(|l| l == "readyok", 2000);
    s.send("stop");
    let (lines, _) = s.bestmove(3000);
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    // Nothing more after bestmove.
    assert!(s.for_ms(200).is_empty());
}

#[test]
fn ponder_waits_for_ponderhit_then_keeps_the_clock() {
    let mut s = Session::start(&[]);
    s.send("setoption name Ponder value true");
    s.send("position startpos moves d2d4 d7d5");
    // The clock allows well under a second; pondering must ignore it.
    s.send("go ponder wtime 300 btime 300");
    let early = s.for_ms(1000);
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    s.send("ponderhit");
    let start = Instant::now();
    s.bestmove(5000);
    assert!(start.elapsed() < Duration::from_millis(3000));
    // And a ponder search ended by `stop` reports too.
    s.send("position startpos moves d2d4 d7d5 c2c4");
    s.send("go ponder wtime 300 btime 300");
    assert!(s.for_ms(500).iter().all(|l| !l.starts_with("bestmove")));
    s.send("stop");
    s.bestmove(3000);
}

#[test]
fn stop_reaches_all_threads_quickly() {
    let mut s = Session::start(&[]);
    s.send("setoption name Threads value 2");
    s.send("position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8");
    s.send("go infinite");
    s.for_ms(700);
    let start = Instant::now();
    s.send("stop");
    s.bestmove(5000);
    let latency = start.elapsed();
    eprintln!("stop latency with 2 threads: {latency:?}");
    assert!(latency < Duration::from_millis(1000), "{latency:?}");
    // The engine is immediately ready for the next search.
    s.send("go depth 3");
    s.bestmove(10_000);
}

#[test]
fn go_while_searching_is_refused_without_losing_the_search() {
    let mut s = Session::start(&[]);
    s.send("go infinite");
    s.for_ms(200);
    s.send("go depth 2");
    s.until_within(|l| l.starts_with("info string go refused"), 2000);
    s.send("position startpos moves e2e4");
    s.until_within(|l| l.starts_with("info string position"), 2000);
    s.send("stop");
    let (_, best) = s.bestmove(3000);
    assert!(Position::startpos().parse_uci(best_of(&best)).is_ok());
}

#[test]
fn movetime_is_honoured() {
    let mut s = Session::start(&[]);
    s.send("position startpos");
    s.ready();
    let start = Instant::now();
    s.send("go movetime 300");
    s.bestmove(5000);
    let t = start.elapsed();
    assert!(t < Duration::from_millis(1500), "{t:?}");
}

#[test]
fn clock_search_ends_on_its_own() {
    let mut s = Session::start(&[]);
    s.send("position startpos moves e2e4");
    s.ready();
    let start = Instant::now();
    s.send("go wtime 2000 btime 2000 winc 20 binc 20");
    s.bestmove(5000);
    // Black has two seconds: the move must come well before that.
    assert!(start.elapsed() < Duration::from_millis(1900));
}

#[test]
fn perft_and_castling_notation() {
    let mut s = Session::start(&[]);
    s.send("position startpos");
    s.send("go perft 3");
    let lines = s.until_within(|l| l.starts_with("Nodes searched"), 10_000);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 21);

    s.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    s.send("go perft 1");
    let lines = s.until_within(|l| l.starts_with("Nodes searched"), 5000);
    assert!(lines.iter().any(|l| l == "e1g1: 1"), "{lines:?}");
    s.send("setoption name UCI_Chess960 value true");
    s.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    s.send("go perft 1");
    let lines = s.until_within(|l| l.starts_with("Nodes searched"), 5000);
    assert!(lines.iter().any(|l| l == "e1h1: 1"), "{lines:?}");
    // Chess960 castling is entered king-takes-rook as well.
    s.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1");
    // In Chess960 mode the FEN names castling rooks by file (Shredder-FEN).
    assert_eq!(s.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b ha - 1 1");
}

#[test]
fn multipv_mate_and_searchmoves() {
    let mut s = Session::start(&[]);
    s.send("setoption name MultiPV value 3");
    s.send("position startpos");
    s.send("go depth 4");
    let (lines, _) = s.bestmove(10_000);
    for k in 1..=3 {
        let tag = "info depth 4 seldepth";
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(tag) && l.contains(&format!(" multipv {k} "))),
            "multipv {k}"
        );
    }
    s.send("setoption name MultiPV value 1");
    s.send("position fen 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    s.send("go mate 2");
    let (lines, best) = s.bestmove(20_000);
    assert_eq!(best_of(&best), "g3g6");
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last_info.contains(" score mate 2 "), "{last_info}");

    s.send("position startpos");
    s.send("go depth 5 searchmoves a2a3 h2h4");
    let (_, best) = s.bestmove(10_000);
    assert!(["a2a3", "h2h4"].contains(&best_of(&best)), "{best}");
}

#[test]
fn mated_and_stalemated_roots() {
    let mut s = Session::start(&[]);
    s.send("position fen R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1");
    s.send("go depth 3");
    let (lines, best) = s.bestmove(5000);
    assert_eq!(best, "bestmove 0000");
    assert!(lines.iter().any(|l| l.contains("score mate 0")));
    s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    s.send("go infinite");
    assert!(s.for_ms(300).iter().all(|l| !l.starts_with("bestmove")));
    s.send("stop");
    let (_, best) = s.bestmove(3000);
    assert_eq!(best, "bestmove 0000");
}

#[test]
fn end_of_input_ends_the_session() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sable"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "isready").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "readyok\n");
}

#[test]
fn garbage_never_breaks_the_session() {
    // Deterministic pseudo-random lines from protocol words, numbers and junk; the
    // engine must answer `isready` afterwards and still play a legal move.
    const WORDS: [&str; 30] = [
        "go",
        "position",
        "startpos",
        "fen",
        "moves",
        "setoption",
        "name",
        "value",
        "Hash",
        "Threads",
        "MultiPV",
        "e2e4",
        "e7e5",
        "g1f3",
        "e1g1",
        "a7a8q",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "infinite",
        "stop",
        "ponderhit",
        "-1",
        "0",
        "1",
        "3",
        "99999999999999999999",
        "8/8/8/8/8/8/8/K6k",
    ];
    let mut s = Session::start(&[]);
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    for _ in 0..300 {
        let len = 1 + next(6);
        let line: Vec<&str> = (0..len).map(|_| WORDS[next(WORDS.len())]).collect();
        let line = line.join(" ");
        s.send(&line);
        if line.starts_with("go") {
            s.send("stop");
        }
    }
    s.send("stop");
    s.ready();
    s.send("position startpos moves e2e4");
    s.send("go depth 3");
    let (_, best) = s.bestmove(10_000);
    let mut pos = Position::startpos();
    pos.make(pos.parse_uci("e2e4").unwrap());
    assert!(pos.parse_uci(best_of(&best)).is_ok(), "{best}");
}

/// The last `info ... pv` line before `bestmove` describes the move played, whatever
/// cut the search short: the clock (several `movetime`s, so that some end mid-iteration),
/// `stop` in infinite mode, MultiPV and two threads.
#[test]
fn last_pv_before_bestmove_is_the_move_played() {
    let mut s = Session::start(&[]);
    s.send("uci");
    s.until_within(|l| l == "uciok", 5000);
    let fens = [
        "startpos",
        "fen rnbqk1nr/p1ppppbp/1p4p1/1B6/3P4/4P3/PPP2PPP/RNBQK1NR w KQkq - 0 1",
        "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ];
    let check = |lines: &[String], best: &str| {
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth") && l.contains(" multipv 1 "))
            .unwrap_or_else(|| panic!("no pv line before {best}"));
        let pv_first = last
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert_eq!(pv_first, best_of(best), "{last} / {best}");
    };
    for (threads, multipv) in [(1, 1), (1, 3), (2, 1)] {
        s.send(&format!("setoption name Threads value {threads}"));
        s.send(&format!("setoption name MultiPV value {multipv}"));
        for fen in fens {
            for ms in [37, 90, 160] {
                s.send("ucinewgame");
                s.send(&format!("position {fen}"));
                s.send(&format!("go movetime {ms}"));
                let (lines, best) = s.bestmove(10_000);
                check(&lines, &best);
            }
            s.send(&format!("position {fen}"));
            s.send("go infinite");
            let mut lines = s.for_ms(120);
            s.send("stop");
            let (after, best) = s.bestmove(5_000);
            lines.extend(after);
            check(&lines, &best);
        }
    }
}

/// Absurd and malformed `go` parameters: clamped or ignored with an `info string`, and
/// every `go` still ends in a legal `bestmove` (stopped where it would think for ages).
#[test]
fn absurd_go_parameters_still_end_in_a_bestmove() {
    let mut s = Session::start(&[]);
    s.send("uci");
    s.until_within(|l| l == "uciok", 5000);
    let cases = [
        (
            "go wtime 99999999999999999999999 btime 5 winc -5 movestogo 0",
            true,
        ),
        ("go wtime -100 btime -100", false),
        (
            "go wtime 18446744073709551615 btime 1 winc 18446744073709551615 movestogo 4294967295",
            true,
        ),
        ("go movetime 18446744073709551615999", true),
        ("go depth 99999999999 nodes 3000", false),
        ("go nodes -5 depth 3", false),
        ("go wtime abc sideways depth 3", false),
        ("go mate 0 depth 2", false),
        // No limit left at all: it searches until `stop`, as a bare `go` does.
        ("go depth", true),
    ];
    for (go, needs_stop) in cases {
        s.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 4294967295 moves e1g1 e8d7");
        s.send(go);
        let (lines, best) = if needs_stop {
            let mut lines = s.for_ms(200);
            assert!(
                !lines.iter().any(|l| l.starts_with("bestmove")),
                "{go}: {lines:?}"
            );
            s.send("stop");
            let (after, best) = s.bestmove(10_000);
            lines.extend(after);
            (lines, best)
        } else {
            s.bestmove(10_000)
        };
        let pos = Position::from_fen(
            "4k3/8/8/8/8/8/8/4K2R w K - 0 4294967295",
            CastlingMode::Standard,
        )
        .unwrap();
        let mut pos = pos;
        for m in ["e1g1", "e8d7"] {
            let m = pos.parse_uci(m).unwrap();
            pos.make(m);
        }
        assert!(
            pos.parse_uci(best_of(&best)).is_ok(),
            "{go}: {best}\n{lines:?}"
        );
        if go.contains("abc") || go.contains("nodes -5") || go.contains("mate 0") {
            assert!(
                lines.iter().any(|l| l.starts_with("info string")),
                "{go}: {lines:?}"
            );
        }
        s.ready();
    }
}

/// `go perft` runs like a search: `isready` is answered at once while it counts, `stop`
/// ends it within moments with the partial count said to be partial, and a full count
/// afterwards is exact (8,902 at depth 3, as every perft table has it).
#[test]
fn go_perft_answers_isready_and_stop() {
    let mut s = Session::start(&[]);
    s.send("position startpos");
    s.send("go perft 9");
    let t = Instant::now();
    s.ready();
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "isready waited for perft"
    );
    s.send("go depth 1");
    s.until_within(|l| l.starts_with("info string"), 2000);
    let t = Instant::now();
    s.send("stop");
    let lines = s.until_within(|l| l.starts_with("Nodes searched"), 3000);
    assert!(
        t.elapsed() < Duration::from_secs(1),
        "stop took {:?}",
        t.elapsed()
    );
    assert!(
        lines.iter().any(|l| l.contains("perft stopped")),
        "{lines:?}"
    );
    s.send("go perft 3");
    let lines = s.until_within(|l| l.starts_with("Nodes searched"), 10_000);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 21);
}

/// A `Hash` beyond the memory the machine has is refused with an `info string` that says
/// what was kept, instead of a table filled until the kernel kills the engine; the engine
/// searches on with its old table.
#[test]
fn hash_beyond_memory_is_refused_and_the_old_table_kept() {
    let available_mb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            let line = t
                .lines()
                .find(|l| l.starts_with("MemAvailable:"))?
                .to_string();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map(|kb| kb / 1024);
    let mut s = Session::start(&[]);
    s.send("uci");
    s.until_within(|l| l == "uciok", 5000);
    s.send("setoption name Hash value 65536");
    s.ready();
    let refused = s.log.iter().any(|l| l.contains("stays at 16 MB"));
    match available_mb {
        // This machine cannot hold the table: it must be refused.
        Some(mb) if mb < 65536 => assert!(refused, "{:?}", s.log),
        // A machine that can hold it (or no /proc): allocating is right too.
        _ => {}
    }
    s.send("position startpos");
    s.send("go depth 3");
    s.bestmove(10_000);
}

#[test]
fn syzygy_tables_are_announced_used_and_refused_cleanly() {
    let tables = sable_testdata::folder("syzygy/tables");
    let mut s = Session::start(&[]);
    s.send("uci");
    let lines = s.until_within(|l| l == "uciok", 5000);
    for opt in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(lines.iter().any(|l| l == opt), "{opt} missing: {lines:?}");
    }
    s.send(&format!(
        "setoption name SyzygyPath value {}",
        tables.display()
    ));
    let got = s.until_within(|l| l.starts_with("info string"), 5000);
    assert!(
        got.last()
            .unwrap()
            .contains("35 WDL and 35 DTZ tables, up to 4 pieces"),
        "{got:?}"
    );
    // KQ against KR: the move played keeps the fastest win, the score is a tablebase win.
    let fen = "8/8/8/8/4k3/8/6r1/K2Q4 w - - 0 1";
    s.send(&format!("position fen {fen}"));
    s.send("go depth 8");
    let (lines, best) = s.bestmove(30_000);
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last_info.contains(" score cp 19"), "{last_info}");
    let tbhits: u64 = last_info
        .split(" tbhits ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("tbhits");
    assert!(tbhits > 0, "{last_info}");
    assert_eq!(best_of(&best), "d1h1", "Qh1 is the only move with DTZ 51");
    // A folder that is not there: named, and the tables in use stay.
    s.send("setoption name SyzygyPath value /no/such/folder");
    let got = s.until_within(|l| l.starts_with("info string"), 5000);
    let line = got.last().unwrap();
    assert!(
        line.contains("/no/such/folder") && line.contains("stay"),
        "{line}"
    );
    s.send("setoption name SyzygyProbeLimit value 99");
    let got = s.until_within(|l| l.starts_with("info string"), 5000);
    assert!(got.last().unwrap().contains("between 0 and 7"), "{got:?}");
    s.send("go depth 4");
    let (_, best) = s.bestmove(30_000);
    assert_eq!(best_of(&best), "d1h1");
}

#[test]
fn strength_options_are_listed_checked_and_played() {
    let mut s = Session::start(&[]);
    s.send("uci");
    let lines = s.until_within(|l| l == "uciok", 5000);
    for option in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1350 min 1350 max 2850",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name Skill Seed type spin default 0 min 0 max 2147483647",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}");
    }
    // Out of range or malformed: refused with a note.
    for (bad, name) in [
        ("setoption name UCI_Elo value 1000", "UCI_Elo"),
        ("setoption name UCI_Elo value 3000", "UCI_Elo"),
        ("setoption name Skill Level value 21", "Skill Level"),
        ("setoption name Skill Level value -1", "Skill Level"),
        ("setoption name Skill Level value weak", "Skill Level"),
        (
            "setoption name UCI_LimitStrength value maybe",
            "UCI_LimitStrength",
        ),
        ("setoption name Skill Seed value 2147483648", "Skill Seed"),
    ] {
        s.send(bad);
        s.send("isready");
        let got = s.until_within(|l| l == "readyok", 5000);
        assert!(
            got.iter()
                .any(|l| l.starts_with("info string") && l.contains(name)),
            "{bad}: {got:?}"
        );
    }
    // The same level, seed, position and node limit give the same move.
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8";
    let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
    s.send("setoption name Skill Level value 3");
    s.send("setoption name Skill Seed value 777");
    let mut moves = vec![];
    for _ in 0..2 {
        s.send("ucinewgame");
        s.send(&format!("position fen {fen}"));
        s.send("go nodes 20000");
        let (lines, best) = s.bestmove(30_000);
        assert!(
            !lines.iter().any(|l| l.starts_with("info string")),
            "{lines:?}"
        );
        assert!(pos.parse_uci(best_of(&best)).is_ok(), "{best}");
        moves.push(best_of(&best).to_string());
    }
    assert_eq!(moves[0], moves[1]);
    // On a clock, a low Elo answers legally and quickly.
    s.send("setoption name UCI_LimitStrength value true");
    s.send("setoption name UCI_Elo value 1500");
    s.send("position startpos moves e2e4");
    s.ready();
    let start = Instant::now();
    s.send("go wtime 3000 btime 3000");
    let (_, best) = s.bestmove(5000);
    assert!(start.elapsed() < Duration::from_millis(1500));
    let mut after = Position::startpos();
    after.make(after.parse_uci("e2e4").unwrap());
    assert!(after.parse_uci(best_of(&best)).is_ok(), "{best}");
}

/// `Threads` the system cannot start: under an address-space limit (`ulimit -v`, which
/// binds root too) only a few 64 MB search stacks fit. The search goes on with the threads
/// that started, says so in an `info string`, and ends in a `bestmove`; the next search
/// works the same, and `quit` ends the engine normally.
#[cfg(target_os = "linux")]
#[test]
fn threads_the_system_refuses_leave_a_smaller_search_that_still_answers() {
    let mut s = Session::start_with_address_space_limit(300_000);
    s.send("uci");
    s.until_within(|l| l == "uciok", 5000);
    s.send("setoption name Hash value 1");
    s.send("setoption name Threads value 8");
    s.ready();
    let pos = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        CastlingMode::Standard,
    )
    .unwrap();
    for depth in [6, 4] {
        s.send("position startpos moves e2e4");
        s.send(&format!("go depth {depth}"));
        let (_, best) = s.bestmove(20_000);
        pos.parse_uci(best_of(&best)).expect("a legal move");
    }
    let refused = s
        .log
        .iter()
        .filter(|l| l.starts_with("< info string only ") && l.contains("of 8 search threads"))
        .count();
    assert_eq!(refused, 2, "{:?}", s.log);
    let log = s.log.clone();
    let status = s.quit();
    assert!(status.is_some_and(|st| st.success()), "{status:?}: {log:?}");
}
