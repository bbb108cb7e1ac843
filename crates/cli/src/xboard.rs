//! The xboard (CECP version 2) processor: translates xboard/WinBoard commands to the
//! protocol-neutral [`Session`] and its reports back to xboard text. One thread owns the
//! session and handles, in arrival order, both the lines read from standard input (by a
//! reader thread) and the events of the running search, so a command never races a
//! move. While the engine thinks on its own move, a `ping` and everything after it wait
//! until the move is out (the protocol requires the `pong` to follow the move); `?` and
//! `quit` act at once. Bad input gets `Error (...)` or `Illegal move` and changes nothing.

use crate::notation::{looks_like_move, outcome_text, parse_any_move, parse_level, parse_seconds};
use crate::session::{Mode, SearchId, Session, TimeControl};
use crate::uci::Wire;
use sable_chess::{Color, Move, Position};
use sable_engine::{Bound, ScoreReport, SearchEvent, SearchInfo, SearchLimits, SearchResult};
use sable_engine::{HASH_MB, THREADS};
use sable_formats::pgn::GameResult;
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, Sender};

/// What the processor's thread waits for.
pub enum Msg {
    Line(String),
    Eof,
    Search(SearchId, SearchEvent),
}

/// Resigning and draw acceptance thresholds (engine options).
struct Judgement {
    /// Resign when the score is at or below minus this for `resign_moves` moves (0: never).
    resign_cp: i32,
    resign_moves: u32,
    /// Accept a draw offer when the last score is at or below this.
    draw_cp: i32,
}

/// The xboard session.
pub struct Xboard {
    session: Session,
    wire: Wire,
    tx: Sender<Msg>,
    post: bool,
    /// Commands held back until the engine has moved.
    deferred: VecDeque<String>,
    /// `setboard` was refused: moves are illegal until the next position.
    bad_position: bool,
    /// The game ended (claimed or told by `result`): no thinking until a new position.
    game_over: bool,
    debug_output: bool,
    judgement: Judgement,
    bad_scores: u32,
    /// The engine's last search score (its point of view), in centipawns.
    last_score: Option<i32>,
    /// For `.` in analysis: time (cs), nodes, depth; the move being searched.
    stat: (u64, u64, u32),
    curr: Option<(Move, u32)>,
    quit: bool,
}

/// The thinking-output score: centipawns, or 100000 + N for mate in N moves.
pub fn xboard_score(score: ScoreReport) -> i64 {
    match score {
        ScoreReport::Cp(cp) => i64::from(cp),
        ScoreReport::Mate(n) if n > 0 => 100_000 + i64::from(n),
        ScoreReport::Mate(n) => -100_000 + i64::from(n),
    }
}

/// A move as xboard reads it: coordinates, with `O-O`/`O-O-O` for Chess960 castling.
pub fn move_text(m: Move, chess960: bool) -> String {
    if chess960 && m.is_castle() {
        return if m.to().file() > m.from().file() {
            "O-O".to_string()
        } else {
            "O-O-O".to_string()
        };
    }
    m.to_uci(false).to_string()
}

/// The PV in SAN from `pos` (stops at the first move that is not legal there).
fn san_line(pos: &Position, pv: &[Move]) -> String {
    let mut p = pos.clone();
    let mut out = String::new();
    for &m in pv {
        if !p.is_legal(m) {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&p.san(m));
        p.make(m);
    }
    out
}

/// One thinking line: `ply score time nodes seldepth nps tbhits<TAB>pv`, with `?` or `!`
/// after a PV whose score is only an upper or lower bound.
pub fn thinking_line(info: &SearchInfo, root: &Position) -> String {
    let mut s = format!(
        "{} {} {} {} {} {} 0\t{}",
        info.depth,
        xboard_score(info.score),
        info.time.as_millis() / 10,
        info.nodes,
        info.seldepth,
        info.nps,
        san_line(root, &info.pv)
    );
    match info.bound {
        Bound::Exact => {}
        Bound::Upper => s.push('?'),
        Bound::Lower => s.push('!'),
    }
    s
}

