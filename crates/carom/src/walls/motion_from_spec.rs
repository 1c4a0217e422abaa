//! From a `[[walls]]` entry's motion keys (`velocity`, `angular_velocity` with `pivot`,
//! `pressure` with `axis` and `servo_time`, and a state file's `offset` and `angle`) to
//! the wall's [`Motion`], every bad combination a one-line error naming its key.

use super::spec::{ServoAxis, WallSpec};
use super::{Motion, Piece, Servo};
use crate::error::ScenarioError;
use crate::table::Table;

fn err(field: String, message: impl Into<String>) -> ScenarioError {
    ScenarioError::field(field, message)
}

fn finite(field: String, v: &[f64]) -> Result<(), ScenarioError> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(err(field, format!("must be finite (got {v:?})")))
    }
}

/// The motion of the wall `w` (named `name`, with bounding box `bounds` and pieces
/// `pieces`), or `None` when it has no motion key: a fixed wall.
pub fn motion(
    w: &WallSpec,
    name: &str,
    table: &Table,
    bounds: [f64; 4],
    pieces: &[Piece],
) -> Result<Option<Motion>, ScenarioError> {
    let key = |k: &str| format!("{name}.{k}");
    let moves = w.velocity.is_some() || w.angular_velocity.is_some() || w.pressure.is_some();
    if !moves {
        fixed(w, name)?;
        return Ok(None);
    }
    let velocity = w.velocity.unwrap_or([0.0, 0.0]);
    finite(key("velocity"), &velocity)?;
    let offset = w.offset.unwrap_or([0.0, 0.0]);
    finite(key("offset"), &offset)?;
    let angle = w.angle.unwrap_or(0.0);
    finite(key("angle"), &[angle])?;
    let mut m = Motion {
        velocity,
        offset,
        angle,
        ..Motion::default()
    };
    if let Some((omega, pivot)) = turn(w, name, table)? {
        m.angular_velocity = omega;
        m.pivot = pivot;
    }
    m.servo = servo(w, name, table, bounds, pieces, &m)?;
    Ok(Some(m))
}

/// A wall without motion keys: none of the keys that only a moving wall takes.
fn fixed(w: &WallSpec, name: &str) -> Result<(), ScenarioError> {
    let key = |k: &str| format!("{name}.{k}");
    for (k, given) in [
        ("pivot", w.pivot.is_some()),
        ("axis", w.axis.is_some()),
        ("servo_time", w.servo_time.is_some()),
        ("offset", w.offset.is_some()),
        ("angle", w.angle.is_some()),
    ] {
        if given {
            return Err(err(
                key(k),
                "belongs to a moving wall: give velocity, angular_velocity or pressure",
            ));
        }
    }
    Ok(())
}

/// A turning wall's angular velocity and pivot (`None`: the wall does not turn).
fn turn(w: &WallSpec, name: &str, table: &Table) -> Result<Option<(f64, [f64; 2])>, ScenarioError> {
    let key = |k: &str| format!("{name}.{k}");
    match (w.angular_velocity, w.pivot) {
        (Some(omega), Some(pivot)) => {
            finite(key("angular_velocity"), &[omega])?;
            finite(key("pivot"), &pivot)?;
            if !(0.0..=table.width).contains(&pivot[0]) || !(0.0..=table.height).contains(&pivot[1])
            {
                return Err(err(
                    key("pivot"),
                    format!(
                        "[{}, {}] lies outside the {} x {} table",
                        pivot[0], pivot[1], table.width, table.height
                    ),
                ));
            }
            Ok(Some((omega, pivot)))
        }
        (Some(_), None) => Err(err(
            name.to_string(),
            "a turning wall (angular_velocity) needs pivot = [x, y]",
        )),
        (None, Some(_)) => Err(err(
            key("pivot"),
            "is the centre of a turn: give angular_velocity too",
        )),
        (None, None) => {
            if w.angle.is_some() {
                return Err(err(
                    key("angle"),
                    "belongs to a turning wall (angular_velocity)",
                ));
            }
            Ok(None)
        }
    }
}

/// A servo wall's servo (`None`: no pressure on the wall), checked against the rest of
/// its motion `m`: a servo wall does not turn, and its velocity along the axis is the
/// servo's own. It pushes from the wall towards the table's middle along its axis, so
/// its place (`bounds`) must leave it a side.
fn servo(
    w: &WallSpec,
    name: &str,
    table: &Table,
    bounds: [f64; 4],
    pieces: &[Piece],
    m: &Motion,
) -> Result<Option<Servo>, ScenarioError> {
    let key = |k: &str| format!("{name}.{k}");
    match (w.pressure, w.axis) {
        (Some(p), Some(axis)) => {
            if !(p.is_finite() && p >= 0.0) {
                return Err(err(
                    key("pressure"),
                    format!("must be a finite number of at least 0 (got {p})"),
                ));
            }
            if m.angular_velocity != 0.0 || w.angular_velocity.is_some() {
                return Err(err(
                    key("angular_velocity"),
                    "a servo wall (pressure) does not turn",
                ));
            }
            let a = match axis {
                ServoAxis::X => 0,
                ServoAxis::Y => 1,
            };
            if m.velocity[a] != 0.0 {
                return Err(err(
                    key("velocity"),
                    format!(
                        "a servo wall moves along its axis by itself: its velocity along {} \
                         must be 0 (got {})",
                        ["x", "y"][a],
                        m.velocity[a]
                    ),
                ));
            }
            let time = w.servo_time.unwrap_or(0.0);
            if w.servo_time.is_some() && !(time.is_finite() && time > 0.0) {
                return Err(err(
                    key("servo_time"),
                    format!("must be a positive finite number (got {time})"),
                ));
            }
            // The servo pushes from the wall towards the table's middle along its axis.
            let size = [table.width, table.height][a];
            let mid = 0.5 * (bounds[a] + bounds[a + 2]);
            let side = 0.5 * size - mid;
            if side == 0.0 {
                return Err(err(
                    key("axis"),
                    format!(
                        "the servo wall lies across the table's middle along {}: it has no side \
                         to push towards",
                        ["x", "y"][a]
                    ),
                ));
            }
            let mut push = [0.0, 0.0];
            push[a] = side.signum();
            Ok(Some(Servo {
                pressure: p,
                push,
                length: pieces.iter().map(crate::walls::motion::length).sum(),
                time,
                speed: 0.0,
            }))
        }
        (Some(_), None) => Err(err(
            name.to_string(),
            "a servo wall (pressure) needs axis = \"x\" or \"y\"",
        )),
        (None, Some(_)) => Err(err(key("axis"), "belongs to a servo wall: give pressure")),
        (None, None) => {
            if w.servo_time.is_some() {
                return Err(err(
                    key("servo_time"),
                    "belongs to a servo wall: give pressure",
                ));
            }
            Ok(None)
        }
    }
}
