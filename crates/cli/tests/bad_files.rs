//! Every command that reads a file, given five bad inputs (issue #15): a directory, an
//! empty file, random bytes, a real file cut in the middle, and a file that opens but
//! cannot be read (on Linux `/proc/self/mem`: reading at offset 0 fails with EIO, and its
//! size reads 0, so a reader that trusts the size sees an empty file).
//!
//! The rule for every case: a message that names the file (and the place, for a file
//! cut short in its records), a non-zero exit status for a tool, no panic, no hang (each case
//! has 60 seconds); under UCI, xboard and the console the error is reported on the wire
//! and the engine still answers and plays. A few readers keep the whole records of a
//! file cut short and say what they left out, as documented (see [`Cut`]).
//!
//! One table runs every reader on every input and lists every failure at once.

mod support;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::session::Session;
use support::Output;

const SABLE: &str = env!("CARGO_BIN_EXE_sable");

/// The longest any one case may take.
const TIMEOUT: Duration = Duration::from_secs(60);

/// The bad inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bad {
    Directory,
    Empty,
    Random,
    Cut,
    Unreadable,
}

impl Bad {
    fn all() -> Vec<Bad> {
        let mut v = vec![Bad::Directory, Bad::Empty, Bad::Random, Bad::Cut];
        if cfg!(target_os = "linux") {
            v.push(Bad::Unreadable);
        }
        v
    }

    fn name(self) -> &'static str {
        match self {
            Bad::Directory => "directory",
            Bad::Empty => "empty",
            Bad::Random => "random",
            Bad::Cut => "cut",
            Bad::Unreadable => "unreadable",
        }
    }
}

/// What a reader reads; the good file a cut input is cut from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A PGN file of a few games.
    Pgn,
    /// A PGN opening book.
    PgnBook,
    /// An EPD opening book.
    EpdBook,
    /// A perft suite.
    Suite,
    /// An EPD test suite (`bm`, `id`).
    Tactics,
    /// `FEN | result` lines for `sable tune`.
    Tune,
    /// Game records (`sable datagen`).
    Records,
    /// A Polyglot book.
    Polyglot,
    /// A network (`sable nnue random`).
    Net,
    /// A folder of Syzygy tables holding one table, `KBNvK.rtbw`: the bad input takes
    /// that table's place, and the folder is what the reader is given.
    Tables,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Pgn => "games.pgn",
            Kind::PgnBook => "book.pgn",
            Kind::EpdBook => "book.epd",
            Kind::Suite => "suite.epd",
            Kind::Tactics => "tactics.epd",
            Kind::Tune => "tune.txt",
            Kind::Records => "games.bin",
            Kind::Polyglot => "book.bin",
            Kind::Net => "net.nnue",
            Kind::Tables => "tables",
        }
    }

    /// Whether a message about a file cut short must say where it breaks (line, byte,
    /// game). Nets, tables and books are refused as a whole (by their size).
    fn has_places(self) -> bool {
        !matches!(self, Kind::Net | Kind::Tables | Kind::Polyglot)
    }
}

/// How a reader may treat a file cut short.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cut {
    /// An error, like any other bad input.
    Fails,
    /// The whole records are read and the cut one is left out with a message naming the
    /// file and the place (record files: an interrupted `sable datagen` run).
    Warns,
    /// Read as it stands: a PGN whose last game stops before its result reads as a
    /// game without one, as Polyglot's make-book and python-chess read it.
    Reads,
}

/// The files of one run, in a temporary folder removed at the end.
struct Files {
    dir: PathBuf,
}

