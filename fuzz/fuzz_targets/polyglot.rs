//! Arbitrary bytes as a Polyglot book (`PolyglotBook::from_bytes`, the in-memory form of
//! `PolyglotBook::open`).
//!
//! Read twice: as given (almost always refused: a typed `BookError` with a message), and
//! with each 16-byte entry's key replaced by the key of one of a few known positions
//! chosen by the entry's first byte, then sorted, so that the lookups below find
//! entries. For every book that loads: the entries for a key all have that key; every
//! move `legal_entries`, `moves`, `best_move`, `weighted_move` and `decode_move` return
//! is legal; merging the book with itself (every rule) and learning from a short game
//! keep it a valid book.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sable_formats::book::decode_move;
use sable_formats::book::edit::{learn_game, merge, MergeRule};
use sable_formats::pgn::GameResult;
use sable_chess::{Move, Position};
use sable_formats::{BookEntry, PolyglotBook};
use sable_fuzz::{check_returned_move, position_for, POSITIONS};
use std::sync::OnceLock;

/// The fixed positions and every position one move after the start.
fn known() -> &'static [Position] {
    static KNOWN: OnceLock<Vec<Position>> = OnceLock::new();
    KNOWN.get_or_init(|| {
        let mut v: Vec<Position> = (0..POSITIONS.len() as u8).map(position_for).collect();
        let start = Position::startpos();
        for &m in start.legal_moves().iter() {
            let mut p = start.clone();
            p.make(m);
            v.push(p);
        }
        v
    })
}

fn check_book(book: &PolyglotBook) {
    let entries = book.all_entries();
    assert_eq!(book.len(), entries.len());
    assert!(!book.is_empty());
    assert!(
        entries.windows(2).all(|w| w[0].key <= w[1].key),
        "unsorted book loaded"
    );
    for pos in known() {
        let found = book.entries(pos);
        assert!(found.iter().all(|e| e.key == pos.key()));
        assert_eq!(found, book.entries_for_key(pos.key()));
        for (m, e) in book.legal_entries(pos) {
            check_returned_move(pos, m, "legal_entries");
            assert_eq!(e.key, pos.key());
        }
        let moves = book.moves(pos);
        for &(m, _) in &moves {
            check_returned_move(pos, m, "moves");
        }
        if let Some(m) = book.best_move(pos) {
            assert!(
                moves.iter().any(|&(x, _)| x == m),
                "best_move not among moves"
            );
        }
        for random in [0, 1, 12345, u64::MAX] {
            match book.weighted_move(pos, random) {
                Some(m) => assert!(moves.iter().any(|&(x, _)| x == m)),
                None => assert!(
                    moves.is_empty(),
                    "weighted_move found nothing among {moves:?}"
                ),
            }
        }
        for e in found {
            if let Some(m) = decode_move(pos, e.raw_move) {
                check_returned_move(pos, m, "decode_move");
            }
        }
    }
    for rule in [MergeRule::Sum, MergeRule::Max, MergeRule::First] {
        let merged = merge(book, book, rule);
        // Every move of the second copy is found in the first: nothing is added.
        assert_eq!(merged.len(), book.len(), "{rule:?}");
    }
    // Learning from a short game from the start position.
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut moves: Vec<Move> = Vec::new();
    for _ in 0..4 {
        let Some(m) = book
            .best_move(&pos)
            .or_else(|| pos.legal_moves().iter().next().copied())
        else {
            break;
        };
        pos.make(m);
        moves.push(m);
    }
    for result in [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
    ] {
        let mut learned = book.clone();
        learn_game(&mut learned, &start, &moves, result);
        assert_eq!(learned.len(), book.len());
        let bytes: Vec<u8> = learned
            .all_entries()
            .iter()
            .flat_map(|e| e.to_bytes())
            .collect();
        PolyglotBook::from_bytes(&bytes).expect("a learned book is still a book");
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 16 * 1024 {
        return;
    }
    match PolyglotBook::from_bytes(data) {
        Ok(book) => {
            assert_eq!(book.len() * 16, data.len());
            let round: Vec<u8> = book
                .all_entries()
                .iter()
                .flat_map(|e| e.to_bytes())
                .collect();
            assert_eq!(round, data, "entries do not write back as the bytes read");
            check_book(&book);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }

    // The same entries keyed to known positions.
    let known = known();
    let mut entries: Vec<BookEntry> = data
        .chunks_exact(16)
        .map(|c| {
            let mut e = BookEntry::from_bytes(c.try_into().expect("16 bytes"));
            e.key = known[c[0] as usize % known.len()].key();
            e
        })
        .collect();
    entries.sort_by_key(|e| e.key);
    match PolyglotBook::from_entries(entries) {
        Ok(book) if !book.is_empty() => check_book(&book),
        Ok(_) => {}
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
