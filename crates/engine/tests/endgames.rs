//! The endgame modules (`eval/endgame/`) against the oracle: for every signature of three
//! or four pieces with a module, 10,000 random legal positions (fixed seed, both colours
//! as the strong side, both sides to move) are judged by the module and by the complete
//! Syzygy WDL tables in `testdata/syzygy/tables`.
//!
//! The module's verdict is read from `Evaluator::evaluate`, the score the search uses:
//! at least `KNOWN_WIN / 2` for a side is "that side wins", anything smaller a draw.
//! The tables' cursed wins and blessed losses count as draws. Positions where the side to
//! move can capture at once, or has no move, are skipped (counted and printed): a static
//! rule does not resolve tactics, and quiescence search does that in play. Each
//! signature must reach its minimum agreement, set from what the module achieves, so a
//! broken module fails. Five-piece modules are checked on positions from the literature.

mod eval_common;

use eval_common::{fen, mirror};
use sable_chess::{CastlingMode, Color, Position};
use sable_engine::eval::{probe_endgame, EndgameKind, Evaluator, ENDGAME_SIGNATURES, KNOWN_WIN};
use shakmaty::{fen::Fen, Chess, Position as _};
use shakmaty_syzygy::{Tablebase, Wdl};

/// A score this large for a side is the module saying that side wins.
const WON: i32 = KNOWN_WIN / 2;

/// Positions judged per signature (skipped ones come on top).
const SAMPLES: usize = 10_000;

/// Every three- and four-piece signature with a module, and the agreement (percent) it
/// must reach: what the module achieves with this seed, rounded down. KK has no table
/// (two kings are insufficient material by the rules). The misses are tactics a static
/// rule does not see (king forks in KBNK, rook skewers and forks, queen checks that win
/// the other queen) and, in KPKP and KRKN, positions the rules only approximate.
const ORACLE: [(&str, f64); 31] = [
    ("KNK", 100.0),
    ("KBK", 100.0),
    ("KNNK", 100.0),
    ("KNKN", 100.0),
    ("KBKN", 100.0),
    ("KBKB", 100.0),
    ("KQK", 100.0),
    ("KRK", 100.0),
    ("KQQK", 100.0),
    ("KQRK", 100.0),
    ("KRRK", 100.0),
    ("KQBK", 100.0),
    ("KQNK", 100.0),
    ("KRBK", 100.0),
    ("KRNK", 100.0),
    ("KBBK", 100.0),
    ("KBNK", 99.0),
    ("KPK", 100.0),
    ("KPPK", 98.0),
    ("KPKP", 85.5),
    ("KQKR", 97.5),
    ("KQKB", 99.0),
    ("KQKN", 97.5),
    ("KQKP", 95.5),
    ("KQKQ", 94.0),
    ("KRKP", 90.5),
    ("KRKB", 93.0),
    ("KRKN", 83.0),
    ("KRKR", 96.5),
    ("KBPK", 96.5),
    ("KNPK", 94.0),
];

/// xorshift64*: a fixed, dependency-free stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The strong and weak parts of a signature such as "KRPKR".
fn split(sig: &str) -> (&str, &str) {
    let weak_start = sig[1..].find('K').map(|i| i + 1).unwrap();
    (&sig[..weak_start], &sig[weak_start..])
}

/// A FEN with `sig`'s pieces on random squares (pawns on ranks 2-7), `strong` owning
/// the first part. It may be illegal; the caller parses it.
fn random_fen(sig: &str, strong: Color, white_to_move: bool, rng: &mut Rng) -> String {
    let (s, w) = split(sig);
    let mut board = [None::<char>; 64];
    for (part, color) in [(s, strong), (w, !strong)] {
        for ch in part.chars() {
            let sq = loop {
                let sq = rng.below(64) as usize;
                let pawn_ok = ch != 'P' || (8..56).contains(&sq);
                if board[sq].is_none() && pawn_ok {
                    break sq;
                }
            };
            board[sq] = Some(if color == Color::White {
                ch
            } else {
                ch.to_ascii_lowercase()
            });
        }
    }
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let turn = if white_to_move { "w" } else { "b" };
    format!("{} {turn} - - 0 1", rows.join("/"))
}

fn tablebase() -> Tablebase<Chess> {
    let any = sable_testdata::path("syzygy/tables/KQvK.rtbw");
    let dir = any.parent().unwrap();
    let mut tb = Tablebase::new();
    let n = tb.add_directory(dir).unwrap();
    assert!(n >= 70, "only {n} table files in {}", dir.display());
    tb
}

