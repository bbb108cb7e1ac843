//! Attack tables: leapers and rays computed by `const fn`, sliders by fancy magic
//! bitboards or by PEXT, from tables laid out by `build.rs`.
//!
//! Which slider lookup runs: a build for BMI2 CPUs (`-C target-feature=+bmi2`) uses PEXT
//! everywhere; any other build uses magics, and code that picks its lookups at run time
//! through `Sliders` (perft) may use PEXT once the CPU is known to have a fast one.

pub mod gen;

use crate::{Color, Role, Square, SquareSet};

#[derive(Clone, Copy)]
pub(crate) struct Magic {
    mask: u64,
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
    magic: u64,
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
    shift: u32,
    offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/magics.rs"));

/// Decodes a table at compile time, so no run-time initialisation is needed.
const fn decode_table(bytes: &[u8; SLIDER_TABLE_LEN * 8]) -> [u64; SLIDER_TABLE_LEN] {
    let mut out = [0u64; SLIDER_TABLE_LEN];
    let mut i = 0;
    while i < SLIDER_TABLE_LEN {
        let b = bytes;
        let j = i * 8;
        out[i] = u64::from_ne_bytes([
            b[j],
            b[j + 1],
            b[j + 2],
            b[j + 3],
            b[j + 4],
            b[j + 5],
            b[j + 6],
            b[j + 7],
        ]);
        i += 1;
    }
    out
}

/// Slider attacks indexed by magic multiplication.
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
static SLIDER_TABLE: [u64; SLIDER_TABLE_LEN] = decode_table(include_bytes!(concat!(
    env!("OUT_DIR"),
    "/slider_attacks.bin"
)));

/// The same attacks indexed by PEXT of the occupancy under the square's mask.
#[cfg(target_arch = "x86_64")]
static PEXT_TABLE: [u64; SLIDER_TABLE_LEN] = decode_table(include_bytes!(concat!(
    env!("OUT_DIR"),
    "/slider_attacks_pext.bin"
)));

#[inline(always)]
fn slider_lookup(m: &Magic, occupied: SquareSet) -> SquareSet {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    // SAFETY: the `bmi2` target feature is enabled for this whole build (checked by cfg).
    return unsafe { pext_lookup(m, occupied) };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let index = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        SquareSet(SLIDER_TABLE[m.offset + index])
    }
}

/// # Safety
/// The CPU must have BMI2. Inlined into code compiled with BMI2 enabled, PEXT is one
/// instruction; elsewhere it is a call.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn pext_lookup(m: &Magic, occupied: SquareSet) -> SquareSet {
    // SAFETY: the caller promises BMI2.
    let index = unsafe { core::arch::x86_64::_pext_u64(occupied.0, m.mask) } as usize;
    SquareSet(PEXT_TABLE[m.offset + index])
}

/// Bishop attacks from `sq` with blockers `occupied`.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: SquareSet) -> SquareSet {
    slider_lookup(&BISHOP_MAGICS[sq.index()], occupied)
}

/// Rook attacks from `sq` with blockers `occupied`.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: SquareSet) -> SquareSet {
    slider_lookup(&ROOK_MAGICS[sq.index()], occupied)
}

#[inline]
pub fn queen_attacks(sq: Square, occupied: SquareSet) -> SquareSet {
    bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)
}

/// Slider lookups chosen once for a whole move generation: the build's own
/// ([`Built`]), or PEXT picked at run time ([`Pext`]). Code generic over it is compiled
/// once per choice, each copy with its lookups inlined.
pub(crate) trait Sliders: Copy {
    fn bishop(self, sq: Square, occupied: SquareSet) -> SquareSet;
    fn rook(self, sq: Square, occupied: SquareSet) -> SquareSet;
}

/// [`bishop_attacks`] and [`rook_attacks`]: what the build was compiled for.
#[derive(Clone, Copy)]
pub(crate) struct Built;

