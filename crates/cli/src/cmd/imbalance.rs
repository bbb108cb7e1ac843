//! `sable imbalance`: measures what a material imbalance is worth by play. An engine
//! plays itself from generated positions carrying the imbalance (side A's material
//! against side B's, each side moving first in half of them), then again with side B
//! one pawn short, to calibrate a pawn in Elo; the imbalance is reported in pawns for
//! side A with a 95% error bar (delta method over the two independent runs).

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::{CliError, CliResult};
use sable_arena::adjudication::{DrawRule, ResignRule, Rules};
use sable_arena::engine::EngineConfig;
use sable_arena::game::GameRecord;
use sable_arena::imbalance::{position, Imbalance};
use sable_arena::options::{Kind, MatchOptions};
use sable_arena::referee::DEFAULT_STALL;
use sable_arena::stats::{elo, Wdl, Z95};
use sable_arena::tc::{ClockSpec, Limits};
use sable_arena::tournament::{self, OpeningSource};
use sable_chess::Color;

#[derive(clap::Args)]
pub struct Args {
    /// The imbalance: side A's pieces and side B's besides king and pawns, e.g.
    /// `QRR:RRBNN`, or a preset: qrr-rrbnn, qr-rbnn, q-bnn.
    imbalance: String,
    #[command(flatten)]
    engine: super::EngineArgs,
    /// Time control `[moves/]seconds[+increment]`.
    #[arg(long)]
    tc: Option<String>,
    /// Nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Positions per run; each is played with side A as White and as Black.
    #[arg(long, default_value_t = 50)]
    positions: u64,
    /// Random quiet plies played from the set-up position, for variety.
    #[arg(long, default_value_t = 4)]
    random_plies: usize,
    /// Games at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the games here (both runs).
    #[arg(long)]
    pgnout: Option<String>,
    /// Margin on the clock, in milliseconds.
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
}

/// Side A's results in one run, and the colour A had in each start position.
fn a_results(records: &[GameRecord], a_colors: &[Color]) -> Wdl {
    let mut r = Wdl::default();
    for g in records {
        match g.result.half_points(a_colors[g.opening % a_colors.len()]) {
            2 => r.wins += 1,
            1 => r.draws += 1,
            _ => r.losses += 1,
        }
    }
    r
}

/// The standard error of a score.
fn score_se(r: &Wdl) -> f64 {
    let s = r.score();
    let n = r.games() as f64;
    let var = (r.wins as f64 * (1.0 - s).powi(2)
        + r.draws as f64 * (0.5 - s).powi(2)
        + r.losses as f64 * s.powi(2))
        / n;
    (var / n).sqrt()
}

/// Elo of a result and its standard error (delta method: the score's standard error
/// times the slope of the Elo curve there, which stays finite near 0 % and 100 %).
fn elo_and_se(r: &Wdl) -> (f64, f64) {
    let s = r.score();
    let slope = 400.0 / (std::f64::consts::LN_10 * s * (1.0 - s));
    (elo(s), score_se(r) * slope)
}

