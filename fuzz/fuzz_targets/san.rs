//! A position chosen by the first byte (`sable_fuzz::POSITIONS`), then the rest of the
//! input as SAN, read strictly and leniently.
//!
//! A move that comes back must be legal, be what the position writes as SAN (strict
//! mode) and read back from that SAN as itself; strict acceptance implies lenient
//! acceptance of the same move. Null moves come back only for the null tokens.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sable_chess::SanMode;
use sable_fuzz::{check_returned_move, position_and_rest};

fuzz_target!(|data: &[u8]| {
    let Some((pos, rest)) = position_and_rest(data) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let strict = pos.parse_san_with(text, SanMode::Strict);
    let lenient = pos.parse_san_with(text, SanMode::Lenient);
    for (mode, result) in [(SanMode::Strict, &strict), (SanMode::Lenient, &lenient)] {
        match result {
            Ok(m) if m.is_null() => {
                if mode == SanMode::Strict {
                    assert!(text == "--", "strict null move from '{text}'");
                }
            }
            Ok(m) => {
                check_returned_move(&pos, *m, &format!("{mode:?} SAN '{text}'"));
                let san = pos.san(*m);
                if mode == SanMode::Strict {
                    assert_eq!(san, text, "strict SAN accepted a non-canonical text");
                }
                assert_eq!(
                    pos.parse_san(&san).ok(),
                    Some(*m),
                    "'{text}' -> {m:?} -> '{san}' does not read back strictly"
                );
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    if let Ok(m) = strict {
        assert_eq!(
            lenient.as_ref().ok(),
            Some(&m),
            "'{text}' reads strictly as {m:?} but leniently as {lenient:?}"
        );
    }
});
