//! A position chosen by the first byte (`sable_fuzz::POSITIONS`), then the rest of the
//! input as a UCI move (`parse_uci`, and `notation::parse_uci_or_null`).
//!
//! A move that comes back must be legal and write back (in the position's castling
//! notation) as text that reads as the same move. The first two bytes after the selector
//! are also taken as raw `Move` bits (what a hash table or a record holds): `is_legal`
//! must agree with the move generator on them, and a legal one must make cleanly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sable_chess::notation::parse_uci_or_null;
use sable_chess::Move;
use sable_fuzz::{check_returned_move, position_and_rest};

fuzz_target!(|data: &[u8]| {
    let Some((pos, rest)) = position_and_rest(data) else {
        return;
    };
    if let [a, b, ..] = rest {
        let m = Move::from_bits(u16::from_le_bytes([*a, *b]));
        let legal = pos.is_legal(m);
        assert_eq!(
            legal,
            pos.legal_moves().contains(m),
            "is_legal({m:?}) disagrees with the generator in {}",
            pos.fen()
        );
        if legal {
            let mut after = pos.clone();
            let undo = after.make(m);
            after.validate_keys().expect("keys after a legal move");
            after.unmake(m, &undo);
            assert!(after == pos);
        }
    }

    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match pos.parse_uci(text) {
        Ok(m) => {
            check_returned_move(&pos, m, &format!("UCI '{text}'"));
            let written = m.to_uci(pos.is_chess960()).to_string();
            assert_eq!(
                pos.parse_uci(&written).ok(),
                Some(m),
                "'{text}' -> '{written}'"
            );
            assert_eq!(written.len(), text.len(), "'{text}' -> '{written}'");
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    match parse_uci_or_null(&pos, text) {
        Ok(m) if m.is_null() => assert_eq!(text, "0000"),
        Ok(m) => check_returned_move(&pos, m, &format!("UCI-or-null '{text}'")),
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
