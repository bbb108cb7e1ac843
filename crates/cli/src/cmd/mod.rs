//! One module per subcommand. Each exposes `Args` (clap) and `run(Args) -> Result<(), CliError>`.

pub mod analyse;
pub mod bench;
pub mod book;
pub mod data;
pub mod datagen;
pub mod epd;
pub mod eval;
pub mod human_train;
pub mod ics;
pub mod imbalance;
pub mod magics;
pub mod match_cmd;
pub mod moves;
pub mod nnue;
pub mod perft;
pub mod pgn;
pub mod random_games;
pub mod serve;
pub mod tb;
pub mod train;
pub mod tune;
pub mod tune_params;

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

/// Reads a whole text file, naming it in the error (and the line and byte of the first
/// byte that is not UTF-8).
pub fn read_file(path: &str) -> Result<String, CliError> {
    let bytes = std::fs::read(path).map_err(|source| CliError::Io {
        path: path.to_string(),
        source,
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        CliError::msg(format!("{path}:{line}: not UTF-8 text (byte {at})"))
    })
}

/// The engine flags shared by the suite tools (`sable epd`, `sable imbalance`).
#[derive(clap::Args)]
pub struct EngineArgs {
    /// The engine's command (program and arguments), split as a shell splits it.
    #[arg(long)]
    pub engine: String,
    /// Protocol: uci or xboard (xboard engines need `setboard`).
    #[arg(long, default_value = "uci")]
    pub proto: String,
    /// Engine option, repeatable: `--option Hash=64`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// An engine named on the command line of a suite tool.
pub struct EngineCommand {
    pub program: String,
    pub args: Vec<String>,
    /// `NAME=VALUE` options to set after the handshake.
    pub options: Vec<(String, String)>,
    pub protocol: sable_arena::engine::Protocol,
}

impl EngineArgs {
    /// Splits `--engine "PROGRAM ARGS..."` (shell-style: quotes and backslashes), the `--option NAME=VALUE` flags and `--proto`.
    pub fn command(&self) -> Result<EngineCommand, CliError> {
        use sable_arena::engine::Protocol;
        // Split as a shell would, so that a path with a space can be quoted.
        let mut words = shell_words::split(&self.engine)
            .map_err(|e| CliError::msg(format!("--engine '{}': {e}", self.engine)))?
            .into_iter();
        let program = words
            .next()
            .ok_or_else(|| CliError::msg("--engine is empty"))?;
        let options = self
            .options
            .iter()
            .map(|o| {
                o.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| CliError::msg(format!("--option '{o}': expected NAME=VALUE")))
            })
            .collect::<Result<_, _>>()?;
        let protocol = match self.proto.as_str() {
            "uci" => Protocol::Uci,
            "xboard" => Protocol::Xboard,
            p => return Err(CliError::msg(format!("--proto: unknown protocol '{p}'"))),
        };
        Ok(EngineCommand {
            program,
            args: words.collect(),
            options,
            protocol,
        })
    }
}

/// A flag raised by the first Ctrl-C, so a long tool can stop, save and report;
/// a second Ctrl-C quits at once.
pub fn cancel_on_ctrlc(tool: &'static str) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let cancel = std::sync::Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\n{tool}: interrupted; finishing the report (Ctrl-C again to quit now)");
    });
    cancel
}

#[cfg(test)]
mod tests {
    use super::EngineArgs;

    fn args(engine: &str) -> EngineArgs {
        EngineArgs {
            engine: engine.to_string(),
            proto: "uci".to_string(),
            options: vec!["Hash=16".to_string()],
        }
    }

    /// `--engine` is split as a shell splits it: a quoted path with a space is one
    /// program; an unbalanced quote is refused with the option named.
    #[test]
    fn engine_command_is_split_like_a_shell() {
        let c = args(r#""/opt/my engines/sf" -x 'a b' c\ d"#)
            .command()
            .ok()
            .unwrap();
        assert_eq!(c.program, "/opt/my engines/sf");
        assert_eq!(c.args, ["-x", "a b", "c d"]);
        assert_eq!(c.options, [("Hash".to_string(), "16".to_string())]);
        let e = args("'/opt/my engines/sf").command().err().unwrap();
        assert!(e.to_string().contains("--engine"), "{e}");
        assert!(args("  ").command().is_err());
    }
}
