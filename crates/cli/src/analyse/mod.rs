//! The parts of `sable analyse` that are not the command line: evaluations
//! ([`eval`]), lichess's win% ([`winprob`]), move judgements ([`judge`]), accuracy and
//! centipawn loss ([`accuracy`]), opening names ([`eco`]), one analysed game ([`game`]),
//! the pass that evaluates a game and reports on it ([`pass`], shared with `sable serve`),
//! writing the analysis into the PGN ([`annotate`]), and the reports ([`svg`],
//! [`png`], [`report`]).

pub mod accuracy;
pub mod annotate;
pub mod eco;
pub mod eval;
pub mod game;
pub mod judge;
pub mod pass;
pub mod png;
pub mod report;
pub mod svg;
pub mod winprob;
