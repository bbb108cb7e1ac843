//! The Syzygy tables as the front ends report them. The four options (`SyzygyPath`,
//! `SyzygyProbeDepth`, `Syzygy50MoveRule`, `SyzygyProbeLimit`: Stockfish's names) are
//! described with the others in `crate::options`.

use sable_engine::Engine;

/// What the engine probes now, in one line.
pub fn status(engine: &Engine) -> String {
    match engine.tablebases() {
        Some(tb) => format!("Syzygy: {}", tb.summary()),
        None => "Syzygy: no tables".to_string(),
    }
}
