//! The event loop compiled twice: once for any x86-64 processor, once for processors
//! with AVX-512 (and the rest of the x86-64-v4 level), chosen when the model is built.
//!
//! Why: at 10^4 balls the model is bound by the instructions it executes, and with
//! AVX-512 the compiler writes its many selects (the earliest of a block's pair times,
//! a ball's exit through the near or the far side of its cell) as masked moves, and
//! does two axes' divisions at once under a mask: the benchmark at 10^4 balls makes
//! about 1.1 times the collisions per second (docs/performance-history.md, the
//! fourteenth round). The portable build must still run on every x86-64 (the Python
//! package's wheels), so the wide version is only taken where the processor says it has
//! every feature it was compiled for.
//!
//! Results are the same to the bit either way: Rust never fuses a multiply and an add
//! on its own (fused multiply-add is enabled, but only an explicit `mul_add` would use
//! it), and every other operation is IEEE arithmetic, exact to the same rounding
//! whichever instructions carry it. A test runs both versions side by side.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether this processor can run the wide version: every feature the
/// `two_versions!` methods are compiled for (the standard library caches the answer).
pub fn wide_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512cd")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("avx")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("f16c")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("movbe")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("sse3")
            && std::arch::is_x86_feature_detected!("ssse3")
            && std::arch::is_x86_feature_detected!("sse4.1")
            && std::arch::is_x86_feature_detected!("sse4.2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Set by [`set_portable_only`].
static PORTABLE_ONLY: AtomicBool = AtomicBool::new(false);

/// Makes models built from now on run the portable version even where the wide one
/// could run (for benchmarks that compare the two; the results are the same).
#[cfg(feature = "internals")]
pub fn set_portable_only(on: bool) {
    PORTABLE_ONLY.store(on, Ordering::Relaxed);
}

/// Whether a new model runs the wide version.
pub(super) fn wide_by_default() -> bool {
    wide_supported() && !PORTABLE_ONLY.load(Ordering::Relaxed)
}

/// Defines an `Event` method in two versions over one body: `$name` calls the wide
/// version when the model chose it (`Event::wide`), else the portable one. `$body`
/// must be an `#[inline(always)]` method: compiled into the wide version, it and
/// everything it inlines use the wide instructions.
///
/// The choice itself is inlined where the method is called, so that the wide code
/// calls the wide versions directly (a branch the predictor always gets right); the
/// portable version is kept out of line, as the method was before it had two.
macro_rules! two_versions {
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident / $portable:ident / $wide:ident => $body:ident
            (&mut self $(, $arg:ident : $ty:ty)* $(,)?) $(-> $ret:ty)?
    ) => {
        $(#[$attr])*
        #[inline(always)]
        $vis fn $name(&mut self $(, $arg: $ty)*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            if self.wide {
                // SAFETY: `wide` is set only where `isa::wide_supported` found every
                // feature the wide version is compiled for.
                return unsafe { self.$wide($($arg),*) };
            }
            self.$portable($($arg),*)
        }

        #[inline(never)]
        fn $portable(&mut self $(, $arg: $ty)*) $(-> $ret)? {
            self.$body($($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        // The x86-64-v4 level; `isa::wide_supported` checks the same list.
        #[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx2,avx,fma,f16c,bmi1,bmi2,lzcnt,movbe,popcnt,sse3,ssse3,sse4.1,sse4.2")]
        fn $wide(&mut self $(, $arg: $ty)*) $(-> $ret)? {
            self.$body($($arg),*)
        }
    };
}
