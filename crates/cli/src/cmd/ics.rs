//! `sable ics`: plays on an Internet Chess Server (FICS and its kin) unattended, with
//! the engine in this process. The protocol is `sable_ics`; this file reads the flags
//! and the config file (flags win), sets the engine's options, and implements
//! `sable_ics::Player` with `sable_engine::Engine` (the same façade UCI drives),
//! including pondering (a `go ponder` search on the engine's thread, taken up by
//! `ponderhit` as UCI does) and book learning after each game when `BookLearning` is on.

use super::{CliError, CliResult};
use sable_chess::{Move, Position, STARTPOS_FEN};
use sable_engine::{Clock, Engine, ScoreReport, SearchEvent, SearchLimits, SearchResult};
use sable_formats::pgn::GameResult;
use sable_ics::{Client, Config, Log, MoveRequest, Player, Thought};
use std::path::PathBuf;
use std::sync::mpsc;

#[derive(clap::Args)]
pub struct Args {
    /// The server's host name or address.
    #[arg(long)]
    host: Option<String>,
    #[arg(long)]
    port: Option<u16>,
    /// The handle to log in with (`guest` for a guest name).
    #[arg(long)]
    handle: Option<String>,
    /// A file whose first line is the handle's password (registered handles).
    #[arg(long)]
    password_file: Option<PathBuf>,
    /// Accept challenges (within the config file's [accept] policy).
    #[arg(long)]
    accept: bool,
    /// Challenge this handle, again after every game.
    #[arg(long, value_name = "NAME")]
    challenge: Option<String>,
    /// The time control of --challenge or --seek: minutes+increment, e.g. 1+0.
    #[arg(long, value_name = "MIN+INC")]
    tc: Option<String>,
    /// Ask for rated games (--challenge, --seek).
    #[arg(long)]
    rated: bool,
    /// Post a seek at the time control of --tc when idle.
    #[arg(long)]
    seek: bool,
    /// Stop after this many finished games (0: no limit).
    #[arg(long)]
    games: Option<u32>,
    /// Append each finished game to this PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// The TOML config file (docs/ics.md); flags override it.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Append the log to this file (it also goes to standard error).
    #[arg(long)]
    log: Option<PathBuf>,
    /// The handle whose tells command the bot (stop, pause, resume, seek, games, status).
    #[arg(long)]
    owner: Option<String>,
    /// Encode what we send with Timeseal.
    #[arg(long)]
    timeseal: bool,
    /// The longest a move may take, in ms.
    #[arg(long, value_name = "MS")]
    max_move_ms: Option<u64>,
    /// Think on the opponent's time (the default; `play.ponder` in the config file).
    #[arg(long)]
    ponder: bool,
    /// Do not think on the opponent's time.
    #[arg(long)]
    no_ponder: bool,
    /// Engine option, repeatable: `--option Hash=64` (after the config file's [engine]).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

/// `MIN+INC` as minutes and seconds.
fn parse_tc(text: &str) -> Result<(u32, u32), CliError> {
    let bad = || CliError::msg(format!("--tc '{text}': expected MIN+INC, e.g. 3+0"));
    let (m, i) = text.split_once('+').ok_or_else(bad)?;
    Ok((
        m.trim().parse().map_err(|_| bad())?,
        i.trim().parse().map_err(|_| bad())?,
    ))
}

/// The config file (if any) with the flags applied.
fn config(args: &Args) -> Result<Config, CliError> {
    let mut c = match &args.config {
        Some(p) => Config::load(p).map_err(|e| CliError::msg(e.to_string()))?,
        None => Config::default(),
    };
    if let Some(v) = &args.host {
        c.host = v.clone();
    }
    if let Some(v) = args.port {
        c.port = v;
    }
    if let Some(v) = &args.handle {
        c.handle = v.clone();
    }
    if let Some(v) = &args.password_file {
        c.password_file = Some(v.clone());
    }
    if args.accept {
        c.accept.enabled = true;
    }
    let tc = args.tc.as_deref().map(parse_tc).transpose()?;
    if let Some(name) = &args.challenge {
        let (minutes, increment) = tc.ok_or_else(|| CliError::msg("--challenge needs --tc"))?;
        c.challenge = Some(sable_ics::config::ChallengeSpec {
            opponent: name.clone(),
            minutes,
            increment,
            rated: args.rated,
            ..Default::default()
        });
    }
    if args.seek {
        let (minutes, increment) = tc.ok_or_else(|| CliError::msg("--seek needs --tc"))?;
        c.seek = Some(sable_ics::config::SeekSpec {
            minutes,
            increment,
            rated: args.rated,
        });
    }
    if args.challenge.is_none() && !args.seek && (args.tc.is_some() || args.rated) {
        return Err(CliError::msg(
            "--tc and --rated go with --challenge or --seek",
        ));
    }
    if let Some(v) = args.games {
        c.games = v;
    }
    if let Some(v) = &args.pgn {
        c.pgn = Some(v.clone());
    }
    if let Some(v) = &args.log {
        c.log = Some(v.clone());
    }
    if let Some(v) = &args.owner {
        c.owner = Some(v.clone());
    }
    if args.timeseal {
        c.timeseal = true;
    }
    if let Some(v) = args.max_move_ms {
        c.play.max_move_ms = v;
    }
    if args.ponder && args.no_ponder {
        return Err(CliError::msg(
            "--ponder and --no-ponder contradict each other",
        ));
    }
    if args.ponder {
        c.play.ponder = true;
    }
    if args.no_ponder {
        c.play.ponder = false;
    }
    c.check().map_err(|e| CliError::msg(e.to_string()))?;
    Ok(c)
}

/// The engine as an ICS player.
struct EnginePlayer {
    engine: Engine,
    log: Log,
    /// The reports of the ponder search running on the engine's thread.
    pondering: Option<mpsc::Receiver<SearchEvent>>,
}

fn uci_moves(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_uci(false).to_string()).collect()
}

