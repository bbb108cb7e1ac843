//! `sable`: the Sable chess engine and toolkit.
//!
//! With no arguments it speaks UCI on standard input/output, so GUIs can run it directly.
//! The tools are subcommands; each lives in its own module under `cmd/`.

mod arena;
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
    /// Play engines (UCI or xboard) against each other: matches, gauntlets, SPRT.
    Match(cmd::match_cmd::Args),
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
        Some(Command::Match(args)) => cmd::match_cmd::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sable: {e}");
            ExitCode::FAILURE
        }
    }
}
