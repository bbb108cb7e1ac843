//! SAN against shakmaty on random positions (standard and Chess960), lenient forms,
//! error messages, and the lichess opening table.

mod common;

use common::{chess960_fen, Rng};
use sable_chess::{CastlingMode, Move, Position, SanError};
use shakmaty::{fen::Fen, san::SanPlus, uci::UciMove, Chess, Position as _};

fn shakmaty_of(pos: &Position) -> Chess {
    let mode = if pos.is_chess960() {
        shakmaty::CastlingMode::Chess960
    } else {
        shakmaty::CastlingMode::Standard
    };
    Fen::from_ascii(pos.fen().as_bytes())
        .unwrap()
        .into_position(mode)
        .unwrap_or_else(|e| panic!("shakmaty rejects {}: {e}", pos.fen()))
}

/// Checks every legal move of `pos`; returns how many were checked.
fn check_position(pos: &Position) -> usize {
    let theirs = shakmaty_of(pos);
    let their_moves = theirs.legal_moves();
    let ours = pos.legal_moves();
    assert_eq!(ours.len(), their_moves.len(), "move count in {}", pos.fen());
    for &m in ours.iter() {
        // Both sides in king-takes-rook form, so castling compares in either mode.
        let uci = m.to_uci(true).to_string();
        let their_move = UciMove::from_ascii(uci.as_bytes())
            .unwrap()
            .to_move(&theirs)
            .unwrap_or_else(|e| panic!("shakmaty rejects {uci} in {}: {e}", pos.fen()));
        let expected = SanPlus::from_move(theirs.clone(), &their_move).to_string();
        // UCI both ways, in the position's own castling convention.
        let mode = if pos.is_chess960() {
            shakmaty::CastlingMode::Chess960
        } else {
            shakmaty::CastlingMode::Standard
        };
        let own_uci = m.to_uci(pos.is_chess960()).to_string();
        assert_eq!(own_uci, UciMove::from_move(&their_move, mode).to_string());
        assert_eq!(pos.parse_uci(&own_uci), Ok(m), "{own_uci} in {}", pos.fen());
        let san = pos.san(m);
        assert_eq!(san, expected, "SAN of {uci} in {}", pos.fen());
        assert_eq!(
            pos.parse_san(&san),
            Ok(m),
            "strict parse of {san} in {}",
            pos.fen()
        );
        assert_eq!(
            pos.parse_san_lenient(&san),
            Ok(m),
            "lenient parse of {san} in {}",
            pos.fen()
        );
    }
    ours.len()
}

