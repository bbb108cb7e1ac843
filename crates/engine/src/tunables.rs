//! Every search and time-management constant, declared once in one table: name,
//! default, range and SPSA step. The search reads each through a function of the same
//! name (`tunables::rfp_margin()`).
//!
//! A normal build makes each function a `const fn` returning the default, so the
//! compiler folds it into the code exactly as the literal it replaced: the table costs
//! nothing. A build with the `tune` feature keeps each value in a process-wide atomic
//! instead, set through a UCI spin option of the same name (OpenBench's SPSA sets its
//! parameters by exactly these names); `sable tune-params` prints the table in
//! OpenBench's SPSA input format. One engine process plays one side of a game, so one
//! global per value is enough.
//!
//! Margins are in centipawns of the evaluation's scale, the HCE's, which they were
//! tuned on. A net is held to it by its file's output scale rather than by a second
//! table: nets trained on the search's scores drift from it from round to round, so each
//! is measured against a fixed reference (`tools/nets_vs_stockfish.py`) and ships
//! rescaled (`sable nnue rescale`), which puts its scores back on every margin here.
//!
//! Values that were fractions are whole numbers here (hundredths, 1024ths, percent), so
//! that every tunable is an OpenBench `int`; each default gives exactly the arithmetic
//! of the literal it replaced (`x * 3 / 4` is `x * 75 / 100` in integers), so the bench
//! is unchanged. A name ending in `_div` is a divisor: its minimum is at least 1.

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

/// One tunable constant.
pub struct Tunable {
    /// The name, also the UCI option's and OpenBench's.
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's final perturbation (OpenBench's `c_end`).
    pub step: i32,
    /// The function the search calls to read it.
    read: fn() -> i32,
    #[cfg(feature = "tune")]
    cell: &'static AtomicI32,
}

/// SPSA's final learning rate (OpenBench's `r_end`), the value its documentation suggests.
pub const R_END: f64 = 0.002;

/// Whether this build can change the values (the `tune` feature).
pub const ENABLED: bool = cfg!(feature = "tune");

impl Tunable {
    /// The value the search uses now.
    pub fn value(&self) -> i32 {
        (self.read)()
    }

    /// Sets the value from an option's text; refuses (keeping the old value) text that
    /// is not a whole number, a value outside `min..=max`, and any change in a build
    /// without the `tune` feature.
    pub fn set(&self, text: &str) -> Result<(), String> {
        let name = self.name;
        let t = text.trim();
        let v: i64 = t
            .parse()
            .map_err(|_| format!("{name} needs a whole number, got '{t}'"))?;
        if v < i64::from(self.min) || v > i64::from(self.max) {
            return Err(format!(
                "{name} must be within {}..={}, got {v}; keeping {}",
                self.min,
                self.max,
                self.value()
            ));
        }
        self.store(v as i32)
    }

    #[cfg(feature = "tune")]
    fn store(&self, v: i32) -> Result<(), String> {
        self.cell.store(v, Relaxed);
        Ok(())
    }

    #[cfg(not(feature = "tune"))]
    fn store(&self, v: i32) -> Result<(), String> {
        if v == self.default {
            Ok(())
        } else {
            Err(format!(
                "{} is fixed at {} in this build (built without the tune feature)",
                self.name, self.default
            ))
        }
    }

    /// OpenBench's SPSA input line: `name, int, default, min, max, c_end, r_end`.
    pub fn spsa_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name, self.default, self.min, self.max, self.step, R_END
        )
    }

    /// The UCI `option` line (offered by the `tune` build only).
    pub fn uci_line(&self) -> String {
        format!(
            "option name {} type spin default {} min {} max {}",
            self.name, self.default, self.min, self.max
        )
    }
}

/// The tunable called `name` (ASCII case ignored).
pub fn find(name: &str) -> Option<&'static Tunable> {
    TUNABLES
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name.trim()))
}

/// Puts every value back to its default (a no-op without the `tune` feature).
pub fn reset() {
    for t in TUNABLES {
        let _ = t.store(t.default);
    }
}

