//! Event-model collisions per CPU-second in a sheared (Lees-Edwards) box against the
//! plain periodic box of the same disks: `cargo run --release -p carom --example
//! sheared_event_speed -- N COLLISIONS ROUNDS` (defaults 10000, 3000000 and 3). Equal
//! elastic unit disks at area fraction 0.5, melted from a square lattice at thermal
//! speed 1, sheared at `G = 0.01` (the copy slides at `G H`, 2.5 at 10^4 disks). Each
//! round runs the boxes in the order periodic, sheared, sheared, periodic, each until
//! `COLLISIONS` more collisions; the rate is collisions over the CPU time of the
//! running thread (`/proc/thread-self/schedstat`, wall time where that is missing), so
//! that other processes on the machine change it little. Prints each run and the
//! medians.

use std::time::Instant;

use carom::ModelKind;
use carom::{Ball, Physics, Table, World};

/// `n_side^2` unit disks on a square lattice at area fraction 0.5 (spacing sqrt(2 pi)),
/// with normal random velocities of spread 1; the box's side.
fn disks(n_side: usize) -> (Vec<Ball>, f64) {
    let spacing = (2.0 * std::f64::consts::PI).sqrt();
    let mut seed = 11u64;
    let mut uniform = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut normal = || {
        let (u1, u2) = (uniform(), uniform());
        (-2.0 * (1.0 - u1).ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    };
    let mut balls = Vec::with_capacity(n_side * n_side);
    for i in 0..n_side {
        for k in 0..n_side {
            let (x, y) = ((i as f64 + 0.5) * spacing, (k as f64 + 0.5) * spacing);
            balls.push(Ball::new(x, y, normal(), normal(), 1.0, 1.0));
        }
    }
    (balls, n_side as f64 * spacing)
}

/// The CPU time of this thread so far, in seconds (wall time from `start` where the
/// kernel does not say).
fn cpu_seconds(start: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or_else(|| start.elapsed().as_secs_f64(), |ns| ns * 1e-9)
}

/// Collisions per CPU-second of the event model on `balls` in `table`, over the next
/// `collisions` collisions after a warm-up of 20 time units (the lattice melts, the
/// streaming sets in).
fn rate(table: Table, balls: &[Ball], collisions: u64) -> f64 {
    let physics = Physics {
        model: ModelKind::Event,
        dt: 1.0,
        ..Physics::default()
    };
    let mut w = World::from_balls(table, physics, balls).unwrap();
    w.run_steps(20).unwrap();
    let start = Instant::now();
    let (c0, t0) = (w.collisions(), cpu_seconds(start));
    while w.collisions() - c0 < collisions {
        w.run_steps(1).unwrap();
    }
    (w.collisions() - c0) as f64 / (cpu_seconds(start) - t0)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        0.5 * (v[m - 1] + v[m])
    }
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(10_000);
    let collisions = args.get(1).copied().unwrap_or(3_000_000);
    let rounds = args.get(2).copied().unwrap_or(3);
    let n_side = (n as f64).sqrt().round() as usize;
    let (balls, side) = disks(n_side);
    let plain_box = Table::periodic(side, side);
    let sheared_box = Table::sheared(side, side, 0.01, 0.0);
    let (mut plain, mut sheared) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let p1 = rate(plain_box, &balls, collisions);
        let s1 = rate(sheared_box, &balls, collisions);
        let s2 = rate(sheared_box, &balls, collisions);
        let p2 = rate(plain_box, &balls, collisions);
        println!(
            "round {round}: periodic {:.3e} {:.3e}, sheared {:.3e} {:.3e} collisions/CPU-s",
            p1, p2, s1, s2
        );
        plain.extend([p1, p2]);
        sheared.extend([s1, s2]);
    }
    let (p, s) = (median(&mut plain), median(&mut sheared));
    println!(
        "{} disks: median periodic {p:.3e}, sheared {s:.3e} collisions per CPU-second ({:+.1}%)",
        balls.len(),
        100.0 * (s / p - 1.0)
    );
}
