//! Adjudication: ending games early on the engines' own scores (draw when both stay
//! near zero long enough, resignation when one stays lost long enough) or on length.
//! The semantics follow cutechess-cli's `-draw`, `-resign` and `-maxmoves`.

use super::engine::Score;
use super::game::GameResult;
use sable_chess::Color;

/// `-draw movenumber=N movecount=M score=S`: draw once at least N full moves are played
/// and both engines' scores have stayed within S centipawns of zero for M consecutive
/// moves each (reset by captures and pawn moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// `-resign movecount=M score=S [twosided=true]`: an engine whose score stays at or
/// below -S for M consecutive moves loses; two-sided also needs the opponent to agree
/// (at or above +S for as long).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
    pub two_sided: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    /// `-maxmoves N`: a draw after N moves by each side.
    pub max_moves: Option<u32>,
}

/// A decision: the result and the reason for the PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub result: GameResult,
    pub reason: String,
}

/// Tracks one game's scores against the rules.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Rules,
    draw_plies: u32,
    losing: [u32; 2],
    winning: [u32; 2],
}

fn name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl Adjudicator {
    pub fn new(rules: Rules) -> Adjudicator {
        Adjudicator {
            rules,
            draw_plies: 0,
            losing: [0; 2],
            winning: [0; 2],
        }
    }

    /// Called after each engine move: `score` is the mover's, `irreversible` whether the
    /// move was a capture or pawn move, `plies` the game's length so far and
    /// `full_moves` the full-move number reached.
    pub fn after_move(
        &mut self,
        mover: Color,
        score: Option<Score>,
        irreversible: bool,
        plies: usize,
    ) -> Option<Verdict> {
        let cp = score.map(Score::cp_equivalent);
        let i = mover.index();
        if let Some(rule) = self.rules.resign {
            match cp {
                Some(v) if v <= -rule.score => self.losing[i] += 1,
                _ => self.losing[i] = 0,
            }
            match cp {
                Some(v) if v >= rule.score => self.winning[i] += 1,
                _ => self.winning[i] = 0,
            }
            let other = (!mover).index();
            if self.losing[i] >= rule.move_count
                && (!rule.two_sided || self.winning[other] >= rule.move_count)
            {
                return Some(Verdict {
                    result: GameResult::win_for(!mover),
                    reason: format!("{} resigns (adjudication)", name(mover)),
                });
            }
        }
        if let Some(rule) = self.rules.draw {
            match cp {
                Some(v) if v.abs() <= rule.score && !irreversible => self.draw_plies += 1,
                _ => self.draw_plies = 0,
            }
            if plies as u32 / 2 >= rule.move_number && self.draw_plies >= 2 * rule.move_count {
                return Some(Verdict {
                    result: GameResult::Draw,
                    reason: "Draw by adjudication (scores near zero)".to_string(),
                });
            }
        }
        if let Some(max) = self.rules.max_moves {
            if plies as u32 >= 2 * max {
                return Some(Verdict {
                    result: GameResult::Draw,
                    reason: format!("Draw by adjudication (maximum of {max} moves)"),
                });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    #[test]
    fn resign_needs_consecutive_moves() {
        let rules = Rules {
            resign: Some(ResignRule {
                move_count: 3,
                score: 500,
                two_sided: false,
            }),
            ..Rules::default()
        };
        let mut a = Adjudicator::new(rules);
        let lost = Some(Score::Cp(-600));
        assert_eq!(a.after_move(Black, lost, false, 10), None);
        assert_eq!(a.after_move(Black, lost, false, 12), None);
        // A better score in between resets the count.
        assert_eq!(a.after_move(Black, Some(Score::Cp(-100)), false, 14), None);
        assert_eq!(a.after_move(Black, lost, false, 16), None);
        assert_eq!(a.after_move(Black, lost, false, 18), None);
        let v = a
            .after_move(Black, Some(Score::Mate(-4)), false, 20)
            .unwrap();
        assert_eq!(v.result, GameResult::WhiteWins);
        assert_eq!(v.reason, "Black resigns (adjudication)");
    }

    #[test]
    fn two_sided_resign_needs_agreement() {
        let rules = Rules {
            resign: Some(ResignRule {
                move_count: 2,
                score: 300,
                two_sided: true,
            }),
            ..Rules::default()
        };
        let mut a = Adjudicator::new(rules);
        // White thinks it is lost, Black does not agree: no verdict.
        for ply in 0..6 {
            let (mover, s) = if ply % 2 == 0 {
                (White, -400)
            } else {
                (Black, 100)
            };
            assert_eq!(a.after_move(mover, Some(Score::Cp(s)), false, ply), None);
        }
        let mut a = Adjudicator::new(rules);
        assert_eq!(a.after_move(White, Some(Score::Cp(-400)), false, 1), None);
        assert_eq!(a.after_move(Black, Some(Score::Cp(400)), false, 2), None);
        assert_eq!(a.after_move(White, Some(Score::Cp(-400)), false, 3), None);
        assert_eq!(a.after_move(Black, Some(Score::Cp(400)), false, 4), None);
        let v = a
            .after_move(White, Some(Score::Cp(-400)), false, 5)
            .unwrap();
        assert_eq!(v.result, GameResult::BlackWins);
    }

    #[test]
    fn draw_needs_move_number_and_quiet_scores() {
        let rules = Rules {
            draw: Some(DrawRule {
                move_number: 10,
                move_count: 2,
                score: 10,
            }),
            ..Rules::default()
        };
        let mut a = Adjudicator::new(rules);
        let level = Some(Score::Cp(5));
        // Four quiet plies, but only at move 5: too early.
        for ply in 10..14 {
            let mover = if ply % 2 == 0 { White } else { Black };
            assert_eq!(a.after_move(mover, level, false, ply), None);
        }
        // A capture resets the count.
        assert_eq!(a.after_move(White, level, true, 20), None);
        assert_eq!(a.after_move(Black, level, false, 21), None);
        assert_eq!(a.after_move(White, level, false, 22), None);
        assert_eq!(a.after_move(Black, level, false, 23), None);
        let v = a.after_move(White, level, false, 24).unwrap();
        assert_eq!(v.result, GameResult::Draw);
        // A missing score also resets it.
        let mut a = Adjudicator::new(rules);
        for ply in 20..23 {
            assert_eq!(a.after_move(White, level, false, ply), None);
        }
        assert_eq!(a.after_move(Black, None, false, 23), None);
        assert_eq!(a.after_move(White, level, false, 24), None);
    }

    #[test]
    fn max_moves() {
        let rules = Rules {
            max_moves: Some(3),
            ..Rules::default()
        };
        let mut a = Adjudicator::new(rules);
        assert_eq!(a.after_move(Black, None, false, 5), None);
        assert!(a.after_move(White, None, false, 6).is_some());
    }
}
