//! The human move-choice trainer (`sable_train::human`) and the model the engine ships:
//! the trainer's features and logits are the engine's, move for move; training learns
//! (held-out loss below the uniform choice's); and the shipped weights predict held-out
//! people's moves better than the quick engine look alone and than chance.
//!
//! The fixture is 80 games of the held-out split of the training data (every 10th game
//! of the lichess datasnaek set; see testdata/SOURCES.md), which the shipped weights
//! never saw.

use sable_chess::Position;
use sable_engine::eval::Evaluator;
use sable_engine::strength::human::{self, WEIGHTS};
use sable_train::human::{self as trainer, HumanConfig, Part, RatedGame};

const FIXTURE: &str = "pgn/human/datasnaek-heldout-80.pgn";

fn games() -> Vec<RatedGame> {
    let (games, skipped) = trainer::read_games(&[sable_testdata::path(FIXTURE)]).unwrap();
    assert_eq!((games.len(), skipped), (80, 0));
    games.into_iter().map(|(_, g)| g).collect()
}

/// The mean cross-entropy of choosing uniformly among the legal moves.
fn uniform_loss(s: &trainer::Samples) -> f64 {
    (0..s.len())
        .map(|i| ((s.pos_start[i + 1] - s.pos_start[i]) as f64).ln())
        .sum::<f64>()
        / s.len() as f64
}

/// Random weights with `hidden` units: every weight within ±0.3, the hidden biases 0.5.
fn random_weights(hidden: usize, seed: u64) -> Vec<f32> {
    let mut rng = sable_train::rng::Rng(seed);
    let mut w: Vec<f32> = (0..human::weights_len(hidden))
        .map(|_| 0.3 * rng.symmetric())
        .collect();
    let (_, b1, _) = human::layout(hidden);
    w[b1..b1 + hidden].iter_mut().for_each(|v| *v = 0.5);
    w
}

/// The trainer's logits of the samples of `games` equal the engine's play-time path's
/// (`human::logits_with`), under `weights`; the shipped ones when `None`.
fn check_trainer_equals_engine(games: &[RatedGame], weights: Option<&[f32]>) {
    let s = trainer::samples(games, 10, 1);
    assert!(s.len() > 300, "{}", s.len());
    // Replay the same games through the engine's play-time path.
    let mut i = 0;
    let mut ev = Evaluator::new();
    let mut z = Vec::new();
    for g in games {
        let mut pos: Position = g.start.clone();
        let mut last = None;
        for (ply, &m) in g.moves.iter().enumerate() {
            let moves = pos.legal_moves();
            if ply >= 10 && moves.len() >= 2 {
                let moves = moves.as_slice();
                let mut values = vec![0; moves.len()];
                let mut engine = vec![0f32; moves.len()];
                human::move_values(&pos, &mut ev, moves, &mut values);
                let rating = if pos.turn() == sable_chess::Color::White {
                    g.white_elo
                } else {
                    g.black_elo
                };
                let rating = f64::from(rating);
                match weights {
                    None => human::logits(&pos, last, rating, moves, &values, &mut engine),
                    Some(w) => {
                        human::logits_with(w, &pos, last, rating, moves, &values, &mut engine)
                    }
                }
                let w = weights.unwrap_or(&WEIGHTS[..]);
                trainer::position_logits(&s, i, w, Part::All, &mut z);
                assert_eq!(z.len(), engine.len());
                for (a, b) in z.iter().zip(&engine) {
                    assert!((a - b).abs() < 1e-4, "position {i}: {a} vs {b}");
                }
                assert_eq!(moves[s.played[i] as usize], m);
                i += 1;
            }
            pos.make(m);
            last = Some(m);
        }
    }
    assert_eq!(i, s.len());
}

#[test]
fn the_trainers_logits_are_the_engines() {
    let games = games();
    check_trainer_equals_engine(&games[..10], None);
    // A model with a hidden layer, its weights random (the shipped model may have none).
    let w = random_weights(8, 7);
    check_trainer_equals_engine(&games[10..20], Some(&w));
}

