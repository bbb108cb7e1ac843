//! Regression tests for what the fuzz targets in `fuzz/` found in the file formats (issue
//! #15, "hostile input changes nothing"); the rules' own are in sable_chess's
//! `tests/fuzz_regressions.rs`. Each test holds the minimised input and names its target.

use sable_chess::{CastlingMode, Position};

/// fuzz target `pgn`: a game with comments and no moves was written with each comment
/// twice, so it read back as a different game.
#[test]
fn pgn_comments_of_a_game_without_moves_are_written_once() {
    use sable_formats::pgn::PgnReader;
    let tree = PgnReader::new(&b"{c} *"[..]).read_tree().unwrap().unwrap();
    assert_eq!(tree.root.comments, ["c"]);
    let pgn = tree.to_pgn();
    assert_eq!(pgn.matches("{c}").count(), 1, "{pgn}");
    let back = PgnReader::new(pgn.as_bytes()).read_tree().unwrap().unwrap();
    assert_eq!(back.root, tree.root);
}

/// fuzz target `epd`: an EPD record with counters and a `fmvn` (or `hmvc`) operation
/// that disagrees was written without its counters, and read back with other counters;
/// one whose operations start with two numbers was read back with those as counters.
#[test]
fn epd_written_with_the_counters_it_needs() {
    use sable_formats::Epd;
    for line in [
        "4k3/8/8/8/8/8/8/4K2R w K - 2 9 fmvn 40;",
        "4k3/8/8/8/8/8/8/4K2R w K - 2 9 hmvc x;",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1 5 6;",
        "4k3/8/8/8/8/8/8/4K2R w K - hmvc 3; fmvn 7;",
        "4k3/8/8/8/8/8/8/4K2R w K - bm O-O;",
    ] {
        let epd: Epd = line.parse().unwrap();
        let written = epd.to_string();
        let back: Epd = written.parse().unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(back, epd, "{line} -> {written}");
    }
    // Records that need no counters are written as before.
    let epd: Epd = "4k3/8/8/8/8/8/8/4K2R w K - hmvc 3; fmvn 7;"
        .parse()
        .unwrap();
    assert_eq!(
        epd.to_string(),
        "4k3/8/8/8/8/8/8/4K2R w K - hmvc 3; fmvn 7;"
    );
}

/// fuzz target `record`: a packed position with full-move number 0 unpacked to a
/// position whose FEN (`... 0`) reads back as move 1; `Setup` with 0 did the same.
#[test]
fn full_move_number_zero_is_refused_or_read_as_one() {
    use sable_chess::Setup;
    use sable_formats::record::{PackedPosition, UnpackError};
    let mut bytes = PackedPosition::pack(&Position::startpos())
        .unwrap()
        .as_bytes()
        .to_vec();
    let n = bytes.len();
    bytes[n - 2..].copy_from_slice(&0u16.to_le_bytes());
    let packed = PackedPosition::from_bytes(&bytes).unwrap();
    assert_eq!(packed.unpack(), Err(UnpackError::FullmoveZero));

    let mut setup: Setup = sable_chess::STARTPOS_FEN.parse().unwrap();
    setup.fullmoves = 0;
    let pos = Position::from_setup(&setup, CastlingMode::Standard).unwrap();
    assert_eq!(pos.fullmoves(), 1);
    assert!(pos == Position::startpos());
}

/// Found by `epd` (20-minute run): an operand `Z0` (a null move in lenient SAN) came
/// back from `Epd::moves` as a move, and a null move in `pv` was played.
#[test]
fn epd_operands_that_are_null_moves_are_refused() {
    use sable_formats::Epd;
    for null in ["Z0", "--", "0000"] {
        let epd: Epd = format!("4k3/8/8/8/8/8/8/4K2R w K - bm {null}; pv e1g1 {null};")
            .parse()
            .unwrap();
        let e = epd.moves("bm").unwrap_err().to_string();
        assert!(e.contains(null) && e.contains("null move"), "{e}");
        let e = epd.pv().unwrap_err().to_string();
        assert!(e.contains("'pv'") && e.contains(null), "{e}");
    }
    let epd: Epd = "4k3/8/8/8/8/8/8/4K2R w K - bm O-O; pv O-O Kd7;"
        .parse()
        .unwrap();
    assert_eq!(epd.moves("bm").unwrap().len(), 1);
    assert_eq!(epd.pv().unwrap().len(), 2);
}

/// Found by `record` (20-minute run): a rook marked as castling off its back rank (a7)
/// unpacked as the right of the back-rank rook on its file (a8), so the position packed
/// back differently. Such a rook is refused.
#[test]
fn a_castling_rook_off_its_back_rank_is_refused() {
    use sable_formats::record::{PackedPosition, UnpackError};
    let pos = Position::from_fen("4k3/8/8/8/8/8/R7/4K3 w - - 0 1", CastlingMode::Chess960).unwrap();
    let mut bytes = PackedPosition::pack(&pos).unwrap().as_bytes().to_vec();
    // Pieces in square order: e1, a2, e8; a2's code is the high nibble of byte 8.
    bytes[8] = (bytes[8] & 0x0f) | (12 << 4);
    let packed = PackedPosition::from_bytes(&bytes).unwrap();
    assert_eq!(
        packed.unpack(),
        Err(UnpackError::CastlingRook(sable_chess::Square::A2))
    );
    // On its back rank the mark is a castling right, and packs back the same.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", CastlingMode::Standard).unwrap();
    let packed = PackedPosition::pack(&pos).unwrap();
    let back = packed.unpack().unwrap();
    assert!(back == pos);
    assert_eq!(PackedPosition::pack(&back).unwrap(), packed);
}
