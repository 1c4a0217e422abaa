//! Thermostats (`physics.thermostat`): act on the balls' velocities at the end of every
//! step of the world (a stepping model's time step, the event model's output
//! interval), after friction; except Andersen's in the event model without gravity or
//! cloth, which strikes as events of their own at exact Poisson times
//! (`models/event/strikes.rs`, with [`strike_wait`] and [`strike_velocity`]).
//!
//! - `andersen`: each dynamic ball in play is struck by a heat-bath collision at the
//!   times of a Poisson process of the given `rate`. A ball struck at least once in a
//!   step of length `dt`, which happens with probability `1 - exp(-rate dt)` (about
//!   `rate dt` when it is small), has its velocity redrawn from the Maxwell distribution
//!   at the temperature (each component normal with variance `kT / m`, `k = 1`), at the
//!   step's end: the draws are the exact Poisson process's, their times rounded up to
//!   the step's end. The random numbers are counter-based, a hash of `(seed, ball,
//!   step)`, so they depend neither on the thread count nor on how a run is split into
//!   resumed pieces: the only state is the world's step count, which the state file
//!   holds.
//! - `rescale`: velocities are scaled about the centre-of-mass velocity so that the
//!   temperature (translational kinetic energy in the centre-of-mass frame per dynamic
//!   ball in play, as the diagnostics report it) is the given one exactly, to
//!   round-off. A gas at rest (zero temperature) is left alone.
//!
//! Spins are not touched.
//!
//! In a sheared box (Lees-Edwards, [`crate::table::Table::sheared`]) both act on the
//! peculiar velocity `c = v - u(y)`, relative to the streaming profile `u_x = G (y -
//! height / 2)`, `u_y = 0` ([`Thermostat::apply_on`]): `andersen` draws `c` and stores
//! `u(y) + c`; `rescale` measures the temperature of `c` about its mean and scales `c`
//! alone. So the heat made by shearing is taken out without braking the flow (as
//! LAMMPS's `temp/deform` does). Elsewhere the profile is absent and nothing changes.

use serde::{Deserialize, Serialize};

use crate::balls::Balls;
use crate::error::ScenarioError;
use crate::table::Table;

/// `physics.thermostat = { kind = "andersen", temperature, rate, seed }` or
/// `{ kind = "rescale", temperature }`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Thermostat {
    /// Andersen's heat bath: each ball's velocity redrawn from the Maxwell distribution at
    /// the times of a Poisson process.
    Andersen {
        /// The bath's temperature `kT` (`k = 1`), `> 0`.
        temperature: f64,
        /// Strikes per ball per unit time, `> 0`.
        rate: f64,
        /// Seed of the strikes' random numbers (`seed`; default 1).
        #[serde(default = "default_seed")]
        seed: u64,
    },
    /// Velocities scaled in the centre-of-mass frame so that the temperature is held.
    Rescale {
        /// The temperature held, `kT` (`k = 1`), `> 0`.
        temperature: f64,
    },
}

fn default_seed() -> u64 {
    1
}

