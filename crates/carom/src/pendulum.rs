//! A ball held on a circle under gravity, frictionless: the motion of a ball rolling
//! over a corner or a peg, or swinging inside an arc. Its centre keeps a distance `rho`
//! from a fixed point and only the tangential part of gravity moves it, so its angle
//! `theta` (from the direction of gravity, growing towards that direction turned by
//! +90 degrees) obeys the pendulum's `theta'' = -(g / rho) sin theta`, solved here in
//! closed form with Jacobi's functions ([`crate::elliptic`]):
//!
//! - energy below the top (`m = sin^2(theta/2) + (theta' / 2 w0)^2 < 1`, `w0^2 = g /
//!   rho`): it swings, `sin(theta/2) = k sn(w0 t + u0 | m)`, `theta' = 2 k w0 cn`;
//! - above it: it goes round, `theta/2 = am(s k w0 t + v0 | 1/m)`, `theta' = 2 s k w0
//!   dn`, `s` the sign of its turning;
//! - at rest at the bottom or balanced on the top: it stays.
//!
//! Whether the circle still holds the ball (the normal force is positive) is the
//! caller's rule; this module gives the angle at which that force vanishes
//! ([`Pendulum::release_cos`]) and the first time the angle reaches any given value
//! ([`Pendulum::reaches`]), both exact, and bounds on speed and acceleration for the
//! times of impact with anything else, found by [`first_touch`].

use crate::elliptic::{am, complete_k, dn_of, incomplete_f};
use std::f64::consts::{FRAC_PI_2, PI};

#[derive(Debug, Clone, Copy, PartialEq)]
enum Swing {
    /// At rest at the bottom, or balanced on the top.
    Still,
    /// Swinging: parameter `m`, complement `m1`, `k = sqrt(m)`, phase `u0`, quarter
    /// period `kk`.
    Libration {
        m: f64,
        m1: f64,
        k: f64,
        u0: f64,
        kk: f64,
    },
    /// Going round: parameter `1/m` (`m1` its complement), `k = sqrt(m)`, phase `v0`,
    /// sense `s`, half period of the amplitude `kk`.
    Rotation {
        m: f64,
        m1: f64,
        k: f64,
        v0: f64,
        s: f64,
        kk: f64,
    },
}

/// A ball's motion on a circle about `center` under gravity, from its state at `t = 0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pendulum {
    center: [f64; 2],
    rho: f64,
    /// Unit vector along gravity, and it turned by +90 degrees.
    down: [f64; 2],
    side: [f64; 2],
    g: f64,
    w0: f64,
    theta0: f64,
    omega0: f64,
    swing: Swing,
}

#[inline]
fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

/// `x` brought into `(-pi, pi]`.
#[inline]
pub fn wrap_angle(x: f64) -> f64 {
    let y = x.rem_euclid(2.0 * PI);
    if y > PI {
        y - 2.0 * PI
    } else {
        y
    }
}

impl Pendulum {
    /// The motion of a ball at `p` with velocity `v` about `center` (its speed along
    /// the radius is taken as zero: the circle holds it), under gravity `g` (not zero).
    pub fn new(center: [f64; 2], p: [f64; 2], v: [f64; 2], g: [f64; 2]) -> Pendulum {
        let gn = g[0].hypot(g[1]);
        let down = [g[0] / gn, g[1] / gn];
        let side = [-down[1], down[0]];
        let d = [p[0] - center[0], p[1] - center[1]];
        let rho = d[0].hypot(d[1]);
        let u = [d[0] / rho, d[1] / rho];
        let theta0 = dot(u, side).atan2(dot(u, down));
        let omega0 = dot(v, [-u[1], u[0]]) / rho;
        let w0 = (gn / rho).sqrt();
        let (a, b) = (0.5 * theta0).sin_cos();
        let h = omega0 / (2.0 * w0);
        let m = a * a + h * h;
        // 1 - m as the product of two differences: near the top it keeps its digits.
        let m1 = (b - h.abs()) * (b + h.abs());
        let swing = if omega0 == 0.0 && (theta0 == 0.0 || theta0 == PI) {
            Swing::Still
        } else if m1 >= 0.0 {
            let k = m.sqrt();
            // sn(u0) = a / k, cn(u0) = h / k.
            let u0 = incomplete_f(a.atan2(h), m, m1);
            Swing::Libration {
                m,
                m1,
                k,
                u0,
                kk: complete_k(m, m1),
            }
        } else {
            let (mr, mr1) = (1.0 / m, -m1 / m);
            Swing::Rotation {
                m: mr,
                m1: mr1,
                k: m.sqrt(),
                v0: incomplete_f(0.5 * theta0, mr, mr1),
                s: omega0.signum(),
                kk: complete_k(mr, mr1),
            }
        };
        Pendulum {
            center,
            rho,
            down,
            side,
            g: gn,
            w0,
            theta0,
            omega0,
            swing,
        }
    }

