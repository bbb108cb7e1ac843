//! The UCI command processor: reads commands from standard input, drives the
//! protocol-neutral [`sable_engine::Engine`] and writes the engine's reports in UCI
//! form. Commands are handled one by one on the reading thread while the search runs on
//! its own, so `stop` and `isready` are answered during a search. Bad input is answered
//! with `info string` and changes nothing.

mod command;
mod format;

use command::{parse_go, parse_position, parse_setoption, GoCommand};
use sable_engine::{Engine, EngineError};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// The output side: whole lines, flushed at once, from either thread.
#[derive(Clone)]
pub struct Wire {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Wire {
    pub fn stdout() -> Wire {
        Wire::new(std::io::stdout())
    }

    /// A wire to any writer (the fuzz targets and tests read what the engine says).
    pub fn new(out: impl Write + Send + 'static) -> Wire {
        Wire {
            out: Arc::new(Mutex::new(Box::new(out))),
        }
    }

    /// Writes one line (never with trailing spaces).
    pub fn send(&self, line: &str) {
        let line = line.trim_end();
        let mut out = match self.out.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        // A closed pipe means the GUI is gone; there is no one left to tell.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    pub fn info_string(&self, text: &str) {
        // One line per message: a newline inside would break the protocol.
        let text = text.replace(['\n', '\r'], " ");
        self.send(&format!("info string {text}"));
    }
}

/// The UCI session state beyond the engine's own.
pub struct Uci {
    engine: Engine,
    wire: Wire,
}

impl Uci {
    pub fn new(wire: Wire) -> Uci {
        Uci {
            engine: Engine::new(),
            wire,
        }
    }

    /// Reads and executes commands until `quit` or the end of input.
    pub fn run(&mut self, input: impl BufRead) {
        for line in input.lines() {
            let line = match line {
                Ok(line) => line,
                // A GUI sends ASCII, so such a line cannot be a command; the next may be.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    self.wire
                        .info_string("input is not valid UTF-8; line ignored");
                    continue;
                }
                // Any other read error will repeat on every read: it ends the input.
                Err(e) => {
                    self.wire
                        .info_string(&format!("cannot read input ({e}); stopping"));
                    break;
                }
            };
            if !self.execute(&line) {
                break;
            }
        }
        self.engine.stop();
        self.engine.wait();
    }

    /// Executes one command line; `false` means quit.
    pub fn execute(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return true;
        };
        match cmd {
            "uci" => self.uci(),
            "isready" => self.wire.send("readyok"),
            "ucinewgame" => {
                if !self.engine.is_searching() {
                    self.learn_own_game();
                }
                if let Err(e) = self.engine.new_game() {
                    self.refuse("ucinewgame", e);
                }
            }
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => {
                self.engine.stop();
                self.engine.wait();
            }
            "ponderhit" => self.engine.ponderhit(),
            "setoption" => self.setoption(args),
            "quit" => {
                self.engine.stop();
                self.engine.wait();
                self.learn_own_game();
                return false;
            }
            "debug" | "register" => {}
            // OpenBench's opening generator and its bench, as commands (see `genfens`).
            "genfens" => self.genfens(args),
            "bench" => self.bench(args),
            "d" => {
                let fen = self.engine.position().fen();
                self.wire.info_string(&format!("fen {fen}"));
            }
            _ => self
                .wire
                .info_string(&format!("unknown command '{cmd}' (line ignored)")),
        }
        true
    }

    /// With `BookLearning` on, the book learns from the game that just ended (at
    /// `ucinewgame` or `quit`: UCI never tells the result, so the engine infers it; see
    /// `Engine::inferred_result`).
    fn learn_own_game(&mut self) {
        let played = !self.engine.moves().is_empty();
        match self.engine.learn_from_own_game() {
            Ok(Some((result, n))) => self
                .wire
                .info_string(&format!("book learned from {result}: {n} entries")),
            Ok(None) => {
                if played && self.engine.learns_from_games() {
                    self.wire.info_string(
                        "book learning: the game's result is unknown (no end by the rules on \
                         the board, and the last searches were not decisive); nothing learned",
                    );
                }
            }
            Err(e) => self.wire.info_string(&format!("book learning failed: {e}")),
        }
    }

    /// `genfens N seed S book <None|FILE>`: each opening as `info string genfens FEN`;
    /// a malformed command or unreadable book as `info string error: genfens: ...`.
    fn genfens(&mut self, args: &[&str]) {
        if self.engine.is_searching() {
            return self.wire.info_string("error: genfens: a search is running");
        }
        let request = match crate::genfens::parse(args) {
            Ok(r) => r,
            Err(e) => return self.wire.info_string(&format!("error: {e}")),
        };
        if !request.extra.is_empty() {
            let extra = request.extra.join(" ");
            self.wire
                .info_string(&format!("genfens: extra arguments '{extra}' ignored"));
        }
        let (wire, notes) = (self.wire.clone(), self.wire.clone());
        let result = crate::genfens::generate(
            &request,
            |fen| wire.info_string(&format!("genfens {fen}")),
            |note| notes.info_string(&format!("error: {note}")),
        );
        if let Err(e) = result {
            self.wire.info_string(&format!("error: {e}"));
        }
    }

    /// `bench [DEPTH]`: `sable bench`'s search, its `N nodes M nps` line last; with a
    /// fresh engine, so the session's options do not change the count.
    fn bench(&mut self, args: &[&str]) {
        use sable_engine::bench;
        let depth = match args.first() {
            None => bench::DEFAULT_DEPTH,
            Some(d) => match d.parse::<u32>() {
                Ok(d) if (1..=64).contains(&d) => d,
                _ => {
                    return self
                        .wire
                        .info_string(&format!("error: bench: DEPTH must be 1 to 64, got '{d}'"))
                }
            },
        };
        let result = bench::run(depth, |_, _| {});
        self.wire
            .send(&format!("{} nodes {} nps", result.nodes, result.nps()));
    }

    fn refuse(&self, what: &str, e: EngineError) {
        self.wire.info_string(&format!("{what} refused: {e}"));
    }

    fn uci(&self) {
        let w = &self.wire;
        w.send(&format!("id name Sable {}", env!("CARGO_PKG_VERSION")));
        w.send("id author the Sable developers");
        for line in format::option_lines() {
            w.send(&line);
        }
        w.send("uciok");
    }

    fn position(&mut self, args: &[&str]) {
        let cmd = match parse_position(args) {
            Ok(c) => c,
            Err(e) => return self.wire.info_string(&format!("position: {e}")),
        };
        let fen = cmd.fen.as_deref();
        if let Err(e) = self.engine.set_position(fen, &cmd.moves) {
            self.wire
                .info_string(&format!("position: {e}; previous position kept"));
        }
    }

    fn go(&mut self, args: &[&str]) {
        let cmd = match parse_go(args, self.engine.position()) {
            Ok(c) => c,
            Err(e) => return self.wire.info_string(&format!("go: {e}")),
        };
        match cmd {
            GoCommand::Perft(depth) => self.perft(depth),
            GoCommand::Search(limits, notes) => {
                for n in notes {
                    self.wire.info_string(&n);
                }
                let wire = self.wire.clone();
                let chess960 = self.engine.position().is_chess960();
                let show_wdl = self.engine.options().show_wdl;
                let result = self.engine.go(limits, move |event| {
                    for line in format::event_lines(&event, chess960, show_wdl) {
                        wire.send(&line);
                    }
                });
                if let Err(e) = result {
                    self.refuse("go", e);
                }
            }
        }
    }

    /// `go perft N`: counted on the engine's thread, so `stop`, `isready` and `quit` are
    /// answered meanwhile; a stopped count ends with what it had counted, said so.
    fn perft(&mut self, depth: u32) {
        let chess960 = self.engine.position().is_chess960();
        let (wire, done_wire) = (self.wire.clone(), self.wire.clone());
        let result = self.engine.go_perft(
            depth,
            move |m, n| wire.send(&format!("{}: {n}", m.to_uci(chess960))),
            move |total, finished| {
                if !finished {
                    done_wire.info_string("perft stopped; the count below is partial");
                }
                done_wire.send("");
                done_wire.send(&format!("Nodes searched: {total}"));
                done_wire.send("");
            },
        );
        if let Err(e) = result {
            self.refuse("go perft", e);
        }
    }

    fn setoption(&mut self, args: &[&str]) {
        let (name, value) = match parse_setoption(args) {
            Ok(nv) => nv,
            Err(e) => return self.wire.info_string(&format!("setoption: {e}")),
        };
        match format::apply_option(&mut self.engine, &name, value.as_deref()) {
            Ok(lines) => lines.iter().for_each(|l| self.wire.info_string(l)),
            Err(e) => self.wire.info_string(&format!("error: {e}")),
        }
    }
}