/// Declares the tunables: for each `name: default, min, max, step;` an accessor
/// `name()` (a `const fn` of the default, or a relaxed load of its atomic under `tune`)
/// and an entry of [`TUNABLES`].
macro_rules! tunables {
    ($( $(#[doc = $doc:expr])* $name:ident: $default:expr, $min:expr, $max:expr, $step:expr; )*) => {
        #[cfg(feature = "tune")]
        #[allow(non_upper_case_globals)]
        mod cells {
            use std::sync::atomic::AtomicI32;
            $( pub(super) static $name: AtomicI32 = AtomicI32::new($default); )*
        }

        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $default
            }

            $(#[doc = $doc])*
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub fn $name() -> i32 {
                cells::$name.load(Relaxed)
            }
        )*

        /// Every tunable, in declaration order.
        pub static TUNABLES: &[Tunable] = &[
            $(
                Tunable {
                    name: stringify!($name),
                    default: $default,
                    min: $min,
                    max: $max,
                    step: $step,
                    read: $name,
                    #[cfg(feature = "tune")]
                    cell: &cells::$name,
                },
            )*
        ];
    };
}

tunables! {
    // name: default, min, max, step;

    // Aspiration windows (search/mod.rs).
    /// Half-width of the first window, in centipawns.
    asp_delta: 18, 5, 60, 3;
    /// Beyond this width the window opens fully.
    asp_max: 1000, 300, 3000, 100;
    /// The shallowest iteration with a window.
    asp_min_depth: 4, 1, 8, 1;
    /// Growth of the window after a failure, in percent of its width.
    asp_growth_pct: 50, 20, 150, 8;

    // Reverse futility pruning: eval - margin × (depth - improving) >= beta.
    rfp_depth: 8, 3, 14, 1;
    rfp_margin: 85, 30, 200, 8;

    // Razoring: eval + base + per_depth × depth <= alpha, up to `razor_depth`.
    razor_depth: 3, 1, 6, 1;
    razor_base: 220, 50, 500, 20;
    razor_per_depth: 170, 40, 400, 15;

    // Null move: from `nmp_depth`; reduction = base + depth / depth_div
    // + min((eval - beta) / eval_div, eval_max); verified from `nmp_verify_depth`.
    nmp_depth: 3, 1, 6, 1;
    nmp_base: 3, 1, 6, 1;
    nmp_depth_div: 3, 2, 8, 1;
    nmp_eval_div: 200, 60, 400, 15;
    nmp_eval_max: 3, 1, 6, 1;
    nmp_verify_depth: 12, 6, 24, 1;

    /// Internal iterative reduction: the shallowest depth.
    iir_depth: 4, 2, 8, 1;

    /// Late move pruning: quiets allowed = base + depth², halved when not improving.
    lmp_base: 3, 0, 10, 1;

    // Futility pruning of quiets: up to reduced depth `fp_depth`,
    // static eval + base + per_depth × d <= alpha.
    fp_depth: 8, 3, 14, 1;
    fp_base: 130, 30, 300, 10;
    fp_per_depth: 110, 30, 250, 10;

    // SEE pruning: quiets below -quiet_margin × d² (reduced depth), captures below
    // -capture_margin × depth, up to the given depths.
    see_quiet_depth: 8, 3, 14, 1;
    see_quiet_margin: 28, 5, 80, 4;
    see_capture_depth: 8, 3, 14, 1;
    see_capture_margin: 95, 30, 200, 8;

    // Singular extensions: from `se_depth`, a table entry at most `se_tt_slack`
    // shallower, margin per depth; double extension below a further margin, at most
    // `se_double_max` on a path.
    se_depth: 8, 4, 14, 1;
    se_tt_slack: 3, 1, 6, 1;
    se_margin: 2, 1, 6, 1;
    se_double_margin: 25, 5, 60, 4;
    se_double_max: 6, 0, 12, 1;

    // Late move reductions: base/100 + ln(depth) ln(moves) / (div/100), then in
    // 1024ths of a ply each adjustment below, less one ply per `lmr_hist_div` of history.
    lmr_base: 80, 20, 150, 8;
    lmr_div: 230, 150, 400, 10;
    lmr_hist_div: 8192, 2048, 16384, 512;
    /// More at a node off the principal variation.
    lmr_non_pv: 1024, 0, 2048, 128;
    /// More where a fail high is expected.
    lmr_cut_node: 1024, 0, 2048, 128;
    /// Less when the static evaluation improves.
    lmr_improving: 1024, 0, 2048, 128;
    /// Less for a checking move.
    lmr_gives_check: 1024, 0, 2048, 128;
    /// Less for a capture or promotion.
    lmr_noisy: 1024, 0, 2048, 128;
    /// A reduced move that beats the best score by `lmr_deeper_base` plus
    /// `lmr_deeper_per_depth` a ply is re-searched one ply deeper; by less than
    /// `lmr_shallower_margin`, one ply shallower.
    lmr_deeper_base: 40, 0, 150, 8;
    lmr_deeper_per_depth: 2, 0, 10, 1;
    lmr_shallower_margin: 10, 0, 60, 4;
    /// Once a move raised alpha at a node (a principal variation node: elsewhere the
    /// window is null) between these depths, the rest are searched this much shallower.
    ar_depth_min: 3, 2, 6, 1;
    ar_depth_max: 12, 6, 20, 1;
    ar_reduction: 1, 1, 2, 1;

    // Quiescence (search/quiescence.rs).
    /// Futility margin over the static evaluation.
    qs_futility: 160, 50, 350, 15;
    /// Captures losing more than this by SEE are skipped.
    qs_see_margin: 0, -50, 150, 10;

    /// Tablebases: a settled probe is stored this much deeper than the node.
    tb_store_depth: 6, 0, 12, 1;

    // History (history.rs): bonus = (mul × depth - base) clamped to 0..=max; the
    // malus of the moves tried before the cutoff likewise.
    hist_bonus_mul: 170, 50, 400, 15;
    hist_bonus_base: 120, 0, 400, 20;
    hist_bonus_max: 1800, 500, 4000, 100;
    hist_malus_mul: 170, 50, 400, 15;
    hist_malus_base: 120, 0, 400, 20;
    hist_malus_max: 1800, 500, 4000, 100;

    // Correction history (correction.rs): the weight of each table in 128ths, and an
    // update of error × depth / depth_div (in 1/256 cp, at most a quarter of the limit).
    corr_pawn: 128, 0, 256, 12;
    corr_non_pawn: 96, 0, 256, 12;
    corr_cont: 64, 0, 256, 12;
    corr_depth_div: 128, 32, 512, 16;

    // Move ordering (movepick.rs).
    /// Capture history's weight in a capture's order: history / div.
    mp_capt_hist_div: 8, 1, 32, 1;
    /// A good capture must not lose more than its score / div by SEE.
    mp_good_see_div: 20, 5, 60, 3;
    /// Order bonus of a quiet direct check.
    mp_quiet_check: 16384, 0, 32768, 1024;

    // Time management (time.rs): the soft limit is usable / moves_div plus inc_pct
    // of the increment; the hard limit soft_to_hard_pct of it, capped at hard_pct of
    // the clock (mtg_hard_pct with moves to go, last_move_pct with one move to go),
    // and at low_inc_pct of an increment with fewer than low_clock_incs on the clock.
    tm_moves_div: 35, 15, 60, 2;
    tm_inc_pct: 75, 30, 100, 5;
    tm_hard_pct: 40, 20, 80, 4;
    tm_mtg_hard_pct: 50, 20, 80, 4;
    tm_last_move_pct: 80, 50, 95, 3;
    tm_soft_to_hard_pct: 500, 200, 1000, 40;
    tm_low_clock_incs: 10, 3, 30, 1;
    tm_low_inc_pct: 50, 20, 90, 5;
    // Stability (time::stability_scale): percent more per best-move change, per
    // centipawn of score drop (up to drop_max), and less after stable iterations.
    tm_change_pct: 25, 0, 60, 4;
    tm_drop_pct: 60, 0, 150, 8;
    tm_drop_max: 100, 30, 300, 10;
    tm_stable_short: 3, 1, 8, 1;
    tm_stable_short_pct: 80, 40, 100, 4;
    tm_stable_long: 6, 2, 14, 1;
    tm_stable_long_pct: 60, 30, 100, 4;
    // Effort (time::effort_scale): the soft limit times (effort_base - the best move's
    // share of the nodes, in percent) * effort_pct / 100.
    tm_effort_base: 150, 100, 200, 5;
    tm_effort_pct: 135, 50, 250, 10;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sound() {
        let mut names = std::collections::HashSet::new();
        for t in TUNABLES {
            assert!(names.insert(t.name), "{} twice", t.name);
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(t.step > 0 && t.step <= t.max - t.min, "{}", t.name);
            if t.name.ends_with("_div") {
                assert!(t.min >= 1, "{} divides", t.name);
            }
            assert_eq!(t.value(), t.default, "{}", t.name);
            assert!(find(&t.name.to_uppercase()).is_some());
        }
    }

    #[test]
    fn bad_values_are_refused_by_name() {
        let t = find("rfp_margin").unwrap();
        let e = t.set("abc").unwrap_err();
        assert!(e.contains("rfp_margin") && e.contains("'abc'"), "{e}");
        let e = t.set("100000").unwrap_err();
        assert!(e.contains("rfp_margin") && e.contains("30..=200"), "{e}");
        assert_eq!(t.value(), t.default);
        // Setting the default is accepted in every build.
        t.set(" 85 ").unwrap();
        assert_eq!(
            t.spsa_line(),
            "rfp_margin, int, 85, 30, 200, 8, 0.002",
            "OpenBench's format"
        );
    }
}
