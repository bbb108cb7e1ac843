//! Game-state rules: outcomes and their precedence, repetition, insufficient material,
//! pins and frozen pieces, special-move checks, and make/unmake exactness.

use sable_chess::{
    CastlingMode, Color, DrawReason, KeyHistory, Move, Outcome, Position, Role, Square, SquareSet,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(p: &mut Position, history: &mut KeyHistory, uci: &str) {
    let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{e}"));
    history.push(p.key());
    p.make(m);
}

#[test]
fn checkmate_and_stalemate() {
    let mate = pos("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert!(mate.is_checkmate());
    assert_eq!(
        mate.outcome(&KeyHistory::new()),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
    let stale = pos("7k/8/6QK/8/8/8/8/8 b - - 0 1");
    assert!(stale.is_stalemate() && !stale.is_checkmate());
    assert_eq!(
        stale.outcome(&KeyHistory::new()),
        Some(Outcome::Draw(DrawReason::Stalemate))
    );
    assert_eq!(
        Outcome::Checkmate {
            winner: Color::Black
        }
        .result(),
        "0-1"
    );
}

#[test]
fn mate_on_the_hundredth_half_move_beats_the_fifty_move_rule() {
    let mut p = pos("7k/8/6K1/8/8/8/8/1Q6 w - - 99 80");
    let mut h = KeyHistory::new();
    assert_eq!(p.outcome(&h), None);
    play(&mut p, &mut h, "b1b8");
    assert_eq!(p.halfmoves(), 100);
    assert_eq!(
        p.outcome(&h),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
    // A quiet move instead reaches the limit without mate: drawn.
    let mut p = pos("7k/8/6K1/8/8/8/8/1Q6 w - - 99 80");
    play(&mut p, &mut h, "b1c1");
    assert_eq!(p.outcome(&h), Some(Outcome::Draw(DrawReason::FiftyMoves)));
    assert_eq!(
        p.automatic_outcome(&h),
        None,
        "75 moves are needed without a claim"
    );
}

#[test]
fn insufficient_material() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", // bishops on dark squares only
        "4k3/8/8/2b5/8/8/8/2B1K1B1 w - - 0 1", // four bishops all on dark squares
    ] {
        assert!(pos(fen).is_insufficient_material(), "{fen}");
    }
    for fen in [
        "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", // bishops on both colours
        "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",  // knight against knight: a helpmate exists
        "4k3/8/8/8/8/8/8/4KNN1 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KR2 w - - 0 1",
    ] {
        assert!(!pos(fen).is_insufficient_material(), "{fen}");
    }
}

#[test]
fn threefold_repetition_counts_only_the_same_side_to_move() {
    let mut p = Position::startpos();
    let mut h = KeyHistory::new();
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        play(&mut p, &mut h, uci);
        assert_eq!(p.outcome(&h), None, "after {uci}");
    }
    play(&mut p, &mut h, "f6g8");
    assert_eq!(
        p.outcome(&h),
        Some(Outcome::Draw(DrawReason::ThreefoldRepetition))
    );
    assert!(h.is_repetition(p.key(), p.halfmoves()));
    // Castling rights lost in between make the earlier positions different.
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let mut h = KeyHistory::new();
    let first = p.key();
    for uci in ["e1f1", "e8f8", "f1e1", "f8e8"] {
        play(&mut p, &mut h, uci);
    }
    assert_ne!(p.key(), first);
    assert!(!h.is_repetition(p.key(), p.halfmoves()));
}

#[test]
fn pins_and_frozen_pieces() {
    // The bishop on d2 is pinned along the diagonal and can still move on it; the knight
    // on e2 is pinned on the file and frozen.
    let p = pos("4r1k1/8/8/b7/8/8/3BN3/4K3 w - - 0 1");
    let d2: Square = "d2".parse().unwrap();
    let e2: Square = "e2".parse().unwrap();
    assert_eq!(p.pinned(), SquareSet::from_square(d2) | e2);
    assert_eq!(p.frozen(), SquareSet::from_square(e2));
    assert!(p.legal_moves().iter().all(|m| m.from() != e2));
    assert!(p.legal_moves().iter().any(|m| m.from() == d2));
}

#[test]
fn gives_check_on_special_moves() {
    let cases = [
        // Castling where the rook gives check.
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true),
        // En passant that uncovers a rook on the rank.
        ("8/8/8/R2Pp2k/8/8/8/4K3 w - e6 0 1", "d5e6", true),
        // En passant that uncovers a bishop on the diagonal.
        ("k7/8/8/3Pp3/8/8/8/B3K3 w - e6 0 1", "d5e6", false),
        ("7k/8/8/3Pp3/8/8/8/B3K3 w - e6 0 1", "d5e6", true),
        ("7k/8/8/3pP3/8/8/8/B3K3 w - d6 0 1", "e5d6", true),
        // Promotion to a knight that checks, and one that does not.
        ("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", false),
        ("6k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", true),
        ("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", true),
        // A discovered check by a knight moving off the line.
        ("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", "e4c5", true),
        // The king moves and uncovers its own rook.
        ("8/8/8/8/k2K3R/8/8/8 w - - 0 1", "d4c3", true),
    ];
    for (fen, uci, expected) in cases {
        let mut p = pos(fen);
        let m = p.parse_uci(uci).unwrap();
        assert_eq!(p.gives_check(m), expected, "{uci} in {fen}");
        p.make(m);
        assert_eq!(p.in_check(), expected, "{uci} in {fen}, made");
    }
}

