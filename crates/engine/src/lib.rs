//! # sable_engine
//!
//! Search, evaluation and time management for Sable, built on `sable_chess`.

pub mod eval;
