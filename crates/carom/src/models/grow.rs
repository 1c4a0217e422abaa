//! The `event` model while it compresses (`physics.compress`): Lubachevsky-Stillinger
//! growth, exact. The world replaces the plain event model by this one while a
//! compression runs, so the plain model's paths are untouched by it.
//!
//! The world sets each output interval's growth ([`CollisionModel::set_growth`]):
//! over the interval every radius grows linearly, `r_i (1 + s tau)`, `tau` the time
//! since the interval's start and `r_i` the radius there. Between events the balls fly
//! straight (compression runs without gravity), so a pair's contact is a root of a
//! quadratic and a wall's a root of a linear equation ([`crate::growth`]); an impact
//! reverses the normal relative speed in the frame of the growing surfaces, so it adds
//! the growth speed to the separation speed.
//!
//! Machinery: a grid of cells at least one largest diameter (as it is at the
//! interval's end) wide, kept by cell-crossing events; each ball's earliest event
//! (contact, wall or crossing) in an indexed binary heap; a per-ball counter of
//! velocity changes that tells a stale pair prediction (its partner has changed
//! course) when it comes due. Every interval starts from fresh predictions (the world
//! rescales the velocities between intervals) and ends with every ball moved to its
//! end and its radius grown, so nothing but the balls carries over: a resumed run
//! continues bit for bit. One thread, so every thread count gives the same bits.

use super::{CollisionModel, StepContext, StepError};
use crate::balls::Balls;
use crate::growth;
use crate::scenario::ModelKind;
use crate::stress::{self, Virial};
use crate::table::Table;

/// `other` of an event: a ball index below `WALL`; `WALL + side` a wall (side 0: x = 0,
/// 1: x = width, 2: y = 0, 3: y = height); `CROSS + side` a crossing of the cell's side
/// (same numbering); `NONE`: no event.
const WALL: u32 = u32::MAX - 9;
const CROSS: u32 = u32::MAX - 5;
const NONE: u32 = u32::MAX;
const END: u32 = u32::MAX;

/// A ball's earliest event: its time (from the interval's start), what it meets, and
/// the partner's counter when it was predicted.
#[derive(Debug, Clone, Copy)]
struct Ev {
    t: f64,
    other: u32,
    c_other: u32,
}

/// A heap entry: a ball and its earliest event's time, kept beside it so that the
/// heap's comparisons read one array.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    t: f64,
    i: u32,
}

/// The table a [`Grow`] holds between intervals (an empty one before the first).
#[derive(Debug, Clone, Copy)]
struct CellTable(Table);

impl Default for CellTable {
    fn default() -> CellTable {
        CellTable(Table {
            width: 0.0,
            height: 0.0,
            boundary: [boundary(true), boundary(true)],
            shear_rate: 0.0,
            shift: 0.0,
        })
    }
}

impl Ev {
    const NONE: Ev = Ev {
        t: f64::INFINITY,
        other: NONE,
        c_other: 0,
    };
}

/// One output interval's growth, as the world asks for it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Growth {
    /// Every radius grows at `rate` times its size at the interval's start.
    pub rate: f64,
    /// The interval's length (`<= 0`: `dt`).
    pub len: f64,
    /// The temperature held (0: none).
    pub temperature: f64,
    /// The reduced pressure past which the packing counts as jammed and the interval
    /// ends (infinity: never).
    pub pressure_bound: f64,
}

/// What an interval measured: its length (shorter than asked when the packing jammed
/// in it), the reduced pressure over it (over its last stretch of
/// `RESCALE_PER_BALL * N` collisions when jammed), and whether it jammed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grown {
    pub len: f64,
    pub reduced_pressure: Option<f64>,
    pub jammed: bool,
}

/// Events one interval may take per ball before the step fails as stalled (on top of
/// a fixed allowance): a jamming packing needs many, a degenerate one endlessly many.
pub const EVENTS_PER_BALL: u64 = 100_000;

/// Within an output interval the temperature is put back after every
/// `RESCALE_PER_BALL * N` collisions: near jamming the growth heats the gas faster the
/// higher the pressure (by about `Z rate` per unit time), and an interval the user
/// chose for output must not let it run away. Each such rescale costs a fresh
/// prediction per ball, a few percent of the collisions it follows.
pub const RESCALE_PER_BALL: u64 = 20;

