//! PGN output: one game per record, with the engines' scores, depths, times used and
//! clocks as move comments (`{+0.35/12 0.520s [%clk 0:00:09.480]}`), the reason for the
//! end as the last comment, and the `Termination` tag.

use std::fmt::Write as _;

use super::game::GameRecord;
use sable_chess::{CastlingMode, Color, Position, STARTPOS_FEN};

/// The event name written in every game.
pub struct PgnMeta<'a> {
    pub event: &'a str,
    pub site: &'a str,
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A `[%clk h:mm:ss.mmm]` value.
pub fn clock_text(ms: u64) -> String {
    let (h, rest) = (ms / 3_600_000, ms % 3_600_000);
    let (m, rest) = (rest / 60_000, rest % 60_000);
    format!("{h}:{m:02}:{:02}.{:03}", rest / 1000, rest % 1000)
}

/// The game as PGN text, ending with a blank line.
pub fn write_game(g: &GameRecord, meta: &PgnMeta) -> String {
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| {
        let _ = writeln!(out, "[{k} \"{}\"]", escape(v));
    };
    tag("Event", meta.event);
    tag("Site", meta.site);
    tag("Date", &g.date);
    tag("Round", &g.round.to_string());
    tag("White", &g.white_name);
    tag("Black", &g.black_name);
    tag("Result", g.result.pgn());
    if g.chess960 {
        tag("Variant", "Chess960");
    }
    if g.start_fen != STARTPOS_FEN || g.chess960 {
        tag("FEN", &g.start_fen);
        tag("SetUp", "1");
    }
    tag("GameNumber", &g.number.to_string());
    tag("PlyCount", &g.moves.len().to_string());
    tag("Termination", g.termination.tag());
    tag("TimeControl", &g.time_control);
    out.push('\n');

    let mode = if g.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let (mut turn, mut number) = match Position::from_fen(&g.start_fen, mode) {
        Ok(p) => (p.turn(), p.fullmoves()),
        Err(_) => (Color::White, 1),
    };
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in g.moves.iter().enumerate() {
        if turn == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.san.clone());
        if !m.comment.is_empty() {
            tokens.push(format!("{{{}}}", m.comment));
        }
        if turn == Color::Black {
            number = number.saturating_add(1);
        }
        turn = !turn;
    }
    if !g.reason.is_empty() {
        tokens.push(format!("{{{}}}", g.reason));
    }
    tokens.push(g.result.pgn().to_string());

    // Wrap at 80 columns, never inside a token.
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameResult, MoveRecord, Termination};
    use crate::notation::san;

    fn record(start: &str, ucis: &[&str]) -> GameRecord {
        let mut pos = Position::from_fen(start, CastlingMode::Standard).unwrap();
        let mut moves = Vec::new();
        for (i, u) in ucis.iter().enumerate() {
            let m = pos.parse_uci(u).unwrap();
            let comment = if i < 2 {
                "book".to_string()
            } else {
                format!("+0.{i:02}/{i} 0.100s [%clk {}]", clock_text(9_900))
            };
            moves.push(MoveRecord {
                san: san(&pos, m),
                comment,
            });
            pos.make(m);
        }
        GameRecord {
            white: 0,
            black: 1,
            white_name: "Alpha \"A\"".into(),
            black_name: "Beta".into(),
            start_fen: start.into(),
            chess960: false,
            moves,
            result: GameResult::BlackWins,
            termination: Termination::TimeForfeit,
            reason: "White loses on time".into(),
            round: 3,
            number: 5,
            time_control: "10+0.1".into(),
            date: "2026.11.29".into(),
            opening: 0,
        }
    }

    #[test]
    fn clock_format() {
        assert_eq!(clock_text(9_480), "0:00:09.480");
        assert_eq!(clock_text(3_723_004), "1:02:03.004");
    }

    #[test]
    fn game_text() {
        let g = record(STARTPOS_FEN, &["e2e4", "e7e5", "g1f3", "b8c6"]);
        let meta = PgnMeta {
            event: "Test",
            site: "here",
        };
        let text = write_game(&g, &meta);
        let expected = "[Event \"Test\"]\n[Site \"here\"]\n[Date \"2026.11.29\"]\n[Round \"3\"]\n\
[White \"Alpha \\\"A\\\"\"]\n[Black \"Beta\"]\n[Result \"0-1\"]\n[GameNumber \"5\"]\n\
[PlyCount \"4\"]\n[Termination \"time forfeit\"]\n[TimeControl \"10+0.1\"]\n\n\
1. e4 {book} e5 {book} 2. Nf3 {+0.02/2 0.100s [%clk 0:00:09.900]} Nc6\n\
{+0.03/3 0.100s [%clk 0:00:09.900]} {White loses on time} 0-1\n\n";
        assert_eq!(text, expected);
        for line in text.lines() {
            assert!(line.len() <= 80 && !line.ends_with(' '), "{line:?}");
        }
    }

    #[test]
    fn black_to_move_start_has_fen_and_ellipsis() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7";
        let g = record(fen, &["e8d8", "e2e4"]);
        let text = write_game(
            &g,
            &PgnMeta {
                event: "?",
                site: "?",
            },
        );
        assert!(text.contains(&format!("[FEN \"{fen}\"]\n[SetUp \"1\"]")));
        assert!(text.contains("\n7... Kd8 {book} 8. e4 {book}"), "{text}");
    }
}
