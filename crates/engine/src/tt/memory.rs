//! The table's memory: one zeroed block, aligned to 2 MiB when it is at least that
//! large, which Linux is asked to back with huge pages (`madvise(MADV_HUGEPAGE)`) before
//! anything touches it.
//!
//! Why: every probe and every prefetch of the table lands on a random page, so with
//! 4 KiB pages nearly each one also misses the TLB and waits for a page walk (the
//! prefetch instruction itself stalled for it in a profile of data generation). With
//! 2 MiB pages a 16 MiB table is eight TLB entries. Most Linux systems (Debian, Ubuntu)
//! set transparent huge pages to `madvise`, so a plain allocation gets none; where they
//! are off or the kernel has none free, the advice is ignored and the table works as
//! before. The figures are in `results/2026-12-08/huge-pages.md`.

use std::alloc::{alloc, dealloc, Layout};
use std::ptr::NonNull;

/// The size of an x86-64 (and common AArch64) huge page.
const HUGE_PAGE: usize = 2 << 20;

/// `len` values of `T`, all bytes zero when made, freed on drop.
pub(super) struct ZeroedBlock<T> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: the block owns its values as a `Box<[T]>` would, so it may cross and be shared
// between threads exactly when `T` may.
unsafe impl<T: Send> Send for ZeroedBlock<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for ZeroedBlock<T> {}

impl<T> ZeroedBlock<T> {
    /// `len` (at least one) zeroed values, or `None` if the memory cannot be had.
    ///
    /// # Safety
    /// All-zero bytes must be a valid `T` (the table's clusters are atomic integers).
    pub(super) unsafe fn new(len: usize) -> Option<ZeroedBlock<T>> {
        let len = len.max(1);
        let layout = Layout::array::<T>(len).ok()?;
        let align = if layout.size() >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            layout.align().max(64)
        };
        let layout = layout.align_to(align).ok()?;
        if layout.size() == 0 {
            return None; // a zero-sized `T`: nothing to allocate, and no table uses one
        }
        // SAFETY: the layout's size is not zero (checked just above).
        let raw = unsafe { alloc(layout) };
        let ptr = NonNull::new(raw.cast::<T>())?;
        advise_huge_pages(raw, layout.size());
        // SAFETY: `raw` is a fresh allocation of `layout.size()` bytes; writing zeros
        // makes every value valid by the caller's promise. Zeroing after the advice
        // means the first touch of each 2 MiB range can be served by one huge page.
        unsafe { std::ptr::write_bytes(raw, 0, layout.size()) };
        Some(ZeroedBlock { ptr, len, layout })
    }
}

impl<T> std::ops::Deref for ZeroedBlock<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised values (zeroed, valid by `new`'s
        // contract) for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for ZeroedBlock<T> {
    fn drop(&mut self) {
        // SAFETY: the values are initialised and dropped once, here; then the memory
        // is freed with the layout it was allocated with.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ));
            dealloc(self.ptr.as_ptr().cast(), self.layout);
        }
    }
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, size: usize) {
    if size < HUGE_PAGE {
        return;
    }
    // SAFETY: `ptr..ptr + size` is one allocation of ours, aligned to 2 MiB; the advice
    // changes how the kernel backs it, never its contents or validity. A failure
    // (huge pages compiled out or disabled) leaves ordinary pages, so it is ignored.
    unsafe {
        libc::madvise(ptr.cast(), size, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _size: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    #[test]
    fn large_blocks_are_zeroed_and_aligned_to_huge_pages() {
        // SAFETY: zero is a valid `AtomicU64`.
        let block = unsafe { ZeroedBlock::<AtomicU64>::new(3 * HUGE_PAGE / 8 + 5) }.unwrap();
        assert_eq!(block.len(), 3 * HUGE_PAGE / 8 + 5);
        assert_eq!(block.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(block.iter().all(|v| v.load(Relaxed) == 0));
        block[block.len() - 1].store(7, Relaxed);
        assert_eq!(block[block.len() - 1].load(Relaxed), 7);
    }

    #[test]
    fn small_blocks_are_cache_line_aligned() {
        // SAFETY: zero is a valid `u64`.
        let block = unsafe { ZeroedBlock::<u64>::new(0) }.unwrap();
        assert_eq!(block.len(), 1);
        assert_eq!(block.as_ptr() as usize % 64, 0);
        assert_eq!(block[0], 0);
    }
}
