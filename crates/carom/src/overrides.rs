//! Overrides (the command line's `--set KEY=VALUE`, `--model`, `--dt`; the Python
//! package's `overrides=`): edits of the scenario document before it is turned into a
//! scenario. TOML scenarios are edited as `toml::Value`, JSON ones as
//! `serde_json::Value`, so each keeps its own value range (JSON's 64-bit unsigned
//! integers, TOML's `nan`). Every front end goes through here, so an override means the
//! same thing and fails with the same message wherever it is given.

use crate::parse::{field_path, PathSeg};
use crate::physics::ModelKind;

/// One edit of the scenario: the value to put at a dotted path, and how the user wrote
/// it (`--set balls.2.vx=3`), to name it in errors.
#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    /// How the user wrote the edit (`--set balls.2.vx=3`, `--model event`), to name it in
    /// errors.
    pub label: String,
    /// The path to the edited key, table keys and array indices.
    pub path: Vec<PathSeg>,
    /// The value put there.
    pub value: toml::Value,
}

impl Override {
    /// `physics.model = m`, as `--model` sets it.
    pub fn model(m: ModelKind) -> Override {
        Override {
            label: format!("--model {}", m.name()),
            path: field_path("physics.model"),
            value: toml::Value::String(m.name().to_string()),
        }
    }

    /// `physics.dt = dt`, as `--dt` sets it.
    pub fn dt(dt: f64) -> Override {
        Override {
            label: format!("--dt {dt}"),
            path: field_path("physics.dt"),
            value: toml::Value::Float(dt),
        }
    }

    /// `KEY=VALUE` as `--set` takes it: VALUE is a TOML value if it reads as one
    /// (`3`, `0.5`, `true`, `[1, 2]`), else the text itself as a string
    /// (`physics.model=spring`).
    pub fn parse(s: &str) -> Result<Override, String> {
        let (key, value) = s
            .split_once('=')
            .ok_or_else(|| "expected KEY=VALUE (e.g. physics.stiffness=10)".to_string())?;
        let mut o = Override::with_value(key, value_of_text(value.trim()))?;
        o.label = format!("--set {s}");
        Ok(o)
    }

    /// `KEY` set to an already typed value; labelled as the equivalent `--set`.
    pub fn with_value(key: &str, value: toml::Value) -> Result<Override, String> {
        let key = key.trim();
        if key.is_empty() || key.split('.').any(str::is_empty) {
            // Escaped: a key with a line break or other control character (a stray
            // carriage return) must not break the one-line error.
            return Err(format!(
                "'{}' is not a dotted path (e.g. balls.0.vx)",
                key.escape_debug()
            ));
        }
        Ok(Override {
            label: format!("--set {key}={value}"),
            path: field_path(key),
            value,
        })
    }
}

/// A TOML value if the text is one, else the text as a string.
pub fn value_of_text(text: &str) -> toml::Value {
    match format!("v = {text}").parse::<toml::Table>() {
        Ok(mut t) => t
            .remove("v")
            .unwrap_or_else(|| toml::Value::String(text.to_string())),
        Err(_) => toml::Value::String(text.to_string()),
    }
}

/// The path as errors name fields: `balls[2].vx`.
pub fn path_name(path: &[PathSeg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            PathSeg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            PathSeg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// What editing needs from a document value.
pub trait Doc: Sized {
    /// An empty table.
    fn new_table() -> Self;
    /// The value's type, as errors name it (`table`, `array`, `string`, ...).
    fn kind(&self) -> &'static str;
    /// The value under `key`, if this is a table that has it.
    fn table_slot(&mut self, key: &str) -> Option<&mut Self>;
    /// Sets `key` to `v`; false when this is not a table.
    fn table_insert(&mut self, key: &str, v: Self) -> bool;
    /// The elements, if this is an array.
    fn array(&mut self) -> Option<&mut Vec<Self>>;
}

impl Doc for toml::Value {
    fn new_table() -> Self {
        toml::Value::Table(toml::Table::new())
    }
    fn kind(&self) -> &'static str {
        self.type_str()
    }
    fn table_slot(&mut self, key: &str) -> Option<&mut Self> {
        self.as_table_mut()?.get_mut(key)
    }
    fn table_insert(&mut self, key: &str, v: Self) -> bool {
        match self.as_table_mut() {
            Some(t) => {
                t.insert(key.to_string(), v);
                true
            }
            None => false,
        }
    }
    fn array(&mut self) -> Option<&mut Vec<Self>> {
        self.as_array_mut()
    }
}

impl Doc for serde_json::Value {
    fn new_table() -> Self {
        serde_json::Value::Object(serde_json::Map::new())
    }
    fn kind(&self) -> &'static str {
        match self {
            serde_json::Value::Null => "null",
            serde_json::Value::Bool(_) => "boolean",
            serde_json::Value::Number(_) => "number",
            serde_json::Value::String(_) => "string",
            serde_json::Value::Array(_) => "array",
            serde_json::Value::Object(_) => "object",
        }
    }
    fn table_slot(&mut self, key: &str) -> Option<&mut Self> {
        self.as_object_mut()?.get_mut(key)
    }
    fn table_insert(&mut self, key: &str, v: Self) -> bool {
        match self.as_object_mut() {
            Some(t) => {
                t.insert(key.to_string(), v);
                true
            }
            None => false,
        }
    }
    fn array(&mut self) -> Option<&mut Vec<Self>> {
        self.as_array_mut()
    }
}

