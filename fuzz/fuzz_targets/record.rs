//! Arbitrary bytes as a game-record file (`sable_formats::record`, the `datagen` format).
//!
//! Read three ways: as given; with the format's magic, version and both checksums
//! written in (record by record, the last one's ply count cut to what the input holds),
//! so that mutations reach the position and move checks behind the CRCs; and the first
//! bytes as a bare `PackedPosition`.
//!
//! Every read must end with games or typed errors, never a panic. A game that reads must
//! replay or give a `ReplayError`; one that replays must encode to the very bytes it was
//! read from (the format has one encoding per game) and decode again to itself.
//! `TrainingPositions` over the same bytes must agree with the games. A packed position
//! that unpacks must be a valid position that packs to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sable_formats::record::{
    crc32, Filter, GameRecord, PackedPosition, RecordReader, TrainingPositions, HEADER_LEN, MAGIC,
    PLY_LEN, VERSION,
};

/// Writes the magic, version and checksums into each record of `bytes`, cutting the
/// ply count of a record that would run past the end.
fn fix_checksums(bytes: &mut [u8]) {
    let mut at = 0;
    while bytes.len() - at >= HEADER_LEN {
        let h = &mut bytes[at..];
        h[0] = MAGIC;
        h[1] = VERSION;
        let packed = h[5] as usize;
        let mut plies = u16::from_le_bytes([h[2], h[3]]) as usize;
        let fixed = HEADER_LEN + packed + 4;
        if fixed > h.len() {
            let check = crc32(&h[..10]) as u16;
            h[10..12].copy_from_slice(&check.to_le_bytes());
            return;
        }
        if fixed + PLY_LEN * plies > h.len() {
            plies = (h.len() - fixed) / PLY_LEN;
            h[2..4].copy_from_slice(&(plies as u16).to_le_bytes());
        }
        let check = crc32(&h[..10]) as u16;
        h[10..12].copy_from_slice(&check.to_le_bytes());
        let len = fixed + PLY_LEN * plies;
        let crc = crc32(&h[..len - 4]);
        h[len - 4..len].copy_from_slice(&crc.to_le_bytes());
        at += len;
    }
}

fn read_all(bytes: &[u8]) {
    let mut reader = RecordReader::new(bytes);
    let mut good_plies = Vec::new();
    let mut illegal = 0;
    let mut n = 0;
    while let Some(r) = reader.next() {
        n += 1;
        assert!(n <= bytes.len(), "more records than bytes");
        let offset = reader.record_offset() as usize;
        assert!(offset <= bytes.len());
        let game = match r {
            Ok(game) => game,
            Err(e) => {
                assert_eq!(e.offset() as usize, offset, "{e}");
                let _ = e.to_string();
                continue;
            }
        };
        // Decoding the same bytes directly gives the same game.
        let (direct, used) =
            GameRecord::decode(&bytes[offset..], offset as u64).expect("the reader read it");
        assert_eq!(direct, game);
        assert_eq!(used, game.encoded_len());
        if let Err(e) = game.start.validate_keys() {
            panic!("record start {}: {e}", game.start.fen());
        }
        match game.replay(|i, pos, ply| {
            assert!(pos.is_legal(ply.mv), "replay visits illegal ply {i}");
        }) {
            Ok(end) => {
                if let Err(e) = end.validate_keys() {
                    panic!("record end {}: {e}", end.fen());
                }
                good_plies.push(game.plies.len());
            }
            Err(e) => {
                assert!(e.ply < game.plies.len());
                let _ = e.to_string();
                illegal += 1;
            }
        }
        let mut again = Vec::new();
        game.encode(&mut again).expect("a decoded game encodes");
        assert_eq!(
            again,
            &bytes[offset..offset + used],
            "the record does not encode back to its bytes"
        );
        let (back, _) = GameRecord::decode(&again, 0).expect("an encoded game decodes");
        assert_eq!(back, game);
    }
    assert!(reader.good_len() <= bytes.len() as u64);

    // Every position of replayable games, none of the others.
    let mut positions = 0;
    let mut errors = 0;
    for r in TrainingPositions::new(RecordReader::new(bytes), Filter::ALL) {
        match r {
            Ok(p) => {
                assert!(p.result == 0.0 || p.result == 0.5 || p.result == 1.0);
                positions += 1;
            }
            Err(e) => {
                let _ = e.to_string();
                errors += 1;
            }
        }
    }
    assert_eq!(positions, good_plies.iter().sum::<usize>());
    assert!(errors >= illegal);
    for p in TrainingPositions::new(RecordReader::new(bytes), Filter::default()).flatten() {
        assert!(!p.pos.in_check());
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 64 * 1024 {
        return;
    }
    read_all(data);

    let mut fixed = data.to_vec();
    fix_checksums(&mut fixed);
    read_all(&fixed);

    match PackedPosition::from_bytes(data) {
        Ok(packed) => {
            let occupancy = u64::from_le_bytes(data[..8].try_into().expect("8 bytes"));
            let len = PackedPosition::len_for(occupancy.count_ones());
            assert_eq!(packed.as_bytes(), &data[..len]);
            match packed.unpack() {
                Ok(pos) => {
                    sable_fuzz::check_position(&pos);
                    let again = PackedPosition::pack(&pos).expect("counters fit");
                    assert_eq!(again, packed, "{} packs differently", pos.fen());
                }
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
