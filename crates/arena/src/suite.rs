//! Test suites in EPD: positions with `bm` (best moves), `am` (moves to avoid), `id`,
//! and, for the Strategic Test Suite, points per move in `c0` (`"f5=10, Be5+=2"`).
//! Reading a line and scoring an engine's answer live here; running engines over a
//! suite is `sable epd`.

use sable_chess::{Move, Position};

use super::notation::parse_san;
use super::openings::read_epd_line;

/// One position of a suite.
#[derive(Clone, Debug)]
pub struct SuiteEntry {
    pub id: String,
    pub position: Position,
    pub best: Vec<Move>,
    pub avoid: Vec<Move>,
    /// Points per move (STS `c0`), empty when the suite has none.
    pub points: Vec<(Move, u32)>,
    /// The solution as written, for reports.
    pub solution_text: String,
}

/// The operations of an EPD line after the four FEN fields: `(opcode, operands)`.
/// Quoted operands may contain spaces and semicolons; one whose closing quote is missing
/// (a line cut short) is an error.
pub fn operations(line: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    // Skip the 4 FEN fields (and 2 move counters if the line has them).
    let mut skip = 4;
    if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok() {
        skip = 6;
    }
    let mut rest = line.trim_start();
    for _ in 0..skip {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = rest[end..].trim_start();
    }
    let mut ops = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut was_quoted = false;
    let push_word = |word: &mut String, words: &mut Vec<String>, was_quoted: &mut bool| {
        if !word.is_empty() || *was_quoted {
            words.push(std::mem::take(word));
        }
        *was_quoted = false;
    };
    for c in rest.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                was_quoted = true;
            }
            _ if quoted => word.push(c),
            ';' => {
                push_word(&mut word, &mut words, &mut was_quoted);
                if !words.is_empty() {
                    let op = words.remove(0);
                    ops.push((op, std::mem::take(&mut words)));
                }
            }
            c if c.is_whitespace() => push_word(&mut word, &mut words, &mut was_quoted),
            c => word.push(c),
        }
    }
    if quoted {
        return Err("a quoted operand has no closing '\"'".into());
    }
    push_word(&mut word, &mut words, &mut was_quoted);
    if !words.is_empty() {
        let op = words.remove(0);
        ops.push((op, words));
    }
    Ok(ops)
}

/// Reads `"f5=10, Be5+=2, Bf2=3"` into moves and points; `None` if it is not that form.
fn parse_points(pos: &Position, text: &str) -> Option<Vec<(Move, u32)>> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let (mv, pts) = part.trim().split_once('=')?;
        let m = parse_san(pos, mv.trim()).ok()?;
        out.push((m, pts.trim().parse().ok()?));
    }
    (!out.is_empty()).then_some(out)
}

/// Reads one suite line (`line` is its 1-based number, for errors and default ids).
pub fn read_entry(text: &str, line: usize) -> Result<SuiteEntry, String> {
    // Chess960 suites use Shredder castling letters.
    let position = read_epd_line(text, false).or_else(|_| read_epd_line(text, true))?;
    let mut entry = SuiteEntry {
        id: format!("line {line}"),
        position,
        best: Vec::new(),
        avoid: Vec::new(),
        points: Vec::new(),
        solution_text: String::new(),
    };
    let mut parts = Vec::new();
    for (op, args) in operations(text)? {
        match op.as_str() {
            "id" => entry.id = args.join(" "),
            "bm" | "am" => {
                for a in &args {
                    let m = parse_san(&entry.position, a).map_err(|e| format!("{op} {a}: {e}"))?;
                    if op == "bm" {
                        entry.best.push(m);
                    } else {
                        entry.avoid.push(m);
                    }
                }
                parts.push(format!("{op} {}", args.join(" ")));
            }
            "c0" => {
                if let Some(p) = parse_points(&entry.position, &args.join(" ")) {
                    entry.points = p;
                }
            }
            _ => {}
        }
    }
    if entry.best.is_empty() && entry.avoid.is_empty() {
        return Err("no bm or am operation".into());
    }
    entry.solution_text = parts.join("; ");
    Ok(entry)
}

impl SuiteEntry {
    /// Whether `m` solves the position: one of the best moves, and none of the avoided.
    pub fn solved_by(&self, m: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }

