//! The PGN reader and writer on every file of testdata/pgn, as testdata/SOURCES.md
//! describes them; round trips; error messages with line and column.

// The rules crate's test helpers (data, a seeded generator, Chess960 starts).
#[path = "../../chess/tests/common/mod.rs"]
mod common;

use sable_chess::{CastlingMode, Color, Position, SanMode};
use sable_formats::pgn::{GameError, GameResult, GameTree, Line, PgnError, PgnReader, PgnWriter};

/// Every item of a file: games and errors in order.
fn read_all(bytes: &[u8], mode: SanMode) -> Vec<Result<GameTree, PgnError>> {
    PgnReader::new(bytes).trees(mode).collect()
}

fn file(rel: &str) -> Vec<u8> {
    sable_testdata::read(&format!("pgn/{rel}"))
}

fn games(items: &[Result<GameTree, PgnError>]) -> Vec<&GameTree> {
    items.iter().filter_map(|r| r.as_ref().ok()).collect()
}

fn errors(items: &[Result<GameTree, PgnError>]) -> Vec<&PgnError> {
    items.iter().filter_map(|r| r.as_ref().err()).collect()
}

fn plies(trees: &[&GameTree]) -> usize {
    trees.iter().map(|t| t.root.moves.len()).sum()
}

/// (comments, variations, NAGs) in a line and everything below it.
fn annotations(line: &Line) -> (usize, usize, usize) {
    let mut acc = (line.comments.len(), 0, 0);
    for node in &line.moves {
        acc.0 += node.comments.len() + node.comments_before.len();
        acc.2 += node.nags.len();
        acc.1 += node.variations.len();
        for v in &node.variations {
            let (c, v, n) = annotations(v);
            acc = (acc.0 + c, acc.1 + v, acc.2 + n);
        }
    }
    acc
}

/// Writes each game, reads it back and compares trees; the second writing must be
/// byte-identical to the first. Every line of the output fits in 80 columns unless it
/// is a single word.
fn assert_round_trip(trees: &[&GameTree]) {
    for tree in trees {
        let text = tree.to_pgn();
        for line in text.lines() {
            assert!(
                line.chars().count() <= 80 || !line.contains(' '),
                "line over 80 columns: {line}"
            );
        }
        let again = read_all(text.as_bytes(), SanMode::Strict);
        assert_eq!(again.len(), 1, "{text}");
        let back = again[0].as_ref().unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(&back.root, &tree.root, "{text}");
        assert_eq!(back.start, tree.start);
        for (name, value) in tree.tags.iter().filter(|(n, _)| *n != "Result") {
            assert_eq!(back.tags.get(name), Some(value), "tag {name}");
        }
        assert_eq!(back.to_pgn(), text);
    }
}

#[test]
fn lichess_games_replay_with_their_stated_results_and_round_trip() {
    let items = read_all(
        &file("lichess/lichess-user-export-3970-games.pgn"),
        SanMode::Strict,
    );
    assert!(errors(&items).is_empty(), "{}", errors(&items)[0]);
    let trees = games(&items);
    assert_eq!(trees.len(), 3970);
    assert_eq!(plies(&trees), 285_211);
    let from_position = trees.iter().filter(|t| t.tags.get("FEN").is_some()).count();
    assert_eq!(from_position, 3);
    let mut mates = 0;
    for tree in &trees {
        let result = tree.result.expect("every game has a result");
        assert_eq!(tree.tags.get("Result"), Some(result.as_str()));
        let end = tree.end_position();
        if end.is_checkmate() {
            mates += 1;
            let winner = !end.turn();
            let expected = if winner == Color::White {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            };
            assert_eq!(result, expected, "{:?}", tree.tags.get("GameId"));
        }
        if end.is_stalemate() || end.is_insufficient_material() {
            assert_eq!(result, GameResult::Draw, "{:?}", tree.tags.get("GameId"));
        }
    }
    assert!(mates > 100, "only {mates} games end in mate");
    assert_round_trip(&trees);
    for tree in &trees {
        assert_same_as_shakmaty(tree);
    }
}

