//! The bot's decisions that are not moves: whether to accept a challenge (time control,
//! rated or not, rating range, variants refused, block list, games in a row), and, as
//! xboard's zippy does, when to accept or offer a draw and when to resign, from the
//! scores of our own searches.

use crate::config::{AcceptPolicy, PlayPolicy};
use crate::messages::Challenge;

/// Whether a challenge is accepted, and if not, why (for the log).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Accept,
    Decline(String),
}

/// Judges a challenge. `last_opponent` is the opponent of the last games and
/// `in_a_row` how many games in a row we played them.
///
/// ```
/// use sable_ics::{config::AcceptPolicy, messages::Challenge, policy::{judge, Verdict}};
/// let p = AcceptPolicy { enabled: true, ..AcceptPolicy::default() };
/// let c = Challenge::parse("Challenge: Ann (1800) Sable (1500) rated blitz 3 0.").unwrap();
/// assert_eq!(judge(&p, &c, None, 0), Verdict::Accept);
/// let c = Challenge::parse("Challenge: Ann (1800) Sable (1500) rated atomic 3 0.").unwrap();
/// assert!(matches!(judge(&p, &c, None, 0), Verdict::Decline(_)));
/// ```
pub fn judge(
    p: &AcceptPolicy,
    c: &Challenge,
    last_opponent: Option<&str>,
    in_a_row: u32,
) -> Verdict {
    let no = |why: String| Verdict::Decline(why);
    if p.block.iter().any(|b| b.eq_ignore_ascii_case(&c.from)) {
        return no(format!("{} is on the block list", c.from));
    }
    // Our own adjourned game comes back whatever the policy says.
    if c.adjourned {
        return Verdict::Accept;
    }
    if !p.enabled {
        return no("not accepting challenges".into());
    }
    if let Some(v) = &c.variant {
        return no(format!("variants are refused ({v})"));
    }
    if c.rated && !p.rated {
        return no("rated games are refused".into());
    }
    if !c.rated && !p.unrated {
        return no("unrated games are refused".into());
    }
    if c.minutes < p.min_minutes || c.minutes > p.max_minutes {
        return no(format!(
            "{} minutes is outside {}..{}",
            c.minutes, p.min_minutes, p.max_minutes
        ));
    }
    if c.increment < p.min_increment || c.increment > p.max_increment {
        return no(format!(
            "increment {} is outside {}..{}",
            c.increment, p.min_increment, p.max_increment
        ));
    }
    if c.minutes == 0 && c.increment == 0 {
        return no("untimed games are refused".into());
    }
    let rating = c.from_rating.unwrap_or(p.unrated_as);
    if rating < p.min_rating || rating > p.max_rating {
        return no(format!(
            "rating {rating} is outside {}..{}",
            p.min_rating, p.max_rating
        ));
    }
    if p.max_in_a_row > 0
        && in_a_row >= p.max_in_a_row
        && last_opponent.is_some_and(|o| o.eq_ignore_ascii_case(&c.from))
    {
        return no(format!(
            "{} games in a row against {} already",
            in_a_row, c.from
        ));
    }
    Verdict::Accept
}

/// Our searches' scores in one game, for draw and resignation decisions.
#[derive(Clone, Debug, Default)]
pub struct ScoreTrack {
    /// Centipawns from our side, one per search (book moves leave no score).
    scores: Vec<i32>,
}

impl ScoreTrack {
    pub fn push(&mut self, cp: i32) {
        self.scores.push(cp);
    }

    pub fn last(&self) -> Option<i32> {
        self.scores.last().copied()
    }

    fn last_n(&self, n: u32) -> Option<&[i32]> {
        let n = n as usize;
        (n > 0 && self.scores.len() >= n).then(|| &self.scores[self.scores.len() - n..])
    }

    /// Resign now?
    pub fn should_resign(&self, p: &PlayPolicy) -> bool {
        self.last_n(p.resign_moves)
            .is_some_and(|s| s.iter().all(|&v| v <= p.resign_score))
    }

    /// Accept the opponent's draw offer at `move_number`?
    pub fn accept_draw(&self, p: &PlayPolicy, move_number: u32) -> bool {
        match self.last() {
            None => false,
            Some(v) => {
                v <= -p.draw_losing_score
                    || (move_number >= p.draw_accept_after && v <= p.draw_accept_score)
            }
        }
    }

    /// Offer a draw at `move_number`?
    pub fn offer_draw(&self, p: &PlayPolicy, move_number: u32) -> bool {
        move_number >= p.draw_offer_after
            && self
                .last_n(p.draw_offer_moves)
                .is_some_and(|s| s.iter().all(|v| v.abs() <= p.draw_offer_score))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn challenge(text: &str) -> Challenge {
        Challenge::parse(text).unwrap()
    }

    #[test]
    fn accept_policy() {
        let p = AcceptPolicy {
            enabled: true,
            rated: false,
            min_minutes: 1,
            max_minutes: 5,
            max_increment: 2,
            min_rating: 1000,
            max_rating: 2000,
            block: vec!["pest".into()],
            max_in_a_row: 2,
            ..AcceptPolicy::default()
        };
        let ok = challenge("Challenge: Ann (1800) Sable (1500) unrated blitz 3 0.");
        assert_eq!(judge(&p, &ok, None, 0), Verdict::Accept);
        let cases = [
            "Challenge: Ann (1800) Sable (1500) rated blitz 3 0.",
            "Challenge: Ann (1800) Sable (1500) unrated standard 15 0.",
            "Challenge: Ann (1800) Sable (1500) unrated blitz 3 5.",
            "Challenge: Ann (2100) Sable (1500) unrated blitz 3 0.",
            "Challenge: Pest (1800) Sable (1500) unrated blitz 3 0.",
            "Challenge: Ann (1800) Sable (1500) unrated wild 3 0.",
        ];
        for c in cases {
            assert!(
                matches!(judge(&p, &challenge(c), None, 0), Verdict::Decline(_)),
                "{c}"
            );
        }
        assert!(matches!(
            judge(&p, &ok, Some("ann"), 2),
            Verdict::Decline(_)
        ));
        assert_eq!(judge(&p, &ok, Some("bob"), 2), Verdict::Accept);
        let adj = challenge("Challenge: Ann (1800) Sable (1500) rated blitz 3 0 (adjourned).");
        assert_eq!(judge(&p, &adj, None, 0), Verdict::Accept);
        let off = AcceptPolicy::default();
        assert!(matches!(judge(&off, &ok, None, 0), Verdict::Decline(_)));
    }

    #[test]
    fn draws_and_resignation() {
        let p = PlayPolicy::default();
        let mut t = ScoreTrack::default();
        assert!(!t.should_resign(&p) && !t.accept_draw(&p, 60));
        for _ in 0..3 {
            t.push(-1200);
        }
        assert!(t.should_resign(&p));
        assert!(t.accept_draw(&p, 1));
        t.push(0);
        assert!(!t.should_resign(&p));
        assert!(t.accept_draw(&p, p.draw_accept_after));
        assert!(!t.accept_draw(&p, 1));
        for _ in 0..p.draw_offer_moves {
            t.push(3);
        }
        assert!(t.offer_draw(&p, p.draw_offer_after));
        assert!(!t.offer_draw(&p, p.draw_offer_after - 1));
        t.push(200);
        assert!(!t.offer_draw(&p, 100) && !t.accept_draw(&p, 100));
    }
}
