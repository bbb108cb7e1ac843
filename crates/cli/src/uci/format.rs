//! UCI text for the engine's options and reports.

use sable_engine::book::{BOOK_DEPTH, BOOK_MIN_WEIGHT};
use sable_engine::{technique, Bound, Engine, EngineOptions, ScoreReport, SearchEvent};
use sable_engine::{BookMode, HASH_MB, MOVE_OVERHEAD_MS, MULTI_PV, THREADS};
use std::fmt::Write;

/// The `option` lines answering `uci`.
pub fn option_lines() -> Vec<String> {
    let mut lines = vec![
        format!(
            "option name Hash type spin default {} min {} max {}",
            HASH_MB.1, HASH_MB.0, HASH_MB.2
        ),
        format!(
            "option name Threads type spin default {} min {} max {}",
            THREADS.1, THREADS.0, THREADS.2
        ),
        format!(
            "option name MultiPV type spin default {} min {} max {}",
            MULTI_PV.1, MULTI_PV.0, MULTI_PV.2
        ),
        "option name Ponder type check default false".to_string(),
        format!(
            "option name Move Overhead type spin default {} min {} max {}",
            MOVE_OVERHEAD_MS.1, MOVE_OVERHEAD_MS.0, MOVE_OVERHEAD_MS.2
        ),
        "option name Clear Hash type button".to_string(),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name UCI_ShowWDL type check default false".to_string(),
        "option name OwnBook type check default false".to_string(),
        "option name BookFile type string default <empty>".to_string(),
        format!(
            "option name BookDepth type spin default {} min {} max {}",
            BOOK_DEPTH.1, BOOK_DEPTH.0, BOOK_DEPTH.2
        ),
        format!(
            "option name BookMode type combo default {} var best var weighted",
            BookMode::default().name()
        ),
        format!(
            "option name BookMinWeight type spin default {} min {} max {}",
            BOOK_MIN_WEIGHT.1, BOOK_MIN_WEIGHT.0, BOOK_MIN_WEIGHT.2
        ),
        "option name BookLearning type check default false".to_string(),
        format!(
            "option name UseNNUE type check default {}",
            EngineOptions::default().use_nnue
        ),
        "option name EvalFile type string default <default>".to_string(),
    ];
    lines.extend(crate::options::announced().map(|(n, k)| crate::options::uci_line(n, k)));
    if technique::SWITCHABLE {
        lines.push("option name Ablate type string default <empty>".to_string());
    }
    lines
}

fn spin(name: &str, value: Option<&str>) -> Result<i64, String> {
    let v = value.ok_or_else(|| format!("{name} needs a value"))?;
    v.trim()
        .parse()
        .map_err(|_| format!("{name} needs a whole number, got '{v}'"))
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!("{name} needs 'true' or 'false'")),
    }
}

/// Applies one `setoption` to the engine.
pub fn apply_option(engine: &mut Engine, name: &str, value: Option<&str>) -> Result<(), String> {
    let e = |r: Result<(), sable_engine::EngineError>| r.map_err(|e| e.to_string());
    match name.to_ascii_lowercase().as_str() {
        "hash" => e(engine.set_hash_mb(spin("Hash", value)?)),
        "threads" => e(engine.set_threads(spin("Threads", value)?)),
        "multipv" => e(engine.set_multipv(spin("MultiPV", value)?)),
        "move overhead" => e(engine.set_move_overhead(spin("Move Overhead", value)?)),
        "clear hash" => e(engine.clear_hash()),
        "ponder" => {
            engine.set_ponder(check("Ponder", value)?);
            Ok(())
        }
        "uci_chess960" => e(engine.set_chess960(check("UCI_Chess960", value)?)),
        "uci_showwdl" => {
            engine.set_show_wdl(check("UCI_ShowWDL", value)?);
            Ok(())
        }
        "ownbook" => {
            engine.set_own_book(check("OwnBook", value)?);
            Ok(())
        }
        "bookfile" => engine
            .set_book_file(value.unwrap_or(""))
            .map_err(|e| format!("error: BookFile: {e}; playing without a book")),
        "bookdepth" => e(engine.set_book_depth(spin("BookDepth", value)?)),
        "bookmode" => {
            let v = value.unwrap_or("");
            let mode = BookMode::parse(v)
                .ok_or_else(|| format!("BookMode must be best or weighted, got '{v}'"))?;
            engine.set_book_mode(mode);
            Ok(())
        }
        "bookminweight" => e(engine.set_book_min_weight(spin("BookMinWeight", value)?)),
        "booklearning" => {
            engine.set_book_learning(check("BookLearning", value)?);
            Ok(())
        }
        "usennue" => e(engine.set_use_nnue(check("UseNNUE", value)?)),
        "evalfile" => e(engine.set_eval_file(value.unwrap_or(""))),
        "ablate" if technique::SWITCHABLE => {
            let text = value.unwrap_or("").trim();
            let text = if text == "<empty>" { "" } else { text };
            technique::set_disabled(technique::parse_mask(text)?);
            Ok(())
        }
        _ => Err(format!("no option named '{name}'")),
    }
}

/// The UCI lines for one search event.
pub fn event_lines(event: &SearchEvent, chess960: bool, show_wdl: bool) -> Vec<String> {
    match event {
        SearchEvent::Info(i) => {
            let mut s = format!(
                "info depth {} seldepth {} multipv {} score ",
                i.depth, i.seldepth, i.multipv
            );
            match i.score {
                ScoreReport::Cp(cp) => write!(s, "cp {cp}"),
                ScoreReport::Mate(n) => write!(s, "mate {n}"),
            }
            .expect("write to String");
            match i.bound {
                Bound::Exact => {}
                Bound::Lower => s.push_str(" lowerbound"),
                Bound::Upper => s.push_str(" upperbound"),
            }
            if show_wdl {
                let _ = write!(s, " wdl {} {} {}", i.wdl.win, i.wdl.draw, i.wdl.loss);
            }
            let _ = write!(
                s,
                " nodes {} nps {} hashfull {} tbhits {} time {}",
                i.nodes,
                i.nps,
                i.hashfull,
                i.tbhits,
                i.time.as_millis()
            );
            if !i.pv.is_empty() {
                s.push_str(" pv");
                for m in &i.pv {
                    let _ = write!(s, " {}", m.to_uci(chess960));
                }
            }
            vec![s]
        }
        SearchEvent::CurrMove { depth, mv, number } => vec![format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            mv.to_uci(chess960)
        )],
        SearchEvent::Note(text) => vec![format!("info string {}", text.replace('\n', " "))],
        SearchEvent::Finished(r) => {
            let line = match (r.best, r.ponder) {
                (Some(b), Some(p)) => {
                    format!(
                        "bestmove {} ponder {}",
                        b.to_uci(chess960),
                        p.to_uci(chess960)
                    )
                }
                (Some(b), None) => format!("bestmove {}", b.to_uci(chess960)),
                (None, _) => "bestmove 0000".to_string(),
            };
            vec![line]
        }
    }
}
