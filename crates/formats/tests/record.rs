//! Game records (`sable_formats::record`): packing positions, moves, scores and results
//! round trip; cut-short and corrupted files are told apart and named by offset; the
//! training filter keeps exactly the quiet positions.

// The rules crate's test helpers (data, a seeded generator, Chess960 starts).
#[path = "../../chess/tests/common/mod.rs"]
mod common;

use common::Rng;
use sable_chess::{CastlingMode, Move, Position};
use sable_formats::record::{
    crc32, EncodeError, Filter, GameRecord, GameResult, PackedPosition, Ply, RecordError,
    RecordReader, RecordWriter, Score, Termination, TrainingPositions,
};

/// Start positions with every packing case near: Chess960 rights on odd files, en passant
/// (for both sides), promotions a move away, a lone king pair, a full board.
fn starts() -> Vec<Position> {
    let mut v = vec![Position::startpos()];
    for n in [0, 1, 100, 333, 518, 700, 959] {
        v.push(Position::chess960_start(n).unwrap());
    }
    for fen in [
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "rnbqkbnr/pppp1ppp/8/8/3PpP2/8/PPP1P1PP/RNBQKBNR b KQkq f3 0 3",
        "8/1P4k1/8/8/8/8/5Kp1/8 w - - 0 60",
        "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 7 40",
        "4k3/8/8/8/8/8/8/4K3 w - - 99 300",
    ] {
        v.push(Position::from_fen(fen, CastlingMode::Standard).unwrap());
    }
    let shredder = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
    v.push(Position::from_fen(shredder, CastlingMode::Chess960).unwrap());
    v
}

/// Everything observable of two positions agrees. (`==` also compares the castling
/// tables' leftovers from rights lost during the game, which no move or FEN can see.)
fn assert_same(a: &Position, b: &Position) {
    use sable_chess::{CastleSide, Color};
    assert_eq!(a.fen(), b.fen());
    assert_eq!(
        (a.key(), a.pawn_key(), a.material_key(), a.is_chess960()),
        (b.key(), b.pawn_key(), b.material_key(), b.is_chess960()),
        "{}",
        a.fen()
    );
    for c in Color::ALL {
        for side in CastleSide::ALL {
            assert_eq!(a.castling().rook(c, side), b.castling().rook(c, side));
        }
    }
    let moves = |p: &Position| p.legal_moves().iter().map(|m| m.bits()).collect::<Vec<_>>();
    assert_eq!(moves(a), moves(b), "{}", a.fen());
}

fn random_score(rng: &mut Rng) -> Score {
    match rng.below(10) {
        0 => Score::mate(rng.below(60) as i32 + 1),
        1 => Score::mate(-(rng.below(60) as i32 + 1)),
        2 => Score::cp(rng.below(80_000) as i32 - 40_000), // clamped
        _ => Score::cp(rng.below(1_200) as i32 - 600),
    }
}

