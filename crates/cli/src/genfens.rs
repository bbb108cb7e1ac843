//! `genfens N seed S book <None|FILE> [extra...]`: the openings OpenBench's client asks
//! an engine for before a data-generation (or genfens-book) workload. The client runs
//! `ENGINE "genfens N seed S book B" "quit"` and reads the lines `info string genfens
//! FEN`; it splits the work over processes with different seeds.
//!
//! Each opening is a few random legal plies from the start position (8 or 9, so both
//! sides get to move first) or from a random position of the book (2 to 4 plies; EPD or
//! FEN lines, or the end of each PGN game's moves), kept only when it is new, the game
//! is not over, and a short search of a fresh engine (fixed nodes, one thread) scores it
//! within [`MAX_SCORE`] centipawns: a playable, not lopsided, start. Everything follows
//! from the seed: the same command gives the same lines.
//!
//! A book named like OpenBench's FRC/DFRC books (`FRC` or `960` in the name) is read as
//! Chess960, and so is the search.

use sable_arena::openings::{read_epd_line, read_pgn_game, split_pgn};
use sable_arena::rng::splitmix;
use sable_chess::{CastlingMode, Position};
use sable_engine::{Engine, ScoreReport, SearchLimits};
use std::collections::HashSet;

/// Nodes of the verification search of each candidate.
pub const VERIFY_NODES: u64 = 5_000;
/// Candidates scoring beyond this (centipawns, either side) are dropped.
pub const MAX_SCORE: i32 = 300;
/// At most this many openings per command.
pub const MAX_COUNT: usize = 1_000_000;

/// A parsed `genfens` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub count: usize,
    pub seed: u64,
    /// The book file; `None` for the start position.
    pub book: Option<String>,
    /// Words after the book (OpenBench's per-engine `genfens_args`), ignored.
    pub extra: Vec<String>,
}

const USAGE: &str = "expected 'genfens N seed S book <None|FILE>'";

/// Reads the words after `genfens`.
pub fn parse(args: &[&str]) -> Result<Request, String> {
    let got = args.join(" ");
    let [count, seed_kw, seed, book_kw, book, extra @ ..] = args else {
        return Err(format!("genfens: {USAGE}, got 'genfens {got}'"));
    };
    if *seed_kw != "seed" || *book_kw != "book" {
        return Err(format!("genfens: {USAGE}, got 'genfens {got}'"));
    }
    let count: usize = count
        .parse()
        .ok()
        .filter(|n| (1..=MAX_COUNT).contains(n))
        .ok_or_else(|| {
            format!("genfens: N must be a whole number from 1 to {MAX_COUNT}, got '{count}'")
        })?;
    // OpenBench's seeds are non-negative; a negative one is taken as its two's complement.
    let seed = seed
        .parse::<u64>()
        .or_else(|_| seed.parse::<i64>().map(|s| s as u64))
        .map_err(|_| format!("genfens: the seed must be a whole number, got '{seed}'"))?;
    let book = (!book.eq_ignore_ascii_case("none")).then(|| book.to_string());
    Ok(Request {
        count,
        seed,
        book,
        extra: extra.iter().map(|s| s.to_string()).collect(),
    })
}

/// The positions openings start from.
struct Book {
    file: String,
    pgn: bool,
    chess960: bool,
    /// Each entry's text and the line it starts on.
    entries: Vec<(usize, String)>,
}

impl Book {
    fn open(file: &str) -> Result<Book, String> {
        let text =
            std::fs::read_to_string(file).map_err(|e| format!("genfens: book '{file}': {e}"))?;
        let pgn = file.to_ascii_lowercase().ends_with(".pgn");
        let entries: Vec<(usize, String)> = if pgn {
            split_pgn(&text)
        } else {
            text.lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .map(|(n, l)| (n + 1, l.to_string()))
                .collect()
        };
        if entries.is_empty() {
            return Err(format!("genfens: book '{file}' holds no positions"));
        }
        let upper = std::path::Path::new(file)
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().to_ascii_uppercase());
        Ok(Book {
            file: file.to_string(),
            pgn,
            chess960: upper.contains("FRC") || upper.contains("960"),
            entries,
        })
    }

    /// Entry `i`'s position, or why it cannot be read (file and line named).
    fn position(&self, i: usize) -> Result<Position, String> {
        let (line, text) = &self.entries[i];
        let read = if self.pgn {
            read_pgn_game(text, self.chess960).map(|o| {
                let mut pos = o.start;
                for m in o.moves {
                    pos.make(m);
                }
                pos
            })
        } else {
            read_epd_line(text, self.chess960)
        };
        read.map_err(|why| format!("genfens: book '{}' line {line}: {why}", self.file))
    }
}

