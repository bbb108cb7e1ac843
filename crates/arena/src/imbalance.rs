//! Start positions that carry a material imbalance, for measuring its value by play
//! rather than by tuning. Each side keeps its pieces on their starting squares; the
//! listed material decides which ones stay (which bishop, which rook, chosen at random
//! when a side keeps only some), all pawns stay unless the calibration run removes one
//! of side B's, a few random quiet plies add variety, and White moves first whichever
//! side carries the imbalance, so that each side moves first in half of the positions.

use crate::rng::splitmix;
use sable_chess::{CastlingMode, Color, Position, Role};

use super::openings::Opening;

/// Side A's and side B's pieces besides king and pawns, e.g. `QRR` and `RRBNN`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imbalance {
    pub a: Vec<Role>,
    pub b: Vec<Role>,
}

/// The published queen-against-three-minors cases.
pub const PRESETS: [(&str, &str); 3] = [
    ("qrr-rrbnn", "QRR:RRBNN"),
    ("qr-rbnn", "QR:RBNN"),
    ("q-bnn", "Q:BNN"),
];

impl Imbalance {
    /// Reads `QRR:RRBNN` (or `QRR-RRBNN`, `QRR vs RRBNN`), or a preset name.
    pub fn parse(text: &str) -> Result<Imbalance, String> {
        let t = PRESETS
            .iter()
            .find(|p| p.0.eq_ignore_ascii_case(text))
            .map_or(text, |p| p.1);
        let (a, b) = t
            .split_once(':')
            .or_else(|| t.split_once(" vs "))
            .or_else(|| t.split_once('-'))
            .ok_or_else(|| format!("'{text}': expected two sides like QRR:RRBNN"))?;
        let side = |s: &str| -> Result<Vec<Role>, String> {
            let mut roles = Vec::new();
            for c in s.trim().chars() {
                match Role::from_char(c) {
                    Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => {
                        roles.push(r)
                    }
                    _ => return Err(format!("'{text}': '{c}' is not Q, R, B or N")),
                }
            }
            for (r, max) in [
                (Role::Queen, 1),
                (Role::Rook, 2),
                (Role::Bishop, 2),
                (Role::Knight, 2),
            ] {
                if roles.iter().filter(|&&x| x == r).count() > max {
                    return Err(format!("'{text}': more than {max} {r:?} on one side (pieces stay on their start squares)"));
                }
            }
            Ok(roles)
        };
        Ok(Imbalance {
            a: side(a)?,
            b: side(b)?,
        })
    }

    pub fn name(&self) -> String {
        let s = |v: &[Role]| v.iter().map(|r| r.upper_char()).collect::<String>();
        format!("{} vs {}", s(&self.a), s(&self.b))
    }
}

/// Back-rank files of each piece type in the standard start position.
fn home_files(r: Role) -> &'static [usize] {
    match r {
        Role::Rook => &[0, 7],
        Role::Knight => &[1, 6],
        Role::Bishop => &[2, 5],
        Role::Queen => &[3],
        _ => &[],
    }
}

/// One side's back rank (files 0..8), keeping `roles` on random home squares.
fn back_rank(roles: &[Role], rng: &mut u64) -> [Option<Role>; 8] {
    let mut rank = [None; 8];
    rank[4] = Some(Role::King);
    for r in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        let want = roles.iter().filter(|&&x| x == r).count();
        let mut files = home_files(r).to_vec();
        while files.len() > want {
            let i = (splitmix(rng) % files.len() as u64) as usize;
            files.remove(i);
        }
        for f in files {
            rank[f] = Some(r);
        }
    }
    rank
}

