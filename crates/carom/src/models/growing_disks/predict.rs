//! The growing model's predictions. Each ball keeps two: its earliest contact (a ball
//! or a wall) and its next cell crossing; the calendar files the balls by the earlier of
//! the two.
//!
//! - After an impact the ball's contact is found afresh among the balls of the 3x3
//!   cells around it ([`Grow::predict`]).
//! - After a crossing only the three cells that have just become its neighbours are
//!   searched: the contact already kept is the earliest with the balls of the cells it
//!   still neighbours (those it has left cannot come sooner than that contact, which is
//!   real), so the earlier of it and the new cells' is the ball's earliest contact
//!   ([`Grow::after_cross`]).
//! - When every velocity has changed (each interval's start, a rescale within it) all
//!   balls are at one time and every pair of neighbouring cells is visited once, each
//!   pair's time serving both of its balls ([`Grow::predict_all`]).
//!
//! A contact with a partner that has changed course since is found stale when it
//! comes due (the partner's velocity-change counter differs) and predicted afresh then.

use super::{Ev, Grow, END, WALL};
use crate::growing_contact;

impl Grow {
    /// The earlier of ball `i`'s two events.
    #[inline]
    pub(super) fn key(&self, i: usize) -> f64 {
        self.next[i].t.min(self.cross_t[i])
    }

    /// Ball `i`'s earliest wall contact from time `now` (its clock), at position `p`
    /// with velocity `v` and radius `ri` at the interval's start.
    #[inline(always)]
    fn wall(&self, p: [f64; 2], v: [f64; 2], ri: f64, now: f64) -> Ev {
        let s = self.s;
        let mut best = Ev::NONE;
        for a in 0..2 {
            if self.periodic[a] {
                continue;
            }
            let side = a as u32 * 2;
            // The wall's gap closes at the speed of the centre plus the growth.
            let (rr, rd) = (ri * (1.0 + s * now), ri * s);
            let low = v[a] - rd;
            if low < 0.0 {
                let t = now + (p[a] - rr).max(0.0) / -low;
                if t < best.t {
                    best = Ev {
                        t,
                        other: WALL + side,
                        c_other: 0,
                    };
                }
            }
            let high = -v[a] - rd;
            if high < 0.0 {
                let t = now + (self.side[a] - p[a] - rr).max(0.0) / -high;
                if t < best.t {
                    best = Ev {
                        t,
                        other: WALL + side + 1,
                        c_other: 0,
                    };
                }
            }
        }
        best
    }

    /// Ball `i`'s next cell crossing from time `now`: its time and the side it leaves
    /// by (numbered as walls; infinity when it crosses none).
    #[inline(always)]
    fn crossing(&self, i: usize, p: [f64; 2], v: [f64; 2], now: f64) -> (f64, u32) {
        let k = self.n_cells;
        let c = self.cell[i] as usize;
        let cc = [c % k[0], c / k[0]];
        let mut best = (f64::INFINITY, 0);
        for a in 0..2 {
            let side = a as u32 * 2;
            let last = cc[a] + 1 == k[a];
            let t = if v[a] > 0.0 && (self.periodic[a] || !last) {
                let bound = (cc[a] + 1) as f64 * self.width[a];
                (now + ((bound - p[a]) / v[a]).max(0.0), side + 1)
            } else if v[a] < 0.0 && (self.periodic[a] || cc[a] > 0) {
                let bound = cc[a] as f64 * self.width[a];
                (now + ((bound - p[a]) / v[a]).max(0.0), side)
            } else {
                continue;
            };
            if t.0 < best.0 {
                best = t;
            }
        }
        best
    }

    /// The time ball `i` (at `now`, position `p`, velocity `v`, radius `ri`) meets
    /// ball `j` (on its own clock, moved to `now`).
    #[inline(always)]
    fn pair_from(&self, p: [f64; 2], v: [f64; 2], ri: f64, j: usize, now: f64) -> Option<f64> {
        let d = &self.d[j];
        let lag = now - d.t;
        let (dx, dy) = self
            .tab
            .0
            .min_image(d.x + d.vx * lag - p[0], d.y + d.vy * lag - p[1]);
        let r_sum = ri + d.r;
        pair_time(
            [dx, dy],
            [d.vx - v[0], d.vy - v[1]],
            r_sum * (1.0 + self.s * now),
            r_sum * self.s,
        )
        .map(|tau| now + tau)
    }

    /// Ball `i`'s contact and crossing from time `now` (its own clock is `now`), its
    /// contact searched among the balls of the 3x3 cells around it.
    pub(super) fn predict(&mut self, i: usize, now: f64) {
        let di = self.d[i];
        let (p, v, ri) = ([di.x, di.y], [di.vx, di.vy], di.r);
        let mut best = self.wall(p, v, ri, now);
        let k = self.n_cells;
        let c = self.cell[i] as usize;
        let (ys, y0, y1) = self.around(c / k[0], 1);
        let (xs, x0, x1) = self.around(c % k[0], 0);
        for &cy in &ys[y0..y1] {
            for &cx in &xs[x0..x1] {
                let mut j = self.head[cx + k[0] * cy];
                while j != END {
                    let ju = j as usize;
                    j = self.d[ju].link;
                    if ju == i {
                        continue;
                    }
                    if let Some(t) = self.pair_from(p, v, ri, ju, now) {
                        if t < best.t {
                            best = Ev {
                                t,
                                other: ju as u32,
                                c_other: self.d[ju].counter,
                            };
                        }
                    }
                }
            }
        }
        self.next[i] = best;
        (self.cross_t[i], self.cross_side[i]) = self.crossing(i, p, v, now);
    }

