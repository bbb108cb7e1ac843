//! Winning chances from centipawns, as lichess computes them (lila
//! `modules/tree/src/main/WinPercent.scala`): winning chances
//! `2 / (1 + exp(-0.00368208 * cp)) - 1` in [-1, 1], and
//! `win% = 50 + 50 * winning chances` with the centipawns clamped to ±1000 (a mate counts
//! as ±1000).

use super::eval::Eval;

/// lichess's multiplier (lila pull request 11148).
pub const MULTIPLIER: f64 = 0.00368208;

/// Winning chances in [-1, 1] of `cp` centipawns (no ceiling: lichess's move judgement
/// uses the raw value).
pub fn winning_chances(cp: i32) -> f64 {
    (2.0 / (1.0 + (-MULTIPLIER * cp as f64).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// White's win percentage in [0, 100] (centipawns ceiled at ±1000, mates as ±1000).
pub fn win_percent(eval: Eval) -> f64 {
    50.0 + 50.0 * winning_chances(eval.ceiled_cp())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values computed independently (Python, the formula typed in by hand).
    #[test]
    fn lichess_formula_by_hand() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(win_percent(Eval::Cp(0)), 50.0));
        assert!(close(win_percent(Eval::Cp(100)), 59.10258971916128));
        assert!(close(win_percent(Eval::Cp(-100)), 40.89741028083871));
        assert!(close(win_percent(Eval::Cp(300)), 75.11255009383484));
        assert!(close(win_percent(Eval::Cp(1000)), 97.54474363414323));
        // Ceiled: 5000 cp and a mate read as 1000 cp.
        assert!(close(win_percent(Eval::Cp(5000)), 97.54474363414323));
        assert!(close(win_percent(Eval::Mate(-2)), 2.4552563658567763));
        assert!(close(winning_chances(100), 0.1820517943832256));
        assert!(close(winning_chances(5000), 0.9999999797933248));
    }
}