/// Replays the game's SAN with shakmaty, an independent implementation, and compares
/// every position on the way.
fn assert_same_as_shakmaty(tree: &GameTree) {
    use shakmaty::{fen::Fen, san::San, CastlingMode, Chess, EnPassantMode, Position as _};
    let mode = if tree.start.is_chess960() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let mut theirs: Chess = Fen::from_ascii(tree.start.fen().as_bytes())
        .unwrap()
        .into_position(mode)
        .unwrap();
    let mut ours = tree.start.clone();
    for node in &tree.root.moves {
        let san = node.san.as_str();
        let m = San::from_ascii(san.trim_end_matches(['+', '#']).as_bytes())
            .unwrap()
            .to_move(&theirs)
            .unwrap_or_else(|e| panic!("shakmaty rejects {san}: {e}"));
        theirs.play_unchecked(&m);
        ours.make(node.mv);
        let their_fen = Fen::from_position(theirs.clone(), EnPassantMode::Legal).to_string();
        let our_fen = ours.fen();
        // Compare boards, side, castling files and counters; en passant squares are
        // written only when a capture is legal in both.
        let fields = |fen: &str| {
            fen.split(' ')
                .take(2)
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(fields(&our_fen), fields(&their_fen), "after {san}");
        assert_eq!(ours.halfmoves(), theirs.halfmoves());
        assert_eq!(ours.fullmoves(), theirs.fullmoves().get());
    }
}

#[test]
fn longest_possible_game_reads_in_full() {
    let items = read_all(
        &file("pgn-read/FIDE_longest_possible_game.pgn"),
        SanMode::Strict,
    );
    let trees = games(&items);
    assert_eq!((trees.len(), errors(&items).len()), (1, 0));
    assert_eq!(plies(&trees), 11_790);
    assert_eq!(trees[0].result, Some(GameResult::Draw));
    assert_round_trip(&trees);
}

#[test]
fn calbase_comments_with_brackets_and_parentheses() {
    for (name, expected_plies) in [
        ("break_pgn_0_8_1_a.pgn", 52),
        ("break_pgn_0_8_1_b.pgn", 154),
    ] {
        let items = read_all(&file(&format!("pgn-read/{name}")), SanMode::Strict);
        assert!(errors(&items).is_empty(), "{name}: {}", errors(&items)[0]);
        let trees = games(&items);
        assert_eq!(trees.len(), 1);
        assert_eq!(plies(&trees), expected_plies, "{name}");
        let (comments, _, _) = annotations(&trees[0].root);
        assert!(comments > 0);
        assert_round_trip(&trees);
    }
    let trees_b = read_all(&file("pgn-read/break_pgn_0_8_1_b.pgn"), SanMode::Strict);
    assert_eq!(annotations(&games(&trees_b)[0].root).0, 24);
}

#[test]
fn over_disambiguated_san_is_flagged_strictly_and_accepted_leniently() {
    let bytes = file("pgn-read/break_pgn_0_8_1_c.pgn");
    let strict = read_all(&bytes, SanMode::Strict);
    let errs = errors(&strict);
    assert_eq!(errs.len(), 1);
    let e = errs[0];
    assert_eq!((e.game, e.line, e.column), (1, 39, 14));
    let msg = e.to_string();
    assert!(msg.contains("'Rdg8'") && msg.contains("'Rg8'"), "{msg}");
    let lenient = read_all(&bytes, SanMode::Lenient);
    assert!(errors(&lenient).is_empty());
    assert_eq!(games(&lenient).len(), 1);
    assert_round_trip(&games(&lenient));
}

#[test]
fn twic_empty_games_and_an_illegal_pawn_move() {
    let items = read_all(&file("pgn-read/twic9nn_error.pgn"), SanMode::Strict);
    let errs = errors(&items);
    // 7 games with tags; two of them broken (a forfeit written `(+)-(-)` in the movetext,
    // and the illegal `b1`), plus the stray `ff` after two forfeit results.
    let trees = games(&items);
    assert_eq!(trees.len(), 5);
    assert_eq!(items.len(), 9);
    assert_eq!(errs.len(), 4);
    let b1 = errs.last().unwrap();
    assert_eq!((b1.line, b1.column), (127, 29));
    assert!(b1.to_string().contains("'b1'") && b1.to_string().contains("must promote"));
    assert!(matches!(b1.error, GameError::Move(_)));
    assert!(
        errs.iter()
            .filter(|e| e.to_string().contains("'ff'"))
            .count()
            == 2
    );
    assert_eq!(trees.iter().filter(|t| t.root.moves.is_empty()).count(), 3);
}

#[test]
fn garbage_input_ends_with_errors_and_no_games() {
    let items = read_all(&file("pgn-read/crafty06_02.pgn"), SanMode::Strict);
    assert!(games(&items).is_empty());
    assert!(!errors(&items).is_empty());
    let e = errors(&items)[0];
    assert_eq!((e.line, e.column), (1, 1));
    assert!(e.to_string().contains("'MIME-Version:'"), "{e}");
}

#[test]
fn non_compliant_tutorial_example_reports_where() {
    let items = read_all(&file("pgn-read/Little_01.pgn"), SanMode::Lenient);
    let errs = errors(&items);
    assert!(!errs.is_empty());
    for e in &errs {
        assert!(e.line >= 1 && e.column >= 1);
    }
    assert!(errs[0].to_string().contains("'<br>'"), "{}", errs[0]);
}

#[test]
fn null_moves() {
    let bytes = file("python-chess/anastasian-lewis.pgn");
    let strict = read_all(&bytes, SanMode::Strict);
    let e = errors(&strict)[0];
    assert_eq!((e.line, e.column), (20, 15));
    assert!(e.to_string().contains("'Z0'"));
    let lenient = read_all(&bytes, SanMode::Lenient);
    let trees = games(&lenient);
    assert_eq!(trees.len(), 1);
    assert!(trees[0].root.moves.iter().any(|n| n.mv.is_null()));
    assert!(plies(&trees) > 82);
    // Written back as `--`, which the strict reader accepts.
    assert!(trees[0].to_pgn().contains(" -- "));
    assert_round_trip(&trees);
}

#[test]
fn other_variants_are_rejected_and_reading_goes_on() {
    for (name, count, variant) in [
        ("python-chess/antichess-programfox.pgn", 2, "Antichess"),
        (
            "python-chess/knightvuillaume-jannlee-zh-lichess.pgn",
            1,
            "Crazyhouse",
        ),
        (
            "python-chess/saturs-jannlee-zh-lichess.pgn",
            1,
            "Crazyhouse",
        ),
    ] {
        let items = read_all(&file(name), SanMode::Strict);
        assert_eq!(items.len(), count, "{name}");
        for e in errors(&items) {
            assert!(
                matches!(&e.error, GameError::Variant(v) if v == variant),
                "{e}"
            );
        }
        assert_eq!(errors(&items).len(), count);
    }
    let items = read_all(&file("scalachess/pgn-render-snapshot.pgn"), SanMode::Strict);
    assert_eq!(items.len(), 15);
    let errs = errors(&items);
    assert_eq!(errs.len(), 1);
    assert!(matches!(&errs[0].error, GameError::Variant(v) if v == "Crazyhouse"));
    let trees = games(&items);
    assert!(trees.iter().any(|t| t.start.is_chess960()));
    assert!(trees
        .iter()
        .any(|t| t.tags.len() == 1 && t.tags.get("Result").is_some()));
    assert_round_trip(&trees);
}

#[test]
fn small_files_read_as_described() {
    // (file, games, plies)
    let cases = [
        ("python-chess/chessbase-empty-line.pgn", 1, 134),
        ("python-chess/cutechess-fischerrandom.pgn", 4, 396),
        ("python-chess/kasparov-deep-blue-1997.pgn", 6, 519),
        ("python-chess/molinari-bordais-1979.pgn", 1, 10),
        ("python-chess/nepomniachtchi-liren-game1.pgn", 1, 97),
        ("python-chess/stockfish-learning.pgn", 1, 154),
        ("python-chess/utf8-bom.pgn", 2, 0),
    ];
    for (name, count, expected_plies) in cases {
        let items = read_all(&file(name), SanMode::Strict);
        assert!(errors(&items).is_empty(), "{name}: {}", errors(&items)[0]);
        let trees = games(&items);
        assert_eq!(trees.len(), count, "{name}");
        assert_eq!(plies(&trees), expected_plies, "{name}");
        assert_round_trip(&trees);
    }
    let empty_line = read_all(
        &file("python-chess/chessbase-empty-line.pgn"),
        SanMode::Strict,
    );
    assert_eq!(games(&empty_line)[0].tags.get("Date"), Some("2017.12.04"));
    let frc = read_all(
        &file("python-chess/cutechess-fischerrandom.pgn"),
        SanMode::Strict,
    );
    for t in games(&frc) {
        assert!(t.start.is_chess960());
        assert!(t.root.moves.iter().all(|n| !n.comments.is_empty()));
    }
    let mate = read_all(
        &file("python-chess/molinari-bordais-1979.pgn"),
        SanMode::Strict,
    );
    let t = games(&mate)[0];
    assert!(t.end_position().is_checkmate());
    assert_eq!(t.result, Some(GameResult::BlackWins));
    let bom = read_all(&file("python-chess/utf8-bom.pgn"), SanMode::Strict);
    let events: Vec<_> = games(&bom).iter().map(|t| t.tags.get("Event")).collect();
    assert_eq!(events, [Some("A"), Some("B")]);
}

#[test]
fn uci_movetext_needs_the_lenient_reader() {
    let bytes = file("python-chess/uci-moves.pgn");
    let strict = read_all(&bytes, SanMode::Strict);
    assert!(errors(&strict)[0].to_string().contains("'g1f3'"));
    let lenient = read_all(&bytes, SanMode::Lenient);
    let trees = games(&lenient);
    assert_eq!(trees.len(), 1);
    assert!(plies(&trees) > 10);
    assert_eq!(trees[0].root.moves[0].san.as_str(), "Nf3");
}

#[test]
fn annotated_world_championship_games() {
    let items = read_all(&file("scalachess/wcc2023-annotated.pgn"), SanMode::Strict);
    assert!(errors(&items).is_empty(), "{}", errors(&items)[0]);
    let trees = games(&items);
    assert_eq!(trees.len(), 3);
    let total = trees
        .iter()
        .map(|t| annotations(&t.root))
        .fold((0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    // SOURCES.md counts 320 comments with python-chess, which joins adjacent comments;
    // the file has 322 brace comments, each kept here.
    assert_eq!(total, (322, 195, 381));
    assert_round_trip(&trees);
}

fn one_error(text: &[u8]) -> PgnError {
    let items = read_all(text, SanMode::Strict);
    let errs: Vec<_> = items.into_iter().filter_map(Result::err).collect();
    assert_eq!(errs.len(), 1, "{:?}", String::from_utf8_lossy(text));
    errs.into_iter().next().unwrap()
}

#[test]
fn errors_name_the_line_and_column_and_reading_recovers() {
    let cases: [(&[u8], usize, usize, &str); 9] = [
        (b"[Event \"x]\n\n1. e4 *\n", 1, 1, "closing '\"' is missing"),
        (b"[Event x]\n\n1. e4 *\n", 1, 8, "must be a quoted string"),
        (b"[Event \"x\"\n\n1. e4 *\n", 1, 11, "']' expected"),
        (b"1. e4 e5 2. Nf3 {never closed\n", 1, 17, "not closed"),
        (b"1. e4 ) e5 *\n", 1, 7, "')' without a matching '('"),
        (b"1. e4 e5 2. Ke3 *\n", 1, 13, "illegal move 'Ke3'"),
        (b"( e4 ) *\n", 1, 1, "no move to replace"),
        (b"1. e4 $999 *\n", 1, 7, "not a NAG"),
        (b"[FEN \"8/8/8 w - - 0 1\"]\n\n*\n", 3, 1, "FEN tag"),
    ];
    for (text, line, column, needle) in cases {
        // A good game follows each broken one and must still be read.
        let mut input = text.to_vec();
        input.extend_from_slice(b"\n[Event \"next\"]\n\n1. d4 d5 *\n");
        let items = read_all(&input, SanMode::Strict);
        let e = one_error(&input);
        assert_eq!((e.line, e.column), (line, column), "{e}");
        assert!(e.to_string().contains(needle), "{e}");
        let last = items.last().unwrap().as_ref().expect("the next game reads");
        assert_eq!(last.tags.get("Event"), Some("next"), "{e}");
        assert_eq!(last.root.moves.len(), 2);
    }
}

#[test]
fn latin1_crlf_escapes_and_suffixes() {
    let text = b"[White \"M\xfcller, J\xf6rg\"]\r\n[Black \"say \\\"hi\\\" \\\\o/\"]\r\n\r\n\
1.e4!? e5 2.Nf3?! ; rest of line\r\n%escaped line 3. Bb5\r\n(2.d4) Nc6 $14 1-0\r\n";
    let items = read_all(text, SanMode::Strict);
    let trees = games(&items);
    assert!(errors(&items).is_empty(), "{}", errors(&items)[0]);
    let t = trees[0];
    assert_eq!(t.tags.get("White"), Some("Müller, Jörg"));
    assert_eq!(t.tags.get("Black"), Some("say \"hi\" \\o/"));
    assert_eq!(t.root.moves.len(), 4);
    assert_eq!(t.root.moves[0].nags, [5]);
    assert_eq!(t.root.moves[2].nags, [6]);
    assert_eq!(t.root.moves[2].comments, ["rest of line"]);
    assert_eq!(t.root.moves[2].variations.len(), 1);
    assert_eq!(t.root.moves[3].nags, [14]);
    let out = t.to_pgn();
    assert!(out.contains("[Black \"say \\\"hi\\\" \\\\o/\"]"), "{out}");
    assert!(
        out.contains("1. e4 $5 e5 2. Nf3 $6 {rest of line} (2. d4) 2... Nc6 $14 1-0"),
        "{out}"
    );
    assert_round_trip(&trees);
}

#[test]
fn writer_wraps_at_80_columns_and_numbers_black_moves_after_comments() {
    let text = b"1. e4 {a long comment that goes on and on, well past the end of the line so that it has to wrap} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 *";
    let items = read_all(text, SanMode::Strict);
    let t = games(&items)[0];
    let out = PgnWriter::default().write(t);
    let movetext: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with('[') && !l.is_empty())
        .collect();
    assert!(movetext.len() >= 2);
    assert!(movetext.iter().all(|l| l.chars().count() <= 80));
    assert!(
        out.contains("1... e5 (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3 *"),
        "{out}"
    );
    assert_round_trip(&[t]);
}

/// Counts heap allocations made by the current thread, so one test can check the replay
/// path while others run in parallel.
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    pub struct Counting;

    thread_local! {
        pub static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    }

    // SAFETY: forwards to the system allocator; only counts.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
            // SAFETY: same contract as ours.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: same contract as ours.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
            // SAFETY: same contract as ours.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    pub fn count() -> u64 {
        ALLOCATIONS.with(Cell::get)
    }
}

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// Replays every move, as `sable pgn --validate` does.
struct Replay(sable_formats::pgn::Replayer, u64);

