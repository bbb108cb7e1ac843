//! Full games of Sable (over xboard) against Fair-Max (Debian `fairymax`) with
//! `sable match`, at a fast time control: every game must end by the rules or by
//! adjudication, with no engine fault (time loss, illegal move, crash, stall: `-strict`).
//! Ignored unless asked for (`cargo test -- --include-ignored`, with fairymax installed,
//! as .ci/run does); asked for without fairymax, it fails.

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "needs fairymax"]
fn games_against_fairymax_over_xboard() {
    let fairymax = "/usr/games/fairymax";
    assert!(
        Path::new(fairymax).exists(),
        "{fairymax} is not installed (apt-get install fairymax)"
    );
    let sable = env!("CARGO_BIN_EXE_sable");
    let pgn = std::env::temp_dir().join(format!("sable-fairymax-{}.pgn", std::process::id()));
    let out = Command::new(sable)
        .args(["match", "-engine"])
        .arg(format!("cmd={sable}"))
        .args(["arg=xboard", "proto=xboard", "name=Sable", "-engine"])
        .arg(format!("cmd={fairymax}"))
        .args(["proto=xboard", "name=Fairy-Max", "-each", "tc=1+0.02"])
        .args([
            "-games",
            "2",
            "-rounds",
            "1",
            "-maxmoves",
            "150",
            "-noprogress",
            "-strict",
            "-pgnout",
        ])
        .arg(&pgn)
        .output()
        .expect("sable match runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Games: 2,"), "{stdout}");
    assert!(
        stdout.contains("Sable: 0 / 0 / 0 / 0"),
        "Sable had faults:\n{stdout}"
    );
    let games = std::fs::read_to_string(&pgn).expect("PGN written");
    let _ = std::fs::remove_file(&pgn);
    assert_eq!(games.matches("[Event ").count(), 2, "{games}");
    // Each game has real moves and a decisive or drawn result.
    for result in games.lines().filter(|l| l.starts_with("[Result ")) {
        assert!(!result.contains('*'), "unfinished game: {result}");
    }
}