impl Files {
    fn new() -> Files {
        let dir = std::env::temp_dir().join(format!("sable-bad-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        Files { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// A fresh path for an output (nothing there).
    fn out(&self, name: &str) -> String {
        let p = self.path(name);
        let _ = std::fs::remove_file(&p);
        let _ = std::fs::remove_dir_all(&p);
        p.display().to_string()
    }

    /// The good file of a kind.
    fn good(&self, kind: Kind) -> Vec<u8> {
        let read = |rel: &str| std::fs::read(sable_testdata::path(rel)).expect("test data");
        match kind {
            Kind::Pgn => read("pgn/python-chess/kasparov-deep-blue-1997.pgn"),
            Kind::PgnBook => read("books/8moves_v3.pgn"),
            Kind::EpdBook => read("books/noob_3moves.epd"),
            Kind::Suite => read("perft/standard.epd"),
            Kind::Tactics => read("tactics/wac.epd"),
            Kind::Tune => {
                // Labelled positions from the first openings of the EPD book.
                let book = String::from_utf8(read("books/noob_3moves.epd")).unwrap();
                let results = ["1.0", "0.5", "0.0"];
                book.lines()
                    .take(60)
                    .enumerate()
                    .map(|(i, l)| format!("{} | {}\n", fen_of(l), results[i % 3]))
                    .collect::<String>()
                    .into_bytes()
            }
            Kind::Records => {
                // The network's training games (the first records: the file grows at its
                // end); a few games of `sable datagen` where that file is not at hand.
                let ours =
                    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../nets/data/sable-gen1-s1.bin");
                match std::fs::File::open(&ours) {
                    Ok(f) => {
                        let mut bytes = Vec::new();
                        f.take(128 << 10).read_to_end(&mut bytes).unwrap();
                        bytes
                    }
                    Err(_) => {
                        let out = self.out("datagen-source.bin");
                        let o = run(&["datagen", &out, "--games", "4", "--nodes", "300"]);
                        assert!(o.ok(), "{}", o.text());
                        std::fs::read(&out).unwrap()
                    }
                }
            }
            Kind::Polyglot => read("polyglot/performance.bin"),
            Kind::Net => {
                let out = self.out("source.nnue");
                let o = run(&["nnue", "random", "--hidden", "32", "--out", &out]);
                assert!(o.ok(), "{}", o.text());
                std::fs::read(&out).unwrap()
            }
            Kind::Tables => read("syzygy/tables/KBNvK.rtbw"),
        }
    }

    /// The bad input of a kind (created on first use): the path to give the reader.
    fn bad(&self, kind: Kind, bad: Bad) -> String {
        let (folder, file) = match kind {
            Kind::Tables => {
                let folder = self.path(&format!("{}-{}", bad.name(), kind.name()));
                (Some(folder.clone()), folder.join("KBNvK.rtbw"))
            }
            _ => (None, self.path(&format!("{}-{}", bad.name(), kind.name()))),
        };
        let given = folder.clone().unwrap_or_else(|| file.clone());
        if std::fs::symlink_metadata(&file).is_ok() {
            return given.display().to_string();
        }
        if let Some(f) = &folder {
            std::fs::create_dir_all(f).unwrap();
        }
        match bad {
            Bad::Directory => std::fs::create_dir_all(&file).unwrap(),
            Bad::Empty => std::fs::write(&file, b"").unwrap(),
            Bad::Random => std::fs::write(&file, random_bytes(64 << 10, 0x5AB1E)).unwrap(),
            Bad::Cut => {
                let good = self.good(kind);
                let mut cut = good.len() / 2;
                if kind == Kind::Polyglot {
                    // Half of this book is a whole number of entries: a smaller good
                    // book. Cut inside an entry, as a broken copy would.
                    cut = cut / 16 * 16 + 8;
                }
                std::fs::write(&file, &good[..cut]).unwrap();
            }
            Bad::Unreadable => unreadable(&file),
        }
        given.display().to_string()
    }
}

impl Drop for Files {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(target_os = "linux")]
fn unreadable(at: &Path) {
    std::os::unix::fs::symlink("/proc/self/mem", at).unwrap();
}

#[cfg(not(target_os = "linux"))]
fn unreadable(_: &Path) {
    unreachable!("only on Linux");
}

/// `n` bytes of a xorshift64 stream.
fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed;
    let mut out = Vec::with_capacity(n + 8);
    while out.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(&x.to_le_bytes());
    }
    out.truncate(n);
    out
}

/// An EPD line's first four fields as a FEN.
fn fen_of(epd: &str) -> String {
    let f: Vec<&str> = epd.split_whitespace().take(4).collect();
    format!("{} 0 1", f.join(" "))
}

/// Runs `sable ARGS...` with no input, stopped after [`TIMEOUT`].
fn run(args: &[&str]) -> Output {
    support::run_with_input(args, "", Some(TIMEOUT))
}

/// The position a search starts from after the option (a KBNvK ending for tables).
fn position_for(kind: Kind) -> &'static str {
    match kind {
        Kind::Tables => "8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
        _ => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    }
}

