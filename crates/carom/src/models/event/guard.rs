//! Guards and audits: the overlap audit for tests, the stall guard's verdict and
//! errors, and the record of which balls took part in the latest events.

use super::state::Event;
use crate::balls::Balls;
use crate::broadphase::Grid;
use crate::models::StepError;
use crate::table::Table;

impl Event {
    /// Deepest overlap in the whole system at epoch time `now`, by an independent
    /// broad phase over positions computed afresh.
    pub(super) fn audit_at(&mut self, b: &Balls, now: f64) {
        let n = b.len();
        self.guard.overlap.x.resize(n, 0.0);
        self.guard.overlap.y.resize(n, 0.0);
        let kin = kin!(self, b);
        for i in 0..n {
            let s = kin.state(i, now);
            self.guard.overlap.x[i] = s[0];
            self.guard.overlap.y[i] = s[1];
        }
        let mut worst = self.guard.overlap.worst;
        for i in 0..n {
            if b.inv_m[i] == 0.0 {
                continue;
            }
            let (x, y, r) = (self.guard.overlap.x[i], self.guard.overlap.y[i], b.r[i]);
            let (w, h) = (self.laws.table.width, self.laws.table.height);
            let mut depth = f64::NEG_INFINITY;
            if !self.laws.table.is_periodic(0) {
                depth = depth.max(r - x).max(x - (w - r));
            }
            if !self.laws.table.is_periodic(1) {
                depth = depth.max(r - y).max(y - (h - r));
            }
            worst = worst.max(depth / r);
        }
        self.guard.overlap.grid.rebuild(
            &self.guard.overlap.x,
            &self.guard.overlap.y,
            2.0 * b.max_radius(),
            &self.laws.table,
        );
        self.guard.overlap.grid.touching_pairs(
            &self.guard.overlap.x,
            &self.guard.overlap.y,
            &b.r,
            0.0,
            &mut self.guard.overlap.pairs,
        );
        for &(i, j) in &self.guard.overlap.pairs {
            let (i, j) = (i as usize, j as usize);
            if b.inv_m[i] == 0.0 && b.inv_m[j] == 0.0 {
                continue;
            }
            let (dx, dy) = self.laws.table.min_image(
                self.guard.overlap.x[j] - self.guard.overlap.x[i],
                self.guard.overlap.y[j] - self.guard.overlap.y[i],
            );
            let depth = b.r[i] + b.r[j] - dx.hypot(dy);
            worst = worst.max(depth / b.r[i].min(b.r[j]));
        }
        self.guard.overlap.worst = worst;
    }

    /// The stall guard's verdict on a window of `events` events that advanced the clock
    /// by `span`: `Some(rate)`, the events per ball per unit of the scene's own time,
    /// when that exceeds the budget. The unit is the time the fastest ball takes to
    /// move the smallest radius, with the speed gravity gives a ball over one radius as
    /// a floor (balls at rest on each other under gravity still have a time scale). The
    /// fastest speed is the largest seen at a rebuild or a collision since, so it only
    /// errs on the lenient side. No `dt` in it: sampling never decides the verdict.
    pub(super) fn stalled(&self, b: &Balls, events: u64, span: f64) -> Option<f64> {
        let n = b.len().max(1) as f64;
        let g = self.laws.gravity[0].hypot(self.laws.gravity[1]);
        let v = self.clock.v2_max.sqrt() + (g * self.clock.r_min).sqrt();
        let work = events as f64 * self.clock.r_min;
        let allowed = self.guard.event_budget * n * span * v;
        // Written so that a NaN (a zero span times an overflowed speed) counts as a
        // stall: a span of zero is one, whatever the speeds.
        if work <= allowed {
            None
        } else {
            Some(work / (n * span * v))
        }
    }

