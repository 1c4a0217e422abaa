//! The event schedule. Each ball owns two slots: its earliest predicted contact (with a
//! wall or a neighbour) and its next cell crossing, and is filed under the earlier of
//! the two (one event per ball). A calendar queue over the balls ([`Schedule`]) hands
//! the events out in time order; changing a slot costs O(1) on average (unlink, file
//! in its time bucket), and nothing stale accumulates. A contact slot can still go stale when the partner changes course: the
//! partner's event counter then differs from the one recorded, and the owner predicts
//! afresh when the slot comes due.
//!
//! A ball's other contacts due at the same time within round-off as its earliest (a
//! symmetric rack, seed 001's double collision) go to a small side heap, so that a
//! simultaneous impact is seen whole. Outside such scenes it stays empty.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use near::{Near, NearHeap};

use super::kinds;
pub use super::kinds::Kind;

mod near;
mod pop;
#[cfg(test)]
mod tests;

/// Largest ball count the encoding leaves room for: two slot handles per ball below
/// the schedule's list marks (`2^31`).
pub const MAX_BALLS: usize = 1 << 30;

#[derive(Debug, Clone, Copy)]
pub struct Ev {
    pub t: f64,
    pub i: u32,
    /// The partner's code (`kinds.rs`): another ball, a wall, an exit, the end of a
    /// course or a cell crossing.
    pub other: u32,
    /// Event counters of ball `i` and (for a pair) ball `j` when predicted.
    pub ci: u32,
    pub cj: u32,
}

impl Ev {
    pub const NONE: Ev = Ev {
        t: f64::INFINITY,
        i: u32::MAX,
        other: kinds::NO_PARTNER,
        ci: 0,
        cj: 0,
    };

    #[inline]
    pub fn kind(&self) -> Kind {
        kinds::kind(self.other)
    }
}

