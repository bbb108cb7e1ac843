//! One browser session of `sable serve`: the messages a page may send ([`Request`]),
//! their checks, and the thread that owns the session's [`Engine`] and answers them.
//!
//! The engine lives on a thread of its own (`run`) because its calls block (waiting for a
//! search to stop, a game review); the socket's task only parses messages and hands them
//! over. Replies go back as JSON text on an unbounded channel that the socket's task
//! writes out. When the socket closes, the request channel closes, the thread stops any
//! search and drops the engine (its table and threads) before it ends.

use crate::analyse::annotate;
use crate::analyse::eco;
use crate::analyse::eval::Eval;
use crate::analyse::game::GameReport;
use crate::analyse::pass::{self, analyse_game, eval_of, InProcess, Stop};
use crate::analyse::winprob::win_percent;
use sable_chess::{Color, Move, Position, SanMode};
use sable_engine::{Clock, Engine, SearchEvent, SearchInfo, SearchLimits, SearchResult};
use sable_formats::pgn::{GameTree, PgnReader, TreeBuilder};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedSender;

/// The most text (a FEN or PGN) one message may carry, 1 MiB (the messages say so). A
/// pasted game is a few kilobytes; a whole database is not something to open in a board.
pub const MAX_TEXT: usize = 1 << 20;
/// The most moves a position or a reviewed game may have.
pub const MAX_MOVES: usize = 1000;
/// The most lines the analysis shows, as lichess's local analysis.
pub const MAX_MULTIPV: u32 = 5;
/// Analysis stops by itself at this depth (lichess's local analysis stops too unless
/// asked to go on), so that a forgotten tab does not keep a core busy.
pub const ANALYSIS_DEPTH: u32 = 30;
/// Thinking time per move at full strength when the game has no clock.
pub const UNTIMED_MOVETIME_MS: u64 = 1000;

/// What a page may ask. Every field is checked before the engine sees it.
#[derive(Debug, Deserialize)]
#[serde(tag = "t", rename_all = "lowercase")]
pub enum Request {
    /// The engine's move in a game: from `fen` (the standard start when absent) after
    /// `moves` (UCI), at `elo` (`UCI_Elo`; absent: full strength), on the clock given.
    Play {
        id: u64,
        fen: Option<String>,
        #[serde(default)]
        moves: Vec<String>,
        elo: Option<i64>,
        clock: Option<ClockMsg>,
    },
    /// Live analysis of a position with `multipv` lines, until `stop` or another request.
    Analyse {
        id: u64,
        fen: Option<String>,
        #[serde(default)]
        moves: Vec<String>,
        #[serde(default = "one")]
        multipv: u32,
    },
    /// Stops the search under way; with `review`, also a review under way or waiting
    /// (the page's live analysis is switched off without ending a review).
    Stop {
        #[serde(default)]
        review: bool,
    },
    /// A pasted or opened FEN or PGN, to check and turn into moves for the board.
    Load { id: u64, text: String },
    /// The review of a game given as PGN: every mainline position evaluated and judged as
    /// `sable analyse` does.
    Review { id: u64, pgn: String },
    /// The player offers a draw in a game: the engine, playing `engine` (`white` or
    /// `black`), answers.
    Draw {
        id: u64,
        fen: Option<String>,
        #[serde(default)]
        moves: Vec<String>,
        engine: String,
    },
}

fn one() -> u32 {
    1
}

/// A game's clocks in milliseconds, as the page counts them.
#[derive(Debug, Deserialize)]
pub struct ClockMsg {
    pub wtime: u64,
    pub btime: u64,
    #[serde(default)]
    pub winc: u64,
    #[serde(default)]
    pub binc: u64,
}

/// Reads one message of a page, or says what is wrong with it.
pub fn parse_request(text: &str) -> Result<Request, String> {
    if text.len() > MAX_TEXT + 4096 {
        return Err(format!(
            "message of {:.1} MB refused: at most 1 MiB of FEN or PGN is accepted (one game, not a database)",
            text.len() as f64 / 1e6
        ));
    }
    serde_json::from_str(text).map_err(|e| format!("bad message: {e}"))
}

/// An error for the page, about request `id` when there is one.
pub fn error(id: Option<u64>, message: impl Into<String>) -> String {
    json!({"t": "error", "id": id, "message": message.into()}).to_string()
}

