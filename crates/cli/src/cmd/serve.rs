//! `sable serve`: the board in the browser (play against a level, analysis, game review),
//! served on 127.0.0.1 unless `--host` widens it. The server itself is `crate::serve`.

use super::{CliError, CliResult};
use crate::serve::session::SessionConfig;
use crate::serve::{self, ServeConfig};
use std::io::Write;
use std::net::{IpAddr, SocketAddr};

#[derive(clap::Args)]
pub struct Args {
    /// The port (0: any free one, printed at start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// The address to listen on. Anything but a loopback address lets every machine that
    /// can reach this one use the engine (there is no password).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Sessions (browser tabs) with an engine at once; more are refused with a message.
    #[arg(long, default_value_t = 16)]
    max_sessions: usize,
    /// Hash table of each session's engine, in MB.
    #[arg(long, value_name = "MB", default_value_t = 16)]
    hash: usize,
    /// Nodes per position of a game review (as `sable analyse --nodes`).
    #[arg(long, default_value_t = crate::cmd::analyse::DEFAULT_NODES)]
    review_nodes: u64,
    /// Print the embedded page's files and their sizes, and exit.
    #[arg(long)]
    list_assets: bool,
}

pub fn run(args: Args) -> CliResult {
    if args.list_assets {
        for (name, size) in serve::assets::sizes() {
            println!("{size:>9}  {name}");
        }
        return Ok(());
    }
    if args.max_sessions == 0 {
        return Err(CliError::msg("--max-sessions: must be at least 1"));
    }
    if args.hash == 0 || args.hash > 4096 {
        return Err(CliError::msg("--hash: must be between 1 and 4096 MB"));
    }
    if args.review_nodes == 0 {
        return Err(CliError::msg("--review-nodes: must be at least 1"));
    }
    if !args.host.is_loopback() {
        eprintln!(
            "sable serve: warning: listening on {}: every machine that can reach this one can use the engine, with no password",
            args.host
        );
    }
    let config = ServeConfig {
        addr: SocketAddr::new(args.host, args.port),
        max_sessions: args.max_sessions,
        session: SessionConfig {
            hash_mb: args.hash,
            review_nodes: args.review_nodes,
        },
    };
    let open = args.open;
    serve::serve(config, move |addr| {
        let url = format!("http://{addr}/");
        println!("sable serve: {url} (Ctrl-C to stop)");
        let _ = std::io::stdout().flush();
        if open {
            open_browser(&url);
        }
    })
    .map_err(CliError::msg)
}

/// Opens `url` with the desktop's own opener; a failure is reported, not fatal.
fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    if let Err(e) = std::process::Command::new(program)
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("sable serve: --open: cannot run {program}: {e}; open {url} yourself");
    }
}