impl PartialEq for Ev {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ev {}

impl PartialOrd for Ev {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ev {
    /// Reversed so the max-heap pops the earliest event. Ties are broken by the balls
    /// and the kind, so the order, and hence every run, is deterministic.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .t
            .total_cmp(&self.t)
            .then_with(|| other.i.cmp(&self.i))
            .then_with(|| other.other.cmp(&self.other))
            .then_with(|| other.ci.cmp(&self.ci))
            .then_with(|| other.cj.cmp(&self.cj))
    }
}

/// Both slots of one ball and its calendar links, side by side: an event reads and
/// rewrites its ball's slots and links together, so they share cache lines (40 bytes
/// a ball). Only the earlier of the two slots is filed (one event per ball): the
/// other cannot come due before it, and most events rewrite both.
#[derive(Debug, Clone, Copy)]
struct Slot {
    /// The contact: time, partner code and the event counters (the owner is the
    /// slot's index).
    t: f64,
    other: u32,
    ci: u32,
    cj: u32,
    /// The crossing keeps only its direction code (`CROSS + d`) and time: no counter
    /// is ever checked for it.
    cross_other: u32,
    cross_t: f64,
    /// `[next, prev]` of the ball's filed handle.
    links: [u32; 2],
}

impl Slot {
    const EMPTY: Slot = Slot {
        t: f64::INFINITY,
        other: u32::MAX,
        ci: 0,
        cj: 0,
        cross_other: u32::MAX,
        cross_t: f64::INFINITY,
        links: [UNLINKED, UNLINKED],
    };
}

/// Where a popped event came from.
#[derive(Debug, Clone, Copy)]
pub enum Source {
    /// A ball's contact slot (now emptied).
    Contact,
    /// A ball's crossing slot (now emptied).
    Crossing,
    /// The side heap of near-tie contacts.
    Extra,
}

/// A slot is named by a handle: `2 i` is ball `i`'s contact slot, `2 i + 1` its
/// crossing slot, so ordering handles orders by ball and then puts a contact first.
/// A ball is filed under the handle of its earlier slot (the contact on a tie).
type Handle = u32;

/// Link values that are not handles. A handle below `LIST` is a node of a list; a
/// `prev` of `LIST + k` marks the head of list `k` (bucket `k`, or the overflow list);
/// `NEAR` marks a slot waiting in the near heap; `DEFERRED` a ball waiting to be filed
/// in the ring (see `Schedule::file_ball_soon`); `UNLINKED` a slot in no structure.
const LIST: u32 = 1 << 31;
const DEFERRED: u32 = u32::MAX - 2;
const NEAR: u32 = u32::MAX - 1;
const UNLINKED: u32 = u32::MAX;

/// From this many balls on, the walk ahead of the dealing announces the balls it
/// passes (`Schedule::scout`).
pub const EARLY_FROM: usize = 1 << 17;

/// At most this many balls wait to be filed in the ring (see
/// `Schedule::file_ball_soon`); beyond it a ball is filed at once.
const MAX_DEFERRED: usize = 64;

/// Balls per ring bucket (see `Schedule::reset`).
const NB_PER_BALL: usize = 2;

/// A calendar queue over the slots (Brown's calendar, in the two-level form of Paul's
/// event queue for hard-sphere dynamics): time is cut into buckets of width `w`;
/// bucket `k` holds the slots due in `[k w, (k + 1) w)` (bucket 0 also `(-w, 0)`). A
/// ring of `nb` doubly linked bucket lists covers the buckets from `cur` up to
/// `overflow_from`; later slots wait in one overflow list, dealt out to the ring each
/// time the ring runs empty.
/// Slots due before bucket `cur` sit in a small binary heap, the near set, from which
/// events are popped in exact (time, ball, slot) order.
///
/// Setting a slot unlinks its ball from wherever it was (O(1): the links are stored
/// with the ball) and files it again under its earlier slot: nothing stale is ever kept
/// in the ring. Only the near heap is lazy: a ball changed while it waits there leaves
/// an entry behind, recognised when it surfaces because the ball is no longer in the
/// near set under that handle at that time. A popped ball stays unfiled until it is
/// rewritten or another event comes first (see `Schedule::pop_until`).
///
/// The order of events is exactly that of any correct priority queue keyed by (time,
/// ball, contact before crossing): the bucket index never decreases as `t` grows, so every slot in the near heap is due no later than every slot left in
/// the ring or the overflow list.
#[derive(Debug, Clone, Default)]
pub struct Schedule {
    /// Each ball's slots and links (`prev` also tells where a slot is filed), then one
    /// spare, never filed, that takes the back link of a list's missing neighbour (see
    /// `Schedule::back_of`).
    slots: Vec<Slot>,
    /// The number of balls, and the index of the spare slot.
    n: usize,
    /// First handle of each ring bucket (`UNLINKED`: empty), then of the overflow list
    /// (the last entry).
    heads: Vec<u32>,
    /// Number of ring buckets, a power of two, and the mask for `k mod nb`.
    nb: usize,
    /// Bucket width and its inverse.
    w: f64,
    inv_w: f64,
    /// The first bucket not yet dealt to the near heap.
    cur: i64,
    /// Buckets from here on wait in the overflow list.
    overflow_from: i64,
    /// Slots filed in the ring (not counting the overflow list).
    in_ring: usize,
    /// Slots dealt from the ring to the near heap since it was last refilled.
    dealt: u64,
    /// A node of the next bucket's list, walked one node per popped event ahead of
    /// the dealing (`UNLINKED`: none).
    scout: u32,
    /// The node the walk passed last (`UNLINKED`: none), for the second round.
    scouted: u32,
    /// Whether the walk announces balls a bucket early (see `Schedule::scout`).
    early: bool,
    near: NearHeap,
    /// Balls whose slots are written but which wait to be filed in the ring, until
    /// before the next bucket is dealt (large schedules only).
    deferred: Vec<u32>,
    /// The ball whose event was popped last, while it is filed nowhere (`UNLINKED`:
    /// none). Its other slot is filed only if nothing rewrites the ball first (a
    /// collision rewrites both slots, a crossing its own): see `Schedule::pop_until`.
    pending: u32,
    extra: BinaryHeap<Ev>,
    /// Scratch for the width estimate.
    sample: Vec<f64>,
}

crate::copying::copy_fields!(Schedule {
    slots, n, heads, nb, w, inv_w, cur, overflow_from, in_ring, dealt, scout, scouted, early,
    deferred, pending, extra, sample
} deep {
    near
});

impl Schedule {
    /// Empties every slot for `n` balls.
    pub fn reset(&mut self, n: usize) {
        self.slots.clear();
        self.slots.resize(n + 1, Slot::EMPTY);
        self.n = n;
        // One bucket per two balls: with the width chosen by `build` (the ring spans
        // eight median waits), a bucket dealt out leaves some ten slots in the near
        // heap on average at 10^4 balls, fourteen at 10^6 (with one bucket per eight
        // balls, four times as many: a pop went two levels deeper, and the gas ran
        // 1.02 times slower at 10^4, 1.01 times at 10^6). The heads cost two bytes a
        // ball.
        self.nb = (n.next_power_of_two() / NB_PER_BALL).max(16);
        self.early = n > EARLY_FROM;
        self.deferred.clear();
        self.deferred.reserve(MAX_DEFERRED);
        self.extra.clear();
        self.build();
    }

