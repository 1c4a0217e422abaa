//! A cue strike turned into a ball's velocity and spins, by the instantaneous model of
//! Leckie and Greenspan (and Alciatore's analysis of it): the tip meets the ball at one
//! point for an instant and pushes along the cue's axis only (a chalked tip does not
//! slip), the tip-ball impact is elastic, and the table takes whatever the impulse
//! pushes into it (a ball on cloth does not leave the table).
//!
//! The cue of mass `M` moving at `V` along its unit axis `d` meets the ball at `rho`
//! from its centre. The ball at the contact point recedes along `d` at `J (1/m + |rho x
//! d|^2 / I)` per unit impulse, the cue at `J / M`; an elastic impact reverses their
//! closing speed `V`, so
//!
//! ```text
//! J = 2 V / (1/M + 1/m + |rho x d|^2 / I),   v = J d / m (in the table's plane),
//! w = rho x (J d) / I.
//! ```
//!
//! The tip's offsets are measured perpendicular to the cue: `english` (times `r`) to the
//! shooter's right, `follow` up, so `|rho x d|^2 = r^2 (english^2 + follow^2)`. On a
//! level cue this gives the textbook results: a tip `2 r / 5` above the centre makes a
//! solid sphere roll at once, and english gives `omega r / v = 5 english / 2`. A raised
//! cue (`elevation`) also spins the ball about an axis tilted from the vertical, the
//! swerve and masse of a real cue ball.
//!
//! Frame: x right, y down, z into the table; `aim` in degrees from +x towards +y.

use serde::{Deserialize, Serialize};

use crate::cloth::Sphere;

/// `cue = { speed, aim, english, follow, elevation }`: the cue's speed, the direction
/// it points (degrees, as arcs are measured: from +x towards +y), where its tip meets
/// the ball (offsets from the centre in units of the radius, perpendicular to the cue:
/// `english` positive to the shooter's right, `follow` positive up) and how far it is
/// raised from the table (degrees, 0 level, below 90).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a table { speed, aim, english, follow, elevation }"
)]
pub struct CueSpec {
    /// The cue's speed as it meets the ball, table units per time unit, `>= 0` (`speed`).
    pub speed: f64,
    /// The direction the cue points, degrees from +x towards +y (`aim`).
    pub aim: f64,
    /// The tip's offset to the shooter's right, in ball radii (`english`; default 0).
    #[serde(default)]
    pub english: f64,
    /// The tip's offset upward, in ball radii; negative is draw (`follow`; default 0).
    #[serde(default)]
    pub follow: f64,
    /// How far the cue is raised from the table, degrees in `[0, 90)` (`elevation`;
    /// default 0).
    #[serde(default)]
    pub elevation: f64,
}

/// The cue's mass over the ball's: a 20 oz cue on a 6 oz pool ball.
pub const CUE_MASS_RATIO: f64 = 10.0 / 3.0;

/// The farthest a tip may meet the ball from the line through its centre, in units of
/// `r`: beyond it the tip misses (or glances off: a miscue, which this model does not
/// describe). Real miscues start near 0.5 to 0.6.
pub const MAX_TIP_OFFSET: f64 = 0.9;

/// Checks a cue strike's numbers; `Err((key, message))` names the bad key.
pub fn check(c: &CueSpec) -> Result<(), (&'static str, String)> {
    for (key, v) in [
        ("speed", c.speed),
        ("aim", c.aim),
        ("english", c.english),
        ("follow", c.follow),
        ("elevation", c.elevation),
    ] {
        if !v.is_finite() {
            return Err((key, format!("must be finite (got {v})")));
        }
    }
    if c.speed < 0.0 {
        return Err(("speed", format!("must not be negative (got {})", c.speed)));
    }
    let offset = c.english.hypot(c.follow);
    if offset > MAX_TIP_OFFSET {
        return Err((
            "english",
            format!(
                "with follow ({}) puts the tip {offset} radii from the centre; beyond \
                 {MAX_TIP_OFFSET} it misses the ball",
                c.follow
            ),
        ));
    }
    if !(0.0..90.0).contains(&c.elevation) {
        return Err((
            "elevation",
            format!(
                "must be at least 0 and below 90 degrees (got {})",
                c.elevation
            ),
        ));
    }
    Ok(())
}

/// The velocity and spins a strike gives a ball at rest of mass `m`, radius `r` and
/// moment of inertia `inertia` (checked with [`check`] first).
pub fn strike(c: &CueSpec, m: f64, r: f64, inertia: f64) -> Sphere {
    let (sp, cp) = c.aim.to_radians().sin_cos();
    let (st, ct) = c.elevation.to_radians().sin_cos();
    // The cue's axis (pointing down into the table when raised), the shooter's right,
    // and "up" perpendicular to the axis in its vertical plane.
    let d = [ct * cp, ct * sp, st];
    let right = [-sp, cp, 0.0];
    let up = [st * cp, st * sp, -ct];
    let (e, f) = (c.english, c.follow);
    let depth = (1.0 - e * e - f * f).max(0.0).sqrt();
    let rho: [f64; 3] = std::array::from_fn(|k| r * (e * right[k] + f * up[k] - depth * d[k]));
    let j =
        2.0 * c.speed / (1.0 / (CUE_MASS_RATIO * m) + 1.0 / m + r * r * (e * e + f * f) / inertia);
    let torque = [
        rho[1] * d[2] - rho[2] * d[1],
        rho[2] * d[0] - rho[0] * d[2],
        rho[0] * d[1] - rho[1] * d[0],
    ];
    Sphere {
        v: [j * d[0] / m, j * d[1] / m],
        w: torque.map(|t| j * t / inertia),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cue(english: f64, follow: f64) -> CueSpec {
        CueSpec {
            speed: 3.0,
            aim: 30.0,
            english,
            follow,
            elevation: 0.0,
        }
    }

    #[test]
    fn a_centre_hit_sends_the_ball_along_the_aim_without_spin() {
        let (m, r) = (0.17, 0.028575);
        let s = strike(&cue(0.0, 0.0), m, r, 0.4 * m * r * r);
        let speed = 2.0 * 3.0 / (1.0 + 1.0 / CUE_MASS_RATIO);
        assert!((s.v[0].hypot(s.v[1]) - speed).abs() < 1e-12);
        assert!((s.v[1].atan2(s.v[0]).to_degrees() - 30.0).abs() < 1e-12);
        assert!(s.w.iter().all(|w| w.abs() < 1e-9));
    }

    #[test]
    fn two_fifths_above_centre_rolls_at_once() {
        let (m, r) = (0.17, 0.028575);
        let s = strike(&cue(0.0, 0.4), m, r, 0.4 * m * r * r);
        let u = s.slip(r);
        assert!(u[0].hypot(u[1]) < 1e-12 * s.v[0].hypot(s.v[1]));
    }

    #[test]
    fn english_spins_five_halves_e_and_right_english_turns_anticlockwise() {
        let (m, r) = (0.17, 0.028575);
        for e in [-0.5, -0.2, 0.3, 0.5] {
            let s = strike(&cue(e, 0.0), m, r, 0.4 * m * r * r);
            let v = s.v[0].hypot(s.v[1]);
            // Seen from above (z into the table), +omega turns +x towards +y: clockwise.
            // The tip pushing the ball's right side forward turns it anticlockwise.
            assert!((s.w[2] * r / v + 2.5 * e).abs() < 1e-12, "e = {e}");
        }
    }
}