impl sable_formats::pgn::Visitor for Replay {
    type Output = ();
    fn begin_game(&mut self) {
        self.0.begin_game();
    }
    fn tag(&mut self, name: &str, value: &str) -> Result<(), GameError> {
        self.0.tag(name, value)
    }
    fn end_tags(&mut self) -> Result<(), GameError> {
        self.0.end_tags()
    }
    fn san(&mut self, san: &str) -> Result<(), GameError> {
        self.0.play_san(san)?;
        self.1 += 1;
        Ok(())
    }
    fn end_game(&mut self) {}
}

#[test]
fn replaying_allocates_nothing_per_move() {
    let bytes = file("lichess/lichess-user-export-3970-games.pgn");
    let mut reader = PgnReader::new(&bytes[..]);
    let mut replay = Replay(sable_formats::pgn::Replayer::new(SanMode::Strict), 0);
    // Warm up: the line buffer grows to the longest line once.
    reader.read_game(&mut replay).unwrap().unwrap();
    let before = counting::count();
    let mut games = 0;
    while let Some(r) = reader.read_game(&mut replay) {
        r.unwrap();
        games += 1;
    }
    let allocations = counting::count() - before;
    assert_eq!(games, 3969);
    assert!(replay.1 > 280_000);
    // Only the three games with a FEN tag keep a copy of it; lines longer than any
    // before may grow the buffer a few times.
    assert!(
        allocations < 40,
        "{allocations} allocations for {} moves",
        replay.1
    );
}

