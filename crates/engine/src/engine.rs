//! The protocol-neutral engine: the game (start position, moves, key history), the
//! options, the shared table and the search threads. UCI, xboard and the console all
//! drive this, so no rule or search logic lives in a protocol layer.

use crate::book::{BookChoice, BookMode, OpeningBook, BOOK_DEPTH, BOOK_MIN_WEIGHT};
use crate::context::{Control, NodeCounter, SearchContext};
use crate::job::JobThread;
use crate::limits::SearchLimits;
use crate::nnue::{NetError, Network, EMBEDDED};
use crate::report::{SearchEvent, SearchResult};
use crate::search::Worker;
use crate::strength::{Strength, SKILL_LEVEL, SKILL_SEED, UCI_ELO};
use crate::tablebase::{self, Tablebases, TbError, TbSettings};
use crate::threads;
use crate::time;
use crate::tt::{AllocError, TranspositionTable};
use sable_chess::{
    CastlingMode, Color, KeyHistory, Move, ParseFenError, Position, UciMoveError, STARTPOS_FEN,
};
use sable_formats::pgn::GameResult;
use sable_formats::BookError;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Option ranges, as advertised to GUIs.
pub const HASH_MB: (usize, usize, usize) = (1, 16, 65_536);
pub const THREADS: (usize, usize, usize) = (1, 1, 256);
pub const MULTI_PV: (usize, usize, usize) = (1, 1, 256);
pub const MOVE_OVERHEAD_MS: (u64, u64, u64) = (0, 20, 10_000);

/// Engine settings (protocol options map onto these).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    /// Milliseconds kept back from every time budget for transmission delays.
    pub move_overhead_ms: u64,
    /// Castling as king-takes-rook and Shredder-FEN positions.
    pub chess960: bool,
    /// Whether reports should carry win/draw/loss estimates (the protocol decides).
    pub show_wdl: bool,
    /// Whether the GUI may ask us to ponder (informational).
    pub ponder: bool,
    /// Play from the book before searching (see [`crate::book`]).
    pub own_book: bool,
    /// The book file ("" for none).
    pub book_file: String,
    /// The book is used while the move to play is at most this ply of the game.
    pub book_depth: u32,
    pub book_mode: BookMode,
    /// Entries lighter than this are ignored.
    pub book_min_weight: u16,
    /// Learn from finished games and write the book back.
    pub book_learning: bool,
    /// Evaluate with the network (else the hand-crafted evaluation).
    pub use_nnue: bool,
    /// The network's file; empty for the embedded one.
    pub eval_file: String,
    /// `SyzygyPath`: folders of Syzygy tables ("" for none).
    pub syzygy_path: String,
    /// `SyzygyProbeDepth`, `Syzygy50MoveRule`, `SyzygyProbeLimit`.
    pub syzygy: TbSettings,
    /// `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`, `Skill Seed` (see [`crate::strength`]).
    pub strength: Strength,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: HASH_MB.1,
            threads: THREADS.1,
            multipv: MULTI_PV.1,
            move_overhead_ms: MOVE_OVERHEAD_MS.1,
            chess960: false,
            show_wdl: false,
            ponder: false,
            own_book: false,
            book_file: String::new(),
            book_depth: BOOK_DEPTH.1,
            book_mode: BookMode::default(),
            book_min_weight: BOOK_MIN_WEIGHT.1,
            book_learning: false,
            use_nnue: embedded_net().is_some(),
            eval_file: String::new(),
            syzygy_path: String::new(),
            syzygy: TbSettings::default(),
            strength: Strength::default(),
        }
    }
}