    /// `(sin(theta/2), cos(theta/2), theta')` at time `t`.
    fn half_angle(&self, t: f64) -> (f64, f64, f64) {
        match self.swing {
            Swing::Still => {
                let (s, c) = (0.5 * self.theta0).sin_cos();
                (s, c, 0.0)
            }
            Swing::Libration { m, m1, k, u0, .. } => {
                let phi = am(u0 + self.w0 * t, m, m1);
                let (sp, cp) = phi.sin_cos();
                (k * sp, dn_of(phi, m, m1), 2.0 * k * self.w0 * cp)
            }
            Swing::Rotation {
                m, m1, k, v0, s, ..
            } => {
                let phi = am(v0 + s * k * self.w0 * t, m, m1);
                let (sp, cp) = phi.sin_cos();
                (sp, cp, 2.0 * s * k * self.w0 * dn_of(phi, m, m1))
            }
        }
    }

    /// The angle `theta` at time `t`, unwrapped (continuous in `t`).
    pub fn angle(&self, t: f64) -> f64 {
        match self.swing {
            Swing::Still => self.theta0,
            Swing::Libration { .. } => {
                let (s, c, _) = self.half_angle(t);
                2.0 * s.atan2(c)
            }
            Swing::Rotation {
                m, m1, k, v0, s, ..
            } => 2.0 * am(v0 + s * k * self.w0 * t, m, m1),
        }
    }

    /// Position and velocity of the centre at time `t`.
    pub fn state(&self, t: f64) -> [f64; 4] {
        let (s, c, w) = self.half_angle(t);
        let (sin, cos) = (2.0 * s * c, c * c - s * s);
        let u = [
            cos * self.down[0] + sin * self.side[0],
            cos * self.down[1] + sin * self.side[1],
        ];
        let speed = self.rho * w;
        [
            self.center[0] + self.rho * u[0],
            self.center[1] + self.rho * u[1],
            -speed * u[1],
            speed * u[0],
        ]
    }

    /// The angle, in this motion's measure, of the direction `dir` from the centre.
    pub fn angle_of(&self, dir: [f64; 2]) -> f64 {
        dot(dir, self.side).atan2(dot(dir, self.down))
    }

    /// The cosine of the angle at which a circle pushing the ball outwards (`outside`:
    /// a corner, a peg) or inwards (inside an arc) stops pushing. With the energy
    /// `E = theta'^2/2 - w0^2 cos theta`, the push per unit mass is `-(2 rho E + 3 g cos
    /// theta)` outside and its opposite inside: it vanishes at `cos theta = -2 E / (3
    /// w0^2)`.
    pub fn release_cos(&self) -> f64 {
        let w02 = self.w0 * self.w0;
        let e = 0.5 * self.omega0 * self.omega0 - w02 * self.theta0.cos();
        -2.0 * e / (3.0 * w02)
    }

    /// The first time `t >= 0` at which the angle passes `target` (modulo a turn)
    /// while growing (`rising`) or shrinking; `None` if it never does.
    pub fn reaches(&self, target: f64, rising: bool) -> Option<f64> {
        match self.swing {
            Swing::Still => None,
            Swing::Libration { m, m1, k, u0, kk } => {
                let q = (0.5 * wrap_angle(target)).sin() / k;
                // A turning point is reached when round-off puts it a hair beyond.
                if q.is_nan() || q.abs() > 1.0 + 4.0 * f64::EPSILON {
                    return None;
                }
                let q = q.clamp(-1.0, 1.0);
                // Rising where cn > 0: u = F(asin q) + 4nK; falling at 2K - F(asin q).
                let f = incomplete_f(q.asin(), m, m1);
                let base = if rising { f } else { 2.0 * kk - f };
                let period = 4.0 * kk;
                let u = if period.is_finite() {
                    base + ((u0 - base) / period).ceil() * period
                } else if base >= u0 {
                    base
                } else {
                    return None;
                };
                Some(((u - u0) / self.w0).max(0.0))
            }
            Swing::Rotation {
                m,
                m1,
                k,
                v0,
                s,
                kk,
            } => {
                if rising != (s > 0.0) {
                    return None;
                }
                let mut h = 0.5 * wrap_angle(target);
                if h <= -FRAC_PI_2 {
                    h += PI;
                } else if h > FRAC_PI_2 {
                    h -= PI;
                }
                let base = incomplete_f(h, m, m1);
                let period = 2.0 * kk;
                let w = if s > 0.0 {
                    base + ((v0 - base) / period).ceil() * period
                } else {
                    base + ((v0 - base) / period).floor() * period
                };
                Some(((w - v0).abs() / (k * self.w0)).max(0.0))
            }
        }
    }

