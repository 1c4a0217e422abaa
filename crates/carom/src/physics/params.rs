//! The types the physics parameters are made of: the choices of collision model,
//! integrator and friction against the table, and the friction at the contact points.
//! Below the physics laws that read them (table friction, cloth, rolling resistance,
//! walls), which [`super::Physics`] calls to check itself.

use serde::{Deserialize, Serialize};

/// The collision model (`physics.model`; default `spring`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum ModelKind {
    /// `impulse`: free flight, then every overlapping pair and wall collided one after the
    /// other in ascending order (the tutorial's deterministic collisions).
    Impulse,
    /// `spring`: every overlap pushes back with Hooke's law `F = k s` (the tutorial's
    /// spring collisions), stepped by an [`Integrator`].
    #[default]
    Spring,
    /// `simultaneous`: free flight, then each cluster of touching balls collided at once,
    /// its impulses solved exactly (non-negative least squares).
    Simultaneous,
    /// `event`: exact event-driven hard disks, advanced from one collision time to the next.
    Event,
    /// Event-chain Monte Carlo: equilibrium sampling of hard disks, not a dynamics.
    Chain,
}

impl ModelKind {
    /// The dynamics, each of which runs any scene the others run (the default set of
    /// `carom compare`, of the viewer's model menu and of the golden tests, in this
    /// order). The chain sampler is not among them: it samples periodic hard disks only
    /// ([`ModelKind::SAMPLERS`]).
    pub const ALL: [ModelKind; 4] = [
        ModelKind::Impulse,
        ModelKind::Spring,
        ModelKind::Simultaneous,
        ModelKind::Event,
    ];

    /// The equilibrium samplers: configurations only, velocities left as they are.
    pub const SAMPLERS: [ModelKind; 1] = [ModelKind::Chain];

    /// The model's name as written in a scenario (`"impulse"`, `"spring"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ModelKind::Impulse => "impulse",
            ModelKind::Spring => "spring",
            ModelKind::Simultaneous => "simultaneous",
            ModelKind::Event => "event",
            ModelKind::Chain => "chain",
        }
    }

    /// The model written `s` in a scenario, if there is one.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .chain(Self::SAMPLERS)
            .find(|m| m.name() == s)
    }
}

/// The chain sampler's parameters (`physics.chain = { length, seed }`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a table { length, seed }")]
pub struct ChainParams {
    /// Each chain's total displacement; left out: the rule of
    /// `models::chain::default_length` (about half the box side at area fraction 0.7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<f64>,
    /// Seeds the stream that picks each chain's first disk. A state file writes the
    /// stream's state here: the stream is its own state, so a run resumed from the file
    /// draws on as the unbroken run would.
    #[serde(default = "chain_seed")]
    pub seed: u64,
    /// The direction of the next chain (chains alternate `+x` and `+y`); a state file
    /// writes it when the next is `y`.
    #[serde(default, skip_serializing_if = "ChainAxis::is_x")]
    pub next: ChainAxis,
}

/// A chain's direction, `+x` or `+y`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, Hash)]
#[serde(rename_all = "lowercase")]
pub enum ChainAxis {
    #[default]
    X,
    Y,
}

impl ChainAxis {
    pub fn is_x(&self) -> bool {
        *self == ChainAxis::X
    }
}

fn chain_seed() -> u64 {
    1
}

impl Default for ChainParams {
    fn default() -> Self {
        ChainParams {
            length: None,
            seed: chain_seed(),
            next: ChainAxis::X,
        }
    }
}

/// The time integrator of the `spring` model (`physics.integrator`; default
/// `semi-implicit-euler`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum Integrator {
    /// `semi-implicit-euler`: `v += dt a(x); x += dt v` (the tutorial's).
    #[default]
    SemiImplicitEuler,
    /// `average-velocity`: as semi-implicit Euler, with `x += dt (v_old + v_new) / 2`
    /// (bounces gain height).
    AverageVelocity,
    /// `average-acceleration`: `v += dt (a_old + a_new) / 2`, the position moved with the
    /// averaged velocity (bounces gain more height).
    AverageAcceleration,
    /// `predicted-acceleration`: the tutorial's anti-delay variant (bounces lose height).
    PredictedAcceleration,
    /// `velocity-verlet`: second-order symplectic kick-drift-kick, the accurate choice.
    VelocityVerlet,
}

impl Integrator {
    /// Every integrator, in the order the tutorial introduces them.
    pub const ALL: [Integrator; 5] = [
        Integrator::SemiImplicitEuler,
        Integrator::AverageVelocity,
        Integrator::AverageAcceleration,
        Integrator::PredictedAcceleration,
        Integrator::VelocityVerlet,
    ];

    /// The integrator's name as written in a scenario (`"semi-implicit-euler"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Integrator::SemiImplicitEuler => "semi-implicit-euler",
            Integrator::AverageVelocity => "average-velocity",
            Integrator::AverageAcceleration => "average-acceleration",
            Integrator::PredictedAcceleration => "predicted-acceleration",
            Integrator::VelocityVerlet => "velocity-verlet",
        }
    }

    /// The integrator written `s` in a scenario, if there is one.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == s)
    }
}

