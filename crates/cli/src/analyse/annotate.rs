//! Writes an analysis into a game's tree, and takes an earlier one out first, so that
//! annotating an annotated game gives the same game again.
//!
//! Each mainline move gets `[%eval ...]` (merged into a comment of commands such as
//! `[%clk ...]` when it has one); a judged move gets its NAG (`$6`/`$2`/`$4`, after a
//! person's `?!`/`?`/`??` when the move has one and it differs), a comment such as
//! `(+0.39 → -1.24) Mistake. Better was O-O.` and the engine's line as a variation.
//! Taken out before: every `[%eval]` of the mainline, and engine comments of this form or
//! lichess's (`Mistake. O-O was best.`) with the NAG (the last move assessment, where this
//! tool puts its own) and the variation that went with them. Other comments, NAGs and
//! variations (a person's) stay.

use super::game::GameReport;
use super::judge::Judgement;
use sable_formats::pgn::{GameTree, Line, MoveNode};

/// Plies of the engine's line written as a variation.
pub const VARIATION_PLIES: usize = 10;

const JUDGEMENTS: [&str; 3] = ["Inaccuracy", "Mistake", "Blunder"];
const MATE_SENTENCES: [&str; 3] = [
    "Checkmate is now unavoidable",
    "Lost forced checkmate sequence",
    "Not the best checkmate sequence",
];

