//! Pool balls on cloth (`physics.friction` of kind `cloth`) in the event model, exact.
//!
//! On cloth every ball is a sphere whose motion goes through phases (sliding, rolling,
//! spinning, stationary: [`crate::cloth`]), each with a constant acceleration of the
//! centre. Between two events a ball therefore moves on a parabola, as under gravity,
//! and the model's parabolic machinery finds its times exactly: a wall or a cell side
//! is a quadratic root, a pair of balls in different phases (different accelerations)
//! a quartic's, a wall inside the table or a pocket the shared times of impact of a
//! parabolic flight.
//!
//! What cloth adds, per ball ([`OnCloth`]): its phase, the acceleration of that phase
//! (fixed when the phase begins, so that every prediction and every move of the ball
//! uses the very same numbers) and the epoch time the phase ends.
//!
//! - **The end of a phase is an event** of its ball, a candidate of its contact slot
//!   beside its walls and neighbours (code [`PHASE`]), so it comes before anything the
//!   ball would meet later on the parabola. When it comes due, the ball is moved to it,
//!   its state is set exactly as the law ends the phase (rolling spins locked to the
//!   velocity, a stopped ball's velocity zero: [`crate::cloth::Cloth::end_of`]), the
//!   phase that follows is taken with its acceleration and end, its event counter is
//!   bumped (every prediction made with its former parabola is stale, as after a
//!   collision) and it is predicted afresh. The spinning-to-stationary change moves
//!   nothing, but is an event all the same, so that the log holds it at its time and
//!   every phase change takes the one path.
//! - **No prediction uses a parabola beyond its phase**: the pair quartic is solved only
//!   up to the earlier phase end of the two balls, and a pair time along lines beyond it
//!   is dropped; a wall inside the table or a pocket is searched only up to the ball's
//!   own phase end. Whatever is dropped is found again by the ball whose phase ends,
//!   which predicts all of its neighbours afresh at that moment. (The table's walls,
//!   the cell sides and open edges are quadratics solved whole: a root past the phase
//!   end loses to the phase end, which is in the same slot or earlier.)
//! - **Lazy motion carries the spins**: wherever the model moves a ball to a time (an
//!   impact, a reader, a failed step put back), `wx`, `wy` follow the phase's law (the
//!   friction torque's linear change while sliding, locked to the velocity while
//!   rolling), `omega` spins down at its constant rate and stops at zero (no event is
//!   needed for that: the path does not change), and `angle` turns by the integral of
//!   `omega`.
//! - **Impacts**: ball-ball impacts take the normal impulse as without cloth and, with
//!   `contact_friction`, the rough-sphere law of [`crate::contact`] (the slip's
//!   vertical part from `wx`, `wy`, which the friction impulse turns); soft impacts
//!   (`soft.rs`) carry no friction. A ball striking one of the table's walls or a wall inside the table takes
//!   the cushion's impulse at the nose ([`crate::cushion::rebound`], Han 2005) instead of
//!   a disk's reflection. After any impact each ball that took an impulse has its phase
//!   derived afresh (a rolling ball struck starts sliding).
//! - **Several contacts at once** (a group due within round-off of the same time):
//!   the ball-ball contacts are resolved first (soft ones one by one, the others by the
//!   usual clusters and the exact simultaneous solver), then each cushion contact still
//!   approaching takes the cushion
//!   law, in the contacts' order; this is repeated while any contact of the group still
//!   approaches (a ball pressed between a ball and a cushion rattles between them within
//!   the instant, each pass losing energy), at most `CUSHION_PASSES` times, after
//!   which the ball-ball contacts are stopped as the solver's own fallback does. The
//!   ball-ball impulse comes first because it is what reaches the cushion through the
//!   balls; a cushion is a rigid body of its own, not part of the solver's clusters.
//! - **Soft impacts**: the cloth can press two touching balls together, or a sliding
//!   ball into a cushion, which a hard sphere can only answer with endlessly many ever
//!   softer impacts. An impact slower than about a centimetre per second (for pool
//!   balls) stands for such a contact's force instead (`soft.rs`).
//! - The event log has a `phase` row for every change: at a phase's end and, after the
//!   impact's rows, for every ball an impact put into another phase.
//!
//! Cloth and in-plane gravity together are refused: the cloth's law is that of a
//! level table seen from above.

