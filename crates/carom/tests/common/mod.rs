//! Helpers shared by the physics tests.
#![allow(dead_code)]

pub mod fixtures;
pub mod scene;

use carom::Integrator;
use carom::ModelKind;
use carom::{Ball, Balls, Physics, Table, World};

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

/// Every number of every ball, bit for bit (`what` names the run in a failure).
pub fn assert_same_bits(what: &str, a: &Balls, b: &Balls) {
    assert_eq!(a.len(), b.len(), "{what}: ball counts");
    let arrays = |z: &Balls| {
        [&z.x, &z.y, &z.vx, &z.vy, &z.r, &z.m, &z.angle, &z.omega]
            .map(|v| v.iter().map(|f| f.to_bits()).collect::<Vec<u64>>())
    };
    for (k, (u, v)) in arrays(a).iter().zip(arrays(b).iter()).enumerate() {
        if let Some(i) = (0..u.len()).find(|&i| u[i] != v[i]) {
            panic!(
                "{what}: array {k} differs first at ball {i}: {} vs {}",
                f64::from_bits(u[i]),
                f64::from_bits(v[i])
            );
        }
    }
    assert_eq!((&a.ix, &a.iy), (&b.ix, &b.iy), "{what}: image counts");
}

/// `int_0^b f` by Simpson's rule on 20,000 intervals: for the smooth integrands of the
/// tests (times along a circle from the energy integral) its error is far below 1e-12.
pub fn simpson(f: impl Fn(f64) -> f64, b: f64) -> f64 {
    let n = 20_000;
    let h = b / n as f64;
    let mut sum = f(0.0) + f(b);
    for k in 1..n {
        sum += f(k as f64 * h) * if k % 2 == 1 { 4.0 } else { 2.0 };
    }
    sum * h / 3.0
}

/// Asserts that ball 0 of `w` is where free flight under gravity `g` (along +y) takes
/// a centre from `p` with velocity `v` in time `tau`, within `tol`.
pub fn assert_in_flight(
    w: &World,
    p: [f64; 2],
    v: [f64; 2],
    g: f64,
    tau: f64,
    tol: f64,
    what: &str,
) {
    let want = [p[0] + v[0] * tau, p[1] + v[1] * tau + 0.5 * g * tau * tau];
    let b = w.balls();
    assert!(
        (b.x[0] - want[0]).abs() < tol && (b.y[0] - want[1]).abs() < tol,
        "{what}: ({}, {}) against {want:?}",
        b.x[0],
        b.y[0]
    );
}

/// Deterministic numbers in [0, 1) (a 64-bit LCG's high bits): reproducible scenes
/// with no dependency.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A standard normal (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let (u1, u2) = (self.next(), self.next());
        (-2.0 * (1.0 - u1).ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }
}

/// The mean of `v` and its standard error (sample variance over n, square root),
/// for independent samples such as block means.
pub fn mean_and_error(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// FNV-1a over the little-endian bytes of `words`: the fingerprint the bit-for-bit
/// tests pin (a state's positions, velocities and spins as `f64::to_bits`, and
/// counters), so that one changed bit anywhere changes it.
pub fn fnv1a(words: impl IntoIterator<Item = u64>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for byte in w.to_le_bytes() {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}
