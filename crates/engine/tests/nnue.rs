//! NNUE inference against independent references: the lazily updated accumulators
//! against sums computed here from the board, the integer output against a float
//! network with the same weights, AVX2 against the portable kernels, the file loader
//! against damaged files, and searches with a network.

use sable_chess::{CastlingMode, Color, Move, MoveKind, Position, Role, SanMode, Square};
use sable_engine::nnue::rng::Rng;
use sable_engine::nnue::{Backend, Inputs, NetError, Network, NnueStack, INPUTS};
use sable_engine::{Engine, ScoreReport, SearchLimits};
use sable_formats::pgn::PgnReader;
use std::sync::Arc;

fn random_net(hidden: usize, seed: u64) -> Network {
    Network::random(hidden, 1, seed).unwrap()
}

fn bucketed_net(hidden: usize, buckets: usize, seed: u64) -> Network {
    Network::random(hidden, buckets, seed).unwrap()
}

/// Both perspectives' sums computed here, in `i32`, with the feature index written out
/// from its definition (not the library's `feature`): for a net with mirrored inputs, a
/// perspective whose king stands on files e-h reads every file mirrored (a <-> h); with
/// king buckets it reads the 768 rows of the bucket the net's table gives its king's
/// square (files a-d after that mirror, rank 1 its own back rank).
fn reference_sums(net: &Network, pos: &Position) -> [Vec<i16>; 2] {
    reference_sums_without(net, pos, None)
}

/// [`reference_sums`] with the piece on `skip` (if any) left out.
fn reference_sums_without(net: &Network, pos: &Position, skip: Option<Square>) -> [Vec<i16>; 2] {
    let h = net.hidden();
    let mut out = [Vec::new(), Vec::new()];
    for (c, persp) in [Color::White, Color::Black].into_iter().enumerate() {
        let mut acc: Vec<i32> = net.feature_biases().iter().map(|&b| b as i32).collect();
        let mirror = net.mirrored() && pos.king(persp).index() % 8 >= 4;
        let base = INPUTS * reference_bucket(net, pos, persp);
        for sq in pos.occupied().into_iter().filter(|&sq| Some(sq) != skip) {
            let p = pos.piece_at(sq).unwrap();
            let rel = if p.color() == persp { 0 } else { 1 };
            let rank = sq.index() / 8;
            let file = sq.index() % 8;
            let file = if mirror { 7 - file } else { file };
            let rank = if persp == Color::Black {
                7 - rank
            } else {
                rank
            };
            let f = rel * 384 + p.role().index() * 64 + rank * 8 + file;
            assert!(f < INPUTS);
            for (a, w) in acc.iter_mut().zip(net.feature_weights(base + f)) {
                *a += *w as i32;
            }
        }
        assert_eq!(acc.len(), h);
        out[c] = acc.into_iter().map(|x| i16::try_from(x).unwrap()).collect();
    }
    out
}

/// The king bucket `persp` reads in `pos`: the net's table at its king's square seen
/// from its side (rank 1 its back rank), files mirrored to a-d; 0 without buckets.
fn reference_bucket(net: &Network, pos: &Position, persp: Color) -> usize {
    if net.inputs().buckets() == 1 {
        return 0;
    }
    let (rank, file) = (pos.king(persp).index() / 8, pos.king(persp).index() % 8);
    let rank = if persp == Color::Black {
        7 - rank
    } else {
        rank
    };
    let file = if file >= 4 { 7 - file } else { file };
    net.inputs().table()[rank * 4 + file] as usize
}

fn check(stack: &mut NnueStack, net: &Network, pos: &Position, what: &str) {
    let want = reference_sums(net, pos);
    let (w, b) = stack.sums();
    assert!(
        w == &want[0][..] && b == &want[1][..],
        "{what}: {}",
        pos.fen()
    );
}

#[derive(Default, Debug)]
struct Seen {
    castle_short: usize,
    castle_long: usize,
    en_passant: usize,
    promotions: [usize; 4],
    nulls: usize,
    captures: usize,
    /// King moves (castling included) from one half of the board (files a-d, e-h) to
    /// the other.
    crossings: usize,
    /// Moves that take the mover's king into another king bucket.
    bucket_changes: usize,
    plies: usize,
}

/// Whether `m` takes a king across the d/e line.
fn crosses(pos: &Position, m: Move) -> bool {
    if pos.role_at(m.from()) != Some(Role::King) {
        return false;
    }
    let to = if m.kind() == MoveKind::Castle {
        m.castle_king_to()
    } else {
        m.to()
    };
    (m.from().index() % 8 >= 4) != (to.index() % 8 >= 4)
}

