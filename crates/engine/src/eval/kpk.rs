//! The king-and-pawn-against-king bitbase: every position classified win or draw by a
//! one-time retrograde computation in process (a few milliseconds), then one bit each.
//!
//! Positions are normalised so the pawn is White's and on files a-d; the index is
//! side to move, weak king, strong king and pawn square (24 of them: a2..d7).

use sable_chess::{attacks, Color, Square};
use std::sync::OnceLock;

const SIZE: usize = 2 * 64 * 64 * 24;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Invalid,
    Unknown,
    Draw,
    Win,
}

static BITBASE: OnceLock<Vec<u64>> = OnceLock::new();

fn index(white_to_move: bool, wk: usize, bk: usize, pawn: usize) -> usize {
    let p = (pawn / 8 - 1) * 4 + pawn % 8;
    usize::from(white_to_move) | (bk << 1) | (wk << 7) | (p << 13)
}

fn king_moves(sq: usize) -> impl Iterator<Item = usize> {
    attacks::king_attacks(Square::from_index(sq))
        .iter()
        .map(|s| s.index())
}

fn adjacent(a: usize, b: usize) -> bool {
    Square::from_index(a).distance(Square::from_index(b)) <= 1
}

fn pawn_attacks(pawn: usize) -> sable_chess::SquareSet {
    attacks::pawn_attacks(Color::White, Square::from_index(pawn))
}

fn initial(white_to_move: bool, wk: usize, bk: usize, pawn: usize) -> State {
    if wk == bk || wk == pawn || bk == pawn || adjacent(wk, bk) {
        return State::Invalid;
    }
    let bk_attacked = pawn_attacks(pawn).contains(Square::from_index(bk));
    if white_to_move {
        if bk_attacked {
            return State::Invalid;
        }
        // A pawn on the seventh that queens safely wins.
        let queen_sq = pawn + 8;
        if pawn / 8 == 6
            && wk != queen_sq
            && bk != queen_sq
            && (!adjacent(bk, queen_sq) || adjacent(wk, queen_sq))
        {
            return State::Win;
        }
    } else {
        let mut escapes = king_moves(bk)
            .filter(|&s| !adjacent(s, wk) && !pawn_attacks(pawn).contains(Square::from_index(s)));
        if escapes.next().is_none() {
            // No mate is possible in KPK, so this is stalemate.
            return State::Draw;
        }
        // The defender takes an unguarded pawn.
        if adjacent(bk, pawn) && !adjacent(wk, pawn) {
            return State::Draw;
        }
    }
    State::Unknown
}

#[derive(Default)]
struct Tally {
    win: bool,
    draw: bool,
    unknown: bool,
}

impl Tally {
    fn note(&mut self, s: State) {
        match s {
            State::Win => self.win = true,
            State::Draw => self.draw = true,
            State::Unknown => self.unknown = true,
            State::Invalid => {}
        }
    }
}

fn successor(states: &[State], white_to_move: bool, wk: usize, bk: usize, pawn: usize) -> State {
    let mut t = Tally::default();
    if white_to_move {
        for to in king_moves(wk) {
            if to != pawn && !adjacent(to, bk) {
                t.note(states[index(false, to, bk, pawn)]);
            }
        }
        let push = pawn + 8;
        if pawn / 8 < 6 && push != wk && push != bk {
            t.note(states[index(false, wk, bk, push)]);
            let double = push + 8;
            if pawn / 8 == 1 && double != wk && double != bk {
                t.note(states[index(false, wk, bk, double)]);
            }
        }
        // A promotion that did not win at once (see `initial`) is lost or stalemates.
        if t.win {
            State::Win
        } else if t.unknown {
            State::Unknown
        } else {
            State::Draw
        }
    } else {
        for to in king_moves(bk) {
            if to == pawn {
                if !adjacent(wk, pawn) {
                    t.draw = true;
                }
            } else if !adjacent(to, wk) && !pawn_attacks(pawn).contains(Square::from_index(to)) {
                t.note(states[index(true, wk, to, pawn)]);
            }
        }
        if t.draw {
            State::Draw
        } else if t.unknown {
            State::Unknown
        } else {
            State::Win
        }
    }
}

fn generate() -> Vec<u64> {
    let mut states = vec![State::Invalid; SIZE];
    let squares = || (0..64usize).flat_map(|a| (0..64usize).map(move |b| (a, b)));
    let pawns = || (1..7usize).flat_map(|r| (0..4usize).map(move |f| r * 8 + f));
    for pawn in pawns() {
        for (wk, bk) in squares() {
            for stm in [false, true] {
                states[index(stm, wk, bk, pawn)] = initial(stm, wk, bk, pawn);
            }
        }
    }
    loop {
        let mut changed = false;
        for pawn in pawns() {
            for (wk, bk) in squares() {
                for stm in [false, true] {
                    let i = index(stm, wk, bk, pawn);
                    if states[i] == State::Unknown {
                        let s = successor(&states, stm, wk, bk, pawn);
                        if s != State::Unknown {
                            states[i] = s;
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut bits = vec![0u64; SIZE / 64];
    for (i, s) in states.iter().enumerate() {
        if *s == State::Win {
            bits[i / 64] |= 1 << (i % 64);
        }
    }
    bits
}

/// Builds the bitbase now (it is otherwise built on first use).
pub fn init() {
    BITBASE.get_or_init(generate);
}

/// Whether the side with the pawn wins. `strong` owns the pawn; `strong_to_move` says
/// whose turn it is. The position must be legal.
pub fn probe(
    strong: Color,
    strong_king: Square,
    pawn: Square,
    weak_king: Square,
    strong_to_move: bool,
) -> bool {
    let norm = |sq: Square| {
        let sq = sq.relative(strong);
        if pawn.relative(strong).file().index() >= 4 {
            sq.index() ^ 7
        } else {
            sq.index()
        }
    };
    let i = index(
        strong_to_move,
        norm(strong_king),
        norm(weak_king),
        norm(pawn),
    );
    let bits = BITBASE.get_or_init(generate);
    bits[i / 64] >> (i % 64) & 1 == 1
}
