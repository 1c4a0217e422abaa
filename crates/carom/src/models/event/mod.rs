//! The `event` model: exact event-driven hard-disk dynamics, the accuracy reference.
//!
//! Instead of stepping time, the model jumps from one collision to the next at its exact
//! time. Every ball moves on a known curve between events (a straight line, or a parabola
//! under gravity; kinematic balls in a straight line, unaffected by gravity), so the time
//! two balls touch is the earliest root of a quadratic (their relative motion is linear
//! even under gravity, which accelerates both alike) and the time a ball meets a wall is
//! a linear or quadratic root ([`times`]). Nothing tunnels at any speed, and with
//! `e = 1` energy is conserved to round-off. `physics.dt` only sets when the state is
//! sampled for output.
//!
//! Machinery, all O(log N) per event:
//! - a schedule holding each ball's earliest predicted contact and its next cell
//!   crossing, ordered by a tournament tree (O(log N) per change, nothing stale ever
//!   stored); invalidation is lazy: a per-ball event counter tells whether a partner
//!   has changed course since a contact was predicted;
//! - a uniform grid of cells at least one largest diameter wide, kept up to date by
//!   cell-crossing events (quadratic under gravity), so a ball is compared only with the
//!   balls in the 3x3 cells around it;
//! - lazy motion: each ball keeps its own local time and is moved only when it takes
//!   part in an event; all balls are brought to the same time only at the end of each
//!   output interval.
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
//! ball bouncing ever lower (`e < 1`) would need endlessly many bounces. Balls resting
//! on other balls are not modelled (see the budget).
//!
//! Friction and outside edits change velocities between intervals. At the start of each
//! interval the model compares the balls with the state it left them in: when a few
//! changed, only their predictions are redone; when many changed (friction changes all
//! moving balls), the schedule is rebuilt whole, O(N) predictions, which is the least
//! that can be done since every prediction of a changed ball is void.
//!
//! Guards, so that a run never hangs:
//! - inelastic collapse (infinitely many collisions in finite time among a few balls
//!   with `e < 1`) is cut off by a TC rule in the manner of Luding and McNamara: a ball's
//!   collision is made elastic once it has had [`TC_BURST`] collisions in a row each
//!   less than `tc = TC_FRACTION * dt` after the one before. Isolated collisions and
//!   the short zero-time cascades of a rack or cradle keep their restitution;
//! - an event budget per output interval ([`default_budget`]): exceeding it stops the
//!   step with [`StepError::EventBudget`] and leaves the balls as they were at the start
//!   of the interval. It is reached by what hard-disk dynamics cannot represent, such
//!   as a ball resting on another ball under gravity (a stack, a pile), which would need
//!   endlessly many zero-time contacts.

mod cells;
mod queue;
pub mod times;

use self::cells::{Cells, Dir};
use self::queue::{Ev, Kind, Schedule, Source, CROSS, MAX_BALLS, WALL};
use super::simultaneous::{resolve_contacts, ContactSolver};
use super::{CollisionModel, Contact, StepContext, StepError, Wall};
use crate::balls::Balls;
use crate::broadphase::Grid;
use crate::physics::Physics;
use crate::scenario::ModelKind;
use crate::table::Table;

/// `tc = TC_FRACTION * dt`: collisions of one ball closer together than this are a
/// "burst" (a hundred thousand per output interval and more: far finer than anything
/// the output shows).
pub const TC_FRACTION: f64 = 1e-5;

/// A ball's collision is elastic once it is at least the `TC_BURST`-th of a burst. A
/// true collapse has unboundedly many, so it is always caught; a rack or a cradle with
/// `e < 1` has a handful at zero time, which keep their restitution.
pub const TC_BURST: u8 = 16;

/// Fixed part of the event budget per output interval.
pub const BUDGET_BASE: u64 = 1_000_000;
/// Part of the event budget per ball per output interval.
pub const BUDGET_PER_BALL: u64 = 100;

/// The default event budget for one output interval of `n` balls: a million events plus
/// a hundred per ball. A gas of unit disks at area fraction 0.3 and unit speeds has
/// under two events per ball per time unit (0.7 collisions, 1 cell crossing), so only
/// output intervals of dozens of time units come near it, while a degenerate scene
/// reaches it within a second or so.
pub fn default_budget(n: usize) -> u64 {
    BUDGET_BASE + BUDGET_PER_BALL * n as u64
}

/// Events closer in time than `GROUP_TOL * r_min / v_max` form one group: the balls
/// concerned are then at most `GROUP_TOL` of a radius from touching, a thousand times
/// above position round-off and far below anything physical.
const GROUP_TOL: f64 = 1e-10;

/// Local times are measured from an epoch, moved forward (every event time rewritten)
/// once the clock would let a ball move `REBASE_AFTER` radii: the time resolution
/// `ulp(t)` then never costs more than about 1e-13 of a radius in position.
const REBASE_AFTER: f64 = 1e3;

/// Ball-ball contacts of each ball's last collision group, remembered so that a pair
/// that has just collided (and, in exact arithmetic, now separates) is never predicted
/// to collide again because of round-off.
const MAX_PARTNERS: usize = 6;
const PARTNERS_OVERFLOW: u8 = u8::MAX;

/// Cloning copies the whole state, predictions included: the clone continues exactly
/// as the original would.
#[derive(Clone)]
pub struct Event {
    // Settings.
    budget: Option<u64>,
    audit: bool,
    collapse_guard: bool,