#[derive(Clone, Default)]
pub struct Grow {
    /// This interval's growth per unit radius, length (`len <= 0`: `dt`) and the
    /// temperature held (0: none).
    s: f64,
    len: f64,
    temperature: f64,
    bound: f64,
    /// `sum m |v|^2`, `sum m v` and `sum m` now, and the integral of `sum m |v - V|^2`
    /// over the interval so far (to `kin_at`): the reduced pressure's denominator.
    kin: f64,
    mom: [f64; 2],
    mass: f64,
    kin_integral: f64,
    kin_at: f64,
    /// What the last interval measured.
    grown: Option<Grown>,
    /// Per ball: local time, velocity-change counter, earliest event, heap slot, cell.
    t: Vec<f64>,
    counter: Vec<u32>,
    next: Vec<Ev>,
    pos: Vec<u32>,
    cell: Vec<u32>,
    /// Cell lists (doubly linked through the balls).
    head: Vec<u32>,
    link_next: Vec<u32>,
    link_prev: Vec<u32>,
    /// The heap of balls by their earliest event's time.
    heap: Vec<Slot>,
    /// The table as the cells see it (set with the cells).
    tab: CellTable,
    n_cells: [usize; 2],
    width: [f64; 2],
    side: [f64; 2],
    periodic: [bool; 2],
    cap: Option<u64>,
    collisions: u64,
    events: u64,
    virial: Virial,
}

impl Grow {
    pub fn new() -> Grow {
        Grow {
            bound: f64::INFINITY,
            ..Grow::default()
        }
    }

    /// Events processed so far (collisions, wall impacts, crossings).
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Lays out the cells for this interval: at least one largest diameter at the
    /// interval's end wide, at least four on a periodic axis (so that a neighbour cell
    /// is one image only), at most about four per ball.
    fn build_cells(&mut self, b: &Balls, table: &Table, len: f64) -> Result<(), StepError> {
        let r_max = b.r.iter().copied().fold(0.0, f64::max);
        let reach = 2.0 * r_max * (1.0 + self.s * len) * (1.0 + 1e-9);
        let cap = (4 * b.len()).max(16) as f64;
        self.side = [table.width, table.height];
        self.periodic = [table.is_periodic(0), table.is_periodic(1)];
        let mut k = self.side.map(|side| {
            let fit = (side / reach).floor();
            if fit.is_finite() && fit >= 1.0 {
                fit.min(cap) as usize
            } else {
                1
            }
        });
        while (k[0] * k[1]) as f64 > cap && k[0].max(k[1]) > 4 {
            let a = usize::from(k[1] > k[0]);
            k[a] = (k[a] / 2).max(4);
        }
        for (a, &count) in k.iter().enumerate() {
            if self.periodic[a] && count < 4 {
                return Err(StepError::Unfit(
                    "physics.compress",
                    format!(
                        "the periodic side {} is narrower than four largest diameters ({})",
                        self.side[a],
                        4.0 * reach
                    ),
                ));
            }
            self.width[a] = self.side[a] / count as f64;
        }
        self.n_cells = k;
        self.tab = CellTable(self.table());
        self.head.clear();
        self.head.resize(k[0] * k[1], END);
        let n = b.len();
        self.cell.resize(n, 0);
        self.link_next.resize(n, END);
        self.link_prev.resize(n, END);
        for i in 0..n {
            let c = self.cell_at(b.x[i], b.y[i]);
            self.insert(i, c);
        }
        Ok(())
    }

    /// The table as the cells see it.
    fn table(&self) -> Table {
        Table {
            width: self.side[0],
            height: self.side[1],
            boundary: [boundary(self.periodic[0]), boundary(self.periodic[1])],
            shear_rate: 0.0,
            shift: 0.0,
        }
    }

    fn cell_at(&self, x: f64, y: f64) -> usize {
        let coord = |p: f64, a: usize| {
            let c = (p / self.width[a]).floor();
            if c >= 0.0 {
                (c as usize).min(self.n_cells[a] - 1)
            } else {
                0
            }
        };
        coord(x, 0) + self.n_cells[0] * coord(y, 1)
    }

    fn insert(&mut self, i: usize, c: usize) {
        self.cell[i] = c as u32;
        let h = self.head[c];
        self.link_next[i] = h;
        self.link_prev[i] = END;
        if h != END {
            self.link_prev[h as usize] = i as u32;
        }
        self.head[c] = i as u32;
    }

