//! Free motion: uniform and uniformly accelerated, against closed forms.

use crate::common;
use carom::Integrator;
use carom::ModelKind;
use carom::{Ball, Physics, Table};
use common::*;

/// A ball alone, far from the walls, moves uniformly in every model: `x = x0 + v t`.
/// Repeated addition of `v dt` accumulates round-off of about one ulp of x per step, so
/// 2000 steps allow ~2000 * 1e-16 relative: 1e-11 of the travelled distance is generous.
#[test]
fn uniform_motion_in_every_model() {
    for model in [ModelKind::Impulse, ModelKind::Spring] {
        let mut w = world(
            big_table(),
            physics(model),
            &[Ball::new(1000.0, 2000.0, 3.0, -1.5, 10.0, 2.0)],
        );
        w.run_steps(2000).unwrap();
        let t = w.time;
        let b = w.balls().get(0);
        assert!(rel(b.x, 1000.0 + 3.0 * t) < 1e-11, "{model:?} x {}", b.x);
        assert!(rel(b.y, 2000.0 - 1.5 * t) < 1e-11, "{model:?} y {}", b.y);
        assert_eq!(
            (b.vx, b.vy),
            (3.0, -1.5),
            "{model:?}: velocity must not change"
        );
        assert!(rel(t, 2000.0 * 0.05) < 1e-12);
    }
}

/// Impulse free flight is exact under constant gravity: `x = x0 + v t + g t^2 / 2`, to
/// round-off, whatever dt.
#[test]
fn constant_acceleration_is_exact_in_free_flight() {
    let g = [0.3, 0.7];
    let p = Physics {
        gravity: g,
        dt: 0.37,
        ..physics(ModelKind::Impulse)
    };
    let (x0, y0, vx, vy) = (500.0, 100.0, 2.0, -5.0);
    let mut w = world(big_table(), p, &[Ball::new(x0, y0, vx, vy, 10.0, 1.0)]);
    w.run_steps(300).unwrap();
    let t = w.time;
    let b = w.balls().get(0);
    assert!(
        rel(b.x, x0 + vx * t + 0.5 * g[0] * t * t) < 1e-12,
        "x {}",
        b.x
    );
    assert!(
        rel(b.y, y0 + vy * t + 0.5 * g[1] * t * t) < 1e-12,
        "y {}",
        b.y
    );
    assert!(rel(b.vx, vx + g[0] * t) < 1e-12);
    assert!(rel(b.vy, vy + g[1] * t) < 1e-12);
}

/// The spring model's semi-implicit Euler under constant g has the exact discrete
/// solution `v_n = v0 + n g dt`, `x_n = x0 + n v0 dt + g dt^2 n (n + 1) / 2`: the scheme
/// is first order, and the `n (n + 1)` (rather than `n^2`) is its known bias.
#[test]
fn spring_free_fall_follows_its_discrete_solution() {
    let g = 0.7;
    let p = Physics {
        gravity: [0.0, g],
        ..spring(Integrator::SemiImplicitEuler)
    };
    let mut w = world(
        big_table(),
        p,
        &[Ball::new(500.0, 100.0, 0.0, 0.0, 10.0, 1.0)],
    );
    let n = 400u64;
    w.run_steps(n).unwrap();
    let dt = 0.05;
    let nf = n as f64;
    let expected = 100.0 + g * dt * dt * nf * (nf + 1.0) / 2.0;
    assert!(
        rel(w.balls().y[0], expected) < 1e-12,
        "y {} vs {expected}",
        w.balls().y[0]
    );
    // And velocity-Verlet is exact for constant acceleration.
    let p = Physics {
        gravity: [0.0, g],
        ..spring(Integrator::VelocityVerlet)
    };
    let mut w = world(
        big_table(),
        p,
        &[Ball::new(500.0, 100.0, 0.0, 0.0, 10.0, 1.0)],
    );
    w.run_steps(n).unwrap();
    let t = w.time;
    assert!(rel(w.balls().y[0], 100.0 + 0.5 * g * t * t) < 1e-12);
}

/// A kinematic ball ignores gravity, walls and collisions: it moves as prescribed.
#[test]
fn kinematic_ball_moves_as_prescribed() {
    let table = Table::new(400.0, 400.0);
    for model in [ModelKind::Impulse, ModelKind::Spring] {
        let mut k = Ball::new(50.0, 200.0, 2.0, 0.0, 15.0, 1.0);
        k.kinematic = true;
        let p = Physics {
            gravity: [0.0, 0.5],
            ..physics(model)
        };
        let mut w = world(table, p, &[k, Ball::new(150.0, 200.0, 0.0, 0.0, 10.0, 1.0)]);
        w.run_steps(1000).unwrap();
        let b = w.balls().get(0);
        assert!(rel(b.x, 50.0 + 2.0 * w.time) < 1e-12, "{model:?}");
        assert_eq!(b.y, 200.0);
        // The free ball was struck and moved right.
        assert!(w.balls().vx[1] != 0.0 || w.balls().x[1] != 150.0);
    }
}

/// Friction, each kind against its own exact solution.
#[test]
fn friction_laws() {
    use carom::Friction;
    let one = |f: Friction, steps: u64| {
        let p = Physics {
            friction: f,
            ..physics(ModelKind::Impulse)
        };
        let mut w = world(
            big_table(),
            p,
            &[Ball::new(5000.0, 5000.0, 3.0, 4.0, 10.0, 1.0)],
        );
        w.run_steps(steps).unwrap();
        let b = w.balls().get(0);
        (b.vx.hypot(b.vy), w.time, b.vx / b.vy)
    };
    // Dry: speed falls linearly at mu g_n, stops and stays stopped, direction kept.
    let (v, t, dir) = one(
        Friction::Dry {
            mu: 0.1,
            g_normal: 2.0,
        },
        100,
    );
    assert!(rel(v, 5.0 - 0.2 * t) < 1e-12, "dry {v}");
    assert!(rel(dir, 0.75) < 1e-12);
    let (v, _, _) = one(
        Friction::Dry {
            mu: 0.1,
            g_normal: 2.0,
        },
        1000,
    );
    assert_eq!(v, 0.0, "dry friction stops a ball");
    // Drag: 1/|v| grows linearly at mu.
    let (v, t, _) = one(Friction::Drag { mu: 0.02 }, 500);
    assert!(rel(1.0 / v, 1.0 / 5.0 + 0.02 * t) < 1e-12, "drag {v}");
    // Linear: v = (1 - mu)^t v0.
    let (v, t, _) = one(Friction::Linear { mu: 0.05 }, 500);
    assert!(rel(v, 5.0 * 0.95f64.powf(t)) < 1e-10, "linear {v}");
}
