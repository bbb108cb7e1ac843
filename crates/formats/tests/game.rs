//! `Game`: automatic ends, claims, resignation, undo, start positions, PGN export.

// The rules crate's test helpers (data, a seeded generator, Chess960 starts).
#[path = "../../chess/tests/common/mod.rs"]
mod common;

use common::Rng;
use sable_chess::{CastlingMode, Color, DrawReason, Outcome, Position, SanMode};
use sable_formats::game::{Game, PlayError, Termination};
use sable_formats::pgn::{GameResult, PgnReader};

fn play(game: &mut Game, sans: &str) {
    for san in sans.split_whitespace() {
        game.push_san(san)
            .unwrap_or_else(|e| panic!("{san} in {}: {e}", game.position().fen()));
    }
}

/// Reads the game's PGN back and checks the moves and the result survive.
fn assert_pgn_round_trip(game: &Game) {
    let text = game.to_pgn();
    let tree = PgnReader::new(text.as_bytes())
        .trees(SanMode::Strict)
        .next()
        .expect("one game")
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(tree.mainline(), game.moves(), "{text}");
    assert_eq!(&tree.start, game.start());
    assert_eq!(tree.result, Some(game.result()), "{text}");
    assert_eq!(tree.tags.get("Result"), Some(game.result().as_str()));
}

