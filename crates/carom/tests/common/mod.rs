//! Helpers shared by the physics tests.
#![allow(dead_code)]

use carom::scenario::{Integrator, ModelKind};
use carom::{Ball, Physics, Table, World};

pub fn physics(model: ModelKind) -> Physics {
    Physics {
        model,
        ..Physics::default()
    }
}

pub fn spring(integrator: Integrator) -> Physics {
    Physics {
        model: ModelKind::Spring,
        integrator,
        ..Physics::default()
    }
}

pub fn world(table: Table, physics: Physics, balls: &[Ball]) -> World {
    World::from_balls(table, physics, balls).expect("test world builds")
}

pub fn big_table() -> Table {
    Table::new(10_000.0, 10_000.0)
}

/// Runs until `done(world)` or `max_steps`; returns the steps taken.
pub fn run_until(w: &mut World, max_steps: u64, mut done: impl FnMut(&World) -> bool) -> u64 {
    for k in 0..max_steps {
        if done(w) {
            return k;
        }
        w.step().expect("step");
    }
    max_steps
}

/// Overlap of balls i and j (positive when they interpenetrate).
pub fn overlap(w: &World, i: usize, j: usize) -> f64 {
    let b = w.balls();
    b.r[i] + b.r[j] - (b.x[j] - b.x[i]).hypot(b.y[j] - b.y[i])
}

/// Relative difference, safe at zero.
pub fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / a.abs().max(b.abs()).max(1e-300)
}
