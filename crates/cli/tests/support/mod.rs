//! Helpers shared by the tests that run `sable` tools as a user would. Each test crate
//! uses some of them, so the others are dead code there.
#![allow(dead_code)]

pub mod session;

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

/// The path of a data file (`testdata/` at the repository root, or `$SABLE_DATA`).
pub fn data(rel: &str) -> String {
    sable_testdata::path(rel).to_string_lossy().into_owned()
}
