//! The `event` model: exact event-driven hard-disk dynamics, the accuracy reference.
//!
//! Instead of stepping time, the model jumps from one collision to the next at its exact
//! time. Every ball moves on a known curve between events (a straight line, or a parabola
//! under gravity; kinematic balls in a straight line, unaffected by gravity), so the time
//! two balls touch is the earliest root of a quadratic (their relative motion is linear
//! even under gravity, which accelerates both alike) and the time a ball meets a wall is
//! a linear or quadratic root ([`crate::times`]). Nothing tunnels at any speed, and with
//! `e = 1` energy is conserved to round-off. `physics.dt` only sets when the state is
//! sampled for output.
//!
//! Machinery, O(1) per event on average:
//! - a schedule holding each ball's earliest predicted contact and its next cell
//!   crossing, ordered by a calendar queue (time buckets, with a small heap for the
//!   earliest; nothing stale kept in the buckets); invalidation is lazy: a per-ball event counter tells whether a partner
//!   has changed course since a contact was predicted;
//! - a uniform grid of cells at least one largest diameter wide, kept up to date by
//!   cell-crossing events (quadratic under gravity), so a ball is compared only with the
//!   balls in the 3x3 cells around it;
//! - look-ahead: the data an event reads are asked for before it is processed (when
//!   its slot nears the top of the calendar, and at a million balls a calendar bucket
//!   earlier, with the balls around the next event one event ahead), so that the time
//!   goes to computing rather than to waiting for memory;
//! - a start given in a scattered order is laid out cell by cell while the model works
//!   on it, and every ball put back under its own index when the balls are read
//!   (`renumber.rs`);
//! - the event loop compiled twice, portable and for AVX-512, the wide version taken
//!   where the processor has it, with the same results to the bit (`isa.rs`);
//! - lazy motion: each ball keeps its own local time and is moved only when it takes
//!   part in an event. [`CollisionModel::step_deferred`] leaves the balls so, and
//!   [`CollisionModel::synchronise`] brings them all to the current time when someone
//!   reads them (the world does so once per `run_steps`): a step that samples nothing
//!   costs its events, not the ball count.
//!
//! The files follow the step: `interval.rs` starts an interval (epoch, changes from
//! outside, predictions afresh), `run.rs` takes its events in time order,
//! `crossing.rs` and `resolve.rs` process a cell crossing and an impact, `predict.rs`
//! finds what comes next, `queue/` keeps the events in order and `cells.rs` the
//! neighbours, `lazy.rs` moves a ball along its curve when an event needs it; `inner.rs`
//! adds the walls inside the table, pockets and open edges (`on_face.rs` and
//! `on_round.rs` the balls resting on them, `translating_walls.rs` the walls that
//! move), `on_cloth.rs` and `soft.rs` pool balls on cloth, `strikes.rs` Andersen's
//! heat bath, `sliding.rs` the sheared box, `guard.rs` the guards.
//!
//! Below the stages, the files they share and that name none of them: `state.rs` (the
//! model's state: the parts it holds, the scratch, and the constants the stages
//! share), `kinds.rs` (what an event is about: every code), `records.rs` (each ball's
//! local time, counter and collision history, its identity in the model's layout, and
//! its undo record), `clock.rs` (the interval's clock and laws), `audit.rs` (the
//! guards' flags, the overlap audit and the tallies), `phases.rs` (every ball's phase on cloth),
//! `cushions.rs` (impacts with cushions on cloth), `held.rs` (how a ball rests on a
//! wall inside the table), `bath.rs` (the heat bath's clock) and `motion.rs` (the
//! impact laws along a ball's curve).
//!
//! Collisions within round-off of the same time are resolved together as one group
//! (seed 001's double collision, a break's rack, Newton's cradle); contacts that only
//! touch and start approaching because of a collision are the next events, at zero
//! time later, which propagates a cradle exactly.
//!
//! Resting on a wall under gravity: a ball whose rebound off a wall that gravity presses
//! it into is so slow that it would be back within `tc` (below) comes to rest on that
//! wall. Its acceleration loses the part into the wall, it slides along it, and the wall
//! joins every impact the ball takes part in (struck from above, the floor pushes back in
//! the same instant); an impact that sends it off the wall lifts it off. Without this, a
//! ball bouncing ever lower (`e < 1`) would need endlessly many bounces. The straight
//! faces of walls inside the table are rested on the same way (`on_face.rs`, with the
//! face's end one more event); rolling over a corner or swinging inside an arc is not a
//! parabola and is not modelled (the step fails, naming the ball and the wall), nor are
//! balls resting on other balls (see the budget).
//!
//! Friction and outside edits change velocities between intervals: edits come through
//! [`CollisionModel::invalidate`] (the world's `balls_mut`), friction is known from the
//! physics. Either way the schedule is rebuilt whole, O(N) predictions, which is the
//! least that can be done when (as with friction) every moving ball changed. Cloth
//! friction is the exception: the model moves balls on cloth itself, exactly, the end
//! of each ball's phase (sliding, rolling, spinning) being one more event and each
//! phase a parabola (`on_cloth.rs`); the world then leaves friction to it.
//!
//! A start the model cannot honour (balls overlapping or through a wall beyond
//! round-off) is refused when the model is built (`guard::check_start`).
//!
//! Guards, so that a run never hangs:
//! - inelastic collapse (infinitely many collisions in finite time among a few balls
//!   with `e < 1`) is cut off by a TC rule in the manner of Luding and McNamara: a ball's
//!   collision is made elastic once it has had [`TC_BURST`] collisions in a row each
//!   less than `tc = TC_FRACTION * dt` after the one before. Isolated collisions and
//!   the short zero-time cascades of a rack or cradle keep their restitution;
//! - a stall guard (`physics.event_budget`, [`DEFAULT_EVENT_BUDGET`]): every
//!   [`stall_window`] events it looks at how far the clock advanced over them, and stops
//!   the step with [`StepError::EventBudget`] when the events per ball per unit of time
//!   exceed the budget, in the time unit the fastest ball takes to move the smallest
//!   radius (at least the speed gravity gives over one radius). The balls are left as
//!   they were at the start of the interval (each ball changed in it is put back from
//!   an undo record taken before its first change: O(events), no copy of all balls).
//!   The rate is what tells a degenerate scene from a busy one, so how rarely the state
//!   is sampled (`dt`) never decides whether a run succeeds. It is reached by what
//!   hard-disk dynamics cannot represent, such as a ball resting on another ball under
//!   gravity (a stack, a pile), which needs endlessly many zero-time contacts: time
//!   stops advancing. The contact solver's passes beyond one per contact count as
//!   events, so that the work is bounded even where every impact makes the solver
//!   rattle up to its iteration cap. [`Event::set_budget`] adds a hard cap per output
//!   interval (none by default), for tests that need a scene stopped quickly;
//! - a pair time that is a quartic (a ball under gravity meeting a resting or kinematic
//!   one) too large for its root finder to be trusted (`times::quartic_in_range`:
//!   gravity, speeds or distances some 1e75 times beyond the scene's) fails the step
//!   the same way, with [`StepError::Unstable`], rather than miss the collision.

