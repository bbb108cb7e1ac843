//! The streaming PGN reader: drives a [`Visitor`] through each game and recovers from
//! broken games by skipping to the next one.

use super::lexer::{LexError, Lexer, Mark, Tok};
use super::{GameError, GameResult, PgnError};
use std::io::BufRead;

/// Receives the parts of a game as the reader meets them (like pgn-reader's `Visitor`).
///
/// Any method may refuse with a [`GameError`]; the reader then reports it with the game
/// number, line and column, skips the rest of that game and goes on with the next.
/// `end_game` is only called for games read to their end.
pub trait Visitor {
    type Output;

    fn begin_game(&mut self) {}
    /// A tag pair; the value has its escapes decoded.
    fn tag(&mut self, _name: &str, _value: &str) -> Result<(), GameError> {
        Ok(())
    }
    /// The tags are over; the movetext (maybe empty) follows.
    fn end_tags(&mut self) -> Result<(), GameError> {
        Ok(())
    }
    /// A move as written, without suffix annotations (`!?` comes as a NAG).
    fn san(&mut self, san: &str) -> Result<(), GameError>;
    fn nag(&mut self, _nag: u8) -> Result<(), GameError> {
        Ok(())
    }
    fn comment(&mut self, _text: &str) -> Result<(), GameError> {
        Ok(())
    }
    /// `(`: an alternative to the last move starts.
    fn begin_variation(&mut self) -> Result<(), GameError> {
        Ok(())
    }
    fn end_variation(&mut self) -> Result<(), GameError> {
        Ok(())
    }
    /// The termination marker; not called when a game ends without one.
    fn result(&mut self, _result: GameResult) -> Result<(), GameError> {
        Ok(())
    }
    fn end_game(&mut self) -> Self::Output;
}

/// Reads games from a PGN stream, keeping one line in memory.
///
/// ```
/// use sable_formats::pgn::{GameTree, PgnReader};
/// let text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 {good} Nc6 *\n\n1. e4 Ke6 1-0\n";
/// let mut reader = PgnReader::new(text.as_bytes());
/// let first = reader.read_tree().unwrap().unwrap();
/// assert_eq!(first.mainline().len(), 4);
/// let second = reader.read_tree().unwrap().unwrap_err();
/// assert_eq!((second.game, second.line, second.column), (2, 5, 7));
/// assert!(reader.read_tree().is_none());
/// ```
pub struct PgnReader<R> {
    lexer: Lexer<R>,
    game: usize,
    /// See [`PgnReader::require_results`].
    results_required: bool,
}

/// How a game's text ended, seen from the loop that reads it.
enum End {
    Result,
    NextTags,
    Eof,
}

impl<R: BufRead> PgnReader<R> {
    pub fn new(src: R) -> PgnReader<R> {
        PgnReader {
            lexer: Lexer::new(src),
            game: 0,
            results_required: false,
        }
    }

    /// With `on`, a game that the end of the input cuts off before its result is an
    /// error (at the end of the input), as a file cut short shows. Off by default: the
    /// game is read as it stands, as python-chess and Polyglot read it. A game followed
    /// by the next game's tags without a result is read either way.
    pub fn require_results(&mut self, on: bool) {
        self.results_required = on;
    }

    /// Bytes consumed so far (for progress reports).
    pub fn bytes_read(&self) -> u64 {
        self.lexer.bytes()
    }