/// How a session's engine is set up.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    pub hash_mb: usize,
    /// Nodes per position of a game review (`sable analyse --nodes`).
    pub review_nodes: u64,
}

/// How the socket's task stops a review: on `stop` with `review` and when the socket
/// closes it calls [`Stops::stop`], and a review under way ends within milliseconds, its
/// position's search stopped (`InProcess::cancel`).
///
/// Stops are counted, not only flagged, because requests wait in a queue: a review asked
/// for and then stopped before the session reached it must not start (the flag alone is
/// reset when a review starts, and would lose that stop). Each request travels with the
/// count at its arrival ([`Stops::seen`]); one that came later cancels it.
#[derive(Debug, Default)]
pub struct Stops {
    count: AtomicU64,
    flag: AtomicBool,
}

impl Stops {
    pub fn stop(&self) {
        self.count.fetch_add(1, Ordering::SeqCst);
        self.flag.store(true, Ordering::SeqCst);
    }

    /// The stops so far: what a request arriving now carries.
    pub fn seen(&self) -> u64 {
        self.count.load(Ordering::SeqCst)
    }

    /// Begins a review asked for when `seen` stops had come: false if one came since.
    /// Clears the flag first, so that a stop from now on is seen by the review's checks.
    fn begin(&self, seen: u64) -> bool {
        self.flag.store(false, Ordering::SeqCst);
        self.seen() == seen
    }
}

/// The session's thread: answers requests (each with the stops seen at its arrival)
/// until the channel closes, then frees the engine.
pub fn run(
    config: SessionConfig,
    requests: Receiver<(u64, Request)>,
    out: UnboundedSender<String>,
    stops: Arc<Stops>,
) {
    let mut engine = match new_engine(&config) {
        Ok(e) => e,
        Err(e) => {
            let _ = out.send(error(None, format!("the engine could not start: {e}")));
            return;
        }
    };
    for (seen, request) in requests.iter() {
        // A bug in answering one request costs that request, not the server.
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            answer(&mut engine, &config, request, &out, (&stops, seen))
        }));
        match answered {
            Ok(Ok(())) => {}
            Ok(Err((id, message))) => {
                let _ = out.send(error(id, message));
            }
            Err(_) => {
                let _ = out.send(error(None, "internal error (see the server's log)"));
                // The engine may be mid-search in an unknown state: start a fresh one.
                engine.stop();
                engine = match new_engine(&config) {
                    Ok(e) => e,
                    Err(_) => return,
                };
            }
        }
    }
    engine.stop();
    engine.wait();
}

fn new_engine(config: &SessionConfig) -> Result<Engine, String> {
    let mut engine = Engine::new();
    engine.set_threads(1).map_err(|e| e.to_string())?;
    engine
        .set_hash_mb(config.hash_mb as i64)
        .map_err(|e| e.to_string())?;
    // In process there is no transmission delay to allow for.
    engine.set_move_overhead(0).map_err(|e| e.to_string())?;
    Ok(engine)
}

type Answer = Result<(), (Option<u64>, String)>;

