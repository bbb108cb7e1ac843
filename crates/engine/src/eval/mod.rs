//! Static evaluation: a score in centipawns from the side to move's point of view.
//!
//! Tapered middlegame/endgame terms (material, piece-square tables, mobility, pawn
//! structure, king safety, pieces, threats, tempo) whose values live in `tuned.rs`,
//! written by `sable tune`; endgame knowledge keyed by material signature and scale
//! factors on top. The search calls [`Evaluator::evaluate`]; an `Evaluator` belongs to
//! one search thread and owns its pawn hash table.

mod endgame;
mod king;
pub mod kpk;
mod material;
pub mod params;
mod pawns;
mod pieces;
mod score;
pub mod seed;
mod sink;
mod threats;
mod tuned;

pub use endgame::{
    probe as probe_endgame, verdict as endgame_verdict, Endgame, Kind as EndgameKind,
    Verdict as EndgameVerdict, KNOWN_WIN, SCALE_NORMAL, SIGNATURES as ENDGAME_SIGNATURES,
};
pub use material::MAX_PHASE;
pub use params::Term;
pub use score::S;

use crate::nnue::{Network, NnueStack};
use endgame::Verdict;
use pawns::{PawnEntry, PawnTable};
use sable_chess::{Color, Position};
use sink::{Breakdown, Sink, Total, Trace};

/// Evaluations are in centipawns; a pawn in the endgame is worth about this much.
pub const PAWN_VALUE: i32 = 100;

/// No evaluation is larger than this in absolute value, far below mate scores.
pub const MAX_EVAL: i32 = 12_000;

/// One thread's evaluator.
#[derive(Default)]
pub struct Evaluator {
    pawns: PawnTable,
}

/// `sable eval`'s view of a position: each term for each side, and how they combine.
#[derive(Clone, Debug)]
pub struct Report {
    /// Indexed by `Term as usize`, then by `Color::index()`.
    pub terms: [[S; 2]; Term::ALL.len()],
    pub phase: i32,
    /// Scale factor applied to the endgame half (out of [`SCALE_NORMAL`]).
    pub scale: i32,
    /// The endgame module of this material, if any: its score replaced the terms, or its
    /// scale factor is `scale` where the endgame half favours its strong side.
    pub endgame: Option<Endgame>,
    /// The final score from White's point of view.
    pub white: i32,
}

/// The linear form of an evaluation for tuning: mg and eg are `coeffs · params`.
#[derive(Clone, Debug)]
pub struct TracePoint {
    /// (parameter index, White-minus-Black count), nonzero only.
    pub coeffs: Vec<(u16, i16)>,
    pub phase: i32,
    /// The scale factor if White / if Black is the side the endgame half favours.
    pub scale: [i32; 2],
}

impl Evaluator {
    /// Builds the caches (and the shared endgame tables on first call).
    pub fn new() -> Evaluator {
        endgame::init();
        Evaluator::default()
    }

    /// Centipawns for the side to move.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        if pos.is_insufficient_material() {
            return 0;
        }
        let special = match special(pos) {
            Ok(score) => return score,
            Err(special) => special,
        };
        let mut total = Total::default();
        let entry = self.pawns.probe(pos, &mut total);
        terms(pos, &entry, &mut total);
        let white = taper(pos, total.0, special).clamp(-MAX_EVAL, MAX_EVAL);
        if pos.turn() == Color::White {
            white
        } else {
            -white
        }
    }

    /// Centipawns for the side to move by the network, with the exact endgame knowledge
    /// kept on top: insufficient material is a draw, an endgame module's score (known
    /// draws, KPK, KBNK, a lone king, ...) replaces the network's, and a module's scale
    /// factor scales the network's score when it favours the module's strong side.
    pub fn evaluate_nnue(&mut self, pos: &Position, nnue: &mut NnueStack) -> i32 {
        if pos.is_insufficient_material() {
            return 0;
        }
        match special(pos) {
            Ok(score) => score,
            Err(special) => scale_net(pos, nnue.evaluate(pos), special),
        }
    }

    /// [`Evaluator::evaluate_nnue`] from scratch (no search stack), for tools.
    pub fn evaluate_net(&mut self, pos: &Position, net: &Network) -> i32 {
        if pos.is_insufficient_material() {
            return 0;
        }
        match special(pos) {
            Ok(score) => score,
            Err(special) => scale_net(pos, net.evaluate(pos), special),
        }
    }

    /// The evaluation broken down by term.
    pub fn report(&mut self, pos: &Position) -> Report {
        let mut b = Breakdown::default();
        let entry = self.pawns.probe(pos, &mut b);
        terms(pos, &entry, &mut b);
        let total = b.terms.iter().fold(S::ZERO, |acc, t| acc + t[0] - t[1]);
        let endgame = endgame::probe(pos);
        let special = special(pos);
        let white = match special {
            _ if pos.is_insufficient_material() => 0,
            Ok(score) => score * pos.turn().sign(),
            Err(special) => taper(pos, total, special).clamp(-MAX_EVAL, MAX_EVAL),
        };
        Report {
            terms: b.terms,
            phase: material::phase(pos),
            scale: scale(pos, total, special.err().flatten()),
            endgame,
            white,
        }
    }
}

