//! `carom._carom`: the extension module behind `import carom`. A thin front end over
//! the engine: it reads files and converts values between Python and Rust, and nothing
//! else. Loading, overrides, runs with their checkpoints, state files and comparisons
//! are the core's (`carom::load`, `carom::run`, `carom::compare`), exactly as the
//! command line uses them, so a Python run equals a CLI run bit for bit and fails with
//! the same message.
//!
//! No Rust panic crosses into Python: every entry point runs under `guarded`, which
//! turns a panic into `carom.SimulationError`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard, TryLockError};

use carom::load::{self, Source};
use carom::overrides::{value_of_text, Override};
use carom::parse::Format;
use carom::run::{default_threads, steps_for, Session};
use carom::{ModelKind, StepError};
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

create_exception!(
    carom,
    ScenarioError,
    PyValueError,
    "Bad input: a scenario, override or value that cannot be used. The message is the \
     command line's one line (`ORIGIN:LINE: FIELD: message`)."
);
create_exception!(
    carom,
    SimulationError,
    PyRuntimeError,
    "A failure while running (an unstable integration, say). The world is left at its \
     last good state."
);

/// Runs an entry point, turning a Rust panic into `SimulationError` instead of letting
/// it unwind into the interpreter (where PyO3 would raise a `BaseException`).
fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown cause".to_string());
            Err(SimulationError::new_err(format!(
                "carom: internal error (a bug, please report it): {msg}"
            )))
        }
    }
}

fn scenario_error(line: impl Into<String>) -> PyErr {
    ScenarioError::new_err(load::one_line(&line.into()))
}

