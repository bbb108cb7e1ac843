//! SVG drawings written by hand: the evaluation graph and board diagrams.
//!
//! Hand-written rather than with `plotters`: the graph is one polygon, a midline, a few
//! labels and a marker per judged move, which is less code than configuring a plotting
//! crate, adds no dependency (the build has no network for new crates), and gives exact
//! control of the markup so the report stays one self-contained file. Pieces are the
//! Unicode chess glyphs (U+265A–U+265F, the filled set for both colours: White's filled
//! white and outlined), drawn by whatever font the viewer has; no external asset.

use super::game::{GameReport, PlyReport};
use super::judge::Judgement;
use super::winprob::win_percent;
use sable_chess::{Color, Move, Position, Role, Square};
use std::fmt::Write;

/// lichess's colours for the judgements.
pub fn colour(j: Judgement) -> &'static str {
    match j {
        Judgement::Inaccuracy => "#56b4e9",
        Judgement::Mistake => "#e69f00",
        Judgement::Blunder => "#db3031",
    }
}

/// Escapes text for XML and HTML.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub const GRAPH_W: f64 = 800.0;
pub const GRAPH_H: f64 = 240.0;

/// The evaluation graph: White's win% after each ply (the start at the left), White's
/// share light, Black's dark, a dot on each judged move, move numbers below.
pub fn eval_graph(game: &GameReport) -> String {
    let (left, right, top, bottom) = (34.0, 10.0, 10.0, 22.0);
    let (w, h) = (GRAPH_W - left - right, GRAPH_H - top - bottom);
    let n = game.plies.len().max(1) as f64;
    let x = |i: usize| left + w * i as f64 / n;
    let y = |win: f64| top + h * (1.0 - win / 100.0);
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {GRAPH_W} {GRAPH_H}" width="{GRAPH_W}" height="{GRAPH_H}" font-family="sans-serif" font-size="11" role="img" aria-label="Evaluation graph">"##
    );
    let _ = write!(
        s,
        r##"<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="#3b3b3b"/>"##
    );
    let mut points = format!("{:.1},{:.1}", x(0), y(0.0));
    let mut wins = vec![win_percent(game.start_eval)];
    wins.extend(game.plies.iter().map(|p| win_percent(p.eval)));
    for (i, win) in wins.iter().enumerate() {
        let _ = write!(points, " {:.1},{:.1}", x(i), y(*win));
    }
    let _ = write!(points, " {:.1},{:.1}", x(wins.len() - 1), y(0.0));
    let _ = write!(
        s,
        r##"<polygon points="{points}" fill="#ececec" stroke="#9a9a9a" stroke-width="1"/>"##
    );
    let _ = write!(
        s,
        r##"<line x1="{left}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="#888" stroke-dasharray="4 3"/>"##,
        y(50.0),
        left + w
    );
    for (label, win) in [("W", 100.0), ("=", 50.0), ("B", 0.0)] {
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" dominant-baseline="middle" fill="#444">{label}</text>"##,
            left - 6.0,
            y(win)
        );
    }
    let last_move = game.plies.last().map_or(1, |p| p.number);
    let first_move = game.plies.first().map_or(1, |p| p.number);
    let step = [1, 2, 5, 10, 20, 50, 100]
        .into_iter()
        .find(|s| (last_move - first_move + 1) / s <= 16)
        .unwrap_or(200);
    for p in game.plies.iter().filter(|p| p.mover == game.start.turn()) {
        if p.number % step == 0 {
            let _ = write!(
                s,
                r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#444">{}</text>"##,
                x(p.ply - 1),
                GRAPH_H - 6.0,
                p.number
            );
        }
    }
    for p in &game.plies {
        let Some(j) = p.judgement() else { continue };
        // Mistakes and blunders link to their board on the game's page.
        let critical = j >= Judgement::Mistake;
        if critical {
            let _ = write!(s, r##"<a href="#ply{}">"##, p.ply);
        }
        let _ = write!(
            s,
            r##"<circle cx="{:.1}" cy="{:.1}" r="4.5" fill="{}" stroke="#fff" stroke-width="1.5"><title>{} {}{} {} ({} → {})</title></circle>"##,
            x(p.ply),
            y(win_percent(p.eval)),
            colour(j),
            p.number_text(),
            escape(&p.san),
            j.symbol(),
            j.name(),
            p.eval_before.human(),
            p.eval.human()
        );
        if critical {
            s.push_str("</a>");
        }
    }
    s.push_str("</svg>");
    s
}

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";

fn glyph(role: Role) -> &'static str {
    match role {
        Role::King => "\u{265A}",
        Role::Queen => "\u{265B}",
        Role::Rook => "\u{265C}",
        Role::Bishop => "\u{265D}",
        Role::Knight => "\u{265E}",
        Role::Pawn => "\u{265F}\u{FE0E}",
    }
}

