//! An ICS stand-in for the tests: a scripted FICS-like server on 127.0.0.1 (an ephemeral
//! port) that logs the client in, offers or accepts matches, sends style-12 boards,
//! keeps the client's clock, checks every move the client sends against the rules,
//! answers with moves of its own (seeded random legal moves, the first legal move, or a
//! move the test chooses; at once or after a delay, as an opponent who thinks) and ends
//! games by mate, draw rules, resignation, flag, agreement, abort or adjournment. It can
//! offer block mode as FICS does (`iset block 1` answered `block set.`; then every
//! command must come numbered, and its output goes back framed as a reply) or answer as
//! FICS 1.6 does (`com_iset: block 1`, plain mode). It can misbehave on request:
//! garbage, truncated and malformed boards, a 1 MB line, broken block framing, a refused
//! move or match, a cut connection (the game comes back on `resume`), or silence. Used
//! by `crates/ics/tests` and `crates/cli/tests/ics.rs`.
#![allow(dead_code)]

use sable_chess::{Color, KeyHistory, Move, Position};
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How a game of the script ends, besides the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Played out: mate, stalemate, repetition, 50 moves, material (or 400 plies).
    Natural,
    /// The stand-in resigns on its turn from this ply on.
    Resign(usize),
    /// The stand-in's flag falls on its turn from this ply on.
    Flag(usize),
    /// The stand-in offers a draw on its turn at this ply; the game is drawn if the
    /// client answers `draw`, else goes on naturally.
    OfferDraw(usize),
    /// The stand-in stops moving on its turn from this ply on, as a player who left:
    /// its clock runs out and, as on FICS, the game ends only when the client calls
    /// `flag`.
    Stall(usize),
    /// The game is aborted (`Game aborted by mutual agreement`, `*`) on the stand-in's
    /// turn from this ply on.
    Abort(usize),
    /// The game is adjourned on the stand-in's turn at this ply (once); it comes back on
    /// the client's `resume`, and the stand-in resigns on its next turn.
    Adjourn(usize),
}

/// How the stand-in chooses its moves.
#[derive(Clone, Copy, Debug)]
pub enum Reply {
    /// A legal move at random (seeded).
    Random,
    /// The first legal move in generation order: a reply a test can predict.
    First,
    /// The move this function chooses (it must be legal).
    With(fn(&Position) -> Move),
}

/// Hostile lines sent before the board of a given ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hostile {
    Garbage(usize),
    TruncatedBoard(usize),
    MalformedBoard(usize),
    HugeLine(usize),
    /// The board of this ply is never sent, so the next one does not follow from the
    /// client's position (it must resync and still play legal moves).
    DropBoard(usize),
    /// The connection is closed after the client's move of this ply; the game comes
    /// back on `resume` after the client logs in again.
    Cut(usize),
    /// The connection is closed when the stand-in's turn at this ply is due, after the
    /// board that confirmed the client's move (while the client ponders).
    CutOnTurn(usize),
    /// The client's move at this ply is answered `Illegal move` and not played (once);
    /// it is not counted as the client's fault.
    RefuseMove(usize),
    /// Before the board of this ply: a block that never ends (it swallows the board).
    BlockNoEnd(usize),
    /// Before the board of this ply: a block with a broken header, and a reply to an id
    /// the client never sent.
    BlockBadHeader(usize),
    /// The board of this ply with block control bytes inside it.
    ControlBytes(usize),
    /// Before the board of this ply: a block of over 1 MB with no end.
    HugeBlock(usize),
    /// On the stand-in's turn at this ply, the client's clock loses 5 s (as a server's
    /// lag correction might take it back): the board with the reply shows it.
    ClockDrop(usize),
    /// On the stand-in's turn at this ply, the client's last move is taken back (as
    /// after an agreed takeback) and the client is on move again.
    TakeBack(usize),
}

/// How games are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// The stand-in challenges the client (and expects `accept`).
    Challenge,
    /// The client sends `match` (or `seek`); the stand-in starts the game.
    AwaitMatch,
}

#[derive(Clone, Debug)]
pub struct Script {
    /// The registered password of the client's handle; `None`: any handle is a guest.
    pub password: Option<String>,
    pub offer: Offer,
    pub games: Vec<End>,
    pub hostile: Vec<Hostile>,
    /// Initial clock (ms) and increment (s) the stand-in keeps for the client.
    pub clock_ms: i64,
    pub increment_s: u32,
    /// The client's clock when a game starts, if not `clock_ms` (time odds).
    pub client_start_ms: Option<i64>,
    /// Accept connections and never say a word.
    pub silent: bool,
    /// Expect Timeseal-encoded lines (and send probes).
    pub timeseal: bool,
    pub seed: u64,
    /// The stand-in's rating (None: unrated `----`).
    pub rating: Option<u32>,
    /// Lines sent to the client first thing after login (tells, offers...).
    pub after_login: Vec<String>,
    /// Give up after this long in all.
    pub deadline: Duration,
    pub reply: Reply,
    /// How long the stand-in thinks before each of its moves (and resignations, flags,
    /// aborts): the time the client has to ponder.
    pub reply_delay_ms: u64,
    /// Take block mode when asked (`iset block 1`), as FICS does.
    pub block: bool,
    /// Take it without a word (the client must find out from the errors).
    pub block_quiet: bool,
    /// Answer this many `match` requests with a refusal first.
    pub refuse_matches: u32,
    /// Talk as FICS 1.6 does: lines end in `\n\r`, no `**** Starting FICS session`
    /// line (the first prompt says we are in), no `Creating:` line, and boards of 30
    /// fields (no ticking flag, no lag).
    pub fics16: bool,
}

