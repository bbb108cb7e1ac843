//! A game as a tree: tags, start position, mainline with variations, comments and NAGs;
//! and [`TreeBuilder`], the visitor that builds one while replaying the moves.

use super::{GameError, GameResult, PgnError, PgnReader, Replayer, Visitor};
use sable_chess::{Move, Position, SanMode, SanText};
use std::io::BufRead;

/// Tag pairs in the order they were read. Equality ignores the order, which carries no
/// meaning (the writer puts the seven-tag roster first).
#[derive(Clone, Debug, Default, Eq)]
pub struct Tags(pub Vec<(String, String)>);

impl Tags {
    pub fn new() -> Tags {
        Tags(Vec::new())
    }
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    /// Sets a tag, replacing an earlier value.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.0.push((name.to_string(), value.to_string())),
        }
    }
    pub fn remove(&mut self, name: &str) {
        self.0.retain(|(n, _)| n != name);
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl PartialEq for Tags {
    fn eq(&self, other: &Tags) -> bool {
        let mut a = self.0.clone();
        let mut b = other.0.clone();
        a.sort();
        b.sort();
        a == b
    }
}

/// One move with its annotations and the alternatives to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNode {
    /// The move (`Move::NULL` for a null move).
    pub mv: Move,
    /// Its SAN in the position where it was played.
    pub san: SanText,
    pub nags: Vec<u8>,
    /// Comments between the previous element and this move.
    pub comments_before: Vec<String>,
    /// Comments after this move.
    pub comments: Vec<String>,
    /// Lines that replace this move (played from the position before it).
    pub variations: Vec<Line>,
}

/// A sequence of moves: the mainline or a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub moves: Vec<MoveNode>,
    /// Comments with no move to go with (a line with no moves, or a game with no moves).
    pub comments: Vec<String>,
}

/// A whole game: tags, start position, the move tree and the result token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTree {
    pub tags: Tags,
    pub start: Position,
    pub root: Line,
    /// The termination marker, if the game had one.
    pub result: Option<GameResult>,
}

impl GameTree {
    /// A game with no moves from `start`.
    pub fn new(start: Position) -> GameTree {
        GameTree {
            tags: Tags::new(),
            start,
            root: Line::default(),
            result: None,
        }
    }

    /// The mainline moves.
    pub fn mainline(&self) -> Vec<Move> {
        self.root.moves.iter().map(|n| n.mv).collect()
    }

    /// The position at the end of the mainline.
    pub fn end_position(&self) -> Position {
        let mut pos = self.start.clone();
        for n in &self.root.moves {
            if n.mv.is_null() {
                pos.make_null();
            } else {
                pos.make(n.mv);
            }
        }
        pos
    }

    /// Appends a legal move to the mainline.
    pub fn push(&mut self, pos_before: &Position, m: Move) {
        self.root.moves.push(MoveNode {
            mv: m,
            san: pos_before.san_text(m),
            nags: Vec::new(),
            comments_before: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        });
    }

    /// Export-format PGN (80 columns).
    pub fn to_pgn(&self) -> String {
        super::PgnWriter::default().write(self)
    }
}

/// Builds a [`GameTree`], replaying each move in the given SAN mode.
pub struct TreeBuilder {
    replay: Replayer,
    tags: Tags,
    /// The mainline first, then the variations being read, innermost last.
    lines: Vec<Line>,
    pending: Vec<String>,
    after_move: bool,
    result: Option<GameResult>,
}

impl TreeBuilder {
    pub fn new(mode: SanMode) -> TreeBuilder {
        TreeBuilder {
            replay: Replayer::new(mode),
            tags: Tags::new(),
            lines: vec![Line::default()],
            pending: Vec::new(),
            after_move: false,
            result: None,
        }
    }

    fn line(&mut self) -> &mut Line {
        self.lines.last_mut().expect("the mainline is never popped")
    }

    /// Leftover comments go to the line's last move, or to the line itself.
    fn flush_pending(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        if pending.is_empty() {
            return;
        }
        let line = self.line();
        match line.moves.last_mut() {
            Some(last) => last.comments.extend(pending),
            None => line.comments.extend(pending),
        }
    }
}

