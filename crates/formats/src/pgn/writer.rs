//! PGN export format: the seven-tag roster first, then the other tags as read; movetext
//! wrapped at 80 columns, with move numbers on every white move and on a black move that
//! starts a line or follows a comment or a variation.

use super::{GameResult, GameTree, Line, Tags};
use sable_chess::{Color, Move, Position};

const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Writes games in export format.
#[derive(Clone, Copy, Debug)]
pub struct PgnWriter {
    /// Longest movetext line (a single longer word, such as a long comment word, still
    /// gets a line of its own).
    pub columns: usize,
}

impl Default for PgnWriter {
    fn default() -> Self {
        PgnWriter { columns: 80 }
    }
}

/// Appends words to the output, breaking lines before `columns` is exceeded.
struct Wrap<'a> {
    out: &'a mut String,
    col: usize,
    columns: usize,
    /// No space after `(` or before `)`.
    glue: bool,
}

impl Wrap<'_> {
    fn word(&mut self, w: &str) {
        let len = w.chars().count();
        if self.col > 0 && self.glue && self.col + len > self.columns {
            self.out.push('\n');
            self.col = 0;
        } else if self.col > 0 && !self.glue {
            if self.col + 1 + len > self.columns {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        self.out.push_str(w);
        self.col += len;
        self.glue = false;
    }
    fn close(&mut self) {
        if self.col < self.columns {
            self.out.push(')');
            self.col += 1;
        } else {
            self.out.push_str("\n)");
            self.col = 1;
        }
    }
}

impl PgnWriter {
    /// The game as PGN text, ending with a blank line.
    pub fn write(&self, tree: &GameTree) -> String {
        let mut out = String::new();
        self.write_into(tree, &mut out);
        out
    }

    pub fn write_into(&self, tree: &GameTree, out: &mut String) {
        let result = tree
            .result
            .or_else(|| tree.tags.get("Result").and_then(GameResult::from_token))
            .unwrap_or(GameResult::Unknown);
        write_tags(&tree.tags, &tree.start, result, out);
        out.push('\n');
        let mut wrap = Wrap {
            out,
            col: 0,
            columns: self.columns,
            glue: false,
        };
        // A line with no moves writes its comments itself (`write_line`).
        if !tree.root.moves.is_empty() {
            for c in &tree.root.comments {
                comment(&mut wrap, c);
            }
        }
        let (number, turn) = (tree.start.fullmoves(), tree.start.turn());
        write_line(&mut wrap, &tree.root, number, turn);
        wrap.word(result.as_str());
        out.push_str("\n\n");
    }
}

/// PGN for a plain move list from `start` (legal moves, or `Move::NULL`).
///
/// ```
/// use sable_chess::Position;
/// use sable_formats::pgn::{write_moves, GameResult, Tags};
/// let pos = Position::startpos();
/// let m = pos.parse_san("e4").unwrap();
/// let pgn = write_moves(&Tags::new(), &pos, &[m], GameResult::Unknown);
/// assert!(pgn.starts_with("[Event \"?\"]\n"));
/// assert!(pgn.ends_with("\n\n1. e4 *\n\n"));
/// ```
pub fn write_moves(tags: &Tags, start: &Position, moves: &[Move], result: GameResult) -> String {
    let mut tree = GameTree::new(start.clone());
    tree.tags = tags.clone();
    tree.result = Some(result);
    let mut pos = start.clone();
    for &m in moves {
        tree.push(&pos, m);
        if m.is_null() {
            pos.make_null();
        } else {
            pos.make(m);
        }
    }
    tree.to_pgn()
}

fn write_tags(tags: &Tags, start: &Position, result: GameResult, out: &mut String) {
    let mut line = |name: &str, value: &str| {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        for c in value.chars() {
            if matches!(c, '"' | '\\') {
                out.push('\\');
            }
            // A tag is one line; a line break inside a value would end it.
            out.push(if c == '\n' || c == '\r' { ' ' } else { c });
        }
        out.push_str("\"]\n");
    };
    for (name, default) in ROSTER {
        if name == "Result" {
            line(name, result.as_str());
        } else {
            line(name, tags.get(name).unwrap_or(default));
        }
    }
    let standard_start = !start.is_chess960() && *start == Position::startpos();
    let mut wrote_fen = false;
    for (name, value) in tags.iter() {
        if ROSTER.iter().any(|(r, _)| *r == name) {
            continue;
        }
        if name == "FEN" {
            wrote_fen = true;
        }
        line(name, value);
    }
    if !standard_start && !wrote_fen {
        if start.is_chess960() && tags.get("Variant").is_none() {
            line("Variant", "Chess960");
        }
        if tags.get("SetUp").is_none() {
            line("SetUp", "1");
        }
        line("FEN", &start.fen());
    }
}

fn comment(wrap: &mut Wrap<'_>, text: &str) {
    if text.contains('}') {
        // A brace comment cannot hold '}'; a rest-of-line comment can.
        let words: Vec<&str> = text.split_whitespace().collect();
        wrap.word(&format!(";{}", words.join(" ")));
        wrap.out.push('\n');
        wrap.col = 0;
        return;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        [] => wrap.word("{}"),
        [only] => wrap.word(&format!("{{{only}}}")),
        [first, middle @ .., last] => {
            wrap.word(&format!("{{{first}"));
            for w in middle {
                wrap.word(w);
            }
            wrap.word(&format!("{last}}}"));
        }
    }
}

/// Writes a line starting at move `number` with `turn` to move.
fn write_line(wrap: &mut Wrap<'_>, line: &Line, mut number: u32, mut turn: Color) {
    let mut need_number = true;
    if line.moves.is_empty() {
        for c in &line.comments {
            comment(wrap, c);
        }
    }
    for node in &line.moves {
        for c in &node.comments_before {
            comment(wrap, c);
            need_number = true;
        }
        match turn {
            Color::White => wrap.word(&format!("{number}.")),
            Color::Black if need_number => wrap.word(&format!("{number}...")),
            Color::Black => {}
        }
        wrap.word(node.san.as_str());
        need_number = false;
        for nag in &node.nags {
            wrap.word(&format!("${nag}"));
        }
        for c in &node.comments {
            comment(wrap, c);
            need_number = true;
        }
        for variation in &node.variations {
            wrap.word("(");
            wrap.glue = true;
            write_line(wrap, variation, number, turn);
            wrap.close();
            need_number = true;
        }
        if turn == Color::Black {
            number = number.saturating_add(1);
        }
        turn = !turn;
    }
}
