//! `sable bench [DEPTH]`: searches the fixed bench positions with one thread and fresh
//! tables and prints `N nodes M nps` last (OpenBench reads that line). The node count is
//! the same on every run and machine; only the speed varies.

use super::CliResult;
use sable_engine::bench;

#[derive(clap::Args)]
pub struct Args {
    /// Search depth in plies.
    #[arg(default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Search with this network (`UseNNUE` on) instead of the default evaluation.
    #[arg(long)]
    eval_file: Option<String>,
    /// Search with the hand-crafted evaluation even when a network is embedded.
    #[arg(long, conflicts_with = "eval_file")]
    hce: bool,
}

pub fn run(args: Args) -> CliResult {
    let total = bench::POSITIONS.len();
    let mut engine = sable_engine::Engine::new();
    let failed = |e: sable_engine::EngineError| super::CliError::msg(e.to_string());
    if let Some(path) = &args.eval_file {
        engine.set_eval_file(path).map_err(failed)?;
        engine.set_use_nnue(true).map_err(failed)?;
    } else if args.hce {
        engine.set_use_nnue(false).map_err(failed)?;
    }
    let result = bench::run_with(&mut engine, args.depth, |i, nodes| {
        eprintln!("position {:>2}/{total}: {nodes} nodes", i + 1);
    });
    println!("{} nodes {} nps", result.nodes, result.nps());
    Ok(())
}