/// The search limits for a request: our clock and theirs, or a fixed time within the
/// configured cap that the clock can also afford.
fn limits(req: &MoveRequest<'_>) -> SearchLimits {
    let us = req.position.turn();
    let mut limits = SearchLimits::default();
    match req.max_ms {
        Some(cap) => {
            let afford = req.my_ms / 20 + req.increment_ms * 3 / 4;
            limits.movetime_ms = Some(cap.min(afford).min(req.my_ms * 4 / 10).max(1));
        }
        None => {
            limits.clocks[us.index()] = Some(Clock {
                time_ms: req.my_ms,
                inc_ms: req.increment_ms,
            });
            limits.clocks[(!us).index()] = Some(Clock {
                time_ms: req.their_ms,
                inc_ms: req.increment_ms,
            });
        }
    }
    limits
}

/// A search's result as the client's answer.
fn thought(result: &SearchResult) -> Result<Thought, String> {
    let mv = result.best.ok_or("the engine has no move")?;
    // A book move is answered without a search: no score to judge draws by, and no
    // line to ponder on.
    let searched = result.depth > 0;
    let score_cp = searched.then_some(match result.score {
        ScoreReport::Cp(c) => c,
        ScoreReport::Mate(n) if n > 0 => 30_000 - n,
        ScoreReport::Mate(n) => -30_000 - n,
    });
    Ok(Thought {
        mv,
        score_cp,
        ponder: result.ponder.filter(|_| searched),
    })
}

impl EnginePlayer {
    /// A search that should not be running (a ponder search the client did not resolve)
    /// is stopped and said so: the engine refuses a new position while one runs.
    fn stop_stray_search(&mut self, at: &str) {
        if self.pondering.is_some() || self.engine.is_searching() {
            self.log.line(&format!(
                "error: a ponder search was still running at {at}; stopped"
            ));
            self.stop_pondering();
            self.engine.stop();
            self.engine.wait();
        }
    }

    /// Gives the engine the game: start position and moves.
    fn set_game(&mut self, start: &Position, moves: &[Move]) -> Result<(), String> {
        let fen = start.fen();
        let fen = (fen != STARTPOS_FEN).then_some(fen);
        let moves = uci_moves(moves);
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        self.engine
            .set_position(fen.as_deref(), &refs)
            .map_err(|e| e.to_string())
    }
}

impl Player for EnginePlayer {
    fn new_game(&mut self, start: &Position, moves: &[Move]) {
        self.stop_stray_search("a new game");
        if let Err(e) = self.engine.new_game() {
            self.log.line(&format!("error: new game: {e}"));
        }
        if let Err(e) = self.set_game(start, moves) {
            self.log.line(&format!("error: the game's position: {e}"));
        }
    }

    fn think(&mut self, req: &MoveRequest<'_>) -> Result<Thought, String> {
        self.stop_stray_search("a new move");
        self.set_game(req.start, req.moves)?;
        let result = self
            .engine
            .search_quietly(limits(req))
            .map_err(|e| e.to_string())?;
        thought(&result)
    }