fn feature_lines() -> Vec<String> {
    let mut lines = vec![
        "feature done=0".to_string(),
        format!(
            "feature ping=1 setboard=1 playother=1 usermove=1 san=0 time=1 draw=1 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 memory=1 smp=1 nps=1 debug=1 name=0 variants=\"normal,fischerandom\" myname=\"Sable {}\"",
            env!("CARGO_PKG_VERSION")
        ),
        "feature option=\"ResignScore -spin 1000 0 100000\"".to_string(),
        "feature option=\"ResignMoves -spin 3 1 100\"".to_string(),
        "feature option=\"DrawScore -spin -200 -100000 100000\"".to_string(),
    ];
    lines.extend(
        crate::options::ENGINE_OPTIONS
            .iter()
            .filter(|o| o.xboard)
            .map(|o| o.xboard_line()),
    );
    lines.push("feature egt=\"syzygy\"".to_string());
    lines.push("feature done=1".to_string());
    lines
}

impl Xboard {
    pub fn new(wire: Wire, tx: Sender<Msg>) -> Xboard {
        let mut session = Session::default();
        // xboard's own default, until the GUI says otherwise.
        session.timing.control = Some(TimeControl {
            moves: 40,
            base_ms: 300_000,
            inc_ms: 0,
        });
        Xboard {
            session,
            wire,
            tx,
            post: false,
            deferred: VecDeque::new(),
            bad_position: false,
            game_over: false,
            debug_output: true,
            judgement: Judgement {
                resign_cp: 1000,
                resign_moves: 3,
                draw_cp: -200,
            },
            bad_scores: 0,
            last_score: None,
            stat: (0, 0, 0),
            curr: None,
            quit: false,
        }
    }

    /// Handles messages until `quit` or the end of input.
    pub fn run(&mut self, rx: Receiver<Msg>) {
        for msg in rx {
            match msg {
                Msg::Line(line) => self.input(&line),
                Msg::Eof => break,
                Msg::Search(id, event) => self.search_event(id, event),
            }
            if self.quit {
                break;
            }
        }
        self.session.abandon_search();
    }

    fn error(&self, kind: &str, command: &str) {
        self.wire.send(&format!("Error ({kind}): {command}"));
    }

    /// One input line, held back while the engine owes a move after a `ping`.
    pub fn input(&mut self, line: &str) {
        let line = line.trim();
        let word = line.split_whitespace().next().unwrap_or("");
        if self.session.mode() == Mode::Thinking && (!self.deferred.is_empty() || word == "ping") {
            match word {
                "?" => self.session.move_now(),
                "quit" => self.quit = true,
                _ => self.deferred.push_back(line.to_string()),
            }
            return;
        }
        self.execute(line);
    }

    fn flush_deferred(&mut self) {
        let queued = std::mem::take(&mut self.deferred);
        for line in queued {
            if self.quit {
                return;
            }
            self.input(&line);
        }
    }

