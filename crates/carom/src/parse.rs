//! Scenario text to a checked [`Scenario`], and a checked scenario to a [`World`].
//! Every problem becomes one [`ScenarioError`] naming the field and, where the format
//! gives one, the line.

use crate::balls::{Ball, Balls, Rgb};
use crate::generators;
use crate::scenario::{BallSpec, Scenario};
use crate::world::{Physics, World};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Toml,
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

/// One problem with a scenario. Displayed as `line L: field: message`, the parts that
/// are known; the caller puts the file name in front.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioError {
    pub line: Option<usize>,
    pub field: Option<String>,
    pub message: String,
}

impl ScenarioError {
    pub fn field(field: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            line: None,
            field: Some(field.into()),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        if let Some(field) = &self.field {
            write!(f, "{field}: ")?;
        }
        // Messages from the format libraries can span lines; the contract is one line.
        let one_line: Vec<&str> = self.message.split_whitespace().collect();
        write!(f, "{}", one_line.join(" "))
    }
}

impl std::error::Error for ScenarioError {}

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
/// values are checked by [`check`].
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

fn positive(field: String, v: f64) -> Result<(), ScenarioError> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(ScenarioError::field(
            field,
            format!("must be a positive finite number (got {v})"),
        ))
    }
}

fn finite(field: String, v: f64) -> Result<(), ScenarioError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(ScenarioError::field(
            field,
            format!("must be finite (got {v})"),
        ))
    }
}

/// Converts one ball spec, checking its values; `field` is how to name it in errors.
pub fn ball_from_spec(b: &BallSpec, field: &str) -> Result<Ball, ScenarioError> {
    for (name, v) in [("x", b.x), ("y", b.y), ("vx", b.vx), ("vy", b.vy)] {
        finite(format!("{field}.{name}"), v)?;
    }
    positive(format!("{field}.r"), b.r)?;
    positive(format!("{field}.m"), b.m)?;
    let color = match &b.color {
        None => None,
        Some(c) => Some(Rgb::parse(c).ok_or_else(|| {
            ScenarioError::field(
                format!("{field}.color"),
                format!("must be a colour #RRGGBB (got {c:?})"),
            )
        })?),
    };
    Ok(Ball {
        x: b.x,
        y: b.y,
        vx: b.vx,
        vy: b.vy,
        r: b.r,
        m: b.m,
        color,
        kinematic: b.kinematic,
    })
}

/// Builds the world a scenario describes: resolves the table, expands generators after
/// the listed balls, checks every value, declares symmetry.
pub fn build_world(s: &Scenario) -> Result<World, ScenarioError> {
    finite("duration".into(), s.duration)?;
    if s.duration < 0.0 {
        return Err(ScenarioError::field(
            "duration",
            format!("must not be negative (got {})", s.duration),
        ));
    }
    let table = generators::resolve_table(s)?;
    let mut balls = Balls::default();
    for (i, b) in s.balls.iter().enumerate() {
        balls.push(ball_from_spec(b, &format!("balls[{i}]"))?);
    }
    for (g, gen) in s.generators.iter().enumerate() {
        generators::expand(gen, &table, &format!("generators[{g}]"), &mut balls)?;
    }
    // Balls must start inside the table (touching a wall is fine).
    for i in 0..balls.len() {
        let (x, y, r) = (balls.x[i], balls.y[i], balls.r[i]);
        if x - r < 0.0 || x + r > table.width || y - r < 0.0 || y + r > table.height {
            return Err(ScenarioError::field(
                ball_name(s, i),
                format!(
                    "ball at ({x}, {y}) with radius {r} is outside the {} x {} table",
                    table.width, table.height
                ),
            ));
        }
    }
    let p = &s.physics;
    let physics = Physics {
        model: p.model.or(s.model).unwrap_or_default(),
        dt: p.dt,
        gravity: p.gravity,
        stiffness: p.stiffness,
        restitution: p.restitution,
        integrator: p.integrator,
        glitch_prevention: p.glitch_prevention,
        friction: p.friction,
    };
    let mut world = World::new(s.name.clone(), table, physics, balls)
        .map_err(|e| ScenarioError::field(e.field, e.message))?;
    if let Some(t) = s.time {
        finite("time".into(), t)?;
        world.time = t;
    }
    if let Some(sym) = s.symmetry {
        finite("symmetry.axis_y".into(), sym.axis_y)?;
        world.declare_symmetry(sym.axis_y);
    }
    Ok(world)
}

/// `balls[i]` for listed balls, `generators[g] ball k` for generated ones.
fn ball_name(s: &Scenario, i: usize) -> String {
    if i < s.balls.len() {
        format!("balls[{i}]")
    } else {
        format!("generated ball {} (index {i})", i - s.balls.len())
    }
}