    // Per ball.
    /// Local time of the state stored in `Balls` (epoch time).
    t: Vec<f64>,
    counter: Vec<u32>,
    /// Time of the last collision, and how many collisions in a row came within tc.
    t_last: Vec<f64>,
    quick: Vec<u8>,
    /// Serial of the collision group that last changed the ball (0: none).
    group: Vec<u64>,
    partners: Vec<[u32; MAX_PARTNERS]>,
    n_partners: Vec<u8>,
    /// Scratch marks, compared with `serial`.
    mark: Vec<u64>,
    hit: Vec<u64>,
    slot: Vec<u32>,
    /// Walls each ball rests on (bit `1 << wall`).
    rest: Vec<u8>,

    /// The balls as this model left them (start of the current interval once the step
    /// has begun): compared to detect outside changes, restored when a step fails.
    snap_x: Vec<f64>,
    snap_y: Vec<f64>,
    snap_vx: Vec<f64>,
    snap_vy: Vec<f64>,

    cells: Cells,
    queue: Schedule,
    solver: ContactSolver,

    // Clock and per-interval parameters.
    step_start: f64,
    horizon: f64,
    eps_t: f64,
    tc: f64,
    restitution: f64,
    gravity: [f64; 2],
    table: Table,
    r_min: f64,
    serial: u64,
    needs_rebuild: bool,

    // Scratch, kept to avoid allocating inside a step.
    group_events: Vec<Ev>,
    cand: Vec<Ev>,
    involved: Vec<u32>,
    contacts: Vec<Contact>,
    cluster: Vec<u32>,
    dirty: Vec<u32>,
    refresh: Vec<u32>,
    nbrs: Vec<u32>,
    audit_grid: Grid,
    audit_x: Vec<f64>,
    audit_y: Vec<f64>,
    audit_pairs: Vec<(u32, u32)>,
    recent: [u32; 64],
    recent_at: usize,

    // Statistics.
    collisions: u64,
    events: u64,
    crossings: u64,
    worst_overlap: f64,
}

/// Read-only view of the motion, for predictions (borrowed field by field so that the
/// queue can be pushed to at the same time).
struct Kin<'a> {
    b: &'a Balls,
    t: &'a [f64],
    counter: &'a [u32],
    group: &'a [u64],
    partners: &'a [[u32; MAX_PARTNERS]],
    n_partners: &'a [u8],
    rest: &'a [u8],
    cells: &'a Cells,
    table: &'a Table,
    g: [f64; 2],
    horizon: f64,
}

macro_rules! kin {
    ($s:ident, $balls:expr) => {
        Kin {
            b: $balls,
            t: &$s.t,
            counter: &$s.counter,
            group: &$s.group,
            partners: &$s.partners,
            n_partners: &$s.n_partners,
            rest: &$s.rest,
            cells: &$s.cells,
            table: &$s.table,
            g: $s.gravity,
            horizon: $s.horizon,
        }
    };
}

