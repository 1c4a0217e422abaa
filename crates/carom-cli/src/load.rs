//! From the SCENARIO argument and the overrides to a built world, every failure one
//! line naming where it comes from: the file and line, the preset, or the option.

use std::path::Path;

use carom::parse::{self, field_path, Format, PathSeg};
use carom::{Scenario, ScenarioError, World};
use serde::de::DeserializeOwned;

use crate::args::SetArg;
use crate::error::CliError;
use crate::overrides::{self, path_name, Doc};

/// A scenario ready to run.
pub struct Loaded {
    pub scenario: Scenario,
    pub world: World,
}

/// Where the scenario text came from, and how to name it in errors.
struct Source {
    origin: String,
    text: String,
    format: Format,
}

fn source(arg: &str) -> Result<Source, CliError> {
    let path = Path::new(arg);
    // A preset's name is the preset (a scenario file needs an extension, so no file
    // can be meant by it); anything else is a file name.
    if let Some(p) = carom::presets::find(arg) {
        return Ok(Source {
            origin: format!("preset {}", p.name),
            text: p.toml.to_string(),
            format: Format::Toml,
        });
    }
    let format = match Format::from_path(arg) {
        Some(f) => f,
        None if !path.exists() && path.extension().is_none() => {
            let names: Vec<&str> = carom::presets::PRESETS.iter().map(|p| p.name).collect();
            return Err(CliError::input(format!(
                "{arg}: no such preset or file (presets: {})",
                names.join(", ")
            )));
        }
        None => {
            return Err(CliError::input(format!(
                "{arg}: unknown scenario format: the file name must end in .toml or .json"
            )))
        }
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{arg}: cannot read the file: {e}")))?;
    Ok(Source {
        origin: arg.to_string(),
        text,
        format,
    })
}

/// Reads, parses, edits and builds. `sets` are applied in order; a problem they cause
/// is reported against the one that caused it.
pub fn load(arg: &str, sets: &[SetArg]) -> Result<Loaded, CliError> {
    let src = source(arg)?;
    // The text itself first: its syntax and type errors carry their lines.
    let mut scenario = parse::parse_scenario(&src.text, src.format)
        .map_err(|e| CliError::scenario(&src.origin, &e))?;
    if !sets.is_empty() {
        scenario = match src.format {
            Format::Toml => {
                let table: toml::Table = src
                    .text
                    .parse()
                    .map_err(|e| CliError::input(format!("{}: {e}", src.origin)))?;
                edited(toml::Value::Table(table), sets, |v| Ok(v.clone()))?
            }
            Format::Json => {
                let doc: serde_json::Value = serde_json::from_str(&src.text)
                    .map_err(|e| CliError::input(format!("{}: {e}", src.origin)))?;
                edited(doc, sets, overrides::toml_to_json)?
            }
        };
    }
    let world =
        parse::build_world(&scenario).map_err(|e| match culprit(e.field.as_deref(), sets) {
            Some(set) => CliError::scenario(&set.label, &e),
            None => CliError::scenario(&src.origin, &parse::with_line(e, &src.text, src.format)),
        })?;
    Ok(Loaded { scenario, world })
}

/// Applies the overrides to the document and reads the scenario from it. The document
/// was a valid scenario before, so a type or key error now comes from an override.
fn edited<D>(
    mut doc: D,
    sets: &[SetArg],
    convert: impl Fn(&toml::Value) -> Result<D, String>,
) -> Result<Scenario, CliError>
where
    D: Doc + serde::Deserializer<'static>,
    <D as serde::Deserializer<'static>>::Error: std::fmt::Display,
{
    for set in sets {
        let value = convert(&set.value).map_err(|m| {
            CliError::input(format!("{}: {}: {m}", set.label, path_name(&set.path)))
        })?;
        overrides::apply(&mut doc, &set.path, value)
            .map_err(|m| CliError::input(format!("{}: {m}", set.label)))?;
    }
    deserialize(doc).map_err(|(field, message)| {
        let set = culprit(field.as_deref(), sets).unwrap_or(&sets[sets.len() - 1]);
        CliError::scenario(
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
fn culprit<'a>(field: Option<&str>, sets: &'a [SetArg]) -> Option<&'a SetArg> {
    let field: Vec<PathSeg> = field.map(field_path).unwrap_or_default();
    if field.is_empty() {
        return None;
    }
    sets.iter()
        .rev()
        .find(|s| s.path.starts_with(&field) || field.starts_with(&s.path))
}