use super::cushions::{rebound, Cushion, Press, CUSHION_PASSES};
use super::queue::Ev;
use super::soft;
use super::state::Event;
use crate::balls::Balls;
use crate::cloth::{Body, Cloth, Sphere};
use crate::event_log::LoggedEvent;
use crate::models::{Contact, StepError, Wall};

impl Event {
    /// The cloth of `physics`, checked against the rest of the scene: refused under
    /// gravity in the table's plane (the cloth's law is a level table's).
    pub(super) fn cloth_of(
        friction: &crate::physics::Friction,
        gravity: [f64; 2],
    ) -> Result<Option<Cloth>, StepError> {
        let cloth = Cloth::of(friction);
        if cloth.is_some() && gravity != [0.0, 0.0] {
            return Err(StepError::Unsupported(
                "cloth friction with physics.gravity in the table's plane: the event model's \
                 cloth is a level table seen from above (set physics.gravity = [0.0, 0.0])"
                    .to_string(),
            ));
        }
        Ok(cloth)
    }

    /// Ball `i`'s spins and angle, beside its undo record (see `Event::remember`).
    #[cold]
    #[inline(never)]
    pub(super) fn remember_spins(&mut self, b: &Balls, i: usize) {
        if let Some(cloth) = self.cloth.as_deref_mut() {
            cloth.undo.push([b.angle[i], b.wx[i], b.wy[i], b.omega[i]]);
        }
    }

    /// [`Event::advance`] on cloth: ball `i` to epoch time `t` along its phase.
    #[cold]
    #[inline(never)]
    pub(super) fn advance_on_cloth(&mut self, b: &mut Balls, i: usize, t: f64) {
        if let Some(cloth) = self.cloth.as_deref() {
            cloth.advance(b, i, self.rec.t[i], t - self.rec.t[i]);
        }
        self.rec.t[i] = t;
    }

    /// Ball `ev.i`'s phase ends at `ev.t`: moved there, set as the law ends the phase,
    /// its next phase taken, and predicted afresh.
    #[cold]
    #[inline(never)]
    pub(super) fn phase_end(&mut self, b: &mut Balls, ev: Ev) {
        let i = ev.i as usize;
        if self.rec.t[i] <= self.clock.step_start {
            self.remember(b, i);
        }
        self.advance(b, i, ev.t);
        let Some(cloth) = self.cloth.as_deref_mut() else {
            return;
        };
        let next = cloth.finish(b, i, ev.t);
        // Its parabola changed: every prediction made with the former one is stale, and
        // the balls it last collided with are no longer excused from meeting it.
        self.rec.counter[i] = self.rec.counter[i].wrapping_add(1);
        self.rec.hist[i].group = 0;
        if let Some(log) = self.log.as_mut() {
            let id = super::resolve::ball_id(&self.layout.order, i);
            log.push(LoggedEvent::phase_change(
                ev.t - self.clock.step_start,
                id,
                next,
            ));
        }
        self.predict(b, i, ev.t, true);
    }

    /// Ball `i`'s impact with the walls inside the table it touches, in a group on cloth
    /// (see `Event::resolve_piece_hits`): each wall a cushion (`Inner::hit_on_cloth`),
    /// logged with each contact's impulse; a ball that took one gets its bookkeeping.
    #[cold]
    #[inline(never)]
    pub(super) fn piece_hit_on_cloth(&mut self, b: &mut Balls, i: usize, s: u32, t0: f64) {
        self.cushions_on_cloth(b, i, s, t0, false);
    }

