//! The interactive console: a person plays and studies positions with Sable from a
//! terminal. Commands come from one table (which `help` prints), lines are edited with
//! rustyline (history included); a bare move in SAN or UCI is played. The game state is
//! the shared [`Session`], so rules and search are those of the protocols. Every error
//! is one line and the session goes on.

use crate::notation::{outcome_text, parse_any_move, parse_seconds};
use crate::session::Session;
use sable_chess::{CastlingMode, Color, Move, Position, Square};
use sable_engine::eval::{Evaluator, Term};
use sable_engine::{BookMode, ScoreReport, SearchEvent, SearchLimits};
use sable_formats::pgn::{write_moves, GameResult, PgnReader, Tags};
use std::io::{BufRead, Write};
use std::sync::mpsc;

/// A command: its name, its arguments and what it does (one line for `help`).
struct Command {
    name: &'static str,
    args: &'static str,
    help: &'static str,
}

const COMMANDS: &[Command] = &[
    Command {
        name: "help",
        args: "",
        help: "list the commands",
    },
    Command {
        name: "board",
        args: "[ascii|unicode]",
        help: "show the board (last move in brackets, check noted)",
    },
    Command {
        name: "flip",
        args: "",
        help: "turn the board around (show it from the other side)",
    },
    Command {
        name: "fen",
        args: "",
        help: "show the position as FEN",
    },
    Command {
        name: "pgn",
        args: "",
        help: "show the game as PGN",
    },
    Command {
        name: "moves",
        args: "",
        help: "list the legal moves in SAN",
    },
    Command {
        name: "move",
        args: "MOVE",
        help: "play a move in SAN or UCI (a bare move works too)",
    },
    Command {
        name: "new",
        args: "",
        help: "start a new game",
    },
    Command {
        name: "setup",
        args: "FEN",
        help: "set up a position from a FEN (or EPD)",
    },
    Command {
        name: "load",
        args: "FILE",
        help: "load a game or position (.pgn, .fen, .epd)",
    },
    Command {
        name: "save",
        args: "FILE",
        help: "save the game (.pgn) or position (.fen, .epd)",
    },
    Command {
        name: "undo",
        args: "",
        help: "take back the last move",
    },
    Command {
        name: "redo",
        args: "",
        help: "play again the move taken back",
    },
    Command {
        name: "perft",
        args: "DEPTH",
        help: "count the leaf nodes of the legal move tree",
    },
    Command {
        name: "divide",
        args: "DEPTH",
        help: "perft per root move",
    },
    Command {
        name: "go",
        args: "[depth N] [time SECONDS]",
        help: "the engine plays a move (default 2 seconds)",
    },
    Command {
        name: "analyze",
        args: "",
        help: "analyse with a live PV until Enter is pressed",
    },
    Command {
        name: "eval",
        args: "",
        help: "the static evaluation term by term",
    },
    Command {
        name: "hint",
        args: "",
        help: "suggest a move (short search)",
    },
    Command {
        name: "book",
        args: "[FILE|on|off|best|weighted]",
        help: "show the book moves here; load a Polyglot book (and use it), switch it on or off, pick the heaviest or a weighted move",
    },
    Command {
        name: "tb",
        args: "[DIR]",
        help: "the Syzygy tables' verdict here and on every move; with DIR, use the tables there (SyzygyPath)",
    },
    Command {
        name: "set",
        args: "[NAME VALUE]",
        help: "show the options, or set one (hash, threads, multipv, chess960, ascii, usennue, evalfile, syzygypath, syzygyprobedepth, syzygy50moverule, syzygyprobelimit, limitstrength, elo, skill, seed)",
    },
    Command {
        name: "exit",
        args: "",
        help: "leave the console (also quit, or end of input)",
    },
];

/// The console state.
pub struct Console {
    session: Session,
    ascii: bool,
    flipped: bool,
    /// Output goes here (standard output in the real thing).
    out: Box<dyn Write>,
}

fn symbol(c: char, ascii: bool) -> char {
    match sable_chess::Piece::from_char(c) {
        Some(p) if !ascii => p.symbol(),
        _ => c,
    }
}

impl Console {
    pub fn new(out: Box<dyn Write>) -> Console {
        Console {
            session: Session::default(),
            ascii: false,
            flipped: false,
            out,
        }
    }

