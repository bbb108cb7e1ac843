//! Inaccuracies, mistakes and blunders, judged as lichess judges them (lila
//! `modules/tree/src/main/Advice.scala`).
//!
//! When both evaluations are centipawns, the judgement is the mover's loss in winning
//! chances ([`winning_chances`], in [-1, 1]): at least 0.1 an inaccuracy, 0.2 a mistake,
//! 0.3 a blunder. On the win-percentage scale (0–100) that is a loss of **5, 10 and 15
//! points** — not 10/20/30: lichess compares winning chances, which span twice the range
//! of win%. When a mate appears or disappears: a mate against the mover that appeared
//! is a blunder, a mistake if the mover was already 700 cp behind, an inaccuracy past
//! 999 cp; a mate for the mover that was lost is judged the same way by the evaluation
//! after the move. A slower mate is not judged.

use super::eval::Eval;
use super::winprob::winning_chances;
use sable_chess::Color;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    pub const ALL: [Judgement; 3] = [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];

    /// The PGN NAG: `$6` (?!), `$2` (?), `$4` (??).
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    pub fn from_nag(nag: u8) -> Option<Judgement> {
        Judgement::ALL.into_iter().find(|j| j.nag() == nag)
    }

    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }

    /// `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// What happened to a forced mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateSequence {
    /// The mover will now be mated.
    Created,
    /// The mover had a forced mate and let it go.
    Lost,
}

impl MateSequence {
    pub fn description(self) -> &'static str {
        match self {
            MateSequence::Created => "Checkmate is now unavoidable",
            MateSequence::Lost => "Lost forced checkmate sequence",
        }
    }
}

/// The verdict on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub judgement: Judgement,
    /// Set when the judgement comes from a mate appearing or vanishing.
    pub mate: Option<MateSequence>,
}

/// Winning-chance losses (in [-1, 1] units) at which each judgement starts.
pub const THRESHOLDS: [(f64, Judgement); 3] = [
    (0.3, Judgement::Blunder),
    (0.2, Judgement::Mistake),
    (0.1, Judgement::Inaccuracy),
];

/// Judges a move by `mover` that took the evaluation from `before` to `after` (both
/// from White's point of view).
pub fn judge(mover: Color, before: Eval, after: Eval) -> Option<Verdict> {
    if let (Some(b), Some(a)) = (before.cp_for(mover), after.cp_for(mover)) {
        let loss = winning_chances(b) - winning_chances(a);
        return THRESHOLDS
            .iter()
            .find(|(t, _)| *t <= loss)
            .map(|&(_, judgement)| Verdict {
                judgement,
                mate: None,
            });
    }
    let prev_cp = before.cp_for(mover).unwrap_or(0);
    let next_cp = after.cp_for(mover).unwrap_or(0);
    let sequence = match (before.mate_for(mover), after.mate_for(mover)) {
        (None, Some(n)) if n < 0 => MateSequence::Created,
        (Some(p), None) if p > 0 => MateSequence::Lost,
        (Some(p), Some(n)) if p > 0 && n < 0 => MateSequence::Lost,
        _ => return None,
    };
    let judgement = match sequence {
        MateSequence::Created if prev_cp < -999 => Judgement::Inaccuracy,
        MateSequence::Created if prev_cp < -700 => Judgement::Mistake,
        MateSequence::Lost if next_cp > 999 => Judgement::Inaccuracy,
        MateSequence::Lost if next_cp > 700 => Judgement::Mistake,
        _ => Judgement::Blunder,
    };
    Some(Verdict {
        judgement,
        mate: Some(sequence),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    fn j(mover: Color, before: Eval, after: Eval) -> Option<Judgement> {
        judge(mover, before, after).map(|v| v.judgement)
    }

    /// Boundaries computed by hand: winning chances 2/(1+exp(-0.00368208 cp)) - 1.
    /// From 0 cp, a loss of 0.1 is reached at cp = -ln(1.1/0.9)/0.00368208 = -54.5,
    /// 0.2 at -ln(1.2/0.8)/k = -110.1, 0.3 at -ln(1.3/0.7)/k = -168.1.
    #[test]
    fn lichess_thresholds() {
        let z = Eval::Cp(0);
        assert_eq!(j(White, z, Eval::Cp(-54)), None);
        assert_eq!(j(White, z, Eval::Cp(-55)), Some(Judgement::Inaccuracy));
        assert_eq!(j(White, z, Eval::Cp(-108)), Some(Judgement::Inaccuracy));
        assert_eq!(j(White, z, Eval::Cp(-110)), Some(Judgement::Inaccuracy));
        assert_eq!(j(White, z, Eval::Cp(-111)), Some(Judgement::Mistake));
        assert_eq!(j(White, z, Eval::Cp(-167)), Some(Judgement::Mistake));
        assert_eq!(j(White, z, Eval::Cp(-169)), Some(Judgement::Blunder));
        // Black's loss is White's gain.
        assert_eq!(j(Black, z, Eval::Cp(169)), Some(Judgement::Blunder));
        assert_eq!(j(Black, z, Eval::Cp(-300)), None);
        // Far from equality the same centipawns matter less: +800 to +500 is a loss of
        // 0.9001 - 0.7261 = 0.174 winning chances: an inaccuracy only.
        assert_eq!(
            j(White, Eval::Cp(800), Eval::Cp(500)),
            Some(Judgement::Inaccuracy)
        );
        // Judged on raw centipawns (no ceiling): +2000 to +700 loses 0.140.
        assert_eq!(
            j(White, Eval::Cp(2000), Eval::Cp(700)),
            Some(Judgement::Inaccuracy)
        );
    }

    #[test]
    fn mates() {
        // A mate against the mover appears.
        assert_eq!(
            j(White, Eval::Cp(50), Eval::Mate(-3)),
            Some(Judgement::Blunder)
        );
        assert_eq!(
            j(White, Eval::Cp(-800), Eval::Mate(-3)),
            Some(Judgement::Mistake)
        );
        assert_eq!(
            j(White, Eval::Cp(-1200), Eval::Mate(-3)),
            Some(Judgement::Inaccuracy)
        );
        // A mate for the mover vanishes.
        assert_eq!(
            j(Black, Eval::Mate(-2), Eval::Cp(-1500)),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(
            j(Black, Eval::Mate(-2), Eval::Cp(-800)),
            Some(Judgement::Mistake)
        );
        assert_eq!(
            j(Black, Eval::Mate(-2), Eval::Cp(0)),
            Some(Judgement::Blunder)
        );
        assert_eq!(
            j(Black, Eval::Mate(-2), Eval::Mate(1)),
            Some(Judgement::Blunder)
        );
        // A slower mate, or mating, is no error.
        assert_eq!(j(White, Eval::Mate(2), Eval::Mate(5)), None);
        assert_eq!(j(White, Eval::Mate(1), Eval::Checkmated(Black)), None);
        // Already being mated: no new judgement.
        assert_eq!(j(White, Eval::Mate(-3), Eval::Mate(-2)), None);
        let v = judge(White, Eval::Cp(0), Eval::Mate(-1)).unwrap();
        assert_eq!(v.mate, Some(MateSequence::Created));
    }

    #[test]
    fn nags() {
        assert_eq!(Judgement::Inaccuracy.nag(), 6);
        assert_eq!(Judgement::Mistake.nag(), 2);
        assert_eq!(Judgement::Blunder.nag(), 4);
        assert_eq!(Judgement::from_nag(4), Some(Judgement::Blunder));
    }
}
