//! Values crossing between Python and the engine: step counts, override values,
//! scenario sources, and ball arrays in both directions. Every check here gives the
//! command line's one-line error, as `ScenarioError`.

use carom::load::{self, Source};
use carom::overrides::{value_of_text, Override};
use carom::parse::Format;
use carom::ModelKind;
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::{scenario_error, PyWorld, ScenarioError};

/// A step count given from Python (`step(n)`, `run(steps=)`, `compare(steps=)`): a
/// whole number from 0 to the bound `--steps` has (`carom::run::check_steps`), else
/// `ScenarioError` naming the argument, as the command line refuses `--steps`. Taken
/// as any object so that a negative, huge or fractional count is this error rather
/// than a conversion error; numpy integers are accepted, as any `__index__` is.
pub(crate) fn step_count(v: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    let shown = || v.str().map(|s| s.to_string()).unwrap_or_default();
    if let Ok(n) = v.extract::<u64>() {
        return carom::run::check_steps(n, what).map_err(scenario_error);
    }
    if v.extract::<i64>().is_ok() {
        return Err(scenario_error(format!(
            "{what} {}: must not be negative",
            shown()
        )));
    }
    if v.is_instance_of::<PyInt>() {
        // Beyond u64 (or below i64): far past the bound either way.
        let n = shown();
        return Err(scenario_error(if n.starts_with('-') {
            format!("{what} {n}: must not be negative")
        } else {
            format!(
                "{what} {n}: more steps than any run can take (at most {:e})",
                carom::run::MAX_STEPS
            )
        }));
    }
    Err(scenario_error(format!(
        "{what} {}: not a whole number",
        shown()
    )))
}

/// A Python value as the TOML value of an override: strings are read as `--set` reads
/// its text (`"0.5"` and `0.5` are the same), other values keep their type.
pub(crate) fn toml_of(v: &Bound<'_, PyAny>) -> PyResult<toml::Value> {
    if v.is_instance_of::<PyBool>() {
        return Ok(toml::Value::Boolean(v.extract()?));
    }
    if v.is_instance_of::<PyInt>() {
        return Ok(toml::Value::Integer(v.extract()?));
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(v.extract()?));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(value_of_text(s.to_str()?));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        let mut t = toml::Table::new();
        for (k, x) in d.iter() {
            t.insert(k.extract::<String>()?, toml_of(&x)?);
        }
        return Ok(toml::Value::Table(t));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'_, PyAny>> = v.extract()?;
        return Ok(toml::Value::Array(
            items.iter().map(toml_of).collect::<PyResult<_>>()?,
        ));
    }
    // numpy scalars and other numbers: an integer if it is one, else a float.
    if let Ok(i) = v.extract::<i64>() {
        return Ok(toml::Value::Integer(i));
    }
    if let Ok(f) = v.extract::<f64>() {
        return Ok(toml::Value::Float(f));
    }
    Err(ScenarioError::new_err(format!(
        "overrides: a value of type {} is not a scenario value (use numbers, strings, \
         booleans, lists or dicts)",
        v.get_type().name()?
    )))
}

/// The overrides of `model=` and `overrides=`, in the command line's order (`--set`
/// options, then `--model`).
pub(crate) fn overrides_of(
    model: Option<&str>,
    overrides: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<Override>> {
    let mut sets = Vec::new();
    if let Some(d) = overrides {
        for (k, v) in d.iter() {
            let key: String = k
                .extract()
                .map_err(|_| scenario_error("overrides: keys must be dotted paths (str)"))?;
            let set = if let Ok(s) = v.cast::<PyString>() {
                Override::parse(&format!("{key}={}", s.to_str()?))
            } else {
                Override::with_value(&key, toml_of(&v)?)
            };
            sets.push(set.map_err(|m| scenario_error(format!("--set {key}: {m}")))?);
        }
    }
    if let Some(m) = model {
        sets.push(match ModelKind::from_name(m) {
            Some(kind) => Override::model(kind),
            // Left to the scenario check, which names the field and the valid models.
            None => Override {
                label: format!("--model {m}"),
                path: carom::parse::field_path("physics.model"),
                value: toml::Value::String(m.to_string()),
            },
        });
    }
    Ok(sets)
}

/// A preset name, a path (str or os.PathLike) or a dict as a scenario source.
pub(crate) fn source_of(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Source> {
    if source.is_instance_of::<PyDict>() {
        let json = py.import("json")?;
        let text: String = json
            .call_method1("dumps", (source,))
            .map_err(|e| scenario_error(format!("dict: not a scenario document: {e}")))?
            .extract()?;
        let mut src = Source::text("dict", text, Format::Json);
        src.lines = false;
        return Ok(src);
    }
    let path: String = py
        .import("os")?
        .call_method1("fspath", (source,))
        .and_then(|p| p.extract())
        .map_err(|_| {
            scenario_error(format!(
                "source: expected a preset name, a path or a dict, got {}",
                source
                    .get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
    load::resolve(
        &path,
        |p| std::path::Path::new(p).exists(),
        |p| std::fs::read_to_string(p).map_err(|e| e.to_string()),
    )
    .map_err(scenario_error)
}

pub(crate) fn build(
    src: &Source,
    model: Option<&str>,
    overrides: Option<&Bound<'_, PyDict>>,
    threads: Option<usize>,
) -> PyResult<PyWorld> {
    let sets = overrides_of(model, overrides)?;
    let loaded = load::build(src, &sets).map_err(scenario_error)?;
    PyWorld::new(loaded, src.origin.clone(), threads)
}

/// Interleaved (x, y) pairs as an (N, 2) float64 array, made read-only: writing into a
/// copy would not reach the engine, so the array says so; assign the property instead.
pub(crate) fn pairs<'py, T: numpy::Element + Copy>(
    py: Python<'py>,
    a: &[T],
    b: &[T],
) -> PyResult<Bound<'py, PyAny>> {
    let mut v = Vec::with_capacity(2 * a.len());
    for (x, y) in a.iter().zip(b) {
        v.push(*x);
        v.push(*y);
    }
    // A fresh copy, writable: the read-edit-assign idiom (`v = w.velocities;
    // v[:, 0] = 2; w.velocities = v`) edits it and hands it back through the setter.
    Ok(PyArray1::from_vec(py, v).reshape([a.len(), 2])?.into_any())
}

/// A fresh, writable copy of one per-ball array (see [`pairs`]).
pub(crate) fn column<'py>(py: Python<'py>, a: &[f64]) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyArray1::from_slice(py, a).into_any())
}

/// Interleaved (a, b, c) rows as an (N, 3) float64 array: a fresh writable copy (see
/// [`pairs`]).
pub(crate) fn triples<'py>(
    py: Python<'py>,
    a: &[f64],
    b: &[f64],
    c: &[f64],
) -> PyResult<Bound<'py, PyAny>> {
    let mut v = Vec::with_capacity(3 * a.len());
    for ((x, y), z) in a.iter().zip(b).zip(c) {
        v.extend([*x, *y, *z]);
    }
    Ok(PyArray1::from_vec(py, v).reshape([a.len(), 3])?.into_any())
}

