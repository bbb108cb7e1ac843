//! The referee: plays one game between two started engines. It keeps the clocks,
//! checks every move's legality, ends the game by the rules or by adjudication, and
//! turns engine failures (flag, illegal move, crash, stall) into results with reasons.

use std::time::{Duration, Instant};

use super::adjudication::{Adjudicator, Rules};
use super::engine::{ClockReadings, Engine, EngineError, ThinkRequest};
use super::game::{utc_date, GameRecord, GameResult, MoveRecord, Termination};
use super::notation::san;
use super::openings::Opening;
use super::pgn::clock_text;
use super::tc::Clock;
use sable_chess::{Color, DrawReason, KeyHistory, Move, Outcome, Position};

/// What is needed to play one game, besides the engines.
pub struct GameSpec<'a> {
    pub opening: &'a Opening,
    pub opening_index: usize,
    pub chess960: bool,
    pub rules: Rules,
    pub round: u32,
    pub number: u32,
    /// Seeds the runner's book picks in this game (from `-srand` and the game number).
    pub book_seed: u64,
    /// Tournament indices of the white and black engines.
    pub white: usize,
    pub black: usize,
}

/// A finished game, and which engines need a restart before they can play again.
pub struct Played {
    pub record: GameRecord,
    pub broken: [bool; 2],
}

/// Why a game could not be played to an end.
#[derive(Debug)]
pub enum Abort {
    /// Stopped by the user or by a finished SPRT: the game does not count.
    Cancelled,
    /// A setup problem that would recur in every game (e.g. an xboard engine asked to
    /// start from a FEN without `setboard`).
    Fatal(String),
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn draw_text(r: DrawReason) -> &'static str {
    match r {
        DrawReason::Stalemate => "Draw by stalemate",
        DrawReason::InsufficientMaterial => "Draw by insufficient mating material",
        DrawReason::FiftyMoves => "Draw by fifty moves rule",
        DrawReason::ThreefoldRepetition => "Draw by 3-fold repetition",
        DrawReason::FivefoldRepetition => "Draw by 5-fold repetition",
        DrawReason::SeventyFiveMoves => "Draw by 75 moves rule",
    }
}

/// The end of a game by an engine failure of `loser`.
fn failure(loser: Color, e: &EngineError) -> Result<(Termination, String), Abort> {
    let who = side(loser);
    Ok(match e {
        EngineError::Timeout => (Termination::TimeForfeit, format!("{who} loses on time")),
        EngineError::Stalled(_) => (Termination::Stalled, format!("{who}'s connection stalls")),
        EngineError::Disconnected | EngineError::Spawn { .. } => {
            (Termination::Abandoned, format!("{who} disconnects"))
        }
        EngineError::Resigned => (Termination::Normal, format!("{who} resigns")),
        EngineError::Cancelled => return Err(Abort::Cancelled),
        EngineError::Protocol(msg) => return Err(Abort::Fatal(msg.clone())),
    })
}