    /// Upper bounds on the centre's speed and acceleration at any time: the energy
    /// gives the speed at the lowest point, and the acceleration is the centripetal
    /// `v^2 / rho` and at most `g` along the circle.
    pub fn bounds(&self) -> (f64, f64) {
        let v2 =
            (self.rho * self.omega0).powi(2) + 2.0 * self.g * self.rho * (1.0 - self.theta0.cos());
        (v2.sqrt(), v2 / self.rho + self.g)
    }
}

/// A gap that neither closed nor opened within [`first_touch`]'s steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsettled;

/// The longest step from a gap `gap` changing at `rate` that bounds prove free of
/// contact: the gap changes no faster than `lip`, and its second derivative is at least
/// `-curv` when `curv` is given (then `gap + rate s - curv s^2 / 2` bounds it below).
pub fn safe_step(gap: f64, rate: f64, lip: f64, curv: Option<f64>) -> f64 {
    let gp = gap.max(0.0);
    let s = if lip > 0.0 { gp / lip } else { f64::INFINITY };
    match curv {
        Some(a) => s.max(quadratic_step(gp, rate, a)),
        None => s,
    }
}

/// How far a gap `gap` changing at `rate`, with second derivative at least `-curv`,
/// surely does not close: the first positive root of `gap + rate s - curv s^2 / 2`
/// while it is open; touching (within round-off, `gap <= 0`) and opening, until its
/// rate could turn to closing (`rate / curv`); else nothing.
pub fn quadratic_step(gap: f64, rate: f64, curv: f64) -> f64 {
    if gap <= 0.0 {
        return match (rate > 0.0, curv > 0.0) {
            (true, true) => rate / curv,
            (true, false) => f64::INFINITY,
            (false, _) => 0.0,
        };
    }
    if curv > 0.0 {
        (rate + (rate * rate + 2.0 * curv * gap).sqrt()) / curv
    } else if rate >= 0.0 {
        f64::INFINITY
    } else {
        gap / -rate
    }
}

/// The first time in `[0, horizon]` at which a gap function `f(t) = (gap, gap')`
/// closes: `gap <= tol` while `gap' < 0`, stepping by [`safe_step`] with `lip` and
/// `curv`, so that no root is ever stepped over; a touch at the start closing at no
/// more than 1e-12 `lip` is round-off (see [`first_touch_by`]).
pub fn first_touch(
    horizon: f64,
    lip: f64,
    curv: Option<f64>,
    tol: f64,
    mut f: impl FnMut(f64) -> (f64, f64),
) -> Result<Option<f64>, Unsettled> {
    // Round-off of a rate: a part in 1e12 of the largest.
    first_touch_by(horizon, tol, 1e-12 * lip, |t| {
        let (g, dg) = f(t);
        (g, dg, safe_step(g, dg, lip, curv))
    })
}

