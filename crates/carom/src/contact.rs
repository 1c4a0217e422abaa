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
//!
//! **Spheres on cloth** (`physics.friction` of kind `cloth`) meet at a point of the table
//! plane on the line of centres, where the surfaces also slip vertically: the spins
//! about the table's axes `w = (wx, wy)` move the point on `i` at `-r_i (w_i . t)` along
//! z (into the table) and on `j` at `+r_j (w_j . t)`, so the slip has a second
//! tangential component `u_z = -(r_i w_i + r_j w_j) . t`. The rough-sphere law
//! ([`sphere_pair_state`], [`sphere_tangential_impulse`], [`collide_spheres_rough`])
//! puts the friction impulse `j_t t + j_z z` (on `i`) in that tangent plane against the
//! slip `(u_t, u_z)`: the sticking impulse `-(1 + beta) (u_t, u_z) / k_t`, or `mu j_n`
//! against the slip's direction when that is more. Its `t` part acts as the disk law's;
//! its `z` part turns both balls' `w` by `-r j_z t / I` (the torque `r n x (j_z z)`),
//! and its linear part, which would move the balls vertically, is taken by the cloth.
//!
//! The `z` direction's compliance is `k_t` too, as in Alciatore's throw analysis
//! (technical proof A.14) and pooltool: the tangent plane treated isotropically, then the
//! vertical velocity change dropped. Held on the table, the balls really have the
//! smaller compliance `k_z = r_i^2/I_i + r_j^2/I_j` along z (no `k_n` term), so a
//! sticking contact reverses the vertical slip by less than `beta` (`u_z' = u_z (1 -
//! (1 + beta) k_z / k_t)`, `2/7 u_z` for equal solid spheres and `beta = 0`). The
//! literature's choice is kept so that its throw formulas and pooltool check this law;
//! it is energy-safe: with the compliances diagonal in `(n, t, z)` the friction impulse
//! `J = (j_t, j_z)` changes the kinetic energy by `J . u + (k_t j_t^2 + k_z j_z^2) / 2 <=
//! J . u + k_t |J|^2 / 2`. Sticking, `J = -c u / k_t` with `c = 1 + beta` in `[0, 2]`,
//! gives at most `c (c / 2 - 1) |u|^2 / k_t <= 0`; sliding, `J = -s u / |u|` with
//! `s = mu j_n < c |u| / k_t`, gives at most `s (k_t s / 2 - |u|) < 0`. The vertical
//! impulse the cloth takes does no work (the ball's lowest point does not move
//! vertically). With `u_z = 0` (no spin about the table's axes at the contact) the law
//! is the disk law to the bit; with `mu = 0` no friction impulse at all.

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

/// The state of a contact of spheres on cloth (see the module's notes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SphereContact {
    /// Normal slip, positive approaching.
    pub u_n: f64,
    /// Tangential slip `[u_t, u_z]`: along `t` and along z (into the table).
    pub u: [f64; 2],
    pub k_n: f64,
    /// The tangent plane's compliance, taken in both directions (module's notes).
    pub k_t: f64,
}

/// [`pair_state`] for spheres on cloth: the slip along z added, from the spins about
/// the table's axes.
#[inline]
pub fn sphere_pair_state(b: &Balls, i: usize, j: usize, n: [f64; 2]) -> SphereContact {
    let (u_n, u_t, k_n, k_t) = pair_state(b, i, j, n);
    let t = [-n[1], n[0]];
    let (ri, rj) = (b.r[i], b.r[j]);
    let wx = ri * b.wx[i] + rj * b.wx[j];
    let wy = ri * b.wy[i] + rj * b.wy[j];
    SphereContact {
        u_n,
        u: [u_t, -(wx * t[0] + wy * t[1])],
        k_n,
        k_t,
    }
}

/// The friction impulse `[j_t, j_z]` of the rough-sphere law for the slip `u`, given
/// the normal impulse `j_n`: the slip reversed by beta with the compliance `k_t` in
/// both directions, or, if that needs more than `mu |j_n|`, `mu |j_n|` against the
/// slip; and whether the cap bound it. With `u[1] = 0` it is [`tangential_impulse`]
/// exactly (`[j_t, 0]`).
#[inline]
pub fn sphere_tangential_impulse(
    j_n: f64,
    u: [f64; 2],
    k_t: f64,
    friction: &ContactFriction,
) -> ([f64; 2], bool) {
    if !friction.is_active() || k_t <= 0.0 {
        return ([0.0, 0.0], false);
    }
    // Each component as the disk law computes it, to the bit.
    let c = 1.0 + friction.tangential_restitution;
    let stick = [-c * u[0] / k_t, -c * u[1] / k_t];
    let size = stick[0].hypot(stick[1]);
    let cap = friction.mu * j_n.abs();
    if size <= cap {
        (stick, false)
    } else {
        // Along the sticking impulse, of length cap: `stick / size` is exactly the
        // sign of `stick[0]` when `stick[1] = 0`, as in the disk law.
        ([cap * (stick[0] / size), cap * (stick[1] / size)], true)
    }
}

/// [`apply_pair`] for spheres on cloth: the impulse `-j_n n + j[0] t` in the plane as
/// there, and the vertical part `j[1]` turning both balls' spins about the table's
/// axes by `-r j[1] t / I` (its linear part taken by the cloth).
#[inline]
pub fn apply_sphere_pair(b: &mut Balls, i: usize, j: usize, n: [f64; 2], j_n: f64, jt: [f64; 2]) {
    apply_pair(b, i, j, n, j_n, jt[0]);
    if jt[1] == 0.0 {
        // No vertical part: the spins stay as they are (a signed zero included).
        return;
    }
    let t = [-n[1], n[0]];
    let (si, sj) = (
        -b.r[i] * jt[1] * b.inv_inertia[i],
        -b.r[j] * jt[1] * b.inv_inertia[j],
    );
    b.wx[i] += si * t[0];
    b.wy[i] += si * t[1];
    b.wx[j] += sj * t[0];
    b.wy[j] += sj * t[1];
}

/// The impulses of one rough-sphere collision: `j_n` along `-n` on ball `i`, the
/// friction `j = [j_t, j_z]` along `t` and z on ball `i` (see the module's notes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SphereImpulse {
    pub j_n: f64,
    pub j: [f64; 2],
    /// True when the Coulomb cap bound the friction impulse (the contact slid).
    pub sliding: bool,
}

/// One rough collision of spheres `i` and `j` on cloth (normal `n` from `i` to `j`):
/// the normal impulse of [`rough_impulse`] and the rough-sphere friction impulse,
/// applied to both. Nothing when the surfaces do not approach or neither ball moves.
#[inline]
pub fn collide_spheres_rough(
    b: &mut Balls,
    i: usize,
    j: usize,
    n: [f64; 2],
    e: f64,
    friction: &ContactFriction,
) -> SphereImpulse {
    let s = sphere_pair_state(b, i, j, n);
    if s.u_n <= 0.0 || s.k_n <= 0.0 {
        return SphereImpulse {
            j_n: 0.0,
            j: [0.0, 0.0],
            sliding: false,
        };
    }
    let j_n = (1.0 + e) * s.u_n / s.k_n;
    let (jt, sliding) = sphere_tangential_impulse(j_n, s.u, s.k_t, friction);
    apply_sphere_pair(b, i, j, n, j_n, jt);
    SphereImpulse {
        j_n,
        j: jt,
        sliding,
    }
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
