//! Contact friction and rotation in many-body and continuous-contact physics:
//! equipartition of a perfectly rough gas, a disk sliding into rolling on a spring
//! floor, the frictional column's heap, the spring model's determinism, and the
//! simultaneous model's cluster treatment.

use carom::parse::build_world;
use carom::presets::find;
use carom::ModelKind;
use carom::{Ball, ContactFriction, Physics, Table, World};

fn rough(mu: f64, beta: f64) -> ContactFriction {
    ContactFriction {
        rolling_mu: 0.0,
        mu,
        tangential_restitution: beta,
        tangential_stiffness: None,
    }
}

/// A perfectly rough (beta = 1, no Coulomb cap) elastic gas has one rotational and two
/// translational degrees of freedom per disk; at equilibrium each holds kT/2, so the
/// rotational energy is half the translational. The gas starts with no spin at all.
/// Sampled 40 times after the exchange has relaxed (a few collisions per disk), the
/// ratio's average has a statistical error of about sqrt(2/N) / sqrt(samples) for N
/// disks (chi-square fluctuations of the two sums, samples taken several collision
/// times apart): 0.07 / 6 = 0.012 at N = 400, so 0.05 is four standard errors.
#[test]
fn perfectly_rough_elastic_gas_reaches_equipartition() {
    let mut balls = Vec::new();
    let mut seed: u64 = 12345;
    let mut rnd = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    for gx in 0..20 {
        for gy in 0..20 {
            balls.push(Ball::new(
                5.0 + 10.0 * gx as f64,
                5.0 + 10.0 * gy as f64,
                2.0 * rnd(),
                2.0 * rnd(),
                2.0,
                1.0,
            ));
        }
    }
    let physics = Physics {
        model: ModelKind::Event,
        dt: 1.0,
        contact_friction: rough(1e12, 1.0),
        ..Physics::default()
    };
    let mut w = World::from_balls(Table::new(200.0, 200.0), physics, &balls).unwrap();
    // Relaxation: every disk collides tens of times.
    w.run_steps(600).unwrap();
    assert!(w.collisions() > 20 * 400, "{} collisions", w.collisions());
    let mut sum = 0.0;
    for _ in 0..40 {
        w.run_steps(20).unwrap();
        let d = w.diagnostics();
        sum += d.rotational_energy / (d.kinetic_energy - d.rotational_energy);
    }
    let ratio = sum / 40.0;
    assert!((ratio - 0.5).abs() < 0.05, "E_rot / E_trans = {ratio}");
}