    fn say(&mut self, text: &str) {
        for line in text.lines() {
            let _ = writeln!(self.out, "{}", line.trim_end());
        }
        let _ = self.out.flush();
    }

    fn err(&mut self, text: impl std::fmt::Display) {
        self.say(&format!("error: {text}"));
    }

    /// Executes one line; `false` means leave. `next_line` supplies the line that ends
    /// a live analysis.
    pub fn execute(&mut self, line: &str, next_line: &mut dyn FnMut() -> Option<String>) -> bool {
        let line = line.trim();
        let Some(cmd) = line.split_whitespace().next() else {
            return true;
        };
        let rest = line[cmd.len()..].trim();
        let args: Vec<&str> = rest.split_whitespace().collect();
        match cmd {
            "help" | "?" => self.help(),
            "board" | "d" => {
                match args.first() {
                    Some(&"ascii") => self.ascii = true,
                    Some(&"unicode") => self.ascii = false,
                    Some(other) => {
                        return self.bad(format!("board: '{other}' is neither ascii nor unicode"))
                    }
                    None => {}
                }
                self.board();
            }
            "flip" => {
                self.flipped = !self.flipped;
                self.board();
            }
            "fen" => {
                let fen = self.session.position().fen();
                self.say(&fen);
            }
            "pgn" => {
                let text = self.pgn();
                self.say(&text);
            }
            "moves" => self.moves(),
            "move" => match args.first() {
                Some(m) => self.play(m),
                None => self.err("move: which move?"),
            },
            "new" => {
                match self.session.new_game() {
                    Ok(()) => self.session.observe(),
                    Err(e) => self.err(e),
                }
                self.board();
            }
            "setup" | "position" => self.setup(rest),
            "load" => self.load(rest),
            "save" => self.save(rest),
            "undo" => {
                if self.session.take_back(1) == 0 {
                    self.err("undo: no move to take back");
                } else {
                    self.board();
                }
            }
            "redo" => match self.session.redo() {
                Ok(Some(_)) => self.board(),
                Ok(None) => self.err("redo: no move to replay"),
                Err(e) => self.err(e),
            },
            "perft" | "divide" => self.perft(cmd == "divide", &args),
            "go" => self.go(&args),
            "analyze" | "analyse" => self.analyse(next_line),
            "eval" => self.eval(),
            "hint" => self.hint(),
            "set" => self.set(&args),
            "book" => self.book(rest),
            "tb" => self.tablebase(rest),
            "exit" | "quit" => return false,
            _ => {
                let pos = self.session.position();
                match parse_any_move(&pos, cmd) {
                    Ok(_) if args.is_empty() => self.play(cmd),
                    _ => self.err(format!(
                        "unknown command or illegal move '{cmd}' (try help)"
                    )),
                }
            }
        }
        true
    }

    fn bad(&mut self, text: String) -> bool {
        self.err(text);
        true
    }

    fn help(&mut self) {
        let mut s = String::new();
        for c in COMMANDS {
            let head = format!("{} {}", c.name, c.args);
            s.push_str(&format!("  {:<34} {}\n", head.trim_end(), c.help));
        }
        self.say(&s);
    }

    fn board(&mut self) {
        let pos = self.session.position();
        let last = self.session.moves().last().copied();
        let marked = |sq: Square| {
            last.is_some_and(|m| {
                let to = if m.is_castle() {
                    m.castle_king_to()
                } else {
                    m.to()
                };
                sq == m.from() || sq == to
            })
        };
        let mut s = String::new();
        let ranks: Vec<usize> = if self.flipped {
            (0..8).collect()
        } else {
            (0..8).rev().collect()
        };
        let files: Vec<usize> = if self.flipped {
            (0..8).rev().collect()
        } else {
            (0..8).collect()
        };
        for &r in &ranks {
            s.push_str(&format!("{} ", r + 1));
            for &f in &files {
                let sq = Square::from_index(r * 8 + f);
                let c = match pos.piece_at(sq) {
                    Some(p) => symbol(p.char(), self.ascii),
                    None => '.',
                };
                if marked(sq) {
                    s.push_str(&format!("[{c}]"));
                } else {
                    s.push_str(&format!(" {c} "));
                }
            }
            s.push('\n');
        }
        s.push_str("  ");
        for &f in &files {
            s.push_str(&format!(" {} ", (b'a' + f as u8) as char));
        }
        s.push('\n');
        let side = if pos.turn() == Color::White {
            "White"
        } else {
            "Black"
        };
        s.push_str(&format!("{side} to move"));
        if let (Some(m), Some(before)) = (last, self.before_last()) {
            s.push_str(&format!(", last move {}", before.san(m)));
        }
        if pos.in_check() {
            s.push_str(", check");
        }
        s.push('\n');
        if let Some(o) = self.session.outcome() {
            let (result, reason) = outcome_text(o);
            s.push_str(&format!("Game over: {result} {{{reason}}}\n"));
        }
        self.say(&s);
    }

