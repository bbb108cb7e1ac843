//! Accuracy and average centipawn loss, as lichess computes them.
//!
//! * Move accuracy (lila `AccuracyPercent.fromWinPercents`): 100 when the mover's win%
//!   did not drop, else `103.1668 * exp(-0.04354 * drop) - 3.1669 + 1` (lichess adds the
//!   last 1 as an "uncertainty bonus"), clamped to 0..100.
//! * Game accuracy (lila `AccuracyPercent.gameAccuracy`): each move's accuracy is weighted
//!   by the volatility of the position (the population standard deviation of the win%
//!   over a sliding window of `clamp(moves / 10, 2, 8)` positions, clamped to 0.5..12); a
//!   player's accuracy is the mean of that weighted mean and the harmonic mean of their
//!   move accuracies (each at least 1 in the harmonic mean).
//!   One difference: lichess puts a fixed +0.15 before the first move; here the engine's
//!   evaluation of the start position is used (the same for the standard start, and right
//!   for games from a FEN).
//! * Average centipawn loss (lila `Accuracy.diffsList`/`mean`): evaluations ceiled at
//!   ±1000, mates as ±1000; a move's loss is the drop in the mover's evaluation, at least
//!   0; the mean is rounded down to an integer, as lichess does.

use super::eval::Eval;
use super::winprob::win_percent;
use sable_chess::Color;

/// Accuracy in 0..100 of a move that took the mover's win% from `before` to `after`.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let drop = before - after;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Population standard deviation.
fn std_dev(xs: &[f64]) -> f64 {
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64).sqrt()
}

/// Each player's game accuracy, `[white, black]`, from the evaluations of every position
/// of the game (`evals[0]` before the first move, then one after each move); `None` for
/// a side that made no move.
pub fn game_accuracy(first_mover: Color, evals: &[Eval]) -> [Option<f64>; 2] {
    if evals.len() < 2 {
        return [None, None];
    }
    let wins: Vec<f64> = evals.iter().map(|&e| win_percent(e)).collect();
    let moves = wins.len() - 1;
    let size = (moves / 10).clamp(2, 8);
    let mut windows: Vec<&[f64]> = Vec::with_capacity(moves);
    for _ in 0..size.min(wins.len()).saturating_sub(2) {
        windows.push(&wins[..size.min(wins.len())]);
    }
    if wins.len() <= size {
        windows.push(&wins);
    } else {
        windows.extend(wins.windows(size));
    }
    let mut per_side: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (pair, window)) in wins.windows(2).zip(&windows).enumerate() {
        let mover = if i % 2 == 0 {
            first_mover
        } else {
            !first_mover
        };
        let (prev, next) = (pair[0], pair[1]);
        let accuracy = match mover {
            Color::White => move_accuracy(prev, next),
            Color::Black => move_accuracy(100.0 - prev, 100.0 - next),
        };
        let weight = std_dev(window).clamp(0.5, 12.0);
        per_side[mover.index()].push((accuracy, weight));
    }
    per_side.map(|moves| {
        if moves.is_empty() {
            return None;
        }
        let weight: f64 = moves.iter().map(|(_, w)| w).sum();
        let weighted = moves.iter().map(|(a, w)| a * w).sum::<f64>() / weight;
        let harmonic =
            moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        Some((weighted + harmonic) / 2.0)
    })
}

/// The centipawns a move by `mover` lost (ceiled evaluations, never negative).
pub fn cp_loss(mover: Color, before: Eval, after: Eval) -> i32 {
    let diff = after.ceiled_cp() - before.ceiled_cp();
    match mover {
        Color::White => (-diff).max(0),
        Color::Black => diff.max(0),
    }
}

/// lichess's average centipawn loss: the integer mean of the losses.
pub fn acpl(losses: &[i32]) -> Option<i32> {
    (!losses.is_empty()).then(|| losses.iter().sum::<i32>() / losses.len() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// Values computed independently (Python, lichess's formula typed in by hand).
    #[test]
    fn move_accuracy_by_hand() {
        assert!(close(move_accuracy(50.0, 50.0), 100.0));
        assert!(close(move_accuracy(40.0, 60.0), 100.0));
        assert!(close(move_accuracy(60.0, 50.0), 64.57982845372067));
        assert!(close(move_accuracy(70.0, 40.0), 25.772047746869696));
        assert!(close(move_accuracy(90.0, 10.0), 1.000170640274321));
        assert!(close(move_accuracy(100.0, 0.0), 0.0));
    }

    #[test]
    fn game_accuracy_by_hand() {
        // White's point of view after each move, +0.15 before the first (as lichess).
        let cps = [
            15, 30, 20, 40, 35, -50, -40, 60, -300, -280, -290, -310, -900,
        ];
        let evals: Vec<Eval> = cps.iter().map(|&c| Eval::Cp(c)).collect();
        let [w, b] = game_accuracy(Color::White, &evals);
        assert!(close(w.unwrap(), 91.438255696223), "{w:?}");
        assert!(close(b.unwrap(), 99.71020621793056), "{b:?}");
        assert_eq!(game_accuracy(Color::White, &evals[..1]), [None, None]);
        let [w, b] = game_accuracy(Color::Black, &evals[..2]);
        assert_eq!(w, None);
        assert!(b.is_some());
    }

    #[test]
    fn centipawn_loss() {
        assert_eq!(cp_loss(Color::White, Eval::Cp(50), Eval::Cp(-30)), 80);
        assert_eq!(cp_loss(Color::White, Eval::Cp(50), Eval::Cp(80)), 0);
        assert_eq!(cp_loss(Color::Black, Eval::Cp(50), Eval::Cp(80)), 30);
        // Ceiled at ±1000; a mate counts as 1000.
        assert_eq!(cp_loss(Color::White, Eval::Cp(3000), Eval::Cp(-200)), 1200);
        assert_eq!(cp_loss(Color::White, Eval::Cp(0), Eval::Mate(-2)), 1000);
        assert_eq!(acpl(&[10, 20, 25]), Some(18));
        assert_eq!(acpl(&[]), None);
    }
}