    /// The balls most involved in the latest events, by identity, most events first
    /// (at most four named, with their positions at `now`), and how many distinct balls
    /// the latest events involved.
    fn involved(&self, b: &Balls, now: f64) -> (String, usize) {
        let mut counts: Vec<(usize, usize, usize)> = Vec::new(); // (events, id, index)
        for &i in &self.guard.recent {
            if i == u32::MAX {
                continue;
            }
            let id = self.id(i as usize);
            match counts.iter_mut().find(|c| c.1 == id) {
                Some(c) => c.0 += 1,
                None => counts.push((1, id, i as usize)),
            }
        }
        counts.sort_by(|a, c| c.0.cmp(&a.0).then(a.1.cmp(&c.1)));
        let seen = self.guard.recent.iter().filter(|&&i| i != u32::MAX).count();
        if counts.is_empty() {
            return (String::new(), 0);
        }
        let kin = kin!(self, b);
        let named: Vec<String> = counts
            .iter()
            .take(4)
            .map(|&(k, id, i)| {
                let s = kin.state(i, now);
                format!("ball {id} in {k} at ({:.6}, {:.6})", s[0], s[1])
            })
            .collect();
        let more = if counts.len() > named.len() {
            format!(" and {} more", counts.len() - named.len())
        } else {
            String::new()
        };
        (
            format!(
                "; the last {seen} events involved {} ball{}: {}{more}",
                counts.len(),
                if counts.len() == 1 { "" } else { "s" },
                named.join(", ")
            ),
            counts.len(),
        )
    }

    /// The error for a window of events that advanced the clock too little: what was
    /// seen (the events, the span, the rate, the balls), and a cause where the balls
    /// point to one; puts the balls back as they were at the start of the interval.
    pub(super) fn stalled_error(
        &mut self,
        b: &mut Balls,
        events: u64,
        span: f64,
        rate: f64,
        now: f64,
        before: (u64, u64),
    ) -> StepError {
        let (balls, distinct) = self.involved(b, now);
        let into = now - self.clock.step_start;
        let per_time = if span > 0.0 && rate.is_finite() {
            format!(
                "{:.3e} events per unit of time, {rate:.3e} events per ball while the fastest \
                 ball moves the smallest radius",
                events as f64 / span
            )
        } else {
            "the clock did not advance at all".to_string()
        };
        // Few balls behind the latest events is the mark of a local degeneracy; many
        // is a busy scene, for which no cause is guessed.
        let cause = if distinct > FEW_BALLS {
            "; the events are spread over many balls: if the scene is really this busy, \
             raise physics.event_budget"
                .to_string()
        } else if self.laws.gravity != [0.0, 0.0] {
            "; a few balls pressed together by gravity (a ball resting on another ball, a \
             stack or a pile) need endlessly many collisions in hard-disk dynamics: use the \
             simultaneous or spring model"
                .to_string()
        } else if self.laws.restitution < 1.0 {
            "; a few inelastic balls colliding ever faster (inelastic collapse) need \
             endlessly many collisions: use restitution 1 or the simultaneous or spring model"
                .to_string()
        } else {
            "; a few balls colliding ever faster (squeezed by walls or kinematic balls) need \
             endlessly many collisions: use the simultaneous or spring model"
                .to_string()
        };
        self.rewind(b, before);
        StepError::EventBudget(format!(
            "time stopped advancing: {events} events covered {span:.3e} of simulated time \
             (from t = {:.6} in this output interval, stopped {into:.3e} into it), \
             {per_time} (physics.event_budget = {}){balls}{cause} (the state is left at the \
             start of the interval)",
            now - span - self.clock.step_start,
            self.guard.event_budget
        ))
    }

    /// The error for an interval beyond the hard cap of [`Event::set_budget`]; puts the
    /// balls back as they were at the start of the interval.
    /// The error for a window whose rate would need more than any run can do to finish
    /// the interval; puts the balls back as they were at the start of the interval.
    pub(super) fn too_busy(
        &mut self,
        b: &mut Balls,
        events: u64,
        span: f64,
        remaining: f64,
        now: f64,
        before: (u64, u64),
    ) -> StepError {
        let (balls, _) = self.involved(b, now);
        let into = now - self.clock.step_start;
        self.rewind(b, before);
        StepError::EventBudget(format!(
            "{events} events covered only {span:.3e} of simulated time ({:.3e} events per \
             unit of time): the rest of this output interval would need {remaining:.3e} \
             events (stopped {into:.3e} into it){balls}; look for a ball far faster than \
             the others (the state is left at the start of the interval)",
            events as f64 / span
        ))
    }

    pub(super) fn over_cap(
        &mut self,
        b: &mut Balls,
        cap: u64,
        now: f64,
        before: (u64, u64),
    ) -> StepError {
        let (balls, _) = self.involved(b, now);
        let into = now - self.clock.step_start;
        self.rewind(b, before);
        StepError::EventBudget(format!(
            "more than {cap} events in one output interval, the cap set on the model \
             (stopped {into:.3e} into it){balls} (the state is left at the start of the \
             interval)"
        ))
    }

