//! `sable magics`: searches magic numbers for the slider attack tables, tries for denser
//! tables (fewer index bits than the mask has squares), and checks a published table of
//! dense bishop magics from the Vicki engine's development notes.

use super::CliResult;
use sable_chess::attacks::gen::{check_magic, find_magic, relevant_mask, Rng, Slider};
use sable_chess::{Square, SquareSet};

#[derive(clap::Args)]
pub struct Args {
    /// Check the published dense bishop magics and print which hold.
    #[arg(long)]
    check: bool,
    /// Try fewer index bits than the mask has squares, square by square.
    #[arg(long)]
    dense: bool,
    /// With --dense: candidates tried per square for each bit fewer before giving up.
    #[arg(long, default_value_t = 1_000_000)]
    tries: u64,
    /// Seed for the candidate generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// (square, index bits, magic) as published in Vicki's notes: bishop magics that need
/// fewer bits than the usual edge-less mask has squares.
pub const VICKI_DENSE_BISHOPS: [(&str, u32, u64); 23] = [
    ("a1", 5, 0x90a207c5e7ae23ff),
    ("b1", 4, 0xcaad949dbf3ffed4),
    ("g1", 4, 0x2a0f37664bfef560),
    ("h1", 5, 0xf174631c5963ffd7),
    ("a2", 4, 0xb2d764c66b3617f5),
    ("b2", 4, 0xf97758b06ebb3f25),
    ("g2", 4, 0x2ba278d2d3287f3f),
    ("h2", 4, 0x0ca85d99b283fe74),
    ("a3", 4, 0x8440f94bf539afdb),
    ("b3", 4, 0xc6e0343a763ab7f6),
    ("g3", 4, 0x78b4002cccfabedf),
    ("h3", 4, 0xcd4a03745eacbfd0),
    ("a6", 4, 0x24ffd9f54b3ec007),
    ("b6", 4, 0x6ccffd59e5fae014),
    ("g6", 4, 0x2eff79dda4a23407),
    ("a7", 4, 0xe3dff263999c90f5),
    ("b7", 4, 0xf06bfd8ab019c8bd),
    ("g7", 4, 0x3fffa27235d24ee9),
    ("h7", 4, 0xcf3fa4b1f1bdb60c),
    ("a8", 5, 0x83c3fd4a7d787936),
    ("b8", 4, 0xf317ee03f569a587),
    ("g8", 4, 0x9ad97f53b94894e3),
    ("h8", 5, 0x91fff9fd4502052f),
];

fn squares(set: u64) -> String {
    let v: Vec<String> = SquareSet(set).iter().map(|s| s.to_string()).collect();
    if v.is_empty() {
        "(empty)".into()
    } else {
        v.join(" ")
    }
}

/// Verdict for one published entry: `Ok(())` or why it fails.
pub fn verdict(square: &str, bits: u32, magic: u64) -> Result<(), String> {
    let sq: Square = square.parse().map_err(|e| format!("{e}"))?;
    let mask_bits = relevant_mask(Slider::Bishop, sq.index() as u8).count_ones();
    check_magic(Slider::Bishop, sq.index() as u8, magic, bits).map_err(|c| {
        format!(
            "occupancies {{{}}} and {{{}}} both index slot {} of {} but attack different squares (mask has {mask_bits} squares)",
            squares(c.first),
            squares(c.second),
            c.index,
            1u32 << bits
        )
    })
}

pub fn run(args: Args) -> CliResult {
    if args.check {
        return check_published();
    }
    let mut rng = Rng::new(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut total_entries = 0u64;
    for (name, slider) in [("bishop", Slider::Bishop), ("rook", Slider::Rook)] {
        println!("{name} magics:");
        let mut entries = 0u64;
        for sq in Square::all() {
            let s = sq.index() as u8;
            let full = relevant_mask(slider, s).count_ones();
            // At the mask's own size a magic always exists: search until found.
            let mut magic = find_magic(slider, s, full, u64::MAX, &mut rng)
                .expect("an unbounded search finds a magic");
            let mut bits = full;
            if args.dense {
                while bits > 1 {
                    match find_magic(slider, s, bits - 1, args.tries, &mut rng) {
                        Some(m) => {
                            magic = m;
                            bits -= 1;
                        }
                        None => break,
                    }
                }
            }
            entries += 1 << bits;
            println!("  {sq} {bits:>2} bits (mask {full:>2}) {magic:#018x}");
        }
        println!(
            "{name} table: {entries} entries, {} KiB",
            entries * 8 / 1024
        );
        total_entries += entries;
    }
    println!(
        "total: {total_entries} entries, {} KiB",
        total_entries * 8 / 1024
    );
    Ok(())
}

fn check_published() -> CliResult {
    println!("Dense bishop magics from Vicki's notes (usual edge-less mask):");
    println!(
        "{:<6}{:>5}{:>6}  {:<18}  verdict",
        "square", "bits", "mask", "magic"
    );
    let mut holds = 0;
    for (square, bits, magic) in VICKI_DENSE_BISHOPS {
        let sq: Square = square.parse().expect("table squares are valid");
        let mask_bits = relevant_mask(Slider::Bishop, sq.index() as u8).count_ones();
        let v = match verdict(square, bits, magic) {
            Ok(()) => {
                holds += 1;
                "holds: every occupancy maps without destructive collision".to_string()
            }
            Err(why) => format!("FAILS: {why}"),
        };
        println!("{square:<6}{bits:>5}{mask_bits:>6}  {magic:#018x}  {v}");
    }
    println!(
        "{holds} of {} hold, {} fail",
        VICKI_DENSE_BISHOPS.len(),
        VICKI_DENSE_BISHOPS.len() - holds
    );
    Ok(())
}