/// The tuning trace of `pos`, or `None` where an endgame module's score decides (those
/// scores are not made of parameters).
pub fn trace(pos: &Position) -> Option<TracePoint> {
    if pos.is_insufficient_material() {
        return None;
    }
    let special = match special(pos) {
        Ok(_) => return None,
        Err(special) => special,
    };
    let mut t = Trace::default();
    let entry = pawns::compute(pos, &mut t);
    terms(pos, &entry, &mut t);
    let coeffs = t
        .coeffs
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != 0)
        .map(|(i, &c)| (i as u16, c as i16))
        .collect();
    Some(TracePoint {
        coeffs,
        phase: material::phase(pos),
        scale: [
            scale_for(pos, Color::White, special),
            scale_for(pos, Color::Black, special),
        ],
    })
}

fn terms<T: Sink>(pos: &Position, entry: &PawnEntry, sink: &mut T) {
    material::evaluate(pos, sink);
    pawns::passed_extras(pos, entry, sink);
    let info = pieces::evaluate(pos, entry, sink);
    king::evaluate(pos, &info, sink);
    threats::evaluate(pos, &info, &entry.attacks, sink);
}

/// A module's scale factor and the side it is for.
type Special = Option<(Color, i32)>;

/// The endgame module's answer for `pos`: `Ok(score)` (side to move) where its score
/// replaces the evaluation, else `Err` with its scale factor, if any. One table probe.
#[inline]
fn special(pos: &Position) -> Result<i32, Special> {
    match endgame::probe(pos) {
        None => Err(None),
        Some(eg) => match endgame::verdict(pos, eg) {
            Verdict::Score(score) => Ok(score),
            Verdict::Scale(sf) => Err(Some((eg.strong, sf))),
        },
    }
}

/// The scale factor when the endgame half favours `favoured`: the module's where it is
/// for that side, else the generic rules.
fn scale_for(pos: &Position, favoured: Color, special: Special) -> i32 {
    match special {
        Some((strong, sf)) if strong == favoured => sf,
        _ => endgame::scale_factor(pos, favoured),
    }
}

fn scale(pos: &Position, s: S, special: Special) -> i32 {
    match s.eg() {
        0 => SCALE_NORMAL,
        eg if eg > 0 => scale_for(pos, Color::White, special),
        _ => scale_for(pos, Color::Black, special),
    }
}

/// A network score (side to move) scaled by an endgame module's factor when it favours
/// the module's strong side; the generic rules are for the hand-crafted terms only.
fn scale_net(pos: &Position, score: i32, special: Special) -> i32 {
    let score = match special {
        Some((strong, sf)) if (score > 0) == (pos.turn() == strong) && score != 0 => {
            score * sf / SCALE_NORMAL
        }
        _ => score,
    };
    score.clamp(-MAX_EVAL, MAX_EVAL)
}

/// Blends the halves by phase after scaling the endgame half; White's point of view.
fn taper(pos: &Position, s: S, special: Special) -> i32 {
    let phase = material::phase(pos);
    let eg = s.eg() * scale(pos, s, special) / SCALE_NORMAL;
    (s.mg() * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// The compiled-in parameters as (mg, eg) pairs, the starting point of `sable tune`.
pub fn current_params() -> Vec<(i32, i32)> {
    tuned::PARAMS.iter().map(|s| (s.mg(), s.eg())).collect()
}