impl Default for Script {
    fn default() -> Self {
        Script {
            password: None,
            offer: Offer::Challenge,
            games: vec![End::Natural],
            hostile: Vec::new(),
            clock_ms: 60_000,
            client_start_ms: None,
            increment_s: 1,
            silent: false,
            timeseal: false,
            seed: 1,
            rating: Some(1700),
            after_login: Vec::new(),
            deadline: Duration::from_secs(120),
            reply: Reply::Random,
            reply_delay_ms: 0,
            block: false,
            block_quiet: false,
            refuse_matches: 0,
            fics16: false,
        }
    }
}

/// One game as the stand-in saw it.
#[derive(Clone, Debug)]
pub struct GameSeen {
    pub number: u32,
    pub client_white: bool,
    pub moves: Vec<String>,
    pub result: String,
    pub reason: String,
}

/// What the stand-in saw.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub logins: u32,
    pub connections: u32,
    pub games: Vec<GameSeen>,
    /// Moves the client sent that were illegal or out of turn.
    pub illegal: Vec<String>,
    /// Games the client lost on time.
    pub client_flagged: u32,
    /// `flag` calls of the client that found the stand-in out of time, and those that
    /// did not (called too early, or with the client on move).
    pub flags_won: u32,
    pub flags_refused: u32,
    /// `abort` calls granted because the stand-in was out of time before both moved.
    pub courtesy_aborts: u32,
    /// Games the stand-in adjourned (`End::Adjourn`).
    pub adjourned: u32,
    /// Every line the client sent, decoded (in block mode without its number).
    pub lines: Vec<String>,
    /// In block mode: the numbers of the client's commands, and the commands that came
    /// without one.
    pub block_ids: Vec<u32>,
    pub unnumbered: Vec<String>,
    /// Moves answered `Illegal move` on purpose (`Hostile::RefuseMove`).
    pub refused_on_purpose: u32,
    pub probes_acked: u32,
    pub quit: bool,
    pub notes: Vec<String>,
}

pub struct StandIn {
    pub port: u16,
    thread: JoinHandle<Report>,
}

impl StandIn {
    pub fn start(script: Script) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let thread = std::thread::spawn(move || Server::new(script).run(listener));
        StandIn { port, thread }
    }

    /// Waits for the stand-in to finish (the client quit, or the deadline).
    pub fn report(self) -> Report {
        self.thread.join().expect("the stand-in does not panic")
    }
}

struct Game {
    number: u32,
    client: Color,
    white: String,
    black: String,
    start: Position,
    pos: Position,
    history: KeyHistory,
    moves: Vec<String>,
    san: Vec<String>,
    clocks: [i64; 2],
    /// When the side to move's clock started.
    since: Instant,
    end: End,
    draw_offered: bool,
    adjourned: bool,
}

impl Game {
    /// What `side`'s clock shows now: its clock, less the time running if on move.
    fn left_ms(&self, side: Color) -> i64 {
        let running = if self.pos.turn() == side {
            self.since.elapsed().as_millis() as i64
        } else {
            0
        };
        self.clocks[side.index()] - running
    }

    /// The result token of a win for the client (`true`) or for the stand-in.
    fn win_for_client(&self, client_wins: bool) -> &'static str {
        if (self.client == Color::White) == client_wins {
            "1-0"
        } else {
            "0-1"
        }
    }
}

struct Server {
    s: Script,
    rng: u64,
    report: Report,
    handle: String,
    game: Option<Game>,
    /// A game cut off with the connection, for `resume`.
    suspended: Option<Game>,
    next_game: usize,
    ms: bool,
    started: Instant,
    challenge_sent: bool,
    /// When the stand-in is due to move (or end the game) on its turn.
    turn_due: Option<Instant>,
    /// Block mode is on in this session.
    block_on: bool,
    matches_refused: u32,
}

enum Flow {
    Continue,
    Close,
}

fn coord_to_uci(text: &str) -> Option<String> {
    let t = text.trim();
    let b = t.as_bytes();
    let sq = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    if b.len() == 4 && sq(b[0], b[1]) && sq(b[2], b[3]) {
        return Some(t.to_string());
    }
    if b.len() == 6 && sq(b[0], b[1]) && sq(b[2], b[3]) && b[4] == b'=' {
        return Some(format!(
            "{}{}",
            &t[..4],
            (b[5] as char).to_ascii_lowercase()
        ));
    }
    None
}