struct Tally {
    judged: usize,
    skipped: usize,
    agree: usize,
    examples: Vec<String>,
}

fn measure(sig: &str, tb: &Tablebase<Chess>, ev: &mut Evaluator, seed: u64) -> Tally {
    let mut rng = Rng(seed);
    let mut t = Tally {
        judged: 0,
        skipped: 0,
        agree: 0,
        examples: Vec::new(),
    };
    let mut drawn = 0;
    while t.judged < SAMPLES {
        drawn += 1;
        let strong = if drawn % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let f = random_fen(sig, strong, rng.next() & 1 == 0, &mut rng);
        let Ok(pos) = Position::from_fen(&f, CastlingMode::Standard) else {
            continue;
        };
        let Some(sh) = f.parse::<Fen>().ok().and_then(|x| {
            x.into_position::<Chess>(shakmaty::CastlingMode::Standard)
                .ok()
        }) else {
            continue;
        };
        assert!(probe_endgame(&pos).is_some(), "{sig}: no module for {f}");
        let moves = sh.legal_moves();
        if moves.is_empty() || moves.iter().any(|m| m.is_capture()) {
            t.skipped += 1;
            continue;
        }
        let stm_truth = match tb.probe_wdl_after_zeroing(&sh).unwrap() {
            Wdl::Win => 1,
            Wdl::Loss => -1,
            _ => 0,
        };
        let truth = stm_truth * pos.turn().sign();
        let white = ev.evaluate(&pos) * pos.turn().sign();
        let said = if white >= WON {
            1
        } else if white <= -WON {
            -1
        } else {
            0
        };
        t.judged += 1;
        if said == truth {
            t.agree += 1;
        } else if t.examples.len() < 3 {
            t.examples
                .push(format!("{f}: table {truth:+} (White), module {white:+} cp"));
        }
    }
    t
}

