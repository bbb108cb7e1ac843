//! The integer kernels of inference: the accumulator update (a parent's vector plus
//! some feature rows minus others, in wrapping `i16` arithmetic), the refresh (the biases
//! plus a position's rows, for a mirrored net's king crossing the d/e line) and the SCReLU
//! dot product (`Σ clamp(x, 0, QA)² · w`, summed in wrapping `i32`).
//!
//! Each has a portable version and an AVX2 version, chosen at run time (the binary runs
//! on any x86-64). The AVX2 dot product computes `clamp(x)·w` in 16 bits (exact: the
//! loader guarantees `QA·|w| < 2^15`), then `madd` with `clamp(x)` into 32-bit lanes; the
//! portable one does the same products, and since wrapping addition is associative the
//! two give the same bits in any summation order.
//!
//! Why `unsafe` AVX2 at all: incremental update plus evaluation along random games took
//! 584 ns with the portable kernels and 327 ns with AVX2 at H = 64, 749 and 567 ns at
//! H = 256 (`cargo run --release -p sable_engine --example nnue_speed`, this 2-core machine, 2026-12-01).

use super::QA;

/// Which kernels to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Portable,
    /// Only constructed when the CPU has AVX2 (see [`Backend::avx2`]).
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2Token),
}

/// Proof that AVX2 was detected: only `Backend::avx2` makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2Token(());

impl Backend {
    /// The fastest backend this CPU supports.
    pub fn detect() -> Backend {
        Backend::avx2().unwrap_or(Backend::Portable)
    }

    /// The AVX2 backend, if the CPU has AVX2.
    pub fn avx2() -> Option<Backend> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Some(Backend::Avx2(Avx2Token(())));
        }
        None
    }

    /// `dst = src + Σ adds − Σ subs`, lane by lane, wrapping.
    #[inline]
    pub fn update(self, dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        assert!(src.len() == dst.len() && src.len().is_multiple_of(16));
        assert!(adds.iter().chain(subs).all(|r| r.len() == dst.len()));
        match self {
            Backend::Portable => update_portable(dst, src, adds, subs),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the token exists only if AVX2 was detected; the lengths were
            // checked above (all equal, a multiple of 16 lanes).
            Backend::Avx2(_) => unsafe { avx2::update(dst, src, adds, subs) },
        }
    }

    /// `dst = bias + Σ rows`, lane by lane, wrapping.
    #[inline]
    pub fn refresh(self, dst: &mut [i16], bias: &[i16], rows: &[&[i16]]) {
        assert!(bias.len() == dst.len() && bias.len().is_multiple_of(16));
        assert!(rows.iter().all(|r| r.len() == dst.len()));
        match self {
            Backend::Portable => update_portable(dst, bias, rows, &[]),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`; lengths checked above.
            Backend::Avx2(_) => unsafe { avx2::update(dst, bias, rows, &[]) },
        }
    }

    /// `Σ clamp(x, 0, QA)² · w` in wrapping `i32`.
    #[inline]
    pub fn screlu_dot(self, x: &[i16], w: &[i16]) -> i32 {
        assert!(x.len() == w.len() && x.len().is_multiple_of(16));
        match self {
            Backend::Portable => screlu_dot_portable(x, w),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`; lengths checked above.
            Backend::Avx2(_) => unsafe { avx2::screlu_dot(x, w) },
        }
    }
}

fn update_portable(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    dst.copy_from_slice(src);
    for row in adds {
        for (d, a) in dst.iter_mut().zip(row.iter()) {
            *d = d.wrapping_add(*a);
        }
    }
    for row in subs {
        for (d, s) in dst.iter_mut().zip(row.iter()) {
            *d = d.wrapping_sub(*s);
        }
    }
}

fn screlu_dot_portable(x: &[i16], w: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in x.iter().zip(w) {
        let v = (x as i32).clamp(0, QA);
        let vw = (v * w as i32) as i16 as i32;
        sum = sum.wrapping_add(v * vw);
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::QA;
    use std::arch::x86_64::*;

    /// # Safety
    /// The CPU must support AVX2; every slice has `dst.len()` lanes, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        // Tiles of 128 lanes held in eight registers, so each row is walked once per
        // tile rather than once per 16 lanes (the rows' loop, not the arithmetic, was
        // the kernel's cost); what is left over goes 16 lanes at a time.
        const TILE: usize = 8;
        let tiled = dst.len() / (16 * TILE) * (16 * TILE);
        for t in (0..tiled).step_by(16 * TILE) {
            // SAFETY (all loads and stores of this loop): `t + 16 * TILE <= len` for
            // every slice; unaligned forms.
            let mut v = [_mm256_setzero_si256(); TILE];
            for (k, v) in v.iter_mut().enumerate() {
                *v = _mm256_loadu_si256(src.as_ptr().add(t + 16 * k).cast());
            }
            for row in adds {
                for (k, v) in v.iter_mut().enumerate() {
                    let r = _mm256_loadu_si256(row.as_ptr().add(t + 16 * k).cast());
                    *v = _mm256_add_epi16(*v, r);
                }
            }
            for row in subs {
                for (k, v) in v.iter_mut().enumerate() {
                    let r = _mm256_loadu_si256(row.as_ptr().add(t + 16 * k).cast());
                    *v = _mm256_sub_epi16(*v, r);
                }
            }
            for (k, v) in v.iter().enumerate() {
                _mm256_storeu_si256(dst.as_mut_ptr().add(t + 16 * k).cast(), *v);
            }
        }
        for i in (tiled..dst.len()).step_by(16) {
            // SAFETY (all loads and stores here): `i + 16 <= len` for every slice, and
            // the unaligned forms are used, so any `i16` slice is valid.
            let mut v = _mm256_loadu_si256(src.as_ptr().add(i).cast());
            for row in adds {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
            }
            for row in subs {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
            }
            _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), v);
        }
    }

    /// # Safety
    /// The CPU must support AVX2; `x` and `w` have the same length, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(x: &[i16], w: &[i16]) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..x.len()).step_by(16) {
            // SAFETY: `i + 16 <= len` for both slices; unaligned loads.
            let v = _mm256_loadu_si256(x.as_ptr().add(i).cast());
            let v = _mm256_min_epi16(_mm256_max_epi16(v, zero), qa);
            let wv = _mm256_loadu_si256(w.as_ptr().add(i).cast());
            let vw = _mm256_mullo_epi16(v, wv);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum);
        lanes.iter().fold(0i32, |a, &b| a.wrapping_add(b))
    }
}
