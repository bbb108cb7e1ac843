//! Game-record data: `sable datagen` to a `.bin` file (append, resume, thread counts) and
//! `sable data` (stats, cat, to-text, validate), on good and bad files.

use sable_chess::{CastlingMode, Position};
use sable_formats::record::{GameRecord, RecordReader};

mod support;
use support::session::Session;
use support::{data, python, sable};

fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sable-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path.to_string_lossy().into_owned()
}

fn datagen(out: &str, games: &str, threads: &str, seed: &str, extra: &[&str]) -> String {
    let book = data("books/noob_3moves.epd");
    let mut args = vec![
        "datagen",
        out,
        "--games",
        games,
        "--nodes",
        "300",
        "--threads",
        threads,
        "--book",
        &book,
        "--seed",
        seed,
    ];
    args.extend_from_slice(extra);
    let (ok, text) = sable(&args);
    assert!(ok, "{text}");
    text
}

fn games(path: &str) -> Vec<GameRecord> {
    let bytes = std::fs::read(path).expect("file written");
    RecordReader::new(&bytes[..])
        .collect::<Result<_, _>>()
        .expect("good records")
}

/// Each game's bytes, sorted: the set of games, whatever order they were written in.
fn game_set(path: &str) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = games(path)
        .iter()
        .map(|g| {
            let mut b = Vec::new();
            g.encode(&mut b).unwrap();
            b
        })
        .collect();
    v.sort();
    v
}

fn no_panic(text: &str) {
    assert!(!text.contains("panicked"), "{text}");
}

/// The progress lines `datagen` prints when standard error is not a terminal (as here):
/// (games, positions) of each.
fn progress_lines(text: &str) -> Vec<(usize, usize)> {
    text.lines()
        .map(|l| l.split(' ').collect::<Vec<&str>>())
        .filter(|w| {
            w.len() == 6 && (w[1], w[3], w[5]) == ("games,", "positions,", "positions/hour")
        })
        .map(|w| (w[0].parse().unwrap(), w[2].parse().unwrap()))
        .collect()
}

#[test]
fn datagen_prints_a_progress_line_every_n_games_off_a_terminal() {
    let out = temp("progress.bin");
    let text = datagen(&out, "5", "2", "11", &["--report-every", "2"]);
    let lines = progress_lines(&text);
    let counts: Vec<usize> = lines.iter().map(|&(g, _)| g).collect();
    assert_eq!(counts, [2, 4], "{text}");
    // The positions so far: growing, and never more than the file holds at the end.
    let total: usize = games(&out).iter().map(|g| g.plies.len()).sum();
    assert!(
        0 < lines[0].1 && lines[0].1 < lines[1].1 && lines[1].1 < total,
        "{text}"
    );
    let quiet = datagen(&temp("quiet.bin"), "3", "1", "11", &["--report-every", "0"]);
    assert!(progress_lines(&quiet).is_empty(), "{quiet}");
}

#[test]
fn datagen_writes_whole_games_the_same_whatever_the_thread_count() {
    let one = temp("one.bin");
    let two = temp("two.bin");
    let text = datagen(&one, "4", "1", "3", &[]);
    assert!(text.contains("bytes per position"), "{text}");
    datagen(&two, "4", "2", "3", &[]);
    assert_eq!(game_set(&one), game_set(&two));
    let gs = games(&one);
    let mut numbers: Vec<u32> = gs.iter().map(|g| g.number).collect();
    numbers.sort();
    assert_eq!(numbers, [0, 1, 2, 3]);
    for g in &gs {
        assert!(g.plies.len() > 10);
        g.replay(|_, _, _| {}).expect("legal moves");
    }
    // About 4.5 bytes a position.
    let plies: usize = gs.iter().map(|g| g.plies.len()).sum();
    let bytes = std::fs::metadata(&one).unwrap().len() as f64;
    assert!(
        bytes / (plies as f64) < 5.0,
        "{bytes} bytes for {plies} plies"
    );
    // An existing file is not overwritten by accident.
    let (ok, text) = sable(&["datagen", &one, "--games", "1", "--nodes", "300"]);
    assert!(!ok && text.contains("--append"), "{text}");
}

