//! Pool balls on cloth (`physics.friction = { kind = "cloth", ... }`): every ball is a
//! sphere on the table that slides, rolls and spins, in closed form.
//!
//! Frame: x right, y down, z into the table (right-handed), so the cloth touches a ball
//! at `+r z`. A ball carries its velocity `v = (vx, vy)` and angular velocity
//! `(wx, wy, omega)`; `omega` is the spin about z, the same `omega` as a disk's. The
//! contact point slips over the cloth with
//!
//! ```text
//! u = v + w x (r z) = v + r (wy, -wx).
//! ```
//!
//! - **Sliding** (`u != 0`): friction `mu_s m g` acts at the contact against `u`. It
//!   accelerates the centre by `-mu_s g u/|u|` and, through its torque `(r z) x F`, the
//!   spin by `(m r / I) (-a_y, a_x)`; together they shrink `u` along its own direction
//!   at `mu_s g (1 + m r^2 / I)`, so `u` keeps its direction and vanishes after
//!   `|u0| / (mu_s g (1 + m r^2 / I))` (`2 |u0| / (7 mu_s g)` for a solid sphere).
//! - **Rolling** (`u = 0`, `v != 0`): rolling resistance decelerates it by `mu_r g`
//!   along `-v/|v|`, spins locked to `v` (`wx = vy / r`, `wy = -vx / r`), until it
//!   stops after `|v| / (mu_r g)`.
//! - **Spinning** (`v = 0`, `omega != 0`) and **stationary**.
//!
//! In every phase the spin about z decays at the constant rate `mu_sp g m r / I`
//! (`5 mu_sp g / (2 r)` for a solid sphere) until it stops. Each phase is a constant
//! acceleration, so positions are parabolas in time and the event model can find
//! contact times exactly; the stepping models take [`Cloth::evolve`] over each step.

use crate::balls::Balls;
use crate::physics::params::Friction;

/// Cloth friction's decelerations (coefficient times `g_normal`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cloth {
    /// `sliding_mu g`: the sliding friction's deceleration.
    pub sliding: f64,
    /// `rolling_mu g`: the rolling deceleration.
    pub rolling: f64,
    /// `spinning_mu g`: the spin about z decays at `spinning m r / I`.
    pub spinning: f64,
}

/// The phase of a ball's motion on cloth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Sliding: the contact point slips on the cloth, and friction changes the velocity and
    /// the spins.
    Sliding,
    /// Rolling without slipping, decelerating by rolling resistance.
    Rolling,
    /// At rest on the cloth but spinning about the vertical.
    Spinning,
    /// At rest, without spin.
    Stationary,
}

impl Phase {
    /// The name the event log writes.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Sliding => "sliding",
            Phase::Rolling => "rolling",
            Phase::Spinning => "spinning",
            Phase::Stationary => "stationary",
        }
    }
}

/// One ball's motion: velocity and angular velocity `(wx, wy, omega)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    pub v: [f64; 2],
    pub w: [f64; 3],
}

/// A ball's fixed quantities: its radius and `k = m r^2 / I` (5/2 for a solid
/// sphere), which sets how spin and velocity share a friction impulse.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    pub r: f64,
    pub k: f64,
}

impl Body {
    pub fn new(r: f64, m: f64, inertia: f64) -> Body {
        Body {
            r,
            k: m * r * r / inertia,
        }
    }

    /// Ball `i`'s.
    #[inline]
    pub fn of(b: &Balls, i: usize) -> Body {
        Body::new(b.r[i], b.m[i], b.inertia[i])
    }
}

/// How small a slip counts as none: relative to the ball's speeds, a few thousand
/// round-offs. A slip that small would end within round-off of now anyway; treating it
/// as rolling keeps a ball that was set rolling (whose `u` is `v + r (-v / r)`, not
/// exactly 0 in floating point) from a zero-length slide.
const SLIP_TOLERANCE: f64 = 1e-12;