/// A solid disk set sliding on a spring floor without spin: Coulomb friction
/// `mu m g` brakes it and spins it up until it rolls, at `v0 / (1 + m r^2 / I)` =
/// `2 v0 / 3`. Every step the friction force stays within `mu` times the floor's
/// normal force, and the energy (kinetic with rotation, both springs, gravity) never
/// grows beyond what the explicit step's oscillation error allows.
#[test]
fn a_sliding_disk_rolls_at_two_thirds_of_its_speed_on_the_spring_floor() {
    let (m, r, g, k, mu, v0, dt) = (1.0, 1.0, 10.0, 1e4, 0.3, 2.0, 1e-3);
    let height = 50.0;
    // Resting on the floor at its equilibrium overlap m g / k.
    let ball = Ball::new(20.0, height - r + m * g / k, v0, 0.0, r, m);
    let physics = Physics {
        model: ModelKind::Spring,
        dt,
        gravity: [0.0, g],
        stiffness: k,
        // Elastic normal springs: the normal spring's energy then has no hysteresis
        // (with e < 1 it is counted at e^2 while the surfaces separate, which jumps as
        // the resting disk's tiny vertical oscillation turns), so only friction acts.
        restitution: 1.0,
        contact_friction: rough(mu, 0.0),
        ..Physics::default()
    };
    let mut w = World::from_balls(Table::new(200.0, height), physics, &[ball]).unwrap();
    // The springs' energy error of the explicit step is bounded by about w dt times the
    // energy they store (w the contact's angular frequency, sqrt(k/m) for the normal
    // spring and the same for the tangential one by the default stiffness); the
    // normal one holds at most (m g)^2 / 2k near equilibrium, the tangential one
    // (mu m g)^2 / (2 k / 3). Twice their sum is the allowance.
    let w_dt = (k / m).sqrt() * dt;
    let allowance =
        2.0 * w_dt * ((m * g).powi(2) / (2.0 * k) + (mu * m * g).powi(2) / (2.0 * k / 3.0));
    let mut lowest = w.diagnostics().total_energy;
    let mut speeds = Vec::new();
    for step in 0..2000 {
        let before = w.balls().get(0);
        w.step().unwrap();
        let after = w.balls().get(0);
        // The only horizontal force is the floor's friction; the floor's normal force
        // is what, with gravity, changes the vertical velocity.
        let f_t = m * (after.vx - before.vx) / dt;
        let f_n = m * (g - (after.vy - before.vy) / dt);
        assert!(
            f_t.abs() <= mu * f_n * (1.0 + 1e-9) + 1e-9,
            "step {step}: friction {f_t} beyond mu times {f_n}"
        );
        let e = w.diagnostics().total_energy;
        assert!(
            e <= lowest + allowance,
            "step {step}: energy {e} grew from {lowest}"
        );
        lowest = lowest.min(e);
        if step >= 1000 {
            speeds.push((after.vx, after.omega));
        }
    }
    // Rolling: averaged over the last thousand steps (some thirty periods of the stuck
    // spring's oscillation, whose amplitude is ~ mu g / w = 3e-3), the speed is 2 v0 / 3
    // and the contact point is at rest (the floor contact's slip is -vx + omega r, the
    // bottom wall's tangent being -x: so omega r = vx, turning +x towards +y).
    let n = speeds.len() as f64;
    let vx = speeds.iter().map(|s| s.0).sum::<f64>() / n;
    let wr = speeds.iter().map(|s| s.1 * r).sum::<f64>() / n;
    // The sliding phase lasts v0 / (3 mu g) = 0.22 = 222 steps: its discretisation
    // shifts the end speed by O(dt / 0.22) = 0.5%.
    assert!(
        (vx - 2.0 * v0 / 3.0).abs() < 0.01 * v0,
        "rolling speed {vx}"
    );
    assert!(
        (wr - vx).abs() < 0.01 * v0,
        "rolling: omega r = {wr}, vx = {vx}"
    );
}

fn column(mu: Option<f64>, threads: usize) -> World {
    let mut s = find("column").unwrap().scenario().unwrap();
    if let Some(mu) = mu {
        s.physics.contact_friction.mu = mu;
    }
    let mut w = build_world(&s).unwrap();
    w.set_threads(threads).unwrap();
    w
}

/// Height of the pile: from the floor to the top of the disks, ignoring the highest 5%
/// (a few disks thrown up by the collapse, or still bouncing, are not the pile).
fn pile_height(w: &World) -> f64 {
    let b = w.balls();
    let mut tops: Vec<f64> = (0..b.len())
        .map(|i| w.table().height - (b.y[i] - b.r[i]))
        .collect();
    tops.sort_by(f64::total_cmp);
    tops[tops.len() * 95 / 100]
}

/// The `column` preset collapses: with friction it stops as a heap, without friction
/// the disks flow out over the floor. 400 disks of mean area 2.14 spread over the
/// 200-wide floor make a layer about 400 * 2.14 / 200 / 0.85 = 5 high (at a random
/// close packing of 0.85); with friction the disks lock into a heap that keeps a
/// finite slope (disks without rolling resistance roll, so the slope is modest). The
/// frictionless layer still sloshes long after the collapse (its only dissipation is
/// the normal springs' hysteresis), so its height is averaged over 4000 steps and
/// comes out at 7 to 8 (loose and moving, above the 5 of a packed layer); the heap
/// measures 13. The test asks for 1.5 times: a clear margin above the layer's
/// fluctuations (about 1), and the difference a frictionless flow cannot make. The frictional heap must have stopped: its height unchanged
/// over its last 2000 steps (a few disks that rolled off keep rolling: disks without
/// rolling resistance do, so the whole kinetic energy does not vanish).
#[test]
fn the_frictional_column_stops_as_a_heap_taller_than_the_frictionless_layer() {
    let mut w = column(None, 2);
    w.run_steps(8000).unwrap();
    let settled = pile_height(&w);
    w.run_steps(2000).unwrap();
    let heap = pile_height(&w);
    assert!(
        (heap - settled).abs() < 1e-3,
        "heap still moving: {settled} -> {heap}"
    );

    let mut w = column(Some(0.0), 2);
    w.run_steps(12000).unwrap();
    let mut layer = 0.0;
    for _ in 0..4 {
        w.run_steps(1000).unwrap();
        layer += pile_height(&w) / 4.0;
    }
    assert!(
        heap > 1.5 * layer,
        "heap {heap} vs frictionless layer {layer}"
    );
}