    /// The error for a pair time beyond the root finder's range (accelerations, speeds
    /// or distances far beyond any physical scale); puts the balls back as they were at
    /// the start of the interval.
    pub(super) fn overflowed(
        &mut self,
        b: &mut Balls,
        physics: &crate::physics::Physics,
        now: f64,
        before: (u64, u64),
    ) -> StepError {
        let into = now - self.clock.step_start;
        self.rewind(b, before);
        self.guard.overflow.set(false);
        let [gx, gy] = physics.gravity;
        StepError::Unstable(format!(
            "a meeting time (a pair's quartic in time under gravity ({gx:e}, {gy:e}), or the \
             approach of a ball held on a circle by a wall) is beyond what the event model's arithmetic \
             solves reliably over an output interval of {} (stopped {into:.3e} into it): the \
             scene's accelerations, speeds or distances are too large; use a weaker gravity, \
             a smaller dt or the spring model (the state is left at the start of the interval)",
            physics.dt
        ))
    }

    /// The error for a ball held by three walls inside the table at once under gravity
    /// (only a degenerate joint does that), which the model does not follow; puts the
    /// balls back as they were at the start of the interval.
    pub(super) fn settled_on(
        &mut self,
        b: &mut Balls,
        now: f64,
        before: (u64, u64),
        i: u32,
        wall: u32,
    ) -> StepError {
        let id = self.layout.order.get(i as usize).copied().unwrap_or(i);
        let into = now - self.clock.step_start;
        self.rewind(b, before);
        StepError::Unmodelled(format!(
            "ball {id} comes to rest against three contacts at once, one of them on \
             walls[{wall}], {into:.6e} into the output interval: the event model follows a \
             ball resting on one or two walls, or on a circle round one, not three (the \
             spring, impulse and simultaneous models do; the state is left at the start of \
             the interval)"
        ))
    }

    /// Puts every ball changed in the current interval back as it was at its start,
    /// and the collision and crossing counts and the virial with them.
    fn rewind(&mut self, b: &mut Balls, before: (u64, u64)) {
        self.tally.pair_virial = self.rollback.virial_at_start.0;
        self.solver.set_virial(self.rollback.virial_at_start.1.sum);
        self.solver
            .set_virial_tensor(self.rollback.virial_at_start.1.tensor);
        // Newest first, so that a ball recorded twice ends with its oldest record.
        for k in (0..self.rollback.undo.len()).rev() {
            let u = self.rollback.undo[k];
            let i = u.i as usize;
            (b.x[i], b.y[i], b.vx[i], b.vy[i]) = (u.x, u.y, u.vx, u.vy);
            if let Some(images) = u.images {
                (b.ix[i], b.iy[i]) = images;
            }
            if let Some(spin) = u.spin {
                (b.angle[i], b.omega[i]) = spin;
            }
            if let Some(cloth) = self.cloth.as_deref() {
                [b.angle[i], b.wx[i], b.wy[i], b.omega[i]] = cloth.undo[k];
            }
            self.rec.t[i] = u.t;
            self.rec.hist[i].rest = u.rest;
        }
        if let Some(cloth) = self.cloth.as_deref_mut() {
            // Each ball put back is at the start of the phase it was in then: that
            // phase, derived again, takes it to the interval's start.
            for u in &self.rollback.undo {
                let i = u.i as usize;
                cloth.derive(b, i, self.rec.t[i]);
            }
            cloth.undo.clear();
        }
        self.rollback.undo.clear();
        self.strikes_rewind();
        if let Some(inner) = self.inner.as_deref_mut() {
            inner.put_faces_back();
        }
        // Every ball to the start of the interval, as a successful step would have
        // left them; then the predictions, now void, are redone at the next step.
        let start = self.clock.step_start;
        for i in 0..b.len() {
            self.advance(b, i, start);
        }
        // On the table's periodic axes, as `synchronise` leaves them.
        crate::models::wrap_positions(b, &self.laws.table);
        (self.tally.collisions, self.tally.crossings) = before;
        self.needs_rebuild = true;
    }
}

