//! Game records from PGN games whose moves carry the searching engine's score in a
//! comment, as cutechess-cli, fastchess and OpenBench write them (`{+0.35/12 0.123s}`,
//! OpenBench's compact `{+0.35/12}`, `{-M4/20 ...}`): the games of an OpenBench
//! data-generation workload, or of any match, become training data for `sable train`.
//!
//! # What a comment means
//!
//! The first `SCORE/DEPTH` of a move's comment is the mover's score of the position
//! before the move, from the mover's side: pawns with two decimals (`+0.35`, `-1.20`),
//! or `+M5` / `-M4`, a mate in that many plies (fastchess counts plies) for or against
//! the mover. That is what a record's ply stores, so no sign or side changes.
//!
//! # Which plies become a record
//!
//! Moves without a score (`{book}`, OpenBench's `{unknown}`, no comment) before the first
//! scored move are the opening: the record starts after them. A move without a score
//! after that ends the record there, as a game cut at its length (the result is still
//! the game's, and the training filter weighs positions by it). A game with no scored
//! move, or whose result is `*` or missing, gives no record.
//!
//! # The termination
//!
//! PGN exports (OpenBench's among them) often drop the `Termination` tag, so it is
//! read from the board: a final position that the rules end (mate, stalemate,
//! insufficient material, fifty moves, threefold repetition) is [`Termination::Rules`];
//! otherwise a decisive result was adjudicated (or resigned) and a draw agreed or
//! adjudicated.

use super::{GameRecord, GameResult, Ply, Score, Termination};
use crate::pgn::{GameResult as PgnResult, GameTree};
use sable_chess::{Color, DrawReason, KeyHistory, Outcome};

/// Why a PGN game gives no record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FromPgnError {
    #[error("the game has no result (`*` or none)")]
    NoResult,
    #[error("no move of the game carries a score comment")]
    NoScores,
    #[error("ply {ply} ({san}): score {text:?} is not a score")]
    BadScore {
        ply: usize,
        san: String,
        text: String,
    },
    #[error("ply {ply} ({san}): a null move cannot be stored")]
    NullMove { ply: usize, san: String },
    #[error("the game's result {result} contradicts its final position ({fen}: {outcome})")]
    ResultContradictsBoard {
        result: &'static str,
        fen: String,
        outcome: &'static str,
    },
}

/// The score at the start of a move comment, if it has one: `+0.35/12 ...` gives
/// `Some(Ok(35 cp))`, `-M4/20` gives a mate against the mover in 4 plies, `book` gives
/// `None`, and a score that does not parse gives `Some(Err(text))`.
///
/// ```
/// use sable_formats::record::{parse_score_comment, Score};
/// assert_eq!(parse_score_comment("+0.35/12 0.123s"), Some(Ok(Score::cp(35))));
/// assert_eq!(parse_score_comment("-1.5/7"), Some(Ok(Score::cp(-150))));
/// assert_eq!(parse_score_comment("+M5/20, n=100"), Some(Ok(Score::mate(5))));
/// assert_eq!(parse_score_comment("-M4/9"), Some(Ok(Score::mate(-4))));
/// assert_eq!(parse_score_comment("0.00/0 0s"), Some(Ok(Score::cp(0))));
/// assert_eq!(parse_score_comment("book"), None);
/// assert_eq!(parse_score_comment("unknown"), None);
/// assert!(matches!(parse_score_comment("+x.1/3"), Some(Err(_))));
/// ```
pub fn parse_score_comment(comment: &str) -> Option<Result<Score, String>> {
    let first = comment.split_whitespace().next()?;
    let first = first.trim_end_matches(',');
    let (score, depth) = first.split_once('/')?;
    // `SCORE/DEPTH` with a numeric depth is the convention; anything else is prose.
    if depth.is_empty() || !depth.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(parse_score(score).ok_or_else(|| score.to_string()))
}

fn parse_score(text: &str) -> Option<Score> {
    let (negative, body) = match text.as_bytes().first()? {
        b'+' => (false, &text[1..]),
        b'-' => (true, &text[1..]),
        _ => (false, text),
    };
    if let Some(plies) = body.strip_prefix('M') {
        let plies: i32 = plies.parse().ok().filter(|p| *p > 0)?;
        return Some(Score::mate(if negative { -plies } else { plies }));
    }
    // Pawns as a decimal; parsed by hand so that "inf", "nan" or "1e9" are refused.
    let (whole, frac) = body.split_once('.').unwrap_or((body, ""));
    if whole.is_empty() && frac.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || whole.len() > 6
    {
        return None;
    }
    let whole: i32 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut frac_cp = 0;
    for (i, d) in frac.bytes().take(2).enumerate() {
        frac_cp += i32::from(d - b'0') * if i == 0 { 10 } else { 1 };
    }
    let cp = whole * 100 + frac_cp;
    Some(Score::cp(if negative { -cp } else { cp }))
}

