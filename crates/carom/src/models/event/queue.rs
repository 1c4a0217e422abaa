//! The event schedule. Each ball owns two slots: its earliest predicted contact (with a
//! wall or a neighbour) and its next cell crossing. A tournament tree over the balls
//! keeps the earliest slot time of all on top; changing a ball's slots costs one walk
//! from its leaf to the root, O(log N), over small flat arrays, and nothing stale ever
//! accumulates. A contact slot can still go stale when the partner changes course: the
//! partner's event counter then differs from the one recorded, and the owner predicts
//! afresh when the slot comes due.
//!
//! A ball's other contacts due at the same time within round-off as its earliest (a
//! symmetric rack, seed 001's double collision) go to a small side heap, so that a
//! simultaneous impact is seen whole. Outside such scenes it stays empty.

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
    /// Event counters of ball `i` and (for a pair) ball `j` when predicted.
    pub ci: u32,
    pub cj: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Pair(usize),
    Wall(usize),
    Cross(u32),
}

impl Ev {
    pub const NONE: Ev = Ev {
        t: f64::INFINITY,
        i: u32::MAX,
        other: u32::MAX,
        ci: 0,
        cj: 0,
    };

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

/// A crossing slot: time and the `other` code of its event (`CROSS + d`).
#[derive(Debug, Clone, Copy)]
struct Crossing {
    t: f64,
    other: u32,
}

impl Crossing {
    const NONE: Crossing = Crossing {
        t: f64::INFINITY,
        other: u32::MAX,
    };

    fn of(e: &Ev) -> Crossing {
        Crossing {
            t: e.t,
            other: e.other,
        }
    }
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

#[derive(Debug, Clone, Default)]
pub struct Schedule {
    contact: Vec<Ev>,
    /// Crossing slots keep only what a crossing needs (its time and direction code):
    /// the owner is the slot's index and no counter is ever checked.
    crossing: Vec<Crossing>,
    /// Inner nodes `1..leaves` (node 1 is the root; the children of `p` are `2p` and
    /// `2p + 1`; node `leaves + k` is ball `k`'s leaf, whose key is read from its
    /// slots): the winning ball of the subtree and its slot time. Keeping the winner's
    /// time beside it makes a walk one pair of loads per level from neighbouring nodes,
    /// instead of a second, dependent load at the winner's own index (a cache miss at
    /// every level of a large tree).
    win: Vec<u32>,
    win_t: Vec<f64>,
    leaves: usize,
    extra: BinaryHeap<Ev>,
    /// A ball whose slot was emptied by `pop` without walking the tree yet: its owner
    /// almost always fills a slot again at once, and one walk then does for both.
    pending: Option<u32>,
}

impl Schedule {
    /// Empties every slot for `n` balls.
    pub fn reset(&mut self, n: usize) {
        self.leaves = n.next_power_of_two().max(1);
        self.contact.clear();
        self.contact.resize(n, Ev::NONE);
        self.crossing.clear();
        self.crossing.resize(n, Crossing::NONE);
        self.win.clear();
        self.win.resize(self.leaves, 0);
        self.win_t.clear();
        self.win_t.resize(self.leaves, f64::INFINITY);
        self.extra.clear();
        self.build();
    }

    /// Ball `k`'s earliest slot time (infinite past the last ball).
    #[inline]
    fn leaf_key(&self, k: usize) -> f64 {
        if k < self.contact.len() {
            self.contact[k].t.min(self.crossing[k].t)
        } else {
            f64::INFINITY
        }
    }

    /// The winner of node `c` (inner or leaf) and its time.
    #[inline]
    fn node(&self, c: usize) -> (u32, f64) {
        if c >= self.leaves {
            let k = c - self.leaves;
            (k as u32, self.leaf_key(k))
        } else {
            (self.win[c], self.win_t[c])
        }
    }