#[test]
fn append_continues_the_numbering_and_plays_what_one_longer_run_would() {
    let whole = temp("whole.bin");
    datagen(&whole, "4", "2", "9", &[]);
    let parts = temp("parts.bin");
    datagen(&parts, "2", "1", "9", &[]);
    let text = datagen(&parts, "2", "2", "9", &["--append"]);
    assert!(text.contains("2 games already there"), "{text}");
    assert_eq!(game_set(&parts), game_set(&whole));
    // Another seed: new games, numbered on.
    let text = datagen(&parts, "2", "2", "10", &["--append"]);
    assert!(text.contains("4 games already there"), "{text}");
    let gs = games(&parts);
    let mut numbers: Vec<u32> = gs.iter().map(|g| g.number).collect();
    numbers.sort();
    assert_eq!(numbers, [0, 1, 2, 3, 4, 5]);
    let mut moves: Vec<_> = gs
        .iter()
        .map(|g| g.plies.iter().map(|p| p.mv.bits()).collect::<Vec<_>>())
        .collect();
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), 6, "a game was played twice");
    // Text output has no numbering to continue.
    let (ok, text) = sable(&["datagen", &temp("x.txt"), "--append"]);
    assert!(!ok && text.contains("binary"), "{text}");
}

#[test]
fn a_killed_run_loses_only_its_last_record_and_append_resumes() {
    let full = temp("full.bin");
    datagen(&full, "3", "1", "4", &[]);
    let bytes = std::fs::read(&full).unwrap();
    let gs = games(&full);
    let mut first = Vec::new();
    gs[0].encode(&mut first).unwrap();
    let cut = first.len() + 37; // inside the second record
    let broken = temp("broken.bin");
    std::fs::write(&broken, &bytes[..cut]).unwrap();
    let (ok, text) = sable(&["data", "stats", &broken]);
    assert!(ok, "{text}");
    assert!(text.contains(&format!("byte {}", first.len())), "{text}");
    assert!(
        text.contains("cut short") && text.contains(": 1 games,"),
        "{text}"
    );
    let (ok, text) = sable(&["data", "validate", &broken]);
    assert!(
        !ok && text.contains(&format!("byte {}", first.len())),
        "{text}"
    );
    // Appending drops the cut record and plays the missing numbers: the whole run again.
    let text = datagen(&broken, "2", "2", "4", &["--append"]);
    assert!(text.contains("cut short"), "{text}");
    assert_eq!(game_set(&broken), game_set(&full));
    let (ok, text) = sable(&["data", "validate", &broken]);
    assert!(ok, "{text}");
}

#[test]
fn a_corrupted_byte_is_refused_with_its_record_offset() {
    let good = temp("good.bin");
    datagen(&good, "2", "1", "5", &[]);
    let mut bytes = std::fs::read(&good).unwrap();
    let gs = games(&good);
    let mut first = Vec::new();
    gs[0].encode(&mut first).unwrap();
    bytes[first.len() + 60] ^= 0x10; // a move or score of the second game
    let bad = temp("bad.bin");
    std::fs::write(&bad, &bytes).unwrap();
    let offset = format!("byte {}", first.len());
    for tool in ["stats", "validate"] {
        let (ok, text) = sable(&["data", tool, &bad]);
        assert!(!ok, "{tool}: {text}");
        assert!(
            text.contains(&offset) && text.contains("corrupted"),
            "{tool}: {text}"
        );
        no_panic(&text);
    }
    let (ok, text) = sable(&[
        "datagen", &bad, "--games", "1", "--nodes", "300", "--append",
    ]);
    assert!(!ok && text.contains(&offset), "{text}");
    let (ok, text) = sable(&["data", "cat", &good, &bad, "-o", &temp("never.bin")]);
    assert!(!ok && text.contains(&offset), "{text}");
}