    fn ponder(&mut self, req: &MoveRequest<'_>) -> Result<bool, String> {
        self.stop_stray_search("the start of pondering");
        self.set_game(req.start, req.moves)?;
        // A ponder search never plays from the book; where the book has a move the
        // search would only replace it.
        if self.engine.book_move().is_some() {
            return Ok(false);
        }
        let mut limits = limits(req);
        limits.ponder = true;
        let (tx, rx) = mpsc::channel();
        self.engine
            .go(limits, move |e| {
                let _ = tx.send(e);
            })
            .map_err(|e| e.to_string())?;
        self.pondering = Some(rx);
        Ok(true)
    }

    fn ponderhit(&mut self, req: &MoveRequest<'_>) -> Result<Thought, String> {
        let Some(rx) = self.pondering.take() else {
            return self.think(req);
        };
        // The search's clock starts now, as UCI's `ponderhit` makes it.
        self.engine.ponderhit();
        let result = rx.iter().find_map(|e| match e {
            SearchEvent::Finished(r) => Some(r),
            _ => None,
        });
        self.engine.wait();
        match result {
            Some(r) => thought(&r),
            None => Err("the ponder search ended without a result".into()),
        }
    }

    fn stop_pondering(&mut self) {
        if let Some(rx) = self.pondering.take() {
            self.engine.stop();
            // The reports end when the search thread drops its sender.
            for _ in rx.iter() {}
            self.engine.wait();
        }
    }

    fn game_over(&mut self, start: &Position, moves: &[Move], result: GameResult) -> Vec<String> {
        self.stop_stray_search("the end of a game");
        if !self.engine.learns_from_games() || result == GameResult::Unknown {
            return Vec::new();
        }
        if let Err(e) = self.set_game(start, moves) {
            return vec![format!("book learning skipped: {e}")];
        }
        match self.engine.learn_from_game(result) {
            Ok(n) => vec![format!("book learned from {result}: {n} entries")],
            Err(e) => vec![format!("error: book learning failed: {e}")],
        }
    }
}

pub fn run(args: Args) -> CliResult {
    let cfg = config(&args)?;
    let log = Log::open(cfg.log.as_deref()).map_err(|source| CliError::Io {
        path: cfg
            .log
            .as_ref()
            .map_or(String::new(), |p| p.display().to_string()),
        source,
    })?;
    let mut engine = Engine::new();
    let mut options = cfg
        .engine_options()
        .map_err(|e| CliError::msg(e.to_string()))?;
    for o in &args.options {
        let (k, v) = o
            .split_once('=')
            .ok_or_else(|| CliError::msg(format!("--option '{o}': expected NAME=VALUE")))?;
        options.push((k.trim().to_string(), v.trim().to_string()));
    }
    for (name, value) in &options {
        let option = crate::options::find(name)
            .ok_or_else(|| CliError::msg(format!("engine option '{name}': no such option")))?;
        let lines = option
            .set(&mut engine, value)
            .map_err(|e| CliError::msg(format!("engine option {name}={value}: {e}")))?;
        for l in lines {
            log.line(&l);
        }
    }
    let player = EnginePlayer {
        engine,
        log: log.clone(),
        pondering: None,
    };
    let mut client =
        Client::new(cfg.clone(), player, log.clone()).map_err(|e| CliError::msg(e.to_string()))?;
    client.set_stop_flag(super::cancel_on_ctrlc("ics"));
    log.line(&format!(
        "sable ics: {} on {}:{}{}{}",
        cfg.handle,
        cfg.host,
        cfg.port,
        if cfg.timeseal { " (timeseal)" } else { "" },
        if cfg.play.ponder { ", pondering" } else { "" }
    ));
    let summary = client.run().map_err(|e| CliError::msg(e.to_string()))?;
    println!(
        "ics: {} games (+{} ={} -{}), {} aborted, {} dropped connections, {} bad server lines, {} resyncs, {} moves refused",
        summary.games,
        summary.wins,
        summary.draws,
        summary.losses,
        summary.aborted,
        summary.drops,
        summary.bad_lines,
        summary.resyncs,
        summary.refused_moves
    );
    if summary.pgn_errors > 0 {
        return Err(CliError::msg(format!(
            "{} games could not be written to the PGN file (see the log)",
            summary.pgn_errors
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(parse_tc("3+0").unwrap(), (3, 0));
        assert_eq!(parse_tc(" 1 + 2 ").unwrap(), (1, 2));
        assert!(parse_tc("3").unwrap_err().to_string().contains("MIN+INC"));
        assert!(parse_tc("a+b").is_err());
    }
}
