//! The running standings of a match: per encounter wins/draws/losses and pentanomial
//! pair counts, per engine the faults (time losses, illegal moves, crashes, stalls),
//! the SPRT state, the progress bar, and the final report.

use std::collections::HashMap;

use indicatif::{ProgressBar, ProgressStyle};
use sable_chess::Color;

use super::game::{GameRecord, Termination};
use super::options::MatchOptions;
use super::schedule::pairings;
use super::sprt::{Decision, SprtSpec};
use super::stats::{
    elo_pentanomial, elo_trinomial, los, nelo_pentanomial, nelo_trinomial, Penta, Wdl,
};

/// Faults counted per engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    pub time_losses: u64,
    pub illegal_moves: u64,
    pub crashes: u64,
    pub stalls: u64,
}

pub struct Standings {
    names: Vec<String>,
    pairs: Vec<(usize, usize)>,
    /// Per encounter, from the first engine's side.
    pub wdl: Vec<Wdl>,
    pub penta: Vec<Penta>,
    /// First game of a pair, waiting for the second: (encounter, opening seq) -> points x2.
    pending: HashMap<(usize, usize), u32>,
    pub faults: Vec<Faults>,
    paired: bool,
    sprt: Option<SprtSpec>,
    pub decision: Decision,
    pub llr: f64,
    pub games: u64,
    total: usize,
    interval: u32,
    progress: ProgressBar,
    game_lines: bool,
    pub terminations: HashMap<String, u64>,
}

