//! Scenario text to a [`Scenario`] (syntax, keys and types checked), and, through
//! `building`, to a [`World`]. Every problem becomes one [`ScenarioError`]
//! naming the field and, where the format gives one, the line.

use crate::error::ScenarioError;
use crate::scenario::Scenario;
use crate::world::World;

// The building step, where its users find it beside the parser.
pub use crate::building::{ball_from_spec, build_world, MAX_IMAGES, MAX_RESUMED_STEPS};

mod locate;

pub use locate::{field_path, locate_field, PathSeg};

/// The two formats a scenario or state file is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// TOML (`.toml`).
    Toml,
    /// JSON (`.json`).
    Json,
}

impl Format {
    /// The format a file name's extension implies (`.toml` or `.json`).
    pub fn from_path(path: &str) -> Option<Format> {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".toml") {
            Some(Format::Toml)
        } else if lower.ends_with(".json") {
            Some(Format::Json)
        } else {
            None
        }
    }
}

fn line_of(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}

fn path_string(path: &serde_path_to_error::Path) -> Option<String> {
    let s = path.to_string();
    if s.is_empty() || s == "." {
        None
    } else {
        Some(s)
    }
}

/// Parses scenario text. Syntax errors, unknown keys and wrong types are reported here;
/// values are checked by [`build_world`].
///
/// # Example
///
/// A ball thrown under gravity: the parsed scenario holds the default of every key not
/// written, and the world built from it moves the ball on the exact parabola of the
/// `impulse` model's free flight. A value out of range is found when the world is
/// built, and [`load`] names its field and line.
///
/// ```
/// use carom::parse::{build_world, load, parse_scenario, Format};
///
/// let text = r#"{
///   "table": { "width": 100.0, "height": 100.0 },
///   "physics": { "model": "impulse", "gravity": [0.0, 0.5] },
///   "balls": [ { "x": 50.0, "y": 20.0, "vx": 1.0 } ]
/// }"#;
/// let scenario = parse_scenario(text, Format::Json).unwrap();
/// assert_eq!((scenario.physics.dt, scenario.balls[0].r), (0.05, 10.0));
/// let mut world = build_world(&scenario).unwrap();
/// world.run_steps(100).unwrap(); // t = 5, above the floor
/// // x = x0 + vx t, y = y0 + g t^2 / 2.
/// assert!((world.balls().x[0] - 55.0).abs() < 1e-9);
/// assert!((world.balls().y[0] - 26.25).abs() < 1e-9);
///
/// let bad = "[table]\nwidth = 100.0\nheight = 100.0\n[[balls]]\nx = 50.0\ny = 50.0\nr = -1.0\n";
/// let e = load(bad, Format::Toml).unwrap_err();
/// assert_eq!((e.field.as_deref(), e.line), (Some("balls[0].r"), Some(7)));
/// ```
pub fn parse_scenario(text: &str, format: Format) -> Result<Scenario, ScenarioError> {
    match format {
        Format::Toml => {
            let de = toml::Deserializer::parse(text).map_err(|e| ScenarioError {
                line: e.span().map(|s| line_of(text, s.start)),
                field: None,
                message: e.message().to_string(),
            })?;
            serde_path_to_error::deserialize(de).map_err(|e| {
                let field = path_string(e.path());
                let inner = e.into_inner();
                ScenarioError {
                    line: inner.span().map(|s| line_of(text, s.start)),
                    field,
                    message: inner.message().to_string(),
                }
            })
        }
        Format::Json => {
            let mut de = serde_json::Deserializer::from_str(text);
            let scenario: Scenario = serde_path_to_error::deserialize(&mut de).map_err(|e| {
                let field = path_string(e.path());
                let inner = e.into_inner();
                ScenarioError {
                    line: (inner.line() > 0).then_some(inner.line()),
                    field,
                    message: strip_json_position(&inner.to_string()),
                }
            })?;
            de.end().map_err(|e| ScenarioError {
                line: Some(e.line()),
                field: None,
                message: strip_json_position(&e.to_string()),
            })?;
            Ok(scenario)
        }
    }
}

/// serde_json appends " at line L column C"; the line is reported separately.
fn strip_json_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(p) => msg[..p].to_string(),
        None => msg.to_string(),
    }
}

/// Parses scenario text and builds its world; a value error found while building
/// carries the line where the offending field is written.
pub fn load(text: &str, format: Format) -> Result<(Scenario, World), ScenarioError> {
    let scenario = parse_scenario(text, format)?;
    let world = build_world(&scenario).map_err(|e| with_line(e, text, format))?;
    Ok((scenario, world))
}

/// Fills in the line of an error's field from the text it came from, if not known.
pub fn with_line(mut e: ScenarioError, text: &str, format: Format) -> ScenarioError {
    if e.line.is_none() {
        if let Some(field) = &e.field {
            e.line = locate_field(text, format, field);
        }
    }
    e
}
