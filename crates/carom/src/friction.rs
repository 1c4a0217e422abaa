//! Rolling friction against the table (tutorial level 7), applied after each step's
//! collisions as an exact solution of its own equation over `dt` (operator splitting):
//! dry friction stops a ball and never reverses it, whatever the step.

use crate::balls::Balls;
use crate::cloth::{Body, Cloth, Sphere};
use crate::physics::BuildError;
use crate::scenario::Friction;

pub fn check(f: &Friction) -> Result<(), BuildError> {
    let err = |field: &str, msg: String| {
        Err(BuildError {
            field: format!("physics.friction.{field}"),
            message: msg,
        })
    };
    match *f {
        Friction::None => Ok(()),
        Friction::Dry { mu, g_normal } => {
            if !(mu.is_finite() && mu >= 0.0) {
                return err("mu", format!("must be non-negative (got {mu})"));
            }
            if !(g_normal.is_finite() && g_normal >= 0.0) {
                return err("g_normal", format!("must be non-negative (got {g_normal})"));
            }
            Ok(())
        }
        Friction::Drag { mu } => {
            if !(mu.is_finite() && mu >= 0.0) {
                return err("mu", format!("must be non-negative (got {mu})"));
            }
            Ok(())
        }
        Friction::Linear { mu } => {
            if !(mu.is_finite() && (0.0..1.0).contains(&mu)) {
                return err("mu", format!("must be in [0, 1) (got {mu})"));
            }
            Ok(())
        }
        Friction::Cloth {
            sliding_mu,
            rolling_mu,
            spinning_mu,
            g_normal,
        } => {
            for (key, v) in [
                ("sliding_mu", sliding_mu),
                ("rolling_mu", rolling_mu),
                ("spinning_mu", spinning_mu),
                ("g_normal", g_normal),
            ] {
                if !(v.is_finite() && v >= 0.0) {
                    return err(key, format!("must be non-negative (got {v})"));
                }
            }
            Ok(())
        }
    }
}

pub fn apply(balls: &mut Balls, friction: &Friction, dt: f64) {
    match *friction {
        Friction::None => {}
        Friction::Dry { mu, g_normal } => {
            // |v| decreases linearly at mu g_n until it reaches 0.
            let dv = mu * g_normal * dt;
            scale_speeds(balls, |speed| (speed - dv).max(0.0) / speed);
        }
        Friction::Drag { mu } => {
            // d|v|/dt = -mu |v|^2  =>  |v(dt)| = |v| / (1 + mu |v| dt).
            scale_speeds(balls, |speed| 1.0 / (1.0 + mu * speed * dt));
        }
        Friction::Linear { mu } => {
            let f = (1.0 - mu).powf(dt);
            scale_speeds(balls, |_| f);
        }
        Friction::Cloth { .. } => {
            if let Some(cloth) = Cloth::of(friction) {
                roll_on_cloth(balls, &cloth, dt);
            }
        }
    }
}

/// Each dynamic ball's velocity and spins over `dt` on cloth, by the closed form
/// through its phases ([`Cloth::evolve`]). The positions are the model's (operator
/// splitting, as for the other frictions).
fn roll_on_cloth(balls: &mut Balls, cloth: &Cloth, dt: f64) {
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let s = Sphere {
            v: [balls.vx[i], balls.vy[i]],
            w: [balls.wx[i], balls.wy[i], balls.omega[i]],
        };
        if s.v == [0.0, 0.0] && s.w == [0.0; 3] {
            continue;
        }
        let body = Body::new(balls.r[i], balls.m[i], balls.inertia[i]);
        let (e, _) = cloth.evolve(&s, body, dt, |_, _, _| {});
        (balls.vx[i], balls.vy[i]) = (e.v[0], e.v[1]);
        (balls.wx[i], balls.wy[i], balls.omega[i]) = (e.w[0], e.w[1], e.w[2]);
    }
}

/// Multiplies each dynamic, moving ball's velocity by `factor(|v|)`.
fn scale_speeds(balls: &mut Balls, factor: impl Fn(f64) -> f64) {
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let speed = balls.vx[i].hypot(balls.vy[i]);
        if speed > 0.0 {
            let f = factor(speed);
            balls.vx[i] *= f;
            balls.vy[i] *= f;
        }
    }
}