impl Server {
    fn new(s: Script) -> Server {
        Server {
            rng: s.seed.max(1),
            s,
            report: Report::default(),
            handle: String::new(),
            game: None,
            suspended: None,
            next_game: 0,
            ms: false,
            started: Instant::now(),
            challenge_sent: false,
            turn_due: None,
            block_on: false,
            matches_refused: 0,
        }
    }

    fn random(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n as u64) as usize
    }

    fn out_of_time(&self) -> bool {
        self.started.elapsed() > self.s.deadline
    }

    fn run(mut self, listener: TcpListener) -> Report {
        listener.set_nonblocking(true).unwrap();
        while !self.out_of_time() && !self.report.quit {
            match listener.accept() {
                Ok((stream, _)) => {
                    self.report.connections += 1;
                    stream.set_nonblocking(false).unwrap();
                    self.connection(stream);
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                Err(e) => {
                    self.report.notes.push(format!("accept: {e}"));
                    break;
                }
            }
        }
        self.report
    }

    fn connection(&mut self, mut stream: TcpStream) {
        stream
            .set_read_timeout(Some(Duration::from_millis(10)))
            .unwrap();
        if self.s.silent {
            // Hold the connection without a word until the client leaves.
            let mut b = [0u8; 256];
            while !self.out_of_time() {
                match stream.read(&mut b) {
                    Ok(0) => return,
                    Ok(_) => {}
                    Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                    Err(_) => return,
                }
            }
            return;
        }
        let mut conn = Conn {
            stream,
            buf: Vec::new(),
            timeseal: self.s.timeseal,
            ending: if self.s.fics16 { "\n\r" } else { "\n" },
            capture: None,
        };
        self.block_on = false;
        conn.send_raw(b"\r\nWelcome to the stand-in ICS.\r\n\r\nlogin: ");
        // Login.
        let Some(name) = self.read_line(&mut conn, Duration::from_secs(10)) else {
            return;
        };
        let name = name.trim().to_string();
        let session = if name.eq_ignore_ascii_case("guest") {
            conn.send(
                "Logging you in as \"GuestSable\"; you may use this name to play unrated games.",
            );
            conn.send_raw(b"Press return to enter the server as \"GuestSable\":");
            if self.read_line(&mut conn, Duration::from_secs(10)).is_none() {
                return;
            }
            "GuestSable".to_string()
        } else if let Some(pw) = self.s.password.clone() {
            conn.send_raw(
                format!("\n\"{name}\" is a registered name. If it is yours, type the password.\nIf not, just hit return to try another name.\n\npassword: ").as_bytes(),
            );
            let Some(given) = self.read_line(&mut conn, Duration::from_secs(10)) else {
                return;
            };
            if given.trim() != pw {
                conn.send("\n**** Invalid password! ****\n");
                return;
            }
            name.clone()
        } else {
            conn.send_raw(format!("\n\"{name}\" is not a registered name. You may use this name to play unrated games.\n\nPress return to enter the FICS as \"{name}\":").as_bytes());
            if self.read_line(&mut conn, Duration::from_secs(10)).is_none() {
                return;
            }
            name.clone()
        };
        self.handle = session.clone();
        self.report.logins += 1;
        if !self.s.fics16 {
            conn.send(&format!("**** Starting FICS session as {session}(U) ****"));
        } else {
            conn.send("Do 'help' for a list of the commands that are available.");
        }
        conn.send_raw(b"fics% ");
        if self.s.timeseal {
            // One probe for certain, more at random below: a short game may see no
            // random one.
            conn.send_raw(b"[G]\0");
        }
        for l in self.s.after_login.clone() {
            conn.send(&l);
        }
        self.challenge_sent = false;
        let mut quiet_since = Instant::now();
        while !self.out_of_time() {
            if self.s.timeseal && self.random(50) == 0 {
                conn.send_raw(b"[G]\0");
            }
            match conn.line() {
                Err(()) => {
                    self.suspend();
                    return;
                }
                Ok(None) => {
                    if self.game.is_none()
                        && self.suspended.is_none()
                        && self.s.offer == Offer::Challenge
                        && !self.challenge_sent
                        && self.next_game < self.s.games.len()
                        && quiet_since.elapsed() > Duration::from_millis(200)
                    {
                        self.challenge_sent = true;
                        let rating = self.s.rating.map_or("----".to_string(), |r| r.to_string());
                        let min = self.s.clock_ms / 60_000;
                        conn.send(&format!(
                            "Challenge: StandIn ({rating}) {} (----) unrated blitz {min} {}.",
                            self.handle, self.s.increment_s
                        ));
                        conn.send(
                            "You can \"accept\" or \"decline\", or propose different parameters.",
                        );
                    }
                    if let Some(Flow::Close) = self.tick(&mut conn) {
                        return;
                    }
                    if let Flow::Close = self.due_turn(&mut conn) {
                        return;
                    }
                }
                Ok(Some(line)) => {
                    quiet_since = Instant::now();
                    if line == "\u{2}9" {
                        self.report.lines.push(line.clone());
                        self.report.probes_acked += 1;
                        continue;
                    }
                    // In block mode a command comes as `ID command`; one without its
                    // number is refused and not run, as FICS does.
                    let (id, line) = if self.block_on {
                        match line
                            .split_once(' ')
                            .and_then(|(n, rest)| Some((n.parse::<u32>().ok()?, rest)))
                        {
                            Some((id, rest)) if id > 0 => (Some(id), rest.to_string()),
                            _ => {
                                self.report.unnumbered.push(line.clone());
                                conn.send_raw(&frame(0, 519, ""));
                                continue;
                            }
                        }
                    } else {
                        (None, line)
                    };
                    self.report.lines.push(line.clone());
                    if let Some(id) = id {
                        self.report.block_ids.push(id);
                        conn.capture = Some(String::new());
                    }
                    let flow = self.command(&mut conn, &line);
                    if let Some(id) = id {
                        let out = conn.capture.take().unwrap_or_default();
                        conn.send_raw(&frame(id, block_code(&line, &out), &out));
                        conn.prompt();
                    }
                    if let Flow::Close = flow {
                        return;
                    }
                    if let Flow::Close = self.due_turn(&mut conn) {
                        return;
                    }
                }
            }
        }
    }

    fn read_line(&mut self, conn: &mut Conn, within: Duration) -> Option<String> {
        let until = Instant::now() + within;
        while Instant::now() < until {
            match conn.line() {
                Err(()) => return None,
                Ok(Some(l)) => {
                    if l == "\u{2}9" {
                        self.report.probes_acked += 1;
                        continue;
                    }
                    if l.starts_with("TIMESEAL2|") {
                        continue;
                    }
                    self.report.lines.push(l.clone());
                    return Some(l);
                }
                Ok(None) => {}
            }
        }
        None
    }

    fn suspend(&mut self) {
        if let Some(g) = self.game.take() {
            self.suspended = Some(g);
        }
    }

    /// Brings back the game cut off with the connection.
    fn resume(&mut self, conn: &mut Conn) {
        if let Some(mut g) = self.suspended.take() {
            conn.send(&format!(
                "{{Game {} ({} vs. {}) Continuing unrated blitz match.}}",
                g.number, g.white, g.black
            ));
            g.since = Instant::now();
            self.game = Some(g);
            self.send_board(conn);
            self.schedule_turn();
        } else {
            conn.send("You have no adjourned games.");
        }
    }

    fn command(&mut self, conn: &mut Conn, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["quit"] => {
                self.report.quit = true;
                conn.send("Logging you out.");
                return Flow::Close;
            }
            ["iset", "block", "1"] if self.s.block => {
                if !self.s.block_quiet {
                    conn.send("block set.");
                }
                self.block_on = true;
            }
            // FICS 1.6's `iset` is a stub that says what it was given.
            ["iset", "block", "1"] => conn.send("com_iset: block 1"),
            ["iset", "ms", "1"] if self.s.fics16 => conn.send("com_iset: ms 1"),
            ["iset", "ms", "1"] => {
                self.ms = true;
                conn.send("ms set.");
            }
            ["accept", ..] if self.challenge_sent && self.game.is_none() => self.new_game(conn),
            ["match", ..] if self.matches_refused < self.s.refuse_matches => {
                self.matches_refused += 1;
                conn.send("StandIn is not open to match requests.");
            }
            ["match", ..] | ["seek", ..]
                if self.s.offer == Offer::AwaitMatch
                    && self.game.is_none()
                    && self.suspended.is_none()
                    && self.next_game < self.s.games.len() =>
            {
                self.new_game(conn)
            }
            // FICS 1.6 has no `resume`: a `match` to the opponent brings the game back.
            ["resume"] if self.s.fics16 => conn.send("resume: Command has failed."),
            ["match", "StandIn", ..] if self.s.fics16 && self.suspended.is_some() => {
                self.resume(conn)
            }
            ["resume"] => self.resume(conn),
            ["refresh"] => self.send_board_as(conn, Some(())),
            ["flag"] => self.client_flags(conn),
            ["abort"] => self.client_aborts(conn),
            ["resign"] => {
                if let Some(g) = &self.game {
                    let result = g.win_for_client(false);
                    let reason = format!("{} resigns", self.handle);
                    self.end_game(conn, &reason, result);
                }
            }
            ["draw"] => {
                let claim = self.game.as_ref().and_then(|g| {
                    if g.draw_offered {
                        return Some("Game drawn by mutual agreement".to_string());
                    }
                    g.pos
                        .outcome(&g.history)
                        .filter(|o| o.winner().is_none())
                        .map(|_| "Game drawn by repetition".to_string())
                });
                if let Some(reason) = claim {
                    self.end_game(conn, &reason, "1/2-1/2");
                } else {
                    conn.send("Draw request sent.");
                }
            }
            [word] if coord_to_uci(word).is_some() => {
                let uci = coord_to_uci(word).unwrap_or_default();
                return self.client_move(conn, word, &uci);
            }
            [word, ..] if !KNOWN.contains(word) => {
                conn.send(&format!("{word}: Command not found."))
            }
            _ => {}
        }
        Flow::Continue
    }

    fn new_game(&mut self, conn: &mut Conn) {
        let end = self.s.games[self.next_game];
        self.next_game += 1;
        let number = 10 + self.next_game as u32;
        let client = if self.next_game % 2 == 1 {
            Color::White
        } else {
            Color::Black
        };
        let (white, black) = match client {
            Color::White => (self.handle.clone(), "StandIn".to_string()),
            Color::Black => ("StandIn".to_string(), self.handle.clone()),
        };
        let rating = self.s.rating.map_or("----".to_string(), |r| r.to_string());
        let (wr, br) = match client {
            Color::White => ("----".to_string(), rating),
            Color::Black => (rating, "----".to_string()),
        };
        let min = self.s.clock_ms / 60_000;
        if !self.s.fics16 {
            conn.send(&format!(
                "Creating: {white} ({wr}) {black} ({br}) unrated blitz {min} {}",
                self.s.increment_s
            ));
        }
        conn.send(&format!(
            "{{Game {number} ({white} vs. {black}) Creating unrated blitz match.}}"
        ));
        let start = Position::startpos();
        self.game = Some(Game {
            number,
            client,
            white,
            black,
            pos: start.clone(),
            start,
            history: KeyHistory::new(),
            moves: Vec::new(),
            san: Vec::new(),
            clocks: {
                let mut c = [self.s.clock_ms; 2];
                c[client.index()] = self.s.client_start_ms.unwrap_or(self.s.clock_ms);
                c
            },
            since: Instant::now(),
            end,
            draw_offered: false,
            adjourned: false,
        });
        self.send_board(conn);
        self.schedule_turn();
    }

    fn board_line(&self, g: &Game, last: Option<(&str, &str)>) -> String {
        let mut rows = Vec::new();
        for rank in (0..8).rev() {
            let mut row = String::new();
            for file in 0..8 {
                let sq = sable_chess::Square::from_index(rank * 8 + file);
                row.push(g.pos.piece_at(sq).map_or('-', |p| p.char()));
            }
            rows.push(row);
        }
        let turn = g.pos.turn();
        let ep = g.pos.ep_square().map_or(-1, |s| s.file().index() as i32);
        let c = g.pos.castling_fen(false);
        let has = |ch: char| if c.contains(ch) { 1 } else { 0 };
        let relation = if turn == g.client { 1 } else { -1 };
        let (vm, pm) = last.unwrap_or(("none", "none"));
        let scale = if self.ms { 1 } else { 1000 };
        // The running clock shows what is left now.
        let clocks = [g.left_ms(Color::White), g.left_ms(Color::Black)];
        let tail = if self.s.fics16 { "" } else { " 1 0" };
        format!(
            "<12> {} {} {ep} {} {} {} {} {} {} {} {} {relation} {} {} 39 39 {} {} {} {vm} (0:00) {pm} {}{tail}",
            rows.join(" "),
            if turn == Color::White { 'W' } else { 'B' },
            has('K'),
            has('Q'),
            has('k'),
            has('q'),
            g.pos.halfmoves(),
            g.number,
            g.white,
            g.black,
            self.s.clock_ms / 60_000,
            self.s.increment_s,
            clocks[0] / scale,
            clocks[1] / scale,
            g.pos.fullmoves(),
            if g.client == Color::Black { 1 } else { 0 },
        )
    }

    /// Sends the board of the present position (with hostile lines first when due).
    fn send_board(&mut self, conn: &mut Conn) {
        self.send_board_as(conn, None)
    }

    /// `refresh`: the board again, without hostile lines.
    fn send_board_as(&mut self, conn: &mut Conn, refresh: Option<()>) {
        let Some(g) = &self.game else { return };
        let ply = g.moves.len();
        let last = g.moves.last().map(|m| {
            let san = g.san.last().cloned().unwrap_or_default();
            (format!("x/{}-{}", &m[..2], &m[2..4]), san)
        });
        let line = self.board_line(g, last.as_ref().map(|(a, b)| (a.as_str(), b.as_str())));
        let hostile = if refresh.is_some() {
            Vec::new()
        } else {
            self.s.hostile.clone()
        };
        for h in hostile {
            match h {
                // Hostile output goes out unframed and at once, in both modes.
                Hostile::Garbage(p) if p == ply => {
                    conn.send_now("\u{1}\u{7f}garbage ((( {Game 99 (x vs. ");
                    conn.send_raw_now(&[0xff, 0xfe, 0x80, b'\n']);
                    conn.send_now("Challenge: nonsense");
                    conn.send_now("{Game 1 (A vs. B) A resigns} 1-0");
                    conn.send_now("Nobody tells you: stop");
                }
                Hostile::TruncatedBoard(p) if p == ply => {
                    conn.send_now(&line[..line.len() / 2]);
                }
                Hostile::MalformedBoard(p) if p == ply => {
                    conn.send_now(&line.replace(" W ", " X ").replace(" B ", " X "));
                    conn.send_now(&line.replacen("<12> ", "<12> rnbqkbnrr ", 1));
                }
                Hostile::HugeLine(p) if p == ply => {
                    let mut huge = vec![b'x'; 1 << 20];
                    huge.extend_from_slice(b"<12>\n");
                    conn.send_raw_now(&huge);
                    let mut board = format!("{line} ").into_bytes();
                    board.extend(std::iter::repeat_n(b'9', 1 << 20));
                    board.push(b'\n');
                    conn.send_raw_now(&board);
                }
                Hostile::BlockNoEnd(p) if p == ply => {
                    conn.send_raw_now(b"\x15777\x161\x16A reply that never ends.\n");
                }
                Hostile::BlockBadHeader(p) if p == ply => {
                    conn.send_raw_now(b"\x15x7\x161\x16Broken header.\n\x17\n");
                    conn.send_raw_now(&frame(998, 132, "(told nobody)\n"));
                }
                Hostile::HugeBlock(p) if p == ply => {
                    let mut huge = b"\x15778\x161\x16".to_vec();
                    huge.extend(std::iter::repeat_n(b'y', (1 << 20) + 100));
                    huge.push(b'\n');
                    conn.send_raw_now(&huge);
                }
                Hostile::ControlBytes(p) if p == ply => {
                    // The board itself comes with the bytes in it, unframed (stripped,
                    // it is whole again).
                    let spoilt =
                        line.replacen(" W ", " \x17W\x16 ", 1)
                            .replacen(" B ", " \x16B\x17 ", 1);
                    conn.send_now(&spoilt);
                    return;
                }
                // Only the board that confirms the client's move is dropped, so the
                // next board (after the stand-in's reply) is two plies on.
                Hostile::DropBoard(p)
                    if p == ply && g.pos.turn() != g.client && refresh.is_none() =>
                {
                    return
                }
                _ => {}
            }
        }
        conn.send(&line);
        conn.prompt();
    }

    fn end_game(&mut self, conn: &mut Conn, reason: &str, result: &str) {
        let Some(g) = self.game.take() else { return };
        conn.send(&format!(
            "{{Game {} ({} vs. {}) {reason}}} {result}",
            g.number, g.white, g.black
        ));
        if result != "*" {
            conn.send("No ratings adjustment done.");
        }
        self.report.games.push(GameSeen {
            number: g.number,
            client_white: g.client == Color::White,
            moves: g.moves,
            result: result.to_string(),
            reason: reason.to_string(),
        });
        self.challenge_sent = false;
    }

    /// Ends the game when the rules say so; true if it ended.
    fn rules_end(&mut self, conn: &mut Conn) -> bool {
        let Some(g) = &self.game else { return false };
        let name = |c: Color| {
            if c == Color::White {
                g.white.clone()
            } else {
                g.black.clone()
            }
        };
        let (reason, result) = match g.pos.outcome(&g.history) {
            Some(o) => match o.winner() {
                Some(w) => (
                    format!("{} checkmated", name(!w)),
                    if w == Color::White { "1-0" } else { "0-1" },
                ),
                None => (format!("Game drawn ({o:?})"), "1/2-1/2"),
            },
            None if g.moves.len() >= 400 => ("Game drawn by length".to_string(), "1/2-1/2"),
            None => return false,
        };
        self.end_game(conn, &reason, result);
        true
    }

    fn play(&mut self, uci: &str) -> Option<(String, String)> {
        let g = self.game.as_mut()?;
        let m: Move = g.pos.parse_uci(uci).ok()?;
        let san = g.pos.san(m);
        let mover = g.pos.turn().index();
        let used = g.since.elapsed().as_millis() as i64;
        g.clocks[mover] -= used;
        g.clocks[mover] += i64::from(self.s.increment_s) * 1000;
        g.since = Instant::now();
        g.history.push(g.pos.key());
        g.pos.make(m);
        g.moves.push(uci.to_string());
        g.san.push(san.clone());
        Some((uci.to_string(), san))
    }

    fn client_move(&mut self, conn: &mut Conn, text: &str, uci: &str) -> Flow {
        let Some(g) = &self.game else {
            conn.send("You are not playing a game.");
            return Flow::Continue;
        };
        if g.pos.turn() != g.client {
            self.report.illegal.push(format!("{text} out of turn"));
            conn.send("It is not your move.");
            return Flow::Continue;
        }
        let ply = g.moves.len();
        if self.s.hostile.contains(&Hostile::RefuseMove(ply)) {
            self.s.hostile.retain(|h| *h != Hostile::RefuseMove(ply));
            self.report.refused_on_purpose += 1;
            conn.send(&format!("Illegal move ({text})."));
            return Flow::Continue;
        }
        let legal = g.pos.parse_uci(uci).is_ok();
        if !legal {
            self.report
                .illegal
                .push(format!("{text} in {}", g.pos.fen()));
            conn.send(&format!("Illegal move ({text})."));
            return Flow::Continue;
        }
        // The client's clock: a flag that fell is a loss on time.
        if g.left_ms(g.client) < 0 {
            self.report.client_flagged += 1;
            let result = g.win_for_client(false);
            let reason = format!("{} forfeits on time", self.handle);
            self.end_game(conn, &reason, result);
            return Flow::Continue;
        }
        self.play(uci);
        let ply = self.game.as_ref().map_or(0, |g| g.moves.len());
        if self.s.hostile.contains(&Hostile::Cut(ply)) {
            self.s.hostile.retain(|h| *h != Hostile::Cut(ply));
            self.suspend();
            self.report.notes.push(format!("cut at ply {ply}"));
            return Flow::Close;
        }
        self.send_board(conn);
        if self.rules_end(conn) {
            return Flow::Continue;
        }
        self.schedule_turn();
        Flow::Continue
    }

    /// The stand-in's turn comes after `reply_delay_ms`, as an opponent's who thinks.
    fn schedule_turn(&mut self) {
        self.turn_due = Some(Instant::now() + Duration::from_millis(self.s.reply_delay_ms));
    }

    /// Takes the stand-in's turn when it is due (or cuts the connection then, when
    /// the script says so).
    fn due_turn(&mut self, conn: &mut Conn) -> Flow {
        if self.turn_due.is_none_or(|t| Instant::now() < t) {
            return Flow::Continue;
        }
        self.turn_due = None;
        let ply = self.game.as_ref().map_or(usize::MAX, |g| g.moves.len());
        if self.s.hostile.contains(&Hostile::CutOnTurn(ply)) {
            self.s.hostile.retain(|h| *h != Hostile::CutOnTurn(ply));
            self.suspend();
            self.report
                .notes
                .push(format!("cut on the stand-in's turn at ply {ply}"));
            return Flow::Close;
        }
        self.stand_in_turn(conn);
        Flow::Continue
    }

    /// The stand-in moves (or resigns, flags, offers a draw) when it is its turn.
    fn stand_in_turn(&mut self, conn: &mut Conn) {
        let Some(g) = &self.game else {
            return;
        };
        if g.pos.turn() == g.client {
            return;
        }
        let ply = g.moves.len();
        let result_for_client = g.win_for_client(true);
        match g.end {
            End::Resign(p) if ply >= p => {
                self.end_game(conn, "StandIn resigns", result_for_client);
                return;
            }
            End::Flag(p) if ply >= p => {
                self.end_game(conn, "StandIn forfeits on time", result_for_client);
                return;
            }
            End::Stall(p) if ply >= p => return,
            End::Abort(p) if ply >= p => {
                self.end_game(conn, "Game aborted by mutual agreement", "*");
                return;
            }
            End::Adjourn(p) if ply >= p && !g.adjourned => {
                let Some(mut g) = self.game.take() else {
                    return;
                };
                conn.send(&format!(
                    "{{Game {} ({} vs. {}) Game adjourned by mutual agreement}} *",
                    g.number, g.white, g.black
                ));
                g.adjourned = true;
                g.end = End::Resign(0);
                self.suspended = Some(g);
                self.report.adjourned += 1;
                return;
            }
            End::OfferDraw(p) if ply >= p && !g.draw_offered => {
                conn.send("StandIn offers you a draw.");
                if let Some(g) = self.game.as_mut() {
                    g.draw_offered = true;
                }
            }
            _ => {}
        }
        if self.s.hostile.contains(&Hostile::TakeBack(ply)) {
            self.s.hostile.retain(|h| *h != Hostile::TakeBack(ply));
            if let Some(g) = self.game.as_mut() {
                g.moves.pop();
                g.san.pop();
                g.history.pop();
                let mut pos = g.start.clone();
                for m in &g.moves {
                    let m = pos.parse_uci(m).expect("a move played");
                    pos.make(m);
                }
                g.pos = pos;
                g.since = Instant::now();
            }
            self.report.notes.push(format!("takeback at ply {ply}"));
            conn.send("StandIn takes back 1 half move(s).");
            self.send_board_as(conn, Some(()));
            return;
        }
        if self.s.hostile.contains(&Hostile::ClockDrop(ply)) {
            self.s.hostile.retain(|h| *h != Hostile::ClockDrop(ply));
            if let Some(g) = self.game.as_mut() {
                g.clocks[g.client.index()] -= 5_000;
            }
            self.report.notes.push(format!("clock drop at ply {ply}"));
        }
        let pos = self.game.as_ref().unwrap().pos.clone();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            self.rules_end(conn);
            return;
        }
        let m = match self.s.reply {
            Reply::Random => moves.as_slice()[self.random(moves.len())],
            Reply::First => moves.as_slice()[0],
            Reply::With(choose) => choose(&pos),
        };
        let uci = m.to_uci(false).to_string();
        if self.play(&uci).is_none() {
            self.report
                .notes
                .push(format!("the stand-in's own move {uci} is illegal"));
            return;
        }
        self.send_board(conn);
        self.rules_end(conn);
    }

    /// The client calls the stand-in's flag: a win on time if the stand-in is on move
    /// with its clock run out, else refused as FICS refuses it.
    fn client_flags(&mut self, conn: &mut Conn) {
        let Some(g) = &self.game else {
            conn.send("You are not playing a game.");
            return;
        };
        if g.moves.len() < 2 {
            self.report.flags_refused += 1;
            conn.send("You cannot flag before both players have moved.");
            conn.send("Use abort instead.");
            return;
        }
        if g.left_ms(!g.client) >= 0 {
            self.report.flags_refused += 1;
            conn.send("Your opponent is not out of time.");
            return;
        }
        self.report.flags_won += 1;
        let result = g.win_for_client(true);
        self.end_game(conn, "StandIn forfeits on time", result);
    }

    /// The client asks to abort: granted at once when the stand-in is on move with its
    /// clock run out (FICS's courtesy abort), else sent as a request it never answers.
    fn client_aborts(&mut self, conn: &mut Conn) {
        let Some(g) = &self.game else {
            conn.send("You are not playing a game.");
            return;
        };
        if g.pos.turn() != g.client && g.left_ms(!g.client) < 0 {
            self.report.courtesy_aborts += 1;
            let reason = format!("Game courtesyaborted by {}", self.handle);
            self.end_game(conn, &reason, "*");
        } else {
            conn.send("Abort request sent.");
        }
    }

    /// Periodic work: the client's flag.
    fn tick(&mut self, conn: &mut Conn) -> Option<Flow> {
        let g = self.game.as_ref()?;
        if g.pos.turn() != g.client {
            return None;
        }
        if g.left_ms(g.client) < -1000 {
            self.report.client_flagged += 1;
            let result = g.win_for_client(false);
            let reason = format!("{} forfeits on time", self.handle);
            self.end_game(conn, &reason, result);
        }
        None
    }
}