#[test]
fn stats_cat_and_validate_agree_on_a_generated_file() {
    let a = temp("a.bin");
    let b = temp("b.bin");
    datagen(&a, "2", "2", "6", &[]);
    datagen(&b, "3", "2", "7", &[]);
    let (ok, text) = sable(&["data", "validate", &a, &b]);
    assert!(ok && text.contains("all valid"), "{text}");
    let merged = temp("merged.bin");
    let (ok, text) = sable(&["data", "cat", &a, &b, "-o", &merged]);
    assert!(ok, "{text}");
    let mut expected = game_set(&a);
    expected.extend(game_set(&b));
    expected.sort();
    assert_eq!(game_set(&merged), expected);
    let (ok, text) = sable(&["data", "stats", &merged]);
    assert!(ok, "{text}");
    let plies: usize = games(&merged).iter().map(|g| g.plies.len()).sum();
    assert!(
        text.contains(&format!("{merged}: 5 games, {plies} positions")),
        "{text}"
    );
    for want in [
        "results for White",
        "plies per game",
        "-10..10",
        "bytes/position",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
    // The output may not be an input, nor an existing file.
    let (ok, text) = sable(&["data", "cat", &a, "-o", &a]);
    assert!(!ok && text.contains("output"), "{text}");
    let (ok, text) = sable(&["data", "cat", &a, "-o", &b]);
    assert!(!ok && text.contains("exists"), "{text}");
}

#[test]
fn to_text_writes_legal_positions_that_replay_into_each_other() {
    let file = temp("text.bin");
    datagen(&file, "3", "2", "8", &[]);
    let gs = games(&file);
    let plies: usize = gs.iter().map(|g| g.plies.len()).sum();
    let all = temp("all.txt");
    let (ok, text) = sable(&["data", "to-text", &file, "-o", &all, "--all"]);
    assert!(ok, "{text}");
    let text = std::fs::read_to_string(&all).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), plies);
    // Read back independently: every FEN legal, every next one a legal move away except
    // where a new game starts.
    let mut starts = 0;
    let mut prev: Option<Position> = None;
    for line in &lines {
        let parts: Vec<&str> = line.split(" | ").collect();
        assert_eq!(parts.len(), 3, "{line}");
        let pos = Position::from_fen(parts[0], CastlingMode::Standard).expect("legal FEN");
        let score: i32 = parts[1].parse().expect("an integer score");
        assert!(score.abs() <= 32_000, "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&parts[2]), "{line}");
        let follows = prev.as_ref().is_some_and(|p| {
            p.legal_moves().iter().any(|&m| {
                let mut q = p.clone();
                q.make(m);
                q.fen() == pos.fen()
            })
        });
        if !follows {
            starts += 1;
        }
        prev = Some(pos);
    }
    assert_eq!(starts, gs.len());
    // Filtered: fewer lines, none in check, each one of the unfiltered lines.
    let quiet_path = temp("quiet.txt");
    let (ok, out) = sable(&["data", "to-text", &file, "-o", &quiet_path]);
    assert!(ok, "{out}");
    let quiet = std::fs::read_to_string(&quiet_path).unwrap();
    let n = quiet.lines().count();
    assert!(n > 0 && n < plies, "{n} of {plies}");
    for line in quiet.lines() {
        let fen = line.split(" | ").next().unwrap();
        let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
        assert!(!pos.in_check(), "{line}");
        assert!(
            lines.iter().any(|l| l == &line),
            "{line} is not among --all"
        );
    }
    // The trainer reads the text (scores from White's side) into the very samples it
    // reads from the records (scores from the mover's side).
    use sable_train::data::{load, LoadStats};
    let (mut from_records, mut from_text) = (Vec::new(), Vec::new());
    load(
        std::path::Path::new(&file),
        &mut from_records,
        &mut LoadStats::default(),
    )
    .unwrap();
    load(
        std::path::Path::new(&quiet_path),
        &mut from_text,
        &mut LoadStats::default(),
    )
    .unwrap();
    assert_eq!(from_records.len(), n);
    assert!(from_records.iter().any(|s| s.score != 0));
    // Equal but for the game numbers: a text line is its own game.
    let unnumbered =
        |v: Vec<sable_train::data::Sample>| v.into_iter().map(|s| s.in_game(0)).collect::<Vec<_>>();
    assert!(from_text.windows(2).all(|w| w[1].game == w[0].game + 1));
    assert_eq!(unnumbered(from_records), unnumbered(from_text));
}