impl Sphere {
    /// Ball `i`'s velocity and angular velocity.
    #[inline]
    pub fn of(b: &Balls, i: usize) -> Sphere {
        Sphere {
            v: [b.vx[i], b.vy[i]],
            w: [b.wx[i], b.wy[i], b.omega[i]],
        }
    }

    /// Writes this velocity and these spins into ball `i`.
    #[inline]
    pub fn store(&self, b: &mut Balls, i: usize) {
        (b.vx[i], b.vy[i]) = (self.v[0], self.v[1]);
        (b.wx[i], b.wy[i], b.omega[i]) = (self.w[0], self.w[1], self.w[2]);
    }

    /// The contact point's slip over the cloth, `v + r (wy, -wx)`.
    #[inline]
    pub fn slip(&self, r: f64) -> [f64; 2] {
        [self.v[0] + r * self.w[1], self.v[1] - r * self.w[0]]
    }

    /// The spins of rolling without slip at the same velocity.
    #[inline]
    pub fn rolling(v: [f64; 2], omega: f64, r: f64) -> Sphere {
        Sphere {
            v,
            w: [v[1] / r, -v[0] / r, omega],
        }
    }
}

impl Cloth {
    /// The cloth of `physics.friction`, if it is cloth.
    pub fn of(friction: &Friction) -> Option<Cloth> {
        match *friction {
            Friction::Cloth {
                sliding_mu,
                rolling_mu,
                spinning_mu,
                g_normal,
            } => Some(Cloth {
                sliding: sliding_mu * g_normal,
                rolling: rolling_mu * g_normal,
                spinning: spinning_mu * g_normal,
            }),
            _ => None,
        }
    }

    /// The phase a ball is in.
    pub fn phase(&self, s: &Sphere, b: Body) -> Phase {
        let u = s.slip(b.r);
        let scale = s.v[0]
            .abs()
            .max(s.v[1].abs())
            .max(b.r * s.w[0].abs().max(s.w[1].abs()));
        // Without sliding friction (`sliding_mu` or `g_normal` 0) a slipping ball
        // slides for ever, its spins untouched: nothing can bring it to roll, and
        // locking its spins to its velocity would make rotational energy from nothing.
        if u[0].abs().max(u[1].abs()) > SLIP_TOLERANCE * scale {
            Phase::Sliding
        } else if s.v != [0.0, 0.0] {
            Phase::Rolling
        } else if s.w[2] != 0.0 {
            Phase::Spinning
        } else {
            Phase::Stationary
        }
    }

    /// The constant acceleration of the centre during `phase`.
    #[inline]
    pub fn accel(&self, phase: Phase, s: &Sphere, b: Body) -> [f64; 2] {
        match phase {
            Phase::Sliding => {
                let u = s.slip(b.r);
                let n = u[0].hypot(u[1]);
                [-self.sliding * u[0] / n, -self.sliding * u[1] / n]
            }
            Phase::Rolling => {
                let n = s.v[0].hypot(s.v[1]);
                [-self.rolling * s.v[0] / n, -self.rolling * s.v[1] / n]
            }
            Phase::Spinning | Phase::Stationary => [0.0, 0.0],
        }
    }

    /// The spin about z's rate of decay, `spinning m r / I = spinning k / r`.
    #[inline]
    pub fn spin_decay(&self, b: Body) -> f64 {
        self.spinning * b.k / b.r
    }

    /// How long `phase` lasts from state `s` (infinite when nothing ends it: a
    /// frictionless cloth, a ball at rest).
    pub fn duration(&self, phase: Phase, s: &Sphere, b: Body) -> f64 {
        let over = |x: f64, rate: f64| if rate > 0.0 { x / rate } else { f64::INFINITY };
        match phase {
            Phase::Sliding => {
                let u = s.slip(b.r);
                over(u[0].hypot(u[1]), self.sliding * (1.0 + b.k))
            }
            Phase::Rolling => over(s.v[0].hypot(s.v[1]), self.rolling),
            Phase::Spinning => over(s.w[2].abs(), self.spin_decay(b)),
            Phase::Stationary => f64::INFINITY,
        }
    }

