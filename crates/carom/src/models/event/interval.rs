//! The start of an interval: the parameters checked, changes made from outside
//! detected, the clock moved to a new epoch, and, when the balls were replaced or
//! read, every prediction made afresh.

use super::clock::REBASE_AFTER;
use super::held::OnFace;
use super::kinds::{ON_FACE, ON_ROUND};
use super::motion::{settle, touches_wall};
use super::queue::{Ev, Kind, MAX_BALLS};
use super::state::{Event, TC_FRACTION};
use crate::balls::Balls;
use crate::models::{StepError, Wall};
use crate::physics::Friction;
use crate::physics::Physics;
use crate::table::Table;

impl Event {
    /// Everything that must hold before the events of an interval are processed:
    /// parameters, outside changes detected and their predictions redone, clock rebased.
    pub(super) fn prepare(
        &mut self,
        b: &mut Balls,
        table: &Table,
        physics: &Physics,
    ) -> Result<(), StepError> {
        let n = b.len();
        if n > MAX_BALLS {
            return Err(StepError::Unsupported(format!(
                "the event model handles at most {MAX_BALLS} balls (got {n})"
            )));
        }
        let dt = physics.dt;
        // A sheared box's shift is the model's own between rebuilds (`sliding.rs`).
        let same_table = if table.is_sheared() {
            Table {
                shift: table.shift,
                ..self.laws.table
            } == *table
        } else {
            self.laws.table == *table
        };
        if self.laws.gravity != physics.gravity || !same_table || n != self.rec.t.len() {
            self.needs_rebuild = true;
        }
        self.laws.gravity = physics.gravity;
        self.laws.table = *table;
        self.laws.restitution = physics.restitution;
        self.guard.event_budget = physics.event_budget;
        self.laws.friction = physics.contact_friction;
        self.laws.tc = TC_FRACTION * dt;

        // Friction changed the velocities of (nearly) every moving ball after the last
        // step: every prediction of a changed ball is void, so all are redone. Cloth
        // friction is the model's own (`on_cloth.rs`): the world leaves it alone.
        if !matches!(physics.friction, Friction::None | Friction::Cloth { .. }) {
            self.needs_rebuild = true;
            self.resumed = false;
        }
        let cloth = Event::cloth_of(&physics.friction, physics.gravity)?;
        if cloth != self.cloth.as_deref().map(|c| c.law) {
            self.cloth = cloth.map(|law| Box::new(super::phases::OnCloth::new(law)));
            self.needs_rebuild = true;
        }
        self.laws.flat = self.laws.gravity == [0.0, 0.0] && self.cloth.is_none();
        if self.needs_rebuild {
            // The balls come from outside: check them, and measure them afresh.
            self.measure(b)?;
        }
        if self.needs_rebuild {
            // A rebuild restarts the epoch at the start of this interval, before the
            // interval's end is computed: `0 + dt` exactly, as in a run resumed here.
            let shift = self.clock.step_start;
            for h in &mut self.rec.hist {
                h.t_last -= shift;
            }
            self.strikes_shift(shift, false);
            self.clock.step_start = 0.0;
        }
        self.clock.horizon = self.clock.step_start + dt;
        let g = self.laws.gravity[0].hypot(self.laws.gravity[1]);
        self.clock.v_gain = g * dt;
        self.clock.set_eps_t();
        self.rollback.undo.clear();
        self.strikes_new_interval();
        if let Some(cloth) = self.cloth.as_deref_mut() {
            cloth.undo.clear();
        }
        if let Some(inner) = self.inner.as_deref_mut() {
            inner.on_undo.clear();
        }

        if self.needs_rebuild {
            // The epoch restarts at 0 with the shift the world holds.
            self.laws.shear_base = table.shift;
        } else {
            self.slide_to(self.clock.step_start);
        }
        if self.needs_rebuild {
            self.renumber(b);
            self.rebuild(b);
            self.strikes_rebuild(b);
        } else if self.laws.gravity != [0.0, 0.0] {
            self.predict_to_interval_end(b);
        }
        if self.queue.extra_len() > n + 1024 {
            let counter = &self.rec.counter;
            self.queue.retain_extra(|e| {
                counter[e.i as usize] == e.ci
                    && match e.kind() {
                        Kind::Pair(j) => counter[j] == e.cj,
                        _ => true,
                    }
            });
        }
        Ok(())
    }