/// The longest game [`walk`] follows (the longest of the lichess games has 274 plies,
/// by python-chess).
const MAX_PLIES: usize = 1024;

/// Random games from `start`; moves of rare kinds are preferred when available.
fn play(start: Position, net: &Arc<Network>, rng: &mut Rng, seen: &mut Seen) {
    walk(start, net, Backend::detect(), rng, seen, |pos, ply, rng| {
        let moves = pos.legal_moves();
        if ply >= 200 || moves.is_empty() || pos.halfmoves() >= 100 {
            return None;
        }
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.kind() != MoveKind::Normal)
            .collect();
        Some(if !special.is_empty() && rng.below(2) == 0 {
            special[rng.below(special.len())]
        } else {
            moves.as_slice()[rng.below(moves.len())]
        })
    });
}

/// Plays the moves `next` gives from `start`, with a null move tried now and
/// then, comparing the accumulators with the reference after some plies (so the lazy
/// catch-up spans several), then walks back down, comparing every frame.
fn walk(
    start: Position,
    net: &Arc<Network>,
    backend: Backend,
    rng: &mut Rng,
    seen: &mut Seen,
    mut next: impl FnMut(&Position, usize, &mut Rng) -> Option<Move>,
) {
    let mut stack = NnueStack::new(net.clone(), MAX_PLIES + 1);
    stack.set_backend(backend);
    let mut pos = start;
    stack.reset(&pos);
    check(&mut stack, net, &pos, "root");
    let mut path: Vec<(Move, sable_chess::Undo, Position)> = Vec::new();
    for ply in 0..MAX_PLIES {
        let Some(m) = next(&pos, ply, rng) else {
            break;
        };
        if !pos.in_check() && rng.below(10) == 0 {
            let undo = pos.make_null();
            stack.push_null();
            check(&mut stack, net, &pos, "after a null move");
            pos.unmake_null(&undo);
            stack.pop();
            seen.nulls += 1;
        }
        match m.kind() {
            MoveKind::Castle if m.to().index() > m.from().index() => seen.castle_short += 1,
            MoveKind::Castle => seen.castle_long += 1,
            MoveKind::EnPassant => seen.en_passant += 1,
            MoveKind::Promotion(r) => seen.promotions[r.index() - 1] += 1,
            MoveKind::Normal => {}
        }
        seen.captures += pos.is_capture(m) as usize;
        seen.crossings += crosses(&pos, m) as usize;
        seen.plies += 1;
        let before = pos.clone();
        stack.push_move(&pos, m);
        let undo = pos.make(m);
        let mover = before.turn();
        seen.bucket_changes +=
            (reference_bucket(net, &before, mover) != reference_bucket(net, &pos, mover)) as usize;
        if ply % 3 != 1 {
            check(&mut stack, net, &pos, "after a move");
        }
        path.push((m, undo, before));
    }
    // Back down the path: every frame still matches its position.
    while let Some((m, undo, before)) = path.pop() {
        pos.unmake(m, &undo);
        stack.pop();
        assert_eq!(pos, before);
        check(&mut stack, net, &pos, "after unmake");
    }
}

#[test]
fn incremental_accumulators_equal_a_fresh_computation() {
    let net = Arc::new(random_net(32, 7));
    let mut rng = Rng(42);
    let mut seen = Seen::default();
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    for _ in 0..300 {
        play(Position::startpos(), &net, &mut rng, &mut seen);
        for fen in fens {
            play(
                Position::from_fen(fen, CastlingMode::Standard).unwrap(),
                &net,
                &mut rng,
                &mut seen,
            );
        }
    }
    for n in 0..960 {
        play(
            Position::chess960_start(n).unwrap(),
            &net,
            &mut rng,
            &mut seen,
        );
    }
    assert!(seen.castle_short > 10 && seen.castle_long > 10, "{seen:?}");
    assert!(
        seen.en_passant > 5 && seen.nulls > 100 && seen.captures > 100,
        "{seen:?}"
    );
    assert!(seen.promotions.iter().all(|&n| n > 3), "{seen:?}");
}