/// Asks for what a pair time reads of a neighbour `k`: its motion, clock and radius
/// (its mass and counter are read only for a kinematic ball or the partner chosen).
macro_rules! fetch_pair_reads {
    ($s:ident, $b:expr, $k:expr) => {{
        use $crate::hint::prefetch_at;
        let (b, k) = ($b, $k);
        prefetch_at(&b.x, k);
        prefetch_at(&b.y, k);
        prefetch_at(&b.vx, k);
        prefetch_at(&b.vy, k);
        prefetch_at(&b.r, k);
        prefetch_at(&$s.rec.t, k);
    }};
}

/// Asks for what a prediction reads of ball `k`: its motion, clock, radius, mass and
/// counter.
macro_rules! fetch_motion {
    ($s:ident, $b:expr, $k:expr) => {{
        use $crate::hint::prefetch_at;
        let (b, k) = ($b, $k);
        fetch_pair_reads!($s, b, k);
        prefetch_at(&b.inv_m, k);
        prefetch_at(&$s.rec.counter, k);
    }};
}

/// Asks for every record an event of ball `k` reads (its motion, clock, counter,
/// collision history and cell). A macro, not a method: it is used inside the
/// schedule's callback, where the fields are borrowed one by one beside the queue.
macro_rules! fetch_ball {
    ($s:ident, $b:expr, $k:expr) => {{
        let k = $k;
        fetch_motion!($s, $b, k);
        $crate::hint::prefetch_whole_at(&$s.rec.hist, k);
        $s.cells.prefetch(k);
    }};
}

