//! `sable`: the Sable chess engine and toolkit.
//!
//! With no arguments it speaks UCI or xboard (whichever the first command line asks for)
//! on standard input/output, so GUIs can run it directly.
//! The tools are subcommands; each lives in its own module under `cmd/`.

use sable::{cmd, console, uci, xboard};

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "sable", version, about = "The Sable chess engine and toolkit")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Syzygy tablebases: probe a position (WDL, DTZ, every move), or measure probe speed.
    Tb(cmd::tb::Args),
    /// Count leaf nodes of the legal move tree (like Stockfish's `go perft`), or run a suite.
    Perft(cmd::perft::Args),
    /// Play random legal games and tabulate how they end (a test of the rules code).
    RandomGames(cmd::random_games::Args),
    /// Find magic numbers for slider attacks, or check a published table of them.
    Magics(cmd::magics::Args),
    /// Print every legal move of a position, in SAN (or UCI with --uci).
    Moves(cmd::moves::Args),
    /// Read a PGN file, replay its moves (--validate), report errors with line and column.
    Pgn(cmd::pgn::Args),
    /// Search the fixed bench positions; prints `N nodes M nps` last (for OpenBench).
    Bench(cmd::bench::Args),
    /// Print the static evaluation broken down by term, or time it over a file.
    Eval(cmd::eval::Args),
    /// Fit the evaluation parameters to game results (Texel tuning).
    Tune(cmd::tune::Args),
    /// Print the search's tunable constants as OpenBench SPSA input lines.
    TuneParams(cmd::tune_params::Args),
    /// Self-play games at fixed nodes: labelled positions for `sable tune`, or game records (.bin) for training a network.
    Datagen(cmd::datagen::Args),
    /// Train the NNUE network on game records (sable_formats::record) or `FEN | score | result` text.
    Train(cmd::train::Args),
    /// Fit the limited levels' model of human move choice on rated games (PGN).
    HumanTrain(cmd::human_train::Args),
    /// Network tools: a random net for speed tests, float vs quantised comparison.
    Nnue(cmd::nnue::Args),
    /// Game-record files from `sable datagen`: stats, cat, to-text, validate.
    Data(cmd::data::Args),
    /// Play engines (UCI or xboard) against each other: matches, gauntlets, SPRT.
    Match(cmd::match_cmd::Args),
    /// Opening books (Polyglot .bin): build from PGN, probe, merge, stats, learn.
    Book(cmd::book::Args),
    /// Speak UCI on stdin/stdout (what `sable` alone does when the first line is `uci`).
    Uci,
    /// Speak the xboard/WinBoard protocol (CECP v2) on stdin/stdout.
    Xboard,
    /// An interactive console: board, moves, analysis, PGN/FEN files.
    Console,
    /// Run an engine over an EPD test suite (bm/am, STS points); report solved and missed.
    Epd(cmd::epd::Args),
    /// Measure a material imbalance in pawns by engine self-play (e.g. q-bnn).
    Imbalance(cmd::imbalance::Args),
    /// Annotate a PGN with engine evaluations, ?!/?/?? and better lines; HTML reports.
    #[command(alias = "annotate")]
    Analyse(cmd::analyse::Args),
    /// Play on an Internet Chess Server (FICS and kin) unattended: challenges, seeks, PGN log, reconnection.
    Ics(cmd::ics::Args),
    /// A board in the browser: play against a level, analysis, game review (a local web server).
    Serve(cmd::serve::Args),
}

/// No subcommand: the first command line decides the protocol (`uci` or `xboard`); a
/// person at a terminal typing anything else gets the console.
fn dispatch() {
    use std::io::{BufRead, IsTerminal};
    let stdin = std::io::stdin();
    let mut first = String::new();
    while first.trim().is_empty() {
        first.clear();
        match stdin.lock().read_line(&mut first) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
    }
    let first = first.trim().to_string();
    match first.split_whitespace().next() {
        Some("xboard") => return xboard::run(Some(first)),
        Some("uci") => {}
        _ if stdin.is_terminal() => return console::run(Some(first)),
        _ => {}
    }
    let mut engine = uci::Uci::new(uci::Wire::stdout());
    if engine.execute(&first) {
        engine.run(stdin.lock());
    }
}

/// A reader that went away (`sable data stats FILE | head`) ends the program quietly,
/// as Unix tools do, instead of a panic message from `println!`. Every other panic keeps
/// the standard report.
fn quiet_on_closed_stdout() {
    let standard = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.starts_with("failed printing to stdout") && text.contains("Broken pipe") {
            // 128 + SIGPIPE, what a shell reports for a tool stopped by a closed pipe.
            std::process::exit(141);
        }
        standard(info);
    }));
}

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    // OpenBench runs `sable "genfens N seed S book B" "quit"`: UCI commands as arguments.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if uci::arguments_are_commands(&args) {
        uci::run_args(&args);
        return ExitCode::SUCCESS;
    }
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            dispatch();
            Ok(())
        }
        Some(Command::Uci) => {
            uci::run();
            Ok(())
        }
        Some(Command::Xboard) => {
            xboard::run(None);
            Ok(())
        }
        Some(Command::Console) => {
            console::run(None);
            Ok(())
        }
        Some(Command::Perft(args)) => cmd::perft::run(args),
        Some(Command::Tb(args)) => cmd::tb::run(args),
        Some(Command::RandomGames(args)) => cmd::random_games::run(args),
        Some(Command::Magics(args)) => cmd::magics::run(args),
        Some(Command::Moves(args)) => cmd::moves::run(args),
        Some(Command::Pgn(args)) => cmd::pgn::run(args),
        Some(Command::Bench(args)) => cmd::bench::run(args),
        Some(Command::Eval(args)) => cmd::eval::run(args),
        Some(Command::Tune(args)) => cmd::tune::run(args),
        Some(Command::TuneParams(args)) => cmd::tune_params::run(args),
        Some(Command::Datagen(args)) => cmd::datagen::run(args),
        Some(Command::Train(args)) => cmd::train::run(args),
        Some(Command::HumanTrain(args)) => cmd::human_train::run(args),
        Some(Command::Nnue(args)) => cmd::nnue::run(args),
        Some(Command::Data(args)) => cmd::data::run(args),
        Some(Command::Match(args)) => cmd::match_cmd::run(args),
        Some(Command::Epd(args)) => cmd::epd::run(args),
        Some(Command::Imbalance(args)) => cmd::imbalance::run(args),
        Some(Command::Book(args)) => cmd::book::run(args),
        Some(Command::Ics(args)) => cmd::ics::run(args),
        Some(Command::Serve(args)) => cmd::serve::run(args),
        Some(Command::Analyse(args)) => cmd::analyse::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sable: {e}");
            ExitCode::FAILURE
        }
    }
}
