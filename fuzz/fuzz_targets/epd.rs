//! Arbitrary bytes as EPD lines (`notation::Epd`).
//!
//! A record that parses must have a valid position, write back (`Display`) as text that
//! reads as the same record, and answer every accessor (`bm`, `am`, `pv`, `acd`, `ce`,
//! `perft`, `id`, `c0`..`c9`, any opcode's moves) with a value or a typed error; moves
//! that come back are legal where they are played.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sable_formats::Epd;
use sable_fuzz::check_returned_move;

fn check(epd: &Epd, line: &str) {
    if let Err(e) = epd.position.validate_keys() {
        panic!("EPD '{line}': position {}: {e}", epd.position.fen());
    }
    for opcode in ["bm", "am"] {
        if let Ok(moves) = epd.moves(opcode) {
            for m in moves {
                check_returned_move(&epd.position, m, &format!("EPD {opcode} in '{line}'"));
            }
        }
    }
    for op in &epd.operations {
        match epd.moves(&op.opcode) {
            Ok(moves) => {
                for m in moves {
                    check_returned_move(
                        &epd.position,
                        m,
                        &format!("EPD {} in '{line}'", op.opcode),
                    );
                }
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    assert_eq!(epd.bm().ok(), epd.moves("bm").ok());
    assert_eq!(epd.am().ok(), epd.moves("am").ok());
    match epd.pv() {
        Ok(moves) => {
            let mut pos = epd.position.clone();
            for m in moves {
                check_returned_move(&pos, m, &format!("EPD pv in '{line}'"));
                pos.make(m);
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    let _ = epd.acd().map_err(|e| e.to_string());
    let _ = epd.ce().map_err(|e| e.to_string());
    let _ = epd.perft().map_err(|e| e.to_string());
    let _ = epd.id();
    for n in 0..10 {
        let _ = epd.comment(n);
    }
    let written = epd.to_string();
    match written.parse::<Epd>() {
        Ok(back) => assert_eq!(&back, epd, "EPD '{line}' -> '{written}' reads differently"),
        Err(e) => panic!("EPD '{line}' -> '{written}' does not read back: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 4096 {
        return;
    }
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        match line.parse::<Epd>() {
            Ok(epd) => check(&epd, line),
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