#[macro_use]
mod isa;
#[macro_use]
mod predict;
mod audit;
mod bath;
mod cells;
mod clock;
mod copying;
mod crossing;
mod cushions;
mod guard;
mod held;
mod inner;
mod interval;
mod kinds;
mod lazy;
mod motion;
mod on_cloth;
mod on_face;
mod on_round;
mod phases;
mod queue;
mod records;
mod renumber;
mod resolve;
mod run;
mod sliding;
mod soft;
mod state;
mod strikes;
mod translating_walls;
use self::audit::{Guards, Tally};
use self::cells::Cells;
use self::clock::{Clock, Laws};
use self::inner::Inner;
// For the benches that time the portable path against the wide one.
#[cfg(feature = "internals")]
pub use self::isa::set_portable_only;
use self::kinds::Kind;
use self::phases::OnCloth;
use self::queue::{Ev, Schedule, Source};
use self::records::{Layout, Records, Rollback};
pub use self::renumber::RENUMBER_FROM;
use self::state::Scratch;
// The event model's budgets and windows, read by the tests of the workspace.
#[cfg_attr(not(feature = "internals"), allow(unused_imports))]
pub use self::state::{
    stall_window, Event, DEFAULT_EVENT_BUDGET, TC_BURST, TC_FRACTION, WINDOW_BASE, WINDOW_PER_BALL,
};
use super::simultaneous::ContactSolver;
use super::{CollisionModel, StepContext, StepError};
use crate::balls::Balls;
use crate::physics::ModelKind;
use crate::physics::Physics;
use crate::table::Table;
use crate::walls::{Removal, Walls};

impl Event {
    /// The model for these balls. Refuses a start with balls overlapping or through a
    /// wall beyond round-off (`guard::check_start`).
    #[cfg(any(test, feature = "internals"))]
    pub fn new(balls: &Balls, table: &Table, physics: &Physics) -> Result<Event, StepError> {
        Event::with_walls(balls, table, physics, &Walls::none())
    }

    /// [`Event::new`] on a table with walls inside it, pockets or open edges.
    pub fn with_walls(
        balls: &Balls,
        table: &Table,
        physics: &Physics,
        walls: &Walls,
    ) -> Result<Event, StepError> {
        guard::check_start(balls, table).map_err(StepError::Unsupported)?;
        if table.is_sheared() && !walls.is_empty() {
            return Err(StepError::Unsupported(
                "a sheared box holds no walls inside the table or pockets in the event model"
                    .to_string(),
            ));
        }
        let cloth = Event::cloth_of(&physics.friction, physics.gravity)?;
        let inner = (!walls.is_empty() || table.any_open()).then(|| {
            let open = [table.is_open(0), table.is_open(1)];
            Box::new(Inner::new(walls, open, [table.width, table.height]))
        });
        Ok(Event {
            wide: isa::wide_by_default(),
            guard: Guards::new(physics.event_budget),
            rec: Records::default(),
            rollback: Rollback::default(),
            quartic: Vec::new(),
            cells: Cells::default(),
            inner,
            cloth: cloth.map(|law| Box::new(OnCloth::new(law))),
            strikes: None,
            queue: Schedule::default(),
            solver: ContactSolver::new(),
            layout: Layout {
                order: Vec::new(),
                renumber_from: RENUMBER_FROM,
            },
            laws: Laws::new(table),
            clock: Clock::new(),
            serial: 0,
            needs_rebuild: true,
            resumed: true,
            log: None,
            scratch: Scratch::default(),
            tally: Tally::default(),
        })
    }

