//! Periodic boundaries and contact friction together: the rough contact laws take the
//! minimum image across a periodic edge, a periodic axis has no wall (not even a rough
//! one), the pair virial counts the normal impulses or forces of rough contacts, and
//! the frictional spring step stays independent of the thread count.

use crate::common;
use carom::parse::{load, Format};
use carom::Boundary;
use carom::ModelKind;
use carom::{Ball, ContactFriction, Physics, Table, World};
use common::*;

fn rough() -> ContactFriction {
    ContactFriction {
        rolling_mu: 0.0,
        mu: 0.4,
        tangential_restitution: 0.5,
        tangential_stiffness: None,
    }
}

/// A random spinning gas in a fully periodic box, contact friction on.
fn rough_gas(model: ModelKind, n: u64) -> World {
    let text = format!(
        r#"
[table]
boundary = "periodic"
[physics]
model = "{}"
dt = 0.01
stiffness = 100.0
restitution = 0.9
contact_friction = {{ mu = 0.4, tangential_restitution = 0.5 }}
[[generators]]
kind = "gas"
n = {n}
area_fraction = 0.4
r = 1.0
speed = 1.0
seed = 11
"#,
        model.name()
    );
    let mut w = load(&text, Format::Toml).expect("rough gas loads").1;
    // Give every ball a spin, so that tangential impulses act from the first contact.
    let omega: Vec<f64> = (0..w.balls().len())
        .map(|i| ((i * 7919) % 13) as f64 / 13.0 - 0.5)
        .collect();
    w.balls_mut().omega.copy_from_slice(&omega);
    w
}

fn momentum(w: &World) -> (f64, f64, f64) {
    let b = w.balls();
    let (mut px, mut py, mut scale) = (0.0, 0.0, 0.0);
    for i in 0..b.len() {
        px += b.m[i] * b.vx[i];
        py += b.m[i] * b.vy[i];
        scale += b.m[i] * b.vx[i].hypot(b.vy[i]);
    }
    (px, py, scale)
}

#[test]
fn without_walls_rough_contacts_keep_total_momentum_in_every_model() {
    // Every rough impulse or force acts equal and opposite on the two balls of a pair,
    // so with no wall anywhere the total momentum changes by round-off only: some 1e-16
    // of the momentum scale per contact, far below 1e-10 over these few thousand.
    for model in ModelKind::ALL {
        let mut w = rough_gas(model, 400);
        let (px0, py0, scale) = momentum(&w);
        w.run_steps(300).unwrap();
        let (px, py, _) = momentum(&w);
        assert!(
            w.collisions() > 100,
            "{model:?}: only {} collisions",
            w.collisions()
        );
        let drift = (px - px0).hypot(py - py0) / scale;
        assert!(drift < 1e-10, "{model:?}: momentum drift {drift:e}");
        // Dissipative (e < 1, sliding friction): no energy gained.
        let b = w.balls();
        assert!(b.x.iter().chain(&b.y).all(|v| v.is_finite()), "{model:?}");
        assert!(
            w.virial() > 0.0,
            "{model:?}: repulsive contacts give a positive virial"
        );
    }
}

#[test]
fn a_rough_collision_across_the_edge_equals_the_same_collision_in_the_open() {
    // Two spinning balls meet obliquely across the periodic x edge; the same two balls
    // shifted into the middle of the table meet in the open. The hard models give the
    // same velocities and spins (up to the round-off of the shift), and neither meets a
    // wall on the periodic axis.
    for model in [
        ModelKind::Impulse,
        ModelKind::Simultaneous,
        ModelKind::Event,
    ] {
        let p = Physics {
            dt: 0.01,
            contact_friction: rough(),
            ..physics(model)
        };
        let across = Table::new(50.0, 40.0).with_boundary([Boundary::Periodic, Boundary::Walls]);
        let mut a = Ball::new(48.5, 20.0, 1.0, 0.3, 1.0, 1.0);
        let mut b = Ball::new(1.2, 20.8, -1.0, -0.2, 1.0, 2.0);
        a.omega = 0.7;
        b.omega = -1.1;
        let mut edge = world(across, p, &[a, b]);
        // The same pair shifted 25 to the left (b's unwrapped x is 51.2): both in the
        // middle of a walled table.
        let (mut a2, mut b2) = (a, b);
        a2.x = 23.5;
        b2.x = 26.2;
        let mut open = world(Table::new(50.0, 40.0), p, &[a2, b2]);
        edge.run_steps(200).unwrap();
        open.run_steps(200).unwrap();
        let (e, o) = (edge.balls(), open.balls());
        assert!(
            edge.collisions() >= 1 && edge.collisions() == open.collisions(),
            "{model:?}"
        );
        for i in 0..2 {
            for (x, y) in [
                (e.vx[i], o.vx[i]),
                (e.vy[i], o.vy[i]),
                (e.omega[i], o.omega[i]),
            ] {
                assert!((x - y).abs() < 1e-9, "{model:?}: ball {i}: {x} vs {y}");
            }
        }
    }
}

#[test]
fn the_periodic_rough_spring_step_is_identical_for_one_and_two_threads_and_run_to_run() {
    let run = |threads: usize| {
        let mut w = rough_gas(ModelKind::Spring, 3000);
        w.set_threads(threads).unwrap();
        w.run_steps(200).unwrap();
        let b = w.balls().clone();
        (
            b.x,
            b.y,
            b.vx,
            b.vy,
            b.omega,
            b.ix,
            b.iy,
            w.virial().to_bits(),
        )
    };
    // 3000 balls make 12 blocks of 256 (`broadphase::block_len`): both threads work.
    let one = run(1);
    assert!(one == run(2), "1 thread differs from 2");
    assert!(run(2) == run(2), "two runs with 2 threads differ");
    // The run exercised the periodic wrap: some ball crossed a side.
    assert!(
        one.5.iter().chain(&one.6).any(|&k| k != 0),
        "no ball crossed a side"
    );
}
