//! Changing books: merging two ([`merge`]) and learning from played games ([`learn_game`]).
//!
//! ## Merging
//!
//! As Debian's `polyglot merge-book` (2.0.4): positions of either book are kept; for a
//! position in both, the first book's moves come first in its order, then the second
//! book's other moves in theirs. A move in both gets, by [`MergeRule`], the sum of its
//! weights (Polyglot's rule, except that Sable saturates at 65535 where Polyglot wraps
//! around), the larger weight, or the first book's entry alone (`First`: Polyglot 1.4's
//! rule, where a position in the first book takes none of the second book's moves). The
//! learn field is the first book's where the move is in it.
//!
//! ## Learning
//!
//! A game teaches the book the moves it followed from its start while they were in the
//! book (it stops at the first move the book does not hold for that position). For each
//! such entry, from the point of view of the side that played the move:
//!
//! * the learn field counts: its high 16 bits the games learned from, its low 16 bits the
//!   half-points the move scored (2 win, 1 draw, 0 loss), both saturating;
//! * the weight moves: a loss takes a quarter of it away (at least 1, down to 0), a win
//!   adds an eighth (at least 1, up to 65535), a draw leaves it.
//!
//! So a line that keeps losing sinks until it is not played (weight 0 entries are never
//! picked), and one that wins rises. Games without a result (`*`) teach nothing.

use super::{encode_move, BookEntry, PolyglotBook};
use crate::pgn::GameResult;
use sable_chess::{Color, Move, Position};

/// What happens to a move found in both books.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MergeRule {
    /// Weights added, saturating at 65535.
    #[default]
    Sum,
    /// The larger weight.
    Max,
    /// A position in the first book keeps only the first book's moves.
    First,
}

/// Merges two books (see the module comment for the rules).
pub fn merge(a: &PolyglotBook, b: &PolyglotBook, rule: MergeRule) -> PolyglotBook {
    let (a, b) = (a.all_entries(), b.all_entries());
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let key = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) => x.key.min(y.key),
            (Some(x), None) => x.key,
            (None, Some(y)) => y.key,
            (None, None) => unreachable!(),
        };
        let i_end = i + a[i..].iter().take_while(|e| e.key == key).count();
        let j_end = j + b[j..].iter().take_while(|e| e.key == key).count();
        let start = out.len();
        out.extend_from_slice(&a[i..i_end]);
        if !(rule == MergeRule::First && i_end > i) {
            for e in &b[j..j_end] {
                match out[start..].iter_mut().find(|o| o.raw_move == e.raw_move) {
                    Some(o) => {
                        o.weight = match rule {
                            MergeRule::Sum => o.weight.saturating_add(e.weight),
                            MergeRule::Max => o.weight.max(e.weight),
                            MergeRule::First => o.weight,
                        }
                    }
                    None => out.push(*e),
                }
            }
        }
        i = i_end;
        j = j_end;
    }
    PolyglotBook::from_entries(out).expect("merging sorted books keeps them sorted")
}

/// What one game changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// Book entries updated.
    pub entries: usize,
}

/// The learn field after a game that scored `half_points` (0, 1, 2) for the move.
pub fn learn_field(learn: u32, half_points: u32) -> u32 {
    let games = (learn >> 16).saturating_add(1).min(0xffff);
    let points = (learn & 0xffff).saturating_add(half_points).min(0xffff);
    (games << 16) | points
}

/// The weight after a game that scored `half_points` (0 loss, 1 draw, 2 win).
pub fn learn_weight(weight: u16, half_points: u32) -> u16 {
    match half_points {
        0 => weight.saturating_sub((weight / 4).max(1)),
        2 => weight.saturating_add((weight / 8).max(1)),
        _ => weight,
    }
}

/// Updates `book` from one game (start position, moves, result); see the module comment.
pub fn learn_game(
    book: &mut PolyglotBook,
    start: &Position,
    moves: &[Move],
    result: GameResult,
) -> Learned {
    let mut learned = Learned::default();
    let white_points = match result {
        GameResult::WhiteWins => 2,
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::Unknown => return learned,
    };
    if start.is_chess960() {
        return learned;
    }
    let mut pos = start.clone();
    for &m in moves {
        if !pos.is_legal(m) {
            break;
        }
        let raw = encode_move(m);
        let key = pos.key();
        let lo = book.entries.partition_point(|e| e.key < key);
        let Some(e) = book.entries[lo..]
            .iter_mut()
            .take_while(|e| e.key == key)
            .find(|e| e.raw_move == raw)
        else {
            break;
        };
        let points = if pos.turn() == Color::White {
            white_points
        } else {
            2 - white_points
        };
        *e = BookEntry {
            weight: learn_weight(e.weight, points),
            learn: learn_field(e.learn, points),
            ..*e
        };
        learned.entries += 1;
        pos.make(m);
    }
    learned
}
