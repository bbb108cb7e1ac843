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

#[test]
fn the_trainers_logits_are_the_engines() {
    let games = games();
    let s = trainer::samples(&games[..10], 10, 1);
    assert!(s.len() > 300, "{}", s.len());
    // Replay the same games through the engine's play-time path.
    let mut i = 0;
    let mut ev = Evaluator::new();
    let mut z = Vec::new();
    for g in &games[..10] {
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
                human::logits(&pos, last, f64::from(rating), moves, &values, &mut engine);
                trainer::position_logits(&s, i, &WEIGHTS, Part::All, &mut z);
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
