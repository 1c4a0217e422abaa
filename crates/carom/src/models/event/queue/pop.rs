//! Handing the events out in time order: the calendar's buckets dealt into the near
//! set one at a time, stale entries dropped as they surface, and the earliest of the
//! near set, the side heap and a popped ball's pending slot taken.

use super::{Ev, Handle, Schedule, Slot, Source, LIST, NEAR, UNLINKED};
use crate::models::event::kinds::is_ball;

impl Schedule {
    /// Brings the earliest slot to the top of the near heap: drops the stale entries
    /// there and deals out ring buckets while the heap is empty.
    // (Always inlined: with the event loop built in two versions (`isa.rs`) it has
    // twice the callers, and the optimiser would otherwise leave it as a call.)
    #[inline(always)]
    fn settle_near(&mut self, ahead: &mut impl FnMut(usize, u32, bool)) {
        loop {
            while let Some(top) = self.near.peek() {
                let (h, t) = (top.h, top.t);
                // Current if the ball still waits here, under this handle, at this
                // time (it may have been filed again since, even here).
                if self.link(h)[1] == NEAR
                    && self.handle_of((h >> 1) as usize) == h
                    && self.time_of(h) == t
                {
                    return;
                }
                self.near.pop();
            }
            if !self.advance(ahead) {
                return;
            }
        }
    }

    /// Deals the next non-empty bucket out to the near heap; `false` if nothing is
    /// left anywhere. Called only with the near heap empty.
    // (Always inlined: with the event loop built in two versions (`isa.rs`) it has
    // twice the callers, and the optimiser would otherwise leave it as a call.)
    #[inline(always)]
    fn advance(&mut self, ahead: &mut impl FnMut(usize, u32, bool)) -> bool {
        self.file_deferred();
        loop {
            // Ring slots lie in `[cur, overflow_from)`: an empty ring is one gone
            // round, or emptied by changes.
            if self.in_ring == 0 && !self.refill() {
                return false;
            }
            if !self.near.is_empty() {
                return true;
            }
            let list = self.ring_list(self.cur);
            let mut h = self.heads[list];
            self.heads[list] = UNLINKED;
            let mut moved = false;
            while h != UNLINKED {
                let next = self.link(h)[0];
                self.file_near(h, self.time_of(h));
                self.in_ring -= 1;
                self.dealt += 1;
                let s = &self.slots[(h >> 1) as usize];
                let other = if h & 1 == 0 { s.other } else { s.cross_other };
                // A collision rewrites its partner's slots as well as its own.
                if is_ball(other) {
                    if let Some(p) = self.slots.get(other as usize) {
                        crate::hint::prefetch(p);
                    }
                }
                ahead((h >> 1) as usize, other, false);
                moved = true;
                h = next;
            }
            if moved {
                // A second round over the same slots (the near heap was empty): what
                // the first round asked for has had time to come, so what depends on
                // it (a ball's cell) can be read without waiting long.
                for e in self.near.iter() {
                    ahead((e.h >> 1) as usize, UNLINKED, true);
                }
            }
            self.cur += 1;
            self.scout = self.heads[self.ring_list(self.cur)];
            if let Some(s) = self.slots.get((self.scout >> 1) as usize) {
                crate::hint::prefetch(s);
            }
            if moved {
                return true;
            }
        }
    }