fn answer(
    engine: &mut Engine,
    config: &SessionConfig,
    request: Request,
    out: &UnboundedSender<String>,
    (stops, seen): (&Stops, u64),
) -> Answer {
    // Whatever comes next replaces the search under way.
    engine.stop();
    engine.wait();
    match request {
        Request::Stop { .. } => Ok(()),
        Request::Analyse {
            id,
            fen,
            moves,
            multipv,
        } => {
            let fail = |m: String| (Some(id), m);
            if !(1..=MAX_MULTIPV).contains(&multipv) {
                return Err(fail(format!(
                    "multipv {multipv}: must be between 1 and {MAX_MULTIPV}"
                )));
            }
            set_position(engine, fen.as_deref(), &moves).map_err(fail)?;
            engine.set_limit_strength(false);
            engine
                .set_skill_level(20)
                .map_err(|e| fail(e.to_string()))?;
            engine
                .set_multipv(multipv as i64)
                .map_err(|e| fail(e.to_string()))?;
            let root = engine.position().clone();
            let _ = out.send(
                json!({"t": "analysing", "id": id, "opening": opening_of(fen.as_deref(), engine.moves())}).to_string(),
            );
            if root.legal_moves().is_empty() {
                let _ = out.send(json!({"t": "done", "id": id}).to_string());
                return Ok(());
            }
            let out = out.clone();
            let limits = SearchLimits {
                depth: Some(ANALYSIS_DEPTH),
                ..SearchLimits::default()
            };
            engine
                .go(limits, move |event| match event {
                    SearchEvent::Info(info) => {
                        let _ = out.send(info_json(id, &root, &info).to_string());
                    }
                    SearchEvent::Finished(_) => {
                        let _ = out.send(json!({"t": "done", "id": id}).to_string());
                    }
                    _ => {}
                })
                .map_err(|e| fail(e.to_string()))
        }
        Request::Play {
            id,
            fen,
            moves,
            elo,
            clock,
        } => {
            let fail = |m: String| (Some(id), m);
            set_position(engine, fen.as_deref(), &moves).map_err(fail)?;
            let root = engine.position().clone();
            if root.legal_moves().is_empty() {
                return Err(fail("no legal move: the game is over".into()));
            }
            engine.set_multipv(1).map_err(|e| fail(e.to_string()))?;
            match elo {
                Some(elo) => {
                    engine.set_elo(elo).map_err(|e| fail(e.to_string()))?;
                    engine.set_limit_strength(true);
                }
                None => {
                    engine.set_limit_strength(false);
                    engine
                        .set_skill_level(20)
                        .map_err(|e| fail(e.to_string()))?;
                }
            }
            let mut limits = SearchLimits::default();
            match clock {
                Some(c) => {
                    const DAY_MS: u64 = 24 * 3600 * 1000;
                    if [c.wtime, c.btime, c.winc, c.binc]
                        .iter()
                        .any(|&t| t > DAY_MS)
                    {
                        return Err(fail("clock: times must be at most a day".into()));
                    }
                    limits.clocks = [
                        Some(Clock {
                            time_ms: c.wtime,
                            inc_ms: c.winc,
                        }),
                        Some(Clock {
                            time_ms: c.btime,
                            inc_ms: c.binc,
                        }),
                    ];
                }
                None => limits.movetime_ms = Some(UNTIMED_MOVETIME_MS),
            }
            let out = out.clone();
            engine
                .go(limits, move |event| {
                    if let SearchEvent::Finished(r) = event {
                        let _ = out.send(bestmove_json(id, &root, &r).to_string());
                    }
                })
                .map_err(|e| fail(e.to_string()))
        }
        Request::Draw {
            id,
            fen,
            moves,
            engine: side,
        } => {
            let fail = |m: String| (Some(id), m);
            let side = match side.as_str() {
                "white" => Color::White,
                "black" => Color::Black,
                _ => return Err(fail(format!("engine: '{side}' is not white or black"))),
            };
            set_position(engine, fen.as_deref(), &moves).map_err(fail)?;
            let root = engine.position().clone();
            engine.set_limit_strength(false);
            engine
                .set_skill_level(20)
                .map_err(|e| fail(e.to_string()))?;
            engine.set_multipv(1).map_err(|e| fail(e.to_string()))?;
            let r = engine
                .search_quietly(SearchLimits {
                    nodes: Some(config.review_nodes),
                    ..SearchLimits::default()
                })
                .map_err(|e| fail(e.to_string()))?;
            // The engine takes the draw when it is not better.
            let eval = eval_of(root.turn(), r.score);
            let accept = match (eval.cp_for(side), eval.mate_for(side)) {
                (Some(cp), _) => cp <= DRAW_ACCEPT_CP,
                (None, Some(m)) => m < 0,
                (None, None) => true,
            };
            let _ = out.send(
                json!({"t": "draw", "id": id, "accepted": accept, "eval": eval_json(eval)})
                    .to_string(),
            );
            Ok(())
        }
        Request::Load { id, text } => {
            let loaded = load(&text).map_err(|m| (Some(id), m))?;
            let mut v = loaded;
            v["t"] = "loaded".into();
            v["id"] = id.into();
            let _ = out.send(v.to_string());
            Ok(())
        }
        Request::Review { id, pgn } => {
            let fail = |m: String| (Some(id), m);
            let mut tree = read_pgn(&pgn).map_err(fail)?;
            annotate::strip(&mut tree);
            if !stops.begin(seen) {
                let _ = out.send(json!({"t": "cancelled", "id": id}).to_string());
                return Ok(());
            }
            let total = tree.root.moves.len() + 1;
            let progress = |done: usize| {
                let _ = out.send(
                    json!({"t": "progress", "id": id, "done": done, "total": total}).to_string(),
                );
            };
            // At once, before the first position's search: the page shows that the
            // review has begun, however long one position takes.
            progress(0);
            let mut done = 0usize;
            let mut on_position = || {
                done += 1;
                progress(done);
            };
            engine.set_limit_strength(false);
            engine
                .set_skill_level(20)
                .map_err(|e| fail(e.to_string()))?;
            engine.set_multipv(1).map_err(|e| fail(e.to_string()))?;
            let mut analyser = InProcess {
                engine,
                limits: SearchLimits {
                    nodes: Some(config.review_nodes),
                    ..SearchLimits::default()
                },
                cancel: &stops.flag,
            };
            let analysed = match analyse_game(&mut analyser, &tree, &stops.flag, &mut on_position) {
                Ok(a) => a,
                Err(Stop::Cancelled) => {
                    let _ = out.send(json!({"t": "cancelled", "id": id}).to_string());
                    return Ok(());
                }
                Err(Stop::Engine(e)) => return Err(fail(e)),
            };
            let report = pass::report(1, &tree, &analysed);
            let _ = out.send(review_json(id, &report).to_string());
            Ok(())
        }
    }
}