/// A random game from `start`, with random scores and a random result.
fn random_game(start: &Position, rng: &mut Rng, max_plies: usize) -> GameRecord {
    let mut pos = start.clone();
    let mut plies = Vec::new();
    while plies.len() < max_plies {
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.halfmoves() >= 255 {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        plies.push(Ply {
            mv,
            score: random_score(rng),
        });
        pos.make(mv);
    }
    let result = [
        GameResult::WhiteWins,
        GameResult::Draw,
        GameResult::BlackWins,
    ][rng.below(3)];
    let termination = [
        Termination::Rules,
        Termination::WinAdjudicated,
        Termination::DrawAdjudicated,
        Termination::Length,
    ][rng.below(4)];
    GameRecord {
        start: start.clone(),
        plies,
        result,
        termination,
        number: rng.next_u64() as u32,
    }
}

fn encode_all(games: &[GameRecord]) -> (Vec<u8>, Vec<u64>) {
    let mut bytes = Vec::new();
    let mut offsets = Vec::new();
    for g in games {
        offsets.push(bytes.len() as u64);
        g.encode(&mut bytes).unwrap();
    }
    (bytes, offsets)
}

#[test]
fn every_position_of_random_games_packs_and_unpacks_to_itself() {
    let mut rng = Rng::new(7);
    let (mut positions, mut ep, mut promotions, mut castles, mut chess960_rights) = (0, 0, 0, 0, 0);
    for start in starts() {
        for _ in 0..25 {
            let mut pos = start.clone();
            for _ in 0..300 {
                let packed = PackedPosition::pack(&pos).unwrap();
                assert!(packed.as_bytes().len() <= 28);
                assert_eq!(
                    packed.as_bytes().len(),
                    PackedPosition::len_for(pos.occupied().count())
                );
                let back = PackedPosition::from_bytes(packed.as_bytes())
                    .unwrap()
                    .unpack()
                    .unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
                assert_same(&back, &pos);
                positions += 1;
                ep += pos.ep_square().is_some() as u32;
                chess960_rights += (pos.is_chess960() && !pos.castling().is_empty()) as u32;
                let legal = pos.legal_moves();
                if legal.is_empty() || pos.halfmoves() >= 200 {
                    break;
                }
                let mv = legal[rng.below(legal.len())];
                promotions += mv.is_promotion() as u32;
                castles += mv.is_castle() as u32;
                pos.make(mv);
            }
        }
    }
    assert!(positions > 20_000, "{positions}");
    assert!(
        ep > 20 && promotions > 20 && castles > 20 && chess960_rights > 1000,
        "ep {ep} promotions {promotions} castles {castles} chess960 {chess960_rights}"
    );
}

#[test]
fn games_round_trip_with_moves_scores_and_results() {
    let mut rng = Rng::new(11);
    let mut games = Vec::new();
    for start in starts() {
        for _ in 0..6 {
            games.push(random_game(&start, &mut rng, 400));
        }
    }
    games.push(random_game(&Position::startpos(), &mut rng, 0)); // no plies at all
    let (bytes, offsets) = encode_all(&games);
    let mut reader = RecordReader::new(&bytes[..]);
    for (g, off) in games.iter().zip(&offsets) {
        let back = reader.next().unwrap().unwrap();
        assert_eq!(reader.record_offset(), *off);
        assert_same(&back.start, &g.start);
        assert_eq!(
            (&back.plies, back.result, back.termination, back.number),
            (&g.plies, g.result, g.termination, g.number)
        );
        assert_eq!(back.encoded_len(), {
            let mut b = Vec::new();
            g.encode(&mut b).unwrap();
            b.len()
        });
        // The moves are the moves of the game: replaying reaches the same positions.
        let mut pos = g.start.clone();
        back.replay(|i, p, ply| {
            assert_same(p, &pos);
            assert_eq!(ply, &g.plies[i]);
            pos.make(ply.mv);
        })
        .unwrap();
    }
    assert!(reader.next().is_none());
    assert_eq!(reader.good_len(), bytes.len() as u64);
    // About 4 bytes a ply plus the start position and 16 bytes of header and checksum.
    let plies: usize = games.iter().map(|g| g.plies.len()).sum();
    assert!(bytes.len() <= plies * 4 + games.len() * 44);
}

#[test]
fn scores_clamp_and_mark_mates() {
    assert_eq!(Score::cp(30_000).as_cp(), Some(30_000));
    assert_eq!(Score::cp(30_001).as_cp(), Some(30_000));
    assert_eq!(Score::cp(i32::MIN).as_cp(), Some(-30_000));
    assert_eq!(Score::cp(-5).as_cp(), Some(-5));
    for plies in 1..=Score::MAX_MATE_PLIES {
        for p in [plies, -plies] {
            let s = Score::mate(p);
            assert!(s.is_mate() && s.as_cp().is_none());
            assert_eq!(s.mate_plies(), Some(p));
            assert_eq!(Score::from_raw(s.raw()), Some(s));
        }
    }
    assert_eq!(Score::mate(5_000).mate_plies(), Some(Score::MAX_MATE_PLIES));
    assert_eq!(Score::mate(3).negate(), Score::mate(-3));
    for raw in i16::MIN..=i16::MAX {
        let ok = (-32_000..=32_000).contains(&raw);
        assert_eq!(Score::from_raw(raw).is_some(), ok, "{raw}");
    }
    assert_eq!(Score::mate(4).to_string(), "#4");
    assert_eq!(Score::cp(-12).to_string(), "-12");
}

#[test]
fn counters_beyond_the_format_are_refused_when_writing() {
    let pos =
        Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 256 1", CastlingMode::Standard).unwrap();
    assert_eq!(PackedPosition::pack(&pos), Err(EncodeError::Halfmoves(256)));
    let pos =
        Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 70000", CastlingMode::Standard).unwrap();
    assert_eq!(
        PackedPosition::pack(&pos),
        Err(EncodeError::Fullmoves(70000))
    );
}

fn small_file() -> (Vec<GameRecord>, Vec<u8>, Vec<u64>) {
    let mut rng = Rng::new(3);
    let starts = starts();
    let games: Vec<_> = (0..3)
        .map(|i| random_game(&starts[i * 5], &mut rng, 6 + i * 3))
        .collect();
    let (bytes, offsets) = encode_all(&games);
    (games, bytes, offsets)
}

#[test]
fn a_file_cut_at_any_byte_gives_the_whole_games_then_the_offset_of_the_cut_one() {
    let (games, bytes, offsets) = small_file();
    for cut in 0..=bytes.len() {
        let mut reader = RecordReader::new(&bytes[..cut]);
        let mut read = Vec::new();
        let mut error = None;
        for r in reader.by_ref() {
            match r {
                Ok(g) => read.push(g),
                Err(e) => error = Some(e),
            }
        }
        let whole = offsets.iter().filter(|&&o| o < cut as u64).count();
        let boundary = cut == bytes.len() || offsets.contains(&(cut as u64));
        let complete = if boundary { whole } else { whole - 1 };
        assert_eq!(read, games[..complete], "cut at {cut}");
        match error {
            None => assert!(boundary, "cut at {cut}: no error"),
            Some(e) => {
                assert!(!boundary && e.is_truncation(), "cut at {cut}: {e}");
                assert_eq!(e.offset(), offsets[complete], "cut at {cut}");
                assert!(e
                    .to_string()
                    .contains(&format!("byte {}", offsets[complete])));
            }
        }
        assert_eq!(
            reader.good_len(),
            if complete == games.len() {
                bytes.len() as u64
            } else {
                offsets[complete]
            }
        );
    }
}

#[test]
fn a_changed_byte_is_refused_with_the_offset_of_its_record() {
    let (games, bytes, offsets) = small_file();
    for at in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xFF, 0x5A] {
            let mut bad = bytes.clone();
            bad[at] ^= flip;
            let record = offsets.iter().filter(|&&o| o <= at as u64).count() - 1;
            let mut read = Vec::new();
            let mut errors = Vec::new();
            for r in RecordReader::new(&bad[..]) {
                match r {
                    Ok(g) => read.push(g),
                    Err(e) => errors.push(e),
                }
            }
            assert!(!errors.is_empty(), "byte {at} ^ {flip:#x} went unnoticed");
            let e = &errors[0];
            assert!(!e.is_truncation(), "byte {at} ^ {flip:#x}: {e}");
            assert_eq!(e.offset(), offsets[record], "byte {at} ^ {flip:#x}: {e}");
            assert_eq!(read[..record], games[..record]);
            // A bad body with a good header: the reader goes on with the next records.
            if let RecordError::Checksum { .. } = e {
                assert_eq!(read.len(), games.len() - 1);
            }
        }
    }
}