#[test]
fn en_passant_marks_and_games_without_tags() {
    let text = b"1. e4 Nf6 2. e5 d5 3. exd6 e.p. *\n\n1. d4 d5 *\n";
    let items = read_all(text, SanMode::Strict);
    let trees = games(&items);
    assert_eq!((trees.len(), errors(&items).len()), (2, 0));
    assert!(trees[0].root.moves[4].mv.is_en_passant());
    assert!(trees.iter().all(|t| t.tags.is_empty()));
    let lenient = read_all(b"1. e4 Nf6 2. e5 d5 3. exd6e.p. *", SanMode::Lenient);
    assert!(games(&lenient)[0].root.moves[4].mv.is_en_passant());
}

#[test]
fn damaged_input_never_panics_and_always_ends() {
    // Annotated games, damaged at random: bytes replaced by PGN's special characters,
    // by Latin-1 and UTF-8 bytes, or dropped.
    let original = file("scalachess/wcc2023-annotated.pgn");
    let specials = b"{}()[];$%\"\\*.-+#!?=x\n\r\t 0123456789\xc3\xa9\xbd";
    let mut rng = common::Rng::new(77);
    let mut items = 0;
    for round in 0..150 {
        let mut bytes = original.clone();
        for _ in 0..1 + round % 20 {
            let i = rng.below(bytes.len());
            if rng.below(4) == 0 {
                bytes.remove(i);
            } else {
                bytes[i] = specials[rng.below(specials.len())];
            }
        }
        let mode = if round % 2 == 0 {
            SanMode::Strict
        } else {
            SanMode::Lenient
        };
        for item in read_all(&bytes, mode) {
            items += 1;
            if let Err(e) = item {
                assert!(e.line >= 1 && e.column >= 1, "{e}");
            }
        }
    }
    assert!(items >= 150 * 3);
    // And the SAN readers on arbitrary short strings.
    let pos = sable_chess::Position::startpos();
    let alphabet = b"NBRQKPabcdefgh12345678xX=+#-O0o!?:/()e.p";
    for _ in 0..20_000 {
        let len = 1 + rng.below(8);
        let s: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())] as char)
            .collect();
        for m in [pos.parse_san(&s), pos.parse_san_lenient(&s)]
            .into_iter()
            .flatten()
        {
            assert!(m.is_null() || pos.is_legal(m), "{s}");
        }
    }
}