/// Random games where king moves across the d/e line are preferred (castling long, a
/// king stepping between the d- and e-files, Chess960 castling across), with en passant,
/// promotions, captures and null moves: every frame equals the board's sums, for a net
/// with mirrored inputs (whose frames are then recomputed for the mover) and one
/// without, on every backend this CPU has.
#[test]
fn mirrored_nets_follow_kings_across_the_board_on_every_backend() {
    let backends: Vec<Backend> = std::iter::once(Backend::Portable)
        .chain(Backend::avx2())
        .collect();
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ];
    for (net, mirrored) in [
        (Network::random(32, 1, 17).unwrap(), false),
        (
            Network::random(32, 1, 17)
                .unwrap()
                .with_mirrored_inputs(true),
            true,
        ),
        (
            Network::random(48, 4, 18)
                .unwrap()
                .with_mirrored_inputs(true),
            true,
        ),
        (
            Network::random_with_inputs(Inputs::preset(4).unwrap(), 32, 2, 19).unwrap(),
            true,
        ),
        (
            Network::random_with_inputs(Inputs::preset(10).unwrap(), 16, 1, 20).unwrap(),
            true,
        ),
    ] {
        assert_eq!(net.mirrored(), mirrored);
        let net = Arc::new(net);
        for &backend in &backends {
            let mut rng = Rng(5);
            let mut seen = Seen::default();
            let mut starts: Vec<Position> = fens
                .iter()
                .map(|f| Position::from_fen(f, CastlingMode::Standard).unwrap())
                .collect();
            starts.push(Position::startpos());
            starts.extend(
                (0..960)
                    .step_by(37)
                    .map(|n| Position::chess960_start(n).unwrap()),
            );
            for _ in 0..12 {
                for start in &starts {
                    walk(
                        start.clone(),
                        &net,
                        backend,
                        &mut rng,
                        &mut seen,
                        |pos, ply, rng| {
                            let moves = pos.legal_moves();
                            if ply >= 160 || moves.is_empty() || pos.halfmoves() >= 100 {
                                return None;
                            }
                            let all = moves.as_slice();
                            let pick = |keep: &dyn Fn(&Move) -> bool, rng: &mut Rng| {
                                let some: Vec<Move> = all.iter().copied().filter(keep).collect();
                                (!some.is_empty()).then(|| some[rng.below(some.len())])
                            };
                            let crossing = pick(&|m| crosses(pos, *m), rng);
                            let special = pick(&|m| m.kind() != MoveKind::Normal, rng);
                            Some(match rng.below(4) {
                                0 | 1 if crossing.is_some() => crossing.unwrap(),
                                0 | 2 if special.is_some() => special.unwrap(),
                                _ => all[rng.below(all.len())],
                            })
                        },
                    );
                }
            }
            eprintln!("mirrored {mirrored}, {backend:?}: {seen:?}");
            assert!(seen.crossings > 1000, "{seen:?}");
            assert!(
                (net.inputs().buckets() == 1) == (seen.bucket_changes == 0),
                "{seen:?}"
            );
            assert!(
                net.inputs().buckets() == 1 || seen.bucket_changes > 1000,
                "{seen:?}"
            );
            assert!(seen.castle_short > 50 && seen.castle_long > 50, "{seen:?}");
            assert!(
                seen.en_passant > 5 && seen.nulls > 100 && seen.captures > 100,
                "{seen:?}"
            );
            assert!(seen.promotions.iter().all(|&n| n > 3), "{seen:?}");
        }
    }
}

/// With mirrored inputs each side sees its king on files a-d, so a position and its a-h
/// mirror (castling rights are no input) are the same inputs: the same evaluation, bit
/// for bit, where a plain net tells them apart.
#[test]
fn a_mirrored_net_scores_a_position_and_its_mirror_alike() {
    let mirrored = Network::random(64, 8, 3)
        .unwrap()
        .with_mirrored_inputs(true);
    let plain = Network::random(64, 8, 3).unwrap();
    let mut differ = 0;
    for pos in positions(300, 12) {
        let fen = pos.fen();
        let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
        fields[0] = fields[0]
            .split('/')
            .map(|rank| rank.chars().rev().collect::<String>())
            .collect::<Vec<_>>()
            .join("/");
        fields[2] = "-".into();
        fields[3] = "-".into();
        let other = Position::from_fen(&fields.join(" "), CastlingMode::Standard).unwrap();
        assert_eq!(
            mirrored.evaluate(&pos),
            mirrored.evaluate(&other),
            "{fen} and {}",
            other.fen()
        );
        differ += (plain.evaluate(&pos) != plain.evaluate(&other)) as usize;
    }
    assert!(
        differ > 250,
        "the plain net scored {} of 300 alike",
        300 - differ
    );
}

