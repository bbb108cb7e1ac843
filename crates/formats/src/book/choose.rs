//! Choosing a move from a book: the legal, weighted moves of a position and a pick among
//! them, either the heaviest or one drawn in proportion to the weights. Shared by the
//! engine playing from its own book and the match runner playing from a book on an
//! engine's behalf; the random number is the caller's, so a seeded tool repeats its picks.

use super::PolyglotBook;
use sable_chess::{Move, Position};

/// How the book move is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BookMode {
    /// The heaviest move (the first on ties).
    Best,
    /// A move at random, in proportion to the weights.
    #[default]
    Weighted,
}

impl BookMode {
    pub const NAMES: [&'static str; 2] = ["best", "weighted"];

    /// `best` or `weighted`, in any case; `None` for anything else.
    ///
    /// ```
    /// use sable_formats::book::choose::BookMode;
    /// assert_eq!(BookMode::parse(" Best "), Some(BookMode::Best));
    /// assert_eq!(BookMode::parse("random"), None);
    /// ```
    pub fn parse(text: &str) -> Option<BookMode> {
        match text.trim().to_ascii_lowercase().as_str() {
            "best" => Some(BookMode::Best),
            "weighted" => Some(BookMode::Weighted),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BookMode::Best => "best",
            BookMode::Weighted => "weighted",
        }
    }
}

/// A book move with its weight and share of the weights of the usable moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookChoice {
    pub mv: Move,
    pub weight: u16,
    pub learn: u32,
    /// Percent of the total weight of the position's usable moves.
    pub percent: f64,
}

impl BookChoice {
    /// `book move e2e4 (weight 123, 41%)`.
    pub fn note(&self) -> String {
        format!(
            "book move {} (weight {}, {:.0}%)",
            self.mv.to_uci(false),
            self.weight,
            self.percent
        )
    }

    /// Picks a move among `choices` (see [`BookMode`]); `draw` is a uniformly random
    /// number, used by `Weighted` only. `None` when no choice has a weight.
    ///
    /// ```
    /// use sable_formats::book::choose::{BookChoice, BookMode};
    /// let pos = sable_chess::Position::startpos();
    /// let mv = |uci: &str| pos.parse_san_lenient(uci).unwrap();
    /// let choice = |m, weight| BookChoice { mv: mv(m), weight, learn: 0, percent: 0.0 };
    /// let choices = [choice("e2e4", 3), choice("d2d4", 1)];
    /// assert_eq!(BookChoice::pick(&choices, BookMode::Best, 0).unwrap().mv, mv("e2e4"));
    /// // Weighted: draws 0..=2 of every 4 give e4, draw 3 gives d4.
    /// assert_eq!(BookChoice::pick(&choices, BookMode::Weighted, 7).unwrap().mv, mv("d2d4"));
    /// assert_eq!(BookChoice::pick(&choices, BookMode::Weighted, 8).unwrap().mv, mv("e2e4"));
    /// ```
    pub fn pick(choices: &[BookChoice], mode: BookMode, draw: u64) -> Option<BookChoice> {
        match mode {
            BookMode::Best => {
                let mut best: Option<BookChoice> = None;
                for c in choices {
                    if c.weight > 0 && best.is_none_or(|b| c.weight > b.weight) {
                        best = Some(*c);
                    }
                }
                best
            }
            BookMode::Weighted => {
                let total: u64 = choices.iter().map(|c| c.weight as u64).sum();
                if total == 0 {
                    return None;
                }
                let mut r = draw % total;
                for c in choices {
                    if r < c.weight as u64 {
                        return Some(*c);
                    }
                    r -= c.weight as u64;
                }
                None
            }
        }
    }
}

impl PolyglotBook {
    /// The legal moves of `pos` in the book with weight at least `min_weight` (and above
    /// 0), in file order, with their shares; none in Chess960 (Polyglot keys do not
    /// describe Chess960 castling).
    pub fn choices(&self, pos: &Position, min_weight: u16) -> Vec<BookChoice> {
        if pos.is_chess960() {
            return Vec::new();
        }
        let usable: Vec<_> = self
            .legal_entries(pos)
            .into_iter()
            .filter(|(_, e)| e.weight > 0 && e.weight >= min_weight)
            .collect();
        let total: u64 = usable.iter().map(|(_, e)| e.weight as u64).sum();
        usable
            .into_iter()
            .map(|(mv, e)| BookChoice {
                mv,
                weight: e.weight,
                learn: e.learn,
                percent: 100.0 * e.weight as f64 / total.max(1) as f64,
            })
            .collect()
    }
}