    fn before_last(&self) -> Option<Position> {
        let moves = self.session.moves();
        let (_, rest) = moves.split_last()?;
        let mut pos = self.session.start_position();
        for &m in rest {
            pos.make(m);
        }
        Some(pos)
    }

    fn pgn(&self) -> String {
        let mut tags = Tags::new();
        tags.set("Event", "Sable console game");
        let start = self.session.start_position();
        if start.fen() != Position::startpos().fen() {
            tags.set("SetUp", "1");
            tags.set("FEN", &start.fen());
        }
        let result = match self.session.outcome() {
            Some(o) => GameResult::from(o),
            None => GameResult::Unknown,
        };
        write_moves(&tags, &start, self.session.moves(), result)
    }

    fn moves(&mut self) {
        let pos = self.session.position();
        let mut sans: Vec<String> = pos.legal_moves().iter().map(|&m| pos.san(m)).collect();
        sans.sort();
        let text = format!("{} legal moves: {}", sans.len(), sans.join(" "));
        self.say(&text);
    }

    fn play(&mut self, text: &str) {
        let pos = self.session.position();
        match parse_any_move(&pos, text) {
            Ok(m) => match self.session.play(m) {
                Ok(()) => self.board(),
                Err(e) => self.err(e),
            },
            Err(e) => self.err(format!("illegal move '{text}': {e}")),
        }
    }

    fn setup(&mut self, fen: &str) {
        if fen.is_empty() {
            return self.err("setup: give a FEN");
        }
        let fen = fen_of(fen);
        match self.session.set_fen(&fen) {
            Ok(()) => self.board(),
            Err(e) => self.err(format!("setup: {e}; position unchanged")),
        }
    }

