//! Polyglot book reading against the expected lookups in testdata/SOURCES.md (polyglot/).

// The rules crate's test helpers (data, a seeded generator, Chess960 starts).
#[path = "../../chess/tests/common/mod.rs"]
mod common;

use sable_chess::{CastlingMode, Position};
use sable_formats::PolyglotBook;

fn book(name: &str) -> PolyglotBook {
    PolyglotBook::open(sable_testdata::path(&format!("polyglot/{name}"))).unwrap()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, CastlingMode::Standard).unwrap()
}

#[test]
fn performance_book_start_position() {
    let b = book("performance.bin");
    assert_eq!(b.len(), 92_954);
    let start = Position::startpos();
    let entries = b.entries(&start);
    let got: Vec<(String, u16, u32)> = b
        .moves(&start)
        .iter()
        .zip(entries)
        .map(|((m, w), e)| (m.to_uci(false).to_string(), *w, e.learn))
        .collect();
    assert_eq!(
        got,
        [
            ("e2e4".to_string(), 1, 486_544_384),
            ("d2d4".to_string(), 1, 5_120),
            ("c2c4".to_string(), 1, 3_825_144_832)
        ]
    );
}

#[test]
fn following_the_heaviest_moves_ends_where_expected() {
    let b = book("performance.bin");
    let mut p = Position::startpos();
    while let Some(m) = b.best_move(&p) {
        p.make(m);
    }
    assert_eq!(
        p.fen(),
        "r2q1rk1/4bppp/p2p1n2/np5b/3BP1P1/5N1P/PPB2P2/RN1QR1K1 b - - 0 15"
    );
}

#[test]
fn castling_entries() {
    let b = book("performance.bin");
    let p = pos("r1bqr1k1/pp1nbppp/2p2n2/3p2B1/3P4/2NBP3/PPQ1NPPP/R3K2R w KQ - 5 10");
    let raw: Vec<(u16, u16)> = b
        .entries(&p)
        .iter()
        .map(|e| (e.raw_move, e.weight))
        .collect();
    assert_eq!(raw, [(263, 159), (256, 18), (983, 16)]);
    let moves = b.moves(&p);
    assert!(moves[0].0.is_castle() && moves[1].0.is_castle());
    assert_eq!(moves[0].0.to_uci(false).to_string(), "e1g1");
    assert_eq!(moves[1].0.to_uci(false).to_string(), "e1c1");
    assert_eq!(moves[2].0.to_uci(false).to_string(), "h2h3");

    let p = pos("r3k1nr/1pp1q1pp/p1pb1p2/4p3/3PP1b1/2P1BN2/PP1N1PPP/R2Q1RK1 b kq - 4 9");
    let moves = b.moves(&p);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].0.to_uci(false).to_string(), "e8c8");

    // e1a1 with the king elsewhere is a rook move, not castling.
    let p = pos("1r1qr1k1/1b2bp1n/p2p2pB/1pnPp2p/P1p1P3/R1P2NNP/1PBQ1PP1/4R1K1 w - - 0 1");
    let m = b.best_move(&p).unwrap();
    assert!(!m.is_castle());
    assert_eq!(m.to_uci(false).to_string(), "e1a1");
}

#[test]
fn underpromotion_entry() {
    let b = book("lasker-trap.bin");
    assert_eq!(b.len(), 7);
    let p = pos("rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7");
    assert_eq!(p.key(), 0x5028f645a2af84bc);
    let entries = b.entries(&p);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].raw_move, 0x1346);
    assert_eq!(b.best_move(&p).unwrap().to_uci(false).to_string(), "f2g1n");
}

#[test]
fn broken_books_are_refused() {
    assert!(PolyglotBook::from_bytes(&[0u8; 15]).is_err());
    let mut bytes = vec![0u8; 32];
    bytes[0] = 1; // the first key is larger than the second
    assert!(PolyglotBook::from_bytes(&bytes).is_err());
    assert!(PolyglotBook::open("/nonexistent/book.bin").is_err());
}

// ---- Writing, building, merging, learning ----------------------------------------------

use sable_formats::book::edit::{learn_game, merge, MergeRule};
use sable_formats::book::make::{make_book, GameFilter, MakeOptions, COUNT_MAX};
use sable_formats::book::{encode_move, write_book};
use sable_formats::pgn::GameResult;
use sable_formats::{BookEntry, BookError};
use std::path::PathBuf;

