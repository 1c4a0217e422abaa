//! Compression in the stepping models (`spring`, `impulse`, `simultaneous`): the box
//! shrinks affinely while the radii stay, so that the area fraction follows the growing
//! disks' law `phi(t) = phi_0 g(t)^2`, `g(t) = 1 + rate (t - origin)`.
//!
//! After each step of length `h` from `T` every length is multiplied by
//! `f = g(T) / g(T + h)`: the table's sides, and the positions about the box's centre
//! with its corner kept at the origin (which is `x -> f x`: a position wrapped onto a
//! periodic side stays on it). The velocities relative to the centre-of-mass velocity
//! `V` are divided by `f`, `v -> V + (v - V) / f`: each ball keeps its adiabatic
//! invariant `|v - V| L`, as between walls closing in slowly, so a dilute gas follows
//! the adiabat of a 2D ideal gas, `T A` constant. The law is carried by the table's
//! size, the time and `origin`, all in a state file, and each scaling drops the model's
//! neighbour list and force history (rebuilt from the positions at the next step), so a
//! resumed compression continues bit for bit.
//!
//! Stops as in `event`: the step in which the target area fraction falls is cut at the
//! instant `tau = (sqrt(F / phi) - 1) / s`, `s = rate / g(T)`, and its scaling takes the
//! area fraction to `F` exactly (to round-off); the reduced pressure over a step, `Z =
//! 1 + W / (h sum m |v - V|^2)` with `W` the step's time integral of the pair virial,
//! passing the bound is jammed. Without a target the box stops at area fraction 1.
//! The temperature is held (rescaled after every step) only when `temperature` is given.

use super::FIELD;
use crate::balls::Balls;
use crate::compression::{reduced_pressure, Compress, Progress};
use crate::diagnostics;
use crate::error::BuildError;
use crate::table::Table;
use crate::thermostat::Thermostat;
use crate::world::World;

impl World {
    /// What an affine compression needs beyond the event model's: a box that is not
    /// sheared, and periodic sides that stay four largest diameters wide down to the
    /// target area fraction (1 without one). `phi` is the present area fraction.
    pub(in crate::world) fn check_affine(
        &self,
        spec: &Compress,
        phi: f64,
    ) -> Result<(), BuildError> {
        if self.table.is_sheared() {
            return Err(BuildError::invalid(
                FIELD,
                "cannot shrink a sheared box".into(),
            ));
        }
        let target = spec.until.area_fraction.unwrap_or(1.0);
        let factor = (phi / target).sqrt();
        let min = Table::min_periodic_side(self.balls.max_radius());
        for axis in 0..2 {
            let side = self.table.side(axis);
            if self.table.is_periodic(axis) && side * factor < min {
                return Err(BuildError::invalid(
                    FIELD,
                    format!(
                        "the periodic side {side} would shrink to {} at area fraction {target}, \
                         narrower than four largest diameters ({min})",
                        side * factor
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Before a stepping model's step: the step's length (cut where the target falls in
    /// it) and the scaling its end applies.
    pub(in crate::world) fn affine_begin(&mut self) -> f64 {
        let dt = self.physics.dt;
        let virial = self.model.virial();
        let (phi, mv2, _) = diagnostics::statistics(&self.balls, &self.table, &self.in_play);
        let Some(c) = self.compressing.as_deref_mut() else {
            return dt;
        };
        c.scale = 1.0;
        c.ending = false;
        if c.progress.stopped.is_some() {
            return dt;
        }
        let g = c.spec.growth_at(self.time);
        let s = c.spec.rate / g;
        // Without a target the box shrinks until jammed, or at most to area fraction 1.
        let target = c.spec.until.area_fraction.unwrap_or(1.0);
        let tau = c
            .spec
            .time_to_target(phi, s)
            .unwrap_or(((1.0 / phi).sqrt() - 1.0) / s);
        let len = if tau <= dt {
            c.ending = true;
            c.scale = (phi / target).sqrt();
            tau.max(0.0)
        } else {
            c.scale = g / c.spec.growth_at(self.time + dt);
            dt
        };
        c.kinetic_start = mv2;
        c.virial_start = virial;
        len
    }

    /// After a stepping model's step of length `len`: the reduced pressure over it, the
    /// box and the balls scaled, the temperature put back if held, and the stop.
    pub(in crate::world) fn affine_end(&mut self, len: f64) {
        let virial = self.model.virial();
        let Some(c) = self.compressing.as_deref_mut() else {
            return;
        };
        if c.progress.stopped.is_some() {
            return;
        }
        let (_, mv2, _) = diagnostics::statistics(&self.balls, &self.table, &self.in_play);
        let kinetic = 0.5 * (c.kinetic_start + mv2);
        let w = virial - c.virial_start;
        let z = reduced_pressure(w, len, kinetic, c.progress.reduced_pressure);
        scale_box(&mut self.balls, &mut self.table, c.scale);
        // The neighbour list and any force history belong to the old positions.
        self.model.invalidate();
        if let Some(t) = c.spec.temperature {
            Thermostat::Rescale { temperature: t }.apply(&mut self.balls, &self.in_play, 0, len);
        }
        let (phi, _, _) = diagnostics::statistics(&self.balls, &self.table, &self.in_play);
        let stopped = c.spec.stop(false, c.ending, z);
        c.progress = Progress {
            stopped,
            time: self.time,
            area_fraction: phi,
            reduced_pressure: z,
        };
    }
}

/// Multiplies every length by `f` (positions `x -> f x`, the table's sides) and divides
/// the velocities relative to the centre-of-mass velocity of the dynamic balls by `f`.
fn scale_box(balls: &mut Balls, table: &mut Table, f: f64) {
    let (mut m_tot, mut p) = (0.0, [0.0, 0.0]);
    for i in 0..balls.len() {
        if balls.inv_m[i] != 0.0 {
            m_tot += balls.m[i];
            p[0] += balls.m[i] * balls.vx[i];
            p[1] += balls.m[i] * balls.vy[i];
        }
    }
    let v = if m_tot > 0.0 {
        [p[0] / m_tot, p[1] / m_tot]
    } else {
        [0.0, 0.0]
    };
    let g = 1.0 / f;
    for i in 0..balls.len() {
        balls.x[i] *= f;
        balls.y[i] *= f;
        if balls.inv_m[i] != 0.0 {
            balls.vx[i] = v[0] + (balls.vx[i] - v[0]) * g;
            balls.vy[i] = v[1] + (balls.vy[i] - v[1]) * g;
        }
    }
    table.width *= f;
    table.height *= f;
}