#[test]
fn bad_files_get_a_clear_error_never_a_panic() {
    let dir = std::env::temp_dir();
    let dir = dir.to_string_lossy();
    let empty = temp("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let random = temp("random.bin");
    let noise: Vec<u8> = (0..500u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&random, &noise).unwrap();
    let text_file = temp("lines.bin");
    std::fs::write(&text_file, "8/8/8/8/8/8/8/K1k5 w - - 0 1 | 0.5\n").unwrap();
    let missing = temp("missing.bin");
    let cases = [
        (dir.as_ref(), "directory"),
        (empty.as_str(), "empty"),
        (random.as_str(), "byte 0"),
        (text_file.as_str(), "not a game record"),
        (missing.as_str(), "No such file"),
    ];
    for (file, want) in cases {
        for tool in [
            &["stats"][..],
            &["validate"],
            &["to-text", "-o", &temp("o.txt")],
        ] {
            let mut args = vec!["data"];
            args.extend_from_slice(tool);
            args.push(file);
            let (ok, text) = sable(&args);
            assert!(!ok, "{args:?}: {text}");
            assert!(
                text.contains(file) && text.contains(want),
                "{args:?}: {text}"
            );
            no_panic(&text);
        }
    }
}

/// `--eval-file` plays with that network (a random one plays other games than the HCE
/// from the same seed), `--hce` plays like the build without a net, and a corrupt net is
/// refused before any game, with nothing written.
#[test]
fn datagen_plays_with_the_evaluation_it_is_given() {
    let net = temp("random.nnue");
    let (ok, text) = sable(&["nnue", "random", "--hidden", "32", "--out", &net]);
    assert!(ok, "{text}");
    let (with_net, with_hce) = (temp("net.bin"), temp("hce.bin"));
    datagen(&with_net, "2", "1", "12", &["--eval-file", &net]);
    datagen(&with_hce, "2", "1", "12", &["--hce"]);
    let moves = |path: &str| -> Vec<Vec<u16>> {
        games(path)
            .iter()
            .map(|g| g.plies.iter().map(|p| p.mv.bits()).collect())
            .collect()
    };
    assert_eq!(games(&with_hce).len(), 2);
    assert_ne!(moves(&with_net), moves(&with_hce));
    // The same net again plays the same games.
    let again = temp("net-again.bin");
    datagen(&again, "2", "1", "12", &["--eval-file", &net]);
    assert_eq!(moves(&again), moves(&with_net));

    let bad = temp("bad.nnue");
    std::fs::write(&bad, b"SBNN not a net").unwrap();
    let out = temp("never.bin");
    let (ok, text) = sable(&["datagen", &out, "--games", "1", "--eval-file", &bad]);
    assert!(!ok && text.contains("net file"), "{text}");
    no_panic(&text);
    assert!(!std::path::Path::new(&out).exists(), "{out} was written");
}

/// `sable eval --eval-file` with a net of output buckets: the bucket the position uses
/// (all 32 pieces: the last of 8) and a board of piece values, one per piece but the
/// kings.
#[test]
fn eval_shows_the_networks_bucket_and_piece_values() {
    let net = temp("buckets.nnue");
    let (ok, text) = sable(&[
        "nnue",
        "random",
        "--hidden",
        "32",
        "--output-buckets",
        "8",
        "--out",
        &net,
    ]);
    assert!(ok && text.contains("8 output bucket(s)"), "{text}");
    let (ok, text) = sable(&["eval", "--eval-file", &net]);
    assert!(ok, "{text}");
    assert!(text.contains("output bucket 8 of 8"), "{text}");
    let values = text
        .lines()
        .filter(|l| l.starts_with('|'))
        .flat_map(|l| l.split('|'))
        .filter(|cell| {
            let c = cell.trim();
            (c.starts_with('+') || c.starts_with('-')) && c[1..].parse::<f64>().is_ok()
        })
        .count();
    assert_eq!(values, 30, "{text}");
    let (ok, text) = sable(&["nnue", "random", "--output-buckets", "17", "--out", &net]);
    assert!(!ok && text.contains("--output-buckets 17"), "{text}");
    no_panic(&text);
}

/// `sable nnue rescale` writes the same net with another output scale: `sable eval`
/// reports the new scale and a score multiplied by it (within the two truncations, 2 cp),
/// and a scale out of range is refused by name with nothing written.
#[test]
fn nnue_rescale_multiplies_the_nets_scores() {
    let (net, half) = (temp("rescale-from.nnue"), temp("rescale-to.nnue"));
    let (ok, text) = sable(&[
        "nnue", "random", "--hidden", "32", "--seed", "1", "--out", &net,
    ]);
    assert!(ok, "{text}");
    let rescale = |scale: &str, out: &str| {
        sable(&[
            "nnue",
            "rescale",
            "--net",
            &net,
            "--output-scale",
            scale,
            "--out",
            out,
        ])
    };
    let (ok, text) = rescale("200", &half);
    assert!(ok && text.contains("400 -> 200"), "{text}");
    // A position where the random net says more than a few centipawns.
    let fen = "4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1";
    let score = |path: &str| -> (i32, String) {
        let (ok, text) = sable(&["eval", "--eval-file", path, "--fen", fen]);
        assert!(ok, "{text}");
        let cp = text
            .split("network ")
            .nth(1)
            .and_then(|t| t.split(" cp").next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no network score in {text}"));
        (cp, text)
    };
    let ((full, text), (halved, half_text)) = (score(&net), score(&half));
    assert!(text.contains("output scale 400 cp"), "{text}");
    assert!(half_text.contains("output scale 200 cp"), "{half_text}");
    assert!(
        full.abs() >= 10,
        "the random net gives {full} cp: pick another position"
    );
    assert!(
        (full as f64 / 2.0 - halved as f64).abs() < 2.0,
        "{full} and {halved}"
    );
    let never = temp("rescale-never.nnue");
    for bad in ["99", "1601", "-400", "x"] {
        let (ok, text) = rescale(bad, &never);
        assert!(!ok && text.contains("output-scale"), "{bad}: {text}");
        no_panic(&text);
    }
    assert!(
        !std::path::Path::new(&never).exists(),
        "{never} was written"
    );
}

/// Training settings out of range are refused by name, before any data is read (the input
/// here does not even exist) and without writing anything.
#[test]
fn train_refuses_absurd_settings_by_name() {
    let out = temp("train-refused");
    for (flag, value, why) in [
        ("--weight-decay", "2", "weight decay must be in [0, 1]"),
        ("--weight-decay", "NaN", "weight decay must be in [0, 1]"),
        ("--wdl", "1.5", "wdl must be in [0, 1]"),
        ("--wdl", "NaN", "wdl must be in [0, 1]"),
        ("--val", "1", "validation fraction must be in [0, 1)"),
        ("--batch", "0", "batch needs at least one position"),
        ("--threads", "0", "at least one thread"),
    ] {
        let (ok, text) = sable(&["train", "no-such-file.bin", flag, value, "--out-dir", &out]);
        assert!(!ok, "{flag} {value}: accepted\n{text}");
        assert!(text.contains(why), "{flag} {value}: {text}");
        assert!(
            !std::path::Path::new(&out).exists(),
            "{flag} {value}: wrote {out}"
        );
    }
    // `--bench` measures widths the engine cannot load, but nothing else goes unchecked.
    let (ok, text) = sable(&[
        "train",
        "no-such-file.bin",
        "--bench",
        "--hidden",
        "24",
        "--batch",
        "0",
    ]);
    assert!(
        !ok && text.contains("batch needs at least one position"),
        "{text}"
    );
}

/// `data from-pgn` on fastchess's games (what OpenBench's datagen workers upload): every
/// scored move becomes a ply with the comment's score, as python-chess reads the same
/// file; the records validate.
#[test]
#[ignore = "needs python-chess"]
fn from_pgn_keeps_every_scored_move_as_python_chess_reads_it() {
    let pgn = data("pgn/fastchess/sable-selfplay-3000-nodes.pgn");
    let out = temp("from-pgn.bin");
    let (ok, text) = sable(&["data", "from-pgn", &pgn, "-o", &out]);
    assert!(
        ok && text.contains("6 games") && text.contains("0 games skipped"),
        "{text}"
    );
    let (ok, text) = sable(&["data", "validate", &out]);
    assert!(ok, "{text}");
    let txt = temp("from-pgn.txt");
    let (ok, text) = sable(&["data", "to-text", "--all", &out, "-o", &txt]);
    assert!(ok, "{text}");
    let ours = std::fs::read_to_string(&txt).unwrap();

    // The oracle: the position before each scored move, the comment's score turned to
    // White's side (a mate in n plies as 32000 - n), the game's result.
    let script = r#"
import re, sys, chess.pgn
f = open(sys.argv[1])
while (g := chess.pgn.read_game(f)) is not None:
    label = {"1-0": "1.0", "1/2-1/2": "0.5", "0-1": "0.0"}[g.headers["Result"]]
    board = g.board()
    for node in g.mainline():
        m = re.match(r"([+-]?)(M?)(\d+(?:\.\d+)?)/\d+", node.comment)
        if m:
            sign = -1 if m.group(1) == "-" else 1
            cp = 32000 - int(m.group(3)) if m.group(2) else round(float(m.group(3)) * 100)
            white = sign * cp if board.turn == chess.WHITE else -sign * cp
            print(" ".join(board.fen().split()[:4]), white, label)
        board.push(node.move)
"#;
    let theirs = python(script, &[&pgn], "");
    // Ours: `FEN | score | result`; compared on the FEN's first four fields (python-chess
    // writes an en-passant square only when a capture there is legal).
    let ours: Vec<String> = ours
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(" | ").collect();
            let fen: Vec<&str> = f[0].split_whitespace().take(3).collect();
            format!("{} {} {}", fen.join(" "), f[1], f[2])
        })
        .collect();
    let theirs: Vec<String> = theirs
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            format!("{} {} {} {} {}", f[0], f[1], f[2], f[4], f[5])
        })
        .collect();
    assert!(ours.len() > 300, "{} plies", ours.len());
    assert_eq!(ours, theirs);
}

