//! Arbitrary text as a UCI session: every line goes through the UCI interpreter
//! (`sable::uci::Uci::execute`), as a GUI's lines do, with the engine's output thrown
//! away. Nothing may panic, and the session must end: each `go` is followed by `stop`
//! (which returns once the search has ended and its `bestmove` is out), so a `go
//! infinite` or `go depth 99` costs one short search, and `quit` waits for the rest.
//!
//! Lines that would reach outside the process are left out: the options that open files
//! (`BookFile`, `EvalFile`, `SyzygyPath`; those readers have their own targets) and
//! `Hash` (a large table would trip libFuzzer's memory limit, which is not a bug; the
//! refusal of sizes beyond the machine is tested in the cli's tests).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sable::uci::{Uci, Wire};

/// Whether a line may be run in a fuzzing process (see the module comment).
fn harmless(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    !(words.first() == Some(&"setoption")
        && ["bookfile", "evalfile", "syzygypath", "hash"]
            .iter()
            .any(|o| words.iter().any(|w| w.contains(o))))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut uci = Uci::new(Wire::new(std::io::sink()));
    for line in text.lines().take(64) {
        if !harmless(line) {
            continue;
        }
        if !uci.execute(line) {
            return;
        }
        if line.split_whitespace().next() == Some("go") {
            uci.execute("stop");
        }
    }
    uci.execute("quit");
});
