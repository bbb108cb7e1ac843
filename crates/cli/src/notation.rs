//! The text that the xboard and console front ends read and write on top of the
//! engine's game session: moves in any notation a person or GUI types, xboard's
//! `level` and `st`/`time` figures, and the result line of a finished game. The engine
//! crate speaks no protocol; this is where its words live.

use crate::session::TimeControl;
use sable_chess::{Color, DrawReason, Move, Outcome, Position};

/// Reads a `level` time control: `MPS BASE INC` with BASE in minutes or `min:sec`
/// (trailing characters after the number are ignored, as the protocol asks) and INC in
/// seconds, possibly fractional.
pub fn parse_level(args: &[&str]) -> Result<TimeControl, String> {
    let [mps, base, inc] = args else {
        return Err(format!("level needs 3 values, got {}", args.len()));
    };
    // Absurdly large numbers are taken as the largest (a period of u32::MAX moves, a
    // clock of u64::MAX ms): the arithmetic saturates rather than wraps.
    let moves: u32 = match mps.parse::<u64>() {
        Ok(n) => u32::try_from(n).unwrap_or(u32::MAX),
        Err(_) if !mps.is_empty() && mps.bytes().all(|b| b.is_ascii_digit()) => u32::MAX,
        Err(_) => {
            return Err(format!(
                "moves per period must be a whole number, got '{mps}'"
            ))
        }
    };
    let leading = |s: &str| -> Result<u64, String> {
        let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
        if digits.is_empty() {
            return Err(format!("bad time '{s}' in level"));
        }
        Ok(digits.parse().unwrap_or(u64::MAX))
    };
    let base_ms = match base.split_once(':') {
        Some((m, s)) => leading(m)?
            .saturating_mul(60)
            .saturating_add(leading(s)?)
            .saturating_mul(1000),
        None => leading(base)?.saturating_mul(60_000),
    };
    let inc_ms = parse_seconds(inc)?;
    Ok(TimeControl {
        moves,
        base_ms,
        inc_ms,
    })
}

/// Seconds, whole or fractional, as milliseconds.
pub fn parse_seconds(text: &str) -> Result<u64, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..1e9).contains(&s) => Ok((s * 1000.0).round() as u64),
        _ => Err(format!("expected a number of seconds, got '{text}'")),
    }
}

/// Reads a move as people and GUIs write it: UCI coordinates (either castling form),
/// `O-O`/`O-O-O` (also with zeros), or SAN (leniently: `e8Q`, `Pe4`, missing `x`).
pub fn parse_any_move(pos: &Position, text: &str) -> Result<Move, String> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    if let Ok(m) = pos.parse_uci(t) {
        return Ok(m);
    }
    let castle = match t {
        "O-O" | "0-0" | "o-o" => Some(true),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(false),
        _ => None,
    };
    if let Some(king_side) = castle {
        return pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.is_castle() && (m.to().file() > m.from().file()) == king_side)
            .ok_or_else(|| format!("{text}: castling is not legal here"));
    }
    pos.parse_san_lenient(t).map_err(|e| e.to_string())
}

/// Whether a word looks like a move (rather than an unknown command).
pub fn looks_like_move(text: &str) -> bool {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    if matches!(t, "O-O" | "O-O-O" | "0-0" | "0-0-0" | "@@@@") {
        return true;
    }
    let b = t.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    if b.len() >= 4 && square(b[0], b[1]) && square(b[2], b[3]) {
        return b.len() == 4 || (b.len() == 5 && b"qrbnk".contains(&b[4]));
    }
    // SAN: ends in a square, possibly followed by a promotion.
    let core = t.trim_end_matches(['Q', 'R', 'B', 'N', '=']);
    let c = core.as_bytes();
    c.len() >= 2
        && square(c[c.len() - 2], c[c.len() - 1])
        && c[..c.len() - 2]
            .iter()
            .all(|ch| b"KQRBNPabcdefgh12345678x".contains(ch))
}

/// The result token and the reason, as xboard and PGN comments write them.
pub fn outcome_text(outcome: Outcome) -> (&'static str, &'static str) {
    let reason = match outcome {
        Outcome::Checkmate { winner } => match winner {
            Color::White => "White mates",
            Color::Black => "Black mates",
        },
        Outcome::Draw(r) => match r {
            DrawReason::Stalemate => "Stalemate",
            DrawReason::InsufficientMaterial => "Draw by insufficient material",
            DrawReason::FiftyMoves => "Draw by fifty move rule",
            DrawReason::ThreefoldRepetition => "Draw by repetition",
            DrawReason::FivefoldRepetition => "Draw by fivefold repetition",
            DrawReason::SeventyFiveMoves => "Draw by seventy-five move rule",
        },
    };
    (outcome.result(), reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absurd_levels_saturate() {
        let tc = parse_level(&[
            "99999999999",
            "99999999999:99999999999999999999999",
            "1e300",
        ]);
        assert!(tc.is_err(), "an increment of 1e300 s is refused: {tc:?}");
        let tc = parse_level(&["99999999999", "999999999999999999999999", "5"]).unwrap();
        assert_eq!(
            (tc.moves, tc.base_ms, tc.inc_ms),
            (u32::MAX, u64::MAX, 5000)
        );
    }

    #[test]
    fn levels() {
        assert_eq!(
            parse_level(&["40", "5", "0"]),
            Ok(TimeControl {
                moves: 40,
                base_ms: 300_000,
                inc_ms: 0
            })
        );
        assert_eq!(
            parse_level(&["0", "0:30", "0.5"]),
            Ok(TimeControl {
                moves: 0,
                base_ms: 30_000,
                inc_ms: 500
            })
        );
        assert_eq!(
            parse_level(&["40", "25+5", "0"]).unwrap().base_ms,
            1_500_000
        );
        assert!(parse_level(&["40", "5"]).is_err());
        assert!(parse_level(&["x", "5", "0"]).is_err());
        assert!(parse_level(&["0", "five", "0"]).is_err());
        assert!(parse_level(&["0", "1", "-3"]).is_err());
    }

    #[test]
    fn moves_in_any_notation() {
        let pos = Position::from_fen(
            "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1",
            sable_chess::CastlingMode::Standard,
        )
        .unwrap();
        for (text, uci) in [
            ("e1g1", "e1g1"),
            ("O-O", "e1g1"),
            ("0-0-0", "e1c1"),
            ("b7a8q", "b7a8q"),
            ("bxa8=Q+", "b7a8q"),
            ("Rb1", "a1b1"),
        ] {
            let m = parse_any_move(&pos, text).unwrap();
            assert_eq!(m.to_uci(false).to_string(), uci, "{text}");
        }
        assert!(parse_any_move(&pos, "e2e4").is_err());
        assert!(parse_any_move(&pos, "Nf3").is_err());
        assert!(looks_like_move("e2e4") && looks_like_move("Nf3") && looks_like_move("O-O"));
        assert!(looks_like_move("exd5") && looks_like_move("e8=Q"));
        assert!(!looks_like_move("hello") && !looks_like_move("post") && !looks_like_move("sd"));
    }
}