    fn events(&self) -> impl FnMut(SearchId, SearchEvent) + Send + 'static {
        let tx = self.tx.clone();
        move |id, e| {
            let _ = tx.send(Msg::Search(id, e));
        }
    }

    /// Executes one command.
    pub fn execute(&mut self, line: &str) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return;
        };
        // The first token starts the trimmed line, so slicing past it stays on a char
        // boundary whatever whitespace (ASCII or not) came before it.
        let rest = line.trim_start()[cmd.len()..].trim();
        match cmd {
            "xboard" | "accepted" | "random" | "computer" | "name" | "rating" | "ics"
            | "include" | "exclude" => {}
            "egtpath" => self.egtpath(args, line),
            "protover" => {
                for l in feature_lines() {
                    self.wire.send(&l);
                }
            }
            "rejected" => {
                if rest == "debug" {
                    self.debug_output = false;
                }
            }
            "new" => self.new_game(),
            "variant" => self.variant(rest),
            "force" => self.session.observe(),
            "go" => self.go(),
            "playother" => {
                if self.session.mode() == Mode::Analysing {
                    return self.error("command not legal now", line);
                }
                let turn = self.session.position().turn();
                self.session.play_side(!turn);
            }
            // Obsolete (colors=0 asks xboard not to send them): the engine takes the other side.
            "white" => self.session.play_side(Color::Black),
            "black" => self.session.play_side(Color::White),
            "level" => match parse_level(args) {
                Ok(tc) => {
                    let t = &mut self.session.timing;
                    t.control = Some(tc);
                    t.move_time_ms = None;
                    t.own_ms = None;
                    t.opp_ms = None;
                }
                Err(e) => self.error(&e, line),
            },
            "st" => match args.first().map(|a| parse_seconds(a)) {
                Some(Ok(ms)) => {
                    self.session.timing.move_time_ms = Some(ms.max(1));
                    self.session.timing.control = None;
                }
                Some(Err(e)) => self.error(&e, line),
                None => self.error("st needs seconds", line),
            },
            "sd" => match args.first().and_then(|a| a.parse::<u32>().ok()) {
                Some(d) => self.session.timing.depth = Some(d.max(1)),
                None => self.error("sd needs a whole number of plies", line),
            },
            "nps" => match args.first().and_then(|a| a.parse::<u64>().ok()) {
                Some(0) => self.session.timing.nps = None,
                Some(n) => self.session.timing.nps = Some(n),
                None => self.error("nps needs a whole number", line),
            },
            "time" | "otim" => match args.first().and_then(|a| a.parse::<i64>().ok()) {
                Some(cs) => {
                    let ms = Some((cs.max(0) as u64).saturating_mul(10));
                    if cmd == "time" {
                        self.session.timing.own_ms = ms;
                    } else {
                        self.session.timing.opp_ms = ms;
                    }
                }
                None => self.error("needs centiseconds", line),
            },
            "usermove" => match args.first() {
                Some(m) => self.user_move(m),
                None => self.error("usermove needs a move", line),
            },
            "?" => self.session.move_now(),
            "ping" => self.wire.send(&format!("pong {rest}")),
            "draw" => self.draw_offered(),
            "result" => {
                self.learn(args.first().copied());
                self.session.observe();
                self.game_over = true;
            }
            "setboard" => self.setboard(rest),
            "hint" => self.hint(),
            "bk" => self.bk(),
            "undo" => self.undo(),
            "remove" => self.remove(),
            "hard" => self.session.ponder = true,
            "easy" => {
                self.session.ponder = false;
                if self.session.mode() == Mode::Pondering {
                    self.session.abandon_search();
                }
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "analyze" => self.analyse(),
            "exit" => {
                if self.session.mode() == Mode::Analysing {
                    self.session.stop_analysing();
                }
            }
            "." => self.stat01(),
            "memory" => self.memory(args, line),
            "cores" => self.cores(args, line),
            "option" => self.option(rest, line),
            "quit" => self.quit = true,
            _ if looks_like_move(cmd) && args.is_empty() => self.user_move(cmd),
            _ => self.error("unknown command", cmd),
        }
    }

    fn new_game(&mut self) {
        let analysing = self.session.mode() == Mode::Analysing;
        if let Err(e) = self.session.new_game() {
            return self.error(&e.to_string(), "new");
        }
        let _ = self.session.engine.set_chess960(false);
        self.bad_position = false;
        self.game_over = false;
        self.bad_scores = 0;
        self.last_score = None;
        if analysing {
            self.analyse();
        }
    }

    fn variant(&mut self, name: &str) {
        let on = match name {
            "normal" => false,
            "fischerandom" => true,
            _ => return self.error("unsupported variant", name),
        };
        self.session.abandon_search();
        if let Err(e) = self.session.engine.set_chess960(on) {
            self.error(&e.to_string(), "variant");
        }
    }

    fn setboard(&mut self, fen: &str) {
        let analysing = self.session.mode() == Mode::Analysing;
        match self.session.set_fen(fen) {
            Ok(()) => {
                self.bad_position = false;
                self.game_over = false;
                if analysing {
                    self.analyse();
                }
            }
            Err(e) => {
                self.session.abandon_search();
                self.bad_position = true;
                let text = e.to_string().replace(['\n', '\r'], " ");
                self.wire
                    .send(&format!("tellusererror Illegal position: {text}"));
            }
        }
    }

    fn go(&mut self) {
        if self.bad_position {
            return self.error("no legal position set up", "go");
        }
        if self.session.mode() == Mode::Analysing {
            return self.error("command not legal now", "go");
        }
        if let Some(o) = self.session.outcome() {
            self.session.observe();
            self.game_over = true;
            let (result, reason) = outcome_text(o);
            return self.wire.send(&format!("{result} {{{reason}}}"));
        }
        let events = self.events();
        if let Err(e) = self.session.think(events) {
            self.error(&e.to_string(), "go");
        }
    }

    fn think_if_on_move(&mut self) {
        let pos = self.session.position();
        if self.session.mode() == Mode::Waiting
            && self.session.side() == Some(pos.turn())
            && !self.game_over
        {
            if self.claim_if_over() {
                return;
            }
            let events = self.events();
            if let Err(e) = self.session.think(events) {
                self.error(&e.to_string(), "go");
            }
        }
    }

    /// Claims the result if the game is over by rule (while playing a side).
    fn claim_if_over(&mut self) -> bool {
        let Some(o) = self.session.outcome() else {
            return false;
        };
        self.game_over = true;
        if self.session.side().is_some() {
            let (result, reason) = outcome_text(o);
            self.wire.send(&format!("{result} {{{reason}}}"));
        }
        true
    }

    fn user_move(&mut self, text: &str) {
        if self.bad_position {
            return self
                .wire
                .send(&format!("Illegal move (no legal position): {text}"));
        }
        let pos = self.session.position();
        let m = match parse_any_move(&pos, text) {
            Ok(m) => m,
            Err(_) => return self.wire.send(&format!("Illegal move: {text}")),
        };
        let mode = self.session.mode();
        if mode == Mode::Pondering && self.session.ponder_hit(m) {
            return;
        }
        if let Err(e) = self.session.play(m) {
            return self.error(&e.to_string(), text);
        }
        match mode {
            Mode::Analysing => self.analyse(),
            Mode::Observing => {}
            _ => {
                if !self.claim_if_over() {
                    self.think_if_on_move();
                }
            }
        }
    }

    fn undo(&mut self) {
        let mode = self.session.mode();
        if self.session.take_back(1) == 0 {
            return self.error("no move to undo", "undo");
        }
        self.game_over = false;
        match mode {
            Mode::Analysing => self.analyse(),
            Mode::Observing => {}
            _ => {
                // The engine's side may be on move now; it waits for `go`.
                if self.session.side() == Some(self.session.position().turn()) {
                    self.session.observe();
                }
            }
        }
    }

    fn remove(&mut self) {
        let mode = self.session.mode();
        if self.session.moves().len() < 2 {
            return self.error("fewer than two moves to remove", "remove");
        }
        self.session.take_back(2);
        self.game_over = false;
        match mode {
            Mode::Analysing => self.analyse(),
            Mode::Observing => {}
            _ => self.think_if_on_move(),
        }
    }

    fn analyse(&mut self) {
        if self.bad_position {
            return self.error("no legal position set up", "analyze");
        }
        self.stat = (0, 0, 0);
        self.curr = None;
        let events = self.events();
        if let Err(e) = self.session.analyse(events) {
            self.error(&e.to_string(), "analyze");
        }
    }

    fn stat01(&self) {
        if self.session.mode() != Mode::Analysing {
            return;
        }
        let pos = self.session.engine.position();
        let total = pos.legal_moves().len() as u32;
        let (time, nodes, depth) = self.stat;
        let mut line = match self.curr {
            Some((_, n)) => format!(
                "stat01: {time} {nodes} {depth} {} {total}",
                total.saturating_sub(n)
            ),
            None => format!("stat01: {time} {nodes} {depth} 0 {total}"),
        };
        if let Some((m, _)) = self.curr {
            if pos.is_legal(m) {
                let _ = write!(line, " {}", pos.san(m));
            }
        }
        self.wire.send(&line);
    }

    fn hint(&mut self) {
        let pos = self.session.position();
        let guess = match self.session.ponder_move() {
            Some(m) => Some(m),
            None => self.session.expected.filter(|&m| pos.is_legal(m)),
        };
        let guess = match guess {
            Some(m) => Some(m),
            None if matches!(self.session.mode(), Mode::Observing | Mode::Waiting) => {
                let limits = SearchLimits {
                    movetime_ms: Some(200),
                    ..SearchLimits::default()
                };
                self.session
                    .engine
                    .search_quietly(limits)
                    .ok()
                    .and_then(|r| r.best)
            }
            None => None,
        };
        if let Some(m) = guess {
            self.wire
                .send(&format!("Hint: {}", move_text(m, pos.is_chess960())));
        }
    }

    fn draw_offered(&mut self) {
        let playing = matches!(
            self.session.mode(),
            Mode::Waiting | Mode::Thinking | Mode::Pondering
        );
        if playing && !self.game_over {
            if let Some(s) = self.last_score {
                if s <= self.judgement.draw_cp {
                    self.wire.send("offer draw");
                }
            }
        }
    }

    fn memory(&mut self, args: &[&str], line: &str) {
        let Some(mb) = args.first().and_then(|a| a.parse::<i64>().ok()) else {
            return self.error("memory needs megabytes", line);
        };
        let mb = mb.clamp(HASH_MB.0 as i64, HASH_MB.2 as i64);
        self.session.abandon_search();
        if let Err(e) = self.session.engine.set_hash_mb(mb) {
            self.error(&e.to_string(), line);
        }
    }

    fn cores(&mut self, args: &[&str], line: &str) {
        let Some(n) = args.first().and_then(|a| a.parse::<i64>().ok()) else {
            return self.error("cores needs a number", line);
        };
        let n = n.clamp(THREADS.0 as i64, THREADS.2 as i64);
        if self.session.mode() == Mode::Thinking {
            // Allowed to finish the search first: applied at the next command instead.
            self.deferred.push_back(line.to_string());
            return;
        }
        self.session.abandon_search();
        if let Err(e) = self.session.engine.set_threads(n) {
            self.error(&e.to_string(), line);
        }
    }

    /// `bk`: the book moves of the current position, each on a line starting with a
    /// space, then an empty line.
    fn bk(&mut self) {
        let engine = &self.session.engine;
        if engine.book().is_none() {
            self.wire
                .send(" Sable has no opening book loaded (option BookFile)");
        } else {
            let choices = engine.book_choices();
            if choices.is_empty() {
                self.wire.send(" no book moves in this position");
            }
            let pos = engine.position();
            for c in choices {
                self.wire.send(&format!(
                    " {} {:.0}% (weight {})",
                    pos.san(c.mv),
                    c.percent,
                    c.weight
                ));
            }
        }
        self.wire.send("");
    }

    /// `result`: with `BookLearning` on, the book learns from the game's result.
    fn learn(&mut self, result: Option<&str>) {
        let Some(result) = result.and_then(GameResult::from_token) else {
            return;
        };
        match self.session.engine.learn_from_game(result) {
            Ok(0) => {}
            Ok(n) => self
                .wire
                .send(&format!("# book learned from {result}: {n} entries")),
            Err(e) => self
                .wire
                .send(&format!("telluser book learning failed: {e}")),
        }
    }

    /// The book options (their values are not all numbers); `false` if `key` is none.
    /// `egtpath syzygy DIR`: the Syzygy tables (other kinds are not ours).
    fn egtpath(&mut self, args: &[&str], line: &str) {
        match args.split_first() {
            Some((&"syzygy", dirs)) => {
                self.session.abandon_search();
                let path = dirs.join(" ");
                let syzygy_path = crate::options::find("SyzygyPath").expect("an engine option");
                match syzygy_path.set(&mut self.session.engine, &path) {
                    Ok(lines) => lines.iter().for_each(|l| self.wire.send(&format!("# {l}"))),
                    Err(e) => self.error(&e, line),
                }
            }
            Some(_) => {}
            None => self.error("egtpath needs a kind and a folder", line),
        }
    }

    /// `option NAME=VALUE` (or `option NAME` for a button): xboard's own resignation and
    /// draw scores, else one of the engine's options ([`crate::options`]).
    fn option(&mut self, rest: &str, line: &str) {
        let (name, value) = match rest.split_once('=') {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        let number = value.parse::<i64>().ok();
        let judgement = &mut self.judgement;
        match (crate::options::option_key(name).as_str(), number) {
            ("resignscore", Some(cp)) if (0..=100_000).contains(&cp) => {
                judgement.resign_cp = cp as i32
            }
            ("resignmoves", Some(n)) if (1..=100).contains(&n) => judgement.resign_moves = n as u32,
            ("drawscore", Some(cp)) if (-100_000..=100_000).contains(&cp) => {
                judgement.draw_cp = cp as i32
            }
            ("resignscore" | "resignmoves" | "drawscore", _) => {
                self.error("bad option value", line)
            }
            _ => match crate::options::find(name) {
                Some(_) if self.session.mode() == Mode::Thinking => {
                    // The engine owes a move: the option waits for it, as `cores` does.
                    self.deferred.push_back(line.to_string());
                }
                Some(option) => {
                    // A search (ponder, analysis) must not see the engine change under it.
                    self.session.abandon_search();
                    match option.set(&mut self.session.engine, value) {
                        Ok(notes) => notes.iter().for_each(|l| self.wire.send(&format!("# {l}"))),
                        Err(e) => self.error(&e, line),
                    }
                }
                None => self.error("unknown option", line),
            },
        }
    }

    fn search_event(&mut self, id: SearchId, event: SearchEvent) {
        if !self.session.is_current(id) {
            return;
        }
        match event {
            SearchEvent::Info(info) => {
                self.stat = (info.time.as_millis() as u64 / 10, info.nodes, info.depth);
                if info.multipv == 1 {
                    if let ScoreReport::Cp(cp) = info.score {
                        if self.session.mode() == Mode::Thinking {
                            self.last_score = Some(cp);
                        }
                    }
                    let analysing = self.session.mode() == Mode::Analysing;
                    if self.post || analysing {
                        let root = self.session.engine.position().clone();
                        self.wire.send(&thinking_line(&info, &root));
                    }
                }
            }
            SearchEvent::CurrMove { mv, number, .. } => self.curr = Some((mv, number)),
            SearchEvent::Note(text) => {
                if self.debug_output || text.starts_with("book move") {
                    self.wire
                        .send(&format!("# {}", text.replace(['\n', '\r'], " ")));
                }
            }
            SearchEvent::Finished(result) => {
                if self.session.finished() == Mode::Thinking {
                    self.engine_moves(result);
                }
                self.flush_deferred();
            }
        }
    }

    fn engine_moves(&mut self, r: SearchResult) {
        let Some(best) = r.best else {
            self.claim_if_over();
            return;
        };
        let losing = match r.score {
            ScoreReport::Cp(cp) => cp <= -self.judgement.resign_cp,
            ScoreReport::Mate(n) => n < 0,
        };
        self.bad_scores = if losing && self.judgement.resign_cp > 0 {
            self.bad_scores + 1
        } else {
            0
        };
        self.last_score = Some(match r.score {
            ScoreReport::Cp(cp) => cp,
            ScoreReport::Mate(n) if n > 0 => 30_000,
            ScoreReport::Mate(_) => -30_000,
        });
        if self.bad_scores >= self.judgement.resign_moves {
            self.wire.send("resign");
            self.session.observe();
            self.game_over = true;
            return;
        }
        let chess960 = self.session.engine.position().is_chess960();
        if let Err(e) = self.session.play(best) {
            return self.error(&e.to_string(), "move");
        }
        self.wire
            .send(&format!("move {}", move_text(best, chess960)));
        if self.claim_if_over() {
            return;
        }
        let pos = self.session.position();
        let guess = r.ponder.filter(|&m| pos.is_legal(m));
        self.session.expected = guess;
        if let (true, Some(g)) = (self.session.ponder, guess) {
            self.wire.send(&format!("Hint: {}", move_text(g, chess960)));
            let events = self.events();
            if let Err(e) = self.session.ponder_on(g, events) {
                self.error(&e.to_string(), "hard");
            }
        }
    }
}

