//! `sable`: the Sable chess engine and toolkit.
//!
//! With no arguments it speaks UCI on standard input/output, so GUIs can run it directly.
//! The tools are subcommands; each lives in its own module under `cmd/`.

mod cmd;

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
    /// Count leaf nodes of the legal move tree (like Stockfish's `go perft`), or run a suite.
    Perft(cmd::perft::Args),
    /// Play random legal games and tabulate how they end (a test of the rules code).
    RandomGames(cmd::random_games::Args),
    /// Find magic numbers for slider attacks, or check a published table of them.
    Magics(cmd::magics::Args),
    /// Print the static evaluation broken down by term, or time it over a file.
    Eval(cmd::eval::Args),
    /// Fit the evaluation parameters to game results (Texel tuning).
    Tune(cmd::tune::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            eprintln!("sable: the UCI engine is not built yet; see `sable --help` for the tools");
            Ok(())
        }
        Some(Command::Perft(args)) => cmd::perft::run(args),
        Some(Command::RandomGames(args)) => cmd::random_games::run(args),
        Some(Command::Magics(args)) => cmd::magics::run(args),
        Some(Command::Eval(args)) => cmd::eval::run(args),
        Some(Command::Tune(args)) => cmd::tune::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sable: {e}");
            ExitCode::FAILURE
        }
    }
}
