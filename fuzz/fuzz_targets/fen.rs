//! Arbitrary bytes as a FEN, in standard and Chess960 modes, strict and relaxed.
//!
//! Whatever parses must write back the same FEN, read back as the same position, keep
//! every invariant `sable_fuzz::check_position` checks, and agree across the parsers
//! (a strict parse implies a relaxed one of the same position; `Setup` then
//! `from_setup` gives what `from_fen` gives). Whatever does not parse must come back as
//! a typed error with a message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sable_chess::{CastlingMode, Position, Setup};

fn parse(text: &str, mode: CastlingMode, relaxed: bool) -> Result<Position, String> {
    let r = if relaxed {
        Position::from_fen_relaxed(text, mode)
    } else {
        Position::from_fen(text, mode)
    };
    r.map_err(|e| e.to_string())
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 256 {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let setup = text.parse::<Setup>();
    if let Err(e) = &setup {
        let _ = e.to_string();
    }
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        let strict = parse(&text, mode, false);
        let relaxed = parse(&text, mode, true);
        match (&setup, &strict) {
            (Ok(s), Ok(pos)) => {
                let via_setup = Position::from_setup(s, mode).expect("from_fen accepted it");
                assert!(via_setup == *pos, "from_setup != from_fen for '{text}'");
            }
            (Err(_), Ok(_)) => panic!("Setup refuses '{text}' but from_fen accepts it"),
            _ => {}
        }
        if let Ok(pos) = &strict {
            match &relaxed {
                Ok(r) => assert!(r == pos, "relaxed parse differs for '{text}'"),
                Err(e) => panic!("'{text}' parses strictly but not relaxed: {e}"),
            }
        }
        for (pos, relaxed_mode) in [(&strict, false), (&relaxed, true)] {
            let Ok(pos) = pos else { continue };
            assert_eq!(pos.is_chess960(), mode == CastlingMode::Chess960);
            // Round trip: write, read in the same mode, same position and same text.
            let fen = pos.fen();
            match parse(&fen, mode, relaxed_mode) {
                Ok(back) => {
                    assert!(
                        back == *pos,
                        "'{text}' -> '{fen}' reads as another position"
                    );
                    assert_eq!(back.fen(), fen, "FEN of '{text}' is not stable");
                }
                Err(e) => panic!("'{text}' -> '{fen}' does not read back: {e}"),
            }
            // The setup written and read back is the same position too.
            let setup = pos.to_setup();
            match Position::from_setup(&setup, mode) {
                Ok(back) => assert!(back == *pos, "to_setup of '{fen}' reads differently"),
                Err(e) if relaxed_mode => {
                    // from_setup validates checks strictly; the relaxed parse did not.
                    assert!(strict.is_err(), "to_setup of '{fen}' refused: {e}");
                }
                Err(e) => panic!("to_setup of '{fen}' refused: {e}"),
            }
            let _ = pos.epd();
            let _ = pos.board_fen();
            let _ = pos.castling_fen(true);
            let _ = pos.castling_fen(false);
            sable_fuzz::check_position(pos);
        }
    }
});
