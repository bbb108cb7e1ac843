//! # sable_engine
//!
//! Search, evaluation and time management for Sable, built on `sable_chess`.
//!
//! The protocol-neutral entry point is [`Engine`]: it owns the game (position and history),
//! the options, the shared transposition table and the search threads, and reports what a
//! search finds as [`SearchEvent`]s. The UCI, xboard and console front ends (in the `sable`
//! binary) only translate text to these calls and events back to text.

pub mod bench;
pub mod book;
mod context;
pub mod correction;
mod engine;
pub mod eval;
pub mod history;
mod job;
pub mod limits;
mod line;
pub mod movepick;
pub mod nnue;
pub mod report;
pub mod score;
mod search;
pub mod see;
pub mod strength;
pub mod tablebase;
mod threads;
pub mod time;
pub mod tt;
pub mod tunables;

pub use book::{BookChoice, BookMode};
pub use engine::{
    Engine, EngineError, EngineOptions, HASH_MB, LEARN_DECISIVE_CP, LEARN_SEARCHES,
    MOVE_OVERHEAD_MS, MULTI_PV, THREADS,
};
pub use limits::{Clock, SearchLimits};
pub use report::{Bound, ScoreReport, SearchEvent, SearchInfo, SearchResult, Wdl};
pub use score::MAX_PLY;
pub use search::technique;
