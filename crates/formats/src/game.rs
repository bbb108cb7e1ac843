//! `Game`: the record of one game from any start position: its moves, the key history
//! for repetitions, draw claims (threefold, fifty moves), the ends that need no claim
//! (checkmate, stalemate, insufficient material, fivefold, seventy-five moves),
//! resignation and agreement, undo, and export to PGN.

use crate::pgn::{GameResult, GameTree, Tags};
use sable_chess::{
    CastlingMode, Color, DrawReason, KeyHistory, Move, Outcome, ParseFenError, Position, SanError,
    Undo,
};
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Termination {
    /// An end the rules impose: checkmate, stalemate, insufficient material, fivefold
    /// repetition or the seventy-five-move rule.
    Rules(Outcome),
    /// A draw claimed under the threefold-repetition or fifty-move rule.
    Claimed(DrawReason),
    Resignation {
        winner: Color,
    },
    Agreement,
}

impl Termination {
    pub fn result(self) -> GameResult {
        match self {
            Termination::Rules(o) => o.into(),
            Termination::Resignation {
                winner: Color::White,
            } => GameResult::WhiteWins,
            Termination::Resignation {
                winner: Color::Black,
            } => GameResult::BlackWins,
            Termination::Claimed(_) | Termination::Agreement => GameResult::Draw,
        }
    }

    pub fn winner(self) -> Option<Color> {
        match self {
            Termination::Rules(o) => o.winner(),
            Termination::Resignation { winner } => Some(winner),
            _ => None,
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(Outcome::Checkmate { winner }) => {
                write!(f, "{} wins by checkmate", name(*winner))
            }
            Termination::Rules(Outcome::Draw(reason)) => write!(f, "Draw by {reason}"),
            Termination::Claimed(reason) => write!(f, "Draw by {reason}, claimed"),
            Termination::Resignation { winner } => write!(f, "{} resigns", name(!*winner)),
            Termination::Agreement => f.write_str("Draw by agreement"),
        }
    }
}

