//! EPD: every suite in testdata/tactics parses, every `bm`/`am` move is legal,
//! writing and reading again gives the same record; opcodes and errors.

// The rules crate's test helpers (data, a seeded generator, Chess960 starts).
#[path = "../../chess/tests/common/mod.rs"]
mod common;

use sable_chess::{perft, Position};
use sable_formats::epd::{Epd, EpdError, Operand};

const SUITES: [(&str, usize); 10] = [
    ("wac.epd", 300),
    ("wacnew.epd", 300),
    ("ecm.epd", 879),
    ("ecmgcp.epd", 183),
    ("arasan2024.epd", 200),
    ("bk.epd", 24),
    ("STS1-STS15_LAN_v3.epd", 1500),
    ("STS1-STS15_LAN_v5.epd", 1500),
    ("bt2630.epd", 30),
    ("eet.epd", 100),
];

#[test]
fn every_suite_parses_with_legal_moves_and_round_trips() {
    for (name, count) in SUITES {
        let text = common::read(&format!("tactics/{name}"));
        let mut records = 0;
        let mut ids = std::collections::HashSet::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let epd: Epd = line
                .parse()
                .unwrap_or_else(|e| panic!("{name}:{}: {e}", n + 1));
            let bm = epd.bm().unwrap_or_else(|e| panic!("{name}:{}: {e}", n + 1));
            let am = epd.am().unwrap_or_else(|e| panic!("{name}:{}: {e}", n + 1));
            assert!(
                !bm.is_empty() || !am.is_empty(),
                "{name}:{}: no bm or am",
                n + 1
            );
            for m in bm.iter().chain(&am) {
                assert!(epd.position.is_legal(*m));
            }
            // STS: c9 lists the c7 moves in UCI; both must name the same moves.
            if let (Some(c7), Some(c9)) = (epd.comment(7), epd.comment(9)) {
                let san: Vec<_> = c7
                    .split_whitespace()
                    .map(|s| epd.position.parse_san_lenient(s).unwrap())
                    .collect();
                let uci: Vec<_> = c9
                    .split_whitespace()
                    .map(|s| epd.position.parse_uci(s).unwrap())
                    .collect();
                assert_eq!(san, uci, "{name}:{}", n + 1);
            }
            assert!(ids.insert(epd.id().expect("every record has an id").to_string()));
            let written = epd.to_string();
            let again: Epd = written.parse().unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_eq!(again, epd, "{written}");
            records += 1;
        }
        assert_eq!(records, count, "{name}");
    }
}

#[test]
fn quoted_strings_keep_semicolons_and_spaces() {
    let epd: Epd =
        "8/8/8/8/8/8/8/K6k w - - id \"a; b\"; c0 \"say \\\"x\\\"\"; acd 12; ce -35; bm Kb2 Ka2;"
            .parse()
            .unwrap();
    assert_eq!(epd.id(), Some("a; b"));
    assert_eq!(epd.comment(0), Some("say \"x\""));
    assert_eq!(epd.acd(), Ok(Some(12)));
    assert_eq!(epd.ce(), Ok(Some(-35)));
    assert_eq!(epd.bm().unwrap().len(), 2);
    let again: Epd = epd.to_string().parse().unwrap();
    assert_eq!(again, epd);
}

#[test]
fn perft_opcodes_match_perft() {
    let line = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - D1 48; D2 2039; D3 97862;";
    let epd: Epd = line.parse().unwrap();
    let counts = epd.perft().unwrap();
    assert_eq!(counts.len(), 3);
    for (depth, nodes) in counts {
        assert_eq!(perft(&epd.position, depth), nodes);
    }
    let epd: Epd = "8/8/8/8/8/8/8/K6k w - - perft 2 9;".parse().unwrap();
    assert_eq!(epd.perft().unwrap(), [(2, 9)]);
    assert_eq!(perft(&epd.position, 2), 9);
}

#[test]
fn writing_operations_in_san() {
    let pos = Position::startpos();
    let mut epd = Epd::new(pos.clone());
    let e4 = pos.parse_san("e4").unwrap();
    let nf3 = pos.parse_san("Nf3").unwrap();
    epd.set_moves("bm", &[e4, nf3]);
    epd.set("id", vec![Operand::Quoted("start".into())]);
    let mut after = pos.clone();
    after.make(e4);
    let e5 = after.parse_san("e5").unwrap();
    epd.set_pv(&[e4, e5]);
    assert_eq!(
        epd.to_string(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4 Nf3; id \"start\"; pv e4 e5;"
    );
    assert_eq!(epd.pv().unwrap(), [e4, e5]);
    // Counters survive as hmvc/fmvn or as the two FEN counters.
    let full: Epd = "8/8/8/8/8/8/8/K6k b - - 7 40 id \"x\";".parse().unwrap();
    assert_eq!(
        (full.position.halfmoves(), full.position.fullmoves()),
        (7, 40)
    );
    assert_eq!(full.to_string().parse::<Epd>().unwrap(), full);
    let ops: Epd = "8/8/8/8/8/8/8/K6k b - - hmvc 7; fmvn 40;".parse().unwrap();
    assert_eq!(
        (ops.position.halfmoves(), ops.position.fullmoves()),
        (7, 40)
    );
}

#[test]
fn errors_say_what_and_where() {
    let e = "8/8/8/8 w".parse::<Epd>().unwrap_err();
    assert!(matches!(e, EpdError::TooFewFields(2)), "{e}");
    let e = "8/8/8/8/8/8/8/K6k w - - id \"open"
        .parse::<Epd>()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "EPD operations, column 28: a quoted operand is never closed"
    );
    let e = "8/8/8/8/8/8/8/K6x w - - id \"x\";"
        .parse::<Epd>()
        .unwrap_err();
    assert!(e.to_string().contains("'x'"), "{e}");
    let epd: Epd = "8/8/8/8/8/8/8/K6k w - - bm Kc3;".parse().unwrap();
    let e = epd.bm().unwrap_err().to_string();
    assert!(e.contains("'bm'") && e.contains("'Kc3'"), "{e}");
    let epd: Epd = "8/8/8/8/8/8/8/K6k w - - acd deep;".parse().unwrap();
    assert!(epd.acd().unwrap_err().to_string().contains("'deep'"));
}