    /// The balls measured afresh: every position and velocity checked finite, the
    /// fastest speed and the smallest radius, from which the tolerances are made.
    fn measure(&mut self, b: &Balls) -> Result<(), StepError> {
        let n = b.len();
        let mut v2_max: f64 = 0.0;
        for i in 0..n {
            let (x, y, vx, vy) = (b.x[i], b.y[i], b.vx[i], b.vy[i]);
            if !(x.is_finite() && y.is_finite() && vx.is_finite() && vy.is_finite()) {
                let i = self.id(i);
                return Err(StepError::Unstable(format!(
                    "ball {i} has a non-finite position or velocity ({x}, {y}), ({vx}, {vy})"
                )));
            }
            v2_max = v2_max.max(vx * vx + vy * vy);
        }
        self.clock.v2_max = v2_max;
        self.clock.v2_epoch = v2_max;
        self.clock.r_min = b.r.iter().copied().fold(f64::INFINITY, f64::min);
        if !self.clock.r_min.is_finite() {
            self.clock.r_min = 0.0;
        }
        Ok(())
    }

    /// Under gravity, the predictions that reach only to the end of an interval made
    /// afresh for the next one: those of kinematic and resting balls (quartics) and,
    /// with walls inside the table, those of every flying ball.
    fn predict_to_interval_end(&mut self, b: &Balls) {
        // Kinematic and resting balls under gravity: their quartic predictions
        // reach only to the end of an interval. The list keeps each ball once, and
        // drops the balls that have lifted off.
        let s = self.next_serial();
        let (hist, inv_m) = (&mut self.rec.hist, &b.inv_m);
        self.quartic.retain(|&i| {
            let h = &mut hist[i as usize];
            let keep = (inv_m[i as usize] == 0.0 || h.rest != 0) && h.mark != s;
            h.mark = s;
            keep
        });
        let now = self.clock.step_start;
        for k in 0..self.quartic.len() {
            let i = self.quartic[k] as usize;
            self.predict(b, i, now, true);
        }
        let walled = self
            .inner
            .as_deref()
            .is_some_and(|inner| !inner.walls.is_empty());
        if walled {
            // A flight's impacts with the walls inside the table and its entries
            // into pockets are solved, like those quartics, up to the end of the
            // interval only: every flying ball is predicted afresh. (An open edge's
            // crossing is a quadratic solved whole: open edges alone need nothing.)
            for i in 0..b.len() {
                if b.inv_m[i] != 0.0 {
                    self.predict(b, i, now, true);
                }
            }
        }
    }

    /// Where the epoch next moves, from epoch time 0: once the fastest ball, speeding
    /// up under gravity, could have moved `REBASE_AFTER` smallest radii (the span `s`
    /// with `g s^2 + 2 v s = REBASE_AFTER r_min`), rounded down to a power of two. The
    /// power of two makes the shift exact on a clock of whole or dyadic time units, so
    /// that the interval ends (`dt` after one another) land on the same bits whatever
    /// `dt` is; and it depends on nothing of the sampling.
    pub(super) fn next_rebase(&mut self) {
        let v = self.clock.v2_max.sqrt();
        let g = self.laws.gravity[0].hypot(self.laws.gravity[1]);
        let reach = REBASE_AFTER * self.clock.r_min;
        let s = reach / (v + (v * v + g * reach).sqrt());
        // Clearing the mantissa of a positive normal number gives the power of two
        // below it; a span that is not one (no motion, no balls, subnormal) never moves
        // the epoch.
        let p = f64::from_bits(s.to_bits() & 0xfff0_0000_0000_0000);
        self.clock.rebase_at = if s.is_finite() && p.is_normal() && p > 0.0 {
            p
        } else {
            f64::INFINITY
        };
        self.clock.rebase_mark = self.tally.events;
    }

    /// Moves the epoch to `rebase_at`, reached within an interval, before any event
    /// after it: every stored time shifts by it. Done at a point of the run's own
    /// clock, not at an interval's start, so that how often the state is sampled
    /// changes no bit of the dynamics (the shift changes the rounding of every later
    /// time). `events` is the count of events so far: a shift costs O(N), so it waits
    /// until N events have passed since the last one (the epoch's span doubles
    /// meanwhile, which leaves positions a few more ulps at worst).
    pub(super) fn rebase_within(&mut self, guard: &mut super::run::Watch, events: u64) {
        if events - self.clock.rebase_mark < self.rec.t.len() as u64 {
            self.clock.rebase_at *= 2.0;
            return;
        }
        let shift = self.clock.rebase_at;
        self.slide_epoch(shift);
        self.queue.shift(shift);
        for t in &mut self.rec.t {
            *t -= shift;
        }
        for h in &mut self.rec.hist {
            h.t_last -= shift;
        }
        for u in &mut self.rollback.undo {
            u.t -= shift;
        }
        if let Some(cloth) = self.cloth.as_deref_mut() {
            for t in &mut cloth.end {
                *t -= shift;
            }
        }
        self.strikes_shift(shift, true);
        self.clock.step_start -= shift;
        self.clock.horizon -= shift;
        guard.from_t -= shift;
        if let Some(m) = self.inner.as_deref_mut().and_then(|i| i.moving.as_mut()) {
            m.shift(shift);
        }
        self.next_rebase();
        self.clock.rebase_mark = events;
        self.clock.v2_epoch = self.clock.v2_max;
        self.clock.set_eps_t();
    }

