//! `carom.pool.Agent`: the search player of `carom_games::agent`, bound. It chooses
//! with the engine (candidate shots simulated in parallel) while the GIL is released.

use carom_games::agent::{Agent, Decision, Noise};
use carom_games::threads;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::pool::{call_object, number, shown, whole, PyGame};
use crate::{guarded, scenario_error, SimulationError};

/// The search player: `Agent(noise=None, seed=0)`. `noise`: None, a dict of the
/// standard deviations of the errors added to each chosen shot (`aim` in degrees,
/// `speed` relative, `english` and `follow` in radii; a missing one is 0), or
/// "amateur" or "pro" (see docs/games.md). The same seed plays the same shots.
#[pyclass(module = "carom.pool", name = "Agent")]
pub struct PyAgent {
    agent: Agent,
    /// The last decision `choose` returned.
    last: Option<Decision>,
}

/// `noise=`: None, "amateur", "pro", or a dict of the four standard deviations.
fn noise_of(v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Noise>> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    if let Ok(s) = v.cast::<PyString>() {
        return match s.to_str()? {
            "amateur" => Ok(Some(Noise::AMATEUR)),
            "pro" => Ok(Some(Noise::PRO)),
            other => Err(scenario_error(format!(
                "noise: {other:?} is not \"amateur\", \"pro\", a dict or None"
            ))),
        };
    }
    let d = v.cast::<PyDict>().map_err(|_| {
        scenario_error(format!(
            "noise: expected None, \"amateur\", \"pro\" or a dict of standard deviations \
             (aim, speed, english, follow), got {}",
            shown(v)
        ))
    })?;
    let mut z = Noise {
        aim: 0.0,
        speed: 0.0,
        english: 0.0,
        follow: 0.0,
    };
    for (k, x) in d.iter() {
        let key: String = k
            .extract()
            .map_err(|_| scenario_error(format!("noise: key {}: not a name", shown(&k))))?;
        let what = format!("noise: {key}");
        let x = number(&x, &what)?;
        match key.as_str() {
            "aim" => z.aim = x,
            "speed" => z.speed = x,
            "english" => z.english = x,
            "follow" => z.follow = x,
            _ => {
                return Err(scenario_error(format!(
                    "{what}: unknown (noise has aim, speed, english, follow)"
                )))
            }
        }
    }
    z.check()
        .map_err(|e| scenario_error(format!("noise: {e}")))?;
    Ok(Some(z))
}

#[pymethods]
impl PyAgent {
    #[new]
    #[pyo3(signature = (noise=None, seed=None))]
    fn py_new(
        noise: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAgent> {
        guarded(|| {
            let seed = seed.map_or(Ok(0), |s| whole(s, "seed", u64::MAX))?;
            Ok(PyAgent {
                agent: Agent::new(noise_of(noise)?, seed),
                last: None,
            })
        })
    }

    /// The shot chosen for the player to shoot in `game` (candidates simulated in
    /// parallel, the GIL released): a dict of `speed`, `aim`, `english`, `follow`,
    /// `elevation` and `call`, to play as `game.shoot(**shot)`. With ball in hand it
    /// places the cue ball first (`game.place_cue_ball`); a push-out it decides on is
    /// taken on the game first (`game.choose("push-out")`).
    fn choose<'py>(
        &mut self,
        py: Python<'py>,
        game: &Bound<'py, PyGame>,
    ) -> PyResult<Bound<'py, PyDict>> {
        guarded(|| {
            let mut g = game.try_borrow_mut()?;
            if g.game.state.over {
                return Err(scenario_error("choose: the game is over"));
            }
            let agent = &mut self.agent;
            let position = &g.game;
            let d = py.detach(|| threads::install(|| agent.choose(position)));
            self.last = Some(d);
            if let Some(c) = d.choice {
                g.game
                    .choose(c)
                    .map_err(|e| SimulationError::new_err(format!("choose: {e}")))?;
            }
            if let Some([x, y]) = d.place {
                g.game
                    .place_cue_ball(x, y)
                    .map_err(|e| SimulationError::new_err(format!("choose: {e}")))?;
            }
            let out = PyDict::new(py);
            out.set_item("speed", d.shot.speed)?;
            out.set_item("aim", d.shot.aim)?;
            out.set_item("english", d.shot.english)?;
            out.set_item("follow", d.shot.follow)?;
            out.set_item("elevation", d.shot.elevation)?;
            out.set_item("call", call_object(py, d.call)?)?;
            Ok(out)
        })
    }

    /// What the last shot `choose` returned set out to do, and the player's own
    /// estimate (a dict: `intent` one of "break", "pot", "route", "safety",
    /// "push-out", "point"; `estimate` the chance that the shot keeps the turn, for a
    /// safety the chance it leaves the opponent, or None where none was judged), or
    /// None before the first.
    #[getter]
    fn last<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(d) = self.last else {
            return Ok(None);
        };
        let out = PyDict::new(py);
        out.set_item("intent", d.intent.name())?;
        out.set_item("estimate", d.estimate)?;
        Ok(Some(out))
    }

    /// The noise's standard deviations (a dict), or None.
    #[getter]
    fn noise<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(n) = self.agent.noise() else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("aim", n.aim)?;
        d.set_item("speed", n.speed)?;
        d.set_item("english", n.english)?;
        d.set_item("follow", n.follow)?;
        Ok(Some(d))
    }

    /// Shots the player has simulated so far, all decisions together.
    #[getter]
    fn simulated(&self) -> u64 {
        self.agent.simulated
    }
}
