//! A calendar of time buckets over the balls, each ball filed once under its key (the
//! time of its next event of one kind): the growing model's events (the earlier of a
//! ball's contact and crossing, `growing_disks.rs`) and Andersen's strikes in the event model
//! (`event/strikes.rs`).
//!
//! A binary or four-ary heap pays `log N` levels per change, and at 10^6 balls each
//! level is a trip to memory: the heap took 38% of a compression's time there. Filing
//! a ball in the bucket of its time is O(1) (unlink, link), and the next event is the
//! least key of the first non-empty bucket, a list of about one ball.
//!
//! Keys past an `end` are not filed (a compression's interval needs only its own
//! events; nothing is kept across its intervals), nor infinite ones (no event). The
//! buckets are laid out from the keys when the calendar is built: `BUCKETS` per ball at
//! most, as wide as the keys nearest in time are apart on average, so that the front
//! buckets hold about one ball each. Keys beyond the last bucket wait in a list of
//! their own until the cursor reaches the end; then the buckets are laid out afresh
//! from the earliest of them. A bucket found crowded is laid out afresh more finely.
//!
//! The next event is the least `(key, ball)`: ties go to the lower ball index, so the
//! order of events does not depend on the layout of the buckets. A key set must not be
//! earlier than the last one returned (events come in time order).

/// No ball (list ends).
const END: u32 = u32::MAX;
/// Where a ball is filed: a bucket below `FAR`, the list beyond the buckets, or not
/// at all (its key is past the end, or infinite).
const FAR: u32 = u32::MAX - 1;
const UNFILED: u32 = u32::MAX;

/// At most this many buckets per ball.
const BUCKETS: usize = 2;

/// Keys sampled to choose the buckets' width.
const SAMPLE: usize = 4096;

/// A bucket holding more balls than this when its turn comes means the layout no
/// longer fits the keys (the events have crowded in time): it is laid out afresh.
const CROWDED: usize = 32;

#[derive(Debug, Clone, Copy)]
struct Node {
    key: f64,
    place: u32,
    next: u32,
    prev: u32,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Calendar {
    /// The first bucket's start, the buckets' width and its inverse.
    origin: f64,
    width: f64,
    inv_width: f64,
    /// The interval's end: later keys are not filed.
    end: f64,
    /// The first bucket that may hold a ball.
    cursor: usize,
    /// Per bucket: its first ball.
    first: Vec<u32>,
    /// Per ball: its key, where it is filed, its neighbours in that list (one record,
    /// so that a ball's filing touches one cache line: at 10^6 balls every list step
    /// is a trip to memory).
    node: Vec<Node>,
    /// The balls beyond the last bucket.
    far: u32,
    /// Scratch for choosing the width.
    sample: Vec<f64>,
    /// The bucket last found crowded since the last layout (`usize::MAX`: none).
    crowd_checked: usize,
}

crate::copying::copy_fields!(Calendar {
    origin, width, inv_width, end, cursor, first, node, far, sample, crowd_checked
});

impl Calendar {
    /// Files every ball under `keys[i]`, from time `now` (no key earlier) to `end`
    /// (infinite: no end).
    pub(crate) fn build(&mut self, keys: impl Iterator<Item = f64>, now: f64, end: f64) {
        self.node.clear();
        self.node.extend(keys.map(|key| Node {
            key,
            place: UNFILED,
            next: END,
            prev: END,
        }));
        self.end = end;
        let width = self.fit_width(now);
        self.layout(now, width);
    }

    /// The buckets' width for keys from `now`: the span of the earliest half of the
    /// keys over their number, so that the buckets near the front hold about one ball
    /// each; the span to the end over the buckets when that says nothing (no keys, or
    /// half of them at `now`).
    fn fit_width(&mut self, now: f64) -> f64 {
        // The median of a sample of the keys (every `stride`-th) stands for theirs:
        // the layout only sets how fast the calendar runs, never what it returns.
        let n = self.node.len();
        let stride = (n / SAMPLE).max(1);
        self.sample.clear();
        let end = self.end;
        self.sample.extend(
            self.node
                .iter()
                .step_by(stride)
                .map(|d| d.key)
                .filter(|&t| t <= end),
        );
        let m = self.sample.len();
        let mut width = 0.0;
        if m > 1 {
            let q = m / 2;
            let (_, t_q, _) = self.sample.select_nth_unstable_by(q, f64::total_cmp);
            // The sample's q-th key stands for the (q stride)-th of all.
            width = (*t_q - now) / (q * stride) as f64;
        }
        if !(width.is_finite() && width > 0.0) {
            width = (self.end - now) / (BUCKETS * self.node.len()).max(1) as f64;
        }
        if !(width.is_finite() && width > 0.0) {
            width = 1.0;
        }
        width
    }

