//! The `event` model against the seeds' simultaneous collisions: one ball meeting two
//! at the same instant (seed 001's closed form) and Newton's cradle.

use super::event::{physics, table, world};
use carom::parse::build_world;
use carom::ModelKind;
use carom::{Ball, Physics};

/// Seed 001's closed form for ball 0 hitting balls 1 and 2 at the same instant.
fn seed_001(m: [f64; 3], p: [[f64; 2]; 3], v: [[f64; 2]; 3], c: f64) -> [[f64; 2]; 3] {
    let (m0, m1, m2) = (m[0], m[1], m[2]);
    let (x01, y01) = (p[1][0] - p[0][0], p[1][1] - p[0][1]);
    let (x02, y02) = (p[2][0] - p[0][0], p[2][1] - p[0][1]);
    let pp = x01 * x02 + y01 * y02;
    let s01 = x01 * x01 + y01 * y01;
    let s02 = x02 * x02 + y02 * y02;
    let delta = (m0 + m1) * (m0 + m2) * s01 * s02 - m1 * m2 * pp * pp;
    let b01 = (1.0 + c) * (x01 * (v[1][0] - v[0][0]) + y01 * (v[1][1] - v[0][1]));
    let b02 = (1.0 + c) * (x02 * (v[2][0] - v[0][0]) + y02 * (v[2][1] - v[0][1]));
    let u0 = -(b01 * m1 * (x02 * m2 * pp - x01 * (m0 + m2) * s02)
        + b02 * m2 * (x01 * m1 * pp - x02 * (m0 + m1) * s01))
        / delta;
    let u1 = -(b01 * m1 * (y02 * m2 * pp - y01 * (m0 + m2) * s02)
        + b02 * m2 * (y01 * m1 * pp - y02 * (m0 + m1) * s01))
        / delta;
    let r1 = m0 * (b02 * m2 * pp - b01 * (m0 + m2) * s02) / delta;
    let r2 = m0 * (b01 * m1 * pp - b02 * (m0 + m1) * s01) / delta;
    [
        [v[0][0] + u0, v[0][1] + u1],
        [v[1][0] + x01 * r1, v[1][1] + y01 * r1],
        [v[2][0] + x02 * r2, v[2][1] + y02 * r2],
    ]
}

/// Balls placed at a simultaneous double contact at t_c = 5, then rewound, run past it.
fn double_collision(
    m: [f64; 3],
    r: [f64; 3],
    angles: [f64; 2],
    v: [[f64; 2]; 3],
    e: f64,
) -> ([[f64; 2]; 3], [[f64; 2]; 3]) {
    let t_c = 5.0;
    let p0 = [300.0, 200.0];
    let at = |k: usize, a: f64| {
        let d = r[0] + r[k];
        let a = a.to_radians();
        [p0[0] + d * a.cos(), p0[1] + d * a.sin()]
    };
    let contact = [p0, at(1, angles[0]), at(2, angles[1])];
    let balls: Vec<Ball> = (0..3)
        .map(|k| {
            Ball::new(
                contact[k][0] - v[k][0] * t_c,
                contact[k][1] - v[k][1] * t_c,
                v[k][0],
                v[k][1],
                r[k],
                m[k],
            )
        })
        .collect();
    let p = Physics {
        restitution: e,
        ..physics(t_c + 0.5)
    };
    let mut w = world(table(800.0, 400.0), p, &balls);
    w.step().unwrap();
    let b = w.balls();
    let got = [[b.vx[0], b.vy[0]], [b.vx[1], b.vy[1]], [b.vx[2], b.vy[2]]];
    (got, seed_001(m, contact, v, e))
}

