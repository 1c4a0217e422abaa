//! Rolling resistance (`physics.contact_friction.rolling_mu`, spring model): a standard
//! stand-in, in 2D, for the shape of real grains, which resist rolling over each other.
//!
//! At each contact with normal force `F_n`, a torque opposes the contact's relative
//! rolling, `omega_i - omega_j` (a table wall, flat and still, counts as `omega = 0`):
//!
//! `M_i = -min(rolling_mu r_eff F_n, |omega_i - omega_j| / (dt (1/I_i + 1/I_j))) sgn(omega_i - omega_j)`
//!
//! and `M_j = -M_i`, with `r_eff = r_i r_j / (r_i + r_j)` (a wall: `r_eff = r_i`). The
//! first term is the law; the second caps it so that, alone, it brings the relative
//! rolling at most to rest within the step, never reversing it (a contact rolling at a
//! steady rate feels the full torque; one that has stopped rolling feels none beyond
//! what holds it, as static friction). The pair of torques is a couple: forces and
//! momentum are untouched, and the total angular momentum with them. A disk rolling
//! on a flat floor loses `rolling_mu F_n` of kinetic energy per unit distance.
//!
//! It acts at ball-ball contacts and at the table's walls (walls inside the table exert
//! none), with contact friction on (`mu > 0`: without it nothing turns the balls) and
//! not on cloth.

use crate::error::BuildError;
use crate::physics::params::{ContactFriction, Friction, ModelKind};

/// The torque on the first body of a contact rolling at `w_rel` (its spin less the
/// other's) with reduced radius `r_eff`, normal force `f_n` and summed inverse moments
/// of inertia `inv_i`, over a step `dt` (see the module's notes).
#[inline(always)]
pub fn torque(rolling_mu: f64, w_rel: f64, r_eff: f64, f_n: f64, dt: f64, inv_i: f64) -> f64 {
    let law = rolling_mu * r_eff * f_n.abs();
    // A body of infinite inertia on both sides (inv_i = 0) is never turned: no cap.
    let m = if inv_i > 0.0 {
        law.min(w_rel.abs() / (dt * inv_i))
    } else {
        law
    };
    if w_rel > 0.0 {
        -m
    } else if w_rel < 0.0 {
        m
    } else {
        0.0
    }
}

/// For serde: a coefficient left out of files while it is 0.
pub fn is_off(v: &f64) -> bool {
    *v == 0.0
}

/// `rolling_mu` (already checked finite and `>= 0`) only where it acts: the spring
/// model, with contact friction, off cloth.
pub fn check(c: &ContactFriction, model: ModelKind, friction: &Friction) -> Result<(), BuildError> {
    if c.rolling_mu == 0.0 {
        return Ok(());
    }
    let why = if model != ModelKind::Spring {
        format!("runs with the spring model only (got {})", model.name())
    } else if !c.is_active() {
        "needs contact friction (contact_friction.mu > 0): without it nothing turns the balls"
            .to_string()
    } else if friction.is_cloth() {
        "is not modelled for spheres on cloth".to_string()
    } else {
        return Ok(());
    };
    Err(BuildError::invalid(
        "physics.contact_friction.rolling_mu",
        why,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_torque_opposes_the_rolling_and_never_reverses_it() {
        // Rolling fast: the full law, against the rolling.
        assert_eq!(torque(0.1, 5.0, 2.0, 10.0, 0.01, 1.0), -2.0);
        assert_eq!(torque(0.1, -5.0, 2.0, 10.0, 0.01, 1.0), 2.0);
        // Rolling slowly: the torque that stops it within the step, dw = dt M inv_i.
        let m = torque(0.1, 0.005, 2.0, 10.0, 0.01, 1.0);
        assert!((0.005 + 0.01 * m * 1.0).abs() < 1e-15, "{m}");
        assert_eq!(torque(0.1, 0.0, 2.0, 10.0, 0.01, 1.0), 0.0);
    }
}