/// The cases a scored PGN can hold besides a clean engine game: an opening of unscored
/// moves, an unscored move in the middle, a mate, an unfinished game, a score that is
/// not one, a result the board contradicts. Each game is kept or skipped as the module
/// documents, the skipped ones named by number and reason.
#[test]
fn from_pgn_keeps_what_it_can_and_names_what_it_skips() {
    let pgn = temp("cases.pgn");
    std::fs::write(
        &pgn,
        "[Result \"0-1\"]\n\n1. f3 {book} e5 {book} 2. g4 {-3.10/9 0.1s} Qh4# {+M1/1 0.0s} 0-1\n\n\
         [Result \"1-0\"]\n\n1. e4 {+0.30/10} e5 {-0.25/10} 2. Nf3 {unknown} Nc6 {-0.20/9} 1-0\n\n\
         [Result \"*\"]\n\n1. d4 {+0.20/8} *\n\n\
         [Result \"1-0\"]\n\n1. c4 {+x.10/8} 1-0\n\n\
         [Result \"1-0\"]\n\n1. f3 {+0.1/1} e5 {+0.1/1} 2. g4 {+0.1/1} Qh4# {+0.1/1} 1-0\n\n\
         [Result \"1/2-1/2\"]\n\n1. Nf3 {+0.15/12} d5 {-0.10/11} 1/2-1/2\n",
    )
    .unwrap();
    let out = temp("cases.bin");
    let (ok, text) = sable(&["data", "from-pgn", &pgn, "-o", &out]);
    assert!(ok, "{text}");
    assert!(
        text.contains("3 games") && text.contains("3 games skipped"),
        "{text}"
    );
    for (game, why) in [(3, "no result"), (4, "\"+x.10\""), (5, "contradicts")] {
        assert!(
            text.contains(&format!("{pgn}: game {game}: ")) && text.contains(why),
            "game {game}: {text}"
        );
    }
    no_panic(&text);
    let g = games(&out);
    use sable_formats::record::{Score, Termination};
    // Game 1: the two book moves are the opening; the mate ends it by the rules.
    assert_eq!(g[0].plies.len(), 2);
    assert_eq!(
        g[0].start.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(g[0].plies[0].score, Score::cp(-310));
    assert_eq!(g[0].plies[1].score, Score::mate(1));
    assert_eq!(g[0].termination, Termination::Rules);
    // Game 2: cut at the unscored third move.
    assert_eq!(g[1].plies.len(), 2);
    assert_eq!(g[1].termination, Termination::Length);
    // Game 6: a draw the board does not force was agreed or adjudicated.
    assert_eq!(g[2].plies.len(), 2);
    assert_eq!(g[2].termination, Termination::DrawAdjudicated);

    // The output is never overwritten, and a directory is no PGN.
    let (ok, text) = sable(&["data", "from-pgn", &pgn, "-o", &out]);
    assert!(!ok && text.contains("not overwriting"), "{text}");
    let dir = std::env::temp_dir();
    let (ok, text) = sable(&[
        "data",
        "from-pgn",
        dir.to_str().unwrap(),
        "-o",
        &temp("d.bin"),
    ]);
    assert!(!ok && text.contains("directory"), "{text}");
}

/// `sable train` streams data larger than `--buffer` from the files and still writes a
/// net the engine loads; the same data under a larger buffer is loaded whole. Both say
/// which they did, and count the same positions.
#[test]
fn train_streams_data_past_its_buffer() {
    let games = temp("train-stream.bin");
    datagen(&games, "6", "1", "5", &[]);
    let positions = |text: &str| {
        text.lines()
            .find_map(|l| l.split_once(" positions from ").map(|(n, _)| n.to_string()))
            .unwrap_or_else(|| panic!("no count in {text}"))
    };
    let mut counts = Vec::new();
    for (buffer, streams) in [("60", true), ("1000000", false)] {
        let out = temp(&format!("train-stream-{buffer}"));
        let (ok, text) = sable(&[
            "train",
            &games,
            "--buffer",
            buffer,
            "--hidden",
            "16",
            "--epochs",
            "2",
            "--batch",
            "32",
            "--out-dir",
            &out,
        ]);
        assert!(ok, "{text}");
        assert_eq!(text.contains("streaming from the files"), streams, "{text}");
        assert_eq!(text.contains("waited"), streams, "{text}");
        assert!(text.contains("epoch   2:"), "{text}");
        counts.push(positions(&text));
        let net = format!("{out}/final.nnue");
        let (ok, eval) = sable(&["eval", "--eval-file", &net]);
        assert!(ok && eval.contains("NNUE (hidden 16,"), "{eval}");
        let _ = std::fs::remove_dir_all(&out);
    }
    assert_eq!(counts[0], counts[1]);
}

/// `sable train --king-mirror` (with `--mirror`'s a-h copies too) writes a net of format
/// version 3 that the engine loads by `EvalFile` and searches with (castling long and
/// kings crossing the d/e line in the tree) and that plays whole games in `datagen`;
/// `sable eval` and `sable nnue rescale` say its inputs are mirrored and the rescaled
/// copy keeps them; `nnue compare` takes its checkpoint and refuses it beside a plain
/// net; a resume without `--king-mirror` is refused by name.
#[test]
fn train_king_mirror_writes_a_version_3_net_the_engine_plays_with() {
    let records = temp("king-mirror.bin");
    datagen(&records, "4", "1", "6", &[]);
    let out = temp("king-mirror-out");
    let train = |extra: &[&str]| train_small(&records, &out, extra);
    let (ok, text) = train(&["--king-mirror", "--mirror", "--epochs", "2"]);
    assert!(ok && text.contains("epoch   2:"), "{text}");
    let net = format!("{out}/final.nnue");
    let bytes = std::fs::read(&net).unwrap();
    assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), 3);
    let (ok, eval) = sable(&["eval", "--eval-file", &net]);
    assert!(
        ok && eval.contains("NNUE (hidden 16,") && eval.contains("mirrored inputs"),
        "{eval}"
    );

    rescale_keeps_the_inputs(&net, "king-mirror-340.nnue", "mirrored inputs", 3);
    let checkpoint = format!("{out}/checkpoint.ckpt");
    let (ok, text) = nnue_compare(&net, &checkpoint);
    assert!(ok && text.contains("largest |float - quantised|"), "{text}");
    let plain = temp("plain-16.nnue");
    let (ok, text) = sable(&["nnue", "random", "--hidden", "16", "--out", &plain]);
    assert!(ok && !text.contains("mirrored"), "{text}");
    let (ok, text) = nnue_compare(&plain, &checkpoint);
    assert!(!ok && text.contains("not this net's"), "{text}");
    no_panic(&text);
    let random = temp("random-king-mirror.nnue");
    let (ok, text) = sable(&[
        "nnue",
        "random",
        "--hidden",
        "16",
        "--king-mirror",
        "--out",
        &random,
    ]);
    assert!(ok && text.contains("mirrored inputs"), "{text}");
    assert_eq!(std::fs::read(&random).unwrap()[4], 3);
    let (ok, text) = nnue_compare(&random, &checkpoint);
    assert!(ok && text.contains("largest |float - quantised|"), "{text}");
    let (ok, text) = train(&["--epochs", "3", "--resume", &checkpoint]);
    assert!(!ok && text.contains("--king-mirror"), "{text}");
    no_panic(&text);

    plays_with(&net, "king-mirror-games.bin");
    let _ = std::fs::remove_dir_all(&out);
}

