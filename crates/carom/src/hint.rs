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