/// A step count given from Python (`step(n)`, `run(steps=)`, `compare(steps=)`): a
/// whole number from 0 to the bound `--steps` has (`carom::run::check_steps`), else
/// `ScenarioError` naming the argument, as the command line refuses `--steps`. Taken
/// as any object so that a negative, huge or fractional count is this error rather
/// than a conversion error; numpy integers are accepted, as any `__index__` is.
fn step_count(v: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
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

/// What a world holds besides the engine's session: where it came from, to name it in
/// errors.
struct Inner {
    session: Session,
    origin: String,
}

/// A simulated table with its balls: load one with `World.load` or `World.from_toml`,
/// advance it with `step`, `run` or `record`, read it through numpy arrays and
/// `diagnostics()`, save it with `save` or `pickle`.
#[pyclass(frozen, module = "carom", name = "World")]
pub struct PyWorld {
    // A mutex makes the world shareable between Python threads (PyO3 requires that of
    // a class) and lets a run proceed without the GIL while other threads wait for it
    // rather than see it half-stepped.
    inner: Mutex<Inner>,
}

impl PyWorld {
    fn new(loaded: load::Loaded, origin: String, threads: Option<usize>) -> PyResult<PyWorld> {
        let mut session = Session::new(loaded);
        let n = threads.unwrap_or_else(|| default_threads(session.world.balls().len()));
        session
            .world
            .set_threads(n)
            .map_err(|e| scenario_error(format!("threads={n}: {}", e.message)))?;
        Ok(PyWorld {
            inner: Mutex::new(Inner { session, origin }),
        })
    }

    /// The world, waiting (without the GIL) while another thread runs it.
    fn lock(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, Inner>> {
        loop {
            match self.inner.try_lock() {
                Ok(g) => return Ok(g),
                Err(TryLockError::WouldBlock) => py.detach(|| drop(self.inner.lock())),
                Err(TryLockError::Poisoned(_)) => {
                    return Err(SimulationError::new_err(
                        "carom: this world was left inconsistent by an internal error and \
                         cannot be used any more",
                    ))
                }
            }
        }
    }

    /// `steps` steps without the GIL, sampling every `every` (0: never); a failure
    /// becomes the exception the command line's message would be.
    fn advance(
        &self,
        py: Python<'_>,
        steps: u64,
        every: u64,
        sample: impl FnMut(&carom::World) + Send,
    ) -> PyResult<()> {
        let mut g = self.lock(py)?;
        let inner: &mut Inner = &mut g;
        let result = py.detach(|| inner.session.advance(steps, every, sample));
        match result {
            Ok(()) => Ok(()),
            Err(f) => match f.error {
                StepError::Unsupported(msg) => Err(scenario_error(format!(
                    "{}: physics.model: {msg}",
                    inner.origin
                ))),
                _ => Err(SimulationError::new_err(load::one_line(&f.to_string()))),
            },
        }
    }

    fn steps_of(
        &self,
        py: Python<'_>,
        time: Option<f64>,
        steps: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let g = self.lock(py)?;
        let dt = g.session.world.physics().dt;
        match (steps, time) {
            (Some(_), Some(_)) => Err(scenario_error(
                "run: give time or steps, not both".to_string(),
            )),
            (Some(n), None) => step_count(n, "steps"),
            (None, Some(t)) => steps_for(t, dt, "time").map_err(scenario_error),
            (None, None) => {
                steps_for(g.session.scenario.duration, dt, "duration").map_err(scenario_error)
            }
        }
    }
}

/// A Python value as the TOML value of an override: strings are read as `--set` reads
/// its text (`"0.5"` and `0.5` are the same), other values keep their type.
fn toml_of(v: &Bound<'_, PyAny>) -> PyResult<toml::Value> {
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
fn overrides_of(
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
fn source_of(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Source> {
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

fn build(
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
fn pairs<'py, T: numpy::Element + Copy>(
    py: Python<'py>,
    a: &[T],
    b: &[T],
) -> PyResult<Bound<'py, PyAny>> {
    let mut v = Vec::with_capacity(2 * a.len());
    for (x, y) in a.iter().zip(b) {
        v.push(*x);
        v.push(*y);
    }
    let arr = PyArray1::from_vec(py, v).reshape([a.len(), 2])?;
    read_only(arr.into_any())
}

fn column<'py>(py: Python<'py>, a: &[f64]) -> PyResult<Bound<'py, PyAny>> {
    read_only(PyArray1::from_slice(py, a).into_any())
}

fn read_only(arr: Bound<'_, PyAny>) -> PyResult<Bound<'_, PyAny>> {
    let kw = PyDict::new(arr.py());
    kw.set_item("write", false)?;
    arr.call_method("setflags", (), Some(&kw))?;
    Ok(arr)
}

/// Any array-like of N rows of 2 numbers, as a flat float64 vector.
fn flat_pairs(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    what: &str,
    n: usize,
) -> PyResult<Vec<f64>> {
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
    if shape != [n, 2] {
        return Err(scenario_error(format!(
            "{what}: expected shape ({n}, 2), one row per ball, got {shape:?}"
        )));
    }
    Ok(arr.readonly().as_slice()?.to_vec())
}

#[pymethods]
impl PyWorld {
    /// Loads a world as `carom run SOURCE` does: `source` is a preset name (see
    /// `carom.presets()`), a path to a scenario or state file (.toml or .json), or a
    /// dict with the scenario structure. `model` sets `physics.model` like `--model`;
    /// `overrides` maps dotted keys to values exactly as `--set KEY=VALUE` does (a
    /// string value is read as `--set` reads its text). `threads`: worker threads of
    /// the parallel parts (default: all cores from 8192 balls on, else 1; results are
    /// identical for any count). Raises `ScenarioError` with the command line's message.
    #[staticmethod]
    #[pyo3(signature = (source, model=None, overrides=None, threads=None))]
    fn load(
        py: Python<'_>,
        source: &Bound<'_, PyAny>,
        model: Option<&str>,
        overrides: Option<&Bound<'_, PyDict>>,
        threads: Option<usize>,
    ) -> PyResult<PyWorld> {
        guarded(|| {
            let src = source_of(py, source)?;
            build(&src, model, overrides, threads)
        })
    }

    /// Loads a world from scenario text in TOML, as `World.load` loads a file; errors
    /// name the line as `<toml>:LINE: FIELD: message`.
    #[staticmethod]
    #[pyo3(signature = (text, model=None, overrides=None, threads=None))]
    fn from_toml(
        text: &str,
        model: Option<&str>,
        overrides: Option<&Bound<'_, PyDict>>,
        threads: Option<usize>,
    ) -> PyResult<PyWorld> {
        guarded(|| {
            let src = Source::text("<toml>", text, Format::Toml);
            build(&src, model, overrides, threads)
        })
    }

    /// Advances the world by `n` steps of `dt`, without holding the GIL.
    #[pyo3(signature = (n=None))]
    fn step(&self, py: Python<'_>, n: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        guarded(|| {
            let n = n.map_or(Ok(1), |n| step_count(n, "n"))?;
            self.advance(py, n, 0, |_| {})
        })
    }

    /// Advances the world by `time` (rounded to whole steps, as `--time`) or by
    /// `steps`; with neither, by the scenario's `duration`. The GIL is released while
    /// it runs. Raises `SimulationError` if the run fails, the world then at its last
    /// good state.
    #[pyo3(signature = (time=None, steps=None))]
    fn run(
        &self,
        py: Python<'_>,
        time: Option<f64>,
        steps: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        guarded(|| {
            let n = self.steps_of(py, time, steps)?;
            self.advance(py, n, 0, |_| {})
        })
    }

    /// Runs for `time` and returns the samples as numpy arrays: `time` (T,),
    /// `positions` (T, N, 2) and `velocities` (T, N, 2), float64. The first sample is
    /// the state before the run; then every `every` steps and the last step, as
    /// `--trajectory --every` samples. Filled in Rust while the run goes on, without
    /// the GIL.
    #[pyo3(signature = (time, every=1))]
    fn record<'py>(&self, py: Python<'py>, time: f64, every: u64) -> PyResult<Bound<'py, PyDict>> {
        guarded(|| {
            if every == 0 {
                return Err(scenario_error("every 0: must be at least 1"));
            }
            let steps = self.steps_of(py, Some(time), None)?;
            let samples = 1 + steps / every + u64::from(steps % every != 0);
            let (mut t, mut xy, mut v) = {
                let g = self.lock(py)?;
                let w = &g.session.world;
                let n = w.balls().len();
                let cap = samples as usize * n * 2;
                let (mut xy, mut v) = (Vec::with_capacity(cap), Vec::with_capacity(cap));
                push_sample(w, &mut xy, &mut v);
                (vec![w.time], xy, v)
            };
            self.advance(py, steps, every, |w| {
                t.push(w.time);
                push_sample(w, &mut xy, &mut v);
            })?;
            let n = len_of(&t, &xy);
            let out = PyDict::new(py);
            let k = t.len();
            out.set_item("time", PyArray1::from_vec(py, t))?;
            out.set_item("positions", PyArray1::from_vec(py, xy).reshape([k, n, 2])?)?;
            out.set_item("velocities", PyArray1::from_vec(py, v).reshape([k, n, 2])?)?;
            Ok(out)
        })
    }

    /// Simulated time.
    #[getter]
    fn time(&self, py: Python<'_>) -> PyResult<f64> {
        Ok(self.lock(py)?.session.world.time)
    }

    /// Steps taken since the scenario's run began (a resumed state continues).
    #[getter]
    fn steps(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.lock(py)?.session.world.steps)
    }

    /// Collisions counted since the scenario's run began (a resumed state continues).
    #[getter]
    fn collisions(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.lock(py)?.session.collisions())
    }

    /// The scenario's name.
    #[getter]
    fn name(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self.lock(py)?.session.world.name.clone())
    }

    /// The collision model: impulse, spring, simultaneous or event.
    #[getter]
    fn model(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self
            .lock(py)?
            .session
            .world
            .physics()
            .model
            .name()
            .to_string())
    }

    /// The time step.
    #[getter]
    fn dt(&self, py: Python<'_>) -> PyResult<f64> {
        Ok(self.lock(py)?.session.world.physics().dt)
    }

    /// Table width and height.
    #[getter]
    fn table(&self, py: Python<'_>) -> PyResult<(f64, f64)> {
        let g = self.lock(py)?;
        let t = g.session.world.table();
        Ok((t.width, t.height))
    }

    /// Warnings found when the world was built (e.g. a spring contact resolved by too
    /// few steps).
    #[getter]
    fn warnings(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(self.lock(py)?.session.world.warnings().to_vec())
    }

    /// Worker threads of the parallel parts of a step; results are identical for any
    /// count.
    #[getter]
    fn get_threads(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.lock(py)?.session.world.threads())
    }

    #[setter]
    fn set_threads(&self, py: Python<'_>, n: usize) -> PyResult<()> {
        guarded(|| {
            self.lock(py)?
                .session
                .world
                .set_threads(n)
                .map_err(|e| scenario_error(format!("threads={n}: {}", e.message)))
        })
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.lock(py)?.session.world.balls().len())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let g = self.lock(py)?;
        let w = &g.session.world;
        Ok(format!(
            "<carom.World {:?}: {} balls, {} model, t = {}, {} steps>",
            w.name,
            w.balls().len(),
            w.physics().model.name(),
            w.time,
            w.steps
        ))
    }

    /// Ball centres, float64 array of shape (N, 2), in scenario order. Read-only:
    /// assign a whole (N, 2) array to move the balls (checked as a state file's
    /// positions are: finite, centres on the table; else `ScenarioError`).
    #[getter]
    fn get_positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let g = self.lock(py)?;
            let b = g.session.world.balls();
            pairs(py, &b.x, &b.y)
        })
    }

    #[setter]
    fn set_positions(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        guarded(|| {
            let n = self.lock(py)?.session.world.balls().len();
            let xy = flat_pairs(py, value, "positions", n)?;
            self.lock(py)?
                .session
                .set_positions(&xy)
                .map_err(|e| scenario_error(load::error_line("positions", &e)))
        })
    }

    /// Ball velocities, float64 array of shape (N, 2). Read-only: assign a whole
    /// (N, 2) array of finite values to change them.
    #[getter]
    fn get_velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let g = self.lock(py)?;
            let b = g.session.world.balls();
            pairs(py, &b.vx, &b.vy)
        })
    }

    #[setter]
    fn set_velocities(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        guarded(|| {
            let n = self.lock(py)?.session.world.balls().len();
            let v = flat_pairs(py, value, "velocities", n)?;
            self.lock(py)?
                .session
                .set_velocities(&v)
                .map_err(|e| scenario_error(load::error_line("velocities", &e)))
        })
    }

    /// Ball radii, float64 array of shape (N,), read-only.
    #[getter]
    fn radii<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| column(py, &self.lock(py)?.session.world.balls().r))
    }

    /// Ball masses as given (kinematic balls included), float64 array of shape (N,),
    /// read-only.
    #[getter]
    fn masses<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| column(py, &self.lock(py)?.session.world.balls().m))
    }

    /// Angular velocities (positive turning +x towards +y), float64 array of shape
    /// (N,), read-only.
    #[getter]
    fn omega<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| column(py, &self.lock(py)?.session.world.balls().omega))
    }

    /// Ball orientations in radians (same sense as `omega`), float64 array of shape
    /// (N,), read-only.
    #[getter]
    fn angles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| column(py, &self.lock(py)?.session.world.balls().angle))
    }

    /// Periodic image counts `(ix, iy)`, int64 array of shape (N, 2), read-only: how
    /// many times each ball crossed a periodic side, so that
    /// `positions + images * (width, height)` is the unwrapped position. Zero on a
    /// walled axis.
    #[getter]
    fn images<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let g = self.lock(py)?;
            let b = g.session.world.balls();
            pairs(py, &b.ix, &b.iy)
        })
    }

    /// The state file's diagnostics: kinetic, potential and total energy, momentum,
    /// collisions (and symmetry_error for a declared symmetry).
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let text = self.lock(py)?.session.diagnostics().to_string();
            py.import("json")?.call_method1("loads", (text,))
        })
    }

    /// The state as a dict, equal to what `carom run --out` writes (and itself a
    /// scenario: `World.load(w.state())` resumes bit for bit).
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let text = self.lock(py)?.session.state_json();
            py.import("json")?.call_method1("loads", (text,))
        })
    }

    /// Writes the state file `carom run --out` would write, byte for byte; the file
    /// appears whole or not at all.
    fn save(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<()> {
        guarded(|| {
            let path: std::path::PathBuf = path.extract()?;
            let text = self.lock(py)?.session.state_json();
            carom_render::write_atomic(&path, text.as_bytes())
                .map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))
        })
    }

    /// Draws the world to `path`, the format by extension: PNG, SVG or GIF. With
    /// `time`, runs the world on for that long first: a GIF then animates the run, a
    /// PNG or SVG shows where it ends. `size`: (width, height) in pixels of the largest
    /// picture (default 640 x 480).
    #[pyo3(signature = (path, time=None, size=None))]
    fn render(
        &self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        time: Option<f64>,
        size: Option<(u32, u32)>,
    ) -> PyResult<()> {
        guarded(|| {
            let path: std::path::PathBuf = path.extract()?;
            let format = carom_render::ImageFormat::from_path(&path)
                .map_err(|e| scenario_error(e.to_string()))?;
            let bytes = self.picture(py, format, time, size)?;
            carom_render::write_atomic(&path, &bytes)
                .map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))
        })
    }

    /// The picture `render` would write, as bytes; `format` is "png", "gif" or "svg".
    #[pyo3(signature = (format, time=None, size=None))]
    fn _picture<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        time: Option<f64>,
        size: Option<(u32, u32)>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        guarded(|| {
            let f = carom_render::ImageFormat::from_path(std::path::Path::new(&format!(
                "picture.{format}"
            )))
            .map_err(|e| scenario_error(e.to_string()))?;
            let bytes = self.picture(py, f, time, size)?;
            Ok(PyBytes::new(py, &bytes))
        })
    }

    /// The world as a PNG of its table, for Jupyter.
    fn _repr_png_<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self._picture(py, "png", None, None)
    }

    /// Pickling saves the state file's text; unpickling resumes from it bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let (text, threads) = {
            let g = self.lock(py)?;
            (g.session.state_json(), g.session.world.threads())
        };
        let f = py.import("carom._carom")?.getattr("_world_from_state")?;
        PyTuple::new(py, [f, (text, threads).into_pyobject(py)?.into_any()])
    }
}

