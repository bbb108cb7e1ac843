//! `sable nnue`: network tools. `random` writes a net of random weights (for speed tests
//! and mechanics only: it knows no chess; `--king-mirror` for one with mirrored inputs,
//! format version 3, `--king-buckets` with king buckets, version 4); `compare` prints a net's integer evaluation beside the float
//! network it came from (a trainer checkpoint of the same shape and inputs, or the net's
//! own weights dequantised) over the bench positions, with the largest difference;
//! `rescale` rewrites a net's output scale (any version, the inputs kept).

use super::{CliError, CliResult};
use sable_chess::{CastlingMode, Position};
use sable_engine::nnue::rng::Rng;
use sable_engine::nnue::{Inputs, Network, SCALE};
use sable_train::checkpoint::Checkpoint;
use sable_train::model::Params;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Write a network of random weights (no chess knowledge; for speed tests).
    Random {
        #[arg(long, default_value_t = 32)]
        hidden: usize,
        /// Output buckets by material (1 to 16).
        #[arg(long, default_value_t = 1)]
        output_buckets: usize,
        /// Horizontally mirrored inputs (written as format version 3).
        #[arg(long)]
        king_mirror: bool,
        /// King buckets (1, 2, 4 or 10, as `sable train --king-buckets`; more than one
        /// is written as format version 4 and implies --king-mirror).
        #[arg(long, default_value_t = 1)]
        king_buckets: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
    },
    /// Float vs quantised outputs over the bench positions.
    Compare {
        #[arg(long)]
        net: PathBuf,
        /// The trainer checkpoint the net was exported from (default: the net's own
        /// weights as floats, which isolates the integer arithmetic).
        #[arg(long)]
        checkpoint: Option<PathBuf>,
    },
    /// Write a copy of a net whose scores are multiplied by CP / its output scale.
    Rescale {
        #[arg(long)]
        net: PathBuf,
        /// The new output scale: centipawns per 1.0 of output (the trainer writes 400).
        #[arg(long, value_name = "CP")]
        output_scale: i32,
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(args: Args) -> CliResult {
    match args.command {
        Command::Random {
            hidden,
            output_buckets,
            king_mirror,
            king_buckets,
            seed,
            out,
        } => {
            sable_engine::nnue::check_buckets(output_buckets)
                .map_err(|e| CliError::msg(format!("--output-buckets {output_buckets}: {e}")))?;
            let inputs = match Inputs::preset(king_buckets) {
                Some(_) if king_buckets == 1 && !king_mirror => Inputs::PLAIN,
                Some(inputs) => inputs,
                None => {
                    return Err(CliError::msg(format!(
                        "--king-buckets {king_buckets}: the layouts are 1, 2, 4 and 10"
                    )))
                }
            };
            let net =
                Params::random_with_inputs(inputs, false, hidden, output_buckets, &mut Rng(seed))
                    .quantise()
                    .map_err(|e| CliError::msg(e.to_string()))?;
            write_net(&out, &net)?;
            println!(
                "wrote {} (hidden {hidden}, {output_buckets} output bucket(s){}, random weights)",
                out.display(),
                inputs_note(net.inputs())
            );
            Ok(())
        }
        Command::Compare { net, checkpoint } => {
            let net = Network::load(&net).map_err(|e| CliError::msg(e.to_string()))?;
            let float = match checkpoint {
                Some(path) => {
                    Checkpoint::load(&path)
                        .map_err(|e| CliError::msg(e.to_string()))?
                        .params
                }
                None => Params::dequantised(&net),
            };
            if (float.hidden, float.buckets, float.inputs)
                != (net.hidden(), net.buckets(), *net.inputs())
            {
                return Err(CliError::msg(format!(
                    "the checkpoint is not this net's: hidden {}, {} output bucket(s){} \
                     against hidden {}, {} output bucket(s){}",
                    float.hidden,
                    float.buckets,
                    inputs_note(&float.inputs),
                    net.hidden(),
                    net.buckets(),
                    inputs_note(net.inputs())
                )));
            }
            compare(&net, &float);
            Ok(())
        }
        Command::Rescale {
            net: path,
            output_scale,
            out,
        } => {
            let net = Network::load(&path).map_err(|e| CliError::msg(e.to_string()))?;
            let before = net.output_scale();
            let net = net
                .with_output_scale(output_scale)
                .map_err(|e| CliError::msg(format!("--output-scale {output_scale}: {e}")))?;
            write_net(&out, &net)?;
            println!(
                "wrote {} (output scale {before} -> {output_scale} cp: every score x {:.4}{})",
                out.display(),
                output_scale as f64 / before as f64,
                inputs_note(net.inputs())
            );
            Ok(())
        }
    }
}

/// `", mirrored inputs"` for a net with them (format version 3), else nothing.
pub fn inputs_note(inputs: &Inputs) -> String {
    match (inputs.mirrored(), inputs.buckets()) {
        (false, _) => String::new(),
        (true, 1) => ", mirrored inputs".into(),
        (true, k) => format!(", mirrored inputs, {k} king buckets"),
    }
}

/// Writes a net file, naming the path on failure.
fn write_net(out: &Path, net: &Network) -> CliResult {
    std::fs::write(out, net.to_bytes()).map_err(|source| CliError::Io {
        path: out.display().to_string(),
        source,
    })
}

/// Prints float and integer evaluations of the bench positions and the largest gap.
pub fn compare(net: &Network, float: &Params) {
    let mut max = 0.0f32;
    println!("{:>9} {:>9} {:>7}  position", "float", "int", "diff");
    for fen in sable_engine::bench::POSITIONS {
        let Ok(pos) = Position::from_fen(fen, CastlingMode::Standard) else {
            continue;
        };
        // The float net speaks the trained scale; the file may have been rescaled.
        let f = float.evaluate(&pos) * net.output_scale() as f32 / SCALE as f32;
        let q = net.evaluate(&pos);
        let d = (f - q as f32).abs();
        max = max.max(d);
        println!("{f:>9.1} {q:>9} {d:>7.1}  {fen}");
    }
    println!(
        "largest |float - quantised|: {max:.1} cp over {} positions",
        sable_engine::bench::POSITIONS.len()
    );
}

/// For `sable train`: the same comparison from files it wrote.
pub fn compare_files(net: &Path, float: &Params) -> CliResult {
    let net = Network::load(net).map_err(|e| CliError::msg(e.to_string()))?;
    compare(&net, float);
    Ok(())
}