/// Why an engine command was refused. The engine's state is unchanged after any error.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("a search is running; stop it first")]
    Busy,
    #[error("{name} must be between {min} and {max}, got {value}")]
    OutOfRange {
        name: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
    #[error(transparent)]
    Hash(#[from] AllocError),
    #[error("{source}; the table stays at {kept_mb} MB")]
    HashRefused { source: AllocError, kept_mb: usize },
    #[error("bad FEN: {0}")]
    Fen(#[from] ParseFenError),
    #[error("move {index} of the list: {source}")]
    Move { index: usize, source: UciMoveError },
    #[error(transparent)]
    IllegalMove(#[from] UciMoveError),
    #[error("book: {0}")]
    Book(#[from] BookError),
    #[error("the search thread failed: {0}")]
    Thread(String),
    #[error("EvalFile refused, the previous network stays: {0}")]
    Net(#[from] NetError),
    #[error("no network is loaded (this build embeds none; set EvalFile first)")]
    NoNetwork,
    #[error("SyzygyPath refused, {}: {source}", kept_tables(.kept))]
    Tablebase {
        source: TbError,
        /// The tables still in use, if any.
        kept: Option<String>,
    },
}

fn kept_tables(kept: &Option<String>) -> String {
    match kept {
        Some(path) => format!("the tables of {path} stay"),
        None => "no tables in use".to_string(),
    }
}

/// The network compiled into the binary, if any (see `nnue::EMBEDDED`), read once and
/// shared by every engine (a test checks that it loads).
fn embedded_net() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| {
        EMBEDDED
            .and_then(|b| Network::from_bytes(b).ok())
            .map(Arc::new)
    })
    .clone()
}

/// The engine.
pub struct Engine {
    start: Position,
    pos: Position,
    history: KeyHistory,
    moves: Vec<Move>,
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    workers: Vec<Worker>,
    /// The loaded network (embedded or `EvalFile`), used when `use_nnue` is set.
    net: Option<Arc<Network>>,
    /// The thread that runs searches, and whether a job is on it now.
    jobs: JobThread,
    running: bool,
    go_start: Instant,
    book: Option<OpeningBook>,
    /// The Syzygy tables of `SyzygyPath`.
    tb: Option<Arc<Tablebases>>,
    /// The side to move and final score of each search of this game, for learning
    /// under a protocol that never names the result (see [`Engine::inferred_result`]).
    verdicts: Arc<Mutex<Vec<(Color, i32)>>>,
}

/// How far the engine's last [`LEARN_SEARCHES`] searches must all agree that one side
/// is winning for [`Engine::inferred_result`] to call the game decided.
pub const LEARN_DECISIVE_CP: i32 = 500;
/// How many of the engine's last searches [`Engine::inferred_result`] reads.
pub const LEARN_SEARCHES: usize = 3;

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

fn check_range(name: &'static str, value: i64, (min, max): (i64, i64)) -> Result<(), EngineError> {
    if value < min || value > max {
        return Err(EngineError::OutOfRange {
            name,
            value,
            min,
            max,
        });
    }
    Ok(())
}

impl Engine {
    /// An engine at the start position with default options.
    pub fn new() -> Engine {
        let options = EngineOptions::default();
        let tt = TranspositionTable::new(options.hash_mb).expect("default hash size allocates");
        Engine {
            start: Position::startpos(),
            pos: Position::startpos(),
            history: KeyHistory::new(),
            moves: Vec::new(),
            tt: Arc::new(tt),
            control: Arc::new(Control::default()),
            workers: (0..options.threads).map(Worker::new).collect(),
            jobs: JobThread::default(),
            running: false,
            net: embedded_net(),
            go_start: Instant::now(),
            book: None,
            tb: None,
            verdicts: Default::default(),
            options,
        }
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The current position (after all moves played).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played from the start position.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys of the positions before the current one.
    pub fn history(&self) -> &KeyHistory {
        &self.history
    }

    /// Whether a search is running (one whose result has been reported is not).
    pub fn is_searching(&mut self) -> bool {
        if self.running && self.control.finished.load(Relaxed) {
            self.wait();
        }
        self.running
    }

    fn idle(&mut self) -> Result<(), EngineError> {
        if self.is_searching() {
            Err(EngineError::Busy)
        } else {
            Ok(())
        }
    }

    /// Resizes the table (and clears it).
    pub fn set_hash_mb(&mut self, mb: i64) -> Result<(), EngineError> {
        check_range("Hash", mb, (HASH_MB.0 as i64, HASH_MB.2 as i64))?;
        self.idle()?;
        let mb = mb as usize;
        if mb != self.tt.size_mb() {
            // Free the old table first so that both never exist at once.
            self.tt = Arc::new(TranspositionTable::new(1)?);
            match TranspositionTable::new(mb) {
                Ok(tt) => self.tt = Arc::new(tt),
                Err(e) => {
                    self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb)?);
                    return Err(EngineError::HashRefused {
                        source: e,
                        kept_mb: self.options.hash_mb,
                    });
                }
            }
        }
        self.options.hash_mb = mb;
        Ok(())
    }

    pub fn set_threads(&mut self, n: i64) -> Result<(), EngineError> {
        check_range("Threads", n, (THREADS.0 as i64, THREADS.2 as i64))?;
        self.idle()?;
        let n = n as usize;
        self.workers.truncate(n);
        while self.workers.len() < n {
            let id = self.workers.len();
            self.workers.push(Worker::new(id));
        }
        self.options.threads = n;
        Ok(())
    }

    pub fn set_multipv(&mut self, n: i64) -> Result<(), EngineError> {
        check_range("MultiPV", n, (MULTI_PV.0 as i64, MULTI_PV.2 as i64))?;
        self.idle()?;
        self.options.multipv = n as usize;
        Ok(())
    }

    pub fn set_move_overhead(&mut self, ms: i64) -> Result<(), EngineError> {
        let (min, max) = (MOVE_OVERHEAD_MS.0 as i64, MOVE_OVERHEAD_MS.2 as i64);
        check_range("Move Overhead", ms, (min, max))?;
        self.idle()?;
        self.options.move_overhead_ms = ms as u64;
        Ok(())
    }

    /// Switches castling notation; the current position is kept.
    pub fn set_chess960(&mut self, on: bool) -> Result<(), EngineError> {
        self.idle()?;
        self.options.chess960 = on;
        self.start.set_chess960(on);
        self.pos.set_chess960(on);
        Ok(())
    }

    pub fn set_show_wdl(&mut self, on: bool) {
        self.options.show_wdl = on;
    }

    pub fn set_ponder(&mut self, on: bool) {
        self.options.ponder = on;
    }

    pub fn set_own_book(&mut self, on: bool) {
        self.options.own_book = on;
    }

    /// Loads the book file (`""` or `<empty>` unloads). On an error the engine is left
    /// without a book (and plays on by searching).
    pub fn set_book_file(&mut self, path: &str) -> Result<(), EngineError> {
        self.idle()?;
        let path = path.trim();
        let path = if path == "<empty>" { "" } else { path };
        self.options.book_file = path.to_string();
        self.book = None;
        if !path.is_empty() {
            self.book = Some(OpeningBook::open(std::path::Path::new(path))?);
        }
        Ok(())
    }

    pub fn set_book_depth(&mut self, plies: i64) -> Result<(), EngineError> {
        let (min, max) = (BOOK_DEPTH.0 as i64, BOOK_DEPTH.2 as i64);
        check_range("BookDepth", plies, (min, max))?;
        self.options.book_depth = plies as u32;
        Ok(())
    }

    pub fn set_book_mode(&mut self, mode: BookMode) {
        self.options.book_mode = mode;
    }

    pub fn set_book_min_weight(&mut self, weight: i64) -> Result<(), EngineError> {
        let (min, max) = (BOOK_MIN_WEIGHT.0 as i64, BOOK_MIN_WEIGHT.2 as i64);
        check_range("BookMinWeight", weight, (min, max))?;
        self.options.book_min_weight = weight as u16;
        Ok(())
    }

    pub fn set_book_learning(&mut self, on: bool) {
        self.options.book_learning = on;
    }

    /// The loaded book, if any.
    pub fn book(&self) -> Option<&OpeningBook> {
        self.book.as_ref()
    }

    /// The usable book moves of the current position (whether or not `OwnBook` is on).
    pub fn book_choices(&self) -> Vec<BookChoice> {
        match &self.book {
            Some(b) => b.choices(&self.pos, self.options.book_min_weight),
            None => Vec::new(),
        }
    }

    /// The move the book would play now, if the book is to be used here.
    pub fn book_move(&self) -> Option<BookChoice> {
        let o = &self.options;
        if !o.own_book || o.chess960 || self.pos.is_chess960() {
            return None;
        }
        let pos = &self.pos;
        let game_ply = 2 * pos.fullmoves().saturating_sub(1)
            + (pos.turn() == sable_chess::Color::Black) as u32;
        if game_ply + 1 > o.book_depth {
            return None;
        }
        OpeningBook::pick(&self.book_choices(), o.book_mode)
    }

    /// Learns from the game just played (its moves from the start position and its
    /// result) when `BookLearning` is on and a book is loaded; writes the book back.
    /// Returns the number of book entries changed.
    pub fn learn_from_game(&mut self, result: GameResult) -> Result<usize, EngineError> {
        if !self.learns_from_games() {
            return Ok(0);
        }
        let Some(book) = &mut self.book else {
            return Ok(0);
        };
        Ok(book.learn(&self.start, &self.moves, result)?)
    }

    /// Whether finished games teach the book: `BookLearning` on, a book loaded, and not
    /// Chess960 (whose positions the book does not cover).
    pub fn learns_from_games(&self) -> bool {
        self.options.book_learning && self.book.is_some() && !self.options.chess960
    }

    /// The result of the game being played, as far as the engine can tell without being
    /// told (UCI never says): the rules' verdict on the last position it was given
    /// (mate, stalemate, a draw by rule), or else its own judgement: a mate or
    /// tablebase result found by its last search, or its last [`LEARN_SEARCHES`]
    /// searches all at least [`LEARN_DECISIVE_CP`] for the same side, the margins at
    /// which GUIs adjudicate and opponents resign. `None` when neither says.
    pub fn inferred_result(&self) -> Option<GameResult> {
        if let Some(o) = self.pos.outcome(&self.history) {
            return Some(o.into());
        }
        let verdicts = self.verdicts.lock().unwrap_or_else(|e| e.into_inner());
        let &(side, last) = verdicts.last()?;
        if crate::score::is_decisive(last) {
            return Some(GameResult::win_for(if last > 0 { side } else { !side }));
        }
        let recent = &verdicts[verdicts.len().saturating_sub(LEARN_SEARCHES)..];
        let for_white = |&(s, v): &(Color, i32)| if s == Color::White { v } else { -v };
        if recent.len() < LEARN_SEARCHES {
            None
        } else if recent.iter().all(|r| for_white(r) >= LEARN_DECISIVE_CP) {
            Some(GameResult::WhiteWins)
        } else if recent.iter().all(|r| for_white(r) <= -LEARN_DECISIVE_CP) {
            Some(GameResult::BlackWins)
        } else {
            None
        }
    }

    /// [`Engine::learn_from_game`] with the [`Engine::inferred_result`], for the end of
    /// a UCI game (`ucinewgame`, `quit`): `Ok(None)` when learning is off, no book is
    /// loaded or the result cannot be told; else the result and the entries changed.
    pub fn learn_from_own_game(&mut self) -> Result<Option<(GameResult, usize)>, EngineError> {
        if !self.learns_from_games() {
            return Ok(None);
        }
        let Some(result) = self.inferred_result() else {
            return Ok(None);
        };
        Ok(Some((result, self.learn_from_game(result)?)))
    }

    /// Loads the network from `path` (empty or `<default>`: the embedded one). On any
    /// error the previous network stays.
    pub fn set_eval_file(&mut self, path: &str) -> Result<(), EngineError> {
        self.idle()?;
        let path = path.trim();
        let net = if path.is_empty() || path == "<default>" {
            embedded_net().ok_or(EngineError::NoNetwork)?
        } else {
            Arc::new(Network::load(std::path::Path::new(path))?)
        };
        self.net = Some(net);
        self.options.eval_file = path.to_string();
        Ok(())
    }

    /// Opens the Syzygy tables of `path` (folders separated by `:`, `;` on Windows;
    /// empty or `<empty>` for none) and returns notes on files or folders left out. When
    /// no table can be used the previous tables stay and the error says so.
    pub fn set_syzygy_path(&mut self, path: &str) -> Result<Vec<String>, EngineError> {
        self.idle()?;
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            self.tb = None;
            self.options.syzygy_path.clear();
            return Ok(Vec::new());
        }
        match Tablebases::open(path) {
            Ok((tb, notes)) => {
                self.tb = Some(Arc::new(tb));
                self.options.syzygy_path = path.to_string();
                Ok(notes)
            }
            Err(source) => Err(EngineError::Tablebase {
                source,
                kept: self.tb.as_ref().map(|t| t.path().to_string()),
            }),
        }
    }

    /// The tables in use, if any.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tb.as_ref()
    }

    /// `SyzygyProbeDepth`.
    pub fn set_syzygy_probe_depth(&mut self, depth: i64) -> Result<(), EngineError> {
        let (min, _, max) = tablebase::PROBE_DEPTH;
        check_range("SyzygyProbeDepth", depth, (min, max))?;
        self.idle()?;
        self.options.syzygy.probe_depth = depth as i32;
        Ok(())
    }

    /// `SyzygyProbeLimit`: the most pieces a probed position may have (0: no probes).
    pub fn set_syzygy_probe_limit(&mut self, pieces: i64) -> Result<(), EngineError> {
        let (min, _, max) = tablebase::PROBE_LIMIT;
        check_range("SyzygyProbeLimit", pieces, (min, max))?;
        self.idle()?;
        self.options.syzygy.probe_limit = pieces as usize;
        Ok(())
    }

    /// `Syzygy50MoveRule`: whether wins too slow for the 50-move rule count as draws.
    pub fn set_syzygy_50_move_rule(&mut self, on: bool) -> Result<(), EngineError> {
        self.idle()?;
        self.options.syzygy.rule50 = on;
        Ok(())
    }

    /// `UCI_LimitStrength`: when on, `UCI_Elo` sets the level (see [`crate::strength`]).
    pub fn set_limit_strength(&mut self, on: bool) {
        self.options.strength.limit_strength = on;
    }

    /// `UCI_Elo`: the level when `UCI_LimitStrength` is on.
    pub fn set_elo(&mut self, elo: i64) -> Result<(), EngineError> {
        check_range("UCI_Elo", elo, (UCI_ELO.0, UCI_ELO.2))?;
        self.options.strength.elo = elo as u32;
        Ok(())
    }

    /// `Skill Level`: 0 (weakest) to 20 (full strength), used when `UCI_LimitStrength`
    /// is off.
    pub fn set_skill_level(&mut self, level: i64) -> Result<(), EngineError> {
        check_range("Skill Level", level, (SKILL_LEVEL.0, SKILL_LEVEL.2))?;
        self.options.strength.skill_level = level as u32;
        Ok(())
    }

    /// `Skill Seed`: the seed of a limited level's draw (0: from the position alone).
    pub fn set_skill_seed(&mut self, seed: i64) -> Result<(), EngineError> {
        check_range("Skill Seed", seed, (SKILL_SEED.0, SKILL_SEED.2))?;
        self.options.strength.seed = seed as u32;
        Ok(())
    }

    /// Evaluates with the network (refused when none is loaded) or the hand-crafted
    /// evaluation.
    pub fn set_use_nnue(&mut self, on: bool) -> Result<(), EngineError> {
        self.idle()?;
        if on && self.net.is_none() {
            return Err(EngineError::NoNetwork);
        }
        self.options.use_nnue = on;
        Ok(())
    }

    /// The network searches use now, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref().filter(|_| self.options.use_nnue)
    }

    /// Empties the transposition table.
    pub fn clear_hash(&mut self) -> Result<(), EngineError> {
        self.idle()?;
        self.tt.clear();
        Ok(())
    }

    /// A new game: start position, empty table and histories.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.idle()?;
        self.tt.clear();
        for w in self.workers.iter_mut() {
            w.clear();
        }
        self.set_start(Position::startpos());
        self.verdicts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        Ok(())
    }

    fn set_start(&mut self, mut pos: Position) {
        pos.set_chess960(self.options.chess960 || pos.is_chess960());
        self.start = pos.clone();
        self.pos = pos;
        self.history.clear();
        self.moves.clear();
    }

    fn castling_mode(&self) -> CastlingMode {
        if self.options.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// Parses a FEN in the current castling mode.
    pub fn parse_fen(&self, fen: &str) -> Result<Position, EngineError> {
        Ok(Position::from_fen(fen, self.castling_mode())?)
    }

    /// Sets the game to `fen` (the start position if `None`) followed by `moves` in UCI
    /// notation. All or nothing: on an error the previous game is kept.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), EngineError> {
        self.idle()?;
        let start = match fen {
            Some(f) => self.parse_fen(f)?,
            None => Position::from_fen(STARTPOS_FEN, self.castling_mode())?,
        };
        let mut pos = start.clone();
        let mut history = KeyHistory::new();
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let m = pos.parse_uci(text).map_err(|source| EngineError::Move {
                index: i + 1,
                source,
            })?;
            history.push(pos.key());
            pos.make(m);
            played.push(m);
        }
        self.start = start;
        self.pos = pos;
        self.history = history;
        self.moves = played;
        Ok(())
    }

    /// Parses a move in UCI notation in the current position.
    pub fn parse_move(&self, text: &str) -> Result<Move, EngineError> {
        Ok(self.pos.parse_uci(text)?)
    }

    /// Plays a move given in UCI notation.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, EngineError> {
        let m = self.parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Plays a legal move (checked).
    pub fn play(&mut self, m: Move) -> Result<(), EngineError> {
        self.idle()?;
        if !self.pos.is_legal(m) {
            return Err(EngineError::IllegalMove(UciMoveError::Illegal {
                text: m.to_uci(self.pos.is_chess960()).to_string(),
                fen: self.pos.fen(),
            }));
        }
        self.history.push(self.pos.key());
        self.pos.make(m);
        self.moves.push(m);
        Ok(())
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Result<Option<Move>, EngineError> {
        self.idle()?;
        let Some(last) = self.moves.pop() else {
            return Ok(None);
        };
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.make(m);
        }
        self.pos = pos;
        self.history.pop();
        Ok(Some(last))
    }

    /// Starts a search in the background. Events arrive on the search thread in order,
    /// ending with [`SearchEvent::Finished`] (in infinite and ponder mode only after
    /// [`Engine::stop`] or [`Engine::ponderhit`]).
    pub fn go(
        &mut self,
        mut limits: SearchLimits,
        on_event: impl FnMut(SearchEvent) + Send + 'static,
    ) -> Result<(), EngineError> {
        self.idle()?;
        if !limits.infinite && !limits.ponder {
            let choice = self
                .book_move()
                .filter(|c| limits.search_moves.is_empty() || limits.search_moves.contains(&c.mv));
            if let Some(choice) = choice {
                return self.play_book_move(choice, on_event);
            }
        }
        let control = &self.control;
        control.stop.store(false, Relaxed);
        control.pondering.store(limits.ponder, Relaxed);
        control.ponderhit_ms.store(0, Relaxed);
        control.finished.store(false, Relaxed);
        self.tt.new_search();
        let mut budget = time::budget(&limits, self.pos.turn(), self.options.move_overhead_ms);
        // A limited strength (never in analysis): its depth and nodes cap the user's,
        // it searches several lines to choose from (see `strength`), and on a clock it
        // never thinks longer than full strength could (a fixed `movetime` full
        // strength uses whole, and a level never exceeds it).
        let level = self.options.strength.level().filter(|_| !limits.infinite);
        let mut multipv = self.options.multipv;
        if let Some(level) = level {
            if limits.movetime_ms.is_none() {
                budget = budget.map(time::TimeBudget::for_level);
            }
            let depth = limits.depth.map_or(level.depth(), |d| d.min(level.depth()));
            limits.depth = Some(depth);
            let nodes = limits
                .soft_nodes
                .map_or(level.nodes(), |n| n.min(level.nodes()));
            limits.soft_nodes = Some(nodes);
            multipv = multipv.max(level.lines());
        }
        self.go_start = Instant::now();
        let ctx = Arc::new(SearchContext {
            control: self.control.clone(),
            tt: self.tt.clone(),
            budget,
            multipv,
            report_multipv: self.options.multipv,
            level,
            start: self.go_start,
            nodes: (0..self.workers.len())
                .map(|_| NodeCounter::default())
                .collect(),
            root: self.pos.clone(),
            last_move: self.moves.last().copied(),
            game_keys: self.history.keys().to_vec(),
            net: match level {
                Some(l) if !l.uses_net() => None,
                _ => self.network().cloned(),
            },
            tb_cardinality: self
                .tb
                .as_ref()
                .map_or(0, |t| t.max_pieces().min(self.options.syzygy.probe_limit)),
            tb: self.tb.clone(),
            tb_settings: self.options.syzygy,
            tbhits: Default::default(),
            root_tb: Default::default(),
            limits,
        });
        let workers = std::mem::take(&mut self.workers);
        let (verdicts, turn) = (self.verdicts.clone(), self.pos.turn());
        let mut on_event = on_event;
        let on_event = move |e: SearchEvent| {
            if let SearchEvent::Finished(r) = &e {
                if r.best.is_some() {
                    let mut v = verdicts.lock().unwrap_or_else(|e| e.into_inner());
                    v.push((turn, r.score_value));
                }
            }
            on_event(e)
        };
        self.start_job(move || threads::run(workers, ctx, Box::new(on_event)))
    }

    /// Answers a `go` with a book move: a note, then the result, from the engine's thread
    /// like a search, so that the protocols need no special case.
    fn play_book_move(
        &mut self,
        choice: BookChoice,
        mut on_event: impl FnMut(SearchEvent) + Send + 'static,
    ) -> Result<(), EngineError> {
        let control = &self.control;
        control.stop.store(false, Relaxed);
        control.pondering.store(false, Relaxed);
        control.finished.store(false, Relaxed);
        self.go_start = Instant::now();
        let workers = std::mem::take(&mut self.workers);
        let control = self.control.clone();
        let start = self.go_start;
        self.start_job(move || {
            on_event(SearchEvent::Note(choice.note()));
            control.finished.store(true, Relaxed);
            on_event(SearchEvent::Finished(SearchResult {
                best: Some(choice.mv),
                ponder: None,
                score_value: 0,
                score: crate::report::ScoreReport::Cp(0),
                depth: 0,
                nodes: 0,
                time: start.elapsed(),
                pv: vec![choice.mv],
            }));
            workers
        })
    }

    /// Counts the leaves below each legal move (`go perft`) on a thread of its own, like
    /// a search: `on_move` gets each root move's count as it is known and `on_done` the
    /// total and whether it finished (false after [`Engine::stop`]). While it runs the
    /// engine is busy: `stop`, `isready` and `quit` are answered, a `go` is refused.
    pub fn go_perft(
        &mut self,
        depth: u32,
        mut on_move: impl FnMut(Move, u64) + Send + 'static,
        on_done: impl FnOnce(u64, bool) + Send + 'static,
    ) -> Result<(), EngineError> {
        self.idle()?;
        self.control.stop.store(false, Relaxed);
        self.control.finished.store(false, Relaxed);
        let control = self.control.clone();
        let pos = self.pos.clone();
        let workers = std::mem::take(&mut self.workers);
        self.start_job(move || {
            let mut total = 0;
            let done = sable_chess::divide_until(&pos, depth, &control.stop, |m, n| {
                total += n;
                on_move(m, n);
            });
            // Set before the last report, as a search does, so that a command that
            // follows the report finds the engine idle.
            control.finished.store(true, Relaxed);
            on_done(total, done);
            workers
        })
    }

    /// Runs `job` (which owns the workers and gives them back) on the engine's thread
    /// (`job.rs`): a search, a book move or a perft count.
    fn start_job(
        &mut self,
        job: impl FnOnce() -> Vec<Worker> + Send + 'static,
    ) -> Result<(), EngineError> {
        match self.jobs.start(Box::new(job)) {
            Ok(()) => {
                self.running = true;
                Ok(())
            }
            Err(e) => {
                // The workers went with the closure; start over with fresh ones.
                self.workers = (0..self.options.threads).map(Worker::new).collect();
                Err(EngineError::Thread(e.to_string()))
            }
        }
    }

    /// Asks the running search to stop; it reports its result within milliseconds.
    pub fn stop(&self) {
        self.control.stop.store(true, Relaxed);
    }

    /// The opponent played the expected move: pondering becomes a normal timed search
    /// whose clock starts now.
    pub fn ponderhit(&self) {
        if self.running && self.control.pondering.load(Relaxed) {
            // The search thread reads `ponderhit_ms` before `pondering`.
            let elapsed = self.elapsed_since_go();
            self.control.ponderhit_ms.store(elapsed, Relaxed);
            self.control.pondering.store(false, Relaxed);
        }
    }

    fn elapsed_since_go(&self) -> u64 {
        self.go_start.elapsed().as_millis() as u64
    }

    /// Waits for the running search (if any) to end; call [`Engine::stop`] first in
    /// infinite or ponder mode.
    pub fn wait(&mut self) {
        if std::mem::take(&mut self.running) {
            match self.jobs.finish() {
                Some(workers) => self.workers = workers,
                None => {
                    // A panicking job loses its workers; start fresh ones.
                    self.workers = (0..self.options.threads).map(Worker::new).collect();
                }
            }
        }
    }

    /// Searches to the end on this thread's behalf and returns the result (no infinite or
    /// ponder mode); `on_event` sees every report.
    pub fn search(
        &mut self,
        limits: SearchLimits,
        mut on_event: impl FnMut(&SearchEvent),
    ) -> Result<SearchResult, EngineError> {
        self.search_blocking(limits, None, Some(&mut on_event))
    }

    /// As [`Engine::search`] for a caller that wants only the result: the search thread
    /// wakes this one once, when it ends, instead of at every report. Data generation
    /// runs hundreds of 5,000-node searches a second, where waking for each iteration's
    /// report cost about 20 context switches a search.
    ///
    /// ```
    /// use sable_engine::{Engine, SearchLimits};
    ///
    /// let mut engine = Engine::new();
    /// engine.set_position(None, &["e2e4", "e7e5"]).unwrap();
    /// let result = engine.search_quietly(SearchLimits::depth(4)).unwrap();
    /// assert!(result.best.is_some());
    /// ```
    pub fn search_quietly(&mut self, limits: SearchLimits) -> Result<SearchResult, EngineError> {
        self.search_blocking(limits, None, None)
    }

    /// As [`Engine::search`], stopped once `cancel` is set (seen within 20 ms): a caller
    /// that another thread may interrupt (a review stopped on a web page, Ctrl-C) need not
    /// wait for a long search to end. A stopped search still returns its result so far;
    /// the caller, who set the flag, knows it is cut short.
    pub fn search_until(
        &mut self,
        limits: SearchLimits,
        cancel: &AtomicBool,
        mut on_event: impl FnMut(&SearchEvent),
    ) -> Result<SearchResult, EngineError> {
        self.search_blocking(limits, Some(cancel), Some(&mut on_event))
    }

    /// The blocking searches: `go` with the reports sent back to this thread (all of
    /// them to `on_event`, or only the result when there is none), polling `cancel`
    /// every 20 ms when there is one.
    fn search_blocking(
        &mut self,
        mut limits: SearchLimits,
        cancel: Option<&AtomicBool>,
        mut on_event: Option<&mut dyn FnMut(&SearchEvent)>,
    ) -> Result<SearchResult, EngineError> {
        limits.infinite = false;
        limits.ponder = false;
        let every_report = on_event.is_some();
        let (tx, rx) = mpsc::channel();
        self.go(limits, move |e| {
            if every_report || matches!(e, SearchEvent::Finished(_)) {
                let _ = tx.send(e);
            }
        })?;
        let mut result = None;
        loop {
            let event = match cancel {
                Some(cancel) => match rx.recv_timeout(Duration::from_millis(20)) {
                    Ok(e) => e,
                    Err(RecvTimeoutError::Timeout) => {
                        if cancel.load(Relaxed) {
                            self.stop();
                        }
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                },
                None => match rx.recv() {
                    Ok(e) => e,
                    Err(_) => break,
                },
            };
            if let Some(f) = on_event.as_mut() {
                f(&event);
            }
            if let SearchEvent::Finished(r) = event {
                result = Some(r);
            }
        }
        self.wait();
        result.ok_or_else(|| EngineError::Thread("the search ended without a result".into()))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}
