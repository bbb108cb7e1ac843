//! Replaying movetext: the start position from the `FEN`, `SetUp` and `Variant` tags,
//! SAN to legal moves, and the positions that variations branch from.

use super::GameError;
use sable_chess::{CastlingMode, Move, Position, SanMode, Undo};
use std::cell::OnceCell;

/// Where a game starts, from its tags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartPosition {
    fen: Option<String>,
    chess960: bool,
}

impl StartPosition {
    /// Takes note of the tags that decide the start position (`FEN`, `Variant`);
    /// refuses a variant other than standard chess or Chess960.
    pub fn tag(&mut self, name: &str, value: &str) -> Result<(), GameError> {
        match name {
            "FEN" => self.fen = Some(value.trim().to_string()),
            "Variant" => {
                // Compared without allocating: every lichess game has this tag.
                let v = value.trim();
                let is = |names: &[&str]| names.iter().any(|n| v.eq_ignore_ascii_case(n));
                if is(&[
                    "chess960",
                    "chess 960",
                    "960",
                    "fischerandom",
                    "fischerrandom",
                    "fischer random",
                    "fischer-random",
                ]) {
                    self.chess960 = true;
                } else if !is(&[
                    "",
                    "standard",
                    "chess",
                    "normal",
                    "from position",
                    "from_position",
                    "fromposition",
                ]) {
                    return Err(GameError::Variant(value.to_string()));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The position: Chess960 if the variant says so or if the FEN's castling rights
    /// only make sense in Chess960.
    pub fn position(&self) -> Result<Position, GameError> {
        let Some(fen) = &self.fen else {
            static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
            let mut pos = START.get_or_init(Position::startpos).clone();
            pos.set_chess960(self.chess960);
            return Ok(pos);
        };
        let fen_error = |error| GameError::Fen {
            fen: fen.clone(),
            error,
        };
        if self.chess960 {
            return Position::from_fen(fen, CastlingMode::Chess960).map_err(fen_error);
        }
        Position::from_fen(fen, CastlingMode::Standard)
            .or_else(|e| Position::from_fen(fen, CastlingMode::Chess960).map_err(|_| fen_error(e)))
    }

    pub fn clear(&mut self) {
        self.fen = None;
        self.chess960 = false;
    }
}

/// Plays a game's moves as a visitor meets them, variations included.
///
/// Moves are made in place and remembered with their undo records: the position before
/// the last move is only rebuilt when asked for (a variation, or
/// [`Replayer::position_before_last`]).
#[derive(Clone)]
pub struct Replayer {
    pub mode: SanMode,
    pub start: StartPosition,
    start_pos: Position,
    pos: Position,
    /// The last move of the current line, if there is one, and what takes it back.
    last: Option<(Move, Undo)>,
    /// The position before `last`, once asked for.
    before: OnceCell<Position>,
    stack: Vec<(Position, Option<(Move, Undo)>)>,
}

impl Replayer {
    pub fn new(mode: SanMode) -> Replayer {
        Replayer {
            mode,
            start: StartPosition::default(),
            start_pos: Position::startpos(),
            pos: Position::startpos(),
            last: None,
            before: OnceCell::new(),
            stack: Vec::new(),
        }
    }

    pub fn begin_game(&mut self) {
        self.start.clear();
        self.stack.clear();
        self.set_last(None);
    }

    pub fn tag(&mut self, name: &str, value: &str) -> Result<(), GameError> {
        self.start.tag(name, value)
    }

    pub fn end_tags(&mut self) -> Result<(), GameError> {
        self.start_pos = self.start.position()?;
        self.pos = self.start_pos.clone();
        Ok(())
    }

    /// Reads `san` in the current position and plays it; returns the move
    /// (`Move::NULL` for a null move).
    pub fn play_san(&mut self, san: &str) -> Result<Move, GameError> {
        let (m, undo) = self.pos.make_san(san, self.mode)?;
        self.set_last(Some((m, undo)));
        Ok(m)
    }

    /// Plays a legal move (or `Move::NULL`).
    pub fn play(&mut self, m: Move) {
        let undo = if m.is_null() {
            self.pos.make_null()
        } else {
            self.pos.make(m)
        };
        self.set_last(Some((m, undo)));
    }

    fn set_last(&mut self, last: Option<(Move, Undo)>) {
        self.last = last;
        self.before.take();
    }

    /// The position before the last move, rebuilt from the current one.
    fn rebuild_before(&self) -> Option<Position> {
        let (m, undo) = self.last.as_ref()?;
        let mut before = self.pos.clone();
        if m.is_null() {
            before.unmake_null(undo);
        } else {
            before.unmake(*m, undo);
        }
        Some(before)
    }

    pub fn begin_variation(&mut self) -> Result<(), GameError> {
        let before = match self.before.take() {
            Some(before) => before,
            None => self.rebuild_before().ok_or_else(|| {
                GameError::Syntax("'(' starts a variation where there is no move to replace".into())
            })?,
        };
        let current = std::mem::replace(&mut self.pos, before);
        self.stack.push((current, self.last.take()));
        Ok(())
    }

    pub fn end_variation(&mut self) -> Result<(), GameError> {
        let Some((pos, last)) = self.stack.pop() else {
            return Err(GameError::Syntax("')' without a matching '('".into()));
        };
        self.pos = pos;
        self.set_last(last);
        Ok(())
    }

    /// Variations still open.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.start_pos
    }

    /// The position before the last move of the current line.
    pub fn position_before_last(&self) -> Option<&Position> {
        if self.before.get().is_none() {
            let before = self.rebuild_before()?;
            let _ = self.before.set(before);
        }
        self.before.get()
    }
}
