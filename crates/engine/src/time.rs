//! Time management: a soft limit (do not start another iteration past it, scaled by how
//! stable the best move and score are) and a hard limit (abort the search), computed from
//! the clocks, `movestogo` or `movetime`, always leaving the `Move Overhead` unused.

use crate::limits::SearchLimits;
use crate::tunables as tp;
use sable_chess::Color;

/// The time budget of one move, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Target time; the search scales it by stability and stops between iterations.
    pub soft_ms: u64,
    /// Never think longer than this.
    pub hard_ms: u64,
}

impl TimeBudget {
    /// The budget of a limited strength on a clock: both limits cut to the least time
    /// full strength could stop at ([`least_scale_pct`] of the soft limit), so that a
    /// level never thinks longer than full strength would on the same clock, whatever
    /// its own search's stability says (a level searching two lines took 462 ms more
    /// than full strength on one move: results/2026-12-05/calibration.md).
    pub fn for_level(self) -> TimeBudget {
        let least = (self.soft_ms * least_scale_pct() / 100).max(1);
        TimeBudget {
            soft_ms: self.soft_ms.min(least),
            hard_ms: self.hard_ms.min(least),
        }
    }
}

/// Clock values beyond this (about 35 years) are taken as this, so that no arithmetic on
/// a budget can overflow whatever a GUI sends.
pub const MAX_MS: u64 = 1 << 40;

/// Computes the budget for `side`, or `None` when no time limit applies.
pub fn budget(limits: &SearchLimits, side: Color, overhead_ms: u64) -> Option<TimeBudget> {
    // Fixed time per move: the overhead counts here too, so a GUI's latency never flags us.
    if let Some(mt) = limits.movetime_ms {
        let t = mt.min(MAX_MS).saturating_sub(overhead_ms).max(1);
        return Some(TimeBudget {
            soft_ms: t,
            hard_ms: t,
        });
    }
    let clock = limits.clock(side)?;
    // What we may spend at all: the clock minus a safety margin for the transfer.
    let time = clock.time_ms.min(MAX_MS);
    let usable = time.saturating_sub(overhead_ms).max(1);
    let inc = clock.inc_ms.min(MAX_MS);
    // Sudden death with no increment: keep the overhead of the moves still to come in
    // reserve. Near zero it is the delay of each move, not the thinking, that empties
    // the clock; with the reserve a long game still ends on the board (the losses on
    // time it ends: results/2026-12-05/ics-ponder.md and ics-final.md).
    let usable = if inc == 0 && limits.moves_to_go.is_none() {
        let reserve = overhead_ms.saturating_mul(as_u64(tp::tm_moves_div()));
        usable.saturating_sub(reserve).max(1)
    } else {
        usable
    };
    let (soft, hard_cap) = match limits.moves_to_go {
        // Repeating controls: spread over the moves to go, a little more early on.
        Some(mtg) if mtg > 0 => {
            let mtg = u64::from(mtg.min(50));
            let soft = usable / (mtg + 1) + inc * as_u64(tp::tm_inc_pct()) / 100;
            let cap = if mtg == 1 {
                usable * as_u64(tp::tm_last_move_pct()) / 100
            } else {
                usable * as_u64(tp::tm_mtg_hard_pct()) / 100
            };
            (soft, cap)
        }
        // Sudden death: assume about 35 more moves, the increment pays for most of one.
        _ => {
            let soft = usable / as_u64(tp::tm_moves_div()) + inc * as_u64(tp::tm_inc_pct()) / 100;
            (soft, usable * as_u64(tp::tm_hard_pct()) / 100)
        }
    };
    // Living on the increment (less than ten increments on the clock): spend at most half
    // of one, so that the clock climbs back to where a delay of the machine still fits
    // instead of settling a few milliseconds above zero (two losses on time in 400 games
    // at 1+0.01 on a loaded machine before this).
    let hard_cap = if inc > 0 && time < inc.saturating_mul(as_u64(tp::tm_low_clock_incs())) {
        hard_cap.min(inc * as_u64(tp::tm_low_inc_pct()) / 100)
    } else {
        hard_cap
    };
    let soft = soft.min(hard_cap).max(1);
    let hard = (soft * as_u64(tp::tm_soft_to_hard_pct()) / 100)
        .min(hard_cap)
        .max(soft);
    Some(TimeBudget {
        soft_ms: soft,
        hard_ms: hard,
    })
}

/// How much of the soft limit to use after an iteration, in percent: more when the best
/// move just changed or the score dropped, less when both have been stable.
pub fn stability_scale(best_move_changes: u32, score_drop: i32, stable_iterations: u32) -> u64 {
    let mut pct: u64 = 100;
    pct += u64::from(best_move_changes.min(4)) * as_u64(tp::tm_change_pct());
    if score_drop > 0 {
        pct += (score_drop.min(tp::tm_drop_max()) as u64) * as_u64(tp::tm_drop_pct()) / 100;
    }
    let stable = best_move_changes == 0;
    if stable && stable_iterations >= as_u64(tp::tm_stable_long()) as u32 {
        pct = pct * as_u64(tp::tm_stable_long_pct()) / 100;
    } else if stable && stable_iterations >= as_u64(tp::tm_stable_short()) as u32 {
        pct = pct * as_u64(tp::tm_stable_short_pct()) / 100;
    }
    pct
}

