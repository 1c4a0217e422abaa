//! The model's state: the parts its stages work on, the scratch they share, and the
//! constants they share. Each part is defined in a file below the stages (`records.rs`,
//! `clock.rs`, `audit.rs`, `phases.rs`, `bath.rs`, `cells.rs`, `queue/`, `inner.rs`) and
//! its work is done by the stage that owns it (see the model's notes); this file only
//! gathers the parts, so that every stage can reach them and none reaches the stages
//! through it.

use super::audit::{Guards, Tally};
use super::bath::Strikes;
use super::cells::Cells;
use super::clock::{Clock, Laws};
use super::inner::Inner;
use super::phases::OnCloth;
use super::queue::{Ev, Schedule};
use super::records::{Layout, Records, Rollback};
use crate::models::simultaneous::ContactSolver;
use crate::models::Contact;

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

/// Cloning copies the whole state, predictions included: the clone continues exactly
/// as the original would.
///
/// The state is held in parts, each the work of one stage: the per-ball records the
/// predictions read (`records.rs`), the interval's clock and laws (`clock.rs`), the
/// schedule (`queue/`), the grid (`cells.rs`), the walls inside the table (`inner.rs`),
/// the cloth (`phases.rs`), the heat bath (`bath.rs`), the guards and the tallies
/// (`audit.rs`) and the scratch of a group (below). Every part is held by value, its
/// arrays flat (one per field), so that a hot loop reads `self.rec.t[i]` as directly as
/// a field of the model; the parts a run may not use sit behind a box that is `None`
/// then.
#[derive(Clone)]
pub struct Event {
    /// Whether the wide version of the event loop runs (see `isa.rs`).
    pub(super) wide: bool,
    /// The caps, the guards' flags and what they report.
    pub(super) guard: Guards,
    /// Every ball's local time, event counter and collision history.
    pub(super) rec: Records,
    /// What a failed step puts back.
    pub(super) rollback: Rollback,
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
    pub(super) queue: Schedule,
    pub(super) solver: ContactSolver,
    /// The balls' identities while the model works on its own layout.
    pub(super) layout: Layout,

    /// The laws and the table of the current interval.
    pub(super) laws: Laws,
    /// The model's clock and the speeds and tolerances measured on it.
    pub(super) clock: Clock,
    /// Serial of the latest collision group (compared with the marks of each ball's `History`).
    pub(super) serial: u32,
    pub(super) needs_rebuild: bool,
    /// The pending rebuild continues from balls that were read (as a run resumed from
    /// a state file would begin): it forgets the collapse guard's memory as well.
    pub(super) resumed: bool,
    /// The event log of the steps not yet drained, when kept (times from the start of
    /// the step, balls by their own indices).
    pub(super) log: Option<Vec<crate::event_log::LoggedEvent>>,

    pub(super) scratch: Scratch,
    pub(super) tally: Tally,
}

/// Scratch of the stages, kept to avoid allocating inside a step: nothing in it
/// outlives the event or group that fills it.
#[derive(Clone, Default)]
pub(super) struct Scratch {
    /// The events of the group being resolved (`run.rs`, `resolve.rs`).
    pub(super) group_events: Vec<Ev>,
    /// Candidate contacts of a prediction (`predict.rs`).
    pub(super) cand: Vec<Ev>,
    /// The balls of a group, its contacts, a cluster of touching balls and each ball's
    /// contacts (`resolve.rs`).
    pub(super) involved: Vec<u32>,
    pub(super) contacts: Vec<Contact>,
    pub(super) cluster: Vec<u32>,
    pub(super) by_ball: Vec<(u32, u32)>,
    /// The balls near a cell crossing (`crossing.rs`).
    pub(super) nbrs: Vec<u32>,
    /// Balls of a group that struck a piece of wall inside the table.
    pub(super) piece_hits: Vec<u32>,
    /// Exits and ends of phases due in the same instant as a group, taken after it.
    pub(super) pending_exits: Vec<Ev>,
    /// A group on cloth that meets the table's walls (see `on_cloth.rs`).
    pub(super) cushion_group: Vec<Contact>,
    /// An impact across a sheared box's edge: each ball and the copy whose velocity it
    /// takes (`sliding.rs`).
    pub(super) slide: Vec<(u32, i32)>,
}
