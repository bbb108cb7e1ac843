//! How a game ends by the rules: checkmate, stalemate, insufficient material,
//! the fifty-move rule and threefold repetition.

use crate::{Color, KeyHistory, Position, Role, SquareSet};
use std::fmt;

/// Why a game is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum DrawReason {
    Stalemate,
    InsufficientMaterial,
    /// 100 half-moves without a capture or pawn move (a claim; automatic at 150).
    FiftyMoves,
    /// The same position for the third time (a claim; automatic at the fifth).
    ThreefoldRepetition,
    FivefoldRepetition,
    SeventyFiveMoves,
}

/// The end of a game by the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    Checkmate { winner: Color },
    Draw(DrawReason),
}

impl Outcome {
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(winner),
            Outcome::Draw(_) => None,
        }
    }
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Checkmate {
                winner: Color::White,
            } => "1-0",
            Outcome::Checkmate {
                winner: Color::Black,
            } => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Stalemate => "stalemate",
            DrawReason::InsufficientMaterial => "insufficient material",
            DrawReason::FiftyMoves => "fifty-move rule",
            DrawReason::ThreefoldRepetition => "threefold repetition",
            DrawReason::FivefoldRepetition => "fivefold repetition",
            DrawReason::SeventyFiveMoves => "seventy-five-move rule",
        })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Checkmate { winner } => write!(f, "{winner} mates"),
            Outcome::Draw(reason) => write!(f, "draw by {reason}"),
        }
    }
}

impl Position {
    /// In check with no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && self.count_legal() == 0
    }

    /// Not in check, with no legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && self.count_legal() == 0
    }

    /// Neither side can ever mate: bare kings, one minor piece, or bishops only, all on
    /// squares of one colour (the dead positions that are recognised by material alone).
    pub fn is_insufficient_material(&self) -> bool {
        if (self.by_role(Role::Pawn) | self.line_sliders()).any() {
            return false;
        }
        let minors = self.by_role(Role::Knight) | self.by_role(Role::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        let bishops = self.by_role(Role::Bishop);
        self.by_role(Role::Knight).is_empty()
            && (bishops & SquareSet::DARK == bishops || bishops & SquareSet::LIGHT == bishops)
    }

    /// The outcome by the rules, if the game is over, given the keys of the earlier
    /// positions. Precedence: checkmate, stalemate, insufficient material, fifty moves
    /// (so a mate on the hundredth half-move still wins), threefold repetition.
    ///
    /// The fifty-move rule and threefold repetition are treated as ending the game, as
    /// engines and tournament managers do; [`Position::automatic_outcome`] gives the
    /// ends that need no claim.
    pub fn outcome(&self, history: &KeyHistory) -> Option<Outcome> {
        if let Some(o) = self.mate_or_stalemate() {
            return Some(o);
        }
        if self.is_insufficient_material() {
            return Some(Outcome::Draw(DrawReason::InsufficientMaterial));
        }
        if self.halfmoves() >= 100 {
            return Some(Outcome::Draw(DrawReason::FiftyMoves));
        }
        if history.count(self.key(), self.halfmoves()) >= 2 {
            return Some(Outcome::Draw(DrawReason::ThreefoldRepetition));
        }
        None
    }

    /// The ends that need no claim under FIDE rules: checkmate, stalemate, insufficient
    /// material, 75 moves, fivefold repetition.
    pub fn automatic_outcome(&self, history: &KeyHistory) -> Option<Outcome> {
        if let Some(o) = self.mate_or_stalemate() {
            return Some(o);
        }
        if self.is_insufficient_material() {
            return Some(Outcome::Draw(DrawReason::InsufficientMaterial));
        }
        if self.halfmoves() >= 150 {
            return Some(Outcome::Draw(DrawReason::SeventyFiveMoves));
        }
        if history.count(self.key(), self.halfmoves()) >= 4 {
            return Some(Outcome::Draw(DrawReason::FivefoldRepetition));
        }
        None
    }

    fn mate_or_stalemate(&self) -> Option<Outcome> {
        if self.count_legal() > 0 {
            return None;
        }
        Some(if self.in_check() {
            Outcome::Checkmate {
                winner: !self.turn(),
            }
        } else {
            Outcome::Draw(DrawReason::Stalemate)
        })
    }
}