/// Any array-like of N rows of 2 numbers, as a flat float64 vector.
pub(crate) fn flat_pairs(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    what: &str,
    n: usize,
) -> PyResult<Vec<f64>> {
    flat_rows(py, value, what, n, 2)
}

/// Any array-like of numbers as float64: its shape and its values, flat in C order.
pub(crate) fn float_array(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<(Vec<usize>, Vec<f64>)> {
    let np = py.import("numpy")?;
    let kw = PyDict::new(py);
    kw.set_item("dtype", "float64")?;
    let arr = np
        .call_method("ascontiguousarray", (value,), Some(&kw))
        .map_err(|e| scenario_error(format!("{what}: not an array of numbers: {e}")))?;
    let arr = arr
        .cast::<numpy::PyArrayDyn<f64>>()
        .map_err(|e| scenario_error(format!("{what}: {e}")))?;
    let shape = arr.shape().to_vec();
    Ok((shape, arr.readonly().as_slice()?.to_vec()))
}

/// Any array-like of N rows of `width` numbers, as a flat float64 vector.
pub(crate) fn flat_rows(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    what: &str,
    n: usize,
    width: usize,
) -> PyResult<Vec<f64>> {
    let (shape, values) = float_array(py, value, what)?;
    if shape != [n, width] {
        return Err(scenario_error(format!(
            "{what}: expected shape ({n}, {width}), one row per ball, got {shape:?}"
        )));
    }
    Ok(values)
}

/// One sample of `record()`: positions, velocities and, when asked, the spins.
pub(crate) fn push_sample(
    w: &carom::World,
    xy: &mut Vec<f64>,
    v: &mut Vec<f64>,
    spins: Option<&mut Vec<f64>>,
) {
    let b = w.balls();
    for i in 0..b.len() {
        xy.push(b.x[i]);
        xy.push(b.y[i]);
        v.push(b.vx[i]);
        v.push(b.vy[i]);
    }
    if let Some(s) = spins {
        for i in 0..b.len() {
            s.extend([b.wx[i], b.wy[i], b.omega[i]]);
        }
    }
}

pub(crate) fn len_of(t: &[f64], xy: &[f64]) -> usize {
    if t.is_empty() {
        0
    } else {
        xy.len() / (2 * t.len())
    }
}

/// Event log rows as `World.events()` returns them: a dict of numpy arrays of one
/// length. `ball` maps the engine's ball index to the number shown for it (the index
/// itself for a world, the game's ball number for a shot).
pub(crate) fn events_dict<'py>(
    py: Python<'py>,
    rows: &[carom::event_log::LoggedEvent],
    ball: impl Fn(u32) -> i64,
) -> PyResult<Bound<'py, PyDict>> {
    let index = |v: Option<u32>| v.map_or(-1, i64::from);
    let d = PyDict::new(py);
    let f64s = |f: &dyn Fn(&carom::event_log::LoggedEvent) -> f64| {
        numpy::PyArray1::from_vec(py, rows.iter().map(f).collect())
    };
    let i64s = |f: &dyn Fn(&carom::event_log::LoggedEvent) -> i64| {
        numpy::PyArray1::from_vec(py, rows.iter().map(f).collect())
    };
    d.set_item("time", f64s(&|r| r.time))?;
    let kinds: Vec<&str> = rows.iter().map(|r| r.kind.name()).collect();
    d.set_item(
        "kind",
        py.import("numpy")?.call_method1("array", (kinds, "U11"))?,
    )?;
    d.set_item("i", i64s(&|r| ball(r.i)))?;
    d.set_item("j", i64s(&|r| r.j.map_or(-1, &ball)))?;
    d.set_item("wall", i64s(&|r| index(r.wall)))?;
    d.set_item("pocket", i64s(&|r| index(r.pocket)))?;
    d.set_item("impulse", f64s(&|r| r.impulse))?;
    d.set_item("approach_speed", f64s(&|r| r.approach))?;
    let phases: Vec<&str> = rows
        .iter()
        .map(|r| r.phase.map_or("", |p| p.name()))
        .collect();
    d.set_item(
        "phase",
        py.import("numpy")?.call_method1("array", (phases, "U10"))?,
    )?;
    Ok(d)
}
