//! One game on the server as we follow it: the start position, the moves with the
//! mover's clock after each, the players and ratings. Each board the server sends is
//! matched against our position after its last move; a board that does not match
//! restarts the record from the server's board (a resync, noted in the PGN). Writes the
//! finished game as PGN with `[%clk]` comments and appends it to the log file.

use crate::messages::Creating;
use crate::style12::Style12;
use sable_chess::{Color, Move, Position, STARTPOS_FEN};
use sable_formats::pgn::{GameResult, GameTree, PgnWriter};
use std::io::Write;
use std::path::Path;

/// How a board fitted the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardFit {
    /// The board is the position we have (a refresh, or the first board).
    Same,
    /// The board is our position after its last move, now appended.
    Moved(Move),
    /// The board did not follow from our position: the record starts again from it.
    Resynced(String),
}

/// A game being played (or finished).
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub number: u32,
    pub white: String,
    pub black: String,
    pub white_elo: Option<u32>,
    pub black_elo: Option<u32>,
    pub rated: bool,
    pub category: String,
    pub minutes: u32,
    pub increment: u32,
    pub us: Color,
    pub start: Position,
    pub moves: Vec<Move>,
    /// The mover's clock in ms after each move, as the server reported it.
    pub clocks: Vec<Option<i64>>,
    /// Notes to put in the PGN before the moves (resyncs).
    pub notes: Vec<String>,
    /// The date it started, `YYYY.MM.DD` (UTC).
    pub date: String,
}

/// The present date as `YYYY.MM.DD`, UTC (days to civil date, Howard Hinnant's method).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Reads the server's last move (`pretty`, SAN; or `verbose`, `P/e2-e4`, `o-o`) in `pos`.
fn server_move(pos: &Position, s: &Style12) -> Option<Move> {
    if let Some(san) = &s.pretty_move {
        if let Ok(m) = pos.parse_san_lenient(san) {
            return Some(m);
        }
    }
    let verbose = s.verbose_move.as_deref()?;
    let text = match verbose {
        "o-o" | "O-O" => return pos.parse_san_lenient("O-O").ok(),
        "o-o-o" | "O-O-O" => return pos.parse_san_lenient("O-O-O").ok(),
        v => v.split_once('/').map_or(v, |(_, m)| m),
    };
    let (coords, promo) = match text.split_once('=') {
        Some((c, p)) => (c, p.to_ascii_lowercase()),
        None => (text, String::new()),
    };
    pos.parse_uci(&format!("{}{promo}", coords.replace('-', "")))
        .ok()
}

impl GameRecord {
    /// A game from its first board (and the `Creating:` line seen before it, if any).
    pub fn start(s: &Style12, us: Color, creating: Option<&Creating>) -> Result<Self, String> {
        let start = s.position()?;
        let same_players = |c: &&Creating| {
            c.white.eq_ignore_ascii_case(&s.white) && c.black.eq_ignore_ascii_case(&s.black)
        };
        let c = creating.filter(same_players);
        Ok(GameRecord {
            number: s.game,
            white: s.white.clone(),
            black: s.black.clone(),
            white_elo: c.and_then(|c| c.white_rating),
            black_elo: c.and_then(|c| c.black_rating),
            rated: c.is_some_and(|c| c.rated),
            category: c.map_or_else(String::new, |c| c.category.clone()),
            minutes: s.initial_min,
            increment: s.increment_s,
            us,
            start,
            moves: Vec::new(),
            clocks: Vec::new(),
            notes: Vec::new(),
            date: today(),
        })
    }