pub fn run(args: Args) -> CliResult {
    let imb = Imbalance::parse(&args.imbalance).map_err(CliError::msg)?;
    let super::EngineCommand {
        program,
        args: words,
        options,
        protocol,
    } = args.engine.command()?;
    let limits = Limits {
        clock: match &args.tc {
            Some(t) => Some(ClockSpec::parse(t).map_err(|e| CliError::msg(e.to_string()))?),
            None => None,
        },
        nodes: args.nodes,
        depth: args.depth,
        movetime: None,
    };
    if limits.is_unbounded() {
        return Err(CliError::msg("give --tc, --nodes or --depth"));
    }
    if args.positions == 0 || args.concurrency == 0 {
        return Err(CliError::msg(
            "--positions and --concurrency must be at least 1",
        ));
    }
    let short = program.rsplit('/').next().unwrap_or(&program).to_string();
    let engine = |n: u32| EngineConfig {
        name: format!("{short}#{n}"),
        program: program.clone(),
        args: words.clone(),
        dir: None,
        protocol,
        options: options.clone(),
        limits,
        margin: Duration::from_millis(args.timemargin),
        stall: DEFAULT_STALL,
        debug: false,
        book: None,
    };
    let cancel = super::cancel_on_ctrlc("sable imbalance");

    let mut limit_text = Vec::new();
    if let Some(t) = &args.tc {
        limit_text.push(format!("tc={t}"));
    }
    if let Some(n) = args.nodes {
        limit_text.push(format!("nodes={n}"));
    }
    if let Some(d) = args.depth {
        limit_text.push(format!("depth={d}"));
    }
    println!(
        "Imbalance {} ({short}, {}, {} positions x 2 colours per run, seed {})",
        imb.name(),
        limit_text.join(" "),
        args.positions,
        args.seed
    );
    let mut runs = Vec::new();
    for calibrate in [false, true] {
        let mut list = Vec::new();
        let mut colors = Vec::new();
        let mut index = 0;
        while (list.len() as u64) < 2 * args.positions {
            for a in [Color::White, Color::Black] {
                // A position whose random plies end the game is skipped in both runs.
                if let Some(o) = position(&imb, args.seed, index, a, calibrate, args.random_plies) {
                    list.push(o);
                    colors.push(a);
                }
            }
            index += 1;
            if index > 100 * args.positions {
                return Err(CliError::msg("could not generate start positions"));
            }
        }
        let opts = MatchOptions {
            engines: vec![engine(1), engine(2)],
            kind: Kind::RoundRobin,
            rounds: list.len() as u32,
            games: 1,
            repeat: false,
            concurrency: args.concurrency,
            book: None,
            chess960: false,
            rules: Rules {
                draw: Some(DrawRule {
                    move_number: 40,
                    move_count: 8,
                    score: 10,
                }),
                resign: Some(ResignRule {
                    move_count: 3,
                    score: 1000,
                    two_sided: true,
                }),
                max_moves: Some(200),
            },
            sprt: None,
            pgn_out: args.pgnout.clone(),
            recover: true,
            seed: args.seed,
            rating_interval: 0,
            event: format!(
                "imbalance {}{}",
                imb.name(),
                if calibrate { ", B one pawn short" } else { "" }
            ),
            progress: true,
            game_lines: false,
        };
        let (standings, records) =
            tournament::run(&opts, &OpeningSource::List(list), cancel.clone(), true)
                .map_err(CliError::msg)?;
        if standings.total_faults() > 0 {
            eprint!("{}", standings.report());
        }
        if cancel.load(Ordering::SeqCst) {
            return Err(CliError::msg("interrupted"));
        }
        let r = a_results(&records, &colors);
        let (e, se) = elo_and_se(&r);
        let score_se = score_se(&r);
        println!(
            "  {}: side A +{} ={} -{}, score {:.1} %, Elo {:+.1} +/- {:.1}",
            if calibrate {
                "B one pawn short"
            } else {
                "as set up       "
            },
            r.wins,
            r.draws,
            r.losses,
            100.0 * r.score(),
            e,
            Z95 * se
        );
        runs.push((r.score(), score_se, (e, se)));
    }
    let ((s1, se1, e1), (s2, se2, e2)) = (runs[0], runs[1]);
    let side_a = imb.name().split(" vs ").next().unwrap_or("").to_string();
    // In score percentage, as the method is usually stated.
    let pawn = s2 - s1;
    if pawn <= 0.0 {
        return Err(CliError::msg(format!(
            "no calibration: a pawn changed side A's score by {:.1} %; play more or longer games",
            100.0 * pawn
        )));
    }
    let value = (s1 - 0.5) / pawn;
    let se =
        ((s2 - 0.5).powi(2) * se1.powi(2) + (s1 - 0.5).powi(2) * se2.powi(2)).sqrt() / pawn.powi(2);
    println!("  one pawn = {:.1} % score", 100.0 * pawn);
    println!(
        "Imbalance {}: {:+.2} +/- {:.2} pawns for side A ({side_a})",
        imb.name(),
        value,
        Z95 * se
    );
    // The same on the Elo scale, which does not saturate near 100 %.
    let ((e1, es1), (e2, es2)) = (e1, e2);
    let pawn_elo = e2 - e1;
    if pawn_elo.is_finite() && e1.is_finite() && pawn_elo > 0.0 {
        let v = e1 / pawn_elo;
        let se = ((e2 * es1).powi(2) + (e1 * es2).powi(2)).sqrt() / pawn_elo.powi(2);
        println!(
            "  on the Elo scale: one pawn = {pawn_elo:.1} Elo, imbalance {v:+.2} +/- {:.2} pawns",
            Z95 * se
        );
    }
    Ok(())
}