/// A position for pair `index` of the measurement: `a_color` is the side with A's
/// material; `b_missing_pawn` removes one of B's pawns (the calibration run). The same
/// `seed` and `index` give the same choices in both runs.
pub fn position(
    imb: &Imbalance,
    seed: u64,
    index: u64,
    a_color: Color,
    b_missing_pawn: bool,
    random_plies: usize,
) -> Option<Opening> {
    let mut rng = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let a_rank = back_rank(&imb.a, &mut rng);
    let b_rank = back_rank(&imb.b, &mut rng);
    let missing_file = (splitmix(&mut rng) % 8) as usize;
    let (white, black) = match a_color {
        Color::White => (a_rank, b_rank),
        Color::Black => (b_rank, a_rank),
    };
    let b_color = !a_color;
    let row = |rank: &[Option<Role>; 8], color: Color| -> String {
        let mut s = String::new();
        let mut empty = 0;
        for sq in rank {
            match sq {
                Some(r) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let c = r.char();
                    s.push(if color == Color::White {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        s
    };
    let pawns = |color: Color| -> String {
        let mut p = [true; 8];
        if b_missing_pawn && color == b_color {
            p[missing_file] = false;
        }
        let rank: [Option<Role>; 8] = std::array::from_fn(|i| p[i].then_some(Role::Pawn));
        row(&rank, color)
    };
    let mut castling = String::new();
    for (rank, upper) in [(&white, true), (&black, false)] {
        for (file, c) in [(7, 'k'), (0, 'q')] {
            if rank[file] == Some(Role::Rook) {
                castling.push(if upper { c.to_ascii_uppercase() } else { c });
            }
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let fen = format!(
        "{}/{}/8/8/8/8/{}/{} w {castling} - 0 1",
        row(&black, Color::Black),
        pawns(Color::Black),
        pawns(Color::White),
        row(&white, Color::White)
    );
    let start = Position::from_fen(&fen, CastlingMode::Standard).ok()?;
    // Random quiet plies, in pairs so that White still moves first.
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..random_plies / 2 * 2 {
        let quiet: Vec<_> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| !pos.is_capture(m) && !pos.gives_check(m) && !m.is_castle())
            .collect();
        if quiet.is_empty() {
            return None;
        }
        let m = quiet[(splitmix(&mut rng) % quiet.len() as u64) as usize];
        pos.make(m);
        moves.push(m);
    }
    if pos.legal_moves().is_empty() || pos.in_check() {
        return None;
    }
    Some(Opening { start, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn material(p: &Position, c: Color) -> String {
        let mut s = String::new();
        for r in [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            for _ in 0..p.count(c, r) {
                s.push(r.upper_char());
            }
        }
        s
    }

    #[test]
    fn parses_sides_and_presets() {
        let i = Imbalance::parse("q-bnn").unwrap();
        assert_eq!(i.name(), "Q vs BNN");
        assert_eq!(Imbalance::parse("QRR:RRBNN").unwrap().b.len(), 5);
        assert_eq!(Imbalance::parse("QR vs RBNN").unwrap().a.len(), 2);
        assert!(Imbalance::parse("QQ:R")
            .unwrap_err()
            .contains("more than 1"));
        assert!(Imbalance::parse("QK:R").unwrap_err().contains("'K'"));
        assert!(Imbalance::parse("QRR").is_err());
    }

    #[test]
    fn positions_carry_the_material() {
        let imb = Imbalance::parse("QRR:RRBNN").unwrap();
        for index in 0..20 {
            for a in [Color::White, Color::Black] {
                let o = position(&imb, 7, index, a, false, 4).unwrap();
                assert_eq!(o.start.turn(), Color::White);
                assert_eq!(o.moves.len(), 4);
                assert_eq!(material(&o.start, a), "QRRPPPPPPPP");
                assert_eq!(material(&o.start, !a), "RRBNNPPPPPPPP");
                // Castling both ways for both sides (both rooks at home).
                assert!(o.start.fen().contains(" w KQkq - "), "{}", o.start.fen());
                let cal = position(&imb, 7, index, a, true, 4).unwrap();
                assert_eq!(material(&cal.start, !a), "RRBNNPPPPPPP");
                assert_eq!(material(&cal.start, a), "QRRPPPPPPPP");
            }
        }
    }

    #[test]
    fn a_single_bishop_or_rook_is_chosen_at_random() {
        let imb = Imbalance::parse("QR:RBNN").unwrap();
        let mut bishops = std::collections::HashSet::new();
        let mut rooks = std::collections::HashSet::new();
        for index in 0..40 {
            let o = position(&imb, 1, index, Color::White, false, 0).unwrap();
            let p = &o.start;
            bishops.insert(
                p.pieces(Color::Black, Role::Bishop)
                    .first()
                    .unwrap()
                    .file()
                    .index(),
            );
            rooks.insert(
                p.pieces(Color::White, Role::Rook)
                    .first()
                    .unwrap()
                    .file()
                    .index(),
            );
            let f = p.fen();
            let castling = f.split(' ').nth(2).unwrap();
            assert_eq!(
                castling.chars().filter(|c| c.is_ascii_uppercase()).count(),
                1,
                "{f}"
            );
            assert_eq!(
                castling.chars().filter(|c| c.is_ascii_lowercase()).count(),
                1,
                "{f}"
            );
        }
        assert_eq!(bishops.len(), 2);
        assert_eq!(rooks.len(), 2);
        let q = Imbalance::parse("Q:BNN").unwrap();
        let o = position(&q, 3, 0, Color::Black, false, 0).unwrap();
        assert!(o.start.fen().contains(" w - - "), "{}", o.start.fen());
    }
}