/// The record of a scored PGN game; see the module comment for what is kept.
///
/// ```
/// use sable_formats::pgn::PgnReader;
/// use sable_formats::record::{from_pgn_tree, GameResult, Score, Termination};
///
/// let pgn = "[Result \"0-1\"]\n\n1. f3 {book} e5 {-0.10/8 0.1s} 2. g4 {-4.50/9 0.1s} \
///            Qh4# {+M1/1 0.0s} 0-1\n";
/// let tree = PgnReader::new(pgn.as_bytes()).read_tree().unwrap().unwrap();
/// let game = from_pgn_tree(&tree, 0).unwrap();
/// assert_eq!(game.plies.len(), 3); // the book move is the opening, not a ply
/// assert_eq!(game.plies[2].score, Score::mate(1));
/// assert_eq!((game.result, game.termination), (GameResult::BlackWins, Termination::Rules));
/// ```
pub fn from_pgn_tree(tree: &GameTree, number: u32) -> Result<GameRecord, FromPgnError> {
    // The termination marker, or the Result tag of a game written without one.
    let marker = tree
        .result
        .or_else(|| tree.tags.get("Result").and_then(PgnResult::from_token));
    let result = match marker {
        Some(PgnResult::WhiteWins) => GameResult::WhiteWins,
        Some(PgnResult::BlackWins) => GameResult::BlackWins,
        Some(PgnResult::Draw) => GameResult::Draw,
        Some(PgnResult::Unknown) | None => return Err(FromPgnError::NoResult),
    };
    let mut pos = tree.start.clone();
    let mut history = KeyHistory::new();
    let mut start = None;
    let mut plies = Vec::new();
    let mut cut = false;
    for (i, node) in tree.root.moves.iter().enumerate() {
        let score = node.comments.iter().find_map(|c| parse_score_comment(c));
        let score = match score {
            Some(Ok(s)) => Some(s),
            Some(Err(text)) => {
                return Err(FromPgnError::BadScore {
                    ply: i + 1,
                    san: node.san.to_string(),
                    text,
                })
            }
            None => None,
        };
        match (score, start.is_some()) {
            (None, false) => {}
            (None, true) => {
                cut = true;
                break;
            }
            (Some(score), started) => {
                if node.mv.is_null() {
                    return Err(FromPgnError::NullMove {
                        ply: i + 1,
                        san: node.san.to_string(),
                    });
                }
                if !started {
                    start = Some(pos.clone());
                }
                plies.push(Ply { mv: node.mv, score });
            }
        }
        history.push(pos.key());
        if node.mv.is_null() {
            pos.make_null();
        } else {
            pos.make(node.mv);
        }
    }
    let start = start.ok_or(FromPgnError::NoScores)?;
    let termination = if cut {
        Termination::Length
    } else {
        end_by_board(&pos, &history, result)?
    };
    Ok(GameRecord {
        start,
        plies,
        result,
        termination,
        number,
    })
}

/// How a game that ends at `end` with `result` was terminated. Mate, stalemate and
/// insufficient material end a game whatever anyone claims, so a result that disagrees
/// is an error; fifty moves and threefold repetition only end it when claimed, so a
/// decisive result there was adjudicated (or resigned) past a claimable draw.
fn end_by_board(
    end: &sable_chess::Position,
    history: &KeyHistory,
    result: GameResult,
) -> Result<Termination, FromPgnError> {
    let forced = match end.outcome(history) {
        Some(Outcome::Checkmate { winner }) => Some((
            Outcome::Checkmate { winner },
            match winner {
                Color::White => GameResult::WhiteWins,
                Color::Black => GameResult::BlackWins,
            },
        )),
        Some(o @ Outcome::Draw(DrawReason::Stalemate | DrawReason::InsufficientMaterial)) => {
            Some((o, GameResult::Draw))
        }
        Some(Outcome::Draw(_)) if result == GameResult::Draw => return Ok(Termination::Rules),
        _ => None,
    };
    match forced {
        Some((_, expected)) if expected == result => Ok(Termination::Rules),
        Some((o, _)) => Err(FromPgnError::ResultContradictsBoard {
            result: result.pgn(),
            fen: end.fen(),
            outcome: o.result(),
        }),
        None if result == GameResult::Draw => Ok(Termination::DrawAdjudicated),
        None => Ok(Termination::WinAdjudicated),
    }
}