    /// The STS points `m` earns, and the most the position gives.
    pub fn points_for(&self, m: Move) -> (u32, u32) {
        let max = self.points.iter().map(|p| p.1).max().unwrap_or(0);
        let got = self.points.iter().find(|p| p.0 == m).map_or(0, |p| p.1);
        (got, max)
    }

    /// The theme of an STS id (`STS(v1.0) Undermine.001` -> `STS(v1.0) Undermine`).
    pub fn theme(&self) -> &str {
        self.id
            .rsplit_once('.')
            .map_or(self.id.as_str(), |(t, _)| t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_with_quotes() {
        let ops = operations(
            r#"1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id "STS(v1.0) Undermine.001"; c0 "f5=10, Be5+=2"; c1 "a;b";"#,
        )
        .unwrap();
        assert!(operations(r#"8/8/8/8/8/8/8/K1k5 w - - bm Kb1; id "WAC."#).is_err());
        let names: Vec<&str> = ops.iter().map(|o| o.0.as_str()).collect();
        assert_eq!(names, ["bm", "id", "c0", "c1"]);
        assert_eq!(ops[0].1, ["f5"]);
        assert_eq!(ops[1].1, ["STS(v1.0) Undermine.001"]);
        assert_eq!(ops[3].1, ["a;b"]);
    }

    #[test]
    fn sts_entry_points() {
        let e = read_entry(
            r#"1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id "STS(v1.0) Undermine.001"; c0 "f5=10, Be5+=2, Bf2=3, Bg4=2"; c7 "f5 Be5+ Bf2 Bg4";"#,
            1,
        )
        .unwrap();
        let p = &e.position;
        assert_eq!(e.id, "STS(v1.0) Undermine.001");
        assert_eq!(e.theme(), "STS(v1.0) Undermine");
        assert!(e.solved_by(p.parse_uci("f4f5").unwrap()));
        assert!(!e.solved_by(p.parse_uci("d4f2").unwrap()));
        assert_eq!(e.points_for(p.parse_uci("d4f2").unwrap()), (3, 10));
        assert_eq!(e.points_for(p.parse_uci("g1h1").unwrap()), (0, 10));
    }

    #[test]
    fn avoid_moves_and_alternatives() {
        let e = read_entry("4k3/8/8/8/8/8/4P3/4K3 w - - bm e4 e3; am Kd1; id \"x\";", 3).unwrap();
        let p = &e.position;
        assert!(e.solved_by(p.parse_uci("e2e3").unwrap()));
        assert!(e.solved_by(p.parse_uci("e2e4").unwrap()));
        assert!(!e.solved_by(p.parse_uci("e1d1").unwrap()));
        let e = read_entry("4k3/8/8/8/8/8/4P3/4K3 w - - am Kd1;", 4).unwrap();
        assert_eq!(e.id, "line 4");
        assert!(e.solved_by(e.position.parse_uci("e1f1").unwrap()));
        assert!(!e.solved_by(e.position.parse_uci("e1d1").unwrap()));
        let err = read_entry("4k3/8/8/8/8/8/4P3/4K3 w - - bm Ke3;", 5).unwrap_err();
        assert!(err.contains("bm Ke3"), "{err}");
        assert!(read_entry("4k3/8/8/8/8/8/4P3/4K3 w - - id \"no solution\";", 6).is_err());
    }

    #[test]
    fn every_shipped_suite_reads() {
        for (file, n) in [
            ("wac.epd", 300),
            ("STS1-STS15_LAN_v3.epd", 1500),
            ("arasan2024.epd", 200),
            ("eet.epd", 100),
            ("ecm.epd", 879),
        ] {
            let text = sable_testdata::read_to_string(&format!("tactics/{file}"));
            let mut count = 0;
            for (i, line) in text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
            {
                let e =
                    read_entry(line, i + 1).unwrap_or_else(|err| panic!("{file}:{}: {err}", i + 1));
                if file.starts_with("STS") {
                    assert_eq!(e.points_for(e.best[0]), (10, 10), "{file}:{}", i + 1);
                }
                count += 1;
            }
            assert_eq!(count, n, "{file}");
        }
    }
}