#[test]
fn checkmate_ends_the_game() {
    let mut game = Game::new();
    play(&mut game, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
    let mate = Termination::Rules(Outcome::Checkmate {
        winner: Color::White,
    });
    assert_eq!(game.outcome(), Some(mate));
    assert_eq!(game.result(), GameResult::WhiteWins);
    assert_eq!(game.push_san("Ke7"), Err(PlayError::Over(mate)));
    assert!(game.resign(Color::White).is_err());
    let text = game.to_pgn();
    assert!(
        text.contains("4. Qxf7# {White wins by checkmate} 1-0"),
        "{text}"
    );
    assert_pgn_round_trip(&game);
}

#[test]
fn threefold_is_a_claim_and_fivefold_is_automatic() {
    let mut game = Game::new();
    let shuffle = "Nf3 Nf6 Ng1 Ng8";
    play(&mut game, shuffle);
    assert_eq!(game.repetitions(), 2);
    assert!(!game.can_claim_threefold());
    assert!(matches!(
        game.claim_draw(),
        Err(PlayError::NoClaim { count: 2, .. })
    ));
    play(&mut game, shuffle);
    assert_eq!(game.repetitions(), 3);
    assert!(game.can_claim_threefold());
    assert_eq!(game.outcome(), None, "threefold needs a claim");
    assert_eq!(game.claim_draw(), Ok(DrawReason::ThreefoldRepetition));
    assert_eq!(
        game.outcome(),
        Some(Termination::Claimed(DrawReason::ThreefoldRepetition))
    );
    assert_eq!(game.result(), GameResult::Draw);
    assert!(game
        .to_pgn()
        .replace('\n', " ")
        .contains("{Draw by threefold repetition, claimed} 1/2-1/2"));
    assert_pgn_round_trip(&game);
    // Taking the last move back withdraws the claim.
    let last = game.undo().unwrap();
    assert_eq!(game.outcome(), None);
    game.push(last).unwrap();
    assert_eq!(game.outcome(), None);
    play(&mut game, shuffle);
    assert_eq!(game.repetitions(), 4);
    assert_eq!(game.outcome(), None);
    play(&mut game, shuffle);
    assert_eq!(game.repetitions(), 5);
    assert_eq!(
        game.outcome(),
        Some(Termination::Rules(Outcome::Draw(
            DrawReason::FivefoldRepetition
        )))
    );
    assert_pgn_round_trip(&game);
}

#[test]
fn repetitions_need_the_same_castling_rights() {
    // King moves lose castling rights, so the first position never recurs.
    let mut game = Game::new();
    play(&mut game, "e4 e5 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8");
    assert_eq!(game.repetitions(), 2);
    play(&mut game, "Ke2 Ke7 Ke1 Ke8");
    assert_eq!(game.repetitions(), 3);
}

#[test]
fn fifty_and_seventy_five_moves() {
    let mut game =
        Game::from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 99 80", CastlingMode::Standard).unwrap();
    assert!(!game.can_claim_fifty_moves());
    play(&mut game, "Ra2");
    assert!(game.can_claim_fifty_moves());
    assert_eq!(game.outcome(), None);
    assert_eq!(game.claim_draw(), Ok(DrawReason::FiftyMoves));
    assert_pgn_round_trip(&game);

    let mut game =
        Game::from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 149 80", CastlingMode::Standard).unwrap();
    play(&mut game, "Ra2");
    assert_eq!(
        game.outcome(),
        Some(Termination::Rules(Outcome::Draw(
            DrawReason::SeventyFiveMoves
        )))
    );
    // A mate on the last move still counts as mate.
    let mut game =
        Game::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 149 80", CastlingMode::Standard).unwrap();
    play(&mut game, "Ra8#");
    assert_eq!(game.result(), GameResult::WhiteWins);
}

#[test]
fn capturing_the_last_piece_leaves_insufficient_material() {
    let mut game =
        Game::from_fen("7k/6Q1/8/6K1/8/8/8/8 b - - 0 1", CastlingMode::Standard).unwrap();
    play(&mut game, "Kxg7");
    assert_eq!(
        game.outcome(),
        Some(Termination::Rules(Outcome::Draw(
            DrawReason::InsufficientMaterial
        )))
    );
    assert!(game
        .to_pgn()
        .replace('\n', " ")
        .contains("1... Kxg7 {Draw by insufficient material} 1/2-1/2"));
    assert_pgn_round_trip(&game);
}

#[test]
fn stalemate_and_declared_ends() {
    let mut game =
        Game::from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", CastlingMode::Standard).unwrap();
    play(&mut game, "Qf7");
    assert_eq!(
        game.outcome(),
        Some(Termination::Rules(Outcome::Draw(DrawReason::Stalemate)))
    );
    assert_pgn_round_trip(&game);

    let mut game = Game::new();
    play(&mut game, "d4");
    game.resign(Color::Black).unwrap();
    assert_eq!(game.result(), GameResult::WhiteWins);
    assert!(game
        .to_pgn()
        .replace('\n', " ")
        .contains("1. d4 {Black resigns} 1-0"));
    assert!(game.push_san("d5").is_err());
    game.undo();
    assert_eq!(game.moves().len(), 0);
    assert_eq!(game.outcome(), None);
    game.agree_draw().unwrap();
    assert_eq!(game.result(), GameResult::Draw);
    assert_pgn_round_trip(&game);
    assert_eq!(game.undo(), None);
    assert_eq!(game.outcome(), None);
}

#[test]
fn illegal_moves_leave_the_game_unchanged() {
    let mut game = Game::new();
    play(&mut game, "e4");
    let fen = game.position().fen();
    let e = game.push_san("e4").unwrap_err().to_string();
    assert!(e.contains("'e4'"), "{e}");
    assert!(game.push_uci("e7e4").is_err());
    let a1a8 = Position::startpos().parse_uci("a2a4").unwrap();
    let e = game.push(a1a8).unwrap_err();
    assert!(matches!(e, PlayError::Illegal { .. }), "{e}");
    assert_eq!(game.position().fen(), fen);
    assert_eq!(game.moves().len(), 1);
}

#[test]
fn games_from_a_position_and_chess960() {
    let mut game = Game::from_fen(
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 30",
        CastlingMode::Standard,
    )
    .unwrap();
    play(&mut game, "O-O Kd1");
    let text = game.to_pgn();
    assert!(
        text.contains("[SetUp \"1\"]")
            && text.contains("[FEN \"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 30\"]"),
        "{text}"
    );
    assert!(text.contains("30... O-O 31. Kd1 *"), "{text}");
    assert_pgn_round_trip(&game);

    let fen = common::chess960_fen(0);
    let mut game = Game::from_fen(&fen, CastlingMode::Chess960).unwrap();
    let mut rng = Rng::new(9);
    for _ in 0..60 {
        if game.is_over() {
            break;
        }
        let legal = game.position().legal_moves();
        game.push(legal[rng.below(legal.len())]).unwrap();
    }
    let text = game.to_pgn();
    assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
    assert_pgn_round_trip(&game);
}

#[test]
fn random_games_end_by_the_rules_and_undo_to_the_start() {
    let mut rng = Rng::new(5);
    let mut ends = [0usize; 2];
    for _ in 0..40 {
        let mut game = Game::new();
        while !game.is_over() {
            let legal = game.position().legal_moves();
            game.push(legal[rng.below(legal.len())]).unwrap();
            // The record agrees with the position's own judgement of the rules.
            assert_eq!(
                game.outcome(),
                game.position()
                    .automatic_outcome(game.history())
                    .map(Termination::Rules)
            );
        }
        let end = game.outcome().unwrap();
        ends[usize::from(end.winner().is_some())] += 1;
        assert_pgn_round_trip(&game);
        while game.undo().is_some() {}
        assert_eq!(game.position(), &Position::startpos());
        assert!(game.history().is_empty());
    }
    assert!(ends[0] > 0 && ends[1] > 0, "{ends:?}");
}