    /// The state `t` after `s` within `phase` (`0 <= t <=` its duration), and the
    /// centre's displacement over that time.
    pub fn advance(&self, phase: Phase, s: &Sphere, b: Body, t: f64) -> (Sphere, [f64; 2]) {
        let a = self.accel(phase, s, b);
        let v = [s.v[0] + a[0] * t, s.v[1] + a[1] * t];
        let d = [
            s.v[0] * t + 0.5 * a[0] * t * t,
            s.v[1] * t + 0.5 * a[1] * t * t,
        ];
        let omega = self.spun_down(s.w[2], b, t);
        let w = match phase {
            Phase::Sliding => {
                // The friction torque's spin change, (m r / I)(-a_y, a_x) per unit time.
                let c = b.k / b.r * t;
                [s.w[0] - c * a[1], s.w[1] + c * a[0], omega]
            }
            Phase::Rolling => [v[1] / b.r, -v[0] / b.r, omega],
            Phase::Spinning | Phase::Stationary => [s.w[0], s.w[1], omega],
        };
        (Sphere { v, w }, d)
    }

    /// The spin about z `t` after `omega`: it decays towards 0 and stops there.
    #[inline]
    pub fn spun_down(&self, omega: f64, b: Body, t: f64) -> f64 {
        let left = omega.abs() - self.spin_decay(b) * t;
        if left > 0.0 {
            left.copysign(omega)
        } else {
            0.0
        }
    }

    /// The state at the end of `phase` (its duration after `s`, finite) and the phase
    /// that follows, set exactly: rolling spins locked to the velocity, a stopped ball's
    /// velocity zero.
    pub fn end_of(&self, phase: Phase, s: &Sphere, b: Body) -> (Sphere, [f64; 2], Phase) {
        let t = self.duration(phase, s, b);
        let (mut e, d) = self.advance(phase, s, b, t);
        let next = match phase {
            Phase::Sliding => {
                e = Sphere::rolling(e.v, e.w[2], b.r);
                if e.v == [0.0, 0.0] {
                    // A slide that ends with the ball at rest (a stun shot's draw
                    // exactly cancelled): it goes straight to spinning or rest.
                    e.w[0] = 0.0;
                    e.w[1] = 0.0;
                    if e.w[2] != 0.0 {
                        Phase::Spinning
                    } else {
                        Phase::Stationary
                    }
                } else {
                    Phase::Rolling
                }
            }
            Phase::Rolling => {
                e = Sphere {
                    v: [0.0, 0.0],
                    w: [0.0, 0.0, e.w[2]],
                };
                if e.w[2] != 0.0 {
                    Phase::Spinning
                } else {
                    Phase::Stationary
                }
            }
            Phase::Spinning | Phase::Stationary => {
                e.w[2] = 0.0;
                Phase::Stationary
            }
        };
        (e, d, next)
    }

    /// The state `dt` after `s`, through as many phases as the time holds, and the
    /// centre's displacement. `changed(t, from, to)` hears of each phase change, `t`
    /// after `s`.
    pub fn evolve(
        &self,
        s: &Sphere,
        b: Body,
        dt: f64,
        mut changed: impl FnMut(f64, Phase, Phase),
    ) -> (Sphere, [f64; 2]) {
        let mut s = *s;
        let mut phase = self.phase(&s, b);
        let mut d = [0.0, 0.0];
        let mut t = 0.0;
        // Each change moves down the order sliding > rolling > spinning > stationary,
        // so there are at most three.
        for _ in 0..4 {
            let left = dt - t;
            let span = self.duration(phase, &s, b);
            if span > left || phase == Phase::Stationary {
                let (e, dd) = self.advance(phase, &s, b, left);
                return (e, [d[0] + dd[0], d[1] + dd[1]]);
            }
            let (e, dd, next) = self.end_of(phase, &s, b);
            d = [d[0] + dd[0], d[1] + dd[1]];
            t += span;
            changed(t, phase, next);
            s = e;
            phase = next;
        }
        (s, d)
    }

