//! The tools' seeded randomness: SplitMix64, which gives the same stream on every
//! platform (so a seed names the same games, openings and shuffles everywhere) and is
//! all that picking openings and random moves needs.

/// The next number of the SplitMix64 stream whose state is `state`.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
