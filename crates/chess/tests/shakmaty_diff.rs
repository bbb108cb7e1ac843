//! Differential tests against shakmaty, an independent move generator: over thousands
//! of positions from random playouts (standard and Chess960) the legal move sets,
//! `gives_check`, checkmate/stalemate and the Polyglot key must agree.

mod common;
use sable_chess::{CastlingMode, Move, Position};
use shakmaty::zobrist::{Zobrist64, ZobristHash};
use shakmaty::{fen::Fen, Chess, EnPassantMode, Position as _};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn theirs(fen: &str) -> Chess {
    let f: Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("shakmaty rejects {fen}: {e}"));
    f.into_position(shakmaty::CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("shakmaty rejects {fen}: {e}"))
}

/// Compares one position in every respect; returns the number of moves checked.
fn compare(pos: &Position) -> usize {
    let fen = pos.fen();
    let other = theirs(&fen);
    let ours = pos.legal_moves();
    let mut our_uci: Vec<String> = ours.iter().map(|m| m.to_uci(true).to_string()).collect();
    let their_moves = other.legal_moves();
    let mut their_uci: Vec<String> = their_moves
        .iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Chess960).to_string())
        .collect();
    our_uci.sort();
    their_uci.sort();
    assert_eq!(our_uci, their_uci, "legal moves differ in {fen}");

    let info = pos.check_info();
    for &m in ours.iter() {
        let uci = m.to_uci(true).to_string();
        let tm = their_moves
            .iter()
            .find(|t| t.to_uci(shakmaty::CastlingMode::Chess960).to_string() == uci)
            .unwrap();
        let mut after = other.clone();
        after.play_unchecked(tm);
        assert_eq!(
            pos.gives_check(m),
            after.is_check(),
            "gives_check({uci}) in {fen}"
        );
        assert_eq!(
            pos.gives_check_with(m, &info),
            after.is_check(),
            "gives_check_with({uci}) in {fen}"
        );
        assert!(pos.is_legal(m), "is_legal({uci}) in {fen}");
    }
    assert_eq!(
        pos.is_checkmate(),
        other.is_checkmate(),
        "checkmate in {fen}"
    );
    assert_eq!(
        pos.is_stalemate(),
        other.is_stalemate(),
        "stalemate in {fen}"
    );
    assert_eq!(pos.in_check(), other.is_check(), "check in {fen}");
    let key: Zobrist64 = other.zobrist_hash(EnPassantMode::PseudoLegal);
    assert_eq!(pos.key(), key.0, "Polyglot key of {fen}");
    ours.len()
}

/// Plays random games from `start`, comparing every position; returns positions checked.
fn playouts(start: &Position, games: usize, max_plies: usize, rng: &mut Rng) -> usize {
    let mut positions = 0;
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..max_plies {
            compare(&pos);
            positions += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Random moves, and legal moves with other flags, must be refused unless legal.
            let mut candidates: Vec<Move> =
                (0..8).map(|_| Move::from_bits(rng.next() as u16)).collect();
            for m in moves.iter() {
                for flags in 0..16u16 {
                    candidates.push(Move::from_bits((m.bits() & 0x0FFF) | flags << 12));
                }
            }
            for junk in candidates {
                assert_eq!(
                    pos.is_legal(junk),
                    moves.contains(junk),
                    "is_legal({junk:?}) in {}",
                    pos.fen()
                );
            }
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            pos.make(m);
            pos.validate_keys().unwrap();
        }
    }
    positions
}

#[test]
fn standard_playouts_agree_with_shakmaty() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut start = Position::startpos();
    start.set_chess960(true); // Shredder castling letters for the comparison only
    let n = playouts(&start, 200, 250, &mut rng);
    assert!(n > 20_000, "{n} positions");
}

#[test]
fn chess960_playouts_agree_with_shakmaty() {
    let text = common::read("fen/chess960_start_positions.sfens");
    let mut rng = Rng(0x0DDB_A11C_0FFE_E123);
    let mut n = 0;
    for line in text.lines().filter(|l| !l.is_empty()).step_by(4) {
        let start = Position::from_fen(line, CastlingMode::Chess960).unwrap();
        n += playouts(&start, 1, 200, &mut rng);
    }
    assert!(n > 30_000, "{n} positions");
}

#[test]
fn perft_suite_positions_agree_with_shakmaty() {
    // The hand-made tricky positions: pins, en passant discoveries, castling through check.
    let mut rejected = Vec::new();
    for file in ["perft/tricky-python-chess.perft", "perft/standard.epd"] {
        for case in sable_chess::parse_suite(&common::read(file)).unwrap() {
            let mut pos = match Position::from_fen(&case.fen, CastlingMode::Chess960) {
                Ok(pos) => pos,
                Err(ours) => {
                    // Sable refuses positions that cannot arise (impossible checks): shakmaty
                    // must refuse each of them as well.
                    let theirs = case
                        .fen
                        .parse::<Fen>()
                        .map_err(|e| e.to_string())
                        .and_then(|f| {
                            f.into_position::<Chess>(shakmaty::CastlingMode::Chess960)
                                .map_err(|e| e.to_string())
                        });
                    match theirs {
                        Ok(_) => panic!("sable rejects {} ({ours}), shakmaty accepts it", case.fen),
                        Err(why) => rejected.push(format!("{}: {ours} / {why}", case.fen)),
                    }
                    continue;
                }
            };
            pos.set_chess960(true);
            compare(&pos);
        }
    }
    // Four double checks no move could give (one of them in standard.epd) and three
    // en-passant squares whose pawn could not have moved last (the check was already there).
    assert_eq!(
        rejected.len(),
        7,
        "rejected by both:\n{}",
        rejected.join("\n")
    );
}

#[test]
fn polyglot_reference_keys() {
    // The test vectors published with the Polyglot book format.
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            0x463b96181691fc9c,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            0x823c9b50fd114196,
        ),
        (
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
            0x0756b94461c50fb0,
        ),
        (
            "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
            0x662fafb965db29d4,
        ),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            0x22a48b5a8e47ff78,
        ),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
            0x652a607ca3f242c1,
        ),
        (
            "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
            0x00fdd303c946bdd9,
        ),
        (
            "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
            0x3c8123ea7b067637,
        ),
        (
            "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
            0x5c3f9b829b279560,
        ),
    ];
    for (fen, key) in cases {
        let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
        assert_eq!(pos.key(), key, "{fen}");
    }
    // And made incrementally through the same game.
    let mut pos = Position::startpos();
    for (uci, (_, key)) in ["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"]
        .iter()
        .zip(&cases[1..])
    {
        let m = pos.parse_uci(uci).unwrap();
        pos.make(m);
        assert_eq!(pos.key(), *key, "after {uci}");
    }
}