impl Kin<'_> {
    #[inline]
    fn accel(&self, i: usize) -> [f64; 2] {
        accel_of(self.b.inv_m[i], self.rest[i], self.g)
    }

    /// Position and velocity of ball `i` at epoch time `t`, without moving it.
    #[inline]
    fn state(&self, i: usize, t: f64) -> [f64; 4] {
        let tau = t - self.t[i];
        let a = self.accel(i);
        let b = self.b;
        [
            b.x[i] + tau * (b.vx[i] + 0.5 * a[0] * tau),
            b.y[i] + tau * (b.vy[i] + 0.5 * a[1] * tau),
            b.vx[i] + a[0] * tau,
            b.vy[i] + a[1] * tau,
        ]
    }

    /// Whether `i` and `j` were resolved against each other in the collision group that
    /// last changed both: they separate, and cannot meet again on these trajectories.
    #[inline]
    fn just_collided(&self, i: usize, j: usize) -> bool {
        let g = self.group[i];
        if g == 0 || g != self.group[j] {
            return false;
        }
        let n = self.n_partners[i];
        n != PARTNERS_OVERFLOW && self.partners[i][..n as usize].contains(&(j as u32))
    }

    /// The next collision of `i` and `j` after `now`, if any.
    fn pair(&self, i: usize, j: usize, now: f64) -> Option<Ev> {
        let b = self.b;
        if b.inv_m[i] == 0.0 && b.inv_m[j] == 0.0 {
            return None;
        }
        let (ai, aj) = (self.accel(i), self.accel(j));
        let acc = [aj[0] - ai[0], aj[1] - ai[1]];
        let linear = acc == [0.0, 0.0];
        if linear && self.just_collided(i, j) {
            return None;
        }
        let (si, sj) = (self.state(i, now), self.state(j, now));
        let p = [sj[0] - si[0], sj[1] - si[1]];
        let v = [sj[2] - si[2], sj[3] - si[3]];
        let sigma = b.r[i] + b.r[j];
        let tau = if linear {
            times::pair_time(p[0], p[1], v[0], v[1], sigma)?
        } else {
            // A kinematic or resting ball next to a flying one under gravity: quartic,
            // solved only up to the end of this interval; such balls are predicted afresh
            // at the start of every interval.
            let c = times::pair_quartic(p, v, acc, sigma);
            times::quartic_entry(&c, self.horizon - now, 1e-12 * sigma * sigma)?
        };
        Some(Ev {
            t: now + tau,
            i: i as u32,
            other: j as u32,
            ci: self.counter[i],
            cj: self.counter[j],
        })
    }

    /// The first wall ball `i` meets after `now` (kinematic balls ignore walls, a
    /// resting ball the walls it rests on).
    fn wall(&self, i: usize, now: f64) -> Option<Ev> {
        if self.b.inv_m[i] == 0.0 {
            return None;
        }
        let [x, y, vx, vy] = self.state(i, now);
        let r = self.b.r[i];
        let (w, h) = (self.table.width, self.table.height);
        let [gx, gy] = self.accel(i);
        let (gx, gy) = (0.5 * gx, 0.5 * gy);
        // Gap to each wall as a function of time: a tau^2 + b tau + c.
        let gaps = [
            (Wall::Left, gx, vx, x - r),
            (Wall::Right, -gx, -vx, w - r - x),
            (Wall::Top, gy, vy, y - r),
            (Wall::Bottom, -gy, -vy, h - r - y),
        ];
        let mut best: Option<(f64, Wall)> = None;
        for (wall, a, b, c) in gaps {
            if self.rest[i] & (1 << wall as u8) != 0 {
                continue;
            }
            if let Some(tau) = times::first_exit(a, b, c) {
                if best.is_none_or(|(t, _)| tau < t) {
                    best = Some((tau, wall));
                }
            }
        }
        best.map(|(tau, wall)| Ev {
            t: now + tau,
            i: i as u32,
            other: WALL + wall as u32,
            ci: self.counter[i],
            cj: 0,
        })
    }

    /// Ball `i`'s earliest collision with a wall or a neighbour after `now`
    /// (`Ev::NONE` if none). Other collisions due within `slack` of it go to `ties`:
    /// near-ties are all kept, so that a simultaneous impact is seen whole.
    ///
    /// Only the earliest is scheduled: a later collision of `i` can only come once this
    /// one has fired (then `i` predicts afresh) or gone stale because the partner
    /// changed course (then it comes due stale and `i` predicts afresh), while a partner
    /// that changes course predicts its own earliest, which includes `i` when it should.
    fn next_contact(
        &self,
        i: usize,
        now: f64,
        slack: f64,
        scratch: &mut Vec<Ev>,
        mut ties: impl FnMut(Ev),
    ) -> Ev {
        scratch.clear();
        scratch.extend(self.wall(i, now));
        self.cells.for_block(self.cells.cell_of(i), |j| {
            if j != i {
                scratch.extend(self.pair(i, j, now));
            }
        });
        let mut first = Ev::NONE;
        for e in scratch.iter() {
            if e.t < first.t {
                first = *e;
            }
        }
        if scratch.len() > 1 {
            let limit = first.t + slack.max(16.0 * f64::EPSILON * first.t.abs());
            for e in scratch.iter() {
                if e.t <= limit && (e.t, e.other) != (first.t, first.other) {
                    ties(*e);
                }
            }
        }
        first
    }

    /// When ball `i` next leaves its cell, and through which side.
    fn cross(&self, i: usize, now: f64) -> Option<Ev> {
        let [x, y, vx, vy] = self.state(i, now);
        let [ax, ay] = self.accel(i);
        let (bounds, open) = self.cells.bounds(self.cells.cell_of(i));
        let sides = [
            (Dir::Left, 0.5 * ax, vx, x - bounds[0]),
            (Dir::Right, -0.5 * ax, -vx, bounds[1] - x),
            (Dir::Up, 0.5 * ay, vy, y - bounds[2]),
            (Dir::Down, -0.5 * ay, -vy, bounds[3] - y),
        ];
        let mut best: Option<(f64, Dir)> = None;
        for (k, (dir, a, b, c)) in sides.into_iter().enumerate() {
            if !open[k] {
                continue;
            }
            if let Some(tau) = times::first_exit(a, b, c) {
                if best.is_none_or(|(t, _)| tau < t) {
                    best = Some((tau, dir));
                }
            }
        }
        best.map(|(tau, dir)| Ev {
            t: now + tau,
            i: i as u32,
            other: CROSS + dir as u32,
            ci: self.counter[i],
            cj: 0,
        })
    }
}

/// A ball's acceleration: none for a kinematic ball; gravity for a flying one, less the
/// part pressing it into the walls it rests on.
#[inline]
fn accel_of(inv_m: f64, rest: u8, g: [f64; 2]) -> [f64; 2] {
    if inv_m == 0.0 {
        return [0.0, 0.0];
    }
    let mut a = g;
    if rest != 0 {
        for w in Wall::ALL {
            if rest & (1 << w as u8) != 0 {
                let n = w.normal();
                let gn = a[0] * n[0] + a[1] * n[1];
                if gn < 0.0 {
                    a[0] -= gn * n[0];
                    a[1] -= gn * n[1];
                }
            }
        }
    }
    a
}

/// Decides whether dynamic ball `i`, touching wall `w`, rests on it: gravity must press
/// it into the wall and its speed off the wall be so small that it would be back within
/// `tc` (the TC time; a ball bouncing ever lower on the floor would otherwise need
/// endlessly many bounces). A resting ball's speed off the wall is set to zero, which
/// takes at most `m (g_n tc)^2 / 2` of energy. Returns whether it rests.
fn settle(b: &mut Balls, rest: &mut [u8], i: usize, w: Wall, g: [f64; 2], tc: f64) -> bool {
    let n = w.normal();
    let gn = g[0] * n[0] + g[1] * n[1];
    let vn = b.vx[i] * n[0] + b.vy[i] * n[1];
    let bit = 1 << w as u8;
    if gn < 0.0 && vn <= -gn * tc {
        b.vx[i] -= vn * n[0];
        b.vy[i] -= vn * n[1];
        rest[i] |= bit;
        true
    } else {
        rest[i] &= !bit;
        false
    }
}

/// Whether ball `i` touches wall `w`, within a billionth of its radius.
fn touches_wall(b: &Balls, table: &Table, i: usize, w: Wall) -> bool {
    let (x, y, r) = (b.x[i], b.y[i], b.r[i]);
    let gap = match w {
        Wall::Left => x - r,
        Wall::Right => table.width - r - x,
        Wall::Top => y - r,
        Wall::Bottom => table.height - r - y,
    };
    gap <= 1e-9 * r
}

#[inline]
fn wall_from_index(k: usize) -> Wall {
    Wall::ALL[k & 3]
}

