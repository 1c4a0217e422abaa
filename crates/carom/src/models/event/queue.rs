//! The event queue: a binary heap of predicted events, earliest first, invalidated
//! lazily. Each ball carries an event counter that is bumped whenever its trajectory
//! changes; an event remembers the counters of its balls when it was predicted and is
//! simply dropped when popped with a stale counter. No event is ever searched for or
//! removed from the middle of the heap, so each push and pop costs O(log N).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What the second slot of an event means: another ball (below `WALL`), a wall, or a
/// cell crossing (direction in the low bits).
pub const WALL: u32 = u32::MAX - 8;
pub const CROSS: u32 = u32::MAX - 4;
/// Largest ball count the encoding leaves room for.
pub const MAX_BALLS: usize = WALL as usize;

#[derive(Debug, Clone, Copy)]
pub struct Ev {
    pub t: f64,
    pub i: u32,
    /// `j < WALL`: ball-ball with ball `j`; `WALL + w`: wall `w`; `CROSS + d`: crossing.
    pub other: u32,
    pub ci: u32,
    /// Counter of ball `j` for a pair; unused otherwise.
    pub cj: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Pair(usize),
    Wall(usize),
    Cross(u32),
}

impl Ev {
    #[inline]
    pub fn kind(&self) -> Kind {
        if self.other < WALL {
            Kind::Pair(self.other as usize)
        } else if self.other < CROSS {
            Kind::Wall((self.other - WALL) as usize)
        } else {
            Kind::Cross(self.other - CROSS)
        }
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

#[derive(Debug, Default)]
pub struct Queue {
    heap: BinaryHeap<Ev>,
}

impl Queue {
    #[inline]
    pub fn push(&mut self, e: Ev) {
        self.heap.push(e);
    }

    #[inline]
    pub fn peek_time(&self) -> Option<f64> {
        self.heap.peek().map(|e| e.t)
    }

    #[inline]
    pub fn pop(&mut self) -> Option<Ev> {
        self.heap.pop()
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Rewrites every event (e.g. shifting times, dropping stale ones) and re-heapifies
    /// in O(len), keeping the memory.
    pub fn rework(&mut self, mut f: impl FnMut(&mut Ev) -> bool) {
        let mut v = std::mem::take(&mut self.heap).into_vec();
        v.retain_mut(|e| f(e));
        self.heap = BinaryHeap::from(v);
    }

    /// Replaces the contents with `events` pushed through `fill`, heapified at once.
    pub fn refill(&mut self, fill: impl FnOnce(&mut Vec<Ev>)) {
        let mut v = std::mem::take(&mut self.heap).into_vec();
        v.clear();
        fill(&mut v);
        self.heap = BinaryHeap::from(v);
    }
}
