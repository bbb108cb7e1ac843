//! The layout of the tunable parameter vector: where each term's values sit, their
//! names, the breakdown term each belongs to, and the Rust source `sable tune` writes.

use std::fmt::Write;

/// Sizes of the tables, shared by the code that indexes them.
pub const KING_DANGER_SIZE: usize = 24;

pub const MATERIAL: usize = 0; // pawn, knight, bishop, rook, queen
pub const PST: usize = MATERIAL + 5; // role * 64 + square, from White's side
pub const MOB_KNIGHT: usize = PST + 6 * 64;
pub const MOB_BISHOP: usize = MOB_KNIGHT + 9;
pub const MOB_ROOK: usize = MOB_BISHOP + 14;
pub const MOB_QUEEN: usize = MOB_ROOK + 15;
pub const PASSED: usize = MOB_QUEEN + 28; // by relative rank
pub const PASSED_FREE: usize = PASSED + 8; // stop square empty, by relative rank
pub const PASSED_OWN_KING: usize = PASSED_FREE + 8; // by distance to the stop square
pub const PASSED_THEIR_KING: usize = PASSED_OWN_KING + 8;
pub const CONNECTED: usize = PASSED_THEIR_KING + 8; // by relative rank
pub const ISOLATED: usize = CONNECTED + 8;
pub const DOUBLED: usize = ISOLATED + 1;
pub const BACKWARD: usize = DOUBLED + 1;
pub const BISHOP_PAIR: usize = BACKWARD + 1;
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
pub const QUEEN_OPEN: usize = ROOK_SEMI_OPEN + 1;
pub const QUEEN_SEMI_OPEN: usize = QUEEN_OPEN + 1;
pub const KING_DANGER: usize = QUEEN_SEMI_OPEN + 1; // by attack units
pub const SHELTER: usize = KING_DANGER + KING_DANGER_SIZE; // by own pawn's relative rank, 0 = none
pub const STORM: usize = SHELTER + 8; // by enemy pawn's relative rank, 0 = none
pub const THREAT_BY_PAWN: usize = STORM + 8;
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1; // by victim role, pawn..queen
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 5;
pub const THREAT_BY_KING: usize = THREAT_BY_ROOK + 5;
pub const HANGING: usize = THREAT_BY_KING + 1;
pub const TEMPO: usize = HANGING + 1;
pub const QUEEN_VS_MINORS: usize = TEMPO + 1; // by rooks each side keeps: 0, 1, 2
pub const SAFE_CHECK: usize = QUEEN_VS_MINORS + 3; // by checking role: knight, bishop, rook, queen
pub const OUTPOST: usize = SAFE_CHECK + 4; // knight, bishop
pub const NUM_PARAMS: usize = OUTPOST + 2;

/// The groups `sable eval` reports.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Term {
    Material,
    Imbalance,
    Pst,
    Mobility,
    Pawns,
    Passed,
    KingSafety,
    Pieces,
    Threats,
    Tempo,
}

impl Term {
    pub const ALL: [Term; 10] = [
        Term::Material,
        Term::Imbalance,
        Term::Pst,
        Term::Mobility,
        Term::Pawns,
        Term::Passed,
        Term::KingSafety,
        Term::Pieces,
        Term::Threats,
        Term::Tempo,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Imbalance => "imbalance",
            Term::Pst => "piece-square",
            Term::Mobility => "mobility",
            Term::Pawns => "pawn structure",
            Term::Passed => "passed pawns",
            Term::KingSafety => "king safety",
            Term::Pieces => "pieces",
            Term::Threats => "threats",
            Term::Tempo => "tempo",
        }
    }

    /// The term a parameter index belongs to.
    pub fn of(index: usize) -> Term {
        match index {
            i if i >= OUTPOST => Term::Pieces,
            i if i >= SAFE_CHECK => Term::KingSafety,
            i if i < PST => Term::Material,
            i if i < MOB_KNIGHT => Term::Pst,
            i if i < PASSED => Term::Mobility,
            i if i < CONNECTED => Term::Passed,
            i if i < BISHOP_PAIR => Term::Pawns,
            i if i < KING_DANGER => Term::Pieces,
            i if i < THREAT_BY_PAWN => Term::KingSafety,
            i if i < TEMPO => Term::Threats,
            i if i < QUEEN_VS_MINORS => Term::Tempo,
            _ => Term::Imbalance,
        }
    }
}

