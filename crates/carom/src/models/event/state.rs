//! The model's state: its settings, every part its stages work on, and the constants
//! they share. Each part's methods live with the stage that owns it (see the model's
//! notes); this file only names the parts, so that every stage can reach them and none
//! reaches the stages through it.

use super::audit::Audit;
use super::bath::Strikes;
use super::cells::Cells;
use super::inner::Inner;
use super::phases::OnCloth;
use super::queue::{Ev, Schedule};
use super::records::{History, Undo};
use crate::models::simultaneous::ContactSolver;
use crate::models::Contact;
use crate::physics::ContactFriction;
use crate::stress::Virial;
use crate::table::Table;

/// `tc = TC_FRACTION * dt`: collisions of one ball closer together than this are a
/// "burst" (a hundred thousand per output interval and more: far finer than anything
/// the output shows).
pub const TC_FRACTION: f64 = 1e-5;

/// A ball's collision is elastic once it is at least the `TC_BURST`-th of a burst. A
/// true collapse has unboundedly many, so it is always caught; a rack or a cradle with
/// `e < 1` has a handful at zero time, which keep their restitution.
pub const TC_BURST: u8 = 16;

/// Fixed part of the stall guard's window: see [`stall_window`].
pub const WINDOW_BASE: u64 = 1_000_000;
/// Part of the stall guard's window per ball.
pub const WINDOW_PER_BALL: u64 = 100;

/// How many events the stall guard lets pass between two looks at the clock, for `n`
/// balls: a million plus a hundred per ball. A degenerate scene is stopped after one
/// such window (as long as the former budget per output interval took, whatever the
/// interval), and the look, rare as it is, costs nothing measurable.
pub fn stall_window(n: usize) -> u64 {
    WINDOW_BASE + WINDOW_PER_BALL * n as u64
}

/// The stall guard's default budget is a physics parameter's default, kept with them.
pub use crate::physics::DEFAULT_EVENT_BUDGET;

/// Events closer in time than `GROUP_TOL * r_min / v_max` form one group: the balls
/// concerned are then at most `GROUP_TOL` of a radius from touching, a thousand times
/// above position round-off and far below anything physical.
pub(super) const GROUP_TOL: f64 = 1e-10;

/// Local times are measured from an epoch, moved forward (every event time rewritten)
/// once the clock would let a ball move `REBASE_AFTER` radii, at an instant of the
/// run's own clock rather than an interval's start (`interval::next_rebase`): the time resolution
/// `ulp(t)` then never costs more than about 1e-13 of a radius in position.
pub(super) const REBASE_AFTER: f64 = 1e3;

/// Cloning copies the whole state, predictions included: the clone continues exactly
/// as the original would.
#[derive(Clone)]
pub struct Event {
    // Settings.
    /// Whether the wide version of the event loop runs (see `isa.rs`).
    pub(super) wide: bool,
    /// Hard cap on the events of one output interval (`None`: none).
    pub(super) budget: Option<u64>,
    /// The stall guard's limit: events per ball while the fastest ball moves the
    /// smallest radius (`physics.event_budget`).
    pub(super) event_budget: f64,
    pub(super) audit: bool,
    pub(super) collapse_guard: bool,

    // Per ball.
    /// Local time of the state stored in `Balls` (epoch time).
    pub(super) t: Vec<f64>,
    pub(super) counter: Vec<u32>,
    /// Time of the last collision, and how many collisions in a row came within tc.
    /// What each ball's last collisions left: see [`History`].
    pub(super) hist: Vec<History>,

    /// The state of every ball changed in the current interval, as it was before the
    /// first change: put back when the step fails. O(events), not O(N).
    pub(super) undo: Vec<Undo>,
    /// Balls whose predictions are redone at the start of every interval (kinematic or
    /// resting balls under gravity); may hold balls that no longer need it.
    pub(super) quartic: Vec<u32>,