/// At most this many distinct balls in the latest events (of 64) make a local
/// degeneracy: a stack, a wedge, a collapsing cluster involve a handful, while the
/// events of a busy gas involve nearly as many balls as events.
const FEW_BALLS: usize = 8;

/// Overlaps up to this fraction of the smaller radius are round-off (two balls that
/// collided at the end of a run and were written to a state file touch to ~1e-13 of a
/// radius), a thousand times the depth the overlap audit allows at any event.
pub const START_OVERLAP_TOL: f64 = 1e-9;

/// Positions themselves carry round-off: a centre computed by the model (brought to a
/// wall, or to touch another ball) is off by a few ulps of the numbers it was computed
/// from, which are coordinates on the table (up to its larger side), whatever the radius.
/// For a ball of radius below about 1e-6 of the table that is more than a billionth of
/// the radius (a ball of radius 1e-308 brought to rest on a wall ends with its centre on
/// the wall to 1e-16). Sixteen ulps of the larger of the table's side and the
/// coordinates involved cover the few operations of an event with room to spare, and are
/// still 2e-15 of the table: a real overlap is far deeper.
const COORD_ULPS: f64 = 16.0;

/// The round-off of positions at coordinates up to `scale` (see [`COORD_ULPS`]).
fn coord_roundoff(table: &Table, scale: f64) -> f64 {
    COORD_ULPS * f64::EPSILON * table.width.max(table.height).max(scale)
}

/// Refuses a start the model cannot honour: a dynamic ball through a wall, or two balls
/// (not both kinematic, which never interact) overlapping, beyond round-off. Hard disks
/// never overlap, so such a start would be run with the overlap kept for ever (two
/// balls stuck inside each other pass through each other). The deepest offence is named.
pub fn check_start(balls: &Balls, table: &Table) -> Result<(), String> {
    let n = balls.len();
    let (w, h) = (table.width, table.height);
    // (depth as a fraction of the radius, description)
    let mut worst: Option<(f64, String)> = None;
    for i in 0..n {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let (x, y, r) = (balls.x[i], balls.y[i], balls.r[i]);
        let sides = [
            (0, "left", r - x),
            (0, "right", x + r - w),
            (1, "top", r - y),
            (1, "bottom", y + r - h),
        ];
        let tol = START_OVERLAP_TOL * r + coord_roundoff(table, x.abs().max(y.abs()));
        for (axis, name, depth) in sides {
            if table.is_periodic(axis) || depth <= tol {
                continue;
            }
            if worst.as_ref().is_none_or(|(d, _)| depth / r > *d) {
                worst = Some((
                    depth / r,
                    format!(
                        "ball {i} (at ({x}, {y}), radius {r}) is {depth:.3e} through the {name} \
                         wall"
                    ),
                ));
            }
        }
    }
    if n > 1 {
        let mut grid = Grid::new();
        let mut pairs = Vec::new();
        grid.rebuild(&balls.x, &balls.y, 2.0 * balls.max_radius(), table);
        grid.touching_pairs(&balls.x, &balls.y, &balls.r, 0.0, &mut pairs);
        for (i, j) in pairs {
            let (i, j) = (i as usize, j as usize);
            if balls.inv_m[i] == 0.0 && balls.inv_m[j] == 0.0 {
                continue;
            }
            let (dx, dy) = table.min_image(balls.x[j] - balls.x[i], balls.y[j] - balls.y[i]);
            let d = dx.hypot(dy);
            let (ri, rj) = (balls.r[i], balls.r[j]);
            let depth = ri + rj - d;
            let r = ri.min(rj);
            let scale = [balls.x[i], balls.y[i], balls.x[j], balls.y[j]]
                .iter()
                .fold(0.0f64, |m, v| m.max(v.abs()));
            if depth <= START_OVERLAP_TOL * r + coord_roundoff(table, scale) {
                continue;
            }
            if worst.as_ref().is_none_or(|(d, _)| depth / r > *d) {
                worst = Some((
                    depth / r,
                    format!(
                        "balls {i} and {j} overlap by {depth:.3e} (centres {d:.6e} apart, radii \
                         {ri} and {rj})"
                    ),
                ));
            }
        }
    }
    match worst {
        None => Ok(()),
        Some((_, what)) => Err(format!(
            "the event model cannot start from this state: {what}; hard disks never overlap (move the \
             balls apart, or use another model)"
        )),
    }
}
