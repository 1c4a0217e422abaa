//! The `[[generators]]` of a scenario: racks, grids and gases as written in a file
//! (expanded into balls by [`crate::generators`]).

use serde::{Deserialize, Serialize};

use super::{default_radius, one};

/// Generators expand into balls, appended after the listed balls in the order the
/// generators are written. See [`crate::generators`] for the exact layouts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Generator {
    /// A triangular rack: its apex at (`x`, `y`), opening towards +x, `rows` rows, row
    /// `k` holding `k + 1` balls; neighbours `gap` apart (0: touching).
    Rack {
        x: f64,
        y: f64,
        #[serde(default = "default_rows")]
        rows: u32,
        #[serde(default = "default_radius")]
        r: f64,
        #[serde(default = "one")]
        m: f64,
        #[serde(default)]
        gap: f64,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        colors: Vec<String>,
    },
    /// `nx` by `ny` balls, the first centred at (`x0`, `y0`), `dx` and `dy` apart, all
    /// with velocity (`vx`, `vy`).
    Lattice {
        nx: u32,
        ny: u32,
        x0: f64,
        y0: f64,
        dx: f64,
        dy: f64,
        #[serde(default = "default_radius")]
        r: f64,
        #[serde(default = "one")]
        m: f64,
        #[serde(default)]
        vx: f64,
        #[serde(default)]
        vy: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        color: Option<String>,
    },
    /// A random gas over the whole table: `n` balls on a jittered square grid, velocities
    /// uniform in `[-speed, speed]^2`, all from `seed`. With `area_fraction` and no table
    /// size, the table is the square of side `sqrt(n pi r^2 / area_fraction)`; with
    /// `area_fraction` and no `n`, `n` is the count that fills the table to that fraction.
    /// With `radii` other than `mono`, the sizes follow that distribution and the balls
    /// are placed at random without overlap (see [`crate::sizes`]); the table's area is
    /// then the drawn balls' area over `area_fraction`.
    Gas {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        n: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        area_fraction: Option<f64>,
        #[serde(default = "one")]
        r: f64,
        /// Every ball's mass; left out: 1 for `mono`, `r_i^2` (area over pi) for the
        /// other distributions.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        m: Option<f64>,
        /// The size distribution (default `mono`: every radius `r`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        radii: Option<RadiiSpec>,
        #[serde(default = "one")]
        speed: f64,
        #[serde(default = "default_seed")]
        seed: u64,
    },
}

/// `radii = { kind = ... }` of a `gas` generator.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum RadiiSpec {
    /// Every radius `r`: the jittered-grid gas.
    Mono,
    /// Two sizes: `r` (the small one, a number fraction `fraction` of the balls,
    /// rounded to the nearest count) and `ratio * r`.
    Bidisperse {
        #[serde(default = "default_ratio")]
        ratio: f64,
        #[serde(default = "default_small_fraction")]
        fraction: f64,
    },
    /// Radii uniform in `[min, max]`.
    Uniform { min: f64, max: f64 },
    /// `ln r` normal with mean `ln median` and standard deviation `sigma`.
    Lognormal { median: f64, sigma: f64 },
}

fn default_ratio() -> f64 {
    1.4
}

fn default_small_fraction() -> f64 {
    0.5
}

fn default_rows() -> u32 {
    5
}

fn default_seed() -> u64 {
    1
}