/// Runs the xboard processor on standard input and output; `first` is a line already
/// read (by the dispatcher of `sable` without arguments).
pub fn run(first: Option<String>) {
    let (tx, rx) = mpsc::channel();
    let mut xb = Xboard::new(Wire::stdout(), tx.clone());
    if let Some(line) = first {
        let _ = tx.send(Msg::Line(line));
    }
    let reader = tx;
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let msg = match line {
                Ok(l) => Msg::Line(l),
                // Not UTF-8: xboard only sends ASCII, so this line cannot be a command.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => continue,
                Err(_) => break,
            };
            if reader.send(msg).is_err() {
                return;
            }
        }
        let _ = reader.send(Msg::Eof);
    });
    xb.run(rx);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        assert_eq!(xboard_score(ScoreReport::Cp(-35)), -35);
        assert_eq!(xboard_score(ScoreReport::Mate(3)), 100_003);
        assert_eq!(xboard_score(ScoreReport::Mate(-2)), -100_002);
    }

    #[test]
    fn castling_moves() {
        let pos = Position::from_fen(
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            sable_chess::CastlingMode::Standard,
        )
        .unwrap();
        let m = pos.parse_uci("e1g1").unwrap();
        assert_eq!(move_text(m, false), "e1g1");
        assert_eq!(move_text(m, true), "O-O");
        let m = pos.parse_uci("e1c1").unwrap();
        assert_eq!(move_text(m, true), "O-O-O");
    }

    /// Whitespace before the command, ASCII or not (a no-break space, an ideographic
    /// space), neither panics nor shifts the argument.
    #[test]
    fn leading_whitespace_keeps_the_arguments() {
        let (tx, _rx) = mpsc::channel();
        let mut xb = Xboard::new(Wire::new(std::io::sink()), tx);
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        for lead in ["", "  ", "\t", "\u{a0}", "\u{3000} \u{2003}"] {
            xb.execute(&format!("{lead}setboard {fen}"));
            assert_eq!(xb.session.position().fen(), fen, "lead {lead:?}");
            xb.execute("new");
        }
    }
}