/// A UCI session: `setoptions` (with `{}` for the bad path) must each be refused with an
/// `info string` naming the file, then the engine must still answer `isready` and play
/// a legal move at depth 1.
fn uci_case(kind: Kind, setoptions: &[&str], path: &str) -> Result<(), String> {
    let mut w = Session::start_keeping_stderr(&[]);
    w.send_ignoring_errors("uci");
    w.try_until(|l| l == "uciok", TIMEOUT)?;
    for s in setoptions {
        w.send_ignoring_errors(&s.replace("{}", path));
    }
    w.send_ignoring_errors("isready");
    let lines = w.try_until(|l| l == "readyok", TIMEOUT)?;
    let named = lines
        .iter()
        .any(|l| l.starts_with("info string") && l.contains(path));
    w.send_ignoring_errors(&format!("position fen {}", position_for(kind)));
    w.send_ignoring_errors("go depth 1");
    let best = w.try_until(|l| l.starts_with("bestmove"), TIMEOUT)?;
    w.send_ignoring_errors("isready");
    w.try_until(|l| l == "readyok", TIMEOUT)?;
    session_verdict(
        w,
        kind,
        &best,
        named.then_some(()).ok_or("info string"),
        path,
    )
}

/// The end of a UCI or xboard case: the move played (the last of `moved`, its second
/// word) is legal, nothing panicked, and a line of the kind `named` says named the file.
fn session_verdict(
    w: Session,
    kind: Kind,
    moved: &[String],
    named: Result<(), &str>,
    path: &str,
) -> Result<(), String> {
    let log = w.log.join("\n");
    let stderr = w.finish();
    check_move(kind, moved.last().unwrap().split_whitespace().nth(1), &log)?;
    check_quiet(&stderr)?;
    named.map_err(|line| format!("no {line} names {path}:\n{log}"))
}

/// An xboard session: the option is refused with an `Error` line naming the file, and
/// the engine still answers `ping` and moves.
fn xboard_case(kind: Kind, command: &str, path: &str) -> Result<(), String> {
    let mut w = Session::start_keeping_stderr(&["xboard"]);
    w.send_ignoring_errors("protover 2");
    w.try_until(|l| l.contains("done=1"), TIMEOUT)?;
    w.send_ignoring_errors(&command.replace("{}", path));
    w.send_ignoring_errors("ping 1");
    let lines = w.try_until(|l| l == "pong 1", TIMEOUT)?;
    let named = lines
        .iter()
        .any(|l| l.starts_with("Error") && l.contains(path));
    w.send_ignoring_errors("new");
    w.send_ignoring_errors("force");
    w.send_ignoring_errors(&format!("setboard {}", position_for(kind)));
    w.send_ignoring_errors("sd 1");
    w.send_ignoring_errors("go");
    let moved = w.try_until(|l| l.starts_with("move "), TIMEOUT)?;
    w.send_ignoring_errors("ping 2");
    w.try_until(|l| l == "pong 2", TIMEOUT)?;
    session_verdict(
        w,
        kind,
        &moved,
        named.then_some(()).ok_or("Error line"),
        path,
    )
}

/// A console session: the command gets an `error:` line naming the file (or, for a
/// file that reads as it stands, none), and the console still plays a move.
fn console_case(kind: Kind, command: &str, path: &str, may_read: bool) -> Result<(), String> {
    let script = format!(
        "{}\nsetup {}\ngo depth 1\nquit\n",
        command.replace("{}", path),
        position_for(kind)
    );
    let o = support::run_with_input(&["console"], &script, Some(TIMEOUT));
    let text = o.text();
    if o.timed_out {
        return Err(format!("hung:\n{text}"));
    }
    check_quiet(&text)?;
    if !text.contains("Sable plays") {
        return Err(format!("no move after the error:\n{text}"));
    }
    let named = text
        .lines()
        .any(|l| l.starts_with("error:") && l.contains(path));
    if !named && !may_read {
        return Err(format!("no error line names {path}:\n{text}"));
    }
    Ok(())
}