/// The tangential springs' history is kept per contact and summed in list order: the
/// frictional spring step gives the same bits on one thread and on two.
#[test]
fn frictional_spring_step_is_thread_count_independent() {
    let mut one = column(None, 1);
    let mut two = column(None, 2);
    one.run_steps(1500).unwrap();
    two.run_steps(1500).unwrap();
    assert!(one.collisions() > 0);
    assert!(
        one.balls() == two.balls(),
        "states differ between 1 and 2 threads"
    );
}

/// Frictional impacts in the simultaneous model (the break: clusters of touching balls
/// hit at once): momentum is kept to round-off, energy never gained, and spins appear.
#[test]
fn simultaneous_friction_keeps_momentum_and_never_gains_energy() {
    let mut s = find("break").unwrap().scenario().unwrap();
    s.physics.model = Some(ModelKind::Simultaneous);
    s.physics.contact_friction.mu = 0.4;
    s.physics.contact_friction.tangential_restitution = 0.6;
    let mut w = build_world(&s).unwrap();
    let d0 = w.diagnostics();
    let mut last = d0.total_energy;
    for _ in 0..2000 {
        w.step().unwrap();
        let d = w.diagnostics();
        // Walls take momentum: compare only before the first wall contact, via the
        // energy bound, and the momentum over the break itself below.
        assert!(d.total_energy <= last * (1.0 + 1e-12), "energy gained");
        last = d.total_energy;
    }
    assert!(w.diagnostics().rotational_energy > 0.0);
    // The break itself (before any ball can reach a wall): momentum to round-off.
    let mut w = build_world(&s).unwrap();
    let p0 = w.diagnostics().momentum;
    w.run_steps(1000).unwrap();
    let p1 = w.diagnostics().momentum;
    assert!(w.collisions() > 10);
    assert!((p1[0] - p0[0]).abs() < 1e-12 * 8.0 && (p1[1] - p0[1]).abs() < 1e-12 * 8.0);
}

/// A kinematic ball spins as prescribed: its angle turns at its own omega
/// (`angle = omega t`), contacts never change its spin, and the dynamic ball it rubs against
/// picks up spin from it (in every hard model, and in the spring model).
#[test]
fn kinematic_balls_spin_as_prescribed_and_drive_the_balls_they_touch() {
    for model in [
        ModelKind::Impulse,
        ModelKind::Simultaneous,
        ModelKind::Event,
        ModelKind::Spring,
    ] {
        let mut wheel = Ball::new(50.0, 50.0, 0.0, 0.0, 10.0, 1.0);
        wheel.kinematic = true;
        wheel.omega = 0.5;
        // A ball moving straight at the wheel's centre: only friction can spin it.
        let ball = Ball::new(50.0, 75.0, 0.0, -1.0, 5.0, 1.0);
        let physics = Physics {
            model,
            dt: 0.0078125,
            stiffness: 500.0,
            contact_friction: rough(0.5, 0.0),
            ..Physics::default()
        };
        let mut w = World::from_balls(Table::new(100.0, 100.0), physics, &[wheel, ball]).unwrap();
        w.run_steps(2048).unwrap();
        let (k, b) = (w.balls().get(0), w.balls().get(1));
        assert_eq!(k.omega, 0.5, "{model:?}: the kinematic spin changed");
        // Exact for the stepped models; the event model turns it piecewise between
        // collision times, which sums to 8 up to round-off.
        assert!(
            (k.angle - 0.5 * 16.0).abs() < 1e-12,
            "{model:?}: angle {}",
            k.angle
        );
        assert!(
            w.collisions() > 0 && b.omega != 0.0,
            "{model:?}: no spin picked up"
        );
    }
}
