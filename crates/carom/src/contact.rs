//! The impulse law at one contact point, shared by the hard-contact models (`impulse`,
//! `simultaneous`, `event`): smooth or rough disks, with Newton's restitution along the
//! normal and, when contact friction is on, the rough-disk law along the tangent.
//!
//! Conventions, for a contact between ball `i` and ball `j` (or a wall, which is a body
//! of infinite mass and inertia at rest):
//! - `n` is the unit normal from `i` towards `j`; `t = (-n_y, n_x)` the unit tangent
//!   (`n` turned by +90 degrees, the sense in which `omega` is positive).
//! - The contact point sits at `+r_i n` from `i`'s centre and at `-r_j n` from `j`'s. Its
//!   velocity on `i` is `v_i + omega_i r_i t`, on `j` it is `v_j - omega_j r_j t`, so the
//!   relative velocity of `i`'s surface against `j`'s is
//!   `u = v_i - v_j + (omega_i r_i + omega_j r_j) t`, with normal part `u_n = u . n`
//!   (positive: approaching) and tangential part `u_t = u . t`.
//! - The impulse on `i` is `P = -j_n n + j_t t` (and `-P` on `j`). It changes
//!   `u_n` by `-j_n k_n` and `u_t` by `j_t k_t`, with the compliances
//!   `k_n = 1/m_i + 1/m_j` and `k_t = k_n + r_i^2/I_i + r_j^2/I_j` (kinematic balls and
//!   walls contribute 0).

use crate::balls::Balls;
use crate::physics::ContactFriction;

/// Normal and tangential impulse magnitudes for one collision (see the module's
/// conventions): `j_n >= 0` along `-n` on ball `i`, `j_t` along `t` on ball `i`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactImpulse {
    pub j_n: f64,
    pub j_t: f64,
    /// True when the Coulomb cap bound the tangential impulse (the contact slid).
    pub sliding: bool,
}

/// The rough-disk collision law. The normal impulse gives `u_n' = -e u_n`; the
/// tangential one reverses the contact point's tangential velocity by `beta`
/// (`u_t' = -beta u_t`) unless that needs more than `mu j_n`, in which case the
/// contact slides and `|j_t| = mu j_n` against the slip. With `mu = 0` the tangential
/// impulse is exactly 0, so the smooth law is reproduced bit for bit. Returns zero
/// impulses when the surfaces do not approach (`u_n <= 0`) or both bodies are immovable.
#[inline]
pub fn rough_impulse(
    u_n: f64,
    u_t: f64,
    k_n: f64,
    k_t: f64,
    e: f64,
    friction: &ContactFriction,
) -> ContactImpulse {
    if u_n <= 0.0 || k_n <= 0.0 {
        return ContactImpulse {
            j_n: 0.0,
            j_t: 0.0,
            sliding: false,
        };
    }
    let j_n = (1.0 + e) * u_n / k_n;
    let (j_t, sliding) = tangential_impulse(j_n, u_t, k_t, friction);
    ContactImpulse { j_n, j_t, sliding }
}

/// The tangential half of [`rough_impulse`], for a contact that received the normal
/// impulse `j_n` by other means (the simultaneous solver): the impulse that reverses the
/// slip `u_t` by beta, capped at `mu |j_n|`; and whether the cap bound it. Zero when
/// friction is off or the contact cannot turn or move sideways (`k_t = 0`).
#[inline]
pub fn tangential_impulse(j_n: f64, u_t: f64, k_t: f64, friction: &ContactFriction) -> (f64, bool) {
    if !friction.is_active() || k_t <= 0.0 {
        return (0.0, false);
    }
    let stick = -(1.0 + friction.tangential_restitution) * u_t / k_t;
    let cap = friction.mu * j_n.abs();
    if stick.abs() <= cap {
        (stick, false)
    } else {
        (cap.copysign(stick), true)
    }
}

/// Slip and compliances of the contact between balls `i` and `j` along the unit normal
/// `n` (from `i` towards `j`), with the module's conventions: `(u_n, u_t, k_n, k_t)`.
#[inline]
pub fn pair_state(b: &Balls, i: usize, j: usize, n: [f64; 2]) -> (f64, f64, f64, f64) {
    let t = [-n[1], n[0]];
    let (dvx, dvy) = (b.vx[i] - b.vx[j], b.vy[i] - b.vy[j]);
    let spin = b.omega[i] * b.r[i] + b.omega[j] * b.r[j];
    let u_n = dvx * n[0] + dvy * n[1];
    let u_t = dvx * t[0] + dvy * t[1] + spin;
    let k_n = b.inv_m[i] + b.inv_m[j];
    let k_t = k_n + b.r[i] * b.r[i] * b.inv_inertia[i] + b.r[j] * b.r[j] * b.inv_inertia[j];
    (u_n, u_t, k_n, k_t)
}

/// Applies the impulse `P = -j_n n + j_t t` to ball `i` and `-P` to ball `j`, with the
/// spins it gives both (`r j_t / I` each, the same sense: both levers and both forces
/// reverse together).
#[inline]
pub fn apply_pair(b: &mut Balls, i: usize, j: usize, n: [f64; 2], j_n: f64, j_t: f64) {
    let t = [-n[1], n[0]];
    let (px, py) = (-j_n * n[0] + j_t * t[0], -j_n * n[1] + j_t * t[1]);
    b.vx[i] += px * b.inv_m[i];
    b.vy[i] += py * b.inv_m[i];
    b.vx[j] -= px * b.inv_m[j];
    b.vy[j] -= py * b.inv_m[j];
    b.omega[i] += b.r[i] * j_t * b.inv_inertia[i];
    b.omega[j] += b.r[j] * j_t * b.inv_inertia[j];
}

