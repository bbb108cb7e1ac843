//! The game-flow state that the xboard processor and the console share on top of
//! [`Engine`]: which side the engine plays (if any), what it is doing (observing,
//! waiting, thinking, pondering, analysing), time controls and clocks, the moves taken
//! back (for redo). Protocol layers (crates/cli: xboard, console) read and write the
//! text and only translate it to these calls.

use sable_chess::{Color, Move, Outcome, Position};
use sable_engine::SearchEvent;
use sable_engine::{Clock, SearchLimits};
use sable_engine::{Engine, EngineError};

/// What the engine is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Playing neither side (xboard's force mode): moves are only recorded.
    Observing,
    /// Playing a side, waiting for the opponent's move.
    Waiting,
    /// Searching for its own move.
    Thinking,
    /// Searching on the opponent's time after guessing the opponent's move.
    Pondering,
    /// Searching the current position without end, never moving.
    Analysing,
}

/// A time control: `moves` per period (0: the whole game), `base_ms` per period and
/// `inc_ms` added after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub moves: u32,
    pub base_ms: u64,
    pub inc_ms: u64,
}

/// How long the engine may think: a clock, a fixed time per move, a depth limit and a
/// node rate standing in for wall-clock time, used together as the protocol says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    pub control: Option<TimeControl>,
    pub move_time_ms: Option<u64>,
    pub depth: Option<u32>,
    /// Nodes per second replacing wall-clock time (xboard `nps`).
    pub nps: Option<u64>,
    /// The engine's and the opponent's remaining time as last reported.
    pub own_ms: Option<u64>,
    pub opp_ms: Option<u64>,
}

impl Timing {
    /// The limits of one search for `side` to move, `moves_made` moves into the game
    /// by that side.
    pub fn limits(&self, side: Color, moves_made: u32) -> SearchLimits {
        let mut limits = SearchLimits {
            depth: self.depth,
            ..SearchLimits::default()
        };
        if let Some(ms) = self.move_time_ms {
            match self.nps {
                Some(nps) if nps > 0 => limits.nodes = Some((ms.saturating_mul(nps) / 1000).max(1)),
                _ => limits.movetime_ms = Some(ms),
            }
            return limits;
        }
        let Some(tc) = self.control else {
            return limits;
        };
        let own = self.own_ms.unwrap_or(tc.base_ms);
        let opp = self.opp_ms.unwrap_or(tc.base_ms);
        if tc.moves > 0 {
            limits.moves_to_go = Some(tc.moves - moves_made % tc.moves);
        }
        if let Some(nps) = self.nps.filter(|&n| n > 0) {
            let share =
                (own / u64::from(limits.moves_to_go.unwrap_or(30))).saturating_add(tc.inc_ms);
            limits.nodes = Some((share.saturating_mul(nps) / 1000).max(1));
            limits.moves_to_go = None;
            return limits;
        }
        let mut clocks = [None; 2];
        clocks[side.index()] = Some(Clock {
            time_ms: own,
            inc_ms: tc.inc_ms,
        });
        clocks[(!side).index()] = Some(Clock {
            time_ms: opp,
            inc_ms: tc.inc_ms,
        });
        limits.clocks = clocks;
        limits
    }
}

/// Which search a reported event belongs to, so that events of a search that was
/// abandoned (by `force`, `undo`, a new position) are recognised and dropped.
pub type SearchId = u64;

/// The engine with the game flow around it.
pub struct Session {
    pub engine: Engine,
    mode: Mode,
    /// The side the engine plays; `None` in observing and analysing mode.
    side: Option<Color>,
    pub timing: Timing,
    /// Whether the engine thinks on the opponent's time.
    pub ponder: bool,
    /// The guessed opponent move played on the engine's board while pondering.
    ponder_move: Option<Move>,
    /// The engine's best guess at the next move of the side to move (for hints).
    pub expected: Option<Move>,
    next_id: SearchId,
    active: Option<SearchId>,
    /// Moves taken back, most recent last (for redo).
    redo: Vec<Move>,
    /// The start position of the game (the engine keeps its own privately).
    start: Position,
}

impl Default for Session {
    fn default() -> Self {
        Session::new(Engine::new())
    }
}

