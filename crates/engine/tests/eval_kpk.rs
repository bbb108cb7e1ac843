//! The KPK bitbase against an independent oracle: a retrograde solution of every
//! king-and-pawn-against-king position built on `sable_chess`'s legal move generator,
//! where promotions are scored exactly (KQK and KRK are wins unless the new piece is
//! taken at once or the defender is stalemated; a minor promotion draws).

mod eval_common;

use sable_chess::{attacks, CastlingMode, Color, Move, Position, Role, Square};
use sable_engine::eval::kpk;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum V {
    Unknown,
    Draw,
    Win,
}

enum Edge {
    Node(usize),
    Fixed(V),
}

fn idx(pawn: usize, wk: usize, bk: usize, white: bool) -> usize {
    ((pawn * 64 + wk) * 64 + bk) * 2 + usize::from(white)
}

fn board(pawn: usize, wk: usize, bk: usize, white: bool) -> String {
    let mut rows = Vec::new();
    for r in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..8 {
            let sq = r * 8 + f;
            let c = if sq == pawn {
                'P'
            } else if sq == wk {
                'K'
            } else if sq == bk {
                'k'
            } else {
                ' '
            };
            if c == ' ' {
                empty += 1;
            } else {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(c);
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!(
        "{} {} - - 0 1",
        rows.join("/"),
        if white { "w" } else { "b" }
    )
}

/// The value after White promotes with `m` (Black to move in `after`).
fn promotion_value(after: &Position, m: Move) -> V {
    let role = m.promotion_role().expect("a promotion");
    if matches!(role, Role::Knight | Role::Bishop) {
        return V::Draw;
    }
    if after.legal_moves().is_empty() {
        return if after.in_check() { V::Win } else { V::Draw };
    }
    let to = m.to();
    let bk = after.king(Color::Black);
    let wk = after.king(Color::White);
    let takes = attacks::king_attacks(bk).contains(to) && !attacks::king_attacks(wk).contains(to);
    if takes {
        V::Draw
    } else {
        V::Win
    }
}

#[test]
fn kpk_bitbase_matches_a_retrograde_oracle_on_every_position() {
    let n = 64 * 64 * 64 * 2;
    let mut node_of = vec![usize::MAX; n];
    let mut keys = Vec::new();
    for pawn in 8..56 {
        for wk in 0..64 {
            for bk in 0..64 {
                for white in [true, false] {
                    if pawn == wk || pawn == bk || wk == bk {
                        continue;
                    }
                    if Position::from_fen(&board(pawn, wk, bk, white), CastlingMode::Standard)
                        .is_ok()
                    {
                        node_of[idx(pawn, wk, bk, white)] = keys.len();
                        keys.push((pawn, wk, bk, white));
                    }
                }
            }
        }
    }
    // Each node's moves, resolved to other nodes or fixed values.
    let mut edges: Vec<Vec<Edge>> = Vec::with_capacity(keys.len());
    let mut value = vec![V::Unknown; keys.len()];
    for (i, &(pawn, wk, bk, white)) in keys.iter().enumerate() {
        let pos = Position::from_fen(&board(pawn, wk, bk, white), CastlingMode::Standard).unwrap();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            // Only Black can be mated here; anything else without moves is stalemate.
            value[i] = if pos.in_check() && !white {
                V::Win
            } else {
                V::Draw
            };
            edges.push(Vec::new());
            continue;
        }
        let mut out = Vec::new();
        for m in moves.iter().copied() {
            let mut after = pos.clone();
            after.make(m);
            if m.is_promotion() {
                out.push(Edge::Fixed(promotion_value(&after, m)));
                continue;
            }
            let pawns = after.pieces(Color::White, Role::Pawn);
            let Some(p) = pawns.first() else {
                out.push(Edge::Fixed(V::Draw));
                continue;
            };
            let j = node_of[idx(
                p.index(),
                after.king(Color::White).index(),
                after.king(Color::Black).index(),
                !white,
            )];
            assert_ne!(j, usize::MAX, "successor of a legal position must be legal");
            out.push(Edge::Node(j));
        }
        edges.push(out);
    }
    loop {
        let mut changed = false;
        for i in 0..keys.len() {
            if value[i] != V::Unknown {
                continue;
            }
            let white = keys[i].3;
            let vals = edges[i].iter().map(|e| match e {
                Edge::Node(j) => value[*j],
                Edge::Fixed(v) => *v,
            });
            let (mut win, mut draw, mut unknown) = (false, false, false);
            for v in vals {
                match v {
                    V::Win => win = true,
                    V::Draw => draw = true,
                    V::Unknown => unknown = true,
                }
            }
            let new = if white {
                if win {
                    V::Win
                } else if unknown {
                    V::Unknown
                } else {
                    V::Draw
                }
            } else if draw {
                V::Draw
            } else if unknown {
                V::Unknown
            } else {
                V::Win
            };
            if new != V::Unknown {
                value[i] = new;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut wins = 0;
    for (i, &(pawn, wk, bk, white)) in keys.iter().enumerate() {
        let expected = value[i] == V::Win;
        let sq = Square::from_index;
        let got = kpk::probe(Color::White, sq(wk), sq(pawn), sq(bk), white);
        assert_eq!(got, expected, "{}", board(pawn, wk, bk, white));
        // The same position with colours exchanged.
        let mirrored = kpk::probe(
            Color::Black,
            sq(wk).flip(),
            sq(pawn).flip(),
            sq(bk).flip(),
            white,
        );
        assert_eq!(
            mirrored,
            expected,
            "{} mirrored",
            board(pawn, wk, bk, white)
        );
        wins += usize::from(expected);
    }
    // Known totals of the ending: most positions are wins, many are not.
    assert!(
        keys.len() > 300_000 && wins > keys.len() / 2 && wins < keys.len(),
        "{wins} of {}",
        keys.len()
    );
}