/// Generates the openings of `req`, handing each FEN to `emit` as it is found, and
/// notes (skipped book entries) to `note`. Fails, after emitting what it found, when the
/// book cannot be read or too many candidates in a row are refused.
pub fn generate(
    req: &Request,
    mut emit: impl FnMut(&str),
    mut note: impl FnMut(&str),
) -> Result<(), String> {
    let book = req.book.as_deref().map(Book::open).transpose()?;
    let chess960 = book.as_ref().is_some_and(|b| b.chess960);
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let start = Position::from_fen(sable_chess::STARTPOS_FEN, mode).expect("start position");
    // A fresh engine of its own: the session's options (threads, hash) do not change
    // which openings a seed gives.
    let mut engine = Engine::new();
    let failed = |e: sable_engine::EngineError| format!("genfens: {e}");
    engine.set_hash_mb(4).map_err(failed)?;
    engine.set_chess960(chess960).map_err(failed)?;

    let mut rng = req.seed ^ 0x6765_6e66_656e_7321;
    let mut seen = HashSet::new();
    let mut found = 0;
    let mut bad_entries = 0usize;
    // Generous: from the start position about nine candidates in ten pass.
    let max_tries = req.count.saturating_mul(50).saturating_add(1_000);
    let mut tries = 0;
    while found < req.count {
        tries += 1;
        if tries > max_tries {
            return Err(format!(
                "genfens: only {found} of {} distinct playable openings after {max_tries} tries{}",
                req.count,
                match &req.book {
                    Some(b) => format!(" (book '{b}' too small or too lopsided?)"),
                    None => String::new(),
                }
            ));
        }
        let (mut pos, plies) = match &book {
            Some(b) => {
                let i = (splitmix(&mut rng) % b.entries.len() as u64) as usize;
                match b.position(i) {
                    Ok(p) => (p, 2 + splitmix(&mut rng) % 3),
                    Err(e) => {
                        bad_entries += 1;
                        if bad_entries <= 5 {
                            note(&format!("{e} (skipped)"));
                        }
                        continue;
                    }
                }
            }
            None => (start.clone(), 8 + splitmix(&mut rng) % 2),
        };
        if !random_plies(&mut pos, plies, &mut rng) || !seen.insert(pos.key()) {
            continue;
        }
        let fen = pos.fen();
        if playable(&mut engine, &fen)? {
            emit(&fen);
            found += 1;
        }
    }
    Ok(())
}

/// Plays `plies` random legal moves; `false` when the game ends on the way or after.
fn random_plies(pos: &mut Position, plies: u64, rng: &mut u64) -> bool {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return false;
        }
        let m = moves.as_slice()[(splitmix(rng) % moves.len() as u64) as usize];
        pos.make(m);
    }
    !pos.legal_moves().is_empty() && !pos.is_insufficient_material() && pos.halfmoves() < 100
}

/// Whether a short search from a fresh table scores `fen` within [`MAX_SCORE`].
fn playable(engine: &mut Engine, fen: &str) -> Result<bool, String> {
    let failed = |e: sable_engine::EngineError| format!("genfens: {e}");
    engine.new_game().map_err(failed)?;
    engine.set_position(Some(fen), &[]).map_err(failed)?;
    let limits = SearchLimits {
        nodes: Some(VERIFY_NODES),
        ..SearchLimits::default()
    };
    let result = engine.search_quietly(limits).map_err(failed)?;
    Ok(match result.score {
        ScoreReport::Cp(cp) => cp.abs() <= MAX_SCORE,
        ScoreReport::Mate(_) => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_and_bad_ones_are_named() {
        let r = parse(&["8", "seed", "42", "book", "None"]).unwrap();
        assert_eq!((r.count, r.seed, r.book), (8, 42, None));
        let r = parse(&["3", "seed", "7", "book", "Books/x.epd", "extra"]).unwrap();
        assert_eq!(r.book.as_deref(), Some("Books/x.epd"));
        assert_eq!(r.extra, ["extra"]);
        for bad in [
            &["8", "seed", "42"][..],
            &["x", "seed", "1", "book", "None"],
            &["0", "seed", "1", "book", "None"],
            &["8", "sead", "1", "book", "None"],
            &["8", "seed", "one", "book", "None"],
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.starts_with("genfens: "), "{e}");
        }
        assert!(parse(&["8", "seed", "one", "book", "None"])
            .unwrap_err()
            .contains("'one'"));
    }
}