impl Standings {
    pub fn new(opts: &MatchOptions, total: usize) -> Standings {
        let pairs = pairings(opts.engines.len(), opts.kind);
        let progress = if opts.progress {
            let pb = ProgressBar::new(total as u64);
            pb.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed_precise} {msg}")
                    .expect("a valid template"),
            );
            pb
        } else {
            ProgressBar::hidden()
        };
        Standings {
            names: opts.engines.iter().map(|e| e.name.clone()).collect(),
            wdl: vec![Wdl::default(); pairs.len()],
            penta: vec![Penta::default(); pairs.len()],
            pairs,
            pending: HashMap::new(),
            faults: vec![Faults::default(); opts.engines.len()],
            paired: opts.repeat && opts.games.is_multiple_of(2),
            sprt: opts.sprt,
            decision: Decision::Continue,
            llr: 0.0,
            games: 0,
            total,
            interval: opts.rating_interval,
            progress,
            game_lines: opts.game_lines,
            terminations: HashMap::new(),
        }
    }

    fn say(&self, line: &str) {
        if self.progress.is_hidden() {
            println!("{line}");
        } else {
            self.progress.println(line);
        }
    }

    /// Counts a finished game; returns the SPRT's decision so far.
    pub fn add(&mut self, g: &GameRecord) -> Decision {
        self.games += 1;
        let key = (g.white.min(g.black), g.white.max(g.black));
        let Some(p) = self.pairs.iter().position(|&k| k == key) else {
            return self.decision;
        };
        let first_is_white = self.pairs[p].0 == g.white;
        let first_colour = if first_is_white {
            Color::White
        } else {
            Color::Black
        };
        let half = g.result.half_points(first_colour);
        match half {
            2 => self.wdl[p].wins += 1,
            1 => self.wdl[p].draws += 1,
            _ => self.wdl[p].losses += 1,
        }
        if self.paired {
            let k = (p, g.opening);
            match self.pending.remove(&k) {
                Some(h) => self.penta[p].0[(h + half) as usize] += 1,
                None => {
                    self.pending.insert(k, half);
                }
            }
        }
        if let Some((loser, t)) = g.fault() {
            let f = &mut self.faults[loser];
            match t {
                Termination::TimeForfeit => f.time_losses += 1,
                Termination::IllegalMove => f.illegal_moves += 1,
                Termination::Abandoned => f.crashes += 1,
                Termination::Stalled => f.stalls += 1,
                _ => {}
            }
        }
        *self.terminations.entry(g.reason.clone()).or_insert(0) += 1;
        if self.game_lines {
            self.say(&format!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                g.number,
                g.white_name,
                g.black_name,
                g.result.pgn(),
                g.reason
            ));
        }
        if let Some(s) = self.sprt {
            self.llr = if self.paired {
                s.llr_pentanomial(&self.penta[0])
            } else {
                s.llr_trinomial(&self.wdl[0])
            };
            self.decision = s.decide(self.llr);
        }
        self.progress.inc(1);
        self.progress.set_message(self.short_line(0));
        if self.interval > 0
            && self.games.is_multiple_of(self.interval as u64)
            && (self.games as usize) < self.total
        {
            self.say(&self.score_lines());
        }
        self.decision
    }

    fn short_line(&self, p: usize) -> String {
        let r = &self.wdl[p];
        let (a, b) = self.pairs[p];
        let mut s = format!(
            "{} vs {}: +{} ={} -{}",
            self.names[a], self.names[b], r.wins, r.draws, r.losses
        );
        if r.games() > 0 {
            let e = elo_trinomial(r);
            if e.elo.is_finite() {
                s.push_str(&format!(" Elo {:.1}", e.elo));
            }
        }
        if self.sprt.is_some() {
            s.push_str(&format!(" LLR {:.2}", self.llr));
        }
        s
    }

    /// The cutechess-style score lines for every encounter.
    pub fn score_lines(&self) -> String {
        let mut out = Vec::new();
        for (p, r) in self.wdl.iter().enumerate() {
            if r.games() == 0 {
                continue;
            }
            let (a, b) = self.pairs[p];
            out.push(format!(
                "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
                self.names[a],
                self.names[b],
                r.wins,
                r.losses,
                r.draws,
                r.score(),
                r.games()
            ));
        }
        out.join("\n")
    }

    pub fn finish(&self) {
        self.progress.finish_and_clear();
    }

    /// The final report: per encounter the results and statistics, per engine the faults.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let fmt = |x: f64| {
            if x.is_finite() {
                format!("{x:.2}")
            } else if x.is_nan() {
                "n/a".to_string()
            } else if x > 0.0 {
                "inf".to_string()
            } else {
                "-inf".to_string()
            }
        };
        for (p, r) in self.wdl.iter().enumerate() {
            let (a, b) = self.pairs[p];
            out.push_str(&format!(
                "Results of {} vs {}:\n",
                self.names[a], self.names[b]
            ));
            if r.games() == 0 {
                out.push_str("  no games finished\n");
                continue;
            }
            let pen = &self.penta[p];
            let (elo, nelo) = if self.paired && pen.pairs() > 0 {
                (elo_pentanomial(pen), nelo_pentanomial(pen))
            } else {
                (elo_trinomial(r), nelo_trinomial(r))
            };
            out.push_str(&format!(
                "  Elo: {} +/- {}, nElo: {} +/- {}\n",
                fmt(elo.elo),
                fmt(elo.error),
                fmt(nelo.elo),
                fmt(nelo.error)
            ));
            out.push_str(&format!(
                "  LOS: {:.2} %, DrawRatio: {:.2} %\n",
                los(r) * 100.0,
                r.draw_ratio() * 100.0
            ));
            out.push_str(&format!(
                "  Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)\n",
                r.games(),
                r.wins,
                r.losses,
                r.draws,
                r.wins as f64 + r.draws as f64 / 2.0,
                r.score() * 100.0
            ));
            if self.paired {
                out.push_str(&format!("  Ptnml(0-2): {:?}\n", pen.0));
            }
            if p == 0 {
                if let Some(s) = self.sprt {
                    let (lo, hi) = s.bounds();
                    let verdict = match self.decision {
                        Decision::Accept => " - H1 was accepted",
                        Decision::Reject => " - H0 was accepted",
                        Decision::Continue => "",
                    };
                    out.push_str(&format!(
                        "  LLR: {:.2} ({:.2}, {:.2}) [{:.2}, {:.2}]{verdict}\n",
                        self.llr, lo, hi, s.elo0, s.elo1
                    ));
                }
            }
        }
        if self.names.len() > 2 {
            out.push_str(&self.table());
        }
        out.push_str("Faults (losses by time / illegal move / crash / stall):\n");
        for (i, f) in self.faults.iter().enumerate() {
            out.push_str(&format!(
                "  {}: {} / {} / {} / {}\n",
                self.names[i], f.time_losses, f.illegal_moves, f.crashes, f.stalls
            ));
        }
        let mut ends: Vec<(&String, &u64)> = self.terminations.iter().collect();
        ends.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        out.push_str("Game endings:\n");
        for (reason, n) in ends {
            out.push_str(&format!("  {n:>5}  {reason}\n"));
        }
        out
    }

    /// Each engine's results against the field, best first (gauntlets, round robins).
    fn table(&self) -> String {
        let mut rows: Vec<(usize, Wdl)> = (0..self.names.len())
            .map(|e| {
                let mut t = Wdl::default();
                for (p, r) in self.wdl.iter().enumerate() {
                    let r = match self.pairs[p] {
                        (a, _) if a == e => *r,
                        (_, b) if b == e => Wdl {
                            wins: r.losses,
                            draws: r.draws,
                            losses: r.wins,
                        },
                        _ => continue,
                    };
                    t.wins += r.wins;
                    t.draws += r.draws;
                    t.losses += r.losses;
                }
                (e, t)
            })
            .filter(|(_, t)| t.games() > 0)
            .collect();
        rows.sort_by(|a, b| b.1.score().total_cmp(&a.1.score()));
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
        let mut out = format!(
            "Rank {:<width$} {:>8} {:>8} {:>6} {:>7} {:>6}\n",
            "Name", "Elo", "+/-", "Games", "Score", "Draw"
        );
        for (rank, (e, t)) in rows.iter().enumerate() {
            let est = elo_trinomial(t);
            let num = |x: f64| {
                if x.is_nan() {
                    "n/a".to_string()
                } else {
                    format!("{:.1}", x + 0.0)
                }
            };
            out.push_str(&format!(
                "{:>4} {:<width$} {:>8} {:>8} {:>6} {:>6.1}% {:>5.1}%\n",
                rank + 1,
                self.names[*e],
                num(est.elo),
                num(est.error),
                t.games(),
                100.0 * t.score(),
                100.0 * t.draw_ratio()
            ));
        }
        out
    }

    /// Total faults of all engines (for `-strict` style checks).
    pub fn total_faults(&self) -> u64 {
        self.faults
            .iter()
            .map(|f| f.time_losses + f.illegal_moves + f.crashes + f.stalls)
            .sum()
    }
}