    fn load(&mut self, path: &str) {
        if path.is_empty() {
            return self.err("load: give a file name");
        }
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return self.err(format!("load {path}: {e}")),
        };
        if path.ends_with(".pgn") {
            let mut reader = PgnReader::new(text.as_bytes());
            let tree = match reader.read_tree() {
                Some(Ok(t)) => t,
                Some(Err(e)) => return self.err(format!("load {path}: {e}")),
                None => return self.err(format!("load {path}: no game in the file")),
            };
            let keep_fen = self.session.position().fen();
            let keep_moves: Vec<Move> = self.session.moves().to_vec();
            let keep_start = self.session.start_position().fen();
            let result = self.session.set_fen(&tree.start.fen()).and_then(|()| {
                tree.mainline()
                    .into_iter()
                    .try_for_each(|m| self.session.play(m))
            });
            if let Err(e) = result {
                // Put the previous game back.
                let _ = self.session.set_fen(&keep_start);
                for m in keep_moves {
                    let _ = self.session.play(m);
                }
                debug_assert_eq!(self.session.position().fen(), keep_fen);
                return self.err(format!("load {path}: {e}"));
            }
            self.board();
        } else {
            let Some(line) = text.lines().find(|l| !l.trim().is_empty()) else {
                return self.err(format!("load {path}: no position in the file"));
            };
            match self.session.set_fen(&fen_of(line)) {
                Ok(()) => self.board(),
                Err(e) => self.err(format!("load {path}: {e}; position unchanged")),
            }
        }
    }

    fn save(&mut self, path: &str) {
        if path.is_empty() {
            return self.err("save: give a file name");
        }
        let pos = self.session.position();
        let text = if path.ends_with(".fen") {
            format!("{}\n", pos.fen())
        } else if path.ends_with(".epd") {
            format!("{}\n", pos.epd())
        } else {
            self.pgn()
        };
        match std::fs::write(path, text) {
            Ok(()) => self.say(&format!("saved {path}")),
            Err(e) => self.err(format!("save {path}: {e}")),
        }
    }

    fn perft(&mut self, divide: bool, args: &[&str]) {
        let Some(depth) = args.first().and_then(|a| a.parse::<u32>().ok()) else {
            return self.err("perft: give a depth (a whole number)");
        };
        if depth > 8 {
            return self.err("perft: depth at most 8 here (use sable perft for more)");
        }
        let pos = self.session.position();
        let start = std::time::Instant::now();
        let total = if divide {
            let mut total = 0;
            let mut lines = String::new();
            for (m, n) in sable_chess::divide(&pos, depth) {
                lines.push_str(&format!("{} {n}\n", pos.san(m)));
                total += n;
            }
            self.say(&lines);
            total
        } else {
            sable_chess::perft(&pos, depth)
        };
        let ms = start.elapsed().as_millis();
        self.say(&format!("perft {depth}: {total} nodes ({ms} ms)"));
    }

    fn go(&mut self, args: &[&str]) {
        let mut limits = SearchLimits::default();
        let mut i = 0;
        while i < args.len() {
            let value = args.get(i + 1).copied().unwrap_or("");
            match args[i] {
                "depth" => match value.parse::<u32>() {
                    Ok(d) if d > 0 => limits.depth = Some(d),
                    _ => return self.err(format!("go: bad depth '{value}'")),
                },
                "time" => match parse_seconds(value) {
                    Ok(ms) => limits.movetime_ms = Some(ms.max(1)),
                    Err(e) => return self.err(format!("go: {e}")),
                },
                other => return self.err(format!("go: unknown parameter '{other}'")),
            }
            i += 2;
        }
        if limits.depth.is_none() && limits.movetime_ms.is_none() {
            limits.movetime_ms = Some(2000);
        }
        if let Some(o) = self.session.outcome() {
            let (result, reason) = outcome_text(o);
            return self.err(format!("the game is over: {result} {{{reason}}}"));
        }
        let pos = self.session.position();
        let (tx, rx) = mpsc::channel();
        if let Err(e) = self.session.think_with(limits, move |_, e| {
            let _ = tx.send(e);
        }) {
            return self.err(e);
        }
        let mut best = None;
        for e in rx {
            match e {
                SearchEvent::Info(info) if info.multipv == 1 => {
                    let line = info_line(&pos, &info);
                    self.say(&line);
                }
                SearchEvent::Note(text) if text.starts_with("book move") => {
                    self.say(&text);
                }
                SearchEvent::Finished(r) => {
                    best = r.best;
                    break;
                }
                _ => {}
            }
        }
        self.session.finished();
        self.session.observe();
        match best {
            Some(m) => {
                self.say(&format!("Sable plays {}", pos.san(m)));
                if let Err(e) = self.session.play(m) {
                    self.err(e);
                }
                self.board();
            }
            None => self.err("no legal move"),
        }
    }

    fn analyse(&mut self, next_line: &mut dyn FnMut() -> Option<String>) {
        let pos = self.session.position();
        let (tx, rx) = mpsc::channel();
        if let Err(e) = self.session.analyse(move |_, e| {
            let _ = tx.send(e);
        }) {
            return self.err(e);
        }
        self.say("analysing; press Enter to stop");
        // Printing happens on a helper thread while this one waits for the key.
        let printer = std::thread::spawn(move || {
            let mut last = None;
            for e in rx {
                match e {
                    SearchEvent::Info(info) if info.multipv == 1 => {
                        println!("{}", info_line(&pos, &info));
                        last = info.pv.first().map(|&m| pos.san(m));
                    }
                    SearchEvent::Finished(r) => {
                        // Stopped at once, the search may not have finished one iteration.
                        if last.is_none() {
                            last = r.best.map(|m| pos.san(m));
                        }
                        break;
                    }
                    _ => {}
                }
            }
            last
        });
        let _ = next_line();
        self.session.stop_analysing();
        match printer.join() {
            Ok(Some(best)) => self.say(&format!("best move {best}")),
            _ => self.say("no move found"),
        }
    }

    fn eval(&mut self) {
        let pos = self.session.position();
        let report = Evaluator::new().report(&pos);
        let mut s = format!(
            "{:<15} {:>12} {:>12}\n",
            "term", "White mg/eg", "Black mg/eg"
        );
        for term in Term::ALL {
            let [w, b] = report.terms[term as usize];
            s.push_str(&format!(
                "{:<15} {:>5} {:>6} {:>5} {:>6}\n",
                term.name(),
                w.mg(),
                w.eg(),
                b.mg(),
                b.eg()
            ));
        }
        s.push_str(&format!(
            "phase {}, scale {}, total {:+} cp for White",
            report.phase, report.scale, report.white
        ));
        if let Some(eg) = report.endgame {
            s.push_str(&format!(" (endgame rule {:?})", eg.kind));
        }
        self.say(&s);
    }

    fn hint(&mut self) {
        let pos = self.session.position();
        if pos.legal_moves().is_empty() {
            return self.err("hint: no legal move");
        }
        self.session.observe();
        let limits = SearchLimits {
            movetime_ms: Some(500),
            ..SearchLimits::default()
        };
        match self.session.engine.search_quietly(limits) {
            Ok(r) => match r.best {
                Some(m) => self.say(&format!("hint: {} ({})", pos.san(m), score_text(r.score))),
                None => self.err("hint: no move found"),
            },
            Err(e) => self.err(e),
        }
    }

    fn tablebase(&mut self, arg: &str) {
        if !arg.is_empty() {
            let syzygy_path = crate::options::find("SyzygyPath").expect("an engine option");
            match syzygy_path.set(&mut self.session.engine, arg) {
                Ok(lines) => lines.iter().for_each(|l| self.say(l)),
                Err(e) => return self.err(e),
            }
        }
        let engine = &self.session.engine;
        let Some(tb) = engine.tablebases() else {
            return self.err("tb: no tables (tb DIR, or set syzygypath DIR)");
        };
        let pos = self.session.position();
        match crate::cmd::tb::probe_report(tb, &pos, engine.options().syzygy.rule50) {
            Ok(text) => self.say(text.trim_end()),
            Err(e) => self.err(format!("tb: {e}")),
        }
    }

    fn book(&mut self, arg: &str) {
        let e = &mut self.session.engine;
        match arg {
            "" => {}
            "on" => e.set_own_book(true),
            "off" => e.set_own_book(false),
            _ => match BookMode::parse(arg) {
                Some(mode) => e.set_book_mode(mode),
                None => {
                    self.session.abandon_search();
                    if let Err(err) = self.session.engine.set_book_file(arg) {
                        return self.err(format!("{err}; playing without a book"));
                    }
                    self.session.engine.set_own_book(true);
                }
            },
        }
        let e = &self.session.engine;
        let o = e.options();
        let Some(book) = e.book() else {
            return self.say("no book loaded (book FILE loads one)");
        };
        let mut text = format!(
            "book {} ({} entries), {}, {} move, depth {} plies",
            book.path.display(),
            book.book.len(),
            if o.own_book { "on" } else { "off" },
            o.book_mode.name(),
            o.book_depth
        );
        let pos = e.position();
        let choices = e.book_choices();
        if choices.is_empty() {
            text.push_str("\nno book moves here");
        }
        for c in choices {
            text.push_str(&format!(
                "\n  {:<8} {:>5.1}%  weight {:<6} learn {}",
                pos.san(c.mv).to_string(),
                c.percent,
                c.weight,
                c.learn
            ));
        }
        self.say(&text);
    }

    fn set(&mut self, args: &[&str]) {
        let Some((&name, value)) = args.split_first() else {
            let o = self.session.engine.options().clone();
            let text = format!(
                "hash {} MB, threads {}, multipv {}, chess960 {}, ascii {}, usennue {}, evalfile '{}'\nsyzygypath '{}', syzygyprobedepth {}, syzygy50moverule {}, syzygyprobelimit {} ({})",
                o.hash_mb, o.threads, o.multipv, o.chess960, self.ascii, o.use_nnue, o.eval_file,
                o.syzygy_path, o.syzygy.probe_depth, o.syzygy.rule50, o.syzygy.probe_limit,
                crate::syzygy::status(&self.session.engine)
            ) + "\n"
                + &crate::strength::status(&self.session.engine);
            return self.say(&text);
        };
        let value = value.join(" ");
        // The console's own settings, and short names for the strength options.
        let name = match crate::options::option_key(name).as_str() {
            "ascii" => {
                match crate::options::check("ascii", &value) {
                    Ok(on) => {
                        self.ascii = on;
                        self.say(&format!("ascii set to {value}"));
                    }
                    Err(e) => self.err(format!("set: {e}")),
                }
                return;
            }
            "chess960" => {
                let result = crate::options::check("chess960", &value)
                    .and_then(|on| crate::options::done(self.session.engine.set_chess960(on)));
                match result {
                    Ok(_) => self.say(&format!("chess960 set to {value}")),
                    Err(e) => self.err(format!("set: {e}")),
                }
                return;
            }
            "limitstrength" => "UCI_LimitStrength",
            "elo" => "UCI_Elo",
            "skill" => "Skill Level",
            "seed" => "Skill Seed",
            _ => name,
        };
        let Some(option) = crate::options::find(name) else {
            return self.err(format!("set: no option named '{name}'"));
        };
        match option.set(&mut self.session.engine, &value) {
            Ok(notes) => {
                self.say(&format!("{} set to {value}", option.name));
                notes.iter().for_each(|l| self.say(l));
                if option.name.starts_with("UCI_") || option.name.starts_with("Skill") {
                    self.say(&crate::strength::status(&self.session.engine));
                }
            }
            Err(e) => self.err(format!("set: {e}")),
        }
    }
}

