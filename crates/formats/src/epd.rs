//! EPD records: a position (four FEN fields, optionally the two counters) followed by
//! `opcode operand ...;` operations, as used by test suites (`bm`, `am`, `id`, `c0`..`c9`,
//! `acd`, `ce`, `pv`, `D1`..`Dn`, `perft`, `hmvc`, `fmvn`).

use sable_chess::{CastlingMode, Move, ParseFenError, Position, SanError};
use std::fmt;
use std::str::FromStr;

/// One operand: a quoted string or a bare word (a move, a number, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    Quoted(String),
    Word(String),
}

impl Operand {
    pub fn as_str(&self) -> &str {
        match self {
            Operand::Quoted(s) | Operand::Word(s) => s,
        }
    }
}

/// An opcode with its operands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    pub operands: Vec<Operand>,
}

/// A position with operations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    pub position: Position,
    pub operations: Vec<Operation>,
}

/// An EPD line that cannot be read, or an operation whose moves are not legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EpdError {
    #[error("EPD needs four position fields (board, side, castling, en passant), found {0}")]
    TooFewFields(usize),
    #[error("EPD position: {0}")]
    Fen(#[from] ParseFenError),
    #[error("EPD operations, column {column}: {reason}")]
    Syntax { column: usize, reason: &'static str },
    #[error("EPD opcode '{opcode}': {error}")]
    Move { opcode: String, error: SanError },
    #[error("EPD opcode '{opcode}': operand '{operand}' is not {expected}")]
    Operand {
        opcode: String,
        operand: String,
        expected: &'static str,
    },
}

/// The move an operand names in `pos` (SAN as real files write it, or UCI). A null move
/// (`--`, `Z0`, `0000`) is not a move that can be best, avoided or played in a line.
fn operand_move(pos: &Position, opcode: &str, operand: &str) -> Result<Move, EpdError> {
    match pos.parse_san_lenient(operand) {
        Ok(m) if m.is_null() => Err(EpdError::Operand {
            opcode: opcode.to_string(),
            operand: operand.to_string(),
            expected: "a move (a null move is none)",
        }),
        Ok(m) => Ok(m),
        Err(error) => Err(EpdError::Move {
            opcode: opcode.to_string(),
            error,
        }),
    }
}

impl Epd {
    /// A record with no operations.
    pub fn new(position: Position) -> Epd {
        Epd {
            position,
            operations: Vec::new(),
        }
    }

    /// The first operation with this opcode.
    pub fn get(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|o| o.opcode == opcode)
    }

    /// The first operand of `opcode`, as text.
    pub fn text(&self, opcode: &str) -> Option<&str> {
        self.get(opcode)?.operands.first().map(Operand::as_str)
    }

    /// Replaces (or adds) an operation.
    pub fn set(&mut self, opcode: &str, operands: Vec<Operand>) {
        let op = Operation {
            opcode: opcode.to_string(),
            operands,
        };
        match self.operations.iter_mut().find(|o| o.opcode == opcode) {
            Some(slot) => *slot = op,
            None => self.operations.push(op),
        }
    }

    /// Sets `bm`/`am`-style alternatives, written in SAN.
    pub fn set_moves(&mut self, opcode: &str, moves: &[Move]) {
        let operands = moves
            .iter()
            .map(|&m| Operand::Word(self.position.san(m)))
            .collect();
        self.set(opcode, operands);
    }

    /// Sets a principal variation (`pv`): each move in SAN in the position it is played.
    pub fn set_pv(&mut self, moves: &[Move]) {
        let mut pos = self.position.clone();
        let mut operands = Vec::with_capacity(moves.len());
        for &m in moves {
            operands.push(Operand::Word(pos.san(m)));
            pos.make(m);
        }
        self.set("pv", operands);
    }

    pub fn id(&self) -> Option<&str> {
        self.text("id")
    }

    /// `c0` .. `c9`.
    pub fn comment(&self, n: u8) -> Option<&str> {
        self.text(&format!("c{n}"))
    }

    /// Best moves (alternatives), read as lenient SAN.
    pub fn bm(&self) -> Result<Vec<Move>, EpdError> {
        self.moves("bm")
    }

    /// Moves to avoid.
    pub fn am(&self) -> Result<Vec<Move>, EpdError> {
        self.moves("am")
    }

    /// Alternatives in the record's position (empty if the opcode is absent).
    pub fn moves(&self, opcode: &str) -> Result<Vec<Move>, EpdError> {
        let Some(op) = self.get(opcode) else {
            return Ok(Vec::new());
        };
        op.operands
            .iter()
            .map(|o| operand_move(&self.position, opcode, o.as_str()))
            .collect()
    }

    /// The principal variation, each move legal after the ones before.
    pub fn pv(&self) -> Result<Vec<Move>, EpdError> {
        let Some(op) = self.get("pv") else {
            return Ok(Vec::new());
        };
        let mut pos = self.position.clone();
        let mut out = Vec::with_capacity(op.operands.len());
        for o in &op.operands {
            let m = operand_move(&pos, "pv", o.as_str())?;
            pos.make(m);
            out.push(m);
        }
        Ok(out)
    }

    fn number<T: FromStr>(&self, opcode: &str) -> Result<Option<T>, EpdError> {
        match self.text(opcode) {
            None => Ok(None),
            Some(s) => s.parse().map(Some).map_err(|_| EpdError::Operand {
                opcode: opcode.to_string(),
                operand: s.to_string(),
                expected: "a whole number",
            }),
        }
    }

    /// Analysis count depth.
    pub fn acd(&self) -> Result<Option<u32>, EpdError> {
        self.number("acd")
    }

    /// Centipawn evaluation.
    pub fn ce(&self) -> Result<Option<i32>, EpdError> {
        self.number("ce")
    }

    /// Perft counts by depth, from `D1 20; D2 400;` or `perft 3 8902;` operations.
    pub fn perft(&self) -> Result<Vec<(u32, u64)>, EpdError> {
        let mut out = Vec::new();
        for op in &self.operations {
            let bad = |operand: &str| EpdError::Operand {
                opcode: op.opcode.clone(),
                operand: operand.to_string(),
                expected: "a node count",
            };
            if let Some(depth) = op.opcode.strip_prefix('D').and_then(|d| d.parse().ok()) {
                let n = op.operands.first().map_or("", Operand::as_str);
                out.push((depth, n.parse().map_err(|_| bad(n))?));
            } else if op.opcode == "perft" {
                let [d, n] = op.operands.as_slice() else {
                    return Err(bad(""));
                };
                let depth = d.as_str().parse().map_err(|_| bad(d.as_str()))?;
                out.push((depth, n.as_str().parse().map_err(|_| bad(n.as_str()))?));
            }
        }
        Ok(out)
    }
}