/// `sable nnue rescale` of `net` to 340 into `name` says `says` of its inputs and keeps
/// its format `version`.
fn rescale_keeps_the_inputs(net: &str, name: &str, says: &str, version: u8) {
    let rescaled = temp(name);
    let (ok, text) = sable(&[
        "nnue",
        "rescale",
        "--net",
        net,
        "--output-scale",
        "340",
        "--out",
        &rescaled,
    ]);
    assert!(ok && text.contains(says), "{text}");
    assert_eq!(std::fs::read(&rescaled).unwrap()[4], version);
}

/// `sable nnue compare` of `net` against the trainer's `checkpoint`.
fn nnue_compare(net: &str, checkpoint: &str) -> (bool, String) {
    sable(&["nnue", "compare", "--net", net, "--checkpoint", checkpoint])
}

/// `sable train` on `records` into `out` with a small net, and `extra`.
fn train_small(records: &str, out: &str, extra: &[&str]) -> (bool, String) {
    let mut args = vec![
        "train",
        records,
        "--hidden",
        "16",
        "--batch",
        "32",
        "--out-dir",
        out,
    ];
    args.extend_from_slice(extra);
    sable(&args)
}

/// The engine loads `net` by `EvalFile` and searches with it (castling long and kings
/// crossing the middle in the tree), and `datagen` plays a whole game with it.
fn plays_with(net: &str, games_file: &str) {
    let mut s = Session::start(&[]);
    s.load_net(net);
    let fen = "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R w KQkq - 0 1";
    s.send(&format!("position fen {fen}"));
    s.send("go depth 7");
    let lines = s.until_within(|l| l.starts_with("bestmove"), 60_000);
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
    assert!(pos.parse_uci(best).is_ok(), "{lines:?}");
    let played = temp(games_file);
    datagen(&played, "1", "1", "7", &["--eval-file", net]);
    assert_eq!(games(&played).len(), 1);
}