    /// Reads the next game into `visitor`: `None` at the end of input, `Some(Err)` for a
    /// game that could not be read (the reader has moved past it).
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, PgnError>> {
        loop {
            let mut tok = match self.lexer.next() {
                Ok(Tok::Eof) => return None,
                Ok(t) => t,
                Err(e) => {
                    self.game += 1;
                    let err = self.lex_error(e);
                    self.skip_game(true);
                    return Some(Err(err));
                }
            };
            // A lone result right after a game (TWIC writes `* *`) is no game of its own.
            if let Tok::Result(_) = tok {
                let mark = self.lexer.mark;
                match self.lexer.next() {
                    Ok(Tok::Eof) => return None,
                    Ok(Tok::Result(_)) => {
                        // Two in a row: both are strays.
                        continue;
                    }
                    Ok(Tok::Tag) => {
                        let m = self.lexer.mark;
                        self.lexer.unread(m);
                        continue;
                    }
                    Ok(_) | Err(_) => {
                        // Movetext follows; read it as a game (its first token is lost
                        // to the look-ahead, so report it rather than guess).
                        self.game += 1;
                        let err = PgnError {
                            game: self.game,
                            line: mark.line,
                            column: self.lexer.column(mark),
                            error: GameError::Syntax("a result with no game before it".into()),
                        };
                        self.skip_game(false);
                        return Some(Err(err));
                    }
                }
            }
            self.game += 1;
            visitor.begin_game();
            let mut in_tags = true;
            let outcome = loop {
                match self.step(visitor, tok, &mut in_tags) {
                    Ok(Some(end)) => break Ok(end),
                    Ok(None) => {}
                    Err(e) => break Err(e),
                }
                tok = match self.lexer.next() {
                    Ok(t) => t,
                    Err(e) => {
                        // The broken token is consumed; skip from the one after it.
                        tok = Tok::Open;
                        break Err(self.lex_error(e));
                    }
                };
            };
            return Some(match outcome {
                Ok(End::Eof) if self.results_required => Err(self.error_at(
                    self.lexer.mark,
                    GameError::Syntax(
                        "the input ends inside the game, before its result (cut short?)".into(),
                    ),
                )),
                Ok(_) => Ok(visitor.end_game()),
                Err(err) => {
                    if !matches!(tok, Tok::Result(_) | Tok::Eof) {
                        self.skip_game(in_tags);
                    }
                    Err(err)
                }
            });
        }
    }

    /// Feeds one token to the visitor; `Some` when the game is over.
    fn step<V: Visitor>(
        &mut self,
        visitor: &mut V,
        tok: Tok,
        in_tags: &mut bool,
    ) -> Result<Option<End>, PgnError> {
        let mark = self.lexer.mark;
        let at = |me: &Self, error: GameError| me.error_at(mark, error);
        if *in_tags {
            if let Tok::Tag = tok {
                return visitor
                    .tag(self.lexer.tag_name(), self.lexer.text())
                    .map(|_| None)
                    .map_err(|e| at(self, e));
            }
            *in_tags = false;
            visitor.end_tags().map_err(|e| at(self, e))?;
        }
        match tok {
            Tok::Tag => {
                // The next game's tags: this one ended without a result.
                self.lexer.unread(mark);
                return Ok(Some(End::NextTags));
            }
            Tok::Eof => return Ok(Some(End::Eof)),
            Tok::Result(r) => {
                visitor.result(r).map_err(|e| at(self, e))?;
                return Ok(Some(End::Result));
            }
            Tok::San => visitor.san(self.lexer.text()).map_err(|e| at(self, e))?,
            Tok::Nag(n) => visitor.nag(n).map_err(|e| at(self, e))?,
            Tok::Comment => visitor
                .comment(self.lexer.text())
                .map_err(|e| at(self, e))?,
            Tok::Open => visitor.begin_variation().map_err(|e| at(self, e))?,
            Tok::Close => visitor.end_variation().map_err(|e| at(self, e))?,
        }
        Ok(None)
    }

    /// After an error: skips to the game's result, the next tag section or the end.
    /// `in_tags`: the error came in the tag section, whose remaining tags are skipped too.
    fn skip_game(&mut self, mut in_tags: bool) {
        loop {
            let tok = self.lexer.next();
            if in_tags && !matches!(tok, Ok(Tok::Tag) | Err(LexError::Syntax(..))) {
                in_tags = false;
            }
            match tok {
                Ok(Tok::Result(_)) | Ok(Tok::Eof) => return,
                Ok(Tok::Tag) if in_tags => {}
                Ok(Tok::Tag) => {
                    let mark = self.lexer.mark;
                    self.lexer.unread(mark);
                    return;
                }
                Ok(_) => {}
                Err(LexError::Io(_)) => return,
                Err(LexError::Syntax(..)) => {}
            }
        }
    }

    fn error_at(&self, mark: Mark, error: GameError) -> PgnError {
        PgnError {
            game: self.game,
            line: mark.line,
            column: self.lexer.column(mark),
            error,
        }
    }

    fn lex_error(&self, e: LexError) -> PgnError {
        match e {
            LexError::Syntax(mark, msg) => self.error_at(mark, GameError::Syntax(msg)),
            // The line that could not be read.
            LexError::Io(io) => PgnError {
                game: self.game,
                line: self.lexer.lines_read() + 1,
                column: 1,
                error: GameError::Io(io),
            },
        }
    }
}
