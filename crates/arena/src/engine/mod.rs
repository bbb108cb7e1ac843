//! Engines as the referee sees them: a configured command, started as a process and
//! driven through a protocol adapter (UCI or xboard). The adapters turn "think about
//! this position with these clocks" into protocol lines and the reply into a move with
//! its score.

mod process;
mod uci;
mod xboard;

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use process::{Process, Recv};

use super::tc::Limits;
use sable_chess::{Color, Position};

/// Which protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
}

/// How to start and drive one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
    pub dir: Option<String>,
    pub protocol: Protocol,
    /// Engine options in order (UCI `setoption`; xboard `memory`/`cores`/`option`).
    pub options: Vec<(String, String)>,
    pub limits: Limits,
    /// Allowed past the clock before the flag falls.
    pub margin: Duration,
    /// How long a reply may take where no clock runs (start-up, `isready`, depth or
    /// node searches) before the engine counts as stalled.
    pub stall: Duration,
    /// Print the protocol traffic on standard error.
    pub debug: bool,
    /// The runner's book for this engine (cutechess-cli's `book=FILE bookdepth=N`).
    pub book: Option<RunnerBook>,
}

/// A book the runner plays from on an engine's behalf, while the game has fewer than
/// `2 * depth` plies (cutechess-cli counts `bookdepth` in full moves).
#[derive(Clone, Debug)]
pub struct RunnerBook {
    pub book: std::sync::Arc<sable_formats::PolyglotBook>,
    pub depth: u32,
}

impl RunnerBook {
    /// The book move for `pos` after `plies` plies of the game: a legal move picked in
    /// proportion to the weights with the random number `draw` (the game's seeded
    /// stream, so `-srand` repeats a match's book lines), or `None` out of book (or in
    /// Chess960).
    pub fn pick(
        &self,
        pos: &sable_chess::Position,
        plies: usize,
        draw: u64,
    ) -> Option<sable_chess::Move> {
        if plies >= 2 * self.depth as usize || pos.is_chess960() {
            return None;
        }
        let choices = self.book.choices(pos, 1);
        use sable_formats::book::choose::{BookChoice, BookMode};
        BookChoice::pick(&choices, BookMode::Weighted, draw).map(|c| c.mv)
    }
}

/// An engine's evaluation, from the point of view of the side it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in this many moves; negative when the engine is being mated.
    Mate(i32),
}

impl Score {
    /// A comparable value in centipawns, mates far beyond any material score.
    pub fn cp_equivalent(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
}

impl fmt::Display for Score {
    /// The cutechess PGN comment form: `+0.35`, `-1.20`, `+M5`, `-M3`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Score::Cp(c) => {
                let sign = if c < 0 { '-' } else { '+' };
                write!(f, "{sign}{}.{:02}", c.abs() / 100, c.abs() % 100)
            }
            Score::Mate(n) if n >= 0 => write!(f, "+M{n}"),
            Score::Mate(n) => write!(f, "-M{}", -n),
        }
    }
}

/// What the referee asks of the side to move.
pub struct ThinkRequest<'a> {
    /// The game's first position (before book moves) and every move since, in UCI form.
    pub start_fen: &'a str,
    pub moves: &'a [String],
    pub raw_moves: &'a [sable_chess::Move],
    /// The position now, for adapters that need to read the engine's move notation.
    pub position: &'a Position,
    pub chess960: bool,
    /// Clock readings in milliseconds, when a clock runs.
    pub clocks: Option<ClockReadings>,
    /// When the referee stops waiting for the move.
    pub deadline: Instant,
}

#[derive(Clone, Copy, Debug)]
pub struct ClockReadings {
    pub white_ms: u64,
    pub black_ms: u64,
    pub white_inc_ms: u64,
    pub black_inc_ms: u64,
    pub moves_to_go: Option<u32>,
    pub turn: Color,
}

/// The engine's answer.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The move as the engine wrote it, UCI coordinates for both protocols.
    pub mv: String,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    /// The principal variation of the last report with a score, in UCI coordinates,
    /// starting with the move (just the move when none was reported; xboard: the move).
    pub pv: Vec<String>,
    /// When the move arrived.
    pub arrived: Instant,
}