    /// Asks for the event loop compiled for AVX-512 (`true`, the default where the
    /// processor has it) or for any x86-64 (`false`); returns whether the wide version
    /// now runs. Both give the same results to the bit: for tests and benchmarks.
    #[cfg(any(test, feature = "internals"))]
    pub fn set_wide_instructions(&mut self, on: bool) -> bool {
        self.wide = on && isa::wide_supported();
        self.wide
    }

    /// Whether the event loop runs its version compiled for AVX-512 (see `isa.rs`).
    #[cfg(any(test, feature = "internals"))]
    pub fn wide_instructions(&self) -> bool {
        self.wide
    }

    /// Whether this processor can run the event loop's version compiled for AVX-512.
    #[cfg(any(test, feature = "internals"))]
    pub fn wide_supported() -> bool {
        isa::wide_supported()
    }

    /// A hard cap on the events of one output interval (`None`, the default: no cap;
    /// the stall guard still stops a degenerate scene). Exceeding it stops the step as
    /// the stall guard does; for tests that need a degenerate scene stopped quickly.
    pub fn set_budget(&mut self, budget: Option<u64>) {
        self.guard.budget = budget;
    }

    /// Turns the inelastic-collapse guard (the TC rule) on or off. Off, a collapse runs
    /// into the event budget instead; only useful to show that the guard is needed.
    #[cfg(any(test, feature = "internals"))]
    pub fn set_collapse_guard(&mut self, on: bool) {
        self.guard.collapse_guard = on;
    }

    /// Debugging aid: after every event, measure the deepest overlap of any two balls
    /// (or a ball and a wall) in the whole system, with an independent broad phase.
    /// O(N) per event, so for tests only.
    #[cfg(any(test, feature = "internals"))]
    pub fn set_overlap_audit(&mut self, on: bool) {
        self.guard.audit = on;
    }

    /// The deepest overlap seen by the audit, as a fraction of the smaller radius.
    #[cfg(any(test, feature = "internals"))]
    pub fn worst_overlap(&self) -> f64 {
        self.guard.overlap.worst
    }

    /// Events so far: collisions (ball-ball and ball-wall contacts that received an
    /// impulse) plus cell crossings.
    pub fn events(&self) -> u64 {
        self.tally.collisions + self.tally.crossings
    }

    /// Predictions that came due so far (a collision seen from both of its balls
    /// counts twice, a prediction found stale when due is not counted): the work the
    /// event budget limits.
    #[cfg(any(test, feature = "internals"))]
    pub fn due_events(&self) -> u64 {
        self.tally.events
    }

    /// The contact solver's counters (its passes, and the passes beyond one per
    /// contact that count towards the event budget).
    #[cfg(any(test, feature = "internals"))]
    pub fn solver_stats(&self) -> crate::models::simultaneous::SolverStats {
        self.solver.stats()
    }

    /// Cell crossings processed so far.
    #[cfg(any(test, feature = "internals"))]
    pub fn crossings(&self) -> u64 {
        self.tally.crossings
    }

