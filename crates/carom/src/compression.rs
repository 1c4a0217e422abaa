//! Compression (`physics.compress`): disks grown at a fixed rate until an area fraction
//! is reached or the packing jams.
//!
//! Every radius grows as `r_i(t) = r_i0 (1 + rate (t - origin))`, `r_i0` the radius at
//! the time `origin` (the time of the state the compression started from, unless
//! given). The world runs it one output interval at a time: over the interval
//! `[T, T + h]` every radius grows linearly from `r_i(T)` at the speed
//! `r_i(T) rate / g(T)`, `g(T) = 1 + rate (T - origin)`, which is the law above, and at
//! the interval's end the radii are `r_i(T) (1 + h rate / g(T))`. Only the radii, the
//! time and `origin` carry the law from one interval to the next, so a state file
//! written mid-compression (it holds all three) resumes bit for bit.
//!
//! Stops: `until.area_fraction = F` ends the compression at the instant the area
//! fraction reaches `F` (the area fraction grows as `g^2`, so that instant is solved
//! for, and the interval ends there); the reduced pressure `Z = P A / (N k T)` measured
//! over an interval passing `until.pressure` (default [`DEFAULT_PRESSURE_BOUND`]) ends
//! it at that interval's end: the packing is jammed. The temperature is held: at the
//! end of every interval the velocities are scaled about the centre-of-mass velocity to
//! `temperature` (the start's, unless given).

use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;

/// The reduced pressure `Z` past which a compression counts as jammed, unless
/// `until.pressure` says otherwise.
pub const DEFAULT_PRESSURE_BOUND: f64 = 1e6;

/// `physics.compress = { rate, until = { area_fraction, pressure }, origin,
/// temperature }`. `origin` and `temperature` are filled in when the world takes it
/// (a state file writes them), so that a resumed compression follows the same law.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a table { rate, until = { area_fraction, pressure }, origin, temperature }"
)]
pub struct Compress {
    /// Growth rate of every radius relative to its size at `origin` (per unit time).
    pub rate: f64,
    /// When the compression stops (`until`; default a reduced pressure of 10^6, jamming).
    #[serde(default)]
    pub until: Until,
    /// The time at which the radii were `r_i0` (default: the start's time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<f64>,
    /// The temperature held (default: the start's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
}

/// When a compression stops: at `area_fraction`, or when the reduced pressure passes
/// `pressure` ([`DEFAULT_PRESSURE_BOUND`] when left out), whichever comes first.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a table { area_fraction, pressure }")]
pub struct Until {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area_fraction: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pressure: Option<f64>,
}

impl Compress {
    /// Refuses values no compression can have, naming the key under `field`
    /// (`physics.compress`). What depends on the balls (a target below the start's
    /// area fraction) is checked when the world takes it.
    pub fn check(&self, field: &str) -> Result<(), ScenarioError> {
        let err = |key: &str, msg: String| Err(ScenarioError::field(format!("{field}.{key}"), msg));
        if !(self.rate.is_finite() && self.rate > 0.0) {
            return err(
                "rate",
                format!("must be a positive finite number (got {})", self.rate),
            );
        }
        if let Some(f) = self.until.area_fraction {
            if !(f > 0.0 && f < 1.0) {
                return err(
                    "until.area_fraction",
                    format!("must lie strictly between 0 and 1 (got {f})"),
                );
            }
        }
        if let Some(z) = self.until.pressure {
            if !(z.is_finite() && z > 1.0) {
                return err(
                    "until.pressure",
                    format!("must be a finite reduced pressure above 1, the ideal gas's (got {z})"),
                );
            }
        }
        if let Some(t) = self.origin {
            if !t.is_finite() {
                return err("origin", format!("must be a finite time (got {t})"));
            }
        }
        if let Some(t) = self.temperature {
            if !(t.is_finite() && t > 0.0) {
                return err(
                    "temperature",
                    format!("must be a positive finite number (got {t})"),
                );
            }
        }
        Ok(())
    }

    /// The reduced pressure that counts as jammed.
    pub fn pressure_bound(&self) -> f64 {
        self.until.pressure.unwrap_or(DEFAULT_PRESSURE_BOUND)
    }

    /// `g(t) = 1 + rate (t - origin)`: every radius over its size at `origin`.
    pub fn growth_at(&self, t: f64) -> f64 {
        1.0 + self.rate * (t - self.origin.unwrap_or(0.0))
    }

    /// The time until the target area fraction, from `phi` now, with every length
    /// growing relative to the box as `1 + s tau` (the area fraction as its square):
    /// `(sqrt(target / phi) - 1) / s`; `None` without a target. Both compressions,
    /// the growing disks' and the shrinking box's, cut their step there.
    pub fn time_to_target(&self, phi: f64, s: f64) -> Option<f64> {
        self.until
            .area_fraction
            .map(|f| ((f / phi).sqrt() - 1.0) / s)
    }

    /// The stop at the end of a step: jammed if the model said so, else the target if
    /// the step was cut at it, else jammed if the reduced pressure `z` passed its bound.
    pub fn stop(&self, jammed: bool, at_target: bool, z: f64) -> Option<StopReason> {
        if jammed {
            Some(StopReason::Jammed)
        } else if at_target {
            Some(StopReason::AreaFraction)
        } else if z > self.pressure_bound() {
            Some(StopReason::Jammed)
        } else {
            None
        }
    }
}

/// The reduced pressure `Z = P A / (N k T)` over a step of length `len` from the
/// virial `w` of its impacts or forces and the mean `kinetic = sum m |v - V|^2` of its
/// ends: with `2 N k T = kinetic` and `P A = (kinetic + w / len) / 2`, `Z = 1 + w /
/// (len kinetic)`; `previous` where the step is empty or the balls are at rest.
pub fn reduced_pressure(w: f64, len: f64, kinetic: f64, previous: f64) -> f64 {
    if len > 0.0 && kinetic > 0.0 {
        1.0 + w / (len * kinetic)
    } else {
        previous
    }
}

/// Why a compression stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The target area fraction was reached.
    AreaFraction,
    /// The reduced pressure passed its bound: jammed.
    Jammed,
}

/// Where a compression stands: written into the summary and into state files (the
/// top-level `compression` key).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// `None` while it goes on.
    pub stopped: Option<StopReason>,
    /// The time of the stop (or of the last interval's end).
    pub time: f64,
    /// The area fraction then.
    pub area_fraction: f64,
    /// The reduced pressure `Z = P A / (N k T)` over the last interval (0 before any).
    pub reduced_pressure: f64,
}
