//! [`Score`]: a searched score in 16 bits, for the side to move: centipawns clamped to
//! ±[`Score::MAX_CP`], or a mate with its distance in plies.

use std::fmt;

/// A score for the side to move, as stored in a record (`i16`, little-endian).
///
/// - `-30000..=30000`: centipawns ([`Score::cp`] clamps to this range);
/// - `30001..=32000`: the side to move mates in `32000 - value` plies;
/// - `-32000..=-30001`: the side to move is mated in `32000 + value` plies;
/// - anything else is not a score (a reader refuses it).
///
/// ```
/// use sable_formats::record::Score;
/// assert_eq!(Score::cp(123).as_cp(), Some(123));
/// assert_eq!(Score::cp(99_999).as_cp(), Some(30_000)); // clamped
/// let m = Score::mate(5);
/// assert_eq!((m.is_mate(), m.mate_plies(), m.raw()), (true, Some(5), 31_995));
/// assert_eq!(Score::mate(-4).mate_plies(), Some(-4));
/// assert_eq!(Score::from_raw(-31_996), Some(Score::mate(-4)));
/// assert_eq!(Score::from_raw(32_001), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Score(i16);

impl Score {
    /// The largest centipawn value stored; larger ones are clamped.
    pub const MAX_CP: i16 = 30_000;
    /// A mate in 0 plies (the side to move has just mated: never stored by datagen).
    pub const MATE: i16 = 32_000;
    /// The longest mate distance that fits (plies).
    pub const MAX_MATE_PLIES: i32 = (Score::MATE - Score::MAX_CP - 1) as i32;

    /// Centipawns for the side to move, clamped to ±[`Score::MAX_CP`].
    pub fn cp(cp: i32) -> Score {
        Score(cp.clamp(-(Score::MAX_CP as i32), Score::MAX_CP as i32) as i16)
    }

    /// A mate in `plies` plies: positive when the side to move mates, negative when it
    /// is mated. Distances beyond [`Score::MAX_MATE_PLIES`] are clamped to it.
    pub fn mate(plies: i32) -> Score {
        let d = plies.unsigned_abs().min(Score::MAX_MATE_PLIES as u32) as i16;
        if plies >= 0 {
            Score(Score::MATE - d)
        } else {
            Score(-(Score::MATE - d))
        }
    }

    /// Reads a stored value; `None` if it is outside the ranges above.
    pub const fn from_raw(raw: i16) -> Option<Score> {
        if raw >= -Score::MATE && raw <= Score::MATE {
            Some(Score(raw))
        } else {
            None
        }
    }

    /// The stored value.
    pub const fn raw(self) -> i16 {
        self.0
    }

    pub const fn is_mate(self) -> bool {
        self.0 > Score::MAX_CP || self.0 < -Score::MAX_CP
    }

    /// Centipawns, or `None` for a mate.
    pub const fn as_cp(self) -> Option<i16> {
        if self.is_mate() {
            None
        } else {
            Some(self.0)
        }
    }

    /// The mate distance in plies (negative: the side to move is mated), or `None`.
    pub const fn mate_plies(self) -> Option<i32> {
        if self.0 > Score::MAX_CP {
            Some((Score::MATE - self.0) as i32)
        } else if self.0 < -Score::MAX_CP {
            Some(-((Score::MATE + self.0) as i32))
        } else {
            None
        }
    }

    /// The score from the other side's view.
    pub const fn negate(self) -> Score {
        Score(-self.0)
    }
}

/// `123` for centipawns, `#5` / `#-4` for mates in plies.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_plies() {
            Some(p) => write!(f, "#{p}"),
            None => write!(f, "{}", self.0),
        }
    }
}

impl fmt::Debug for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Score({self})")
    }
}