#[test]
fn accumulators_follow_every_move_of_real_games() {
    let bytes = sable_testdata::read("pgn/lichess/lichess-user-export-3970-games.pgn");
    let net = Arc::new(bucketed_net(64, 4, 11));
    let mut rng = Rng(7);
    let mut seen = Seen::default();
    let mut games = 0;
    for item in PgnReader::new(&bytes[..]).trees(SanMode::Strict) {
        let tree = item.expect("the lichess games parse");
        let moves: Vec<Move> = tree.root.moves.iter().map(|node| node.mv).collect();
        assert!(moves.len() < MAX_PLIES);
        walk(
            tree.start.clone(),
            &net,
            Backend::detect(),
            &mut rng,
            &mut seen,
            |_, ply, _| moves.get(ply).copied(),
        );
        games += 1;
    }
    assert_eq!(games, 3970);
    // Every ply of every game was followed (the PGN tests count 285,211).
    assert_eq!(seen.plies, 285_211);
    assert!(
        seen.castle_short > 1000 && seen.castle_long > 100,
        "{seen:?}"
    );
    assert!(
        seen.en_passant > 10 && seen.promotions[Role::Queen.index() - 1] > 10,
        "{seen:?}"
    );
}

/// The float network of the same (dequantised) weights, written out plainly; the output
/// bucket from the definition (equal bands of `32 / B` pieces from two pieces up, the
/// last band taking the rest).
fn float_eval(net: &Network, pos: &Position) -> f64 {
    float_eval_without(net, pos, None)
}

/// [`float_eval`] with the piece on `skip` (if any) lifted off the board.
fn float_eval_without(net: &Network, pos: &Position, skip: Option<Square>) -> f64 {
    let h = net.hidden();
    let sums = reference_sums_without(net, pos, skip);
    let us = pos.turn().index();
    let pieces = pos.occupied().into_iter().count() - skip.is_some() as usize;
    let buckets = net.buckets();
    let bucket = ((pieces - 2) / (32 / buckets)).min(buckets - 1);
    let w = net.output_weights(bucket);
    let mut out = net.output_bias(bucket) as f64 / (255.0 * 64.0);
    for (half, side) in [us, 1 - us].into_iter().enumerate() {
        for i in 0..h {
            let a = (sums[side][i] as f64 / 255.0).clamp(0.0, 1.0);
            out += a * a * w[half * h + i] as f64 / 64.0;
        }
    }
    out * net.output_scale() as f64
}

fn positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::startpos();
        for _ in 0..rng.below(120) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves.as_slice()[rng.below(moves.len())]);
        }
        out.push(pos);
    }
    out
}

#[test]
fn quantised_output_is_within_a_centipawn_of_the_float_network() {
    // Integer sums are exact; only the two truncating divisions (by QA, then by
    // QA·QB/scale) lose anything: less than scale/16320 + 1 cp. The rescaled nets (output
    // scale 350 as shipped, and both ends of the allowed range) against the float net
    // multiplied by their own scale.
    for (hidden, buckets, seed, scale, mirrored) in [
        (16, 1, 1, 400, false),
        (32, 1, 2, 400, false),
        (64, 1, 3, 400, false),
        (256, 1, 4, 400, false),
        (32, 8, 5, 400, false),
        (64, 3, 6, 400, false),
        (128, 8, 7, 350, false),
        (32, 8, 8, 100, false),
        (32, 1, 9, 1600, false),
        (32, 1, 10, 400, true),
        (128, 8, 11, 350, true),
    ] {
        let net = bucketed_net(hidden, buckets, seed)
            .with_output_scale(scale)
            .unwrap()
            .with_mirrored_inputs(mirrored);
        within_a_centipawn(&net, seed);
    }
    for (king_buckets, hidden, buckets, seed) in [(2, 32, 1, 12), (4, 64, 8, 13), (10, 32, 4, 14)] {
        let inputs = Inputs::preset(king_buckets).unwrap();
        within_a_centipawn(
            &Network::random_with_inputs(inputs, hidden, buckets, seed).unwrap(),
            seed,
        );
    }
}

fn within_a_centipawn(net: &Network, seed: u64) {
    let (hidden, buckets, scale) = (net.hidden(), net.buckets(), net.output_scale());
    {
        let bound = 1.0 + scale as f64 / 16_320.0;
        for pos in positions(300, seed) {
            let f = float_eval(net, &pos);
            let q = net.evaluate(&pos) as f64;
            assert!(
                (f - q).abs() <= bound,
                "hidden {hidden}, {buckets} buckets, scale {scale}: float {f}, int {q} in {}",
                pos.fen()
            );
        }
    }
}