    /// With the ring and the near heap empty, every pending slot waits in the overflow
    /// list: the ring restarts at the earliest of them and takes those due within its
    /// span. `false` if there are none. The bucket width is chosen afresh here when
    /// the last round of the ring held far fewer or far more slots than a few per
    /// bucket (a gas cooling or heating as it runs): nothing is filed in buckets at
    /// this moment, so the width can change freely.
    fn refill(&mut self) -> bool {
        let mut h = self.heads[self.nb];
        if h == UNLINKED {
            return false;
        }
        let mut sample = std::mem::take(&mut self.sample);
        sample.clear();
        let mut t_min = f64::INFINITY;
        while h != UNLINKED {
            let t = self.time_of(h);
            t_min = t_min.min(t);
            if sample.len() < 1024 {
                sample.push(t);
            }
            h = self.link(h)[0];
        }
        let nb = self.nb as u64;
        if self.dealt < nb || self.dealt > 64 * nb {
            for t in &mut sample {
                *t -= t_min;
            }
            let mid = sample.len() / 2;
            let (_, m, _) = sample.select_nth_unstable_by(mid, f64::total_cmp);
            let w = 8.0 * *m / self.nb as f64;
            if w.is_finite() && w > 0.0 && (1.0 / w).is_finite() {
                self.w = w;
                self.inv_w = 1.0 / w;
            }
        }
        self.sample = sample;
        self.dealt = 0;
        let first = self.bucket(t_min);
        self.cur = first;
        self.overflow_from = first.saturating_add(self.nb as i64);
        let mut h = self.heads[self.nb];
        while h != UNLINKED {
            let [next, prev] = *self.link(h);
            let k = self.bucket(self.time_of(h));
            if k < self.overflow_from {
                self.detach(h, next, prev);
                self.file(h);
            } else if k == first {
                // Bucket numbers saturate only for times beyond `i64::MAX` widths:
                // such slots go to the near heap, which orders them.
                self.detach(h, next, prev);
                self.file_near(h, self.time_of(h));
            }
            h = next;
        }
        true
    }

    /// Time of the earliest event, if any.
    #[cfg(test)]
    pub fn peek_time(&mut self) -> Option<f64> {
        self.settle_near(&mut |_, _, _| {});
        let slots = self.near.peek().map_or(f64::INFINITY, |e| e.t);
        let extra = self.extra.peek().map_or(f64::INFINITY, |e| e.t);
        let pending = self.pending_slot().map_or(f64::INFINITY, |(_, t)| t);
        let t = slots.min(extra).min(pending);
        t.is_finite().then_some(t)
    }

    /// Removes and returns the earliest event (a ball's contact before its crossing at
    /// the same time, a slot before the side heap).
    #[cfg(test)]
    pub fn pop(&mut self) -> Option<(Ev, Source)> {
        self.pop_until(f64::INFINITY, |_, _, _| {})
    }

    /// Walks one node further along the list of the bucket to be dealt next and asks
    /// for the node after it. Dealing a bucket follows its list from slot to slot, one
    /// cache miss after another at a million balls; walked ahead, one step per event,
    /// each node's slot has long arrived when it is needed. The list may change under
    /// the walk (a slot unlinked, filed elsewhere): the walk then fetches slots that
    /// are not needed, and is reset at the next dealing.
    ///
    /// With `early` (large schedules, whose balls are not in cache) the walk also tells
    /// `ahead` of each ball it passes, as the dealing does (first round at the node,
    /// second round one node later), a whole bucket earlier; small ones measured
    /// slower for it.
    /// (Always inlined: it runs at every event, where a call costs more than its body.)
    #[inline(always)]
    fn scout(&mut self, ahead: &mut impl FnMut(usize, u32, bool)) {
        let h = self.scout;
        self.scout = UNLINKED;
        if !self.early {
            self.scouted = UNLINKED;
        }
        if let Some(s) = self.slots.get((self.scouted >> 1) as usize) {
            let k = self.scouted;
            ahead((k >> 1) as usize, Self::other_of(s, k), true);
        }
        self.scouted = UNLINKED;
        if h >= LIST {
            return;
        }
        let Some(s) = self.slots.get((h >> 1) as usize) else {
            return;
        };
        let next = s.links[0];
        if self.early {
            ahead((h >> 1) as usize, Self::other_of(s, h), false);
            self.scouted = h;
        }
        if let Some(s) = self.slots.get((next >> 1) as usize) {
            crate::hint::prefetch(s);
            self.scout = next;
        }
    }

    /// The partner code of slot `h` (its contact's `other`, or its crossing's).
    #[inline]
    pub(super) fn other_of(s: &Slot, h: Handle) -> u32 {
        if h & 1 == 0 {
            s.other
        } else {
            s.cross_other
        }
    }

