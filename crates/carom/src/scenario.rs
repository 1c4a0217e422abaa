//! The scenario contract: what a scenario file (TOML or JSON) may say, with the
//! defaults of the design. Parsing text and reporting errors lives in
//! [`crate::parse`]; generators expand into balls when the world is built.

use serde::{Deserialize, Serialize};

mod generator_spec;
mod table_spec;

pub use generator_spec::{Generator, RadiiSpec};
pub use table_spec::{boundary_spec_of, table_with_boundary, BoundarySpec, ShearSpec, TableSpec};

// The file format names the physics' own choices: `physics.model`, `.integrator`,
// `.friction`.
// A ball's `cue = { ... }` is the cue law's own description of a strike.
use crate::cue::CueSpec;
use crate::physics::params::{Friction, Integrator, ModelKind};
// The cloth's default coefficients, which a scenario's `[cloth]` falls back to.
pub use crate::physics::params::{CLOTH_ROLLING_MU, CLOTH_SLIDING_MU, CLOTH_SPINNING_MU};
// `[[walls]]` and `[[pockets]]` describe walls as the walls' own builder reads them.
pub use crate::walls::spec::{PocketSpec, ServoAxis, WallKind, WallSpec};

/// A whole scenario as written in a file. A state file is also a scenario: the keys it
/// adds (`model`, `time`, `steps`, `diagnostics`, `tangential_springs`,
/// `thermostat_clock`) are accepted here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The scenario's name, written into its outputs (`name`; default `"unnamed"`).
    #[serde(default = "default_name")]
    pub name: String,
    /// A line saying what the scene shows (`description`; default empty).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Default simulated time for `carom run`.
    #[serde(default = "default_duration")]
    pub duration: f64,
    /// The table's size and boundaries (`[table]`; required).
    pub table: TableSpec,
    /// The physics parameters (`[physics]`; every key has a default).
    #[serde(default)]
    pub physics: PhysicsSpec,
    /// The balls listed one by one (`[[balls]]`), first in the scenario's order.
    #[serde(default)]
    pub balls: Vec<BallSpec>,
    /// Expanded after the listed balls, in the order written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub generators: Vec<Generator>,
    /// A declared mirror symmetry, measured as `symmetry_error` (`symmetry`; default none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symmetry: Option<SymmetrySpec>,
    /// Static walls inside the table (see [`WallSpec`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub walls: Vec<WallSpec>,
    /// Pockets: a ball whose centre comes within one leaves play.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pockets: Vec<PocketSpec>,

    // Keys a state file carries. `time` is where a resumed run starts; `model` is the
    // model the state was produced with, used when `physics.model` is not given.
    /// The model a state file was written with (state files' `model`); used when
    /// `physics.model` is not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelKind>,
    /// The simulated time a state file was written at (state files' `time`): where a resumed
    /// run starts; default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<f64>,
    /// Steps taken when a state file was written (state files' `steps`); default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// The diagnostics a state file carries (state files' `diagnostics`); a resumed run
    /// continues their counters, such as `collisions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<serde_json::Value>,
    /// The loaded tangential springs of a `spring` run with contact friction, written
    /// only when there are any: the contact memory its next step depends on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tangential_springs: Option<TangentialSprings>,
    /// Andersen's bath in `event` (strikes as events): `[[ball, strikes, wait], ...]`
    /// for each ball with a strike to come, the wait measured from the state's time;
    /// written only by such runs. Balls not listed start their clocks afresh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thermostat_clock: Option<Vec<(u64, u64, f64)>>,
    /// Where the compression that made this state stands (its radii's growth so far);
    /// read by nobody, written while one ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compression: Option<crate::compression::Progress>,
}

/// `tangential_springs = { pairs = [[i, j, xi], ...], walls = [[i, axis, xi], ...] }`:
/// the stretch `xi` of the tangential spring of each loaded contact, ball-ball
/// (`i < j`, indices in scenario order) and ball-wall (`axis` 0: the left or right
/// wall, 1: the top or bottom one; a ball touches at most one per axis); on cloth the
/// ball-ball springs are two-component and `vertical = [[i, j, xi_z], ...]` holds their
/// vertical parts. Stretches left out are zero. A model that keeps no tangential
/// springs ignores the key.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TangentialSprings {
    /// Ball-ball springs `[i, j, xi]` (`i < j`; `xi`, the stretch in table units).
    #[serde(default)]
    pub pairs: Vec<(u64, u64, f64)>,
    /// Springs of balls on the table's walls `[i, axis, xi]` (`axis` 0: left or right, 1:
    /// top or bottom).
    #[serde(default)]
    pub walls: Vec<(u64, u64, f64)>,
    /// Springs on pieces of the walls inside the table: `[i, piece, xi]` (pieces
    /// numbered through the `[[walls]]` entries in order, a polyline's segments in
    /// order, an arc or circle one piece).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<(u64, u64, f64)>,
    /// On cloth, the vertical part `xi_z` of ball-ball stretches: `[i, j, xi_z]`
    /// (`i < j`; z into the table), written only when some is loaded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vertical: Vec<(u64, u64, f64)>,
}