    /// Forgets every prediction and predicts everything afresh from the balls as they
    /// are: the grid is laid out again, the epoch restarts at zero.
    fn rebuild(&mut self, b: &mut Balls) {
        let n = b.len();
        let same_balls = self.rec.t.len() == n;
        let shift = self.clock.step_start;
        self.clock.horizon -= shift;
        self.clock.step_start = 0.0;
        // The collapse guard's memory is kept across friction rebuilds (its times moved
        // to the new epoch by `prepare`), forgotten when the balls were read or replaced.
        self.rec.restart(n, same_balls && !self.resumed);
        for i in 0..n {
            self.settle_all(b, i);
        }
        if let Some(cloth) = self.cloth.as_deref_mut() {
            // Every ball's phase from its state at the new epoch's start.
            cloth.derive_all(b, 0.0);
        }
        if n > 0 {
            self.cells
                .rebuild(&self.laws.table, b.max_radius(), &b.x, &b.y);
        }
        if let Some(inner) = self.inner.as_deref_mut() {
            // Balls out of play leave the grid: no ball meets them again.
            for (i, &o) in inner.out.iter().enumerate() {
                if o {
                    self.cells.remove(i);
                }
            }
            if n > 0 {
                inner.bin(&self.cells, b.max_radius() * (1.0 + 1e-6));
            }
            // The moving walls' paths start afresh with the epoch, from where the world
            // holds them (`translating_walls.rs`).
            if let Some(m) = inner.moving.as_mut() {
                m.restart(&inner.walls);
            }
            // The faces each ball rests on, found afresh from its position and velocity
            // as the table's walls are (`on_face.rs`).
            inner.on.iter_mut().for_each(|o| *o = OnFace::NONE);
            if self.laws.gravity != [0.0, 0.0] && self.cloth.is_none() && inner.walls.has_walls() {
                for i in 0..n {
                    let c = self.cells.cell_of(i);
                    // A ball that would turn round a corner is left flying: its next
                    // impact there meets the verdict again, where the step can fail.
                    let rest = &mut self.rec.hist[i].rest;
                    let _ = inner.settle_faces(b, i, c, &self.laws, rest);
                    if inner.on[i].has_faces() {
                        self.rec.hist[i].rest |= ON_FACE;
                    }
                    if inner.on[i].round.is_some() {
                        self.rec.hist[i].rest |= ON_ROUND;
                    }
                }
            }
            inner.on_undo.clear();
        }
        let out: &[bool] = self.inner.as_deref().map_or(&[], |inner| &inner.out);
        let is_out = |i: usize| out.get(i).copied().unwrap_or(false);
        self.quartic.clear();
        if self.laws.gravity != [0.0, 0.0] {
            self.quartic.extend((0..n as u32).filter(|&i| {
                let i = i as usize;
                (b.inv_m[i] == 0.0 || self.rec.hist[i].rest != 0) && !is_out(i)
            }));
        }

        self.queue.reset(n);
        let b = &*b;
        let kin = kin!(self, b);
        let queue = &mut self.queue;
        for i in 0..n {
            if is_out(i) {
                queue.set_contact(i, Ev::NONE, true);
                queue.set_crossing(i, Ev::NONE, true);
                continue;
            }
            let si = kin.state(i, 0.0);
            let e = kin.next_contact(i, &si, 0.0, self.clock.eps_t, &mut self.scratch.cand, |e| {
                queue.push_extra(e)
            });
            queue.set_contact(i, e, true);
            queue.set_crossing(i, kin.cross(i, &si, 0.0).unwrap_or(Ev::NONE), true);
        }
        queue.build();
        self.needs_rebuild = false;
        self.next_rebase();
    }

    /// Finds the walls ball `i` rests on from its position and velocity alone.
    fn settle_all(&mut self, b: &mut Balls, i: usize) {
        if b.inv_m[i] == 0.0 || self.laws.gravity == [0.0, 0.0] {
            return;
        }
        for w in Wall::ALL {
            if touches_wall(b, &self.laws.table, i, w) {
                settle(
                    b,
                    &mut self.rec.hist[i].rest,
                    i,
                    w,
                    self.laws.gravity,
                    self.laws.tc,
                );
            }
        }
    }
}