/// The first time in `[0, horizon]` at which a gap closes: `f(t) = (gap, gap', step)`,
/// `step` the longest the caller's bounds prove free of contact from `t`. A closing gap
/// within `tol` takes a last Newton step to round-off. A gap touching at the start and
/// closing no faster than `still` (round-off of a contact at rest) is no meeting then:
/// it is looked at again a step later, where it closes for real (and is met) or opens.
/// [`Unsettled`] if 100,000 steps did not settle it (a touch that neither closes nor
/// opens).
pub fn first_touch_by(
    horizon: f64,
    tol: f64,
    still: f64,
    mut f: impl FnMut(f64) -> (f64, f64, f64),
) -> Result<Option<f64>, Unsettled> {
    let mut t = 0.0;
    // The least step, so that a touch that neither closes nor opens is passed. While
    // a touch keeps opening without a bound to prove a longer step (round-off has it a
    // hair closed), the least step doubles: the gap opens as the time since, and can
    // only close again once its rate turns, which the samples would see.
    let floor = 1e-13 * horizon.max(1e-300);
    let mut least = floor;
    for _ in 0..100_000 {
        let (g, dg, step) = f(t);
        if g <= tol && dg < 0.0 && (t > 0.0 || -dg > still) {
            // One Newton step onto the root (never back past now).
            let t = if g > 0.0 { t + g / -dg } else { t };
            return Ok((t <= horizon).then_some(t));
        }
        least = if g <= tol && dg >= 0.0 {
            2.0 * least
        } else {
            floor
        };
        t += step.max(least);
        if t > horizon || !t.is_finite() {
            return Ok(None);
        }
    }
    Err(Unsettled)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pendulum integrated by classical Runge-Kutta with a step small enough that
    /// its error (h^4 per unit time) is far below the tolerances.
    fn integrate(theta: f64, omega: f64, w02: f64, t: f64) -> (f64, f64) {
        let n = 200_000;
        let h = t / n as f64;
        let (mut x, mut w) = (theta, omega);
        let acc = |x: f64| -w02 * x.sin();
        for _ in 0..n {
            let (k1x, k1w) = (w, acc(x));
            let (k2x, k2w) = (w + 0.5 * h * k1w, acc(x + 0.5 * h * k1x));
            let (k3x, k3w) = (w + 0.5 * h * k2w, acc(x + 0.5 * h * k2x));
            let (k4x, k4w) = (w + h * k3w, acc(x + h * k3x));
            x += h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
            w += h / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w);
        }
        (x, w)
    }

    fn start(theta: f64, omega: f64, rho: f64, g: [f64; 2]) -> Pendulum {
        let gn = g[0].hypot(g[1]);
        let down = [g[0] / gn, g[1] / gn];
        let side = [-down[1], down[0]];
        let u = [
            theta.cos() * down[0] + theta.sin() * side[0],
            theta.cos() * down[1] + theta.sin() * side[1],
        ];
        let c = [0.3, -0.2];
        let p = [c[0] + rho * u[0], c[1] + rho * u[1]];
        let v = [-rho * omega * u[1], rho * omega * u[0]];
        Pendulum::new(c, p, v, g)
    }

    /// Swinging, going round either way, and near the top: the closed form against
    /// the integrated equation of motion, over several periods.
    #[test]
    fn closed_form_solves_the_equation_of_motion() {
        let g = [0.0, 9.81];
        let rho = 0.7;
        let w02 = 9.81 / rho;
        for &(theta, omega) in &[
            (0.3, 0.0),
            (-1.0, 2.0),
            (2.5, -1.0),
            (0.0, 8.0),
            (1.0, -9.0),
            (3.1, 0.05),
            (-3.0, -0.2),
        ] {
            let p = start(theta, omega, rho, g);
            for &t in &[0.1, 0.77, 2.3] {
                let (x, w) = integrate(theta, omega, w02, t);
                let got = p.angle(t);
                assert!(
                    (wrap_angle(got - x)).abs() < 1e-9,
                    "theta0 {theta} omega0 {omega} t {t}: {got} vs {x}"
                );
                let s = p.state(t);
                let d = [s[0] - 0.3, s[1] + 0.2];
                assert!((d[0].hypot(d[1]) - rho).abs() < 1e-14);
                // The speed along the circle is rho theta'.
                let speed = s[2].hypot(s[3]);
                assert!(
                    (speed - rho * w.abs()).abs() < 1e-8,
                    "{speed} vs {}",
                    rho * w
                );
            }
        }
    }

    /// Energy is the same at every time (to round-off), whatever the direction of
    /// gravity.
    #[test]
    fn energy_is_conserved() {
        for &g in &[[0.0, 9.81], [3.0, -4.0], [-1.0, 0.2]] {
            let p = start(1.2, 3.0, 0.5, g);
            let energy =
                |s: [f64; 4]| 0.5 * (s[2] * s[2] + s[3] * s[3]) - (g[0] * s[0] + g[1] * s[1]);
            let e0 = energy(p.state(0.0));
            for q in 0..200 {
                let e = energy(p.state(0.05 * q as f64));
                assert!((e - e0).abs() < 1e-12 * e0.abs().max(1.0), "{e} vs {e0}");
            }
        }
    }

    /// The small-swing period is 2 pi sqrt(rho / g), and a swing of amplitude a has
    /// period 4 K(sin^2(a/2)) / w0: the angle is back where it started.
    #[test]
    fn period() {
        let (rho, g): (f64, f64) = (1.3, 9.81);
        let w0 = (g / rho).sqrt();
        let a: f64 = 1.1;
        let p = start(a, 0.0, rho, [0.0, g]);
        let m = (0.5 * a).sin().powi(2);
        let period = 4.0 * complete_k(m, 1.0 - m) / w0;
        assert!((p.angle(period) - a).abs() < 1e-12);
        assert!((p.angle(0.5 * period) + a).abs() < 1e-12);
        // Through the bottom at a quarter period, falling, and again at three
        // quarters, rising.
        let quarter = p.reaches(0.0, false).unwrap();
        assert!(
            (quarter - 0.25 * period).abs() < 1e-12 * period,
            "{quarter}"
        );
        let back = p.reaches(0.0, true).unwrap();
        assert!((back - 0.75 * period).abs() < 1e-12 * period, "{back}");
        let small = start(1e-6, 0.0, rho, [0.0, g]);
        let t = small.reaches(0.0, true).unwrap();
        assert!((t - 1.5 * PI / w0).abs() < 1e-9);
    }

    /// The time an angle is reached, checked by the angle at that time, for swings,
    /// rotations both ways, targets either side.
    #[test]
    fn reaches_gives_the_angle() {
        let g = [0.0, 9.81];
        for &(theta, omega) in &[
            (0.2, 1.0),
            (0.2, -1.0),
            (3.0, 0.3),
            (0.0, 9.0),
            (0.5, -12.0),
        ] {
            let p = start(theta, omega, 0.4, g);
            for q in -6..=6 {
                let target = 0.5 * q as f64;
                for rising in [true, false] {
                    let Some(t) = p.reaches(target, rising) else {
                        continue;
                    };
                    assert!(
                        wrap_angle(p.angle(t) - target).abs() < 1e-10,
                        "{theta} {omega} {target}"
                    );
                    let w = p.state(t);
                    let u = [-(w[1] + 0.2), w[0] - 0.3];
                    // theta' has the sign asked for (the velocity along +theta).
                    let along = (w[2] * u[0] + w[3] * u[1]) * if rising { 1.0 } else { -1.0 };
                    assert!(along >= -1e-9, "{theta} {omega} {target} {rising}");
                    // And no earlier crossing the same way: sampled.
                    for q in 0..98 {
                        let a1 = wrap_angle(p.angle(t * q as f64 / 100.0) - target);
                        let a2 = wrap_angle(p.angle(t * (q + 1) as f64 / 100.0) - target);
                        let crossed = if rising {
                            a1 < 0.0 && a2 >= 0.0
                        } else {
                            a1 > 0.0 && a2 <= 0.0
                        };
                        assert!(
                            !(crossed && a1.abs() < 1.0),
                            "{theta} {omega} {target} {rising}"
                        );
                    }
                }
            }
        }
    }

    /// The force vanishes where `cos theta` is `release_cos`: a ball starting at rest
    /// on top of a circle leaves it at cos = 2/3 below the top (the textbook answer).
    #[test]
    fn release_from_the_top() {
        let p = start(PI - 1e-9, 0.0, 1.0, [0.0, 9.81]);
        assert!((p.release_cos() + 2.0 / 3.0).abs() < 1e-12);
    }

    /// The root finder finds a parabola's exact landing, never passes a closing gap,
    /// and leaves a gap that never closes alone.
    #[test]
    fn first_touch_finds_the_first_root() {
        // gap = 1 + 2 t - 5 t^2: closes at t = (2 + sqrt(24)) / 10.
        let f = |t: f64| (1.0 + 2.0 * t - 5.0 * t * t, 2.0 - 10.0 * t);
        let t = first_touch(10.0, 50.0, Some(10.0), 1e-12, f)
            .unwrap()
            .unwrap();
        assert!((t - (2.0 + 24f64.sqrt()) / 10.0).abs() < 1e-12);
        // With the first-order bound alone.
        let t = first_touch(10.0, 100.0, None, 1e-12, f).unwrap().unwrap();
        assert!((t - (2.0 + 24f64.sqrt()) / 10.0).abs() < 1e-11);
        // A narrow dip: gap = 1e-3 + (t - 1)^2 never closes; one that dips to -1e-6
        // between t = 1 +- 1e-3 is found.
        let miss = |t: f64| (1e-3 + (t - 1.0).powi(2), 2.0 * (t - 1.0));
        assert_eq!(first_touch(3.0, 4.0, Some(2.0), 1e-12, miss).unwrap(), None);
        let hit = |t: f64| ((t - 1.0).powi(2) - 1e-6, 2.0 * (t - 1.0));
        let t = first_touch(3.0, 4.0, Some(2.0), 1e-12, hit)
            .unwrap()
            .unwrap();
        assert!((t - (1.0 - 1e-3)).abs() < 1e-12);
        // Beyond the horizon: none.
        assert_eq!(first_touch(0.5, 50.0, Some(10.0), 1e-12, f).unwrap(), None);
    }
}
