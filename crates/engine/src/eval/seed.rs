//! Hand-set starting values for every parameter, from simple chess rules of thumb
//! (centralise pieces, advance pawns, shelter the king). `sable tune --from-seed` starts
//! from these; the committed values in `tuned.rs` come from tuning them.

use super::params::*;

/// Queen against three minors, the queen side's edge in centipawns with 0/1/2 rooks
/// each, from published self-play measurements; the imbalance term is anchored so
/// that material plus the term gives these figures.
pub const QUEEN_VS_MINORS_TARGET: [i32; 3] = [79, 2, -37];

pub fn seed() -> Vec<(i32, i32)> {
    let mut v = vec![(0, 0); NUM_PARAMS];
    let material = [(90, 110), (320, 300), (330, 320), (480, 530), (950, 1000)];
    v[MATERIAL..MATERIAL + 5].copy_from_slice(&material);
    for sq in 0..64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let centre = f.min(7 - f) + r.min(7 - r); // 0 at corners, 6 in the middle
        let pawn = if r == 0 || r == 7 {
            (0, 0)
        } else {
            let central = if (3..=4).contains(&f) && (2..=4).contains(&r) {
                10
            } else {
                0
            };
            ((r - 1) * 3 + central, (r - 1) * 8)
        };
        let knight = (centre * 6 - 18, centre * 5 - 15);
        let bishop = (centre * 3 - 9, centre * 3 - 9);
        let rook = (
            if r == 6 { 15 } else { 0 } + if (2..=5).contains(&f) { 4 } else { 0 },
            if r == 6 { 10 } else { 0 },
        );
        let queen = (centre * 2 - 6, centre * 4 - 12);
        let king_mg = if r == 0 {
            [10, 20, 15, 0, -5, -5, 20, 10][f as usize]
        } else {
            -15 * r - 10
        };
        let king = (king_mg, centre * 8 - 24);
        for (role, value) in [pawn, knight, bishop, rook, queen, king]
            .into_iter()
            .enumerate()
        {
            v[PST + role * 64 + sq] = value;
        }
    }
    for n in 0..9 {
        v[MOB_KNIGHT + n] = ((n as i32 - 4) * 6, (n as i32 - 4) * 6);
    }
    for n in 0..14 {
        v[MOB_BISHOP + n] = ((n as i32 - 6) * 5, (n as i32 - 6) * 5);
    }
    for n in 0..15 {
        v[MOB_ROOK + n] = ((n as i32 - 6) * 2, (n as i32 - 6) * 4);
    }
    for n in 0..28 {
        v[MOB_QUEEN + n] = (n as i32 - 12, (n as i32 - 12) * 2);
    }
    let passed_mg = [0, 5, 5, 10, 20, 40, 70, 0];
    let passed_eg = [0, 10, 15, 25, 45, 80, 130, 0];
    let connected = [0, 5, 7, 10, 20, 35, 60, 0];
    for r in 0..8 {
        v[PASSED + r] = (passed_mg[r], passed_eg[r]);
        v[PASSED_FREE + r] = (0, 3 * r as i32);
        v[CONNECTED + r] = (connected[r], connected[r] / 2);
        v[PASSED_OWN_KING + r] = (0, 10 - 5 * r as i32);
        v[PASSED_THEIR_KING + r] = (0, 8 * r as i32 - 16);
    }
    v[ISOLATED] = (-8, -10);
    v[DOUBLED] = (-8, -20);
    v[BACKWARD] = (-6, -8);
    v[BISHOP_PAIR] = (30, 50);
    v[ROOK_OPEN] = (30, 10);
    v[ROOK_SEMI_OPEN] = (12, 8);
    v[QUEEN_OPEN] = (5, 5);
    v[QUEEN_SEMI_OPEN] = (3, 3);
    for u in 0..KING_DANGER_SIZE {
        let u = u as i32;
        v[KING_DANGER + u as usize] = (u * u, 2 * u);
    }
    let shelter = [-30, 20, 10, 0, -5, -10, -10, -10];
    let storm = [0, 0, -40, -20, -10, -5, 0, 0];
    for r in 0..8 {
        v[SHELTER + r] = (shelter[r], 0);
        v[STORM + r] = (storm[r], 0);
    }
    v[THREAT_BY_PAWN] = (60, 50);
    let minor = [(5, 20), (20, 20), (20, 20), (40, 30), (40, 40)];
    let rook = [(3, 15), (20, 20), (20, 20), (0, 0), (40, 40)];
    v[THREAT_BY_MINOR..THREAT_BY_MINOR + 5].copy_from_slice(&minor);
    v[THREAT_BY_ROOK..THREAT_BY_ROOK + 5].copy_from_slice(&rook);
    v[THREAT_BY_KING] = (10, 20);
    v[HANGING] = (30, 15);
    v[TEMPO] = (20, 10);
    let checks = [(40, 5), (25, 5), (45, 5), (35, 5)];
    v[SAFE_CHECK..SAFE_CHECK + 4].copy_from_slice(&checks);
    v[OUTPOST] = (30, 15);
    v[OUTPOST + 1] = (15, 10);
    anchor_queen_vs_minors(&mut v);
    v
}

/// Sets the queen-against-three-minors term so that, with the current material
/// values, the queen side's total matches [`QUEEN_VS_MINORS_TARGET`]. Games with this
/// imbalance are too rare in the tuning data to fit it, so it follows the material.
pub fn anchor_queen_vs_minors(v: &mut [(i32, i32)]) {
    let minor = |k: fn(&(i32, i32)) -> i32| (k(&v[MATERIAL + 1]) + k(&v[MATERIAL + 2])) / 2;
    let mg = v[MATERIAL + 4].0 - 3 * minor(|x| x.0);
    let eg = v[MATERIAL + 4].1 - 3 * minor(|x| x.1);
    for (rooks, target) in QUEEN_VS_MINORS_TARGET.iter().enumerate() {
        v[QUEEN_VS_MINORS + rooks] = (target - mg, target - eg);
    }
}