    /// Events waiting in the schedule.
    #[cfg(any(test, feature = "internals"))]
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Sorts out a popped event: `true` if it is due. A contact whose partner has
    /// changed course since it was predicted is not: its owner predicts afresh. Slots
    /// are rewritten whenever their owner changes, so only side-heap entries can be
    /// superseded by their owner.
    #[inline]
    fn due(&mut self, b: &Balls, e: &Ev, src: Source) -> bool {
        let i = e.i as usize;
        let partner_current = match e.kind() {
            Kind::Pair(j) => self.rec.counter[j] == e.cj,
            _ => true,
        };
        match src {
            Source::Crossing => true,
            Source::Contact => {
                if !partner_current {
                    self.predict(b, i, e.t, false);
                }
                partner_current
            }
            Source::Extra => self.rec.counter[i] == e.ci && partner_current,
        }
    }

    /// Asks for the motion of the balls around the next event's ball, while this
    /// event is processed: the predictions that follow it read them. (Its own data
    /// and its cell lists were asked for when its slot came near.)
    #[inline]
    fn fetch_neighbours(&self, b: &Balls) {
        let Some((k, other)) = self.queue.next_ball() else {
            return;
        };
        // No more than a pair time reads: the processor's queue of outstanding
        // misses is shared with what the coming events need.
        let fetch = |j: usize| fetch_pair_reads!(self, b, j);
        let c = self.cells.cell_of(k);
        match other.checked_sub(kinds::CROSS) {
            // A crossing meets only the strip of cells beyond the next one.
            Some(d) if d < 4 => {
                let d = cells::Dir::from_index(d);
                if let Some(next) = self.cells.step(c, d) {
                    self.cells.firsts_of_new_strip(next, d, fetch);
                }
            }
            Some(_) => {}
            None => {
                self.cells.firsts_of_block(c, fetch);
                if kinds::is_ball(other) {
                    self.cells
                        .firsts_of_block(self.cells.cell_of(other as usize), fetch);
                }
            }
        }
    }

    /// A fresh serial for the scratch marks. When the 32-bit count wraps (after four
    /// billion groups), every mark is cleared so that no old mark can pass for new.
    fn next_serial(&mut self) -> u32 {
        self.serial = self.serial.wrapping_add(1);
        if self.serial == 0 {
            for h in &mut self.rec.hist {
                (h.mark, h.hit, h.group) = (0, 0, 0);
            }
            self.serial = 1;
        }
        self.serial
    }

    two_versions! {
        /// Pushes ball `i`'s next contact events (and, if `crossing`, its next cell
        /// crossing), predicted from epoch time `now`.
        fn predict / predict_portable / predict_wide => predict_body
            (&mut self, b: &Balls, i: usize, now: f64, crossing: bool)
    }

    /// Both balls of a collision predicted afresh, as `predict` for `i` and then for
    /// `j`, with the same results, but with both blocks gathered before either is
    /// searched: the cell records of `j`'s block are on their way while `i`'s pair
    /// times are computed. Along straight lines only; otherwise, or when a block is
    /// too crowded or a near-tie needs the general path, one after the other.
    #[inline(always)]
    fn predict_pair(&mut self, b: &Balls, i: usize, j: usize, now: f64) {
        let kin = kin!(self, b);
        if kin.flat && !kin.on_sliding_row(i) && !kin.on_sliding_row(j) {
            let (si, sj) = (kin.state(i, now), kin.state(j, now));
            let mut near_i = [0u32; cells::GATHER];
            let mut near_j = [0u32; cells::GATHER];
            let ni = kin.cells.gather_block(kin.cells.cell_of(i), &mut near_i);
            let nj = kin.cells.gather_block(kin.cells.cell_of(j), &mut near_j);
            if let (Some(ni), Some(nj)) = (ni, nj) {
                let ei = kin.earliest_line(i, &si, now, self.clock.eps_t, &near_i[..ni]);
                let ej = kin.earliest_line(j, &sj, now, self.clock.eps_t, &near_j[..nj]);
                if let (Some(ei), Some(ej)) = (ei, ej) {
                    let ci = kin.cross(i, &si, now).unwrap_or(Ev::NONE);
                    let cj = kin.cross(j, &sj, now).unwrap_or(Ev::NONE);
                    self.queue.set_both(i, ei, ci);
                    self.queue.set_both(j, ej, cj);
                    return;
                }
            }
        }
        self.predict(b, i, now, true);
        self.predict(b, j, now, true);
    }