impl Sliders for Built {
    #[inline(always)]
    fn bishop(self, sq: Square, occupied: SquareSet) -> SquareSet {
        bishop_attacks(sq, occupied)
    }
    #[inline(always)]
    fn rook(self, sq: Square, occupied: SquareSet) -> SquareSet {
        rook_attacks(sq, occupied)
    }
}

/// PEXT lookups. A value exists only on a CPU found to have BMI2 ([`Pext::fast`]), so
/// its lookups are sound; they are fast where inlined into code compiled with BMI2.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Pext(());

#[cfg(target_arch = "x86_64")]
impl Pext {
    /// `Some` on a CPU with BMI2 whose PEXT is fast. AMD's families 15h to 18h (up to
    /// Zen 2, and Hygon's Zen) run PEXT in microcode, many times slower than a magic
    /// lookup; Intel since Haswell and AMD since Zen 3 run it in one instruction.
    pub(crate) fn fast() -> Option<Pext> {
        static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        let fast = *FAST.get_or_init(|| {
            if !std::is_x86_feature_detected!("bmi2") {
                return false;
            }
            use core::arch::x86_64::__cpuid;
            let vendor = __cpuid(0);
            let vendor = [vendor.ebx, vendor.edx, vendor.ecx];
            // "AuthenticAMD" and "HygonGenuine", as CPUID spells them in three registers.
            let amd = vendor == [0x6874_7541, 0x6974_6e65, 0x444d_4163];
            let hygon = vendor == [0x6f67_7948, 0x6e65_476e, 0x656e_6975];
            if !(amd || hygon) {
                return true;
            }
            let eax = __cpuid(1).eax;
            let base = (eax >> 8) & 0xf;
            let family = if base == 0xf {
                base + ((eax >> 20) & 0xff)
            } else {
                base
            };
            family >= 0x19
        });
        fast.then_some(Pext(()))
    }

    /// A `Pext` on any CPU with BMI2, fast or not (for tests).
    #[cfg(test)]
    pub(crate) fn detected() -> Pext {
        assert!(std::is_x86_feature_detected!("bmi2"));
        Pext(())
    }
}

#[cfg(target_arch = "x86_64")]
impl Sliders for Pext {
    #[inline(always)]
    fn bishop(self, sq: Square, occupied: SquareSet) -> SquareSet {
        // SAFETY: a `Pext` exists only where BMI2 was detected (`Pext::fast`).
        unsafe { pext_lookup(&BISHOP_MAGICS[sq.index()], occupied) }
    }
    #[inline(always)]
    fn rook(self, sq: Square, occupied: SquareSet) -> SquareSet {
        // SAFETY: as for `bishop`.
        unsafe { pext_lookup(&ROOK_MAGICS[sq.index()], occupied) }
    }
}

const fn leaper_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < deltas.len() {
            let f = (sq & 7) as i8 + deltas[i].0;
            let r = (sq >> 3) as i8 + deltas[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[sq] |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

#[inline]
pub fn knight_attacks(sq: Square) -> SquareSet {
    SquareSet(KNIGHT[sq.index()])
}

#[inline]
pub fn king_attacks(sq: Square) -> SquareSet {
    SquareSet(KING[sq.index()])
}

/// The squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> SquareSet {
    SquareSet(PAWN[color.index()][sq.index()])
}

/// Attacks of a piece of `role` and `color` on `sq`.
#[inline]
pub fn attacks(role: Role, color: Color, sq: Square, occupied: SquareSet) -> SquareSet {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

const fn empty_board_table(slider: gen::Slider) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = gen::sliding_attacks(slider, sq as u8, 0);
        sq += 1;
    }
    table
}

static BISHOP_RAYS: [u64; 64] = empty_board_table(gen::Slider::Bishop);
static ROOK_RAYS: [u64; 64] = empty_board_table(gen::Slider::Rook);