    /// Kinetic energy of a ball of mass `m` and moment of inertia `inertia` on the
    /// cloth: translation plus rotation about all three axes.
    #[cfg(any(test, feature = "internals"))]
    pub fn energy(s: &Sphere, m: f64, inertia: f64) -> f64 {
        0.5 * m * (s.v[0] * s.v[0] + s.v[1] * s.v[1])
            + 0.5 * inertia * (s.w[0] * s.w[0] + s.w[1] * s.w[1] + s.w[2] * s.w[2])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLOTH: Cloth = Cloth {
        sliding: 0.2 * 9.81,
        rolling: 0.01 * 9.81,
        spinning: 0.0127 * 9.81,
    };
    const BALL: Body = Body {
        r: 0.028575,
        k: 2.5,
    };

    #[test]
    fn a_stun_ball_slides_for_two_sevenths_then_rolls_at_five_sevenths() {
        let v0 = 2.0;
        let s = Sphere {
            v: [v0, 0.0],
            w: [0.0; 3],
        };
        assert_eq!(CLOTH.phase(&s, BALL), Phase::Sliding);
        let t_slide = CLOTH.duration(Phase::Sliding, &s, BALL);
        let want = 2.0 * v0 / (7.0 * CLOTH.sliding);
        assert!((t_slide - want).abs() <= 1e-15 * want);
        let (e, d, next) = CLOTH.end_of(Phase::Sliding, &s, BALL);
        assert_eq!(next, Phase::Rolling);
        assert!((e.v[0] - 5.0 / 7.0 * v0).abs() < 1e-14);
        let want_d = 12.0 * v0 * v0 / (49.0 * CLOTH.sliding);
        assert!((d[0] - want_d).abs() < 1e-14 * want_d);
        let roll = CLOTH.duration(Phase::Rolling, &e, BALL);
        let (_, d2, last) = CLOTH.end_of(Phase::Rolling, &e, BALL);
        assert_eq!(last, Phase::Stationary);
        assert!((roll - 5.0 / 7.0 * v0 / CLOTH.rolling).abs() < 1e-12);
        let want_roll = 25.0 * v0 * v0 / (98.0 * CLOTH.rolling);
        assert!((d2[0] - want_roll).abs() < 1e-12 * want_roll);
    }

    #[test]
    fn evolve_in_many_steps_matches_one_and_reports_each_change() {
        let s = Sphere {
            v: [1.0, -0.5],
            w: [3.0, 40.0, 25.0],
        };
        let mut changes = Vec::new();
        let (one, d1) = CLOTH.evolve(&s, BALL, 20.0, |t, a, b| changes.push((t, a, b)));
        assert_eq!(
            changes.iter().map(|c| c.2).collect::<Vec<_>>(),
            [Phase::Rolling, Phase::Stationary]
        );
        assert_eq!(one.v, [0.0, 0.0]);
        let mut many = s;
        let mut d = [0.0, 0.0];
        for _ in 0..2000 {
            let (e, dd) = CLOTH.evolve(&many, BALL, 0.01, |_, _, _| {});
            many = e;
            d = [d[0] + dd[0], d[1] + dd[1]];
        }
        assert!((d[0] - d1[0]).abs() < 1e-9 && (d[1] - d1[1]).abs() < 1e-9);
        assert_eq!(many.v, [0.0, 0.0]);
    }

    #[test]
    fn energy_never_rises_on_cloth() {
        let mut s = Sphere {
            v: [0.7, 1.3],
            w: [-60.0, 10.0, -30.0],
        };
        let (m, i) = (0.17, 0.4 * 0.17 * BALL.r * BALL.r);
        let mut e = Cloth::energy(&s, m, i);
        for _ in 0..1000 {
            s = CLOTH.evolve(&s, BALL, 0.005, |_, _, _| {}).0;
            let now = Cloth::energy(&s, m, i);
            assert!(now <= e * (1.0 + 1e-15), "{now} > {e}");
            e = now;
        }
    }
}