    /// Ball `i` has just crossed its old cell's `side` into its present one at `now`:
    /// its contact is the earlier of the one it keeps and the earliest with the balls
    /// of the three cells beyond the new one in the direction it went; then its next
    /// crossing.
    pub(super) fn after_cross(&mut self, i: usize, side: usize, now: f64) {
        let di = self.d[i];
        let (p, v, ri) = ([di.x, di.y], [di.vx, di.vy], di.r);
        let (a, up) = (side / 2, side % 2 == 1);
        let k = self.n_cells;
        let c = self.cell[i] as usize;
        let cc = [c % k[0], c / k[0]];
        if let Some(strip) = self.neighbour(cc[a], if up { 1 } else { -1 }, a) {
            let o = 1 - a;
            let (os, o0, o1) = self.around(cc[o], o);
            let mut best = self.next[i];
            for &co in &os[o0..o1] {
                let cell = if a == 0 {
                    strip + k[0] * co
                } else {
                    co + k[0] * strip
                };
                let mut j = self.head[cell];
                while j != END {
                    let ju = j as usize;
                    j = self.d[ju].link;
                    if let Some(t) = self.pair_from(p, v, ri, ju, now) {
                        if t < best.t {
                            best = Ev {
                                t,
                                other: ju as u32,
                                c_other: self.d[ju].counter,
                            };
                        }
                    }
                }
            }
            self.next[i] = best;
        }
        (self.cross_t[i], self.cross_side[i]) = self.crossing(i, p, v, now);
    }

    /// Every ball's contact and crossing from time `now`, every ball's clock at `now`:
    /// each pair of balls in the same or neighbouring cells once (a cell with itself
    /// and with four of its eight neighbours, so that each neighbouring pair of cells
    /// comes once), its time offered to both balls.
    pub(super) fn predict_all(&mut self, now: f64) {
        let n = self.d.len();
        for i in 0..n {
            let di = self.d[i];
            let (p, v) = ([di.x, di.y], [di.vx, di.vy]);
            self.next[i] = self.wall(p, v, di.r, now);
            (self.cross_t[i], self.cross_side[i]) = self.crossing(i, p, v, now);
        }
        let k = self.n_cells;
        for cy in 0..k[1] {
            for cx in 0..k[0] {
                let mut i = self.head[cx + k[0] * cy];
                if i == END {
                    // Most cells are empty (about three per ball at area fraction 0.3).
                    continue;
                }
                let mut ahead = [0usize; 4];
                let mut count = 0;
                for (dx, dy) in [(1, 0), (-1, 1), (0, 1), (1, 1)] {
                    if let (Some(x), Some(y)) =
                        (self.neighbour(cx, dx, 0), self.neighbour(cy, dy, 1))
                    {
                        ahead[count] = x + k[0] * y;
                        count += 1;
                    }
                }
                while i != END {
                    let iu = i as usize;
                    let mut j = self.d[iu].link;
                    while j != END {
                        self.pair_both(iu, j as usize, now);
                        j = self.d[j as usize].link;
                    }
                    for &cell in &ahead[..count] {
                        let mut j = self.head[cell];
                        while j != END {
                            self.pair_both(iu, j as usize, now);
                            j = self.d[j as usize].link;
                        }
                    }
                    i = self.d[iu].link;
                }
            }
        }
    }

    /// Balls `i` and `j`, both at time `now`: their contact time offered to each.
    #[inline(always)]
    fn pair_both(&mut self, i: usize, j: usize, now: f64) {
        let (di, dj) = (&self.d[i], &self.d[j]);
        let (dx, dy) = self.tab.0.min_image(dj.x - di.x, dj.y - di.y);
        let r_sum = di.r + dj.r;
        let Some(tau) = pair_time(
            [dx, dy],
            [dj.vx - di.vx, dj.vy - di.vy],
            r_sum * (1.0 + self.s * now),
            r_sum * self.s,
        ) else {
            return;
        };
        let t = now + tau;
        if t < self.next[i].t {
            self.next[i] = Ev {
                t,
                other: j as u32,
                c_other: self.d[j].counter,
            };
        }
        if t < self.next[j].t {
            self.next[j] = Ev {
                t,
                other: i as u32,
                c_other: self.d[i].counter,
            };
        }
    }
}

/// The time until a pair meets ([`growing_contact::contact_time`]), also for a pair that
/// round-off leaves touching or a hair inside contact right after an impact: one
/// closing in the growing frame meets now; one separating meets again only if the
/// contact distance grows faster than the pair separates (`a < 0`), at the quadratic's
/// larger root.
#[inline]
pub(super) fn pair_time(d: [f64; 2], w: [f64; 2], sigma: f64, sigma_dot: f64) -> Option<f64> {
    let c = d[0] * d[0] + d[1] * d[1] - sigma * sigma;
    let b = d[0] * w[0] + d[1] * w[1] - sigma * sigma_dot;
    let a = w[0] * w[0] + w[1] * w[1] - sigma_dot * sigma_dot;
    if c > 0.0 {
        // Apart, separating in the growing frame and the separation outgrowing the
        // growth: no root (the discriminant is at most b^2, so sqrt(disc) - b <= 0 also
        // in rounded arithmetic), the same answer as `contact_time` without its root.
        if b >= 0.0 && a >= 0.0 {
            return None;
        }
        return growing_contact::contact_time(d, w, sigma, sigma_dot);
    }
    if b < 0.0 {
        return Some(0.0);
    }
    let disc = b * b - a * c;
    (a < 0.0 && disc >= 0.0).then(|| (b + disc.sqrt()) / -a)
}
