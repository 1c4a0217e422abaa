//! `carom.compare`: the command line's `carom compare` table, run by the core's
//! comparison with the GIL released.

use carom::load;
use carom::run::{default_threads, steps_for};
use carom::ModelKind;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::convert::{overrides_of, source_of, step_count};
use crate::{guarded, scenario_error};

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
pub(crate) fn compare<'py>(
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
