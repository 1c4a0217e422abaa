//! Hints to the processor that change speed, never results.

/// Asks for the cache line holding `v`: for sparse reads whose addresses are known a
/// little before the data is needed.
#[inline(always)]
pub(crate) fn prefetch<T>(v: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; the address is that of a live reference.
    #[allow(unused_unsafe)]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((v as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = v;
}

/// Asks for the cache line holding `s[k]`, without a bounds check: a prefetch never
/// touches memory as far as the program can tell, so an index past the end (never
/// asked for here) would only waste the hint.
#[inline(always)]
pub(crate) fn prefetch_at<T>(s: &[T], k: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint and cannot fault, whatever the address; the
    // pointer is computed with wrapping arithmetic and never dereferenced.
    #[allow(unused_unsafe)]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(s.as_ptr().wrapping_add(k).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (s, k);
}

/// Asks for every cache line of `s[k]` (its first and its last byte: a record of up to
/// 64 bytes spans at most two lines), without a bounds check, as [`prefetch_at`].
#[inline(always)]
pub(crate) fn prefetch_whole_at<T>(s: &[T], k: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `prefetch_at`: a hint that cannot fault, to an address computed
    // with wrapping arithmetic and never dereferenced.
    #[allow(unused_unsafe)]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let first = s.as_ptr().wrapping_add(k).cast::<i8>();
        _mm_prefetch::<_MM_HINT_T0>(first);
        _mm_prefetch::<_MM_HINT_T0>(first.wrapping_add(std::mem::size_of::<T>() - 1));
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (s, k);
}