/// The engine, to move, accepts a draw offer when its score is at most this.
pub const DRAW_ACCEPT_CP: i32 = 0;

/// Sets the engine's game: all or nothing, with the error naming the bad part.
fn set_position(engine: &mut Engine, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
    if moves.len() > MAX_MOVES {
        return Err(format!(
            "{} moves: at most {MAX_MOVES} are accepted",
            moves.len()
        ));
    }
    if fen.is_some_and(|f| f.len() > 200) {
        return Err("FEN: longer than any FEN (200 characters)".into());
    }
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine.set_position(fen, &refs).map_err(|e| e.to_string())
}

/// The opening of a game when it starts from the standard position.
fn opening_of(fen: Option<&str>, moves: &[Move]) -> Value {
    let mut pos = Position::startpos();
    if fen.is_some_and(|f| {
        f.split_whitespace()
            .take(4)
            .ne(pos.fen().split_whitespace().take(4))
    }) {
        return Value::Null;
    }
    let mut positions = Vec::new();
    for &m in moves.iter().take(eco::MAX_PLY) {
        pos.make(m);
        positions.push(pos.clone());
    }
    match eco::classify(&positions) {
        Some(o) => json!({"eco": o.eco, "name": o.name}),
        None => Value::Null,
    }
}

fn eval_json(e: Eval) -> Value {
    let white_win = win_percent(e);
    match e {
        Eval::Cp(c) => json!({"cp": c, "text": e.human(), "win": white_win}),
        Eval::Mate(m) => json!({"mate": m, "text": e.human(), "win": white_win}),
        Eval::Checkmated(_) => json!({"mate": 0, "text": e.human(), "win": white_win}),
    }
}

/// A line in SAN from `root`, stopping at a move that is not legal.
fn san_line(root: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = root.clone();
    let mut out = Vec::new();
    for &m in line {
        if !pos.is_legal(m) {
            break;
        }
        out.push(pos.san(m));
        pos.make(m);
    }
    out
}

fn uci(m: Move) -> String {
    m.to_uci(false).to_string()
}

fn info_json(id: u64, root: &Position, info: &SearchInfo) -> Value {
    let eval = eval_of(root.turn(), info.score);
    json!({
        "t": "info",
        "id": id,
        "depth": info.depth,
        "multipv": info.multipv,
        "nodes": info.nodes,
        "nps": info.nps,
        "eval": eval_json(eval),
        "pv": info.pv.iter().map(|&m| uci(m)).collect::<Vec<_>>(),
        "san": san_line(root, &info.pv),
        "fullmove": root.fullmoves(),
        "white": root.turn() == Color::White,
    })
}

