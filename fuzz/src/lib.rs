//! Shared pieces of the fuzz targets: the fixed positions that the `san` and `uci_move`
//! targets pick from, and the invariant checks every target runs on a position it got
//! out of hostile input.
//!
//! Everything here uses only the public API of `sable_chess`. A broken invariant panics,
//! which libFuzzer reports as a crash with the input that caused it.

use sable_chess::{CastlingMode, Move, MoveList, Position};

/// Positions chosen by the first input byte (`byte % len`) in the `san` and `uci_move`
/// targets: each one exercises a different part of move reading.
pub const POSITIONS: [(&str, CastlingMode); 8] = [
    // 0: the start position.
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CastlingMode::Standard,
    ),
    // 1: kiwipete: castling both ways, pins, en passant after a double push.
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        CastlingMode::Standard,
    ),
    // 2: promotions and under-promotions with and without capture, Black to move.
    (
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        CastlingMode::Standard,
    ),
    // 3: the same, White to move (pawns on the seventh, pieces to take).
    (
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
        CastlingMode::Standard,
    ),
    // 4: Chess960 with castling rights on both sides for both colours.
    ("r5kr/8/8/8/8/8/8/RK5R w AHah - 0 1", CastlingMode::Chess960),
    // 5: a Chess960 middlegame (the example of sable_chess's documentation).
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        CastlingMode::Chess960,
    ),
    // 6: en passant possible (e5xf6).
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        CastlingMode::Standard,
    ),
    // 7: four queens: disambiguation by file, rank and square.
    (
        "k7/8/8/8/1Q1Q4/8/1Q1Q4/4K3 w - - 0 1",
        CastlingMode::Standard,
    ),
];

/// The position for a selector byte.
pub fn position_for(selector: u8) -> Position {
    let (fen, mode) = POSITIONS[selector as usize % POSITIONS.len()];
    Position::from_fen(fen, mode).expect("the fixed fuzz positions are valid")
}

/// The input of the `san` and `uci_move` targets split: the position its first byte picks
/// and the rest (at most 64 bytes); `None` for an empty input or a longer rest.
pub fn position_and_rest(data: &[u8]) -> Option<(Position, &[u8])> {
    let (&selector, rest) = data.split_first()?;
    if rest.len() > 64 {
        return None;
    }
    Some((position_for(selector), rest))
}