#[test]
fn three_ball_double_collision_gives_seed_001_closed_form() {
    // Symmetric: ball 0 along the axis into two touching balls at +-30 degrees (the
    // `three-ball` scene), then asymmetric masses, radii, angles and velocities.
    let cases = [
        (
            [1.0, 1.0, 1.0],
            [10.0, 10.0, 10.0],
            [30.0, -30.0],
            [[6.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
            1.0,
        ),
        (
            [1.0, 1.0, 1.0],
            [10.0, 10.0, 10.0],
            [30.0, -30.0],
            [[6.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
            0.5,
        ),
        (
            [1.0, 2.0, 1.5],
            [10.0, 12.0, 8.0],
            [25.0, -40.0],
            [[6.0, 0.5], [0.3, -0.2], [-0.4, 0.1]],
            0.9,
        ),
    ];
    for (m, r, angles, v, e) in cases {
        let (got, expect) = double_collision(m, r, angles, v, e);
        for k in 0..3 {
            for c in 0..2 {
                // Round-off in the contact geometry and the solver: ~1e-15 of the
                // 6-unit velocity scale; 1e-12 of it is the tolerance.
                assert!(
                    (got[k][c] - expect[k][c]).abs() <= 1e-12 * 6.0,
                    "m {m:?} e {e}: ball {k} comp {c}: got {} expected {}",
                    got[k][c],
                    expect[k][c]
                );
            }
        }
    }
}

#[test]
fn three_ball_preset_gives_seed_001_closed_form() {
    // The preset: ball 0 along y = 200 at 8 into balls 1 and 2, touching each other
    // symmetrically about its path; it touches both at once when its centre reaches
    // x = 400 - sqrt(20^2 - 10^2), at t = (that - 200) / 8.
    let mut s = carom::presets::find("three-ball")
        .unwrap()
        .scenario()
        .unwrap();
    s.physics.model = Some(ModelKind::Event);
    let mut w = build_world(&s).unwrap();
    let x0 = 400.0 - 300f64.sqrt();
    let t_c = (x0 - 200.0) / 8.0;
    let steps = (s.duration / s.physics.dt).round() as u64;
    w.run_steps(steps).unwrap();
    let contact = [[x0, 200.0], [400.0, 190.0], [400.0, 210.0]];
    let v = [[8.0, 0.0], [0.0, 0.0], [0.0, 0.0]];
    let expect = seed_001([1.0; 3], contact, v, 1.0);
    let b = w.balls();
    let after = w.time - t_c;
    for k in 0..3 {
        // Velocities to 1e-12 of the speed 8; positions carry in addition the contact
        // time's round-off times the speed, ~1e-13 of the table.
        assert!((b.vx[k] - expect[k][0]).abs() < 1e-12 * 8.0, "vx[{k}]");
        assert!((b.vy[k] - expect[k][1]).abs() < 1e-12 * 8.0, "vy[{k}]");
        let x = contact[k][0] + expect[k][0] * after;
        let y = contact[k][1] + expect[k][1] * after;
        assert!(
            (b.x[k] - x).abs() < 1e-10 * 800.0,
            "x[{k}] {} vs {x}",
            b.x[k]
        );
        assert!(
            (b.y[k] - y).abs() < 1e-10 * 800.0,
            "y[{k}] {} vs {y}",
            b.y[k]
        );
    }
    // Mirror symmetry is kept exactly by the simultaneous resolution.
    assert!(w.diagnostics().symmetry_error.unwrap() < 1e-12 * 800.0);
    assert_eq!(w.collisions(), 2);
}

#[test]
fn newton_cradle_preset_sends_the_last_ball_off() {
    // Five touching balls, the first moving at 8: under `event` the impact runs down
    // the chain at zero time and only the last ball moves on, 8 x 45 from x = 380.
    let mut s = carom::presets::find("newton-cradle")
        .unwrap()
        .scenario()
        .unwrap();
    s.physics.model = Some(ModelKind::Event);
    let mut w = build_world(&s).unwrap();
    let steps = (s.duration / s.physics.dt).round() as u64;
    w.run_steps(steps).unwrap();
    let b = w.balls();
    for k in 0..4 {
        assert_eq!(b.vx[k], 0.0, "ball {k} must stop");
        assert_eq!(b.x[k], 300.0 + 20.0 * k as f64);
    }
    assert_eq!(b.vx[4], 8.0);
    // The time is a sum of 900 steps of 0.05: round-off of that sum only.
    assert!((b.x[4] - (380.0 + 8.0 * w.time)).abs() < 1e-9);
    assert!((w.time - 45.0).abs() < 1e-9);
    assert_eq!(w.collisions(), 4);
}

#[test]
fn newton_cradle_of_five_passes_the_impact_through() {
    // Ball 0 at speed 5 into four touching balls: ball 0 hits at t = 16 and stops; the
    // impact runs down the chain at zero time and the last ball leaves at 5.
    let mut balls = vec![Ball::new(200.0, 200.0, 5.0, 0.0, 10.0, 1.0)];
    for k in 0..4 {
        balls.push(Ball::new(
            300.0 + 20.0 * k as f64,
            200.0,
            0.0,
            0.0,
            10.0,
            1.0,
        ));
    }
    let mut w = world(table(800.0, 400.0), physics(20.0), &balls);
    w.step().unwrap();
    let b = w.balls();
    let expect_x = [280.0, 300.0, 320.0, 340.0, 380.0];
    let expect_vx = [0.0, 0.0, 0.0, 0.0, 5.0];
    for k in 0..5 {
        // Equal masses exchange velocities exactly; positions carry the round-off of
        // the contact time (~1e-13 of 400).
        assert!(
            (b.x[k] - expect_x[k]).abs() < 1e-12 * 400.0,
            "x[{k}] = {}",
            b.x[k]
        );
        assert!(
            (b.vx[k] - expect_vx[k]).abs() < 1e-12 * 5.0,
            "vx[{k}] = {}",
            b.vx[k]
        );
        assert_eq!(b.y[k], 200.0);
    }
    assert_eq!(w.collisions(), 4);
}