fn bestmove_json(id: u64, root: &Position, r: &SearchResult) -> Value {
    match r.best {
        Some(m) => json!({
            "t": "bestmove",
            "id": id,
            "uci": uci(m),
            "san": root.san(m),
            "eval": eval_json(eval_of(root.turn(), r.score)),
        }),
        None => json!({"t": "error", "id": id, "message": "no legal move: the game is over"}),
    }
}

/// The first game of a PGN text (the only one a board shows), read as `sable analyse`
/// reads its files.
fn read_pgn(text: &str) -> Result<GameTree, String> {
    if text.len() > MAX_TEXT {
        return Err(too_long(text.len()));
    }
    let mut reader = PgnReader::new(text.as_bytes());
    let mut builder = TreeBuilder::new(SanMode::Lenient);
    match reader.read_game(&mut builder) {
        None => Err("PGN: no game in the text".into()),
        Some(Err(e)) => Err(format!("PGN: {e}")),
        Some(Ok(tree)) => {
            if tree.root.moves.len() > MAX_MOVES {
                return Err(format!(
                    "PGN: {} moves in the mainline; at most {MAX_MOVES} are accepted",
                    tree.root.moves.len()
                ));
            }
            if tree.root.moves.iter().any(|n| n.mv.is_null()) {
                return Err("PGN: a null move (--) in the mainline".into());
            }
            if tree.start.is_chess960() {
                return Err("PGN: Chess960 games are not supported by the board".into());
            }
            Ok(tree)
        }
    }
}

fn too_long(len: usize) -> String {
    format!(
        "the text is {:.1} MB; at most 1 MiB of FEN or PGN is accepted (one game, not a database)",
        len as f64 / 1e6
    )
}

/// A pasted text: a FEN (one line whose first word has a `/`) or else a PGN, as the
/// start position and mainline moves for the board.
fn load(text: &str) -> Result<Value, String> {
    if text.len() > MAX_TEXT {
        return Err(too_long(text.len()));
    }
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("nothing to load: paste a FEN or a PGN".into());
    }
    // A PGN's first word is a tag, a move number or a move: never one with a '/'.
    let first_word = trimmed.split_whitespace().next().unwrap_or("");
    let looks_fen =
        !trimmed.contains('\n') && !trimmed.starts_with('[') && first_word.contains('/');
    if looks_fen {
        let pos = Position::from_fen(trimmed, sable_chess::CastlingMode::Standard)
            .map_err(|e| format!("FEN: {e}"))?;
        return Ok(json!({"fen": pos.fen(), "moves": [], "tags": {}}));
    }
    let tree = read_pgn(text)?;
    let mut pos = tree.start.clone();
    let mut moves = Vec::new();
    for node in &tree.root.moves {
        moves.push(json!({"uci": uci(node.mv), "san": pos.san(node.mv)}));
        pos.make(node.mv);
    }
    let tags: serde_json::Map<String, Value> = tree
        .tags
        .iter()
        .map(|(k, v)| (k.to_string(), Value::from(v)))
        .collect();
    let mut more = 0;
    let mut reader = PgnReader::new(text.as_bytes());
    let mut builder = TreeBuilder::new(SanMode::Lenient);
    while reader.read_game(&mut builder).is_some() {
        more += 1;
    }
    Ok(json!({
        "fen": tree.start.fen(),
        "moves": moves,
        "tags": tags,
        "result": tree.result.map(|r| r.to_string()),
        "games": more,
    }))
}

fn review_json(id: u64, report: &GameReport) -> Value {
    let plies: Vec<Value> = report
        .plies
        .iter()
        .map(|p| {
            json!({
                "ply": p.ply,
                "san": p.san,
                "uci": uci(p.mv),
                "eval": eval_json(p.eval),
                "judgement": p.judgement().map(|j| j.name()),
                "symbol": p.judgement().map(|j| j.symbol()),
                "mate": p.verdict.and_then(|v| v.mate).map(|m| m.description()),
                "best": p.better().map(|_| p.best_san(6)),
                "accuracy": p.accuracy,
            })
        })
        .collect();
    json!({
        "t": "review",
        "id": id,
        "start": eval_json(report.start_eval),
        "plies": plies,
        "accuracy": report.accuracy,
        "acpl": report.acpl,
        "counts": report.counts,
        "opening": report.opening.as_ref().map(|o| json!({"eco": o.eco, "name": o.name})),
    })
}
