//! A ball on cloth striking a cushion: Han's model (Han, "Dynamics in carom and three
//! cushion billiards", J. Mech. Sci. Tech. 19(4), 2005), with the contact at the
//! cushion's nose.
//!
//! The nose sits at height `h` above the cloth, above the ball's equator on a real
//! table, so it touches the ball at `rho = r (cos(theta) n + sin(theta) up)` from its
//! centre, `sin(theta) = (h - r) / r`, `n` the horizontal direction from the centre into
//! the cushion. The impact is one instantaneous impulse at that point, as between two
//! rigid bodies, with the cloth's friction neglected over its short duration:
//!
//! - along the contact normal `rho / r` the point approaches at `c = (v . n) cos(theta)`
//!   (the ball's spin moves the point across the normal, never along it), and the
//!   normal impulse is `(1 + e) m c`, restitution `e`;
//! - across it the point slips at `s` (the contact velocity less its normal part). A
//!   tangential impulse `P` changes that slip by `P (1 + m r^2 / I) / m`; Coulomb
//!   friction `mu` either stops the slip within the impact (when
//!   `m |s| / (1 + m r^2 / I) <= mu (1 + e) m c`) or acts at `mu` times the normal
//!   impulse against `s`, whose direction the impulse does not change.
//!
//! The impulse `P` then changes the velocity by `P / m` in the table's plane (its
//! vertical part goes into the cloth: the ball stays on the table) and the spin by
//! `rho x P / I`. A nose above the equator presses the ball down and turns its spin,
//! which is why a ball comes off a real cushion with a different angle and spin than a
//! disk off a wall. `mu = 0`: the normal impulse alone.

use crate::cloth::{Body, Sphere};

/// The nose height of a standard cushion, in ball radii: 63.5 % of the ball's
/// diameter (the WPA's equipment specification allows 62.5 to 64.5 %).
pub const DEFAULT_NOSE_HEIGHT: f64 = 1.27;

/// The outcome of one cushion impact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rebound {
    pub sphere: Sphere,
    /// The normal impulse per unit mass, `(1 + e) c` (0 when the ball was not
    /// approaching the cushion).
    pub impulse_per_mass: f64,
    /// The centre's speed towards the cushion before the impact, `v . n`.
    pub approach: f64,
}

/// Ball `s` (radius and `m r^2 / I` in `b`) striking a cushion whose nose is `h` above
/// the cloth (`0 < h < 2 r`), `n` the unit horizontal direction from the ball's centre
/// into the cushion, `surface` the velocity of the cushion's surface along the table (a
/// moving wall's; zero for a cushion), restitution `e`, friction `mu`.
pub fn rebound(
    s: &Sphere,
    b: Body,
    n: [f64; 2],
    h: f64,
    e: f64,
    mu: f64,
    surface: [f64; 2],
) -> Rebound {
    let r = b.r;
    let approach = s.v[0] * n[0] + s.v[1] * n[1];
    let sin_t = ((h - r) / r).clamp(-1.0, 1.0);
    let cos_t = (1.0 - sin_t * sin_t).sqrt();
    let c = approach * cos_t;
    if c <= 0.0 {
        return Rebound {
            sphere: *s,
            impulse_per_mass: 0.0,
            approach,
        };
    }
    // Unit contact normal from the centre to the nose (z points into the table, so "up"
    // is -z).
    let nr = [cos_t * n[0], cos_t * n[1], -sin_t];
    let rho = nr.map(|x| r * x);
    let w = s.w;
    // Contact point's velocity relative to the cushion's surface: v + w x rho - surface.
    let spin = cross(w, rho);
    let cv = [
        s.v[0] + spin[0] - surface[0],
        s.v[1] + spin[1] - surface[1],
        spin[2],
    ];
    let cn = dot(cv, nr);
    let slip = [cv[0] - cn * nr[0], cv[1] - cn * nr[1], cv[2] - cn * nr[2]];
    let slip_speed = dot(slip, slip).sqrt();
    let normal = (1.0 + e) * c;
    // The tangential impulse per unit mass that stops the slip, and what friction allows.
    let stop = slip_speed / (1.0 + b.k);
    let tangential = if slip_speed == 0.0 {
        0.0
    } else if stop <= mu * normal {
        stop
    } else {
        mu * normal
    };
    let p: [f64; 3] = std::array::from_fn(|k| {
        let t = if slip_speed > 0.0 {
            -tangential * slip[k] / slip_speed
        } else {
            0.0
        };
        -normal * nr[k] + t
    });
    // Spin change: rho x P / I = (k / r^2) rho x (P / m).
    let dw = cross(rho, p).map(|x| x * b.k / (r * r));
    Rebound {
        sphere: Sphere {
            v: [s.v[0] + p[0], s.v[1] + p[1]],
            w: [w[0] + dw[0], w[1] + dw[1], w[2] + dw[2]],
        },
        impulse_per_mass: normal,
        approach,
    }
}

#[inline]
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[inline]
fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloth::Cloth;

    const BALL: Body = Body { r: 1.0, k: 2.5 };

    #[test]
    fn a_nose_at_the_equator_without_friction_is_a_wall() {
        let s = Sphere {
            v: [3.0, 1.0],
            w: [0.5, -2.0, 4.0],
        };
        let out = rebound(&s, BALL, [1.0, 0.0], 1.0, 0.8, 0.0, [0.0; 2]);
        assert!((out.sphere.v[0] + 0.8 * 3.0).abs() < 1e-15);
        assert_eq!(out.sphere.v[1], 1.0);
        assert_eq!(out.sphere.w, s.w);
    }

    #[test]
    fn energy_never_rises_off_a_cushion() {
        let m = 1.0;
        let inertia = 0.4;
        for k in 0..200 {
            let a = k as f64 * 0.37;
            let s = Sphere {
                v: [2.0 * a.cos().abs() + 0.1, 3.0 * (1.3 * a).sin()],
                w: [
                    5.0 * (0.7 * a).sin(),
                    4.0 * (2.1 * a).cos(),
                    6.0 * (0.3 * a).sin(),
                ],
            };
            for (h, e, mu) in [(1.27, 1.0, 0.2), (1.4, 0.85, 0.5), (1.1, 1.0, 10.0)] {
                let out = rebound(&s, BALL, [1.0, 0.0], h, e, mu, [0.0; 2]);
                let before = Cloth::energy(&s, m, inertia);
                let after = Cloth::energy(&out.sphere, m, inertia);
                assert!(after <= before * (1.0 + 1e-14), "{after} > {before}");
            }
        }
    }
}