#[test]
fn modules_agree_with_the_syzygy_tables() {
    let tb = tablebase();
    let mut ev = Evaluator::new();
    let mut failed = Vec::new();
    println!(
        "{:<6} {:>9} {:>8} {:>8} {:>8} {:>6}",
        "sig", "positions", "skipped", "agree", "agree %", "min %"
    );
    for (i, &(sig, min)) in ORACLE.iter().enumerate() {
        let t = measure(sig, &tb, &mut ev, 0x0005_ab1e_0000 + i as u64 * 7919);
        let pct = 100.0 * t.agree as f64 / t.judged as f64;
        println!(
            "{sig:<6} {:>9} {:>8} {:>8} {pct:>8.2} {min:>6.1}",
            t.judged, t.skipped, t.agree
        );
        if pct < min {
            failed.push(format!(
                "{sig}: {pct:.2}% < {min}%; e.g. {}",
                t.examples.join("; ")
            ));
        } else if pct < 100.0 {
            for e in &t.examples {
                println!("       disagrees: {e}");
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The table holds 40 or more signatures, each found for both colours as the strong side
/// with the module it names.
#[test]
fn every_signature_is_found_for_both_colours() {
    assert!(
        ENDGAME_SIGNATURES.len() >= 40,
        "{} signatures",
        ENDGAME_SIGNATURES.len()
    );
    let mut rng = Rng(0xfeed);
    for (sig, kind) in ENDGAME_SIGNATURES {
        let (s, w) = split(sig);
        for strong in Color::ALL {
            let pos = loop {
                let f = random_fen(sig, strong, rng.next() & 1 == 0, &mut rng);
                if let Ok(pos) = Position::from_fen(&f, CastlingMode::Standard) {
                    break pos;
                }
            };
            let eg = probe_endgame(&pos).unwrap_or_else(|| panic!("{sig}: {}", pos.fen()));
            assert_eq!(eg.kind, kind, "{sig}: {}", pos.fen());
            if s != w {
                assert_eq!(eg.strong, strong, "{sig}: {}", pos.fen());
            }
        }
    }
    // Material without a module finds none.
    for f in [
        "4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        assert!(probe_endgame(&fen(f)).is_none(), "{f}");
    }
}

/// Score for White, checked to be colour-symmetric on the way.
fn white_score(ev: &mut Evaluator, f: &str) -> i32 {
    let pos = fen(f);
    let e = ev.evaluate(&pos);
    assert_eq!(e, ev.evaluate(&mirror(&pos)), "{f} is not colour-symmetric");
    e * pos.turn().sign()
}

/// Known five-piece positions: the verdict each module must give.
#[test]
fn five_piece_positions_from_the_literature() {
    let mut ev = Evaluator::new();
    let kind = |f: &str| probe_endgame(&fen(f)).map(|eg| eg.kind);
    let drawn = |ev: &mut Evaluator, f: &str, why: &str| {
        let e = white_score(ev, f);
        assert!(e.abs() < 80, "{why}: {f} scores {e}, a draw");
    };

    // KRPKR. Philidor: the king on the queening square, the rook on the third rank.
    let philidor = "4k3/R7/7r/3KP3/8/8/8/8 b - - 0 1";
    assert_eq!(kind(philidor), Some(EndgameKind::Krpkr));
    drawn(&mut ev, philidor, "Philidor");
    // Lucena: king on b8, pawn b7, the defending king cut off on the d-file: White
    // builds a bridge (Rc4) and queens.
    let lucena = "1K6/1P1k4/8/8/8/8/r7/2R5 w - - 0 1";
    let e = white_score(&mut ev, lucena);
    assert!(e >= WON, "Lucena {lucena} scores {e}, a win");
    // Vancura: the a-pawn on the sixth attacked from the side, the king on g7.
    drawn(&mut ev, "R7/6k1/P4r2/8/1K6/8/8/8 w - - 0 1", "Vancura");
    // Back-rank defence: the king on the queening square, the rook on the first rank.
    drawn(&mut ev, "4k3/8/4PK2/8/8/8/8/1R2r3 b - - 0 1", "back rank");

    // KBPKB. Opposite bishops and a pawn not past the fifth: a draw.
    let ocb = "8/8/4k3/8/2PK4/7b/8/2B5 w - - 0 1";
    assert_eq!(kind(ocb), Some(EndgameKind::Kbpkb));
    drawn(&mut ev, ocb, "opposite bishops");
    // Same-coloured bishops, the king blockading on a square the bishop cannot attack.
    drawn(&mut ev, "8/3k4/8/3PK3/8/8/8/2B3b1 w - - 0 1", "blockade");
    // Same-coloured bishops, the pawn on the seventh, the defender far: winning.
    let e = white_score(&mut ev, "8/4P3/3K4/k7/8/8/8/2B3b1 w - - 0 1");
    assert!(e > 100, "same-coloured bishops, far pawn: {e}");

    // KBPKN: the king on the pawn's path, on the other colour than the bishop.
    let kbpkn = "8/3k4/8/3PK3/8/8/8/2B2n2 w - - 0 1";
    assert_eq!(kind(kbpkn), Some(EndgameKind::Kbpkn));
    drawn(&mut ev, kbpkn, "KBPKN blockade");

    // KBPKP: the wrong rook-pawn bishop, the king in the corner: the defender's pawn
    // changes nothing.
    let wrong = "7k/8/8/8/p7/7P/8/1B2K3 w - - 0 1";
    assert_eq!(kind(wrong), Some(EndgameKind::Kbpkp));
    drawn(&mut ev, wrong, "wrong bishop");

    // KNNKP: the pawn blockaded behind the Troitzky line (a5, blockaded on a4) gives
    // winning chances; past it (a3) it is a draw.
    let troitzky = "7k/8/8/p7/N7/8/8/4K1N1 w - - 0 1";
    assert_eq!(kind(troitzky), Some(EndgameKind::Knnkp));
    let behind = white_score(&mut ev, troitzky);
    let past = white_score(&mut ev, "7k/8/8/8/8/p7/N7/4K1N1 w - - 0 1");
    assert!(
        behind > 200 && past.abs() < 80,
        "behind {behind}, past {past}"
    );

    // KRPKB: the rook pawn on the sixth, the bishop guarding a7 from afar, the king by
    // the corner: a fortress; a c-pawn wins.
    let fortress = white_score(&mut ev, "1k6/8/P7/3K4/8/8/5b2/7R w - - 0 1");
    let open = white_score(&mut ev, "2k5/8/2P5/3K4/8/8/5b2/7R w - - 0 1");
    assert!(
        fortress < 120 && open > 2 * fortress,
        "fortress {fortress}, b-pawn {open}"
    );

    // KQPKQ is scaled down: a far pawn keeps more than one at home.
    let far = white_score(&mut ev, "7q/1P6/8/k7/8/8/8/2Q1K3 w - - 0 1");
    let home = white_score(&mut ev, "7q/8/8/k7/8/8/1P6/2Q1K3 w - - 0 1");
    assert!(far > home, "far {far}, home {home}");
}