/// `make_book` of one file with every game.
fn build_all(
    pgn: &PathBuf,
    out: &std::path::Path,
    opts: &MakeOptions,
) -> sable_formats::book::make::MakeReport {
    make_book(
        std::slice::from_ref(pgn),
        out,
        opts,
        &GameFilter::default(),
        &mut |_| {},
    )
    .unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sable-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn entry(key: u64, uci: &str, weight: u16, learn: u32) -> BookEntry {
    let start = Position::startpos();
    let m = start.parse_uci(uci).unwrap();
    BookEntry {
        key,
        raw_move: encode_move(m),
        weight,
        learn,
    }
}

#[test]
fn bad_book_files_give_clear_errors() {
    let dir = temp("a-directory");
    std::fs::create_dir_all(&dir).unwrap();
    let err = PolyglotBook::open(&dir).unwrap_err();
    assert!(matches!(err, BookError::Directory { .. }), "{err}");
    assert!(err.to_string().contains("directory"));

    let empty = temp("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let err = PolyglotBook::open(&empty).unwrap_err();
    assert!(err.to_string().contains("empty"), "{err}");

    let odd = temp("odd.bin");
    std::fs::write(&odd, [1u8; 17]).unwrap();
    let err = PolyglotBook::open(&odd).unwrap_err();
    assert!(err.to_string().contains("17 bytes"), "{err}");

    let mut rng = common::Rng::new(7);
    let random: Vec<u8> = (0..1600).map(|_| rng.next_u64() as u8).collect();
    let rand_path = temp("random.bin");
    std::fs::write(&rand_path, &random).unwrap();
    let err = PolyglotBook::open(&rand_path).unwrap_err();
    assert!(
        matches!(err, BookError::Unsorted { .. } | BookError::BadMove { .. }),
        "{err}"
    );

    let unsorted = temp("unsorted.bin");
    let s = Position::startpos().key();
    write_book(
        &unsorted,
        [entry(s, "e2e4", 1, 0), entry(s - 1, "d2d4", 1, 0)],
    )
    .unwrap();
    let err = PolyglotBook::open(&unsorted).unwrap_err();
    assert!(err.to_string().contains("not sorted"), "{err}");

    let missing = PolyglotBook::open("/nonexistent/book.bin").unwrap_err();
    assert!(missing.to_string().contains("/nonexistent/book.bin"));
    assert!(PolyglotBook::from_bytes(&[0u8; 15]).is_err());
    // An all-zero entry is no move (a1a1).
    assert!(matches!(
        PolyglotBook::from_bytes(&[0u8; 16]),
        Err(BookError::BadMove { .. })
    ));
}

#[test]
fn real_books_pass_the_checks_and_write_back_identically() {
    for name in ["performance.bin", "lasker-trap.bin"] {
        let path = sable_testdata::path(&format!("polyglot/{name}"));
        let b = PolyglotBook::open(&path).unwrap();
        let copy = temp(name);
        b.save(&copy).unwrap();
        assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&path).unwrap());
    }
}

#[test]
fn merge_follows_polyglot_merge_book() {
    let k = Position::startpos().key();
    let a = PolyglotBook::from_entries(vec![
        entry(5, "e2e4", 1, 1),
        entry(k, "e2e4", 60000, 111),
        entry(k, "d2d4", 5, 222),
        entry(k, "g1f3", 7, 1),
    ])
    .unwrap();
    let b = PolyglotBook::from_entries(vec![
        entry(k, "e2e4", 10000, 333),
        entry(k, "c2c4", 7, 444),
        entry(k, "d2d4", 2, 5),
        entry(k + 1, "b2b3", 8, 9),
    ])
    .unwrap();
    let got = |rule| -> Vec<(u64, u16, u16, u32)> {
        merge(&a, &b, rule)
            .all_entries()
            .iter()
            .map(|e| (e.key, e.raw_move, e.weight, e.learn))
            .collect()
    };
    let mv = |u: &str| entry(0, u, 0, 0).raw_move;
    // Polyglot 2.0.4 gives 4464 for e4 (70000 wrapped); Sable saturates.
    assert_eq!(
        got(MergeRule::Sum),
        [
            (5, mv("e2e4"), 1, 1),
            (k, mv("e2e4"), 65535, 111),
            (k, mv("d2d4"), 7, 222),
            (k, mv("g1f3"), 7, 1),
            (k, mv("c2c4"), 7, 444),
            (k + 1, mv("b2b3"), 8, 9),
        ]
    );
    assert_eq!(got(MergeRule::Max)[1].2, 60000);
    assert_eq!(got(MergeRule::Max)[2].2, 5);
    let first = got(MergeRule::First);
    assert_eq!(first.len(), 5);
    assert!(!first.iter().any(|e| e.1 == mv("c2c4")));
}

fn pgn_games(games: &[(&str, &str)]) -> String {
    games
        .iter()
        .map(|(moves, result)| format!("[Result \"{result}\"]\n\n{moves} {result}\n\n"))
        .collect()
}

