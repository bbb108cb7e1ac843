//! The HTML reports: one self-contained page per game (inline CSS and SVG, no script, no
//! network) and an index of the games of a run.

use super::game::GameReport;
use super::judge::Judgement;
use super::svg::{colour, escape, eval_graph, moment_board};
use sable_chess::Color;
use std::fmt::Write;

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:24px auto;max-width:900px;color:#222;background:#fafafa;padding:0 16px}\
h1{font-size:1.5em;margin:0 0 4px}h2{font-size:1.15em;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}\
.meta{color:#666;margin:0 0 16px}table{border-collapse:collapse;background:#fff}\
td,th{border:1px solid #ddd;padding:5px 10px;text-align:right}th{background:#f0f0f0}td:first-child,th:first-child,.l{text-align:left}\
.graph svg{max-width:100%;height:auto;background:#fff;border:1px solid #ddd}\
.moment{display:flex;gap:18px;align-items:flex-start;background:#fff;border:1px solid #ddd;padding:12px;margin:0 0 12px}\
.moment p{margin:4px 0}.tag{display:inline-block;color:#fff;border-radius:3px;padding:1px 6px;font-size:.85em}\
.moves{line-height:1.9;background:#fff;border:1px solid #ddd;padding:10px}.moves span{white-space:nowrap;margin-right:6px}\
.ev{color:#888;font-size:.8em}a{color:#1b5fa8}";

fn pct(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{v:.1}%"))
}

fn int(v: Option<i32>) -> String {
    v.map_or("–".into(), |v| v.to_string())
}

fn opening_text(g: &GameReport) -> String {
    match &g.opening {
        Some(o) if o.eco.is_empty() => o.name.clone(),
        Some(o) if o.name.is_empty() => o.eco.clone(),
        Some(o) => format!("{} {}", o.eco, o.name),
        None => "unknown".into(),
    }
}

fn tag(j: Judgement) -> String {
    format!(
        r#"<span class="tag" style="background:{}">{}</span>"#,
        colour(j),
        j.name()
    )
}

/// The page of one game.
pub fn game_page(g: &GameReport, engine: &str) -> String {
    let mut s = String::new();
    let title = format!("{} – {}", g.white, g.black);
    let _ = write!(
        s,
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{}</title><style>{STYLE}</style></head><body>"#,
        escape(&title)
    );
    let _ = write!(
        s,
        r#"<h1>{} <small>{}</small></h1><p class="meta">{} · {} · {} · analysed by {}</p>"#,
        escape(&title),
        escape(&g.result),
        escape(&g.event),
        escape(&g.date),
        escape(&opening_text(g)),
        escape(engine)
    );
    s.push_str("<table><tr><th>Player</th><th>Accuracy</th><th>ACPL</th><th>Inaccuracies</th><th>Mistakes</th><th>Blunders</th></tr>");
    for (side, name) in [(Color::White, &g.white), (Color::Black, &g.black)] {
        let i = side.index();
        let _ = write!(
            s,
            "<tr><td>{} ({})</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(name),
            if side == Color::White {
                "White"
            } else {
                "Black"
            },
            pct(g.accuracy[i]),
            int(g.acpl[i]),
            g.counts[i][0],
            g.counts[i][1],
            g.counts[i][2]
        );
    }
    s.push_str("</table>");
    let _ = write!(
        s,
        r#"<h2>Evaluation</h2><div class="graph">{}</div><p class="meta">White's winning chances after each move (lichess's win%); the graph alone: <a href="game-{:04}-graph.svg">SVG</a>, <a href="game-{:04}-graph.png">PNG</a></p>"#,
        eval_graph(g),
        g.number,
        g.number
    );
    s.push_str("<h2>Critical moments</h2>");
    let mut any = false;
    for p in g.critical() {
        any = true;
        let j = p.judgement().expect("critical moves are judged");
        let _ = write!(
            s,
            r#"<div class="moment" id="ply{}">{}<div><p><b>{} {}{}</b> {}</p><p>Evaluation {} → {}</p><p>Move accuracy {:.0}%, {} centipawns lost</p>"#,
            p.ply,
            moment_board(p),
            p.number_text(),
            escape(&p.san),
            j.symbol(),
            tag(j),
            p.eval_before.human(),
            p.eval.human(),
            p.accuracy,
            p.cp_loss
        );
        if let Some(m) = p.verdict.and_then(|v| v.mate) {
            let _ = write!(s, "<p>{}.</p>", m.description());
        }
        if let Some(b) = p.better() {
            let line = p.best_san(super::annotate::VARIATION_PLIES);
            let _ = write!(
                s,
                "<p>Better was <b>{}</b></p><p>Line: {}</p>",
                escape(&p.before.san(b)),
                escape(&line.join(" "))
            );
        }
        s.push_str("</div></div>");
    }
    if !any {
        s.push_str("<p>No mistakes or blunders.</p>");
    }
    s.push_str(r#"<h2>Moves</h2><div class="moves">"#);
    for p in &g.plies {
        let mark = match p.judgement() {
            Some(j) => format!(
                r#"<b style="color:{}">{}{}</b>"#,
                colour(j),
                escape(&p.san),
                j.symbol()
            ),
            None => escape(&p.san),
        };
        let _ = write!(
            s,
            r#"<span title="accuracy {:.0}%, {} cp lost">{} {mark} <span class="ev">{}</span></span> "#,
            p.accuracy,
            p.cp_loss,
            if p.mover == Color::White || p.ply == 1 {
                p.number_text()
            } else {
                String::new()
            },
            p.eval
        );
    }
    s.push_str("</div></body></html>\n");
    s
}

/// One row of the index: the totals of a game, without its moves (an index of
/// thousands of games stays small).
pub struct IndexRow {
    pub number: usize,
    pub white: String,
    pub black: String,
    pub result: String,
    pub opening: String,
    pub moves: usize,
    pub accuracy: [Option<f64>; 2],
    pub acpl: [Option<i32>; 2],
    pub counts: [[usize; 3]; 2],
    /// The game's page.
    pub file: String,
}

impl IndexRow {
    pub fn new(g: &GameReport, file: String) -> IndexRow {
        IndexRow {
            number: g.number,
            white: g.white.clone(),
            black: g.black.clone(),
            result: g.result.clone(),
            opening: opening_text(g),
            moves: g.plies.len().div_ceil(2),
            accuracy: g.accuracy,
            acpl: g.acpl,
            counts: g.counts,
            file,
        }
    }
}

/// The summary page of a run.
pub fn index_page(source: &str, rows: &[IndexRow], skipped: &[String], engine: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Analysis of {0}</title><style>{STYLE}</style></head><body><h1>Analysis of {0}</h1><p class="meta">{1} games analysed by {2}, {3} skipped</p>"#,
        escape(source),
        rows.len(),
        escape(engine),
        skipped.len()
    );
    s.push_str(r#"<table><tr><th>#</th><th class="l">White</th><th class="l">Black</th><th class="l">Result</th><th class="l">Opening</th><th>Moves</th><th>Accuracy W / B</th><th>ACPL W / B</th><th>White ?!/?/??</th><th>Black ?!/?/??</th></tr>"#);
    for g in rows {
        let _ = write!(
            s,
            r#"<tr><td><a href="{}">{}</a></td><td class="l">{}</td><td class="l">{}</td><td class="l">{}</td><td class="l">{}</td><td>{}</td><td>{} / {}</td><td>{} / {}</td><td>{}/{}/{}</td><td>{}/{}/{}</td></tr>"#,
            escape(&g.file),
            g.number,
            escape(&g.white),
            escape(&g.black),
            escape(&g.result),
            escape(&g.opening),
            g.moves,
            pct(g.accuracy[0]),
            pct(g.accuracy[1]),
            int(g.acpl[0]),
            int(g.acpl[1]),
            g.counts[0][0],
            g.counts[0][1],
            g.counts[0][2],
            g.counts[1][0],
            g.counts[1][1],
            g.counts[1][2]
        );
    }
    s.push_str("</table>");
    if !skipped.is_empty() {
        s.push_str("<h2>Skipped games</h2><ul>");
        for e in skipped {
            let _ = write!(s, "<li>{}</li>", escape(e));
        }
        s.push_str("</ul>");
    }
    s.push_str("</body></html>\n");
    s
}