fn check_move(kind: Kind, mv: Option<&str>, log: &str) -> Result<(), String> {
    let pos =
        sable_chess::Position::from_fen(position_for(kind), sable_chess::CastlingMode::Standard)
            .unwrap();
    let legal = pos
        .legal_moves()
        .iter()
        .any(|m| Some(m.to_uci(false).to_string().as_str()) == mv);
    if legal {
        Ok(())
    } else {
        Err(format!("no legal move played ({mv:?}):\n{log}"))
    }
}

fn check_quiet(stderr: &str) -> Result<(), String> {
    if stderr.contains("panicked") {
        Err(format!("panicked:\n{stderr}"))
    } else {
        Ok(())
    }
}

/// Whether `text` says where in `path` the trouble is: `PATH:LINE`, or a line, byte,
/// entry, game or opening number.
fn names_place(text: &str, path: &str) -> bool {
    let after_path = text.split(path).skip(1).any(|rest| {
        rest.strip_prefix(':')
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    });
    after_path
        || ["line ", "byte ", "entry ", "game ", "opening "]
            .iter()
            .any(|w| text.contains(w))
}

/// A tool run on a bad input: what is wrong with its answer, if anything.
fn judge_tool(o: &Output, kind: Kind, bad: Bad, cut: Cut, path: &str) -> Result<(), String> {
    let text = &o.text();
    if o.timed_out {
        return Err(format!("still running after {TIMEOUT:?}:\n{text}"));
    }
    check_quiet(text)?;
    if o.code.is_none() {
        return Err(format!("killed by a signal:\n{text}"));
    }
    let may_succeed = bad == Bad::Cut && cut != Cut::Fails;
    if o.ok() && !may_succeed {
        return Err(format!("exit status 0:\n{text}"));
    }
    if o.ok() && cut == Cut::Reads {
        return Ok(());
    }
    if !text.contains(path) {
        return Err(format!("the message does not name {path}:\n{text}"));
    }
    if bad == Bad::Cut && kind.has_places() && !names_place(text, path) {
        return Err(format!("the message does not say where in {path}:\n{text}"));
    }
    Ok(())
}