/// Removes `[%eval ...]` commands from a comment (spaces normalised).
pub fn strip_eval(comment: &str) -> String {
    let mut out = String::new();
    let mut rest = comment;
    while let Some(i) = rest.find("[%eval") {
        out.push_str(&rest[..i]);
        rest = match rest[i..].find(']') {
            Some(j) => &rest[i + j + 1..],
            None => "",
        };
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// If `comment` is an engine's judgement (this tool's or lichess's), the move it named
/// as better (`Some(None)` when it named none).
pub fn engine_comment(comment: &str) -> Option<Option<&str>> {
    let mut rest = comment.trim();
    if rest.starts_with('(') {
        rest = &rest[rest.find(") ")? + 2..];
    }
    let body = rest.strip_suffix('.')?;
    let mut sentences = body.split(". ");
    let first = sentences.next()?;
    if !JUDGEMENTS.contains(&first) && !MATE_SENTENCES.contains(&first) {
        return None;
    }
    let mut better = None;
    for s in sentences {
        if MATE_SENTENCES.contains(&s) && better.is_none() {
            continue;
        }
        if better.is_some() {
            return None;
        }
        let san = s
            .strip_prefix("Better was ")
            .or_else(|| s.strip_suffix(" was best"))?;
        if san.contains(' ') || san.is_empty() {
            return None;
        }
        better = Some(san);
    }
    Some(better)
}

fn bare(san: &str) -> &str {
    san.trim_end_matches(['+', '#', '!', '?'])
}

/// Takes an earlier analysis out of the mainline.
pub fn strip(tree: &mut GameTree) {
    for node in &mut tree.root.moves {
        let mut judged = false;
        let mut better: Vec<String> = Vec::new();
        node.comments.retain(|c| match engine_comment(c) {
            Some(b) => {
                judged = true;
                better.extend(b.map(str::to_string));
                false
            }
            None => true,
        });
        for c in &mut node.comments {
            if c.contains("[%eval") {
                *c = strip_eval(c);
            }
        }
        node.comments.retain(|c| !c.is_empty());
        if judged {
            // Ours is the last move-assessment NAG (a person's may come before it).
            if let Some(i) = node
                .nags
                .iter()
                .rposition(|&n| Judgement::from_nag(n).is_some())
            {
                node.nags.remove(i);
            }
            for san in better {
                let found = node.variations.iter().rposition(|v| {
                    v.moves
                        .first()
                        .is_some_and(|m| bare(m.san.as_str()) == bare(&san))
                });
                if let Some(i) = found {
                    node.variations.remove(i);
                }
            }
        }
    }
}

/// The judgement comment of a move: `(+0.39 → -1.24) Mistake. Better was O-O.`
pub fn judgement_comment(p: &super::game::PlyReport) -> Option<String> {
    let v = p.verdict?;
    let mut text = format!(
        "({} → {}) {}.",
        p.eval_before.human(),
        p.eval.human(),
        v.judgement.name()
    );
    if let Some(m) = v.mate {
        text.push(' ');
        text.push_str(m.description());
        text.push('.');
    }
    if let Some(b) = p.better() {
        text.push_str(&format!(" Better was {}.", p.before.san(b)));
    }
    Some(text)
}

/// Writes the analysis into the mainline (after [`strip`]).
pub fn apply(tree: &mut GameTree, report: &GameReport) {
    for (node, p) in tree.root.moves.iter_mut().zip(&report.plies) {
        let eval = format!("[%eval {}]", p.eval);
        let at = match node.comments.iter().position(|c| c.starts_with("[%")) {
            Some(i) => {
                node.comments[i] = format!("{eval} {}", node.comments[i]);
                i
            }
            None => {
                node.comments.insert(0, eval);
                0
            }
        };
        let Some(v) = p.verdict else { continue };
        // After a person's `?!`/`?`/`??` if there is one, unless it is the same.
        if node.nags.last() != Some(&v.judgement.nag()) {
            node.nags.push(v.judgement.nag());
        }
        if let Some(text) = judgement_comment(p) {
            node.comments.insert(at + 1, text);
        }
        if p.better().is_some() {
            node.variations.push(variation(p));
        }
    }
    if let Some(o) = &report.opening {
        if tree.tags.get("Opening").is_none() {
            tree.tags.set("Opening", &o.name);
        }
        if tree.tags.get("ECO").is_none() && !o.eco.is_empty() {
            tree.tags.set("ECO", &o.eco);
        }
    }
}

fn variation(p: &super::game::PlyReport) -> Line {
    let mut pos = p.before.clone();
    let mut line = Line::default();
    for &m in p.best.iter().take(VARIATION_PLIES) {
        if !pos.is_legal(m) {
            break;
        }
        line.moves.push(MoveNode {
            mv: m,
            san: pos.san_text(m),
            nags: Vec::new(),
            comments_before: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        });
        pos.make(m);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evals_come_out_of_comments() {
        assert_eq!(strip_eval("[%eval 0.35]"), "");
        assert_eq!(strip_eval("[%eval #-3] [%clk 0:01:02]"), "[%clk 0:01:02]");
        assert_eq!(strip_eval("good [%eval 1.2,22] move"), "good move");
    }

    #[test]
    fn a_second_pass_changes_nothing() {
        use super::super::eval::Eval;
        use sable_formats::pgn::PgnReader;
        let text = "1. e4 $6 {[%clk 0:03:00]} e5 2. Qh5 $1 {bold} Ke7 $2 3. Qxe5# 1-0\n";
        let mut tree = PgnReader::new(text.as_bytes())
            .read_tree()
            .unwrap()
            .unwrap();
        let mut evals = [0, -400, -400, -390, 1500].map(Eval::Cp).to_vec();
        evals.push(Eval::Checkmated(sable_chess::Color::Black));
        let start = tree.start.clone();
        let best = |san: &str| vec![start.parse_san(san).unwrap()];
        let lines = vec![best("d4"), vec![], vec![], vec![], vec![], vec![]];
        let report = GameReport::build(1, &tree, &evals, &lines, None);
        strip(&mut tree);
        apply(&mut tree, &report);
        let once = tree.clone();
        let e4 = &once.root.moves[0];
        // The person's ?! stays, the engine's ?? follows; the clock keeps its comment.
        assert_eq!(e4.nags, vec![6, 4]);
        assert_eq!(e4.comments[0], "[%eval -4.00] [%clk 0:03:00]");
        assert_eq!(e4.comments[1], "(+0.00 → -4.00) Blunder. Better was d4.");
        assert_eq!(e4.variations.len(), 1);
        assert_eq!(once.root.moves[4].comments[0], "[%eval #0]");
        assert_eq!(once.root.moves[3].nags, vec![2, 4]);
        let mut again = PgnReader::new(once.to_pgn().as_bytes())
            .read_tree()
            .unwrap()
            .unwrap();
        strip(&mut again);
        apply(&mut again, &report);
        assert_eq!(again.to_pgn(), once.to_pgn());
    }

    #[test]
    fn engine_comments_are_recognised() {
        assert_eq!(
            engine_comment("(+0.39 → -1.24) Mistake. Better was O-O."),
            Some(Some("O-O"))
        );
        assert_eq!(
            engine_comment("(0.39 → #-3) Checkmate is now unavoidable. Nf3 was best."),
            Some(Some("Nf3"))
        );
        assert_eq!(
            engine_comment("(+0.10 → #-2) Blunder. Checkmate is now unavoidable. Better was Kh1."),
            Some(Some("Kh1"))
        );
        assert_eq!(engine_comment("Inaccuracy."), Some(None));
        assert_eq!(engine_comment("A blunder. White resigns."), None);
        assert_eq!(
            engine_comment("Mistake. He should have played Nf3 here."),
            None
        );
        assert_eq!(engine_comment("Blunder"), None);
    }
}