/// Sets the value at `path`, creating missing tables on the way and appending to an
/// array when the index is one past its end. Errors name the part of the path that
/// could not be followed.
pub fn apply<D: Doc>(root: &mut D, path: &[PathSeg], value: D) -> Result<(), String> {
    let Some((last, parents)) = path.split_last() else {
        return Err("empty path".to_string());
    };
    let mut node = root;
    for (k, seg) in parents.iter().enumerate() {
        node = step(node, seg, &path[..=k])?;
    }
    match last {
        PathSeg::Key(key) => {
            let kind = node.kind();
            if node.table_insert(key, value) {
                Ok(())
            } else {
                Err(format!("{} is a {kind}, not a table", parent_name(path)))
            }
        }
        PathSeg::Index(_) => {
            *step(node, last, path)? = value;
            Ok(())
        }
    }
}

fn parent_name(path: &[PathSeg]) -> String {
    match path.len() {
        0 | 1 => "the document".to_string(),
        n => path_name(&path[..n - 1]),
    }
}

/// Follows one step of the path, creating it as an empty table if missing (a step
/// that ends the path then has its value written over that table).
fn step<'a, D: Doc>(node: &'a mut D, seg: &PathSeg, upto: &[PathSeg]) -> Result<&'a mut D, String> {
    let kind = node.kind();
    match seg {
        PathSeg::Key(key) => {
            if node.table_slot(key).is_none() && !node.table_insert(key, D::new_table()) {
                return Err(format!("{} is a {kind}, not a table", parent_name(upto)));
            }
            Ok(node.table_slot(key).expect("just ensured"))
        }
        PathSeg::Index(i) => {
            let Some(arr) = node.array() else {
                return Err(format!("{} is a {kind}, not an array", parent_name(upto)));
            };
            let len = arr.len();
            if *i == len {
                arr.push(D::new_table());
            } else if *i > len {
                return Err(format!(
                    "{} has {len} entries: index {i} is past its end (use {len} to append)",
                    parent_name(upto)
                ));
            }
            Ok(&mut arr[*i])
        }
    }
}

/// A `--set` value for a JSON document. JSON has no NaN or infinity: such a value is
/// refused as the scenario checks would refuse it, naming the field.
pub fn toml_to_json(v: &toml::Value) -> Result<serde_json::Value, String> {
    use serde_json::Value as J;
    Ok(match v {
        toml::Value::String(s) => J::String(s.clone()),
        toml::Value::Integer(i) => J::from(*i),
        toml::Value::Float(f) => J::Number(
            serde_json::Number::from_f64(*f).ok_or_else(|| format!("must be finite (got {f})"))?,
        ),
        toml::Value::Boolean(b) => J::Bool(*b),
        toml::Value::Datetime(d) => J::String(d.to_string()),
        toml::Value::Array(a) => J::Array(a.iter().map(toml_to_json).collect::<Result<_, _>>()?),
        toml::Value::Table(t) => J::Object(
            t.iter()
                .map(|(k, v)| Ok((k.clone(), toml_to_json(v)?)))
                .collect::<Result<_, String>>()?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> toml::Value {
        toml::Value::Table(
            "[physics]\ndt = 0.05\n[[balls]]\nx = 1.0\ny = 2.0\n"
                .parse::<toml::Table>()
                .unwrap(),
        )
    }

    #[test]
    fn sets_nested_values_and_creates_tables() {
        let mut d = doc();
        apply(&mut d, &field_path("physics.dt"), toml::Value::Float(0.01)).unwrap();
        apply(&mut d, &field_path("balls.0.vx"), toml::Value::Float(3.0)).unwrap();
        apply(
            &mut d,
            &field_path("symmetry.axis_y"),
            toml::Value::Float(2.0),
        )
        .unwrap();
        assert_eq!(d["physics"]["dt"].as_float(), Some(0.01));
        assert_eq!(d["balls"][0]["vx"].as_float(), Some(3.0));
        assert_eq!(d["symmetry"]["axis_y"].as_float(), Some(2.0));
    }

    #[test]
    fn appends_one_past_the_end_and_refuses_further() {
        let mut d = doc();
        apply(&mut d, &field_path("balls.1.x"), toml::Value::Float(5.0)).unwrap();
        assert_eq!(d["balls"].as_array().unwrap().len(), 2);
        let e = apply(&mut d, &field_path("balls.5.x"), toml::Value::Float(5.0)).unwrap_err();
        assert!(e.contains("balls has 2 entries"), "{e}");
    }

    #[test]
    fn refuses_to_walk_through_a_number() {
        let mut d = doc();
        let e = apply(&mut d, &field_path("physics.dt.x"), toml::Value::Float(1.0)).unwrap_err();
        assert!(e.contains("physics.dt is a float, not a table"), "{e}");
        let e = apply(&mut d, &field_path("physics.0"), toml::Value::Float(1.0)).unwrap_err();
        assert!(e.contains("physics is a table, not an array"), "{e}");
    }

    #[test]
    fn json_documents_are_edited_alike() {
        let mut d: serde_json::Value = serde_json::from_str(r#"{"balls":[{"x":1}]}"#).unwrap();
        apply(&mut d, &field_path("balls.0.x"), serde_json::json!(4.5)).unwrap();
        assert_eq!(d["balls"][0]["x"], serde_json::json!(4.5));
        assert!(toml_to_json(&toml::Value::Float(f64::NAN)).is_err());
    }
}