#[test]
fn make_unmake_restores_everything() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    for &m in p.legal_moves().iter() {
        let mut q = p.clone();
        let undo = q.make(m);
        q.validate_keys().unwrap();
        for &reply in q.legal_moves().iter() {
            let mut r = q.clone();
            let u2 = r.make(reply);
            r.validate_keys().unwrap();
            r.unmake(reply, &u2);
            assert_eq!(r, q);
        }
        q.unmake(m, &undo);
        assert_eq!(q, p, "{m:?}");
    }
    let mut q = p.clone();
    let u = q.make_null();
    assert_eq!(q.turn(), Color::Black);
    q.validate_keys().unwrap();
    q.unmake_null(&u);
    assert_eq!(q, p);
}

#[test]
fn non_pawn_key_follows_the_pieces_not_the_pawns() {
    let a = pos("r3k2r/pppq1ppp/2n2n2/8/8/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1");
    // The same pieces, other pawns.
    let b = pos("r3k2r/pp1q1ppp/2n2n2/2p5/8/2N2N2/PPPQ1PP1/R3K2R w KQkq - 0 1");
    // A white knight elsewhere.
    let c = pos("r3k2r/pppq1ppp/2n2n2/8/8/2N5/PPPQ1PPP/R3K1NR w KQkq - 0 1");
    for color in Color::ALL {
        assert_eq!(a.non_pawn_key(color), b.non_pawn_key(color));
    }
    assert_ne!(a.non_pawn_key(Color::White), c.non_pawn_key(Color::White));
    assert_eq!(a.non_pawn_key(Color::Black), c.non_pawn_key(Color::Black));
    // The low half of the xor of the pieces' own Polyglot numbers.
    let xor_of = |p: &Position, color: Color| {
        let mut want = 0u64;
        for sq in p.by_color(color) - p.by_role(Role::Pawn) {
            want ^= sable_chess::zobrist::piece_square(p.piece_at(sq).unwrap(), sq);
        }
        want as u32
    };
    for color in Color::ALL {
        assert_eq!(a.non_pawn_key(color), xor_of(&a, color));
    }
    // A promotion that takes a piece changes both, and taking it back restores both.
    let mut p = pos("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let before = [p.non_pawn_key(Color::White), p.non_pawn_key(Color::Black)];
    let m = p.parse_uci("a7b8q").unwrap();
    let undo = p.make(m);
    for color in Color::ALL {
        assert_eq!(p.non_pawn_key(color), xor_of(&p, color));
        assert_ne!(p.non_pawn_key(color), before[color.index()]);
    }
    p.unmake(m, &undo);
    assert_eq!(
        [p.non_pawn_key(Color::White), p.non_pawn_key(Color::Black)],
        before
    );
}

#[test]
fn key_after_predicts_make() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    for &m in p.legal_moves().iter() {
        let mut q = p.clone();
        q.make(m);
        // Exact unless the move creates an en-passant right.
        if q.ep_square().is_none() {
            assert_eq!(p.key_after(m), q.key(), "{m:?}");
        }
    }
    assert!(!Position::startpos().is_legal(Move::NULL));
}

#[test]
fn chess960_castling_cases() {
    // King on b1, rook on a1: queen-side castling moves the king to c1 and the rook to d1.
    let mut p =
        Position::from_fen("1k6/8/8/8/8/8/8/RK6 w A - 0 1", CastlingMode::Chess960).unwrap();
    let m = p.parse_uci("b1a1").unwrap();
    assert!(m.is_castle());
    p.make(m);
    assert_eq!(p.board_fen(), "1k6/8/8/8/8/8/8/2KR4");
    // The castling rook shields the king's destination from a queen on the rank: illegal.
    let p = Position::from_fen("7k/8/8/8/8/8/8/qRK5 w B - 0 1", CastlingMode::Chess960).unwrap();
    assert!(p.legal_moves().iter().all(|m| !m.is_castle()));
    // In Chess960 mode a one-square king move to the castling square is a king move.
    let p = Position::from_fen("7k/8/8/8/8/8/8/1RK5 w B - 0 1", CastlingMode::Chess960).unwrap();
    assert!(!p.parse_uci("c1d1").unwrap().is_castle());
    assert!(p.parse_uci("c1b1").unwrap().is_castle());
}

/// Move counters as large as a FEN may give (u32::MAX) never wrap on make, and unmake
/// restores them exactly (sable_formats' `tests/pgn.rs` writes a PGN from such a position).
#[test]
fn huge_move_counters_never_wrap() {
    let fen = "4k3/8/8/8/8/8/8/4K2R b K - 4294967295 4294967295";
    let mut pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
    let start = pos.clone();
    let mut undos = vec![];
    let mut moves = vec![];
    for _ in 0..6 {
        let m = pos.legal_moves()[0];
        undos.push(pos.make(m));
        moves.push(m);
        assert_eq!(pos.fullmoves(), u32::MAX);
        assert!(pos.halfmoves() >= 1);
    }
    for (m, u) in moves.iter().zip(&undos).rev() {
        pos.unmake(*m, u);
    }
    assert_eq!(pos.fen(), start.fen());
    assert_eq!(pos.fullmoves(), u32::MAX);
}