/// The commands the stand-in knows (others are answered `Command not found`).
const KNOWN: [&str; 18] = [
    "quit",
    "iset",
    "set",
    "accept",
    "decline",
    "match",
    "seek",
    "unseek",
    "resume",
    "refresh",
    "flag",
    "abort",
    "resign",
    "draw",
    "tell",
    "date",
    "TIMESEAL2|openseal|sable|",
    "",
];

/// A block-mode reply as FICS frames it.
fn frame(id: u32, code: u32, output: &str) -> Vec<u8> {
    format!("\x15{id}\x16{code}\x16{output}\x17\n").into_bytes()
}

/// The code of a command's reply (FICS's `help block_codes`).
fn block_code(command: &str, output: &str) -> u32 {
    let word = command.split_whitespace().next().unwrap_or("");
    if coord_to_uci(word).is_some() {
        return 1;
    }
    match word {
        "abort" => 10,
        "accept" => 11,
        "date" => 32,
        "decline" => 33,
        "draw" => 34,
        "flag" => 38,
        "iset" => 56,
        "match" => 73,
        "quit" => 97,
        "refresh" => 101,
        "resign" => 103,
        "resume" => 104,
        "set" => 109,
        "tell" => 132,
        "seek" => 155,
        "unseek" => 156,
        _ if output.contains("Command not found") => 512,
        _ => 0,
    }
}

