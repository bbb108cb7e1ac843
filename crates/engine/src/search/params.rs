//! The search's margins and thresholds, in one named table, so that each can be found,
//! read and tuned (like the evaluation's parameters) instead of living as a literal in
//! the code that uses it. Every pruning block in `alphabeta` and `quiescence` reads its
//! numbers from [`SEARCH`]; margins are in centipawns of the evaluation's scale.
//!
//! That scale is the HCE's, which the margins were tuned on. A net is held to it by its
//! file's output scale rather than by a second table: nets trained on the search's scores
//! drift from it from round to round, so each is measured against a fixed reference
//! (`tools/nets_vs_stockfish.py`) and ships rescaled (`sable nnue rescale`), which puts
//! its scores back on every margin here (the figures are in `nets/README.md` and
//! `results/`).

/// One value per margin or threshold of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SearchParams {
    /// Aspiration window: half-width of the first window, and the width beyond which
    /// the window opens fully.
    pub aspiration_delta: i32,
    pub aspiration_max: i32,
    /// Reverse futility pruning: deepest depth, margin per depth.
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// Razoring: deepest depth, margin = base + per-depth × depth.
    pub razor_depth: i32,
    pub razor_base: i32,
    pub razor_per_depth: i32,
    /// Null move: shallowest depth; reduction = base + depth / depth_div
    /// + min((eval - beta) / eval_div, eval_max); verified from `verify_depth` on.
    pub nmp_depth: i32,
    pub nmp_base: i32,
    pub nmp_depth_div: i32,
    pub nmp_eval_div: i32,
    pub nmp_eval_max: i32,
    pub nmp_verify_depth: i32,
    /// Internal iterative reduction: shallowest depth.
    pub iir_depth: i32,
    /// Late move pruning: quiets allowed = (base + depth²), halved when not improving.
    pub lmp_base: i32,
    /// Futility pruning of quiets: deepest reduced depth; margin = base + per-depth × d.
    pub futility_depth: i32,
    pub futility_base: i32,
    pub futility_per_depth: i32,
    /// SEE pruning: quiets below -quiet_margin × d², captures below
    /// -capture_margin × depth, at depths up to the given ones.
    pub see_quiet_depth: i32,
    pub see_quiet_margin: i32,
    pub see_capture_depth: i32,
    pub see_capture_margin: i32,
    /// Singular extensions: shallowest depth, table depth slack, margin per depth;
    /// a double extension below a further margin, at most `double_max` on a path.
    pub singular_depth: i32,
    pub singular_tt_slack: i32,
    pub singular_margin: i32,
    pub singular_double_margin: i32,
    pub singular_double_max: u32,
    /// Late move reductions: `lmr_base + ln(depth) ln(moves) / lmr_divisor`, less one
    /// per `lmr_history` of history.
    pub lmr_base: f64,
    pub lmr_divisor: f64,
    pub lmr_history: i32,
    /// Quiescence futility: margin over the static evaluation.
    pub qs_futility: i32,
}

/// The values in use.
pub(crate) const SEARCH: SearchParams = SearchParams {
    aspiration_delta: 18,
    aspiration_max: 1000,
    rfp_depth: 8,
    rfp_margin: 85,
    razor_depth: 3,
    razor_base: 220,
    razor_per_depth: 170,
    nmp_depth: 3,
    nmp_base: 3,
    nmp_depth_div: 3,
    nmp_eval_div: 200,
    nmp_eval_max: 3,
    nmp_verify_depth: 12,
    iir_depth: 4,
    lmp_base: 3,
    futility_depth: 8,
    futility_base: 130,
    futility_per_depth: 110,
    see_quiet_depth: 8,
    see_quiet_margin: 28,
    see_capture_depth: 8,
    see_capture_margin: 95,
    singular_depth: 8,
    singular_tt_slack: 3,
    singular_margin: 2,
    singular_double_margin: 25,
    singular_double_max: 6,
    lmr_base: 0.8,
    lmr_divisor: 2.3,
    lmr_history: 8192,
    qs_futility: 160,
};
