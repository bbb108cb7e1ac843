//! The bot: connects and logs in, finds games (accepting challenges by the policy,
//! challenging a named opponent, seeking), plays them one at a time with the
//! [`Player`], answers draw, abort, adjourn and takeback requests, writes each
//! finished game's PGN, obeys its owner's tells, and reconnects with exponential
//! backoff when the connection drops, resuming an interrupted game when the server
//! brings it back. Bad server lines are logged and skipped; the state stays intact.
//! In block mode a reply is read knowing the command it answers: an error names it, and
//! an illegal-move reply counts only when it answers our move.
//!
//! Pondering is run from here too: once the server confirms our move, the player
//! thinks about the reply it expects while this loop goes on reading the server. The
//! reply that comes resolves it (a hit goes on as the timed search, a miss is stopped
//! and searched afresh); anything else that changes the game (its end, a resync, a new
//! game, a refused move, a dropped connection, the owner's stop or pause) stops it, so
//! that no search outlives the position it was started for.

use crate::config::{Config, SeekSpec};
use crate::connection::{ConnectError, Connection, Incoming, Reply};
use crate::framing::{self, BLK_ERROR_NOSEQUENCE};
use crate::game::{BoardFit, GameRecord};
use crate::log::Log;
use crate::messages::{self, classify, Challenge, Creating, ServerLine};
use crate::player::{MoveRequest, Player};
use crate::policy::{judge, ScoreTrack, Verdict};
use crate::style12::{ClockUnit, Relation, Style12};
use sable_chess::{Color, KeyHistory, Move};
use sable_formats::pgn::GameResult;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a run did, for the report at the end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games finished with a result (the PGN file has one game for each).
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games aborted or adjourned and never resumed.
    pub aborted: u32,
    /// Sessions that ended with the connection dropped.
    pub drops: u32,
    /// Lines the server sent that could not be read (malformed boards, over-long lines).
    pub bad_lines: u32,
    /// Boards that did not follow from our position.
    pub resyncs: u32,
    /// Moves of ours the server refused.
    pub refused_moves: u32,
    /// PGN writes that failed (the games are in the log).
    pub pgn_errors: u32,
}

/// Why the client stopped before it was asked to.
#[derive(Debug, thiserror::Error)]
pub enum IcsError {
    #[error(transparent)]
    Login(#[from] ConnectError),
    #[error("gave up after {attempts} failed connections in a row; the last: {last}")]
    GaveUp { attempts: u32, last: String },
}

/// The longest the setup waits for the answer to `iset block 1`.
const BLOCK_WAIT_MS: u64 = 5_000;

/// How often and how many times `resume` is sent for a suspended game.
const RESUME_EVERY: Duration = Duration::from_secs(10);
const RESUME_TRIES: u32 = 6;

enum SessionEnd {
    Done,
    Dropped(String),
}

/// The ponder search running: the position it was started in (the guess is the move
/// after ply `ply`) and our clock it was given.
struct Ponder {
    ply: usize,
    guess: Move,
    my_ms: u64,
}

/// How far our clock on the board that brings the expected reply may be below the one
/// the ponder search was given before its time budget is no longer trusted: the clock
/// does not run on the opponent's move, so it differs only by the server's rounding.
const PONDER_CLOCK_SLACK_MS: u64 = 1_000;

/// No pondering with less than this on our clock (ms, the lag allowance taken off).
const PONDER_MIN_CLOCK_MS: u64 = 3_000;

/// Our move sent and not yet confirmed by a board, for measuring lag.
struct Pending {
    ply: usize,
    clock_before: i64,
    think_ms: i64,
}

/// The client.
pub struct Client<P: Player> {
    cfg: Config,
    password: Option<String>,
    player: P,
    log: Log,
    stop: Arc<AtomicBool>,
    handle: String,
    unit: ClockUnit,
    game: Option<GameRecord>,
    /// The game cut off by a dropped connection or an adjournment, for resuming.
    suspended: Option<GameRecord>,
    creating: Option<Creating>,
    /// Ratings seen in challenge and match lines, by handle in lower case.
    ratings: std::collections::HashMap<String, u32>,
    /// Rated or not and the category of the game announced last (`{Game N ... Creating
    /// rated blitz match.}`).
    terms: Option<(bool, String)>,
    scores: ScoreTrack,
    /// The ply we last sent a move for, so a repeated board does not make us move twice.
    answered_ply: Option<usize>,
    pending: Option<Pending>,
    /// The lag measured from the server's clocks, the last few moves, in ms.
    lags: Vec<i64>,
    last_opponent: Option<String>,
    in_a_row: u32,
    paused: bool,
    owner_stop: bool,
    games_limit: u32,
    seek: Option<SeekSpec>,
    seek_posted: bool,
    last_challenge: Option<Instant>,
    last_refresh: Option<Instant>,
    /// When we last asked for the suspended game, and how often.
    resume_asked: Option<(Instant, u32)>,
    /// The server has no `resume` (FICS 1.6): ask for the game with `match OPPONENT`.
    resume_by_match: bool,
    /// The opponent's clock in ms as of the board that put them on move, and when that
    /// board came: their flag falls when the one outruns the other.
    their_clock: Option<(Instant, i64)>,
    /// When we last called their flag (repeated every few seconds while it stands).
    flagged_at: Option<Instant>,
    /// The reply our player expects to the move we sent (the ply after our move and the
    /// move), until the board that confirms our move starts the ponder search.
    expected: Option<(usize, Move)>,
    pondering: Option<Ponder>,
    /// The owner said `ponder off`.
    ponder_off: bool,
    /// The last move we sent, as sent: a block-mode reply to it is about our move.
    last_move: Option<String>,
    /// `BLK_ERROR_NOSEQUENCE` replies still to come for commands already sent again.
    nosequence_expected: usize,
    started: Instant,
    summary: Summary,
}

fn move_text(m: Move) -> String {
    // FICS reads promotions as `e7e8=q`.
    let uci = m.to_uci(false).to_string();
    if uci.len() == 5 {
        format!("{}={}", &uci[..4], &uci[4..])
    } else {
        uci
    }
}

impl<P: Player> Client<P> {
    /// A client with `cfg` (checked) playing with `player`. The password is read here.
    pub fn new(cfg: Config, player: P, log: Log) -> Result<Self, crate::ConfigError> {
        cfg.check()?;
        let password = cfg.password()?;
        Ok(Client {
            games_limit: cfg.games,
            seek: cfg.seek.clone(),
            handle: cfg.handle.clone(),
            cfg,
            password,
            player,
            log,
            stop: Arc::new(AtomicBool::new(false)),
            unit: ClockUnit::Seconds,
            game: None,
            suspended: None,
            creating: None,
            ratings: std::collections::HashMap::new(),
            terms: None,
            scores: ScoreTrack::default(),
            answered_ply: None,
            pending: None,
            lags: Vec::new(),
            last_opponent: None,
            in_a_row: 0,
            paused: false,
            owner_stop: false,
            last_challenge: None,
            last_refresh: None,
            resume_asked: None,
            resume_by_match: false,
            their_clock: None,
            flagged_at: None,
            expected: None,
            pondering: None,
            ponder_off: false,
            last_move: None,
            nosequence_expected: 0,
            seek_posted: false,
            started: Instant::now(),
            summary: Summary::default(),
        })
    }

