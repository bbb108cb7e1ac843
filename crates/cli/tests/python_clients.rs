//! python-chess's XBoard and UCI clients drive Sable (`tests/python_clients.py` at the
//! repository root): moves, clocks, depth limits, takebacks, analysis, mate scores,
//! pondering and Chess960, all checked by python-chess's own rules. Ignored unless asked
//! for (`cargo test -- --include-ignored`, with python3 and `pip install chess`, as
//! .ci/run does); asked for without them, it fails.

use std::path::PathBuf;
use std::process::Command;

#[test]
#[ignore = "needs python-chess"]
fn python_chess_xboard_and_uci_clients() {
    let has_chess = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .map(|o| o.status.success());
    match has_chess {
        Err(e) => panic!("no python3 ({e}); install python3 and python-chess (pip install chess)"),
        Ok(false) => panic!("python3 has no chess module (pip install chess)"),
        Ok(true) => {}
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/python_clients.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_sable"))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "python-chess clients failed\n{stdout}\n{stderr}"
    );
    for line in ["xboard: ok", "uci : ok", "uci uci: ok", "all ok"] {
        assert!(stdout.contains(line), "missing '{line}' in\n{stdout}");
    }
}
