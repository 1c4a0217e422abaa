//! The `event` model while it compresses (`physics.compress`): Lubachevsky-Stillinger
//! growth, exact. The world replaces the plain event model by this one while a
//! compression runs, so the plain model's paths are untouched by it.
//!
//! The world sets each output interval's growth ([`CollisionModel::set_growth`]):
//! over the interval every radius grows linearly, `r_i (1 + s tau)`, `tau` the time
//! since the interval's start and `r_i` the radius there. Between events the balls fly
//! straight (compression runs without gravity), so a pair's contact is a root of a
//! quadratic and a wall's a root of a linear equation ([`crate::growing_contact`]); an impact
//! reverses the normal relative speed in the frame of the growing surfaces, so it adds
//! the growth speed to the separation speed.
//!
//! Machinery: a grid of cells at least one largest diameter (as it is at the
//! interval's end) wide, kept by cell-crossing events (`cells.rs`); each ball's
//! earliest contact (a ball or a wall) and next crossing (`predict.rs`), the balls in
//! a calendar of time buckets (`models/calendar.rs`) by the earlier of the two; a per-ball
//! counter of velocity changes that tells a stale pair prediction (its partner has
//! changed course) when it comes due.
//!
//! Every interval starts from fresh predictions, and so must: the world puts the
//! temperature back between intervals (every velocity changes, and with it every
//! predicted time). The interval ends with every ball moved to its end and its radius
//! grown, and the cells are laid out afresh from the balls, so nothing but the balls
//! carries over: a resumed run continues bit for bit. One thread, so every thread
//! count gives the same bits.

use super::{CollisionModel, StepContext, StepError};
use crate::balls::Balls;
use crate::growing_contact;
use crate::physics::ModelKind;
use crate::stress::{self, Virial};
use crate::table::Table;

mod cells;
mod predict;

use cells::boundary;

/// `other` of a contact: a ball index below `WALL`; `WALL + side` a wall (side 0: x =
/// 0, 1: x = width, 2: y = 0, 3: y = height); `NONE`: no contact.
const WALL: u32 = u32::MAX - 9;
const NONE: u32 = u32::MAX;
const END: u32 = u32::MAX;

/// A ball's earliest contact: its time (from the interval's start), what it meets,
/// and the partner's counter when it was predicted.
#[derive(Debug, Clone, Copy)]
struct Ev {
    t: f64,
    other: u32,
    c_other: u32,
}