/// How much of the soft limit to use after an iteration, in percent, from the share of
/// the search's nodes spent below the best move: when nearly all of them were, every
/// rival was refuted quickly and the choice is clear; when the best move got few, rivals
/// needed deep searches and more time may change the choice. With the default tunables,
/// from 67 % (all the nodes) through 135 % (half) to 202 % (none).
pub fn effort_scale(best_move_nodes: u64, total_nodes: u64) -> u64 {
    if total_nodes == 0 {
        return 100;
    }
    let share_pct =
        (u128::from(best_move_nodes.min(total_nodes)) * 100 / u128::from(total_nodes)) as u64;
    as_u64(tp::tm_effort_base()).saturating_sub(share_pct) * as_u64(tp::tm_effort_pct()) / 100
}

/// The stability and effort scales together, in percent, never below
/// [`least_scale_pct`]: the floor a level's budget is cut to stays the least that full
/// strength can stop at.
pub fn combined_scale(stability_pct: u64, effort_pct: u64) -> u64 {
    (stability_pct * effort_pct / 100).max(least_scale_pct())
}

/// The least percentage [`stability_scale`] ever gives: full strength on a clock never
/// stops before this share of its soft limit (but with a single legal move, which
/// every search cuts alike).
pub fn least_scale_pct() -> u64 {
    100.min(as_u64(tp::tm_stable_short_pct()))
        .min(as_u64(tp::tm_stable_long_pct()))
}

