//! `sable moves`: every legal move of a position, in SAN (default) or UCI, space-separated.

use super::CliResult;
use sable_chess::{CastlingMode, Position};

#[derive(clap::Args)]
pub struct Args {
    /// The position (FEN, X-FEN or Shredder-FEN); default the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Read castling rights as Chess960 (and print UCI castling as king-takes-rook).
    #[arg(long)]
    chess960: bool,
    /// Print UCI moves instead of SAN.
    #[arg(long)]
    uci: bool,
}

pub fn run(args: Args) -> CliResult {
    let mode = if args.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen, mode)?,
        None => {
            let mut pos = Position::startpos();
            pos.set_chess960(args.chess960);
            pos
        }
    };
    let chess960 = args.chess960 || pos.is_chess960();
    let words: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            if args.uci {
                m.to_uci(chess960).to_string()
            } else {
                pos.san(m)
            }
        })
        .collect();
    println!("{}", words.join(" "));
    Ok(())
}