impl PyWorld {
    /// Draws the world (after running it for `time`, if given) in `format`.
    fn picture(
        &self,
        py: Python<'_>,
        format: carom_render::ImageFormat,
        time: Option<f64>,
        size: Option<(u32, u32)>,
    ) -> PyResult<Vec<u8>> {
        use carom_render::{AnimationOptions, Frame, Recording};
        let steps = match time {
            Some(t) => self.steps_of(py, Some(t), None)?,
            None => 0,
        };
        let mut options = AnimationOptions::default();
        if let Some(s) = size {
            options.picture.size = s;
        }
        let (first, every, label) = {
            let g = self.lock(py)?;
            let w = &g.session.world;
            let every = carom_render::steps_per_frame(
                w.physics().dt,
                options.fps,
                carom_render::DEFAULT_SPEED,
            );
            let label = format!(
                "{} · {}",
                w.name,
                carom::compare::variant_label(w.physics())
            );
            (Frame::from_world(w), every, label)
        };
        let render_err = |e: carom_render::RenderError| scenario_error(e.to_string());
        let mut rec = Recording::new(
            Vec::new(),
            format,
            std::slice::from_ref(&first),
            &[label],
            &options,
        )
        .map_err(render_err)?;
        // The recording takes every sampled state, the first one included.
        let mut pushed = rec.push(std::slice::from_ref(&first));
        let mut frame = first;
        let result = self.advance(py, steps, every, |w| {
            if pushed.is_ok() {
                frame.update_from_world(w);
                pushed = rec.push(std::slice::from_ref(&frame));
            }
        });
        result?;
        pushed.map_err(render_err)?;
        let (bytes, _) = rec.finish().map_err(render_err)?;
        Ok(bytes)
    }
}