    /// Lays the buckets out from `now`, `width` wide, and files every ball whose key is
    /// not past the end.
    fn layout(&mut self, now: f64, width: f64) {
        let n = self.node.len();
        let buckets = (BUCKETS * n).max(1);
        self.crowd_checked = usize::MAX;
        self.origin = now;
        self.width = width;
        self.inv_width = 1.0 / width;
        // No more buckets than reach the end.
        let reach = ((self.end - now) * self.inv_width).ceil() + 1.0;
        let count = if reach.is_finite() && reach < buckets as f64 {
            (reach as usize).max(1)
        } else {
            buckets
        };
        self.first.clear();
        self.first.resize(count, END);
        self.cursor = 0;
        self.far = END;
        for i in 0..n {
            self.node[i].place = UNFILED;
            self.file(i);
        }
    }

    /// The bucket of time `t`: monotone in `t` (a later time never gets an earlier
    /// bucket), `FAR` beyond the last, the cursor's for a time that is not a number
    /// (so that it comes out next and the model stops on it).
    #[inline]
    fn bucket(&self, t: f64) -> u32 {
        if t.is_nan() {
            return self.cursor as u32;
        }
        let b = (t - self.origin) * self.inv_width;
        if b < self.first.len() as f64 {
            // Truncation is the floor here (a key a hair before the origin goes to the
            // first bucket), and saves a call to the library's floor on targets
            // without a rounding instruction. A key is never before the cursor's
            // bucket; the clamp makes sure of it.
            (b.max(0.0) as usize).max(self.cursor) as u32
        } else {
            FAR
        }
    }

    #[inline]
    fn file(&mut self, i: usize) {
        let t = self.node[i].key;
        if t > self.end || t == f64::INFINITY {
            self.node[i].place = UNFILED;
            return;
        }
        let p = self.bucket(t);
        let head = if p == FAR {
            &mut self.far
        } else {
            &mut self.first[p as usize]
        };
        let h = *head;
        *head = i as u32;
        self.node[i].next = h;
        self.node[i].prev = END;
        if h != END {
            self.node[h as usize].prev = i as u32;
        }
        self.node[i].place = p;
    }

    #[inline]
    fn unfile(&mut self, i: usize) {
        let p = self.node[i].place;
        if p == UNFILED {
            return;
        }
        let (nx, pv) = (self.node[i].next, self.node[i].prev);
        if pv != END {
            self.node[pv as usize].next = nx;
        } else if p == FAR {
            self.far = nx;
        } else {
            self.first[p as usize] = nx;
        }
        if nx != END {
            self.node[nx as usize].prev = pv;
        }
        self.node[i].place = UNFILED;
    }

    /// Ball `i`'s key is now `t`.
    #[inline]
    pub(crate) fn set(&mut self, i: usize, t: f64) {
        self.unfile(i);
        self.node[i].key = t;
        self.file(i);
    }

    /// The ball with the least `(key, index)` among those filed, and its key; `None`
    /// when no key is filed (each past the end or infinite).
    pub(crate) fn first(&mut self) -> Option<(usize, f64)> {
        loop {
            while self.cursor < self.first.len() && self.first[self.cursor] == END {
                self.cursor += 1;
            }
            if self.cursor == self.first.len() {
                if self.far == END {
                    return None;
                }
                // Past the last bucket: lay out afresh from the earliest waiting key.
                let now = self.earliest_far();
                let width = self.fit_width(now);
                self.layout(now, width);
                continue;
            }
            let mut j = self.first[self.cursor];
            let (mut best, mut best_t) = (j as usize, self.node[j as usize].key);
            let mut seen = 0;
            while j != END {
                let ju = j as usize;
                let t = self.node[ju].key;
                // NaN first: the model stops on it.
                if t < best_t || (t == best_t && ju < best) || t.is_nan() {
                    (best, best_t) = (ju, t);
                    if t.is_nan() {
                        return Some((best, best_t));
                    }
                }
                j = self.node[ju].next;
                seen += 1;
            }
            if seen > CROWDED && self.crowd_checked != self.cursor {
                // Crowded: the keys have drawn together since the layout. Lay out
                // afresh from this bucket's earliest time if the keys ask for buckets
                // less than half as wide; either way not again for this bucket (keys
                // tied at one time stay crowded at any width).
                self.crowd_checked = self.cursor;
                let width = self.fit_width(best_t);
                if width < 0.5 * self.width {
                    self.layout(best_t, width);
                    continue;
                }
            }
            return Some((best, best_t));
        }
    }

