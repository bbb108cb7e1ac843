//! The Syzygy options, one reading for UCI, xboard and the console: `SyzygyPath`,
//! `SyzygyProbeDepth`, `Syzygy50MoveRule` and `SyzygyProbeLimit` (Stockfish's names),
//! and the line that tells the user what was found.

use crate::options::Kind;
use sable_engine::tablebase::{PROBE_DEPTH, PROBE_LIMIT};
use sable_engine::Engine;

/// The options with their UCI names, for the protocols' option lists.
pub const OPTIONS: [(&str, Kind); 4] = [
    ("SyzygyPath", Kind::Path),
    ("SyzygyProbeDepth", Kind::Spin(PROBE_DEPTH)),
    ("Syzygy50MoveRule", Kind::Check(true)),
    ("SyzygyProbeLimit", Kind::Spin(PROBE_LIMIT)),
];

/// Sets the Syzygy option `key` (any case, spaces ignored). `None` when `key` is not
/// one of them; else the lines to show (what was found, what was left out) or why the
/// value was refused (the engine keeps its previous setting).
pub fn set_option(
    engine: &mut Engine,
    key: &str,
    value: &str,
) -> Option<Result<Vec<String>, String>> {
    let key = crate::options::option_key(key);
    let value = value.trim();
    let number = || {
        value
            .parse::<i64>()
            .map_err(|_| format!("{key} needs a whole number, got '{value}'"))
    };
    let result = match key.as_str() {
        "syzygypath" => engine
            .set_syzygy_path(value)
            .map(|notes| {
                let mut lines = vec![status(engine)];
                lines.extend(notes);
                lines
            })
            .map_err(|e| e.to_string()),
        "syzygyprobedepth" => number().and_then(|n| {
            engine
                .set_syzygy_probe_depth(n)
                .map(|_| Vec::new())
                .map_err(|e| e.to_string())
        }),
        "syzygyprobelimit" => number().and_then(|n| {
            engine
                .set_syzygy_probe_limit(n)
                .map(|_| Vec::new())
                .map_err(|e| e.to_string())
        }),
        "syzygy50moverule" => match value.to_ascii_lowercase().as_str() {
            "true" | "on" | "1" => Ok(true),
            "false" | "off" | "0" => Ok(false),
            _ => Err(format!(
                "Syzygy50MoveRule needs true or false, got '{value}'"
            )),
        }
        .and_then(|on| {
            engine
                .set_syzygy_50_move_rule(on)
                .map(|_| Vec::new())
                .map_err(|e| e.to_string())
        }),
        _ => return None,
    };
    Some(result)
}

/// What the engine probes now, in one line.
pub fn status(engine: &Engine) -> String {
    match engine.tablebases() {
        Some(tb) => format!("Syzygy: {}", tb.summary()),
        None => "Syzygy: no tables".to_string(),
    }
}