    /// The time of a slot (infinite if empty).
    #[inline]
    fn time_of(&self, h: Handle) -> f64 {
        let s = &self.slots[(h >> 1) as usize];
        if h & 1 == 0 {
            s.t
        } else {
            s.cross_t
        }
    }

    /// The `[next, prev]` links of slot `h`'s ball.
    #[inline]
    fn link(&mut self, h: Handle) -> &mut [u32; 2] {
        &mut self.slots[(h >> 1) as usize].links
    }

    /// The ball whose back link (`prev`) must name a new predecessor: the ball of node
    /// `next`, or the spare slot when there is no next node. Whether a ring bucket
    /// was empty, or a node last in its list, is a coin toss to a branch predictor
    /// (a bucket holds one or two balls); writing to the spare instead of not writing
    /// costs no branch.
    #[inline(always)]
    fn back_of(&self, next: u32) -> usize {
        std::hint::select_unpredictable(next != UNLINKED, (next >> 1) as usize, self.n)
    }

    /// The handle ball `i` is filed under: its earlier slot, the contact on a tie.
    #[inline]
    fn handle_of(&self, i: usize) -> Handle {
        let s = &self.slots[i];
        2 * i as u32 + (s.cross_t < s.t) as u32
    }

    /// The bucket a time falls in. Monotone in `t` (a product by a positive constant,
    /// then a truncation), which is all the order of events relies on; `as` saturates, so a
    /// huge time lands in the last bucket there is, in the overflow list.
    #[inline]
    fn bucket(&self, t: f64) -> i64 {
        // Truncation, not `floor` (a libm call on baseline x86-64): buckets either
        // side of zero then share bucket 0, but the map stays monotone.
        (t * self.inv_w) as i64
    }

    /// The ring list that holds bucket `k` (`k mod nb`; `nb` is a power of two).
    #[inline(always)]
    fn ring_list(&self, k: i64) -> usize {
        (k as u64 & (self.nb as u64 - 1)) as usize
    }

    /// Chooses the bucket width from the slots as they are and files every slot
    /// afresh, O(N).
    pub fn build(&mut self) {
        let n_slots = 2 * self.n;
        self.heads.clear();
        self.heads.resize(self.nb + 1, UNLINKED);
        self.near.clear();
        // Every ball is filed afresh below.
        self.deferred.clear();
        self.in_ring = 0;
        self.dealt = 0;
        self.scout = UNLINKED;
        self.scouted = UNLINKED;
        self.pending = UNLINKED;
        for s in &mut self.slots {
            s.links = [UNLINKED, UNLINKED];
        }
        // The width: the ring should reach a few typical waiting times ahead, so that
        // most slots are filed in it and few wait in the overflow list, while a bucket
        // holds only a few slots. The typical wait is estimated by the median of a
        // sample of pending slots, measured from the earliest.
        let mut t0 = f64::INFINITY;
        for h in 0..n_slots as u32 {
            t0 = t0.min(self.time_of(h));
        }
        let mut w = 0.0;
        if t0.is_finite() {
            let stride = (n_slots / 1024).max(1);
            // Kept between builds: a rebase rebuilds within a step.
            let mut sample = std::mem::take(&mut self.sample);
            sample.clear();
            sample.extend(
                (0..n_slots)
                    .step_by(stride)
                    .map(|h| self.time_of(h as u32) - t0)
                    .filter(|d| d.is_finite()),
            );
            if !sample.is_empty() {
                let mid = sample.len() / 2;
                let (_, m, _) = sample.select_nth_unstable_by(mid, f64::total_cmp);
                // The ring spans eight median waits, cut into `nb` buckets, so that
                // few slots wait in the overflow list.
                w = 8.0 * *m / self.nb as f64;
            }
            self.sample = sample;
        }
        if !(w.is_finite() && w > 0.0) {
            // No spread to measure (one slot, or all due at once): any width will do;
            // the ring is skipped over when empty.
            w = if t0.is_finite() && t0 != 0.0 {
                t0.abs()
            } else {
                1.0
            };
        }
        self.w = w;
        self.inv_w = 1.0 / w;
        if !self.inv_w.is_finite() {
            self.inv_w = f64::MAX;
        }
        self.cur = if t0.is_finite() { self.bucket(t0) } else { 0 };
        self.overflow_from = self.cur.saturating_add(self.nb as i64);
        for i in 0..self.n {
            self.file_ball(i);
        }
    }

