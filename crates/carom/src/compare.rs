//! Comparing models: the variants a comparison runs (models, integrators for `spring`,
//! glitch prevention on and off for `impulse`), each stepped and checked the same way,
//! and the row of numbers each one ends with. The command line's `carom compare` and
//! the Python package's `carom.compare` both run through here.

use std::time::{Duration, Instant};

use crate::diagnostics::{energy_drift, momentum_drift, Diagnostics};
use crate::models::StepError;
use crate::overrides::Override;
use crate::parse::field_path;
use crate::physics::Physics;
use crate::physics::{Integrator, ModelKind};
use crate::world::World;

/// Most steps between two checks that a variant is still physical: a failure is
/// caught within this many steps.
pub const CHUNK: u64 = 64;

/// A variant's name in tables and legends: the model, and the integrator for `spring`.
pub fn variant_label(physics: &Physics) -> String {
    match physics.model {
        ModelKind::Spring => format!("spring, {}", physics.integrator.name()),
        m => m.name().to_string(),
    }
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

/// One planned variant: its label (`None`: named after its built world) and the
/// overrides that make it, after the user's own.
pub struct Plan {
    /// The variant's name in the table; `None`: named after its built world.
    pub label: Option<String>,
    /// The overrides that make the variant, after the user's own.
    pub sets: Vec<Override>,
}

/// The variants to run. Without models, the ones the other lists vary (impulse for
/// glitch prevention, spring for integrators), else all four. `base` are the user's
/// own overrides, applied first in every variant.
pub fn plan(
    models: &[ModelKind],
    integrators: &[Integrator],
    glitch_prevention: &[bool],
    base: &[Override],
) -> Result<Vec<Plan>, String> {
    let models = if !models.is_empty() {
        models.to_vec()
    } else {
        let mut implied = Vec::new();
        if !glitch_prevention.is_empty() {
            implied.push(ModelKind::Impulse);
        }
        if !integrators.is_empty() {
            implied.push(ModelKind::Spring);
        }
        if implied.is_empty() {
            ModelKind::ALL.to_vec()
        } else {
            implied
        }
    };
    for (i, m) in models.iter().enumerate() {
        if models[..i].contains(m) {
            return Err(format!("--models: {} is listed twice", m.name()));
        }
    }
    for (i, g) in integrators.iter().enumerate() {
        if integrators[..i].contains(g) {
            return Err(format!("--integrators: {} is listed twice", g.name()));
        }
    }
    if !integrators.is_empty() && !models.contains(&ModelKind::Spring) {
        return Err(
            "--integrators: only the spring model has integrators; add spring to --models"
                .to_string(),
        );
    }
    for (i, g) in glitch_prevention.iter().enumerate() {
        if glitch_prevention[..i].contains(g) {
            return Err(format!(
                "--glitch-prevention: {} is listed twice",
                on_off(*g)
            ));
        }
    }
    if !glitch_prevention.is_empty() && !models.contains(&ModelKind::Impulse) {
        return Err(
            "--glitch-prevention: only the impulse model has glitch prevention; add impulse \
             to --models"
                .to_string(),
        );
    }
    let mut out = Vec::new();
    for &m in &models {
        let mut sets = base.to_vec();
        sets.push(Override::model(m));
        if m == ModelKind::Spring && !integrators.is_empty() {
            for &g in integrators {
                let mut sets = sets.clone();
                sets.push(Override {
                    label: format!("--integrators {}", g.name()),
                    path: field_path("physics.integrator"),
                    value: toml::Value::String(g.name().to_string()),
                });
                out.push(Plan {
                    label: Some(format!("spring, {}", g.name())),
                    sets,
                });
            }
        } else if m == ModelKind::Impulse && !glitch_prevention.is_empty() {
            for &g in glitch_prevention {
                let mut sets = sets.clone();
                sets.push(Override {
                    label: format!("--glitch-prevention {}", on_off(g)),
                    path: field_path("physics.glitch_prevention"),
                    value: toml::Value::Boolean(g),
                });
                out.push(Plan {
                    label: Some(format!("impulse, glitch prevention {}", on_off(g))),
                    sets,
                });
            }
        } else {
            out.push(Plan { label: None, sets });
        }
    }
    Ok(out)
}

/// One model (with one integrator) running the scene.
pub struct Variant {
    /// The variant's name: its model, and its integrator or glitch setting where varied.
    pub label: String,
    /// The variant's world, run or being run.
    pub world: World,
    /// The diagnostics at the start, against which drifts are measured.
    pub start: Diagnostics,
    /// Simulated time at the start (a state file resumes where it stopped).
    pub first_time: f64,
    /// Diagnostics at the last state known to be good.
    pub last_good: Diagnostics,
    /// Steps taken up to the last state known to be good.
    pub steps_done: u64,
    /// Stepping time only: checks, diagnostics and pictures are left out.
    pub wall: Duration,
    /// What went wrong, at which step and time.
    pub failure: Option<(String, u64, f64)>,
}

impl Variant {
    /// A variant of the built world; without a label it is named after its physics.
    pub fn new(label: Option<String>, world: World) -> Variant {
        let label = label.unwrap_or_else(|| variant_label(world.physics()));
        let start = world.diagnostics();
        Variant {
            label,
            first_time: world.time,
            start,
            last_good: start,
            steps_done: 0,
            wall: Duration::ZERO,
            failure: None,
            world,
        }
    }

    /// Steps from `steps_done` up to step `next` (at most [`CHUNK`] later for a failure
    /// to be caught in time), then checks the state. A failure is kept in the variant;
    /// the error returned is a model that cannot run the scene at all (bad input).
    pub fn advance_to(&mut self, next: u64) -> Result<(), String> {
        if self.failure.is_some() {
            return Ok(());
        }
        let clock = Instant::now();
        let stepped = self.world.run_steps(next - self.steps_done);
        self.wall += clock.elapsed();
        match stepped.and_then(|()| self.world.check_physical()) {
            Ok(()) => {
                self.steps_done = next;
                self.last_good = self.world.diagnostics();
            }
            Err(StepError::Unsupported(msg)) => return Err(msg),
            Err(e) => {
                self.failure = Some((e.to_string(), self.world.steps, self.world.time));
            }
        }
        Ok(())
    }

    /// Runs alone to step `steps`, checking every [`CHUNK`] steps.
    pub fn run(&mut self, steps: u64) -> Result<(), String> {
        while self.steps_done < steps && self.failure.is_none() {
            self.advance_to((self.steps_done + CHUNK).min(steps))?;
        }
        Ok(())
    }

    /// The variant's row of the comparison table.
    pub fn row(&self) -> Row {
        let end = &self.last_good;
        let secs = self.wall.as_secs_f64();
        Row {
            label: self.label.clone(),
            energy_drift: energy_drift(&self.start, end),
            momentum_drift: momentum_drift(&self.start, end),
            symmetry_error: end.symmetry_error,
            collisions: end.collisions,
            pressure: end.pressure,
            steps: self.steps_done,
            wall_seconds: secs,
            ball_steps_per_second: (secs > 0.0)
                .then(|| self.world.balls().len() as f64 * self.steps_done as f64 / secs),
            failed_at: self.failure.as_ref().map(|(_, step, _)| *step),
            failure: self
                .failure
                .as_ref()
                .map(|(e, step, t)| format!("{}: {e} (step {step}, t = {t})", self.label)),
        }
    }
}

/// The numbers of one row of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The variant's name.
    pub label: String,
    /// Relative change of the total energy from the start to the last good state.
    pub energy_drift: f64,
    /// Change of momentum relative to the start's momentum scale.
    pub momentum_drift: f64,
    /// The mirror-symmetry error at the last good state, where a symmetry is declared.
    pub symmetry_error: Option<f64>,
    /// Collisions counted to the last good state.
    pub collisions: u64,
    /// Virial pressure averaged over the run, to the last good state.
    pub pressure: f64,
    /// Steps run to the last good state.
    pub steps: u64,
    /// Wall-clock seconds the variant ran.
    pub wall_seconds: f64,
    /// Speed: balls times steps per wall-clock second (`None` when no time was measured).
    pub ball_steps_per_second: Option<f64>,
    /// The step at which the variant failed, if it did.
    pub failed_at: Option<u64>,
    /// The failure as one line, if it failed.
    pub failure: Option<String>,
}