    fn remove(&mut self, i: usize) {
        let (p, n) = (self.link_prev[i], self.link_next[i]);
        if p == END {
            self.head[self.cell[i] as usize] = n;
        } else {
            self.link_next[p as usize] = n;
        }
        if n != END {
            self.link_prev[n as usize] = p;
        }
    }

    /// `sum m |v|^2` and `sum m v` afresh from the balls.
    fn measure(&mut self, b: &Balls) {
        let (mut k, mut p, mut m) = (0.0, [0.0, 0.0], 0.0);
        for i in 0..b.len() {
            k += b.m[i] * (b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i]);
            p[0] += b.m[i] * b.vx[i];
            p[1] += b.m[i] * b.vy[i];
            m += b.m[i];
        }
        (self.kin, self.mom, self.mass) = (k, p, m);
    }

    /// Integrates `sum m |v - V|^2` up to time `t`.
    fn integrate_to(&mut self, t: f64) {
        let com = self.kin - (self.mom[0] * self.mom[0] + self.mom[1] * self.mom[1]) / self.mass;
        self.kin_integral += com.max(0.0) * (t - self.kin_at);
        self.kin_at = t;
    }

    /// Ball `i`'s velocity changes by `dv`: the sums follow.
    fn account(&mut self, b: &Balls, i: usize, dv: [f64; 2]) {
        let (vx, vy) = (b.vx[i], b.vy[i]);
        let m = b.m[i];
        // m |v + dv|^2 - m |v|^2, with v the velocity before.
        self.kin += m * (dv[0] * (2.0 * vx + dv[0]) + dv[1] * (2.0 * vy + dv[1]));
        self.mom[0] += m * dv[0];
        self.mom[1] += m * dv[1];
    }

    /// Every ball to time `t`, its velocity scaled about the centre of mass to the
    /// temperature held, and every prediction made afresh.
    fn rescale_all(&mut self, b: &mut Balls, t: f64) {
        let n = b.len();
        for i in 0..n {
            self.advance(b, i, t);
        }
        let th = crate::thermostat::Thermostat::Rescale {
            temperature: self.temperature,
        };
        th.apply(b, &[], 0, 0.0);
        self.measure(b);
        for c in &mut self.counter {
            *c = c.wrapping_add(1);
        }
        for i in 0..n {
            self.predict(b, i, t);
        }
        for slot in &mut self.heap {
            slot.t = self.next[slot.i as usize].t;
        }
        for k in (0..n / 2).rev() {
            self.sift_down(k);
        }
    }

    /// Moves ball `i` along its line to time `t`.
    #[inline]
    fn advance(&mut self, b: &mut Balls, i: usize, t: f64) {
        let dt = t - self.t[i];
        b.x[i] += b.vx[i] * dt;
        b.y[i] += b.vy[i] * dt;
        self.t[i] = t;
    }

    /// Ball `i`'s earliest event from time `now` (its own clock is `now`).
    fn predict(&mut self, b: &Balls, i: usize, now: f64) {
        let s = self.s;
        let (xi, yi, vxi, vyi, ri) = (b.x[i], b.y[i], b.vx[i], b.vy[i], b.r[i]);
        let mut best = Ev::NONE;
        let mut take = |t: f64, other: u32, c_other: u32| {
            if t < best.t {
                best = Ev { t, other, c_other };
            }
        };
        let k = self.n_cells;
        let c = self.cell[i] as usize;
        let cc = [c % k[0], c / k[0]];
        for (a, p, v) in [(0usize, xi, vxi), (1, yi, vyi)] {
            let side = a as u32 * 2;
            if !self.periodic[a] {
                // The wall's gap closes at the speed of the centre plus the growth.
                let (rr, rd) = (ri * (1.0 + s * now), ri * s);
                let low = v - rd;
                if low < 0.0 {
                    take(now + (p - rr).max(0.0) / -low, WALL + side, 0);
                }
                let high = -v - rd;
                if high < 0.0 {
                    take(
                        now + (self.side[a] - p - rr).max(0.0) / -high,
                        WALL + side + 1,
                        0,
                    );
                }
            }
            let last = cc[a] + 1 == k[a];
            if v > 0.0 && (self.periodic[a] || !last) {
                let bound = (cc[a] + 1) as f64 * self.width[a];
                take(now + ((bound - p) / v).max(0.0), CROSS + side + 1, 0);
            } else if v < 0.0 && (self.periodic[a] || cc[a] > 0) {
                let bound = cc[a] as f64 * self.width[a];
                take(now + ((bound - p) / v).max(0.0), CROSS + side, 0);
            }
        }
        // The neighbour cells' coordinates along each axis, lowest first (a periodic
        // axis has at least four cells, so the three are distinct).
        let range = |c: usize, a: usize| -> ([usize; 3], usize, usize) {
            let n = k[a];
            if self.periodic[a] {
                let low = if c == 0 { n - 1 } else { c - 1 };
                let high = if c + 1 == n { 0 } else { c + 1 };
                ([low, c, high], 0, 3)
            } else {
                let from = usize::from(c == 0);
                let to = if c + 1 < n { 3 } else { 2 };
                ([c.wrapping_sub(1), c, c + 1], from, to)
            }
        };
        let table = self.tab.0;
        let (ys, y0, y1) = range(cc[1], 1);
        let (xs, x0, x1) = range(cc[0], 0);
        for &cy in &ys[y0..y1] {
            for &cx in &xs[x0..x1] {
                let mut j = self.head[cx + k[0] * cy];
                while j != END {
                    let ju = j as usize;
                    j = self.link_next[ju];
                    if ju == i {
                        continue;
                    }
                    let lag = now - self.t[ju];
                    let (dx, dy) = table
                        .min_image(b.x[ju] + b.vx[ju] * lag - xi, b.y[ju] + b.vy[ju] * lag - yi);
                    let r_sum = ri + b.r[ju];
                    if let Some(tau) = pair_time(
                        [dx, dy],
                        [b.vx[ju] - vxi, b.vy[ju] - vyi],
                        r_sum * (1.0 + s * now),
                        r_sum * s,
                    ) {
                        take(now + tau, ju as u32, self.counter[ju]);
                    }
                }
            }
        }
        self.next[i] = best;
    }

    fn sift_up(&mut self, mut k: usize) {
        let e = self.heap[k];
        while k > 0 {
            let p = (k - 1) / 2;
            let pe = self.heap[p];
            if pe.t <= e.t {
                break;
            }
            self.heap[k] = pe;
            self.pos[pe.i as usize] = k as u32;
            k = p;
        }
        self.heap[k] = e;
        self.pos[e.i as usize] = k as u32;
    }

    fn sift_down(&mut self, mut k: usize) {
        let n = self.heap.len();
        let e = self.heap[k];
        loop {
            let l = 2 * k + 1;
            if l >= n {
                break;
            }
            let mut c = l;
            if l + 1 < n && self.heap[l + 1].t < self.heap[l].t {
                c = l + 1;
            }
            let ce = self.heap[c];
            if ce.t >= e.t {
                break;
            }
            self.heap[k] = ce;
            self.pos[ce.i as usize] = k as u32;
            k = c;
        }
        self.heap[k] = e;
        self.pos[e.i as usize] = k as u32;
    }

    /// Ball `i`'s event changed: restore the heap's order.
    fn update(&mut self, i: usize) {
        let k = self.pos[i] as usize;
        self.heap[k].t = self.next[i].t;
        self.sift_up(k);
        self.sift_down(self.pos[i] as usize);
    }

    /// An impact of `i` and `j` at their common clock.
    fn impact(&mut self, b: &mut Balls, i: usize, j: usize) {
        let (dx, dy) = self.tab.0.min_image(b.x[j] - b.x[i], b.y[j] - b.y[i]);
        let dist = (dx * dx + dy * dy).sqrt();
        let n = [dx / dist, dy / dist];
        let sd = (b.r[i] + b.r[j]) * self.s;
        let (vi, vj) = ([b.vx[i], b.vy[i]], [b.vx[j], b.vy[j]]);
        let (mi, mj) = (b.m[i], b.m[j]);
        let (dvi, dvj) = growth::impact(n, vi, vj, mi, mj, 1.0, sd);
        self.account(b, i, dvi);
        self.account(b, j, dvj);
        b.vx[i] += dvi[0];
        b.vy[i] += dvi[1];
        b.vx[j] += dvj[0];
        b.vy[j] += dvj[1];
        // The normal impulse on j, pushing the pair apart: r_ij . J_ij = dist * jn.
        let jn = mj * (dvj[0] * n[0] + dvj[1] * n[1]);
        self.virial.sum += dist * jn;
        stress::add_contact(&mut self.virial.tensor, n, dist, jn, 0.0);
    }

    /// One output interval: every event in it, then every ball to its end, grown.
    fn interval(&mut self, b: &mut Balls, table: &Table, len: f64) -> Result<(), StepError> {
        let n = b.len();
        self.build_cells(b, table, len)?;
        self.t.clear();
        self.t.resize(n, 0.0);
        self.counter.clear();
        self.counter.resize(n, 0);
        self.next.clear();
        self.next.resize(n, Ev::NONE);
        self.pos.resize(n, 0);
        for i in 0..n {
            self.predict(b, i, 0.0);
        }
        self.heap.clear();
        self.heap.extend((0..n as u32).map(|i| Slot {
            t: self.next[i as usize].t,
            i,
        }));
        for (k, slot) in self.heap.iter().enumerate() {
            self.pos[slot.i as usize] = k as u32;
        }
        for k in (0..n / 2).rev() {
            self.sift_down(k);
        }
        self.measure(b);
        (self.kin_integral, self.kin_at) = (0.0, 0.0);
        let virial_start = self.virial.sum;
        let rescale_every = RESCALE_PER_BALL.saturating_mul(n as u64).max(1000);
        let mut since_rescale = 0u64;
        // The pressure's sums where the present stretch of collisions began.
        let (mut w_mark, mut k_mark) = (virial_start, 0.0);
        let mut end = len;
        let mut jam_z = None;
        let limit = self
            .cap
            .unwrap_or(1_000_000 + EVENTS_PER_BALL.saturating_mul(n as u64));
        let mut taken = 0u64;
        while let Some(&top) = self.heap.first() {
            let i = top.i as usize;
            let e = self.next[i];
            if e.t > len || e.t.is_nan() {
                break;
            }
            taken += 1;
            if taken > limit {
                return Err(StepError::EventBudget(format!(
                    "{taken} events in one output interval of the compression (at most \
                     {limit}): the packing is stuck"
                )));
            }
            self.events += 1;
            if e.other < WALL {
                let j = e.other as usize;
                if self.counter[j] != e.c_other {
                    // The partner changed course since: predict afresh from now.
                    self.advance(b, i, e.t);
                    self.predict(b, i, e.t);
                    self.update(i);
                    continue;
                }
                self.advance(b, i, e.t);
                self.advance(b, j, e.t);
                self.integrate_to(e.t);
                self.impact(b, i, j);
                self.collisions += 1;
                self.counter[i] = self.counter[i].wrapping_add(1);
                self.counter[j] = self.counter[j].wrapping_add(1);
                self.predict(b, i, e.t);
                self.update(i);
                self.predict(b, j, e.t);
                self.update(j);
                since_rescale += 1;
            } else if e.other < CROSS {
                self.advance(b, i, e.t);
                let side = (e.other - WALL) as usize;
                let rd = b.r[i] * self.s;
                self.integrate_to(e.t);
                // The gap's rate of change reverses (elastic): v' = 2 rd - v at the
                // low wall, -2 rd - v at the high one.
                let a = side / 2;
                let v = if a == 0 { b.vx[i] } else { b.vy[i] };
                let v_new = if side.is_multiple_of(2) {
                    2.0 * rd - v
                } else {
                    -2.0 * rd - v
                };
                let mut dv = [0.0; 2];
                dv[a] = v_new - v;
                self.account(b, i, dv);
                if a == 0 {
                    b.vx[i] = v_new;
                } else {
                    b.vy[i] = v_new;
                }
                self.collisions += 1;
                self.counter[i] = self.counter[i].wrapping_add(1);
                self.predict(b, i, e.t);
                self.update(i);
                since_rescale += 1;
            } else {
                self.advance(b, i, e.t);
                self.cross(b, i, (e.other - CROSS) as usize);
                self.predict(b, i, e.t);
                self.update(i);
            }
            if since_rescale >= rescale_every {
                self.integrate_to(e.t);
                // Jammed: the reduced pressure over the stretch is past the bound
                // (the growth cannot go on past jamming: the collisions would pile up
                // without end before the interval's end).
                let dk = self.kin_integral - k_mark;
                if dk > 0.0 {
                    let z = 1.0 + (self.virial.sum - w_mark) / dk;
                    if z > self.bound {
                        end = e.t;
                        jam_z = Some(z);
                        break;
                    }
                }
                if self.temperature > 0.0 {
                    self.rescale_all(b, e.t);
                }
                (w_mark, k_mark) = (self.virial.sum, self.kin_integral);
                since_rescale = 0;
            }
        }
        let len = end;
        self.integrate_to(len);
        let z = (self.kin_integral > 0.0)
            .then(|| 1.0 + (self.virial.sum - virial_start) / self.kin_integral);
        self.grown = Some(Grown {
            len,
            reduced_pressure: jam_z.or(z),
            jammed: jam_z.is_some(),
        });
        let grow = 1.0 + self.s * len;
        for i in 0..n {
            self.advance(b, i, len);
            self.t[i] = 0.0;
            b.r[i] *= grow;
        }
        Ok(())
    }

    /// Ball `i` crosses its cell's `side` (numbered as walls), wrapping across a
    /// periodic edge.
    fn cross(&mut self, b: &mut Balls, i: usize, side: usize) {
        let (a, up) = (side / 2, side % 2 == 1);
        let k = self.n_cells;
        let c = self.cell[i] as usize;
        let mut cc = [c % k[0], c / k[0]];
        let (p, img) = if a == 0 {
            (&mut b.x[i], &mut b.ix[i])
        } else {
            (&mut b.y[i], &mut b.iy[i])
        };
        if up {
            if cc[a] + 1 == k[a] {
                cc[a] = 0;
                *p -= self.side[a];
                *img += 1;
            } else {
                cc[a] += 1;
            }
        } else if cc[a] == 0 {
            cc[a] = k[a] - 1;
            *p += self.side[a];
            *img -= 1;
        } else {
            cc[a] -= 1;
        }
        self.remove(i);
        self.insert(i, cc[0] + k[0] * cc[1]);
    }
}

