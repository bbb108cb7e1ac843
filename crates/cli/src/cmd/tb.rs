//! `sable tb`: Syzygy tables from the command line. `probe` prints a position's WDL and
//! DTZ and every legal move's, best first, as the tools that come with the tables do;
//! `speed` measures probes per second on random positions of the tables present.

use super::{CliError, CliResult};
use sable_arena::rng::splitmix;
use sable_chess::{CastlingMode, Color, Piece, Position, Role, Setup};
use sable_engine::tablebase::{TableIo, Tablebases, Wdl};
use std::time::Instant;

#[derive(clap::Subcommand)]
pub enum Action {
    /// WDL and DTZ of a position, and of every legal move.
    Probe {
        /// The position (FEN).
        #[arg(long)]
        fen: String,
        /// Folders of tables, separated by ':' (';' on Windows); default $SYZYGY_PATH.
        #[arg(long)]
        path: Option<String>,
        /// Ignore the 50-move rule (cursed wins are wins).
        #[arg(long)]
        no_rule50: bool,
    },
    /// Probes per second (WDL and DTZ) over random legal positions of the tables present.
    Speed {
        #[arg(long)]
        path: Option<String>,
        /// Positions to probe.
        #[arg(long, default_value_t = 200_000)]
        positions: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also time the same probes with `pread` instead of memory maps, in the same run.
        #[arg(long)]
        compare: bool,
    },
}

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

pub fn run(args: Args) -> CliResult {
    match args.action {
        Action::Probe {
            fen,
            path,
            no_rule50,
        } => {
            let tb = open(path)?;
            let pos = Position::from_fen(&fen, CastlingMode::Standard)?;
            print!("{}", probe_report(&tb, &pos, !no_rule50)?);
            Ok(())
        }
        Action::Speed {
            path,
            positions,
            seed,
            compare,
        } => {
            let path = path.or_else(|| std::env::var("SYZYGY_PATH").ok());
            speed(&open(path.clone())?, "mmap", positions, seed)?;
            if compare {
                let path = path.unwrap_or_default();
                let (tb, _) = Tablebases::open_with(&path, TableIo::Pread)
                    .map_err(|e| CliError::msg(e.to_string()))?;
                speed(&tb, "pread", positions, seed)?;
            }
            Ok(())
        }
    }
}

fn open(path: Option<String>) -> Result<Tablebases, CliError> {
    let path = path
        .or_else(|| std::env::var("SYZYGY_PATH").ok())
        .ok_or_else(|| CliError::msg("no tables: give --path DIR (or set SYZYGY_PATH)"))?;
    let (tb, notes) = Tablebases::open(&path).map_err(|e| CliError::msg(e.to_string()))?;
    for n in notes {
        eprintln!("warning: {n}");
    }
    Ok(tb)
}

/// The text `sable tb probe` prints.
pub fn probe_report(tb: &Tablebases, pos: &Position, rule50: bool) -> Result<String, CliError> {
    let pieces = pos.occupied().count();
    if !pos.castling().is_empty() {
        return Err(CliError::msg(
            "positions with castling rights are not in the tables",
        ));
    }
    let not_in = || {
        CliError::msg(format!(
            "not in the tables ({pieces} pieces; these go up to {})",
            tb.max_pieces()
        ))
    };
    let wdl = tb.probe_wdl(pos).or_else(|| {
        // WDL tables alone: the stored result.
        if tb.files().1 == 0 && pos.halfmoves() == 0 {
            tb.probe_wdl_after_zeroing(pos)
        } else {
            None
        }
    });
    let wdl = wdl.ok_or_else(not_in)?;
    let wdl = if rule50 { wdl } else { wdl.without_rule50() };
    let dtz = tb.probe_dtz(pos);
    let moves: Vec<_> = pos.legal_moves().iter().copied().collect();
    let mut out = format!("{}\n", pos.fen());
    out.push_str(&format!(
        "WDL {:+} ({}), DTZ {}\n",
        wdl.value(),
        wdl.name(),
        dtz.map_or("-".to_string(), |d| format!("{d:+}"))
    ));
    if moves.is_empty() {
        out.push_str("no legal move\n");
        return Ok(out);
    }
    let mut results = tb.move_results(pos, &moves, rule50).ok_or_else(not_in)?;
    results.sort_by_key(|r| {
        let d = r.dtz.unwrap_or(0);
        (
            std::cmp::Reverse(r.wdl),
            if r.mate {
                i32::MIN
            } else if d > 0 {
                d
            } else {
                -d.abs()
            },
        )
    });
    out.push_str("move     WDL               DTZ\n");
    for r in results {
        let w = if rule50 {
            r.wdl
        } else {
            r.wdl.without_rule50()
        };
        let dtz = match (r.mate, r.dtz) {
            (true, _) => "mate".to_string(),
            (false, Some(d)) => format!("{d:+}"),
            (false, None) => "-".to_string(),
        };
        out.push_str(&format!(
            "{:<8} {:+} {:<14} {}\n",
            pos.san(r.mv),
            w.value(),
            w.name(),
            dtz
        ));
    }
    Ok(out)
}

