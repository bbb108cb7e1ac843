//! Helpers shared by the tests that run `sable` tools as a user would.

use std::process::Command;

/// Runs `sable ARGS...`; whether it succeeded, and its stdout followed by its stderr.
pub fn sable(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sable"))
        .args(args)
        .output()
        .expect("sable runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// A file under the shared data directory (`SABLE_DATA`, by default `../shared/data`
/// beside the checkout).
pub fn data(rel: &str) -> String {
    let base = std::env::var("SABLE_DATA")
        .unwrap_or_else(|_| format!("{}/../../../shared/data", env!("CARGO_MANIFEST_DIR")));
    format!("{base}/{rel}")
}
