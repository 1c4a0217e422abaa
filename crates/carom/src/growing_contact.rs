//! The contact law of disks that grow (Lubachevsky-Stillinger compression): the
//! contact time and the impact of a pair whose radii grow linearly in time. The
//! growing event model ([`crate::models::growing_disks`]) predicts and resolves its
//! collisions with them while `physics.compress` runs.
//!
//! Every radius grows as `r_i(t) = r_i0 (1 + rate t)`, so a pair's contact distance
//! grows linearly too: `sigma(tau) = sigma + sigma_dot tau` from the present, with
//! `sigma_dot = (r_i0 + r_j0) rate`. With `d` the separation and `w` the relative
//! velocity (both of `j` relative to `i`), contact is a root of
//!
//! `|d + w tau|^2 = (sigma + sigma_dot tau)^2`, that is
//! `a tau^2 + 2 b tau + c = 0`, `a = w.w - sigma_dot^2`, `b = d.w - sigma sigma_dot`,
//! `c = d.d - sigma^2`,
//!
//! a quadratic as for disks of fixed size (`sigma_dot = 0`).

/// The time from now until a pair meets, for a pair apart (`c > 0`): `None` when it
/// never does. `d`, `w`: separation and relative velocity of `j` relative to `i`;
/// `sigma`: the sum of the radii now; `sigma_dot`: its growth rate.
///
/// The smallest positive root of the quadratic is `c / (sqrt(b^2 - a c) - b)` in
/// every case that has one (`a` of either sign or zero), a form that does not lose
/// digits when `a c` is small next to `b^2`: with `a > 0` only an approach (`b < 0`)
/// meets, with `a < 0` (the sum grows faster than the pair separates) it always does.
pub fn contact_time(d: [f64; 2], w: [f64; 2], sigma: f64, sigma_dot: f64) -> Option<f64> {
    let a = w[0] * w[0] + w[1] * w[1] - sigma_dot * sigma_dot;
    let b = d[0] * w[0] + d[1] * w[1] - sigma * sigma_dot;
    let c = d[0] * d[0] + d[1] * d[1] - sigma * sigma;
    if c <= 0.0 {
        // Touching or overlapping: they meet now if closing in the growing frame.
        return (b < 0.0).then_some(0.0);
    }
    let disc = b * b - a * c;
    if disc < 0.0 {
        return None;
    }
    let q = disc.sqrt() - b;
    (q > 0.0).then(|| c / q)
}

/// The velocity changes `(dv_i, dv_j)` of an impact between growing disks: `n` the
/// unit normal from `i` to `j`, `v_i`, `v_j` velocities, masses `m_i`, `m_j`,
/// restitution `e`, `sigma_dot` the contact distance's growth rate. In the frame where
/// the contact surfaces are at rest the normal speed reverses (times `e`): the normal
/// relative velocity `u = n.(v_j - v_i)` becomes `sigma_dot - e (u - sigma_dot)`, so
/// the pair separates at least as fast as the disks grow into each other. With
/// `sigma_dot = 0` this is the ordinary impact of hard disks.
pub fn impact(
    n: [f64; 2],
    v_i: [f64; 2],
    v_j: [f64; 2],
    m_i: f64,
    m_j: f64,
    e: f64,
    sigma_dot: f64,
) -> ([f64; 2], [f64; 2]) {
    let u = n[0] * (v_j[0] - v_i[0]) + n[1] * (v_j[1] - v_i[1]);
    let mu = m_i * m_j / (m_i + m_j);
    // The normal impulse on j: mu times the change of u.
    let jn = mu * (1.0 + e) * (sigma_dot - u);
    (
        [-jn / m_i * n[0], -jn / m_i * n[1]],
        [jn / m_j * n[0], jn / m_j * n[1]],
    )
}
