//! Helpers shared by the tests that run `sable` tools as a user would. Each test crate
//! uses some of them, so the others are dead code there.
#![allow(dead_code)]

pub mod serve;
pub mod session;
pub mod webdriver;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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

/// What a finished (or stopped) run of [`run_with_input`] printed.
pub struct Output {
    /// The exit code; `None` when it was stopped after its timeout or by a signal.
    pub code: Option<i32>,
    pub timed_out: bool,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Output {
    pub fn ok(&self) -> bool {
        self.code == Some(0)
    }

    /// Standard output then standard error.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned() + &String::from_utf8_lossy(&self.stderr)
    }
}

/// Runs `sable ARGS...` with `input` on its standard input (then its end), killed after
/// `timeout` when there is one.
pub fn run_with_input(args: &[&str], input: &str, timeout: Option<Duration>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sable"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sable starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = read_to_end(child.stdout.take().unwrap());
    let err = read_to_end(child.stderr.take().unwrap());
    let deadline = timeout.map(|t| Instant::now() + t);
    let (code, timed_out) = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break (status.code(), false);
        }
        if deadline.is_some_and(|d| Instant::now() > d) {
            let _ = child.kill();
            let _ = child.wait();
            break (None, true);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = feeder.join();
    Output {
        code,
        timed_out,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// A thread that reads `pipe` to its end.
fn read_to_end(mut pipe: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
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

/// Runs `python3 -c SCRIPT ARGS...` with `stdin` as its input (the oracle scripts use
/// python-chess) and returns its standard output; fails the test, naming what is
/// missing, if it does not succeed.
pub fn python(script: &str, args: &[&str], stdin: &str) -> String {
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "python-chess is needed (pip install chess): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