    /// [`Event::piece_hit_on_cloth`] with the contacts `Inner::hit_on_cloth` takes for
    /// `pressed`; returns the contacts that took an impulse.
    fn cushions_on_cloth(&mut self, b: &mut Balls, i: usize, s: u32, t0: f64, pressed: bool) -> u64 {
        let burst = self.guard.collapse_guard && self.burst_after(i, t0) >= super::state::TC_BURST;
        let e = burst.then_some(1.0);
        let c = self.cells.cell_of(i);
        let (Some(inner), Some(cloth)) = (self.inner.as_deref_mut(), self.cloth.as_deref()) else {
            return 0;
        };
        let press = Press {
            law: &cloth.law,
            phase: cloth.phase[i],
            acc: cloth.acc[i],
            left: cloth.end[i] - t0,
            inv_m: b.inv_m[i],
        };
        let hits = inner.hit_on_cloth(
            b,
            i,
            &press,
            c,
            e,
            self.laws.restitution,
            &self.laws.friction,
            pressed,
        );
        if let Some(log) = self.log.as_mut().filter(|_| hits > 0) {
            let (t, id) = (
                t0 - self.clock.step_start,
                super::resolve::ball_id(&self.layout.order, i),
            );
            let impulses = inner.last_cushion_impulses();
            for ((wall, _, u), &p) in inner.last_touches().zip(impulses) {
                if p > 0.0 {
                    log.push(LoggedEvent::wall(t, id, wall, b.m[i] * p, u));
                }
            }
        }
        if hits > 0 {
            self.tally.collisions += hits;
            if self.rec.hist[i].hit != s {
                self.after_impact::<true>(b, i, s, t0);
            }
        }
        hits
    }

    /// Ball `i`, whose impact with a wall inside the table due at `t0` (group `s`) met
    /// nothing and which has just been predicted afresh: if it is due to meet one again at
    /// that very instant, it is held there by round-off, for ever. It touches a cushion
    /// with a normal velocity of round-off, which the prediction reads along the face's
    /// own normal and the impact along the normal from the contact point to the centre
    /// (the two differ by round-off, so that one sees an approach and the other none);
    /// nothing changes between the two, and the stall guard stops the shot after a
    /// million events. Judged once instead, on the contact's normal (`inner::graze`), as
    /// a touching pair is (`predict::touching_slide`, `Event::pressed_touch`): a cushion
    /// the cloth presses the ball into is met as a soft impact at zero speed (`soft.rs`);
    /// one it only slides along is not met, and the ball is predicted without it.
    /// Only a ball held so is judged on the contact's normal: everywhere else the
    /// prediction's own reading stands, to the bit.
    #[cold]
    #[inline(never)]
    pub(super) fn unstick_on_cloth(&mut self, b: &mut Balls, i: usize, s: u32, t0: f64) {
        let next = self.queue.contact(i);
        if next.t != t0 || next.kind() != super::kinds::Kind::Wall(super::kinds::PIECE) {
            return;
        }
        if self.cushions_on_cloth(b, i, s, t0, true) > 0 {
            self.predict(b, i, t0, true);
            return;
        }
        if let Some(inner) = self.inner.as_deref_mut() {
            inner.grazing = true;
        }
        self.predict(b, i, t0, false);
        if let Some(inner) = self.inner.as_deref_mut() {
            inner.grazing = false;
        }
    }

    /// Ball `k`, just changed by an impact at `t0`: its phase derived afresh, and a log
    /// row if that is another phase.
    #[cold]
    #[inline(never)]
    pub(super) fn rephase(&mut self, b: &Balls, k: usize, t0: f64) {
        let Some(cloth) = self.cloth.as_deref_mut() else {
            return;
        };
        let before = cloth.derive(b, k, t0);
        let now = cloth.phase[k];
        if now != before {
            if let Some(log) = self.log.as_mut() {
                let id = super::resolve::ball_id(&self.layout.order, k);
                log.push(LoggedEvent::phase_change(
                    t0 - self.clock.step_start,
                    id,
                    now,
                ));
            }
        }
    }

