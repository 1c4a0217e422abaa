//! The interval's clock and laws: the epoch clock, the speeds and tolerances measured on
//! it, and the physics and table each interval runs under. `interval.rs` sets them at
//! the start of every interval; every stage reads them.

use crate::physics::ContactFriction;
use crate::table::Table;

/// Events closer in time than `GROUP_TOL * r_min / v_max` form one group: the balls
/// concerned are then at most `GROUP_TOL` of a radius from touching, a thousand times
/// above position round-off and far below anything physical.
pub(super) const GROUP_TOL: f64 = 1e-10;

/// Local times are measured from an epoch, moved forward (every event time rewritten)
/// once the clock would let a ball move `REBASE_AFTER` radii, at an instant of the
/// run's own clock rather than an interval's start (`interval::next_rebase`): the time resolution
/// `ulp(t)` then never costs more than about 1e-13 of a radius in position.
pub(super) const REBASE_AFTER: f64 = 1e3;

/// The model's clock (epoch time) and what is measured on it.
#[derive(Clone)]
pub(super) struct Clock {
    /// The start and end of the current interval.
    pub(super) step_start: f64,
    pub(super) horizon: f64,
    /// Epoch time at which the epoch next moves (see `interval::next_rebase`), and the
    /// count of events when it last moved.
    pub(super) rebase_at: f64,
    pub(super) rebase_mark: u64,
    /// Events closer in time than this form one group (see `GROUP_TOL`).
    pub(super) eps_t: f64,
    pub(super) r_min: f64,
    /// Largest squared speed seen at the last rebuild or after a collision since.
    pub(super) v2_max: f64,
    /// `v2_max` when the epoch last moved or was rebuilt, and the speed gravity adds
    /// over an interval: what the time tolerance `eps_t` is made of.
    pub(super) v2_epoch: f64,
    pub(super) v_gain: f64,
}

impl Clock {
    /// A clock at epoch time 0 that has measured nothing, its epoch never moving until
    /// the first rebuild says when.
    pub(super) fn new() -> Clock {
        Clock {
            step_start: 0.0,
            horizon: 0.0,
            rebase_at: f64::INFINITY,
            rebase_mark: 0,
            eps_t: 0.0,
            r_min: 0.0,
            v2_max: 0.0,
            v2_epoch: 0.0,
            v_gain: 0.0,
        }
    }

    /// The time tolerance of groups and predictions, from a generous bound on the
    /// speeds: speeds can grow within the interval (gravity, a kinematic ball, a light
    /// ball struck by a heavy one), and twice the fastest speed seen when the epoch last
    /// moved or was rebuilt, plus what gravity adds over an interval, is all the
    /// tolerances need. The speed is taken at those points only, not at every
    /// interval's start, so that without gravity the tolerance, like the epoch, does not
    /// depend on `dt`.
    pub(super) fn set_eps_t(&mut self) {
        let v_est = 2.0 * self.v2_epoch.sqrt() + self.v_gain;
        self.eps_t = if v_est > 0.0 {
            GROUP_TOL * self.r_min / v_est
        } else {
            0.0
        };
    }
}

/// The physics and the table of the current interval.
#[derive(Clone)]
pub(super) struct Laws {
    /// `tc = TC_FRACTION * dt`, the collapse guard's burst time.
    pub(super) tc: f64,
    pub(super) restitution: f64,
    /// Friction at the contacts (rough disks); off: the smooth collisions, untouched.
    pub(super) friction: ContactFriction,
    pub(super) gravity: [f64; 2],
    /// No gravity and no cloth: every ball moves in a straight line (the predictions'
    /// shorter paths; set with the physics of each interval).
    pub(super) flat: bool,
    pub(super) table: Table,
    /// A sheared box's shift at epoch time 0 (`sliding.rs`): the table's `shift` is
    /// set from it to the shift at each event.
    pub(super) shear_base: f64,
}

impl Laws {
    /// Elastic smooth collisions without gravity on `table`, until the first interval
    /// sets the physics.
    pub(super) fn new(table: &Table) -> Laws {
        Laws {
            tc: 0.0,
            restitution: 1.0,
            friction: ContactFriction::NONE,
            gravity: [0.0, 0.0],
            flat: true,
            table: *table,
            shear_base: table.shift,
        }
    }
}
