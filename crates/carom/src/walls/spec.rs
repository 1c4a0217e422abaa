//! The walls and pockets as a scenario writes them (`[[walls]]`, `[[pockets]]`), read
//! when the world is built and kept by the world to be written back into state files.

use serde::{Deserialize, Serialize};

/// The kinds of wall (`[[walls]] kind = ...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WallKind {
    /// A straight segment between two points.
    #[default]
    Segment,
    /// A chain of segments through two or more points, one wall.
    Polyline,
    /// A circular arc.
    Arc,
    /// A whole circle: a peg, or a round container.
    Circle,
}

/// One `[[walls]]` entry. Which keys a kind takes:
/// - `segment`: `points` (two);
/// - `polyline`: `points` (two or more), `closed` (default false: true joins the last
///   point to the first);
/// - `arc`: `center`, `radius`, `from` (default 0), `to` (degrees from +x towards +y,
///   the arc running through increasing angles, `0 < to - from <= 360`);
/// - `circle`: `center`, `radius`.
///
/// Every kind takes `restitution`, `mu` (defaults: the global ones) and
/// `surface_velocity` (default 0), and may move: `velocity = [vx, vy]`,
/// `angular_velocity` about `pivot = [x, y]`, or a servo `pressure = P` with `axis =
/// "x" | "y"` (and `servo_time`; see `docs/scenarios.md`, "Moving walls"). A state file
/// adds a moving wall's place: `offset = [dx, dy]` and `angle` (radians) since its
/// points. Building the world checks the combination.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WallSpec {
    /// The kind of curve (`kind`; default `segment`).
    pub kind: WallKind,
    /// The points `[x, y]` of a segment or polyline, table units (`points`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<[f64; 2]>>,
    /// A polyline joins its last point to its first (`closed`; default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed: Option<bool>,
    /// The centre `[x, y]` of an arc or circle, table units (`center`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub center: Option<[f64; 2]>,
    /// The radius of an arc or circle, table units, `> 0` (`radius`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    /// Where an arc starts, degrees from +x towards +y (`from`; default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<f64>,
    /// Where an arc ends, degrees, `0 < to - from <= 360` (`to`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<f64>,
    /// This wall's restitution coefficient, `0..=1` (`restitution`; default
    /// `physics.restitution`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restitution: Option<f64>,
    /// This wall's Coulomb coefficient, `>= 0` (`mu`; default
    /// `physics.contact_friction.mu`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mu: Option<f64>,
    /// The surface's own speed along the curve, table units per time unit: a belt, or a
    /// turning drum; it acts through contact friction (`surface_velocity`; default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface_velocity: Option<f64>,
    /// Height of the cushion's nose above the table, where a ball on cloth meets it,
    /// table units (default 1.27 times the ball's radius, 63.5 % of its diameter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cushion_height: Option<f64>,
    /// Translation velocity of a moving wall.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub velocity: Option<[f64; 2]>,
    /// Angular velocity (radians per time unit) of a wall turning about `pivot`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angular_velocity: Option<f64>,
    /// The point `[x, y]` a turning wall turns about, table units; it moves with the wall
    /// (`pivot`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pivot: Option<[f64; 2]>,
    /// A servo wall's target normal force per unit length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pressure: Option<f64>,
    /// The axis a servo wall moves along.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub axis: Option<ServoAxis>,
    /// A servo's time constant (default 100 steps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servo_time: Option<f64>,
    /// State: how far a moving wall has moved since its points were given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<[f64; 2]>,
    /// State: how far a turning wall has turned about its pivot (radians).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angle: Option<f64>,
}

/// The axis a servo wall moves along.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ServoAxis {
    /// Along x.
    X,
    /// Along y.
    Y,
}

/// One `[[pockets]]` entry.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PocketSpec {
    /// The pocket's centre `[x, y]`, table units.
    pub center: [f64; 2],
    /// A ball whose centre comes within this distance leaves play, table units, `> 0`.
    pub radius: f64,
}
