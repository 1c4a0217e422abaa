//! The virial stress tensor: the pressure's tensor form.
//!
//! Reported as the pressure tensor, positive in compression (it is minus the Cauchy
//! stress):
//!
//! `P_ab = (sum m (v - V)_a (v - V)_b + sum r_ij,a f_ij,b) / A`
//!
//! over the balls in play, with `V` their centre-of-mass velocity, `r_ij` the
//! minimum-image vector from ball `j` to ball `i`, `f_ij` the force `j` exerts on `i`,
//! and `A` the table's area; the contact sum is time-averaged as the scalar pressure's
//! (hard models: the impulses `r_ij (x) J_ij` over a window divided by its length;
//! `spring`: the time integral of `r_ij (x) f_ij`). Its half trace is the scalar
//! pressure `(sum m |v - V|^2 + sum r_ij . f_ij) / (2 A)`. A tangential (friction) force
//! makes `r_ij (x) f_ij` not symmetric; the off-diagonal entry kept is the symmetric
//! part, `(P_xy + P_yx) / 2` (the antisymmetric part is the contacts' torque, zero on
//! average in a steady state). Under simple shear `u_x = gamma_dot y`, a fluid's
//! `P_xy = -eta gamma_dot`.
//!
//! Tensors are stored as `[xx, xy, yy]`.

use crate::balls::Balls;

/// A symmetric 2x2 tensor `[xx, xy, yy]`.
pub type Tensor = [f64; 3];

/// Adds the symmetric part of `r (x) f` to `t`.
#[inline(always)]
pub fn add_outer(t: &mut Tensor, r: [f64; 2], f: [f64; 2]) {
    t[0] += r[0] * f[0];
    t[1] += 0.5 * (r[0] * f[1] + r[1] * f[0]);
    t[2] += r[1] * f[1];
}

/// Adds the pair term `r_ij (x) J_ij` of a contact between balls `i` and `j`: `n` the
/// unit normal from `i` to `j`, `d` their centre distance, `j_n` the normal impulse (or
/// force) pushing them apart and `j_t` the tangential one on `i` along `t = (-n_y, n_x)`
/// (the convention of `contact::apply_pair`).
#[inline(always)]
pub fn add_contact(t: &mut Tensor, n: [f64; 2], d: f64, j_n: f64, j_t: f64) {
    let tan = [-n[1], n[0]];
    add_outer(
        t,
        [-d * n[0], -d * n[1]],
        [-j_n * n[0] + j_t * tan[0], -j_n * n[1] + j_t * tan[1]],
    );
}

/// The pair virial a model accumulates: the scalar `sum r_ij . J_ij` (for the
/// pressure, summed exactly as before the tensor existed) and the tensor `sum r_ij (x)
/// J_ij` beside it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Virial {
    pub sum: f64,
    pub tensor: Tensor,
}

/// One ball-ball contact's normal force, for drawing force chains: balls `i < j` and
/// the force's magnitude (positive: pushing them apart).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactForce {
    /// The lower-indexed ball.
    pub i: u32,
    /// The other ball.
    pub j: u32,
    /// The normal force's magnitude, positive when pushing the balls apart.
    pub normal: f64,
}

/// `a + b`, entry by entry.
#[inline]
pub fn add(a: Tensor, b: Tensor) -> Tensor {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `a - b`, entry by entry.
#[inline]
pub fn sub(a: Tensor, b: Tensor) -> Tensor {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// The kinetic tensor `sum m (v - V) (x) (v - V)` over the dynamic balls in play
/// (`in_play` empty: all), in the centre-of-mass frame as
/// [`crate::diagnostics::statistics`] measures `sum m |v - V|^2`, whose trace it is.
pub fn kinetic(balls: &Balls, in_play: &[bool]) -> Tensor {
    let (mut m_tot, mut p, mut t) = (0.0, [0.0, 0.0], [0.0; 3]);
    for i in 0..balls.len() {
        if !in_play.get(i).copied().unwrap_or(true) || balls.inv_m[i] == 0.0 {
            continue;
        }
        let (m, vx, vy) = (balls.m[i], balls.vx[i], balls.vy[i]);
        m_tot += m;
        p[0] += m * vx;
        p[1] += m * vy;
        t[0] += m * vx * vx;
        t[1] += m * vx * vy;
        t[2] += m * vy * vy;
    }
    if m_tot > 0.0 {
        // sum m (v - V)(v - V) = sum m v v - P P / M.
        t[0] = (t[0] - p[0] * p[0] / m_tot).max(0.0);
        t[1] -= p[0] * p[1] / m_tot;
        t[2] = (t[2] - p[1] * p[1] / m_tot).max(0.0);
    } else {
        t = [0.0; 3];
    }
    t
}

/// The pressure tensor over a window of length `duration` on a table of area `area`:
/// `kinetic` the window's mean kinetic tensor, `virial` the change of the pair virial
/// tensor across it (as [`crate::diagnostics::pressure`] for the scalar). A window of
/// no length has only its kinetic part.
pub fn pressure_tensor(kinetic: Tensor, virial: Tensor, duration: f64, area: f64) -> Tensor {
    let mut out = kinetic;
    if duration > 0.0 {
        for (o, v) in out.iter_mut().zip(virial) {
            *o += v / duration;
        }
    }
    out.map(|v| v / area)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_normal_contact_adds_its_virial_along_the_normal() {
        // Two balls at distance 2 along (0.6, 0.8), pushed apart by 3: r_ij . J_ij = 6,
        // all of it along n n.
        let mut t = [0.0; 3];
        add_contact(&mut t, [0.6, 0.8], 2.0, 3.0, 0.0);
        let want = [6.0 * 0.36, 6.0 * 0.48, 6.0 * 0.64];
        for k in 0..3 {
            assert!((t[k] - want[k]).abs() < 1e-14, "{t:?}");
        }
    }

    #[test]
    fn a_tangential_impulse_adds_no_trace() {
        // r_ij is along n and the tangential impulse across it: r . J_t = 0.
        let mut t = [0.0; 3];
        add_contact(&mut t, [0.6, 0.8], 2.0, 0.0, 5.0);
        assert!((t[0] + t[2]).abs() < 1e-14, "{t:?}");
        // Along x, a tangential j_t on i (along +y) at r_ij = (-d, 0): xy = -d j_t / 2.
        let mut t = [0.0; 3];
        add_contact(&mut t, [1.0, 0.0], 2.0, 0.0, 5.0);
        assert_eq!(t, [0.0, -5.0, 0.0]);
    }

    #[test]
    fn the_kinetic_tensor_is_in_the_centre_of_mass_frame() {
        // Two equal balls moving together have no kinetic stress; opposite velocities
        // along x give sum m v_x^2 on xx only.
        let mut b = Balls::from_vec(&[
            crate::balls::Ball::new(0.0, 0.0, 1.0, 2.0, 1.0, 1.0),
            crate::balls::Ball::new(5.0, 0.0, 1.0, 2.0, 1.0, 1.0),
        ]);
        let t = kinetic(&b, &[]);
        for v in t {
            assert!(v.abs() < 1e-12, "{t:?}");
        }
        b.vx[0] = -3.0;
        b.vx[1] = 3.0;
        b.vy[0] = 0.0;
        b.vy[1] = 0.0;
        assert_eq!(kinetic(&b, &[]), [18.0, 0.0, 0.0]);
    }
}
