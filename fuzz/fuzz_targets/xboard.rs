//! Arbitrary text as an xboard session: every line goes through the xboard interpreter
//! (`sable::xboard::Xboard`), with the search events it causes handled in between as in
//! the real program, and the output thrown away. Nothing may panic, and the session must
//! end: each line is followed by `?` (move now), so a search started by `go`, a move or
//! a time control ends at once, and a final `quit` stops analysis and pondering.
//!
//! Left out, as in the UCI target: `option` lines for the file options (`BookFile`,
//! `EvalFile`, `SyzygyPath`), `egtpath`, and `memory` (a large table would trip
//! libFuzzer's memory limit).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sable::uci::Wire;
use sable::xboard::{Msg, Xboard};

fn harmless(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let first = lower.split_whitespace().next().unwrap_or("");
    match first {
        "memory" | "egtpath" => false,
        "option" => !["bookfile", "evalfile", "syzygypath"]
            .iter()
            .any(|o| lower.contains(o)),
        _ => true,
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (tx, rx) = std::sync::mpsc::channel();
    let mut xb = Xboard::new(Wire::new(std::io::sink()), tx.clone());
    for line in text.lines().take(64).filter(|l| harmless(l)) {
        let _ = tx.send(Msg::Line(line.to_string()));
        let _ = tx.send(Msg::Line("?".to_string()));
    }
    let _ = tx.send(Msg::Line("quit".to_string()));
    xb.run(rx);
});
