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
}

pub fn run(args: Args) -> CliResult {
    let total = bench::POSITIONS.len();
    let result = bench::run(args.depth, |i, nodes| {
        eprintln!("position {:>2}/{total}: {nodes} nodes", i + 1);
    });
    println!("{} nodes {} nps", result.nodes, result.nps());
    Ok(())
}