/// Plays random games from `start`, checking every position; returns (positions, moves).
fn random_games(start: impl Fn(&mut Rng) -> Position, games: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let (mut positions, mut moves) = (0, 0);
    for _ in 0..games {
        let mut pos = start(&mut rng);
        for _ in 0..200 {
            moves += check_position(&pos);
            positions += 1;
            let legal = pos.legal_moves();
            if legal.is_empty() || pos.halfmoves() >= 100 {
                break;
            }
            // Prefer captures and promotions now and then, to reach sparse endgames
            // where disambiguation by rank and square and underpromotion mates occur.
            let noisy = pos.noisy_moves();
            let m = if !noisy.is_empty() && rng.below(3) == 0 {
                noisy[rng.below(noisy.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            pos.make(m);
        }
    }
    (positions, moves)
}

#[test]
fn san_matches_shakmaty_in_random_standard_games() {
    let (positions, moves) = random_games(|_| Position::startpos(), 250, 1);
    assert!(positions > 25_000, "only {positions} positions");
    assert!(moves > 500_000, "only {moves} moves");
}

#[test]
fn san_matches_shakmaty_in_random_chess960_games() {
    let start = |rng: &mut Rng| {
        Position::from_fen(&chess960_fen(rng.below(960)), CastlingMode::Chess960).unwrap()
    };
    let (positions, moves) = random_games(start, 250, 2);
    assert!(positions > 25_000, "only {positions} positions");
    assert!(moves > 500_000, "only {moves} moves");
}

#[test]
fn chess960_start_positions_are_valid() {
    assert_eq!(
        chess960_fen(518),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    for n in 0..960 {
        let pos = Position::from_fen(&chess960_fen(n), CastlingMode::Chess960).unwrap();
        check_position(&pos);
    }
}

#[test]
fn disambiguation_and_mate_marks() {
    let cases = [
        // file, rank and square disambiguation
        ("1k6/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1"),
        ("7k/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"),
        ("5k2/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "a4b3", "Qa4b3"),
        // a pinned rival needs no disambiguation
        ("4k3/8/8/8/1b6/8/3N4/4K1N1 w - - 0 1", "g1f3", "Nf3"),
        // back-rank mate and promotion with mate
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"),
        ("7k/5P2/6K1/8/8/8/8/8 w - - 0 1", "f7f8q", "f8=Q#"),
        ("7k/5P2/6K1/8/8/8/8/8 w - - 0 1", "f7f8r", "f8=R#"),
        ("7k/5P2/6K1/8/8/8/8/8 w - - 0 1", "f7f8n", "f8=N"),
        // en passant with discovered check
        ("8/8/8/RPp4k/8/8/8/K7 w - c6 0 2", "b5c6", "bxc6+"),
    ];
    for (fen, uci, san) in cases {
        let pos = Position::from_fen(fen, CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        let m = pos.parse_uci(uci).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.san(m), san, "{fen} {uci}");
        assert_eq!(pos.parse_san(san), Ok(m), "{fen} {san}");
        check_position(&pos);
    }
}

#[test]
fn chess960_castling_is_written_o_o() {
    // King b1, rooks a1 and h1: O-O-O is king takes a1-rook, landing on c1.
    let pos =
        Position::from_fen("r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1", CastlingMode::Chess960).unwrap();
    let long = pos.parse_san("O-O-O").unwrap();
    assert_eq!(long.to_uci(true).to_string(), "b1a1");
    let short = pos.parse_san("O-O").unwrap();
    assert_eq!(short.to_uci(true).to_string(), "b1h1");
    assert_eq!(pos.san(long), "O-O-O");
    check_position(&pos);
}

#[test]
fn lenient_forms() {
    let pos = Position::from_fen(
        "r3k2r/1P6/8/3pP3/3N4/8/8/R3K2R w KQkq d6 0 1",
        CastlingMode::Standard,
    )
    .unwrap();
    let same = |lenient: &str, strict: &str| {
        let want = pos
            .parse_san(strict)
            .unwrap_or_else(|e| panic!("{strict}: {e}"));
        assert_eq!(
            pos.parse_san_lenient(lenient),
            Ok(want),
            "{lenient} as {strict}"
        );
        assert!(
            pos.parse_san(lenient).is_err(),
            "strict must reject {lenient}"
        );
    };
    same("0-0", "O-O");
    same("0-0-0", "O-O-O");
    same("exd6e.p.", "exd6");
    same("exd6ep", "exd6");
    same("bxa8Q", "bxa8=Q+");
    same("bxa8=Q", "bxa8=Q+");
    same("b7a8q", "bxa8=Q+");
    same("Nd4-f3", "Nf3");
    same("Nd4xf3", "Nf3");
    same("d4f3", "Nf3");
    same("e5-e6", "e6");
    same("Nf3+", "Nf3");
    same("Nf3!?", "Nf3");
    same("Ra1d1", "Rd1");
    same("Pe6", "e6");
    same("e1g1", "O-O");
    same("Z0", "--");
}

fn err(fen: &str, san: &str, lenient: bool) -> String {
    let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
    let r: Result<Move, SanError> = if lenient {
        pos.parse_san_lenient(san)
    } else {
        pos.parse_san(san)
    };
    r.expect_err(san).to_string()
}

#[test]
fn error_messages_name_the_move_the_position_and_why() {
    let start = sable_chess::STARTPOS_FEN;
    let e = err(start, "Nf4", false);
    assert!(
        e.contains("'Nf4'") && e.contains(start) && e.contains("no white knight can reach f4"),
        "{e}"
    );
    let e = err(start, "Ngf3", false);
    assert!(
        e.contains("needless disambiguation") && e.contains("'Nf3'"),
        "{e}"
    );
    let e = err(start, "Qh9", false);
    assert!(
        e.contains("not a SAN move") && e.contains("destination square"),
        "{e}"
    );
    let e = err(start, "O-O", false);
    assert!(e.contains("cannot castle king side"), "{e}");
    let e = err("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O", false);
    assert!(e.contains("no right to castle"), "{e}");
    let e = err("1k6/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1", false);
    assert!(e.contains("ambiguous") && e.contains("Rad1 or Rhd1"), "{e}");
    let e = err("1k6/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1", true);
    assert!(e.contains("ambiguous"), "{e}");
    let e = err("4k3/8/8/8/1b6/8/3N4/4K1N1 w - - 0 1", "Nb3", false);
    assert!(e.contains("pinned"), "{e}");
    let e = err("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8+", false);
    assert!(e.contains("needs '#'") && e.contains("'Ra8#'"), "{e}");
    let e = err("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra7+", false);
    assert!(e.contains("does not give check"), "{e}");
    let e = err("7k/5P2/6K1/8/8/8/8/8 w - - 0 1", "f8", false);
    assert!(e.contains("must promote"), "{e}");
    let e = err(start, "exd3", false);
    assert!(e.contains("'exd3'"), "{e}");
    // en passant that would expose the king along the rank
    let e = err("8/8/8/KPp4r/8/8/8/7k w - c6 0 2", "bxc6", false);
    assert!(e.contains("pinned"), "{e}");
    let e = err("4k3/8/8/8/8/8/5r2/4K3 w - - 0 1", "Kd2", false);
    assert!(
        e.contains("the white king cannot go to d2: the square is attacked"),
        "{e}"
    );
    let e = err(start, "", false);
    assert!(e.contains("empty"), "{e}");
}

#[test]
fn all_lichess_opening_lines_parse_strictly() {
    let mut lines = 0;
    for letter in ["a", "b", "c", "d", "e"] {
        let text = common::read(&format!("pgn/lichess-openings/{letter}.tsv"));
        for row in text.lines().skip(1) {
            let movetext = row.split('\t').nth(2).expect("three columns");
            let mut pos = Position::startpos();
            for token in movetext.split_whitespace().filter(|t| !t.ends_with('.')) {
                let m = pos
                    .parse_san(token)
                    .unwrap_or_else(|e| panic!("{row}: {e}"));
                assert_eq!(pos.san(m), token);
                pos.make(m);
            }
            lines += 1;
        }
    }
    assert_eq!(lines, 3807);
}

/// Texts near the SAN of `m`: itself, with other check marks, capture marks,
/// disambiguation and promotion letters, so that every way of being not quite canonical
/// is tried.
fn near_san(pos: &Position, m: Move) -> Vec<String> {
    let san = pos.san(m);
    let body = san.trim_end_matches(['+', '#']).to_string();
    let (from, to) = (m.from().to_string(), m.to().to_string());
    let mut bodies = vec![body.clone(), body.replace('x', "")];
    let square_at = body.len().saturating_sub(2);
    if let Some(eq) = body.find('=') {
        for p in ["N", "B", "R", "Q", "q", "K", ""] {
            bodies.push(format!("{}={p}", &body[..eq]));
        }
        bodies.push(body.replace('=', ""));
    } else if !body.starts_with('O') {
        bodies.push(format!("{}x{}", &body[..square_at], &body[square_at..]));
    }
    match body.as_bytes()[0] {
        b'N' | b'B' | b'R' | b'Q' | b'K' => {
            let rest = &body[1..];
            let bare = rest.trim_start_matches(|c: char| c != 'x' && rest.len() > 2);
            for d in [&from[..1], &from[1..], &from[..]] {
                bodies.push(format!("{}{d}{rest}", &body[..1]));
                bodies.push(format!("{}{d}{}", &body[..1], &rest[rest.len() - 2..]));
            }
            bodies.push(format!("{}{}", &body[..1], &rest[rest.len() - 2..]));
            bodies.push(format!("{}{bare}", &body[..1]));
            bodies.push(format!("{}x{to}", &body[..1]));
        }
        b'O' => bodies.extend(["O-O".into(), "O-O-O".into(), "0-0".into()]),
        _ => {
            bodies.push(format!("{}x{to}", &from[..1]));
            bodies.push(to.clone());
            bodies.push(format!("x{to}"));
        }
    }
    let mut texts = vec![];
    for b in bodies {
        for mark in ["", "+", "#", "++"] {
            texts.push(format!("{b}{mark}"));
        }
    }
    texts
}

/// `make_san` reads every text as `parse_san_with` does (same move or same error) and
/// plays it, or leaves the position as it was.
fn check_make_san(pos: &Position) -> usize {
    let mut checked = 0;
    let mut texts: Vec<String> = ["--", "--+", "Z0", "O-O", "O-O-O+", "Kx", "e9"]
        .map(String::from)
        .to_vec();
    for &m in pos.legal_moves().iter() {
        texts.extend(near_san(pos, m));
    }
    for text in &texts {
        for mode in [sable_chess::SanMode::Strict, sable_chess::SanMode::Lenient] {
            let expected = pos.parse_san_with(text, mode);
            let mut played = pos.clone();
            match (played.make_san(text, mode), expected) {
                (Ok((m, undo)), Ok(e)) => {
                    assert_eq!(m, e, "{text} in {}", pos.fen());
                    let mut after = pos.clone();
                    if m.is_null() {
                        after.make_null();
                    } else {
                        after.make(m);
                    }
                    assert!(played == after, "{text} in {}", pos.fen());
                    if m.is_null() {
                        played.unmake_null(&undo);
                    } else {
                        played.unmake(m, &undo);
                    }
                    assert!(played == *pos, "{text} taken back in {}", pos.fen());
                }
                (Err(got), Err(e)) => {
                    assert_eq!(got, e, "{text} in {}", pos.fen());
                    assert!(played == *pos, "{text} refused in {}", pos.fen());
                }
                (got, e) => panic!("{text} in {}: make_san {got:?}, parse {e:?}", pos.fen()),
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn make_san_reads_as_parse_san_does() {
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for game in 0..40 {
        let mut pos = if game % 2 == 0 {
            Position::startpos()
        } else {
            Position::from_fen(&chess960_fen(rng.below(960)), CastlingMode::Chess960).unwrap()
        };
        for _ in 0..160 {
            checked += check_make_san(&pos);
            let legal = pos.legal_moves();
            if legal.is_empty() || pos.halfmoves() >= 100 {
                break;
            }
            let noisy = pos.noisy_moves();
            let m = if !noisy.is_empty() && rng.below(2) == 0 {
                noisy[rng.below(noisy.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            pos.make(m);
        }
    }
    assert!(checked > 700_000, "only {checked} texts");
}
