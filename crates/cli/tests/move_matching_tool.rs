//! `tools/move-matching.py` on a few rated games written here: its tables are checked
//! against the positions and answers it writes with `--json`, recomputed independently
//! (the played move of each position replayed by sable_chess, each accuracy and band
//! count counted again), and two copies of one deterministic engine (a node limit) must
//! agree position by position. Ignored unless asked for (needs python-chess).

use sable_chess::{CastlingMode, Position};
use std::path::PathBuf;
use std::process::Command;

const GAMES: &str = r#"[Event "t"]
[WhiteElo "1150"]
[BlackElo "2350"]
[Result "0-1"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Na5 6. Bb5+ c6 7. dxc6 bxc6 8. Be2 h6
9. Nf3 e4 10. Ne5 Bd6 11. d4 exd3 12. Nxd3 Qc7 13. h3 O-O 14. O-O Re8 15. Nc3 Bf5 0-1

[Event "t"]
[WhiteElo "1750"]
[BlackElo "1700"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5
9. Bxe7 Qxe7 10. Nxd5 exd5 11. Rc1 Be6 12. Qa4 c5 13. Qa3 Rc8 14. Bb5 a6 15. dxc5 bxc5
16. O-O Qb7 17. Be2 Nd7 18. Nd4 Qxb2 19. Qxb2 1/2-1/2

[Event "t"]
[WhiteElo "1999"]
[BlackElo "2000"]
[Result "1-0"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6 8. f3 Be7
9. Qd2 O-O 10. O-O-O Nbd7 11. g4 b5 12. g5 b4 13. Ne2 Ne8 14. f4 a5 15. f5 1-0
"#;

#[test]
#[ignore = "needs python-chess"]
fn move_matching_tables_agree_with_its_own_positions() {
    let dir = std::env::temp_dir().join(format!("sable-mm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("rated.pgn");
    let json = dir.join("out.json");
    std::fs::write(&pgn, GAMES).unwrap();
    let tool = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/move-matching.py");
    let sable = env!("CARGO_BIN_EXE_sable");
    let out = Command::new("python3")
        .arg(&tool)
        .args(["--positions", "40", "--nodes", "200", "--seed", "3"])
        .arg(format!("--engine=a={sable}"))
        .arg(format!("--engine=b={sable}"))
        .arg("--json")
        .arg(&json)
        .arg(&pgn)
        .output()
        .expect("python3 runs (with python-chess: pip install chess)");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&json).unwrap();
    let _ = std::fs::remove_dir_all(&dir);

    // The JSON, read with a few string cuts (no JSON crate in the tests).
    let rows: Vec<&str> = text.split("{\"fen\": ").skip(1).collect();
    assert_eq!(rows.len(), 40, "{stdout}");
    let field = |row: &str, key: &str| -> String {
        let at = row.find(&format!("\"{key}\": ")).unwrap() + key.len() + 4;
        let rest = &row[at..];
        let end = rest.find([',', '}']).unwrap();
        rest[..end].trim_matches('"').to_string()
    };
    let (mut hits, mut bands) = (0, std::collections::BTreeMap::new());
    for row in &rows {
        let fen = row[1..row.find("\", ").unwrap()].to_string();
        let pos = Position::from_fen(&fen, CastlingMode::Standard).unwrap();
        let played = field(row, "played");
        assert!(pos.parse_uci(&played).is_ok(), "{played} in {fen}");
        let (a, b) = (field(row, "a"), field(row, "b"));
        assert!(pos.parse_uci(&a).is_ok(), "{a} in {fen}");
        assert_eq!(a, b, "one engine, one node limit: the same move in {fen}");
        hits += usize::from(a == played);
        let rating: i32 = field(row, "rating").parse().unwrap();
        let band = match rating {
            r if r < 1100 => "<1100".to_string(),
            r if r >= 2200 => "2200+".to_string(),
            r => format!("{}-{}", r / 100 * 100, r / 100 * 100 + 99),
        };
        *bands.entry(band).or_insert(0) += 1;
    }
    let accuracy = format!("| a | {hits} / 40 | {:.1}% |", hits as f64 * 100.0 / 40.0);
    assert!(stdout.contains(&accuracy), "want {accuracy} in\n{stdout}");
    for (band, n) in &bands {
        assert!(
            stdout.contains(&format!("| {band} | {n} | ")),
            "band {band} with {n} positions missing in\n{stdout}"
        );
    }
    assert!(
        stdout.contains("| phase | positions | a | b | a - b |"),
        "{stdout}"
    );
    assert!(stdout.contains("a - b = +0.0% ± 0.0%"), "{stdout}");
}