#[test]
fn random_bytes_and_other_formats_are_not_records() {
    let mut rng = Rng::new(99);
    for _ in 0..200 {
        let len = 1 + rng.below(300);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let results: Vec<_> = RecordReader::new(&bytes[..]).collect();
        assert!(results.iter().any(|r| r.is_err()));
        assert!(
            results.iter().all(|r| r.is_err()),
            "random bytes read as a game"
        );
    }
    let text = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0.5\n";
    let e = RecordReader::new(&text[..]).next().unwrap().unwrap_err();
    assert!(matches!(e, RecordError::Magic { offset: 0, .. }), "{e}");
}

#[test]
fn a_checksummed_record_with_an_illegal_move_is_named_when_replayed() {
    let mut game = random_game(&Position::startpos(), &mut Rng::new(5), 10);
    game.plies[4].mv = Move::from_bits(game.plies[4].mv.bits() ^ (1 << 6)); // another `to`
    let mut bytes = Vec::new();
    random_game(&Position::startpos(), &mut Rng::new(6), 3)
        .encode(&mut bytes)
        .unwrap();
    let second = bytes.len() as u64;
    game.encode(&mut bytes).unwrap();
    let reader = RecordReader::new(&bytes[..]);
    let results: Vec<_> = TrainingPositions::new(reader, Filter::ALL).collect();
    let e = results.iter().find_map(|r| r.as_ref().err()).unwrap();
    assert!(matches!(e, RecordError::Illegal { .. }), "{e}");
    assert_eq!(e.offset(), second);
    assert!(e.to_string().contains("ply 4"), "{e}");
}