/// The socket with the lines read so far.
struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
    timeseal: bool,
    /// What ends a line we send.
    ending: &'static str,
    /// In block mode, while a command runs: its output, sent framed when it is done.
    capture: Option<String>,
}

impl Conn {
    fn send_raw(&mut self, bytes: &[u8]) {
        match &mut self.capture {
            Some(c) => c.push_str(&String::from_utf8_lossy(bytes)),
            None => {
                let _ = self.stream.write_all(bytes);
            }
        }
    }

    fn send(&mut self, line: &str) {
        let ending = self.ending;
        self.send_raw(format!("{line}{ending}").as_bytes());
    }

    /// Sends at once, outside any reply being framed.
    fn send_raw_now(&mut self, bytes: &[u8]) {
        let _ = self.stream.write_all(bytes);
    }

    fn send_now(&mut self, line: &str) {
        let ending = self.ending;
        self.send_raw_now(format!("{line}{ending}").as_bytes());
    }

    /// The prompt, except inside a reply (FICS prints it after the block).
    fn prompt(&mut self) {
        if self.capture.is_none() {
            self.send_raw(b"fics% ");
        }
    }

    /// The next whole line (decoded under Timeseal); `Ok(None)` when none is there yet,
    /// `Err` when the client has gone.
    fn line(&mut self) -> Result<Option<String>, ()> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
                let raw: Vec<u8> = self.buf.drain(..=i).collect();
                let text = if self.timeseal {
                    match sable_ics::timeseal::decode(&raw) {
                        Some((t, _)) => String::from_utf8_lossy(&t).into_owned(),
                        None => format!("(not timeseal) {}", String::from_utf8_lossy(&raw)),
                    }
                } else {
                    String::from_utf8_lossy(&raw).into_owned()
                };
                return Ok(Some(text.trim_end_matches(['\r', '\n']).to_string()));
            }
            let mut chunk = [0u8; 4096];
            match self.stream.read(&mut chunk) {
                Ok(0) => return Err(()),
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return Ok(None)
                }
                Err(_) => return Err(()),
            }
        }
    }
}
