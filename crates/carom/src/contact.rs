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
    if !friction.is_active() || k_t <= 0.0 {
        return ContactImpulse {
            j_n,
            j_t: 0.0,
            sliding: false,
        };
    }
    let stick = -(1.0 + friction.tangential_restitution) * u_t / k_t;
    let cap = friction.mu * j_n;
    if stick.abs() <= cap {
        ContactImpulse {
            j_n,
            j_t: stick,
            sliding: false,
        }
    } else {
        ContactImpulse {
            j_n,
            j_t: cap.copysign(stick),
            sliding: true,
        }
    }
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