/// Standard first; Chess960 when the castling rights only make sense there.
fn position_of(fen: &str) -> Result<Position, ParseFenError> {
    Position::from_fen(fen, CastlingMode::Standard)
        .or_else(|e| Position::from_fen(fen, CastlingMode::Chess960).map_err(|_| e))
}

impl FromStr for Epd {
    type Err = EpdError;

    /// ```
    /// use sable_formats::Epd;
    /// let epd: Epd = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";"
    ///     .parse().unwrap();
    /// assert_eq!(epd.id(), Some("WAC.001"));
    /// let bm = epd.bm().unwrap();
    /// assert_eq!(bm[0].to_uci(false).to_string(), "g3g6");
    /// assert_eq!(epd.to_string().parse::<Epd>().unwrap(), epd);
    /// ```
    fn from_str(line: &str) -> Result<Epd, EpdError> {
        let line = line.trim_end_matches(['\r', '\n']);
        let mut rest = line.trim_start();
        let mut fields = Vec::with_capacity(6);
        for _ in 0..4 {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end == 0 {
                return Err(EpdError::TooFewFields(fields.len()));
            }
            fields.push(&rest[..end]);
            rest = rest[end..].trim_start();
        }
        // Full FEN counters may follow the four fields.
        let mut counters = rest.split_whitespace().take(2);
        if let (Some(h), Some(f)) = (counters.next(), counters.next()) {
            if h.parse::<u32>().is_ok() && f.parse::<u32>().is_ok() {
                fields.push(h);
                fields.push(f);
                rest = rest.trim_start()[h.len()..].trim_start()[f.len()..].trim_start();
            }
        }
        let offset = line.len() - rest.len();
        let operations = parse_operations(rest, offset)?;
        let hmvc = operations.iter().find(|o| o.opcode == "hmvc");
        let fmvn = operations.iter().find(|o| o.opcode == "fmvn");
        if fields.len() == 4 {
            let first = |o: Option<&Operation>, default: &'static str| {
                o.and_then(|o| o.operands.first())
                    .map_or(default.to_string(), |v| v.as_str().to_string())
            };
            let h = first(hmvc, "0");
            let f = first(fmvn, "1");
            let fen = format!("{} {h} {f}", fields.join(" "));
            return Ok(Epd {
                position: position_of(&fen)?,
                operations,
            });
        }
        Ok(Epd {
            position: position_of(&fields.join(" "))?,
            operations,
        })
    }
}