/// `sable train --king-mirror --king-buckets 4 --factoriser` writes a net of format
/// version 4 that the engine loads by `EvalFile`, searches with and plays games with;
/// `sable eval` and `nnue rescale` name its king buckets, `nnue compare` takes its
/// (factorised) checkpoint; king buckets without mirrored inputs, a bucket count with no
/// layout and a factoriser without king buckets are refused by name before any data is
/// read.
#[test]
fn train_king_buckets_writes_a_version_4_net_the_engine_plays_with() {
    let records = temp("king-buckets.bin");
    datagen(&records, "4", "1", "8", &[]);
    let out = temp("king-buckets-out");
    let train = |extra: &[&str]| train_small(&records, &out, extra);
    for (extra, says) in [
        (&["--king-buckets", "4"][..], "--king-mirror"),
        (
            &["--king-mirror", "--king-buckets", "3"][..],
            "1, 2, 4 and 10",
        ),
        (
            &["--king-mirror", "--factoriser"][..],
            "factoriser needs king buckets",
        ),
    ] {
        let (ok, text) = train(extra);
        assert!(!ok && text.contains(says), "{extra:?}: {text}");
        no_panic(&text);
    }
    let (ok, text) = train(&[
        "--king-mirror",
        "--king-buckets",
        "4",
        "--factoriser",
        "--epochs",
        "2",
    ]);
    assert!(ok && text.contains("epoch   2:"), "{text}");
    let net = format!("{out}/final.nnue");
    assert_eq!(std::fs::read(&net).unwrap()[4], 4);
    let (ok, eval) = sable(&["eval", "--eval-file", &net]);
    assert!(ok && eval.contains("4 king buckets"), "{eval}");
    let checkpoint = format!("{out}/checkpoint.ckpt");
    let (ok, text) = nnue_compare(&net, &checkpoint);
    assert!(ok && text.contains("largest |float - quantised|"), "{text}");
    rescale_keeps_the_inputs(&net, "king-buckets-340.nnue", "4 king buckets", 4);
    let random = temp("random-king-buckets.nnue");
    let (ok, text) = sable(&[
        "nnue",
        "random",
        "--hidden",
        "16",
        "--king-buckets",
        "10",
        "--out",
        &random,
    ]);
    assert!(ok && text.contains("10 king buckets"), "{text}");

    plays_with(&net, "king-buckets-games.bin");
    let _ = std::fs::remove_dir_all(&out);
}
