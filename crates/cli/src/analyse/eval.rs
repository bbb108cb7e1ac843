//! An engine's evaluation of a position from White's point of view, as the annotated PGN
//! writes it (lichess's `[%eval 0.35]`, `[%eval #-3]`) and as the formulas read it.

use sable_chess::Color;
use std::fmt;

/// The evaluation of a position, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns, positive when White is better.
    Cp(i32),
    /// Mate in this many moves, positive when White mates (never 0).
    Mate(i32),
    /// The side to move is checkmated: the game is over (written `#0`).
    Checkmated(Color),
}

/// The ceiling lichess puts on centipawn values (and gives mates) in its formulas.
pub const CP_CEILING: i32 = 1000;

impl Eval {
    /// From a score for the side to move (`mate`: moves to mate, negative when the side
    /// to move gets mated).
    pub fn from_side_to_move(turn: Color, cp: Option<i32>, mate: Option<i32>) -> Eval {
        let sign = if turn == Color::White { 1 } else { -1 };
        match (cp, mate) {
            (_, Some(0)) => Eval::Checkmated(turn),
            (_, Some(m)) => Eval::Mate(sign * m),
            (Some(c), None) => Eval::Cp(sign * c),
            (None, None) => Eval::Cp(0),
        }
    }

    /// Centipawns clamped to ±1000, mates counted as ±1000 (lichess's `ceiled` and
    /// `ceilingWithSignum`).
    pub fn ceiled_cp(self) -> i32 {
        match self {
            Eval::Cp(c) => c.clamp(-CP_CEILING, CP_CEILING),
            Eval::Mate(m) => CP_CEILING * m.signum(),
            Eval::Checkmated(Color::White) => -CP_CEILING,
            Eval::Checkmated(Color::Black) => CP_CEILING,
        }
    }

    /// The centipawns from `side`'s point of view, when the evaluation is not a mate.
    pub fn cp_for(self, side: Color) -> Option<i32> {
        match self {
            Eval::Cp(c) if side == Color::White => Some(c),
            Eval::Cp(c) => Some(-c),
            _ => None,
        }
    }

    /// Mate from `side`'s point of view: positive when `side` mates, negative when it
    /// gets mated (a finished checkmate counts as a mate in 0 moves, signed the same way).
    pub fn mate_for(self, side: Color) -> Option<i32> {
        let sign = if side == Color::White { 1 } else { -1 };
        match self {
            Eval::Cp(_) => None,
            Eval::Mate(m) => Some(sign * m),
            // Only the sign matters to the callers: the winner is "mating".
            Eval::Checkmated(c) if c == side => Some(-1),
            Eval::Checkmated(_) => Some(1),
        }
    }

    /// Short text for people: `+0.35`, `-1.20`, `#3`, `#-3`, `#0` (the form of the
    /// comments "(+0.35 → -1.20)").
    pub fn human(self) -> String {
        match self {
            Eval::Cp(c) => format!("{}{}", if c < 0 { "-" } else { "+" }, pawns(c.abs())),
            _ => self.to_string(),
        }
    }
}

fn pawns(cp: i32) -> String {
    format!("{}.{:02}", cp / 100, cp % 100)
}

impl fmt::Display for Eval {
    /// The value of a `[%eval ...]` command: pawns with two decimals, `#n` for mates.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Cp(c) if c < 0 => write!(f, "-{}", pawns(-c)),
            Eval::Cp(c) => f.write_str(&pawns(c)),
            Eval::Mate(m) => write!(f, "#{m}"),
            Eval::Checkmated(_) => f.write_str("#0"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_as_lichess_does() {
        assert_eq!(Eval::Cp(35).to_string(), "0.35");
        assert_eq!(Eval::Cp(-120).to_string(), "-1.20");
        assert_eq!(Eval::Cp(-5).to_string(), "-0.05");
        assert_eq!(Eval::Cp(0).to_string(), "0.00");
        assert_eq!(Eval::Mate(-3).to_string(), "#-3");
        assert_eq!(Eval::Mate(2).to_string(), "#2");
        assert_eq!(Eval::Cp(35).human(), "+0.35");
        assert_eq!(Eval::Cp(-5).human(), "-0.05");
    }

    #[test]
    fn side_to_move_scores_turn_to_white() {
        let b = Color::Black;
        assert_eq!(Eval::from_side_to_move(b, Some(50), None), Eval::Cp(-50));
        assert_eq!(Eval::from_side_to_move(b, None, Some(2)), Eval::Mate(-2));
        assert_eq!(
            Eval::from_side_to_move(Color::White, None, Some(-4)),
            Eval::Mate(-4)
        );
        assert_eq!(Eval::Mate(-4).mate_for(b), Some(4));
        assert_eq!(Eval::Cp(2500).ceiled_cp(), 1000);
        assert_eq!(Eval::Mate(-1).ceiled_cp(), -1000);
        assert_eq!(Eval::Checkmated(b).mate_for(Color::White), Some(1));
    }
}