    /// The position after the moves.
    pub fn position(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.make(m);
        }
        pos
    }

    /// Whether `s` is a board of this game (same players).
    pub fn is_game_of(&self, s: &Style12) -> bool {
        self.white.eq_ignore_ascii_case(&s.white) && self.black.eq_ignore_ascii_case(&s.black)
    }

    /// Fits a board of this game to the record (see [`BoardFit`]).
    pub fn follow(&mut self, s: &Style12) -> BoardFit {
        self.number = s.game;
        let pos = self.position();
        if s.same_board(&pos) {
            return BoardFit::Same;
        }
        if let Some(m) = server_move(&pos, s) {
            let mut after = pos.clone();
            after.make(m);
            if s.same_board(&after) {
                self.moves.push(m);
                self.clocks.push(Some(s.clock_ms(pos.turn())));
                return BoardFit::Moved(m);
            }
        }
        let note = format!(
            "the server's board ({}) does not follow from ours ({}); resynchronised",
            s.fen(),
            pos.fen()
        );
        match s.position() {
            Ok(p) => {
                self.start = p;
                self.moves.clear();
                self.clocks.clear();
                self.notes.push(note.clone());
                BoardFit::Resynced(note)
            }
            // An impossible board: keep ours and say so.
            Err(e) => BoardFit::Resynced(format!("{note} failed: {e}")),
        }
    }

    /// The game as a PGN tree with the server's tags and clock comments.
    pub fn tree(&self, site: &str, result: GameResult, reason: &str) -> GameTree {
        let mut tree = GameTree::new(self.start.clone());
        let rated = if self.rated { "rated" } else { "unrated" };
        let category = if self.category.is_empty() {
            String::new()
        } else {
            format!(" {}", self.category)
        };
        let t = &mut tree.tags;
        t.set("Event", &format!("ICS {rated}{category} game"));
        t.set("Site", site);
        t.set("Date", &self.date);
        t.set("Round", "-");
        t.set("White", &self.white);
        t.set("Black", &self.black);
        t.set("Result", result.as_str());
        if let Some(e) = self.white_elo {
            t.set("WhiteElo", &e.to_string());
        }
        if let Some(e) = self.black_elo {
            t.set("BlackElo", &e.to_string());
        }
        t.set(
            "TimeControl",
            &format!("{}+{}", self.minutes * 60, self.increment),
        );
        if !reason.is_empty() {
            t.set("Termination", reason);
        }
        if self.start.fen() != STARTPOS_FEN {
            t.set("SetUp", "1");
            t.set("FEN", &self.start.fen());
        }
        tree.root.comments = self.notes.clone();
        let mut pos = self.start.clone();
        for (i, &m) in self.moves.iter().enumerate() {
            tree.push(&pos, m);
            if let Some(Some(ms)) = self.clocks.get(i) {
                let s = (ms.max(&0) / 1000) as u64;
                let clk = format!("[%clk {}:{:02}:{:02}]", s / 3600, s / 60 % 60, s % 60);
                if let Some(node) = tree.root.moves.last_mut() {
                    node.comments.push(clk);
                }
            }
            pos.make(m);
        }
        tree.result = Some(result);
        tree
    }

    /// Appends the game's PGN to `path` (created if need be) and flushes it to disk.
    pub fn append_pgn(
        &self,
        path: &Path,
        site: &str,
        result: GameResult,
        reason: &str,
    ) -> std::io::Result<()> {
        let text = PgnWriter::default().write(&self.tree(site, result, reason));
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        f.write_all(text.as_bytes())?;
        f.sync_data()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::style12::ClockUnit;

    fn board(fen_rows: &str, rest: &str) -> Style12 {
        Style12::parse(&format!("<12> {fen_rows} {rest}"), ClockUnit::Seconds).unwrap()
    }

    #[test]
    fn follows_moves_and_resyncs() {
        let first = board(
            "rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR",
            "W -1 1 1 1 1 0 5 Sable Ann 1 1 0 39 39 60 60 1 none (0:00) none 0",
        );
        let mut g = GameRecord::start(&first, Color::White, None).unwrap();
        assert_eq!(g.follow(&first), BoardFit::Same);
        let e4 = board(
            "rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR",
            "B 4 1 1 1 1 0 5 Sable Ann -1 1 0 39 39 59 60 1 P/e2-e4 (0:01) e4 0",
        );
        assert!(matches!(g.follow(&e4), BoardFit::Moved(_)));
        // A board with a move that is not the one shown: resync.
        let odd = board(
            "rnbqkbnr pppppppp -------- -------- -------- ----P--- PPPP-PPP RNBQKBNR",
            "B -1 1 1 1 1 0 5 Sable Ann -1 1 0 39 39 59 60 1 P/e2-e3 (0:01) e3 0",
        );
        assert!(matches!(g.follow(&odd), BoardFit::Resynced(_)));
        assert!(g.moves.is_empty());
        let pgn = g.tree("ics.example", GameResult::Draw, "x").to_pgn();
        assert!(pgn.contains("[FEN \""), "{pgn}");
    }

    #[test]
    fn today_is_a_date() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
