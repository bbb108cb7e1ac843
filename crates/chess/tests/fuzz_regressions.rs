//! Regression tests for what the fuzz targets in `fuzz/` found (issue #15, "hostile input
//! changes nothing"): each test holds the minimised input and names its target.

use sable_chess::{CastlingMode, Position};

fn play(fen: &str, mode: CastlingMode, uci: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen, mode).unwrap();
    for text in uci {
        let m = pos.parse_uci(text).unwrap();
        pos.make(m);
    }
    pos
}

/// fuzz target `fen`: a position reached by a move that loses castling rights compared
/// unequal to the same position read from its FEN, because the castling state kept the
/// lost rights' rooks and paths.
#[test]
fn positions_equal_after_castling_rights_are_lost() {
    let cases: [(&str, CastlingMode, &[&str]); 5] = [
        (
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            CastlingMode::Standard,
            &["e1d1"],
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            CastlingMode::Standard,
            &["h1h2"],
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
            &["a1a8"],
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
            &["e1g1", "e8c8"],
        ),
        (
            "r5kr/8/8/8/8/8/8/RK5R w AHah - 0 1",
            CastlingMode::Chess960,
            &["b1h1", "a8a1"],
        ),
    ];
    for (fen, mode, moves) in cases {
        let played = play(fen, mode, moves);
        let read = Position::from_fen(&played.fen(), mode).unwrap();
        assert!(read == played, "{fen} + {moves:?} = {}", played.fen());
        assert_eq!(read.key(), played.key());
    }
    // Rights that differ still make positions differ.
    let with = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", CastlingMode::Standard);
    let without = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1", CastlingMode::Standard);
    assert!(with.unwrap() != without.unwrap());
}

/// fuzz target `san`: strict SAN accepted `--+` and `--#` as the null move, though the
/// canonical text (the only one strict mode takes) is `--`.
#[test]
fn strict_san_null_move_has_no_check_mark() {
    use sable_chess::{SanError, SanMode};
    let pos = Position::startpos();
    assert!(pos.parse_san("--").unwrap().is_null());
    for text in ["--+", "--#"] {
        match pos.parse_san(text) {
            Err(SanError::NotCanonical { canonical, .. }) => assert_eq!(canonical, "--"),
            other => panic!("{text}: {other:?}"),
        }
        assert!(pos
            .parse_san_with(text, SanMode::Lenient)
            .unwrap()
            .is_null());
    }
}
