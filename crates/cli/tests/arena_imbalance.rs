//! `sable imbalance` end to end with the scripted fake engine: both runs are played
//! over the requested number of positions (each with side A as White and as Black),
//! the tallies add up, and the answer or a clear calibration failure is printed.

use std::process::Command;

const SABLE: &str = env!("CARGO_BIN_EXE_sable");
mod support;

fn fake() -> &'static str {
    support::fake_engine()
}

fn tally(line: &str) -> u64 {
    // "side A +W =D -L, score ..."
    let part = line
        .split("side A ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    part.split_whitespace()
        .map(|t| t[1..].parse::<u64>().unwrap())
        .sum()
}

#[test]
fn both_runs_are_played_and_reported() {
    let out = Command::new(SABLE)
        .args([
            "imbalance",
            "QR:RBNN",
            "--engine",
            &format!("{} --random 9", fake()),
        ])
        .args([
            "--depth",
            "1",
            "--positions",
            "6",
            "--concurrency",
            "2",
            "--seed",
            "5",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.starts_with("Imbalance QR vs RBNN (sable-fake-engine, depth=1, 6 positions"),
        "{stdout}"
    );
    let set_up = stdout
        .lines()
        .find(|l| l.contains("as set up"))
        .expect("first run");
    let short = stdout
        .lines()
        .find(|l| l.contains("B one pawn short"))
        .expect("second run");
    assert_eq!(tally(set_up), 12, "{stdout}");
    assert_eq!(tally(short), 12, "{stdout}");
    if out.status.success() {
        assert!(stdout.contains("pawns for side A (QR)"), "{stdout}");
    } else {
        assert!(stderr.contains("no calibration"), "{stderr}");
    }
}

#[test]
fn bad_imbalances_are_rejected() {
    let out = Command::new(SABLE)
        .args(["imbalance", "QQ:RR", "--engine", fake(), "--depth", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("more than 1"));
}