/// How a case is run.
enum Runner {
    /// A tool: its arguments, `{}` standing for the bad path.
    Tool(Vec<String>),
    /// UCI `setoption` lines, `{}` for the bad path.
    Uci(Vec<&'static str>),
    /// One xboard command, `{}` for the bad path.
    Xboard(&'static str),
    /// One console command, `{}` for the bad path.
    Console(&'static str),
}

struct Case {
    label: String,
    kind: Kind,
    cut: Cut,
    runner: Runner,
}

/// `sable match` between two Sable processes at depth 1 from the openings of the bad file.
fn match_openings(label: &str, kind: Kind, format: &str, engine: &str) -> Case {
    tool(
        label,
        kind,
        Cut::Fails,
        &[
            "match",
            "-engine",
            engine,
            "name=a",
            "-engine",
            engine,
            "name=b",
            "-each",
            "depth=1",
            "-openings",
            "file={}",
            format,
            "-games",
            "2",
            "-noprogress",
        ],
    )
}

fn tool(label: &str, kind: Kind, cut: Cut, args: &[&str]) -> Case {
    Case {
        label: label.to_string(),
        kind,
        cut,
        runner: Runner::Tool(args.iter().map(|s| s.to_string()).collect()),
    }
}

/// Every reader × every bad input; all failures are listed together.
#[test]
fn every_reader_refuses_every_bad_file_clearly() {
    #[cfg(target_os = "linux")]
    assert!(
        std::fs::read("/proc/self/mem").is_err(),
        "/proc/self/mem is expected to open but fail to read"
    );
    let files = Files::new();
    let games = sable_testdata::path("pgn/python-chess/molinari-bordais-1979.pgn")
        .display()
        .to_string();
    let epd_engine = SABLE.to_string();
    let sable_engine = format!("cmd={SABLE}");
    let kbnk = position_for(Kind::Tables);
    use Cut::{Fails, Reads, Warns};
    use Kind::*;
    let cases = vec![
        // PGN.
        tool("pgn", Pgn, Fails, &["pgn", "{}"]),
        tool("pgn --validate", Pgn, Fails, &["pgn", "{}", "--validate"]),
        tool(
            "pgn --stats --lenient --to-epd",
            Pgn,
            Fails,
            &["pgn", "{}", "--stats", "--lenient", "--to-epd", "{out}"],
        ),
        tool(
            "perft --suite",
            Suite,
            Fails,
            &["perft", "1", "--suite", "{}"],
        ),
        tool("tune", Tune, Fails, &["tune", "{}", "--epochs", "1"]),
        tool(
            "eval --bench",
            EpdBook,
            Fails,
            &["eval", "--bench", "{}", "--passes", "1"],
        ),
        // Self-play data.
        tool(
            "datagen --book (EPD)",
            EpdBook,
            Fails,
            &[
                "datagen",
                "{out}.bin",
                "--book",
                "{}",
                "--games",
                "1",
                "--nodes",
                "300",
            ],
        ),
        tool(
            "datagen --book (PGN)",
            PgnBook,
            Fails,
            &[
                "datagen",
                "{out}.bin",
                "--book",
                "{}",
                "--games",
                "1",
                "--nodes",
                "300",
            ],
        ),
        tool("data stats", Records, Warns, &["data", "stats", "{}"]),
        tool("data validate", Records, Fails, &["data", "validate", "{}"]),
        tool(
            "data to-text",
            Records,
            Warns,
            &["data", "to-text", "{}", "-o", "{out}"],
        ),
        tool(
            "data cat",
            Records,
            Warns,
            &["data", "cat", "{}", "-o", "{out}"],
        ),
        tool(
            "train",
            Records,
            Warns,
            &[
                "train",
                "{}",
                "--epochs",
                "1",
                "--hidden",
                "16",
                "--out-dir",
                "{out}",
            ],
        ),
        // Nets.
        tool(
            "nnue compare --net",
            Net,
            Fails,
            &["nnue", "compare", "--net", "{}"],
        ),
        tool(
            "nnue rescale --net",
            Net,
            Fails,
            &[
                "nnue",
                "rescale",
                "--net",
                "{}",
                "--output-scale",
                "350",
                "--out",
                "{out}",
            ],
        ),
        tool(
            "eval --eval-file",
            Net,
            Fails,
            &["eval", "--eval-file", "{}"],
        ),
        // Books.
        tool("book probe", Polyglot, Fails, &["book", "probe", "{}"]),
        tool("book stats", Polyglot, Fails, &["book", "stats", "{}"]),
        tool(
            "book merge",
            Polyglot,
            Fails,
            &["book", "merge", "{}", "{good-book}", "-o", "{out}"],
        ),
        tool(
            "book learn (book)",
            Polyglot,
            Fails,
            &["book", "learn", "{}", &games],
        ),
        tool(
            "book learn (games)",
            Pgn,
            Reads,
            &["book", "learn", "{good-book}", "{}"],
        ),
        tool(
            "book build",
            Pgn,
            Reads,
            &[
                "book",
                "build",
                "{}",
                "-o",
                "{out}",
                "--min-game",
                "1",
                "-q",
            ],
        ),
        // Tables.
        tool(
            "tb probe --path",
            Tables,
            Fails,
            &["tb", "probe", "--path", "{}", "--fen", kbnk],
        ),
        tool(
            "tb speed --path",
            Tables,
            Fails,
            &["tb", "speed", "--path", "{}", "--positions", "1000"],
        ),
        // The engine's options.
        Case {
            label: "uci BookFile".into(),
            kind: Polyglot,
            cut: Fails,
            runner: Runner::Uci(vec![
                "setoption name OwnBook value true",
                "setoption name BookFile value {}",
            ]),
        },
        Case {
            label: "uci EvalFile".into(),
            kind: Net,
            cut: Fails,
            runner: Runner::Uci(vec![
                "setoption name EvalFile value {}",
                "setoption name UseNNUE value true",
            ]),
        },
        Case {
            label: "uci SyzygyPath".into(),
            kind: Tables,
            cut: Fails,
            runner: Runner::Uci(vec!["setoption name SyzygyPath value {}"]),
        },
        Case {
            label: "xboard BookFile".into(),
            kind: Polyglot,
            cut: Fails,
            runner: Runner::Xboard("option BookFile={}"),
        },
        Case {
            label: "xboard EvalFile".into(),
            kind: Net,
            cut: Fails,
            runner: Runner::Xboard("option EvalFile={}"),
        },
        Case {
            label: "xboard egtpath".into(),
            kind: Tables,
            cut: Fails,
            runner: Runner::Xboard("egtpath syzygy {}"),
        },
        Case {
            label: "console load (PGN)".into(),
            kind: Pgn,
            // The console loads the first game, which a cut in the middle leaves whole.
            cut: Reads,
            runner: Runner::Console("load {}"),
        },
        Case {
            label: "console load (EPD)".into(),
            kind: EpdBook,
            cut: Reads,
            runner: Runner::Console("load {}"),
        },
        Case {
            label: "console book".into(),
            kind: Polyglot,
            cut: Fails,
            runner: Runner::Console("book {}"),
        },
        Case {
            label: "console set evalfile".into(),
            kind: Net,
            cut: Fails,
            runner: Runner::Console("set evalfile {}"),
        },
        Case {
            label: "console set syzygypath".into(),
            kind: Tables,
            cut: Fails,
            runner: Runner::Console("set syzygypath {}"),
        },
        // The match runner's commands (crates/arena) and the analysis tool.
        tool(
            "epd",
            Tactics,
            Fails,
            &["epd", "{}", "--engine", &epd_engine, "--depth", "1"],
        ),
        match_openings(
            "match -openings (EPD)",
            EpdBook,
            "format=epd",
            &sable_engine,
        ),
        match_openings(
            "match -openings (PGN)",
            PgnBook,
            "format=pgn",
            &sable_engine,
        ),
        tool(
            "match -engine book=",
            Polyglot,
            Fails,
            &[
                "match",
                "-engine",
                &sable_engine,
                "name=a",
                "book={}",
                "-engine",
                &sable_engine,
                "name=b",
                "-each",
                "depth=1",
                "-games",
                "2",
                "-noprogress",
            ],
        ),
        tool(
            "analyse",
            Pgn,
            Fails,
            &["analyse", "{}", "--depth", "1", "-o", "{out}"],
        ),
    ];

    let mut failures = Vec::new();
    let mut ran = 0;
    for case in &cases {
        for bad in Bad::all() {
            let path = files.bad(case.kind, bad);
            let id = format!("{} on {}", case.label, bad.name());
            let out = files.out(&format!("out-{ran}"));
            ran += 1;
            let result = match &case.runner {
                Runner::Tool(args) => {
                    let good_book = files.out(&format!("good-{ran}.bin"));
                    std::fs::copy(sable_testdata::path("polyglot/lasker-trap.bin"), &good_book)
                        .unwrap();
                    let args: Vec<String> = args
                        .iter()
                        .map(|a| {
                            a.replace("{}", &path)
                                .replace("{out}", &out)
                                .replace("{good-book}", &good_book)
                        })
                        .collect();
                    let args: Vec<&str> = args.iter().map(String::as_str).collect();
                    let o = run(&args);
                    judge_tool(&o, case.kind, bad, case.cut, &path)
                        .map_err(|e| format!("sable {}: {e}", args.join(" ")))
                }
                Runner::Uci(lines) => uci_case(case.kind, lines, &path),
                Runner::Xboard(command) => xboard_case(case.kind, command, &path),
                Runner::Console(command) => {
                    let may_read = bad == Bad::Cut && case.cut == Reads;
                    console_case(case.kind, command, &path, may_read)
                }
            };
            if let Err(e) = result {
                failures.push(format!("{id}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} cases fail:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
