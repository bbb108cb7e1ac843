//! Replaying movetext: the start position from the `FEN`, `SetUp` and `Variant` tags,
//! SAN to legal moves, and the positions that variations branch from.

use super::GameError;
use sable_chess::{CastlingMode, Move, Position, SanMode};

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
/// Keeps copies of positions rather than undo records: a `Position` is plain data, and a
/// copy per move costs less than the SAN lookup it follows.
#[derive(Clone)]
pub struct Replayer {
    pub mode: SanMode,
    pub start: StartPosition,
    start_pos: Position,
    pos: Position,
    /// The position before the last move of the current line, if there is one.
    before: Option<Position>,
    stack: Vec<(Position, Option<Position>)>,
}

impl Replayer {
    pub fn new(mode: SanMode) -> Replayer {
        Replayer {
            mode,
            start: StartPosition::default(),
            start_pos: Position::startpos(),
            pos: Position::startpos(),
            before: None,
            stack: Vec::new(),
        }
    }

    pub fn begin_game(&mut self) {
        self.start.clear();
        self.stack.clear();
        self.before = None;
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
        let m = self.pos.parse_san_with(san, self.mode)?;
        self.play(m);
        Ok(m)
    }

    /// Plays a legal move (or `Move::NULL`).
    pub fn play(&mut self, m: Move) {
        self.before = Some(self.pos.clone());
        if m.is_null() {
            self.pos.make_null();
        } else {
            self.pos.make(m);
        }
    }

    pub fn begin_variation(&mut self) -> Result<(), GameError> {
        let Some(before) = self.before.take() else {
            return Err(GameError::Syntax(
                "'(' starts a variation where there is no move to replace".into(),
            ));
        };
        let current = std::mem::replace(&mut self.pos, before.clone());
        self.stack.push((current, Some(before)));
        self.before = None;
        Ok(())
    }

    pub fn end_variation(&mut self) -> Result<(), GameError> {
        let Some((pos, before)) = self.stack.pop() else {
            return Err(GameError::Syntax("')' without a matching '('".into()));
        };
        self.pos = pos;
        self.before = before;
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
        self.before.as_ref()
    }
}