    /// Files ball `i` under its earlier slot (nowhere if both are empty). It must be
    /// unlinked.
    #[inline]
    fn file_ball(&mut self, i: usize) {
        self.file(self.handle_of(i));
    }

    /// Files ball `i` as [`Schedule::file_ball`] does, or, in a large schedule where
    /// it goes to a ring bucket, notes it to be filed before the next bucket is dealt.
    ///
    /// Filing reads the head of the ball's bucket, one of `nb` scattered across
    /// memory: at a million balls a cache miss that held up the event for its whole
    /// length, at every prediction. Noted instead, with the head asked for, the ball
    /// is filed some events later, when the head has arrived. The order of events is
    /// the same: a ball bound for the ring is due after everything in the near heap
    /// (its bucket is not earlier than `cur`), and the ring is read only when a
    /// bucket is dealt, which files every waiting ball first.
    #[inline(always)]
    fn file_ball_soon(&mut self, i: usize) {
        if self.early && self.deferred.len() < MAX_DEFERRED {
            let t = self.time_of(self.handle_of(i));
            let k = self.bucket(t);
            if t != f64::INFINITY && k >= self.cur && k < self.overflow_from {
                crate::hint::prefetch_at(&self.heads, self.ring_list(k));
                self.slots[i].links = [UNLINKED, DEFERRED];
                self.deferred.push(i as u32);
                return;
            }
        }
        self.file_ball(i);
    }

    /// Files the balls noted by [`Schedule::file_ball_soon`] that still wait (a ball
    /// rewritten since is unlinked and noted again, or filed, by then).
    fn file_deferred(&mut self) {
        for k in 0..self.deferred.len() {
            let i = self.deferred[k] as usize;
            if self.slots[i].links[1] == DEFERRED {
                self.slots[i].links = [UNLINKED, UNLINKED];
                self.file_ball(i);
            }
        }
        self.deferred.clear();
    }

    /// Takes ball `i` out of wherever it is filed. Called before its slots change.
    #[inline]
    fn unlink_ball(&mut self, i: usize) {
        self.unlink(self.handle_of(i));
    }

    /// Files slot `h` by its time: the near heap, a ring bucket or the overflow list
    /// (an empty slot nowhere). It must be unlinked.
    /// (Always inlined: it runs at every event, where a call costs more than its body.)
    #[inline(always)]
    fn file(&mut self, h: Handle) {
        let t = self.time_of(h);
        if t == f64::INFINITY {
            return;
        }
        let k = self.bucket(t);
        if k < self.cur {
            self.file_near(h, t);
            return;
        }
        let list = if k < self.overflow_from {
            self.in_ring += 1;
            self.ring_list(k)
        } else {
            self.nb
        };
        let first = self.heads[list];
        let back = self.back_of(first);
        self.slots[back].links[1] = h;
        *self.link(h) = [first, LIST + list as u32];
        self.heads[list] = h;
    }

    /// Puts unlinked slot `h`, due at `t`, in the near heap.
    #[inline]
    fn file_near(&mut self, h: Handle, t: f64) {
        *self.link(h) = [UNLINKED, NEAR];
        self.near.push(Near { t, h });
    }

    /// Takes slot `h` out of its list (a near-heap entry is left to go stale). Called
    /// before the slot's time changes.
    /// (Always inlined: it runs at every event, where a call costs more than its body.)
    #[inline(always)]
    fn unlink(&mut self, h: Handle) {
        let [next, prev] = *self.link(h);
        // In the near heap or waiting to be filed: nothing to take out of a list.
        if prev >= DEFERRED {
            *self.link(h) = [UNLINKED, UNLINKED];
            return;
        }
        // Ring slots are due before `overflow_from`, overflow slots from it on (the
        // slot's time is still the one it was filed by).
        if self.bucket(self.time_of(h)) < self.overflow_from {
            self.in_ring -= 1;
        }
        self.detach(h, next, prev);
    }

