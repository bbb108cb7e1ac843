//! One analysed game: every mainline move with the evaluations around it, the engine's
//! line, the verdict, accuracy and centipawn loss; each player's totals.

use super::accuracy::{acpl, cp_loss, game_accuracy, move_accuracy};
use super::eco::Opening;
use super::eval::Eval;
use super::judge::{judge, Judgement, Verdict};
use super::winprob::win_percent;
use sable_chess::{Color, Move, Position};
use sable_formats::pgn::GameTree;

/// One mainline move.
#[derive(Clone, Debug)]
pub struct PlyReport {
    /// 1-based ply of the game.
    pub ply: usize,
    /// The move number as written (`12.` / `12...`).
    pub number: u32,
    pub mover: Color,
    pub mv: Move,
    pub san: String,
    /// The position the move was played in.
    pub before: Position,
    pub eval_before: Eval,
    pub eval: Eval,
    /// The engine's line in the position before the move.
    pub best: Vec<Move>,
    pub verdict: Option<Verdict>,
    pub accuracy: f64,
    pub cp_loss: i32,
}

impl PlyReport {
    pub fn judgement(&self) -> Option<Judgement> {
        self.verdict.map(|v| v.judgement)
    }

    /// `12.` or `12...`.
    pub fn number_text(&self) -> String {
        match self.mover {
            Color::White => format!("{}.", self.number),
            Color::Black => format!("{}...", self.number),
        }
    }

    /// The engine's first move when it differs from the move played.
    pub fn better(&self) -> Option<Move> {
        self.best.first().copied().filter(|&m| m != self.mv)
    }

    /// The engine's line in SAN, at most `plies` moves.
    pub fn best_san(&self, plies: usize) -> Vec<String> {
        let mut pos = self.before.clone();
        let mut out = Vec::new();
        for &m in self.best.iter().take(plies) {
            if !pos.is_legal(m) {
                break;
            }
            out.push(pos.san(m));
            pos.make(m);
        }
        out
    }
}

/// One game, analysed.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 1-based number of the game in the input (broken games count).
    pub number: usize,
    pub white: String,
    pub black: String,
    pub event: String,
    pub date: String,
    pub result: String,
    pub opening: Option<Opening>,
    pub start: Position,
    pub start_eval: Eval,
    pub plies: Vec<PlyReport>,
    /// `[white, black]`.
    pub accuracy: [Option<f64>; 2],
    pub acpl: [Option<i32>; 2],
    /// `[side][judgement]`: inaccuracies, mistakes, blunders.
    pub counts: [[usize; 3]; 2],
}

impl GameReport {
    /// `evals[i]` and `lines[i]` are the evaluation and engine line of the position after
    /// `i` mainline moves (`i = 0`: the start), one more than there are moves.
    pub fn build(
        number: usize,
        tree: &GameTree,
        evals: &[Eval],
        lines: &[Vec<Move>],
        opening: Option<Opening>,
    ) -> GameReport {
        let tag = |name: &str| tree.tags.get(name).unwrap_or("?").to_string();
        let mut pos = tree.start.clone();
        let mut plies = Vec::with_capacity(tree.root.moves.len());
        let mut losses: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
        let mut counts = [[0; 3]; 2];
        for (i, node) in tree.root.moves.iter().enumerate() {
            let mover = pos.turn();
            let (eval_before, eval) = (evals[i], evals[i + 1]);
            let verdict = judge(mover, eval_before, eval);
            let (wb, wa) = (win_percent(eval_before), win_percent(eval));
            let accuracy = match mover {
                Color::White => move_accuracy(wb, wa),
                Color::Black => move_accuracy(100.0 - wb, 100.0 - wa),
            };
            let loss = cp_loss(mover, eval_before, eval);
            losses[mover.index()].push(loss);
            if let Some(v) = verdict {
                counts[mover.index()][v.judgement as usize] += 1;
            }
            plies.push(PlyReport {
                ply: i + 1,
                number: pos.fullmoves(),
                mover,
                mv: node.mv,
                san: node.san.to_string(),
                before: pos.clone(),
                eval_before,
                eval,
                best: lines[i].clone(),
                verdict,
                accuracy,
                cp_loss: loss,
            });
            pos.make(node.mv);
        }
        GameReport {
            number,
            white: tag("White"),
            black: tag("Black"),
            event: tag("Event"),
            date: tag("Date"),
            result: tree
                .result
                .map(|r| r.to_string())
                .unwrap_or_else(|| tag("Result")),
            opening,
            start: tree.start.clone(),
            start_eval: evals[0],
            accuracy: game_accuracy(tree.start.turn(), evals),
            acpl: [acpl(&losses[0]), acpl(&losses[1])],
            counts,
            plies,
        }
    }

    /// The moves judged mistakes or blunders (the critical moments).
    pub fn critical(&self) -> impl Iterator<Item = &PlyReport> {
        self.plies
            .iter()
            .filter(|p| p.judgement().is_some_and(|j| j >= Judgement::Mistake))
    }
}