impl Event {
    pub fn new(_balls: &Balls, table: &Table, _physics: &Physics) -> Result<Event, StepError> {
        Ok(Event {
            budget: None,
            audit: false,
            collapse_guard: true,
            t: Vec::new(),
            counter: Vec::new(),
            t_last: Vec::new(),
            quick: Vec::new(),
            group: Vec::new(),
            partners: Vec::new(),
            n_partners: Vec::new(),
            mark: Vec::new(),
            hit: Vec::new(),
            slot: Vec::new(),
            rest: Vec::new(),
            snap_x: Vec::new(),
            snap_y: Vec::new(),
            snap_vx: Vec::new(),
            snap_vy: Vec::new(),
            cells: Cells::default(),
            queue: Schedule::default(),
            solver: ContactSolver::new(),
            step_start: 0.0,
            horizon: 0.0,
            eps_t: 0.0,
            tc: 0.0,
            restitution: 1.0,
            gravity: [0.0, 0.0],
            table: *table,
            r_min: 0.0,
            serial: 0,
            needs_rebuild: true,
            group_events: Vec::new(),
            cand: Vec::new(),
            involved: Vec::new(),
            contacts: Vec::new(),
            cluster: Vec::new(),
            dirty: Vec::new(),
            refresh: Vec::new(),
            nbrs: Vec::new(),
            audit_grid: Grid::new(),
            audit_x: Vec::new(),
            audit_y: Vec::new(),
            audit_pairs: Vec::new(),
            recent: [u32::MAX; 64],
            recent_at: 0,
            collisions: 0,
            events: 0,
            crossings: 0,
            worst_overlap: 0.0,
        })
    }

    /// Overrides the event budget per output interval (`None`: [`default_budget`]).
    pub fn set_budget(&mut self, budget: Option<u64>) {
        self.budget = budget;
    }

    /// Turns the inelastic-collapse guard (the TC rule) on or off. Off, a collapse runs
    /// into the event budget instead; only useful to show that the guard is needed.
    pub fn set_collapse_guard(&mut self, on: bool) {
        self.collapse_guard = on;
    }

    /// Debugging aid: after every event, measure the deepest overlap of any two balls
    /// (or a ball and a wall) in the whole system, with an independent broad phase.
    /// O(N) per event, so for tests only.
    pub fn set_overlap_audit(&mut self, on: bool) {
        self.audit = on;
    }

    /// The deepest overlap seen by the audit, as a fraction of the smaller radius.
    pub fn worst_overlap(&self) -> f64 {
        self.worst_overlap
    }

    /// Events so far: collisions (ball-ball and ball-wall contacts that received an
    /// impulse) plus cell crossings.
    pub fn events(&self) -> u64 {
        self.collisions + self.crossings
    }

    /// Predictions that came due so far (a collision seen from both of its balls
    /// counts twice, a prediction found stale when due is not counted): the work the
    /// event budget limits.
    pub fn due_events(&self) -> u64 {
        self.events
    }

    /// Cell crossings processed so far.
    pub fn crossings(&self) -> u64 {
        self.crossings
    }