impl Session {
    /// Wraps an engine; change the game only through the session from now on.
    pub fn new(engine: Engine) -> Session {
        let start = engine.position().clone();
        Session {
            engine,
            mode: Mode::Observing,
            side: None,
            timing: Timing::default(),
            ponder: false,
            ponder_move: None,
            expected: None,
            next_id: 0,
            active: None,
            redo: Vec::new(),
            start,
        }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The side the engine plays, if any.
    pub fn side(&self) -> Option<Color> {
        self.side
    }

    /// The game position (without a guessed move being pondered on).
    pub fn position(&self) -> Position {
        let mut pos = self.engine.position().clone();
        if self.ponder_move.is_some() {
            let moves = &self.engine.moves()[..self.engine.moves().len() - 1];
            pos = self.replay(moves);
        }
        pos
    }

    fn replay(&self, moves: &[Move]) -> Position {
        let mut pos = self.start_position();
        for &m in moves {
            pos.make(m);
        }
        pos
    }

    /// The position the game started from.
    pub fn start_position(&self) -> Position {
        let mut pos = self.start.clone();
        pos.set_chess960(self.engine.position().is_chess960());
        pos
    }

    /// The moves of the game (without a guessed move being pondered on).
    pub fn moves(&self) -> &[Move] {
        let all = self.engine.moves();
        if self.ponder_move.is_some() {
            &all[..all.len() - 1]
        } else {
            all
        }
    }

    /// Moves made so far by the side to move (for time controls with a move count).
    pub fn moves_made_by_side_to_move(&self) -> u32 {
        (self.moves().len() / 2) as u32
    }

    /// The game's outcome by rule, if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.ponder_move.is_some() {
            let pos = self.position();
            let mut keys = self.engine.history().clone();
            keys.pop();
            return pos.outcome(&keys);
        }
        self.engine.position().outcome(self.engine.history())
    }

    /// Whether `id` is the search whose reports still matter.
    pub fn is_current(&self, id: SearchId) -> bool {
        self.active == Some(id)
    }

    /// Stops any search and forgets its result; a pondered guess is taken back. The
    /// engine plays the same side as before and is idle afterwards.
    pub fn abandon_search(&mut self) {
        self.engine.stop();
        self.engine.wait();
        self.active = None;
        if self.ponder_move.take().is_some() {
            let _ = self.engine.undo();
        }
        if matches!(
            self.mode,
            Mode::Thinking | Mode::Pondering | Mode::Analysing
        ) {
            self.mode = if self.mode == Mode::Analysing {
                Mode::Analysing
            } else if self.side.is_some() {
                Mode::Waiting
            } else {
                Mode::Observing
            };
        }
    }

    /// Plays neither side; no search runs afterwards.
    pub fn observe(&mut self) {
        self.abandon_search();
        self.side = None;
        self.mode = Mode::Observing;
    }

    /// Plays `side` (searching only when told to think).
    pub fn play_side(&mut self, side: Color) {
        self.abandon_search();
        self.side = Some(side);
        self.mode = Mode::Waiting;
    }

    /// A new game from the start position; the engine plays Black (xboard's `new`).
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.abandon_search();
        self.engine.new_game()?;
        self.start = self.engine.position().clone();
        self.side = Some(Color::Black);
        self.mode = Mode::Waiting;
        self.timing.depth = None;
        self.timing.nps = None;
        self.timing.own_ms = None;
        self.timing.opp_ms = None;
        self.expected = None;
        self.redo.clear();
        Ok(())
    }

    /// Sets the game to start at `fen` (all or nothing).
    pub fn set_fen(&mut self, fen: &str) -> Result<(), EngineError> {
        self.abandon_search();
        self.engine.set_position(Some(fen), &[])?;
        self.start = self.engine.position().clone();
        self.expected = None;
        self.redo.clear();
        Ok(())
    }

    /// Plays a move of the side to move (after abandoning any search).
    pub fn play(&mut self, m: Move) -> Result<(), EngineError> {
        self.abandon_search();
        self.engine.play(m)?;
        if self.redo.last() == Some(&m) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.expected = None;
        Ok(())
    }

    /// Takes back `n` moves (fewer if the game is shorter); returns how many.
    pub fn take_back(&mut self, n: usize) -> usize {
        self.abandon_search();
        let mut done = 0;
        while done < n {
            match self.engine.undo() {
                Ok(Some(m)) => {
                    self.redo.push(m);
                    done += 1;
                }
                _ => break,
            }
        }
        if done > 0 {
            self.expected = None;
        }
        done
    }

    /// Replays the last move taken back, if any.
    pub fn redo(&mut self) -> Result<Option<Move>, EngineError> {
        self.abandon_search();
        let Some(&m) = self.redo.last() else {
            return Ok(None);
        };
        self.engine.play(m)?;
        self.redo.pop();
        Ok(Some(m))
    }

    fn start(
        &mut self,
        limits: SearchLimits,
        mode: Mode,
        mut on_event: impl FnMut(SearchId, SearchEvent) + Send + 'static,
    ) -> Result<SearchId, EngineError> {
        let id = self.next_id;
        self.next_id += 1;
        self.engine.go(limits, move |e| on_event(id, e))?;
        self.active = Some(id);
        self.mode = mode;
        Ok(id)
    }

    /// Searches for the side to move's best move under the current timing; the engine
    /// plays that side from now on.
    pub fn think(
        &mut self,
        on_event: impl FnMut(SearchId, SearchEvent) + Send + 'static,
    ) -> Result<SearchId, EngineError> {
        self.abandon_search();
        let side = self.engine.position().turn();
        self.side = Some(side);
        let limits = self.timing.limits(side, self.moves_made_by_side_to_move());
        self.start(limits, Mode::Thinking, on_event)
    }

    /// Thinks with explicit limits (the console's `go depth 8`).
    pub fn think_with(
        &mut self,
        limits: SearchLimits,
        on_event: impl FnMut(SearchId, SearchEvent) + Send + 'static,
    ) -> Result<SearchId, EngineError> {
        self.abandon_search();
        self.side = Some(self.engine.position().turn());
        self.start(limits, Mode::Thinking, on_event)
    }

    /// Searches the current position until stopped, never moving.
    pub fn analyse(
        &mut self,
        on_event: impl FnMut(SearchId, SearchEvent) + Send + 'static,
    ) -> Result<SearchId, EngineError> {
        self.abandon_search();
        self.side = None;
        let limits = SearchLimits {
            infinite: true,
            ..SearchLimits::default()
        };
        self.start(limits, Mode::Analysing, on_event)
    }

    /// Leaves analysing mode (observing afterwards).
    pub fn stop_analysing(&mut self) {
        self.abandon_search();
        self.mode = Mode::Observing;
        self.side = None;
    }

    /// Plays `guess` for the opponent on the engine's board and searches the reply
    /// until the opponent moves. Does nothing useful if `guess` is not legal.
    pub fn ponder_on(
        &mut self,
        guess: Move,
        on_event: impl FnMut(SearchId, SearchEvent) + Send + 'static,
    ) -> Result<SearchId, EngineError> {
        self.abandon_search();
        let side = self.side.unwrap_or(!self.engine.position().turn());
        self.engine.play(guess)?;
        self.ponder_move = Some(guess);
        // Counted with the guess played: the engine is on move after it.
        let made = (self.engine.moves().len() / 2) as u32;
        let mut limits = self.timing.limits(side, made);
        limits.ponder = true;
        match self.start(limits, Mode::Pondering, on_event) {
            Ok(id) => Ok(id),
            Err(e) => {
                self.ponder_move = None;
                let _ = self.engine.undo();
                self.mode = Mode::Waiting;
                Err(e)
            }
        }
    }

    /// The move being pondered on, if any.
    pub fn ponder_move(&self) -> Option<Move> {
        self.ponder_move
    }

    /// The opponent played `m` while the engine pondered: on the guessed move the
    /// search goes on as a timed one (true); otherwise it is abandoned (false) and the
    /// caller plays `m` and thinks afresh.
    pub fn ponder_hit(&mut self, m: Move) -> bool {
        if self.mode == Mode::Pondering && self.ponder_move == Some(m) {
            self.ponder_move = None;
            self.redo.clear();
            self.engine.ponderhit();
            self.mode = Mode::Thinking;
            true
        } else {
            false
        }
    }

    /// The running search (thinking, pondering or analysing) is asked to report now.
    pub fn move_now(&mut self) {
        if self.mode == Mode::Thinking {
            self.engine.stop();
        }
    }

    /// The current search reported its result: the engine is idle again. Returns the
    /// mode it was in (the caller decides whether to play the move).
    pub fn finished(&mut self) -> Mode {
        let was = self.mode;
        self.engine.wait();
        self.active = None;
        self.mode = match was {
            Mode::Analysing => Mode::Analysing,
            _ if self.side.is_some() => Mode::Waiting,
            _ => Mode::Observing,
        };
        was
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absurd_timing_saturates() {
        let tc = TimeControl {
            moves: u32::MAX,
            base_ms: u64::MAX,
            inc_ms: 5000,
        };
        let t = Timing {
            control: Some(tc),
            nps: Some(u64::MAX),
            ..Timing::default()
        };
        let l = t.limits(Color::White, u32::MAX - 1);
        assert!(l.nodes.unwrap() >= 1);
        let t = Timing {
            move_time_ms: Some(u64::MAX),
            nps: Some(u64::MAX),
            ..Timing::default()
        };
        assert_eq!(t.limits(Color::Black, 0).nodes, Some(u64::MAX / 1000));
    }

    #[test]
    fn repeating_control_counts_moves_to_go() {
        let t = Timing {
            control: Some(TimeControl {
                moves: 40,
                base_ms: 300_000,
                inc_ms: 0,
            }),
            own_ms: Some(10_000),
            ..Timing::default()
        };
        assert_eq!(t.limits(Color::White, 0).moves_to_go, Some(40));
        assert_eq!(t.limits(Color::White, 39).moves_to_go, Some(1));
        assert_eq!(t.limits(Color::White, 40).moves_to_go, Some(40));
        let l = t.limits(Color::Black, 45);
        assert_eq!(l.moves_to_go, Some(35));
        assert_eq!(l.clock(Color::Black).unwrap().time_ms, 10_000);
        assert_eq!(l.clock(Color::White).unwrap().time_ms, 300_000);
    }

    #[test]
    fn fixed_time_and_nps() {
        let mut t = Timing {
            move_time_ms: Some(2_000),
            depth: Some(5),
            ..Timing::default()
        };
        let l = t.limits(Color::White, 0);
        assert_eq!((l.movetime_ms, l.depth), (Some(2_000), Some(5)));
        t.nps = Some(1_000);
        let l = t.limits(Color::White, 0);
        assert_eq!((l.movetime_ms, l.nodes), (None, Some(2_000)));
    }

    fn quiet(_: SearchId, _: SearchEvent) {}

    #[test]
    fn takebacks_and_redo_keep_the_turn() {
        let mut s = Session::default();
        s.new_game().unwrap();
        for text in ["e2e4", "e7e5", "g1f3"] {
            let m = s.position().parse_san_lenient(text).unwrap();
            s.play(m).unwrap();
        }
        assert_eq!(s.position().turn(), Color::Black);
        assert_eq!(s.take_back(2), 2);
        assert_eq!(s.position().turn(), Color::Black);
        assert_eq!(s.moves().len(), 1);
        assert_eq!(
            s.redo().unwrap().map(|m| m.to_uci(false).to_string()),
            Some("e7e5".into())
        );
        assert_eq!(s.take_back(5), 2);
        assert_eq!(s.position().fen(), Position::startpos().fen());
        // A different move forgets what could be redone.
        let m = s.position().parse_san_lenient("d4").unwrap();
        s.play(m).unwrap();
        assert_eq!(s.redo().unwrap(), None);
    }

    #[test]
    fn pondering_hides_the_guess_and_takes_it_back() {
        let mut s = Session::default();
        s.new_game().unwrap();
        let e4 = s.position().parse_san_lenient("e4").unwrap();
        s.play(e4).unwrap();
        let before = s.position().fen();
        let guess = s.position().parse_san_lenient("c5").unwrap();
        s.ponder_on(guess, quiet).unwrap();
        assert_eq!(s.mode(), Mode::Pondering);
        assert_eq!(s.position().fen(), before);
        assert_eq!(s.moves().len(), 1);
        assert_eq!(s.outcome(), None);
        // A miss: the guess is taken back, the real move played.
        let e5 = s.position().parse_san_lenient("e5").unwrap();
        assert!(!s.ponder_hit(e5));
        s.play(e5).unwrap();
        assert_eq!(s.moves().len(), 2);
        assert_eq!(s.mode(), Mode::Waiting);
        // A hit: the guess becomes the game move and the search goes on as thinking.
        let guess = s.position().parse_san_lenient("Nf3").unwrap();
        s.ponder_on(guess, quiet).unwrap();
        assert!(s.ponder_hit(guess));
        assert_eq!(s.mode(), Mode::Thinking);
        assert_eq!(s.moves().len(), 3);
        s.abandon_search();
        assert_eq!(s.mode(), Mode::Waiting);
        assert_eq!(s.moves().len(), 3);
    }

    #[test]
    fn abandoned_searches_are_not_current() {
        let mut s = Session::default();
        let id = s.analyse(quiet).unwrap();
        assert!(s.is_current(id));
        s.stop_analysing();
        assert!(!s.is_current(id));
        assert_eq!(s.mode(), Mode::Observing);
        let id2 = s.think_with(SearchLimits::depth(2), quiet).unwrap();
        assert_ne!(id, id2);
        assert_eq!(s.side(), Some(Color::White));
    }
}
