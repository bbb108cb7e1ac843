//! One module per subcommand. Each exposes `Args` (clap) and `run(Args) -> Result<(), CliError>`.

pub mod bench;
pub mod epd;
pub mod eval;
pub mod imbalance;
pub mod magics;
pub mod match_cmd;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod random_games;
pub mod tune;

/// An error a tool reports before exiting with status 1.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{0}")]
    Msg(String),
    #[error(transparent)]
    Fen(#[from] sable_chess::ParseFenError),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

impl CliError {
    pub fn msg(s: impl Into<String>) -> CliError {
        CliError::Msg(s.into())
    }
}

pub type CliResult = Result<(), CliError>;

/// Reads a whole file, naming it in the error.
pub fn read_file(path: &str) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|source| CliError::Io {
        path: path.to_string(),
        source,
    })
}
