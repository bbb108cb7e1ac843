//! The console driven with piped input (as a script): every command of the table runs,
//! the answers are checked against independent facts (FENs, perft counts, PGN text),
//! and bad input gets one `error:` line while the session goes on. Also the dispatch of
//! `sable` without arguments on its first line (`uci` or `xboard`).

mod support;

/// Runs `sable ARGS...` with `input` on its standard input; it must succeed. Its
/// standard output.
fn run(args: &[&str], input: &str) -> String {
    let out = support::run_with_input(args, input, None);
    assert!(out.ok(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn console_script() {
    let dir = std::env::temp_dir().join(format!("sable-console-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("game.pgn");
    let fen = dir.join("pos.fen");
    let epd = dir.join("pos.epd");
    let script = format!(
        "help\nboard\nmoves\ne4\ne5\ng1f3\nfen\nundo\nfen\nredo\nfen\npgn\nbogus\nKe9\n\
         setup 8/8/8 w - - 0 1\nfen\nsave {pgn}\nsave {fen}\nsave {epd}\nnew\nperft 3\ndivide 1\n\
         load {pgn}\nfen\nload {epd}\nfen\nload /nonexistent/x.pgn\nboard ascii\nflip\nflip\n\
         setup 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo depth 4\nboard unicode\nundo\neval\nhint\n\
         set\nset hash 8\nset hash lots\nset bogus 1\ngo sideways\nanalyze\n\nexit\nfen\n",
        pgn = pgn.display(),
        fen = fen.display(),
        epd = epd.display()
    );
    let out = run(&["console"], &script);
    let lines: Vec<&str> = out.lines().collect();
    let has = |s: &str| lines.iter().any(|l| l.contains(s));
    // help lists every command with a line each.
    for c in [
        "help", "board", "fen", "pgn", "moves", "undo", "redo", "perft", "divide", "go", "analyze",
        "eval", "hint", "set", "load", "save", "setup", "new", "exit",
    ] {
        assert!(
            lines.iter().any(|l| l.trim_start().starts_with(c)),
            "help lacks {c}\n{out}"
        );
    }
    assert!(has("20 legal moves: "), "{out}");
    let after3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    let after2 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let fens: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains(" KQkq ") && !l.contains('['))
        .collect();
    assert_eq!(fens[0], &after3, "{out}");
    assert_eq!(fens[1], &after2, "{out}");
    assert_eq!(fens[2], &after3, "{out}");
    assert!(has("1. e4 e5 2. Nf3 *"), "{out}");
    assert!(
        has("error: unknown command or illegal move 'bogus'"),
        "{out}"
    );
    assert!(has("error: unknown command or illegal move 'Ke9'"), "{out}");
    assert!(has("error: setup: "), "{out}");
    // After the refused setup the position is unchanged.
    assert_eq!(fens[3], &after3, "{out}");
    assert!(has("perft 3: 8902 nodes"), "{out}");
    assert!(has("Nf3 1"), "{out}");
    assert_eq!(fens[4], &after3, "PGN load restores the game\n{out}");
    assert!(fens.len() >= 5);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&after3[..after3.len() - 4])),
        "{out}"
    );
    assert!(has("error: load /nonexistent/x.pgn"), "{out}");
    assert!(has("Sable plays Rd8#"), "{out}");
    assert!(has("Game over: 1-0 {White mates}"), "{out}");
    assert!(has("last move Rd8#"), "{out}");
    assert!(has(" R "), "ascii board\n{out}");
    assert!(has("\u{2656}") || has("\u{265c}"), "unicode board\n{out}");
    assert!(has("total") && has("cp for White"), "{out}");
    assert!(has("hint: Rd8"), "{out}");
    assert!(has("hash 16 MB"), "{out}");
    assert!(has("Hash set to 8"), "{out}");
    assert!(has("error: set: Hash needs a whole number"), "{out}");
    assert!(has("error: set: no option named 'bogus'"), "{out}");
    assert!(has("error: go: unknown parameter 'sideways'"), "{out}");
    // Analysis stopped by the next (empty) line: how deep it got depends on the machine.
    assert!(has("analysing; press Enter to stop"), "{out}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("best move ") || *l == "no move found"),
        "{out}"
    );
    // `exit` ends the session: the last `fen` is not answered.
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("6k1/5ppp")).count(),
        0,
        "{out}"
    );
    let saved = std::fs::read_to_string(&pgn).unwrap();
    assert!(saved.contains("1. e4 e5 2. Nf3 *"), "{saved}");
    assert_eq!(std::fs::read_to_string(&fen).unwrap().trim(), after3);
    assert_eq!(
        std::fs::read_to_string(&epd).unwrap().trim(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_argument_dispatch_on_the_first_line() {
    let out = run(&[], "xboard\nprotover 2\nping 3\nquit\n");
    assert!(out.contains("feature done=1"), "{out}");
    assert!(out.contains("pong 3"), "{out}");
    let out = run(&[], "\nuci\nisready\nquit\n");
    assert!(out.contains("uciok") && out.contains("readyok"), "{out}");
}