/// A FEN, or an EPD's four fields completed with the move counters.
fn fen_of(text: &str) -> String {
    let text = text.split(';').next().unwrap_or("").trim();
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() >= 4 && Position::from_fen(text, CastlingMode::Standard).is_err() {
        let f = &fields[..4];
        let candidate = format!("{} 0 1", f.join(" "));
        if Position::from_fen(&candidate, CastlingMode::Standard).is_ok() {
            return candidate;
        }
    }
    text.to_string()
}

fn score_text(s: ScoreReport) -> String {
    match s {
        ScoreReport::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        ScoreReport::Mate(n) => format!("mate {n}"),
    }
}

fn info_line(pos: &Position, info: &sable_engine::SearchInfo) -> String {
    let mut p = pos.clone();
    let mut pv = Vec::new();
    for &m in &info.pv {
        if !p.is_legal(m) {
            break;
        }
        pv.push(p.san(m));
        p.make(m);
    }
    format!(
        "depth {:>2}  score {:>7}  time {:>6} ms  nodes {:>10}  pv {}",
        info.depth,
        score_text(info.score),
        info.time.as_millis(),
        info.nodes,
        pv.join(" ")
    )
}

/// Runs the console on standard input and output (with line editing on a terminal);
/// `first` is a line already read by the dispatcher.
pub fn run(first: Option<String>) {
    use std::io::IsTerminal;
    let mut console = Console::new(Box::new(std::io::stdout()));
    console.say(&format!(
        "Sable {} console. Type help for the commands.",
        env!("CARGO_PKG_VERSION")
    ));
    if std::io::stdin().is_terminal() {
        let mut editor = match rustyline::DefaultEditor::new() {
            Ok(e) => e,
            Err(e) => {
                eprintln!("sable: no line editing ({e}); reading plain lines");
                return run_plain(console, first);
            }
        };
        if let Some(line) = first {
            if !console.execute(&line, &mut || None) {
                return;
            }
        }
        loop {
            let line = match editor.readline("sable> ") {
                Ok(l) => l,
                Err(rustyline::error::ReadlineError::Interrupted) => continue,
                Err(_) => break,
            };
            let _ = editor.add_history_entry(line.as_str());
            let editor_ref = &mut editor;
            let mut next = || editor_ref.readline("").ok();
            if !console.execute(&line, &mut next) {
                break;
            }
        }
    } else {
        run_plain(console, first);
    }
}

fn run_plain(mut console: Console, first: Option<String>) {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    if let Some(line) = first {
        if !console.execute(&line, &mut || None) {
            return;
        }
    }
    while let Some(Ok(line)) = lines.next() {
        let mut next = || lines.next().and_then(Result::ok);
        if !console.execute(&line, &mut next) {
            break;
        }
    }
}
