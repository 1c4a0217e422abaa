//! Contact forces for force chains (`World::contact_forces`): in a resting column each
//! contact carries the weight of the balls above it.

use carom::ModelKind;
use carom::{Ball, Physics, Table, World};

/// `n` unit balls stacked on the floor (y = 0, gravity -g along y), touching, left to
/// settle with dissipative contacts.
fn column(n: usize, model: ModelKind) -> World {
    let balls: Vec<Ball> = (0..n)
        .map(|k| Ball::new(10.0, 1.0 + 2.0 * k as f64, 0.0, 0.0, 1.0, 1.0))
        .collect();
    let physics = Physics {
        model,
        dt: 0.002,
        stiffness: 1.0e4,
        restitution: 0.3,
        gravity: [0.0, -10.0],
        ..Physics::default()
    };
    World::from_balls(Table::new(20.0, 40.0), physics, &balls).unwrap()
}

#[test]
fn each_contact_of_a_resting_column_carries_the_weight_above_it() {
    let (n, g) = (6, 10.0);
    let mut w = column(n, ModelKind::Spring);
    // Some 400 contact times (pi sqrt(m / 2k) = 0.022) to settle.
    w.run_steps(5000).unwrap();
    let forces = w.contact_forces().expect("spring reports forces");
    assert_eq!(forces.len(), n - 1, "{forces:?}");
    for f in &forces {
        // Ball k (from the floor up) meets ball k + 1; above that contact are the
        // balls k + 1 .. n - 1.
        let (i, j) = (f.i as usize, f.j as usize);
        assert_eq!(j, i + 1, "{f:?}");
        let above = (n - 1 - i) as f64 * g;
        // At rest the contact's force is what holds the balls above still: the only
        // error is the column's residual motion, damped far below 1e-9 of a weight.
        assert!(
            (f.normal - above).abs() < 1e-6 * g,
            "contact {i}-{j}: {} against {above}",
            f.normal
        );
    }
}

#[test]
fn the_hard_models_report_no_forces() {
    for model in [
        ModelKind::Impulse,
        ModelKind::Simultaneous,
        ModelKind::Event,
    ] {
        let w = column(3, model);
        assert!(w.contact_forces().is_none(), "{model:?}");
    }
}
