//! From scenario text and overrides to a built world, every failure one line naming
//! where it comes from: `ORIGIN:LINE: FIELD: message`, with ORIGIN the file, the preset
//! (`preset break`) or the override that caused it. Reading files is the caller's
//! business: the command line and the Python package hand the text in and get the same
//! world, or the same message.

use serde::de::DeserializeOwned;

use crate::overrides::{self, path_name, Doc, Override};
use crate::parse::{self, field_path, Format, PathSeg};
use crate::scenario::Scenario;
use crate::world::World;
use crate::ScenarioError;

/// Scenario text, where it came from (to name it in errors), and its format.
#[derive(Debug, Clone)]
pub struct Source {
    /// Where the text came from, as errors name it: a file name, or `preset NAME`.
    pub origin: String,
    /// The scenario text.
    pub text: String,
    /// TOML or JSON.
    pub format: Format,
    /// Whether a line number means something to the user (not for text that a program
    /// generated from a value, such as a Python dict).
    pub lines: bool,
}

impl Source {
    /// A built-in preset by name.
    pub fn preset(name: &str) -> Option<Source> {
        crate::presets::find(name).map(|p| Source {
            origin: format!("preset {}", p.name),
            text: p.toml.to_string(),
            format: Format::Toml,
            lines: true,
        })
    }

    /// Text read from somewhere the caller names.
    pub fn text(origin: impl Into<String>, text: impl Into<String>, format: Format) -> Source {
        Source {
            origin: origin.into(),
            text: text.into(),
            format,
            lines: true,
        }
    }
}

/// The SCENARIO a user names (a preset, or a scenario or state file) as a source.
/// The file system is the caller's: `exists` tells whether a path names something,
/// `read` reads it. A preset's name is the preset (a scenario file needs an extension,
/// so no file can be meant by it); anything else is a file name.
pub fn resolve(
    arg: &str,
    exists: impl Fn(&str) -> bool,
    read: impl FnOnce(&str) -> Result<String, String>,
) -> Result<Source, String> {
    if let Some(src) = Source::preset(arg) {
        return Ok(src);
    }
    let has_extension = std::path::Path::new(arg).extension().is_some();
    let format = match Format::from_path(arg) {
        Some(f) => f,
        None if !exists(arg) && !has_extension => {
            let names: Vec<&str> = crate::presets::PRESETS.iter().map(|p| p.name).collect();
            return Err(format!(
                "{arg}: no such preset or file (presets: {})",
                names.join(", ")
            ));
        }
        None => {
            return Err(format!(
                "{arg}: unknown scenario format: the file name must end in .toml or .json"
            ))
        }
    };
    let text = read(arg).map_err(|e| format!("{arg}: cannot read the file: {e}"))?;
    Ok(Source::text(arg, text, format))
}

/// A scenario ready to run.
pub struct Loaded {
    /// The scenario with the overrides applied.
    pub scenario: Scenario,
    /// The world it builds, at the scenario's start.
    pub world: World,
}

/// `ORIGIN:LINE: FIELD: message`, with the parts that are known, on one line.
pub fn error_line(origin: &str, e: &ScenarioError) -> String {
    let mut s = origin.to_string();
    if let Some(line) = e.line {
        s.push_str(&format!(":{line}"));
    }
    s.push_str(": ");
    if let Some(field) = &e.field {
        s.push_str(field);
        s.push_str(": ");
    }
    s.push_str(&e.message);
    one_line(&s)
}