/// The trainer's gradient (`position_gradient`) of the mean cross-entropy over some
/// positions equals central finite differences of that loss, for the weights with the
/// largest gradients of each part (linear, board layer, rating row, biases, embedding)
/// and a few chosen at random among those the positions touch.
#[test]
fn the_gradient_matches_finite_differences() {
    let games = games();
    let s = trainer::samples(&games[..2], 10, 1);
    let n = s.len().min(40);
    assert!(n >= 20, "{n}");
    let hidden = 6;
    let w = random_weights(hidden, 3);
    let loss = |w: &[f32]| -> f64 {
        let mut z = Vec::new();
        let mut g = vec![0f32; w.len()];
        (0..n)
            .map(|i| {
                f64::from(trainer::position_gradient(
                    &s,
                    i,
                    w,
                    Part::All,
                    1.0,
                    &mut g,
                    &mut z,
                ))
            })
            .sum::<f64>()
            / n as f64
    };
    let mut grad = vec![0f32; w.len()];
    let mut z = Vec::new();
    for i in 0..n {
        trainer::position_gradient(&s, i, &w, Part::All, 1.0 / n as f32, &mut grad, &mut z);
    }
    let (w1, b1, e) = human::layout(hidden);
    let rating_row = w1 + human::BOARD_INPUTS * hidden;
    let parts = [
        0..2 * human::FEATURES,
        w1..rating_row,
        rating_row..b1,
        b1..e,
        e..w.len(),
    ];
    let mut checked = Vec::new();
    let mut rng = sable_train::rng::Rng(11);
    for part in parts {
        let mut idx: Vec<usize> = part.filter(|&k| grad[k] != 0.0).collect();
        assert!(!idx.is_empty());
        idx.sort_by(|&a, &b| grad[b].abs().total_cmp(&grad[a].abs()));
        checked.extend(idx.iter().take(6));
        for _ in 0..4 {
            checked.push(idx[rng.below(idx.len())]);
        }
    }
    let eps = 1e-3f32;
    let mut worst = 0.0f64;
    for &k in &checked {
        let mut wp = w.clone();
        wp[k] += eps;
        let mut wm = w.clone();
        wm[k] -= eps;
        let fd = (loss(&wp) - loss(&wm)) / (2.0 * f64::from(eps));
        let err = (fd - f64::from(grad[k])).abs() / (1e-3 + fd.abs());
        worst = worst.max(err);
        assert!(
            err < 0.05,
            "weight {k}: gradient {} vs finite difference {fd}",
            grad[k]
        );
    }
    assert!(worst < 0.05, "{worst}");
}

#[test]
fn training_beats_the_uniform_choice_on_held_out_games() {
    let games = games();
    let train = trainer::samples(&games[..60], 10, 1);
    let dev = trainer::samples(&games[60..], 10, 1);
    let cfg = HumanConfig {
        epochs: 4,
        ..HumanConfig::default()
    };
    let mut losses = Vec::new();
    let w = trainer::train(&train, &dev, &cfg, |r, _| losses.push(r.train_loss));
    assert!(losses.last() < losses.first(), "{losses:?}");
    let (loss, _) = trainer::evaluate(&dev, &w, Part::All);
    let uniform = uniform_loss(&dev);
    assert!(
        loss < uniform - 0.3,
        "held-out loss {loss:.3}, uniform {uniform:.3}"
    );
}

#[test]
fn the_shipped_model_beats_the_engine_alone_and_chance() {
    let s = trainer::samples(&games(), 10, 1);
    let (loss, accuracy) = trainer::evaluate(&s, &WEIGHTS, Part::All);
    let engine = (0..s.len())
        .filter(|&i| s.engine_best[i] == s.played[i])
        .count() as f64
        / s.len() as f64;
    let uniform = uniform_loss(&s);
    assert!(
        accuracy > engine + 0.02,
        "{} positions: model {accuracy:.3}, quiescence best move {engine:.3}",
        s.len()
    );
    assert!(loss < uniform - 1.0, "loss {loss:.3}, uniform {uniform:.3}");
}
