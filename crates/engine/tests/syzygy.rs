//! Syzygy probing against independent answers: python-chess's published vectors
//! (`syzygy/endgame.epd`), python-chess's own prober on thousands of random positions
//! (ignored without python-chess), and the engine's use of the tables at the root and in
//! the tree; bad folders and damaged files are refused or survived.

use sable_chess::{CastlingMode, Position};
use sable_engine::tablebase::{Tablebases, Wdl};
use sable_engine::{Engine, EngineError, SearchEvent, SearchLimits, SearchResult};
use std::path::PathBuf;
use std::process::Command;
use std::sync::mpsc;

fn tables_dir() -> String {
    sable_testdata::folder("syzygy/tables")
        .display()
        .to_string()
}

fn tables() -> Tablebases {
    let (tb, notes) = Tablebases::open(&tables_dir()).expect("the test tables open");
    assert!(notes.is_empty(), "{notes:?}");
    tb
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sable-syzygy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `(fen, wdl, dtz)` of every line of endgame.epd.
fn vectors() -> Vec<(String, i32, i32)> {
    sable_testdata::syzygy_vectors()
        .into_iter()
        .map(|v| (v.fen, v.wdl, v.dtz))
        .collect()
}

#[test]
fn the_published_vectors_give_their_wdl_and_dtz() {
    let tb = tables();
    assert_eq!(tb.files(), (35, 35));
    assert_eq!(tb.max_pieces(), 4);
    let vectors = vectors();
    assert_eq!(vectors.len(), 200);
    for (fen, wdl, dtz) in vectors {
        let p = pos(&fen);
        assert_eq!(
            tb.probe_wdl_after_zeroing(&p).map(Wdl::value),
            Some(wdl),
            "WDL of {fen}"
        );
        assert_eq!(
            tb.probe_wdl(&p).map(Wdl::value),
            Some(wdl),
            "WDL50 of {fen}"
        );
        assert_eq!(tb.probe_dtz(&p), Some(dtz), "DTZ of {fen}");
    }
}

#[test]
fn root_moves_keep_the_result_and_win_fastest() {
    let tb = tables();
    for (fen, wdl, dtz) in vectors() {
        let p = pos(&fen);
        let moves: Vec<_> = p.legal_moves().iter().copied().collect();
        if moves.is_empty() {
            continue;
        }
        let results = tb.move_results(&p, &moves, true).expect("in the tables");
        let ranked = tb.rank_root(&p, &moves, true).expect("in the tables");
        assert_eq!(ranked.wdl.value(), wdl, "{fen}");
        assert!(!ranked.moves.is_empty());
        for m in &ranked.moves {
            let r = results.iter().find(|r| r.mv == *m).unwrap();
            assert_eq!(r.wdl.value(), wdl, "{fen}: kept {m:?} changes the result");
        }
        if wdl == 2 {
            // Every move kept zeroes (or mates) as fast as any move can, and that is the
            // table's own distance (Syzygy's DTZ may be one ply short of it).
            let fastest = results
                .iter()
                .filter(|r| r.wdl == Wdl::Win)
                .map(|r| if r.mate { 1 } else { r.dtz.unwrap() })
                .min()
                .unwrap();
            assert!(
                fastest == dtz || fastest == dtz + 1,
                "{fen}: fastest {fastest}, table {dtz}"
            );
            for m in &ranked.moves {
                let r = results.iter().find(|r| r.mv == *m).unwrap();
                assert!(
                    r.mate || r.dtz == Some(fastest),
                    "{fen}: {m:?} has {:?}, fastest {fastest}",
                    r.dtz
                );
            }
        }
        if wdl == 0 {
            // Every drawing move is kept: the search chooses among them.
            let draws = results.iter().filter(|r| r.wdl == Wdl::Draw).count();
            assert_eq!(ranked.moves.len(), draws, "{fen}");
        }
    }
}

#[test]
fn the_fifty_move_rule_curses_a_slow_win() {
    let tb = tables();
    // KQ against KR: wins, but takes more than a few plies to convert.
    let fresh = pos("8/8/8/8/4k3/8/6r1/K2Q4 w - - 0 1");
    let late = pos("8/8/8/8/4k3/8/6r1/K2Q4 w - - 95 80");
    let moves: Vec<_> = fresh.legal_moves().iter().copied().collect();
    let ranked = tb.rank_root(&fresh, &moves, true).unwrap();
    assert_eq!(ranked.wdl, Wdl::Win);
    let d = ranked.dtz.unwrap();
    assert!(d > 5, "dtz {d}");
    let ranked = tb.rank_root(&late, &moves, true).unwrap();
    assert_eq!(ranked.wdl, Wdl::CursedWin, "dtz {d} with 95 halfmoves gone");
    // Without the rule a win is a win.
    let ranked = tb.rank_root(&late, &moves, false).unwrap();
    assert_eq!(ranked.wdl, Wdl::Win);
}

#[test]
fn bad_folders_and_files_are_named_and_left_out() {
    // A folder that does not exist.
    let err = Tablebases::open("/no/such/folder").unwrap_err().to_string();
    assert!(err.contains("/no/such/folder"), "{err}");
    // An empty path.
    assert!(Tablebases::open("  ").is_err());
    // A folder of damaged files beside good ones: the bad ones are named, the good work.
    let dir = temp_dir("bad");
    let src = sable_testdata::folder("syzygy/tables");
    for t in ["KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw"] {
        std::fs::copy(src.join(t), dir.join(t)).unwrap();
    }
    std::fs::write(dir.join("KBvK.rtbw"), b"not a table at all").unwrap();
    std::fs::write(dir.join("KNvK.rtbw"), b"\x71").unwrap();
    std::fs::create_dir_all(dir.join("KPvK.rtbz")).unwrap();
    let spec = format!("{}:/no/such/folder", dir.display());
    let (tb, notes) = Tablebases::open(&spec).expect("the good tables open");
    let all = notes.join("\n");
    for named in ["KBvK.rtbw", "KNvK.rtbw", "KPvK.rtbz", "/no/such/folder"] {
        assert!(all.contains(named), "{named} not named in:\n{all}");
    }
    assert_eq!(tb.files(), (2, 1));
    assert_eq!(
        tb.probe_wdl_after_zeroing(&pos("8/8/8/8/4k3/8/8/K2Q4 w - - 0 1")),
        Some(Wdl::Win)
    );
    // KRvK has no DTZ table here: WDL answers, DTZ does not, nothing fails.
    let krk = pos("8/8/8/8/4k3/8/8/K2R4 w - - 0 1");
    assert_eq!(tb.probe_wdl_after_zeroing(&krk), Some(Wdl::Win));
    assert_eq!(tb.probe_dtz(&krk), None);
    assert_eq!(tb.failures().0, 0);
}

#[test]
fn a_table_damaged_inside_fails_its_probes_without_harm() {
    let dir = temp_dir("damaged");
    let src = sable_testdata::folder("syzygy/tables");
    for name in ["KRvKP.rtbw", "KRvKP.rtbz", "KQvKR.rtbw", "KQvKR.rtbz"] {
        let mut bytes = std::fs::read(src.join(name)).unwrap();
        if name.starts_with("KRvKP") {
            // Keep the magic, cut the rest short.
            bytes.truncate(bytes.len() / 3);
        } else {
            // Keep the magic, overwrite the body with a pattern.
            for (i, b) in bytes.iter_mut().enumerate().skip(4) {
                *b = (i as u8).wrapping_mul(151).wrapping_add(7);
            }
        }
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let (tb, _) = Tablebases::open(&dir.display().to_string()).expect("headers are fine");
    let positions = [
        "8/8/8/8/4k3/8/6r1/K2Q4 w - - 0 1",
        "8/8/8/8/4k3/8/6p1/K2R4 w - - 0 1",
        "8/8/3k4/8/8/8/6p1/K2R4 b - - 0 1",
        "3r4/8/8/8/3k4/8/8/K2Q4 b - - 0 1",
    ];
    for fen in positions {
        let p = pos(fen);
        // Any answer or none, but no panic and no hang.
        let _ = tb.probe_wdl_after_zeroing(&p);
        let _ = tb.probe_dtz(&p);
        let moves: Vec<_> = p.legal_moves().iter().copied().collect();
        let _ = tb.rank_root(&p, &moves, true);
    }
    let (failed, first) = tb.failures();
    assert!(failed > 0, "the damage went unnoticed");
    assert!(first.is_some());
    assert!(tb.new_failures().is_some());
    assert!(tb.new_failures().is_none(), "reported twice");

    // An engine on these tables still finishes its searches with a legal move.
    let mut engine = Engine::new();
    engine
        .set_syzygy_path(&dir.display().to_string())
        .expect("opens");
    for fen in positions {
        engine.set_position(Some(fen), &[]).unwrap();
        let r = search(&mut engine, SearchLimits::depth(6));
        let best = r.best.expect("a move");
        assert!(pos(fen).is_legal(best));
    }
}

fn search(engine: &mut Engine, limits: SearchLimits) -> SearchResult {
    search_events(engine, limits).1
}

fn search_events(engine: &mut Engine, limits: SearchLimits) -> (Vec<SearchEvent>, SearchResult) {
    let (tx, rx) = mpsc::channel();
    engine
        .go(limits, move |e| {
            let _ = tx.send(e);
        })
        .unwrap();
    let mut events = Vec::new();
    for e in rx {
        if let SearchEvent::Finished(r) = &e {
            let r = r.clone();
            engine.wait();
            return (events, r);
        }
        events.push(e);
    }
    panic!("no result");
}

#[test]
fn the_engine_plays_and_reports_by_the_tables() {
    let mut engine = Engine::new();
    let notes = engine.set_syzygy_path(&tables_dir()).expect("opens");
    assert!(notes.is_empty());
    let tb = tables();
    // Won: the move played keeps the win at the best distance; the score is a
    // tablebase win and probes are counted.
    for (fen, wdl, _) in vectors().into_iter().filter(|v| v.1 != 0).take(40) {
        engine.set_position(Some(&fen), &[]).unwrap();
        let (events, r) = search_events(&mut engine, SearchLimits::depth(8));
        let p = pos(&fen);
        let Some(best) = r.best else { continue };
        let moves: Vec<_> = p.legal_moves().iter().copied().collect();
        let ranked = tb.rank_root(&p, &moves, true).unwrap();
        assert!(
            ranked.moves.contains(&best),
            "{fen}: {best:?} not among {:?}",
            ranked.moves
        );
        let last_info = events
            .iter()
            .rev()
            .find_map(|e| match e {
                SearchEvent::Info(i) => Some(i.clone()),
                _ => None,
            })
            .expect("an info");
        assert!(last_info.tbhits > 0, "{fen}: no tbhits");
        assert_eq!(r.score_value.signum(), wdl.signum(), "{fen}: {:?}", r.score);
        assert!(
            sable_engine::score::is_decisive(r.score_value),
            "{fen}: {} is not a tablebase score",
            r.score_value
        );
    }
    // Drawn: the move kept draws.
    for (fen, _, _) in vectors().into_iter().filter(|v| v.1 == 0).take(20) {
        engine.set_position(Some(&fen), &[]).unwrap();
        let r = search(&mut engine, SearchLimits::depth(8));
        let p = pos(&fen);
        let Some(best) = r.best else { continue };
        let mut after = p.clone();
        after.make(best);
        let w = tb.probe_wdl_after_zeroing(&after).map(Wdl::flip);
        let w = if after.halfmoves() == 0 {
            w
        } else {
            tb.probe_wdl(&after).map(Wdl::flip)
        };
        assert_eq!(w, Some(Wdl::Draw), "{fen}: {best:?}");
        assert_eq!(r.score_value, 0, "{fen}");
    }
}

#[test]
fn probes_in_the_tree_find_a_win_beyond_the_root() {
    // Five pieces (not in the 3-4 piece tables at the root): White takes the rook and
    // the queen against king and pawn is in the tables.
    let fen = "8/8/8/3k4/8/1r2p3/8/KQ6 w - - 0 1";
    let mut engine = Engine::new();
    engine.set_syzygy_path(&tables_dir()).unwrap();
    engine.set_position(Some(fen), &[]).unwrap();
    let (events, r) = search_events(&mut engine, SearchLimits::depth(6));
    let hits = events
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Info(i) => Some(i.tbhits),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    assert!(hits > 0, "no probe in the tree");
    assert_eq!(
        r.best.map(|m| m.to_uci(false).to_string()).as_deref(),
        Some("b1b3")
    );
    assert!(
        sable_engine::score::is_decisive(r.score_value),
        "{}",
        r.score_value
    );

    // With SyzygyProbeLimit 0 nothing is probed.
    engine.set_syzygy_probe_limit(0).unwrap();
    let (events, _) = search_events(&mut engine, SearchLimits::depth(6));
    assert!(events
        .iter()
        .all(|e| !matches!(e, SearchEvent::Info(i) if i.tbhits > 0)));
}

#[test]
fn a_bad_path_keeps_the_tables_in_use() {
    let mut engine = Engine::new();
    engine.set_syzygy_path(&tables_dir()).unwrap();
    let err = engine.set_syzygy_path("/no/such/folder").unwrap_err();
    assert!(matches!(err, EngineError::Tablebase { .. }));
    let text = err.to_string();
    assert!(
        text.contains("/no/such/folder") && text.contains("stay"),
        "{text}"
    );
    assert!(engine.tablebases().is_some());
    assert!(engine.set_syzygy_probe_depth(0).is_err());
    assert!(engine.set_syzygy_probe_limit(8).is_err());
    engine.set_syzygy_path("<empty>").unwrap();
    assert!(engine.tablebases().is_none());
}

/// A SplitMix64 stream for the random positions.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Random legal positions of 3 and 4 pieces, both sides to move, en passant included
/// where a double step just happened.
fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut state = seed;
    let mut out = Vec::new();
    while out.len() < n {
        let mut board = ['.'; 64];
        let extra = 1 + (next(&mut state) % 2) as usize;
        let mut pieces = vec!['K', 'k'];
        for _ in 0..extra {
            let r = b"PNBRQ"[(next(&mut state) % 5) as usize] as char;
            pieces.push(if next(&mut state) & 1 == 0 {
                r
            } else {
                r.to_ascii_lowercase()
            });
        }
        for c in pieces {
            loop {
                let sq = (next(&mut state) % 64) as usize;
                if board[sq] == '.' {
                    board[sq] = c;
                    break;
                }
            }
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    '.' => empty += 1,
                    c => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let turn = if next(&mut state) & 1 == 0 { "w" } else { "b" };
        if let Ok(p) = Position::from_fen(&format!("{fen} {turn} - - 0 1"), CastlingMode::Standard)
        {
            out.push(p);
        }
    }
    out
}

#[test]
#[ignore = "needs python-chess"]
fn random_positions_agree_with_python_chess() {
    let tb = tables();
    let positions = random_positions(5000, 2026);
    let fens: Vec<String> = positions.iter().map(Position::fen).collect();
    let dir = temp_dir("py");
    let list = dir.join("fens.txt");
    std::fs::write(&list, fens.join("\n")).unwrap();
    let script = r#"
import sys, chess, chess.syzygy
with chess.syzygy.open_tablebase(sys.argv[1]) as tb:
    for fen in open(sys.argv[2]).read().split("\n"):
        b = chess.Board(fen)
        print(tb.probe_wdl(b), tb.probe_dtz(b))
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(tables_dir())
        .arg(&list)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "python-chess failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), positions.len());
    let mut decisive = 0;
    for ((p, fen), line) in positions.iter().zip(&fens).zip(answers) {
        let (w, d) = line.split_once(' ').unwrap();
        let (w, d): (i32, i32) = (w.parse().unwrap(), d.parse().unwrap());
        assert_eq!(
            tb.probe_wdl_after_zeroing(p).map(Wdl::value),
            Some(w),
            "WDL of {fen}"
        );
        assert_eq!(tb.probe_dtz(p), Some(d), "DTZ of {fen}");
        if w != 0 {
            decisive += 1;
        }
    }
    println!(
        "{} positions agree, {decisive} of them decisive",
        positions.len()
    );
    assert!(decisive > 1000, "the sample is too drawish: {decisive}");
}