    /// Events waiting in the schedule.
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
            Kind::Pair(j) => self.counter[j] == e.cj,
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
            Source::Extra => self.counter[i] == e.ci && partner_current,
        }
    }

    /// Moves ball `i` along its curve to epoch time `t` (its state is stored there).
    #[inline]
    fn advance(&mut self, b: &mut Balls, i: usize, t: f64) {
        let tau = t - self.t[i];
        if tau != 0.0 {
            let [gx, gy] = accel_of(b.inv_m[i], self.rest[i], self.gravity);
            b.x[i] += tau * (b.vx[i] + 0.5 * gx * tau);
            b.y[i] += tau * (b.vy[i] + 0.5 * gy * tau);
            b.vx[i] += gx * tau;
            b.vy[i] += gy * tau;
        }
        self.t[i] = t;
    }

    /// Everything that must hold before the events of an interval are processed:
    /// parameters, outside changes detected and their predictions redone, clock rebased.
    fn prepare(
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
        if self.gravity != physics.gravity || self.table != *table || n != self.t.len() {
            self.needs_rebuild = true;
        }
        self.gravity = physics.gravity;
        self.table = *table;
        self.restitution = physics.restitution;
        self.tc = TC_FRACTION * dt;

        // One pass: finiteness, outside changes, fastest ball.
        self.dirty.clear();
        self.refresh.clear();
        let mut v2_max: f64 = 0.0;
        let compare = !self.needs_rebuild;
        let gravity = self.gravity != [0.0, 0.0];
        for i in 0..n {
            let (x, y, vx, vy) = (b.x[i], b.y[i], b.vx[i], b.vy[i]);
            if !(x.is_finite() && y.is_finite() && vx.is_finite() && vy.is_finite()) {
                return Err(StepError::Unstable(format!(
                    "ball {i} has a non-finite position or velocity ({x}, {y}), ({vx}, {vy})"
                )));
            }
            v2_max = v2_max.max(vx * vx + vy * vy);
            if compare
                && (x.to_bits() != self.snap_x[i].to_bits()
                    || y.to_bits() != self.snap_y[i].to_bits()
                    || vx.to_bits() != self.snap_vx[i].to_bits()
                    || vy.to_bits() != self.snap_vy[i].to_bits())
            {
                self.dirty.push(i as u32);
            } else if compare && gravity && (b.inv_m[i] == 0.0 || self.rest[i] != 0) {
                // Their quartic predictions reach only to the end of an interval.
                self.refresh.push(i as u32);
            }
        }
        // Speeds can grow within the interval (gravity, a kinematic ball, a light ball
        // struck by a heavy one): a generous bound is all the time tolerances need.
        let g = self.gravity[0].hypot(self.gravity[1]);
        let v_est = 2.0 * v2_max.sqrt() + g * dt;

        if self.needs_rebuild {
            self.r_min = b.r.iter().copied().fold(f64::INFINITY, f64::min);
            if !self.r_min.is_finite() {
                self.r_min = 0.0;
            }
        }
        let rebase = v_est > 0.0 && self.step_start * v_est > REBASE_AFTER * self.r_min;
        if !self.needs_rebuild && rebase {
            self.rebase();
        }
        self.horizon = self.step_start + dt;
        self.eps_t = if v_est > 0.0 {
            GROUP_TOL * self.r_min / v_est
        } else {
            0.0
        };

        if self.needs_rebuild || self.dirty.len() * 4 > n + 64 {
            self.rebuild(b);
        } else {
            if !self.dirty.is_empty() {
                self.repredict_dirty(b);
            }
            let now = self.step_start;
            for k in 0..self.refresh.len() {
                let i = self.refresh[k] as usize;
                self.predict(b, i, now, true);
            }
        }
        if self.queue.extra_len() > n + 1024 {
            let counter = &self.counter;
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

    /// Moves the epoch to the start of this interval: every stored time shifts.
    fn rebase(&mut self) {
        let shift = self.step_start;
        self.queue.shift(shift);
        for t in &mut self.t {
            *t -= shift;
        }
        for t in &mut self.t_last {
            *t -= shift;
        }
        self.step_start = 0.0;
    }

    /// Forgets every prediction and predicts everything afresh from the balls as they
    /// are: the grid is laid out again, the epoch restarts at zero.
    fn rebuild(&mut self, b: &mut Balls) {
        let n = b.len();
        let same_balls = self.t.len() == n;
        let shift = self.step_start;
        self.horizon -= shift;
        self.step_start = 0.0;
        self.t.clear();
        self.t.resize(n, 0.0);
        self.counter.clear();
        self.counter.resize(n, 0);
        if same_balls {
            // Keep the collapse guard's memory across friction rebuilds.
            for t in &mut self.t_last {
                *t -= shift;
            }
        } else {
            self.t_last.clear();
            self.t_last.resize(n, f64::NEG_INFINITY);
            self.quick.clear();
            self.quick.resize(n, 0);
        }
        self.group.clear();
        self.group.resize(n, 0);
        self.partners.clear();
        self.partners.resize(n, [0; MAX_PARTNERS]);
        self.n_partners.clear();
        self.n_partners.resize(n, 0);
        self.mark.clear();
        self.mark.resize(n, 0);
        self.hit.clear();
        self.hit.resize(n, 0);
        self.slot.clear();
        self.slot.resize(n, 0);
        self.rest.clear();
        self.rest.resize(n, 0);
        for i in 0..n {
            self.settle_all(b, i);
        }
        if n > 0 {
            self.cells.rebuild(&self.table, b.max_radius(), &b.x, &b.y);
        }
        self.snap_x.clone_from(&b.x);
        self.snap_y.clone_from(&b.y);
        self.snap_vx.clone_from(&b.vx);
        self.snap_vy.clone_from(&b.vy);

        self.queue.reset(n);
        let b = &*b;
        let kin = kin!(self, b);
        let queue = &mut self.queue;
        for i in 0..n {
            let e = kin.next_contact(i, 0.0, self.eps_t, &mut self.cand, |e| queue.push_extra(e));
            queue.set_contact(i, e, true);
            queue.set_crossing(i, kin.cross(i, 0.0).unwrap_or(Ev::NONE), true);
        }
        queue.build();
        self.needs_rebuild = false;
    }

    /// Redoes the predictions of the few balls changed from outside since last interval.
    fn repredict_dirty(&mut self, b: &mut Balls) {
        for k in 0..self.dirty.len() {
            let i = self.dirty[k] as usize;
            self.counter[i] = self.counter[i].wrapping_add(1);
            self.group[i] = 0;
            self.n_partners[i] = 0;
            self.rest[i] = 0;
            self.settle_all(b, i);
            let c = self.cells.cell_at(b.x[i], b.y[i]);
            self.cells.move_to(i, c);
            self.snap_x[i] = b.x[i];
            self.snap_y[i] = b.y[i];
            self.snap_vx[i] = b.vx[i];
            self.snap_vy[i] = b.vy[i];
        }
        let now = self.step_start;
        for k in 0..self.dirty.len() {
            let i = self.dirty[k] as usize;
            self.predict(b, i, now, true);
        }
    }

    /// Finds the walls ball `i` rests on from its position and velocity alone.
    fn settle_all(&mut self, b: &mut Balls, i: usize) {
        if b.inv_m[i] == 0.0 || self.gravity == [0.0, 0.0] {
            return;
        }
        for w in Wall::ALL {
            if touches_wall(b, &self.table, i, w) {
                settle(b, &mut self.rest, i, w, self.gravity, self.tc);
            }
        }
    }

    /// Pushes ball `i`'s next contact events (and, if `crossing`, its next cell
    /// crossing), predicted from epoch time `now`.
    fn predict(&mut self, b: &Balls, i: usize, now: f64, crossing: bool) {
        let kin = kin!(self, b);
        let queue = &mut self.queue;
        let e = kin.next_contact(i, now, self.eps_t, &mut self.cand, |e| queue.push_extra(e));
        queue.set_contact(i, e, false);
        if crossing {
            queue.set_crossing(i, kin.cross(i, now).unwrap_or(Ev::NONE), false);
        }
    }

    fn note_recent(&mut self, i: u32) {
        self.recent[self.recent_at % self.recent.len()] = i;
        self.recent_at = self.recent_at.wrapping_add(1);
    }

    /// A ball has left its cell: file it in the next one and predict its collisions with
    /// the balls that have just become neighbours.
    fn cross(&mut self, b: &Balls, ev: Ev) {
        self.crossings += 1;
        let i = ev.i as usize;
        let dir = match ev.kind() {
            Kind::Cross(d) => Dir::from_index(d),
            _ => return,
        };
        if let Some(c) = self.cells.step(self.cells.cell_of(i), dir) {
            self.cells.move_to(i, c);
            self.nbrs.clear();
            let nbrs = &mut self.nbrs;
            self.cells.for_new_strip(c, dir, |j| nbrs.push(j as u32));
        }
        // New neighbours matter only if they come before (or with) the ball's earliest
        // contact already scheduled, which is otherwise still right.
        let kin = kin!(self, b);
        for &j in &self.nbrs {
            if let Some(e) = kin.pair(i, j as usize, ev.t) {
                let cur = *self.queue.contact(i);
                let slack = self.eps_t.max(16.0 * f64::EPSILON * e.t.abs());
                if e.t < cur.t {
                    if cur.t <= e.t + slack {
                        self.queue.push_extra(cur);
                    }
                    self.queue.set_contact(i, e, false);
                } else if e.t <= cur.t + slack {
                    self.queue.push_extra(e);
                }
            }
        }
        self.queue
            .set_crossing(i, kin.cross(i, ev.t).unwrap_or(Ev::NONE), false);
        self.nbrs.clear();
    }

    /// Resolves the collision events in `group_events`, all due at `t0` within
    /// round-off, as one simultaneous impact, and predicts what follows.
    fn resolve_group(&mut self, b: &mut Balls, t0: f64) {
        self.serial += 1;
        let s = self.serial;
        self.involved.clear();
        for k in 0..self.group_events.len() {
            let e = self.group_events[k];
            let j = match e.kind() {
                Kind::Pair(j) => Some(j),
                _ => None,
            };
            for ball in std::iter::once(e.i as usize).chain(j) {
                if self.mark[ball] != s {
                    self.mark[ball] = s;
                    self.involved.push(ball as u32);
                }
            }
        }
        for k in 0..self.involved.len() {
            let i = self.involved[k] as usize;
            self.advance(b, i, t0);
        }

        // The contacts that really approach at t0 (the same predicate that predicted
        // them, so only a grazing touch can fall out here).
        self.contacts.clear();
        for e in &self.group_events {
            let i = e.i as usize;
            match e.kind() {
                Kind::Pair(j) => {
                    if approaching_pair(b, i, j) {
                        let (lo, hi) = if i < j { (i, j) } else { (j, i) };
                        self.contacts.push(Contact::Pair(lo as u32, hi as u32));
                    }
                }
                Kind::Wall(w) => {
                    let w = wall_from_index(w);
                    if approaching_wall(b, i, w) {
                        self.contacts.push(Contact::Wall(i as u32, w));
                    }
                }
                Kind::Cross(_) => {}
            }
        }
        // A ball resting on a wall takes the wall into its impact: pushed into the
        // floor, it is pushed back by the floor in the same instant.
        for k in 0..self.contacts.len() {
            let c = self.contacts[k];
            for i in contact_balls(&c) {
                for w in Wall::ALL {
                    if self.rest[i] & (1 << w as u8) != 0 {
                        self.contacts.push(Contact::Wall(i as u32, w));
                    }
                }
            }
        }
        self.contacts.sort_unstable();
        self.contacts.dedup();

        // Clusters of contacts connected through shared balls (walls do not connect):
        // each is one simultaneous impact with its own restitution.
        for (k, &i) in self.involved.iter().enumerate() {
            self.slot[i as usize] = k as u32;
        }
        self.cluster.clear();
        self.cluster.extend(0..self.involved.len() as u32);
        for c in &self.contacts {
            if let Contact::Pair(i, j) = *c {
                let (a, z) = (self.slot[i as usize], self.slot[j as usize]);
                let (ra, rz) = (find(&mut self.cluster, a), find(&mut self.cluster, z));
                if ra != rz {
                    self.cluster[ra.max(rz) as usize] = ra.min(rz);
                }
            }
        }
        for k in 0..self.cluster.len() as u32 {
            let root = find(&mut self.cluster, k);
            self.cluster[k as usize] = root;
        }
        let (cluster, slot) = (&self.cluster, &self.slot);
        let root_of = |c: &Contact| -> u32 {
            let i = match *c {
                Contact::Pair(i, _) | Contact::Wall(i, _) => i,
            };
            cluster[slot[i as usize] as usize]
        };
        if self.contacts.len() > 1 {
            self.contacts.sort_unstable_by_key(|c| (root_of(c), *c));
        }

        // Collapse guard, then resolution, cluster by cluster.
        let mut start = 0;
        while start < self.contacts.len() {
            let root = root_of(&self.contacts[start]);
            let mut end = start + 1;
            while end < self.contacts.len() && root_of(&self.contacts[end]) == root {
                end += 1;
            }
            let mut elastic = false;
            for c in &self.contacts[start..end] {
                for i in contact_balls(c) {
                    if b.inv_m[i] != 0.0 && self.burst_after(i, t0) >= TC_BURST {
                        elastic = true;
                    }
                }
            }
            let e = if elastic && self.collapse_guard {
                1.0
            } else {
                self.restitution
            };
            self.collisions += resolve_cluster(
                b,
                &self.table,
                &self.contacts[start..end],
                e,
                &mut self.solver,
            );
            start = end;
        }

        // Bookkeeping for every ball whose velocity the impact could have changed.
        for k in 0..self.contacts.len() {
            let c = self.contacts[k];
            for i in contact_balls(&c) {
                if self.hit[i] != s {
                    self.hit[i] = s;
                    self.quick[i] = self.burst_after(i, t0);
                    self.t_last[i] = t0;
                    self.counter[i] = self.counter[i].wrapping_add(1);
                    self.group[i] = s;
                    self.n_partners[i] = 0;
                }
            }
            match c {
                Contact::Pair(i, j) => {
                    add_partner(&mut self.partners, &mut self.n_partners, i as usize, j);
                    add_partner(&mut self.partners, &mut self.n_partners, j as usize, i);
                }
                // Landed for good, still resting, or lifted off.
                Contact::Wall(i, w) => {
                    settle(b, &mut self.rest, i as usize, w, self.gravity, self.tc);
                }
            }
        }

        for k in 0..self.involved.len() {
            let i = self.involved[k] as usize;
            if self.hit[i] == s {
                self.predict(b, i, t0, true);
            }
        }
        // An event that fell out (a grazing touch) leaves its balls' courses unchanged,
        // but it was its owner's earliest contact: the owner looks again.
        for k in 0..self.group_events.len() {
            let i = self.group_events[k].i as usize;
            if self.hit[i] != s && self.queue.contact(i).t == f64::INFINITY {
                self.predict(b, i, t0, false);
            }
        }
    }

    /// Length of ball `i`'s burst if it collides at `t0`.
    #[inline]
    fn burst_after(&self, i: usize, t0: f64) -> u8 {
        if t0 - self.t_last[i] < self.tc {
            self.quick[i].saturating_add(1)
        } else {
            0
        }
    }

    /// Deepest overlap in the whole system at epoch time `now`, by an independent
    /// broad phase over positions computed afresh.
    fn audit_at(&mut self, b: &Balls, now: f64) {
        let n = b.len();
        self.audit_x.resize(n, 0.0);
        self.audit_y.resize(n, 0.0);
        let kin = kin!(self, b);
        for i in 0..n {
            let s = kin.state(i, now);
            self.audit_x[i] = s[0];
            self.audit_y[i] = s[1];
        }
        let mut worst = self.worst_overlap;
        for i in 0..n {
            if b.inv_m[i] == 0.0 {
                continue;
            }
            let (x, y, r) = (self.audit_x[i], self.audit_y[i], b.r[i]);
            let (w, h) = (self.table.width, self.table.height);
            let depth = (r - x).max(x - (w - r)).max(r - y).max(y - (h - r));
            worst = worst.max(depth / r);
        }
        self.audit_grid.rebuild(
            &self.audit_x,
            &self.audit_y,
            2.0 * b.max_radius(),
            &self.table,
        );
        self.audit_grid.touching_pairs(
            &self.audit_x,
            &self.audit_y,
            &b.r,
            0.0,
            &mut self.audit_pairs,
        );
        for &(i, j) in &self.audit_pairs {
            let (i, j) = (i as usize, j as usize);
            if b.inv_m[i] == 0.0 && b.inv_m[j] == 0.0 {
                continue;
            }
            let d = (self.audit_x[j] - self.audit_x[i]).hypot(self.audit_y[j] - self.audit_y[i]);
            let depth = b.r[i] + b.r[j] - d;
            worst = worst.max(depth / b.r[i].min(b.r[j]));
        }
        self.worst_overlap = worst;
    }

    /// The error for an exceeded budget, with the ball most involved lately; puts the
    /// balls back as they were at the start of the interval.
    fn over_budget(
        &mut self,
        b: &mut Balls,
        budget: u64,
        dt: f64,
        now: f64,
        before: (u64, u64),
    ) -> StepError {
        let mut best = (0usize, u32::MAX);
        for &i in &self.recent {
            if i == u32::MAX {
                continue;
            }
            let k = self.recent.iter().filter(|&&j| j == i).count();
            if k > best.0 || (k == best.0 && i < best.1) {
                best = (k, i);
            }
        }
        let where_ = if best.1 != u32::MAX {
            let i = best.1 as usize;
            let s = kin!(self, b).state(i, now);
            format!(
                "; ball {i} took part in {} of the last {} events, at ({:.6}, {:.6})",
                best.0,
                self.recent.len(),
                s[0],
                s[1]
            )
        } else {
            String::new()
        };
        b.x.clone_from(&self.snap_x);
        b.y.clone_from(&self.snap_y);
        b.vx.clone_from(&self.snap_vx);
        b.vy.clone_from(&self.snap_vy);
        (self.collisions, self.crossings) = before;
        self.needs_rebuild = true;
        StepError::EventBudget(format!(
            "more than {budget} events in one output interval of {dt} (stopped {:.3e} into it){where_}: \
             a ball resting on another ball under gravity (a stack or pile), or a dense cluster \
             of inelastic balls, needs endlessly many collisions in hard-disk dynamics; use a \
             smaller dt if the scene is just this busy, otherwise restitution 1 or the \
             simultaneous or spring model (the state is left at the start of the interval)",
            now - self.step_start
        ))
    }
}

fn find(parent: &mut [u32], mut a: u32) -> u32 {
    while parent[a as usize] != a {
        let p = parent[a as usize];
        parent[a as usize] = parent[p as usize];
        a = p;
    }
    a
}

fn add_partner(partners: &mut [[u32; MAX_PARTNERS]], n: &mut [u8], i: usize, j: u32) {
    let k = n[i];
    if k == PARTNERS_OVERFLOW {
        return;
    }
    if (k as usize) < MAX_PARTNERS {
        partners[i][k as usize] = j;
        n[i] = k + 1;
    } else {
        n[i] = PARTNERS_OVERFLOW;
    }
}

fn contact_balls(c: &Contact) -> impl Iterator<Item = usize> {
    let (i, j) = match *c {
        Contact::Pair(i, j) => (i as usize, Some(j as usize)),
        Contact::Wall(i, _) => (i as usize, None),
    };
    std::iter::once(i).chain(j)
}

/// Normal relative velocity of `j` with respect to `i` is negative: they approach.
#[inline]
fn approaching_pair(b: &Balls, i: usize, j: usize) -> bool {
    let (dx, dy) = (b.x[j] - b.x[i], b.y[j] - b.y[i]);
    let (dvx, dvy) = (b.vx[j] - b.vx[i], b.vy[j] - b.vy[i]);
    dx * dvx + dy * dvy < 0.0
}

#[inline]
fn approaching_wall(b: &Balls, i: usize, w: Wall) -> bool {
    let [nx, ny] = w.normal();
    b.vx[i] * nx + b.vy[i] * ny < 0.0
}

/// The two-ball collision along the line of centres, with inverse masses so that a
/// kinematic ball is an infinite mass. Returns whether an impulse was applied.
fn collide_pair(b: &mut Balls, i: usize, j: usize, e: f64) -> bool {
    let (dx, dy) = (b.x[j] - b.x[i], b.y[j] - b.y[i]);
    let d = (dx * dx + dy * dy).sqrt();
    let (wi, wj) = (b.inv_m[i], b.inv_m[j]);
    if d == 0.0 || wi + wj == 0.0 {
        return false;
    }
    let (nx, ny) = (dx / d, dy / d);
    let g = nx * (b.vx[j] - b.vx[i]) + ny * (b.vy[j] - b.vy[i]);
    if g >= 0.0 {
        return false;
    }
    let k = -(1.0 + e) * g / (wi + wj);
    b.vx[i] -= nx * k * wi;
    b.vy[i] -= ny * k * wi;
    b.vx[j] += nx * k * wj;
    b.vy[j] += ny * k * wj;
    true
}

/// `v_n' = -e v_n` for a ball moving into a wall.
fn collide_wall(b: &mut Balls, i: usize, w: Wall, e: f64) -> bool {
    let [nx, ny] = w.normal();
    let vn = b.vx[i] * nx + b.vy[i] * ny;
    if vn >= 0.0 || b.inv_m[i] == 0.0 {
        return false;
    }
    b.vx[i] -= (1.0 + e) * vn * nx;
    b.vy[i] -= (1.0 + e) * vn * ny;
    true
}

/// One simultaneous impact: the approaching contacts of one connected cluster. A lone
/// contact is the two-ball formula (or a wall reflection), which is what the contact
/// solver reduces to for one contact, without its set-up cost on the hot path; several
/// go to the exact simultaneous solver. Returns the contacts that received an impulse.
fn resolve_cluster(
    b: &mut Balls,
    table: &Table,
    contacts: &[Contact],
    e: f64,
    solver: &mut ContactSolver,
) -> u64 {
    match *contacts {
        [Contact::Pair(i, j)] => collide_pair(b, i as usize, j as usize, e) as u64,
        [Contact::Wall(i, w)] => collide_wall(b, i as usize, w, e) as u64,
        _ => resolve_contacts(b, table, contacts, e, solver) as u64,
    }
}

impl CollisionModel for Event {
    fn kind(&self) -> ModelKind {
        ModelKind::Event
    }

    fn step(&mut self, ctx: StepContext<'_>) -> Result<(), StepError> {
        let StepContext {
            balls,
            physics,
            table,
            ..
        } = ctx;
        self.prepare(balls, table, physics)?;
        let t_end = self.horizon;
        let budget = self.budget.unwrap_or_else(|| default_budget(balls.len()));
        let before = (self.collisions, self.crossings);
        let mut count: u64 = 0;
        while let Some(t) = self.queue.peek_time() {
            if t > t_end {
                break;
            }
            let (ev, src) = self.queue.pop().expect("peeked");
            if !self.due(balls, &ev, src) {
                continue;
            }
            count += 1;
            if count > budget {
                return Err(self.over_budget(balls, budget, physics.dt, ev.t, before));
            }
            self.note_recent(ev.i);
            if let Kind::Cross(_) = ev.kind() {
                self.cross(balls, ev);
                if self.audit {
                    self.audit_at(balls, ev.t);
                }
                continue;
            }
            // Everything due within round-off of t0 is one impact.
            let t0 = ev.t;
            let window = t0 + self.eps_t.max(16.0 * f64::EPSILON * t0.abs());
            self.group_events.clear();
            self.group_events.push(ev);
            while let Some(t) = self.queue.peek_time() {
                if t > window {
                    break;
                }
                let (e, src) = self.queue.pop().expect("peeked");
                if !self.due(balls, &e, src) {
                    continue;
                }
                count += 1;
                if count > budget {
                    return Err(self.over_budget(balls, budget, physics.dt, e.t, before));
                }
                self.note_recent(e.i);
                match e.kind() {
                    Kind::Cross(_) => self.cross(balls, e),
                    Kind::Pair(j) => {
                        self.note_recent(j as u32);
                        self.group_events.push(e);
                    }
                    Kind::Wall(_) => self.group_events.push(e),
                }
            }
            if let Kind::Pair(j) = ev.kind() {
                self.note_recent(j as u32);
            }
            self.resolve_group(balls, t0);
            if self.audit {
                self.audit_at(balls, t0);
            }
        }
        self.events += count;

        // Output: every ball at the end of the interval.
        for i in 0..balls.len() {
            self.advance(balls, i, t_end);
        }
        self.step_start = t_end;
        if self.audit {
            self.audit_at(balls, t_end);
        }
        self.snap_x.copy_from_slice(&balls.x);
        self.snap_y.copy_from_slice(&balls.y);
        self.snap_vx.copy_from_slice(&balls.vx);
        self.snap_vy.copy_from_slice(&balls.vy);
        Ok(())
    }

    fn collisions(&self) -> u64 {
        self.collisions
    }

    fn event_count(&self) -> Option<u64> {
        Some(self.events())
    }

    fn invalidate(&mut self) {
        self.needs_rebuild = true;
    }
}
