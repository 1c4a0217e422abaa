//! Hints to the memory system. With a million balls an event's ball is anywhere in
//! memory, and its position, velocity, clock and cell each sit in a different array:
//! asked for together as soon as the ball is known, the cache misses overlap instead of
//! being met one after another as the event's code reaches each field. Hints only:
//! nothing read or computed changes.

use super::Event;
use crate::balls::Balls;

/// Asks for the cache line holding `v[i]` (nothing if `i` is out of range).
#[inline(always)]
pub(super) fn prefetch<T>(v: &[T], i: usize) {
    let Some(x) = v.get(i) else { return };
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; the address is that of a live reference.
    #[allow(unused_unsafe)]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

impl Event {
    /// Asks for what any event of ball `i` reads first: its motion, clock, counter
    /// and cell.
    #[inline]
    pub(super) fn prefetch_ball(&self, b: &Balls, i: usize) {
        prefetch(&b.x, i);
        prefetch(&b.y, i);
        prefetch(&b.vx, i);
        prefetch(&b.vy, i);
        prefetch(&b.r, i);
        prefetch(&b.inv_m, i);
        prefetch(&self.t, i);
        prefetch(&self.counter, i);
        self.cells.prefetch(i);
    }

    /// Asks for the data of the ball whose event is due next (the tree's top), and
    /// for its slots, before the slots are read.
    #[inline]
    pub(super) fn prefetch_next(&self, b: &Balls) {
        if let Some(i) = self.queue.top_ball() {
            self.queue.prefetch(i);
            self.prefetch_ball(b, i);
        }
    }
}
