//! python-chess's UCI client (an independent implementation of the protocol) drives
//! Sable: handshake and options, analysis with MultiPV, and a short game with clocks,
//! every move checked legal by python-chess. Ignored unless asked for
//! (`cargo test -- --include-ignored`, with `pip install chess`, as .ci/run does).

use std::process::Command;

const SCRIPT: &str = r#"
import sys, chess, chess.engine
path = sys.argv[1]
engine = chess.engine.SimpleEngine.popen_uci(path)
assert engine.id["name"].startswith("Sable"), engine.id
for name in ["Hash", "Threads", "MultiPV", "Move Overhead", "UCI_Chess960", "UCI_ShowWDL"]:
    assert name in engine.options, name
engine.configure({"Hash": 8, "Threads": 2})
board = chess.Board("r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1")
info = engine.analyse(board, chess.engine.Limit(depth=8))
assert info["score"].white() == chess.engine.Mate(2), info["score"]
infos = engine.analyse(chess.Board(), chess.engine.Limit(depth=5), multipv=3)
assert len(infos) == 3 and len({i["pv"][0] for i in infos}) == 3
board = chess.Board()
clock = {chess.WHITE: 2.0, chess.BLACK: 2.0}
while not board.is_game_over() and board.fullmove_number <= 20:
    limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                               white_inc=0.02, black_inc=0.02)
    result = engine.play(board, limit, info=chess.engine.INFO_ALL)
    assert result.move in board.legal_moves, result.move
    clock[board.turn] += 0.02 - result.info.get("time", 0)
    assert clock[board.turn] > 0, "flagged"
    board.push(result.move)
engine.quit()
print("ok", board.fullmove_number)
"#;

#[test]
#[ignore = "needs python-chess"]
fn python_chess_client_plays_and_analyses() {
    let out = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(env!("CARGO_BIN_EXE_sable"))
        .output()
        .expect("python3 runs (install python3 and python-chess: pip install chess)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.starts_with("ok"), "{stdout}");
}