/// Ways an engine fails; the referee turns each into a game result.
#[derive(Debug, Clone, thiserror::Error)]
pub enum EngineError {
    #[error("cannot start '{command}': {reason}")]
    Spawn { command: String, reason: String },
    #[error("the engine disconnected (its process ended)")]
    Disconnected,
    #[error("no reply in time")]
    Timeout,
    #[error("the engine stalled: no {0} within the time allowed")]
    Stalled(&'static str),
    #[error("the engine resigned")]
    Resigned,
    #[error("stopped by the user")]
    Cancelled,
    #[error("{0}")]
    Protocol(String),
}

/// The protocol state that outlives a single request.
enum Adapter {
    Uci(uci::Uci),
    Xboard(xboard::Xboard),
}

/// A started engine.
pub struct Engine {
    pub config: EngineConfig,
    process: Process,
    adapter: Adapter,
}

impl Engine {
    /// Starts the process and completes the protocol handshake (and sets options).
    pub fn start(config: &EngineConfig, cancel: Arc<AtomicBool>) -> Result<Engine, EngineError> {
        let debug = config.debug.then(|| config.name.clone());
        let mut process = Process::spawn(
            &config.program,
            &config.args,
            config.dir.as_deref(),
            cancel,
            debug,
        )?;
        let adapter = match config.protocol {
            Protocol::Uci => Adapter::Uci(uci::Uci::start(&mut process, config)?),
            Protocol::Xboard => Adapter::Xboard(xboard::Xboard::start(&mut process, config)?),
        };
        Ok(Engine {
            config: config.clone(),
            process,
            adapter,
        })
    }

    /// Prepares for a game from `start_fen`.
    pub fn new_game(&mut self, start_fen: &str, chess960: bool) -> Result<(), EngineError> {
        self.process.drain();
        match &mut self.adapter {
            Adapter::Uci(u) => u.new_game(&mut self.process, &self.config, chess960),
            Adapter::Xboard(x) => x.new_game(&mut self.process, &self.config, start_fen, chess960),
        }
    }

    /// Asks for a move; returns once it arrives, the deadline passes, or the engine dies.
    pub fn think(&mut self, req: &ThinkRequest) -> Result<Reply, EngineError> {
        match &mut self.adapter {
            Adapter::Uci(u) => u.think(&mut self.process, &self.config, req),
            Adapter::Xboard(x) => x.think(&mut self.process, &self.config, req),
        }
    }

    /// Tells the engine the game is over (xboard wants the result).
    pub fn end_game(&mut self, result: &str, reason: &str) {
        if let Adapter::Xboard(x) = &mut self.adapter {
            x.end_game(&mut self.process, result, reason);
        }
    }

    /// After a timeout: makes the engine stop and answer, so it can play on. False
    /// when it does not, and must be restarted.
    pub fn settle(&mut self) -> bool {
        let stall = self.config.stall;
        let ok = match &mut self.adapter {
            Adapter::Uci(u) => u.settle(&mut self.process, stall),
            Adapter::Xboard(x) => x.settle(&mut self.process, stall),
        };
        ok && self.process.is_alive()
    }

    pub fn is_alive(&mut self) -> bool {
        self.process.is_alive()
    }

    /// Asks the engine to quit, then makes sure it does.
    pub fn quit(mut self) {
        let _ = self.process.send("quit");
        self.process.shutdown(Duration::from_millis(500));
    }
}

/// Waits for a line that `pick` accepts, skipping others; `what` names it in the error.
fn wait_for<T>(
    process: &mut Process,
    deadline: Instant,
    what: &'static str,
    mut pick: impl FnMut(&str, Instant) -> Option<T>,
) -> Result<T, EngineError> {
    loop {
        match process.recv(deadline) {
            Recv::Line(line, at) => {
                if let Some(v) = pick(&line, at) {
                    return Ok(v);
                }
            }
            Recv::Timeout => return Err(EngineError::Stalled(what)),
            Recv::Closed => return Err(EngineError::Disconnected),
            Recv::Cancelled => return Err(EngineError::Cancelled),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Score;

    #[test]
    fn scores_print_like_cutechess() {
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Cp(-120).to_string(), "-1.20");
        assert_eq!(Score::Cp(-5).to_string(), "-0.05");
        assert_eq!(Score::Cp(0).to_string(), "+0.00");
        assert_eq!(Score::Mate(5).to_string(), "+M5");
        assert_eq!(Score::Mate(-3).to_string(), "-M3");
        assert!(Score::Mate(1).cp_equivalent() > Score::Mate(9).cp_equivalent());
        assert!(Score::Mate(-1).cp_equivalent() < Score::Mate(-9).cp_equivalent());
        assert!(Score::Mate(-9).cp_equivalent() < Score::Cp(-5000).cp_equivalent());
    }
}
