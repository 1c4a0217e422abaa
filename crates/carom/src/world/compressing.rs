//! The world's side of a compression (`physics.compress`, see [`crate::compression`]):
//! before each step, the growth and the step's length (shorter where the target area
//! fraction falls inside it); after it, the reduced pressure over the step, the
//! temperature put back, and the stop.
//!
//! In `event` the disks grow (the growing model, [`Grow`]); in the stepping models
//! (`spring`, `impulse`, `simultaneous`) the box shrinks instead (see `affine.rs`):
//! the same area fraction `phi(t) = phi_0 g(t)^2`, the same stops.

use super::World;
use crate::compression::{reduced_pressure, Compress, Progress};
use crate::diagnostics;
use crate::error::BuildError;
use crate::models::growing_disks::{Grow, Growth};
use crate::physics::Physics;
use crate::physics::{Friction, ModelKind};
use crate::thermostat::Thermostat;

mod affine;

const FIELD: &str = "physics.compress";

/// A compression the world runs: its law (origin and temperature filled in), where it
/// stands, and what the current step measures against.
#[derive(Debug, Clone)]
pub(crate) struct Compressing {
    spec: Compress,
    progress: Progress,
    /// The step ends at the target area fraction.
    ending: bool,
    /// `sum m |v - V|^2` and the model's virial at the step's start.
    kinetic_start: f64,
    virial_start: f64,
    /// The box shrinks (a stepping model) rather than the disks growing (`event`).
    affine: bool,
    /// The factor every length takes at the end of the current step (affine only).
    scale: f64,
}

impl World {
    /// Starts a compression of these balls (`None`: none; a compression under way is
    /// dropped, the radii and the box kept). `origin` left out is the present time;
    /// `temperature` left out is the present temperature in `event` (which always holds
    /// one) and none in the stepping models (which hold it only when given). Refuses
    /// what a compression cannot run (gravity, restitution below 1, friction, walls
    /// inside the table, pockets, open edges, kinematic balls or balls out of play, a
    /// gas at rest; a sheared box; in the stepping models a periodic side that
    /// would shrink below four largest diameters) and a target area fraction not above
    /// the present one, naming the key. The parameters themselves are checked by the
    /// scenario ([`Compress::check`]).
    pub fn set_compress(&mut self, spec: Option<Compress>) -> Result<(), BuildError> {
        self.synchronise();
        let Some(mut spec) = spec else {
            let affine = self.compressing.as_ref().is_some_and(|c| c.affine);
            if self.compressing.take().is_some() && !affine {
                self.model = crate::models::create(
                    self.physics.model,
                    &self.balls,
                    &self.table,
                    &self.physics,
                    &self.walls,
                )
                .map_err(|e| BuildError::invalid("physics.model", e.to_string()))?;
                self.restart_window();
            }
            return Ok(());
        };
        self.check_compressible(&self.physics)?;
        if !self.walls.is_empty() || self.table.any_open() {
            return Err(BuildError::invalid(
                FIELD,
                "runs on a table without walls inside it, pockets or open edges".into(),
            ));
        }
        if (0..self.balls.len()).any(|i| self.balls.is_kinematic(i)) || !self.in_play.is_empty() {
            return Err(BuildError::invalid(
                FIELD,
                "needs every ball dynamic and in play (no kinematic balls)".into(),
            ));
        }
        let (phi, mv2, n) = diagnostics::statistics(&self.balls, &self.table, &self.in_play);
        let kt = 0.5 * mv2 / n.max(1) as f64;
        if !(kt > 0.0 && kt.is_finite()) {
            return Err(BuildError::invalid(
                FIELD,
                "the balls are at rest (temperature 0): compression holds a temperature, \
                 give them speeds"
                    .into(),
            ));
        }
        if let Some(f) = spec.until.area_fraction {
            if f <= phi {
                return Err(BuildError::invalid(
                    "physics.compress.until.area_fraction",
                    format!("{f} is not above the start's area fraction {phi}"),
                ));
            }
        }
        let affine = self.physics.model != ModelKind::Event;
        if !affine && self.table.is_sheared() {
            // The growing disks' pair times are not the sliding images' (`sliding.rs`).
            return Err(BuildError::invalid(
                FIELD,
                "cannot run in a sheared box".into(),
            ));
        }
        spec.origin.get_or_insert(self.time);
        if affine {
            self.check_affine(&spec, phi)?;
        } else {
            spec.temperature.get_or_insert(kt);
            self.model = Box::new(Grow::new());
            self.model.set_event_log(self.event_log.is_some());
        }
        self.restart_window();
        self.compressing = Some(Box::new(Compressing {
            spec,
            progress: Progress {
                stopped: None,
                time: self.time,
                area_fraction: phi,
                reduced_pressure: 0.0,
            },
            ending: false,
            kinetic_start: 0.0,
            virial_start: 0.0,
            affine,
            scale: 1.0,
        }));
        Ok(())
    }