    #[inline(always)]
    fn predict_body(&mut self, b: &Balls, i: usize, now: f64, crossing: bool) {
        let kin = kin!(self, b);
        let queue = &mut self.queue;
        let si = kin.state(i, now);
        let e = kin.next_contact(i, &si, now, self.clock.eps_t, &mut self.scratch.cand, |e| {
            queue.push_extra(e)
        });
        if crossing {
            queue.set_both(i, e, kin.cross(i, &si, now).unwrap_or(Ev::NONE));
        } else {
            queue.set_contact(i, e, false);
        }
    }
}

impl CollisionModel for Event {
    fn kind(&self) -> ModelKind {
        ModelKind::Event
    }

    /// A step that brings every ball to its end, for callers that read the balls
    /// after every step.
    fn step(&mut self, ctx: StepContext<'_>) -> Result<(), StepError> {
        let StepContext {
            balls,
            physics,
            table,
            pool,
            walls,
            in_play,
        } = ctx;
        let result = self.step_deferred(StepContext {
            balls: &mut *balls,
            physics,
            table,
            pool,
            walls,
            in_play,
        });
        self.synchronise(balls);
        result
    }

    fn step_deferred(&mut self, ctx: StepContext<'_>) -> Result<(), StepError> {
        let StepContext {
            balls,
            physics,
            table,
            in_play,
            ..
        } = ctx;
        if let Some(inner) = self.inner.as_deref_mut() {
            // Balls the world holds out of play (a resumed run, or taken out before)
            // stay out of the grid and the schedule. The world changes the mask only
            // through this model's exits or an edit that calls for a rebuild, so it is
            // read only then.
            let n = balls.len();
            if inner.out.len() != n {
                // In place: a model copied into a reused one keeps the arrays' storage.
                inner.out.clear();
                inner.out.resize(n, false);
                inner.on.clear();
                inner.on.resize(n, held::OnFace::NONE);
                self.needs_rebuild = true;
            }
            if let Some(mask) = in_play.filter(|_| self.needs_rebuild) {
                for (o, &p) in inner.out.iter_mut().zip(mask) {
                    if *o == p {
                        *o = !p;
                        self.needs_rebuild = true;
                    }
                }
            }
        }
        self.prepare(balls, table, physics)?;
        let result = self.run_events(balls, physics);
        if result.is_err() {
            if let Some(inner) = self.inner.as_deref_mut() {
                inner.give_back(balls);
            }
        }
        result
    }

    /// Every ball to the end of the last interval (its start, after a failed step).
    fn synchronise(&mut self, balls: &mut Balls) {
        self.bring_forward(balls);
        // Read, every ball is under its own index again.
        self.restore_order(balls);
    }

    fn failed_step_restores(&self) -> bool {
        true
    }

    /// On cloth every ball's phase is current at the interval's end (a phase's end is
    /// an event), so a ball has stopped moving across the cloth exactly when its phase
    /// is `Spinning` or `Stationary`: the state a read would bring it to has no
    /// velocity and no rolling spin. A kinematic ball keeps its velocity and spins.
    /// Lays out the grid and files the table's walls and pockets under its cells: the
    /// filing (a sort of every piece's cells) is the costly part, and a copy keeps it
    /// while the grid is the same (`Inner::bin`).
    fn warm(&mut self, balls: &Balls, table: &Table) {
        let n = balls.len();
        if n == 0 || !self.needs_rebuild {
            return;
        }
        let Some(inner) = self.inner.as_deref_mut() else {
            return;
        };
        let r = balls.max_radius();
        self.cells.rebuild(table, r, &balls.x, &balls.y);
        inner.bin(&self.cells, r * (1.0 + 1e-6));
    }