fn parse_operations(text: &str, offset: usize) -> Result<Vec<Operation>, EpdError> {
    let bytes = text.as_bytes();
    let mut ops = Vec::new();
    let mut i = 0;
    let err = |i: usize, reason| EpdError::Syntax {
        column: offset + i + 1,
        reason,
    };
    loop {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b';') {
            i += 1;
        }
        if i >= bytes.len() {
            return Ok(ops);
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b';' {
            if bytes[i] == b'"' {
                return Err(err(i, "an opcode cannot contain '\"'"));
            }
            i += 1;
        }
        let opcode = text[start..i].to_string();
        let mut operands = Vec::new();
        loop {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if i >= bytes.len() || bytes[i] == b';' {
                // A missing final ';' at the end of the line is forgiven.
                i += 1;
                break;
            }
            if bytes[i] == b'"' {
                let open = i;
                i += 1;
                let mut s = String::new();
                loop {
                    match bytes.get(i) {
                        None => return Err(err(open, "a quoted operand is never closed")),
                        Some(b'"') => break,
                        Some(b'\\') if matches!(bytes.get(i + 1), Some(b'"' | b'\\')) => {
                            s.push(bytes[i + 1] as char);
                            i += 2;
                        }
                        Some(_) => {
                            let ch = text[i..].chars().next().expect("in bounds");
                            s.push(ch);
                            i += ch.len_utf8();
                        }
                    }
                }
                i += 1;
                operands.push(Operand::Quoted(s));
            } else {
                let s = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b';' {
                    i += 1;
                }
                operands.push(Operand::Word(text[s..i].to_string()));
            }
        }
        ops.push(Operation { opcode, operands });
    }
}

impl fmt::Display for Epd {
    /// The four position fields, the counters where needed, then the operations. Read
    /// back, the text gives the same record: the counters are left out only when a reader
    /// would get them back without them (from `hmvc`/`fmvn`, or as 0 and 1), and not when
    /// the operations start with two numbers a reader would take for counters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut ops = String::new();
        for op in &self.operations {
            ops.push(' ');
            ops.push_str(&op.opcode);
            for operand in &op.operands {
                ops.push(' ');
                match operand {
                    Operand::Word(w) => ops.push_str(w),
                    Operand::Quoted(s) => {
                        ops.push('"');
                        for c in s.chars() {
                            if matches!(c, '"' | '\\') {
                                ops.push('\\');
                            }
                            ops.push(c);
                        }
                        ops.push('"');
                    }
                }
            }
            ops.push(';');
        }
        // What `from_str` reads as the counters when the text has none.
        let implied = |opcode: &str, default: u32| match self.text(opcode) {
            None => Some(default),
            Some(s) => s.parse::<u32>().ok(),
        };
        let counters = (self.position.halfmoves(), self.position.fullmoves());
        let implied_counters = (implied("hmvc", 0), implied("fmvn", 1).map(|n| n.max(1)));
        let mut words = ops.split_whitespace();
        let leading_numbers = matches!(
            (words.next(), words.next()),
            (Some(a), Some(b)) if a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok()
        );
        f.write_str(&self.position.epd())?;
        if implied_counters != (Some(counters.0), Some(counters.1)) || leading_numbers {
            write!(f, " {} {}", counters.0, counters.1)?;
        }
        f.write_str(&ops)
    }
}
