//! Parsing of the UCI commands that take arguments: `position`, `go` and `setoption`.
//! Parsing only: checking moves and positions is the engine's business.

use sable_chess::{Color, Position};
use sable_engine::{Clock, SearchLimits};

/// `position [startpos | fen F...] [moves M...]`.
#[derive(Debug, PartialEq, Eq)]
pub struct PositionCommand<'a> {
    pub fen: Option<String>,
    pub moves: Vec<&'a str>,
}

pub fn parse_position<'a>(args: &[&'a str]) -> Result<PositionCommand<'a>, String> {
    let (fen, rest) = match args.first() {
        Some(&"startpos") => (None, &args[1..]),
        Some(&"fen") => {
            let end = args
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(args.len());
            if end == 1 {
                return Err("'fen' must be followed by a FEN".to_string());
            }
            (Some(args[1..end].join(" ")), &args[end..])
        }
        Some(other) => return Err(format!("expected 'startpos' or 'fen', got '{other}'")),
        None => return Err("expected 'startpos' or 'fen'".to_string()),
    };
    let moves = match rest.split_first() {
        None => vec![],
        Some((&"moves", ms)) => ms.to_vec(),
        Some((other, _)) => return Err(format!("expected 'moves', got '{other}'")),
    };
    Ok(PositionCommand { fen, moves })
}

/// What `go` asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum GoCommand {
    /// A search, with notes on ignored parts (to report as `info string`).
    Search(SearchLimits, Vec<String>),
    Perft(u32),
}

const GO_KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// A whole number for `key`, clamped into `T`'s range: GUIs and scripts send absurd
/// values, and a `go` must still end in a `bestmove`. `None` (with a note) when the text
/// is not a number at all or is negative.
fn number<T: TryFrom<u128> + Bounded>(
    key: &str,
    value: Option<&&str>,
    notes: &mut Vec<String>,
) -> Option<T> {
    let Some(v) = value else {
        notes.push(format!("'{key}' needs a value; ignored"));
        return None;
    };
    match v.parse::<i128>() {
        Ok(n) if n < 0 => {
            notes.push(format!("'{key}' cannot be negative, got '{v}'; ignored"));
            None
        }
        Ok(n) => Some(T::try_from(n as u128).unwrap_or(T::MAX)),
        // Beyond i128: all digits, so simply huge.
        Err(_) if v.bytes().all(|b| b.is_ascii_digit()) => Some(T::MAX),
        Err(_) => {
            notes.push(format!("'{key}' needs a whole number, got '{v}'; ignored"));
            None
        }
    }
}

/// The largest value of a number type, for clamping.
trait Bounded {
    const MAX: Self;
}
impl Bounded for u32 {
    const MAX: u32 = u32::MAX;
}
impl Bounded for u64 {
    const MAX: u64 = u64::MAX;
}

/// Milliseconds; GUIs may send negative clock times once the flag has fallen (0), and
/// absurdly large ones (clamped).
fn millis(key: &str, value: Option<&&str>, notes: &mut Vec<String>) -> Option<u64> {
    let Some(v) = value else {
        notes.push(format!("'{key}' needs a value; ignored"));
        return None;
    };
    match v.parse::<i128>() {
        Ok(ms) => Some(ms.clamp(0, u64::MAX as i128) as u64),
        Err(_)
            if v.strip_prefix('-')
                .unwrap_or(v)
                .bytes()
                .all(|b| b.is_ascii_digit())
                && !v.is_empty() =>
        {
            Some(if v.starts_with('-') { 0 } else { u64::MAX })
        }
        Err(_) => {
            notes.push(format!(
                "'{key}' needs a number of milliseconds, got '{v}'; ignored"
            ));
            None
        }
    }
}

pub fn parse_go(args: &[&str], pos: &Position) -> Result<GoCommand, String> {
    let mut limits = SearchLimits::default();
    let mut notes = vec![];
    let mut clocks: [Clock; 2] = [Clock::default(); 2];
    let mut has_clock = [false; 2];
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let value = args.get(i + 1);
        i += 2;
        match key {
            "wtime" | "btime" => {
                let side = if key == "wtime" {
                    Color::White
                } else {
                    Color::Black
                };
                if let Some(ms) = millis(key, value, &mut notes) {
                    clocks[side.index()].time_ms = ms;
                    has_clock[side.index()] = true;
                }
            }
            "winc" | "binc" => {
                let side = if key == "winc" {
                    Color::White
                } else {
                    Color::Black
                };
                if let Some(ms) = millis(key, value, &mut notes) {
                    clocks[side.index()].inc_ms = ms;
                }
            }
            "movestogo" => limits.moves_to_go = number(key, value, &mut notes),
            "depth" => limits.depth = number(key, value, &mut notes),
            "nodes" => limits.nodes = number(key, value, &mut notes),
            "mate" => limits.mate = number(key, value, &mut notes),
            "movetime" => limits.movetime_ms = millis(key, value, &mut notes),
            "perft" => {
                return match number(key, value, &mut notes) {
                    Some(d) => Ok(GoCommand::Perft(d)),
                    None => Err(notes.join("; ")),
                }
            }
            "infinite" => {
                limits.infinite = true;
                i -= 1;
            }
            "ponder" => {
                limits.ponder = true;
                i -= 1;
            }
            "searchmoves" => {
                i -= 1;
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    match pos.parse_uci(args[i]) {
                        Ok(m) => limits.search_moves.push(m),
                        Err(e) => notes.push(format!("searchmoves: {e}; ignored")),
                    }
                    i += 1;
                }
            }
            other => {
                // Unknown words are skipped one at a time, as Stockfish does.
                notes.push(format!("unknown parameter '{other}'; ignored"));
                i -= 1;
            }
        }
    }
    for c in [Color::White, Color::Black] {
        if has_clock[c.index()] {
            limits.clocks[c.index()] = Some(clocks[c.index()]);
        }
    }
    if limits.mate == Some(0) {
        notes.push("'mate' needs at least 1; ignored".to_string());
        limits.mate = None;
    }
    if limits.moves_to_go == Some(0) {
        limits.moves_to_go = None;
    }
    if limits.depth == Some(0) {
        limits.depth = Some(1);
    }
    Ok(GoCommand::Search(limits, notes))
}

