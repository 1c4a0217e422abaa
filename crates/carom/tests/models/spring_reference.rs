//! The optimised spring step (neighbour list with a skin, contacts found in parallel
//! blocks, forces accumulated per ball, fused kick and drift) against a plain reference
//! step written here from the model's definition: balls binned afresh every step into
//! square cells one largest diameter wide, every ball tested against every other ball
//! of its 3x3 block of cells, forces summed ball by ball, then `v += dt a; x += dt v`.
//!
//! Each step of the world is compared with one reference step taken from the same
//! state, so differences cannot grow chaotically: what remains is only the order in
//! which a ball's contact forces are summed. A force of magnitude F summed in another
//! order differs by a few ulps of F; with F up to k * r = 3e3 here, dt = 1e-3 turns that
//! into ~1e-15 in a velocity and ~1e-18 in a position, so 1e-12 (absolute, on values of
//! order 1 to 100) leaves a wide margin and still catches any missed or doubled contact
//! (which changes a velocity by dt k s, at least ~1e-6 for the overlaps seen here).

use carom::Integrator;
use carom::ModelKind;
use carom::{Ball, Balls, Physics, Table, World};

/// One reference step of the spring model with the semi-implicit Euler scheme.
/// Returns the new state and the contacts that began (pairs and walls).
#[allow(clippy::needless_range_loop)] // indices are ball identities, as in the model
fn reference_step(b: &Balls, table: &Table, p: &Physics) -> (Balls, u64) {
    let n = b.len();
    let (k, dt, unload) = (p.stiffness, p.dt, p.restitution * p.restitution);
    // The force factor: 1 while the surfaces approach, e^2 while they separate; in the
    // step where the loading force alone would turn the approach (raise the normal
    // separation speed past 0, by dt k s w), the part of the step before the turn is
    // loading and the rest unloading.
    let factor = |vn: f64, s: f64, w: f64| -> f64 {
        if vn > 0.0 {
            return unload;
        }
        let gain = dt * k * s * w;
        if gain > -vn {
            let loading = -vn / gain;
            loading + (1.0 - loading) * unload
        } else {
            1.0
        }
    };
    // Cells at least one largest diameter wide: touching balls are in the same or
    // adjacent cells. Balls pushed past a wall are binned with the edge cells.
    let cell = 2.0 * b.r.iter().copied().fold(0.0, f64::max);
    let (nx, ny) = (
        ((table.width / cell) as usize).max(1),
        ((table.height / cell) as usize).max(1),
    );
    let coords = |i: usize| {
        let cx = ((b.x[i].max(0.0) / cell) as usize).min(nx - 1);
        let cy = ((b.y[i].max(0.0) / cell) as usize).min(ny - 1);
        (cx, cy)
    };
    let mut cells = vec![Vec::new(); nx * ny];
    for i in 0..n {
        let (cx, cy) = coords(i);
        cells[cy * nx + cx].push(i);
    }
    let mut f = vec![(0.0f64, 0.0f64); n];
    let mut began = 0;
    for i in 0..n {
        let (cx, cy) = coords(i);
        let mut near = Vec::new();
        for gy in cy.saturating_sub(1)..=(cy + 1).min(ny - 1) {
            for gx in cx.saturating_sub(1)..=(cx + 1).min(nx - 1) {
                near.extend_from_slice(&cells[gy * nx + gx]);
            }
        }
        for j in near {
            if i == j {
                continue;
            }
            let (dx, dy) = (b.x[j] - b.x[i], b.y[j] - b.y[i]);
            let reach = b.r[i] + b.r[j];
            let d = (dx * dx + dy * dy).sqrt();
            if d >= reach {
                continue;
            }
            // Unit normal from i to j; coincident centres never occur in these scenes.
            let (nx, ny) = (dx / d, dy / d);
            let (dvx, dvy) = (b.vx[j] - b.vx[i], b.vy[j] - b.vy[i]);
            let s = reach - d;
            let mag = k * s * factor(dvx * nx + dvy * ny, s, b.inv_m[i] + b.inv_m[j]);
            f[i].0 -= mag * nx;
            f[i].1 -= mag * ny;
            // A contact begins when the pair did not overlap one step ago, positions
            // then being x - dt v: counted once, at the lower index.
            let (px, py) = (dx - dt * dvx, dy - dt * dvy);
            if i < j && (px * px + py * py).sqrt() >= reach {
                began += 1;
            }
        }
        // Walls: the penetration pushes back along the inward normal.
        let w = b.inv_m[i];
        for (axis, size) in [(0, table.width), (1, table.height)] {
            let (pos, v) = if axis == 0 {
                (b.x[i], b.vx[i])
            } else {
                (b.y[i], b.vy[i])
            };
            let r = b.r[i];
            let (low, high) = (r - pos, pos + r - size);
            let (push, prev) = if low > 0.0 {
                (k * low * factor(v, low, w), r - (pos - dt * v))
            } else if high > 0.0 {
                (-k * high * factor(-v, high, w), (pos - dt * v) + r - size)
            } else {
                continue;
            };
            if axis == 0 {
                f[i].0 += push;
            } else {
                f[i].1 += push;
            }
            if prev <= 0.0 {
                began += 1;
            }
        }
    }
    let mut out = b.clone();
    for i in 0..n {
        let w = b.inv_m[i];
        let g = if w > 0.0 { 1.0 } else { 0.0 };
        out.vx[i] += dt * (f[i].0 * w + g * p.gravity[0]);
        out.vy[i] += dt * (f[i].1 * w + g * p.gravity[1]);
        out.x[i] += dt * out.vx[i];
        out.y[i] += dt * out.vy[i];
    }
    (out, began)
}