/// [`pair_state`] for ball `i` against a wall at rest, `n` pointing from the ball into
/// the wall.
#[inline]
pub fn wall_state(b: &Balls, i: usize, n: [f64; 2]) -> (f64, f64, f64, f64) {
    let t = [-n[1], n[0]];
    let u_n = b.vx[i] * n[0] + b.vy[i] * n[1];
    let u_t = b.vx[i] * t[0] + b.vy[i] * t[1] + b.omega[i] * b.r[i];
    let k_n = b.inv_m[i];
    let k_t = k_n + b.r[i] * b.r[i] * b.inv_inertia[i];
    (u_n, u_t, k_n, k_t)
}

/// [`apply_pair`] against a wall (which takes `-P` and does not move).
#[inline]
pub fn apply_wall(b: &mut Balls, i: usize, n: [f64; 2], j_n: f64, j_t: f64) {
    let t = [-n[1], n[0]];
    b.vx[i] += (-j_n * n[0] + j_t * t[0]) * b.inv_m[i];
    b.vy[i] += (-j_n * n[1] + j_t * t[1]) * b.inv_m[i];
    b.omega[i] += b.r[i] * j_t * b.inv_inertia[i];
}

/// One rough collision of balls `i` and `j` (normal `n` from `i` to `j`): the impulse
/// of [`rough_impulse`] applied to both. Returns it.
#[inline]
pub fn collide_pair_rough(
    b: &mut Balls,
    i: usize,
    j: usize,
    n: [f64; 2],
    e: f64,
    friction: &ContactFriction,
) -> ContactImpulse {
    let (u_n, u_t, k_n, k_t) = pair_state(b, i, j, n);
    let c = rough_impulse(u_n, u_t, k_n, k_t, e, friction);
    if c.j_n > 0.0 {
        apply_pair(b, i, j, n, c.j_n, c.j_t);
    }
    c
}

/// [`wall_state`] for a wall whose surface moves at `surface` (a belt, a turning drum):
/// the slip is the ball's contact point's velocity relative to the surface it touches.
/// The normal part is unchanged (the surface moves along itself).
#[inline]
pub fn moving_wall_state(
    b: &Balls,
    i: usize,
    n: [f64; 2],
    surface: [f64; 2],
) -> (f64, f64, f64, f64) {
    let (u_n, u_t, k_n, k_t) = wall_state(b, i, n);
    let t = [-n[1], n[0]];
    (u_n, u_t - (surface[0] * t[0] + surface[1] * t[1]), k_n, k_t)
}

/// One rough collision of ball `i` with a wall whose surface moves at `surface` (`n`
/// from the ball into the wall). With `surface = [0, 0]` it is
/// [`collide_wall_rough`]. Returns the impulse applied.
#[inline]
pub fn collide_moving_wall_rough(
    b: &mut Balls,
    i: usize,
    n: [f64; 2],
    surface: [f64; 2],
    e: f64,
    friction: &ContactFriction,
) -> ContactImpulse {
    let (u_n, u_t, k_n, k_t) = moving_wall_state(b, i, n, surface);
    let c = rough_impulse(u_n, u_t, k_n, k_t, e, friction);
    if c.j_n > 0.0 {
        apply_wall(b, i, n, c.j_n, c.j_t);
    }
    c
}

/// One rough collision of ball `i` with a wall at rest (`n` from the ball into the
/// wall). Returns the impulse applied.
#[inline]
pub fn collide_wall_rough(
    b: &mut Balls,
    i: usize,
    n: [f64; 2],
    e: f64,
    friction: &ContactFriction,
) -> ContactImpulse {
    let (u_n, u_t, k_n, k_t) = wall_state(b, i, n);
    let c = rough_impulse(u_n, u_t, k_n, k_t, e, friction);
    if c.j_n > 0.0 {
        apply_wall(b, i, n, c.j_n, c.j_t);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rough(mu: f64, beta: f64) -> ContactFriction {
        ContactFriction {
            mu,
            tangential_restitution: beta,
            tangential_stiffness: None,
        }
    }

    #[test]
    fn smooth_contacts_have_no_tangential_impulse() {
        let c = rough_impulse(2.0, 5.0, 2.0, 6.0, 0.5, &ContactFriction::NONE);
        assert_eq!((c.j_n, c.j_t), (1.5, 0.0));
    }

    #[test]
    fn sticking_reverses_slip_by_beta_and_sliding_obeys_coulomb() {
        // Equal solid disks: k_n = 2/m, k_t = k_n + 2 * 2/m = 6/m with m = 1.
        let c = rough_impulse(1.0, 0.3, 2.0, 6.0, 1.0, &rough(10.0, 0.5));
        assert!(!c.sliding);
        assert!((0.3 + c.j_t * 6.0 - (-0.5 * 0.3)).abs() < 1e-15);
        let c = rough_impulse(1.0, 3.0, 2.0, 6.0, 1.0, &rough(0.1, 1.0));
        assert!(c.sliding);
        assert_eq!(c.j_t, -0.1 * c.j_n);
    }

    #[test]
    fn separating_contacts_get_nothing() {
        let c = rough_impulse(-1.0, 3.0, 2.0, 6.0, 1.0, &rough(1.0, 1.0));
        assert_eq!((c.j_n, c.j_t), (0.0, 0.0));
    }
}