/// Friction against the table (tutorial level 7).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    deny_unknown_fields,
    expecting = "a table { kind = \"none\" | \"dry\" | \"drag\" | \"linear\" | \"cloth\", ... }"
)]
pub enum Friction {
    /// `none` (the default): no friction against the table.
    #[default]
    None,
    /// Constant deceleration `mu * g_normal` against the velocity; a ball stops, never reverses.
    Dry {
        /// Coefficient of dry friction, dimensionless, `>= 0`.
        mu: f64,
        /// The normal acceleration pressing a ball on the table, `g` (default 1).
        #[serde(default = "one")]
        g_normal: f64,
    },
    /// Force `mu m |v|^2` against the velocity.
    Drag {
        /// Drag coefficient, per unit length, `>= 0`.
        mu: f64,
    },
    /// `v' = (1 - mu)^dt v`.
    Linear {
        /// The fraction of the velocity lost per unit time, in `[0, 1)`.
        mu: f64,
    },
    /// Pool balls on cloth: every ball a sphere that slides, rolls and spins
    /// ([`crate::Phase`]). The defaults are a pool table's (see `docs/pool.md`).
    Cloth {
        /// Sliding friction coefficient of a ball on cloth, dimensionless (default 0.2).
        #[serde(default = "cloth_sliding_mu")]
        sliding_mu: f64,
        /// Rolling resistance coefficient, dimensionless (default 0.01).
        #[serde(default = "cloth_rolling_mu")]
        rolling_mu: f64,
        /// Coefficient of the spin about the vertical, dimensionless (default 0.0127).
        #[serde(default = "cloth_spinning_mu")]
        spinning_mu: f64,
        /// The normal acceleration pressing a ball on the cloth (default 1).
        #[serde(default = "one")]
        g_normal: f64,
    },
}

/// Ball on cloth, sliding: 0.2 (Marlow, *The Physics of Pocket Billiards*; Alciatore's
/// measurements give 0.15 to 0.4).
pub const CLOTH_SLIDING_MU: f64 = 0.2;
/// Ball on cloth, rolling resistance: 0.01 (Marlow: 0.005 to 0.015).
pub const CLOTH_ROLLING_MU: f64 = 0.01;
/// Spin about the vertical: 0.0127, a decay of `5 mu g / (2 r)`, about 11 rad/s^2 for a
/// 57.15 mm ball (a sidespin of 30 rad/s dies in about 3 s, as on a real table).
pub const CLOTH_SPINNING_MU: f64 = 0.0127;

fn cloth_sliding_mu() -> f64 {
    CLOTH_SLIDING_MU
}
fn cloth_rolling_mu() -> f64 {
    CLOTH_ROLLING_MU
}
fn cloth_spinning_mu() -> f64 {
    CLOTH_SPINNING_MU
}

impl Friction {
    /// Cloth friction with a pool table's coefficients and `g_normal`.
    pub fn cloth(g_normal: f64) -> Friction {
        Friction::Cloth {
            sliding_mu: CLOTH_SLIDING_MU,
            rolling_mu: CLOTH_ROLLING_MU,
            spinning_mu: CLOTH_SPINNING_MU,
            g_normal,
        }
    }

    /// True for cloth friction (every ball a sphere that slides, rolls and spins).
    pub fn is_cloth(&self) -> bool {
        matches!(self, Friction::Cloth { .. })
    }
}

/// Friction at ball-ball and ball-wall contact points (`physics.contact_friction`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactFriction {
    /// Coulomb coefficient: the tangential impulse or force is at most `mu` times the
    /// normal one. 0 switches contact friction (and its effect on rotation) off.
    pub mu: f64,
    /// beta in [-1, 1]: the tangential velocity of the contact point is reversed by this
    /// factor when the contact sticks (-1 smooth, 0 stopped, 1 perfectly rough).
    pub tangential_restitution: f64,
    /// Stiffness of the spring model's tangential spring; `None`: the documented default.
    pub tangential_stiffness: Option<f64>,
    /// Rolling resistance (spring model): each contact a torque opposing its relative
    /// rolling, at most `rolling_mu r_eff F_n`; 0: none.
    pub rolling_mu: f64,
}

impl ContactFriction {
    /// No contact friction: frictionless contacts, the scenario default.
    pub const NONE: ContactFriction = ContactFriction {
        mu: 0.0,
        tangential_restitution: 0.0,
        tangential_stiffness: None,
        rolling_mu: 0.0,
    };

    /// True when contacts exert tangential forces.
    #[inline]
    pub fn is_active(&self) -> bool {
        self.mu > 0.0
    }
}

impl ContactFriction {
    /// The spring model's tangential stiffness: the one given, or by default `k / 3`,
    /// which gives the tangential oscillation of a contact the period of the normal one.
    /// A contact's normal motion has compliance (inverse effective mass)
    /// `c_n = 1/m_i + 1/m_j` and angular frequency `sqrt(k c_n)`; its contact point's
    /// tangential motion has `c_t = c_n + r_i^2/I_i + r_j^2/I_j` and `sqrt(k_t c_t)`.
    /// For solid disks `r^2/I = 2/m`, so `c_t = 3 c_n` for every pair and every wall
    /// contact (`c_n = 1/m`) alike, and the periods match when `k_t = k / 3`.
    pub fn tangential_stiffness_for(&self, normal_stiffness: f64) -> f64 {
        self.tangential_stiffness.unwrap_or(normal_stiffness / 3.0)
    }
}

impl Default for ContactFriction {
    fn default() -> Self {
        ContactFriction::NONE
    }
}

fn one() -> f64 {
    1.0
}