/// A dense random scene: `n` balls on a jittered grid with random speeds, so that
/// contacts form and end all the time and the neighbour list is rebuilt often.
/// `uniform` gives every ball the same radius and mass (the fast path); otherwise radii
/// and masses vary and a few balls are kinematic.
fn scene(n: usize, uniform: bool, seed: u64) -> (Table, Vec<Ball>) {
    let mut rng = carom::SplitMix64(seed);
    let cols = (n as f64).sqrt().ceil() as usize;
    let pitch = 3.2;
    let side = cols as f64 * pitch;
    let table = Table::new(side, side);
    let balls = (0..n)
        .map(|k| {
            let (cx, cy) = ((k % cols) as f64, (k / cols) as f64);
            let (r, m) = if uniform {
                (1.0, 1.0)
            } else {
                (0.6 + 0.9 * rng.unit(), 0.5 + 1.5 * rng.unit())
            };
            let mut b = Ball::new(
                (cx + 0.5) * pitch + 0.3 * rng.symmetric(),
                (cy + 0.5) * pitch + 0.3 * rng.symmetric(),
                8.0 * rng.symmetric(),
                8.0 * rng.symmetric(),
                r,
                m,
            );
            b.kinematic = !uniform && k % 997 == 3;
            b
        })
        .collect();
    (table, balls)
}

fn compare(uniform: bool, restitution: f64, gravity: [f64; 2], threads: usize) {
    compare_scene(uniform, false, restitution, gravity, threads);
}

fn compare_scene(
    uniform: bool,
    shuffled: bool,
    restitution: f64,
    gravity: [f64; 2],
    threads: usize,
) {
    // Many more balls than one parallel block, so that block boundaries are crossed.
    let n = 5000;
    let (table, mut balls) = scene(n, uniform, 7 + threads as u64);
    if shuffled {
        // Neighbours then have unrelated indices: pairs reach from any block into any
        // later one, not just the next.
        let mut rng = carom::SplitMix64(99);
        for k in (1..n).rev() {
            balls.swap(k, (rng.next_u64() % (k as u64 + 1)) as usize);
        }
    }
    let physics = Physics {
        model: ModelKind::Spring,
        integrator: Integrator::SemiImplicitEuler,
        dt: 1e-3,
        stiffness: 2000.0,
        restitution,
        gravity,
        ..Physics::default()
    };
    let mut w = World::from_balls(table, physics, &balls).unwrap();
    w.set_threads(threads).unwrap();
    let mut contacts = 0;
    for step in 0..120 {
        let before = w.balls().clone();
        let (expected, began) = reference_step(&before, &table, &physics);
        let c0 = w.collisions();
        w.step().unwrap();
        let got = w.balls();
        let mut worst: f64 = 0.0;
        for i in 0..n {
            for (a, b) in [
                (got.x[i], expected.x[i]),
                (got.y[i], expected.y[i]),
                (got.vx[i], expected.vx[i]),
                (got.vy[i], expected.vy[i]),
            ] {
                worst = worst.max((a - b).abs());
            }
        }
        assert!(
            worst < 1e-12,
            "step {step}: optimised and reference steps differ by {worst}"
        );
        assert_eq!(w.collisions() - c0, began, "step {step}: contacts begun");
        contacts += began;
    }
    // The comparison means something only if contacts happened throughout.
    assert!(
        contacts > 500,
        "too few contacts to test anything: {contacts}"
    );
}

#[test]
fn uniform_elastic_gas_matches_the_reference_step() {
    compare(true, 1.0, [0.0, 0.0], 1);
    compare(true, 1.0, [0.0, 0.0], 2);
}

#[test]
fn mixed_inelastic_scene_under_gravity_matches_the_reference_step() {
    compare(false, 0.6, [0.0, 30.0], 1);
    compare(false, 0.6, [0.0, 30.0], 2);
}

#[test]
fn shuffled_scene_matches_the_reference_step() {
    compare_scene(true, true, 0.8, [0.0, 0.0], 1);
    compare_scene(true, true, 0.8, [0.0, 0.0], 2);
}
