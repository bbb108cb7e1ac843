//! Time controls (`40/60+0.6`, `10+0.1`, `st=`, `nodes=`, `depth=`) and the game clock.
//!
//! The clock charges an engine from the moment `go` was written to the moment its move
//! arrived (stamped by the reader thread). A margin, configurable per engine, is
//! allowed past zero before the flag falls, as in cutechess-cli's `timemargin`.

use std::fmt;
use std::time::{Duration, Instant};

/// A clock setting: `moves` per period (repeating), `base` per period, `inc` per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSpec {
    pub moves: Option<u32>,
    pub base: Duration,
    pub inc: Duration,
}

/// Everything that bounds one engine's thinking; at least one bound is set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub clock: Option<ClockSpec>,
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

/// A time control that does not parse.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("bad time control '{text}': {why} (expected [moves/]seconds[+increment], e.g. 40/60+0.6 or 10+0.1 or 1:30+1)")]
pub struct TcError {
    text: String,
    why: &'static str,
}

fn seconds(text: &str) -> Option<Duration> {
    // `m:ss` or `h:mm:ss` or plain (fractional) seconds.
    let mut total = 0.0f64;
    for part in text.split(':') {
        let v: f64 = part.parse().ok()?;
        if !v.is_finite() || v < 0.0 {
            return None;
        }
        total = total * 60.0 + v;
    }
    (total < 1e9).then(|| Duration::from_secs_f64(total))
}

impl ClockSpec {
    pub fn parse(text: &str) -> Result<ClockSpec, TcError> {
        let err = |why| TcError {
            text: text.to_string(),
            why,
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => {
                let m: u32 = m.parse().map_err(|_| err("moves is not a number"))?;
                if m == 0 {
                    return Err(err("moves per period must be at least 1"));
                }
                (Some(m), r)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base = seconds(base).ok_or_else(|| err("time is not a number of seconds"))?;
        let inc = match inc {
            Some(i) => seconds(i).ok_or_else(|| err("increment is not a number of seconds"))?,
            None => Duration::ZERO,
        };
        if base.is_zero() && inc.is_zero() {
            return Err(err("no time at all"));
        }
        Ok(ClockSpec { moves, base, inc })
    }
}

fn secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl fmt::Display for ClockSpec {
    /// The PGN `TimeControl` form: `moves/seconds+inc`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", secs(self.base))?;
        if !self.inc.is_zero() {
            write!(f, "+{}", secs(self.inc))?;
        }
        Ok(())
    }
}

impl Limits {
    pub fn is_unbounded(&self) -> bool {
        self.clock.is_none()
            && self.movetime.is_none()
            && self.nodes.is_none()
            && self.depth.is_none()
    }
}

impl fmt::Display for Limits {
    /// The PGN `TimeControl` tag value (`-` when the game has no clock).
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match (self.clock, self.movetime) {
            (Some(c), _) => write!(f, "{c}"),
            (None, Some(t)) => write!(f, "{}/move", secs(t)),
            (None, None) => write!(f, "-"),
        }
    }
}

/// The flag fell: the engine used more than its time plus margin.
#[derive(Debug, PartialEq, Eq)]
pub struct Flagged {
    pub over_by: Duration,
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    spec: ClockSpec,
    /// Microseconds left; negative within the margin.
    left_us: i64,
    moves_left: Option<u32>,
}

impl Clock {
    pub fn new(spec: ClockSpec) -> Clock {
        Clock {
            spec,
            left_us: spec.base.as_micros() as i64,
            moves_left: spec.moves,
        }
    }

    /// Time left in milliseconds, as told to engines (never below zero).
    pub fn left_ms(&self) -> u64 {
        (self.left_us.max(0) / 1000) as u64
    }

    pub fn moves_to_go(&self) -> Option<u32> {
        self.moves_left
    }

    pub fn increment(&self) -> Duration {
        self.spec.inc
    }

    /// When the flag falls for a search started at `start`.
    pub fn deadline(&self, start: Instant, margin: Duration) -> Instant {
        start + Duration::from_micros(self.left_us.max(0) as u64) + margin
    }

    /// Charges `used` for one move; then adds the increment and, at the end of a
    /// period, the next period's time.
    pub fn spend(&mut self, used: Duration, margin: Duration) -> Result<(), Flagged> {
        self.left_us -= used.as_micros() as i64;
        if self.left_us < -(margin.as_micros() as i64) {
            return Err(Flagged {
                over_by: Duration::from_micros((-self.left_us) as u64),
            });
        }
        self.left_us += self.spec.inc.as_micros() as i64;
        if let Some(left) = self.moves_left.as_mut() {
            *left -= 1;
            if *left == 0 {
                *left = self.spec.moves.unwrap_or(1);
                self.left_us += self.spec.base.as_micros() as i64;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_the_usual_forms() {
        let c = ClockSpec::parse("40/60+0.6").unwrap();
        assert_eq!((c.moves, c.base, c.inc), (Some(40), ms(60_000), ms(600)));
        let c = ClockSpec::parse("10+0.1").unwrap();
        assert_eq!((c.moves, c.base, c.inc), (None, ms(10_000), ms(100)));
        let c = ClockSpec::parse("1:30").unwrap();
        assert_eq!(c.base, ms(90_000));
        assert_eq!(
            ClockSpec::parse("40/60+0.6").unwrap().to_string(),
            "40/60+0.6"
        );
        assert_eq!(
            ClockSpec::parse("0.5+0.05").unwrap().to_string(),
            "0.5+0.05"
        );
        for bad in ["", "x", "40/", "0/10", "10+", "-5", "0+0", "10+y"] {
            assert!(ClockSpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn increment_is_added_after_the_move() {
        let mut c = Clock::new(ClockSpec::parse("1+0.5").unwrap());
        c.spend(ms(800), Duration::ZERO).unwrap();
        assert_eq!(c.left_ms(), 700);
        // 700 ms left: using 900 ms flags without margin, not with a 250 ms margin.
        let mut strict = c.clone();
        assert_eq!(
            strict.spend(ms(900), Duration::ZERO),
            Err(Flagged { over_by: ms(200) })
        );
        c.spend(ms(900), ms(250)).unwrap();
        assert_eq!(c.left_ms(), 300); // -200 + 500
    }

    #[test]
    fn periods_repeat() {
        let mut c = Clock::new(ClockSpec::parse("2/10").unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        c.spend(ms(3000), Duration::ZERO).unwrap();
        assert_eq!((c.left_ms(), c.moves_to_go()), (7000, Some(1)));
        c.spend(ms(3000), Duration::ZERO).unwrap();
        assert_eq!((c.left_ms(), c.moves_to_go()), (14_000, Some(2)));
    }

    #[test]
    fn deadline_includes_margin() {
        let c = Clock::new(ClockSpec::parse("2").unwrap());
        let t = Instant::now();
        assert_eq!(c.deadline(t, ms(100)), t + ms(2100));
    }
}