/// A ball as the interval's events read it, in one record of one cache line: a
/// prediction reads every neighbour's position, velocity, radius, clock and counter
/// and walks the cell list through `link`, and at 10^6 balls each of those arrays
/// apart was a trip to memory per neighbour. Loaded from the balls at the interval's
/// start, written back at its end (and around a rescale within it).
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(64))]
struct Disk {
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
    r: f64,
    m: f64,
    /// The ball's own clock (it sits at `x, y` at time `t`).
    t: f64,
    /// Velocity changes so far in the interval.
    counter: u32,
    /// The next ball in its cell's list.
    link: u32,
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
    /// Per ball: its record, earliest contact, next crossing's time and side, cell.
    d: Vec<Disk>,
    next: Vec<Ev>,
    cross_t: Vec<f64>,
    cross_side: Vec<u32>,
    cell: Vec<u32>,
    /// Cell lists (doubly linked through the balls: `Disk::link` forwards).
    head: Vec<u32>,
    link_prev: Vec<u32>,
    /// The balls by their earliest event's time (contact or crossing).
    cal: super::calendar::Calendar,
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
    #[cfg(any(test, feature = "internals"))]
    pub fn events(&self) -> u64 {
        self.events
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
    fn account(&mut self, i: usize, dv: [f64; 2]) {
        let (vx, vy) = (self.d[i].vx, self.d[i].vy);
        let m = self.d[i].m;
        // m |v + dv|^2 - m |v|^2, with v the velocity before.
        self.kin += m * (dv[0] * (2.0 * vx + dv[0]) + dv[1] * (2.0 * vy + dv[1]));
        self.mom[0] += m * dv[0];
        self.mom[1] += m * dv[1];
    }

    /// Every ball to time `t`, its velocity scaled about the centre of mass to the
    /// temperature held, and every prediction made afresh up to the interval's `end`.
    fn rescale_all(&mut self, b: &mut Balls, t: f64, end: f64) {
        let n = b.len();
        for i in 0..n {
            self.advance(i, t);
        }
        self.store(b);
        let th = crate::thermostat::Thermostat::Rescale {
            temperature: self.temperature,
        };
        th.apply(b, &[], 0, 0.0);
        self.measure(b);
        for (d, (&vx, &vy)) in self.d.iter_mut().zip(b.vx.iter().zip(&b.vy)) {
            (d.vx, d.vy) = (vx, vy);
            d.counter = d.counter.wrapping_add(1);
        }
        self.predict_all(t);
        self.schedule_all(t, end);
    }

    /// Every ball filed afresh under its earliest event, from `now` to `end`.
    fn schedule_all(&mut self, now: f64, end: f64) {
        let (next, cross_t) = (&self.next, &self.cross_t);
        let keys = next.iter().zip(cross_t).map(|(e, &c)| e.t.min(c));
        self.cal.build(keys, now, end);
    }

    /// The balls' positions and velocities from their records.
    fn store(&self, b: &mut Balls) {
        for (i, d) in self.d.iter().enumerate() {
            (b.x[i], b.y[i], b.vx[i], b.vy[i]) = (d.x, d.y, d.vx, d.vy);
        }
    }

    /// Moves ball `i` along its line to time `t`.
    #[inline]
    fn advance(&mut self, i: usize, t: f64) {
        let d = &mut self.d[i];
        let dt = t - d.t;
        d.x += d.vx * dt;
        d.y += d.vy * dt;
        d.t = t;
    }

    /// Ball `i`'s event changed: file it under its new time.
    #[inline]
    fn update(&mut self, i: usize) {
        let t = self.key(i);
        self.cal.set(i, t);
    }

    /// An impact of `i` and `j` at their common clock.
    fn impact(&mut self, i: usize, j: usize) {
        let (di, dj) = (self.d[i], self.d[j]);
        let (dx, dy) = self.tab.0.min_image(dj.x - di.x, dj.y - di.y);
        let dist = (dx * dx + dy * dy).sqrt();
        let n = [dx / dist, dy / dist];
        let sd = (di.r + dj.r) * self.s;
        let (vi, vj) = ([di.vx, di.vy], [dj.vx, dj.vy]);
        let (mi, mj) = (di.m, dj.m);
        let (dvi, dvj) = growing_contact::impact(n, vi, vj, mi, mj, 1.0, sd);
        self.account(i, dvi);
        self.account(j, dvj);
        self.d[i].vx += dvi[0];
        self.d[i].vy += dvi[1];
        self.d[j].vx += dvj[0];
        self.d[j].vy += dvj[1];
        // The normal impulse on j, pushing the pair apart: r_ij . J_ij = dist * jn.
        let jn = mj * (dvj[0] * n[0] + dvj[1] * n[1]);
        self.virial.sum += dist * jn;
        stress::add_contact(&mut self.virial.tensor, n, dist, jn, 0.0);
    }

    /// The interval's start: the disks loaded from the balls at their own time 0, the
    /// cells laid out, every disk's next event predicted and scheduled, and the
    /// pressure's sums measured afresh.
    fn start(&mut self, b: &Balls, table: &Table, len: f64) -> Result<(), StepError> {
        let n = b.len();
        self.d.clear();
        self.d.extend((0..n).map(|i| Disk {
            x: b.x[i],
            y: b.y[i],
            vx: b.vx[i],
            vy: b.vy[i],
            r: b.r[i],
            m: b.m[i],
            t: 0.0,
            counter: 0,
            link: END,
        }));
        self.build_cells(b, table, len)?;
        self.next.clear();
        self.next.resize(n, Ev::NONE);
        self.cross_t.clear();
        self.cross_t.resize(n, f64::INFINITY);
        self.cross_side.resize(n, 0);
        self.predict_all(0.0);
        self.schedule_all(0.0, len);
        self.measure(b);
        Ok(())
    }

    /// Disk `i`, brought to time `t`, meets side `side` of the box (`2 a` low, `2 a +
    /// 1` high along axis `a`).
    #[inline(always)]
    fn bounce(&mut self, i: usize, side: usize, t: f64) {
        let rd = self.d[i].r * self.s;
        self.integrate_to(t);
        // The gap's rate of change reverses (elastic): v' = 2 rd - v at the
        // low wall, -2 rd - v at the high one.
        let a = side / 2;
        let v = if a == 0 { self.d[i].vx } else { self.d[i].vy };
        let v_new = if side.is_multiple_of(2) {
            2.0 * rd - v
        } else {
            -2.0 * rd - v
        };
        let mut dv = [0.0; 2];
        dv[a] = v_new - v;
        self.account(i, dv);
        if a == 0 {
            self.d[i].vx = v_new;
        } else {
            self.d[i].vy = v_new;
        }
        self.collisions += 1;
        self.d[i].counter = self.d[i].counter.wrapping_add(1);
        self.predict(i, t);
        self.update(i);
    }

    /// One output interval: every event in it, then every ball to its end, grown.
    fn interval(&mut self, b: &mut Balls, table: &Table, len: f64) -> Result<(), StepError> {
        let n = b.len();
        self.start(b, table, len)?;
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
        while let Some((i, _)) = self.cal.first() {
            let e = self.next[i];
            let cross_t = self.cross_t[i];
            let now = e.t.min(cross_t);
            if now > len || now.is_nan() {
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
            if cross_t < e.t {
                // Into the next cell; the contact kept stands.
                self.advance(i, now);
                let side = self.cross_side[i] as usize;
                self.cross(b, i, side);
                self.after_cross(i, side, now);
                self.update(i);
            } else if e.other < WALL {
                let j = e.other as usize;
                if self.d[j].counter != e.c_other {
                    // The partner changed course since: predict afresh from now.
                    self.advance(i, e.t);
                    self.predict(i, e.t);
                    self.update(i);
                    continue;
                }
                self.advance(i, e.t);
                self.advance(j, e.t);
                self.integrate_to(e.t);
                self.impact(i, j);
                self.collisions += 1;
                self.d[i].counter = self.d[i].counter.wrapping_add(1);
                self.d[j].counter = self.d[j].counter.wrapping_add(1);
                self.predict(i, e.t);
                self.update(i);
                self.predict(j, e.t);
                self.update(j);
                since_rescale += 1;
            } else {
                self.advance(i, e.t);
                let side = (e.other - WALL) as usize;
                self.bounce(i, side, e.t);
                since_rescale += 1;
            }
            if since_rescale >= rescale_every {
                self.integrate_to(now);
                // Jammed: the reduced pressure over the stretch is past the bound
                // (the growth cannot go on past jamming: the collisions would pile up
                // without end before the interval's end).
                let dk = self.kin_integral - k_mark;
                if dk > 0.0 {
                    let z = 1.0 + (self.virial.sum - w_mark) / dk;
                    if z > self.bound {
                        end = now;
                        jam_z = Some(z);
                        break;
                    }
                }
                if self.temperature > 0.0 {
                    self.rescale_all(b, now, len);
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
            self.advance(i, len);
            b.r[i] *= grow;
        }
        self.store(b);
        Ok(())
    }
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