    /// The contacts of a group on cloth with several contacts or one with the table's
    /// walls (see the module's notes): ball-ball contacts first (those the cloth
    /// presses shut one by one, the others by the usual clusters), then the cushions,
    /// in turn while any contact approaches. `self.scratch.contacts` holds the group's
    /// contacts before and after.
    #[cold]
    #[inline(never)]
    pub(super) fn resolve_on_cloth(&mut self, b: &mut Balls, t0: f64) {
        let mut all = std::mem::take(&mut self.scratch.cushion_group);
        all.clear();
        all.extend_from_slice(&self.scratch.contacts);
        let approaching = |b: &Balls, table: &crate::table::Table, c: &Contact| match *c {
            Contact::Pair(i, j) => {
                super::motion::approaching_pair(b, table, i as usize, j as usize)
            }
            Contact::Wall(i, w) => super::motion::approaching_wall(b, i as usize, w),
            Contact::Piece(..) => false,
        };
        // Closing, or touching and pressed together (met all the same, softly).
        let meets = |s: &Self, b: &Balls, c: &Contact| {
            approaching(b, &s.laws.table, c)
                || matches!(*c, Contact::Pair(i, j) if s.pressed_touch(b, i as usize, j as usize))
        };
        for pass in 0..CUSHION_PASSES {
            let table = self.laws.table;
            for &c in &all {
                if matches!(c, Contact::Pair(..)) && meets(self, b, &c) {
                    self.soft_pair(b, c, t0);
                }
            }
            self.scratch.contacts.clear();
            self.scratch.contacts.extend(
                all.iter()
                    .filter(|c| matches!(c, Contact::Pair(..)) && approaching(b, &table, c)),
            );
            match self.scratch.contacts.len() {
                0 => {}
                1 => self.resolve_clusters_of_one::<true>(b, t0),
                _ => self.resolve_clusters(b, t0),
            }
            for &c in &all {
                if let Contact::Wall(i, w) = c {
                    if super::motion::approaching_wall(b, i as usize, w) {
                        self.cushion(b, i as usize, w, t0);
                    }
                }
            }
            if !all.iter().any(|c| meets(self, b, c)) {
                break;
            }
            if pass + 1 == CUSHION_PASSES {
                // Still rattling: the ball-ball contacts stopped as the contact
                // solver's fallback stops them (the cushions leave their balls
                // separating, or the next event meets them at once).
                self.scratch.contacts.clear();
                self.scratch
                    .contacts
                    .extend(all.iter().filter(|c| matches!(c, Contact::Pair(..))));
                super::resolve::stop_approach(
                    b,
                    &self.laws.table,
                    &self.scratch.contacts,
                    &mut self.solver,
                );
            }
        }
        self.scratch.contacts.clear();
        self.scratch.contacts.extend_from_slice(&all);
        self.scratch.cushion_group = all;
    }

    /// Contact `c`, if it is a soft impact of a pair (`soft.rs`), resolved as such and
    /// logged: true. Anything else: false.
    #[cold]
    #[inline(never)]
    pub(super) fn soft_pair(&mut self, b: &mut Balls, c: Contact, t0: f64) -> bool {
        let Contact::Pair(i, j) = c else {
            return false;
        };
        let Some(cloth) = self.cloth.as_deref() else {
            return false;
        };
        let (i, j) = (i as usize, j as usize);
        let (dx, dy) = self.laws.table.min_image(b.x[j] - b.x[i], b.y[j] - b.y[i]);
        let d = dx.hypot(dy);
        if d == 0.0 || b.inv_m[i] + b.inv_m[j] == 0.0 {
            return false;
        }
        let n = [dx / d, dy / d];
        let dot = |a: [f64; 2]| a[0] * n[0] + a[1] * n[1];
        let approach = dot([b.vx[i] - b.vx[j], b.vy[i] - b.vy[j]]);
        let (ai, aj) = (cloth.acc[i], cloth.acc[j]);
        let press = dot([ai[0] - aj[0], ai[1] - aj[1]]);
        let sigma = b.r[i] + b.r[j];
        // A pressed touch that came due without closing meets at zero speed.
        let approach = if approach <= 0.0 && press > 0.0 {
            0.0
        } else {
            approach
        };
        if !soft::is_soft(approach, press, sigma, &cloth.law) {
            return false;
        }
        let held = |k: usize| {
            soft::Held::new(Sphere::of(b, k), Body::of(b, k), b.inv_m[k], cloth.phase[k])
        };
        let left = cloth.end[i].min(cloth.end[j]) - t0;
        let meeting = soft::Meeting {
            n,
            approach,
            press,
            sigma,
            left,
        };
        let out = soft::pair(&cloth.law, &held(i), &held(j), &meeting);
        out.a.store(b, i);
        out.b.store(b, j);
        self.tally.collisions += 1;
        self.tally.pair_virial.sum += out.impulse * d;
        // The soft impulse is along the line of centres only.
        let tensor = &mut self.tally.pair_virial.tensor;
        crate::stress::add_contact(tensor, n, d, out.impulse, 0.0);
        if let Some(log) = self.log.as_mut() {
            let id = |k: usize| super::resolve::ball_id(&self.layout.order, k);
            let t = t0 - self.clock.step_start;
            log.push(LoggedEvent::pair(t, id(i), id(j), out.impulse, approach));
        }
        true
    }