/// The output scale is the net's: written and read back with it, every score multiplied
/// by it (within the truncation of each), and refused outside its range by name.
#[test]
fn output_scale_travels_with_the_net() {
    let trained = bucketed_net(64, 8, 31);
    assert_eq!(trained.output_scale(), 400);
    let shrunk = trained.clone().with_output_scale(350).unwrap();
    let bytes = shrunk.to_bytes();
    assert_eq!(u16::from_le_bytes([bytes[12], bytes[13]]), 350);
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!((back.output_scale(), &back), (350, &shrunk));
    // Only the header field and the checksum differ from the trained net's file.
    let original = trained.to_bytes();
    let differing: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i] != original[i])
        .collect();
    assert!(differing
        .iter()
        .all(|&i| i == 12 || i == 13 || i >= bytes.len() - 4));
    for pos in positions(300, 31) {
        let (a, b) = (trained.evaluate(&pos), back.evaluate(&pos));
        // Both truncate the same exact sum: a·350/400 and b differ by under 2 cp.
        assert!(
            (a as f64 * 350.0 / 400.0 - b as f64).abs() < 2.0,
            "400: {a}, 350: {b} in {}",
            pos.fen()
        );
    }
    for bad in [0, 99, 1601, -350] {
        assert!(matches!(
            trained.clone().with_output_scale(bad),
            Err(NetError::OutputScale { found }) if found == bad
        ));
    }
    let mut file = original.clone();
    file[12..14].copy_from_slice(&99u16.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&file).unwrap_err(),
        NetError::OutputScale { found: 99 }
    );
    file[12..14].copy_from_slice(&1601u16.to_le_bytes());
    assert!(Network::from_bytes(&file)
        .unwrap_err()
        .to_string()
        .contains("output scale 1601 cp"));
}

/// `sable eval`'s piece values: each piece but the kings, worth (White's view) the float
/// network's output minus its output without the piece, within the two evaluations'
/// rounding (1.03 cp each).
#[test]
fn piece_values_are_the_outputs_without_each_piece() {
    for (hidden, buckets, seed) in [(32, 1, 21), (64, 8, 22)] {
        let net = bucketed_net(hidden, buckets, seed);
        for pos in positions(40, seed) {
            let values = net.piece_values(&pos);
            let kings = pos
                .occupied()
                .into_iter()
                .filter(|&sq| pos.piece_at(sq).unwrap().role() == Role::King)
                .count();
            assert_eq!(values.len(), pos.occupied().into_iter().count() - kings);
            let sign = if pos.turn() == Color::White {
                1.0
            } else {
                -1.0
            };
            let all = float_eval(&net, &pos);
            for (sq, piece, cp) in values {
                assert_eq!(pos.piece_at(sq), Some(piece));
                let want = sign * (all - float_eval_without(&net, &pos, Some(sq)));
                assert!(
                    (cp as f64 - want).abs() <= 2.1,
                    "{piece:?} on {sq:?}: {cp} against {want} in {}",
                    pos.fen()
                );
            }
        }
    }
}

/// The kernels' definition, written out plainly in wide integers: `dst = src + Σ adds −
/// Σ subs` wrapped to 16 bits, and `Σ v · trunc16(v · w)` with `v = clamp(x, 0, QA)`,
/// wrapped to 32 bits.
fn reference_update(src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) -> Vec<i16> {
    (0..src.len())
        .map(|i| {
            let sum = src[i] as i64 + adds.iter().map(|r| r[i] as i64).sum::<i64>()
                - subs.iter().map(|r| r[i] as i64).sum::<i64>();
            sum as i16
        })
        .collect()
}

fn reference_screlu_dot(x: &[i16], w: &[i16]) -> i32 {
    let sum: i64 = x
        .iter()
        .zip(w)
        .map(|(&x, &w)| {
            let v = (x as i64).clamp(0, sable_engine::nnue::QA as i64);
            v * ((v * w as i64) as i16 as i64)
        })
        .sum();
    sum as i32
}

