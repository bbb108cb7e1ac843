//! `sable tune-params`: the search's tunable constants (`sable_engine::tunables`) as
//! OpenBench's SPSA input, one line each: `name, int, default, min, max, c_end, r_end`,
//! with `c_end` the table's step and `r_end` 0.002. Paste it into an SPSA test of a
//! build with the `tune` feature, whose UCI options carry the same names.

use super::CliResult;
use sable_engine::tunables;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_: Args) -> CliResult {
    for t in tunables::TUNABLES {
        println!("{}", t.spsa_line());
    }
    if !tunables::ENABLED {
        eprintln!(
            "note: this build fixes these values; SPSA needs a build with `--features tune` \
             (make FEATURES=tune)"
        );
    }
    Ok(())
}