/// Plays the game. `engines` is indexed by colour (white first).
pub fn play(engines: [&mut Engine; 2], spec: &GameSpec) -> Result<Played, Abort> {
    let [white, black] = engines;
    let mut engines = [white, black];
    let start = spec.opening.start.clone();
    let start_fen = start.fen();
    let mut pos = start.clone();
    let mut line = Line::new(spec.chess960);
    for &m in &spec.opening.moves {
        line.play(&mut pos, m, "book".into());
    }
    let mut clocks: [Option<Clock>; 2] =
        std::array::from_fn(|i| engines[i].config.limits.clock.map(Clock::new));
    let mut adjudicator = Adjudicator::new(spec.rules);
    let mut broken = [false; 2];
    let names = [
        engines[0].config.name.clone(),
        engines[1].config.name.clone(),
    ];
    let tc = engines[0].config.limits.to_string();

    // New game for both; a failure here loses the game for that engine.
    let mut outcome: Option<(GameResult, Termination, String)> = None;
    for c in [Color::White, Color::Black] {
        if let Err(e) = engines[c.index()].new_game(&start_fen, spec.chess960) {
            let (t, reason) = failure(c, &e)?;
            broken[c.index()] = true;
            outcome = Some((GameResult::win_for(!c), t, reason));
            break;
        }
    }

    let mut book_rng = spec.book_seed;
    while outcome.is_none() {
        if let Some(o) = pos.outcome(&line.history) {
            outcome = Some(match o {
                Outcome::Checkmate { winner } => (
                    GameResult::win_for(winner),
                    Termination::Normal,
                    format!("{} mates", side(winner)),
                ),
                Outcome::Draw(r) => (GameResult::Draw, Termination::Normal, draw_text(r).into()),
            });
            break;
        }
        let turn = pos.turn();
        let me = turn.index();
        let cfg = &engines[me].config;
        // The runner's book plays for the engine while in book; a book move takes no time.
        let draw = crate::rng::splitmix(&mut book_rng);
        if let Some(m) = cfg
            .book
            .as_ref()
            .and_then(|b| b.pick(&pos, line.raw.len(), draw))
        {
            line.play(&mut pos, m, "book".into());
            continue;
        }
        let margin = cfg.margin;
        let movetime = cfg.limits.movetime;
        let started = Instant::now();
        let mut deadline = match (&clocks[me], movetime) {
            (Some(c), _) => c.deadline(started, margin),
            (None, Some(t)) => started + t + margin,
            (None, None) => started + cfg.stall,
        };
        if let (Some(_), Some(t)) = (&clocks[me], movetime) {
            deadline = deadline.min(started + t + margin);
        }
        let readings = match (&clocks[0], &clocks[1]) {
            (Some(w), Some(b)) => Some(ClockReadings {
                white_ms: w.left_ms(),
                black_ms: b.left_ms(),
                white_inc_ms: w.increment().as_millis() as u64,
                black_inc_ms: b.increment().as_millis() as u64,
                moves_to_go: clocks[me].as_ref().and_then(Clock::moves_to_go),
                turn,
            }),
            _ => None,
        };
        let request = ThinkRequest {
            start_fen: &start_fen,
            moves: &line.ucis,
            raw_moves: &line.raw,
            position: &pos,
            chess960: spec.chess960,
            clocks: readings,
            deadline,
        };
        let reply = match engines[me].think(&request) {
            Ok(r) => r,
            Err(e) => {
                let timed = matches!(e, EngineError::Timeout);
                let (mut t, reason) = failure(turn, &e)?;
                if timed && clocks[me].is_none() && movetime.is_none() {
                    t = Termination::Stalled;
                }
                let reason = if t == Termination::Stalled {
                    format!("{}'s connection stalls", side(turn))
                } else {
                    reason
                };
                broken[me] = !matches!(e, EngineError::Resigned);
                outcome = Some((GameResult::win_for(!turn), t, reason));
                break;
            }
        };
        let used = reply.arrived.saturating_duration_since(started);
        if let Some(clock) = clocks[me].as_mut() {
            if clock.spend(used, margin).is_err() {
                outcome = Some((
                    GameResult::win_for(!turn),
                    Termination::TimeForfeit,
                    format!("{} loses on time", side(turn)),
                ));
                break;
            }
        }
        if let Some(t) = movetime {
            if used > t + margin {
                outcome = Some((
                    GameResult::win_for(!turn),
                    Termination::TimeForfeit,
                    format!("{} loses on time", side(turn)),
                ));
                break;
            }
        }
        let m = match pos.parse_uci(&reply.mv) {
            Ok(m) => m,
            Err(_) => {
                outcome = Some((
                    GameResult::win_for(!turn),
                    Termination::IllegalMove,
                    format!("{} makes an illegal move: {}", side(turn), reply.mv),
                ));
                break;
            }
        };
        let mut comment = match (reply.score, reply.depth) {
            (Some(s), Some(d)) => format!("{s}/{d} "),
            (Some(s), None) => format!("{s} "),
            _ => String::new(),
        };
        comment.push_str(&format!("{:.3}s", used.as_secs_f64()));
        if let Some(c) = &clocks[me] {
            comment.push_str(&format!(" [%clk {}]", clock_text(c.left_ms())));
        }
        let irreversible =
            pos.is_capture(m) || pos.role_at(m.from()) == Some(sable_chess::Role::Pawn);
        line.play(&mut pos, m, comment);
        // The rules come first: a mating move is not a resignation.
        if pos.outcome(&line.history).is_none() {
            let plies = line.moves.len();
            if let Some(v) = adjudicator.after_move(turn, reply.score, irreversible, plies) {
                outcome = Some((v.result, Termination::Adjudication, v.reason));
            }
        }
    }

    let (result, termination, reason) = outcome.expect("the loop ends with an outcome");
    for c in [Color::White, Color::Black] {
        let e = &mut engines[c.index()];
        if broken[c.index()] {
            // A flag or stall leaves the engine searching: stop it, or restart it.
            broken[c.index()] = !(e.is_alive() && e.settle());
        }
        if !broken[c.index()] {
            e.end_game(result.pgn(), &reason);
        }
    }
    let [white_name, black_name] = names;
    let record = GameRecord {
        white: spec.white,
        black: spec.black,
        white_name,
        black_name,
        start_fen,
        chess960: spec.chess960,
        moves: line.moves,
        result,
        termination,
        reason,
        round: spec.round,
        number: spec.number,
        time_control: tc,
        date: utc_date(),
        opening: spec.opening_index,
    };
    Ok(Played { record, broken })
}

/// The game so far, in the forms the referee needs: the PGN records, the moves for the
/// engines (as moves and as UCI text) and the keys for repetitions.
struct Line {
    moves: Vec<MoveRecord>,
    raw: Vec<Move>,
    ucis: Vec<String>,
    history: KeyHistory,
    chess960: bool,
}

impl Line {
    fn new(chess960: bool) -> Line {
        Line {
            moves: Vec::new(),
            raw: Vec::new(),
            ucis: Vec::new(),
            history: KeyHistory::new(),
            chess960,
        }
    }

    /// Plays `m` (legal in `pos`) with its PGN comment.
    fn play(&mut self, pos: &mut Position, m: Move, comment: String) {
        self.moves.push(MoveRecord {
            san: san(pos, m),
            comment,
        });
        self.raw.push(m);
        self.ucis.push(m.to_uci(self.chess960).to_string());
        self.history.push(pos.key());
        pos.make(m);
    }
}

/// Time a referee allows for an engine to answer outside the clock, by default.
pub const DEFAULT_STALL: Duration = Duration::from_secs(30);