fn push_sample(w: &carom::World, xy: &mut Vec<f64>, v: &mut Vec<f64>) {
    let b = w.balls();
    for i in 0..b.len() {
        xy.push(b.x[i]);
        xy.push(b.y[i]);
        v.push(b.vx[i]);
        v.push(b.vy[i]);
    }
}

fn len_of(t: &[f64], xy: &[f64]) -> usize {
    if t.is_empty() {
        0
    } else {
        xy.len() / (2 * t.len())
    }
}

/// Rebuilds a pickled world from its state file's text.
#[pyfunction]
fn _world_from_state(text: &str, threads: usize) -> PyResult<PyWorld> {
    guarded(|| {
        let src = Source::text("pickle", text, Format::Json);
        let loaded = load::build(&src, &[]).map_err(scenario_error)?;
        PyWorld::new(loaded, src.origin, Some(threads))
    })
}

/// The names of the built-in scenarios, in the order `carom presets` lists them.
#[pyfunction]
fn presets() -> Vec<&'static str> {
    carom::presets::PRESETS.iter().map(|p| p.name).collect()
}

/// Each built-in scenario's name and one-line summary, as `carom presets` prints them.
#[pyfunction]
fn preset_summaries() -> Vec<(&'static str, &'static str)> {
    carom::presets::PRESETS
        .iter()
        .map(|p| (p.name, p.summary))
        .collect()
}

