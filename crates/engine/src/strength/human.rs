//! Which of the searched lines a person would play: a small model of human move choice,
//! fitted on rated games, that the limited levels draw their move from.
//!
//! # Why a model
//!
//! Measured with `tools/move-matching.py` on positions of rated lichess games (players
//! rated 1600-1999), the best line of the levels' search is the move the person played
//! 36.9 % of the time, and the person's move is among its four best lines in 3,521 of
//! 5,000 positions (70 %; both from `tools/human-model.py fit`). Which of those four a
//! person picks is not random: people prefer captures, recaptures, checks, castling, and
//! moving a piece that stands attacked, and they care about the score less than an
//! engine does. A softmax over the lines' scores alone (the
//! earlier mechanism) picked a line other than the best far too often and matched only
//! 26 % of the moves.
//!
//! # The model
//!
//! A conditional logit over the lines: line `i` is played with probability
//! `p_i ∝ exp(u_i / τ)`, where `u_i = w · x_i` is the utility of its features
//! [`features`] (its loss against the best line, alone and scaled by the skill, whether
//! it is the best line, and what kind of move it is) and `τ` is the level's temperature
//! ([`super::Level::temperature`]): near 1 the draw follows the people of the fitting
//! data, below 1 it leans to their likeliest move, which is more often the best.
//!
//! [`WEIGHTS`] were fitted by maximum likelihood with `tools/human-model.py` on 5,000
//! positions of the rated games in `testdata/pgn/lichess` (ply 10 on, from the games that
//! `move-matching.py`'s default sample does not touch), each with the four lines that
//! Sable's level for the mover's rating searched in 100 ms; the person's move was among
//! them in 3,521. On move-matching's 2,000 held-out positions the model's likeliest line
//! is the person's move 39.1 % of the time, against 36.9 % for the best line.

use sable_chess::{Move, Position, Role};

/// How many features describe a line.
pub const FEATURES: usize = 15;

/// The fitted weights, in the order of [`features`]; see the module comment.
pub const WEIGHTS: [f64; FEATURES] = [
    -0.348, // loss, in pawns (at most 5)
    -0.194, // loss times skill / 10
    0.485,  // the best line
    0.437,  // a capture
    0.991,  // a recapture: takes on the square of the last move
    0.308,  // gives check
    0.254,  // a knight moves
    0.021,  // a bishop moves
    -0.271, // a rook moves
    -0.107, // the queen moves
    0.090,  // the king moves (castling included)
    1.216,  // castling
    0.096,  // ranks forward, halved
    0.411,  // the piece moved stands attacked
    0.325,  // value of the piece taken (pawn 1, minor 3, rook 5, queen 9), divided by 3
];

/// The features of playing `m` in `pos`, which the line that starts with it loses
/// `loss_cp` centipawns against the best line; `last` is the move that led to `pos`.
pub fn features(
    pos: &Position,
    last: Option<Move>,
    m: Move,
    loss_cp: i64,
    is_best: bool,
    skill: f64,
) -> [f64; FEATURES] {
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let loss = loss_cp.clamp(0, 500) as f64 / 100.0;
    let capture = pos.is_capture(m);
    let role = pos.role_at(m.from());
    let us = pos.turn();
    // Castling is encoded king-takes-rook; the king stays on its rank either way.
    let forward =
        m.to().relative(us).rank().index() as f64 - m.from().relative(us).rank().index() as f64;
    let taken = match pos.captured_role(m) {
        Some(Role::Pawn) => 1.0,
        Some(Role::Knight | Role::Bishop) => 3.0,
        Some(Role::Rook) => 5.0,
        Some(Role::Queen) => 9.0,
        Some(Role::King) | None => 0.0,
    };
    [
        loss,
        loss * skill / 10.0,
        flag(is_best),
        flag(capture),
        flag(capture && last.is_some_and(|l| l.to() == m.to())),
        flag(pos.gives_check(m)),
        flag(role == Some(Role::Knight)),
        flag(role == Some(Role::Bishop)),
        flag(role == Some(Role::Rook)),
        flag(role == Some(Role::Queen)),
        flag(role == Some(Role::King)),
        flag(m.is_castle()),
        forward / 2.0,
        flag(pos.is_attacked(m.from(), !us, pos.occupied())),
        taken / 3.0,
    ]
}

/// The model's utility of a line with these features: higher is likelier.
pub fn utility(x: &[f64; FEATURES]) -> f64 {
    x.iter().zip(WEIGHTS).map(|(x, w)| x * w).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sable_chess::CastlingMode;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn features_of_moves_checked_by_hand() {
        // After 1. e4 d5, exd5 takes the pawn that just moved, on its square.
        let before = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let d7d5 = before.parse_uci("d7d5").unwrap();
        let p = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
        let exd5 = p.parse_uci("e4d5").unwrap();
        let x = features(&p, Some(d7d5), exd5, 0, true, 5.0);
        assert_eq!(x[3], 1.0, "capture");
        assert_eq!(x[4], 1.0, "recapture on the last move's square");
        assert_eq!(x[5], 0.0, "no check");
        assert_eq!(&x[6..11], &[0.0; 5], "a pawn moves");
        assert_eq!(x[12], 0.5, "one rank forward");
        assert_eq!(x[13], 1.0, "the e4 pawn stands attacked by d5");
        assert!((x[14] - 1.0 / 3.0).abs() < 1e-12, "a pawn taken");
        // Without the last move nothing is a recapture.
        assert_eq!(features(&p, None, exd5, 0, true, 5.0)[4], 0.0);
        // Bb5+ in the same position: a bishop move that gives check, three ranks up.
        let bb5 = p.parse_uci("f1b5").unwrap();
        let x = features(&p, Some(d7d5), bb5, 150, false, 10.0);
        assert_eq!((x[0], x[1], x[2]), (1.5, 1.5, 0.0));
        assert_eq!((x[3], x[5], x[7], x[12], x[13]), (0.0, 1.0, 1.0, 2.0, 0.0));
    }

    #[test]
    fn castling_and_black_moves() {
        // Black to move: O-O, and a knight retreat (backwards for Black is up the board).
        let p = pos("r1bqk2r/ppppbppp/2n2n2/4p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 b kq - 0 5");
        let castle = p.parse_uci("e8g8").unwrap();
        let x = features(&p, None, castle, 0, true, 0.0);
        assert_eq!((x[10], x[11], x[12]), (1.0, 1.0, 0.0));
        let retreat = p.parse_uci("f6g8").unwrap();
        let x = features(&p, None, retreat, 40, false, 0.0);
        assert_eq!((x[6], x[12]), (1.0, -1.0));
        // Losses are capped at 5 pawns.
        assert_eq!(features(&p, None, retreat, 30_000, false, 0.0)[0], 5.0);
    }

    #[test]
    fn the_best_line_and_natural_moves_are_likelier() {
        let p = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
        let u = |uci: &str, loss, best| {
            utility(&features(
                &p,
                None,
                p.parse_uci(uci).unwrap(),
                loss,
                best,
                5.0,
            ))
        };
        assert!(u("e4d5", 0, true) > u("a2a3", 0, true));
        assert!(u("e4d5", 0, true) > u("e4d5", 100, false));
    }
}
