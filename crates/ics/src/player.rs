//! The seam between the protocol and a chess engine: [`Player`] is asked for a move
//! with the game so far and the clocks, told when a game starts and ends, and (when it
//! can) asked to ponder: to think on the opponent's time about the reply it expects,
//! until the client says whether that reply came. The cli implements it with
//! `sable_engine::Engine`; the tests with simple players.

use sable_chess::{Move, Position};
use sable_formats::pgn::GameResult;

/// What the player is asked to move in.
#[derive(Clone, Debug)]
pub struct MoveRequest<'a> {
    /// The game's start position and the moves since (the position to move in is the
    /// end of them).
    pub start: &'a Position,
    pub moves: &'a [Move],
    pub position: &'a Position,
    /// Our clock and the opponent's, in ms, the lag allowance already taken off ours.
    pub my_ms: u64,
    pub their_ms: u64,
    pub increment_ms: u64,
    /// The longest this move may take, in ms, when the configuration caps it.
    pub max_ms: Option<u64>,
}

/// The player's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move the player chose; it must be legal in the request's position.
    pub mv: Move,
    /// The score in centipawns from the mover's side (a mate as ±(30000 - plies)),
    /// `None` when the move was not searched (a book move).
    pub score_cp: Option<i32>,
    /// The reply the player expects (its principal variation's second move), to ponder
    /// on; `None` when it has none (a book move, a single-move line).
    pub ponder: Option<Move>,
}

/// A chess player the client plays with.
pub trait Player {
    /// A new game starts (or a resumed one continues) from `start` with `moves` played.
    fn new_game(&mut self, start: &Position, moves: &[Move]);
    /// Chooses a move. An error is logged and no move is sent (the client asks the
    /// server for the board again and retries once).
    fn think(&mut self, req: &MoveRequest<'_>) -> Result<Thought, String>;
    /// Starts thinking on the opponent's time and returns at once. `req` is the position
    /// after the reply we expect (the last of `req.moves`), with the clocks as they stand
    /// after our move. The search goes on until [`Player::ponderhit`] or
    /// [`Player::stop_pondering`]; the client calls one of them before anything else.
    /// `Ok(false)`: the player does not ponder here (the default: players that cannot).
    fn ponder(&mut self, req: &MoveRequest<'_>) -> Result<bool, String> {
        let _ = req;
        Ok(false)
    }
    /// The expected reply came: the ponder search goes on as a timed search whose clock
    /// starts now, and its move is the answer. `req` is the pondered position with the
    /// clocks the server now reports. The default thinks afresh.
    fn ponderhit(&mut self, req: &MoveRequest<'_>) -> Result<Thought, String> {
        self.think(req)
    }
    /// Stops the ponder search, if any, and forgets it; returns once it has stopped.
    fn stop_pondering(&mut self) {}
    /// The game ended with `result`; returns notes for the log (such as what the book
    /// learned).
    fn game_over(&mut self, start: &Position, moves: &[Move], result: GameResult) -> Vec<String> {
        let _ = (start, moves, result);
        Vec::new()
    }
}

/// A player that plays the first legal move in a fixed order of preference: mate,
/// then captures of the most valuable piece, then checks, then the first move. It
/// needs no engine; the library's tests and examples use it.
#[derive(Clone, Debug, Default)]
pub struct GreedyPlayer;

impl Player for GreedyPlayer {
    fn new_game(&mut self, _start: &Position, _moves: &[Move]) {}

    fn think(&mut self, req: &MoveRequest<'_>) -> Result<Thought, String> {
        let pos = req.position;
        let moves = pos.legal_moves();
        let value = |m: Move| -> i32 {
            let mut after = pos.clone();
            after.make(m);
            if after.legal_moves().is_empty() && after.in_check() {
                return 100_000;
            }
            let capture = pos
                .captured_role(m)
                .map_or(0, |r| 10 * (r.index() as i32 + 1));
            capture + if pos.gives_check(m) { 5 } else { 0 }
        };
        let best = moves
            .iter()
            .copied()
            .max_by_key(|&m| value(m))
            .ok_or_else(|| "no legal move".to_string())?;
        Ok(Thought {
            mv: best,
            score_cp: Some(0),
            ponder: None,
        })
    }
}