fn names<T>(
    list: Option<Vec<String>>,
    what: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> PyResult<Vec<T>> {
    list.unwrap_or_default()
        .iter()
        .map(|s| parse(s).ok_or_else(|| scenario_error(format!("{what}: unknown value {s:?}"))))
        .collect()
}

/// Runs the scene once per variant, as `carom compare` does, and returns its table:
/// one dict per variant with `variant`, `energy_drift`, `momentum_drift`,
/// `symmetry_error` (None without a declared symmetry), `collisions`, `steps`,
/// `wall_time`, `ball_steps_per_second` and `failure` (None, or the one-line reason a
/// variant stopped early at its last good state). The GIL is released while it runs.
#[pyfunction]
#[pyo3(signature = (source, models=None, time=None, steps=None, integrators=None,
                    glitch_prevention=None, overrides=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn compare<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    models: Option<Vec<String>>,
    time: Option<f64>,
    steps: Option<&Bound<'py, PyAny>>,
    integrators: Option<Vec<String>>,
    glitch_prevention: Option<Vec<bool>>,
    overrides: Option<&Bound<'py, PyDict>>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    guarded(|| {
        let models = names(models, "models", ModelKind::from_name)?;
        let integrators = names(integrators, "integrators", carom::Integrator::from_name)?;
        let src = source_of(py, source)?;
        let base = overrides_of(None, overrides)?;
        let plan = carom::compare::plan(
            &models,
            &integrators,
            &glitch_prevention.unwrap_or_default(),
            &base,
        )
        .map_err(scenario_error)?;
        let mut variants = Vec::new();
        let mut duration = 0.0;
        for p in plan {
            let loaded = load::build(&src, &p.sets).map_err(scenario_error)?;
            duration = loaded.scenario.duration;
            let mut world = loaded.world;
            let n = threads.unwrap_or_else(|| default_threads(world.balls().len()));
            world
                .set_threads(n)
                .map_err(|e| scenario_error(format!("threads={n}: {}", e.message)))?;
            variants.push(carom::compare::Variant::new(p.label, world));
        }
        let dt = variants[0].world.physics().dt;
        let steps = match (steps, time) {
            (Some(_), Some(_)) => {
                return Err(scenario_error("compare: give time or steps, not both"))
            }
            (Some(n), None) => step_count(n, "steps")?,
            (None, Some(t)) => steps_for(t, dt, "time").map_err(scenario_error)?,
            (None, None) => steps_for(duration, dt, "duration").map_err(scenario_error)?,
        };
        let ran: Result<(), String> = py.detach(|| {
            variants.iter_mut().try_for_each(|v| {
                v.run(steps)
                    .map_err(|m| format!("{}: {}: physics.model: {m}", src.origin, v.label))
            })
        });
        ran.map_err(scenario_error)?;
        let rows = PyList::empty(py);
        for v in &variants {
            let r = v.row();
            let d = PyDict::new(py);
            d.set_item("variant", r.label)?;
            d.set_item("energy_drift", r.energy_drift)?;
            d.set_item("momentum_drift", r.momentum_drift)?;
            d.set_item("symmetry_error", r.symmetry_error)?;
            d.set_item("collisions", r.collisions)?;
            d.set_item("pressure", r.pressure)?;
            d.set_item("steps", r.steps)?;
            d.set_item("wall_time", r.wall_seconds)?;
            d.set_item("ball_steps_per_second", r.ball_steps_per_second)?;
            d.set_item("failure", r.failure)?;
            rows.append(d)?;
        }
        Ok(rows)
    })
}

/// Panics on purpose, through the same guard as every entry point: lets the tests
/// check that a panic reaches Python as `SimulationError`.
#[pyfunction]
fn _panic_for_tests() -> PyResult<()> {
    guarded(|| panic!("deliberate panic for the tests"))
}

/// The extension module; `python/carom/__init__.py` is the package users import.
#[pymodule]
fn _carom(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyWorld>()?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(preset_summaries, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(_world_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add("SimulationError", m.py().get_type::<SimulationError>())?;
    Ok(())
}