/// Every kernel this CPU has (the portable one always, AVX2 where detected) against the
/// plain reference above, and, where AVX2 exists, whole evaluations of both backends.
#[test]
fn simd_and_portable_kernels_agree_bit_for_bit_with_the_reference() {
    let backends: Vec<Backend> = std::iter::once(Backend::Portable)
        .chain(Backend::avx2())
        .collect();
    let mut rng = Rng(9);
    for len in [16, 32, 48, 128, 144, 256, 400, 1024] {
        for _ in 0..200 {
            // Extreme values too: the sums must wrap identically.
            let v = |rng: &mut Rng| match rng.below(4) {
                0 => i16::MIN + rng.below(4) as i16,
                1 => i16::MAX - rng.below(4) as i16,
                _ => (rng.next_u64() as i16) >> rng.below(12),
            };
            let x: Vec<i16> = (0..len).map(|_| v(&mut rng)).collect();
            let w: Vec<i16> = (0..len)
                .map(|_| (rng.next_u64() % 257) as i16 - 128)
                .collect();
            let rows: Vec<Vec<i16>> = (0..4)
                .map(|_| (0..len).map(|_| v(&mut rng)).collect())
                .collect();
            let (adds, subs) = ([&rows[0][..], &rows[1][..]], [&rows[2][..], &rows[3][..]]);
            for &backend in &backends {
                assert_eq!(
                    backend.screlu_dot(&x, &w),
                    reference_screlu_dot(&x, &w),
                    "{backend:?}"
                );
                for n in 0..=4 {
                    let all: Vec<&[i16]> = rows.iter().map(|r| &r[..]).collect();
                    let mut dst = vec![0; len];
                    backend.refresh(&mut dst, &x, &all[..n]);
                    assert_eq!(dst, reference_update(&x, &all[..n], &[]), "{backend:?}");
                }
                for (na, ns) in [(1, 1), (1, 2), (2, 2), (0, 0), (2, 1)] {
                    let mut dst = vec![0; len];
                    backend.update(&mut dst, &x, &adds[..na], &subs[..ns]);
                    assert_eq!(
                        dst,
                        reference_update(&x, &adds[..na], &subs[..ns]),
                        "{backend:?}"
                    );
                }
            }
        }
    }
    let Some(avx2) = Backend::avx2() else {
        eprintln!("no AVX2 on this CPU: the portable kernels were checked alone");
        return;
    };
    for (hidden, mirrored) in [(32, false), (128, false), (64, true)] {
        let net = Arc::new(random_net(hidden, 11).with_mirrored_inputs(mirrored));
        let (mut p, mut s) = (
            NnueStack::new(net.clone(), 4),
            NnueStack::new(net.clone(), 4),
        );
        p.set_backend(Backend::Portable);
        s.set_backend(avx2);
        for pos in positions(500, hidden as u64) {
            p.reset(&pos);
            s.reset(&pos);
            assert_eq!(p.evaluate(&pos), s.evaluate(&pos), "{}", pos.fen());
        }
    }
}

#[test]
fn damaged_net_files_are_refused_with_the_reason() {
    let good = random_net(32, 5).to_bytes();
    assert_eq!(Network::from_bytes(&good).unwrap(), random_net(32, 5));
    assert_eq!(good.len(), 24 + 1542 * 32);
    let refuse = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
    assert!(matches!(
        refuse(&good[..10]),
        NetError::TooShort { len: 10 }
    ));
    assert!(matches!(
        refuse(&good[..good.len() - 1]),
        NetError::WrongSize { hidden: 32, .. }
    ));
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(refuse(&longer), NetError::WrongSize { .. }));
    let mut flipped = good.clone();
    flipped[1000] ^= 4;
    assert!(matches!(refuse(&flipped), NetError::Checksum { .. }));
    let mut magic = good.clone();
    magic[0] = b'X';
    assert!(matches!(refuse(&magic), NetError::BadMagic { .. }));
    let mut version = good.clone();
    version[4] = 9;
    assert!(matches!(refuse(&version), NetError::Version { found: 9 }));
    let mut hidden = good.clone();
    hidden[6] = 17;
    assert!(matches!(refuse(&hidden), NetError::Hidden { found: 17 }));
    let mut qa = good.clone();
    qa[8] = 0;
    assert!(matches!(refuse(&qa), NetError::Quantisation { .. }));
    // Weights whose sums could overflow the kernels: refused by the range check.
    let h = 16;
    let big = Network::from_parts(h, vec![2000; 768 * h], vec![0; h], vec![1; 2 * h], vec![0]);
    assert!(matches!(big, Err(NetError::Range(_))));
    let wide = Network::from_parts(h, vec![1; 768 * h], vec![0; h], vec![200; 2 * h], vec![0]);
    assert!(matches!(wide, Err(NetError::Range(_))));
    let short = Network::from_parts(h, vec![1; 768 * h], vec![0; h], vec![1; 2 * h], vec![0; 2]);
    assert!(matches!(short, Err(NetError::Range(_))));
    // Output buckets: a version 2 file, its size from the layout, the count checked.
    let good = bucketed_net(32, 8, 5).to_bytes();
    assert_eq!(Network::from_bytes(&good).unwrap(), bucketed_net(32, 8, 5));
    assert_eq!(good.len(), 20 + 1538 * 32 + 4 * 32 * 8 + 4 * 8);
    assert_eq!((good[4], good[14]), (2, 8));
    let mut buckets = good.clone();
    buckets[14] = 17;
    assert!(matches!(
        refuse(&buckets),
        NetError::Buckets { found: 17, .. }
    ));
    buckets[14] = 1;
    assert!(matches!(
        refuse(&buckets),
        NetError::Buckets { found: 1, .. }
    ));
    buckets[14] = 4;
    assert!(matches!(
        refuse(&buckets),
        NetError::WrongSize { buckets: 4, .. }
    ));
    let mut v1 = random_net(32, 5).to_bytes();
    v1[14] = 8;
    assert!(matches!(refuse(&v1), NetError::Buckets { version: 1, .. }));
    assert!(refuse(&v1).to_string().contains("output buckets"));
    // A net compiled in (nets/default.nnue) must itself load.
    if let Some(bytes) = sable_engine::nnue::EMBEDDED {
        Network::from_bytes(bytes).expect("the embedded net loads");
    }
    let err = Network::load(std::path::Path::new("/nonexistent/net.nnue")).unwrap_err();
    assert!(err.to_string().contains("/nonexistent/net.nnue"), "{err}");
    // Every message names what is wrong.
    assert!(refuse(&flipped).to_string().contains("checksum"));
    assert!(refuse(&good[..good.len() - 1])
        .to_string()
        .contains("wrong size"));
}

