//! `carom.cue_strike`: the velocity and spins a cue strike gives a ball, computed by the
//! engine's own cue model (`carom::cue`), the one a scenario's `cue = { ... }` uses at
//! load. Nothing of the model is repeated here: the arguments are checked as the
//! scenario's are and handed over.

use carom::cue::CueSpec;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::{guarded, scenario_error};

/// The velocity and spins a cue strike gives a ball at rest: a dict with `vx`, `vy`,
/// `wx`, `wy`, `omega`, exactly what a scenario ball with `cue = { speed, aim,
/// english, follow, elevation }` starts with. `aim` in degrees from +x towards +y;
/// `english` and `follow` the tip's offsets from the centre in radii (right and up);
/// `elevation` the cue's angle above the table in degrees (0 to below 90). `m` and `r`
/// default to a scenario ball's (1 and 10), `inertia` to a solid sphere's
/// `2 m r^2 / 5` (a ball on cloth). Raises `ScenarioError` naming the bad argument.
#[pyfunction]
#[pyo3(signature = (speed, aim, english=0.0, follow=0.0, elevation=0.0, m=1.0, r=10.0, inertia=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn cue_strike<'py>(
    py: Python<'py>,
    speed: f64,
    aim: f64,
    english: f64,
    follow: f64,
    elevation: f64,
    m: f64,
    r: f64,
    inertia: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    guarded(|| {
        let cue = CueSpec {
            speed,
            aim,
            english,
            follow,
            elevation,
        };
        if let Err((key, message)) = carom::cue::check(&cue) {
            return Err(scenario_error(format!("cue_strike: {key}: {message}")));
        }
        let inertia = inertia.unwrap_or_else(|| carom::solid_sphere_inertia(m, r));
        for (key, v) in [("m", m), ("r", r), ("inertia", inertia)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(scenario_error(format!(
                    "cue_strike: {key}: must be a positive finite number (got {v})"
                )));
            }
        }
        let s = carom::cue::strike(&cue, m, r, inertia);
        let d = PyDict::new(py);
        for (key, v) in [
            ("vx", s.v[0]),
            ("vy", s.v[1]),
            ("wx", s.w[0]),
            ("wy", s.w[1]),
            ("omega", s.w[2]),
        ] {
            d.set_item(key, v)?;
        }
        Ok(d)
    })
}