/// A position from its FEN, read the way its castling field is written.
fn reparse(fen: &str) -> Position {
    Position::from_fen(fen, CastlingMode::Standard)
        .or_else(|_| Position::from_fen(fen, CastlingMode::Chess960))
        .unwrap()
}

#[test]
fn the_filter_keeps_quiet_positions_with_their_scores_and_results_for_the_side_to_move() {
    let mut rng = Rng::new(21);
    let mut writer = RecordWriter::new(Vec::new());
    let mut games = Vec::new();
    for start in starts() {
        let g = random_game(&start, &mut rng, 150);
        writer.write(&g).unwrap();
        games.push(g);
    }
    let bytes = writer.into_inner();
    let kept: Vec<_> = TrainingPositions::new(RecordReader::new(&bytes[..]), Filter::default())
        .collect::<Result<_, _>>()
        .unwrap();
    // The same selection, made independently from FENs.
    let mut expected = Vec::new();
    for g in &games {
        let mut pos = g.start.clone();
        for (i, ply) in g.plies.iter().enumerate() {
            let fen = pos.fen();
            let before = reparse(&fen);
            pos.make(ply.mv);
            // A capture (en passant included) leaves fewer pieces.
            let captured = pos.occupied().count() < before.occupied().count();
            let in_check = before.in_check();
            if !in_check && !captured && !ply.mv.is_promotion() && !ply.score.is_mate() {
                let white = fen.split(' ').nth(1) == Some("w");
                let result = match (g.result, white) {
                    (GameResult::Draw, _) => 0.5,
                    (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 1.0,
                    _ => 0.0,
                };
                expected.push((fen, ply.score.raw(), result, i));
            }
        }
    }
    let got: Vec<_> = kept
        .iter()
        .map(|t| (t.pos.fen(), t.score, t.result, t.ply))
        .collect();
    assert_eq!(got, expected);
    assert!(got.len() > 500, "{}", got.len());
    let all = TrainingPositions::new(RecordReader::new(&bytes[..]), Filter::ALL).count();
    let plies: usize = games.iter().map(|g| g.plies.len()).sum();
    assert_eq!(all, plies);
}

#[test]
fn the_checksum_is_crc32() {
    assert_eq!(
        crc32(b"The quick brown fox jumps over the lazy dog"),
        0x414F_A339
    );
}
