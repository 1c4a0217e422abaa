//! The event model leaves balls at their own local times between the steps of one
//! `run_steps` call and brings them up to date once, at its end. Whatever is read must
//! not depend on that: a run in one call equals the same run step by step (each step
//! brought up to date), and a step that fails after lazy steps leaves the world at the
//! last good step, bit for bit.

use carom::models::StepError;
use carom::parse::{build_world, parse_scenario};
use carom::{Format, World};

fn gas(n: u64, fraction: f64, dt: f64) -> World {
    let text = format!(
        r#"
name = "lazy"
[table]
[physics]
model = "event"
dt = {dt}
[[generators]]
kind = "gas"
n = {n}
area_fraction = {fraction}
seed = 11
"#
    );
    build_world(&parse_scenario(&text, Format::Toml).unwrap()).unwrap()
}

#[test]
fn one_call_equals_step_by_step() {
    let (mut lazy, mut eager) = (gas(400, 0.4, 0.05), gas(400, 0.4, 0.05));
    lazy.run_steps(200).unwrap();
    for _ in 0..200 {
        eager.step().unwrap();
    }
    assert_eq!(lazy.steps, eager.steps);
    assert_eq!(lazy.time, eager.time);
    // The same collisions in the same order; only round-off differs (a ball moved in
    // one stretch or in several), ~1e-15 of a unit per event, grown by a few dozen
    // collisions per ball to far below this bound. A missed or extra collision would
    // change velocities by order one.
    assert_eq!(lazy.collisions(), eager.collisions());
    assert!(lazy.collisions() > 1000, "{} collisions", lazy.collisions());
    let (a, b) = (lazy.balls(), eager.balls());
    for i in 0..a.len() {
        for (u, v) in [
            (a.x[i], b.x[i]),
            (a.y[i], b.y[i]),
            (a.vx[i], b.vx[i]),
            (a.vy[i], b.vy[i]),
        ] {
            assert!((u - v).abs() < 1e-7, "ball {i}: {u} vs {v}");
        }
    }
    // The energy read after one call is the energy of a state brought up to date.
    let (ea, eb) = (
        lazy.diagnostics().total_energy,
        eager.diagnostics().total_energy,
    );
    assert!((ea - eb).abs() <= 1e-12 * eb.abs(), "{ea} vs {eb}");
}

#[test]
fn a_failure_after_lazy_steps_leaves_the_last_good_step() {
    let balls = [
        carom::Ball::new(600.0, 200.0, 1.0, 0.5, 10.0, 1.0),
        carom::Ball::new(100.0, 390.0, 0.0, 0.0, 10.0, 1.0),
        carom::Ball::new(300.0, 100.0, -2.0, 0.0, 10.0, 1.0),
    ];
    let physics = carom::Physics {
        model: carom::ModelKind::Event,
        dt: 0.05,
        gravity: [0.0, 1.0],
        restitution: 0.0,
        ..carom::Physics::default()
    };
    let mut w = World::from_balls(carom::Table::new(800.0, 400.0), physics, &balls).unwrap();
    w.run_steps(40).unwrap();
    // Ball 2 put at rest on ball 1, which rests on the floor: with e = 0 hard disks
    // answer its weight with endlessly many zero-time contacts, and the event budget
    // stops the next step.
    {
        let b = w.balls_mut();
        (b.x[2], b.y[2], b.vx[2], b.vy[2]) = (b.x[1], b.y[1] - 20.0, 0.0, 0.0);
    }
    let (before, t_before) = (w.balls().clone(), w.time);
    let err = w.run_steps(10_000).unwrap_err();
    assert!(matches!(err, StepError::EventBudget(_)), "{err}");
    assert_eq!(w.steps, 40);
    assert_eq!(w.time, t_before);
    // Bit for bit the state the call started from.
    assert_eq!(w.balls(), &before);
    // And it goes on failing the same way, never hanging.
    assert!(w.run_steps(1).is_err());
    assert_eq!(w.balls(), &before);
}