/// Bishop attacks from `sq` on an empty board (one table load, no magic indexing).
#[inline]
pub fn bishop_rays(sq: Square) -> SquareSet {
    SquareSet(BISHOP_RAYS[sq.index()])
}

/// Rook attacks from `sq` on an empty board.
#[inline]
pub fn rook_rays(sq: Square) -> SquareSet {
    SquareSet(ROOK_RAYS[sq.index()])
}

/// For each pair of squares on a line: (squares strictly between, the whole line).
const fn ray_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0u8;
    while a < 64 {
        let mut b = 0u8;
        while b < 64 {
            let (fa, ra) = ((a & 7) as i8, (a >> 3) as i8);
            let (fb, rb) = ((b & 7) as i8, (b >> 3) as i8);
            let (df, dr) = (fb - fa, rb - ra);
            let aligned = a != b && (df == 0 || dr == 0 || df == dr || df == -dr);
            if aligned {
                let slider = if df == 0 || dr == 0 {
                    gen::Slider::Rook
                } else {
                    gen::Slider::Bishop
                };
                let from_a = gen::sliding_attacks(slider, a, 1 << b);
                let from_b = gen::sliding_attacks(slider, b, 1 << a);
                between[a as usize][b as usize] = from_a & from_b;
                line[a as usize][b as usize] = (gen::sliding_attacks(slider, a, 0)
                    & gen::sliding_attacks(slider, b, 0))
                    | (1 << a)
                    | (1 << b);
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static RAYS: ([[u64; 64]; 64], [[u64; 64]; 64]) = ray_tables();

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> SquareSet {
    SquareSet(RAYS.0[a.index()][b.index()])
}

/// The full line (edge to edge) through `a` and `b`, if they share one, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> SquareSet {
    SquareSet(RAYS.1[a.index()][b.index()])
}

/// True when `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliders_match_ray_walk() {
        let mut rng = gen::Rng::new(7);
        for _ in 0..2000 {
            let occ = rng.next_u64() & rng.next_u64();
            for sq in Square::all() {
                let o = SquareSet(occ);
                assert_eq!(
                    bishop_attacks(sq, o).0,
                    gen::sliding_attacks(gen::Slider::Bishop, sq.index() as u8, occ)
                );
                assert_eq!(
                    rook_attacks(sq, o).0,
                    gen::sliding_attacks(gen::Slider::Rook, sq.index() as u8, occ)
                );
            }
        }
    }

    /// The run-time PEXT lookups, where this CPU has BMI2, agree with the ray walk.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pext_sliders_match_ray_walk() {
        if !std::is_x86_feature_detected!("bmi2") {
            return;
        }
        let pext = Pext(());
        let mut rng = gen::Rng::new(11);
        for _ in 0..2000 {
            let occ = rng.next_u64() & rng.next_u64();
            for sq in Square::all() {
                let o = SquareSet(occ);
                assert_eq!(
                    pext.bishop(sq, o).0,
                    gen::sliding_attacks(gen::Slider::Bishop, sq.index() as u8, occ)
                );
                assert_eq!(
                    pext.rook(sq, o).0,
                    gen::sliding_attacks(gen::Slider::Rook, sq.index() as u8, occ)
                );
            }
        }
    }

    #[test]
    fn leapers_and_rays() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(king_attacks(Square::E1).count(), 5);
        assert_eq!(pawn_attacks(Color::White, Square::E1).count(), 2);
        assert_eq!(
            between(Square::A1, Square::H8).count(),
            6,
            "b2 c3 d4 e5 f6 g7"
        );
        assert!(between(Square::A1, Square::B3).is_empty());
        assert_eq!(line(Square::A1, Square::B2).count(), 8);
        assert!(aligned(Square::A1, Square::C3, Square::H8));
        for sq in Square::all() {
            assert_eq!(bishop_rays(sq), bishop_attacks(sq, SquareSet::EMPTY));
            assert_eq!(rook_rays(sq), rook_attacks(sq, SquareSet::EMPTY));
        }
    }
}
