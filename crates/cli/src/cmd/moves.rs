//! `sable moves`: every legal move of a position, in SAN (default) or UCI, space-separated.

use super::{CliError, CliResult};
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
    println!("{}", list(&args)?);
    Ok(())
}

/// The line `run` prints.
fn list(args: &Args) -> Result<String, CliError> {
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
    Ok(words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(fen: &str, chess960: bool, uci: bool) -> Args {
        Args {
            fen: Some(fen.to_string()),
            chess960,
            uci,
        }
    }

    #[test]
    fn san_by_default_uci_on_request_in_either_castling_form() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let san = list(&args(fen, false, false)).unwrap();
        assert!(san.contains("Rxa8+") && san.ends_with("O-O O-O-O"), "{san}");
        assert_eq!(san.split(' ').count(), 26);
        let uci = list(&args(fen, false, true)).unwrap();
        assert!(uci.ends_with("e1g1 e1c1"), "{uci}");
        let uci960 = list(&args(fen, true, true)).unwrap();
        assert!(uci960.ends_with("e1h1 e1a1"), "{uci960}");
        assert!(list(&args("8/8/8 w", false, false)).is_err());
    }
}