/// Runs each argument as a UCI command line, in order, then stops (as after `quit`),
/// without reading standard input: OpenBench's `ENGINE "genfens 8 seed 1 book None"
/// "quit"`, and Stockfish-style `sable "bench 8" quit`.
pub fn run_args(commands: &[String]) {
    let mut uci = Uci::new(Wire::stdout());
    for line in commands {
        if !uci.execute(line) {
            break;
        }
    }
    uci.engine.stop();
    uci.engine.wait();
}

/// Whether a command line's arguments are UCI commands rather than a subcommand: a
/// first word with a space in it (no subcommand has one), a first word that is a UCI command and no subcommand, or a
/// last word `quit`.
pub fn arguments_are_commands(args: &[String]) -> bool {
    const UCI_ONLY: [&str; 8] = [
        "genfens",
        "isready",
        "position",
        "go",
        "setoption",
        "ucinewgame",
        "quit",
        "d",
    ];
    let Some(first) = args.first() else {
        return false;
    };
    first.trim().contains(' ')
        || UCI_ONLY.contains(&first.as_str())
        || (args.len() > 1 && args.last().is_some_and(|a| a.trim() == "quit"))
}

/// Runs the UCI loop on standard input and output.
pub fn run() {
    let mut uci = Uci::new(Wire::stdout());
    let stdin = std::io::stdin();
    uci.run(stdin.lock());
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{self, Read};
    use std::sync::{Arc, Mutex};

    /// A reader that fails every read, as a closed or broken descriptor does.
    struct Broken(u32);

    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            self.0 += 1;
            Err(io::Error::other("broken pipe"))
        }
    }

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A persistent read error ends the session with a message instead of looping for
    /// ever; a line that is not UTF-8 is skipped and the next command still runs.
    #[test]
    fn read_errors_end_the_input_and_bad_utf8_is_skipped() {
        let out = Shared::default();
        let mut uci = Uci::new(Wire::new(out.clone()));
        uci.run(io::BufReader::new(Broken(0)));
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert!(
            text.contains("cannot read input (broken pipe); stopping"),
            "{text}"
        );

        let out = Shared::default();
        let mut uci = Uci::new(Wire::new(out.clone()));
        uci.run(&b"\xff\xfe\nisready\n"[..]);
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert!(
            text.contains("input is not valid UTF-8; line ignored"),
            "{text}"
        );
        assert!(text.contains("readyok"), "{text}");
    }
}
