//! The parts of `sable analyse` that are not the command line: evaluations
//! ([`eval`]), lichess's win% ([`winprob`]), move judgements ([`judge`]), accuracy and
//! centipawn loss ([`accuracy`]), opening names ([`eco`]), one analysed game ([`game`]),
//! writing the analysis into the PGN ([`annotate`]), and the reports ([`svg`],
//! [`png`], [`report`]).

pub mod accuracy;
pub mod annotate;
pub mod eco;
pub mod eval;
pub mod game;
pub mod judge;
pub mod png;
pub mod report;
pub mod svg;
pub mod winprob;