/// Format version 3 holds a net with mirrored inputs, with any bucket count (one too):
/// written and read back with the flag, the same size as version 1 or 2, only the
/// header and checksum differing. Version 1 and 2 files (the embedded net too) are read
/// as plain nets and written back byte for byte; a version 3 bucket count out of range
/// and an unknown version are refused by name.
#[test]
fn mirrored_nets_are_format_version_3() {
    let u16_at = |b: &[u8], i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    for (buckets, version) in [(1, 1), (8, 2)] {
        let plain = bucketed_net(32, buckets, 41);
        let bytes = plain.to_bytes();
        assert_eq!(u16_at(&bytes, 4), version);
        let read = Network::from_bytes(&bytes).unwrap();
        assert!(!read.mirrored());
        assert_eq!(read.to_bytes(), bytes);
        let mirrored = plain.clone().with_mirrored_inputs(true);
        assert_ne!(mirrored, plain);
        let m = mirrored.to_bytes();
        assert_eq!((u16_at(&m, 4), u16_at(&m, 14)), (3, buckets as u16));
        assert_eq!(m.len(), bytes.len());
        assert!((0..m.len())
            .filter(|&i| m[i] != bytes[i])
            .all(|i| i == 4 || i == 14 || i >= m.len() - 4));
        let back = Network::from_bytes(&m).unwrap();
        assert!(back.mirrored());
        assert_eq!(back, mirrored);
        assert_eq!(back.to_bytes(), m);
        // Rescaling keeps the inputs as they are.
        let rescaled = back.with_output_scale(350).unwrap();
        assert!(Network::from_bytes(&rescaled.to_bytes())
            .unwrap()
            .mirrored());
    }
    let refuse = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
    let mut m = bucketed_net(32, 1, 41)
        .with_mirrored_inputs(true)
        .to_bytes();
    for bad in [0u16, 17] {
        m[14..16].copy_from_slice(&bad.to_le_bytes());
        let err = refuse(&m);
        assert!(
            matches!(err, NetError::Buckets { found, version: 3, .. } if found == bad),
            "{err:?}"
        );
        assert!(
            err.to_string().contains("version 3 net has 1..=16"),
            "{err}"
        );
    }
    m[4] = 5;
    assert_eq!(refuse(&m), NetError::Version { found: 5 });
    assert!(refuse(&m).to_string().contains("reads 1 to 4"));
    if let Some(bytes) = sable_engine::nnue::EMBEDDED {
        // Mirrored exactly when its header says version 3 (it is, since r9-hm).
        let net = Network::from_bytes(bytes).unwrap();
        assert_eq!(net.mirrored(), bytes[4] == 3);
        assert!(
            net.to_bytes() == bytes,
            "the embedded net is not written back as read"
        );
    }
}

