//! Andersen's heat bath's parameters and clock: the part of the model's state that a
//! heat bath struck as events adds (`strikes.rs` strikes with it).

use crate::models::calendar::Calendar;
use crate::physics::Friction;
use crate::physics::Physics;
use crate::thermostat::{self, Thermostat};

/// The heat bath's parameters and clock.
#[derive(Debug, Clone)]
pub(super) struct Strikes {
    pub(super) temperature: f64,
    pub(super) rate: f64,
    pub(super) seed: u64,
    /// Per ball (in the model's layout): strikes so far, and the epoch time of the
    /// next one (infinite: none, for a kinematic ball or one out of play). Empty until
    /// the first interval (or a state's clock) sets them.
    pub(super) count: Vec<u64>,
    pub(super) at: Vec<f64>,
    /// The balls by `at` (those with a strike to come).
    pub(super) due: Calendar,
    /// Each ball struck in the current interval as it was before (ball, count, at),
    /// for a failed step to put back.
    pub(super) undo: Vec<(u32, u64, f64)>,
    /// Strikes so far (a statistic).
    pub(super) total: u64,
}

/// Whether the event model strikes with Andersen's bath as events for `physics`:
/// straight-line flight only (no gravity, no cloth). Otherwise the world applies the
/// bath at the end of each output interval, as the stepping models do at each step.
pub fn as_events(th: &Thermostat, physics: &Physics) -> bool {
    matches!(th, Thermostat::Andersen { .. })
        && physics.gravity == [0.0, 0.0]
        && !matches!(physics.friction, Friction::Cloth { .. })
}

impl Strikes {
    pub(super) fn new(temperature: f64, rate: f64, seed: u64) -> Strikes {
        Strikes {
            temperature,
            rate,
            seed,
            count: Vec::new(),
            at: Vec::new(),
            due: Calendar::default(),
            undo: Vec::new(),
            total: 0,
        }
    }

    /// Every ball with a strike to come filed afresh under its time.
    pub(super) fn file_all(&mut self) {
        let now = self.at.iter().copied().fold(f64::INFINITY, f64::min);
        let now = if now.is_finite() { now } else { 0.0 };
        self.due.build(self.at.iter().copied(), now, f64::INFINITY);
    }

    /// Every ball's clock from the start: no strike yet, the first due one wait after
    /// epoch time `now`. `id(i)`: ball `i`'s own index.
    pub(super) fn start(&mut self, n: usize, now: f64, id: impl Fn(usize) -> usize) {
        self.count.clear();
        self.count.resize(n, 0);
        self.at.clear();
        self.at.extend(
            (0..n).map(|i| now + thermostat::strike_wait(self.seed, id(i) as u64, 0, self.rate)),
        );
    }
}
