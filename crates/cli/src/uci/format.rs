//! UCI text for the engine's options and reports.

use sable_engine::{technique, tunables, Bound, Engine, ScoreReport, SearchEvent};
use std::fmt::Write;

/// The `option` lines answering `uci`: the engine's options
/// ([`crate::options::ENGINE_OPTIONS`]), then UCI's own.
pub fn option_lines() -> Vec<String> {
    let mut lines: Vec<String> = crate::options::ENGINE_OPTIONS
        .iter()
        .map(|o| o.uci_line())
        .collect();
    lines.extend([
        "option name Ponder type check default false".to_string(),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name UCI_ShowWDL type check default false".to_string(),
    ]);
    if technique::SWITCHABLE {
        lines.push("option name Ablate type string default <empty>".to_string());
    }
    // The search's constants, by their own names, in the `tune` build only.
    if tunables::ENABLED {
        lines.extend(tunables::TUNABLES.iter().map(|t| t.uci_line()));
    }
    lines
}

/// Applies one `setoption` to the engine: the lines to report (as `info string`), or
/// why the value was refused.
pub fn apply_option(
    engine: &mut Engine,
    name: &str,
    value: Option<&str>,
) -> Result<Vec<String>, String> {
    use crate::options::{check, done};
    let value = value.unwrap_or("");
    match crate::options::option_key(name).as_str() {
        "ponder" => {
            engine.set_ponder(check("Ponder", value)?);
            Ok(Vec::new())
        }
        "uci_chess960" => done(engine.set_chess960(check("UCI_Chess960", value)?)),
        "uci_showwdl" => {
            engine.set_show_wdl(check("UCI_ShowWDL", value)?);
            Ok(Vec::new())
        }
        "ablate" if technique::SWITCHABLE => {
            let text = value.trim();
            let text = if text == "<empty>" { "" } else { text };
            technique::set_disabled(technique::parse_mask(text)?);
            Ok(Vec::new())
        }
        _ => match crate::options::find(name) {
            Some(option) => option.set(engine, value),
            None => match tunables::find(name).filter(|_| tunables::ENABLED) {
                Some(t) => t.set(value).map(|_| Vec::new()),
                None => Err(format!("no option named '{name}'")),
            },
        },
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
