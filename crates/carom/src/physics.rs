//! Global physics parameters (scenario `[physics]` with the model resolved) and their
//! validation. A foundation type below the models: they read it, it knows nothing of
//! them or of the world that drives them.

use crate::balls::Balls;
use crate::error::BuildError;
use crate::friction;

pub mod params;

pub use params::{ChainAxis, ChainParams, ContactFriction, Friction, Integrator, ModelKind};

/// The default of `physics.event_budget`: the most events per ball the event model
/// accepts while the fastest ball moves the smallest radius. A hard-disk fluid has a
/// few (for 10^4 unit disks, 0.26 at area fraction 0.3, 0.57 at 0.55, 3 at 0.78,
/// measured in docs/models.md), as any scene whose balls move apart between collisions; a ball
/// resting on another ball under gravity, or a collapsing inelastic cluster, has
/// endlessly many, its clock stalled within round-off of one instant.
pub const DEFAULT_EVENT_BUDGET: f64 = 1000.0;

/// Global physics parameters (scenario `[physics]`, with the model resolved).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Physics {
    /// The collision model (`physics.model`; default `spring`).
    pub model: ModelKind,
    /// The time step, in time units (`physics.dt`; default 0.05); in `event` the output
    /// sampling interval only.
    pub dt: f64,
    /// Gravity `[gx, gy]`, y pointing down the screen (`physics.gravity`; default `[0, 0]`).
    pub gravity: [f64; 2],
    /// Spring constant `k` of the `spring` model's contacts, force per unit overlap
    /// (`physics.stiffness`; default 5).
    pub stiffness: f64,
    /// Restitution coefficient `e` of ball-ball and ball-wall contacts, `0..=1`
    /// (`physics.restitution`; default 1, elastic).
    pub restitution: f64,
    /// The `spring` model's integrator (`physics.integrator`; default `semi-implicit-euler`).
    pub integrator: Integrator,
    /// Whether `impulse` collides only approaching pairs and balls moving into a wall
    /// (`physics.glitch_prevention`; default true; false reproduces the tutorial's glitches).
    pub glitch_prevention: bool,
    /// Friction against the table (`physics.friction`; default none).
    pub friction: Friction,
    /// Friction at the contact points (rough disks); `mu = 0` is frictionless.
    pub contact_friction: ContactFriction,
    /// The event model's stall guard: the most events per ball while the fastest ball
    /// moves the smallest radius (`physics.event_budget`, see docs/models.md).
    pub event_budget: f64,
    /// The chain sampler's length and seed (`physics.chain`; read by `chain` only).
    pub chain: ChainParams,
}

impl Default for Physics {
    fn default() -> Self {
        Physics {
            model: ModelKind::Spring,
            dt: 0.05,
            gravity: [0.0, 0.0],
            stiffness: 5.0,
            restitution: 1.0,
            integrator: Integrator::SemiImplicitEuler,
            glitch_prevention: true,
            friction: Friction::None,
            contact_friction: ContactFriction::NONE,
            event_budget: DEFAULT_EVENT_BUDGET,
            chain: ChainParams::default(),
        }
    }
}

fn check_finite(field: &str, v: f64) -> Result<(), BuildError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(BuildError::invalid(
            field,
            format!("must be finite (got {v})"),
        ))
    }
}

/// Validates the physics against these balls; returns warnings that do not stop a run.
pub fn check_physics(p: &Physics, balls: &Balls) -> Result<Vec<String>, BuildError> {
    if !(p.dt.is_finite() && p.dt > 0.0) {
        return Err(BuildError::invalid(
            "physics.dt",
            format!("must be positive (got {})", p.dt),
        ));
    }
    check_finite("physics.gravity[0]", p.gravity[0])?;
    check_finite("physics.gravity[1]", p.gravity[1])?;
    if !(p.restitution.is_finite() && (0.0..=1.0).contains(&p.restitution)) {
        return Err(BuildError::invalid(
            "physics.restitution",
            format!("must be in [0, 1] (got {})", p.restitution),
        ));
    }
    if !(p.stiffness.is_finite() && p.stiffness > 0.0) {
        return Err(BuildError::invalid(
            "physics.stiffness",
            format!("must be positive (got {})", p.stiffness),
        ));
    }
    if !(p.event_budget.is_finite() && p.event_budget > 0.0) {
        return Err(BuildError::invalid(
            "physics.event_budget",
            format!("must be a positive finite number (got {})", p.event_budget),
        ));
    }
    if let Some(length) = p.chain.length {
        if !(length.is_finite() && length > 0.0) {
            return Err(BuildError::invalid(
                "physics.chain.length",
                format!("must be a positive finite number (got {length})"),
            ));
        }
    }
    friction::check(&p.friction)?;
    check_contact_friction(&p.contact_friction)?;
    crate::rolling::check(&p.contact_friction, p.model, &p.friction)?;
    let mut warnings = Vec::new();
    if p.model == ModelKind::Spring && p.contact_friction.is_active() {
        check_tangential_spring(p, balls)?;
    }
    if p.model == ModelKind::Spring {
        if let Some(mu) = smallest_reduced_mass(balls) {
            // A contact is a harmonic oscillator of angular frequency w = sqrt(k/mu);
            // the explicit schemes are unstable once w dt reaches 2.
            let w_dt = p.dt * (p.stiffness / mu).sqrt();
            if w_dt >= 2.0 {
                return Err(BuildError::invalid(
                    "physics.dt",
                    format!(
                        "dt = {} is unstable for the spring model: dt*sqrt(k/mu) = {:.3} >= 2 \
                         (k = {}, smallest reduced mass mu = {}); use dt < {:.4}",
                        p.dt,
                        w_dt,
                        p.stiffness,
                        mu,
                        2.0 / (p.stiffness / mu).sqrt()
                    ),
                ));
            }
            let contact_time = std::f64::consts::PI * (mu / p.stiffness).sqrt();
            let steps = contact_time / p.dt;
            if steps < 10.0 {
                warnings.push(format!(
                    "a spring contact lasts {contact_time:.4} time units = {steps:.1} steps \
                     (fewer than 10): collisions are poorly resolved; lower dt or stiffness"
                ));
            }
        }
    }
    Ok(warnings)
}