/// A read error ends the reading: one error, then the end (a directory used to give a
/// "broken game" for ever, 2.9 million of them in 10 s).
#[test]
fn a_read_error_ends_the_reading() {
    use sable_formats::pgn::Visitor;
    struct Nothing;
    impl Visitor for Nothing {
        type Output = ();
        fn san(&mut self, _san: &str) -> Result<(), GameError> {
            Ok(())
        }
        fn end_game(&mut self) {}
    }
    /// Gives one game, then fails every read.
    struct Failing(Vec<u8>);
    impl std::io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::other("Is a directory"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0.drain(..n);
            Ok(n)
        }
    }
    let src = std::io::BufReader::new(Failing(b"[Event \"a\"]\n\n1. e4 e5 1-0\n\n".to_vec()));
    let mut reader = PgnReader::new(src);
    let mut results = vec![];
    while let Some(r) = reader.read_game(&mut Nothing) {
        results.push(r.map_err(|e| e.to_string()));
        assert!(results.len() < 10, "the reader does not stop: {results:?}");
    }
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(results[0].is_ok());
    let err = results[1].clone().unwrap_err();
    assert!(err.contains("Is a directory"), "{err}");

    let dir = std::env::temp_dir();
    let file = std::fs::File::open(&dir).expect("a directory opens on Unix");
    let mut reader = PgnReader::new(std::io::BufReader::new(file));
    let mut n = 0;
    while reader.read_game(&mut Nothing).is_some() {
        n += 1;
        assert!(n < 10, "reading a directory does not stop");
    }
    assert_eq!(n, 1);
}

/// A PGN written from a position with the largest move counters a FEN may give
/// (u32::MAX) numbers its moves sanely, without wrapping.
#[test]
fn huge_move_counters_are_written_without_wrapping() {
    use sable_formats::pgn::{write_moves, Tags};
    let fen = "4k3/8/8/8/8/8/8/4K2R b K - 4294967295 4294967295";
    let start = Position::from_fen(fen, CastlingMode::Standard).unwrap();
    let mut pos = start.clone();
    let mut moves = vec![];
    for _ in 0..6 {
        let m = pos.legal_moves()[0];
        pos.make(m);
        moves.push(m);
    }
    let pgn = write_moves(&Tags::new(), &start, &moves, GameResult::Unknown);
    assert!(pgn.contains("4294967295..."), "{pgn}");
}
