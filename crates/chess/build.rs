//! Finds the slider magics and lays out the attack tables that `src/attacks` embeds.
//!
//! The search is seeded, so every build produces the same tables. Two layouts of one
//! table: indexed by magic multiplication, and (for x86-64 targets) by PEXT, which CPUs
//! with BMI2 use. Both give each square the same slice, so one offset serves both.

#[path = "src/attacks/gen.rs"]
#[allow(dead_code)]
mod gen;

use gen::{find_magic, magic_index, relevant_mask, sliding_attacks, subsets, Rng, Slider};
use std::fmt::Write as _;
use std::path::PathBuf;

fn pext(value: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if value & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    out
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/attacks/gen.rs");
    let little = std::env::var("CARGO_CFG_TARGET_ENDIAN").as_deref() != Ok("big");

    let mut rng = Rng::new(0x5AB1_E5AB_1E00_0001);
    let mut table: Vec<u64> = Vec::new();
    let mut pext_table: Vec<u64> = Vec::new();
    let mut src = String::new();
    for (name, slider) in [("BISHOP", Slider::Bishop), ("ROOK", Slider::Rook)] {
        writeln!(src, "pub(crate) const {name}_MAGICS: [Magic; 64] = [").unwrap();
        for sq in 0..64u8 {
            let mask = relevant_mask(slider, sq);
            let bits = mask.count_ones();
            let magic = find_magic(slider, sq, bits, u64::MAX, &mut rng).expect("magic exists");
            let offset = table.len();
            table.resize(offset + (1 << bits), 0);
            pext_table.resize(offset + (1 << bits), 0);
            for occ in subsets(mask) {
                let attacks = sliding_attacks(slider, sq, occ);
                table[offset + magic_index(occ, mask, magic, bits)] = attacks;
                pext_table[offset + pext(occ, mask) as usize] = attacks;
            }
            writeln!(
                src,
                "    Magic {{ mask: {mask:#018x}, magic: {magic:#018x}, shift: {}, offset: {offset} }},",
                64 - bits
            )
            .unwrap();
        }
        writeln!(src, "];").unwrap();
    }
    writeln!(
        src,
        "pub(crate) const SLIDER_TABLE_LEN: usize = {};",
        table.len()
    )
    .unwrap();
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    std::fs::write(out.join("magics.rs"), src).unwrap();
    let bytes = |table: &[u64]| -> Vec<u8> {
        table
            .iter()
            .flat_map(|v| {
                if little {
                    v.to_le_bytes()
                } else {
                    v.to_be_bytes()
                }
            })
            .collect()
    };
    std::fs::write(out.join("slider_attacks.bin"), bytes(&table)).unwrap();
    std::fs::write(out.join("slider_attacks_pext.bin"), bytes(&pext_table)).unwrap();
}