    /// List surgery only: takes `h` (with links `next`, `prev`) out of its list.
    #[inline]
    fn detach(&mut self, h: Handle, next: u32, prev: u32) {
        if prev >= LIST {
            self.heads[(prev - LIST) as usize] = next;
        } else {
            self.link(prev)[0] = next;
        }
        let back = self.back_of(next);
        self.slots[back].links[1] = prev;
        *self.link(h) = [UNLINKED, UNLINKED];
    }

    /// Sets ball `i`'s contact slot (`Ev::NONE`: none). `defer`: file it later, with
    /// [`Schedule::build`] (filling every ball at once).
    #[inline]
    pub fn set_contact(&mut self, i: usize, e: Ev, defer: bool) {
        if !defer {
            self.unlink_ball(i);
        }
        self.write_contact(i, e);
        if !defer {
            self.file_ball_soon(i);
        }
    }

    // (Always inlined: with the event loop built in two versions (`isa.rs`) it has
    // twice the callers, and the optimiser would otherwise leave it as a call.)
    #[inline(always)]
    pub fn set_crossing(&mut self, i: usize, e: Ev, defer: bool) {
        if !defer {
            self.unlink_ball(i);
        }
        self.write_crossing(i, e);
        if !defer {
            self.file_ball_soon(i);
        }
    }

    /// Sets both of ball `i`'s slots (the ball is filed once).
    /// (Always inlined: it runs at every event, where a call costs more than its body.)
    #[inline(always)]
    pub fn set_both(&mut self, i: usize, contact: Ev, crossing: Ev) {
        self.unlink_ball(i);
        self.write_contact(i, contact);
        self.write_crossing(i, crossing);
        self.file_ball_soon(i);
    }

    /// Writes ball `i`'s contact slot only (the caller files the ball).
    #[inline]
    fn write_contact(&mut self, i: usize, e: Ev) {
        let s = &mut self.slots[i];
        (s.t, s.other, s.ci, s.cj) = (e.t, e.other, e.ci, e.cj);
    }

    /// Writes ball `i`'s crossing slot only (the caller files the ball).
    #[inline]
    fn write_crossing(&mut self, i: usize, e: Ev) {
        let s = &mut self.slots[i];
        (s.cross_t, s.cross_other) = (e.t, e.other);
    }

    #[inline]
    pub fn contact(&self, i: usize) -> Ev {
        let s = &self.slots[i];
        Ev {
            t: s.t,
            i: i as u32,
            other: s.other,
            ci: s.ci,
            cj: s.cj,
        }
    }

    #[inline]
    pub fn push_extra(&mut self, e: Ev) {
        self.extra.push(e);
    }

    /// Moves every time by `-shift` (a new epoch), O(N).
    pub fn shift(&mut self, shift: f64) {
        for s in &mut self.slots {
            s.t -= shift;
            s.cross_t -= shift;
        }
        let mut v = std::mem::take(&mut self.extra).into_vec();
        for e in &mut v {
            e.t -= shift;
        }
        self.extra = BinaryHeap::from(v);
        self.build();
    }

    /// Events waiting (filled slots and side-heap entries).
    #[cfg(any(test, feature = "internals"))]
    pub fn len(&self) -> usize {
        let filled = |s: &Slot| s.t.is_finite() as usize + s.cross_t.is_finite() as usize;
        self.slots.iter().map(filled).sum::<usize>() + self.extra.len()
    }

    /// Drops side-heap entries for which `keep` is false.
    pub fn retain_extra(&mut self, keep: impl FnMut(&Ev) -> bool) {
        self.extra.retain(keep);
    }

    /// The ball of the slot on top of the near heap, most often the next event's (a
    /// hint only: the entry may be stale, or the side heap may come first), and the
    /// slot's partner code (`CROSS + d` for its crossing).
    #[inline]
    pub fn next_ball(&self) -> Option<(usize, u32)> {
        let h = self.near.peek()?.h;
        let s = self.slots.get((h >> 1) as usize)?;
        Some(((h >> 1) as usize, Self::other_of(s, h)))
    }

    pub fn extra_len(&self) -> usize {
        self.extra.len()
    }
}