/// The squares a move goes from and to, as a person sees it (castling: the king's).
fn squares(m: Move) -> (Square, Square) {
    if m.is_castle() {
        (m.from(), m.castle_king_to())
    } else {
        (m.from(), m.to())
    }
}

/// A board diagram of `pos` seen from `side`, with the move played (red) and the better
/// move (green) as arrows.
pub fn board(pos: &Position, side: Color, played: Option<Move>, better: Option<Move>) -> String {
    const SQ: f64 = 40.0;
    const MARGIN: f64 = 14.0;
    let size = SQ * 8.0 + MARGIN;
    let centre = |sq: Square| -> (f64, f64) {
        let (f, r) = (sq.file().index() as f64, sq.rank().index() as f64);
        let (f, r) = if side == Color::White {
            (f, 7.0 - r)
        } else {
            (7.0 - f, r)
        };
        (MARGIN + f * SQ + SQ / 2.0, r * SQ + SQ / 2.0)
    };
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" height="{size}" font-family="'DejaVu Sans','Noto Sans Symbols 2','Segoe UI Symbol',sans-serif" class="board">"##
    );
    for sq in Square::all() {
        let (cx, cy) = centre(sq);
        let fill = if sq.is_dark() { DARK } else { LIGHT };
        let _ = write!(
            s,
            r##"<rect x="{:.0}" y="{:.0}" width="{SQ}" height="{SQ}" fill="{fill}"/>"##,
            cx - SQ / 2.0,
            cy - SQ / 2.0
        );
    }
    for (m, tint) in [
        (played, "rgba(219,48,49,0.35)"),
        (better, "rgba(40,160,70,0.35)"),
    ] {
        if let Some(m) = m {
            let (from, to) = squares(m);
            for sq in [from, to] {
                let (cx, cy) = centre(sq);
                let _ = write!(
                    s,
                    r##"<rect x="{:.0}" y="{:.0}" width="{SQ}" height="{SQ}" fill="{tint}"/>"##,
                    cx - SQ / 2.0,
                    cy - SQ / 2.0
                );
            }
        }
    }
    for sq in Square::all() {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let (cx, cy) = centre(sq);
        let paint = if piece.color() == Color::White {
            r##"fill="#fff" stroke="#000" stroke-width="1.1""##
        } else {
            r##"fill="#111" stroke="#111" stroke-width="0.6""##
        };
        let _ = write!(
            s,
            r##"<text x="{cx:.1}" y="{:.1}" font-size="33" text-anchor="middle" dominant-baseline="central" {paint}>{}</text>"##,
            cy + 1.5,
            glyph(piece.role())
        );
    }
    for i in 0..8 {
        let (file, rank) = if side == Color::White {
            (i, 7 - i)
        } else {
            (7 - i, i)
        };
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#555">{}</text><text x="{:.1}" y="{:.1}" font-size="10" text-anchor="middle" dominant-baseline="central" fill="#555">{}</text>"##,
            MARGIN + i as f64 * SQ + SQ / 2.0,
            SQ * 8.0 + 11.0,
            (b'a' + file as u8) as char,
            MARGIN / 2.0,
            i as f64 * SQ + SQ / 2.0,
            (b'1' + rank as u8) as char,
        );
    }
    for (m, colour) in [(better, "#1e8c3c"), (played, "#c62828")] {
        if let Some(m) = m {
            let (from, to) = squares(m);
            s.push_str(&arrow(centre(from), centre(to), colour));
        }
    }
    s.push_str("</svg>");
    s
}

/// An arrow from one square's centre to another's, its head drawn as a polygon (no
/// `marker` ids, which would clash between several boards on one page).
fn arrow((x1, y1): (f64, f64), (x2, y2): (f64, f64), colour: &str) -> String {
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let head = 14.0;
    let (bx, by) = (x2 - ux * head, y2 - uy * head);
    let (px, py) = (-uy * 8.0, ux * 8.0);
    format!(
        r##"<g opacity="0.8"><line x1="{x1:.1}" y1="{y1:.1}" x2="{bx:.1}" y2="{by:.1}" stroke="{colour}" stroke-width="6" stroke-linecap="round"/><polygon points="{x2:.1},{y2:.1} {:.1},{:.1} {:.1},{:.1}" fill="{colour}"/></g>"##,
        bx + px,
        by + py,
        bx - px,
        by - py
    )
}

/// The board of a critical moment, seen from the mover's side.
pub fn moment_board(p: &PlyReport) -> String {
    board(&p.before, p.mover, Some(p.mv), p.better())
}
