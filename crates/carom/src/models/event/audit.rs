//! The guards' state and the model's tallies: the caps and flags the guards read, what
//! they report to the run loop, the record of the latest events' balls, the overlap
//! audit's state (a debugging aid for tests, see `Event::set_overlap_audit`: an
//! independent broad phase, the positions it is built on, and the deepest overlap seen),
//! and the counts and virial of the events resolved. `guard.rs` does the guards' work.

use crate::broadphase::Grid;
use crate::stress::Virial;

/// The guards that keep a run from hanging or going on past what the model can follow.
#[derive(Clone)]
pub(super) struct Guards {
    /// Hard cap on the events of one output interval (`None`: none).
    pub(super) budget: Option<u64>,
    /// The stall guard's limit: events per ball while the fastest ball moves the
    /// smallest radius (`physics.event_budget`).
    pub(super) event_budget: f64,
    /// Whether the overlap audit runs after every event.
    pub(super) audit: bool,
    /// Whether the inelastic-collapse guard (the TC rule) is on.
    pub(super) collapse_guard: bool,
    /// The balls of the latest events (a ring of 64, `u32::MAX` where empty), named by
    /// the stall guard's error.
    pub(super) recent: [u32; 64],
    pub(super) recent_at: usize,
    /// Set by a prediction whose pair quartic is beyond its root finder's range (see
    /// `Kin::overflow`): the step fails.
    pub(super) overflow: std::cell::Cell<bool>,
    /// Under gravity, a ball left resting on a wall inside the table by its last impact
    /// (its index in the model, the `[[walls]]` entry): what the model cannot continue
    /// yet, so the step fails (see `inner.rs`).
    pub(super) settled: Option<(u32, u32)>,
    /// The overlap audit's scratch and the deepest overlap it saw.
    pub(super) overlap: Audit,
}

impl Guards {
    /// The guards for a model whose stall guard allows `event_budget`: no cap, the
    /// collapse guard on, the audit off, nothing reported.
    pub(super) fn new(event_budget: f64) -> Guards {
        Guards {
            budget: None,
            event_budget,
            audit: false,
            collapse_guard: true,
            recent: [u32::MAX; 64],
            recent_at: 0,
            overflow: std::cell::Cell::new(false),
            settled: None,
            overlap: Audit::new(),
        }
    }

    /// Ball `i` took part in the latest event.
    pub(super) fn note_recent(&mut self, i: u32) {
        self.recent[self.recent_at % self.recent.len()] = i;
        self.recent_at = self.recent_at.wrapping_add(1);
    }
}

/// What the events resolved so far add up to.
#[derive(Clone, Default)]
pub(super) struct Tally {
    /// Ball-ball and ball-wall contacts that received an impulse.
    pub(super) collisions: u64,
    /// Predictions that came due (the work the event budget limits).
    pub(super) events: u64,
    /// Cell crossings processed.
    pub(super) crossings: u64,
    /// Sum of `r_ij . J_ij` over the pair collisions resolved two balls at a time (the
    /// contact solver keeps its own for groups), with its tensor `sum r_ij (x) J_ij`.
    pub(super) pair_virial: Virial,
}

#[derive(Clone)]
pub(super) struct Audit {
    pub(super) grid: Grid,
    pub(super) x: Vec<f64>,
    pub(super) y: Vec<f64>,
    pub(super) pairs: Vec<(u32, u32)>,
    /// The deepest overlap seen, as a fraction of the smaller radius.
    pub(super) worst: f64,
}

impl Audit {
    pub(super) fn new() -> Audit {
        Audit {
            grid: Grid::new(),
            x: Vec::new(),
            y: Vec::new(),
            pairs: Vec::new(),
            worst: 0.0,
        }
    }
}
