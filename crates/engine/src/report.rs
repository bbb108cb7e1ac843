//! What a search tells the outside world, independent of any protocol: progress reports
//! ([`SearchInfo`]), the move being searched, free-form notes and the final result.

use sable_chess::Move;
use std::time::Duration;

/// A score as protocols print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreReport {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move gets mated).
    Mate(i32),
}

/// Whether the reported score is exact or only a bound (after an aspiration-window failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// Win/draw/loss expectation in permille for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// One principal variation at one depth.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number for MultiPV.
    pub multipv: u32,
    /// Raw internal score (see [`crate::score`]).
    pub score_value: i32,
    pub score: ScoreReport,
    pub bound: Bound,
    pub wdl: Wdl,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the table filled by this search.
    pub hashfull: u32,
    /// Tablebase probes that answered, all threads.
    pub tbhits: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// `None` when the root has no legal move (checkmate or stalemate).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score_value: i32,
    pub score: ScoreReport,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// Everything a running search reports, in order; [`SearchEvent::Finished`] comes last.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchEvent {
    Info(SearchInfo),
    /// The root move being searched (sent only after the first seconds).
    CurrMove {
        depth: u32,
        mv: Move,
        number: u32,
    },
    /// A note for the user (protocol `info string` or the like).
    Note(String),
    Finished(SearchResult),
}