fn name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A move or claim the game refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the game is over ({0}); undo to continue")]
    Over(Termination),
    #[error("move {uci} is not legal in position {fen}")]
    Illegal { uci: String, fen: String },
    #[error(transparent)]
    San(#[from] SanError),
    #[error(transparent)]
    Uci(#[from] sable_chess::UciMoveError),
    #[error("no draw can be claimed: the position has occurred {count} time(s) and the half-move clock is {halfmoves}")]
    NoClaim { count: usize, halfmoves: u32 },
}

/// A game from a start position.
///
/// ```
/// use sable_formats::game::{Game, Termination};
/// use sable_chess::{Color, Outcome};
/// let mut game = Game::new();
/// for san in ["f3", "e5", "g4", "Qh4#"] {
///     game.push_san(san).unwrap();
/// }
/// assert_eq!(game.outcome(), Some(Termination::Rules(Outcome::Checkmate { winner: Color::Black })));
/// assert!(game.push_san("a3").is_err());
/// game.undo();
/// assert_eq!(game.outcome(), None);
/// assert!(game.to_pgn().ends_with("1. f3 e5 2. g4 *\n\n"));
/// ```
#[derive(Clone)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    undos: Vec<Undo>,
    history: KeyHistory,
    /// An end by claim, resignation or agreement (those by the rules are computed).
    declared: Option<Termination>,
    pub tags: Tags,
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A game from the standard start position.
    pub fn new() -> Game {
        Game::from_position(Position::startpos())
    }

    pub fn from_position(start: Position) -> Game {
        Game {
            pos: start.clone(),
            start,
            moves: Vec::new(),
            undos: Vec::new(),
            history: KeyHistory::new(),
            declared: None,
            tags: Tags::new(),
        }
    }

    pub fn from_fen(fen: &str, mode: CastlingMode) -> Result<Game, ParseFenError> {
        Ok(Game::from_position(Position::from_fen(fen, mode)?))
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }
    pub fn start(&self) -> &Position {
        &self.start
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// Keys of the positions before the current one.
    pub fn history(&self) -> &KeyHistory {
        &self.history
    }

    /// Plays a legal move; refused once the game is over.
    pub fn push(&mut self, m: Move) -> Result<(), PlayError> {
        if let Some(end) = self.outcome() {
            return Err(PlayError::Over(end));
        }
        if !self.pos.is_legal(m) {
            return Err(PlayError::Illegal {
                uci: m.to_uci(self.pos.is_chess960()).to_string(),
                fen: self.pos.fen(),
            });
        }
        self.history.push(self.pos.key());
        self.undos.push(self.pos.make(m));
        self.moves.push(m);
        Ok(())
    }

    /// Plays a move in SAN (read leniently).
    pub fn push_san(&mut self, san: &str) -> Result<Move, PlayError> {
        if let Some(end) = self.outcome() {
            return Err(PlayError::Over(end));
        }
        let m = self.pos.parse_san_lenient(san)?;
        self.push(m)?;
        Ok(m)
    }

    /// Plays a move in UCI notation.
    pub fn push_uci(&mut self, uci: &str) -> Result<Move, PlayError> {
        if let Some(end) = self.outcome() {
            return Err(PlayError::Over(end));
        }
        let m = self.pos.parse_uci(uci)?;
        self.push(m)?;
        Ok(m)
    }

    /// Takes back the last move, and any claim, resignation or agreement after it.
    /// With no move to take back, only clears such an end.
    pub fn undo(&mut self) -> Option<Move> {
        self.declared = None;
        let m = self.moves.pop()?;
        let undo = self.undos.pop().expect("one undo per move");
        self.pos.unmake(m, &undo);
        self.history.pop();
        Some(m)
    }

    /// How many times the current position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        self.history.count(self.pos.key(), self.pos.halfmoves()) + 1
    }

    pub fn can_claim_threefold(&self) -> bool {
        self.repetitions() >= 3
    }

    pub fn can_claim_fifty_moves(&self) -> bool {
        self.pos.halfmoves() >= 100
    }

    /// Claims a draw by threefold repetition or the fifty-move rule, if either applies.
    pub fn claim_draw(&mut self) -> Result<DrawReason, PlayError> {
        if let Some(end) = self.outcome() {
            return Err(PlayError::Over(end));
        }
        let reason = if self.can_claim_threefold() {
            DrawReason::ThreefoldRepetition
        } else if self.can_claim_fifty_moves() {
            DrawReason::FiftyMoves
        } else {
            return Err(PlayError::NoClaim {
                count: self.repetitions(),
                halfmoves: self.pos.halfmoves(),
            });
        };
        self.declared = Some(Termination::Claimed(reason));
        Ok(reason)
    }

    /// `color` resigns.
    pub fn resign(&mut self, color: Color) -> Result<(), PlayError> {
        self.declare(Termination::Resignation { winner: !color })
    }

    /// The players agree a draw.
    pub fn agree_draw(&mut self) -> Result<(), PlayError> {
        self.declare(Termination::Agreement)
    }

    fn declare(&mut self, end: Termination) -> Result<(), PlayError> {
        if let Some(end) = self.outcome() {
            return Err(PlayError::Over(end));
        }
        self.declared = Some(end);
        Ok(())
    }

    /// How the game ended, if it has: the rules' automatic ends first, then a claim,
    /// resignation or agreement.
    pub fn outcome(&self) -> Option<Termination> {
        self.pos
            .automatic_outcome(&self.history)
            .map(Termination::Rules)
            .or(self.declared)
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The PGN result: `*` while the game goes on.
    pub fn result(&self) -> GameResult {
        self.outcome()
            .map_or(GameResult::Unknown, Termination::result)
    }

    /// The game in PGN export format, with the end described in a closing comment.
    pub fn to_pgn(&self) -> String {
        let mut tree = GameTree::new(self.start.clone());
        tree.tags = self.tags.clone();
        tree.result = Some(self.result());
        let mut pos = self.start.clone();
        for &m in &self.moves {
            tree.push(&pos, m);
            pos.make(m);
        }
        if let Some(end) = self.outcome() {
            let comment = end.to_string();
            match tree.root.moves.last_mut() {
                Some(last) => last.comments.push(comment),
                None => tree.root.comments.push(comment),
            }
        }
        tree.to_pgn()
    }
}
