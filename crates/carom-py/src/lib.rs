//! `carom._carom`: the extension module behind `import carom`. A thin front end over
//! the engine: it reads files and converts values between Python and Rust, and nothing
//! else. Loading, overrides, runs with their checkpoints, state files and comparisons
//! are the core's (`carom::load`, `carom::run`, `carom::compare`), exactly as the
//! command line uses them, so a Python run equals a CLI run bit for bit and fails with
//! the same message.
//!
//! No Rust panic crosses into Python: every entry point runs under `guarded`, which
//! turns a panic into `carom.SimulationError`.

mod agent;
mod compare;
mod convert;
mod cue;
mod picture;
mod pool;

use convert::{
    build, column, events_dict, flat_pairs, flat_rows, len_of, pairs, push_sample, source_of,
    step_count, triples,
};

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard, TryLockError};

use carom::load::{self, Source};
use carom::parse::Format;
use carom::run::{default_threads, steps_for, Session};
use carom::StepError;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

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
        // A step's length on the clock: `dt`, or one chain's for the chain sampler.
        let dt = g.session.world.step_length();
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
    /// `positions` (T, N, 2) and `velocities` (T, N, 2), float64, and when the balls
    /// are spheres (on cloth: `carom::state::spheres_in_play` at the start) `spins`
    /// (T, N, 3), `(wx, wy, omega)`. The first sample is the state before the run;
    /// then every `every` steps and the last step, as `--trajectory --every` samples.
    /// Filled in Rust while the run goes on, without the GIL.
    #[pyo3(signature = (time, every=1))]
    fn record<'py>(&self, py: Python<'py>, time: f64, every: u64) -> PyResult<Bound<'py, PyDict>> {
        guarded(|| {
            if every == 0 {
                return Err(scenario_error("every 0: must be at least 1"));
            }
            let steps = self.steps_of(py, Some(time), None)?;
            let samples = 1 + steps / every + u64::from(steps % every != 0);
            let (mut t, mut xy, mut v, mut spins) = {
                let g = self.lock(py)?;
                let w = &g.session.world;
                let n = w.balls().len();
                let cap = samples as usize * n * 2;
                let (mut xy, mut v) = (Vec::with_capacity(cap), Vec::with_capacity(cap));
                // Spins only where the state file writes them: every other recording
                // keeps the keys it had.
                let mut spins = carom::state::spheres_in_play(w)
                    .then(|| Vec::with_capacity(samples as usize * n * 3));
                push_sample(w, &mut xy, &mut v, spins.as_mut());
                (vec![w.time], xy, v, spins)
            };
            self.advance(py, steps, every, |w| {
                t.push(w.time);
                push_sample(w, &mut xy, &mut v, spins.as_mut());
            })?;
            let n = len_of(&t, &xy);
            let out = PyDict::new(py);
            let k = t.len();
            out.set_item("time", PyArray1::from_vec(py, t))?;
            out.set_item("positions", PyArray1::from_vec(py, xy).reshape([k, n, 2])?)?;
            out.set_item("velocities", PyArray1::from_vec(py, v).reshape([k, n, 2])?)?;
            if let Some(w) = spins {
                out.set_item("spins", PyArray1::from_vec(py, w).reshape([k, n, 3])?)?;
            }
            Ok(out)
        })
    }

    /// Simulated time.
    #[getter]
    fn time(&self, py: Python<'_>) -> PyResult<f64> {
        guarded(|| Ok(self.lock(py)?.session.world.time))
    }

    /// Steps taken since the scenario's run began (a resumed state continues).
    #[getter]
    fn steps(&self, py: Python<'_>) -> PyResult<u64> {
        guarded(|| Ok(self.lock(py)?.session.world.steps))
    }

    /// Collisions counted since the scenario's run began (a resumed state continues).
    #[getter]
    fn collisions(&self, py: Python<'_>) -> PyResult<u64> {
        guarded(|| Ok(self.lock(py)?.session.collisions()))
    }

    /// The scenario's name.
    #[getter]
    fn name(&self, py: Python<'_>) -> PyResult<String> {
        guarded(|| Ok(self.lock(py)?.session.world.name.clone()))
    }

    /// The collision model: impulse, spring, simultaneous, event, or the chain sampler.
    #[getter]
    fn model(&self, py: Python<'_>) -> PyResult<String> {
        guarded(|| {
            Ok(self
                .lock(py)?
                .session
                .world
                .physics()
                .model
                .name()
                .to_string())
        })
    }

    /// The time step.
    #[getter]
    fn dt(&self, py: Python<'_>) -> PyResult<f64> {
        guarded(|| Ok(self.lock(py)?.session.world.physics().dt))
    }

    /// Table width and height.
    #[getter]
    fn table(&self, py: Python<'_>) -> PyResult<(f64, f64)> {
        guarded(|| {
            let g = self.lock(py)?;
            let t = g.session.world.table();
            Ok((t.width, t.height))
        })
    }

    /// Warnings found when the world was built (e.g. a spring contact resolved by too
    /// few steps).
    #[getter]
    fn warnings(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        guarded(|| Ok(self.lock(py)?.session.world.warnings().to_vec()))
    }

    /// Worker threads of the parallel parts of a step; results are identical for any
    /// count.
    #[getter]
    fn get_threads(&self, py: Python<'_>) -> PyResult<usize> {
        guarded(|| Ok(self.lock(py)?.session.world.threads()))
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
        guarded(|| Ok(self.lock(py)?.session.world.balls().len()))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        guarded(|| {
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
        })
    }

    /// Ball centres, float64 array of shape (N, 2), in scenario order: a fresh copy,
    /// writable, that does not change the world when written; assign a whole (N, 2)
    /// array back to move the balls (checked as a state file's positions are: finite,
    /// centres on the table; else `ScenarioError`).
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

    /// Ball velocities, float64 array of shape (N, 2): a fresh writable copy; assign
    /// a whole (N, 2) array of finite values back to change them.
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

    /// Ball radii, float64 array of shape (N,) (a copy).
    #[getter]
    fn radii<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| column(py, &self.lock(py)?.session.world.balls().r))
    }

    /// Ball masses as given (kinematic balls included), float64 array of shape (N,)
    /// (a copy).
    #[getter]
    fn masses<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| column(py, &self.lock(py)?.session.world.balls().m))
    }

    /// Angular velocities (positive turning +x towards +y), float64 array of shape
    /// (N,) (a copy).
    #[getter]
    fn omega<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| column(py, &self.lock(py)?.session.world.balls().omega))
    }

    /// Angular velocities of the balls as spheres, `(wx, wy, omega)` about the table's
    /// x and y axes and the vertical (z into the table), float64 array of shape (N, 3):
    /// a fresh writable copy; assign a whole (N, 3) array of finite values back to
    /// change them. `wx`, `wy` are zero and unused without cloth friction.
    #[getter]
    fn get_spins<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let g = self.lock(py)?;
            let b = g.session.world.balls();
            triples(py, &b.wx, &b.wy, &b.omega)
        })
    }

    #[setter]
    fn set_spins(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        guarded(|| {
            let n = self.lock(py)?.session.world.balls().len();
            let w = flat_rows(py, value, "spins", n, 3)?;
            for (i, row) in w.chunks_exact(3).enumerate() {
                for (name, c) in ["wx", "wy", "omega"].into_iter().zip(row) {
                    if !c.is_finite() {
                        return Err(scenario_error(format!(
                            "spins: balls[{i}].{name}: must be finite (got {c})"
                        )));
                    }
                }
            }
            let mut g = self.lock(py)?;
            let b = g.session.world.balls_mut();
            for (i, row) in w.chunks_exact(3).enumerate() {
                (b.wx[i], b.wy[i], b.omega[i]) = (row[0], row[1], row[2]);
            }
            Ok(())
        })
    }

    /// Ball orientations in radians (same sense as `omega`), float64 array of shape
    /// (N,) (a copy).
    #[getter]
    fn angles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| column(py, &self.lock(py)?.session.world.balls().angle))
    }

    /// Periodic image counts `(ix, iy)`, int64 array of shape (N, 2) (a copy): how
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

    /// Whether the balls are spheres (on cloth, or given spins about the table's axes),
    /// so that state files, trajectories and `record()` carry their spins.
    fn _spheres(&self, py: Python<'_>) -> PyResult<bool> {
        guarded(|| Ok(carom::state::spheres_in_play(&self.lock(py)?.session.world)))
    }

    /// Whether each ball is still in play (it has not left through a pocket or an
    /// open edge), bool array of shape (N,) (a copy).
    #[getter]
    fn in_play<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let g = self.lock(py)?;
            let w = &g.session.world;
            let mask: Vec<bool> = (0..w.balls().len()).map(|i| w.is_in_play(i)).collect();
            Ok(numpy::PyArray1::from_vec(py, mask).into_any())
        })
    }

    /// The local bond-orientational order `psi_6` of each ball (its six nearest
    /// neighbours, see docs/dense.md), complex array of shape (N,); 0 out of play.
    fn psi6<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let g = self.lock(py)?;
            let per = g.session.world.psi6_per_ball();
            let v: Vec<numpy::Complex64> = per
                .iter()
                .map(|p| numpy::Complex64::new(p[0], p[1]))
                .collect();
            Ok(PyArray1::from_vec(py, v).into_any())
        })
    }

    /// Solid fraction, mean velocity and stress in `bins` slabs across `axis` ("x" or
    /// "y"), see docs/granular.md: a dict of numpy arrays `edges` (bins + 1,),
    /// `centers`, `solid_fraction`, `mass` (bins,), `velocity` (bins, 2) and `stress`
    /// (bins, 3: xx, xy, yy, the pressure tensor).
    #[pyo3(signature = (axis = "y", bins = 20))]
    fn profiles<'py>(&self, py: Python<'py>, axis: &str, bins: i64) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let axis = match axis {
                "x" => 0,
                "y" => 1,
                other => {
                    return Err(scenario_error(format!(
                        "profiles: axis: must be \"x\" or \"y\" (got {other:?})"
                    )))
                }
            };
            if !(1..=1_000_000).contains(&bins) {
                return Err(scenario_error(format!(
                    "profiles: bins: must be a whole number from 1 to 1000000 (got {bins})"
                )));
            }
            let p = self.lock(py)?.session.world.profiles(axis, bins as usize);
            let centers: Vec<f64> = p.edges.windows(2).map(|e| 0.5 * (e[0] + e[1])).collect();
            let (vx, vy): (Vec<f64>, Vec<f64>) = p.velocity.iter().map(|v| (v[0], v[1])).unzip();
            let (xx, xy, yy) = (
                p.stress.iter().map(|s| s[0]).collect::<Vec<_>>(),
                p.stress.iter().map(|s| s[1]).collect::<Vec<_>>(),
                p.stress.iter().map(|s| s[2]).collect::<Vec<_>>(),
            );
            let out = PyDict::new(py);
            out.set_item("edges", column(py, &p.edges)?)?;
            out.set_item("centers", column(py, &centers)?)?;
            out.set_item("solid_fraction", column(py, &p.solid_fraction)?)?;
            out.set_item("mass", column(py, &p.mass)?)?;
            out.set_item("velocity", pairs(py, &vx, &vy)?)?;
            out.set_item("stress", triples(py, &xx, &xy, &yy)?)?;
            Ok(out.into_any())
        })
    }

    /// The walls inside the table, as the scenario gives them (`[[walls]]` entries as
    /// dicts).
    #[getter]
    fn walls<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let text = serde_json::to_string(self.lock(py)?.session.world.wall_specs())
                .map_err(|e| SimulationError::new_err(e.to_string()))?;
            py.import("json")?.call_method1("loads", (text,))
        })
    }

    /// The pockets (`[[pockets]]` entries as dicts: `center`, `radius`).
    #[getter]
    fn pockets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let text = serde_json::to_string(self.lock(py)?.session.world.pocket_specs())
                .map_err(|e| SimulationError::new_err(e.to_string()))?;
            py.import("json")?.call_method1("loads", (text,))
        })
    }

    /// Starts (`True`) or stops (`False`) keeping the event log: one row per impact
    /// the model resolves and per ball that leaves play (see `events`). Off by default;
    /// off it costs nothing and changes no result. Stopping drops the rows not read.
    fn log_events(&self, py: Python<'_>, on: bool) -> PyResult<()> {
        guarded(|| {
            self.lock(py)?.session.world.set_event_log(on);
            Ok(())
        })
    }

    /// The event log's rows since it was started (or last cleared), as a dict of numpy
    /// arrays of one length: `time` (float64), `kind` (str: `ball`, `left`, `right`,
    /// `top`, `bottom`, `wall`, `pocket`, `exit-left` ... `exit-bottom`), `i`, `j`
    /// (int64, -1 where none), `wall` (the `[[walls]]` entry, -1), `pocket` (-1),
    /// `impulse` and `approach_speed` (float64; NaN where not known), `phase` (str: the
    /// phase a `phase` row's ball entered on cloth, `sliding`, `rolling`, `spinning`,
    /// `stationary`; empty for other rows). With `clear=True` the rows returned are
    /// dropped from the log.
    #[pyo3(signature = (clear=false))]
    fn events<'py>(&self, py: Python<'py>, clear: bool) -> PyResult<Bound<'py, PyDict>> {
        guarded(|| {
            let mut g = self.lock(py)?;
            let world = &mut g.session.world;
            let mut taken = Vec::new();
            let rows: &[carom::event_log::LoggedEvent] = if clear {
                world.take_events(&mut taken);
                &taken
            } else {
                world.event_log()
            };
            events_dict(py, rows, i64::from)
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
            let g = self.lock(py)?;
            // Encoded into the file as it goes, never held whole (see `StateFile`).
            let head = g.session.state_head();
            let file = carom::state::StateFile {
                head: &head,
                world: &g.session.world,
            };
            let os_error = |e: String| pyo3::exceptions::PyOSError::new_err(e);
            let mut out =
                carom_render::io::AtomicFile::create(&path).map_err(|e| os_error(e.to_string()))?;
            serde_json::to_writer_pretty(&mut out, &file)
                .map_err(|e| os_error(format!("{}: {e}", path.display())))?;
            std::io::Write::write_all(&mut out, b"\n")
                .map_err(|e| os_error(format!("{}: {e}", path.display())))?;
            out.commit().map_err(|e| os_error(e.to_string()))
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
    m.add_function(wrap_pyfunction!(compare::compare, m)?)?;
    m.add_function(wrap_pyfunction!(cue::cue_strike, m)?)?;
    m.add_function(wrap_pyfunction!(_world_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add_class::<pool::PyGame>()?;
    m.add_class::<pool::PyShotResult>()?;
    m.add_class::<agent::PyAgent>()?;
    m.add_function(wrap_pyfunction!(pool::_pool_shoot_each, m)?)?;
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add("SimulationError", m.py().get_type::<SimulationError>())?;
    Ok(())
}
