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

/// The path of `sable-fake-engine` (crates/fake-engine), the scripted engine the match
/// runner's tests play against. It is a package of its own so that `cargo install sable`
/// does not install it; cargo does not hand one package's tests another's binaries, so
/// the first call builds it (a no-op when it is up to date) with the profile and target
/// folder that built `sable`, and it lies beside `sable`.
pub fn fake_engine() -> &'static str {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let sable = std::path::Path::new(env!("CARGO_BIN_EXE_sable"));
        let profile_dir = sable.parent().expect("sable's folder");
        let target_dir = profile_dir.parent().expect("the target folder");
        let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") => "dev",
            Some(name) => name,
            None => "release",
        };
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "-p",
                "sable-fake-engine",
                "--profile",
                profile,
            ])
            .arg("--target-dir")
            .arg(target_dir)
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building sable-fake-engine failed");
        let exe = profile_dir.join(format!("sable-fake-engine{}", std::env::consts::EXE_SUFFIX));
        assert!(exe.exists(), "{} was not built", exe.display());
        exe.to_string_lossy().into_owned()
    })
}
