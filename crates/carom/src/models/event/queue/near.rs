//! The near set of the schedule: the few slots due before the calendar's current
//! bucket, popped in exact (time, handle) order.
//!
//! A binary heap like the standard library's, with one difference that matters here:
//! going down, the earlier of two children is chosen by arithmetic on the index, not
//! by a branch. The heap holds about ten entries at a pop, dealt from a bucket in no
//! particular order, so which child is earlier is a coin toss that a branch predictor
//! loses half the time; each pop took several such losses.

/// A slot waiting in the near set, keyed by its time when it was put there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Near {
    pub(super) t: f64,
    pub(super) h: u32,
}

/// Whether `a` comes before `b`: the earlier time, then the lower handle (times are
/// never NaN; 0.0 and -0.0 count as equal). Both tests are evaluated, so the result
/// is a value, not a branch.
#[inline(always)]
fn before(a: &Near, b: &Near) -> bool {
    (a.t < b.t) | ((a.t == b.t) & (a.h < b.h))
}

/// A min-heap of [`Near`] entries, earliest on top.
#[derive(Debug, Clone, Default)]
pub(super) struct NearHeap {
    v: Vec<Near>,
}

crate::copying::copy_fields!(NearHeap { v });

impl NearHeap {
    pub(super) fn clear(&mut self) {
        self.v.clear();
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.v.is_empty()
    }

    /// The earliest entry.
    #[inline]
    pub(super) fn peek(&self) -> Option<&Near> {
        self.v.first()
    }

    /// The entries, in no particular order.
    pub(super) fn iter(&self) -> std::slice::Iter<'_, Near> {
        self.v.iter()
    }

    #[inline]
    pub(super) fn push(&mut self, e: Near) {
        self.v.push(e);
        let last = self.v.len() - 1;
        self.sift_up(last, e);
    }

    /// Removes and returns the earliest entry.
    /// (Always inlined: it runs at every event, where a call costs more than its body.)
    #[inline(always)]
    pub(super) fn pop(&mut self) -> Option<Near> {
        let last = self.v.pop()?;
        let Some(&top) = self.v.first() else {
            return Some(last);
        };
        // Down to the bottom along the earlier children (the hole left by the top
        // moves down), then the old last entry climbs back from there: it is seldom
        // earlier than much, so the climb is short.
        let n = self.v.len();
        let mut pos = 0;
        loop {
            let c = 2 * pos + 1;
            if c + 1 < n {
                let c = c + before(&self.v[c + 1], &self.v[c]) as usize;
                self.v[pos] = self.v[c];
                pos = c;
            } else {
                if c < n {
                    self.v[pos] = self.v[c];
                    pos = c;
                }
                break;
            }
        }
        self.sift_up(pos, last);
        Some(top)
    }

    /// Puts `e` at `pos` or above it, moving later entries down.
    #[inline]
    fn sift_up(&mut self, mut pos: usize, e: Near) {
        while pos > 0 {
            let parent = (pos - 1) / 2;
            if !before(&e, &self.v[parent]) {
                break;
            }
            self.v[pos] = self.v[parent];
            pos = parent;
        }
        self.v[pos] = e;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pops come out in (time, handle) order whatever the order of the pushes,
    /// with pushes and pops interleaved, ties in time included: checked against a
    /// sort of the same entries.
    #[test]
    fn pops_in_time_then_handle_order() {
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        for round in 0..200 {
            let mut heap = NearHeap::default();
            let mut reference: Vec<Near> = Vec::new();
            let mut popped = Vec::new();
            let mut expected = Vec::new();
            for _ in 0..(round % 40 + 1) {
                // Few distinct times, so that ties are common.
                let e = Near {
                    t: (next() % 8) as f64 * 0.5,
                    h: next() % 64,
                };
                heap.push(e);
                reference.push(e);
                if next() % 3 == 0 {
                    reference.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.h.cmp(&b.h)));
                    expected.push(reference.remove(0));
                    popped.push(heap.pop().unwrap());
                }
            }
            reference.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.h.cmp(&b.h)));
            expected.extend(reference.iter().copied());
            while let Some(e) = heap.pop() {
                popped.push(e);
            }
            assert_eq!(popped, expected, "round {round}");
        }
    }
}