    /// A flag that, once set, makes the client finish the game in progress and stop.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Makes `flag` the stop flag (a Ctrl-C handler's, say).
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// The player (to read its state after a run).
    pub fn player(&self) -> &P {
        &self.player
    }

    /// Whether no new game should start.
    fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
            || self.owner_stop
            || (self.games_limit > 0 && self.summary.games >= self.games_limit)
            || (self.cfg.stop_after_minutes > 0
                && self.started.elapsed() >= Duration::from_secs(self.cfg.stop_after_minutes * 60))
    }

    /// Runs until the games are played or a stop is asked for; reconnects as needed.
    pub fn run(&mut self) -> Result<Summary, IcsError> {
        let rc = self.cfg.reconnect.clone();
        let timeout = Duration::from_millis(rc.timeout_ms);
        let mut failures: u32 = 0;
        loop {
            if self.stopping() && (self.suspended.is_none() || self.stop.load(Ordering::SeqCst)) {
                break;
            }
            let attempt = Connection::open(
                &self.cfg.host,
                self.cfg.port,
                timeout,
                self.cfg.timeseal,
                self.log.clone(),
            )
            .and_then(|mut c| {
                self.log
                    .line(&format!("connected to {}:{}", self.cfg.host, self.cfg.port));
                let h = c.login(&self.cfg.handle, self.password.as_deref(), timeout)?;
                Ok((c, h))
            });
            let why = match attempt {
                Ok((conn, handle)) => {
                    self.log.line(&format!("logged in as {handle}"));
                    let began = Instant::now();
                    match self.session(conn, handle) {
                        SessionEnd::Done => break,
                        SessionEnd::Dropped(why) => {
                            self.summary.drops += 1;
                            // A session that dies at once counts as a failure, so a
                            // server that drops us straight away is not hammered.
                            failures = if began.elapsed() < Duration::from_secs(30) {
                                failures + 1
                            } else {
                                1
                            };
                            format!("connection lost: {why}")
                        }
                    }
                }
                Err(e) if !e.is_retryable() => {
                    self.log.line(&format!("error: {e}"));
                    return Err(e.into());
                }
                Err(e) => {
                    failures += 1;
                    e.to_string()
                }
            };
            self.log.line(&format!("error: {why}"));
            if rc.max_attempts > 0 && failures >= rc.max_attempts {
                self.log.line(&format!(
                    "giving up after {failures} failed attempts in a row"
                ));
                return Err(IcsError::GaveUp {
                    attempts: failures,
                    last: why,
                });
            }
            let delay = rc
                .initial_delay_ms
                .saturating_mul(1u64 << failures.saturating_sub(1).min(20))
                .min(rc.max_delay_ms);
            self.log.line(&format!(
                "reconnecting in {delay} ms (attempt {})",
                failures + 1
            ));
            let until = Instant::now() + Duration::from_millis(delay);
            while Instant::now() < until {
                if self.stop.load(Ordering::SeqCst) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        if let Some(g) = self.suspended.take() {
            self.log.line(&format!(
                "game {} ({} vs. {}) was never resumed; not written to the PGN",
                g.number, g.white, g.black
            ));
            self.summary.aborted += 1;
        }
        let s = &self.summary;
        self.log.line(&format!(
            "done: {} games (+{} ={} -{}), {} aborted, {} dropped connections, {} bad lines, {} resyncs, {} moves refused",
            s.games, s.wins, s.draws, s.losses, s.aborted, s.drops, s.bad_lines, s.resyncs, s.refused_moves
        ));
        Ok(self.summary.clone())
    }

    /// Whether a ponder search may run now: configured, not turned off by the owner, and
    /// not winding down (a stop, a pause or Ctrl-C end pondering at once).
    fn may_ponder(&self) -> bool {
        self.cfg.play.ponder
            && !self.ponder_off
            && !self.paused
            && !self.owner_stop
            && !self.stop.load(Ordering::SeqCst)
    }

    /// Stops the ponder search, if one runs, and logs why.
    fn end_ponder(&mut self, why: &str) {
        self.expected = None;
        if let Some(p) = self.pondering.take() {
            self.player.stop_pondering();
            self.log.line(&format!(
                "ponder stopped ({why}): expected {}",
                p.guess.to_uci(false)
            ));
        }
    }

    /// Our clock for a search (the server's less the lag allowance) and the opponent's,
    /// in ms, from a board; and the allowance.
    fn clocks(&self, s: &Style12, us: Color) -> (u64, u64, u64) {
        let lag = self.lags.iter().copied().max().unwrap_or(0).max(0) as u64;
        let allowance = self.cfg.play.lag_allowance_ms + lag;
        let mine = s.clock_ms(us).max(0) as u64;
        (
            mine.saturating_sub(allowance).max(10),
            s.clock_ms(!us).max(0) as u64,
            allowance,
        )
    }

    fn session(&mut self, conn: Connection, handle: String) -> SessionEnd {
        let end = self.session_loop(conn, handle);
        // Whatever ended the session (a drop, a stop, the games played), no search may
        // run on into the next one.
        let why = match &end {
            SessionEnd::Done => "the session ended",
            SessionEnd::Dropped(_) => "the connection was lost",
        };
        self.end_ponder(why);
        end
    }

    fn session_loop(&mut self, mut conn: Connection, handle: String) -> SessionEnd {
        self.handle = handle;
        self.nosequence_expected = 0;
        self.unit = ClockUnit::Seconds;
        self.seek_posted = false;
        self.last_challenge = None;
        conn.setup(
            &self.cfg.interface,
            self.cfg.accept.enabled,
            self.cfg.ms_clocks,
            self.cfg.block_mode,
            Duration::from_millis(self.cfg.reconnect.timeout_ms.min(BLOCK_WAIT_MS)),
        );
        for c in self.cfg.commands.clone() {
            conn.send(&c);
        }
        // A game cut off with the connection: ask for it back.
        if let Some(g) = &self.game {
            self.log.line(&format!(
                "asking to resume game {} ({} vs. {})",
                g.number, g.white, g.black
            ));
            self.suspended = self.game.take();
        }
        self.resume_asked = None;
        self.resume_by_match = false;
        let mut last_io = Instant::now();
        loop {
            if self.game.is_none() {
                if self.stopping() && self.suspended.is_none() {
                    if self.seek_posted {
                        conn.send("unseek");
                    }
                    conn.send("quit");
                    conn.close();
                    return SessionEnd::Done;
                }
                if self.stop.load(Ordering::SeqCst) {
                    conn.send("quit");
                    conn.close();
                    return SessionEnd::Done;
                }
                self.ask_to_resume(&mut conn);
                self.look_for_game(&mut conn);
            }
            if self.pondering.is_some() && !self.may_ponder() {
                self.end_ponder("told to stop, pause or not ponder");
            }
            let keep = self.cfg.keepalive_minutes;
            if keep > 0 && last_io.elapsed() >= Duration::from_secs(keep * 60) {
                conn.send("date");
                last_io = Instant::now();
            }
            self.flag_if_out(&mut conn);
            let Some(incoming) = conn.next(Duration::from_millis(100)) else {
                let idle = self.cfg.play.refresh_idle_ms;
                if idle > 0
                    && self.game.is_some()
                    && last_io.elapsed() >= Duration::from_millis(idle)
                {
                    self.log
                        .line("nothing from the server for a while; asking for the board");
                    self.last_refresh = None;
                    self.refresh(&mut conn);
                    last_io = Instant::now();
                }
                continue;
            };
            last_io = Instant::now();
            match incoming {
                Incoming::Closed(why) => {
                    if let Some(g) = self.game.take() {
                        self.suspended = Some(g);
                    }
                    return SessionEnd::Dropped(why);
                }
                Incoming::Overlong { start, len } => self.on_overlong(&start, len),
                Incoming::Line(line) => {
                    if let Some(end) = self.on_line(&mut conn, &line, None) {
                        return end;
                    }
                }
                Incoming::BadFrame(why) => {
                    self.summary.bad_lines += 1;
                    self.log.line(&format!("error: block framing: {why}"));
                }
                Incoming::Reply(reply) => {
                    if let Some(end) = self.on_reply(&mut conn, reply) {
                        return end;
                    }
                }
            }
        }
    }

    fn on_overlong(&mut self, start: &str, len: usize) {
        self.summary.bad_lines += 1;
        self.log.line(&format!(
            "warning: a {len}-byte line from the server, dropped (it began '{start}')"
        ));
    }

    /// A block-mode reply: errors are logged with the command they answer (a refused
    /// move is taken back as such), then its lines are read as any others, knowing the
    /// command they answer.
    fn on_reply(&mut self, conn: &mut Connection, reply: Reply) -> Option<SessionEnd> {
        let lines: Vec<&str> = reply
            .body
            .iter()
            .filter_map(|i| match i {
                Incoming::Line(l) => Some(l.as_str()),
                _ => None,
            })
            .collect();
        let first = lines
            .iter()
            .map(|l| messages::clean(l).trim())
            .find(|l| !l.is_empty())
            .unwrap_or("");
        let what = match &reply.command {
            Some(c) => format!("'{c}' (#{})", reply.id),
            None => format!("#{} (no command of ours)", reply.id),
        };
        let ours = reply.command.is_some() && reply.command == self.last_move;
        if reply.command.is_none() && reply.code != BLK_ERROR_NOSEQUENCE {
            self.log
                .line(&format!("warning: a reply to {what}: '{first}'"));
        }
        if reply.code == BLK_ERROR_NOSEQUENCE {
            // The server read a command without its number, and dropped it.
            if self.nosequence_expected > 0 {
                // One of those already sent again.
                self.nosequence_expected -= 1;
            } else if conn.block_mode() {
                self.log
                    .line("error: the server read a command of ours without its number; dropped");
                self.command_lost(conn);
            } else {
                self.log.line(
                    "error: the server is in block mode though it did not say so, and dropped our unnumbered commands; numbering them from now on",
                );
                let n = conn.block_mode_found();
                self.log
                    .line(&format!("sent the {n} dropped commands again, numbered"));
                // Each dropped command has its error reply; this was the first.
                self.nosequence_expected = n.saturating_sub(1);
                if n == 0 {
                    self.command_lost(conn);
                }
            }
        } else if reply.code >= 512 {
            self.log.line(&format!(
                "error: the server refused {what}: {} ({}): '{first}'",
                framing::code_name(reply.code),
                reply.code
            ));
            let explained = lines
                .iter()
                .any(|l| matches!(classify(l), ServerLine::IllegalMove { .. }));
            if ours && !explained {
                self.refuse_move(conn, first);
            }
        } else if reply
            .command
            .as_deref()
            .is_some_and(|c| c.starts_with("match "))
        {
            self.log.line(&format!("{what}: '{first}'"));
        }
        let command = reply.command.clone();
        for item in reply.body {
            match item {
                Incoming::Line(l) => {
                    if let Some(end) = self.on_line(conn, &l, command.as_deref()) {
                        return Some(end);
                    }
                }
                Incoming::Overlong { start, len } => self.on_overlong(&start, len),
                _ => {}
            }
        }
        None
    }

    /// A command of ours the server never read: in a game, the move is asked for again
    /// (the board, and our move on it, come back).
    fn command_lost(&mut self, conn: &mut Connection) {
        if self.game.is_some() {
            self.end_ponder("a command was lost");
            self.answered_ply = None;
            self.pending = None;
            self.last_refresh = None;
            self.refresh(conn);
        }
    }

    /// The server refused our move: it is played again on the board asked for.
    fn refuse_move(&mut self, conn: &mut Connection, text: &str) {
        self.end_ponder("our move was refused");
        self.summary.refused_moves += 1;
        let mv = self.last_move.take().unwrap_or_default();
        self.log.line(&format!(
            "error: the server refused our move {mv}: {text}; asking for the board"
        ));
        self.answered_ply = None;
        self.pending = None;
        self.refresh(conn);
    }

    /// Asks for the suspended game with `resume` every ten seconds; after a minute it is
    /// given up (the opponent may never come back) and the bot looks for new games.
    fn ask_to_resume(&mut self, conn: &mut Connection) {
        let Some(g) = &self.suspended else {
            return;
        };
        let tries = match self.resume_asked {
            Some((t, _)) if t.elapsed() < RESUME_EVERY => return,
            Some((_, n)) => n,
            None => 0,
        };
        if tries >= RESUME_TRIES {
            self.log.line(&format!(
                "game {} ({} vs. {}) did not come back; given up",
                g.number, g.white, g.black
            ));
            self.summary.aborted += 1;
            self.suspended = None;
            self.resume_asked = None;
            return;
        }
        if self.resume_by_match {
            let opponent = if g.white.eq_ignore_ascii_case(&self.handle) {
                &g.black
            } else {
                &g.white
            };
            // The game's own terms: a server that has the game ignores them, one that
            // lost it makes a new game of the same kind instead of one on its defaults.
            let rated = if g.rated { "rated" } else { "unrated" };
            conn.send(&format!(
                "match {opponent} {} {} {rated}",
                g.minutes, g.increment
            ));
        } else {
            conn.send("resume");
        }
        self.resume_asked = Some((Instant::now(), tries + 1));
    }

    /// Challenges the configured opponent or posts the seek, when idle.
    fn look_for_game(&mut self, conn: &mut Connection) {
        if self.paused || self.suspended.is_some() {
            return;
        }
        if let Some(c) = &self.cfg.challenge {
            let due = self
                .last_challenge
                .is_none_or(|t| t.elapsed() >= Duration::from_secs(c.retry_seconds.max(1)));
            if due {
                let rated = if c.rated { "rated" } else { "unrated" };
                let cmd = format!("match {} {} {} {rated}", c.opponent, c.minutes, c.increment);
                conn.send(&cmd);
                self.last_challenge = Some(Instant::now());
            }
        }
        if let (Some(s), false) = (&self.seek, self.seek_posted) {
            let rated = if s.rated { "rated" } else { "unrated" };
            conn.send(&format!("seek {} {} {rated}", s.minutes, s.increment));
            self.seek_posted = true;
        }
    }

    /// One line from the server; `reply_to` is the command whose reply it is in (block
    /// mode).
    fn on_line(
        &mut self,
        conn: &mut Connection,
        line: &str,
        reply_to: Option<&str>,
    ) -> Option<SessionEnd> {
        let kind = classify(line);
        let noise = matches!(kind, ServerLine::Prompt)
            || matches!(kind, ServerLine::Other(ref s) if s.is_empty());
        if !noise {
            self.log.line(&format!("< {line}"));
        }
        match kind {
            ServerLine::Board(text) => match Style12::parse(&text, self.unit) {
                Ok(s) => self.on_board(conn, &s),
                Err(e) => {
                    self.summary.bad_lines += 1;
                    self.log.line(&format!("error: {e}"));
                    self.refresh(conn);
                }
            },
            ServerLine::Creating(c) => {
                self.log.line(&format!(
                    "ratings seen: {} {} , {} {}",
                    c.white,
                    c.white_rating.map_or("-".to_string(), |r| r.to_string()),
                    c.black,
                    c.black_rating.map_or("-".to_string(), |r| r.to_string())
                ));
                self.creating = Some(c);
            }
            ServerLine::GameEnded {
                game,
                white,
                black,
                reason,
                result,
            } => self.on_game_end(game, &white, &black, &reason, result),
            ServerLine::GameStarted {
                rated, category, ..
            } if !category.is_empty() => self.terms = Some((rated, category)),
            ServerLine::Challenge(c) => {
                for (name, rating) in [(&c.from, c.from_rating), (&c.to, c.to_rating)] {
                    if let Some(r) = rating {
                        self.ratings.insert(name.to_ascii_lowercase(), r);
                    }
                }
                self.on_challenge(conn, &c)
            }
            ServerLine::DrawOffer { from } => self.on_draw_offer(conn, &from),
            ServerLine::AbortRequest { from } => {
                let plies = self.game.as_ref().map_or(0, |g| g.moves.len());
                if plies <= self.cfg.play.accept_abort_plies as usize {
                    self.log
                        .line(&format!("accepting {from}'s abort request at ply {plies}"));
                    conn.send("abort");
                } else {
                    conn.send("decline abort");
                }
            }
            ServerLine::AdjournRequest { .. } => conn.send("decline adjourn"),
            ServerLine::TakebackRequest { .. } => conn.send("decline takeback"),
            ServerLine::IllegalMove { text } if self.game.is_some() => match reply_to {
                // In block mode we know which command it answers.
                Some(c) if Some(c) != self.last_move.as_deref() => self.log.line(&format!(
                    "warning: '{text}' in the reply to '{c}', not to our move; ignored"
                )),
                _ => self.refuse_move(conn, &text),
            },
            ServerLine::Tell { from, text } => self.on_tell(conn, &from, &text),
            ServerLine::RatingChange { category, old, new } => {
                self.log.line(&format!("rating: {category} {old} -> {new}"))
            }
            ServerLine::SettingConfirmed { name } if name == "ms" => {
                self.unit = ClockUnit::Milliseconds;
            }
            // FICS 1.6 and its forks have no `resume`; a `match` to the opponent of an
            // adjourned game asks for it back (the opponent sees an "(adjourned)"
            // challenge). Sent only after `resume` failed: elsewhere a `match` makes a
            // new game when the old one is gone.
            ServerLine::Other(text)
                if self.suspended.is_some()
                    && !self.resume_by_match
                    && (text.starts_with("resume: Command has failed")
                        || text.starts_with("resume: Command not found")) =>
            {
                self.log
                    .line("the server has no 'resume'; asking with 'match' instead");
                self.resume_by_match = true;
                self.resume_asked = None;
            }
            ServerLine::LoginPrompt | ServerLine::PasswordPrompt => {
                conn.close();
                if let Some(g) = self.game.take() {
                    self.suspended = Some(g);
                }
                return Some(SessionEnd::Dropped(
                    "the server asked us to log in again".into(),
                ));
            }
            _ => {}
        }
        None
    }

    /// Asks for the board again (at most every two seconds).
    fn refresh(&mut self, conn: &mut Connection) {
        if self.game.is_some()
            && self
                .last_refresh
                .is_none_or(|t| t.elapsed() >= Duration::from_secs(2))
        {
            self.last_refresh = Some(Instant::now());
            conn.send("refresh");
        }
    }

    fn on_board(&mut self, conn: &mut Connection, s: &Style12) {
        // Our clock on the board is as of now: what handling it takes before the search
        // (stopping a ponder search on a loaded machine) is time off it.
        let arrived = Instant::now();
        if !s.relation.is_playing() {
            return;
        }
        let Some(us) = s.color_of(&self.handle) else {
            return;
        };
        let ours = self.game.as_ref().is_some_and(|g| g.is_game_of(s));
        if !ours {
            // A suspended game coming back, or a new game.
            let resumed = match self.suspended.take() {
                Some(g) if g.is_game_of(s) => Some(g),
                Some(g) => {
                    // A new game began instead: the interrupted one is given up.
                    self.log.line(&format!(
                        "game {} ({} vs. {}) was not resumed before a new game; given up",
                        g.number, g.white, g.black
                    ));
                    self.summary.aborted += 1;
                    None
                }
                None => None,
            };
            let mut g = match resumed {
                Some(g) => {
                    self.log.line(&format!("game {} resumed", s.game));
                    g
                }
                None => {
                    if let Some(old) = self.game.take() {
                        self.log.line(&format!(
                            "game {} ({} vs. {}) left without an end line; not written",
                            old.number, old.white, old.black
                        ));
                        self.summary.aborted += 1;
                    }
                    match GameRecord::start(s, us, self.creating.as_ref()) {
                        Ok(mut g) => {
                            let rating =
                                |n: &str| self.ratings.get(&n.to_ascii_lowercase()).copied();
                            g.white_elo = g.white_elo.or_else(|| rating(&g.white));
                            g.black_elo = g.black_elo.or_else(|| rating(&g.black));
                            if let (Some((rated, category)), true) =
                                (&self.terms, g.category.is_empty())
                            {
                                g.rated = *rated;
                                g.category = category.clone();
                            }
                            self.scores = ScoreTrack::default();
                            self.lags.clear();
                            self.log.line(&format!(
                                "game {}: {} vs. {}, {}+{}, we play {}",
                                s.game,
                                s.white,
                                s.black,
                                s.initial_min,
                                s.increment_s,
                                if us == Color::White { "white" } else { "black" }
                            ));
                            g
                        }
                        Err(e) => {
                            self.summary.bad_lines += 1;
                            self.log.line(&format!("error: game {}: {e}", s.game));
                            return;
                        }
                    }
                }
            };
            let fit = g.follow(s);
            if let BoardFit::Resynced(note) = &fit {
                self.summary.resyncs += 1;
                self.log.line(&format!("warning: {note}"));
            }
            self.end_ponder("a new game");
            self.player.new_game(&g.start, &g.moves);
            self.answered_ply = None;
            self.pending = None;
            self.seek_posted = false;
            self.game = Some(g);
        } else if let Some(g) = &mut self.game {
            match g.follow(s) {
                BoardFit::Same => {}
                BoardFit::Moved(m) => {
                    let ply = g.moves.len();
                    if let Some(p) = self.pending.take() {
                        if p.ply + 1 == ply && self.unit == ClockUnit::Milliseconds {
                            let charged =
                                p.clock_before + i64::from(s.increment_s) * 1000 - s.clock_ms(us);
                            let lag = (charged - p.think_ms).clamp(0, 10_000);
                            self.lags.push(lag);
                            if self.lags.len() > 8 {
                                self.lags.remove(0);
                            }
                        }
                    }
                    // The opponent's reply resolves the ponder search: a hit is
                    // taken up by `play_move`, a miss stopped here.
                    let guess = self.pondering.as_ref().map(|p| (p.ply, p.guess));
                    match guess {
                        Some((p, guess)) if p + 1 == ply && guess != m => {
                            self.log.line(&format!(
                                "ponder miss: expected {}, got {}",
                                guess.to_uci(false),
                                m.to_uci(false)
                            ));
                            self.pondering = None;
                            self.player.stop_pondering();
                        }
                        Some((p, _)) if p + 1 == ply => {}
                        Some(_) => self.end_ponder("the game moved on"),
                        None => {
                            if self.expected.is_some_and(|(p, _)| p == ply) && s.turn != us {
                                self.start_pondering(s, us);
                            }
                        }
                    }
                }
                BoardFit::Resynced(note) => {
                    self.summary.resyncs += 1;
                    self.log.line(&format!("warning: {note}"));
                    let (start, moves) = (g.start.clone(), g.moves.clone());
                    self.end_ponder("the board was resynchronised");
                    self.player.new_game(&start, &moves);
                    self.answered_ply = None;
                }
            }
        }
        self.watch_their_clock(conn, s, us);
        if s.turn == us && s.relation == Relation::PlayingMyMove {
            self.play_move(conn, s, us, arrived);
        }
        // A ponder search is only ever on the position before its guess; one that the
        // move just played did not take up (a hit on a board that was not ours to move
        // in, a game that ended with the reply) is stopped here.
        let plies = self.game.as_ref().map(|g| g.moves.len());
        if self
            .pondering
            .as_ref()
            .is_some_and(|p| Some(p.ply) != plies)
        {
            self.end_ponder("its position is gone");
        }
    }

    /// Starts the player's ponder search on the reply it expects, once the server has
    /// confirmed our move (`s` is that board, the opponent on move), so that the clocks
    /// it is given are the server's.
    fn start_pondering(&mut self, s: &Style12, us: Color) {
        let Some((ply, guess)) = self.expected.take() else {
            return;
        };
        if !self.may_ponder() {
            return;
        }
        let Some(g) = &self.game else {
            return;
        };
        let pos = g.position();
        if g.moves.len() != ply || pos.turn() == us {
            return;
        }
        if !pos.is_legal(guess) {
            self.log.line(&format!(
                "ponder: the expected reply {} is not legal in {}; not pondering",
                guess.to_uci(false),
                pos.fen()
            ));
            return;
        }
        let (my_ms, their_ms, _) = self.clocks(s, us);
        // A miss must stop and join the ponder search before we think, and on a machine
        // with more busy threads than cores that waits for a core (measured in
        // results/2026-12-05/ics-ponder.md). With a few seconds left that can flag us.
        if my_ms < PONDER_MIN_CLOCK_MS {
            return;
        }
        let mut after = pos.clone();
        after.make(guess);
        if after.legal_moves().is_empty() {
            return;
        }
        let mut moves = g.moves.clone();
        moves.push(guess);
        let req = MoveRequest {
            start: &g.start,
            moves: &moves,
            position: &after,
            my_ms,
            their_ms,
            increment_ms: u64::from(s.increment_s) * 1000,
            max_ms: (self.cfg.play.max_move_ms > 0).then_some(self.cfg.play.max_move_ms),
        };
        match self.player.ponder(&req) {
            Ok(true) => {
                self.log.line(&format!(
                    "ponder: expecting {} ({my_ms} ms on our clock)",
                    guess.to_uci(false)
                ));
                self.pondering = Some(Ponder { ply, guess, my_ms });
            }
            Ok(false) => {}
            Err(e) => self.log.line(&format!("error: pondering failed: {e}")),
        }
    }

    /// Keeps the opponent's clock from a board. FICS ends a game on time only when the
    /// other player calls `flag` (a server never flags for anyone), so a bot that does
    /// not call it waits for ever on an opponent who left, and plays on against one
    /// who is out of time. A board on our move with their clock below zero means they
    /// moved after their flag fell: it is called at once.
    fn watch_their_clock(&mut self, conn: &mut Connection, s: &Style12, us: Color) {
        self.their_clock = None;
        if !self.cfg.play.autoflag || (s.initial_min == 0 && s.increment_s == 0) {
            return;
        }
        if s.turn == us {
            if s.clock_ms(!us) < 0 {
                self.call_flag(conn, s.clock_ms(!us));
            }
        } else {
            self.their_clock = Some((Instant::now(), s.clock_ms(!us)));
        }
    }

    /// Calls the opponent's flag when their clock, counted on from the last board, is
    /// past zero by more than the server's rounding (whole seconds on servers without
    /// millisecond clocks).
    fn flag_if_out(&mut self, conn: &mut Connection) {
        let Some((since, ms)) = self.their_clock else {
            return;
        };
        if self.game.is_none() {
            self.their_clock = None;
            return;
        }
        let margin = match self.unit {
            ClockUnit::Milliseconds => 300,
            ClockUnit::Seconds => 1_000,
        };
        let left = ms - since.elapsed().as_millis() as i64;
        if left < -margin {
            self.call_flag(conn, left);
        }
    }

    /// Sends `flag`, at most every three seconds (a refused flag is answered by the
    /// server, and the clock it counts may differ from ours by the lag). Before both
    /// sides have moved FICS refuses a flag ("use abort instead"); `abort` with the
    /// opponent out of time is its courtesy abort, which ends the game at once.
    fn call_flag(&mut self, conn: &mut Connection, their_ms: i64) {
        if self
            .flagged_at
            .is_some_and(|t| t.elapsed() < Duration::from_secs(3))
        {
            return;
        }
        self.flagged_at = Some(Instant::now());
        let early = self.game.as_ref().is_some_and(|g| g.moves.len() < 2);
        let (what, command) = if early {
            (
                "aborting the game (no flag before both have moved)",
                "abort",
            )
        } else {
            ("calling their flag", "flag")
        };
        self.log.line(&format!(
            "their clock is out ({their_ms} ms by our count): {what}"
        ));
        conn.send(command);
    }

    fn play_move(&mut self, conn: &mut Connection, s: &Style12, us: Color, arrived: Instant) {
        let Some(g) = &self.game else {
            return;
        };
        let ply = g.moves.len();
        if self.answered_ply == Some(ply) {
            return;
        }
        let pos = g.position();
        if pos.turn() != us || pos.legal_moves().is_empty() {
            return;
        }
        let (my_ms, their_ms, allowance) = self.clocks(s, us);
        let my_ms = my_ms
            .saturating_sub(arrived.elapsed().as_millis() as u64)
            .max(10);
        let mine = s.clock_ms(us).max(0) as u64;
        let req = MoveRequest {
            start: &g.start,
            moves: &g.moves,
            position: &pos,
            my_ms,
            their_ms,
            increment_ms: u64::from(s.increment_s) * 1000,
            max_ms: (self.cfg.play.max_move_ms > 0).then_some(self.cfg.play.max_move_ms),
        };
        let t0 = Instant::now();
        let thought = match self.pondering.take() {
            Some(p) if p.ply + 1 == ply && g.moves.get(p.ply) == Some(&p.guess) => {
                let guess = p.guess.to_uci(false);
                if my_ms + PONDER_CLOCK_SLACK_MS < p.my_ms {
                    // The search's time budget was set from a clock we no longer have.
                    self.log.line(&format!(
                        "ponderhit {guess}, but our clock is {my_ms} ms, not the {} ms it was pondered with; searching afresh",
                        p.my_ms
                    ));
                    self.player.stop_pondering();
                    self.player.think(&req)
                } else {
                    self.log.line(&format!("ponderhit {guess}"));
                    // Every think ends in a move: a ponder search that fails is
                    // replaced by a fresh one.
                    match self.player.ponderhit(&req) {
                        Ok(t) if pos.is_legal(t.mv) => Ok(t),
                        Ok(t) => {
                            self.log.line(&format!(
                                "error: the ponder search chose {}, not legal here; searching afresh",
                                t.mv.to_uci(false)
                            ));
                            self.player.think(&req)
                        }
                        Err(e) => {
                            self.log.line(&format!(
                                "error: the ponder search failed: {e}; searching afresh"
                            ));
                            self.player.think(&req)
                        }
                    }
                }
            }
            Some(p) => {
                self.player.stop_pondering();
                self.log.line(&format!(
                    "ponder stopped (not this position): expected {}",
                    p.guess.to_uci(false)
                ));
                self.player.think(&req)
            }
            None => self.player.think(&req),
        };
        let thought = match thought {
            Ok(t) => t,
            Err(e) => {
                self.log
                    .line(&format!("error: the player found no move: {e}"));
                return;
            }
        };
        let think_ms = t0.elapsed().as_millis() as i64;
        if !pos.is_legal(thought.mv) {
            self.log.line(&format!(
                "error: the player chose {} which is not legal in {}; not sent",
                thought.mv.to_uci(false),
                pos.fen()
            ));
            return;
        }
        self.answered_ply = Some(ply);
        if let Some(cp) = thought.score_cp {
            self.scores.push(cp);
        }
        let policy = &self.cfg.play;
        if self.scores.should_resign(policy) {
            self.log.line(&format!(
                "resigning: the score stayed at or below {} for {} moves",
                policy.resign_score, policy.resign_moves
            ));
            conn.send("resign");
            return;
        }
        let score = thought
            .score_cp
            .map_or("book".to_string(), |c| c.to_string());
        self.log.line(&format!(
            "move {} {} (score {score}, {think_ms} ms, clock {mine} ms, lag allowance {allowance} ms)",
            pos.fullmoves(),
            pos.san(thought.mv)
        ));
        let text = move_text(thought.mv);
        conn.send(&text);
        self.last_move = Some(text);
        self.pending = Some(Pending {
            ply,
            clock_before: mine as i64,
            think_ms,
        });
        // A draw by rule after our move is claimed; a dead level game is offered a draw.
        let mut after = pos.clone();
        let mut history = KeyHistory::new();
        let mut p = g.start.clone();
        for &m in &g.moves {
            history.push(p.key());
            p.make(m);
        }
        history.push(pos.key());
        after.make(thought.mv);
        let claim = after
            .outcome(&history)
            .is_some_and(|o| o.winner().is_none());
        if !claim {
            self.expected = thought.ponder.map(|m| (ply + 1, m));
        }
        if claim || self.scores.offer_draw(policy, pos.fullmoves()) {
            self.log.line(if claim {
                "claiming a draw by rule"
            } else {
                "offering a draw"
            });
            conn.send("draw");
        }
    }

    fn on_draw_offer(&mut self, conn: &mut Connection, from: &str) {
        let Some(g) = &self.game else {
            return;
        };
        let mn = g.position().fullmoves();
        if self.scores.accept_draw(&self.cfg.play, mn) {
            self.log.line(&format!(
                "accepting {from}'s draw offer (score {:?}, move {mn})",
                self.scores.last()
            ));
            conn.send("draw");
        } else {
            self.log.line(&format!(
                "declining {from}'s draw offer (score {:?}, move {mn})",
                self.scores.last()
            ));
            conn.send("decline draw");
        }
    }

    fn on_challenge(&mut self, conn: &mut Connection, c: &Challenge) {
        if !c.to.eq_ignore_ascii_case(&self.handle) {
            return;
        }
        let verdict = if self.game.is_some() {
            Verdict::Decline("playing a game".into())
        } else if self.stopping() {
            Verdict::Decline("stopping".into())
        } else if self.paused && !c.adjourned {
            Verdict::Decline("paused by the owner".into())
        } else {
            judge(
                &self.cfg.accept,
                c,
                self.last_opponent.as_deref(),
                self.in_a_row,
            )
        };
        match verdict {
            Verdict::Accept => {
                self.log.line(&format!("accepting {}'s challenge", c.from));
                conn.send(&format!("accept {}", c.from));
            }
            Verdict::Decline(why) => {
                self.log
                    .line(&format!("declining {}'s challenge: {why}", c.from));
                conn.send(&format!("decline {}", c.from));
            }
        }
    }

    fn on_game_end(
        &mut self,
        number: u32,
        white: &str,
        black: &str,
        reason: &str,
        result: GameResult,
    ) {
        let matches = |g: &GameRecord| {
            g.white.eq_ignore_ascii_case(white) && g.black.eq_ignore_ascii_case(black)
        };
        let Some(g) = self.game.take_if(|g| matches(g)) else {
            return;
        };
        self.end_ponder("game over");
        self.pending = None;
        self.their_clock = None;
        self.flagged_at = None;
        self.answered_ply = None;
        if result == GameResult::Unknown {
            if reason.contains("adjourn") {
                self.log.line(&format!(
                    "game {number} adjourned; it will be resumed when it comes back"
                ));
                self.suspended = Some(g);
                // Asked for at once, not ten seconds after the last game we asked for.
                self.resume_asked = None;
            } else {
                self.log.line(&format!("game {number} aborted: {reason}"));
                self.summary.aborted += 1;
            }
            return;
        }
        self.summary.games += 1;
        let won = GameResult::win_for(g.us);
        if result == GameResult::Draw {
            self.summary.draws += 1;
        } else if result == won {
            self.summary.wins += 1;
        } else {
            self.summary.losses += 1;
        }
        let opponent = if g.us == Color::White {
            &g.black
        } else {
            &g.white
        };
        if self
            .last_opponent
            .as_deref()
            .is_some_and(|o| o.eq_ignore_ascii_case(opponent))
        {
            self.in_a_row += 1;
        } else {
            self.last_opponent = Some(opponent.clone());
            self.in_a_row = 1;
        }
        self.log.line(&format!(
            "game {number} over: {result} ({reason}); {} moves; {} games played",
            g.moves.len(),
            self.summary.games
        ));
        if let Some(path) = &self.cfg.pgn {
            if let Err(e) = g.append_pgn(path, &self.cfg.host, result, reason) {
                self.summary.pgn_errors += 1;
                self.log.line(&format!(
                    "error: {}: the PGN was not written: {e}",
                    path.display()
                ));
            }
        }
        for note in self.player.game_over(&g.start, &g.moves, result) {
            self.log.line(&note);
        }
        self.last_challenge = None;
    }

    fn on_tell(&mut self, conn: &mut Connection, from: &str, text: &str) {
        let Some(owner) = &self.cfg.owner else {
            return;
        };
        if !owner.eq_ignore_ascii_case(from) {
            return;
        }
        let owner = owner.clone();
        let words: Vec<&str> = text.split_whitespace().collect();
        let reply = match words.as_slice() {
            ["stop"] | ["quit"] => {
                self.owner_stop = true;
                "stopping after the game in progress".to_string()
            }
            ["ponder", "off"] => {
                self.ponder_off = true;
                "pondering off".to_string()
            }
            ["ponder", "on"] => {
                self.ponder_off = false;
                if self.cfg.play.ponder {
                    "pondering on".to_string()
                } else {
                    "pondering is off in the configuration".to_string()
                }
            }
            ["pause"] => {
                self.paused = true;
                if self.seek_posted {
                    conn.send("unseek");
                    self.seek_posted = false;
                }
                "paused: no new games".to_string()
            }
            ["resume"] | ["unpause"] => {
                self.paused = false;
                "taking games again".to_string()
            }
            ["seek", "off"] => {
                self.seek = None;
                if self.seek_posted {
                    conn.send("unseek");
                    self.seek_posted = false;
                }
                "seeks off".to_string()
            }
            ["seek", min, inc, rest @ ..] => match (min.parse(), inc.parse()) {
                (Ok(minutes), Ok(increment)) => {
                    if self.seek_posted {
                        conn.send("unseek");
                        self.seek_posted = false;
                    }
                    self.seek = Some(SeekSpec {
                        minutes,
                        increment,
                        rated: rest.first() == Some(&"rated"),
                    });
                    format!("seeking {minutes} {increment}")
                }
                _ => "usage: seek MIN INC [rated|unrated] | seek off".to_string(),
            },
            ["games", n] => match n.parse() {
                Ok(n) => {
                    self.games_limit = n;
                    format!("stopping after {n} games (0: no limit)")
                }
                Err(_) => "usage: games N".to_string(),
            },
            ["status"] => {
                let s = &self.summary;
                format!(
                    "{} games (+{} ={} -{}), {}, {}",
                    s.games,
                    s.wins,
                    s.draws,
                    s.losses,
                    if self.game.is_some() {
                        "playing"
                    } else {
                        "idle"
                    },
                    if self.paused { "paused" } else { "open" }
                )
            }
            _ => "commands: stop, pause, resume, seek MIN INC [rated], seek off, games N, ponder on|off, status"
                .to_string(),
        };
        self.log
            .line(&format!("owner {owner}: '{text}' -> {reply}"));
        conn.send(&format!("tell {owner} {reply}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotions_are_written_for_fics() {
        let pos = sable_chess::Position::from_fen(
            "8/P7/8/8/8/8/8/k1K5 w - - 0 1",
            sable_chess::CastlingMode::Standard,
        )
        .unwrap();
        let m = pos.parse_uci("a7a8q").unwrap();
        assert_eq!(move_text(m), "a7a8=q");
        let m = sable_chess::Position::startpos().parse_uci("e2e4").unwrap();
        assert_eq!(move_text(m), "e2e4");
    }
}
