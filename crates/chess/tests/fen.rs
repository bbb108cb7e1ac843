//! FEN parsing and validation: every valid position of testdata/fen parses and
//! round-trips, every invalid one is rejected, and each error names its field.

mod common;
use common::read;
use sable_chess::{CastlingMode, FenError, ParseFenError, Position, PositionError};

#[test]
fn valid_sfens_parse_and_round_trip() {
    let text = read("fen/valid.sfens");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let pos = Position::from_fen(line, CastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(pos.fen(), line.trim(), "round trip");
        pos.validate_keys().unwrap();
        n += 1;
    }
    assert_eq!(n, 10_000);
}

#[test]
fn chess960_start_positions_parse_and_round_trip() {
    let text = read("fen/chess960_start_positions.sfens");
    let fens: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(fens.len(), 960);
    for line in &fens {
        let pos = Position::from_fen(line, CastlingMode::Chess960).unwrap();
        assert_eq!(pos.fen(), line.trim());
        assert!(!pos.castling().is_empty(), "{line}");
    }
    for (n, line) in fens.iter().enumerate() {
        assert_eq!(
            Position::chess960_start(n as u32).unwrap().fen(),
            line.trim(),
            "number {n}"
        );
    }
    // Position 518 is the standard start position.
    let standard = Position::from_fen(fens[518], CastlingMode::Standard).unwrap();
    assert_eq!(standard.fen(), sable_chess::STARTPOS_FEN);
}

#[test]
fn invalid_sfens_are_all_rejected() {
    let text = read("fen/invalid.sfens");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        assert!(
            Position::from_fen(line, CastlingMode::Chess960).is_err(),
            "accepted invalid {line}"
        );
        n += 1;
    }
    assert_eq!(n, 9_992);
}

fn err(fen: &str) -> ParseFenError {
    Position::from_fen(fen, CastlingMode::Standard).expect_err(fen)
}

fn syntax(fen: &str) -> FenError {
    match err(fen) {
        ParseFenError::Syntax(e) => e,
        other => panic!("{fen}: expected a syntax error, got {other}"),
    }
}

fn illegal(fen: &str) -> PositionError {
    match err(fen) {
        ParseFenError::Position(e) => e,
        other => panic!("{fen}: expected a position error, got {other}"),
    }
}

#[test]
fn syntax_errors_name_field_and_text() {
    assert_eq!(syntax(""), FenError::Empty);
    assert_eq!(syntax("8/8/8 w"), FenError::FieldCount { found: 2 });
    let e = syntax("4k3/8/8/8/8/8/8 w - - 0 1");
    assert!(matches!(e, FenError::RankCount { found: 7, .. }), "{e}");
    let e = syntax("4k3/8/8/8/8/8/8/4K4 w - - 0 1");
    assert_eq!(
        e.to_string(),
        "board field: rank 1 '4K4' covers 9 squares, expected 8"
    );
    let e = syntax("4k3/8/8/8/8/8/8/4K2 w - - 0 1");
    assert!(matches!(e, FenError::RankLength { squares: 7, .. }), "{e}");
    let e = syntax("4k3/8/8/8/8/8/8/4K2X w - - 0 1");
    assert!(
        matches!(
            e,
            FenError::PieceLetter {
                found: 'X',
                rank: '1',
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
        FenError::Turn("x".into())
    );
    let e = syntax("4k3/8/8/8/8/8/8/4K3 w KZ - 0 1");
    assert!(
        matches!(e, FenError::CastlingLetter { found: 'Z', .. }),
        "{e}"
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - e4 0 1"),
        FenError::EnPassant("e4".into())
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - - -3 1"),
        FenError::Halfmoves("-3".into())
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - - 0 x"),
        FenError::Fullmoves("x".into())
    );
    assert!(syntax("4k3/8/8/8/8/8/8/4K3 w - - 0 x")
        .to_string()
        .contains("full-move number 'x'"));
}

#[test]
fn position_errors_explain() {
    use sable_chess::{Color, Square};
    assert_eq!(
        illegal("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        PositionError::MissingKing(Color::Black)
    );
    assert_eq!(
        illegal("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        PositionError::TooManyKings {
            color: Color::White,
            count: 2
        }
    );
    assert_eq!(
        illegal("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        PositionError::PawnOnBackRank(Square::A1)
    );
    assert_eq!(
        illegal("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1"),
        PositionError::TooManyPawns {
            color: Color::Black,
            count: 9
        }
    );
    assert_eq!(
        illegal("4k2R/8/8/8/8/8/8/4K3 w - - 0 1"),
        PositionError::OppositeCheck(Color::Black)
    );
    let e = illegal("4k3/8/8/8/8/8/8/4K3 w K - 0 1");
    assert!(e.to_string().contains("no rook on the h-file side"), "{e}");
    let e = illegal("4k3/8/8/8/8/8/8/3K3R w K - 0 1");
    assert!(e.to_string().contains("castling field 'K'"), "{e}");
    assert!(Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", CastlingMode::Standard).is_ok());
    let e = illegal("4k3/8/8/8/8/8/4P3/4K3 b - e3 0 1");
    assert!(e.to_string().contains("no white pawn on e4"), "{e}");
    let e = illegal("4k3/8/8/8/8/8/8/4K3 b - e6 0 1");
    assert!(e.to_string().contains("rank 3"), "{e}");
    assert_eq!(
        illegal("4r3/1b6/5n2/8/4K3/8/8/k7 w - - 0 1"),
        PositionError::TooManyCheckers { count: 3 }
    );
    let e = illegal("4k3/8/8/8/q1K1r3/8/8/8 w - - 0 1");
    assert!(matches!(e, PositionError::ImpossibleCheck { .. }), "{e}");
}

#[test]
fn counters_and_short_fens() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -", CastlingMode::Standard).unwrap();
    assert_eq!((pos.halfmoves(), pos.fullmoves()), (0, 1));
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 7 42", CastlingMode::Standard).unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 7 42");
}

#[test]
fn xfen_and_shredder_castling() {
    // X-FEN letters name inner rooks when an outer rook stands beside them.
    let fen = "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1";
    let pos = Position::from_fen(fen, CastlingMode::Chess960).unwrap();
    assert_eq!(pos.fen(), fen);
    assert_eq!(pos.castling_fen(false), "KQkq");
    let std = Position::from_fen(
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
        CastlingMode::Standard,
    )
    .unwrap();
    assert_eq!(std.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let inner = Position::from_fen("1k6/8/8/8/8/8/8/R1R1K2R w Ch - 0 1", CastlingMode::Chess960);
    assert!(inner.is_err(), "black has no rook on h8");
    let pos =
        Position::from_fen("1k6/8/8/8/8/8/8/R1R1K2R w CH - 0 1", CastlingMode::Chess960).unwrap();
    assert_eq!(pos.castling_fen(false), "KC");
}