fn default_name() -> String {
    "unnamed".to_string()
}

fn default_duration() -> f64 {
    100.0
}

fn one() -> f64 {
    1.0
}

/// The `[physics]` table as written, the model still optional (a state file's `model`
/// fills it in).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhysicsSpec {
    /// The collision model (`model`; default the state file's `model`, else `spring`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelKind>,
    /// Time step, time units (`dt`; default 0.05); in `event` the output sampling interval.
    #[serde(default = "default_dt")]
    pub dt: f64,
    /// Gravity `[gx, gy]`, y downward (`gravity`; default `[0, 0]`).
    #[serde(default)]
    pub gravity: [f64; 2],
    /// Spring constant of the `spring` model, force per unit overlap (`stiffness`; default 5).
    #[serde(default = "default_stiffness")]
    pub stiffness: f64,
    /// Restitution coefficient, `0..=1` (`restitution`; default 1, elastic).
    #[serde(default = "one")]
    pub restitution: f64,
    /// The `spring` model's integrator (`integrator`; default `semi-implicit-euler`).
    #[serde(default)]
    pub integrator: Integrator,
    /// The `impulse` model collides only approaching pairs (`glitch_prevention`; default
    /// true).
    #[serde(default = "yes")]
    pub glitch_prevention: bool,
    /// Friction against the table (`friction = { kind = ... }`; default `{ kind = "none" }`).
    #[serde(default)]
    pub friction: Friction,
    /// Friction at the contact points; left out of files while it is off.
    #[serde(default, skip_serializing_if = "ContactFrictionSpec::is_default")]
    pub contact_friction: ContactFrictionSpec,
    /// The event model's stall guard (see `Physics::event_budget`); left out of files
    /// while it is the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_budget: Option<f64>,
    /// A thermostat acting at the end of every step ([`crate::Thermostat`]);
    /// left out of files while there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thermostat: Option<crate::thermostat::Thermostat>,
    /// A compression ([`crate::Compress`]); left out of files while there is none
    /// (or once it has stopped).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compress: Option<crate::compression::Compress>,
    /// The chain sampler's length and seed (`physics.model = "chain"`); left out of
    /// files while not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<crate::physics::ChainParams>,
}

/// `physics.contact_friction = { mu, tangential_restitution, tangential_stiffness,
/// rolling_mu }`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a table { mu, tangential_restitution, tangential_stiffness, rolling_mu }"
)]
pub struct ContactFrictionSpec {
    /// Coulomb coefficient at contact points, `>= 0` (`mu`; default 0, frictionless).
    #[serde(default)]
    pub mu: f64,
    /// Tangential restitution beta, in `[-1, 1]`: -1 smooth, 1 perfectly rough
    /// (`tangential_restitution`; default 0).
    #[serde(default)]
    pub tangential_restitution: f64,
    /// The spring model's tangential stiffness; left out: `k / 3` (see
    /// [`crate::physics::ContactFriction::tangential_stiffness_for`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tangential_stiffness: Option<f64>,
    /// Rolling resistance (spring model); left out of files while 0.
    #[serde(default, skip_serializing_if = "crate::rolling::is_off")]
    pub rolling_mu: f64,
}

impl ContactFrictionSpec {
    /// True when every key is its default: contact friction off.
    pub fn is_default(&self) -> bool {
        *self == ContactFrictionSpec::default()
    }
}

fn default_dt() -> f64 {
    0.05
}

fn default_stiffness() -> f64 {
    5.0
}

fn yes() -> bool {
    true
}

impl Default for PhysicsSpec {
    fn default() -> Self {
        PhysicsSpec {
            model: None,
            dt: default_dt(),
            gravity: [0.0, 0.0],
            stiffness: default_stiffness(),
            restitution: 1.0,
            integrator: Integrator::default(),
            glitch_prevention: true,
            friction: Friction::None,
            contact_friction: ContactFrictionSpec::default(),
            event_budget: None,
            thermostat: None,
            compress: None,
            chain: None,
        }
    }
}

