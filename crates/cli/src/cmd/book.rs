//! `sable book`: opening books in the Polyglot format.
//!
//! * `build PGN... -o BOOK.bin`: `polyglot make-book` with the same options and the same
//!   entries (see `sable_formats::book::make` for the rules), plus filters by Elo, result
//!   and time control; streaming with a progress bar, in bounded memory (`--memory`).
//! * `probe BOOK.bin [--fen FEN]`: a position's moves (SAN, UCI, weight, share, learn).
//! * `merge A.bin B.bin -o C.bin [--rule sum|max|first]`: `polyglot merge-book`'s rule
//!   (see `sable_formats::book::edit`).
//! * `stats BOOK.bin`: positions, entries, moves per position, the depth profile of the
//!   positions reached from the start by book moves, and entries per weight bucket.
//! * `learn BOOK.bin GAMES.pgn`: moves weights and learn values by the games' results,
//!   written back atomically.

use super::{CliError, CliResult};
use indicatif::{ProgressBar, ProgressStyle};
use sable_chess::{CastlingMode, Position, SanMode};
use sable_formats::book::edit::{learn_game, merge, MergeRule};
use sable_formats::book::make::{make_book, GameFilter, MakeOptions};
use sable_formats::pgn::{GameError, GameResult, PgnReader};
use sable_formats::{BookError, PolyglotBook};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(clap::Subcommand)]
enum BookCommand {
    /// Build a book from PGN games, entry for entry as `polyglot make-book`.
    Build(BuildArgs),
    /// Show a position's book moves (the start position without --fen).
    Probe(ProbeArgs),
    /// Merge two books (a move in both: weights summed by default).
    Merge(MergeArgs),
    /// Count positions and entries; depth profile and weights.
    Stats(StatsArgs),
    /// Update a book from played games: lines that lost lose weight.
    Learn(LearnArgs),
}

#[derive(clap::Args)]
struct BuildArgs {
    /// PGN files.
    #[arg(required = true)]
    pgn: Vec<PathBuf>,
    /// The book to write.
    #[arg(short, long)]
    output: PathBuf,
    /// Count positions at plies 0..N of each game (Polyglot's -max-ply; its default).
    #[arg(long, default_value_t = 1024)]
    max_ply: u32,
    /// Keep a move played in at least N games (Polyglot's -min-game).
    #[arg(long, default_value_t = 3)]
    min_game: u32,
    /// Keep a move that scored at least this percentage (Polyglot's -min-score).
    #[arg(long, default_value_t = 0.0)]
    min_score: f64,
    /// Only positions with White to move.
    #[arg(long, conflicts_with = "only_black")]
    only_white: bool,
    /// Only positions with Black to move.
    #[arg(long)]
    only_black: bool,
    /// Every weight 1.
    #[arg(long)]
    uniform: bool,
    /// Only games where both players are rated at least this (WhiteElo/BlackElo tags).
    #[arg(long)]
    min_elo: Option<u32>,
    /// Only games with these results, comma-separated: 1-0,0-1,1/2-1/2,*.
    #[arg(long, value_delimiter = ',')]
    results: Option<Vec<String>>,
    /// Only games with one of these TimeControl tags, comma-separated (e.g. 300+0,600+5).
    #[arg(long, value_delimiter = ',')]
    time_control: Option<Vec<String>>,
    /// Memory for the table in MB before it is spilled to sorted temporary runs.
    #[arg(long, default_value_t = 512)]
    memory: usize,
    /// Folder for the temporary runs (default: the system's).
    #[arg(long)]
    temp_dir: Option<PathBuf>,
    /// Threads reading the games (default: one per core); the book is the same for any.
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(clap::Args)]
struct ProbeArgs {
    book: PathBuf,
    /// The position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
}

#[derive(clap::Args)]
struct MergeArgs {
    a: PathBuf,
    b: PathBuf,
    #[arg(short, long)]
    output: PathBuf,
    /// A move in both books: sum (saturating), max, or first (the first book's position wins).
    #[arg(long, default_value = "sum")]
    rule: String,
}