    fn earliest_far(&self) -> f64 {
        let mut t = f64::INFINITY;
        let mut j = self.far;
        while j != END {
            t = t.min(self.node[j as usize].key);
            j = self.node[j as usize].next;
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small generator for the test (the model itself draws nothing).
    fn lcg(s: &mut u64) -> f64 {
        *s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*s >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The least `(key, index)` at or before `end`, by looking at every ball.
    fn brute(keys: &[f64], end: f64) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for (i, &t) in keys.iter().enumerate() {
            if t > end || t == f64::INFINITY {
                continue;
            }
            if best.is_none_or(|(b, bt)| t < bt || (t == bt && i < b)) {
                best = Some((i, t));
            }
        }
        best
    }

    /// An event loop as the model runs it: take the first, move its key later (or
    /// past the end), now and then a partner's too; the calendar agrees with a search
    /// of every key at each step, through crowded stretches, ties, far keys and
    /// rebuilds.
    #[test]
    fn agrees_with_a_full_search() {
        for (n, end, spread) in [
            (1, 1.0, 0.5),
            (7, 1.0, 0.5),
            (300, 2.0, 0.3),
            (300, 50.0, 5.0),
            (300, f64::INFINITY, 1.0),
        ] {
            let mut s = 12345u64 + n as u64;
            let mut keys: Vec<f64> = (0..n).map(|_| lcg(&mut s) * 3.0 * spread).collect();
            let mut cal = Calendar::default();
            cal.build(keys.iter().copied(), 0.0, end);
            let mut steps = 0;
            while let Some((i, t)) = cal.first() {
                assert_eq!(Some((i, t)), brute(&keys, end), "step {steps}");
                steps += 1;
                // Mostly a short hop, sometimes a tie with `t`, a crowd at one time,
                // a far key, or past the end.
                let u = lcg(&mut s);
                let next = if u < 0.1 {
                    t
                } else if u < 0.2 {
                    t + 1e-9 * lcg(&mut s)
                } else if u < 0.25 {
                    t + 100.0 * spread * lcg(&mut s)
                } else if u < 0.27 {
                    f64::INFINITY
                } else {
                    t + spread * lcg(&mut s)
                };
                keys[i] = next;
                cal.set(i, next);
                if n > 1 && lcg(&mut s) < 0.3 {
                    let j = (lcg(&mut s) * n as f64) as usize;
                    // (With no end, a key once infinite stays so, and the loop ends.)
                    if keys[j] >= t && (end < f64::INFINITY || keys[j] < f64::INFINITY) {
                        keys[j] = t + spread * lcg(&mut s);
                        cal.set(j, keys[j]);
                    }
                }
                assert!(steps < 1_000_000);
            }
            assert_eq!(brute(&keys, end), None);
            assert!(steps > n || n == 1, "{steps} steps for {n} balls");
        }
    }

    /// Many balls due at one instant come out in the order of their indices, each
    /// once, whatever order they were filed in, and a crowd of distinct keys in a
    /// sliver of time is spread by a finer layout.
    #[test]
    fn ties_and_crowds() {
        let n = 200;
        let mut cal = Calendar::default();
        let keys: Vec<f64> = (0..n)
            .map(|i| {
                if i % 2 == 0 {
                    0.5
                } else {
                    0.5 + 1e-12 * i as f64
                }
            })
            .collect();
        cal.build(keys.iter().rev().copied().chain([2.0]), 0.0, 1.0);
        let mut out = vec![];
        while let Some((i, t)) = cal.first() {
            out.push((t, i));
            cal.set(i, f64::INFINITY);
        }
        let mut want: Vec<(f64, usize)> = keys.iter().rev().copied().zip(0..n).collect();
        want.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        assert_eq!(out, want);
        assert!(cal.width < 1e-9, "width {}", cal.width);
    }
}