    /// The compression (its law, origin and temperature filled in) and where it stands;
    /// `None` when there is none.
    pub fn compression(&self) -> Option<(Compress, Progress)> {
        self.compressing.as_ref().map(|c| (c.spec, c.progress))
    }

    /// Whether a compression is under way (not yet stopped).
    pub fn compression_running(&self) -> bool {
        self.compressing
            .as_ref()
            .is_some_and(|c| c.progress.stopped.is_none())
    }

    /// What a compression cannot run with in `physics`.
    pub(super) fn check_compressible(&self, physics: &Physics) -> Result<(), BuildError> {
        let why = if physics.model != self.physics.model && self.compression_running() {
            "keeps its model while it runs (physics.model cannot change)"
        } else if physics.model == crate::physics::ModelKind::Chain {
            "is refused by the chain model, which samples at a fixed density (compress with \
             the event model, then sample the state it writes)"
        } else if physics.gravity != [0.0, 0.0] {
            "runs without gravity"
        } else if physics.restitution != 1.0 {
            "needs elastic collisions (physics.restitution = 1)"
        } else if !matches!(physics.friction, Friction::None) || physics.contact_friction.mu != 0.0
        {
            "runs without friction"
        } else {
            return Ok(());
        };
        Err(BuildError::invalid(FIELD, why.into()))
    }

    /// Before a step: tells the model the growth, and returns the step's length.
    pub(super) fn compress_begin(&mut self) -> f64 {
        let dt = self.physics.dt;
        let virial = self.model.virial();
        let Some(c) = self.compressing.as_deref_mut() else {
            return dt;
        };
        if c.affine {
            return self.affine_begin();
        }
        if c.progress.stopped.is_some() {
            self.model.set_growth(Growth {
                rate: 0.0,
                len: dt,
                temperature: 0.0,
                pressure_bound: f64::INFINITY,
            });
            return dt;
        }
        let (phi, mv2, _) = diagnostics::statistics(&self.balls, &self.table, &self.in_play);
        // Over the step every radius grows as r (1 + s tau): the law's speed r_0 rate
        // over the radius now, r_0 g(T).
        let s = c.spec.rate / c.spec.growth_at(self.time);
        let mut len = dt;
        c.ending = false;
        if let Some(tau) = c.spec.time_to_target(phi, s).filter(|&tau| tau <= dt) {
            len = tau.max(0.0);
            c.ending = true;
        }
        c.kinetic_start = mv2;
        c.virial_start = virial;
        self.model.set_growth(Growth {
            rate: s,
            len,
            temperature: c.spec.temperature.unwrap_or(0.0),
            pressure_bound: c.spec.pressure_bound(),
        });
        len
    }

    /// The length the step took: the one asked for, or less where the packing jammed
    /// in it.
    pub(super) fn compress_len(&self, len: f64) -> f64 {
        match self.model.grown() {
            Some(g) if self.compression_running() => g.len,
            _ => len,
        }
    }

    /// After a step of length `len`: the reduced pressure over it, the temperature put
    /// back, and the stop if one was reached.
    pub(super) fn compress_end(&mut self, len: f64) {
        if self.compressing.as_ref().is_some_and(|c| c.affine) {
            return self.affine_end(len);
        }
        let virial = self.model.virial();
        self.model.synchronise(&mut self.balls);
        let Some(c) = self.compressing.as_deref_mut() else {
            return;
        };
        if c.progress.stopped.is_some() {
            return;
        }
        let (phi, mv2, _) = diagnostics::statistics(&self.balls, &self.table, &self.in_play);
        let kinetic = 0.5 * (c.kinetic_start + mv2);
        let grown = self.model.grown();
        let z = if let Some(z) = grown.and_then(|g| g.reduced_pressure).filter(|_| len > 0.0) {
            // Measured by the model over the step, the temperature's rises included.
            z
        } else {
            let w = virial - c.virial_start;
            reduced_pressure(w, len, kinetic, c.progress.reduced_pressure)
        };
        if let Some(t) = c.spec.temperature {
            Thermostat::Rescale { temperature: t }.apply(&mut self.balls, &self.in_play, 0, len);
        }
        let stopped = c.spec.stop(grown.is_some_and(|g| g.jammed), c.ending, z);
        c.progress = Progress {
            stopped,
            time: self.time,
            area_fraction: phi,
            reduced_pressure: z,
        };
    }
}
