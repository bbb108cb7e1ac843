//! Polyglot book reading against the expected lookups in testdata/SOURCES.md (polyglot/).

use sable_chess::{CastlingMode, PolyglotBook, Position};

fn book(name: &str) -> PolyglotBook {
    PolyglotBook::open(sable_testdata::path(&format!("polyglot/{name}"))).unwrap()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, CastlingMode::Standard).unwrap()
}

#[test]
fn performance_book_start_position() {
    let b = book("performance.bin");
    assert_eq!(b.len(), 92_954);
    let start = Position::startpos();
    let entries = b.entries(&start);
    let got: Vec<(String, u16, u32)> = b
        .moves(&start)
        .iter()
        .zip(entries)
        .map(|((m, w), e)| (m.to_uci(false).to_string(), *w, e.learn))
        .collect();
    assert_eq!(
        got,
        [
            ("e2e4".to_string(), 1, 486_544_384),
            ("d2d4".to_string(), 1, 5_120),
            ("c2c4".to_string(), 1, 3_825_144_832)
        ]
    );
}

#[test]
fn following_the_heaviest_moves_ends_where_expected() {
    let b = book("performance.bin");
    let mut p = Position::startpos();
    while let Some(m) = b.best_move(&p) {
        p.make(m);
    }
    assert_eq!(
        p.fen(),
        "r2q1rk1/4bppp/p2p1n2/np5b/3BP1P1/5N1P/PPB2P2/RN1QR1K1 b - - 0 15"
    );
}

#[test]
fn castling_entries() {
    let b = book("performance.bin");
    let p = pos("r1bqr1k1/pp1nbppp/2p2n2/3p2B1/3P4/2NBP3/PPQ1NPPP/R3K2R w KQ - 5 10");
    let raw: Vec<(u16, u16)> = b
        .entries(&p)
        .iter()
        .map(|e| (e.raw_move, e.weight))
        .collect();
    assert_eq!(raw, [(263, 159), (256, 18), (983, 16)]);
    let moves = b.moves(&p);
    assert!(moves[0].0.is_castle() && moves[1].0.is_castle());
    assert_eq!(moves[0].0.to_uci(false).to_string(), "e1g1");
    assert_eq!(moves[1].0.to_uci(false).to_string(), "e1c1");
    assert_eq!(moves[2].0.to_uci(false).to_string(), "h2h3");

    let p = pos("r3k1nr/1pp1q1pp/p1pb1p2/4p3/3PP1b1/2P1BN2/PP1N1PPP/R2Q1RK1 b kq - 4 9");
    let moves = b.moves(&p);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].0.to_uci(false).to_string(), "e8c8");

    // e1a1 with the king elsewhere is a rook move, not castling.
    let p = pos("1r1qr1k1/1b2bp1n/p2p2pB/1pnPp2p/P1p1P3/R1P2NNP/1PBQ1PP1/4R1K1 w - - 0 1");
    let m = b.best_move(&p).unwrap();
    assert!(!m.is_castle());
    assert_eq!(m.to_uci(false).to_string(), "e1a1");
}

#[test]
fn underpromotion_entry() {
    let b = book("lasker-trap.bin");
    assert_eq!(b.len(), 7);
    let p = pos("rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7");
    assert_eq!(p.key(), 0x5028f645a2af84bc);
    let entries = b.entries(&p);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].raw_move, 0x1346);
    assert_eq!(b.best_move(&p).unwrap().to_uci(false).to_string(), "f2g1n");
}

#[test]
fn broken_books_are_refused() {
    assert!(PolyglotBook::from_bytes(&[0u8; 15]).is_err());
    let mut bytes = vec![0u8; 32];
    bytes[0] = 1; // the first key is larger than the second
    assert!(PolyglotBook::from_bytes(&bytes).is_err());
    assert!(PolyglotBook::open("/nonexistent/book.bin").is_err());
}