/// Messages from libraries can span lines; the contract is one line.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Parses, edits and builds. `sets` are applied in order; a problem they cause is
/// reported against the one that caused it. The error is the one line to show.
///
/// # Example
///
/// Two equal balls head on, the restitution set by an override as `--set` gives it:
/// they part at `e` times their closing speed, their momentum still zero. An override
/// that makes the scenario wrong is named in the error.
///
/// ```
/// use carom::load::{build, Source};
/// use carom::overrides::Override;
/// use carom::parse::Format;
///
/// let text = r#"
/// [table]
/// width = 400.0
/// height = 200.0
/// [physics]
/// model = "event"
/// [[balls]]
/// x = 100.0
/// y = 100.0
/// vx = 2.0
/// [[balls]]
/// x = 300.0
/// y = 100.0
/// vx = -2.0
/// "#;
/// let src = Source::text("head-on.toml", text, Format::Toml);
/// let sets = [Override::parse("physics.restitution=0.5").unwrap()];
/// let mut loaded = build(&src, &sets).unwrap();
/// loaded.world.run_steps(1000).unwrap(); // t = 50; they meet at t = 45
/// let b = loaded.world.balls();
/// assert!((b.vx[0] + 1.0).abs() < 1e-12 && (b.vx[1] - 1.0).abs() < 1e-12);
/// assert_eq!(loaded.world.diagnostics().collisions, 1);
///
/// let wrong = [Override::parse("physics.restitution=2").unwrap()];
/// let e = build(&src, &wrong).err().unwrap();
/// assert!(e.starts_with("--set physics.restitution=2: physics.restitution: "), "{e}");
/// ```
pub fn build(src: &Source, sets: &[Override]) -> Result<Loaded, String> {
    let no_line = |mut e: ScenarioError| {
        if !src.lines {
            e.line = None;
        }
        e
    };
    // The text itself first: its syntax and type errors carry their lines.
    let mut scenario = parse::parse_scenario(&src.text, src.format)
        .map_err(|e| error_line(&src.origin, &no_line(e)))?;
    if !sets.is_empty() {
        scenario = match src.format {
            Format::Toml => {
                let table: toml::Table = src
                    .text
                    .parse()
                    .map_err(|e| one_line(&format!("{}: {e}", src.origin)))?;
                edited(toml::Value::Table(table), sets, |v| Ok(v.clone()))?
            }
            Format::Json => {
                let doc: serde_json::Value = serde_json::from_str(&src.text)
                    .map_err(|e| one_line(&format!("{}: {e}", src.origin)))?;
                edited(doc, sets, overrides::toml_to_json)?
            }
        };
    }
    let world = crate::building::build_world(&scenario).map_err(|e| {
        match culprit(e.field.as_deref(), sets) {
            Some(set) => error_line(&set.label, &e),
            None => error_line(
                &src.origin,
                &no_line(parse::with_line(e, &src.text, src.format)),
            ),
        }
    })?;
    Ok(Loaded { scenario, world })
}

/// Applies the overrides to the document and reads the scenario from it. The document
/// was a valid scenario before, so a type or key error now comes from an override.
fn edited<D>(
    mut doc: D,
    sets: &[Override],
    convert: impl Fn(&toml::Value) -> Result<D, String>,
) -> Result<Scenario, String>
where
    D: Doc + serde::Deserializer<'static>,
    <D as serde::Deserializer<'static>>::Error: std::fmt::Display,
{
    for set in sets {
        let value = convert(&set.value)
            .map_err(|m| one_line(&format!("{}: {}: {m}", set.label, path_name(&set.path))))?;
        overrides::apply(&mut doc, &set.path, value)
            .map_err(|m| one_line(&format!("{}: {m}", set.label)))?;
    }
    deserialize(doc).map_err(|(field, message)| {
        let set = culprit(field.as_deref(), sets).unwrap_or(&sets[sets.len() - 1]);
        error_line(
            &set.label,
            &ScenarioError {
                line: None,
                field,
                message,
            },
        )
    })
}

fn deserialize<'de, D, T>(doc: D) -> Result<T, (Option<String>, String)>
where
    D: serde::Deserializer<'de>,
    D::Error: std::fmt::Display,
    T: DeserializeOwned,
{
    serde_path_to_error::deserialize(doc).map_err(|e| {
        let path = e.path().to_string();
        let field = (!path.is_empty() && path != ".").then_some(path);
        let message = e.into_inner().to_string().trim_end().to_string();
        // The toml value deserializer appends the path, which is reported separately.
        let message = match message.rfind("in `") {
            Some(p)
                if p > 0
                    && message.ends_with('`')
                    && message[..p].ends_with(char::is_whitespace) =>
            {
                message[..p].trim_end().to_string()
            }
            _ => message,
        };
        (field, message)
    })
}

/// The last override whose path leads to the field, or lies under it (an override of
/// `balls.2.x` is the cause of "balls[2] is outside the table"; one of
/// `physics.stifness` the cause of an unknown-field error on `physics`).
fn culprit<'a>(field: Option<&str>, sets: &'a [Override]) -> Option<&'a Override> {
    let field: Vec<PathSeg> = field.map(field_path).unwrap_or_default();
    if field.is_empty() {
        return None;
    }
    sets.iter()
        .rev()
        .find(|s| s.path.starts_with(&field) || field.starts_with(&s.path))
}