impl Thermostat {
    /// Refuses a temperature or rate that is not positive and finite, naming the key
    /// under `field` (`physics.thermostat`).
    pub fn check(&self, field: &str) -> Result<(), ScenarioError> {
        let positive = |key: &str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(ScenarioError::field(
                    format!("{field}.{key}"),
                    format!("must be a positive finite number (got {v})"),
                ))
            }
        };
        match *self {
            Thermostat::Andersen {
                temperature, rate, ..
            } => {
                positive("temperature", temperature)?;
                positive("rate", rate)
            }
            Thermostat::Rescale { temperature } => positive("temperature", temperature),
        }
    }

    /// The temperature the thermostat holds.
    pub fn temperature(&self) -> f64 {
        match *self {
            Thermostat::Andersen { temperature, .. } | Thermostat::Rescale { temperature } => {
                temperature
            }
        }
    }

    /// Acts on the velocities at the end of step number `step` (counted from 0, as
    /// the world's `steps` before the step's increment) of length `dt`. `in_play`:
    /// per ball, whether it is in play (empty: every ball is).
    pub fn apply(&self, balls: &mut Balls, in_play: &[bool], step: u64, dt: f64) {
        self.act(balls, in_play, step, dt, None);
    }

    /// [`Thermostat::apply`] on the balls of `table`: in a sheared box relative to
    /// its streaming profile `u_x = G (y - height / 2)` (see the module's notes);
    /// elsewhere exactly `apply`.
    pub fn apply_on(&self, balls: &mut Balls, in_play: &[bool], step: u64, dt: f64, table: &Table) {
        let stream = table
            .is_sheared()
            .then_some((table.shear_rate, 0.5 * table.height));
        self.act(balls, in_play, step, dt, stream);
    }

    /// The thermostat with the streaming profile `u_x = g (y - y0)` given as `stream =
    /// Some((g, y0))`; `None` is the plain one (the profile's terms are skipped, not
    /// added as zeros, so its results are the same bits).
    fn act(
        &self,
        balls: &mut Balls,
        in_play: &[bool],
        step: u64,
        dt: f64,
        stream: Option<(f64, f64)>,
    ) {
        let playing = |i: usize| in_play.get(i).copied().unwrap_or(true);
        // The streaming velocity of ball i, subtracted from and added back to vx.
        let u = |b: &Balls, i: usize| stream.map(|(g, y0)| g * (b.y[i] - y0));
        match *self {
            Thermostat::Andersen {
                temperature,
                rate,
                seed,
            } => {
                let p = -(-rate * dt).exp_m1();
                for i in 0..balls.len() {
                    if balls.inv_m[i] == 0.0 || !playing(i) {
                        continue;
                    }
                    if unit(seed, i as u64, step, 0) >= p {
                        continue;
                    }
                    let s = (temperature * balls.inv_m[i]).sqrt();
                    let (g1, g2) =
                        gaussian_pair(unit(seed, i as u64, step, 1), unit(seed, i as u64, step, 2));
                    balls.vx[i] = match u(balls, i) {
                        Some(ux) => ux + s * g1,
                        None => s * g1,
                    };
                    balls.vy[i] = s * g2;
                }
            }
            Thermostat::Rescale { temperature } => {
                let peculiar = |b: &Balls, i: usize| match u(b, i) {
                    Some(ux) => b.vx[i] - ux,
                    None => b.vx[i],
                };
                let (mut m_tot, mut p, mut n) = (0.0, [0.0, 0.0], 0usize);
                for i in 0..balls.len() {
                    if balls.inv_m[i] == 0.0 || !playing(i) {
                        continue;
                    }
                    m_tot += balls.m[i];
                    p[0] += balls.m[i] * peculiar(balls, i);
                    p[1] += balls.m[i] * balls.vy[i];
                    n += 1;
                }
                if n == 0 {
                    return;
                }
                let v = [p[0] / m_tot, p[1] / m_tot];
                let mut mv2 = 0.0;
                for i in 0..balls.len() {
                    if balls.inv_m[i] == 0.0 || !playing(i) {
                        continue;
                    }
                    let (ux, uy) = (peculiar(balls, i) - v[0], balls.vy[i] - v[1]);
                    mv2 += balls.m[i] * (ux * ux + uy * uy);
                }
                // kT = (1/2) sum m |v - V|^2 / n.
                let now = 0.5 * mv2 / n as f64;
                if !(now > 0.0 && now.is_finite()) {
                    return;
                }
                let s = (temperature / now).sqrt();
                for i in 0..balls.len() {
                    if balls.inv_m[i] == 0.0 || !playing(i) {
                        continue;
                    }
                    balls.vx[i] = match u(balls, i) {
                        Some(ux) => ux + (v[0] + (balls.vx[i] - ux - v[0]) * s),
                        None => v[0] + (balls.vx[i] - v[0]) * s,
                    };
                    balls.vy[i] = v[1] + (balls.vy[i] - v[1]) * s;
                }
            }
        }
    }
}

/// The wait before strike number `strike + 1` of `ball` by Andersen's bath in the
/// event model, exponential with mean `1 / rate` (counter stream 3 of
/// `(seed, ball, strike)`).
#[inline]
pub fn strike_wait(seed: u64, ball: u64, strike: u64, rate: f64) -> f64 {
    -(-unit(seed, ball, strike, 3)).ln_1p() / rate
}

/// The velocity strike `strike + 1` (counted from 1) gives `ball` in the event model:
/// each component normal with variance `kT inv_m` (streams 4 and 5).
#[inline]
pub fn strike_velocity(
    seed: u64,
    ball: u64,
    strike: u64,
    temperature: f64,
    inv_m: f64,
) -> (f64, f64) {
    let s = (temperature * inv_m).sqrt();
    let (g1, g2) = gaussian_pair(unit(seed, ball, strike, 4), unit(seed, ball, strike, 5));
    (s * g1, s * g2)
}

/// The SplitMix64 finaliser: a bijection of 64-bit words that mixes every bit.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Uniform in [0, 1) (53 bits) from the counter `(seed, ball, step, k)`.
#[inline]
pub fn unit(seed: u64, ball: u64, step: u64, k: u64) -> f64 {
    const G: u64 = 0x9E37_79B9_7F4A_7C15;
    let z = mix(seed.wrapping_add(G));
    let z = mix(z ^ ball.wrapping_mul(G).wrapping_add(1));
    let z = mix(z ^ step.wrapping_mul(0xD1B5_4A32_D192_ED03).wrapping_add(2));
    let z = mix(z ^ k.wrapping_add(3).wrapping_mul(G));
    (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Two independent standard normals from two uniforms on [0, 1) (Box-Muller).
#[inline]
fn gaussian_pair(u1: f64, u2: f64) -> (f64, f64) {
    let r = (-2.0 * (1.0 - u1).ln()).sqrt();
    let a = 2.0 * std::f64::consts::PI * u2;
    (r * a.cos(), r * a.sin())
}