/// A net with king buckets is format version 4: the header of version 3, the 32-byte
/// bucket table, 768 rows per bucket; it is written back byte for byte, its size is the
/// documented one, the presets are the layouts their documentation names, and a bad
/// table is refused by name.
#[test]
fn king_bucketed_nets_are_format_version_4() {
    let u16_at = |b: &[u8], i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    // The presets, written out from their documentation (rank 1 first, files a-d).
    #[rustfmt::skip]
    let two = [[0, 0, 0, 0], [1; 4], [1; 4], [1; 4], [1; 4], [1; 4], [1; 4], [1; 4]];
    #[rustfmt::skip]
    let four = [[0, 0, 1, 1], [2; 4], [3; 4], [3; 4], [3; 4], [3; 4], [3; 4], [3; 4]];
    #[rustfmt::skip]
    let ten = [[0, 1, 2, 3], [4, 4, 5, 5], [6; 4], [7; 4], [8; 4], [8; 4], [9; 4], [9; 4]];
    for (k, ranks) in [(2, two), (4, four), (10, ten)] {
        let inputs = Inputs::preset(k).unwrap();
        assert_eq!(inputs.table().to_vec(), ranks.concat(), "preset {k}");
        assert_eq!((inputs.buckets(), inputs.mirrored()), (k, true));
        for (hidden, buckets) in [(16, 1), (32, 8)] {
            let net = Network::random_with_inputs(inputs, hidden, buckets, 5).unwrap();
            let bytes = net.to_bytes();
            assert_eq!(u16_at(&bytes, 4), 4);
            assert_eq!(u16_at(&bytes, 14), buckets as u16);
            assert_eq!(&bytes[16..48], &inputs.table()[..]);
            assert_eq!(
                bytes.len(),
                52 + 1536 * k * hidden + 2 * hidden + 4 * hidden * buckets + 4 * buckets
            );
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back, net);
            assert_eq!(back.to_bytes(), bytes);
            // Its first king bucket's rows are the plain net's of the same seed.
            let plain = bucketed_net(hidden, buckets, 5);
            assert_eq!(
                &back.ft_weights()[..INPUTS * hidden],
                plain.ft_weights(),
                "preset {k}"
            );
        }
    }
    assert_eq!(Inputs::preset(1), Some(Inputs::MIRRORED));
    assert!(Inputs::preset(3).is_none() && Inputs::preset(16).is_none());
    let good = Network::random_with_inputs(Inputs::preset(4).unwrap(), 16, 1, 6)
        .unwrap()
        .to_bytes();
    let refuse = |table: &[u8]| {
        let mut b = good.clone();
        b[16..48].copy_from_slice(table);
        Network::from_bytes(&b).unwrap_err().to_string()
    };
    let mut skipped = [0u8; 32];
    skipped[5] = 2;
    assert!(refuse(&skipped).contains("king bucket 1 has no square"));
    let mut many = [0u8; 32];
    for (i, b) in many.iter_mut().enumerate() {
        *b = i as u8;
    }
    assert!(refuse(&many).contains("32 king buckets, at most 16"));
    assert!(refuse(&[0; 32]).contains("2 or more king buckets"));
    // A table of fewer buckets than the file was written for: the size says so.
    let mut two_buckets = [1u8; 32];
    two_buckets[0] = 0;
    let err = refuse(&two_buckets);
    assert!(err.contains("wrong size"), "{err}");
}

fn temp_net(name: &str, net: &Network) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("sable-nnue-test-{}-{name}", std::process::id()));
    std::fs::write(&path, net.to_bytes()).unwrap();
    path
}

#[test]
fn engine_keeps_its_network_when_an_eval_file_is_refused() {
    let mut engine = Engine::new();
    let path = temp_net("keep.nnue", &random_net(32, 3));
    engine.set_eval_file(path.to_str().unwrap()).unwrap();
    engine.set_use_nnue(true).unwrap();
    let before = engine.network().unwrap().clone();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[500] ^= 1;
    let bad = std::env::temp_dir().join(format!("sable-nnue-test-{}-bad.nnue", std::process::id()));
    std::fs::write(&bad, &bytes).unwrap();
    let err = engine.set_eval_file(bad.to_str().unwrap()).unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
    assert!(Arc::ptr_eq(engine.network().unwrap(), &before));
    engine.set_use_nnue(false).unwrap();
    assert!(engine.network().is_none());
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(bad);
}

#[test]
fn search_with_a_network_finds_mate_and_plays_legal_moves() {
    let mut engine = Engine::new();
    let path = temp_net("search.nnue", &random_net(32, 8));
    engine.set_eval_file(path.to_str().unwrap()).unwrap();
    engine.set_use_nnue(true).unwrap();
    // Mate in 2: 1. Nf6+ gxf6 2. Bxf7#.
    let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    engine.set_position(Some(fen), &[]).unwrap();
    let r = engine.search(SearchLimits::depth(6), |_| {}).unwrap();
    assert_eq!(r.score, ScoreReport::Mate(2), "{r:?}");
    assert_eq!(r.best.unwrap().to_uci(false).to_string(), "d5f6", "{r:?}");
    // Legal moves through a game against itself.
    engine.new_game().unwrap();
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..20 {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        engine.set_position(None, &refs).unwrap();
        if pos.legal_moves().is_empty() {
            break;
        }
        let limits = SearchLimits {
            nodes: Some(3000),
            ..SearchLimits::default()
        };
        let best = engine.search(limits, |_| {}).unwrap().best.unwrap();
        assert!(
            pos.legal_moves().contains(best),
            "{best:?} in {}",
            pos.fen()
        );
        moves.push(best.to_uci(false).to_string());
        pos.make(best);
    }
    let _ = std::fs::remove_file(path);
}
