//! `sable match`: plays engines against each other (see `crate::arena`) and reports
//! the results. Options are cutechess-cli/fastchess style and parsed by
//! `arena::options`, so they pass through clap untouched.

use std::sync::atomic::Ordering;

use super::{CliError, CliResult};
use sable_arena::openings::Book;
use sable_arena::options;
use sable_arena::tournament::{self, OpeningSource};

#[derive(clap::Args)]
#[command(
    disable_help_flag = true,
    after_help = "Options (cutechess-cli / fastchess style):
  -engine cmd=PATH [name=N] [proto=uci|xboard] [arg=A] [dir=D] [tc=[M/]S[+I]] [st=S]
          [nodes=N] [depth=D] [timemargin=MS] [stall=S] [option.NAME=VALUE]...
          [book=FILE.bin [bookdepth=N]]   the runner plays Polyglot book moves for the
          engine (weighted, legal-checked) while the game has under 2N plies (N in full moves)
  -each KEY=VALUE...          settings for every engine
  -tournament gauntlet|round-robin   (two engines: head-to-head)
  -rounds N  -games N  -repeat  -concurrency N
  -openings file=F [format=epd|pgn] [order=sequential|random] [plies=N] [start=K]
  -variant standard|fischerandom
  -draw movenumber=N movecount=M score=CP   -resign movecount=M score=CP [twosided=true]
  -maxmoves N
  -sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]   (normalized Elo, pentanomial with -repeat)
  -pgnout FILE  -event NAME  -srand N  -ratinginterval N  -recover  -noprogress  -debug
  -strict                     exit with failure on any time loss, illegal move, crash or stall

Example:
  sable match -engine cmd=/usr/games/stockfish name=sf1 option.Skill\\ Level=1 \\
    -engine cmd=/usr/games/fairymax proto=xboard -each tc=10+0.1 \\
    -openings file=8moves_v3.pgn order=random -rounds 50 -games 2 -repeat -pgnout out.pgn"
)]
pub struct Args {
    /// The match options (see below).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    options: Vec<String>,
}

pub fn run(args: Args) -> CliResult {
    let mut raw = args.options;
    if raw.is_empty()
        || raw
            .iter()
            .any(|a| a == "--help" || a == "-help" || a == "-h")
    {
        return Err(CliError::msg(
            "usage: sable match -engine cmd=... -engine cmd=... -each tc=10+0.1 [options]; see `sable help match`",
        ));
    }
    let strict = raw.iter().any(|a| a == "-strict");
    raw.retain(|a| a != "-strict");
    let opts = options::parse(&raw).map_err(|e| CliError::msg(e.to_string()))?;
    let openings = match &opts.book {
        Some(spec) => {
            let book = Book::load(spec.clone(), opts.chess960, opts.seed)
                .map_err(|e| CliError::msg(e.to_string()))?;
            println!("Openings: {} in {}", book.len(), spec.file);
            OpeningSource::Book(book)
        }
        None if opts.chess960 => OpeningSource::Chess960 { seed: opts.seed },
        None => OpeningSource::StartPos,
    };
    let cancel = super::cancel_on_ctrlc("sable match");
    let result = tournament::run(&opts, &openings, cancel.clone(), false);
    let standings = match result {
        Ok((s, _)) => s,
        Err(e) => return Err(CliError::msg(e)),
    };
    if cancel.load(Ordering::SeqCst) && standings.decision == sable_arena::sprt::Decision::Continue
    {
        println!("Interrupted after {} games.", standings.games);
    }
    print!("{}", standings.report());
    if let Some(p) = &opts.pgn_out {
        println!("PGN: {p}");
    }
    if strict && standings.total_faults() > 0 {
        return Err(CliError::msg(format!(
            "{} games lost by engine faults (-strict)",
            standings.total_faults()
        )));
    }
    Ok(())
}