/// `setoption name N... [value V...]`: the name and the value as written.
pub fn parse_setoption(args: &[&str]) -> Result<(String, Option<String>), String> {
    if args.first() != Some(&"name") {
        return Err("expected 'name'".to_string());
    }
    let value_at = args.iter().position(|&t| t == "value");
    let name_end = value_at.unwrap_or(args.len());
    if name_end <= 1 {
        return Err("missing option name".to_string());
    }
    let name = args[1..name_end].join(" ");
    let value = value_at.map(|v| args[v + 1..].join(" "));
    Ok((name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_forms() {
        let p = parse_position(&["startpos"]).unwrap();
        assert_eq!(p.fen, None);
        assert!(p.moves.is_empty());
        let p = parse_position(&["startpos", "moves", "e2e4", "e7e5"]).unwrap();
        assert_eq!(p.moves, vec!["e2e4", "e7e5"]);
        let p = parse_position(
            &"fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2"
                .split(' ')
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!(p.fen.as_deref(), Some("8/8/8/8/8/8/8/K6k w - - 0 1"));
        assert_eq!(p.moves, vec!["a1a2"]);
        assert!(parse_position(&["fen"]).is_err());
        assert!(parse_position(&["startpos", "e2e4"]).is_err());
        assert!(parse_position(&["banana"]).is_err());
        assert!(parse_position(&[]).is_err());
    }

    #[test]
    fn go_forms() {
        let pos = Position::startpos();
        let args: Vec<&str> = "wtime 1000 btime -5 winc 10 binc 0 movestogo 3"
            .split(' ')
            .collect();
        let GoCommand::Search(l, _) = parse_go(&args, &pos).unwrap() else {
            panic!()
        };
        assert_eq!(
            l.clocks[0],
            Some(Clock {
                time_ms: 1000,
                inc_ms: 10
            })
        );
        assert_eq!(
            l.clocks[1],
            Some(Clock {
                time_ms: 0,
                inc_ms: 0
            })
        );
        assert_eq!(l.moves_to_go, Some(3));
        let args: Vec<&str> = "infinite searchmoves e2e4 d2d4 zz depth 4"
            .split(' ')
            .collect();
        let GoCommand::Search(l, notes) = parse_go(&args, &pos).unwrap() else {
            panic!()
        };
        assert!(l.infinite);
        assert_eq!(l.search_moves.len(), 2);
        assert_eq!(notes.len(), 1);
        assert_eq!(l.depth, Some(4));
        assert_eq!(
            parse_go(&["perft", "3"], &pos).unwrap(),
            GoCommand::Perft(3)
        );
        // Bad parts are dropped with a note; the search still runs (every go ends in a
        // bestmove).
        for bad in [
            &["depth"][..],
            &["depth", "x"],
            &["nodes", "-1"],
            &["sideways"],
        ] {
            let GoCommand::Search(l, notes) = parse_go(bad, &pos).unwrap() else {
                panic!("{bad:?}")
            };
            assert_eq!(notes.len(), 1, "{bad:?}");
            assert_eq!((l.depth, l.nodes), (None, None), "{bad:?}");
        }
        // Huge values saturate instead of failing.
        let GoCommand::Search(l, notes) = parse_go(
            &["nodes", "99999999999999999999999999999999999999999"],
            &pos,
        )
        .unwrap() else {
            panic!()
        };
        assert!(notes.is_empty());
        assert_eq!(l.nodes, Some(u64::MAX));
        assert!(parse_go(&["perft", "x"], &pos).is_err());
    }

    #[test]
    fn setoption_forms() {
        assert_eq!(
            parse_setoption(&["name", "Move", "Overhead", "value", "30"]).unwrap(),
            ("Move Overhead".to_string(), Some("30".to_string()))
        );
        assert_eq!(
            parse_setoption(&["name", "Clear", "Hash"]).unwrap(),
            ("Clear Hash".to_string(), None)
        );
        assert!(parse_setoption(&["Hash", "value", "3"]).is_err());
        assert!(parse_setoption(&["name", "value", "3"]).is_err());
    }
}