impl Visitor for TreeBuilder {
    type Output = GameTree;

    fn begin_game(&mut self) {
        self.replay.begin_game();
        self.tags = Tags::new();
        self.lines.clear();
        self.lines.push(Line::default());
        self.pending.clear();
        self.after_move = false;
        self.result = None;
    }

    fn tag(&mut self, name: &str, value: &str) -> Result<(), GameError> {
        self.replay.tag(name, value)?;
        self.tags.0.push((name.to_string(), value.to_string()));
        Ok(())
    }

    fn end_tags(&mut self) -> Result<(), GameError> {
        self.replay.end_tags()
    }

    fn san(&mut self, san: &str) -> Result<(), GameError> {
        let before = self.replay.position().clone();
        let m = self.replay.play_san(san)?;
        let node = MoveNode {
            mv: m,
            san: before.san_text(m),
            nags: Vec::new(),
            comments_before: std::mem::take(&mut self.pending),
            comments: Vec::new(),
            variations: Vec::new(),
        };
        self.line().moves.push(node);
        self.after_move = true;
        Ok(())
    }

    fn nag(&mut self, nag: u8) -> Result<(), GameError> {
        match self.line().moves.last_mut() {
            Some(last) => {
                last.nags.push(nag);
                Ok(())
            }
            None => Err(GameError::Syntax(format!(
                "NAG ${nag} before any move it could annotate"
            ))),
        }
    }

    fn comment(&mut self, text: &str) -> Result<(), GameError> {
        let text = normalize_comment(text);
        if self.after_move {
            if let Some(last) = self.line().moves.last_mut() {
                last.comments.push(text);
                return Ok(());
            }
        }
        self.pending.push(text);
        Ok(())
    }

    fn begin_variation(&mut self) -> Result<(), GameError> {
        self.replay.begin_variation()?;
        self.flush_pending();
        self.lines.push(Line::default());
        self.after_move = false;
        Ok(())
    }

    fn end_variation(&mut self) -> Result<(), GameError> {
        self.replay.end_variation()?;
        self.flush_pending();
        let line = self.lines.pop().expect("a variation is open");
        self.line()
            .moves
            .last_mut()
            .expect("a variation follows a move")
            .variations
            .push(line);
        self.after_move = false;
        Ok(())
    }

    fn result(&mut self, result: GameResult) -> Result<(), GameError> {
        if self.replay.depth() > 0 {
            return Err(GameError::Syntax(format!(
                "the result {result} comes inside a variation: {} '(' not closed",
                self.replay.depth()
            )));
        }
        self.result = Some(result);
        Ok(())
    }

    fn end_game(&mut self) -> GameTree {
        self.flush_pending();
        // A game cut off inside a variation (no result): close what is open.
        while self.lines.len() > 1 {
            let line = self.lines.pop().expect("checked");
            if let Some(last) = self.line().moves.last_mut() {
                last.variations.push(line);
            }
        }
        GameTree {
            tags: std::mem::take(&mut self.tags),
            start: self.replay.start_position().clone(),
            root: std::mem::take(&mut self.lines[0]),
            result: self.result,
        }
    }
}

/// Whitespace inside a comment carries no meaning and line breaks move when a writer
/// wraps lines, so comments are kept with single spaces.
fn normalize_comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

impl<R: BufRead> PgnReader<R> {
    /// Reads the next game as a tree, replaying strict SAN.
    pub fn read_tree(&mut self) -> Option<Result<GameTree, PgnError>> {
        let mut builder = TreeBuilder::new(SanMode::Strict);
        self.read_game(&mut builder)
    }

    /// All remaining games as trees, read with the given SAN mode.
    pub fn trees(self, mode: SanMode) -> Trees<R> {
        Trees {
            reader: self,
            builder: TreeBuilder::new(mode),
        }
    }
}

/// Iterator over the games of a reader as trees; see [`PgnReader::trees`].
pub struct Trees<R> {
    reader: PgnReader<R>,
    builder: TreeBuilder,
}

impl<R: BufRead> Iterator for Trees<R> {
    type Item = Result<GameTree, PgnError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.reader.read_game(&mut self.builder)
    }
}
