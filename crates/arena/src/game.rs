//! The record of one played game: players, start, moves with their comments, result,
//! and why it ended. The referee fills it; the PGN writer and the statistics read it.

use sable_chess::Color;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// Points scored by `c`: 1, 0.5 or 0, in half points.
    pub fn half_points(self, c: Color) -> u32 {
        match (self, c) {
            (GameResult::Draw, _) => 1,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
            _ => 0,
        }
    }
}

/// How a game ended, as written in the PGN `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// By the rules (mate, stalemate, draws) or by resignation.
    Normal,
    Adjudication,
    TimeForfeit,
    IllegalMove,
    /// No reply where no clock runs, or a failed `isready`/`ping`.
    Stalled,
    /// The engine's process ended (a crash).
    Abandoned,
}

impl Termination {
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Stalled => "stalled connection",
            Termination::Abandoned => "abandoned",
        }
    }

    /// Whether the loser is at fault in a way the summary counts.
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit
                | Termination::IllegalMove
                | Termination::Stalled
                | Termination::Abandoned
        )
    }
}

#[derive(Clone, Debug)]
pub struct MoveRecord {
    pub san: String,
    /// `book`, or the engine's score, depth, time used and clock.
    pub comment: String,
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Indices into the tournament's engine list.
    pub white: usize,
    pub black: usize,
    pub white_name: String,
    pub black_name: String,
    pub start_fen: String,
    pub chess960: bool,
    pub moves: Vec<MoveRecord>,
    pub result: GameResult,
    pub termination: Termination,
    /// Human-readable, e.g. "White mates" or "Black loses on time".
    pub reason: String,
    pub round: u32,
    /// 1-based number in the schedule.
    pub number: u32,
    pub time_control: String,
    /// UTC date of the start, `YYYY.MM.DD`.
    pub date: String,
    /// The opening's number in the schedule's sequence: games sharing it form a pair.
    pub opening: usize,
}

impl GameRecord {
    /// The engine that lost by its own fault, and how.
    pub fn fault(&self) -> Option<(usize, Termination)> {
        if !self.termination.is_fault() {
            return None;
        }
        match self.result {
            GameResult::WhiteWins => Some((self.black, self.termination)),
            GameResult::BlackWins => Some((self.white, self.termination)),
            GameResult::Draw => None,
        }
    }
}

/// Today's UTC date as PGN writes it.
pub fn utc_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a Gregorian (year, month, day) (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
    }

    #[test]
    fn points() {
        assert_eq!(GameResult::WhiteWins.half_points(Color::White), 2);
        assert_eq!(GameResult::WhiteWins.half_points(Color::Black), 0);
        assert_eq!(GameResult::Draw.half_points(Color::Black), 1);
    }
}