/// `physics.contact_friction`: `mu >= 0`, beta in [-1, 1], a positive stiffness.
fn check_contact_friction(c: &ContactFriction) -> Result<(), BuildError> {
    if !(c.mu.is_finite() && c.mu >= 0.0) {
        return Err(BuildError::invalid(
            "physics.contact_friction.mu",
            format!("must be a finite number >= 0 (got {})", c.mu),
        ));
    }
    let beta = c.tangential_restitution;
    if !(beta.is_finite() && (-1.0..=1.0).contains(&beta)) {
        return Err(BuildError::invalid(
            "physics.contact_friction.tangential_restitution",
            format!("must be in [-1, 1] (got {beta})"),
        ));
    }
    if !(c.rolling_mu.is_finite() && c.rolling_mu >= 0.0) {
        return Err(BuildError::invalid(
            "physics.contact_friction.rolling_mu",
            format!("must be a finite number >= 0 (got {})", c.rolling_mu),
        ));
    }
    if let Some(k) = c.tangential_stiffness {
        if !(k.is_finite() && k > 0.0) {
            return Err(BuildError::invalid(
                "physics.contact_friction.tangential_stiffness",
                format!("must be a positive finite number (got {k})"),
            ));
        }
    }
    Ok(())
}

/// The spring model's tangential springs: the semi-implicit Euler scheme only (the
/// spring history is advanced with the step's velocities, which the other schemes would
/// need to average or predict as well), and a time step that resolves the stiffest
/// tangential oscillation, `sqrt(k_t c_t)` with `c_t` the largest tangential compliance
/// of a contact (the two most compliant dynamic balls, or one against a wall).
fn check_tangential_spring(p: &Physics, balls: &Balls) -> Result<(), BuildError> {
    if p.integrator != Integrator::SemiImplicitEuler {
        return Err(BuildError::invalid(
            "physics.integrator",
            format!(
                "contact friction in the spring model runs with the semi-implicit-euler \
                 integrator only (got {})",
                p.integrator.name()
            ),
        ));
    }
    let (mut a, mut b) = (0.0f64, 0.0f64);
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let c = balls.inv_m[i] + balls.r[i] * balls.r[i] * balls.inv_inertia[i];
        if c > a {
            b = a;
            a = c;
        } else if c > b {
            b = c;
        }
    }
    let k_t = p.contact_friction.tangential_stiffness_for(p.stiffness);
    let w_dt = p.dt * (k_t * (a + b)).sqrt();
    if w_dt >= 2.0 {
        return Err(BuildError::invalid(
            "physics.contact_friction.tangential_stiffness",
            format!(
                "the tangential spring k_t = {k_t} is unstable at dt = {}: \
                 dt*sqrt(k_t c_t) = {w_dt:.3} >= 2 (largest tangential compliance c_t = {})",
                p.dt,
                a + b
            ),
        ));
    }
    Ok(())
}

/// The smallest reduced mass of any possible contact: two lightest dynamic balls
/// (`m1 m2 / (m1 + m2)`), or the lightest ball against a wall or a kinematic ball (`m`).
pub fn smallest_reduced_mass(balls: &Balls) -> Option<f64> {
    let (mut a, mut b) = (f64::INFINITY, f64::INFINITY);
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let m = balls.m[i];
        if m < a {
            b = a;
            a = m;
        } else if m < b {
            b = m;
        }
    }
    if a.is_infinite() {
        None
    } else if b.is_infinite() {
        Some(a)
    } else {
        Some(a * b / (a + b))
    }
}