    /// Removes and returns the earliest event if it is due no later than `limit`.
    /// `ahead` hears of each ball whose slot joins the near heap, with the slot's
    /// `other` code, a dozen events or so before it is due: time enough to fetch the
    /// balls' data into cache. It hears of each ball twice: first with `false`, then,
    /// once what the first call asked for has had time to arrive, with `true` (and
    /// `other` only as a hint), for what can be fetched only after reading the first.
    // (Always inlined: with the event loop built in two versions (`isa.rs`) it has
    // twice the callers, and the optimiser would otherwise leave it as a call.)
    #[inline(always)]
    pub fn pop_until(
        &mut self,
        limit: f64,
        mut ahead: impl FnMut(usize, u32, bool),
    ) -> Option<(Ev, Source)> {
        self.settle_near(&mut ahead);
        let top = self
            .near
            .peek()
            .map_or((f64::INFINITY, UNLINKED), |e| (e.t, e.h));
        let extra = self.extra.peek().map_or(f64::INFINITY, |e| e.t);
        let t = top.0.min(extra);
        if let Some((h, tp)) = self.pending_slot() {
            // The order is (time, handle), slots before the side heap.
            let first = (tp < top.0 || (tp == top.0 && h < top.1)) && tp <= extra;
            if tp.min(t) > limit {
                // Left pending: what comes next will most likely rewrite it.
                return None;
            }
            if first {
                self.scout(&mut ahead);
                return Some(self.take(h));
            }
            // Something else comes first: the ball is filed after it, which leaves
            // the near heap's top and `t` as they are.
            self.pending = UNLINKED;
            self.file(h);
        }
        if !t.is_finite() || t > limit {
            return None;
        }
        self.scout(&mut ahead);
        match self.near.peek() {
            Some(top) if top.t == t => {
                let h = top.h;
                self.near.pop();
                *self.link(h) = [UNLINKED, UNLINKED];
                Some(self.take(h))
            }
            _ => self.extra.pop().map(|e| (e, Source::Extra)),
        }
    }

    /// Whether nothing can be due by `limit`, as far as can be told without sorting
    /// out the near heap: its earliest entry (stale or not) is later, and so are the
    /// side heap's and the pending ball's other slot. Every slot in the ring is due
    /// after every entry of the near heap (its bucket is later), so nothing anywhere
    /// is due by `limit`, and [`Schedule::pop_until`] would return `None`. `false`
    /// when it cannot tell (the near heap is empty).
    #[inline]
    pub fn nothing_due_by(&mut self, limit: f64) -> bool {
        let Some(top) = self.near.peek() else {
            return false;
        };
        top.t > limit
            && self.extra.peek().is_none_or(|e| e.t > limit)
            && self.pending_slot().is_none_or(|(_, t)| t > limit)
    }

    /// The last popped ball's other slot while the ball is filed nowhere and the slot
    /// holds an event: its handle and time.
    ///
    /// Popping a ball's event leaves the ball unfiled, because what follows nearly
    /// always rewrites its slots (a collision predicts both afresh, a crossing the
    /// next crossing): filing the other slot at once would be undone straight away.
    /// It is filed only when another event is popped first.
    #[inline]
    fn pending_slot(&mut self) -> Option<(Handle, f64)> {
        let p = self.pending as usize;
        let s = self.slots.get(p)?;
        if s.links[1] != UNLINKED {
            // Filed again since it was popped.
            self.pending = UNLINKED;
            return None;
        }
        let h = self.handle_of(p);
        let t = self.time_of(h);
        if t == f64::INFINITY {
            self.pending = UNLINKED;
            return None;
        }
        Some((h, t))
    }

    /// Empties slot `h`, unlinked, and returns its event; its ball is left pending.
    #[inline]
    fn take(&mut self, h: Handle) -> (Ev, Source) {
        let i = (h >> 1) as usize;
        self.pending = i as u32;
        if h & 1 == 0 {
            let e = self.contact(i);
            let s = &mut self.slots[i];
            (s.t, s.other) = (f64::INFINITY, u32::MAX);
            (e, Source::Contact)
        } else {
            let s = &mut self.slots[i];
            let e = Ev {
                t: s.cross_t,
                i: i as u32,
                other: s.cross_other,
                ci: 0,
                cj: 0,
            };
            (s.cross_t, s.cross_other) = (f64::INFINITY, u32::MAX);
            (e, Source::Crossing)
        }
    }
}
