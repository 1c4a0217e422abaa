//! Spring steps per second in a sheared (Lees-Edwards) box against the plain periodic
//! box of the same grains: `cargo run --release -p carom --example sheared_speed -- N
//! STEPS [periodic|sheared]` (defaults 10000 and 200). Dense frictional polydisperse
//! disks on a lattice (area fraction about 0.8), one thread; each box runs twice, in the
//! order periodic, sheared, sheared, periodic, or only the box named.

use std::time::Instant;

use carom::ModelKind;
use carom::{Ball, ContactFriction, Physics, Table, World};

fn grains(n_side: usize) -> (Vec<Ball>, f64) {
    let spacing = 2.0;
    let mut balls = Vec::with_capacity(n_side * n_side);
    let mut seed = 7u64;
    for i in 0..n_side {
        for k in 0..n_side {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let u = (seed >> 11) as f64 / (1u64 << 53) as f64;
            let r = 0.9 + 0.1 * u;
            let (x, y) = ((i as f64 + 0.5) * spacing, (k as f64 + 0.5) * spacing);
            balls.push(Ball::new(x, y, 0.0, 0.0, r, r * r));
        }
    }
    (balls, n_side as f64 * spacing)
}

fn steps_per_second(table: Table, balls: &[Ball], steps: u64) -> f64 {
    let physics = Physics {
        model: ModelKind::Spring,
        dt: 0.01,
        stiffness: 1000.0,
        restitution: 0.5,
        contact_friction: ContactFriction {
            mu: 0.4,
            ..ContactFriction::default()
        },
        ..Physics::default()
    };
    let mut w = World::from_balls(table, physics, balls).unwrap();
    w.set_threads(1).unwrap();
    // Warm up (the streaming develops, the neighbour list settles), then time.
    w.run_steps(steps / 4).unwrap();
    let t0 = Instant::now();
    w.run_steps(steps).unwrap();
    steps as f64 / t0.elapsed().as_secs_f64()
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(10_000);
    let steps = args.get(1).copied().unwrap_or(200);
    let n_side = (n as f64).sqrt().round() as usize;
    let (balls, side) = grains(n_side);
    // G = 0.01: the images slide by G H dt per step, a hundredth of a diameter at 1e4.
    let sheared_box = Table::sheared(side, side, 0.01, 0.0);
    // One box alone (`periodic` or `sheared`), for timing whole processes against each
    // other from outside, by their CPU time.
    let only = std::env::args().find(|a| a == "periodic" || a == "sheared");
    if let Some(kind) = only {
        let table = if kind == "sheared" {
            sheared_box
        } else {
            Table::periodic(side, side)
        };
        let rate = steps_per_second(table, &balls, steps);
        println!("{} grains, {kind}: {rate:.1} steps/s", balls.len());
        return;
    }
    // In the order periodic, sheared, sheared, periodic, each rate the mean of its two
    // runs, so that what the first run pays alone (the memory it touches first) and a
    // drift of the machine's load fall on both alike.
    let p1 = steps_per_second(Table::periodic(side, side), &balls, steps);
    let s1 = steps_per_second(sheared_box, &balls, steps);
    let s2 = steps_per_second(sheared_box, &balls, steps);
    let p2 = steps_per_second(Table::periodic(side, side), &balls, steps);
    let (plain, sheared) = (0.5 * (p1 + p2), 0.5 * (s1 + s2));
    println!(
        "{} grains: periodic {plain:.1} steps/s, sheared {sheared:.1} steps/s ({:+.1}%)",
        balls.len(),
        100.0 * (sheared / plain - 1.0)
    );
}