/// One entry of `[[balls]]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BallSpec {
    /// Position x of the centre, table units (`x`; required).
    pub x: f64,
    /// Position y of the centre, table units, y downward (`y`; required).
    pub y: f64,
    /// Velocity x, table units per time unit (`vx`; default 0).
    #[serde(default)]
    pub vx: f64,
    /// Velocity y, table units per time unit (`vy`; default 0).
    #[serde(default)]
    pub vy: f64,
    /// Radius, table units, `> 0` (`r`; default 10).
    #[serde(default = "default_radius")]
    pub r: f64,
    /// Mass, `> 0` (`m`; default 1).
    #[serde(default = "one")]
    pub m: f64,
    /// `#RRGGBB`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Infinite mass: moves only as prescribed; others bounce off it as off a wall.
    #[serde(default, skip_serializing_if = "is_false")]
    pub kinematic: bool,
    /// Periodic image count along x (how many times the ball crossed the x side); state
    /// files write the counts on periodic axes only.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "whole_number"
    )]
    pub ix: Option<i64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "whole_number"
    )]
    /// Periodic image count along y (see `ix`).
    pub iy: Option<i64>,
    /// Orientation, radians, +x turning towards +y (`angle`; default 0); a kinematic
    /// ball spins as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angle: Option<f64>,
    /// Angular velocity about the vertical, radians per time unit, same sense as `angle`
    /// (`omega`; default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omega: Option<f64>,
    /// Moment of inertia; left out: a solid disk, `m r^2 / 2` (on cloth a solid
    /// sphere, `2 m r^2 / 5`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inertia: Option<f64>,
    /// Angular velocity about the table's x axis (`wx`; balls on cloth; default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wx: Option<f64>,
    /// Angular velocity about the table's y axis (`wy`; balls on cloth; default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wy: Option<f64>,
    /// A cue strike that gives the ball its velocity and spins at load, instead of
    /// `vx`, `vy`, `wx`, `wy`, `omega` ([`crate::cue`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cue: Option<CueSpec>,
    /// Set when the ball has left play (a pocket, an open edge): it starts out of play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removed: Option<RemovedSpec>,
    /// Glued to the moving wall `walls[K]`: the ball is
    /// kinematic and moves at the wall's translation velocity plus its own `vx`, `vy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glue: Option<u32>,
}

/// `removed = { time, by }`: when the ball left play and how (`"pocket K"`, `"left"`,
/// `"right"`, `"top"`, `"bottom"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemovedSpec {
    /// Simulated time at which the ball left play.
    pub time: f64,
    /// What took it: `"pocket K"` (the pocket's index), `"left"`, `"right"`, `"top"` or
    /// `"bottom"`.
    pub by: String,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn default_radius() -> f64 {
    10.0
}

impl BallSpec {
    /// A resting ball at `(x, y)` with every other key at its default.
    pub fn at(x: f64, y: f64) -> Self {
        BallSpec {
            x,
            y,
            vx: 0.0,
            vy: 0.0,
            r: default_radius(),
            m: 1.0,
            color: None,
            kinematic: false,
            ix: None,
            iy: None,
            angle: None,
            omega: None,
            inertia: None,
            wx: None,
            wy: None,
            cue: None,
            removed: None,
            glue: None,
        }
    }
}

/// `symmetry = { axis_y }`: the scene declared mirror-symmetric; runs report
/// `symmetry_error`, the largest distance between a ball and the mirror image of its
/// partner (partners paired at t = 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SymmetrySpec {
    /// The scene is mirror-symmetric about the horizontal line `y = axis_y`.
    pub axis_y: f64,
}

/// A count that must be a whole number (the image counts): a float, even `2.0`, or a
/// string is refused rather than truncated or guessed at, in words a user reads
/// ("must be a whole number (got 1e300)") instead of the format library's type names
/// and a 301-digit rendering of the float.
fn whole_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    use serde::de::{Error, Visitor};

    struct Whole;

    impl<'de> Visitor<'de> for Whole {
        type Value = Option<i64>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a whole number")
        }

        fn visit_i64<E: Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v))
        }

        fn visit_u64<E: Error>(self, v: u64) -> Result<Self::Value, E> {
            // Beyond i64 is far beyond the bound `build_world` checks; say so here.
            i64::try_from(v).map(Some).map_err(|_| {
                E::custom(format!(
                    "must be a whole number between -2^53 and 2^53 (got {v})"
                ))
            })
        }

        fn visit_f64<E: Error>(self, v: f64) -> Result<Self::Value, E> {
            Err(E::custom(format!(
                "must be a whole number (got {})",
                short_number(v)
            )))
        }

        fn visit_str<E: Error>(self, v: &str) -> Result<Self::Value, E> {
            Err(E::custom(format!("must be a whole number (got {v:?})")))
        }

        fn visit_bool<E: Error>(self, v: bool) -> Result<Self::Value, E> {
            Err(E::custom(format!("must be a whole number (got {v})")))
        }

        // JSON `null` means left out, as it does for the other optional keys.
        fn visit_unit<E: Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }

    d.deserialize_any(Whole)
}

/// A number as a user would write it back in a message: plain in the usual range, in
/// exponent form when very large or small (plain, `1e300` would be 301 digits).
pub fn short_number(v: f64) -> String {
    if v != 0.0 && v.is_finite() && !(1e-5..1e16).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}