const ROLE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// A readable name for parameter `index`, e.g. `pst.knight.e4` or `mobility.rook[7]`.
pub fn name(index: usize) -> String {
    let table: [(usize, &str); 28] = [
        (MATERIAL, "material"),
        (PST, "pst"),
        (MOB_KNIGHT, "mobility.knight"),
        (MOB_BISHOP, "mobility.bishop"),
        (MOB_ROOK, "mobility.rook"),
        (MOB_QUEEN, "mobility.queen"),
        (PASSED, "passed.rank"),
        (PASSED_FREE, "passed.free"),
        (PASSED_OWN_KING, "passed.own_king_distance"),
        (PASSED_THEIR_KING, "passed.their_king_distance"),
        (CONNECTED, "pawns.connected.rank"),
        (ISOLATED, "pawns.isolated"),
        (DOUBLED, "pawns.doubled"),
        (BACKWARD, "pawns.backward"),
        (BISHOP_PAIR, "pieces.bishop_pair"),
        (ROOK_OPEN, "pieces.rook_open_file"),
        (ROOK_SEMI_OPEN, "pieces.rook_semi_open_file"),
        (QUEEN_OPEN, "pieces.queen_open_file"),
        (QUEEN_SEMI_OPEN, "pieces.queen_semi_open_file"),
        (KING_DANGER, "king.danger"),
        (SHELTER, "king.shelter"),
        (STORM, "king.storm"),
        (THREAT_BY_PAWN, "threat.by_pawn"),
        (THREAT_BY_MINOR, "threat.by_minor"),
        (THREAT_BY_ROOK, "threat.by_rook"),
        (THREAT_BY_KING, "threat.by_king"),
        (HANGING, "threat.hanging"),
        (TEMPO, "tempo"),
    ];
    if index >= OUTPOST {
        return format!("pieces.outpost.{}", ROLE_NAMES[1 + index - OUTPOST]);
    }
    if index >= SAFE_CHECK {
        return format!("king.safe_check.{}", ROLE_NAMES[1 + index - SAFE_CHECK]);
    }
    if index >= QUEEN_VS_MINORS {
        return format!(
            "imbalance.queen_vs_three_minors.rooks[{}]",
            index - QUEEN_VS_MINORS
        );
    }
    let (start, base) = table
        .iter()
        .rev()
        .find(|(s, _)| *s <= index)
        .copied()
        .unwrap_or((0, "?"));
    let k = index - start;
    match start {
        MATERIAL => format!("{base}.{}", ROLE_NAMES[k]),
        PST => {
            let sq = sable_chess::Square::from_index(k % 64);
            format!("{base}.{}.{sq}", ROLE_NAMES[k / 64])
        }
        THREAT_BY_MINOR | THREAT_BY_ROOK => format!("{base}.{}", ROLE_NAMES[k]),
        s if next_start(s) - s > 1 => format!("{base}[{k}]"),
        _ => base.to_string(),
    }
}

fn next_start(start: usize) -> usize {
    let starts = [
        MATERIAL,
        PST,
        MOB_KNIGHT,
        MOB_BISHOP,
        MOB_ROOK,
        MOB_QUEEN,
        PASSED,
        PASSED_FREE,
        PASSED_OWN_KING,
        PASSED_THEIR_KING,
        CONNECTED,
        ISOLATED,
        DOUBLED,
        BACKWARD,
        BISHOP_PAIR,
        ROOK_OPEN,
        ROOK_SEMI_OPEN,
        QUEEN_OPEN,
        QUEEN_SEMI_OPEN,
        KING_DANGER,
        SHELTER,
        STORM,
        THREAT_BY_PAWN,
        THREAT_BY_MINOR,
        THREAT_BY_ROOK,
        THREAT_BY_KING,
        HANGING,
        TEMPO,
        QUEEN_VS_MINORS,
        NUM_PARAMS,
    ];
    starts
        .iter()
        .copied()
        .find(|&s| s > start)
        .unwrap_or(NUM_PARAMS)
}

/// The Rust source of `tuned.rs` holding `values` (mg, eg per parameter).
pub fn to_source(values: &[(i32, i32)], header: &str) -> String {
    assert_eq!(
        values.len(),
        NUM_PARAMS,
        "parameter vector of the wrong length"
    );
    let mut out = String::new();
    out.push_str("//! Evaluation parameters (middlegame, endgame), written by `sable tune`.\n");
    for line in header.lines() {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str("//!\n//! Do not edit by hand: change the seed or the data and tune again.\n\n");
    out.push_str("use super::params::NUM_PARAMS;\nuse super::score::S;\n\n");
    out.push_str("#[rustfmt::skip]\npub const PARAMS: [S; NUM_PARAMS] = [\n");
    for (i, (mg, eg)) in values.iter().enumerate() {
        let _ = writeln!(out, "    S::new({mg}, {eg}), // {}", name(i));
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_has_its_own_name() {
        let names: std::collections::HashSet<String> = (0..NUM_PARAMS).map(name).collect();
        assert_eq!(names.len(), NUM_PARAMS);
        assert_eq!(name(PST + 64 + 28), "pst.knight.e4");
        assert_eq!(name(MOB_ROOK + 7), "mobility.rook[7]");
        assert_eq!(name(TEMPO), "tempo");
        assert_eq!(Term::of(SAFE_CHECK), Term::KingSafety);
        assert_eq!(Term::of(OUTPOST + 1), Term::Pieces);
        assert_eq!(Term::of(QUEEN_VS_MINORS), Term::Imbalance);
    }

    #[test]
    fn generated_source_lists_every_value_in_order() {
        let values: Vec<(i32, i32)> = (0..NUM_PARAMS as i32).map(|i| (i, -i)).collect();
        let src = to_source(&values, "test header");
        let lines: Vec<&str> = src
            .lines()
            .filter(|l| l.trim_start().starts_with("S::new("))
            .collect();
        assert_eq!(lines.len(), NUM_PARAMS);
        assert!(lines[17].contains("S::new(17, -17)") && lines[17].ends_with(&name(17)));
    }
}
