//! Helpers of the tests of pool balls on cloth in the `event` model: a pool ball in SI
//! units, the cloth's default coefficients, worlds and the log's rows.
#![allow(dead_code)]

use carom::event_log::{EventKind, LoggedEvent};
use carom::solid_sphere_inertia;
use carom::Friction;
use carom::ModelKind;
use carom::Phase;
use carom::{Ball, Physics, Table, World};

/// A pool ball (SI units): radius 28.575 mm, mass 0.17 kg.
pub const R: f64 = 0.028575;

pub const M: f64 = 0.17;

pub const G: f64 = 9.81;

/// The cloth's default coefficients (`Friction::cloth`).
pub const MU_S: f64 = 0.2;

pub const MU_R: f64 = 0.01;

pub const MU_SP: f64 = 0.0127;

pub fn cloth() -> Friction {
    Friction::cloth(G)
}

pub fn physics(e: f64, dt: f64) -> Physics {
    Physics {
        model: ModelKind::Event,
        dt,
        restitution: e,
        friction: cloth(),
        ..Default::default()
    }
}

/// A solid sphere on cloth at `(x, y)` with velocity `v` and spins `w = [wx, wy, omega]`.
pub fn ball(x: f64, y: f64, v: [f64; 2], w: [f64; 3]) -> Ball {
    let mut b = Ball::new(x, y, v[0], v[1], R, M);
    b.inertia = solid_sphere_inertia(M, R);
    (b.wx, b.wy, b.omega) = (w[0], w[1], w[2]);
    b
}

pub fn world(table: (f64, f64), p: Physics, balls: &[Ball]) -> World {
    let mut w = World::from_balls(Table::new(table.0, table.1), p, balls).unwrap();
    w.set_event_log(true);
    w
}

pub fn phase_rows(w: &World, i: u32) -> Vec<LoggedEvent> {
    w.event_log()
        .iter()
        .filter(|r| r.kind == EventKind::PhaseChange && r.i == i)
        .copied()
        .collect()
}

pub fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// The ball-ball rows of the log.
pub fn pair_rows(w: &World) -> Vec<LoggedEvent> {
    w.event_log()
        .iter()
        .filter(|r| r.kind == EventKind::BallBall)
        .copied()
        .collect()
}

/// Runs `w` in steps of its `dt` until ball `i` has entered `phase` after time `after`
/// (per the log), at most `max` steps; returns that row.
pub fn run_until_phase(w: &mut World, i: u32, phase: Phase, after: f64, max: u64) -> LoggedEvent {
    for _ in 0..max {
        w.run_steps(1).unwrap();
        if let Some(r) = phase_rows(w, i)
            .into_iter()
            .find(|r| r.phase == Some(phase) && r.time > after)
        {
            return r;
        }
    }
    panic!("ball {i} never entered {phase:?} after {after}");
}

/// The sliding ball's deceleration and the time a ball that slides with it from `v0`
/// covers `l` (the smaller root of `v0 t - a t^2 / 2 = l`, in the stable form).
pub fn time_to_cover(v0: f64, a: f64, l: f64) -> f64 {
    2.0 * l / (v0 + (v0 * v0 - 2.0 * a * l).sqrt())
}

/// A small pseudo-random stream for the scenes below (any will do; fixed seed).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Runs `w` in its steps until every ball is at rest (at most `max` steps), checking
/// that the total energy never rises by more than 1e-12 of its start (round-off of
/// sums over a few dozen balls, see `energy_never_rises_over_a_break_on_cloth`).
pub fn run_to_rest(w: &mut World, max: u64, what: &str) {
    let e0 = w.diagnostics().total_energy;
    let mut last = e0;
    for step in 0..max {
        if let Err(e) = w.run_steps(1) {
            panic!("{what}, step {step}: {e}");
        }
        let e = w.diagnostics().total_energy;
        assert!(
            e <= last + 1e-12 * e0,
            "{what}: energy rose from {last} to {e}"
        );
        last = e;
        if e == 0.0 {
            return;
        }
    }
    panic!("{what}: still moving after {max} steps");
}
