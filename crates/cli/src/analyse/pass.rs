//! One analysis pass over a game's mainline: every position evaluated by an
//! [`Analyser`] (Sable in process, [`InProcess`], or the UCI engine of `sable analyse
//! --engine`), then the [`GameReport`] with its judgements and opening. `sable analyse`
//! and `sable serve`'s game review both go through [`analyse_game`] and [`report`], so that the page shows
//! the judgements the command writes.

use super::eco::{self, Opening};
use super::eval::Eval;
use super::game::GameReport;
use sable_chess::{Color, Move, Position};
use sable_engine::{Engine, ScoreReport, SearchLimits};
use sable_formats::pgn::GameTree;
use std::sync::atomic::{AtomicBool, Ordering};

/// An engine's view of one position: the evaluation and the line it would play.
pub struct Assessment {
    pub eval: Eval,
    pub line: Vec<Move>,
}

/// What evaluates positions: Sable in process or a UCI engine.
pub trait Analyser {
    fn name(&self) -> String;
    /// A new game from `start`.
    fn begin(&mut self, start: &Position) -> Result<(), String>;
    /// The position after `moves` from the start given to `begin` (`pos`).
    fn assess(&mut self, moves: &[Move], pos: &Position) -> Result<Assessment, String>;
}

/// A score for the side to move (`turn`) as an evaluation from White's side.
pub fn eval_of(turn: Color, score: ScoreReport) -> Eval {
    match score {
        ScoreReport::Cp(c) => Eval::from_side_to_move(turn, Some(c), None),
        ScoreReport::Mate(m) => Eval::from_side_to_move(turn, None, Some(m)),
    }
}

/// Sable in this process, on an engine the caller configured (threads, hash).
pub struct InProcess<'a> {
    pub engine: &'a mut Engine,
    pub limits: SearchLimits,
    /// Once set, the search under way stops within milliseconds and `assess` fails
    /// (a review stopped on the page, Ctrl-C): a position of millions of nodes is not
    /// searched to its end first.
    pub cancel: &'a AtomicBool,
}

impl Analyser for InProcess<'_> {
    fn name(&self) -> String {
        let l = &self.limits;
        let mut s = format!("Sable {}", env!("CARGO_PKG_VERSION"));
        if let Some(n) = l.nodes {
            s.push_str(&format!(", {n} nodes"));
        }
        if let Some(t) = l.movetime_ms {
            s.push_str(&format!(", {t} ms"));
        }
        if let Some(d) = l.depth {
            s.push_str(&format!(", depth {d}"));
        }
        s + " a position"
    }

    fn begin(&mut self, start: &Position) -> Result<(), String> {
        let e = &mut *self.engine;
        e.set_chess960(start.is_chess960())
            .map_err(|e| e.to_string())?;
        e.new_game().map_err(|e| e.to_string())?;
        e.set_position(Some(&start.fen()), &[])
            .map_err(|e| e.to_string())
    }

    fn assess(&mut self, moves: &[Move], pos: &Position) -> Result<Assessment, String> {
        while self.engine.moves().len() < moves.len() {
            let m = moves[self.engine.moves().len()];
            self.engine.play(m).map_err(|e| e.to_string())?;
        }
        let r = self
            .engine
            .search_until(self.limits.clone(), self.cancel, |_| {})
            .map_err(|e| e.to_string())?;
        // A stopped search's line and score are cut short: not an assessment.
        if self.cancel.load(Ordering::SeqCst) {
            return Err("cancelled".into());
        }
        Ok(Assessment {
            eval: eval_of(pos.turn(), r.score),
            line: if r.pv.is_empty() {
                r.best.into_iter().collect()
            } else {
                r.pv
            },
        })
    }
}

/// Why a game's analysis stopped.
pub enum Stop {
    Cancelled,
    Engine(String),
}

/// Every position of a mainline (the start first) with its evaluation and engine line.
pub struct Analysed {
    pub evals: Vec<Eval>,
    pub lines: Vec<Vec<Move>>,
    pub positions: Vec<Position>,
}

/// Evaluates every position of the mainline.
pub fn analyse_game(
    analyser: &mut dyn Analyser,
    tree: &GameTree,
    cancel: &AtomicBool,
    on_position: &mut dyn FnMut(),
) -> Result<Analysed, Stop> {
    let moves = tree.mainline();
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut pos = tree.start.clone();
    positions.push(pos.clone());
    for &m in &moves {
        pos.make(m);
        positions.push(pos.clone());
    }
    analyser.begin(&tree.start).map_err(Stop::Engine)?;
    let mut evals = Vec::with_capacity(positions.len());
    let mut lines = Vec::with_capacity(positions.len());
    for (i, pos) in positions.iter().enumerate() {
        if cancel.load(Ordering::SeqCst) {
            return Err(Stop::Cancelled);
        }
        if pos.legal_moves().is_empty() {
            evals.push(if pos.in_check() {
                Eval::Checkmated(pos.turn())
            } else {
                Eval::Cp(0)
            });
            lines.push(Vec::new());
            continue;
        }
        let a =
            analyser
                .assess(&moves[..i], pos)
                .map_err(|e| match cancel.load(Ordering::SeqCst) {
                    true => Stop::Cancelled,
                    false => Stop::Engine(format!("{e} (at ply {i}, {})", pos.fen())),
                })?;
        evals.push(a.eval);
        lines.push(a.line);
        on_position();
    }
    Ok(Analysed {
        evals,
        lines,
        positions,
    })
}

/// The opening: the game's `Opening` tag (with `ECO`), else the table, else the `ECO`
/// tag alone.
pub fn opening(tree: &GameTree, positions: &[Position]) -> Option<Opening> {
    let eco_tag = tree.tags.get("ECO").filter(|e| !e.is_empty() && *e != "?");
    if let Some(name) = tree
        .tags
        .get("Opening")
        .filter(|o| !o.is_empty() && *o != "?")
    {
        return Some(Opening {
            eco: eco_tag.unwrap_or("").to_string(),
            name: name.to_string(),
        });
    }
    let standard = !tree.start.is_chess960() && tree.start == Position::startpos();
    if standard {
        if let Some(o) = eco::classify(&positions[1..]) {
            return Some(o);
        }
    }
    eco_tag.map(|e| Opening {
        eco: e.to_string(),
        name: eco::name_of_code(e).unwrap_or("").to_string(),
    })
}

/// The report of one analysed game (its judgements, accuracy and opening), numbered
/// `number` in its file: what `sable analyse` writes and `sable serve` shows.
pub fn report(number: usize, tree: &GameTree, analysed: &Analysed) -> GameReport {
    let game_opening = opening(tree, &analysed.positions);
    GameReport::build(number, tree, &analysed.evals, &analysed.lines, game_opening)
}
