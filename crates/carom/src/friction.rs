//! Rolling friction against the table (tutorial level 7), applied after each step's
//! collisions as an exact solution of its own equation over `dt` (operator splitting):
//! dry friction stops a ball and never reverses it, whatever the step.
//!
//! Cloth is different: its friction sets how far a ball goes, not only how fast, so the
//! stepping models move the balls by the closed form itself ([`cloth_motion`]) rather
//! than by `v dt` with the velocity corrected afterwards (which would leave every
//! single-ball shot's path off by half a step's deceleration each step, an error of
//! order `v0 dt` at rest). See [`ClothMotion`] for how each model uses it.

use crate::balls::Balls;
use crate::cloth::{Body, Cloth, Phase, Sphere};
use crate::error::BuildError;
use crate::event_log::LoggedEvent;
use crate::physics::params::Friction;

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
        // Every model moves its balls on cloth itself, as its free flight
        // ([`cloth_motion`], and the event model's phases): nothing is left to do
        // after the step.
        Friction::Cloth { .. } => {}
    }
}

/// How [`cloth_motion`] meets the model's own motion of the step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClothMotion {
    /// It is the step's free flight (`impulse`, `simultaneous`, whose steps are a free
    /// flight followed by instantaneous impacts): each dynamic ball moves by the closed
    /// form's displacement (plus `g dt^2 / 2` under gravity) and takes its velocity and
    /// spins at the step's end; a kinematic ball moves at its velocity. A ball that
    /// meets nothing is exact, whatever `dt`.
    Flight,
    /// It follows the model's step (`spring`, whose contact forces act over the step
    /// and which moved each ball by `v dt`, `v` its velocity at the step's end as the
    /// semi-implicit Euler drift uses): each dynamic ball's velocity and spins evolve
    /// over `dt` from there, and its position gets the closed form's displacement less
    /// `v dt`. Free of contact forces that is exact too; in contact it is the operator
    /// splitting of the contact forces (a kick) and the cloth's free motion (the
    /// drift), first order in `dt` as the step already is.
    Correction,
}

/// Each dynamic ball's free motion on cloth over `dt` by the closed form through its
/// phases ([`Cloth::evolve`]), as `how` says. With `LOG`, every phase change is a
/// [`LoggedEvent::phase_change`] row in `log`, timed from the step's start. Returns the
/// largest squared distance a ball was moved here (for the neighbour lists' skins).
/// Serial, ball by ball: each ball reads only its own state, so the result and the
/// log's order do not depend on threads.
///
/// `left` (for [`ClothMotion::Correction`]) holds each ball's phase as the previous
/// call left it (`None`: not known yet), and is updated. The model's step may have
/// pushed a ball out of that phase (a spring contact's force, applied as a kick, makes
/// a rolling ball slip for a moment, and a ball at rest slide), and the cloth brings it
/// back within the step: that excursion is the split's, not a change of the ball's
/// motion (a steady push through the centre keeps a ball rolling), so the changes up
/// to its return to the phase it had are not logged; those after it are. Otherwise a
/// ball pressed by a gentle contact would write rows every step.
pub fn cloth_motion<const LOG: bool>(
    balls: &mut Balls,
    cloth: &Cloth,
    gravity: [f64; 2],
    dt: f64,
    how: ClothMotion,
    log: &mut Vec<LoggedEvent>,
    mut left: Option<&mut Vec<Option<Phase>>>,
) -> f64 {
    let flight = how == ClothMotion::Flight;
    let (hx, hy) = (0.5 * gravity[0] * dt * dt, 0.5 * gravity[1] * dt * dt);
    let (gx, gy) = (gravity[0] * dt, gravity[1] * dt);
    let mut d2max: f64 = 0.0;
    if let Some(left) = left.as_deref_mut() {
        left.resize(balls.len(), None);
    }
    for i in 0..balls.len() {
        let v = [balls.vx[i], balls.vy[i]];
        if balls.inv_m[i] == 0.0 {
            // Kinematic (or out of play, at rest): prescribed motion, no friction.
            if flight {
                balls.x[i] += v[0] * dt;
                balls.y[i] += v[1] * dt;
                d2max = d2max.max((v[0] * v[0] + v[1] * v[1]) * dt * dt);
            }
            continue;
        }
        let s = Sphere::of(balls, i);
        let mark = log.len();
        let body = Body::of(balls, i);
        let (e, d) = if s.v == [0.0, 0.0] && s.w == [0.0; 3] {
            // At rest: nothing to evolve (and nothing to log).
            (s, [0.0, 0.0])
        } else {
            cloth.evolve(&s, body, dt, |t, _, to| {
                if LOG {
                    log.push(LoggedEvent::phase_change(t, i as u32, to));
                }
            })
        };
        if let Some(left) = left.as_deref_mut() {
            let was = left[i].replace(cloth.phase(&e, body));
            if LOG && was.is_some() {
                if let Some(k) = log[mark..].iter().rposition(|r| r.phase == was) {
                    log.drain(mark..=mark + k);
                }
            }
        }
        let moved = if flight {
            (balls.vx[i], balls.vy[i]) = (e.v[0] + gx, e.v[1] + gy);
            [d[0] + hx, d[1] + hy]
        } else {
            (balls.vx[i], balls.vy[i]) = (e.v[0], e.v[1]);
            [d[0] - v[0] * dt, d[1] - v[1] * dt]
        };
        (balls.wx[i], balls.wy[i], balls.omega[i]) = (e.w[0], e.w[1], e.w[2]);
        balls.x[i] += moved[0];
        balls.y[i] += moved[1];
        d2max = d2max.max(moved[0] * moved[0] + moved[1] * moved[1]);
    }
    d2max
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
