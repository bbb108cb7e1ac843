//! The arena: playing engines against each other and measuring the results, at the
//! standard of cutechess-cli and fastchess. Engines (UCI or xboard) run as processes
//! read on their own threads; a referee keeps the clocks, checks moves and adjudicates;
//! a tournament runs games concurrently, writes PGN and keeps the statistics (Elo with
//! error bars, LOS, pentanomial pairs, normalized-Elo SPRT).
//!
//! `sable_arena` never uses Sable's engine: it drives any engine, Sable included, as a
//! process. `sable match`, `sable epd` and `sable imbalance` (crates/cli) are thin
//! front ends over it; `sable analyse` uses its engine driver.

pub mod adjudication;
pub mod engine;
pub mod game;
pub mod imbalance;
pub mod notation;
pub mod openings;
pub mod options;
pub mod pgn;
pub mod referee;
pub mod rng;
pub mod schedule;
pub mod sprt;
pub mod standings;
pub mod stats;
pub mod suite;
pub mod tc;
pub mod tournament;