#[test]
fn learning_moves_weight_away_from_a_line_that_lost() {
    let start = Position::startpos();
    let after_e4 = {
        let mut p = start.clone();
        p.make(p.parse_uci("e2e4").unwrap());
        p
    };
    let mut book = PolyglotBook::from_entries({
        let mut v = vec![
            entry(start.key(), "e2e4", 100, 0),
            entry(start.key(), "d2d4", 80, 0),
        ];
        let e5 = after_e4.parse_uci("e7e5").unwrap();
        let mut e = BookEntry {
            key: after_e4.key(),
            raw_move: encode_move(e5),
            weight: 50,
            learn: 0,
        };
        if e.key < start.key() {
            v.insert(0, e);
        } else {
            e.learn = 0;
            v.push(e);
        }
        v
    })
    .unwrap();
    assert_eq!(
        book.best_move(&start).unwrap().to_uci(false).to_string(),
        "e2e4"
    );
    let line = |ucis: &[&str]| {
        let mut p = start.clone();
        ucis.iter()
            .map(|u| {
                let m = p.parse_uci(u).unwrap();
                p.make(m);
                m
            })
            .collect::<Vec<_>>()
    };
    // 1. e4 e5 2. Qh5 (out of book) loses three times for White.
    for _ in 0..3 {
        let learned = learn_game(
            &mut book,
            &start,
            &line(&["e2e4", "e7e5", "d1h5"]),
            GameResult::BlackWins,
        );
        assert_eq!(learned.entries, 2, "e4 and e5 were in the book");
    }
    let w = |b: &PolyglotBook, p: &Position, u: &str| {
        b.moves(p)
            .into_iter()
            .find(|(m, _)| m.to_uci(false).to_string() == u)
            .unwrap()
            .1
    };
    assert!(w(&book, &start, "e2e4") < 80, "e4 sank below d4");
    assert_eq!(
        book.best_move(&start).unwrap().to_uci(false).to_string(),
        "d2d4"
    );
    assert!(w(&book, &after_e4, "e7e5") > 50, "Black's e5 won and rose");
    let e4 = book.entries(&start)[0];
    assert_eq!(e4.learn >> 16, 3, "three games");
    assert_eq!(e4.learn & 0xffff, 0, "no points");
    // A game without a result teaches nothing; one leaving the book at once neither.
    let before = book.all_entries().to_vec();
    learn_game(&mut book, &start, &line(&["e2e4"]), GameResult::Unknown);
    learn_game(&mut book, &start, &line(&["c2c4"]), GameResult::WhiteWins);
    assert_eq!(book.all_entries(), &before[..]);
}

#[test]
fn build_counts_like_polyglot_and_spills_to_the_same_book() {
    let text = pgn_games(&[
        ("1. e4 e5 2. Nf3", "1-0"),
        ("1. e4 e5 2. Nf3", "1/2-1/2"),
        ("1. e4 c5", "0-1"),
        ("1. d4 d5", "*"),
        ("1. e4 e5 2. Nc3", "0-1"),
        ("1. d4 Nf6", "1-0"),
    ])
        + "[Result \"1-0\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 1-0\n\n";
    let pgn = temp("small.pgn");
    std::fs::write(&pgn, &text).unwrap();
    let out = temp("small.bin");
    let opts = MakeOptions {
        min_game: 1,
        ..MakeOptions::default()
    };
    let report = build_all(&pgn, &out, &opts);
    assert_eq!(report.games, 7);
    let book = PolyglotBook::open(&out).unwrap();
    let start = Position::startpos();
    // e4: 1-0 (2) + draw (1) + 0-1 (0) + 0-1 (0) = 3; d4: * counts as a draw (1) + 1-0 (2) = 3.
    let mv: Vec<(String, u16)> = book
        .moves(&start)
        .into_iter()
        .map(|(m, w)| (m.to_uci(false).to_string(), w))
        .collect();
    assert_eq!(
        mv,
        [("e2e4".to_string(), 3), ("d2d4".to_string(), 3)],
        "ties: first seen first"
    );
    let fen = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", CastlingMode::Standard).unwrap();
    let castle = book.legal_entries(&fen);
    assert_eq!(castle.len(), 1);
    assert_eq!(castle[0].1.raw_move, 263, "O-O as e1h1");
    // 2. Nc3 only lost: sum 0, left out like Polyglot does; 2. Nf3 scored 2 + 1.
    let mut p = start.clone();
    for u in ["e2e4", "e7e5"] {
        p.make(p.parse_uci(u).unwrap());
    }
    let moves: Vec<(String, u16)> = book
        .moves(&p)
        .into_iter()
        .map(|(m, w)| (m.to_uci(false).to_string(), w))
        .collect();
    assert_eq!(moves, [("g1f3".to_string(), 3)]);

    // Filters.
    let only_wins = GameFilter {
        results: Some(vec![GameResult::WhiteWins]),
        ..GameFilter::default()
    };
    let r = make_book(
        std::slice::from_ref(&pgn),
        &out,
        &opts,
        &only_wins,
        &mut |_| {},
    )
    .unwrap();
    assert_eq!((r.games, r.filtered), (3, 4));

    // A tiny memory budget spills runs and merges them to the same bytes.
    let full = std::fs::read(&out).unwrap();
    let spilled = temp("spilled.bin");
    let tiny = MakeOptions {
        memory_bytes: 200,
        ..opts.clone()
    };
    let r = make_book(&[pgn], &spilled, &tiny, &only_wins, &mut |_| {}).unwrap();
    assert!(r.runs > 1);
    assert_eq!(std::fs::read(&spilled).unwrap(), full);
}