/// A tunable of the time manager as a `u64` (their ranges start at 0 or above; a
/// divisor's at 1).
#[inline]
fn as_u64(v: i32) -> u64 {
    v.max(0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Clock;

    /// A game played on the increment alone: each move costs its hard limit plus a few
    /// milliseconds of delay; the clock must settle, not drain to zero.
    #[test]
    fn a_small_clock_with_increment_does_not_drain() {
        for (inc, delay, overhead) in [(10, 4, 20), (100, 15, 20), (10, 2, 5), (1000, 50, 20)] {
            let mut clock: u64 = 20 * inc;
            let mut least = clock;
            for _ in 0..2000 {
                let b = budget(&clocks(clock, inc), Color::White, overhead).unwrap();
                let spent = b.hard_ms + delay;
                assert!(
                    spent < clock,
                    "inc {inc} delay {delay}: flag fell at {clock} ms"
                );
                clock = clock - spent + inc;
                least = least.min(clock);
            }
            // It stays around ten increments, far above any delay.
            assert!(least >= 5 * inc, "inc {inc}: the clock fell to {least} ms");
        }
    }

    /// A long sudden-death game on a slow machine: each move costs its soft limit plus a
    /// delay just under the `Move Overhead`. Without the reserve these games flag at
    /// moves 157, 124 and 195.
    #[test]
    fn a_long_sudden_death_game_does_not_flag() {
        for (minutes, overhead, moves) in [(1u64, 20u64, 180), (1, 50, 150), (3, 20, 210)] {
            let delay = overhead - 1;
            let mut clock = minutes * 60_000;
            for n in 0..moves {
                let b = budget(&clocks(clock, 0), Color::White, overhead).unwrap();
                let spent = b.soft_ms + delay;
                assert!(
                    spent < clock,
                    "{minutes}+0, overhead {overhead}: flag fell at move {n} ({clock} ms)"
                );
                clock -= spent;
            }
        }
    }

    #[test]
    fn absurd_clocks_give_sane_budgets() {
        for (ms, inc, mtg) in [
            (u64::MAX, u64::MAX, None),
            (u64::MAX, u64::MAX, Some(1)),
            (u64::MAX, 0, Some(u32::MAX)),
            (0, u64::MAX, None),
            (1, 0, Some(1)),
        ] {
            let mut l = clocks(ms, inc);
            l.moves_to_go = mtg;
            let b = budget(&l, Color::White, u64::MAX).unwrap();
            assert!(
                1 <= b.soft_ms && b.soft_ms <= b.hard_ms && b.hard_ms <= MAX_MS,
                "{b:?}"
            );
            // The search scales the soft limit by at most a few hundred percent.
            assert!(b.soft_ms.checked_mul(1000).is_some());
        }
        let l = SearchLimits {
            movetime_ms: Some(u64::MAX),
            ..SearchLimits::default()
        };
        assert_eq!(budget(&l, Color::White, 0).unwrap().hard_ms, MAX_MS);
    }

    fn clocks(ms: u64, inc: u64) -> SearchLimits {
        SearchLimits {
            clocks: [
                Some(Clock {
                    time_ms: ms,
                    inc_ms: inc,
                }),
                Some(Clock {
                    time_ms: 1,
                    inc_ms: 0,
                }),
            ],
            ..SearchLimits::default()
        }
    }

    /// The states the search's stability measure can be in (best-move changes, score
    /// drop, stable iterations), with every scale [`stability_scale`] gives for them.
    fn stability_states() -> impl Iterator<Item = (u32, i32, u32, u64)> {
        (0..8).flat_map(|changes| {
            [-500, -1, 0, 1, 30, 100, 1000]
                .into_iter()
                .flat_map(move |drop| {
                    (0..20).map(move |stable| {
                        (
                            changes,
                            drop,
                            stable,
                            stability_scale(changes, drop, stable),
                        )
                    })
                })
        })
    }

    /// The floor holds for every state the search can be in: it is what a level's
    /// budget is cut to, and a scale below it would let full strength stop first.
    #[test]
    fn stability_never_scales_below_the_least() {
        let least = least_scale_pct();
        let mut reached = false;
        for (changes, drop, stable, pct) in stability_states() {
            assert!(pct >= least, "{changes} {drop} {stable}: {pct} < {least}");
            reached |= pct == least;
        }
        assert!(
            reached,
            "the floor {least} is never reached: it is not the least"
        );
    }

    #[test]
    fn effort_spends_more_when_the_best_move_is_in_doubt() {
        assert_eq!(effort_scale(0, 0), 100);
        assert_eq!(effort_scale(1000, 1000), 67);
        assert_eq!(effort_scale(500, 1000), 135);
        assert_eq!(effort_scale(0, 1000), 202);
        // A count above the total (which the search never passes) is taken as all.
        assert_eq!(effort_scale(5000, 1000), 67);
        assert_eq!(effort_scale(u64::MAX, u64::MAX), 67);
        let mut last = u64::MAX;
        for share in 0..=100 {
            let s = effort_scale(share, 100);
            assert!(s <= last, "{share}");
            last = s;
        }
    }

    /// With effort, the floor still holds in every state: full strength never stops
    /// before a level's budget ends.
    #[test]
    fn effort_never_scales_below_the_least() {
        let least = least_scale_pct();
        for (changes, drop, stable, pct) in stability_states() {
            for share in [0, 1, 50, 99, 100] {
                let c = combined_scale(pct, effort_scale(share, 100));
                assert!(
                    c >= least,
                    "{changes} {drop} {stable} {share}: {c} < {least}"
                );
            }
        }
        assert_eq!(combined_scale(100, 202), 202);
        assert_eq!(combined_scale(60, 67), least);
    }

    /// A level's whole budget ends no later than full strength's scaled soft limit, in
    /// whatever state full strength's stability measure is.
    #[test]
    fn a_levels_budget_is_within_full_strengths_least() {
        for ms in [1u64, 100, 10_000, 600_000] {
            for inc in [0u64, 100, 5000] {
                let b = budget(&clocks(ms, inc), Color::White, 20).unwrap();
                let l = b.for_level();
                assert!(l.soft_ms <= l.hard_ms, "{b:?} {l:?}");
                assert!(l.soft_ms >= 1);
                for (changes, drop, stable, pct) in stability_states() {
                    let full = (b.soft_ms * pct / 100).max(1);
                    assert!(
                        l.hard_ms <= full,
                        "{b:?} {l:?}: full strength at {changes} {drop} {stable} stops at {full}"
                    );
                }
            }
        }
    }

    #[test]
    fn movetime_subtracts_overhead() {
        let l = SearchLimits {
            movetime_ms: Some(1000),
            ..SearchLimits::default()
        };
        let b = budget(&l, Color::White, 30).unwrap();
        assert_eq!(b.hard_ms, 970);
        let b = budget(&l, Color::White, 5000).unwrap();
        assert_eq!(b.hard_ms, 1);
    }

    #[test]
    fn never_beyond_the_clock() {
        for ms in [1u64, 10, 50, 100, 1000, 10_000, 600_000] {
            for inc in [0u64, 10, 100, 5000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let mut l = clocks(ms, inc);
                    l.moves_to_go = mtg;
                    let b = budget(&l, Color::White, 20).unwrap();
                    assert!(b.soft_ms <= b.hard_ms);
                    assert!(
                        b.hard_ms <= ms.saturating_sub(20).max(1),
                        "{ms} {inc} {mtg:?}: {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn uses_the_side_to_moves_clock() {
        let l = clocks(60_000, 0);
        assert!(budget(&l, Color::White, 10).unwrap().soft_ms > 1000);
        assert_eq!(budget(&l, Color::Black, 10).unwrap().hard_ms, 1);
        assert!(budget(&SearchLimits::depth(5), Color::White, 10).is_none());
    }
}