/// Random legal positions whose material has a table: kings and up to two other pieces.
fn random_positions(tb: &Tablebases, n: usize, seed: u64) -> Vec<Position> {
    const ROLES: [Role; 5] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];
    let mut state = seed;
    let mut out = Vec::with_capacity(n);
    let extra_max = tb.max_pieces().saturating_sub(2).min(5);
    let mut tries = 0usize;
    while out.len() < n && tries < n * 50 {
        tries += 1;
        let extra = 1 + (splitmix(&mut state) as usize) % extra_max.max(1);
        let mut setup = Setup {
            board: [None; 64],
            turn: Color::White,
            castling: Vec::new(),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        };
        // Same draws in the same order as ever: the kings' squares, then each piece's
        // role, colour and square, then the side to move.
        let mut place = |piece: Piece, state: &mut u64| loop {
            let sq = (splitmix(state) % 64) as usize;
            if setup.board[sq].is_none() {
                setup.board[sq] = Some(piece);
                break;
            }
        };
        place(Piece::new(Color::White, Role::King), &mut state);
        place(Piece::new(Color::Black, Role::King), &mut state);
        for _ in 0..extra {
            let role = ROLES[(splitmix(&mut state) % 5) as usize];
            let color = Color::ALL[(splitmix(&mut state) & 1) as usize];
            place(Piece::new(color, role), &mut state);
        }
        setup.turn = Color::ALL[(splitmix(&mut state) & 1) as usize];
        if let Ok(pos) = Position::from_setup(&setup, CastlingMode::Standard) {
            if tb.probe_wdl_after_zeroing(&pos).is_some() {
                out.push(pos);
            }
        }
    }
    out
}

fn speed(tb: &Tablebases, io: &str, n: usize, seed: u64) -> CliResult {
    let positions = random_positions(tb, n, seed);
    // Every table the positions need is opened before the clock starts.
    for p in &positions {
        let _ = tb.probe_dtz(p);
    }
    if positions.is_empty() {
        return Err(CliError::msg(
            "no position of these tables could be generated",
        ));
    }
    let count = positions.len() as f64;
    let t = Instant::now();
    let mut wins = 0usize;
    for p in &positions {
        if tb.probe_wdl_after_zeroing(p) == Some(Wdl::Win) {
            wins += 1;
        }
    }
    let wdl_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut found = 0usize;
    for p in &positions {
        if tb.probe_dtz(p).is_some() {
            found += 1;
        }
    }
    let dtz_s = t.elapsed().as_secs_f64();
    println!(
        "{io}: {} positions ({} WDL wins, {} DTZ answers): WDL {:.0} probes/s, DTZ {:.0} probes/s",
        positions.len(),
        wins,
        found,
        count / wdl_s,
        count / dtz_s
    );
    Ok(())
}