#[test]
fn counts_are_halved_at_count_max_also_across_runs() {
    // 1. e4 by 16384 + 100 games: Polyglot halves the position's counts when e4's count
    // reaches 16384; d4's count is halved with it.
    let n = COUNT_MAX as usize + 100;
    let mut text = String::with_capacity(n * 30);
    let replies = [
        "a6", "a5", "b6", "b5", "c6", "c5", "d6", "d5", "e6", "e5", "f6", "f5",
    ];
    for i in 0..n {
        let res = if i % 2 == 0 { "1-0" } else { "0-1" };
        let reply = replies[i % replies.len()];
        text.push_str(&format!("[Result \"{res}\"]\n\n1. e4 {reply} {res}\n\n"));
        if i % 3 == 0 {
            text.push_str("[Result \"1-0\"]\n\n1. d4 1-0\n\n");
        }
    }
    let pgn = temp("halving.pgn");
    std::fs::write(&pgn, &text).unwrap();
    let opts = MakeOptions::default();
    let a = temp("halving-mem.bin");
    let ra = make_book(
        std::slice::from_ref(&pgn),
        &a,
        &opts,
        &GameFilter::default(),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(ra.runs, 0);
    let b = temp("halving-spill.bin");
    let spill = MakeOptions {
        memory_bytes: 64 * 8,
        ..opts
    };
    let rb = make_book(&[pgn], &b, &spill, &GameFilter::default(), &mut |_| {}).unwrap();
    assert!(rb.runs > 100 && rb.recounted == 1, "{rb:?}");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let book = PolyglotBook::open(&a).unwrap();
    let w: Vec<u16> = book
        .moves(&Position::startpos())
        .iter()
        .map(|x| x.1)
        .collect();
    // Without halving e4 would weigh 16484 and d4 2 * 5495 = 10990.
    assert!(w[0] < 16384 && w.len() == 2, "{w:?}");
}

#[test]
fn reading_on_several_threads_builds_the_same_book_and_report() {
    // The lichess games twice with an illegal move between: several chunks, and an
    // error that must name the same game and line as the one-thread read.
    let lichess = std::fs::read_to_string(sable_testdata::path(
        "pgn/lichess/lichess-user-export-3970-games.pgn",
    ))
    .unwrap();
    let pgn = temp("threads.pgn");
    let broken = "\n[Event \"broken\"]\n\n1. e4 Ke6 1-0\n\n";
    std::fs::write(&pgn, format!("{lichess}{broken}{lichess}")).unwrap();
    let build = |threads: usize, memory_bytes: usize| {
        let out = temp(&format!("threads-{threads}-{memory_bytes}.bin"));
        let opts = MakeOptions {
            threads,
            memory_bytes,
            ..MakeOptions::default()
        };
        let r = build_all(&pgn, &out, &opts);
        (std::fs::read(&out).unwrap(), r)
    };
    let (one, r1) = build(1, 512 << 20);
    assert_eq!((r1.games, r1.errors), (2 * 3970, 1), "{r1:?}");
    let line = lichess.lines().count() + 4;
    assert!(
        r1.error_samples[0].contains(&format!("game 3971, line {line}, column 7")),
        "{r1:?}"
    );
    for (threads, memory) in [(2, 512 << 20), (3, 512 << 20), (2, 1 << 20)] {
        let (many, r) = build(threads, memory);
        assert!(one == many, "{threads} threads, {memory} bytes");
        assert_eq!(
            (r.games, r.filtered, r.errors, &r.error_samples, r.entries),
            (
                r1.games,
                r1.filtered,
                r1.errors,
                &r1.error_samples,
                r1.entries
            )
        );
    }
}
