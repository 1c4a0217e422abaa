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
use crate::physics::params::ContactFriction;

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
    use crate::balls::Ball;

    fn rough(mu: f64, beta: f64) -> ContactFriction {
        ContactFriction {
            rolling_mu: 0.0,
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

    /// Two spheres touching along `n` (from 0 to 1), each given as `[vx, vy, wx, wy,
    /// omega, r, m, I / (m r^2)]`.
    fn spheres(n: [f64; 2], a: [f64; 8], b: [f64; 8]) -> Balls {
        let one = |p: [f64; 2], s: [f64; 8]| {
            let mut ball = Ball::new(p[0], p[1], s[0], s[1], s[5], s[6]);
            (ball.wx, ball.wy, ball.omega) = (s[2], s[3], s[4]);
            ball.inertia = s[7] * s[6] * s[5] * s[5];
            ball
        };
        let d = a[5] + b[5];
        Balls::from_vec(&[one([0.0, 0.0], a), one([d * n[0], d * n[1]], b)])
    }

    /// Kinetic energy, translation and rotation about all three axes.
    fn energy(b: &Balls) -> f64 {
        (0..b.len())
            .map(|i| {
                let w2 = b.wx[i] * b.wx[i] + b.wy[i] * b.wy[i] + b.omega[i] * b.omega[i];
                0.5 * b.m[i] * (b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i]) + 0.5 * b.inertia[i] * w2
            })
            .sum()
    }

    /// A small fixed pseudo-random stream (any will do).
    struct Lcg(u64);

    impl Lcg {
        fn unit(&mut self) -> f64 {
            self.0 = (self.0)
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }

        fn range(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * self.unit()
        }

        /// A random sphere state: speeds and surface speeds up to 2, radius, mass and
        /// inertia ratio (0.2 to 0.7: hollow-ish to solid-ish) of their own.
        fn sphere(&mut self) -> [f64; 8] {
            let r = self.range(0.5, 2.0);
            let mut s = [0.0; 8];
            for (k, x) in s.iter_mut().enumerate().take(5) {
                *x = self.range(-2.0, 2.0) / if k < 2 { 1.0 } else { r };
            }
            s[5] = r;
            s[6] = self.range(0.3, 3.0);
            s[7] = self.range(0.2, 0.7);
            s
        }

        fn unit_vector(&mut self) -> [f64; 2] {
            let a = self.range(0.0, std::f64::consts::TAU);
            [a.cos(), a.sin()]
        }
    }

    /// With no vertical slip (no spin about the table's axes) the sphere law is the
    /// disk law to the bit, sliding and sticking alike.
    #[test]
    fn without_vertical_slip_the_sphere_law_is_the_disk_law_to_the_bit() {
        let mut rng = Lcg(7);
        for _ in 0..2000 {
            let n = rng.unit_vector();
            let (mut a, mut b) = (rng.sphere(), rng.sphere());
            (a[2], a[3], b[2], b[3]) = (0.0, 0.0, 0.0, 0.0);
            let f = rough(rng.range(0.0, 1.0), rng.range(-1.0, 1.0));
            let e = rng.unit();
            let mut disk = spheres(n, a, b);
            let mut sphere = disk.clone();
            let c = collide_pair_rough(&mut disk, 0, 1, n, e, &f);
            let s = collide_spheres_rough(&mut sphere, 0, 1, n, e, &f);
            assert_eq!((c.j_n, c.j_t, c.sliding), (s.j_n, s.j[0], s.sliding));
            assert_eq!(s.j[1], 0.0);
            for k in 0..2 {
                let bits =
                    |b: &Balls| [b.vx[k], b.vy[k], b.wx[k], b.wy[k], b.omega[k]].map(f64::to_bits);
                assert_eq!(bits(&disk), bits(&sphere));
            }
        }
    }

    /// Over many random impacts (masses, radii, inertias, spins, restitution, friction
    /// and beta all random) the rough-sphere law keeps the momentum in the plane, puts
    /// equal and opposite vertical impulses on the two balls (each ball's spin about the
    /// table's axes changes by `-r j_z t / I`: `I dw / r` is the same vector for both),
    /// stays in the friction cone against the slip, and never adds energy. The energy
    /// change is what the compliances say it is, with the true vertical compliance
    /// `k_t - k_n` (balls held on the table): the normal impulse's `j_n (-u_n + k_n j_n
    /// / 2)`, and `J . u + (k_t j_t^2 + (k_t - k_n) j_z^2) / 2` for the friction. Sums
    /// of a few dozen terms below 100: round-off is well under 1e-12 of the energy.
    #[test]
    fn sphere_impacts_keep_momentum_and_never_add_energy() {
        let mut rng = Lcg(11);
        let (mut slid, mut stuck) = (0, 0);
        for _ in 0..20_000 {
            let n = rng.unit_vector();
            let f = rough(rng.range(0.0, 1.5), rng.range(-1.0, 1.0));
            let e = rng.unit();
            let mut b = spheres(n, rng.sphere(), rng.sphere());
            let s0 = sphere_pair_state(&b, 0, 1, n);
            let (e0, before) = (energy(&b), b.clone());
            let c = collide_spheres_rough(&mut b, 0, 1, n, e, &f);
            if s0.u_n <= 0.0 {
                assert_eq!(c.j_n, 0.0);
                continue;
            }
            if c.sliding {
                slid += 1;
            } else {
                stuck += 1;
            }
            let e1 = energy(&b);
            assert!(e1 <= e0 * (1.0 + 1e-12), "energy {e0} -> {e1}");
            let (j_n, [j_t, j_z]) = (c.j_n, c.j);
            let k_z = s0.k_t - s0.k_n;
            let want = j_n * (-s0.u_n + s0.k_n * j_n / 2.0)
                + j_t * s0.u[0]
                + j_z * s0.u[1]
                + (s0.k_t * j_t * j_t + k_z * j_z * j_z) / 2.0;
            assert!(
                ((e1 - e0) - want).abs() <= 1e-12 * e0,
                "energy change {} against {want}",
                e1 - e0
            );
            let p =
                |b: &Balls, k: usize| (0..2).map(|i| b.m[i] * [b.vx[i], b.vy[i]][k]).sum::<f64>();
            let scale: f64 = (0..2)
                .map(|i| b.m[i] * before.vx[i].hypot(before.vy[i]))
                .sum();
            for k in 0..2 {
                assert!((p(&b, k) - p(&before, k)).abs() <= 1e-14 * scale);
            }
            let t = [-n[1], n[0]];
            for i in 0..2 {
                let k = b.inertia[i] / b.r[i];
                let lever = [k * (b.wx[i] - before.wx[i]), k * (b.wy[i] - before.wy[i])];
                for (l, tk) in lever.into_iter().zip(t) {
                    assert!((l + j_z * tk).abs() <= 1e-13 * (1.0 + j_z.abs()));
                }
            }
            // In the cone, against the slip.
            let size = j_t.hypot(j_z);
            let slip = s0.u[0].hypot(s0.u[1]);
            assert!(size <= f.mu * j_n * (1.0 + 1e-14));
            assert!(j_t * s0.u[0] + j_z * s0.u[1] <= 0.0);
            assert!((j_t * s0.u[1] - j_z * s0.u[0]).abs() <= 1e-13 * size * slip);
        }
        // Both regimes were visited many times.
        assert!(slid > 1000 && stuck > 1000, "{slid} slid, {stuck} stuck");
    }

    /// A sticking contact takes the slip along `t` to `-beta u_t` and, with the tangent
    /// plane's compliance `k_t` used for both directions but only `k_t - k_n` there, the
    /// vertical slip to `(1 - (1 + beta)(k_t - k_n) / k_t) u_z`: `2/7 u_z` for equal
    /// solid spheres and `beta = 0` (`k_n = 2/m`, `k_t = 7/m`).
    #[test]
    fn sticking_reverses_the_slip_in_the_plane_and_leaves_2_7_of_the_vertical() {
        let n = [0.6, 0.8];
        let solid = |v: [f64; 2], w: [f64; 3]| [v[0], v[1], w[0], w[1], w[2], 1.0, 1.0, 0.4];
        for beta in [0.0, 0.5, -0.3] {
            let a = solid([1.0, 0.2], [0.3, -0.7, 0.1]);
            let mut b = spheres(n, a, solid([0.0, 0.0], [0.2, 0.1, 0.0]));
            let s0 = sphere_pair_state(&b, 0, 1, n);
            let c = collide_spheres_rough(&mut b, 0, 1, n, 1.0, &rough(100.0, beta));
            assert!(!c.sliding);
            let s1 = sphere_pair_state(&b, 0, 1, n);
            assert!((s1.u[0] + beta * s0.u[0]).abs() < 1e-15);
            let keep = 1.0 - (1.0 + beta) * 5.0 / 7.0;
            assert!(
                (s1.u[1] - keep * s0.u[1]).abs() < 1e-15,
                "{} {}",
                s1.u[1],
                s0.u[1]
            );
        }
    }

    /// Without friction (`mu = 0`) nothing tangential happens: the spins pass through
    /// untouched and the velocities are the smooth law's.
    #[test]
    fn frictionless_spheres_keep_their_spins() {
        let n = [0.0, 1.0];
        let mut b = spheres(
            n,
            [1.0, 2.0, 3.0, -4.0, 5.0, 1.0, 1.0, 0.4],
            [0.0, -1.0, -2.0, 6.0, 1.5, 1.2, 2.0, 0.4],
        );
        let w0 = (b.wx.clone(), b.wy.clone(), b.omega.clone());
        let mut smooth = b.clone();
        let c = collide_spheres_rough(&mut b, 0, 1, n, 0.9, &rough(0.0, 0.5));
        assert_eq!(c.j, [0.0, 0.0]);
        assert_eq!((b.wx.clone(), b.wy.clone(), b.omega.clone()), w0);
        collide_pair_rough(&mut smooth, 0, 1, n, 0.9, &ContactFriction::NONE);
        assert_eq!((b.vx, b.vy), (smooth.vx, smooth.vy));
    }

    /// Alciatore's throw (technical proof A.14) for equal solid balls, `e = 1`: a cue
    /// ball rolling at `v` cut at 30 degrees slips at the contact by `v sin 30` along the
    /// tangent and `v cos 30` vertically (its follow), `|u| = v`; with `mu = 0.05` the
    /// contact slides (`mu v cos 30 / |u| < 1/7`) and the object ball takes `mu m v cos
    /// 30` of normal and `mu` times that times `sin 30` of tangential impulse: it leaves
    /// `atan(mu sin 30) = atan(0.025) = 1.432` degrees off the line of centres, about
    /// half the stun ball's `atan(mu) = 2.862` (`|u| = v sin 30` alone).
    #[test]
    fn a_rolling_cue_ball_cut_at_30_degrees_throws_1_43_degrees() {
        let phi = 30f64.to_radians();
        let n = [phi.cos(), phi.sin()];
        let v = 1.0;
        for (wy, want) in [(-v, 0.025f64.atan()), (0.0, 0.05f64.atan())] {
            let mut b = spheres(
                n,
                [v, 0.0, 0.0, wy, 0.0, 1.0, 1.0, 0.4],
                [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.4],
            );
            collide_spheres_rough(&mut b, 0, 1, n, 1.0, &rough(0.05, 0.0));
            let throw = phi - b.vy[1].atan2(b.vx[1]);
            assert!(
                (throw - want).abs() < 1e-15,
                "{} degrees",
                throw.to_degrees()
            );
        }
    }

    #[test]
    fn separating_contacts_get_nothing() {
        let c = rough_impulse(-1.0, 3.0, 2.0, 6.0, 1.0, &rough(1.0, 1.0));
        assert_eq!((c.j_n, c.j_t), (0.0, 0.0));
    }
}