    fn motion_ended(&self, balls: &Balls) -> Option<bool> {
        let cloth = self.cloth.as_deref()?;
        let n = balls.len();
        if self.needs_rebuild || cloth.phase.len() != n {
            return None;
        }
        let out = self
            .inner
            .as_deref()
            .map_or(&[][..], |inner| &inner.out[..]);
        Some((0..n).all(|i| {
            if out.get(i).copied().unwrap_or(false) {
                return true;
            }
            if balls.inv_m[i] == 0.0 {
                return [balls.vx[i], balls.vy[i], balls.wx[i], balls.wy[i]] == [0.0; 4];
            }
            matches!(
                cloth.phase[i],
                crate::cloth::Phase::Spinning | crate::cloth::Phase::Stationary
            )
        }))
    }

    fn collisions(&self) -> u64 {
        self.tally.collisions
    }

    fn virial(&self) -> f64 {
        self.tally.pair_virial.sum + self.solver.virial()
    }

    fn virial_tensor(&self) -> crate::stress::Tensor {
        crate::stress::add(self.tally.pair_virial.tensor, self.solver.virial_tensor())
    }

    fn event_count(&self) -> Option<u64> {
        Some(self.events())
    }

    fn invalidate(&mut self) {
        self.needs_rebuild = true;
    }

    /// The translating walls' places at the end of the step just taken, from their
    /// paths in the model's clock (`translating_walls.rs`).
    fn place_walls(&self, walls: &mut Walls) -> bool {
        let Some(m) = self
            .inner
            .as_deref()
            .and_then(|inner| inner.moving.as_ref())
        else {
            return false;
        };
        let now = self.clock.step_start;
        walls.set_offsets(|w, _| m.offset(w, now));
        true
    }

    fn walls_moved(&mut self, walls: &Walls) {
        if let Some(inner) = self.inner.as_deref_mut() {
            inner.walls.follow(walls);
        }
    }

    fn try_clone(&self) -> Option<Box<dyn CollisionModel>> {
        Some(Box::new(self.clone()))
    }

    fn copy_from(&mut self, source: &dyn CollisionModel) -> bool {
        let Some(source) = source.as_event() else {
            return false;
        };
        crate::copying::CopyFrom::copy_from(self, source);
        true
    }

    fn as_event(&self) -> Option<&Event> {
        Some(self)
    }

    fn set_event_cap(&mut self, cap: Option<u64>) {
        self.set_budget(cap);
    }

    fn finds_exits(&self) -> bool {
        self.inner.is_some()
    }

    fn set_event_log(&mut self, on: bool) {
        self.log = on.then(Vec::new);
    }

    fn take_events(&mut self, out: &mut Vec<crate::event_log::LoggedEvent>) {
        if let Some(log) = self.log.as_mut() {
            out.append(log);
        }
    }

    fn take_exits(&mut self, out: &mut Vec<(usize, Removal)>) {
        if let Some(inner) = self.inner.as_deref_mut() {
            inner.removals(out);
        }
    }

    fn applies_thermostat(&self, th: &crate::thermostat::Thermostat, physics: &Physics) -> bool {
        // In a sheared box the world applies it, about the streaming profile.
        bath::as_events(th, physics) && !self.laws.table.is_sheared()
    }

    fn set_thermostat(&mut self, th: Option<&crate::thermostat::Thermostat>) {
        let th = th.filter(|_| !self.laws.table.is_sheared());
        Event::set_thermostat(self, th);
    }

    fn thermostat_clock(&self) -> Option<Vec<(u32, u64, f64)>> {
        Event::thermostat_clock(self)
    }

    fn restore_thermostat_clock(&mut self, clock: &[(u32, u64, f64)], balls: &Balls) {
        Event::restore_thermostat_clock(self, clock, balls.len());
    }
}