#[derive(clap::Args)]
struct StatsArgs {
    book: PathBuf,
}

#[derive(clap::Args)]
struct LearnArgs {
    book: PathBuf,
    /// The games to learn from.
    games: PathBuf,
}

pub fn run(args: Args) -> CliResult {
    match args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Probe(a) => probe(a),
        BookCommand::Merge(a) => merge_cmd(a),
        BookCommand::Stats(a) => stats(a),
        BookCommand::Learn(a) => learn(a),
    }
}

fn book_err(e: BookError) -> CliError {
    CliError::msg(e.to_string())
}

fn open(path: &PathBuf) -> Result<PolyglotBook, CliError> {
    PolyglotBook::open(path).map_err(book_err)
}

fn build(a: BuildArgs) -> CliResult {
    let results = match &a.results {
        None => None,
        Some(list) => Some(
            list.iter()
                .map(|r| {
                    GameResult::from_token(r.trim()).ok_or_else(|| {
                        CliError::msg(format!("--results: '{r}' is not 1-0, 0-1, 1/2-1/2 or *"))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    if !(0.0..=100.0).contains(&a.min_score) {
        return Err(CliError::msg("--min-score must be 0..100"));
    }
    let opts = MakeOptions {
        max_ply: a.max_ply,
        min_game: a.min_game,
        min_score: a.min_score / 100.0,
        only_white: a.only_white,
        only_black: a.only_black,
        uniform: a.uniform,
        memory_bytes: a.memory.max(1) << 20,
        temp_dir: a.temp_dir.clone(),
        threads: a.threads.unwrap_or(MakeOptions::default().threads).max(1),
    };
    let filter = GameFilter {
        min_elo: a.min_elo,
        results,
        time_controls: a.time_control.clone(),
    };
    let mut total = 0;
    for p in &a.pgn {
        let meta = std::fs::metadata(p).map_err(|source| CliError::Io {
            path: p.display().to_string(),
            source,
        })?;
        total += meta.len();
    }
    let bar = if a.quiet {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}")
                .expect("valid template"),
        );
        bar
    };
    let t0 = Instant::now();
    let report = make_book(&a.pgn, &a.output, &opts, &filter, &mut |b| {
        bar.set_position(b)
    })
    .map_err(|e| CliError::msg(e.to_string()))?;
    bar.finish_and_clear();
    for s in &report.error_samples {
        eprintln!("skipped game: {s}");
    }
    println!(
        "{} games, {} filtered out, {} unreadable; {} position-moves counted, {} entries written to {} ({} runs, {} positions recounted) in {:.2} s",
        report.games,
        report.filtered,
        report.errors,
        report.counted,
        report.entries,
        a.output.display(),
        report.runs,
        report.recounted,
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

fn probe(a: ProbeArgs) -> CliResult {
    let book = open(&a.book)?;
    let pos = match &a.fen {
        Some(f) => Position::from_fen(f, CastlingMode::Standard)?,
        None => Position::startpos(),
    };
    let raw = book.entries(&pos);
    let legal = book.legal_entries(&pos);
    let total: u64 = legal.iter().map(|(_, e)| e.weight as u64).sum();
    println!("key {:016x}: {} entries", pos.key(), raw.len());
    if !legal.is_empty() {
        println!(
            "{:<8} {:<6} {:>6} {:>7} {:>10}",
            "san", "uci", "weight", "share", "learn"
        );
    }
    for (m, e) in &legal {
        let share = if total == 0 {
            0.0
        } else {
            100.0 * e.weight as f64 / total as f64
        };
        println!(
            "{:<8} {:<6} {:>6} {:>6.1}% {:>10}",
            pos.san(*m).to_string(),
            m.to_uci(false).to_string(),
            e.weight,
            share,
            e.learn
        );
    }
    let bad = raw.len() - legal.len();
    if bad > 0 {
        println!("{bad} entries with moves not legal here (ignored)");
    }
    Ok(())
}

fn merge_cmd(a: MergeArgs) -> CliResult {
    let rule = match a.rule.as_str() {
        "sum" => MergeRule::Sum,
        "max" => MergeRule::Max,
        "first" => MergeRule::First,
        r => {
            return Err(CliError::msg(format!(
                "--rule: '{r}' is not sum, max or first"
            )))
        }
    };
    let (x, y) = (open(&a.a)?, open(&a.b)?);
    let out = merge(&x, &y, rule);
    out.save(&a.output).map_err(book_err)?;
    println!(
        "{} + {} entries -> {} entries in {}",
        x.len(),
        y.len(),
        out.len(),
        a.output.display()
    );
    Ok(())
}

fn stats(a: StatsArgs) -> CliResult {
    let book = open(&a.book)?;
    let entries = book.all_entries();
    let positions = entries.windows(2).filter(|w| w[0].key != w[1].key).count() + 1;
    println!("entries     {}", entries.len());
    println!("positions   {positions}");
    println!("moves/pos   {:.2}", entries.len() as f64 / positions as f64);
    // Depth profile: positions reached from the start by book moves, by their ply.
    let mut seen: HashSet<u64> = HashSet::new();
    let mut level = vec![Position::startpos()];
    let mut depths: Vec<usize> = Vec::new();
    while !level.is_empty() && depths.len() < 256 {
        let mut next = Vec::new();
        let mut here = 0;
        for pos in &level {
            if !seen.insert(pos.key()) {
                continue;
            }
            let moves = book.moves(pos);
            if moves.is_empty() {
                continue;
            }
            here += 1;
            for (m, _) in moves {
                let mut p = pos.clone();
                p.make(m);
                next.push(p);
            }
        }
        if here == 0 {
            break;
        }
        depths.push(here);
        level = next;
    }
    let reached: usize = depths.iter().sum();
    println!(
        "reached     {reached} positions from the start position by book moves ({:.1}%)",
        100.0 * reached as f64 / positions as f64
    );
    for (ply, n) in depths.iter().enumerate() {
        println!("  ply {ply:>3}  {n}");
    }
    let mut buckets: HashMap<u32, usize> = HashMap::new();
    for e in entries {
        let b = if e.weight == 0 {
            0
        } else {
            1 + (e.weight as u32).ilog2()
        };
        *buckets.entry(b).or_default() += 1;
    }
    println!("weights");
    let mut keys: Vec<_> = buckets.keys().copied().collect();
    keys.sort();
    for b in keys {
        let range = if b == 0 {
            "0".to_string()
        } else {
            format!("{}..{}", 1u32 << (b - 1), (1u32 << b) - 1)
        };
        println!("  {range:>12}  {}", buckets[&b]);
    }
    Ok(())
}

fn learn(a: LearnArgs) -> CliResult {
    let mut book = open(&a.book)?;
    let file = std::fs::File::open(&a.games).map_err(|source| CliError::Io {
        path: a.games.display().to_string(),
        source,
    })?;
    let reader = PgnReader::new(std::io::BufReader::new(file));
    let name = a.games.display();
    let (mut games, mut updated, mut errors) = (0, 0, 0);
    for tree in reader.trees(SanMode::Lenient) {
        let tree = match tree {
            Ok(t) => t,
            // A file that cannot be read teaches nothing: the book stays as it was.
            Err(e) if matches!(e.error, GameError::Io(_)) => {
                return Err(CliError::msg(format!("{name}: {e}; the book is unchanged")));
            }
            Err(e) => {
                eprintln!("skipped game: {name}: {e}");
                errors += 1;
                continue;
            }
        };
        let result = tree
            .tags
            .get("Result")
            .and_then(GameResult::from_token)
            .or(tree.result)
            .unwrap_or(GameResult::Unknown);
        let learned = learn_game(&mut book, &tree.start, &tree.mainline(), result);
        games += 1;
        updated += learned.entries;
    }
    if games == 0 {
        return Err(CliError::msg(format!(
            "{name}: no game could be read ({errors} unreadable); the book is unchanged"
        )));
    }
    book.save(&a.book).map_err(book_err)?;
    println!(
        "{games} games ({errors} unreadable): {updated} entry updates written to {}",
        a.book.display()
    );
    Ok(())
}