    /// Whether balls `i` and `j`, due to meet now but not closing, touch and are pressed
    /// together by the cloth: then they meet all the same (`soft.rs`). Asked only of a
    /// pair found not approaching at its impact, which is rare.
    #[cold]
    #[inline(never)]
    pub(super) fn pressed_touch(&self, b: &Balls, i: usize, j: usize) -> bool {
        let Some(cloth) = self.cloth.as_deref() else {
            return false;
        };
        let (dx, dy) = self.laws.table.min_image(b.x[j] - b.x[i], b.y[j] - b.y[i]);
        let sigma = b.r[i] + b.r[j];
        let (ai, aj) = (cloth.acc[i], cloth.acc[j]);
        let press = (ai[0] - aj[0]) * dx + (ai[1] - aj[1]) * dy;
        // Not separating, but by round-off (see `predict::touching_slide`).
        let (vx, vy) = (b.vx[j] - b.vx[i], b.vy[j] - b.vy[i]);
        let opening = vx * dx + vy * dy;
        dx * dx + dy * dy <= sigma * sigma * (1.0 + 1e-9)
            && press > 0.0
            && opening <= 1e-12 * sigma * vx.hypot(vy)
    }

    /// Ball `i` striking the table's wall `w` on cloth: Han's cushion impulse at the
    /// standard nose height, with the scene's restitution (or the collapse guard's) and
    /// contact friction; logged with its normal impulse and the speed into the wall.
    fn cushion(&mut self, b: &mut Balls, i: usize, w: Wall, t0: f64) {
        if b.inv_m[i] == 0.0 {
            return;
        }
        // The scene's restitution, or elastic in a burst (the collapse guard's TC rule).
        let burst = self.guard.collapse_guard && self.burst_after(i, t0) >= super::state::TC_BURST;
        let e = if burst { 1.0 } else { self.laws.restitution };
        let cushion = Cushion {
            normal: w.normal(),
            restitution: e,
            mu: self.laws.friction.mu,
            surface: [0.0, 0.0],
            nose: crate::cushion::DEFAULT_NOSE_HEIGHT * b.r[i],
            pressed_touch: false,
        };
        let Some(cloth) = self.cloth.as_deref() else {
            return;
        };
        let press = Press {
            law: &cloth.law,
            phase: cloth.phase[i],
            acc: cloth.acc[i],
            left: cloth.end[i] - t0,
            inv_m: b.inv_m[i],
        };
        let out = rebound(&Sphere::of(b, i), Body::of(b, i), &press, &cushion);
        if out.impulse_per_mass <= 0.0 {
            return;
        }
        out.sphere.store(b, i);
        self.tally.collisions += 1;
        if let Some(log) = self.log.as_mut() {
            let id = super::resolve::ball_id(&self.layout.order, i);
            let impulse = b.m[i] * out.impulse_per_mass;
            log.push(LoggedEvent::table_wall(
                t0 - self.clock.step_start,
                id,
                w,
                impulse,
                out.approach,
            ));
        }
    }
}