    pub(super) cells: Cells,
    /// Walls inside the table, pockets and open edges (`None`: the table alone, and
    /// every path as it was without them).
    pub(super) inner: Option<Box<Inner>>,
    /// Cloth friction: the law and every ball's phase (`None`: no cloth, and every
    /// path as it was without it). See `on_cloth.rs`.
    pub(super) cloth: Option<Box<OnCloth>>,
    /// Andersen's heat bath struck as events (`None`: none, and every path as it was
    /// without it). See `strikes.rs`.
    pub(super) strikes: Option<Box<Strikes>>,
    /// Scratch of a group on cloth that meets the table's walls (see `on_cloth.rs`).
    pub(super) cushion_group: Vec<Contact>,
    /// Balls of a group that struck a piece of wall inside the table (scratch).
    pub(super) piece_hits: Vec<u32>,
    /// Under gravity, a ball left resting on a wall inside the table by its last impact
    /// (its index in the model, the `[[walls]]` entry): what the model cannot continue
    /// yet, so the step fails (see `inner.rs`).
    pub(super) settled: Option<(u32, u32)>,
    /// Exits and ends of phases due in the same instant as a group, taken after it
    /// (scratch).
    pub(super) pending_exits: Vec<Ev>,
    pub(super) queue: Schedule,
    pub(super) solver: ContactSolver,
    /// The balls' identities in the model's layout while it works on its own (ball `k`
    /// of the layout is ball `order[k]`); empty: the balls' own order. See `renumber.rs`.
    pub(super) order: Vec<u32>,
    pub(super) renumber_from: usize,

    // Clock and per-interval parameters.
    pub(super) step_start: f64,
    pub(super) horizon: f64,
    /// Epoch time at which the epoch next moves (see `interval::next_rebase`), and the
    /// count of events when it last moved.
    pub(super) rebase_at: f64,
    pub(super) rebase_mark: u64,
    pub(super) eps_t: f64,
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
    /// Scratch of an impact across a sheared box's edge: each ball and the copy whose
    /// velocity it takes (`sliding.rs`).
    pub(super) slide: Vec<(u32, i32)>,
    pub(super) r_min: f64,
    /// Largest squared speed seen at the last rebuild or after a collision since.
    pub(super) v2_max: f64,
    /// `v2_max` when the epoch last moved or was rebuilt, and the speed gravity adds
    /// over an interval: what the time tolerance `eps_t` is made of.
    pub(super) v2_epoch: f64,
    pub(super) v_gain: f64,
    pub(super) serial: u32,
    /// Set by a prediction whose pair quartic is beyond its root finder's range (see
    /// `Kin::overflow`): the step fails.
    pub(super) overflow: std::cell::Cell<bool>,
    pub(super) needs_rebuild: bool,
    /// The event log of the steps not yet drained, when kept (times from the start of
    /// the step, balls by their own indices).
    pub(super) log: Option<Vec<crate::event_log::LoggedEvent>>,
    /// The pending rebuild continues from balls that were read (as a run resumed from
    /// a state file would begin): it forgets the collapse guard's memory as well.
    pub(super) resumed: bool,

    // Scratch, kept to avoid allocating inside a step.
    pub(super) group_events: Vec<Ev>,
    pub(super) cand: Vec<Ev>,
    pub(super) involved: Vec<u32>,
    pub(super) contacts: Vec<Contact>,
    pub(super) cluster: Vec<u32>,
    pub(super) by_ball: Vec<(u32, u32)>,
    pub(super) nbrs: Vec<u32>,
    pub(super) recent: [u32; 64],
    pub(super) recent_at: usize,

    // Statistics.
    pub(super) collisions: u64,
    pub(super) events: u64,
    pub(super) crossings: u64,
    /// The overlap audit's scratch and the deepest overlap it saw (`guard.rs`).
    pub(super) overlap: Audit,
    /// Sum of `r_ij . J_ij` over the pair collisions resolved two balls at a time (the
    /// contact solver keeps its own for groups), with its tensor `sum r_ij (x) J_ij`.
    pub(super) pair_virial: Virial,
    /// `pair_virial` and the solver's virial at the start of the interval, which a
    /// failed step puts back with the balls.
    pub(super) virial_at_start: (Virial, Virial),
}