/// The castling mode a position was read in.
pub fn mode_of(pos: &Position) -> CastlingMode {
    if pos.is_chess960() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// Every encoding that differs from `m` only in its promotion and kind bits: the moves
/// a corrupt hash-table entry or record could hold next to a real one.
pub fn bit_variants(m: Move) -> impl Iterator<Item = Move> {
    let base = m.bits() & 0x0fff;
    (0u16..16).map(move |high| Move::from_bits(base | high << 12))
}

/// Checks a move that a reader (SAN, UCI, a book, a record) returned as legal in `pos`.
pub fn check_returned_move(pos: &Position, m: Move, what: &str) {
    assert!(!m.is_null(), "{what}: null move returned as a move");
    assert!(
        pos.is_legal(m),
        "{what}: {m:?} returned but not is_legal in {}",
        pos.fen()
    );
    assert!(
        pos.legal_moves().contains(m),
        "{what}: {m:?} returned but not generated in {}",
        pos.fen()
    );
}

/// The invariants of a position that are cheap to check, and those of every legal move:
///
/// * the keys, bitboards, checkers and pins equal a recomputation (`validate_keys`);
/// * the generators agree (all = noisy + quiet, count, evasions), every generated move
///   `is_legal`, and `is_legal` agrees with the generator on the other encodings of
///   each move (kind and promotion bits changed);
/// * each move's SAN reads back (strict and lenient) as the move, with `+`/`#` as the
///   position after it says; its UCI text reads back as the move;
/// * making it gives a position with valid keys, in check exactly when `gives_check`
///   said so, with the key `key_after` predicted (when it creates no en-passant square),
///   whose FEN reads back as the same position; unmaking restores the position;
/// * a null move (when not in check) makes and unmakes cleanly.
pub fn check_position(pos: &Position) {
    if let Err(e) = pos.validate_keys() {
        panic!("validate_keys: {e} in {}", pos.fen());
    }
    let fen = pos.fen();
    let legal = pos.legal_moves();
    assert_eq!(
        pos.count_legal() as usize,
        legal.len(),
        "count_legal in {fen}"
    );
    assert!(legal.len() <= sable_chess::MAX_MOVES);
    let noisy = pos.noisy_moves();
    let quiet = pos.quiet_moves();
    assert_eq!(
        noisy.len() + quiet.len(),
        legal.len(),
        "noisy + quiet != all in {fen}"
    );
    for &m in noisy.iter() {
        assert!(legal.contains(m), "noisy {m:?} not legal in {fen}");
        assert!(
            pos.is_capture(m) || m.is_promotion(),
            "noisy {m:?} is quiet in {fen}"
        );
    }
    for &m in quiet.iter() {
        assert!(legal.contains(m), "quiet {m:?} not legal in {fen}");
        assert!(
            !pos.is_capture(m) && !m.is_promotion(),
            "quiet {m:?} is noisy in {fen}"
        );
    }
    let evasions = pos.evasions();
    if pos.in_check() {
        assert_eq!(evasions.len(), legal.len(), "evasions in {fen}");
    } else {
        assert!(evasions.is_empty(), "evasions when not in check in {fen}");
    }
    assert!(!pos.is_legal(Move::NULL));

    let info = pos.check_info();
    let chess960 = pos.is_chess960();
    let mode = mode_of(pos);
    let mut child_moves = MoveList::new();
    for &m in legal.iter() {
        assert!(pos.is_legal(m), "generated {m:?} is not is_legal in {fen}");
        for v in bit_variants(m) {
            assert_eq!(
                pos.is_legal(v),
                legal.contains(v),
                "is_legal({v:?}) disagrees with the generator in {fen}"
            );
        }
        let gives_check = pos.gives_check(m);
        assert_eq!(
            gives_check,
            pos.gives_check_with(m, &info),
            "gives_check_with {m:?} in {fen}"
        );

        // SAN, both ways.
        let san = pos.san(m);
        assert_eq!(pos.san_text(m).as_str(), san, "san_text {m:?} in {fen}");
        match pos.parse_san(&san) {
            Ok(back) => assert_eq!(back, m, "strict SAN '{san}' reads as {back:?} in {fen}"),
            Err(e) => panic!("strict SAN '{san}' of {m:?} does not read back in {fen}: {e}"),
        }
        match pos.parse_san_lenient(&san) {
            Ok(back) => assert_eq!(back, m, "lenient SAN '{san}' reads as {back:?} in {fen}"),
            Err(e) => panic!("lenient SAN '{san}' of {m:?} does not read back in {fen}: {e}"),
        }

        // UCI, both ways (and the other castling spelling in standard chess).
        let uci = m.to_uci(chess960).to_string();
        match pos.parse_uci(&uci) {
            Ok(back) => assert_eq!(back, m, "UCI '{uci}' reads as {back:?} in {fen}"),
            Err(e) => panic!("UCI '{uci}' of {m:?} does not read back in {fen}: {e}"),
        }
        if m.is_castle() && !chess960 {
            let rook_form = m.to_uci(true).to_string();
            assert_eq!(
                pos.parse_uci(&rook_form).ok(),
                Some(m),
                "UCI '{rook_form}' in {fen}"
            );
        }

        // Make, check the child, unmake.
        let mut after = pos.clone();
        let undo = after.make(m);
        if let Err(e) = after.validate_keys() {
            panic!("after {m:?} in {fen}: validate_keys: {e}");
        }
        assert_eq!(
            after.in_check(),
            gives_check,
            "gives_check {m:?} is {gives_check} in {fen}"
        );
        if after.ep_square().is_none() {
            assert_eq!(pos.key_after(m), after.key(), "key_after {m:?} in {fen}");
        }
        child_moves.clear();
        after.legal_moves_into(&mut child_moves);
        let mark = match (after.in_check(), child_moves.is_empty()) {
            (true, true) => Some('#'),
            (true, false) => Some('+'),
            (false, _) => None,
        };
        let written = san.chars().last().filter(|c| matches!(c, '+' | '#'));
        assert_eq!(written, mark, "check mark of '{san}' in {fen}");
        let child_fen = after.fen();
        match Position::from_fen_relaxed(&child_fen, mode) {
            Ok(back) => assert!(
                back == after,
                "FEN '{child_fen}' after {m:?} in {fen} reads as a different position"
            ),
            Err(e) => panic!("FEN '{child_fen}' after {m:?} in {fen} does not read: {e}"),
        }
        after.unmake(m, &undo);
        assert!(after == *pos, "unmake {m:?} does not restore {fen}");
    }

    if !pos.in_check() {
        let mut after = pos.clone();
        let undo = after.make_null();
        if let Err(e) = after.validate_keys() {
            panic!("after a null move in {fen}: validate_keys: {e}");
        }
        after.unmake_null(&undo);
        assert!(after == *pos, "unmake_null does not restore {fen}");
    }
}
