//! Static evaluation: a score in centipawns from the side to move's point of view.
//!
//! The interface the search uses is [`Evaluator::evaluate`]; an `Evaluator` is owned by
//! one search thread and may keep caches (pawn hash, material table) inside.

use sable_chess::{Color, Position, Role};

/// One thread's evaluator.
#[derive(Default)]
pub struct Evaluator {}

const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

impl Evaluator {
    pub fn new() -> Evaluator {
        Evaluator {}
    }

    /// Centipawns for the side to move.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let mut score = 0;
        for role in Role::ALL {
            let diff = pos.count(Color::White, role) as i32 - pos.count(Color::Black, role) as i32;
            score += diff * VALUES[role.index()];
        }
        score * pos.turn().sign()
    }
}