fn boundary(periodic: bool) -> crate::table::Boundary {
    if periodic {
        crate::table::Boundary::Periodic
    } else {
        crate::table::Boundary::Walls
    }
}

/// The time until a pair meets ([`growth::contact_time`]), also for a pair that
/// round-off leaves touching or a hair inside contact right after an impact: one
/// closing in the growing frame meets now; one separating meets again only if the
/// contact distance grows faster than the pair separates (`a < 0`), at the quadratic's
/// larger root.
#[inline]
fn pair_time(d: [f64; 2], w: [f64; 2], sigma: f64, sigma_dot: f64) -> Option<f64> {
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
        return growth::contact_time(d, w, sigma, sigma_dot);
    }
    if b < 0.0 {
        return Some(0.0);
    }
    let disc = b * b - a * c;
    (a < 0.0 && disc >= 0.0).then(|| (b + disc.sqrt()) / -a)
}

impl CollisionModel for Grow {
    fn kind(&self) -> ModelKind {
        ModelKind::Event
    }

    fn step(&mut self, ctx: StepContext<'_>) -> Result<(), StepError> {
        let StepContext {
            balls,
            table,
            physics,
            in_play,
            ..
        } = ctx;
        if in_play.is_some_and(|m| m.iter().any(|&p| !p)) {
            return Err(StepError::Unfit(
                "physics.compress",
                "a compression needs every ball in play".into(),
            ));
        }
        let len = if self.len > 0.0 { self.len } else { physics.dt };
        let before = (self.collisions, self.events, self.virial);
        let result = self.interval(balls, table, len);
        if result.is_err() {
            (self.collisions, self.events, self.virial) = before;
        }
        result
    }

    fn collisions(&self) -> u64 {
        self.collisions
    }

    fn event_count(&self) -> Option<u64> {
        Some(self.events)
    }

    fn virial(&self) -> f64 {
        self.virial.sum
    }

    fn virial_tensor(&self) -> crate::stress::Tensor {
        self.virial.tensor
    }

    fn set_event_cap(&mut self, cap: Option<u64>) {
        self.cap = cap;
    }

    fn set_growth(&mut self, g: Growth) {
        self.s = g.rate;
        self.len = g.len;
        self.temperature = g.temperature;
        self.bound = g.pressure_bound;
    }

    fn grown(&self) -> Option<Grown> {
        self.grown
    }
}