    /// Recomputes every inner node from the leaves, O(N).
    pub fn build(&mut self) {
        self.pending = None;
        for p in (1..self.leaves).rev() {
            let (a, ka) = self.node(2 * p);
            let (b, kb) = self.node(2 * p + 1);
            // Earlier slot time wins; equal times go to the lower ball (deterministic).
            let (w, kw) = if kb < ka || (kb == ka && b < a) {
                (b, kb)
            } else {
                (a, ka)
            };
            self.win[p] = w;
            self.win_t[p] = kw;
        }
    }

    /// Walks from ball `i`'s leaf to the root. Only the winner coming up from below is
    /// compared, with the winner of the sibling subtree.
    #[inline]
    fn refresh(&mut self, i: usize) {
        let l = self.leaves;
        if l < 2 {
            // A single leaf is the root itself.
            return;
        }
        let mut kw = self.leaf_key(i);
        let mut w = i as u32;
        // The lowest level: the sibling is a leaf, its key read from its slots.
        let s = i ^ 1;
        let ks = self.leaf_key(s);
        // Earlier slot time wins; equal times go to the lower ball (deterministic).
        if ks < kw || (ks == kw && (s as u32) < w) {
            (w, kw) = (s as u32, ks);
        }
        let (win, win_t) = (&mut self.win[..], &mut self.win_t[..]);
        let mut c = (l + i) / 2;
        loop {
            // An ancestor depends only on which ball wins here and that ball's time: if
            // the same ball other than `i` still wins (its time unchanged), nothing
            // above can change.
            if win[c] == w && w != i as u32 {
                return;
            }
            win[c] = w;
            win_t[c] = kw;
            if c == 1 {
                return;
            }
            let (ws, ks) = (win[c ^ 1], win_t[c ^ 1]);
            if ks < kw || (ks == kw && ws < w) {
                (w, kw) = (ws, ks);
            }
            c /= 2;
        }
    }

    /// The ball on top of the tree and its earliest slot time.
    #[inline]
    fn top(&self) -> (u32, f64) {
        self.node(1)
    }

    /// Sets ball `i`'s contact slot (`Ev::NONE`: none). `defer`: leave the tree for a
    /// later [`Schedule::build`] (filling every ball at once).
    #[inline]
    pub fn set_contact(&mut self, i: usize, e: Ev, defer: bool) {
        self.contact[i] = e;
        self.settle(i, defer);
    }

    #[inline]
    pub fn set_crossing(&mut self, i: usize, e: Ev, defer: bool) {
        self.crossing[i] = Crossing::of(&e);
        self.settle(i, defer);
    }

    /// Sets both of ball `i`'s slots with a single walk up the tree.
    #[inline]
    pub fn set_both(&mut self, i: usize, contact: Ev, crossing: Ev) {
        self.contact[i] = contact;
        self.crossing[i] = Crossing::of(&crossing);
        self.settle(i, false);
    }

    /// Brings the tree up to date after ball `i`'s slots changed (or only its key,
    /// with `defer`, for a later [`Schedule::build`]). A ball left pending by `pop` is
    /// walked first, since every walk relies on the rest of the tree being right.
    #[inline]
    fn settle(&mut self, i: usize, defer: bool) {
        if defer {
            // The leaf's key is read from the slots themselves.
            return;
        }
        match self.pending.take() {
            Some(p) if p as usize != i => self.refresh(p as usize),
            _ => {}
        }
        self.refresh(i);
    }

    /// Walks the tree for a ball left pending by `pop`.
    #[inline]
    fn flush(&mut self) {
        if let Some(p) = self.pending.take() {
            self.refresh(p as usize);
        }
    }

    #[inline]
    pub fn contact(&self, i: usize) -> &Ev {
        &self.contact[i]
    }

    #[inline]
    pub fn push_extra(&mut self, e: Ev) {
        self.extra.push(e);
    }

    /// Time of the earliest event, if any.
    #[inline]
    pub fn peek_time(&mut self) -> Option<f64> {
        self.flush();
        let tree = if self.leaves > 0 {
            self.top().1
        } else {
            f64::INFINITY
        };
        let extra = self.extra.peek().map_or(f64::INFINITY, |e| e.t);
        let t = tree.min(extra);
        t.is_finite().then_some(t)
    }

    /// Removes and returns the earliest event (a ball's contact before its crossing at
    /// the same time, a slot before the side heap).
    pub fn pop(&mut self) -> Option<(Ev, Source)> {
        let t = self.peek_time()?;
        let (root, key) = self.top();
        let root = root as usize;
        if key == t {
            // The slot is emptied now; the tree is walked when the owner's slots are
            // next set, or before the next look at the top.
            let taken = if self.contact[root].t == t {
                let e = self.contact[root];
                self.contact[root] = Ev::NONE;
                (e, Source::Contact)
            } else {
                let c = self.crossing[root];
                self.crossing[root] = Crossing::NONE;
                let e = Ev {
                    t: c.t,
                    i: root as u32,
                    other: c.other,
                    ci: 0,
                    cj: 0,
                };
                (e, Source::Crossing)
            };
            self.pending = Some(root as u32);
            Some(taken)
        } else {
            self.extra.pop().map(|e| (e, Source::Extra))
        }
    }

    /// Moves every time by `-shift` (a new epoch), O(N).
    pub fn shift(&mut self, shift: f64) {
        self.flush();
        for e in &mut self.contact {
            e.t -= shift;
        }
        for c in &mut self.crossing {
            c.t -= shift;
        }
        let mut v = std::mem::take(&mut self.extra).into_vec();
        for e in &mut v {
            e.t -= shift;
        }
        self.extra = BinaryHeap::from(v);
        // Subtraction keeps the order but may create ties: re-decide them by index.
        self.build();
    }

    /// Events waiting (filled slots and side-heap entries).
    pub fn len(&self) -> usize {
        let filled = |v: &Vec<Ev>| v.iter().filter(|e| e.t.is_finite()).count();
        let crossings = self.crossing.iter().filter(|c| c.t.is_finite()).count();
        filled(&self.contact) + crossings + self.extra.len()
    }

    /// Drops side-heap entries for which `keep` is false.
    pub fn retain_extra(&mut self, keep: impl FnMut(&Ev) -> bool) {
        self.extra.retain(keep);
    }

    pub fn extra_len(&self) -> usize {
        self.extra.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(i: usize, t: f64) -> Ev {
        Ev {
            t,
            i: i as u32,
            other: WALL,
            ci: 0,
            cj: 0,
        }
    }

    /// The earliest (time, ball) over all slots, by brute force.
    fn brute(contact: &[f64], crossing: &[f64]) -> Option<(f64, usize)> {
        (0..contact.len())
            .map(|i| (contact[i].min(crossing[i]), i))
            .filter(|(t, _)| t.is_finite())
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
    }

    #[test]
    fn tournament_tree_always_tops_with_the_earliest_slot() {
        let n = 37;
        let mut s = Schedule::default();
        s.reset(n);
        let (mut contact, mut crossing) = (vec![f64::INFINITY; n], vec![f64::INFINITY; n]);
        let mut x: u64 = 12345;
        let mut rand = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for step in 0..20_000 {
            let i = (rand() % n as u64) as usize;
            // Coarse times so that ties happen often.
            let t = (rand() % 50) as f64;
            let t = if rand() % 7 == 0 { f64::INFINITY } else { t };
            if step % 2 == 0 {
                contact[i] = t;
                s.set_contact(i, if t.is_finite() { ev(i, t) } else { Ev::NONE }, false);
            } else {
                crossing[i] = t;
                s.set_crossing(i, if t.is_finite() { ev(i, t) } else { Ev::NONE }, false);
            }
            let expect = brute(&contact, &crossing);
            assert_eq!(s.peek_time(), expect.map(|e| e.0), "step {step}");
            if step % 5 == 0 {
                if let Some((e, _)) = s.pop() {
                    let (t, i) = expect.unwrap();
                    assert_eq!((e.t, e.i as usize), (t, i), "step {step}");
                    if contact[i] == t {
                        contact[i] = f64::INFINITY;
                    } else {
                        crossing[i] = f64::INFINITY;
                    }
                }
            }
        }
    }
}
